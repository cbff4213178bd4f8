"""RES202 in hand-written retry loops: ``loop-jitter`` adds a ``random.uniform`` draw on top of
the reported sleep (safe: no wait gets shorter, none passes the loop's cap), and
``loop-full-jitter`` (runtime target, unsafe) sleeps the runtime's full-jitter draw below it."""

from __future__ import annotations

import json
import random

from resilint.codemods.loop_full_jitter import LoopFullJitter
from resilint.codemods.loop_jitter import LoopJitter
from tests.codemods.support import dedent, load_module, remaining, rewrite


def test_pure_exponential_and_doubling_delays_get_jitter_on_top():
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
    # ``import asyncio, time, aiohttp, requests`` stands with its last section (third party),
    # so the standard library's ``random`` opens its own section above it, as isort would
    assert code == dedent("""
        import random

        import asyncio, time, aiohttp, requests

        def f():
            for attempt in range(5):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(2 ** attempt + random.uniform(0, 2 ** attempt))  # back off

        async def g(session):
            delay = 0.5
            for _ in range(4):
                try:
                    async with session.get("https://a.example") as r:
                        return await r.json()
                except aiohttp.ClientError:
                    await asyncio.sleep(delay + random.uniform(0, delay))
                    delay *= 2
        """)
    assert remaining(code, "RES202") == []


def test_a_cap_in_the_sleep_or_in_the_loop_bounds_the_jittered_wait_and_random_is_imported_once():
    code, _ = rewrite(LoopJitter, """
        import random as rnd, time, requests

        def f():
            for n in range(8):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(min(30, 1 << n))

        def g():
            delay = 1
            attempts = 0
            while attempts < 5:
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    attempts += 1
                    time.sleep(delay)
                    delay = min(delay * 2, 60)

        def h(max_wait):
            wait = 5
            for _ in range(10):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(wait)
                    wait *= 2
                    if wait > max_wait:
                        wait = max_wait
        """)
    assert "time.sleep(min(30, (1 << n) + rnd.uniform(0, 1 << n)))" in code
    assert "time.sleep(min(delay + rnd.uniform(0, delay), 60))" in code
    assert "time.sleep(min(wait + rnd.uniform(0, wait), max_wait))" in code  # tweepy's shape
    assert code.count("import") == 1, "the file's own `import random as rnd` is used"
    assert remaining(code, "RES202") == []


# tweepy's streams: the wait of a 420 doubles without a cap, every other error's is capped
STREAM_CAPPED_BUT_FOR_420 = """
        import time, requests

        def stream(url, wait_max):
            wait = 5
            while True:
                response = requests.get(url, timeout=(3, 90))
                if response.status_code == 200:
                    return response
                time.sleep(wait)
                wait *= 2
                if response.status_code != 420:
                    if wait > wait_max:
                        wait = wait_max
        """


def test_a_cap_only_some_paths_apply_bounds_the_sum_only_where_the_wait_is_within_it():
    # capping the sum by the cap alone would cut a 420's wait, leaving it uncapped would pass
    # the cap every other status keeps
    code, _ = rewrite(LoopJitter, STREAM_CAPPED_BUT_FOR_420)
    assert "time.sleep(min(wait + random.uniform(0, wait), max(wait, wait_max)))" in code
    assert remaining(code, "RES202") == []


def test_no_wait_gets_shorter_and_none_passes_the_cap(tmp_path):
    """The fixed delay, run for real over many draws: never below the old one, never above the cap."""
    code, _ = rewrite(LoopJitter, """
        import time, requests

        def f(n):
            for attempt in range(8):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(min(0.5 * 2 ** attempt, 20))
        """)
    # the sleep may be wrapped over lines (black's layout): its argument, on one line
    expression = " ".join(code.split("time.sleep(", 1)[1].rsplit(")", 1)[0].split())
    module = load_module(tmp_path, "jittered_delay", f"import random\n\ndef delay(attempt):\n    return {expression}\n")
    random.seed(26)
    for attempt in range(8):
        old = min(0.5 * 2 ** attempt, 20)
        draws = [module.delay(attempt) for _ in range(500)]
        assert min(draws) >= old
        assert max(draws) <= 20
        if old < 20:
            assert max(draws) > old, "a random term was added"


def test_a_cap_on_some_paths_run_for_real(tmp_path):
    """The tweepy stream's waits replayed, 420s and other errors mixed: no jittered wait is
    shorter than the original, and none passes the cap unless the original already did."""
    code, _ = rewrite(LoopJitter, STREAM_CAPPED_BUT_FOR_420)
    expression = " ".join(code.split("time.sleep(", 1)[1].rsplit(")", 1)[0].split())
    module = load_module(tmp_path, "conditional_cap", f"import random\n\ndef delay(wait, wait_max):\n    return {expression}\n")
    random.seed(420)
    wait, wait_max = 5, 320
    for status in [500, 500, 420, 420, 420, 420, 420, 500, 500, 420]:
        draws = [module.delay(wait, wait_max) for _ in range(200)]
        assert min(draws) >= wait
        assert max(draws) <= max(wait, wait_max)
        wait *= 2
        if status != 420 and wait > wait_max:
            wait = wait_max


