from __future__ import annotations

import asyncio
import math

import pytest

from resilint.runtime import (
    MAX_DEADLINE,
    DeadlineExceeded,
    SplitTimeout,
    calibrate,
    check_deadline,
    current_deadline,
    deadline,
    remaining,
    timeout,
)


def test_no_deadline_means_none():
    assert remaining() is None
    assert current_deadline() is None
    assert check_deadline(5.0) is None


def test_deadline_counts_down_and_is_restored(clock):
    with deadline(2.0) as d:
        assert remaining() == pytest.approx(2.0)
        clock.advance(0.5)
        assert remaining() == pytest.approx(1.5)
        assert d is current_deadline()
    assert remaining() is None


def test_nesting_keeps_the_earlier_deadline(clock):
    with deadline(1.0):
        with deadline(5.0):
            assert remaining() == pytest.approx(1.0)
        with deadline(0.25):
            assert remaining() == pytest.approx(0.25)
        assert remaining() == pytest.approx(1.0)


def test_none_seconds_keeps_outer(clock):
    with deadline(1.0):
        with deadline(None):
            assert remaining() == pytest.approx(1.0)


def test_remaining_never_negative_and_exception_type(clock):
    with deadline(0.1):
        clock.advance(1)
        assert remaining() == 0.0
        with pytest.raises(DeadlineExceeded) as info:
            check_deadline(0.0, "render")
    assert isinstance(info.value, TimeoutError)
    assert "render" in str(info.value)


def test_check_deadline_refuses_work_that_cannot_fit(clock):
    with deadline(0.15):
        with pytest.raises(DeadlineExceeded):
            check_deadline(0.2, "report")
        assert check_deadline(0.1) == pytest.approx(0.15)


def test_deadline_isolated_between_tasks(clock):
    async def task(seconds):
        async with deadline(seconds):
            await asyncio.sleep(0)
            return remaining()

    async def main():
        return await asyncio.gather(task(1.0), task(3.0))

    assert asyncio.run(main()) == [pytest.approx(1.0), pytest.approx(3.0)]


def test_timeout_defaults_and_requests_tuple():
    t = timeout(read=2.0, connect=0.5)
    assert t == (0.5, 2.0)
    connect, read = t
    assert (connect, read) == (0.5, 2.0)
    assert timeout().read == 10.0 and timeout().connect == pytest.approx(3.05)
    assert timeout(read=1.0).connect == 1.0  # connect never above read by default


def test_timeout_clamped_to_deadline(clock):
    with deadline(0.8):
        t = timeout(read=5.0, connect=1.0)
        assert t == pytest.approx(SplitTimeout(connect=0.8, read=0.8))
        clock.advance(0.7)
        assert timeout(read=5.0, connect=0.05).connect == 0.05
        assert timeout(read=5.0).read == pytest.approx(0.1)


def test_timeout_raises_before_io_when_nothing_left(clock):
    with deadline(0.1):
        clock.advance(0.1)
        with pytest.raises(DeadlineExceeded):
            timeout(read=1.0)


def test_timeout_converts_to_httpx():
    httpx = pytest.importorskip("httpx")
    t = timeout(read=2.0, connect=0.5).as_httpx()
    assert isinstance(t, httpx.Timeout)
    assert (t.connect, t.read) == (0.5, 2.0)


def test_calibrate_all_attempts_fit():
    c = calibrate(p99=0.2, budget=2.0, attempts=3)
    assert c.read == pytest.approx(0.28)
    assert c.connect == pytest.approx(0.28)  # min(read, 1.0)
    assert c.attempts == 3 and c.warning is None
    assert c.timeout == (c.connect, c.read)


def test_calibrate_lowers_attempts_not_timeout():
    c = calibrate(p99=0.5, budget=1.0, attempts=3, factor=1.5)
    assert c.read == pytest.approx(0.75)  # never cut below healthy latency × factor
    assert c.attempts == 1 and c.requested_attempts == 3
    assert "1 of 3" in c.warning


def test_calibrate_budget_below_healthy_latency():
    c = calibrate(p99=0.5, budget=0.3, attempts=2)
    assert c.attempts == 0
    assert c.read >= 0.5
    assert "below the healthy p99" in c.warning
    one = calibrate(p99=0.5, budget=0.6, attempts=2)
    assert one.attempts == 1 and one.read == pytest.approx(0.6) and one.read >= 0.5 and one.warning


def test_calibrate_connect_from_its_own_p99():
    assert calibrate(p99=1.0, budget=10, connect_p99=0.05).connect == pytest.approx(0.07)


@pytest.mark.parametrize("seconds", [math.inf, 1e300, MAX_DEADLINE + 1])
def test_absurd_deadline_is_no_deadline(clock, seconds):
    with deadline(seconds) as d:
        assert d is None and remaining() is None  # was an infinite expiry: OverflowError downstream
    with deadline(1.0):
        with deadline(seconds):
            assert remaining() == pytest.approx(1.0)
    with deadline(MAX_DEADLINE):
        assert remaining() == pytest.approx(MAX_DEADLINE)


def test_calibrate_connect_is_its_own_p99_times_factor_even_above_read():
    assert calibrate(p99=0.1, budget=5, connect_p99=0.2).connect == pytest.approx(0.28)  # was 0.14
    assert calibrate(p99=0.5, budget=0.6, attempts=2, connect_p99=0.5).connect == pytest.approx(0.7)
