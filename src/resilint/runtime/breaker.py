"""Circuit breaker that counts slow calls as well as errors.

A dependency that answers ``200`` in 8 s instead of 80 ms never trips an error-only breaker, yet
it holds every pooled connection and worker for 100× longer. This breaker opens when, over a
sliding time window holding at least ``min_calls`` results, either the failure rate or the
slow-call rate (calls that took ``slow_call_duration`` or more, whatever their status) reaches
its threshold. A breaker without ``slow_call_duration`` judges each call against the bar the
caller gives with its permit (``allow(slow_after=...)``: the HTTP adapters pass the request's
read timeout ÷ 1.4, the healthy p99 that timeout stands for); ``slow_call_duration=math.inf``
never counts a call as slow.

Results are counted in ``buckets`` time buckets (``window / buckets`` seconds each, as
resilience4j's time-based sliding window does): recording a result and judging the rates cost
the same with 10 or 100,000 calls in the window, and a result leaves the window between
``window × (1 - 1/buckets)`` and ``window`` seconds after it was recorded.

Open lasts ``open_duration`` ± ``open_jitter`` (a random share, so a fleet of clients does not
probe in lock-step). Then the breaker is half-open: up to ``half_open_probes`` calls go through
and are judged by the same bar — an error *or a slow success* reopens it; that many good probes
close it. Every transition is reported (metrics event ``breaker_transition`` and a WARNING log)
with its reason, *after* the breaker's lock is released: a listener may read ``breaker.state``
or call the breaker. Results of calls admitted under an earlier state (e.g. still in flight when the
breaker opened) are ignored: they describe the past and must not close or re-open anything.

Operators can take over: :meth:`CircuitBreaker.force_open` (isolate the dependency until told
otherwise), :meth:`CircuitBreaker.force_closed` (let everything through, count nothing) and
:meth:`CircuitBreaker.reset` (back to closed with an empty window, ending a forced state).
"""

from __future__ import annotations

import threading
import math
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Literal, Optional, Tuple, TypeVar

from . import metrics as _metrics
from ._clock import Clock, get_clock
from ._registry import PerDependency
from ._validate import require_int, require_number
from .classify import classify
from .errors import CircuitOpenError

__all__ = ["CircuitBreaker", "CircuitOpenError", "Permit", "PermitGuard", "CLOSED", "OPEN", "HALF_OPEN"]

CLOSED = "closed"
OPEN = "open"
HALF_OPEN = "half_open"

T = TypeVar("T")

if TYPE_CHECKING:  # for type checkers only: the runtime imports nothing outside the stdlib
    from typing_extensions import ParamSpec

    P = ParamSpec("P")


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
        """Record the call's result once (later calls do nothing); ``duration`` defaults to the
        time since admission."""
        if self.done:
            return
        self.done = True
        self.breaker._record(self, failed, duration, reason)

    def record_success(self, duration: Optional[float] = None) -> None:
        """The call succeeded (it may still count as slow)."""
        self.record(False, duration)

    def record_failure(self, duration: Optional[float] = None, reason: str = "error") -> None:
        """The call failed in a way that says the dependency is unhealthy."""
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

    def __exit__(self, exc_type: Any, exc: Optional[BaseException], tb: Any) -> Literal[False]:
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


class _Window:
    """Counts of the results recorded over the last ``window`` seconds, in ``buckets`` buckets
    of ``window / buckets`` seconds: adding a result and reading the totals are O(1)."""

    __slots__ = ("width", "n", "epoch", "calls", "failures", "slows", "total_calls", "total_failures", "total_slows", "tick")

    def __init__(self, window: float, buckets: int) -> None:
        self.width = window / buckets
        self.n = buckets
        self.clear()

    def clear(self) -> None:
        self.epoch = [-1] * self.n
        self.calls = [0] * self.n
        self.failures = [0] * self.n
        self.slows = [0] * self.n
        self.total_calls = self.total_failures = self.total_slows = 0
        self.tick: Optional[int] = None

    def _drop(self, i: int) -> None:
        self.total_calls -= self.calls[i]
        self.total_failures -= self.failures[i]
        self.total_slows -= self.slows[i]
        self.calls[i] = self.failures[i] = self.slows[i] = 0
        self.epoch[i] = -1

    def advance(self, now: float) -> None:
        """Forget the buckets that left the window (a loop over the buckets once per tick)."""
        tick = math.floor(now / self.width)
        if tick == self.tick:
            return
        self.tick = tick
        for i in range(self.n):
            if self.epoch[i] != -1 and tick - self.epoch[i] >= self.n:
                self._drop(i)

    def add(self, now: float, failed: bool, slow: bool) -> None:
        self.advance(now)
        tick = self.tick
        assert tick is not None
        i = tick % self.n
        if self.epoch[i] != tick:
            self._drop(i)
            self.epoch[i] = tick
        self.calls[i] += 1
        self.total_calls += 1
        if failed:
            self.failures[i] += 1
            self.total_failures += 1
        if slow:
            self.slows[i] += 1
            self.total_slows += 1


