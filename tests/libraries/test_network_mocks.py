"""Calls kept in the process by a test double are not judged by the timeout rules
(libraries/network_mocks.py); the fixture files show each form, these the edges."""

from __future__ import annotations

import json
import textwrap

from resilint.lint.checker import check_source
from tests.conftest import write_tree


def codes(source: str):
    return [(f.line, f.code) for f in check_source(textwrap.dedent(source).lstrip("\n"), ["RES101", "RES105"])]


def test_a_fixture_chain_passes_the_mock_on():
    assert codes(
        """
        import boto3, pytest
        from moto import mock_aws

        @pytest.fixture
        def aws():
            with mock_aws():
                yield

        @pytest.fixture
        def bucket(aws):
            yield "b"

        def test_upload(bucket):
            boto3.client("s3")
        """
    ) == []


def test_a_local_fixture_shadows_the_plugin_fixture_of_the_same_name():
    assert codes(
        """
        import pytest, requests

        @pytest.fixture
        def requests_mock():
            return object()

        def test_fetch(requests_mock):
            requests.get("https://a.example")
        """
    ) == [(8, "RES101")]


def test_a_mock_ends_with_its_block():
    assert codes(
        """
        import requests, responses

        def test_fetch():
            with responses.RequestsMock():
                pass
            requests.get("https://a.example")
        """
    ) == [(6, "RES101")]


def test_a_fixture_that_returns_inside_the_mock_does_not_keep_it_on():
    assert codes(
        """
        import boto3, pytest
        from moto import mock_aws

        @pytest.fixture
        def aws():
            with mock_aws():
                return boto3.client("s3")

        def test_upload(aws):
            boto3.client("s3")
        """
    ) == [(10, "RES105")]


def test_a_patched_client_is_not_judged_through_a_wrapper_of_the_file():
    assert codes(
        """
        from unittest.mock import patch
        import requests

        def fetch(url, **kwargs):
            return requests.get(url, **kwargs)

        @patch("requests.get")
        def test_fetch(get):
            fetch("https://a.example")

        def test_real():
            fetch("https://a.example")
        """
    ) == [(12, "RES101")]


def test_a_patch_of_one_object_leaves_the_other_clients_judged():
    assert codes(
        """
        import requests

        def test_fetch(mocker):
            session = requests.Session()
            mocker.patch.object(session, "get")
            session.get("https://a.example")
            session.post("https://a.example")
            requests.get("https://a.example")
        """
    ) == [(7, "RES101"), (8, "RES101")]


def test_a_fixture_that_monkeypatches_covers_its_tests():
    assert codes(
        """
        import pytest, requests

        @pytest.fixture(autouse=True)
        def offline(monkeypatch):
            monkeypatch.setattr(requests.Session, "send", lambda *a, **k: None)

        def test_fetch():
            requests.get("https://a.example")
        """
    ) == []


def test_a_patch_the_file_cannot_read_patches_nothing():
    assert codes(
        """
        from unittest import mock
        import requests

        def test_fetch(target):
            with mock.patch(target):
                requests.get("https://a.example")
            with mock.patch.object(requests, target):
                requests.get("https://a.example")
        """
    ) == [(6, "RES101"), (8, "RES101")]


def test_a_patched_socket_answers_every_client_that_connects_through_it():
    assert codes(
        """
        import smtplib, socket, urllib.request
        from unittest import mock
        import psycopg2, requests

        def test_blocked():
            with mock.patch("socket.socket", side_effect=OSError):
                requests.get("https://a.example")
                smtplib.SMTP("mail.example")
                urllib.request.urlopen("https://a.example")
                psycopg2.connect("dbname=app")
            requests.get("https://a.example")
        """
    ) == [(10, "RES101"), (11, "RES101")]


def test_a_patched_connect_answers_every_client_of_its_module():
    """Every smtplib client (``SMTP``, ``SMTP_SSL``, ``LMTP``) connects with ``SMTP.connect``,
    every ftplib one with ``FTP.connect``: replacing it replaces their network; another
    library's calls stay."""
    assert codes(
        """
        import ftplib, smtplib
        from smtplib import SMTP
        import requests

        def test_mail(monkeypatch):
            monkeypatch.setattr(SMTP, "connect", lambda self, host="localhost", port=0: (220, b"ok"))
            smtplib.SMTP_SSL("mail.example")
            smtplib.SMTP("mail.example")
            requests.get("https://a.example")

        def test_ftp(mocker):
            mocker.patch("ftplib.FTP.connect")
            ftplib.FTP("ftp.example")
            smtplib.SMTP("mail.example")
        """
    ) == [(9, "RES101"), (14, "RES101")]


def test_a_patch_by_a_trial_test_case_in_its_base_class_covers_the_tests():
    # Twisted trial's ``self.patch(obj, "name", value)`` lasts for one test, as monkeypatch does
    source = textwrap.dedent(
        """
        import treq
        from unittest import mock
        from twisted.trial import unittest

        class Base(unittest.TestCase):
            def setUp(self):
                self.patch(treq, "get", mock.Mock())

        class FetchTest(Base):
            def test_fetch(self):
                treq.get("http://example.test/")

        class Unpatched(object):
            def fetch(self):
                treq.get("http://example.test/")
        """
    )
    assert [(f.code, f.line) for f in check_source(source, ["RES101"])] == [("RES101", 16)]


