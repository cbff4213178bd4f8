"""Hedged requests: if the first attempt is slower than the dependency's usual p95, send one
more copy and take whichever answers first.

Off by default. Only for operations that are safe to run twice (idempotent, or carrying an
idempotency key), and each hedge spends one token of the same :class:`RetryBudget` as retries,
so hedging can never add more than the budget's share of extra load (``budget=None`` is the
shared budget of ``dependency``, as everywhere in the runtime; ``False`` hedges unbudgeted).
The delay is the p95 of recent *successful* latencies (:class:`LatencyTracker`: a fast 503 or
an exception is not a latency the dependency can be expected to meet), or an explicit ``delay``;
with too few samples there is no hedge. ``admit`` (optional) is asked just before a hedge
leaves: ``False`` means no hedge (the adapters take a free bulkhead slot there, so that a hedge
never exceeds the bulkhead's bound); ``unadmit`` gives the admission back when the budget then
refuses the hedge. Sync hedges run in threads (the loser cannot
be interrupted; its result is passed to ``discard`` — e.g. to close a response); async hedges
run as tasks and the loser is cancelled. The caller never waits past its deadline for the
copies.
"""

from __future__ import annotations

import contextvars
import threading
from collections import deque
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Deque, Dict, List, Optional, TypeVar

from . import metrics as _metrics
from ._clock import Clock, get_clock
from ._registry import PerDependency
from .budget import BudgetArg, resolve_budget
from .classify import classify
from .deadline import remaining

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["LatencyTracker", "hedged_call", "ahedged_call"]

T = TypeVar("T")


class LatencyTracker(PerDependency):
    """Recent successful latencies of one dependency; ``p95()`` once ``min_samples`` exist."""

    def __init__(self, size: int = 200, min_samples: int = 20) -> None:
        self._samples: Deque[float] = deque(maxlen=size)
        self._lock = threading.Lock()
        self.min_samples = min_samples

    def __repr__(self) -> str:
        return f"LatencyTracker(size={self._samples.maxlen}, min_samples={self.min_samples}, samples={len(self._samples)})"

    @classmethod
    def _create_for_dependency(cls, name: str, kwargs: Dict[str, Any]) -> "LatencyTracker":
        return cls(**kwargs)  # a tracker has no name

    def record(self, seconds: float) -> None:
        """Add the latency of one successful call."""
        with self._lock:
            self._samples.append(seconds)

    def percentile(self, q: float) -> Optional[float]:
        """The ``q`` quantile (0..1) of the recent samples, or ``None`` below ``min_samples``."""
        with self._lock:
            if len(self._samples) < self.min_samples:
                return None
            ordered = sorted(self._samples)
        index = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
        return ordered[index]

    def p95(self) -> Optional[float]:
        """The 95th percentile: when a call counts as late enough to hedge."""
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


def _no_answer(copies: int) -> TimeoutError:
    # A plain TimeoutError, like a client's own read timeout: the dependency did not answer in
    # the time left, which says something about its health (unlike DeadlineExceeded, a refusal).
    return TimeoutError(f"no answer from {copies} hedged cop{'y' if copies == 1 else 'ies'} before the deadline")


class _HedgePlan:
    """The I/O-free part of one hedged call, shared by :func:`hedged_call` and :func:`ahedged_call`:
    how long to wait before hedging (``wait``: ``None`` = no hedge), whether the budget pays for
    the hedge, and recording the winner's latency."""

    __slots__ = ("wait", "budget", "tracker", "dependency", "clock", "started", "attempt", "admit", "unadmit")

    def __init__(
        self,
        idempotent: bool,
        budget: BudgetArg,
        delay: Optional[float],
        tracker: Optional[LatencyTracker],
        dependency: Optional[str],
        clock: Optional[Clock],
        attempt: int,
        admit: Optional[Callable[[], bool]] = None,
        unadmit: Optional[Callable[[], None]] = None,
    ) -> None:
        self.admit = admit
        self.unadmit = unadmit
        self.wait = _hedge_delay(delay, tracker) if idempotent else None
        self.budget = resolve_budget(budget, dependency) if self.wait is not None else None
        self.tracker = tracker
        self.dependency = dependency
        self.clock = get_clock(clock)
        self.started = self.clock.now()
        self.attempt = attempt

    def may_hedge(self) -> bool:
        """The first attempt is still running after ``wait``: admitted (``admit``), and a token
        spent for a hedge?"""
        if self.admit is not None and not self.admit():
            return False
        if self.budget is None or self.budget.try_spend("hedge"):
            after = self.wait or 0.0
            _metrics.emit(
                "hedge", self.dependency, attempt=self.attempt, reason=f"no answer after {after * 1000:.0f} ms", after=after
            )
            return True
        if self.unadmit is not None:
            self.unadmit()
        return False

    def won(self, result: T) -> T:
        """Record the winning attempt's latency if it succeeded; returns ``result``."""
        if self.tracker is not None and classify(result).ok:
            self.tracker.record(self.clock.now() - self.started)
        return result


