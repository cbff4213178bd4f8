import asyncio
import random

import aiohttp

from hb.grvt.auth import GrvtAuth
from hb.web.rest import RESTAssistant

PRICES_URL = "https://api.coingecko.com/api/v3/simple/supported_vs_currencies"


async def supported_vs_tokens():
    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
    assistant = RESTAssistant(session)  # no auth: nothing logs in
    for _ in range(3):
        try:
            return await assistant.execute_request(url=PRICES_URL)
        except IOError:
            await asyncio.sleep(random.uniform(0, 60))
    raise IOError("rate source unavailable")


async def grvt_positions(api_key):
    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
    assistant = RESTAssistant(session, GrvtAuth(api_key))
    for _ in range(3):
        try:
            return await assistant.execute_request(url="https://trades.grvt.io/positions", is_auth_required=True)  # expect: RES201 "through `_authenticate`"
        except IOError:
            await asyncio.sleep(random.uniform(0, 60))
    raise IOError("positions unavailable")