def test_a_vcr_cassette_replays_the_clients_it_patches():
    assert codes(
        """
        import boto3, pytest, requests, vcr
        from urllib.request import urlopen

        recorder = vcr.VCR(record_mode="none")

        def test_cassette():
            with vcr.use_cassette("tests/cassettes/gzip.yaml"):
                urlopen("http://httpbin.org/gzip")
            urlopen("http://httpbin.org/gzip")

        @recorder.use_cassette("tests/cassettes/ip.yaml")
        def test_configured():
            requests.get("https://checkip.amazonaws.com")

        @pytest.mark.vcr
        def test_marked():
            requests.get("https://checkip.amazonaws.com")
            boto3.client("s3")
        """
    ) == [(9, "RES101")]


def test_a_betamax_cassette_answers_requests():
    assert codes(
        """
        import pytest, requests
        from betamax import Betamax

        @pytest.fixture
        def recorded():
            session = requests.Session()
            with Betamax(session).use_cassette("users"):
                yield session

        def test_users(recorded):
            requests.get("https://api.example.com/users")

        def test_plugin_session(betamax_session):
            requests.get("https://api.example.com/users")

        def test_live():
            requests.get("https://api.example.com/users")
        """
    ) == [(17, "RES101")]


CONFTEST_DOUBLES = {
    "app/__init__.py": "",
    "app/logs.py": """
        from aiohttp import ClientSession, ClientTimeout, UnixConnector

        async def journald_logs(path="/entries", timeout: ClientTimeout | None = None):
            connector = UnixConnector(path="/run/systemd-journal-gatewayd.sock")
            async with ClientSession(base_url="http://localhost/", connector=connector) as session:
                async with session.get(path, timeout=timeout) as resp:
                    return await resp.text()
    """,
    "tests/__init__.py": "",
    "tests/conftest.py": """
        from unittest.mock import patch

        import pytest

        @pytest.fixture
        def journald_gateway():
            with patch("app.logs.ClientSession.get") as get:
                yield get
    """,
    "tests/test_logs.py": """
        from app.logs import journald_logs

        async def test_logs(journald_gateway):
            await journald_logs()

        async def test_logs_without_the_double():
            await journald_logs()
    """,
}


def test_a_conftest_fixture_keeps_its_double_on_for_the_tests_that_request_it(tmp_path, cli):
    """``journald_gateway`` in ``conftest.py`` patches the client class as the wrapper's module
    imports it: the test requesting it reaches no server; the other test does, through the
    wrapper's ``timeout=None`` default."""
    write_tree(tmp_path, CONFTEST_DOUBLES)
    result = cli(["check", "--no-cache", "--select", "RES102", "--format", "json", "."], tmp_path)
    findings = json.loads(result.output)["findings"]
    assert [(f["path"], f["line"]) for f in findings] == [("tests/test_logs.py", 7)]


CONFTEST_CASSETTE = {
    "tests/__init__.py": "",
    "tests/conftest.py": """
        import pytest

        @pytest.fixture
        def dog(api, vcr_cassette):
            yield api
    """,
    "tests/test_dogshell.py": """
        import pytest
        import requests

        @pytest.fixture
        def dogshell(capsys, dog):
            return dog.main

        def test_screenboards(dogshell):
            assert requests.get("https://p.datadoghq.com/sb/1").ok

        def test_unrecorded(capsys):
            assert requests.get("https://p.datadoghq.com/sb/2").ok
    """,
}


def test_a_conftest_fixture_takes_back_the_file_findings_on_the_calls_its_double_answers(tmp_path, cli):
    """``dog`` in ``conftest.py`` requests pytest-vcr's cassette, and the test requests it
    through a fixture of its own file: its request is replayed, so the file's RES101 on it is
    taken back, in the first run and from the cache alike; the other test's stays, with its fix."""
    write_tree(tmp_path, CONFTEST_CASSETTE)
    for extra in (["--no-cache"], [], []):
        result = cli(["check", *extra, "--select", "RES101", "--format", "json", "."], tmp_path)
        findings = json.loads(result.output)["findings"]
        assert [(f["path"], f["line"]) for f in findings] == [("tests/test_dogshell.py", 12)]
        assert findings[0]["fix"] is not None


def test_a_fixture_a_conftest_hook_adds_to_the_tests_keeps_its_double_on(tmp_path, cli):
    """FlexGet's ``pytest_runtest_setup`` adds its cassette fixture to every ``online`` test."""
    write_tree(tmp_path, {
        "tests/__init__.py": "",
        "tests/conftest.py": """
            import pytest
            from vcr import VCR

            vcr = VCR(cassette_library_dir="tests/cassettes", record_mode="once")

            @pytest.fixture
            def use_vcr(request):
                with vcr.use_cassette(path=request.function.__name__) as cassette:
                    yield cassette

            def pytest_runtest_setup(item):
                if item.get_closest_marker("online"):
                    item.fixturenames.append("use_vcr")
        """,
        "tests/test_api.py": """
            import pytest
            import requests

            @pytest.mark.online
            def test_banner():
                assert requests.get("https://thetvdb.com/banners/1.jpg").ok
        """,
    })
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "."], tmp_path)
    assert json.loads(result.output)["findings"] == []


