import random
import time

import httpx


class BaseClient:
    max_retries = 3

    def __init__(self, http_client=None):
        self._client = http_client or httpx.Client(base_url="https://api.example", timeout=10)

    def _headers(self):
        return {"User-Agent": "api/1.0"}

    def _request(self, method, path, headers=None, **kwargs):
        merged = {**self._headers(), **(headers or {})}
        return self._client.request(method, path, headers=merged, **kwargs)

    def _retrying_request(self, method, path, **kwargs):
        # the loop retries what ``_request`` sends: the method and the headers are its callers'
        for attempt in range(self.max_retries + 1):
            try:
                return self._request(method, path, **kwargs)
            except httpx.TransportError:
                if attempt == self.max_retries:
                    raise
                time.sleep(random.uniform(0, 2 ** attempt))
        raise RuntimeError("unreachable")
