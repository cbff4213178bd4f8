import aiohttp

from app.web.auth import AuthBase

TIMEOUT = aiohttp.ClientTimeout(total=10, sock_connect=1, sock_read=8)


class LoginAssistant:
    def __init__(self, session: aiohttp.ClientSession, auth: AuthBase):
        self._session = session
        self._auth = auth

    async def signed_get(self, url):
        request = await self._auth.rest_authenticate({"url": url, "headers": {}})
        async with self._session.get(url, headers=request["headers"], timeout=TIMEOUT) as r:
            return await r.json()
