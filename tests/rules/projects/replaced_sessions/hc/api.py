from hc.client import ClientBase


class Client:
    def __init__(self, token, timeout=None):
        self._client = ClientBase(token, endpoint="https://api.example.com/v1", timeout=timeout)

    def request(self, method, url, **kwargs):
        return self._client.request(method, url, **kwargs)
