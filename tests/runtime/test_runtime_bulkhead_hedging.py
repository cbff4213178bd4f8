from __future__ import annotations

import asyncio
import threading
import time

import pytest

from resilint.runtime import (
    Bulkhead,
    BulkheadFull,
    DeadlineExceeded,
    LatencyTracker,
    RetryBudget,
    ahedged_call,
    deadline,
    get_metrics,
    hedged_call,
)

from .support import wait_until


def test_max_in_flight_fails_fast():
    b = Bulkhead("x", max_concurrent=2)
    b.acquire()
    b.acquire()
    with pytest.raises(BulkheadFull):
        b.acquire()
    b.release()
    with b:
        assert b.in_flight == 2
    assert b.in_flight == 1


def test_queue_hands_slot_to_waiter():
    b = Bulkhead("q", max_concurrent=1, max_queue=1)
    b.acquire()
    got = []
    t = threading.Thread(target=lambda: (b.acquire(), got.append(1)))
    t.start()
    for _ in range(100):
        if b.queued:
            break
        time.sleep(0.005)
    with pytest.raises(BulkheadFull):
        b.acquire()  # queue full
    b.release()
    t.join(2)
    assert got == [1] and b.in_flight == 1


def test_queued_item_refused_when_deadline_passed_before_leaving(clock):
    b = Bulkhead("d", max_concurrent=1, max_queue=2)
    b.acquire()
    errors, ran = [], []

    def waiter():
        with deadline(0.5):
            try:
                b.acquire()
            except DeadlineExceeded as exc:
                errors.append(exc)
                return
            ran.append(1)
            b.release()

    t = threading.Thread(target=waiter)
    t.start()
    for _ in range(200):
        if b.queued:
            break
        time.sleep(0.005)
    clock.advance(1.0)  # the waiter's deadline passes while it is queued
    b.release()  # hand it the slot: it must refuse and pass it on
    t.join(2)
    assert ran == [] and len(errors) == 1
    assert "while queued" in str(errors[0])
    assert b.in_flight == 0 and b.refused_expired == 1
    assert get_metrics().count("deadline_refused") == 1


def test_queue_wait_bounded_by_deadline():
    b = Bulkhead("w", max_concurrent=1, max_queue=1)
    b.acquire()
    t0 = time.monotonic()
    with deadline(0.05):
        with pytest.raises(DeadlineExceeded):
            b.acquire()
    assert time.monotonic() - t0 < 1.0
    assert b.queued == 0


def test_async_bulkhead():
    async def main():
        b = Bulkhead("a", max_concurrent=1, max_queue=1)
        order = []

        async def job(i):
            async with b:
                order.append(i)
                await asyncio.sleep(0.01)

        await asyncio.gather(job(1), job(2))
        with pytest.raises(BulkheadFull):
            await asyncio.gather(job(3), job(4), job(5))
        return order

    order = asyncio.run(main())
    assert order[:2] == [1, 2]


# -- hedging --------------------------------------------------------------------------------
def test_tracker_p95():
    t = LatencyTracker(min_samples=20)
    assert t.p95() is None
    for i in range(100):
        t.record(i / 100)
    assert t.p95() == pytest.approx(0.94, abs=0.02)


def slow_then_fast(first: float = 0.5, later: float = 0.01):
    """``fn`` whose first call takes ``first`` seconds and later calls ``later``."""
    calls = []
    lock = threading.Lock()

    def fn():
        with lock:
            calls.append(1)
            n = len(calls)
        time.sleep(first if n == 1 else later)
        return n

    return fn, calls


def test_hedge_wins_when_first_is_slow():
    fn, calls = slow_then_fast()
    budget = RetryBudget(ratio=0, min_per_second=1, window=10)
    t0 = time.monotonic()
    assert hedged_call(fn, idempotent=True, budget=budget, delay=0.02) == 2
    assert time.monotonic() - t0 < 0.4
    assert budget.stats()["spent"] == 1
    assert get_metrics().count("hedge") == 1


def test_no_hedge_for_non_idempotent_or_empty_budget():
    calls = []

    def fn():
        calls.append(1)
        time.sleep(0.05)
        return "x"

    hedged_call(fn, idempotent=False, budget=None, delay=0.001)
    assert len(calls) == 1
    empty = RetryBudget(ratio=0, min_per_second=0, window=1)
    hedged_call(fn, idempotent=True, budget=empty, delay=0.001)
    assert len(calls) == 2
    # no samples yet -> no p95 -> no hedge
    hedged_call(fn, idempotent=True, budget=None, tracker=LatencyTracker())
    assert len(calls) == 3


def test_async_hedge_cancels_loser():
    cancelled = []

    async def main():
        n = {"i": 0}

        async def fn():
            n["i"] += 1
            me = n["i"]
            try:
                await asyncio.sleep(0.5 if me == 1 else 0.01)
            except asyncio.CancelledError:
                cancelled.append(me)
                raise
            return me

        return await ahedged_call(fn, idempotent=True, budget=None, delay=0.02)

    assert asyncio.run(main()) == 2
    assert cancelled == [1]


def test_hedge_budget_none_is_the_dependencys_shared_budget():
    fn, _ = slow_then_fast()
    hedged_call(fn, idempotent=True, dependency="hb", delay=0.02)
    assert RetryBudget.for_dependency("hb").stats()["spent"] == 1  # was: unbudgeted
    fn, calls = slow_then_fast()
    assert hedged_call(fn, idempotent=True, budget=False, dependency="free", delay=0.02) == 2
    assert RetryBudget.for_dependency("free").stats()["spent"] == 0


def test_hedge_event_carries_attempt_and_reason():
    events = []
    get_metrics().add_listener(events.append)
    try:
        fn, _ = slow_then_fast()
        hedged_call(fn, idempotent=True, dependency="he", delay=0.02, attempt=2)
    finally:
        get_metrics().remove_listener(events.append)
    (hedge,) = [e for e in events if e.kind == "hedge"]
    assert hedge.fields == {"attempt": 2, "reason": "no answer after 20 ms", "after": 0.02}  # was only "after"


def test_sync_hedged_call_never_waits_past_the_deadline():
    fn, calls = slow_then_fast(first=0.45, later=0.45)
    discarded = []
    t0 = time.monotonic()
    with deadline(0.15), pytest.raises(TimeoutError, match="before the deadline") as info:
        hedged_call(fn, idempotent=True, budget=False, delay=0.05, discard=discarded.append)
    assert time.monotonic() - t0 < 0.15 + 0.15  # was 0.45 s: the caller waited for every copy
    assert not isinstance(info.value, DeadlineExceeded)  # a dependency that did not answer in time
    assert len(calls) == 2
    wait_until(lambda: sorted(discarded) == [1, 2])  # the late answers are still released


def test_async_hedged_call_never_waits_past_the_deadline():
    async def main():
        async def fn():
            await asyncio.sleep(0.6)
            return "late"

        t0 = time.monotonic()
        with pytest.raises(TimeoutError, match="before the deadline"):
            async with deadline(0.25):
                await ahedged_call(fn, idempotent=True, budget=False, delay=0.05)
        return time.monotonic() - t0

    assert asyncio.run(main()) < 0.25 + 0.15
