"""The timeout fixes write names, never literals: the scope's own bound, else one module
constant per value and file (``codemods/timeout_values.py``), in the native form (what the
library takes) and the runtime form (named seconds through ``resilint.runtime.timeout``)."""

from __future__ import annotations

from resilint.codemods.add_timeout import AddTimeout
from resilint.codemods.split_timeout import SplitTimeout
from tests.codemods.support import dedent, remaining, rewrite
from tests.conftest import write_tree


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


def test_a_timeout_the_user_may_leave_none_is_kept_before_the_bound():
    code, _ = rewrite(AddTimeout, """
        import requests

        REQUEST_TIMEOUT = (3, 27)


        class Client:
            def __init__(self, base, timeout=None):
                self.base = base
                self.timeout = timeout

            def fetch(self, path):
                return requests.get(self.base + path)


        class Unset:
            def __init__(self, timeout):
                self._timeout = timeout

            def fetch(self, url):
                return requests.get(url)
        """, fix_target="native")
    # the class's own setting wins where given; a bound (the module's constant) where it is None
    assert "return requests.get(self.base + path, timeout=self.timeout or REQUEST_TIMEOUT)\n" in code
    assert "return requests.get(url, timeout=self._timeout or REQUEST_TIMEOUT)\n" in code
    assert remaining(code, "RES101") == []


HELD_SESSION_PROJECT = {
    "pkg/__init__.py": "",
    "pkg/sessions.py": """
        import requests


        class ResilientSession(requests.Session):
            def __init__(self, timeout=None):
                super().__init__()
                self.timeout = timeout

            def request(self, method, url, **kwargs):
                return super().request(method, url, timeout=self.timeout, **kwargs)
        """,
    "pkg/client.py": """
        import requests

        from pkg.sessions import ResilientSession


        class Client:
            def __init__(self, server, timeout=None):
                self.server = server
                self._session = ResilientSession(timeout=timeout)

            def deactivate(self, name):
                # this endpoint objects to the session's headers: a bare request
                return requests.post(self.server + name, proxies=self._session.proxies)

            def close(self):
                self._session.close()
                self._session = None
        """,
}


def test_the_timeout_of_an_object_the_instance_holds_is_reused(cli, tmp_path):
    write_tree(tmp_path, HELD_SESSION_PROJECT)
    result = cli(["fix", "--fix-target", "native", "--no-cache", "pkg/client.py"], tmp_path)
    assert result.exit_code == 0, result.output
    code = (tmp_path / "pkg" / "client.py").read_text()
    # the session's timeout (the user's `Client(timeout=...)`), the constant where it is None
    assert "proxies=self._session.proxies,\n            timeout=self._session.timeout or HTTP_TIMEOUT,\n" in code
    assert "HTTP_TIMEOUT = (3.05, 10)\n" in code


def test_an_object_the_call_does_not_read_and_that_may_be_none_is_not_read(cli, tmp_path):
    client = HELD_SESSION_PROJECT["pkg/client.py"].replace("proxies=self._session.proxies", "json={}")
    write_tree(tmp_path, {**HELD_SESSION_PROJECT, "pkg/client.py": client})
    result = cli(["fix", "--fix-target", "native", "--no-cache", "pkg/client.py"], tmp_path)
    assert result.exit_code == 0, result.output
    # `self._session` is None after close(): reading its timeout could raise where the call did not
    assert "json={}, timeout=HTTP_TIMEOUT)" in (tmp_path / "pkg" / "client.py").read_text()
    # never None: its timeout is read
    never_none = client.replace("        self._session = None\n", "")
    write_tree(tmp_path, {"pkg/client.py": never_none})
    assert cli(["fix", "--fix-target", "native", "--no-cache", "pkg/client.py"], tmp_path).exit_code == 0
    assert "json={}, timeout=self._session.timeout or HTTP_TIMEOUT\n" in (tmp_path / "pkg" / "client.py").read_text()
