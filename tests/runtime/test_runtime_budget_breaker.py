from __future__ import annotations

import logging
import math

import pytest

from resilint.runtime import (
    CLOSED,
    HALF_OPEN,
    OPEN,
    CircuitBreaker,
    CircuitOpenError,
    DeadlineExceeded,
    RetryBudget,
    RetryBudgetExhausted,
    get_metrics,
)


# -- retry budget ---------------------------------------------------------------------------
def test_budget_ratio_and_floor(clock):
    b = RetryBudget(ratio=0.1, min_per_second=1.0, window=10)
    assert b.balance() == pytest.approx(10.0)  # floor × window
    for _ in range(100):
        b.deposit()
    assert b.balance() == pytest.approx(20.0)
    spent = sum(b.try_spend() for _ in range(50))
    assert spent == 20
    assert get_metrics().count("budget_exhausted") == 30


def test_budget_window_slides(clock):
    b = RetryBudget(ratio=0.5, min_per_second=0.0, window=10)
    for _ in range(10):
        b.deposit()
    assert sum(b.try_spend() for _ in range(10)) == 5
    clock.advance(5)
    assert not b.try_spend()
    clock.advance(5.5)  # the deposits and spends have left the window
    assert b.stats()["first_attempts"] == 0 and b.stats()["spent"] == 0
    assert not b.try_spend()
    b.deposit(2)
    assert b.try_spend()


def test_budget_shared_per_dependency():
    a = RetryBudget.for_dependency("payments", ratio=0.2)
    assert RetryBudget.for_dependency("payments") is a and a.ratio == 0.2
    assert RetryBudget.for_dependency("search") is not a


def test_budget_validates():
    with pytest.raises(ValueError):
        RetryBudget(ratio=-1)


# -- circuit breaker ------------------------------------------------------------------------
def make(**kw):
    kw.setdefault("min_calls", 4)
    kw.setdefault("open_duration", 10.0)
    kw.setdefault("open_jitter", 0.0)
    return CircuitBreaker("dep", **kw)


def fail(br, n):
    """Admit ``n`` calls and record each as a failure."""
    for _ in range(n):
        br.allow().record_failure()


def test_opens_on_error_rate_only_after_min_calls(clock):
    br = make()
    fail(br, 3)
    assert br.state == CLOSED  # three calls < min_calls
    br.allow().record_failure()
    assert br.state == OPEN
    with pytest.raises(CircuitOpenError) as info:
        br.allow()
    assert info.value.retry_in == pytest.approx(10.0)
    assert "failure rate 100%" in br.history[-1][2]


def test_error_rate_below_threshold_stays_closed(clock):
    br = make(failure_rate=0.5)
    for i in range(10):
        p = br.allow()
        p.record_failure() if i % 4 == 1 else p.record_success()
    assert br.state == CLOSED


def test_opens_on_slow_calls_with_zero_errors(clock):
    br = make(slow_call_duration=1.0, slow_call_rate=0.5)
    for _ in range(4):
        p = br.allow()
        clock.advance(2.0)  # answered 200, but after 2 s
        p.record_success()
    assert br.state == OPEN
    assert "slow-call rate 100%" in br.history[-1][2]


def test_window_forgets_old_results(clock):
    br = make(window=5.0)
    fail(br, 3)
    clock.advance(6)
    br.allow().record_failure()
    assert br.state == CLOSED


def test_half_open_probes_judged_by_slowness(clock):
    br = make(slow_call_duration=1.0, half_open_probes=2)
    fail(br, 4)
    clock.advance(10.0)
    assert br.state == HALF_OPEN
    p1, p2 = br.allow(), br.allow()
    with pytest.raises(CircuitOpenError):
        br.allow()  # only two probes admitted
    p1.record_success(duration=0.1)
    p2.record_success(duration=1.5)  # succeeded, but slowly: not healthy
    assert br.state == OPEN
    assert "probe slow" in br.history[-1][2]
    clock.advance(10.0)
    for _ in range(2):
        br.allow().record_success(duration=0.1)
    assert br.state == CLOSED
    assert "probes healthy" in br.history[-1][2]


def test_half_open_probe_error_reopens(clock):
    br = make(half_open_probes=1)
    fail(br, 4)
    clock.advance(11)
    br.allow().record_outcome(ConnectionError())
    assert br.state == OPEN


def test_in_flight_results_while_open_are_ignored(clock):
    br = make(half_open_probes=1)
    stale = [br.allow() for _ in range(3)]
    fail(br, 4)
    assert br.state == OPEN
    for p in stale:
        p.record_success()  # arrive while open: must not close or count
    assert br.state == OPEN and br.ignored_results == 3
    clock.advance(10)
    probe = br.allow()
    late = stale[0]
    late.done = False
    late.record_failure()  # a result from the closed era arriving while half-open
    assert br.state == HALF_OPEN
    probe.record_success()
    assert br.state == CLOSED


def test_open_duration_is_jittered(clock):
    durations = set()
    for _ in range(5):
        br = CircuitBreaker("j", min_calls=1, open_duration=10.0, open_jitter=0.2)
        br.allow().record_failure()
        durations.add(round(br._open_until - clock.now(), 6))
    assert len(durations) > 1
    assert all(8.0 <= d <= 12.0 for d in durations)


def test_transitions_logged_with_reason(clock, caplog):
    events = []
    get_metrics().add_listener(events.append)
    try:
        br = make()
        with caplog.at_level(logging.WARNING, logger="resilint.runtime"):
            fail(br, 4)
    finally:
        get_metrics().remove_listener(events.append)
    transitions = [e for e in events if e.kind == "breaker_transition"]
    assert transitions[0].fields["old"] == "closed" and transitions[0].fields["new"] == "open"
    assert "failure rate" in transitions[0].fields["reason"]
    assert any("breaker_transition" in r.getMessage() and "failure rate" in r.getMessage() for r in caplog.records)


def call_answering(br, status, n):
    """Make ``n`` calls through ``br.call`` that each return a response with ``status``."""

    class R:
        status_code = status

    for _ in range(n):
        br.call(lambda: R())


def test_call_helpers_classify(clock):
    br = make()
    call_answering(br, 503, 4)
    assert br.state == OPEN


def test_4xx_counts_as_success(clock):
    br = make()
    call_answering(br, 404, 10)
    assert br.state == CLOSED


def test_slow_bar_comes_from_the_permit_when_the_breaker_has_none(clock):
    br = make()
    for _ in range(4):
        p = br.allow(slow_after=0.5)  # what an adapter passes: read timeout / 1.4
        clock.advance(0.6)
        p.record_success()
    assert br.state == OPEN and "(>= 500 ms)" in br.history[-1][2]
    never = make(slow_call_duration=math.inf)  # opt out of slow-call counting
    for _ in range(4):
        p = never.allow(slow_after=0.5)
        clock.advance(0.6)
        p.record_success()
    assert never.state == CLOSED


def test_runtime_refusals_are_not_counted(clock):
    br = make(min_calls=2)
    br.allow().record_failure()
    for refusal in (DeadlineExceeded("no time left"), RetryBudgetExhausted("dep")):

        def refused():
            raise refusal

        with pytest.raises(type(refusal)):
            br.call(refused)
    assert br.state == CLOSED  # was open: a refusal counted as a healthy call, 1 failure of 2
    br.allow().record_success()
    assert br.state == OPEN  # two real calls, one failed
