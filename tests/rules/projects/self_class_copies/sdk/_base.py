import random

import anyio
import httpx

from ._constants import DEFAULT_TIMEOUT


class APIError(Exception):
    pass


class AsyncAPIClient:
    def __init__(self, base_url: str, max_retries: int = 2) -> None:
        self.base_url = base_url
        self.max_retries = max_retries
        self._client = httpx.AsyncClient(base_url=base_url, timeout=DEFAULT_TIMEOUT)

    async def request(self, method: str, path: str, body=None) -> httpx.Response:
        max_retries = self.max_retries
        for retries_taken in range(max_retries + 1):
            remaining = max_retries - retries_taken
            try:
                response = await self._client.send(self._client.build_request(method, path, json=body))
                response.raise_for_status()
                return response
            except httpx.HTTPError as err:
                if remaining <= 0:
                    raise APIError(str(err)) from err
                await anyio.sleep(0.5 * 2**retries_taken * (1 - 0.25 * random.random()))
        raise RuntimeError("unreachable")

    async def post(self, path: str, body=None) -> httpx.Response:
        return await self.request("post", path, body)
