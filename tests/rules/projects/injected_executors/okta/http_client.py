import asyncio

import aiohttp


class HTTPClient:
    def __init__(self, config):
        self._timeout = aiohttp.ClientTimeout(total=config["requestTimeout"])
        self._session = None

    def set_session(self, session):
        self._session = session

    async def send_request(self, request):
        try:
            params = {"method": request["method"], "url": request["url"]}
            if self._timeout:
                params["timeout"] = self._timeout
            async with self._session.request(**params) as response:
                return await response.text()
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            return error
