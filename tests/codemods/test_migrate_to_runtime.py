"""Migration of simple tenacity/backoff decorators to ``resilint.runtime.retry`` (unsafe)."""

from __future__ import annotations

from resilint.codemods.migrate_to_runtime import MigrateToRuntime
from tests.codemods.support import dedent, rewrite


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
    assert "control flow" in reasons[20]
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
