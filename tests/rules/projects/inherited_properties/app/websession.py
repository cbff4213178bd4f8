import aiohttp

SESSION_TIMEOUT = aiohttp.ClientTimeout(total=20, sock_connect=3, sock_read=10)


class WebSession:
    def __init__(self):
        self._websession = None

    async def init_websession(self):
        self._websession = aiohttp.ClientSession(timeout=SESSION_TIMEOUT)

    @property
    def websession(self) -> aiohttp.ClientSession:
        return self._websession


class WebSessionAttributes:
    web: WebSession

    @property
    def sys_websession(self) -> aiohttp.ClientSession:
        return self.web.websession
