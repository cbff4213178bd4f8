"""RES101/102/103/105 across modules: factories, module objects, attributes, properties,
subclasses, annotations and wrappers, on real trees through the CLI."""

from __future__ import annotations

import json

from tests.conftest import write_tree

HTTP = {
    "app/__init__.py": "",
    "app/utils/__init__.py": "",
    "app/utils/http.py": """
        import requests
        from requests.adapters import HTTPAdapter

        requests_session = requests.Session()

        class TimeoutAdapter(HTTPAdapter):
            def send(self, request, **kwargs):
                kwargs.setdefault("timeout", 5)
                return super().send(request, **kwargs)

        def get_session():
            return requests.Session()

        def get_bounded_session():
            s = requests.Session()
            s.mount("https://", TimeoutAdapter())
            return s

        def fetch(url, **kwargs):
            return requests_session.get(url, **kwargs)

        def fetch_with_default(url, **kwargs):
            kwargs.setdefault("timeout", 10)
            return requests_session.get(url, **kwargs)

        def post_json(url, data, timeout=None):
            return requests.post(url, json=data, timeout=timeout)

        def fetch_again(url, **kwargs):
            return fetch(url, **kwargs)

        class Api(requests.Session):
            pass

        class Client:
            def __init__(self):
                self.session = requests.Session()
    """,
}


def _check(cli, root, *paths, select="RES1"):
    result = cli(["check", "--select", select, "--format", "json", "--no-cache", *paths], root)
    assert result.exit_code in (0, 1), result.output + result.stderr
    return [(f["path"], f["line"], f["code"], f["message"], f["related"]) for f in json.loads(result.output)["findings"]]


def _lines(findings, path):
    return [(line, code) for p, line, code, _, _ in findings if p == path]


def test_clients_made_in_another_module(cli, tmp_path):
    write_tree(tmp_path, {**HTTP, "app/views.py": """
        from app.utils import http
        from app.utils.http import requests_session as session, Api, Client

        def a(url):
            return http.get_session().get(url)

        def b(url):
            s = http.get_session()
            return s.post(url, json={})

        def c(url):
            return session.get(url)

        def d(url):
            return Api().get(url)

        def e(url):
            return Client().session.get(url)

        def bounded(url):
            return http.get_bounded_session().get(url)

        def given(url):
            return session.get(url, timeout=None)
    """})
    findings = _check(cli, tmp_path, "app")
    assert _lines(findings, "app/views.py") == [(5, "RES101"), (9, "RES101"), (12, "RES101"), (15, "RES101"), (18, "RES101"), (24, "RES102")]
    message = next(m for p, line, _, m, _ in findings if p == "app/views.py" and line == 5)
    assert "`requests.Session.get` is called without a timeout" in message and "get_session" in message


def test_a_wrapper_module_used_from_two_packages(cli, tmp_path):
    write_tree(tmp_path, {
        **HTTP,
        "app/billing/__init__.py": "",
        "app/billing/sync.py": """
            from app.utils.http import fetch, fetch_with_default, fetch_again

            def pull(url):
                return fetch(url)

            def pull_bounded(url):
                return fetch(url, timeout=(1, 5))

            def pull_forever(url):
                return fetch(url, timeout=None)

            def pull_default(url):
                return fetch_with_default(url)

            def pull_twice_wrapped(url):
                return fetch_again(url)

            def pull_kwargs(url, **options):
                return fetch(url, **options)
        """,
        "app/shipping/__init__.py": "",
        "app/shipping/track.py": """
            from app.utils import http as h

            def track(url):
                return h.fetch(url, params={"q": 1})

            def notify(url):
                return h.post_json(url, {"x": 1})

            def notify_bounded(url):
                return h.post_json(url, {"x": 1}, timeout=(1, 4))
        """,
    })
    findings = _check(cli, tmp_path, "app")
    # a literal passed through the wrapper is still a literal at this call (RES103)
    assert _lines(findings, "app/billing/sync.py") == [(4, "RES101"), (7, "RES103"), (10, "RES102"), (16, "RES101")]
    assert _lines(findings, "app/shipping/track.py") == [(4, "RES101"), (7, "RES102"), (10, "RES103")]
    assert _lines(findings, "app/utils/http.py") == []  # the wrappers themselves are not the problem
    _, _, _, message, related = next(f for f in findings if f[0] == "app/billing/sync.py" and f[1] == 4)
    assert message.startswith("`requests.Session.get` is called through `fetch` without a timeout")
    assert [(r["path"], r["line"]) for r in related] == [("app/utils/http.py", 20)]
    _, _, _, message, related = next(f for f in findings if f[0] == "app/billing/sync.py" and f[1] == 16)
    assert [(r["path"], r["line"]) for r in related] == [("app/utils/http.py", 30), ("app/utils/http.py", 20)]
    _, _, _, message, _ = next(f for f in findings if f[0] == "app/shipping/track.py" and f[1] == 7)
    assert "the default `timeout=None` of `post_json`" in message


def test_annotated_parameters_and_attributes(cli, tmp_path):
    write_tree(tmp_path, {"svc.py": """
        from typing import Optional
        import httpx
        import redis
        import requests

        def a(session: requests.Session, url):
            return session.get(url)

        def b(client: Optional[httpx.Client], url):
            return client.get(url, timeout=None)

        class Cache:
            conn: redis.Redis

            def read(self, key):
                return self.conn.get(key)

        def c(r: "redis.Redis"):
            return r.get("k")
    """})
    findings = _check(cli, tmp_path, "svc.py")
    assert _lines(findings, "svc.py") == [(7, "RES101"), (10, "RES102")]


