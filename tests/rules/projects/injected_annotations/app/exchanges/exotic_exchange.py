# select: RES201
import asyncio
import random

import aiohttp

from app.exchanges.exotic_auth import ExoticAuth
from app.web.login_assistant import LoginAssistant


class ExoticExchange:
    """The one exchange whose requests log in first, with a POST."""

    def __init__(self, session: aiohttp.ClientSession):
        self._rest = LoginAssistant(session, ExoticAuth("k"))

    async def get_balances(self):
        for attempt in range(3):
            try:
                return await self._rest.signed_get("https://exotic.example/balances")  # expect: RES201
            except aiohttp.ClientError:
                await asyncio.sleep(attempt + random.random())
        raise RuntimeError("gave up")
