"""httpx integration: ``ResilientTransport`` (sync), ``AsyncResilientTransport``, and the
clients ``ResilientClient`` / ``AsyncResilientClient`` built on them.

Importing this module imports httpx; ``import resilint.runtime`` does not.

The simplest form is ``ResilientClient(dependency="search", breaker=True, verify=..., proxy=...)``:
an ``httpx.Client`` whose *every* transport is resilient — the default one and each proxy
mount, whether the proxy comes from ``proxy=`` or from the environment (``HTTPS_PROXY`` …) — and
built by httpx from the client's own settings (``verify``, ``cert``, ``limits``, ``http2``,
``trust_env``). ``httpx.Client(transport=ResilientTransport(...))`` works too, but httpx then
hands requests to a proxy (``proxy=``) to a transport of its own, without resilience, and
ignores ``verify``/``cert``/``limits``: give those to the transport
(``ResilientTransport(verify=..., proxy=..., limits=...)``), or use the client classes.

The wrapped transport is an ``httpx.HTTPTransport(retries=0, ...)`` unless you pass
``transport=`` (then make sure it does not retry on its own). The client's timeout is an upper
bound; per attempt it is clamped to the remaining deadline, and an async attempt as a whole is
cut when the deadline passes.

Bodies are read within the attempt: a connection that drops mid-body is retried like any
failed attempt, and the time the body takes counts against the deadline (and, for the breaker,
towards a slow call). To stream a response instead (a large download), send the request with
``extensions={"resilint.stream": True}``: its body is then yours to read, outside the retries,
as with .NET's ``HttpCompletionOption.ResponseHeadersRead``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, Optional

import httpx

from ..deadline import Deadline, current_deadline
from ..timeouts import SplitTimeout
from ._engine import AttemptSpec, HttpPolicy, run_async, run_sync

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ._engine import PolicyOptions

__all__ = [
    "ResilientTransport",
    "AsyncResilientTransport",
    "ResilientClient",
    "AsyncResilientClient",
    "HttpPolicy",
    "STREAM_EXTENSION",
]

#: Request extension asking the transports not to read the body within the attempt.
STREAM_EXTENSION = "resilint.stream"


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


def _streamed(request: httpx.Request) -> bool:
    return bool(request.extensions.get(STREAM_EXTENSION))


def _copy_for(request: httpx.Request, spec: AttemptSpec) -> httpx.Request:
    """The request as one attempt (or hedge) sends it: its own timeout and deadline header."""
    headers = request.headers.copy()
    headers.update(spec.headers)
    extensions = {k: v for k, v in request.extensions.items() if k != STREAM_EXTENSION}
    extensions["timeout"] = spec.timeout.as_dict()
    return httpx.Request(request.method, request.url, headers=headers, stream=request.stream, extensions=extensions)


class _DeadlineBoundStream(httpx.SyncByteStream):
    """A response body that stops with ``TimeoutError`` once the deadline has passed between
    two chunks: a blocking read cannot be interrupted, but a body that trickles in cannot hold
    the caller past the deadline by more than one read wait."""

    def __init__(self, stream: Any, expiry: Deadline) -> None:
        self._stream = stream
        self._expiry = expiry

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._stream:
            yield chunk
            if self._expiry.expired:
                raise TimeoutError("body cut: the deadline passed while it was being read")

    def close(self) -> None:
        self._stream.close()


def _read_body(response: httpx.Response) -> httpx.Response:
    """Read ``response``'s body within the attempt (bounded by the deadline); close it on failure."""
    expiry = current_deadline()
    if expiry is not None:
        response.stream = _DeadlineBoundStream(response.stream, expiry)
    try:
        response.read()
    except BaseException:
        response.close()
        raise
    return response


async def _aread_body(response: httpx.Response) -> httpx.Response:
    """Async form of :func:`_read_body` (the engine bounds the whole copy by the deadline)."""
    try:
        await response.aread()
    except BaseException:
        await response.aclose()
        raise
    return response


def _close(response: httpx.Response) -> None:
    """Release a response the caller will not get: its body was read within the attempt (or it
    is streamed and nobody will read it), so closing is all that is left."""
    response.close()


async def _aclose(response: httpx.Response) -> None:
    await response.aclose()


_TRANSPORT_SETTINGS = ("limits", "verify", "cert", "proxy", "trust_env", "http1", "http2")


