"""Deadline propagation across services.

Outbound, the *remaining* budget travels as ``X-Resilint-Deadline-Ms: <integer ms>`` —
relative, so clocks on different machines never need to agree — minus a small margin
(default 10 ms) for the time the request spends on the wire. Inbound, :class:`WSGIDeadlineMiddleware`
and :class:`ASGIDeadlineMiddleware` read that header (and gRPC's ``grpc-timeout``, e.g.
``100m`` or ``2S``), cap it with a local ``ceiling`` (a caller may not make us hold resources
longer than we are willing to), and run the application inside ``deadline(...)``. A request
whose budget is already spent is answered ``504`` without running the application, and a
:class:`DeadlineExceeded` escaping the application before it started its response also becomes
``504``.
"""

from __future__ import annotations

import contextvars
import re
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, MutableMapping, Optional, Tuple

from . import metrics as _metrics
from ._clock import Clock
from .classify import ascii_digits
from .deadline import MAX_DEADLINE, deadline, remaining
from .errors import DeadlineExceeded

__all__ = [
    "DEADLINE_HEADER",
    "GRPC_TIMEOUT_HEADER",
    "DEFAULT_MARGIN_MS",
    "REFUSED_HEADER",
    "deadline_ms",
    "outbound_deadline_ms",
    "outbound_headers",
    "inject_deadline",
    "parse_grpc_timeout",
    "parse_deadline_ms",
    "deadline_from_headers",
    "WSGIDeadlineMiddleware",
    "ASGIDeadlineMiddleware",
]

DEADLINE_HEADER = "X-Resilint-Deadline-Ms"
GRPC_TIMEOUT_HEADER = "grpc-timeout"
DEFAULT_MARGIN_MS = 10
#: Set on the 504 answers the middlewares produce; the retry classifier never retries them
#: (the caller's budget is spent, another attempt cannot help).
REFUSED_HEADER = "X-Resilint-Deadline-Exceeded"

_GRPC_UNITS = {"H": 3600.0, "M": 60.0, "S": 1.0, "m": 1e-3, "u": 1e-6, "n": 1e-9}


def deadline_ms(left: Optional[float], margin_ms: int = DEFAULT_MARGIN_MS) -> Optional[int]:
    """The header value for ``left`` seconds remaining: whole milliseconds minus ``margin_ms``
    (``None`` without a deadline); <= 0 means nothing is left for the callee."""
    return None if left is None else int(left * 1000) - int(margin_ms)


def outbound_deadline_ms(margin_ms: int = DEFAULT_MARGIN_MS) -> Optional[int]:
    """Remaining milliseconds minus ``margin_ms`` (``None`` without a deadline).

    Raises :class:`DeadlineExceeded` when nothing would be left for the callee. The value never
    has more than 8 digits: :func:`~.deadline.deadline` keeps no deadline longer than
    :data:`~.deadline.MAX_DEADLINE`.
    """
    ms = deadline_ms(remaining(), margin_ms)
    if ms is not None and ms <= 0:
        _metrics.emit("deadline_refused", None, what="outbound propagation")
        raise DeadlineExceeded("deadline too close to send the request (nothing left for the callee)")
    return ms


def outbound_headers(margin_ms: int = DEFAULT_MARGIN_MS) -> Dict[str, str]:
    """``{DEADLINE_HEADER: "<ms>"}`` for the current deadline, or ``{}``."""
    ms = outbound_deadline_ms(margin_ms)
    return {} if ms is None else {DEADLINE_HEADER: str(ms)}


def inject_deadline(headers: MutableMapping[str, str], margin_ms: int = DEFAULT_MARGIN_MS) -> MutableMapping[str, str]:
    """Set (or overwrite) the deadline header in ``headers``; returns ``headers``."""
    headers.update(outbound_headers(margin_ms))
    return headers


def _bounded(seconds: float) -> Optional[float]:
    """An inbound budget longer than :data:`~.deadline.MAX_DEADLINE` is absurd: ignore it."""
    return None if seconds > MAX_DEADLINE else seconds


def parse_grpc_timeout(value: Optional[str]) -> Optional[float]:
    """``"100m"`` -> 0.1, ``"2S"`` -> 2.0; at most 8 ASCII digits and one unit, else ``None``
    (as is a value above :data:`~.deadline.MAX_DEADLINE`)."""
    if not value:
        return None
    value = value.strip()
    digits, unit = value[:-1], value[-1:]
    if unit not in _GRPC_UNITS or not ascii_digits(digits) or len(digits) > 8:
        return None
    return _bounded(int(digits) * _GRPC_UNITS[unit])


_DEADLINE_MS = re.compile(r"(-?)([0-9]+(?:\.[0-9]+)?)")


def parse_deadline_ms(value: Optional[str]) -> Optional[float]:
    """Our header's value in seconds: plain ASCII decimal milliseconds (negative -> 0).
    ``None`` if absent, malformed (``1e3``, ``inf``, other scripts' digits) or absurd (above
    :data:`~.deadline.MAX_DEADLINE`)."""
    if value is None:
        return None
    match = _DEADLINE_MS.fullmatch(str(value).strip())
    if match is None:
        return None
    if match.group(1):
        return 0.0
    return _bounded(float(match.group(2)) / 1000.0)


