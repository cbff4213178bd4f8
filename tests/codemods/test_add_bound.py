"""RES203 fixes: an attempt limit for unbounded library retries (``add-bound``)."""

from __future__ import annotations

from resilint.codemods.add_bound import DEFAULT_ATTEMPTS, AddBound
from tests.codemods.support import dedent, remaining, rewrite


def test_tenacity_without_stop_gets_one_in_the_spelling_of_its_decorator():
    code, _ = rewrite(AddBound, """
        import tenacity as t
        from tenacity import retry as r, wait_random

        @r(wait=wait_random(0, 1))
        def a(): ...

        @t.retry(
            wait=t.wait_random(0, 1),  # jittered
        )
        def b(stop_after_attempt): ...

        @t.retry(stop=t.stop_never)
        def c(): ...

        @r
        def d(): ...
        """)
    assert code == dedent("""
        import tenacity as t
        from tenacity import retry as r, wait_random
        from tenacity import stop_after_attempt as tenacity_stop_after_attempt

        @r(wait=wait_random(0, 1), stop=tenacity_stop_after_attempt(5))
        def a(): ...

        @t.retry(
            wait=t.wait_random(0, 1),  # jittered
            stop=t.stop_after_attempt(5),
        )
        def b(stop_after_attempt): ...

        @t.retry(stop=t.stop_after_attempt(5))
        def c(): ...

        @r(stop=tenacity_stop_after_attempt(5))
        def d(): ...
        """)
    assert remaining(code, "RES203") == []


def test_backoff_retrying_stamina_celery_limits():
    code, _ = rewrite(AddBound, """
        import backoff, stamina
        from celery import shared_task
        from retrying import retry

        @backoff.on_exception(backoff.expo, OSError)
        def a(): ...

        @backoff.on_exception(backoff.expo, OSError, max_tries=None)
        def b(): ...

        @stamina.retry(on=OSError, attempts=None, timeout=None)
        def c(): ...

        @shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=None)
        def d(): ...

        @retry(wait_random_min=1, wait_random_max=2)
        def e(): ...
        """, attempts=4)
    assert "@backoff.on_exception(backoff.expo, OSError, max_tries=4)\ndef a" in code
    assert "@backoff.on_exception(backoff.expo, OSError, max_tries=4)\ndef b" in code
    assert "attempts=4, timeout=None" in code
    assert "max_retries=3)" in code  # celery counts retries: 4 attempts
    assert "stop_max_attempt_number=4)" in code
    assert remaining(code, "RES203") == []


def test_while_true_loops_are_left_alone_and_listed():
    source = """
        import requests, time

        def f():
            while True:
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(1)
        """
    code, left = rewrite(AddBound, source)
    assert code == dedent(source)
    assert len(left) == 1 and left[0][0] == 4 and "control flow" in left[0][1]
    assert DEFAULT_ATTEMPTS == 5