class _Wrapping:
    """What both transports are built from: the policy, and the wrapped transport — yours, or
    ``_factory(retries=0, ...)`` with the connection settings given here (``limits``,
    ``verify``, ``cert``, ``proxy``, ``trust_env``, ``http1``, ``http2``: httpx ignores the
    client's as soon as a transport is given, so they go to the transport that connects)."""

    _factory: Any

    def __init__(
        self,
        policy: Optional[HttpPolicy] = None,
        *,
        transport: Optional[Any] = None,
        limits: Optional[httpx.Limits] = None,
        verify: Any = None,
        cert: Any = None,
        proxy: Any = None,
        trust_env: Optional[bool] = None,
        http1: Optional[bool] = None,
        http2: Optional[bool] = None,
        **policy_kwargs: "Unpack[PolicyOptions]",
    ) -> None:
        if policy is not None and policy_kwargs:
            raise TypeError("pass either policy= or policy keyword arguments, not both")
        given = dict(limits=limits, verify=verify, cert=cert, proxy=proxy, trust_env=trust_env, http1=http1, http2=http2)
        settings = {k: v for k, v in given.items() if v is not None}
        if transport is not None and settings:
            raise TypeError(
                f"give {', '.join(f'{k}=' for k in settings)} to your own transport=, not to the resilient transport as well"
            )
        self.policy = policy if policy is not None else HttpPolicy(**policy_kwargs)
        if transport is None:
            transport = self._factory(retries=0, **settings)
        self._inner = transport

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.policy!r}, transport={self._inner!r})"


class ResilientTransport(_Wrapping, httpx.BaseTransport):
    """A sync httpx transport applying :class:`HttpPolicy` to every request (see the module
    documentation): ``httpx.Client(transport=ResilientTransport(dependency="search"))``."""

    _factory = httpx.HTTPTransport

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` with retries, deadline, budget, breaker, bulkhead and hedging."""
        bound = self.policy.bind(_host(request), request.method, request.headers, _repeatable(request), _cap(request))
        streamed = _streamed(request)

        def send_copy(spec: AttemptSpec) -> httpx.Response:
            response = self._inner.handle_request(_copy_for(request, spec))
            return response if streamed else _read_body(response)

        return run_sync(bound, send_copy, _close)  # type: ignore[no-any-return]

    def close(self) -> None:
        """Close the wrapped transport (its connection pool)."""
        self._inner.close()


class AsyncResilientTransport(_Wrapping, httpx.AsyncBaseTransport):
    """The asyncio form of :class:`ResilientTransport`:
    ``httpx.AsyncClient(transport=AsyncResilientTransport(dependency="search"))``."""

    _factory = httpx.AsyncHTTPTransport

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` with retries, deadline, budget, breaker, bulkhead and hedging."""
        bound = self.policy.bind(_host(request), request.method, request.headers, _repeatable(request), _cap(request))
        streamed = _streamed(request)

        async def send_copy(spec: AttemptSpec) -> httpx.Response:
            response = await self._inner.handle_async_request(_copy_for(request, spec))
            return response if streamed else await _aread_body(response)

        return await run_async(bound, send_copy, _aclose)  # type: ignore[no-any-return]

    async def aclose(self) -> None:
        """Close the wrapped transport (its connection pool)."""
        await self._inner.aclose()


def _split_policy(policy: Optional[HttpPolicy], kwargs: Dict[str, Any]) -> HttpPolicy:
    """Take the :class:`HttpPolicy` keyword arguments out of ``kwargs`` (the rest are the
    client's); returns the policy."""
    import inspect

    names = set(inspect.signature(HttpPolicy).parameters)
    policy_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in names}
    if policy is not None and policy_kwargs:
        raise TypeError("pass either policy= or policy keyword arguments, not both")
    return policy if policy is not None else HttpPolicy(**policy_kwargs)


class _EveryTransportResilient:
    """What both client classes add to httpx's: the policy, split from the client's keyword
    arguments, and every transport the client builds or is given wrapped in ``_wrapper``."""

    _wrapper: Any
    policy: HttpPolicy

    def __init__(self, policy: Optional[HttpPolicy] = None, **kwargs: Any) -> None:
        self.policy = _split_policy(policy, kwargs)
        mounts = kwargs.get("mounts")
        if mounts:
            kwargs["mounts"] = {pattern: self._resilient(t) for pattern, t in mounts.items()}
        super().__init__(**kwargs)

    def _resilient(self, transport: Any) -> Any:
        if transport is None or isinstance(transport, self._wrapper):
            return transport
        return self._wrapper(self.policy, transport=transport)

    # httpx builds the default transport and each proxy's through these two (0.23 to 0.28)
    def _init_transport(self, *args: Any, **kwargs: Any) -> Any:
        return self._resilient(getattr(super(), "_init_transport")(*args, **kwargs))

    def _init_proxy_transport(self, *args: Any, **kwargs: Any) -> Any:
        return self._resilient(getattr(super(), "_init_proxy_transport")(*args, **kwargs))


class ResilientClient(_EveryTransportResilient, httpx.Client):
    """An ``httpx.Client`` whose every transport — the default one, each proxy mount (from
    ``proxy=`` or the environment) and each of your ``mounts=`` — applies one
    :class:`HttpPolicy`. Takes the client's keyword arguments and the policy's (or
    ``policy=``): ``ResilientClient(dependency="search", breaker=True, proxy=..., verify=...)``.
    """

    _wrapper = ResilientTransport


class AsyncResilientClient(_EveryTransportResilient, httpx.AsyncClient):
    """The asyncio form of :class:`ResilientClient` (an ``httpx.AsyncClient``)."""

    _wrapper = AsyncResilientTransport
