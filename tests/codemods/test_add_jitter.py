"""RES202 fixes in the retry libraries' own terms: ``add-jitter`` adds jitter on top of the
wait (safe), ``celery-jitter`` turns celery's full jitter back on (unsafe)."""

from __future__ import annotations

import random

import backoff
import pytest
import tenacity

from resilint.codemods.add_jitter import AddJitter
from resilint.codemods.celery_jitter import CeleryJitter
from tests.codemods.support import dedent, remaining, rewrite


def test_tenacity_wait_exponential_keeps_its_schedule_and_gets_a_random_term_on_top():
    code, left = rewrite(AddJitter, """
        from tenacity import retry, stop_after_attempt, wait_exponential

        @retry(
            stop=stop_after_attempt(3),
            wait=wait_exponential(multiplier=1,  # seconds
                                  max=10),
        )
        def fetch(): ...
        """)
    assert code == dedent("""
        from tenacity import retry, stop_after_attempt, wait_exponential, wait_random

        @retry(
            stop=stop_after_attempt(3),
            wait=wait_exponential(multiplier=1,  # seconds
                                  max=10) + wait_random(0, 1),
        )
        def fetch(): ...
        """)
    assert left == []
    assert remaining(code, "RES202") == []


def test_tenacity_module_alias_keeps_its_spelling_and_fixed_wait_gets_a_random_term():
    code, _ = rewrite(AddJitter, """
        import tenacity as t

        @t.retry(stop=t.stop_after_attempt(3), wait=t.wait_fixed(2))
        def a(): ...

        @t.retry(stop=t.stop_after_attempt(3), wait=t.wait_incrementing(start=1, increment=2))
        def b(): ...
        """)
    assert "wait=t.wait_fixed(2) + t.wait_random(0, 2))" in code
    assert "wait=t.wait_incrementing(start=1, increment=2) + t.wait_random(0, 2))" in code
    assert remaining(code, "RES202") == []


def test_tenacity_without_wait_gets_the_runtime_schedule_even_as_a_bare_decorator():
    code, _ = rewrite(AddJitter, """
        from tenacity import retry as r, stop_after_attempt

        @r
        def a(): ...

        @r(stop=stop_after_attempt(3),)
        def b(wait_random_exponential): ...
        """)
    # a parameter called wait_random_exponential: the import takes another name
    assert "from tenacity import wait_random_exponential as tenacity_wait_random_exponential" in code
    assert "@r(wait=tenacity_wait_random_exponential(multiplier=0.1, max=5))" in code
    assert "@r(stop=stop_after_attempt(3), wait=tenacity_wait_random_exponential(multiplier=0.1, max=5),)" in code
    assert remaining(code, "RES202") == []


def test_backoff_jitter_none_becomes_backoffs_own_jitter_on_top_keeping_trailing_comma_and_comments():
    code, _ = rewrite(AddJitter, """
        import backoff

        @backoff.on_exception(
            backoff.expo,
            OSError,
            max_tries=3,  # three attempts
            jitter=None,
        )
        def a(): ...

        @backoff.on_exception(backoff.expo, OSError, jitter=None, max_tries=3)
        def b(): ...
        """)
    assert code == dedent("""
        import backoff

        @backoff.on_exception(
            backoff.expo,
            OSError,
            max_tries=3,  # three attempts
            jitter=backoff.random_jitter,
        )
        def a(): ...

        @backoff.on_exception(backoff.expo, OSError, jitter=backoff.random_jitter, max_tries=3)
        def b(): ...
        """)


CELERY = """
    import stamina
    from celery import shared_task

    @stamina.retry(on=ConnectionError, wait_jitter=0)
    def a(): ...

    @shared_task(autoretry_for=(ConnectionError,), retry_backoff=True, retry_jitter=False, max_retries=5)
    def b(): ...

    @shared_task(autoretry_for=(ConnectionError,), max_retries=5)
    def c(): ...
    """


def test_stamina_jitter_turned_back_on_and_celery_left_to_its_unsafe_codemod():
    code, left = rewrite(AddJitter, CELERY)
    assert "@stamina.retry(on=ConnectionError)" in code
    assert "retry_jitter=False" in code, "celery's jitter is full jitter: not a safe fix"
    assert left == []
    assert remaining(code, "RES202") == [7, 10]


def test_celery_jitter_turned_back_on_by_the_unsafe_codemod():
    code, left = rewrite(CeleryJitter, CELERY)
    assert "wait_jitter=0" in code
    assert "retry_backoff=True, retry_jitter=True, max_retries=5" in code
    # no retry_backoff: adding one would change the schedule, not only its spread
    assert [line for line, _ in left] == [10]
    assert remaining(code, "RES202") == [4, 10]


@pytest.mark.parametrize("multiplier", [0.5, 1, 3])
def test_the_tenacity_fix_never_shortens_a_wait(multiplier):
    """tenacity's own waits, before and after the fix, over many draws and attempts."""
    before = tenacity.wait_exponential(multiplier=multiplier, max=10)
    after = tenacity.wait_exponential(multiplier=multiplier, max=10) + tenacity.wait_random(0, multiplier)
    random.seed(26)
    for attempt in range(1, 9):
        state = tenacity.RetryCallState(None, None, (), {})
        state.attempt_number = attempt
        assert all(after(state) >= before(state) for _ in range(200))
        assert max(after(state) for _ in range(200)) > before(state)


def test_waits_built_elsewhere_are_left_alone_and_listed():
    code, left = rewrite(AddJitter, """
        import tenacity

        def expensive(): ...

        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_fixed(expensive()))
        def a(): ...

        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_chain(tenacity.wait_fixed(1), tenacity.wait_fixed(2)))
        def b(): ...
        """)
    assert "wait_random" not in code
    assert [line for line, _ in left] == [5, 8]


def test_backoffs_random_jitter_adds_on_top_where_its_default_draws_below():
    random.seed(26)
    assert all(5 <= backoff.random_jitter(5) <= 6 for _ in range(500))
    assert min(backoff.full_jitter(5) for _ in range(500)) < 2.5, "full jitter: why `jitter=None` is not just removed"
