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
