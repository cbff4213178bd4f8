"""Migration of simple tenacity/backoff decorators to ``resilint.runtime.retry`` (unsafe)."""

from __future__ import annotations

import subprocess
import sys

import pytest
import requests

from resilint.codemods.migrate_to_runtime import MigrateToRuntime
from resilint.runtime.testing import serve_wsgi
from tests.codemods.support import dedent, load_module, rewrite
from tests.runtime.support import Script


def test_decorators_whose_options_all_translate_are_rewritten_and_their_imports_dropped():
    code, left = rewrite(MigrateToRuntime, migration=True, source="""
        import requests
        import backoff
        from tenacity import retry, stop_after_attempt, wait_exponential, retry_if_exception_type

        @retry(
            stop=stop_after_attempt(4),
            wait=wait_exponential(multiplier=0.5, max=8),  # seconds
            retry=retry_if_exception_type(requests.ConnectionError),
            reraise=True,
        )
        def a(): ...

        @backoff.on_exception(backoff.expo, (OSError, TimeoutError), max_tries=5, max_value=10)
        async def b(): ...
        """)
    assert code == dedent("""
        import requests
        from resilint.runtime import retry as runtime_retry

        @runtime_retry(attempts=4, base=0.5, cap=8, retry_on=(requests.ConnectionError,))
        def a(): ...

        @runtime_retry(attempts=5, base=1, cap=10, retry_on=(OSError, TimeoutError))
        async def b(): ...
        """)
    assert left == []


def test_anything_that_does_not_translate_exactly_is_left_alone_with_the_reason():
    source = """
        import tenacity as t
        import backoff, time

        @t.retry(stop=t.stop_after_attempt(3), wait=t.wait_exponential(max=2))
        def no_reraise(): ...

        @t.retry(stop=t.stop_after_attempt(3), wait=t.wait_exponential(max=2), reraise=True, before_sleep=print)
        def hook(): ...

        @t.retry(wait=t.wait_exponential(max=2), reraise=True)
        def unbounded(): ...

        @backoff.on_exception(backoff.expo, OSError, max_tries=5, jitter=None)
        def no_jitter(): ...

        @backoff.on_exception(backoff.expo, OSError, max_tries=5)
        def no_cap(): ...

        def loop(send):
            for attempt in range(3):
                try:
                    return send()
                except OSError:
                    time.sleep(1)
        """
    code, left = rewrite(MigrateToRuntime, source, migration=True)
    assert code == dedent(source)
    reasons = dict(left)
    assert "RetryError" in reasons[4]
    assert "no runtime counterpart" in reasons[7] and "no runtime counterpart" in reasons[13]
    assert "cap" in reasons[16]
    assert "stop_after_attempt" in reasons[10]
    assert "falls through" in reasons[20] and "if attempt == 3 - 1: raise" in reasons[20]
    assert set(reasons) == {4, 7, 10, 13, 16, 20}


def test_the_migrated_function_keeps_its_attempts_and_exceptions():
    from resilint.runtime import use_clock
    from resilint.runtime.testing import FakeClock

    code, _ = rewrite(MigrateToRuntime, migration=True, source="""
        import backoff

        calls = []

        @backoff.on_exception(backoff.expo, ConnectionError, max_tries=4, max_value=2)
        def flaky():
            calls.append(1)
            if len(calls) < 4:
                raise ConnectionResetError("dropped")
            return "done"

        @backoff.on_exception(backoff.expo, ConnectionError, max_tries=4, max_value=2)
        def broken():
            calls.append(1)
            raise KeyError("a bug is not retried")
        """)
    assert "runtime_retry" not in code and "@retry(attempts=4, base=1, cap=2, retry_on=(ConnectionError,))" in code
    namespace: dict = {}
    clock = FakeClock(seed=1)
    with use_clock(clock):
        exec(compile(code, "migrated", "exec"), namespace)
        assert namespace["flaky"]() == "done"
        assert len(namespace["calls"]) == 4
        assert all(0 <= pause <= 2 for pause in clock.sleeps) and len(clock.sleeps) == 3
        namespace["calls"].clear()
        try:
            namespace["broken"]()
        except KeyError:
            pass
        assert len(namespace["calls"]) == 1


