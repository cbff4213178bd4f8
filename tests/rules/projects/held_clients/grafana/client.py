# select: RES101
from urllib.parse import urljoin

import requests


def local_echo(url, **kwargs):
    return {"url": url, **kwargs}


class APIClient:
    """The caller hands over the requests function to send with, and the keywords."""

    def __init__(self, api_url, api_token):
        self.api_url = api_url
        self.api_token = api_token

    def api_get(self, endpoint, **kwargs):
        return self.call_api(endpoint, requests.get, **kwargs)

    def api_post(self, endpoint, body=None, **kwargs):
        return self.call_api(endpoint, requests.post, body, **kwargs)

    def api_local(self, endpoint, **kwargs):
        return self.call_api(endpoint, local_echo, **kwargs)

    def call_api(self, endpoint, http_method, body=None, **kwargs):
        response = http_method(
            urljoin(self.api_url, endpoint),
            json=body,
            headers={"Authorization": f"Bearer {self.api_token}"},
            **kwargs,
        )
        response.raise_for_status()
        return response.json()
