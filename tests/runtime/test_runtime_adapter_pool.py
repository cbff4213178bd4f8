"""Pooled connections through the httpx transports, against real local servers: a response the
caller does not get back is released, and a full local pool is not the dependency's fault."""

from __future__ import annotations

import asyncio

import pytest

from resilint.runtime import CLOSED, CircuitBreaker, RetryBudget, RetryBudgetExhausted, get_metrics
from resilint.runtime.testing import serve_wsgi

from .support import FAST, Script

httpx = pytest.importorskip("httpx")

from resilint.runtime.adapters.httpx import AsyncResilientTransport, ResilientTransport  # noqa: E402

pytestmark = pytest.mark.slow

NO_RETRY_TOKENS = dict(ratio=0.0, min_per_second=0.0, window=10)


def test_failed_calls_give_their_pooled_connections_back():
    app = Script(default=(503, 0))
    transport = ResilientTransport(
        dependency="pool", budget=RetryBudget(**NO_RETRY_TOKENS), limits=httpx.Limits(max_connections=2),
        connect=0.3, **FAST,
    )
    kept = []
    with serve_wsgi(app) as url, httpx.Client(transport=transport) as client:
        for _ in range(4):
            with pytest.raises(RetryBudgetExhausted) as info:
                client.get(url)
            kept.append(info.value)  # the exceptions, and their .response, stay alive
    assert app.calls == 4  # was 2: the third call waited for the pool and never reached the server
    assert all(e.response.status_code == 503 and e.response.content == b"ok" and e.response.is_closed for e in kept)


def test_failed_async_calls_give_their_pooled_connections_back():
    app = Script(default=(503, 0))

    async def main(url):
        transport = AsyncResilientTransport(
            dependency="apool", budget=RetryBudget(**NO_RETRY_TOKENS), limits=httpx.Limits(max_connections=2),
            connect=0.3, **FAST,
        )
        kept = []
        async with httpx.AsyncClient(transport=transport) as client:
            for _ in range(4):
                try:
                    await client.get(url)
                except RetryBudgetExhausted as exc:
                    kept.append(exc)
        return kept

    with serve_wsgi(app) as url:
        kept = asyncio.run(main(url))
    assert app.calls == 4 and len(kept) == 4  # was a PoolTimeout on the third call
    assert all(e.response.content == b"ok" and e.response.is_closed for e in kept)


def test_local_pool_exhaustion_is_not_a_dependency_failure():
    app = Script()
    breaker = CircuitBreaker("local", min_calls=1, open_duration=60)
    budget = RetryBudget(ratio=0.0, min_per_second=1.0, window=10)
    transport = ResilientTransport(
        dependency="local", breaker=breaker, budget=budget, limits=httpx.Limits(max_connections=1),
        connect=0.2, **FAST,
    )
    with serve_wsgi(app) as url, httpx.Client(transport=transport) as client:
        # a streamed body (not read within the attempt) holds the only connection
        with client.stream("GET", url, extensions={"resilint.stream": True}):
            with pytest.raises(httpx.PoolTimeout):
                client.get(url)  # was: retried, charged to the budget, and it opened the breaker
        assert app.calls == 1
        assert breaker.state == CLOSED and budget.stats()["spent"] == 0
        assert get_metrics().count("retry", "local") == 0
        assert client.get(url).status_code == 200


def test_pool_limits_belong_to_the_transport():
    with pytest.raises(TypeError, match="your own transport"):
        ResilientTransport(transport=httpx.HTTPTransport(retries=0), limits=httpx.Limits(max_connections=1))
