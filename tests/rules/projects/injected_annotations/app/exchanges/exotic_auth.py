import aiohttp

from app.web.auth import AuthBase

LOGIN_TIMEOUT = aiohttp.ClientTimeout(total=10, sock_connect=1, sock_read=8)


class ExoticAuth(AuthBase):
    """Only the 'exotic' exchange logs in with a POST to get a session cookie."""

    def __init__(self, api_key):
        self._api_key = api_key
        self._cookie = None

    async def rest_authenticate(self, request):
        if self._cookie is None:
            async with aiohttp.ClientSession() as s:
                async with s.post("https://exotic.example/login", json={"k": self._api_key},
                                  timeout=LOGIN_TIMEOUT) as r:
                    self._cookie = r.headers.get("Set-Cookie")
        request["headers"]["Cookie"] = self._cookie
        return request
