import aiohttp

from app.web.auth import AuthBase

TIMEOUT = aiohttp.ClientTimeout(total=10, sock_connect=1, sock_read=8)


class RESTAssistant:
    def __init__(self, session: aiohttp.ClientSession, auth: AuthBase = None):
        self._session = session
        self._auth = auth

    async def execute_request(self, url, method="GET", is_auth_required=False):
        request = {"url": url, "method": method, "headers": {}, "auth": is_auth_required}
        request = await self._authenticate(request)
        async with self._session.request(method, url, headers=request["headers"], timeout=TIMEOUT) as r:
            return await r.json()

    async def _authenticate(self, request):
        if self._auth is not None and request["auth"]:
            request = await self._auth.rest_authenticate(request)
        return request
