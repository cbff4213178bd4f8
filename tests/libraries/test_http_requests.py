"""What the request finder reads of a request's headers (``libraries/http_requests.py``)."""

from __future__ import annotations

import textwrap

from resilint.lint.checker import check_source


def test_headers_rebuilt_under_their_own_name_are_read_without_endless_recursion():
    # ``headers = {..., **(headers or {})}``: the merged part names the mapping being built
    # (yt-dlp's extractors); following it again and again ended in RES000 for the whole file
    source = textwrap.dedent(
        """
        import random, time, requests
        def call_api(url, data, headers=None):
            headers = {"Accept": "application/json", **(headers or {})}
            for attempt in range(3):
                try:
                    return requests.post(url, json=data, headers=headers, timeout=5)
                except requests.ConnectionError:
                    time.sleep(random.uniform(0, 2 ** attempt))
        """
    )
    assert [f.code for f in check_source(source, ["RES201"])] == []


def test_the_one_merged_mapping_that_may_carry_the_key_decides():
    # the client's own headers lack a key; the caller's ``headers`` are the only place for one
    source = textwrap.dedent(
        """
        import random, time, requests
        def base_headers():
            return {"User-Agent": "x"}
        def send(method, url, headers=None):
            merged = {**base_headers(), **(headers or {})}
            for attempt in range(3):
                try:
                    return requests.request(method, url, headers=merged, timeout=5)
                except requests.ConnectionError:
                    time.sleep(random.uniform(0, 2 ** attempt))
        def create(url):
            return send("POST", url)
        def create_keyed(url, key):
            return send("POST", url, headers={"Idempotency-Key": key})
        """
    )
    findings = check_source(source, ["RES201"])
    assert [(f.code, f.line) for f in findings] == [("RES201", 13)]


def test_a_write_of_headers_the_file_cannot_read_leaves_the_key_unknown():
    # ``merged.update(part)`` for parts the callers pass may add the key: not "missing"
    source = textwrap.dedent(
        """
        import random, time, requests
        DEFAULTS = {"Accept": "application/json"}
        def merge(*parts):
            merged = dict(DEFAULTS)
            for part in parts:
                merged.update(part)
            return merged
        def post(url, extra):
            for attempt in range(3):
                try:
                    return requests.post(url, headers=merge(extra), timeout=5)
                except requests.ConnectionError:
                    time.sleep(random.uniform(0, 2 ** attempt))
        def post_plain(url):
            headers = dict(DEFAULTS)
            for attempt in range(3):
                try:
                    return requests.post(url, headers=headers, timeout=5)
                except requests.ConnectionError:
                    time.sleep(random.uniform(0, 2 ** attempt))
        """
    )
    assert [(f.code, f.line) for f in check_source(source, ["RES201"])] == [("RES201", 19)]


def test_a_header_constant_of_another_module_is_read_by_what_it_names():
    # ``SIGNATURE_HEADER`` names another header: the headers still lack a key; a constant named
    # for the idempotency key may hold its header name: unknown
    source = textwrap.dedent(
        """
        import backoff, requests
        from app.constants import IDEMPOTENCY_HEADER, SIGNATURE_HEADER
        @backoff.on_exception(backoff.expo, requests.RequestException, max_tries=3)
        def signed(url, signature):
            headers = {"content-type": "application/json"}
            headers.update({SIGNATURE_HEADER: signature})
            return requests.post(url, headers=headers, timeout=5)
        @backoff.on_exception(backoff.expo, requests.RequestException, max_tries=3)
        def keyed(url, key):
            headers = {"content-type": "application/json"}
            headers.update({IDEMPOTENCY_HEADER: key})
            return requests.post(url, headers=headers, timeout=5)
        """
    )
    assert [(f.code, f.line) for f in check_source(source, ["RES201"])] == [("RES201", 8)]
