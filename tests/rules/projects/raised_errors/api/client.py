"""Which POSTs the project's retry layers send again: only those whose lost response becomes
the error the layer retries."""

import aiohttp

from api.errors import ApiError, TryAgain
from api.retrying import with_api_retries, with_retries

TIMEOUT = aiohttp.ClientTimeout(total=5, sock_connect=1)


def check(response):
    if response.status >= 500:
        raise TryAgain()  # a 500 may come after the server acted


class Api:
    session: aiohttp.ClientSession

    @with_retries
    async def rate_limited_post(self, url, data):
        # sent again only after the server refused it (429): a lost response leaves the loop
        async with self.session.post(url, json=data, timeout=TIMEOUT) as response:
            if response.status == 429:
                raise TryAgain()
            return await response.json()

    @with_retries
    async def bad_gateway_post(self, url, data):
        async with self.session.post(url, json=data, timeout=TIMEOUT) as response:  # expect: RES201
            if response.status in (502, 503):
                raise TryAgain()  # a 502 may come after the server acted
            return await response.json()

    @with_retries
    async def converting_post(self, url, data):
        try:
            async with self.session.post(url, json=data, timeout=TIMEOUT) as response:  # expect: RES201
                return await response.json()
        except aiohttp.ClientError as exc:
            raise TryAgain() from exc  # the lost response becomes the retried error

    @with_api_retries
    async def base_class_post(self, url, data):
        try:
            async with self.session.post(url, json=data, timeout=TIMEOUT) as response:  # expect: RES201
                return await response.json()
        except aiohttp.ClientError as exc:
            raise TryAgain() from exc  # TryAgain derives from the ApiError the layer retries

    @with_retries
    async def checked_post(self, url, data):
        async with self.session.post(url, json=data, timeout=TIMEOUT) as response:  # expect: RES201
            check(response)
            return await response.json()

    async def login(self):
        async with self.session.post("https://a.example/token", timeout=TIMEOUT) as response:
            return (await response.json())["token"]

    async def wrapped_login(self):
        try:
            return await self.login()
        except aiohttp.ClientError as exc:
            raise TryAgain() from exc

    @with_retries
    async def fetch(self, url):
        # login's POST fails out of the layer; the GET's 401 sends it again after it succeeded
        token = await self.login()
        async with self.session.get(url, headers={"A": token}, timeout=TIMEOUT) as response:
            if response.status == 401:
                raise TryAgain()
            return await response.json()

    @with_retries
    async def profile(self):
        async with self.session.get("https://a.example/me", timeout=TIMEOUT) as response:
            if response.status >= 500:
                raise TryAgain()  # retried here; what leaves is GaveUp
            return await response.json()

    async def login_and_profile(self):
        async with self.session.post("https://a.example/token", timeout=TIMEOUT) as response:
            token = (await response.json())["token"]
        await self.profile()
        return token

    @with_retries
    async def fetch_with_profile(self, url):
        token = await self.login_and_profile()
        async with self.session.get(url, headers={"A": token}, timeout=TIMEOUT) as response:
            return await response.json()

    @with_retries
    async def fetch_wrapped(self, url):
        token = await self.wrapped_login()  # expect: RES201
        async with self.session.get(url, headers={"A": token}, timeout=TIMEOUT) as response:
            return await response.json()


class Unused(ApiError):
    pass
