"""Which outcomes are worth retrying, and which say something about the dependency's health.

An *outcome* is either an exception or a response-like object (anything with ``status_code``
or ``status``, e.g. requests/httpx/urllib responses). An exception that carries a response
(``raise_for_status()``'s ``requests.HTTPError``, httpx's ``HTTPStatusError``, urllib's
``HTTPError``) is judged by that response's status, so a 503 raised is a 503 returned. An
exception is judged with its causes (``__cause__``/``__context__``, urllib's
``URLError.reason``): a certificate that fails verification is a TLS failure however the
client wraps it, and never retried. Third-party exception types are
recognised only if their library is already imported (looked up in ``sys.modules``), so this
module imports nothing outside the standard library.
"""

from __future__ import annotations

import socket
import sys
from dataclasses import dataclass, replace
from typing import Any, Iterator, List, Optional, Set, Tuple

from .errors import ResilienceError

__all__ = [
    "RETRYABLE_STATUSES",
    "Verdict",
    "classify",
    "classify_exception",
    "classify_response",
    "is_transport_error",
    "is_tls_failure",
    "carried_response",
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
    refused it, the local connection pool had no free connection, or the TLS handshake found a
    certificate we do not trust), so the outcome says nothing about the dependency's health and
    a breaker must not count it at all."""

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
        from email.utils import parsedate_to_datetime  # only for HTTP dates: a costly import

        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - now)


def _module_types(module: str, path: str, names: Tuple[str, ...]) -> Tuple[type, ...]:
    mod = sys.modules.get(module)
    if mod is None:
        return ()
    for part in path.split(".") if path else ():
        mod = getattr(mod, part, None)
        if mod is None:
            return ()
    return tuple(t for t in (getattr(mod, n, None) for n in names) if isinstance(t, type))


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and what it wraps: its ``__cause__``/``__context__`` chain and urllib's
    ``URLError.reason`` (each once, at most 16 deep)."""
    seen: Set[int] = set()
    todo: List[BaseException] = [exc]
    while todo and len(seen) < 16:
        current = todo.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        reason = getattr(current, "reason", None)
        # the context too, even when suppressed: httpcore's ConnectError keeps the ssl error
        # there alone (no __cause__, context suppressed)
        for inner in (current.__cause__, current.__context__, reason):
            if isinstance(inner, BaseException):
                todo.append(inner)


def is_tls_failure(exc: BaseException) -> bool:
    """The TLS handshake failed — a certificate that does not verify, a protocol or cipher
    mismatch — however the client wrapped it (httpx ``ConnectError``, requests ``SSLError``,
    urllib ``URLError``, aiohttp ``ClientSSLError``). Another attempt meets the same
    certificate: never retried. A connection dropped during the handshake (``SSLEOFError``,
    ``SSLZeroReturnError``) is a dropped connection, not a TLS failure."""
    wrapped = _module_types("requests", "exceptions", ("SSLError",)) + _module_types("aiohttp", "", ("ClientSSLError",))
    tls = _module_types("ssl", "", ("SSLError", "CertificateError"))
    drops = _module_types("ssl", "", ("SSLEOFError", "SSLZeroReturnError"))
    for cause in _causes(exc):
        if wrapped and isinstance(cause, wrapped):
            return True
        if tls and isinstance(cause, tls) and not (drops and isinstance(cause, drops)):
            return True
    return False


def _transport_types() -> Tuple[type, ...]:
    return (
        _module_types("requests", "exceptions", ("ConnectionError", "Timeout", "ChunkedEncodingError"))
        + _module_types("urllib3", "exceptions", ("ProtocolError", "NewConnectionError", "TimeoutError"))
        + _module_types("httpx", "", ("TimeoutException", "NetworkError", "RemoteProtocolError"))
        + _module_types("aiohttp", "", ("ClientConnectionError", "ServerTimeoutError"))
        + _module_types("http.client", "", ("IncompleteRead",))
    )


def is_transport_error(exc: BaseException) -> bool:
    """Connect errors, timeouts and dropped connections, from stdlib (urllib's ``URLError``
    judged by its ``reason``), requests, urllib3, httpx or aiohttp. The runtime's own refusals
    (deadline, budget, breaker, bulkhead), TLS failures and invalid URLs are not."""
    if isinstance(exc, ResilienceError):
        return False
    bad = _module_types("requests", "exceptions", ("InvalidURL", "InvalidSchema", "MissingSchema"))
    if (bad and isinstance(exc, bad)) or is_tls_failure(exc):
        return False
    if isinstance(exc, (ConnectionError, TimeoutError, socket.timeout)):
        return True
    types = _transport_types()
    if types and isinstance(exc, types):
        return True
    url_error = _module_types("urllib.error", "", ("URLError",))
    reason = getattr(exc, "reason", None)
    if url_error and isinstance(exc, url_error) and isinstance(reason, BaseException):
        return is_transport_error(reason)
    return False


def carried_response(exc: BaseException) -> Any:
    """The response an HTTP status exception carries (``requests.HTTPError.response``, httpx
    ``HTTPStatusError.response``; urllib's ``HTTPError`` is its own response), else ``None``."""
    if isinstance(exc, ResilienceError):
        return None
    http_error = _module_types("urllib.error", "", ("HTTPError",))
    if http_error and isinstance(exc, http_error):
        return exc
    response = getattr(exc, "response", None)
    return response if status_of(response) is not None else None


def is_local_exhaustion(exc: BaseException) -> bool:
    """No free connection in the *local* pool (httpx ``PoolTimeout``, urllib3
    ``EmptyPoolError``/``ClosedPoolError``): our own congestion, not the dependency's health."""
    types = _module_types("httpx", "", ("PoolTimeout",)) + _module_types(
        "urllib3", "exceptions", ("EmptyPoolError", "ClosedPoolError")
    )
    return bool(types) and isinstance(exc, types)


def classify_exception(exc: BaseException, now: Optional[float] = None) -> Verdict:
    if isinstance(exc, ResilienceError):
        return Verdict(False, False, False, f"refused by the runtime: {type(exc).__name__}", local=True)
    if is_local_exhaustion(exc):
        return Verdict(False, False, False, f"local connection pool exhausted: {type(exc).__name__}", local=True)
    if is_tls_failure(exc):
        # the same certificate fails again, and an open breaker would only hide the real error
        return Verdict(False, False, False, f"TLS failure, not retried: {type(exc).__name__}", local=True)
    if is_transport_error(exc):
        return Verdict(False, True, True, f"transport error: {type(exc).__name__}")
    response = carried_response(exc)
    if response is not None:
        verdict = classify_response(response, now)
        return replace(verdict, reason=f"{type(exc).__name__}: {verdict.reason}")
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
        return classify_exception(outcome, now)
    return classify_response(outcome, now)
