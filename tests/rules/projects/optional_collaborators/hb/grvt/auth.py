import aiohttp

from hb.web.auth import AuthBase

AUTH_URL = "https://edge.grvt.io/auth/api_key/login"


class GrvtAuth(AuthBase):
    def __init__(self, api_key):
        self._api_key = api_key
        self._cookie = None

    async def rest_authenticate(self, request):
        if self._cookie is None:
            await self._refresh_session()
        request.headers = {"Cookie": self._cookie}
        return request

    async def _refresh_session(self):
        async with aiohttp.ClientSession() as session:
            async with session.post(AUTH_URL, json={"api_key": self._api_key}, timeout=5) as r:
                self._cookie = r.headers.get("Set-Cookie")
