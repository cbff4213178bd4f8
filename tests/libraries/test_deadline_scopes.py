"""A retry loop that runs under a deadline is bounded by it (libraries/deadline_scopes.py); the
RES203 fixture shows each scope, these the edges."""

from __future__ import annotations

import textwrap

from resilint.lint.checker import check_source


def unbounded(source: str):
    return [f.line for f in check_source(textwrap.dedent(source).lstrip("\n"), ["RES203"])]


def test_a_method_awaited_through_wait_for_is_bounded():
    assert unbounded(
        """
        import asyncio, random

        class Poller:
            async def _poll(self):
                while True:
                    try:
                        return await self.fetch()
                    except OSError:
                        await asyncio.sleep(random.random())

            async def run(self):
                return await asyncio.wait_for(self._poll(), timeout=30)
        """
    ) == []


def test_wait_for_without_a_limit_bounds_nothing():
    assert unbounded(
        """
        import asyncio, random

        async def poll():
            while True:
                try:
                    return await fetch()
                except OSError:
                    await asyncio.sleep(random.random())

        async def run():
            return await asyncio.wait_for(poll(), None)
        """
    ) == [4]


def test_only_the_function_whose_coroutine_is_bounded_counts():
    # ``step`` runs under the deadline, and so does ``poll`` through it, but one level is all
    # that is followed in a file (deeper chains are the cross-module pass's).
    assert unbounded(
        """
        import asyncio, random

        async def poll():
            while True:
                try:
                    return await fetch()
                except OSError:
                    await asyncio.sleep(random.random())

        async def step():
            return await poll()

        async def run():
            return await asyncio.wait_for(step(), 30)
        """
    ) == [4]
