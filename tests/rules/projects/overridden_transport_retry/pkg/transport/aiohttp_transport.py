import aiohttp

from pkg.transport.base import AsyncTransport


class AIOHTTPTransport(AsyncTransport):
    def __init__(self, url):
        self.url = url
        self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))

    async def execute(self, document):
        # a GraphQL mutation is a POST, retried by the abstract transport's caller
        async with self.session.post(self.url, json={"query": document}) as resp:
            return await resp.json()