def deadline_from_headers(
    headers: Mapping[str, str], ceiling: Optional[float], default: Optional[float] = None
) -> Optional[float]:
    """Seconds the inbound request may take: the smallest of our header, ``grpc-timeout`` and
    ``ceiling``; ``default`` (capped by ``ceiling``) when neither header is present.

    ``headers`` must have lower-case keys.
    """
    candidates: List[float] = []
    ours = parse_deadline_ms(headers.get(DEADLINE_HEADER.lower()))
    if ours is not None:
        candidates.append(ours)
    grpc = parse_grpc_timeout(headers.get(GRPC_TIMEOUT_HEADER))
    if grpc is not None:
        candidates.append(grpc)
    if not candidates and default is not None:
        candidates.append(default)
    if not candidates:
        return ceiling
    if ceiling is not None:
        candidates.append(ceiling)
    return min(candidates)


def _refuse(where: str) -> None:
    _metrics.emit("deadline_refused", None, what=where)


class _DeadlineMiddleware:
    """What both middlewares are configured with: the wrapped ``app``, the local ``ceiling`` on
    an inbound deadline, the ``default`` when the caller sent none, and an optional ``clock``."""

    def __init__(
        self,
        app: Callable[..., Any],
        ceiling: Optional[float] = 30.0,
        default: Optional[float] = None,
        *,
        clock: Optional[Clock] = None,
    ) -> None:
        self.app = app
        self.ceiling = ceiling
        self.default = default
        self._clock = clock


class WSGIDeadlineMiddleware(_DeadlineMiddleware):
    """WSGI middleware: run each request under the propagated deadline (see module doc)."""

    app: Callable[..., Iterable[bytes]]

    def _budget(self, environ: Mapping[str, Any]) -> Optional[float]:
        headers = {}
        raw = environ.get("HTTP_" + DEADLINE_HEADER.upper().replace("-", "_"))
        if raw is not None:
            headers[DEADLINE_HEADER.lower()] = raw
        raw = environ.get("HTTP_GRPC_TIMEOUT")
        if raw is not None:
            headers[GRPC_TIMEOUT_HEADER] = raw
        return deadline_from_headers(headers, self.ceiling, self.default)

    def __call__(self, environ: Mapping[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        seconds = self._budget(environ)
        if seconds is not None and seconds <= 0:
            _refuse("inbound request (WSGI)")
            return _gateway_timeout(start_response, "deadline already exceeded on arrival")
        ctx = contextvars.copy_context()
        started = [False]

        def tracking_start_response(*args: Any, **kwargs: Any) -> Any:
            started[0] = True
            return start_response(*args, **kwargs)

        def run() -> Iterable[bytes]:
            if seconds is not None:
                deadline(seconds, clock=self._clock).__enter__()  # lives and dies with ctx
            return self.app(environ, tracking_start_response)

        try:
            result = ctx.run(run)
        except DeadlineExceeded as exc:
            if started[0]:
                raise
            _refuse("inbound request (WSGI, raised by app)")
            return _gateway_timeout(start_response, str(exc))
        return _ContextIterable(ctx, result)


class _ContextIterable:
    """Iterate a WSGI response inside the request's context (so the deadline stays visible)."""

    def __init__(self, ctx: contextvars.Context, result: Iterable[bytes]) -> None:
        self._ctx = ctx
        self._result = result
        self._it: Optional[Iterator[bytes]] = None

    def __iter__(self) -> Iterator[bytes]:
        it = self._ctx.run(iter, self._result)
        while True:
            try:
                chunk = self._ctx.run(next, it)
            except StopIteration:
                return
            yield chunk

    def close(self) -> None:
        close = getattr(self._result, "close", None)
        if close is not None:
            self._ctx.run(close)


def _gateway_timeout(start_response: Callable[..., Any], why: str) -> List[bytes]:
    body = ("504 Gateway Timeout: " + why + "\n").encode("utf-8", "replace")
    start_response(
        "504 Gateway Timeout",
        [
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", str(len(body))),
            (REFUSED_HEADER, "1"),
        ],
    )
    return [body]


class ASGIDeadlineMiddleware(_DeadlineMiddleware):
    """ASGI middleware (HTTP scopes only; others pass through)."""

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        headers = {}
        for key, value in scope.get("headers") or ():
            k = key.decode("latin-1").lower()
            if k in (DEADLINE_HEADER.lower(), GRPC_TIMEOUT_HEADER):
                headers[k] = value.decode("latin-1")
        seconds = deadline_from_headers(headers, self.ceiling, self.default)
        if seconds is not None and seconds <= 0:
            _refuse("inbound request (ASGI)")
            await _asgi_504(send, "deadline already exceeded on arrival")
            return
        started = [False]

        async def tracking_send(message: MutableMapping[str, Any]) -> None:
            if message.get("type") == "http.response.start":
                started[0] = True
            await send(message)

        try:
            with deadline(seconds, clock=self._clock):
                await self.app(scope, receive, tracking_send)
        except DeadlineExceeded as exc:
            if started[0]:
                raise
            _refuse("inbound request (ASGI, raised by app)")
            await _asgi_504(send, str(exc))


async def _asgi_504(send: Callable[..., Any], why: str) -> None:
    body = ("504 Gateway Timeout: " + why + "\n").encode("utf-8", "replace")
    headers: List[Tuple[bytes, bytes]] = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (REFUSED_HEADER.lower().encode(), b"1"),
    ]
    await send({"type": "http.response.start", "status": 504, "headers": headers})
    await send({"type": "http.response.body", "body": body})
