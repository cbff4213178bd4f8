"""Attempt limits the recogniser reads from a value (``Recogniser.limit``): a conditional is
read on both branches, and a name that follows to its own reassignment is read once."""

from __future__ import annotations

import textwrap

from resilint.lint.checker import check_source


def codes(source: str):
    return [(f.code, f.line) for f in check_source(textwrap.dedent(source).lstrip("\n"), ["RES000", "RES203"])]


def test_a_none_branch_is_no_limit_there():
    assert codes("""
        from celery import shared_task
        from django.conf import settings
        @shared_task(autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=1 if settings.DEBUG else None)
        def ingest(alert): ...
    """) == [("RES203", 3)]


def test_numbers_on_both_branches_are_a_limit():
    assert codes("""
        from celery import shared_task
        from django.conf import settings
        @shared_task(autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=1 if settings.DEBUG else 5)
        def ingest(alert): ...
    """) == []


def test_a_name_reassigned_from_itself_is_read_once():
    # ``max_retries = max_retries if max_retries is not None else 3`` follows to itself: no
    # RecursionError (RES000), and no verdict on a count that cannot be read
    assert codes("""
        import requests
        from requests.adapters import HTTPAdapter
        from urllib3 import Retry
        def session(max_retries=None):
            max_retries = max_retries if max_retries is not None else 3
            s = requests.Session()
            s.mount("https://", HTTPAdapter(max_retries=Retry(total=max_retries, backoff_factor=0.5, backoff_jitter=0.5)))
            return s
    """) == []
