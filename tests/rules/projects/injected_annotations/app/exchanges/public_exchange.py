import asyncio
import random

import aiohttp

from app.web.rest_assistant import RESTAssistant


class PublicExchange:
    """Market data only: no credentials, so no ``auth`` (the annotation's class never runs)."""

    def __init__(self, session: aiohttp.ClientSession):
        self._rest = RESTAssistant(session)

    async def get_trades(self):
        for attempt in range(3):
            try:
                return await self._rest.execute_request("https://public.example/trades")
            except aiohttp.ClientError:
                await asyncio.sleep(attempt + random.random())
        raise RuntimeError("gave up")
