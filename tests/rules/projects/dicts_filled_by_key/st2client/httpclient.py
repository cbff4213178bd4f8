import json

import requests


def add_auth_token_to_headers(func):
    def decorate(*args, **kwargs):
        headers = kwargs.get("headers", dict())
        token = kwargs.pop("token", None)
        if token:
            headers["X-Auth-Token"] = str(token)
            kwargs["headers"] = headers
        return func(*args, **kwargs)

    return decorate


class HTTPClient(object):
    def __init__(self, root):
        self.root = root

    @add_auth_token_to_headers
    def get(self, url, **kwargs):
        return requests.get(self.root + url, **kwargs)

    @add_auth_token_to_headers
    def post(self, url, data, **kwargs):
        return requests.post(self.root + url, json.dumps(data), **kwargs)
