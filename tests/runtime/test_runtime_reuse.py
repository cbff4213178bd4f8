"""A ``deadline(...)`` or ``retrying(...)`` object used more than once (issue 28, item 10):
both are reusable, and each use is its own scope."""

from __future__ import annotations

import asyncio

import pytest

from resilint.runtime import current_deadline, deadline, idempotency_key, remaining, retrying

from .support import FAST


def test_a_deadline_nested_in_itself_leaves_nothing_behind(clock):
    budget = deadline(5.0)
    with budget:
        clock.advance(1.0)
        with budget as inner:
            assert inner.remaining() == pytest.approx(4.0)  # the earlier expiry is kept
        assert remaining() == pytest.approx(4.0)
    assert current_deadline() is None  # was: the deadline leaked out of its scope


def test_each_entry_starts_its_own_seconds(clock):
    budget = deadline(1.0)
    with budget:
        clock.advance(0.8)
    with budget as again:
        assert again.remaining() == pytest.approx(1.0)
    assert current_deadline() is None


def test_a_deadline_shared_by_concurrent_tasks():
    shared = deadline(5.0)
    inside = []

    async def task(name, pause):
        async with shared:
            await asyncio.sleep(pause)
            inside.append((name, remaining() is not None))
        return current_deadline()

    async def main():
        return await asyncio.gather(task("a", 0.02), task("b", 0.01), task("c", 0.03))

    after = asyncio.run(main())  # was ValueError: a token reset in another task's context
    assert after == [None, None, None]
    assert sorted(inside) == [("a", True), ("b", True), ("c", True)]


def test_exiting_where_it_was_not_entered_is_an_error():
    with pytest.raises(RuntimeError, match="not entered"):
        deadline(1.0).__exit__(None, None, None)


def test_a_retrying_object_runs_each_loop_as_a_new_operation():
    loop = retrying(attempts=3, **FAST)
    bodies = []
    keys = []
    for run in range(2):
        for attempt in loop:
            with attempt:
                bodies.append(run)
                keys.append((run, idempotency_key()))
                if len([b for b in bodies if b == run]) == 1:
                    raise ConnectionError("first attempt of each run fails")
    assert bodies == [0, 0, 1, 1]  # was [0, 0]: the second loop silently did nothing
    assert keys[0][1] == keys[1][1] and keys[2][1] == keys[3][1] and keys[0][1] != keys[2][1]


def test_a_retrying_object_shared_by_tasks():
    loop = retrying(attempts=2, **FAST)

    async def task(n):
        calls = 0
        async for attempt in loop:
            with attempt:
                calls += 1
                await asyncio.sleep(0.01)
                if calls == 1:
                    raise TimeoutError("slow")
        return n, calls

    async def main():
        return await asyncio.gather(*(task(n) for n in range(3)))

    assert asyncio.run(main()) == [(0, 2), (1, 2), (2, 2)]
