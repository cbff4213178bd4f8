"""Circuit breaker that counts slow calls as well as errors.

A dependency that answers ``200`` in 8 s instead of 80 ms never trips an error-only breaker, yet
it holds every pooled connection and worker for 100× longer. This breaker opens when, over a
sliding time window holding at least ``min_calls`` results, either the failure rate or the
slow-call rate (calls that took ``slow_call_duration`` or more, whatever their status) reaches
its threshold. A breaker without ``slow_call_duration`` judges each call against the bar the
caller gives with its permit (``allow(slow_after=...)``: the HTTP adapters pass the request's
read timeout ÷ 1.4, the healthy p99 that timeout stands for); ``slow_call_duration=math.inf``
never counts a call as slow.

Open lasts ``open_duration`` ± ``open_jitter`` (a random share, so a fleet of clients does not
probe in lock-step). Then the breaker is half-open: up to ``half_open_probes`` calls go through
and are judged by the same bar — an error *or a slow success* reopens it; that many good probes
close it. Every transition is reported (metrics event ``breaker_transition`` and a WARNING log)
with its reason. Results of calls admitted under an earlier state (e.g. still in flight when the
breaker opened) are ignored: they describe the past and must not close or re-open anything.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any, Awaitable, Callable, Deque, List, Optional, Tuple, TypeVar

from . import metrics as _metrics
from ._clock import Clock, get_clock
from ._registry import PerDependency
from .classify import classify
from .errors import CircuitOpenError

__all__ = ["CircuitBreaker", "CircuitOpenError", "Permit", "PermitGuard", "CLOSED", "OPEN", "HALF_OPEN"]

CLOSED = "closed"
OPEN = "open"
HALF_OPEN = "half_open"

T = TypeVar("T")


class Permit:
    """Admission to make one call; record its result exactly once."""

    __slots__ = ("breaker", "generation", "started", "probe", "done", "slow_after")

    def __init__(
        self, breaker: "CircuitBreaker", generation: int, started: float, probe: bool, slow_after: Optional[float] = None
    ) -> None:
        self.breaker = breaker
        self.generation = generation
        self.started = started
        self.probe = probe
        self.done = False
        self.slow_after = slow_after

    def record(self, failed: bool, duration: Optional[float] = None, reason: str = "") -> None:
        if self.done:
            return
        self.done = True
        self.breaker._record(self, failed, duration, reason)

    def record_success(self, duration: Optional[float] = None) -> None:
        self.record(False, duration)

    def record_failure(self, duration: Optional[float] = None, reason: str = "error") -> None:
        self.record(True, duration, reason)

    def record_outcome(self, outcome: Any, duration: Optional[float] = None) -> None:
        """Classify a response or exception: only health failures count as failures, and an
        outcome that never reached the dependency (a runtime refusal, an exhausted local
        connection pool) is not counted at all."""
        verdict = classify(outcome)
        if verdict.local:
            self.release()
        else:
            self.record(verdict.health_failure, duration, verdict.reason)

    def release(self) -> None:
        """Give the permit back without a result (e.g. the call was never made)."""
        if self.done:
            return
        self.done = True
        self.breaker._release(self)


class PermitGuard:
    """Settle a permit around one call (shared by the sync and async call paths)::

        with PermitGuard(permit) as guard:
            result = fn()            # or: await fn()
        return guard.record(result)

    An ``Exception`` leaving the block is classified and recorded (see
    :meth:`Permit.record_outcome`); any other ``BaseException``
    (cancellation, interpreter exit) says nothing about health and gives the permit back. A
    returned value is classified by :meth:`record`. ``permit`` may be ``None`` (no breaker).
    With a ``clock`` the duration is measured on it from the guard's creation; without one the
    breaker measures from admission.
    """

    __slots__ = ("permit", "clock", "started")

    def __init__(self, permit: Optional[Permit], clock: Optional[Clock] = None) -> None:
        self.permit = permit
        self.clock = clock
        self.started = clock.now() if clock is not None else 0.0

    def _duration(self) -> Optional[float]:
        return None if self.clock is None else self.clock.now() - self.started

    def __enter__(self) -> "PermitGuard":
        return self

    def __exit__(self, exc_type: Any, exc: Optional[BaseException], tb: Any) -> bool:
        if exc is not None and self.permit is not None:
            if isinstance(exc, Exception):
                self.permit.record_outcome(exc, self._duration())
            else:
                self.permit.release()
        return False

    def record(self, result: T) -> T:
        """Classify and record a returned value; returns it."""
        if self.permit is not None:
            self.permit.record_outcome(result, self._duration())
        return result


class CircuitBreaker(PerDependency):
    def __init__(
        self,
        name: str = "default",
        *,
        failure_rate: float = 0.5,
        slow_call_rate: float = 0.5,
        slow_call_duration: Optional[float] = None,
        window: float = 10.0,
        min_calls: int = 10,
        open_duration: float = 5.0,
        open_jitter: float = 0.2,
        half_open_probes: int = 3,
        clock: Optional[Clock] = None,
    ) -> None:
        if not (0 < failure_rate <= 1 and 0 < slow_call_rate <= 1):
            raise ValueError("rates are fractions in (0, 1]")
        if min_calls < 1 or half_open_probes < 1 or window <= 0 or open_duration < 0:
            raise ValueError("min_calls, half_open_probes >= 1; window > 0; open_duration >= 0")
        self.name = name
        self.failure_rate = failure_rate
        self.slow_call_rate = slow_call_rate
        self.slow_call_duration = slow_call_duration
        self.window = window
        self.min_calls = min_calls
        self.open_duration = open_duration
        self.open_jitter = open_jitter
        self.half_open_probes = half_open_probes
        self._clock = clock
        self._lock = threading.Lock()
        self._state = CLOSED
        self._generation = 0
        self._calls: Deque[Tuple[float, bool, bool]] = deque()
        self._open_until = 0.0
        self._probes_in_flight = 0
        self._probe_successes = 0
        self.ignored_results = 0
        self.history: List[Tuple[str, str, str]] = []

    # -- state ----------------------------------------------------------------------------
    @property
    def clock(self) -> Clock:
        return get_clock(self._clock)

    @property
    def state(self) -> str:
        with self._lock:
            self._maybe_half_open(self.clock.now())
            return self._state

    def _transition(self, new: str, reason: str) -> None:
        old = self._state
        self._state = new
        self._generation += 1
        self._calls.clear()
        self._probes_in_flight = 0
        self._probe_successes = 0
        if new == OPEN:
            jitter = self.clock.uniform(-self.open_jitter, self.open_jitter) if self.open_jitter else 0.0
            self._open_until = self.clock.now() + self.open_duration * (1.0 + jitter)
        self.history.append((old, new, reason))
        del self.history[:-100]
        _metrics.emit("breaker_transition", self.name, old=old, new=new, reason=reason)

    def _maybe_half_open(self, now: float) -> None:
        if self._state == OPEN and now >= self._open_until:
            self._transition(HALF_OPEN, f"open for {self.open_duration:g}s±{self.open_jitter:.0%}; probing")

    # -- admission ------------------------------------------------------------------------
    def _slow_bar(self, permit: Permit) -> Optional[float]:
        """Seconds from which ``permit``'s call counts as slow: ``slow_call_duration``, else
        the permit's own ``slow_after``; ``None``: slowness is not judged."""
        return self.slow_call_duration if self.slow_call_duration is not None else permit.slow_after

    def allow(self, slow_after: Optional[float] = None) -> Permit:
        """Admit one call or raise :class:`CircuitOpenError`. ``slow_after`` is this call's
        slow-call bar when the breaker has no ``slow_call_duration`` of its own."""
        now = self.clock.now()
        with self._lock:
            self._maybe_half_open(now)
            if self._state == OPEN:
                raise CircuitOpenError(self.name, OPEN, max(0.0, self._open_until - now))
            probe = self._state == HALF_OPEN
            if probe:
                if self._probes_in_flight + self._probe_successes >= self.half_open_probes:
                    raise CircuitOpenError(self.name, HALF_OPEN)
                self._probes_in_flight += 1
            return Permit(self, self._generation, now, probe, slow_after)

    def _release(self, permit: Permit) -> None:
        with self._lock:
            if permit.generation == self._generation and permit.probe:
                self._probes_in_flight -= 1

    def _record(self, permit: Permit, failed: bool, duration: Optional[float], reason: str) -> None:
        now = self.clock.now()
        if duration is None:
            duration = now - permit.started
        bar = self._slow_bar(permit)
        slow = bar is not None and duration >= bar
        with self._lock:
            if permit.generation != self._generation:
                self.ignored_results += 1  # admitted under an earlier state: stale
                return
            if self._state == HALF_OPEN:
                self._probes_in_flight -= 1
                if failed or slow:
                    why = f"probe failed ({reason})" if failed else (
                        f"probe slow ({duration * 1000:.0f} ms >= {bar * 1000:.0f} ms)"  # type: ignore[operator]
                    )
                    self._transition(OPEN, why)
                else:
                    self._probe_successes += 1
                    if self._probe_successes >= self.half_open_probes:
                        self._transition(CLOSED, f"{self._probe_successes} probes healthy")
                return
            if self._state != CLOSED:
                self.ignored_results += 1
                return
            self._calls.append((now, failed, slow))
            while self._calls and now - self._calls[0][0] > self.window:
                self._calls.popleft()
            n = len(self._calls)
            if n < self.min_calls:
                return
            failures = sum(1 for _, f, _ in self._calls if f)
            slows = sum(1 for _, _, s in self._calls if s)
            if failures / n >= self.failure_rate:
                self._transition(
                    OPEN,
                    f"failure rate {failures / n:.0%} >= {self.failure_rate:.0%} over {n} calls in {self.window:g}s",
                )
            elif slows / n >= self.slow_call_rate:
                bar_text = f" (>= {bar * 1000:.0f} ms)" if bar is not None else ""
                self._transition(
                    OPEN,
                    f"slow-call rate {slows / n:.0%} >= {self.slow_call_rate:.0%}{bar_text} over {n} calls in {self.window:g}s",
                )

    # -- conveniences ---------------------------------------------------------------------
    def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn`` through the breaker; exceptions and responses are classified."""
        with PermitGuard(self.allow()) as guard:
            result = fn(*args, **kwargs)
        return guard.record(result)

    async def acall(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        with PermitGuard(self.allow()) as guard:
            result = await fn(*args, **kwargs)
        return guard.record(result)

    def __repr__(self) -> str:
        return f"CircuitBreaker({self.name!r}, state={self._state})"