def test_a_parameter_called_retry_is_never_shadowed():
    code, _ = rewrite(MigrateToRuntime, migration=True, source="""
        import backoff

        @backoff.on_exception(backoff.expo, OSError, max_tries=3, max_value=5)
        def send(payload, retry=True): ...
        """)
    assert code == dedent("""
        from resilint.runtime import retry as runtime_retry

        @runtime_retry(attempts=3, base=1, cap=5, retry_on=(OSError,))
        def send(payload, retry=True): ...
        """)


def test_loops_whose_behaviour_translates_exactly_move_under_retrying():
    code, left = rewrite(MigrateToRuntime, migration=True, source="""
        import asyncio
        import time

        import requests
        from resilint.runtime import full_jitter

        RETRIES = 4

        def fetch(url):
            for attempt in range(RETRIES):
                # one GET per attempt
                try:  # the call
                    response = requests.get(
                        url,
                        timeout=5,  # seconds
                    )
                    return response.json()
                except (requests.ConnectionError, requests.Timeout) as exc:
                    if attempt == RETRIES - 1:
                        raise
                    time.sleep(full_jitter(min(8, 0.5 * 2 ** attempt)))

        def assign_then_break(send):
            for i in range(0, 3):
                try:
                    result = send()
                    break
                except OSError:
                    if i + 1 == 3:
                        raise
                    time.sleep(min(2 ** i, 10))
            return result

        async def ping(client):
            for attempt in range(3):
                try:
                    return await client.get("/ping")
                except ConnectionError:
                    if attempt >= 2:
                        raise
                    await asyncio.sleep(min(5, 2 ** attempt * 0.1))
        """)
    assert code == dedent("""
        import requests
        from resilint.runtime import retrying

        RETRIES = 4

        def fetch(url):
            for attempt in retrying(attempts=RETRIES, base=0.5, cap=8, retry_on=(requests.ConnectionError, requests.Timeout)):
                # one GET per attempt
                with attempt:  # the call
                    response = requests.get(
                        url,
                        timeout=5,  # seconds
                    )
                    return response.json()

        def assign_then_break(send):
            for i in retrying(attempts=3, base=1, cap=10, retry_on=(OSError,)):
                with i:
                    result = send()
                    break
            return result

        async def ping(client):
            async for attempt in retrying(attempts=3, base=0.1, cap=5, retry_on=(ConnectionError,)):
                with attempt:
                    return await client.get("/ping")
        """)
    assert left == []


MIGRATABLE = """
    import time
    from resilint.runtime import full_jitter

    def call(send):
        for attempt in range(3):
            try:
                return send()
            except OSError:
                if attempt == 2:
                    raise
                time.sleep(full_jitter(min(5, 2 ** attempt)))
    """
PAUSE = "            time.sleep(full_jitter(min(5, 2 ** attempt)))"


@pytest.mark.parametrize("before, after, reason", [
    (PAUSE, PAUSE + "\n    else:\n        raise RuntimeError('gave up')", "`for ... else`"),
    (PAUSE, PAUSE + "\n        except ValueError:\n            return None", "more than one `except`"),
    ("except OSError", "except Exception", "every error"),
    ("return send()", "send.tries = attempt + 1\n            return send()", "loop variable `attempt`"),
    ("for attempt in range(3)", "attempt = 0\n    while attempt < 3", "does not start with `counter += 1`"),
    ("            if attempt == 2:\n                raise\n", "", "falls through"),
    ("full_jitter(min(5, 2 ** attempt))", "1", "no exact counterpart"),
    ("full_jitter(min(5, 2 ** attempt))", "2 ** attempt", "no exact counterpart"),
    ("return send()", "if send():\n                    return True", "does not end in `return`/`break`"),
], ids=["for-else", "two-handlers", "except-Exception", "loop-variable", "while", "fall-through", "constant", "no-cap", "no-exit"])
def test_loops_that_do_not_translate_exactly_are_left_alone_with_the_reason(before, after, reason):
    source = dedent(MIGRATABLE)
    assert before in source
    source = source.replace(before, after)
    code, left = rewrite(MigrateToRuntime, source, migration=True)
    assert code == source
    loop_line = next(n for n, text in enumerate(source.splitlines(), 1) if text.lstrip().startswith(("for ", "while ")))
    assert [line for line, _ in left] == [loop_line]
    assert reason in left[0][1]