PLUGIN_DOUBLES = {
    "pyproject.toml": """
        [project]
        name = "app"
        version = "1.0"

        [project.entry-points.pytest11]
        app = "app.testing.pytest_plugin"
    """,
    "app/__init__.py": "",
    "app/testing/__init__.py": "",
    "app/testing/pytest_plugin.py": """
        pytest_plugins = ("app.testing.fixtures.requests",)
    """,
    "app/testing/fixtures/__init__.py": "",
    "app/testing/fixtures/requests.py": """
        import pytest
        from responses import RequestsMock

        @pytest.fixture
        def mocked_responses():
            with RequestsMock() as rsps:
                yield rsps
    """,
    "app/util/__init__.py": "",
    "app/util/network_test.py": """
        import requests

        def test_redirect_target(mocked_responses):
            mocked_responses.get("http://no.redirect.test")
            requests.get("http://no.redirect.test")

        def test_unmocked():
            requests.get("http://plain.test")
    """,
}


def test_a_fixture_of_a_pytest_plugin_answers_the_tests_that_request_it(tmp_path, cli):
    """The packaging registers ``app.testing.pytest_plugin`` (indico's shape), which loads the
    fixtures module through its ``pytest_plugins``: its ``responses`` mock answers the test."""
    write_tree(tmp_path, PLUGIN_DOUBLES)
    (tmp_path / ".git").mkdir()
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "."], tmp_path)
    findings = json.loads(result.output)["findings"]
    assert [(f["path"], f["line"]) for f in findings] == [("app/util/network_test.py", 8)]


def test_a_plugin_fixture_that_patches_the_adapter_lookup_answers_all_of_requests(tmp_path, cli):
    """devpi's ``reqmock``: ``Session.send`` asks ``get_adapter`` for each URL's adapter, so a
    patch of it answers ``requests.get`` and ``requests.request`` in the tests that request it."""
    write_tree(tmp_path, {
        "testing/__init__.py": "",
        "testing/conftest.py": 'pytest_plugins = ["testing.reqmock"]\n',
        "testing/reqmock.py": """
            import pytest

            @pytest.fixture
            def reqmock(monkeypatch):
                replies = {}
                monkeypatch.setattr("requests.sessions.Session.get_adapter", lambda self, url: Adapter(replies))
                return replies

            class Adapter:
                def __init__(self, replies):
                    self.replies = replies

                def send(self, request, **kwargs):
                    return self.replies[request.url]
        """,
        "testing/test_reqmock.py": """
            import requests

            def test_req(reqmock):
                requests.request("GET", "http://heise.de")

            def test_get(reqmock):
                requests.get("http://heise.de/")

            def test_unmocked():
                requests.get("http://heise.de/")
        """,
    })
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "."], tmp_path)
    assert [(f["path"], f["line"]) for f in json.loads(result.output)["findings"]] == [("testing/test_reqmock.py", 10)]


def test_a_fixture_that_may_return_first_keeps_no_double_on(tmp_path, cli):
    """zeep's autouse fixture patches ``socket.socket`` unless the test is marked: for the
    marked tests it keeps nothing on, so their findings stay."""
    write_tree(tmp_path, {
        "tests/__init__.py": "",
        "tests/conftest.py": """
            import pytest

            @pytest.fixture(autouse=True)
            def no_requests(request, monkeypatch):
                if request.node.get_closest_marker("requests"):
                    return
                monkeypatch.setattr("socket.socket", lambda *a, **k: None)
        """,
        "tests/test_transport.py": """
            import pytest
            import requests

            @pytest.mark.requests
            def test_download():
                assert requests.get("https://example.com/wsdl").ok
        """,
    })
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "."], tmp_path)
    assert [(f["path"], f["line"]) for f in json.loads(result.output)["findings"]] == [("tests/test_transport.py", 6)]


def test_fix_leaves_alone_the_calls_a_conftest_fixture_answers(tmp_path, cli):
    write_tree(tmp_path, CONFTEST_CASSETTE)
    result = cli(["fix", "--no-cache", "--select", "RES101", "."], tmp_path)
    fixed = (tmp_path / "tests/test_dogshell.py").read_text()
    assert 'requests.get("https://p.datadoghq.com/sb/1").ok' in fixed
    assert 'requests.get("https://p.datadoghq.com/sb/2", timeout=' in fixed, result.output


def test_a_mock_of_requests_answers_the_sdk_clients_that_send_with_it():
    assert codes(
        """
        import gitlab, jira, openai, respx, responses

        @responses.activate
        def test_auth():
            gitlab.Gitlab("http://gitlab.example").auth()
            jira.JIRA("http://jira.example")

        @respx.mock
        def test_chat():
            openai.OpenAI()

        def test_unmocked():
            gitlab.Gitlab("http://gitlab.example").auth()
        """
    ) == [(13, "RES101")]
