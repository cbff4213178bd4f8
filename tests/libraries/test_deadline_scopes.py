"""A retry loop that runs under a deadline is bounded by it (libraries/deadline_scopes.py); the
RES203 fixture shows each scope, these the edges."""

from __future__ import annotations

import textwrap

from resilint.lint.checker import check_source

# An unbounded retry loop as the body of ``poll()``: line 4 of each source below.
POLL = """
import asyncio, random

async def poll():
    while True:
        try:
            return await fetch()
        except OSError:
            await asyncio.sleep(random.random())
"""


def unbounded(source: str):
    return [f.line for f in check_source(textwrap.dedent(source).lstrip("\n"), ["RES203"])]


def test_a_method_awaited_through_wait_for_is_bounded():
    method = textwrap.indent(POLL.split("\n", 3)[3].replace("poll()", "_poll(self)"), "    ")
    assert unbounded(
        "import asyncio, random\n\nclass Poller:\n" + method
        + "\n    async def run(self):\n        return await asyncio.wait_for(self._poll(), timeout=30)\n"
    ) == []


def test_wait_for_without_a_limit_bounds_nothing():
    assert unbounded(POLL + "\nasync def run():\n    return await asyncio.wait_for(poll(), None)\n") == [4]


def test_only_the_function_whose_coroutine_is_bounded_counts():
    # ``step`` runs under the deadline, and so does ``poll`` through it, but one level is all
    # that is followed in a file (deeper chains are the cross-module pass's).
    assert unbounded(
        POLL
        + "\nasync def step():\n    return await poll()\n"
        + "\nasync def run():\n    return await asyncio.wait_for(step(), 30)\n"
    ) == [4]
