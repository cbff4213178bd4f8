"""Bulkhead: a cap on calls in flight to one dependency, with an optional bounded queue.

A slow dependency can only occupy ``max_concurrent`` workers/connections; everything else fails
fast (:class:`BulkheadFull`) instead of piling up, so unrelated routes keep their capacity.
With ``max_queue > 0`` a few callers may wait (FIFO) for a slot. A waiter gives up when its
deadline (or ``queue_timeout``) passes, and a waiter that is handed a slot after its deadline
passed refuses it (:class:`DeadlineExceeded`) and passes the slot on: work nobody waits for any
more is never started. Compose it *outside* the circuit breaker so a call waiting for a slot is
not counted as slow by the breaker.

The same object serves threads (``with bulkhead:``) and asyncio (``async with bulkhead:``).
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any, Deque, Optional

from . import metrics as _metrics
from ._registry import PerDependency
from ._validate import require_int, require_number
from .deadline import current_deadline
from .errors import BulkheadFull, DeadlineExceeded

__all__ = ["Bulkhead", "BulkheadFull"]


class _Waiter:
    __slots__ = ("granted", "abandoned", "event", "loop", "future")

    def __init__(self) -> None:
        self.granted = False
        self.abandoned = False
        self.event: Optional[threading.Event] = None
        self.loop: Any = None
        self.future: Any = None

    def wake(self) -> None:
        if self.event is not None:
            self.event.set()
        elif self.loop is not None:
            fut = self.future

            def _set() -> None:
                if not fut.done():
                    fut.set_result(None)

            try:
                self.loop.call_soon_threadsafe(_set)
            except RuntimeError:  # loop closed
                pass


class Bulkhead(PerDependency):
    """At most ``max_concurrent`` calls in flight, ``max_queue`` more waiting (FIFO) for at
    most their deadline or ``queue_timeout``; see the module documentation.

    ``Bulkhead.for_dependency(name, **settings)`` returns the process-wide bulkhead of a
    dependency. Use it as ``with bulkhead:`` / ``async with bulkhead:``.
    """

    def __init__(
        self,
        name: str = "default",
        max_concurrent: int = 10,
        max_queue: int = 0,
        *,
        queue_timeout: Optional[float] = None,
    ) -> None:
        require_int("max_concurrent", max_concurrent)
        require_int("max_queue", max_queue)
        require_number("queue_timeout", queue_timeout, optional=True)
        if max_concurrent < 1 or max_queue < 0:
            raise ValueError("max_concurrent >= 1 and max_queue >= 0")
        self.name = name
        self.max_concurrent = max_concurrent
        self.max_queue = max_queue
        self.queue_timeout = queue_timeout
        self._lock = threading.Lock()
        self._in_flight = 0
        self._queue: Deque[_Waiter] = deque()
        self.rejected = 0
        self.refused_expired = 0

    @property
    def in_flight(self) -> int:
        """Calls holding a slot now."""
        return self._in_flight

    @property
    def queued(self) -> int:
        """Callers waiting for a slot now."""
        return len(self._queue)

    # -- internals ------------------------------------------------------------------------
    def _try_take(self) -> Optional[_Waiter]:
        """Under the lock: take a slot (None) or enqueue a waiter; raise when full."""
        if self._in_flight < self.max_concurrent and not self._queue:
            self._in_flight += 1
            return None
        if len(self._queue) >= self.max_queue:
            self.rejected += 1
            _metrics.emit("bulkhead_rejected", self.name, in_flight=self._in_flight)
            raise BulkheadFull(self.name, self.max_concurrent, self.max_queue)
        waiter = _Waiter()
        self._queue.append(waiter)
        return waiter

    def _wait_limit(self) -> Optional[float]:
        limits = []
        d = current_deadline()
        if d is not None:
            limits.append(d.remaining())
        if self.queue_timeout is not None:
            limits.append(self.queue_timeout)
        return min(limits) if limits else None

    def _give_up(self, waiter: _Waiter) -> bool:
        """Waiting ended without a wake-up. Returns True if the slot was granted meanwhile."""
        with self._lock:
            if waiter.granted:
                return True
            waiter.abandoned = True
            try:
                self._queue.remove(waiter)
            except ValueError:
                pass
        return False

    def _check_after_queue(self) -> None:
        d = current_deadline()
        if d is not None and d.expired:
            self.refused_expired += 1
            self.release()
            _metrics.emit("deadline_refused", self.name, what="bulkhead queue exit")
            raise DeadlineExceeded(f"deadline passed while queued in bulkhead {self.name!r}; not started")

    def _timed_out(self) -> None:
        d = current_deadline()
        if d is not None and d.expired:
            self.refused_expired += 1
            _metrics.emit("deadline_refused", self.name, what="bulkhead queue")
            raise DeadlineExceeded(f"deadline passed while queued in bulkhead {self.name!r}")
        self.rejected += 1
        _metrics.emit("bulkhead_rejected", self.name, in_flight=self._in_flight, queued=True)
        raise BulkheadFull(self.name, self.max_concurrent, self.max_queue)

    # -- public API -----------------------------------------------------------------------
    def acquire(self) -> None:
        """Take a slot, waiting in the queue if allowed; raise when refused."""
        d = current_deadline()
        if d is not None and d.expired:
            _metrics.emit("deadline_refused", self.name, what="bulkhead entry")
            raise DeadlineExceeded(f"deadline passed before entering bulkhead {self.name!r}")
        with self._lock:
            waiter = self._try_take()
            if waiter is None:
                return
            waiter.event = threading.Event()
        limit = self._wait_limit()
        if not waiter.event.wait(limit) and not self._give_up(waiter):
            self._timed_out()
        self._check_after_queue()

    def try_acquire(self) -> bool:
        """Take a free slot at once if there is one: never waits, never queues, never raises
        (``False`` when full). Give it back with :meth:`release`."""
        with self._lock:
            if self._in_flight < self.max_concurrent and not self._queue:
                self._in_flight += 1
                return True
        return False

    async def aacquire(self) -> None:
        """Async form of :meth:`acquire`."""
        import asyncio

        d = current_deadline()
        if d is not None and d.expired:
            _metrics.emit("deadline_refused", self.name, what="bulkhead entry")
            raise DeadlineExceeded(f"deadline passed before entering bulkhead {self.name!r}")
        loop = asyncio.get_running_loop()
        with self._lock:
            waiter = self._try_take()
            if waiter is None:
                return
            waiter.loop = loop
            waiter.future = loop.create_future()
        try:
            await asyncio.wait_for(asyncio.shield(waiter.future), self._wait_limit())
        except asyncio.TimeoutError:
            if not self._give_up(waiter):
                self._timed_out()
        except BaseException:
            if self._give_up(waiter):
                self.release()
            raise
        self._check_after_queue()

    def release(self) -> None:
        """Free a slot, handing it straight to the oldest live waiter if there is one."""
        with self._lock:
            while self._queue:
                waiter = self._queue.popleft()
                if waiter.abandoned:
                    continue
                waiter.granted = True
                waiter.wake()
                return
            self._in_flight -= 1

    def __enter__(self) -> "Bulkhead":
        self.acquire()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release()

    async def __aenter__(self) -> "Bulkhead":
        await self.aacquire()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.release()

    def __repr__(self) -> str:
        return (
            f"Bulkhead({self.name!r}, max_concurrent={self.max_concurrent}, max_queue={self.max_queue}, "
            f"queue_timeout={self.queue_timeout}, in_flight={self._in_flight}, queued={len(self._queue)})"
        )
