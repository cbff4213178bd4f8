"""httpx integration: ``ResilientTransport`` (sync) and ``AsyncResilientTransport``.

Importing this module imports httpx; ``import resilint.runtime`` does not. Use them as
``httpx.Client(transport=ResilientTransport(dependency="search", breaker=True))``. The wrapped
transport is an ``httpx.HTTPTransport(retries=0)`` unless you pass ``transport=`` (then make
sure it does not retry on its own). The client's timeout is an upper bound; per attempt it is
clamped to the remaining deadline.
"""

from __future__ import annotations

from typing import Any, Optional

import httpx

from ..timeouts import SplitTimeout
from ._engine import HttpPolicy, run_async, run_sync

__all__ = ["ResilientTransport", "AsyncResilientTransport", "HttpPolicy"]


def _cap(request: httpx.Request) -> Optional[SplitTimeout]:
    ext = request.extensions.get("timeout") or {}
    big = float("inf")
    connect = ext.get("connect")
    read = ext.get("read")
    if connect is None and read is None:
        return None
    return SplitTimeout(big if connect is None else connect, big if read is None else read)


def _host(request: httpx.Request) -> str:
    url = request.url
    port = url.port
    return f"{url.host}:{port}" if port else url.host


def _repeatable(request: httpx.Request) -> bool:
    return isinstance(request.stream, httpx.ByteStream)


def _with_timeout(request: httpx.Request, t: SplitTimeout) -> httpx.Request:
    ext = dict(request.extensions)
    ext["timeout"] = t.as_dict()
    request.extensions = ext
    return request


def _make_policy(policy: Optional[HttpPolicy], kwargs: dict) -> HttpPolicy:
    if policy is not None and kwargs:
        raise TypeError("pass either policy= or policy keyword arguments, not both")
    return policy if policy is not None else HttpPolicy(**kwargs)


class ResilientTransport(httpx.BaseTransport):
    def __init__(self, policy: Optional[HttpPolicy] = None, *, transport: Optional[httpx.BaseTransport] = None, **policy_kwargs: Any) -> None:
        self.policy = _make_policy(policy, policy_kwargs)
        self._inner = transport if transport is not None else httpx.HTTPTransport(retries=0)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        bound = self.policy.bind(_host(request), request.method, request.headers, _repeatable(request))

        def send_once(t: SplitTimeout) -> httpx.Response:
            return self._inner.handle_request(_with_timeout(request, t))

        return run_sync(bound, _cap(request), send_once, lambda r: r.close())

    def close(self) -> None:
        self._inner.close()


class AsyncResilientTransport(httpx.AsyncBaseTransport):
    def __init__(self, policy: Optional[HttpPolicy] = None, *, transport: Optional[httpx.AsyncBaseTransport] = None, **policy_kwargs: Any) -> None:
        self.policy = _make_policy(policy, policy_kwargs)
        self._inner = transport if transport is not None else httpx.AsyncHTTPTransport(retries=0)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        bound = self.policy.bind(_host(request), request.method, request.headers, _repeatable(request))

        async def send_once(t: SplitTimeout) -> httpx.Response:
            return await self._inner.handle_async_request(_with_timeout(request, t))

        async def aclose(r: httpx.Response) -> None:
            await r.aclose()

        return await run_async(bound, _cap(request), send_once, aclose)

    async def aclose(self) -> None:
        await self._inner.aclose()
