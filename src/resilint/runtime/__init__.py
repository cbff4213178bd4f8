"""resilint.runtime — budgeted, jittered, deadline-aware outbound calls.

Standard library only at import time; the HTTP adapters (``ResilientSession``,
``ResilientAdapter``, ``ResilientTransport``, ``AsyncResilientTransport``, ``ResilientClient``,
``AsyncResilientClient``) are loaded on first attribute access and only then import
requests/httpx. See ``docs/runtime.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._clock import Clock, SystemClock, get_clock, set_default_clock, use_clock
from .breaker import CLOSED, HALF_OPEN, OPEN, CircuitBreaker, Permit
from .budget import RetryBudget
from .bulkhead import Bulkhead
from .classify import RETRYABLE_STATUSES, Verdict, classify, is_transport_error, parse_retry_after
from .deadline import MAX_DEADLINE, Deadline, check_deadline, current_deadline, deadline, remaining
from .errors import (
    BulkheadFull,
    CircuitOpenError,
    DeadlineExceeded,
    ResilienceError,
    RetryBudgetExhausted,
)
from .hedging import LatencyTracker, ahedged_call, hedged_call
from .idempotency import (
    IDEMPOTENCY_HEADER,
    IDEMPOTENT_METHODS,
    idempotency_key,
    idempotency_scope,
    idempotent_operation,
    is_idempotent,
)
from .metrics import MetricEvent, Metrics, add_listener, get_metrics, remove_listener, retry_ratio
from .propagation import (
    DEADLINE_HEADER,
    GRPC_TIMEOUT_HEADER,
    ASGIDeadlineMiddleware,
    WSGIDeadlineMiddleware,
    deadline_from_headers,
    inject_deadline,
    outbound_headers,
    parse_grpc_timeout,
)
from .retry import Attempt, RetryPolicy, backoff_delay, full_jitter, retry, retrying
from .timeouts import Calibration, SplitTimeout, calibrate, timeout

_LAZY = {
    "HttpPolicy": ("resilint.runtime.adapters._engine", "HttpPolicy"),
    "ResilientSession": ("resilint.runtime.adapters.requests", "ResilientSession"),
    "ResilientAdapter": ("resilint.runtime.adapters.requests", "ResilientAdapter"),
    "ResilientTransport": ("resilint.runtime.adapters.httpx", "ResilientTransport"),
    "AsyncResilientTransport": ("resilint.runtime.adapters.httpx", "AsyncResilientTransport"),
    "ResilientClient": ("resilint.runtime.adapters.httpx", "ResilientClient"),
    "AsyncResilientClient": ("resilint.runtime.adapters.httpx", "AsyncResilientClient"),
}

if TYPE_CHECKING:  # what the lazy names are, for type checkers (nothing is imported at run time)
    from .adapters._engine import HttpPolicy
    from .adapters.httpx import AsyncResilientClient, AsyncResilientTransport, ResilientClient, ResilientTransport
    from .adapters.requests import ResilientAdapter, ResilientSession


def __getattr__(name: str) -> Any:  # PEP 562: import adapters (and their client) on demand
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'resilint.runtime' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(target[0]), target[1])
    globals()[name] = value
    return value


__all__ = [
    # deadlines & timeouts
    "deadline", "Deadline", "MAX_DEADLINE", "remaining", "current_deadline", "check_deadline", "DeadlineExceeded",
    "timeout", "SplitTimeout", "calibrate", "Calibration",
    # retries
    "retry", "retrying", "Attempt", "RetryPolicy", "backoff_delay", "full_jitter",
    "classify", "Verdict", "is_transport_error", "parse_retry_after", "RETRYABLE_STATUSES",
    "idempotency_key", "idempotency_scope", "idempotent_operation", "is_idempotent", "IDEMPOTENCY_HEADER", "IDEMPOTENT_METHODS",
    "RetryBudget", "RetryBudgetExhausted",
    # protection
    "CircuitBreaker", "CircuitOpenError", "Permit", "CLOSED", "OPEN", "HALF_OPEN",
    "Bulkhead", "BulkheadFull",
    "LatencyTracker", "hedged_call", "ahedged_call",
    # propagation
    "DEADLINE_HEADER", "GRPC_TIMEOUT_HEADER", "outbound_headers", "inject_deadline",
    "parse_grpc_timeout", "deadline_from_headers", "WSGIDeadlineMiddleware", "ASGIDeadlineMiddleware",
    # metrics & clock
    "MetricEvent", "Metrics", "get_metrics", "add_listener", "remove_listener", "retry_ratio",
    "Clock", "SystemClock", "get_clock", "set_default_clock", "use_clock",
    "ResilienceError",
    # adapters (lazy)
    "HttpPolicy", "ResilientSession", "ResilientAdapter", "ResilientTransport", "AsyncResilientTransport",
    "ResilientClient", "AsyncResilientClient",
]
