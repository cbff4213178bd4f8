"""httpx integration: ``ResilientTransport`` (sync) and ``AsyncResilientTransport``.

Importing this module imports httpx; ``import resilint.runtime`` does not. Use them as
``httpx.Client(transport=ResilientTransport(dependency="search", breaker=True))``. The wrapped
transport is an ``httpx.HTTPTransport(retries=0, limits=limits)`` unless you pass ``transport=``
(then make sure it does not retry on its own). Pool limits belong here: httpx ignores
``httpx.Client(limits=...)`` whenever a transport is given. The client's timeout is an upper
bound; per attempt it is clamped to the remaining deadline, and an async attempt as a whole is
cut when the deadline passes.
"""

from __future__ import annotations

from typing import Any, Optional

import httpx

from ..timeouts import SplitTimeout
from ._engine import AttemptSpec, HttpPolicy, run_async, run_sync

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


def _copy_for(request: httpx.Request, spec: AttemptSpec) -> httpx.Request:
    """The request as one attempt (or hedge) sends it: its own timeout and deadline header."""
    headers = request.headers.copy()
    headers.update(spec.headers)
    extensions = dict(request.extensions)
    extensions["timeout"] = spec.timeout.as_dict()
    return httpx.Request(request.method, request.url, headers=headers, stream=request.stream, extensions=extensions)


def _read_and_close(response: httpx.Response) -> None:
    """Release a response the caller will not get (or gets inside an exception): read its body
    (so ``.content`` still works and the connection can be reused), then close it."""
    try:
        response.read()
    except Exception:
        pass
    finally:
        response.close()


async def _aread_and_close(response: httpx.Response) -> None:
    try:
        await response.aread()
    except Exception:
        pass
    finally:
        await response.aclose()


class _Wrapping:
    """What both transports are built from: the policy, and the wrapped transport — yours, or
    ``_factory(retries=0)`` with the pool ``limits`` (httpx ignores ``httpx.Client(limits=...)``
    as soon as a transport is given, so the limits go to the transport that owns the pool)."""

    _factory: Any

    def __init__(
        self,
        policy: Optional[HttpPolicy] = None,
        *,
        transport: Optional[Any] = None,
        limits: Optional[httpx.Limits] = None,
        **policy_kwargs: Any,
    ) -> None:
        if policy is not None and policy_kwargs:
            raise TypeError("pass either policy= or policy keyword arguments, not both")
        if transport is not None and limits is not None:
            raise TypeError("give limits= to your own transport=, not to the resilient transport as well")
        self.policy = policy if policy is not None else HttpPolicy(**policy_kwargs)
        if transport is None:
            transport = self._factory(retries=0) if limits is None else self._factory(retries=0, limits=limits)
        self._inner = transport


class ResilientTransport(_Wrapping, httpx.BaseTransport):
    _factory = httpx.HTTPTransport

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        bound = self.policy.bind(_host(request), request.method, request.headers, _repeatable(request), _cap(request))

        def send_copy(spec: AttemptSpec) -> httpx.Response:
            return self._inner.handle_request(_copy_for(request, spec))

        return run_sync(bound, send_copy, _read_and_close)

    def close(self) -> None:
        self._inner.close()


class AsyncResilientTransport(_Wrapping, httpx.AsyncBaseTransport):
    _factory = httpx.AsyncHTTPTransport

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        bound = self.policy.bind(_host(request), request.method, request.headers, _repeatable(request), _cap(request))

        async def send_copy(spec: AttemptSpec) -> httpx.Response:
            return await self._inner.handle_async_request(_copy_for(request, spec))

        return await run_async(bound, send_copy, _aread_and_close)

    async def aclose(self) -> None:
        await self._inner.aclose()
