from __future__ import annotations

import asyncio
from email.utils import format_datetime
from datetime import datetime, timezone

import pytest

from resilint.runtime import (
    DeadlineExceeded,
    RetryBudget,
    RetryBudgetExhausted,
    backoff_delay,
    classify,
    full_jitter,
    deadline,
    get_metrics,
    idempotency_key,
    idempotency_scope,
    idempotent_operation,
    parse_retry_after,
    retry,
    retrying,
)
from resilint.runtime.testing import FakeClock, instant_retries


class Resp:
    def __init__(self, status, headers=None):
        self.status_code = status
        self.headers = headers or {}
        self.closed = False

    def close(self):
        self.closed = True


def flaky(outcomes):
    calls = []

    def fn():
        calls.append(1)
        out = outcomes[min(len(calls), len(outcomes)) - 1]
        if isinstance(out, BaseException):
            raise out
        return out

    return fn, calls


def test_backoff_is_full_jitter_exponential_capped():
    top = FakeClock(fixed_random=1.0)
    assert [backoff_delay(n, clock=top) for n in range(8)] == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0])
    low = FakeClock(fixed_random=0.0)
    assert backoff_delay(5, clock=low) == 0.0
    rnd = FakeClock(seed=1)
    draws = [backoff_delay(3, clock=rnd) for _ in range(200)]
    assert all(0 <= d <= 0.8 for d in draws) and len(set(draws)) > 100


def test_full_jitter_draws_below_the_given_delay():
    assert full_jitter(3.0, clock=FakeClock(fixed_random=1.0)) == pytest.approx(3.0)
    assert full_jitter(3.0, clock=FakeClock(fixed_random=0.0)) == 0.0
    assert full_jitter(-1.0, clock=FakeClock(fixed_random=1.0)) == 0.0
    rnd = FakeClock(seed=3)
    draws = [full_jitter(2.0, clock=rnd) for _ in range(200)]
    assert all(0 <= d <= 2.0 for d in draws) and len(set(draws)) > 100


def test_default_three_attempts_then_last_exception(clock):
    fn, calls = flaky([ConnectionError("a"), ConnectionError("b"), ConnectionError("c"), "never"])
    with pytest.raises(ConnectionError, match="c"):
        retry(fn)()
    assert len(calls) == 3
    assert len(clock.sleeps) == 2
    assert 0 <= clock.sleeps[0] <= 0.1 and 0 <= clock.sleeps[1] <= 0.2


def test_success_after_transient_failures(clock):
    fn, calls = flaky([TimeoutError(), Resp(503), Resp(200)])
    result = retry(fn, attempts=5)()
    assert result.status_code == 200 and len(calls) == 3


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409, 422, 501])
def test_other_4xx_and_501_never_retried(clock, status):
    fn, calls = flaky([Resp(status), Resp(200)])
    assert retry(fn)().status_code == status
    assert len(calls) == 1


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_retryable_statuses(clock, status):
    first = Resp(status)
    fn, calls = flaky([first, Resp(200)])
    assert retry(fn)().status_code == 200
    assert len(calls) == 2 and first.closed  # the discarded response was released


def test_exhausted_attempts_return_last_response(clock):
    fn, calls = flaky([Resp(503)])
    assert retry(fn, attempts=4)().status_code == 503
    assert len(calls) == 4


def test_programming_errors_not_retried(clock):
    fn, calls = flaky([ValueError("bug"), "x"])
    with pytest.raises(ValueError):
        retry(fn)()
    assert len(calls) == 1


def test_retry_on_extends_classification(clock):
    class Flaky(Exception):
        pass

    fn, calls = flaky([Flaky(), "ok"])
    assert retry(fn, retry_on=(Flaky,))() == "ok"


def test_retry_after_seconds_is_honoured(clock):
    fn, calls = flaky([Resp(429, {"Retry-After": "3"}), Resp(200)])
    assert retry(fn)().status_code == 200
    assert clock.sleeps == [3.0]


def test_retry_after_http_date_is_honoured(clock):
    when = datetime.fromtimestamp(clock.time() + 4, tz=timezone.utc)
    fn, calls = flaky([Resp(503, {"Retry-After": format_datetime(when, usegmt=True)}), Resp(200)])
    assert retry(fn)().status_code == 200
    assert clock.sleeps == [pytest.approx(4.0, abs=1.0)]


def test_retry_after_above_cap_stops(clock):
    fn, calls = flaky([Resp(503, {"Retry-After": "120"}), Resp(200)])
    assert retry(fn, retry_after_cap=10)().status_code == 503
    assert len(calls) == 1 and clock.sleeps == []


def test_retry_after_never_past_deadline(clock):
    fn, calls = flaky([Resp(503, {"Retry-After": "2"}), Resp(200)])
    with deadline(1.0):
        with pytest.raises(DeadlineExceeded) as info:
            retry(fn)()
    assert info.value.response.status_code == 503
    assert clock.sleeps == [] and len(calls) == 1


