"""requests integration: ``ResilientAdapter`` (an ``HTTPAdapter``) and ``ResilientSession``.

Importing this module imports requests; ``import resilint.runtime`` does not.

``ResilientSession(dependency="payments", breaker=True)`` mounts the adapter for ``http://``
and ``https://``. Every request then gets a deadline-clamped split timeout, the deadline
header, bounded/budgeted/jittered retries (POST/PATCH only with an ``Idempotency-Key``), and
the optional breaker, bulkhead and hedging. urllib3's own retries are off (``max_retries=0``):
one layer owns retries. A ``timeout=`` passed to a request (a number, a ``(connect, read)``
tuple or a ``urllib3.Timeout``) is an upper bound.

Unless you ask for ``stream=True``, the body is read within the attempt: a connection that
drops mid-body is retried like any failed attempt (as ``@retry`` around ``requests.get``
would). With ``stream=True`` the body is yours to read, outside the retries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter

from ..timeouts import SplitTimeout
from ._engine import AttemptSpec, HttpPolicy, run_sync

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ._engine import PolicyOptions

__all__ = ["ResilientAdapter", "ResilientSession", "HttpPolicy"]


def _seconds(value: Any) -> float:
    """A timeout value as requests and urllib3 accept it; ``None`` (or urllib3's default
    sentinel) is no bound."""
    if value is None or not isinstance(value, (int, float)) or isinstance(value, bool):
        if value is None or type(value).__name__ == "_TYPE_DEFAULT":
            return float("inf")
        raise TypeError(f"timeout values must be numbers of seconds or None, got {value!r}")
    return float(value)


def _cap(value: Any) -> Optional[SplitTimeout]:
    """The request's own ``timeout=`` as an upper bound: a number, a ``(connect, read)``
    tuple, or a ``urllib3.Timeout`` (its ``total``, when set, bounds both)."""
    if value is None:
        return None
    if isinstance(value, tuple):
        connect, read = value
        return SplitTimeout(_seconds(connect), _seconds(read))
    if hasattr(value, "connect_timeout") and hasattr(value, "total"):  # urllib3.Timeout
        total = _seconds(value.total)
        return SplitTimeout(min(_seconds(value.connect_timeout), total), min(_seconds(getattr(value, "_read", None)), total))
    v = _seconds(value)
    return SplitTimeout(v, v)


def _repeatable(body: Any) -> bool:
    return body is None or isinstance(body, (bytes, str, bytearray))


class ResilientAdapter(HTTPAdapter):
    """A requests ``HTTPAdapter`` applying :class:`HttpPolicy` to every request it sends
    (urllib3's own retries off). Mount it yourself, or use :class:`ResilientSession`."""

    def __init__(
        self,
        policy: Optional[HttpPolicy] = None,
        *,
        pool_connections: int = 10,
        pool_maxsize: int = 10,
        pool_block: bool = False,
        **policy_kwargs: "Unpack[PolicyOptions]",
    ) -> None:
        if policy is not None and policy_kwargs:
            raise TypeError("pass either policy= or policy keyword arguments, not both")
        self.policy = policy if policy is not None else HttpPolicy(**policy_kwargs)
        super().__init__(pool_connections=pool_connections, pool_maxsize=pool_maxsize, max_retries=0, pool_block=pool_block)

    def send(  # type: ignore[override, unused-ignore]
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: Any = True,
        cert: Any = None,
        proxies: Any = None,
    ) -> requests.Response:
        """Send ``request`` with retries, deadline, budget, breaker, bulkhead and hedging (the
        parameters are ``HTTPAdapter.send``'s; ``timeout`` is an upper bound)."""
        parts = urlsplit(request.url or "")
        host = parts.netloc or "default"
        bound = self.policy.bind(host, request.method or "GET", request.headers, _repeatable(request.body), _cap(timeout))
        send = super().send

        def send_copy(spec: AttemptSpec) -> requests.Response:
            copy = request.copy()  # each attempt (and hedge) carries its own deadline header
            copy.headers.update(spec.headers)
            t = spec.timeout
            response: requests.Response = send(
                copy, stream=stream, timeout=(t.connect, t.read), verify=verify, cert=cert, proxies=proxies
            )
            if not stream:
                # read here, as Session.send would after us: a body cut off is this attempt's
                # failure, retried, and the connection goes back to the pool
                try:
                    response.content
                except BaseException:
                    _close(response)
                    raise
            return response

        return run_sync(bound, send_copy, _close)  # type: ignore[no-any-return]


def _close(response: Any) -> None:
    """Release a response the caller will not get (or gets inside an exception): its body was
    read within the attempt (``.content`` works), or it was streamed; closing is what is left."""
    try:
        response.close()
    except Exception:
        pass


class ResilientSession(requests.Session):
    """A ``requests.Session`` whose http(s) adapters are :class:`ResilientAdapter`."""

    def __init__(self, policy: Optional[HttpPolicy] = None, **policy_kwargs: "Unpack[PolicyOptions]") -> None:
        super().__init__()
        adapter = ResilientAdapter(policy, **policy_kwargs)
        self.policy = adapter.policy
        self.mount("http://", adapter)
        self.mount("https://", adapter)

    def __repr__(self) -> str:
        return f"ResilientSession({self.policy!r})"
