# A retry loop made a decorator with the ``decorator`` package (gcsfs's retry_request),
# applied with a class constant, around methods that call each other.
import json

from fsspec.implementations.http import get_client

from .retry import retry_request


class GCSFileSystem:
    retries = 6  # number of retries on http failure

    def __init__(self, requests_timeout=None):
        self.requests_timeout = requests_timeout
        self._session = None

    async def _set_session(self):
        if self._session is None:
            self._session = await get_client()
        return self._session

    @retry_request(retries=retries)
    async def _request(self, method, path, **kwargs):
        await self._set_session()
        async with self._session.request(method=method, url=path, timeout=self.requests_timeout) as r:
            return r.status, await r.read()

    async def _call(self, method, path, **kwargs):
        status, contents = await self._request(method, path, **kwargs)
        return json.loads(contents)

    async def _info(self, path):
        return await self._call("GET", path)

    @retry_request(retries=retries)
    async def _get_file_request(self, rpath, lpath):
        await self._set_session()
        async with self._session.get(url=rpath, timeout=self.requests_timeout) as r:
            data = await r.read()
        with open(lpath, "wb") as f:
            f.write(data)

    @retry_request(retries=retries)
    async def _get_file_concurrent(self, rpath, lpath, concurrency):
        details = await self._info(rpath)  # expect: RES204 "`_info` -> `_call` -> `_request`: a hand-written retry loop 6 attempts (gcsfs/retry.py:14) x a hand-written retry loop 6 attempts (gcsfs/retry.py:14) = up to 36 calls"
        if details.get("size", 0) < 5 * 2**20:
            concurrency = 1
        if concurrency == 1:
            return await self._get_file_request(rpath, lpath)  # expect: RES204 "= up to 36 calls per operation"