WHILE_LOOPS = """
    import time

    import requests

    def fetch(url):
        attempts = 0
        while attempts < 4:
            try:
                return requests.get(url, timeout=5)
            except requests.ConnectionError:
                attempts += 1
                if attempts >= 4:
                    raise
                time.sleep(min(8, 0.5 * 2 ** attempts))

    def fetch_until_it_works(url):
        tries = 0
        while True:
            try:
                return requests.get(url, timeout=5)
            except (requests.ConnectionError, requests.Timeout):
                tries += 1
                if tries == MAX_TRIES:
                    raise
                time.sleep(min(2 ** tries, 30))
    """


def test_while_loops_with_an_attempt_counter_move_under_retrying():
    """The common shapes (issue 26: 18 of 20 loops left alone were `while` loops): the counter
    starts at 0 right before the loop, counts each failure, re-raises at N; the pause after the
    k-th failure, base·2^k, is the runtime's base'·2^(k-1) with base' = 2·base."""
    code, left = rewrite(MigrateToRuntime, WHILE_LOOPS, migration=True)
    assert code == dedent("""
        import requests
        from resilint.runtime import retrying

        def fetch(url):
            for attempts in retrying(attempts=4, base=1.0, cap=8, retry_on=(requests.ConnectionError,)):
                with attempts:
                    return requests.get(url, timeout=5)

        def fetch_until_it_works(url):
            for tries in retrying(attempts=MAX_TRIES, base=2, cap=30, retry_on=(requests.ConnectionError, requests.Timeout)):
                with tries:
                    return requests.get(url, timeout=5)
        """)
    assert left == []


@pytest.mark.parametrize("before, after, reason", [
    ("while attempts < 4", "while self_running and attempts < 4", "is not `counter < N` or `True`"),
    ("while attempts < 4", "while attempts_left > 0", "counts down (`attempts_left > 0`)"),
    ("            if attempts >= 4:\n                raise\n", "", "does not re-raise when the attempts run out"),
    ("    attempts = 0\n", "    attempts = 0\n    log('start')\n", "does not come right before the loop"),
    ("if attempts >= 4", "if attempts >= 5", "runs while `attempts < 4` but re-raises at 5"),
    ("time.sleep(min(8, 0.5 * 2 ** attempts))", "time.sleep(1)", "no exact counterpart"),
    ("return requests.get(url, timeout=5)\n        except requests.ConnectionError",
     "return requests.get(url, timeout=5, params={'n': attempts})\n        except requests.ConnectionError",
     "counter `attempts` is used besides"),
], ids=["other-condition", "counts-down", "falls-through", "counter-not-started-there", "different-limits", "constant-pause", "counter-used"])
def test_while_loops_that_do_not_translate_exactly_are_left_alone_with_a_precise_reason(before, after, reason):
    source = dedent(WHILE_LOOPS).split("\ndef fetch_until_it_works", 1)[0]
    assert before in source
    source = source.replace(before, after)
    code, left = rewrite(MigrateToRuntime, source, migration=True)
    assert code == source
    assert [line for line, _ in left] == [next(n for n, t in enumerate(source.splitlines(), 1) if t.lstrip().startswith("while "))]
    assert reason in left[0][1], left[0][1]


