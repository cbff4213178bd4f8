# select: RES105
import aiohttp

from okta.request_executor import RequestExecutor


class Client:
    # okta-sdk-python: the executor class comes from the user's configuration, by default the
    # SDK's own; the session made here is handed down to its HTTP client
    def __init__(self, user_config):
        self._request_executor = user_config.get("requestExecutor", RequestExecutor)(
            user_config, user_config.get("httpClient", None)
        )

    async def __aenter__(self):
        self._session = aiohttp.ClientSession()
        self._request_executor.set_session(self._session)
        return self

    async def get_user(self, user_id):
        return await self._request_executor.fire_request({"method": "GET", "url": f"/api/v1/users/{user_id}"})


class LegacyClient:
    def __init__(self, user_config):
        self._request_executor = user_config.get("requestExecutor", LegacyExecutor)(user_config)

    async def __aenter__(self):
        self._session = aiohttp.ClientSession()  # expect: RES105 "300 s"
        self._request_executor.set_session(self._session)
        return self


class LegacyExecutor:
    def __init__(self, config):
        self._session = None

    def set_session(self, session):
        self._session = session

    async def fire_request(self, request):
        async with self._session.request(request["method"], request["url"]) as response:
            return await response.text()