def hedged_call(
    fn: Callable[[], T],
    *,
    idempotent: bool,
    budget: BudgetArg = None,
    delay: Optional[float] = None,
    tracker: Optional[LatencyTracker] = None,
    dependency: Optional[str] = None,
    discard: Optional[Callable[[Any], None]] = None,
    clock: Optional[Clock] = None,
    attempt: int = 1,
    admit: Optional[Callable[[], bool]] = None,
    unadmit: Optional[Callable[[], None]] = None,
) -> T:
    """Call ``fn()``; after ``delay`` (default: tracker p95) without an answer, start one hedge.

    ``budget`` as everywhere in the runtime (:func:`~.budget.resolve_budget`): ``None`` is the
    shared budget of ``dependency``, ``False`` none. Never waits past the current deadline:
    then ``TimeoutError`` is raised and the copies still running are left to finish, their
    results passed to ``discard``. When every copy fails, the first copy's error is raised.
    ``attempt`` is the number of the attempt being hedged (for the ``hedge`` metric).
    """
    plan = _HedgePlan(idempotent, budget, delay, tracker, dependency, clock, attempt, admit, unadmit)
    if plan.wait is None:
        return plan.won(fn())
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait  # on first sync hedge only

    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="resilint-hedge")
    futures: "List[Future[T]]" = []
    winner: "Optional[Future[T]]" = None
    try:
        futures.append(pool.submit(contextvars.copy_context().run, fn))
        wait(futures, timeout=plan.wait)
        if not futures[0].done() and plan.may_hedge():
            futures.append(pool.submit(contextvars.copy_context().run, fn))
        pending = set(futures)
        while pending and winner is None:
            done, pending = wait(pending, timeout=remaining(), return_when=FIRST_COMPLETED)
            if not done:
                raise _no_answer(len(futures))
            winner = next((f for f in futures if f in done and f.exception() is None), None)
        if winner is None:
            raise futures[0].exception()  # type: ignore[misc]
        return plan.won(winner.result())
    finally:
        if discard is not None:
            for fut in futures:
                if fut is not winner:
                    fut.add_done_callback(_discarder(discard))
        pool.shutdown(wait=False)


def _discarder(discard: Callable[[Any], None]) -> "Callable[[Future[Any]], None]":
    def callback(fut: "Future[Any]") -> None:
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
    budget: BudgetArg = None,
    delay: Optional[float] = None,
    tracker: Optional[LatencyTracker] = None,
    dependency: Optional[str] = None,
    discard: Optional[Callable[[Any], Awaitable[None]]] = None,
    clock: Optional[Clock] = None,
    attempt: int = 1,
    admit: Optional[Callable[[], bool]] = None,
    unadmit: Optional[Callable[[], None]] = None,
) -> T:
    """Async form of :func:`hedged_call`: the losing task is cancelled (a loser that finished
    with a result anyway is passed to the awaitable ``discard``)."""
    import asyncio

    plan = _HedgePlan(idempotent, budget, delay, tracker, dependency, clock, attempt, admit, unadmit)
    if plan.wait is None:
        return plan.won(await fn())
    tasks = [asyncio.ensure_future(fn())]
    winner: Optional["asyncio.Future[T]"] = None
    try:
        await asyncio.wait(tasks, timeout=plan.wait)
        if not tasks[0].done() and plan.may_hedge():
            tasks.append(asyncio.ensure_future(fn()))
        pending = set(tasks)
        while pending and winner is None:
            done, pending = await asyncio.wait(pending, timeout=remaining(), return_when=asyncio.FIRST_COMPLETED)
            if not done:
                raise _no_answer(len(tasks))
            winner = next((t for t in tasks if t in done and not t.cancelled() and t.exception() is None), None)
        if winner is None:
            raise tasks[0].exception()  # type: ignore[misc]
        return plan.won(winner.result())
    finally:
        for task in tasks:
            if task is winner:
                continue
            if not task.done():
                task.cancel()
            elif discard is not None and not task.cancelled() and task.exception() is None:
                await discard(task.result())
