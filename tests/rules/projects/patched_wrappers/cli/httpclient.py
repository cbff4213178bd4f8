import requests


class HTTPClient:
    def __init__(self, root):
        self.root = root

    def post(self, url, data, **kwargs):
        return requests.post(self.root + url, data, **kwargs)
