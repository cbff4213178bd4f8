import httpx


class BaseClient:
    def __init__(self, api_key, *, http_client=None):
        self.api_key = api_key
        self._client = http_client or httpx.Client(base_url="https://api.example", timeout=10)
