# The timeout is a keyword the callers may pass through **kwargs, with the default the
# constructor gives it (woocommerce's API, ``kwargs.get("timeout", 5)``).
import requests


class API:
    def __init__(self, url, **kwargs):
        self.url = url
        self.timeout = kwargs.get("timeout", 500)

    def get(self, path):
        return requests.request("GET", self.url + path, timeout=self.timeout)


class OpenAPI:
    def __init__(self, url, **kwargs):
        self.url = url
        self.timeout = kwargs.get("timeout")

    def get(self, path):
        return requests.request("GET", self.url + path, timeout=self.timeout)
