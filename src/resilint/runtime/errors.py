"""Exceptions raised by the runtime. All derive from :class:`ResilienceError`.

Each pickles with its own arguments (a ``ProcessPoolExecutor`` worker may raise one): the
message and the attributes come back as they were. ``.response`` does not travel: it is bound
to a connection of the process that received it, so it is ``None`` after unpickling.
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = [
    "ResilienceError",
    "DeadlineExceeded",
    "RetryBudgetExhausted",
    "CircuitOpenError",
    "BulkheadFull",
]


class ResilienceError(Exception):
    """Base class of every exception the runtime raises on its own behalf."""


class DeadlineExceeded(ResilienceError, TimeoutError):
    """The caller's deadline has passed (or cannot cover the work); nothing more was sent.

    ``response`` holds the last response when a retry loop stopped because the next attempt
    could not fit in the deadline.
    """

    def __init__(self, message: str = "deadline exceeded", *, response: Any = None) -> None:
        super().__init__(message)
        self.response = response

    def __str__(self) -> str:  # OSError's __str__ would print the args tuple oddly
        return str(self.args[0]) if self.args else "deadline exceeded"

    def __reduce__(self) -> Any:
        return (type(self), (str(self),))


class RetryBudgetExhausted(ResilienceError):
    """A retry (or hedge) was needed but the dependency's retry budget is empty: fail fast."""

    def __init__(self, dependency: Optional[str], *, response: Any = None) -> None:
        name = dependency or "<anonymous>"
        super().__init__(
            f"retry budget for dependency {name!r} is exhausted; not retrying "
            "(retries are capped to a share of first attempts to avoid amplifying an outage)"
        )
        self.dependency = dependency
        self.response = response

    def __reduce__(self) -> Any:
        return (type(self), (self.dependency,))


class CircuitOpenError(ResilienceError):
    """The circuit breaker is open (or half-open with all probe slots taken)."""

    def __init__(self, name: str, state: str, retry_in: Optional[float] = None) -> None:
        msg = f"circuit {name!r} is {state}; call refused without contacting the dependency"
        if retry_in is not None:
            msg += f" (next probe in {retry_in:.3f}s)"
        super().__init__(msg)
        self.name = name
        self.state = state
        self.retry_in = retry_in

    def __reduce__(self) -> Any:
        return (type(self), (self.name, self.state, self.retry_in))


class BulkheadFull(ResilienceError):
    """The bulkhead has no free slot (and no room, or no time, to wait in its queue)."""

    def __init__(self, name: str, max_concurrent: int, max_queue: int) -> None:
        super().__init__(
            f"bulkhead {name!r} is full ({max_concurrent} in flight, queue of {max_queue}); "
            "call refused"
        )
        self.name = name
        self.max_concurrent = max_concurrent
        self.max_queue = max_queue

    def __reduce__(self) -> Any:
        return (type(self), (self.name, self.max_concurrent, self.max_queue))
