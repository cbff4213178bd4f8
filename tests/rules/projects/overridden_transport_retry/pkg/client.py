import aiohttp
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential

from pkg.transport.base import AsyncTransport


class Session:
    def __init__(self, transport: AsyncTransport):
        self.transport = transport

    @retry(
        retry=retry_if_exception_type(aiohttp.ClientError),
        stop=stop_after_attempt(5),
        wait=wait_random_exponential(max=10),
    )
    async def execute(self, document):
        return await self.transport.execute(document)  # expect: RES201 "`execute` sends a POST (`aiohttp.ClientSession.post`) without"
