# select: RES201
import asyncio
import random
from enum import Enum

from aiohttp import ClientError, ClientSession, ClientTimeout


class Method(Enum):
    GET = "GET"
    POST = "POST"

    def __str__(self):
        return self.value


class HTTPAPI:
    """mautrix's shape: the method is annotated with the project's enum and handed on."""

    def __init__(self, base_url):
        self.base_url = base_url
        self.session = ClientSession(timeout=ClientTimeout(total=30))

    async def _send(self, method, url, content):
        async with self.session.request(str(method), url, json=content) as response:
            return await response.json()

    async def request(self, method: Method, path, content=None, retry_count=3):
        while True:
            try:
                return await self._send(method, self.base_url + path, content)
            except ClientError:
                if retry_count <= 0:
                    raise
            await asyncio.sleep(random.uniform(0, 4))
            retry_count -= 1
