from okta.http_client import HTTPClient


class RequestExecutor:
    def __init__(self, config, http_client=None):
        http_client_impl = http_client or HTTPClient
        self._http_client = http_client_impl(config)

    async def fire_request(self, request):
        return await self._http_client.send_request(request)

    def set_session(self, session):
        self._http_client.set_session(session)