def test_one_file_alone_gives_the_same_findings(cli, tmp_path):
    write_tree(tmp_path, {**HTTP, "app/views.py": """
        from app.utils.http import fetch, get_session

        def a(url):
            return fetch(url)

        def b(url):
            return get_session().get(url)
    """})
    whole = [f for f in _check(cli, tmp_path, "app") if f[0] == "app/views.py"]
    assert [(f[1], f[2]) for f in whole] == [(4, "RES101"), (7, "RES101")]
    assert _check(cli, tmp_path, "app/views.py") == whole


def test_a_wrapper_called_under_a_network_mock_sends_nothing(cli, tmp_path):
    write_tree(tmp_path, {**HTTP, "tests/test_views.py": """
        import responses
        from app.utils.http import fetch, get_session

        @responses.activate
        def test_fetch():
            fetch("https://x.example")
            get_session().get("https://x.example")

        def test_real():
            fetch("https://x.example")
    """})
    findings = _check(cli, tmp_path, ".")
    assert _lines(findings, "tests/test_views.py") == [(10, "RES101")]


def test_sdk_sessions_from_factories_and_subclasses_that_fill_in_the_timeout(cli, tmp_path):
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/credentials.py": """
            import boto3
            import requests

            def get_boto3_session():
                return boto3.Session()

            class TimeoutSession(requests.Session):
                def request(self, method, url, **kwargs):
                    kwargs.setdefault("timeout", 10)
                    return super().request(method, url, **kwargs)
        """,
        "app/store.py": """
            from app import credentials

            def s3():
                return credentials.get_boto3_session().client("s3")

            def fetch(url):
                return credentials.TimeoutSession().get(url)
        """,
    })
    findings = _check(cli, tmp_path, "app")
    assert _lines(findings, "app/store.py") == [(4, "RES105")]
    assert "botocore's default connect and read timeouts are 60 s" in findings[0][3]


def test_a_wrapper_that_spells_the_timeout_key_with_an_escape_still_sets_it(cli, tmp_path):
    # The file never spells the word itself: the key is found in the literals' values, not
    # by a substring test of the source. One spelling per module, since the cheap test of a
    # file's text that may skip the search is per file.
    spellings = {
        "hex": 'kwargs.setdefault("time\\x6fut", 10)',
        "unicode": 'kwargs["time\\u006fut"] = 10',
        "octal": 'kwargs["ti\\155eout"] = 10',
        "named": 'kwargs["\\N{LATIN SMALL LETTER T}imeout"] = 10',
        "continued": 'kwargs.setdefault("time\\\nout", 10)',
    }
    files = {"app/__init__.py": ""}
    for name, statement in spellings.items():
        files[f"app/{name}.py"] = (
            f"import requests\n\ndef fetch(url, **kwargs):\n    {statement}\n"
            "    return requests.get(url, **kwargs)\n"
        )
    files["app/nested.py"] = """
        import requests

        def fetch(url, **kwargs):
            def fill(options):
                options["time\\u006fut"] = 10
            fill(kwargs)
            return requests.get(url, **kwargs)

        def fetch_bare(url, **kwargs):
            return requests.get(url, **kwargs)
    """
    names = [*spellings, "nested"]
    files["app/views.py"] = (
        "".join(f"from app import {name}\n" for name in names) + "\ndef view():\n"
        + "".join(f'    {name}.fetch("https://x.example")\n' for name in names)
        + '    nested.fetch_bare("https://x.example")\n'
    )
    write_tree(tmp_path, files)
    for name in names:
        assert "timeout" not in (tmp_path / "app" / f"{name}.py").read_text()
    findings = _check(cli, tmp_path, ".")
    assert _lines(findings, "app/views.py") == [(2 * len(names) + 3, "RES101")]


def test_a_session_whose_request_an_adapter_bound_with_a_timeout(cli, tmp_path):
    """django-allauth's shape: an adapter method replaces the session's ``request`` with a
    partial that binds the timeout; providers in other modules call its verbs."""
    write_tree(tmp_path, {
        "auth/__init__.py": "",
        "auth/adapter.py": """
            import functools

            import requests

            from auth import settings


            class Adapter:
                def get_requests_session(self):
                    session = requests.Session()
                    session.request = functools.partial(session.request, timeout=settings.REQUESTS_TIMEOUT)
                    return session

                def get_plain_session(self):
                    return requests.Session()


            def get_adapter():
                return Adapter()
        """,
        "auth/settings.py": "REQUESTS_TIMEOUT = 5\n",
        "auth/providers.py": """
            from auth.adapter import get_adapter


            def profile(url, token):
                with get_adapter().get_requests_session() as sess:
                    return sess.get(url, headers={"Authorization": token}).json()


            def token(url, data):
                return get_adapter().get_requests_session().post(url, data=data)


            def unbounded(url):
                return get_adapter().get_plain_session().get(url)
        """,
    })
    findings = _check(cli, tmp_path, "auth")
    assert _lines(findings, "auth/providers.py") == [(14, "RES101")]
