"""The circuit breaker under concurrency, with many results in its window, and in an operator's
hands (issue 28, items 1, 2 and 15)."""

from __future__ import annotations

import threading
import time
import tracemalloc

import pytest

from resilint.runtime import CLOSED, HALF_OPEN, OPEN, CircuitBreaker, CircuitOpenError, get_metrics


def run_in_thread(target, timeout=10.0):
    """Run ``target`` in a daemon thread; True if it finished within ``timeout`` (a hang in
    a deadlock leaves the daemon thread behind and fails the test instead of the run)."""
    errors = []

    def wrapped():
        try:
            target()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=wrapped, daemon=True)
    thread.start()
    thread.join(timeout)
    if errors:
        raise errors[0]
    return not thread.is_alive()


def test_a_listener_that_reads_the_breaker_does_not_deadlock_it(clock):
    breaker = CircuitBreaker("metrics-reader", min_calls=4, open_duration=1.0, open_jitter=0.0, half_open_probes=1)
    seen = []

    def metrics_listener(event):
        if event.kind == "breaker_transition":
            seen.append((event.fields["new"], breaker.state, repr(breaker)))

    get_metrics().add_listener(metrics_listener)
    try:

        def trip_and_recover():
            for _ in range(4):
                breaker.allow().record_failure()
            clock.advance(2.0)
            breaker.allow().record_success()  # half-open probe, then closed

        assert run_in_thread(trip_and_recover)  # was: hung on the breaker's own lock
    finally:
        get_metrics().remove_listener(metrics_listener)
    assert [(new, state) for new, state, _ in seen] == [(OPEN, OPEN), (HALF_OPEN, HALF_OPEN), (CLOSED, CLOSED)]


def test_fifty_threads_with_a_listener_that_calls_the_breaker():
    breaker = CircuitBreaker("busy", min_calls=5, open_duration=0.0, open_jitter=0.0, half_open_probes=1)

    def listener(event):
        if event.kind == "breaker_transition":
            try:
                breaker.allow().release()  # user code calling back into the breaker
            except CircuitOpenError:
                pass

    get_metrics().add_listener(listener)
    try:

        def hammer():
            for i in range(200):
                try:
                    permit = breaker.allow()
                except CircuitOpenError:
                    continue
                permit.record_failure() if i % 2 else permit.record_success()

        threads = [threading.Thread(target=hammer, daemon=True) for _ in range(50)]
        for t in threads:
            t.start()
        end = time.monotonic() + 30
        for t in threads:
            t.join(max(0.0, end - time.monotonic()))
        assert not any(t.is_alive() for t in threads)  # was: every thread stuck on the lock
    finally:
        get_metrics().remove_listener(listener)
    assert get_metrics().count("breaker_transition", "busy") > 0


def retained_bytes(results):
    """Bytes a breaker keeps after ``results`` healthy results inside its window."""
    breaker = CircuitBreaker("big", min_calls=1, window=60.0)
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for _ in range(results):
            breaker.allow().record_success(duration=0.001)
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    assert breaker.state == CLOSED
    return sum(stat.size_diff for stat in after.compare_to(before, "filename"))


def test_the_window_does_not_grow_with_traffic():
    # Kept incrementally in time buckets: 10,000 results cost what 100 do. Before, each result
    # was kept (and all of them summed on every call): about 0.9 MB more for 10,000.
    assert retained_bytes(10_000) - retained_bytes(100) < 20_000


def test_bucketed_window_counts_rates_exactly(clock):
    breaker = CircuitBreaker("exact", min_calls=1000, failure_rate=0.5, window=10.0)
    for i in range(10_000):
        permit = breaker.allow()
        permit.record_failure() if i % 3 == 0 else permit.record_success()
        if i % 1000 == 999:
            clock.advance(0.5)
    assert breaker.state == CLOSED  # 33 % failures
    assert breaker.stats() == {"calls": 10_000, "failures": 3334, "slow_calls": 0}
    clock.advance(10.0)
    assert breaker.stats()["calls"] == 0  # the whole window has slid past
    for _ in range(1000):
        breaker.allow().record_failure()
    assert breaker.state == OPEN and "over 1000 calls" in breaker.history[-1][2]


def test_operators_can_force_open_force_closed_and_reset(clock):
    breaker = CircuitBreaker("ops", min_calls=2, open_duration=1.0, open_jitter=0.0)
    breaker.force_open()
    assert breaker.state == OPEN and breaker.forced == OPEN
    clock.advance(3600)  # no timer, no probes while forced open
    with pytest.raises(CircuitOpenError, match="forced open"):
        breaker.allow()
    assert breaker.state == OPEN

    breaker.force_closed()
    for _ in range(10):
        breaker.allow().record_failure()  # let through, counted nowhere
    assert breaker.state == CLOSED and breaker.forced == CLOSED and breaker.stats()["calls"] == 0

    breaker.reset()
    assert breaker.forced is None
    breaker.allow().record_failure()
    breaker.allow().record_failure()
    assert breaker.state == OPEN  # counting again
    breaker.reset()
    assert breaker.state == CLOSED and breaker.stats()["calls"] == 0
    reasons = [why for _, _, why in breaker.history]
    assert reasons[:3] == ["forced open by operator", "forced closed by operator", "reset by operator"]
    transitions = [e.fields["reason"] for e in get_metrics().transitions if e.dependency == "ops"]
    assert transitions[:3] == reasons[:3]