def test_parse_retry_after():
    assert parse_retry_after("7", now=0) == 7.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == pytest.approx(10.0)
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0
    assert parse_retry_after("soon", now=0) is None
    assert parse_retry_after(None, now=0) is None


def test_backoff_sleep_never_past_deadline(clock):
    clock.fixed_random = 1.0  # sleeps 0.1, 0.2, 0.4 ...
    fn, calls = flaky([ConnectionError()])
    with deadline(0.25):
        with pytest.raises(DeadlineExceeded) as info:
            retry(fn, attempts=10)()
    assert isinstance(info.value.__cause__, ConnectionError)
    assert sum(clock.sleeps) < 0.25
    assert len(calls) == 2


def test_expired_deadline_refuses_first_attempt(clock):
    fn, calls = flaky(["x"])
    with deadline(0.0):
        with pytest.raises(DeadlineExceeded):
            retry(fn)()
    assert calls == []


def test_post_without_key_is_not_retried(clock):
    fn, calls = flaky([ConnectionError(), "ok"])
    with pytest.raises(ConnectionError):
        retry(fn, method="POST")()
    assert len(calls) == 1


def test_post_with_key_is_retried_with_the_same_key(clock):
    seen = []

    @retry(method="POST", attempts=3)
    def charge():
        seen.append(idempotency_key())
        if len(seen) < 3:
            raise ConnectionResetError("dropped after commit")
        return "charged"

    assert charge() == "charged"
    assert len(seen) == 3 and len(set(seen)) == 1
    # a new logical operation gets a new key
    seen.clear()
    charge()
    assert len(set(seen)) == 1
    assert idempotency_key() != idempotency_key()  # outside any scope: fresh each time


def test_explicit_scope_shares_key():
    with idempotency_scope("order-42"):
        assert idempotency_key() == "order-42"
        with idempotency_scope(new=False):
            assert idempotency_key() == "order-42"


def test_idempotent_operation_is_one_key_per_call_whoever_retries_inside():
    @idempotent_operation
    def body_run_three_times():  # what tenacity/backoff do: the body once per attempt
        return [idempotency_key() for _ in range(3)]

    first, second = body_run_three_times(), body_run_three_times()
    assert len(set(first)) == 1 and len(set(second)) == 1
    assert first[0] != second[0]
    assert body_run_three_times.__name__ == "body_run_three_times"


def test_idempotent_operation_outside_a_retry_gives_its_key_to_every_attempt(clock):
    seen = []

    @idempotent_operation
    @retry(method="POST", attempts=3)
    def charge():
        seen.append(idempotency_key())
        if len(seen) % 3:
            raise ConnectionResetError("dropped after commit")
        return "charged"

    assert charge() == "charged" and charge() == "charged"
    assert len(set(seen[:3])) == 1 and len(set(seen[3:])) == 1 and seen[0] != seen[3]


def test_idempotent_operation_async():
    @idempotent_operation
    async def body():
        first = idempotency_key()
        await asyncio.sleep(0)
        return first, idempotency_key()

    a, b = asyncio.run(body()), asyncio.run(body())
    assert a[0] == a[1] and b[0] == b[1] and a[0] != b[0]


def test_async_decorator(clock):
    calls = []

    @retry(attempts=3)
    async def fetch():
        calls.append(1)
        if len(calls) < 3:
            raise TimeoutError()
        return "ok"

    assert asyncio.run(fetch()) == "ok"
    assert len(clock.sleeps) == 2


def test_retrying_loop_sync(clock):
    fn, calls = flaky([ConnectionError(), Resp(502), Resp(200)])
    keys = []
    for attempt in retrying(attempts=3):
        with attempt:
            keys.append(attempt.idempotency_key)
            resp = attempt.check(fn())
    assert resp.status_code == 200 and len(calls) == 3
    assert len(set(keys)) == 1
    assert attempt.number == 3


def test_retrying_loop_final_exception_propagates(clock):
    fn, calls = flaky([ConnectionError("last")])
    with pytest.raises(ConnectionError):
        for attempt in retrying(attempts=2):
            with attempt:
                fn()
    assert len(calls) == 2


def test_retrying_loop_stops_on_success_and_non_retryable(clock):
    n = 0
    for attempt in retrying():
        with attempt:
            n += 1
    assert n == 1
    with pytest.raises(KeyError):
        for attempt in retrying():
            with attempt:
                raise KeyError("x")


def test_retrying_loop_async(clock):
    async def main():
        fn, calls = flaky([TimeoutError(), Resp(200)])
        async for attempt in retrying(attempts=3):
            with attempt:
                resp = attempt.check(fn())
        return resp, calls

    resp, calls = asyncio.run(main())
    assert resp.status_code == 200 and len(calls) == 2


def test_budget_exhaustion_fails_fast(clock):
    budget = RetryBudget(ratio=0.0, min_per_second=0.1, window=10)  # one token
    fn, calls = flaky([ConnectionError()])
    with pytest.raises(ConnectionError):
        retry(fn, attempts=2, budget=budget)()  # spends the only token
    calls.clear()
    with pytest.raises(RetryBudgetExhausted) as info:
        retry(fn, attempts=2, budget=budget)()
    assert len(calls) == 1 and "exhausted" in str(info.value)
    assert isinstance(info.value.__cause__, ConnectionError)
    assert get_metrics().count("budget_exhausted") == 1


