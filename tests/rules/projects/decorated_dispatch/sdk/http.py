import httpx

from .retry import retried


class HTTPClient:
    def __init__(self):
        self._client = httpx.Client(timeout=10)

    @retried()
    def request(self, method, path, *, headers=None, **kwargs):
        return self._client.request(method, path, headers=headers, **kwargs)

    def post(self, path, **kwargs):
        return self.request("POST", path, **kwargs)
