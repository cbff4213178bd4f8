from typing import Optional

import aiohttp

from hb.web.auth import AuthBase


class RESTRequest:
    def __init__(self, method, url, headers=None, is_auth_required=False):
        self.method = method
        self.url = url
        self.headers = headers
        self.is_auth_required = is_auth_required


class RESTAssistant:
    # an optional collaborator: the calls that leave it out leave ``self._auth`` None, and the
    # guard below rules out the authentication on their objects
    def __init__(self, session: aiohttp.ClientSession, auth: Optional[AuthBase] = None):
        self._session = session
        self._auth = auth

    async def execute_request(self, url, method="GET", is_auth_required=False):
        request = RESTRequest(method=method, url=url, is_auth_required=is_auth_required)
        request = await self._authenticate(request)
        async with self._session.request(request.method, request.url, headers=request.headers) as resp:
            if resp.status >= 400:
                raise IOError(f"HTTP status is {resp.status}")
            return await resp.json()

    async def _authenticate(self, request):
        if self._auth is not None and request.is_auth_required:
            request = await self._auth.rest_authenticate(request)
        return request
