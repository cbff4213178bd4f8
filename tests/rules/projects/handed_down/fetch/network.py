"""A pool of clients per network, reached through a registry the module fills at start-up."""
from __future__ import annotations

import httpx

NETWORKS: dict[str, "Network"] = {}


class Network:
    def __init__(self, retries: int = 0):
        self.retries = retries
        self._clients = {}

    async def get_client(self, verify: bool = True) -> httpx.AsyncClient:
        if verify not in self._clients:
            self._clients[verify] = httpx.AsyncClient(verify=verify, timeout=10)  # expect: RES103
        return self._clients[verify]

    async def call_client(self, stream: bool, method: str, url: str, **kwargs):
        retries = self.retries
        while retries >= 0:
            client = await self.get_client()
            try:
                if stream:
                    return client.stream(method, url, **kwargs)
                return await client.request(method, url, **kwargs)
            except httpx.RequestError:
                if retries <= 0:
                    raise
            retries -= 1

    async def request(self, method: str, url: str, **kwargs):
        return await self.call_client(False, method, url, **kwargs)


def get_network(name: str) -> "Network":
    return NETWORKS.get(name)
