"""RES202 in hand-written retry loops: the sleep draws below the delay the loop computes."""

from __future__ import annotations

from resilint.codemods.loop_jitter import LoopJitter
from tests.codemods.support import dedent, remaining, rewrite


def test_pure_exponential_and_doubling_delays_get_full_jitter_once():
    code, _ = rewrite(LoopJitter, """
        import asyncio, time, aiohttp, requests

        def f():
            for attempt in range(5):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(2 ** attempt)  # back off

        async def g(session):
            delay = 0.5
            for _ in range(4):
                try:
                    async with session.get("https://a.example") as r:
                        return await r.json()
                except aiohttp.ClientError:
                    await asyncio.sleep(delay)
                    delay *= 2
        """)
    assert code == dedent("""
        import asyncio, time, aiohttp, requests
        from resilint.runtime import full_jitter

        def f():
            for attempt in range(5):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(full_jitter(2 ** attempt))  # back off

        async def g(session):
            delay = 0.5
            for _ in range(4):
                try:
                    async with session.get("https://a.example") as r:
                        return await r.json()
                except aiohttp.ClientError:
                    await asyncio.sleep(full_jitter(delay))
                    delay *= 2
        """)
    assert remaining(code, "RES202") == []


def test_every_constant_sleep_of_the_loop_but_not_the_servers_retry_after():
    code, _ = rewrite(LoopJitter, """
        import time, requests
        RETRY_DELAY = 2

        def f(full_jitter):
            while True:
                r = requests.get("https://a.example", timeout=3)
                if r.status_code == 200:
                    return r
                if r.status_code == 503:
                    time.sleep(RETRY_DELAY)
                    continue
                time.sleep(
                    RETRY_DELAY,
                )
        """)
    # a parameter called full_jitter: the runtime's is imported under another name
    assert "from resilint.runtime import full_jitter as runtime_full_jitter" in code
    assert code.count("runtime_full_jitter(RETRY_DELAY)") == 2
    assert remaining(code, "RES202") == []


def test_a_sleep_the_rule_does_not_flag_is_not_touched():
    source = """
        import random, time, requests

        def f():
            for attempt in range(3):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(random.uniform(0, 0.1 * 2 ** attempt))
        """
    code, _ = rewrite(LoopJitter, source)
    assert code == dedent(source)
