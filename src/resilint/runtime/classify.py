"""Which outcomes are worth retrying, and which say something about the dependency's health.

An *outcome* is either an exception or a response-like object (anything with ``status_code``
or ``status``, e.g. requests/httpx/urllib responses). Third-party exception types are
recognised only if their library is already imported (looked up in ``sys.modules``), so this
module imports nothing outside the standard library.
"""

from __future__ import annotations

import socket
import sys
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Optional

from .errors import ResilienceError

__all__ = [
    "RETRYABLE_STATUSES",
    "Verdict",
    "classify",
    "classify_exception",
    "classify_response",
    "is_transport_error",
    "is_local_exhaustion",
    "parse_retry_after",
    "status_of",
]

#: Status codes worth another attempt. Other 4xx never are: the request itself is wrong.
RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class Verdict:
    """``retryable``: another attempt may succeed. ``health_failure``: the failure says the
    dependency is unhealthy (5xx, 408, 429, connect error, timeout) — it counts against the
    breaker and a retry after it spends the retry budget. ``retry_after``: seconds the server
    asked us to wait, if any. ``local``: the call never reached the dependency (the runtime
    refused it, or the local connection pool had no free connection), so the outcome says
    nothing about the dependency and a breaker must not count it at all."""

    ok: bool
    retryable: bool
    health_failure: bool
    reason: str
    retry_after: Optional[float] = None
    local: bool = False


OK = Verdict(ok=True, retryable=False, health_failure=False, reason="ok")


def status_of(response: Any) -> Optional[int]:
    for attr in ("status_code", "status"):
        value = getattr(response, attr, None)
        if isinstance(value, int):
            return value
    return None


def ascii_digits(value: str) -> bool:
    """``str.isdigit`` accepts superscripts and other scripts' digits that ``int()`` rejects
    (``"\\xb2".isdigit()`` is True): header values come from the other side, so only ASCII counts."""
    return value.isascii() and value.isdigit()


def parse_retry_after(value: Optional[str], now: float) -> Optional[float]:
    """Seconds to wait from a ``Retry-After`` value (delta-seconds or HTTP-date); ``now`` is
    wall-clock epoch seconds. Returns ``None`` when absent or unparsable; never negative."""
    if value is None:
        return None
    value = str(value).strip()
    if not value:
        return None
    if ascii_digits(value):
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - now)


def _module_types(module: str, path: str, names: tuple) -> tuple:
    mod = sys.modules.get(module)
    if mod is None:
        return ()
    for part in path.split(".") if path else ():
        mod = getattr(mod, part, None)
        if mod is None:
            return ()
    return tuple(t for t in (getattr(mod, n, None) for n in names) if isinstance(t, type))


def is_transport_error(exc: BaseException) -> bool:
    """Connect errors, timeouts and dropped connections, from stdlib, requests, urllib3, httpx
    or aiohttp. The runtime's own refusals (deadline, budget, breaker, bulkhead) are not."""
    if isinstance(exc, ResilienceError):
        return False
    bad = _module_types("requests", "exceptions", ("SSLError", "InvalidURL", "InvalidSchema", "MissingSchema"))
    if bad and isinstance(exc, bad):
        return False
    if isinstance(exc, (ConnectionError, TimeoutError, socket.timeout)):
        return True
    types = (
        _module_types("requests", "exceptions", ("ConnectionError", "Timeout", "ChunkedEncodingError"))
        + _module_types("urllib3", "exceptions", ("ProtocolError", "NewConnectionError", "TimeoutError"))
        + _module_types("httpx", "", ("TimeoutException", "NetworkError", "RemoteProtocolError"))
        + _module_types("aiohttp", "", ("ClientConnectionError", "ServerTimeoutError"))
    )
    return bool(types) and isinstance(exc, types)


def is_local_exhaustion(exc: BaseException) -> bool:
    """No free connection in the *local* pool (httpx ``PoolTimeout``, urllib3
    ``EmptyPoolError``/``ClosedPoolError``): our own congestion, not the dependency's health."""
    types = _module_types("httpx", "", ("PoolTimeout",)) + _module_types(
        "urllib3", "exceptions", ("EmptyPoolError", "ClosedPoolError")
    )
    return bool(types) and isinstance(exc, types)


def classify_exception(exc: BaseException) -> Verdict:
    if isinstance(exc, ResilienceError):
        return Verdict(False, False, False, f"refused by the runtime: {type(exc).__name__}", local=True)
    if is_local_exhaustion(exc):
        return Verdict(False, False, False, f"local connection pool exhausted: {type(exc).__name__}", local=True)
    if is_transport_error(exc):
        return Verdict(False, True, True, f"transport error: {type(exc).__name__}")
    return Verdict(False, False, False, f"not retryable: {type(exc).__name__}")


def classify_response(response: Any, now: Optional[float] = None) -> Verdict:
    status = status_of(response)
    if status is None or status < 400:
        return OK
    health = status >= 500 or status in (408, 429)
    if status not in RETRYABLE_STATUSES:
        return Verdict(False, False, health, f"status {status} is not retryable")
    retry_after = None
    headers = getattr(response, "headers", None)
    if status == 504 and headers is not None:
        try:
            refused = headers.get("X-Resilint-Deadline-Exceeded")
        except Exception:
            refused = None
        if refused:
            return Verdict(False, False, False, "status 504: callee refused, deadline spent")
    if headers is not None and status in (429, 503):
        import time

        try:
            raw = headers.get("Retry-After")
        except Exception:
            raw = None
        retry_after = parse_retry_after(raw, time.time() if now is None else now)
    return Verdict(False, True, health, f"status {status}", retry_after)


def classify(outcome: Any, now: Optional[float] = None) -> Verdict:
    """Classify an exception or a response."""
    if isinstance(outcome, BaseException):
        return classify_exception(outcome)
    return classify_response(outcome, now)
