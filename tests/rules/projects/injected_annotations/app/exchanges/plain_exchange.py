import asyncio
import random

import aiohttp

from app.exchanges.plain_auth import PlainAuth
from app.web.rest_assistant import RESTAssistant


class PlainExchange:
    def __init__(self, session: aiohttp.ClientSession):
        self._rest = RESTAssistant(session, auth=PlainAuth("k", "s"))

    async def get_prices(self):
        # retries a GET signed by PlainAuth (a local HMAC): nothing here POSTs, though the
        # assistant's `auth` is annotated with the base class, which the exotic login overrides
        for attempt in range(3):
            try:
                return await self._rest.execute_request("https://plain.example/prices")
            except aiohttp.ClientError:
                await asyncio.sleep(attempt + random.random())
        raise RuntimeError("gave up")