def test_non_health_failures_do_not_spend_budget(clock):
    budget = RetryBudget(ratio=0.0, min_per_second=0.1, window=10)
    fn, _ = flaky([Resp(404)])
    for _ in range(5):
        retry(fn, budget=budget)()
    assert budget.stats()["spent"] == 0


def test_metrics_retry_ratio(clock):
    fn, _ = flaky([ConnectionError(), "ok"])
    for _ in range(4):
        retry(fn, dependency="svc")()  # first call retries once, later calls succeed at once
    m = get_metrics()
    assert m.count("first_attempt", "svc") == 4
    assert m.retry_ratio("svc") == pytest.approx(0.25)


def test_instant_retries_helper():
    fn, calls = flaky([ConnectionError(), ConnectionError(), "ok"])
    with instant_retries(seed=3) as fake:
        assert retry(fn, base=10.0, cap=10.0)() == "ok"
    assert len(fake.sleeps) == 2  # up to 20 s of backoff, skipped


def test_classify_exceptions_from_clients():
    requests = pytest.importorskip("requests")
    httpx = pytest.importorskip("httpx")
    assert classify(requests.ConnectionError()).retryable
    assert classify(requests.ReadTimeout()).health_failure
    assert not classify(requests.exceptions.SSLError()).retryable
    assert classify(httpx.ConnectError("x")).retryable
    assert classify(httpx.ReadTimeout("x")).retryable
    assert not classify(httpx.UnsupportedProtocol("x")).retryable
    assert not classify(DeadlineExceeded()).retryable


def test_retry_after_in_other_scripts_digits_is_unparsable():
    assert parse_retry_after("\xb2", now=0) is None  # "\xb2".isdigit() is True; float() refuses it
    assert parse_retry_after("\u0663", now=0) is None


def test_unnamed_retry_sites_each_have_their_own_budget(clock):
    def loop_a():
        for attempt in retrying(attempts=2):
            with attempt:
                raise ConnectionError("a is down")

    def loop_b():
        for attempt in retrying(attempts=2):
            with attempt:
                raise ConnectionError("b is down")

    exhausted = 0
    for _ in range(15):  # the floor is 10 tokens per 10 s window; a spends them all
        try:
            loop_a()
        except RetryBudgetExhausted:
            exhausted += 1
        except ConnectionError:
            pass
    assert exhausted > 0
    with pytest.raises(ConnectionError, match="b is down"):
        loop_b()  # was RetryBudgetExhausted: every unnamed loop shared one "default" budget
    sites = {d for d in get_metrics().snapshot() if d and d.startswith(__name__ + ":")}
    assert len(sites) == 2  # named after where each loop is written


def test_runtime_refusals_are_never_retried_even_as_oserror(clock):
    # DeadlineExceeded is a TimeoutError, hence an OSError: a broad retry_on must not repeat it
    fn, calls = flaky([DeadlineExceeded("refused downstream"), "ok"])
    with pytest.raises(DeadlineExceeded):
        retry(fn, retry_on=(OSError,))()
    assert len(calls) == 1  # was 2
    assert isinstance(DeadlineExceeded(), TimeoutError) and isinstance(DeadlineExceeded(), OSError)


def test_a_refusal_inside_a_later_attempt_carries_the_earlier_response(clock):
    first = Resp(503)
    fn, calls = flaky([first, DeadlineExceeded("no slot before the deadline")])
    with pytest.raises(DeadlineExceeded) as info:
        retry(fn)()
    assert info.value.response is first and first.closed  # was None
    assert len(calls) == 2


def test_stopping_early_closes_the_response_it_hands_over(clock):
    budget = RetryBudget(ratio=0.0, min_per_second=0.0, window=10)
    last = Resp(503)
    fn, _ = flaky([last])
    with pytest.raises(RetryBudgetExhausted) as info:
        retry(fn, budget=budget)()
    assert info.value.response is last and last.closed  # was left open, holding its connection
    last2 = Resp(503)
    with pytest.raises(RetryBudgetExhausted):
        for attempt in retrying(budget=budget):
            with attempt:
                attempt.check(last2)
    assert last2.closed


def test_first_attempt_and_retry_events_carry_attempt_and_reason(clock):
    events = []
    get_metrics().add_listener(events.append)
    try:
        fn, _ = flaky([Resp(503), Resp(200)])
        retry(fn, dependency="ev")()
    finally:
        get_metrics().remove_listener(events.append)
    fields = [(e.kind, e.fields) for e in events if e.kind in ("first_attempt", "retry")]
    assert fields == [
        ("first_attempt", {"attempt": 1, "reason": "first attempt"}),  # was {}
        ("retry", {"attempt": 2, "reason": "status 503"}),
    ]