def test_only_the_reported_sleep_is_edited(cli, tmp_path):
    """One finding per failure path of a loop (each ``except`` handler's own pause), not per
    sleep: the fix edits those sleeps and their import, not the loop's other sleeps (issue 26
    saw 6 call sites edited for 4 findings)."""
    source = dedent("""
        import time
        import requests

        def f():
            for i in range(3):
                try:
                    return requests.get("http://x", timeout=TIMEOUT)
                except requests.ConnectionError:
                    time.sleep(2)
                except requests.Timeout:
                    time.sleep(min(2 ** i, 30))
                time.sleep(1)

        def g():
            while True:
                r = requests.get("https://a.example", timeout=TIMEOUT)
                if r.status_code == 200:
                    return r
                time.sleep(3)
                time.sleep(4)
        """)
    (tmp_path / "client.py").write_text(source)
    found = json.loads(cli(["check", "--no-cache", "--select", "RES202", "--format", "json", "."], tmp_path).stdout)["findings"]
    reported = sorted(f["line"] for f in found)
    assert len(reported) == 3
    for target in ("native", "runtime"):
        (tmp_path / "client.py").write_text(source)
        result = cli(["fix", "--no-cache", "--select", "RES202", "--unsafe-fixes", "--fix-target", target, "."], tmp_path)
        assert result.exit_code == 0, result.stderr
        after = (tmp_path / "client.py").read_text().splitlines()
        before = source.splitlines()
        added = [line for line in after if line not in before]
        assert added[0] == "import random"
        changed = [line for line in added[1:]]
        assert len(changed) == len(reported), changed
        assert [line.strip() for line in after if "time.sleep(" in line] == [
            "time.sleep(2 + random.uniform(0, 2))", "time.sleep(min(2 ** i + random.uniform(0, 2 ** i), 30))", "time.sleep(1)",
            "time.sleep(3 + random.uniform(0, 3))", "time.sleep(4)",
        ]


def test_each_pause_finding_carries_its_own_edit(cli, tmp_path):
    """Two pauses of one loop, each a failure path's (the handler's, and the one after a way
    out on a 200): each finding's fix edits its own sleep, with the import both need."""
    (tmp_path / "covers.py").write_text(dedent("""
        from time import sleep
        import requests

        def add_cover(url, params):
            for _ in range(10):
                try:
                    response = requests.post(url, data=params, timeout=(3, 10))
                except requests.HTTPError:
                    sleep(2)
                    continue
                if response.status_code == 200 and "id" in response.json():
                    break
                sleep(3)
        """))
    found = json.loads(cli(["check", "--no-cache", "--select", "RES202", "--format", "json", "."], tmp_path).stdout)["findings"]
    assert [f["line"] for f in found] == [9, 13]
    for finding in found:
        texts = [edit["content"] for edit in finding["fix"]["edits"]]
        assert any("import random" in text for text in texts), texts
        pauses = [text for text in texts if "random.uniform" in text]
        assert pauses == [f" + random.uniform(0, {2 if finding['line'] == 9 else 3})"], texts


def test_a_delay_computed_by_a_call_is_left_alone_with_the_reason():
    source = """
        import time, requests

        def f():
            for attempt in range(3):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(max(1, 2 ** attempt))
        """
    code, left = rewrite(LoopJitter, source)
    assert code == dedent(source)
    assert [line for line, _ in left] == [8] and "computed by a call" in left[0][1]


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


def test_runtime_full_jitter_wraps_each_reported_sleep_and_avoids_a_shadowing_name():
    code, _ = rewrite(LoopFullJitter, """
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
        """, fix_target="runtime")
    # a parameter called full_jitter: the runtime's is imported under another name; the 503
    # branch goes round before the other pause, so each is a failure path's wait, both reported
    assert "from resilint.runtime import full_jitter as runtime_full_jitter" in code
    assert code.count("runtime_full_jitter(RETRY_DELAY)") == 2
    assert remaining(code, "RES202") == []


def test_an_existing_from_random_import_uniform_is_used():
    code, _ = rewrite(LoopJitter, """
        import time, requests
        from random import uniform

        def f():
            for attempt in range(3):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(2)
        """)
    assert "time.sleep(2 + uniform(0, 2))" in code
    assert code.count("import") == 2


def test_fix_never_runs_full_jitter_only_the_codemod_by_name_does(cli, tmp_path):
    """posthog's flags retry (issue 26): a delay computed by a call, which its tests pin to
    0.3 s and 0.6 s. `fix --unsafe-fixes` with the runtime target leaves it alone with the
    reason (full jitter would shorten the waits); `resilint codemod loop-full-jitter` is how a
    user asks for it."""
    source = dedent("""
        import time

        import requests

        def retry_delay(failed_attempt):
            return 0.3 * 2 ** failed_attempt

        def flags(url):
            failed_attempt = 0
            while True:
                try:
                    return requests.get(url, timeout=3)
                except requests.ConnectionError:
                    if failed_attempt >= 2:
                        raise
                time.sleep(retry_delay(failed_attempt))
                failed_attempt += 1
    """).lstrip()
    (tmp_path / "flags.py").write_text(source)
    (tmp_path / "requirements.txt").write_text("requests\nresilint-runtime\n")
    fixed = cli(["fix", "--unsafe-fixes", "--fix-target", "runtime", "--no-cache", "--select", "RES202", "."], tmp_path)
    assert (tmp_path / "flags.py").read_text() == source
    assert "the delay is computed by a call" in fixed.stdout + fixed.stderr
    asked = cli(["codemod", "loop-full-jitter", "--no-cache", "."], tmp_path)
    assert asked.exit_code == 0, asked.output
    assert "time.sleep(full_jitter(retry_delay(failed_attempt)))" in (tmp_path / "flags.py").read_text()