def test_the_loop_the_refusals_start_from_is_migrated():
    code, left = rewrite(MigrateToRuntime, MIGRATABLE, migration=True)
    assert "for attempt in retrying(attempts=3, base=1, cap=5, retry_on=(OSError,)):" in code and left == []


ORIGINAL_LOOP = """
    import time

    import requests
    from resilint.runtime import full_jitter

    def fetch(url):
        for attempt in range(3):
            try:
                response = requests.get(url, timeout=5)
                response.raise_for_status()
                return response.text
            except requests.HTTPError:
                if attempt == 2:
                    raise
                time.sleep(full_jitter(min(0.01, 0.001 * 2 ** attempt)))
    """


ORIGINAL_WHILE_LOOP = """
    import time

    import requests

    def fetch(url):
        failures = 0
        while True:
            try:
                response = requests.get(url, timeout=5)
                response.raise_for_status()
                return response.text
            except requests.HTTPError:
                failures += 1
                if failures >= 3:
                    raise
                time.sleep(min(0.01, 0.001 * 2 ** failures))
    """


@pytest.mark.slow
@pytest.mark.parametrize("steps, answer", [((503, 503, 200), "ok"), ((503, 503, 503), requests.HTTPError)], ids=["recovers", "gives-up"])
@pytest.mark.parametrize("original, migrated_loop", [
    (ORIGINAL_LOOP, "for attempt in retrying(attempts=3, base=0.001, cap=0.01, retry_on=(requests.HTTPError,)):"),
    (ORIGINAL_WHILE_LOOP, "for failures in retrying(attempts=3, base=0.002, cap=0.01, retry_on=(requests.HTTPError,)):"),
], ids=["for", "while"])
def test_the_migrated_loop_makes_the_same_attempts_against_a_real_server(tmp_path, steps, answer, original, migrated_loop):
    migrated, _ = rewrite(MigrateToRuntime, original, migration=True)
    assert migrated_loop in migrated
    for name, code in (("original", dedent(original)), ("migrated", migrated)):
        module = load_module(tmp_path, f"{name}_{tmp_path.name}", code)
        app = Script(*[(status, 0.0) for status in steps], default=(500, 0.0))
        with serve_wsgi(app) as url:
            if isinstance(answer, str):
                assert module.fetch(url) == answer, name
            else:
                with pytest.raises(answer):
                    module.fetch(url)
        assert app.calls == 3, name


@pytest.mark.slow
def test_fix_jitters_the_loop_and_the_codemod_then_migrates_it(tmp_path):
    """``fix --unsafe-fixes`` runs the safe ``loop-jitter`` first (jitter on top, under the cap),
    which fixes the loop's RES202, so nothing is left for the migration, whatever the target;
    ``resilint codemod migrate-to-runtime`` migrates it, the added jitter and its import too."""
    path = tmp_path / "client.py"
    path.write_text(dedent("""
        import time
        import requests

        def fetch(url):
            for attempt in range(3):
                try:
                    return requests.get(url, timeout=5)
                except requests.ConnectionError:
                    if attempt == 2:
                        raise
                    time.sleep(min(8, 0.5 * 2 ** attempt))
        """))

    def resilint(*args: str) -> None:
        subprocess.run([sys.executable, "-m", "resilint", *args, "--no-cache", str(tmp_path)], check=True, capture_output=True)

    resilint("fix", "--select", "RES202", "--unsafe-fixes", "--fix-target", "runtime")
    # 92 characters on one line: wrapped as black wraps it
    assert "time.sleep(\n                min(8, 0.5 * 2 ** attempt + random.uniform(0, 0.5 * 2 ** attempt))\n            )\n" in path.read_text()
    resilint("codemod", "migrate-to-runtime")
    assert path.read_text() == dedent("""
        import requests
        from resilint.runtime import retrying

        def fetch(url):
            for attempt in retrying(attempts=3, base=0.5, cap=8, retry_on=(requests.ConnectionError,)):
                with attempt:
                    return requests.get(url, timeout=5)
        """)

