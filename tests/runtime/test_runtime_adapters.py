"""The HTTP adapters against real local servers (no mocks)."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from resilint.runtime import (
    DEADLINE_HEADER,
    OPEN,
    CircuitBreaker,
    CircuitOpenError,
    DeadlineExceeded,
    RetryBudget,
    RetryBudgetExhausted,
    deadline,
    get_metrics,
    idempotency_key,
    idempotency_scope,
    retrying,
)
from resilint.runtime.testing import serve_wsgi

requests = pytest.importorskip("requests")
httpx = pytest.importorskip("httpx")

from resilint.runtime.adapters.httpx import AsyncResilientTransport, ResilientTransport  # noqa: E402
from resilint.runtime.adapters.requests import ResilientAdapter, ResilientSession  # noqa: E402

from .support import FAST, Script, assert_gives_up_by_deadline  # noqa: E402

pytestmark = pytest.mark.slow


def test_requests_session_retries_and_propagates():
    app = Script((503, 0), (502, 0))
    with serve_wsgi(app) as url, ResilientSession(dependency="t1", **FAST) as s:
        adapter = s.get_adapter(url)
        assert isinstance(adapter, ResilientAdapter) and adapter.max_retries.total == 0
        with deadline(5.0):
            r = s.get(url + "/x")
        assert r.status_code == 200 and app.calls == 3
        sent = [int(h["HTTP_X_RESILINT_DEADLINE_MS"]) for h in app.seen]
        assert all(0 < ms <= 4990 for ms in sent) and sent == sorted(sent, reverse=True)
        s.get(url + "/y")
        assert "HTTP_X_RESILINT_DEADLINE_MS" not in app.seen[-1]  # no deadline, no header
    assert get_metrics().count("retry", "t1") == 2


def test_requests_no_retry_on_404_or_unkeyed_post():
    app = Script((404, 0), (503, 0), (503, 0))
    with serve_wsgi(app) as url, ResilientSession(dependency="t2", **FAST) as s:
        assert s.get(url).status_code == 404
        assert s.post(url, data=b"x").status_code == 503
        assert app.calls == 2
        assert s.post(url, data=b"x", headers={"Idempotency-Key": "k1"}).status_code == 200
        assert app.calls == 4 and app.seen[-1]["HTTP_IDEMPOTENCY_KEY"] == "k1"


def test_requests_auto_key_is_stable_across_attempts():
    app = Script((503, 0), (503, 0))
    with serve_wsgi(app) as url, ResilientSession(dependency="t3", auto_idempotency_key=True, **FAST) as s:
        assert s.post(url, data=b"x").status_code == 200
        keys = {h["HTTP_IDEMPOTENCY_KEY"] for h in app.seen}
        assert len(keys) == 1 and app.calls == 3
        s.post(url, data=b"y")
        assert app.seen[-1]["HTTP_IDEMPOTENCY_KEY"] not in keys  # next operation, next key


def test_adapter_repeats_only_a_request_that_carries_a_key():
    app = Script(default=(503, 0))
    with serve_wsgi(app) as url, ResilientSession(dependency="keys", **FAST) as s:
        with idempotency_scope():
            idempotency_key()  # issued for something else in the same scope
            assert s.post(url, data=b"unkeyed").status_code == 503
        assert app.calls == 1  # was 3
        for attempt in retrying(attempts=1, method="POST"):
            with attempt:
                s.post(url, data=b"a", headers={"Idempotency-Key": idempotency_key()})
                s.post(url, data=b"b")  # the same loop body, no key of its own
    assert [h["method"] for h in app.seen[1:]] == ["POST"] * 4  # a: 3 attempts, b: 1 (was 3)


def test_auto_keys_are_one_per_request_unless_a_scope_asks_to_share():
    app = Script()
    with serve_wsgi(app) as url, ResilientSession(dependency="auto", auto_idempotency_key=True, attempts=1) as s:
        for attempt in retrying(attempts=1):  # an implicit operation scope
            with attempt:
                s.post(url, data=b"charge")
                s.post(url, data=b"refund")
        with idempotency_scope("order-7"):
            s.post(url, data=b"charge")
            s.post(url, data=b"charge again")
    keys = [h["HTTP_IDEMPOTENCY_KEY"] for h in app.seen]
    assert keys[0] != keys[1]  # was one key: a deduplicating server would drop the refund
    assert keys[2:] == ["order-7", "order-7"]


def test_retry_after_that_is_not_ascii_digits_is_ignored():
    app = Script((503, 0), headers=[("Retry-After", "\xb2")])  # "\xb2".isdigit() is True
    with serve_wsgi(app) as url, ResilientSession(dependency="ra", **FAST) as s:
        assert s.get(url).status_code == 200  # was ValueError from float("\xb2")
    assert app.calls == 2


def test_default_breaker_counts_slow_calls():
    app = Script(default=(200, 0.52))  # healthy answers, but slower than read / 1.4 = 500 ms
    transport = ResilientTransport(dependency="slow", breaker=True, read=0.7)
    with serve_wsgi(app) as url, httpx.Client(transport=transport) as client:
        with ThreadPoolExecutor(10) as pool:
            statuses = list(pool.map(lambda _: client.get(url).status_code, range(10)))
    breaker = CircuitBreaker.for_dependency("slow")
    assert statuses == [200] * 10
    assert breaker.state == OPEN and "slow-call rate 100%" in breaker.history[-1][2]  # was closed


def test_requests_timeout_clamped_to_deadline():
    app = Script(default=(200, 1.0))
    with serve_wsgi(app) as url, ResilientSession(dependency="t4", read=10.0, **FAST) as s:
        assert_gives_up_by_deadline(lambda: s.get(url), (DeadlineExceeded, requests.Timeout))


def test_requests_budget_and_breaker():
    app = Script(default=(500, 0))
    budget = RetryBudget(ratio=0.0, min_per_second=0.1, window=10)  # a single retry token
    breaker = CircuitBreaker("t5", min_calls=4, open_duration=60)
    with serve_wsgi(app) as url, ResilientSession(dependency="t5", budget=budget, breaker=breaker, **FAST) as s:
        with pytest.raises(RetryBudgetExhausted) as info:
            s.get(url)  # first attempt, the only retry token, then fail fast
        assert app.calls == 2 and info.value.response.status_code == 500
        assert "'t5'" in str(info.value)
        for _ in range(3):
            try:
                s.get(url)
            except (RetryBudgetExhausted, CircuitOpenError):
                pass
        before = app.calls
        with pytest.raises(CircuitOpenError):
            s.get(url)
        assert app.calls == before  # refused without contacting the server


def test_httpx_sync_transport():
    app = Script((503, 0), (429, 0), headers=[("Retry-After", "0")])
    transport = ResilientTransport(dependency="h1", **FAST)
    assert transport._inner._pool._retries == 0
    with serve_wsgi(app) as url, httpx.Client(transport=transport, timeout=3.0) as client:
        with deadline(2.0):
            r = client.get(url)
        assert r.status_code == 200 and r.text == "ok" and app.calls == 3
        assert all(0 < int(h["HTTP_X_RESILINT_DEADLINE_MS"]) <= 1990 for h in app.seen)
        assert client.post(url, content=b"p").status_code == 200


def test_httpx_sync_timeout_clamped():
    app = Script(default=(200, 1.0))
    with serve_wsgi(app) as url, httpx.Client(transport=ResilientTransport(dependency="h2", **FAST)) as client:
        assert_gives_up_by_deadline(lambda: client.get(url), (DeadlineExceeded, httpx.TimeoutException))


def test_httpx_async_transport_retries_and_hedges():
    app = Script((503, 0), (200, 0.0))
    slow_first = Script((200, 0.6), default=(200, 0.0))

    async def main(url, slow_url):
        async with httpx.AsyncClient(transport=AsyncResilientTransport(dependency="h3", **FAST)) as c:
            async with deadline(2.0):
                r = await c.get(url)
            assert r.status_code == 200 and app.calls == 2
            assert DEADLINE_HEADER.upper().replace("-", "_") in "HTTP_" + "_".join(app.seen[0]).upper()
        hedging = AsyncResilientTransport(dependency="h4", hedge=True, hedge_delay=0.05, **FAST)
        async with httpx.AsyncClient(transport=hedging) as c:
            t0 = time.monotonic()
            r = await c.get(slow_url)
            return r.status_code, time.monotonic() - t0

    with serve_wsgi(app) as url, serve_wsgi(slow_first) as slow_url:
        status, elapsed = asyncio.run(main(url, slow_url))
    assert status == 200 and elapsed < 0.5
    assert slow_first.calls == 2 and get_metrics().count("hedge", "h4") == 1