class CircuitBreaker(PerDependency):
    """Circuit breaker over a sliding time window that opens on the failure rate *or* the
    slow-call rate (see the module documentation).

    ``CircuitBreaker.for_dependency(name, **settings)`` returns the process-wide breaker of a
    dependency (created with ``settings`` on first use). Use :meth:`call` / :meth:`acall`, or
    :meth:`allow` and record the result on the :class:`Permit` it returns.
    """

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
        buckets: int = 10,
        clock: Optional[Clock] = None,
    ) -> None:
        for label, fraction in (("failure_rate", failure_rate), ("slow_call_rate", slow_call_rate)):
            require_number(label, fraction, what="a fraction")
        for label, seconds in (("window", window), ("open_duration", open_duration), ("open_jitter", open_jitter)):
            require_number(label, seconds)
        require_number("slow_call_duration", slow_call_duration, optional=True)
        for label, count in (("min_calls", min_calls), ("half_open_probes", half_open_probes), ("buckets", buckets)):
            require_int(label, count)
        if not (0 < failure_rate <= 1 and 0 < slow_call_rate <= 1):
            raise ValueError("rates are fractions in (0, 1]")
        if min_calls < 1 or half_open_probes < 1 or buckets < 1 or window <= 0 or open_duration < 0:
            raise ValueError("min_calls, half_open_probes, buckets >= 1; window > 0; open_duration >= 0")
        self.name = name
        self.failure_rate = failure_rate
        self.slow_call_rate = slow_call_rate
        self.slow_call_duration = slow_call_duration
        self.window = window
        self.min_calls = min_calls
        self.open_duration = open_duration
        self.open_jitter = open_jitter
        self.half_open_probes = half_open_probes
        self.buckets = buckets
        self._clock = clock
        self._lock = threading.Lock()
        self._state = CLOSED
        self._forced: Optional[str] = None
        self._generation = 0
        self._window = _Window(window, buckets)
        self._open_until = 0.0
        self._probes_in_flight = 0
        self._probe_successes = 0
        self._unannounced: List[Tuple[str, str, str]] = []
        self.ignored_results = 0
        self.history: List[Tuple[str, str, str]] = []

    # -- state ----------------------------------------------------------------------------
    @property
    def clock(self) -> Clock:
        """The clock in use: the one given, else the process-wide default at this moment."""
        return get_clock(self._clock)

    @property
    def state(self) -> str:
        """``"closed"``, ``"open"`` or ``"half_open"`` (a forced state reads as open or closed;
        see :attr:`forced`)."""
        with self._lock:
            self._maybe_half_open(self.clock.now())
            state = self._state
        self._announce()
        return state

    @property
    def forced(self) -> Optional[str]:
        """``"open"`` or ``"closed"`` while an operator holds the breaker there, else ``None``."""
        return self._forced

    def stats(self) -> Dict[str, int]:
        """The counts in the window now: ``calls``, ``failures``, ``slow_calls``."""
        with self._lock:
            self._window.advance(self.clock.now())
            w = self._window
            return {"calls": w.total_calls, "failures": w.total_failures, "slow_calls": w.total_slows}

    def _transition(self, new: str, reason: str) -> None:
        """Under the lock. The event is announced by :meth:`_announce` once the lock is free."""
        old = self._state
        self._state = new
        self._generation += 1
        self._window.clear()
        self._probes_in_flight = 0
        self._probe_successes = 0
        if new == OPEN:
            jitter = self.clock.uniform(-self.open_jitter, self.open_jitter) if self.open_jitter else 0.0
            self._open_until = self.clock.now() + self.open_duration * (1.0 + jitter)
        self.history.append((old, new, reason))
        del self.history[:-100]
        self._unannounced.append((old, new, reason))

    def _announce(self) -> None:
        """Emit the transitions made under the lock, outside it: listeners are user code, and
        user code that reads ``breaker.state`` must not find the lock taken."""
        if not self._unannounced:
            return
        with self._lock:
            events, self._unannounced = self._unannounced, []
        for old, new, reason in events:
            _metrics.emit("breaker_transition", self.name, old=old, new=new, reason=reason)

    def _maybe_half_open(self, now: float) -> None:
        if self._state == OPEN and self._forced is None and now >= self._open_until:
            self._transition(HALF_OPEN, f"open for {self.open_duration:g}s±{self.open_jitter:.0%}; probing")

    # -- manual control -------------------------------------------------------------------
    def _take_over(self, forced: Optional[str], new: str, reason: str) -> None:
        with self._lock:
            self._forced = forced
            self._transition(new, reason)
        self._announce()

    def force_open(self, reason: str = "forced open by operator") -> None:
        """Refuse every call until :meth:`reset` or :meth:`force_closed` (no timer, no probes):
        isolate a dependency by hand, as resilience4j's forced-open state and Polly's
        ``Isolate()`` do."""
        self._take_over(OPEN, OPEN, reason)

    def force_closed(self, reason: str = "forced closed by operator") -> None:
        """Let every call through and count nothing until :meth:`reset` or :meth:`force_open`
        (resilience4j's disabled state)."""
        self._take_over(CLOSED, CLOSED, reason)

    def reset(self, reason: str = "reset by operator") -> None:
        """Back to closed with an empty window, ending any forced state (resilience4j's and
        Polly's ``reset``)."""
        self._take_over(None, CLOSED, reason)

    # -- admission ------------------------------------------------------------------------
    def _slow_bar(self, permit: Permit) -> Optional[float]:
        """Seconds from which ``permit``'s call counts as slow: ``slow_call_duration``, else
        the permit's own ``slow_after``; ``None``: slowness is not judged."""
        return self.slow_call_duration if self.slow_call_duration is not None else permit.slow_after

    def allow(self, slow_after: Optional[float] = None) -> Permit:
        """Admit one call or raise :class:`CircuitOpenError`. ``slow_after`` is this call's
        slow-call bar when the breaker has no ``slow_call_duration`` of its own."""
        now = self.clock.now()
        try:
            with self._lock:
                self._maybe_half_open(now)
                if self._state == OPEN:
                    if self._forced is not None:
                        raise CircuitOpenError(self.name, "forced open")
                    raise CircuitOpenError(self.name, OPEN, max(0.0, self._open_until - now))
                probe = self._state == HALF_OPEN
                if probe:
                    if self._probes_in_flight + self._probe_successes >= self.half_open_probes:
                        raise CircuitOpenError(self.name, HALF_OPEN)
                    self._probes_in_flight += 1
                return Permit(self, self._generation, now, probe, slow_after)
        finally:
            self._announce()

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
            self._judge(permit, now, failed, slow, duration, bar, reason)
        self._announce()

    def _judge(
        self, permit: Permit, now: float, failed: bool, slow: bool, duration: float, bar: Optional[float], reason: str
    ) -> None:
        """Under the lock: count one result and make the transition it calls for."""
        if permit.generation != self._generation or self._forced is not None:
            self.ignored_results += 1  # admitted under an earlier state (stale), or forced
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
        window = self._window
        window.add(now, failed, slow)
        n = window.total_calls
        if n < self.min_calls:
            return
        failures, slows = window.total_failures, window.total_slows
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
    def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``fn`` through the breaker; exceptions and responses are classified."""
        with PermitGuard(self.allow()) as guard:
            result = fn(*args, **kwargs)
        return guard.record(result)

    async def acall(self, fn: Callable[P, Awaitable[T]], *args: P.args, **kwargs: P.kwargs) -> T:
        """Await ``fn(*args, **kwargs)`` through the breaker (the async form of :meth:`call`)."""
        with PermitGuard(self.allow()) as guard:
            result = await fn(*args, **kwargs)
        return guard.record(result)

    def __repr__(self) -> str:
        w = self._window
        forced = f", forced={self._forced!r}" if self._forced else ""
        return (
            f"CircuitBreaker({self.name!r}, state={self._state!r}{forced}, failure_rate={self.failure_rate}, "
            f"slow_call_rate={self.slow_call_rate}, slow_call_duration={self.slow_call_duration}, "
            f"window={self.window}, min_calls={self.min_calls}, open_duration={self.open_duration}, "
            f"half_open_probes={self.half_open_probes}, calls_in_window={w.total_calls}, "
            f"failures_in_window={w.total_failures}, slow_calls_in_window={w.total_slows})"
        )

