"""The timeout fixes write names, never literals: the scope's own bound, else one module
constant per value and file (``codemods/timeout_values.py``), in the native form (what the
library takes) and the runtime form (named seconds through ``resilint.runtime.timeout``)."""

from __future__ import annotations

from resilint.codemods.add_timeout import AddTimeout
from resilint.codemods.split_timeout import SplitTimeout
from tests.codemods.support import dedent, remaining, rewrite


def test_native_missing_timeouts_share_one_constant_per_file_and_import_nothing():
    code, _ = rewrite(AddTimeout, """
        import requests


        def a(u):
            return requests.get(u)


        def b(u):
            requests.post(u, json={})
            return requests.get(u, timeout=None)
        """, fix_target="native")
    assert code == dedent("""
        import requests

        HTTP_TIMEOUT = (3.05, 10)


        def a(u):
            return requests.get(u, timeout=HTTP_TIMEOUT)


        def b(u):
            requests.post(u, json={}, timeout=HTTP_TIMEOUT)
            return requests.get(u, timeout=HTTP_TIMEOUT)
        """)
    assert remaining(code, "RES101") == [] and remaining(code, "RES102") == []


def test_the_scope_s_own_bound_is_passed_on():
    code, _ = rewrite(AddTimeout, """
        import requests

        REQUEST_TIMEOUT = (3, 27)
        CONNECT_TIMEOUT = 3
        SLOW_TIMEOUT = 300


        def get(url, timeout=5):
            return requests.get(url)


        def maybe(url, timeout=None):
            return requests.get(url)


        class Client:
            def __init__(self, base, timeout=20):
                self.base = base
                self.timeout = timeout

            def fetch(self, path):
                return requests.get(self.base + path)
        """, fix_target="native")
    # a parameter whose default is a bound, the attribute the class sets from one, and the
    # module's whole-timeout constant (not one phase, not one above max-timeout)
    assert "return requests.get(url, timeout=timeout)\n" in code
    assert "return requests.get(self.base + path, timeout=self.timeout)\n" in code
    assert "def maybe(url, timeout=None):\n    return requests.get(url, timeout=REQUEST_TIMEOUT)\n" in code
    assert "HTTP_TIMEOUT" not in code


def test_a_module_constant_defined_below_a_module_level_call_is_not_used_there():
    code, _ = rewrite(AddTimeout, """
        import requests

        requests.get("https://a.example")
        TIMEOUT = 5
        """, fix_target="native")
    assert code == dedent("""
        import requests

        HTTP_TIMEOUT = (3.05, 10)

        requests.get("https://a.example", timeout=HTTP_TIMEOUT)
        TIMEOUT = 5
        """)


def test_native_hardcoded_timeouts_get_one_constant_per_value_reused_by_value():
    code, _ = rewrite(SplitTimeout, """
        import requests

        HTTP_TIMEOUT = (3.05, 5)


        def upload(u):
            requests.put(u, timeout=5)
            requests.put(u, timeout=5)
            return requests.post(u, timeout=(1, 2))
        """, fix_target="native")
    assert code == dedent("""
        import requests

        UPLOAD_TIMEOUT = (1, 2)

        HTTP_TIMEOUT = (3.05, 5)


        def upload(u):
            requests.put(u, timeout=HTTP_TIMEOUT)
            requests.put(u, timeout=HTTP_TIMEOUT)
            return requests.post(u, timeout=UPLOAD_TIMEOUT)
        """)
    assert remaining(code, "RES103") == []


def test_native_httpx_gets_an_httpx_timeout_constant():
    code, _ = rewrite(SplitTimeout, """
        import httpx

        r = httpx.get("https://a.example", timeout=7)
        """, fix_target="native")
    assert code == dedent("""
        import httpx

        HTTP_TIMEOUT = httpx.Timeout(7, connect=3.05)

        r = httpx.get("https://a.example", timeout=HTTP_TIMEOUT)
        """)


def test_names_never_collide_and_a_module_whose_imports_are_in_a_try_gets_them_below_it():
    code, _ = rewrite(SplitTimeout, '''
        """Docs."""
        # the client is optional
        try:
            import requests
        except ImportError:
            requests = None


        def HTTP_2_TIMEOUT():
            pass


        def fetch(HTTP_TIMEOUT, FETCH_TIMEOUT):
            return requests.get("u", timeout=4)
        ''', fix_target="native")
    assert code == dedent('''
        """Docs."""
        # the client is optional
        try:
            import requests
        except ImportError:
            requests = None

        HTTP_3_TIMEOUT = (3.05, 4)


        def HTTP_2_TIMEOUT():
            pass


        def fetch(HTTP_TIMEOUT, FETCH_TIMEOUT):
            return requests.get("u", timeout=HTTP_3_TIMEOUT)
        ''')


def test_constants_go_below_import_blocks_that_follow_the_first_imports():
    # tweepy's client.py: an import, a try/except ImportError of imports, then more imports; a
    # constant above the try block would put every later import after code (flake8's E402)
    code, _ = rewrite(AddTimeout, """
        import datetime

        try:
            from functools import cache
        except ImportError:
            from functools import lru_cache
            cache = lru_cache(maxsize=None)

        import requests


        def get(u):
            return requests.get(u)
        """, fix_target="native")
    assert code == dedent("""
        import datetime

        try:
            from functools import cache
        except ImportError:
            from functools import lru_cache
            cache = lru_cache(maxsize=None)

        import requests

        HTTP_TIMEOUT = (3.05, 10)


        def get(u):
            return requests.get(u, timeout=HTTP_TIMEOUT)
        """)


def test_a_call_with_one_argument_per_line_gets_the_timeout_on_a_line_of_its_own():
    # tweepy's auth.py: no trailing comma; a comment stays on the line of its argument
    code, _ = rewrite(AddTimeout, """
        import requests


        def token(key, secret):
            return requests.post(
                'https://api.example/oauth2/token',
                auth=(key, secret),
                data={'grant_type': 'client_credentials'}  # the grant
            )
        """, fix_target="native")
    assert code == dedent("""
        import requests

        HTTP_TIMEOUT = (3.05, 10)


        def token(key, secret):
            return requests.post(
                'https://api.example/oauth2/token',
                auth=(key, secret),
                data={'grant_type': 'client_credentials'},  # the grant
                timeout=HTTP_TIMEOUT
            )
        """)
