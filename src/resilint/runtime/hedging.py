"""Hedged requests: if the first attempt is slower than the dependency's usual p95, send one
more copy and take whichever answers first.

Off by default. Only for operations that are safe to run twice (idempotent, or carrying an
idempotency key), and each hedge spends one token of the same :class:`RetryBudget` as retries,
so hedging can never add more than the budget's share of extra load. The delay is the p95 of
recent successful latencies (:class:`LatencyTracker`), or an explicit ``delay``; with too few
samples there is no hedge. Sync hedges run in threads (the loser cannot be interrupted; its
result is passed to ``discard`` — e.g. to close a response); async hedges run as tasks and the
loser is cancelled.
"""

from __future__ import annotations

import contextvars
import threading
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Awaitable, Callable, Deque, Dict, Optional, TypeVar

from . import metrics as _metrics
from ._clock import Clock, get_clock
from ._registry import PerDependency
from .budget import RetryBudget
from .deadline import remaining

__all__ = ["LatencyTracker", "hedged_call", "ahedged_call"]

T = TypeVar("T")


class LatencyTracker(PerDependency):
    """Recent successful latencies of one dependency; ``p95()`` once ``min_samples`` exist."""

    def __init__(self, size: int = 200, min_samples: int = 20) -> None:
        self._samples: Deque[float] = deque(maxlen=size)
        self._lock = threading.Lock()
        self.min_samples = min_samples

    @classmethod
    def _create_for_dependency(cls, name: str, kwargs: Dict[str, Any]) -> "LatencyTracker":
        return cls(**kwargs)  # a tracker has no name

    def record(self, seconds: float) -> None:
        with self._lock:
            self._samples.append(seconds)

    def percentile(self, q: float) -> Optional[float]:
        with self._lock:
            if len(self._samples) < self.min_samples:
                return None
            ordered = sorted(self._samples)
        index = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
        return ordered[index]

    def p95(self) -> Optional[float]:
        return self.percentile(0.95)


def _hedge_delay(delay: Optional[float], tracker: Optional[LatencyTracker]) -> Optional[float]:
    if delay is None and tracker is not None:
        delay = tracker.p95()
    if delay is None:
        return None
    left = remaining()
    if left is not None and delay >= left:
        return None  # the hedge could not start before the deadline
    return delay


class _HedgePlan:
    """The I/O-free part of one hedged call, shared by :func:`hedged_call` and :func:`ahedged_call`:
    how long to wait before hedging (``wait``: ``None`` = no hedge), whether the budget pays for
    the hedge, and recording the winner's latency."""

    __slots__ = ("wait", "budget", "tracker", "dependency", "clock", "started")

    def __init__(
        self,
        idempotent: bool,
        budget: Optional[RetryBudget],
        delay: Optional[float],
        tracker: Optional[LatencyTracker],
        dependency: Optional[str],
        clock: Optional[Clock],
    ) -> None:
        self.wait = _hedge_delay(delay, tracker) if idempotent else None
        self.budget = budget
        self.tracker = tracker
        self.dependency = dependency
        self.clock = get_clock(clock)
        self.started = self.clock.now()

    def may_hedge(self) -> bool:
        """The first attempt is still running after ``wait``: spend a token for a hedge?"""
        if self.budget is None or self.budget.try_spend("hedge"):
            _metrics.emit("hedge", self.dependency, after=self.wait)
            return True
        return False

    def won(self, result: T) -> T:
        """Record the winning attempt's latency; returns ``result``."""
        if self.tracker is not None:
            self.tracker.record(self.clock.now() - self.started)
        return result


def hedged_call(
    fn: Callable[[], T],
    *,
    idempotent: bool,
    budget: Optional[RetryBudget],
    delay: Optional[float] = None,
    tracker: Optional[LatencyTracker] = None,
    dependency: Optional[str] = None,
    discard: Optional[Callable[[Any], None]] = None,
    clock: Optional[Clock] = None,
) -> T:
    """Call ``fn()``; after ``delay`` (default: tracker p95) without an answer, start one hedge."""
    plan = _HedgePlan(idempotent, budget, delay, tracker, dependency, clock)
    if plan.wait is None:
        return plan.won(fn())
    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="resilint-hedge")
    try:
        first = pool.submit(contextvars.copy_context().run, fn)
        done, _ = wait([first], timeout=plan.wait)
        futures = [first]
        if not done and plan.may_hedge():
            futures.append(pool.submit(contextvars.copy_context().run, fn))
        pending = set(futures)
        error: Optional[BaseException] = None
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                exc = fut.exception()
                if exc is None:
                    for other in pending:
                        if discard is not None:
                            other.add_done_callback(_discarder(discard))
                    for other in done:
                        if other is not fut and other.exception() is None and discard is not None:
                            discard(other.result())
                    return plan.won(fut.result())
                error = error or exc
        assert error is not None
        raise error
    finally:
        pool.shutdown(wait=False)


def _discarder(discard: Callable[[Any], None]) -> Callable[[Future], None]:
    def callback(fut: Future) -> None:
        if not fut.cancelled() and fut.exception() is None:
            try:
                discard(fut.result())
            except Exception:
                pass

    return callback


async def ahedged_call(
    fn: Callable[[], Awaitable[T]],
    *,
    idempotent: bool,
    budget: Optional[RetryBudget],
    delay: Optional[float] = None,
    tracker: Optional[LatencyTracker] = None,
    dependency: Optional[str] = None,
    clock: Optional[Clock] = None,
) -> T:
    """Async form: the losing task is cancelled."""
    import asyncio

    plan = _HedgePlan(idempotent, budget, delay, tracker, dependency, clock)
    if plan.wait is None:
        return plan.won(await fn())
    tasks = [asyncio.ensure_future(fn())]
    try:
        done, _ = await asyncio.wait(tasks, timeout=plan.wait)
        if not done and plan.may_hedge():
            tasks.append(asyncio.ensure_future(fn()))
        pending = set(tasks)
        error: Optional[BaseException] = None
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if task.exception() is None:
                    return plan.won(task.result())
                error = error or task.exception()
        assert error is not None
        raise error
    finally:
        for task in tasks:
            if not task.done():
                task.cancel()
