"""requests integration: ``ResilientAdapter`` (an ``HTTPAdapter``) and ``ResilientSession``.

Importing this module imports requests; ``import resilint.runtime`` does not.

``ResilientSession(dependency="payments", breaker=True)`` mounts the adapter for ``http://``
and ``https://``. Every request then gets a deadline-clamped split timeout, the deadline
header, bounded/budgeted/jittered retries (POST/PATCH only with an ``Idempotency-Key``), and
the optional breaker, bulkhead and hedging. urllib3's own retries are off (``max_retries=0``):
one layer owns retries. A ``timeout=`` passed to a request is an upper bound.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple, Union
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter

from ..timeouts import SplitTimeout
from ._engine import AttemptSpec, HttpPolicy, run_sync

__all__ = ["ResilientAdapter", "ResilientSession", "HttpPolicy"]


def _cap(value: Any) -> Optional[SplitTimeout]:
    if value is None:
        return None
    if isinstance(value, tuple):
        connect, read = value
        big = float("inf")
        return SplitTimeout(big if connect is None else float(connect), big if read is None else float(read))
    v = float(value)
    return SplitTimeout(v, v)


def _repeatable(body: Any) -> bool:
    return body is None or isinstance(body, (bytes, str, bytearray))


class ResilientAdapter(HTTPAdapter):
    def __init__(self, policy: Optional[HttpPolicy] = None, *, pool_connections: int = 10, pool_maxsize: int = 10, pool_block: bool = False, **policy_kwargs: Any) -> None:
        if policy is not None and policy_kwargs:
            raise TypeError("pass either policy= or policy keyword arguments, not both")
        self.policy = policy if policy is not None else HttpPolicy(**policy_kwargs)
        super().__init__(pool_connections=pool_connections, pool_maxsize=pool_maxsize, max_retries=0, pool_block=pool_block)

    def send(  # type: ignore[override]
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Union[None, float, Tuple[Optional[float], Optional[float]]] = None,
        verify: Any = True,
        cert: Any = None,
        proxies: Any = None,
    ) -> requests.Response:
        parts = urlsplit(request.url or "")
        host = parts.netloc or "default"
        bound = self.policy.bind(host, request.method or "GET", request.headers, _repeatable(request.body), _cap(timeout))
        parent = super()

        def send_copy(spec: AttemptSpec) -> requests.Response:
            copy = request.copy()  # each attempt (and hedge) carries its own deadline header
            copy.headers.update(spec.headers)
            t = spec.timeout
            return parent.send(copy, stream=stream, timeout=(t.connect, t.read), verify=verify, cert=cert, proxies=proxies)

        return run_sync(bound, send_copy, _close if stream else _read_and_close)


def _close(response: Any) -> None:
    try:
        response.close()
    except Exception:
        pass


def _read_and_close(response: Any) -> None:
    """Release a response the caller will not get (or gets inside an exception): read its body
    as ``Session.send`` would have (so ``.content`` still works and the connection goes back to
    the pool for reuse), then close it. With ``stream=True`` it is only closed."""
    try:
        response.content  # reading is the point: it caches the body and frees the connection
    except Exception:
        pass
    _close(response)


class ResilientSession(requests.Session):
    """A ``requests.Session`` whose http(s) adapters are :class:`ResilientAdapter`."""

    def __init__(self, policy: Optional[HttpPolicy] = None, **policy_kwargs: Any) -> None:
        super().__init__()
        adapter = ResilientAdapter(policy, **policy_kwargs)
        self.policy = adapter.policy
        self.mount("http://", adapter)
        self.mount("https://", adapter)
