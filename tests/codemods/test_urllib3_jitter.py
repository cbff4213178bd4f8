"""RES202 for urllib3 ``Retry``: ``backoff_jitter`` (urllib3 >= 2, so unsafe)."""

from __future__ import annotations

import urllib3

from resilint.codemods.urllib3_jitter import Urllib3Jitter
from tests.codemods.support import dedent, remaining, rewrite


def test_backoff_jitter_added_beside_the_factor():
    code, left = rewrite(Urllib3Jitter, """
        from requests.adapters import HTTPAdapter
        from urllib3.util.retry import Retry

        BACKOFF = 0.5
        adapter = HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.3))
        other = Retry(
            total=5,
            backoff_factor=BACKOFF,  # seconds
            backoff_jitter=0,
        )
        computed = Retry(total=5, backoff_factor=BACKOFF * 2)
        """)
    assert code == dedent("""
        from requests.adapters import HTTPAdapter
        from urllib3.util.retry import Retry

        BACKOFF = 0.5
        adapter = HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.3, backoff_jitter=0.3))
        other = Retry(
            total=5,
            backoff_factor=BACKOFF,  # seconds
            backoff_jitter=BACKOFF,
        )
        computed = Retry(total=5, backoff_factor=BACKOFF * 2)
        """)
    assert [line for line, _ in left] == [11]
    assert remaining(code, "RES202") == [11]
    assert Urllib3Jitter.APPLICABILITY == "unsafe"


def test_the_fixed_retry_is_accepted_by_the_installed_urllib3():
    namespace: dict = {}
    exec(rewrite(Urllib3Jitter, "from urllib3.util.retry import Retry\nr = Retry(total=3, backoff_factor=0.3)\n")[0], namespace)
    assert int(urllib3.__version__.split(".")[0]) >= 2
    assert namespace["r"].backoff_jitter == 0.3
