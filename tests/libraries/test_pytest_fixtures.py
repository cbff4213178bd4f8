"""pytest fixtures that give a test a server of this machine (``libraries/server_sockets.py``,
``libraries/pytest_fixtures.py``): a test's request to a URL read from one goes to the server
its run starts, which RES101 does not ask a timeout for in test code."""

from __future__ import annotations

import json

from tests.conftest import write_tree

SERVED_TESTS = {
    "app/__init__.py": "",
    "tests/__init__.py": "",
    "tests/conftest.py": """
        from dataclasses import dataclass

        import pytest

        @dataclass(frozen=True)
        class Servers:
            base_url: str

        @pytest.fixture
        def sd_servers():
            port = 8080
            base_url = f"http://127.0.0.1:{port}"
            yield Servers(base_url=base_url)

        @pytest.fixture
        def app_server(live_server):
            return live_server

        @pytest.fixture
        def remote():
            return Servers(base_url="https://status.example.com")
    """,
    "tests/test_pages.py": """
        import socket
        from urllib.request import urlopen

        import pytest
        import requests

        @pytest.fixture
        def local_api():
            return "http://localhost:5000"

        def test_key(sd_servers):
            requests.get(f"{sd_servers.base_url}/public-key")

        def test_login(app_server):
            requests.post(f"{app_server.url}/login", data={"user": "a"})

        def test_health(live_server):
            requests.get(live_server.url + "/health")

        def test_local(local_api):
            requests.get(local_api + "/ping")

        def test_plugins(httpbin, httpserver):
            urlopen(httpbin + "/robots.txt")
            requests.get(httpserver.url_for("/get"))

        def test_remote(remote):
            requests.get(f"{remote.base_url}/status")

        def server_ready(host, port):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.connect((host, port))
    """,
}


def test_a_url_read_from_a_fixture_that_serves_this_machine_is_the_test_runs_own_server(tmp_path, cli):
    write_tree(tmp_path, SERVED_TESTS)
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "."], tmp_path)
    findings = json.loads(result.output)["findings"]
    # only the fixture that gives another host's URL is judged, and a helper's parameter
    # (no fixture: pytest gives those to tests and fixtures only)
    assert [(f["path"], f["line"]) for f in findings] == [("tests/test_pages.py", 28), ("tests/test_pages.py", 32)]


def test_the_host_parsed_from_a_conftest_fixture_that_serves_this_machine_is_its_own(tmp_path, cli):
    write_tree(tmp_path, {
        "tests/__init__.py": "",
        "tests/conftest.py": """
            import os

            import pytest

            @pytest.fixture
            def base_url():
                return os.environ.get("APP_BASEURL", "http://localhost:5000")

            @pytest.fixture
            def partner_url():
                return "https://partner.example.com"
        """,
        "tests/test_raw.py": """
            import socket
            from urllib.parse import urlsplit

            def test_folded_header(base_url):
                url = urlsplit(base_url)
                sock = socket.create_connection((url.hostname, url.port))
                sock.sendall(b"POST / HTTP/1.1\\r\\n\\r\\n")

            def test_partner(partner_url):
                url = urlsplit(partner_url)
                socket.create_connection((url.hostname, 443))
        """,
    })
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "."], tmp_path)
    findings = json.loads(result.output)["findings"]
    # (OctoPrint's raw-socket test of its own server)
    assert [(f["path"], f["line"]) for f in findings] == [("tests/test_raw.py", 11)]


def test_a_host_and_port_a_plugin_fixture_yields_and_a_fixture_of_the_file_hands_on_serve_this_machine(tmp_path, cli):
    """devpi: a plugin (named by the conftest's ``pytest_plugins``) starts the server on
    localhost and yields ``(host, port)``; the test file's fixture hands it on, and the URL is
    ``"http://%s:%s/" % host_port``. A module that is no plugin gives nothing to other files."""
    write_tree(tmp_path, {
        "tpkg/__init__.py": "",
        "tpkg/conftest.py": 'pytest_plugins = ["tpkg.plugin"]\n',
        "tpkg/plugin.py": """
            import subprocess

            import pytest

            @pytest.fixture(scope="class")
            def primary_host_port():
                host = "localhost"
                p = subprocess.Popen(["devpi-server", "--host", host, "--port", "3141"])
                yield (host, 3141)
                p.terminate()
        """,
        "tpkg/helpers.py": """
            import pytest

            @pytest.fixture
            def other_host_port():
                return ("localhost", 3141)
        """,
        "tpkg/test_streaming.py": """
            import pytest
            import requests

            @pytest.fixture
            def host_port(primary_host_port):
                return primary_host_port

            @pytest.fixture
            def other(other_host_port):
                return other_host_port

            def test_login(host_port):
                url = "http://%s:%s/" % host_port
                requests.post(url + "+login", json={"user": "root"})

            def test_other(other):
                requests.get("http://%s:%s/" % other)
        """,
    })
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "."], tmp_path)
    assert [(f["path"], f["line"]) for f in json.loads(result.output)["findings"]] == [("tpkg/test_streaming.py", 17)]


def test_a_fixture_yielding_a_server_bound_to_this_machine_serves_it(tmp_path, cli):
    write_tree(tmp_path, {
        "tests/__init__.py": "",
        "tests/test_ssl.py": """
            import http.server
            import threading

            import pytest
            import requests

            @pytest.fixture(scope="session")
            def ssl_server():
                httpd = http.server.HTTPServer(("localhost", 0), http.server.BaseHTTPRequestHandler)
                threading.Thread(target=httpd.serve_forever, daemon=True).start()
                yield httpd
                httpd.shutdown()

            @pytest.fixture
            def partner():
                return http.server.HTTPServer(("partner.example.com", 443), http.server.BaseHTTPRequestHandler)

            def test_disable_ssl(ssl_server):
                url = f"https://{ssl_server.server_address[0]}:{ssl_server.server_address[1]}"
                requests.get(url)

            def test_partner(partner):
                requests.get(f"https://{partner.server_address[0]}/")
        """,
    })
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "."], tmp_path)
    findings = json.loads(result.output)["findings"]
    # (wandb's SSL tests of a server the fixture starts)
    assert [(f["path"], f["line"]) for f in findings] == [("tests/test_ssl.py", 23)]


def test_the_host_of_the_containers_the_test_run_starts_is_this_machines(tmp_path, cli):
    write_tree(tmp_path, {
        "tests/__init__.py": "",
        "tests/conftest.py": """
            import pytest

            @pytest.fixture(scope="session")
            def gitlab_url(docker_ip, docker_services):
                return f"http://{docker_ip}:{docker_services.port_for('gitlab', 80)}"

            @pytest.fixture(scope="session")
            def partner_url(partner_host):
                return f"https://{partner_host}/api"
        """,
        "tests/test_api.py": """
            import requests

            HOST = "127.0.0.1"

            def test_version(gitlab_url):
                requests.get(f"{gitlab_url}/api/v4/version")

            def test_direct(docker_ip):
                requests.get(f"http://{docker_ip}:8080/health")

            def test_constant_host():
                requests.get(f"http://{HOST}:8080/health")

            def test_partner(partner_url):
                requests.get(f"{partner_url}/status")
        """,
    })
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "."], tmp_path)
    findings = json.loads(result.output)["findings"]
    # only the URL of another host is judged
    assert [(f["path"], f["line"]) for f in findings] == [("tests/test_api.py", 15)]


def test_an_object_a_conftest_fixture_gives_whose_class_defaults_its_address_to_this_machine_serves_it(tmp_path, cli):
    """jupyterhub: the ``app`` fixture yields ``MockHub.instance()``, whose traitlets default
    binds it to 127.0.0.1; the tests read its URL through helpers given the fixture."""
    write_tree(tmp_path, {
        "hub/__init__.py": "",
        "hub/app.py": """
            from traitlets import Unicode
            from traitlets.config import SingletonConfigurable

            class JupyterHub(SingletonConfigurable):
                bind_url = Unicode("http://:8000", config=True)
        """,
        "hub/tests/__init__.py": "",
        "hub/tests/utils.py": """
            from urllib.parse import urlparse

            import requests

            class AsyncSession(requests.Session):
                pass

            def public_host(app):
                u = urlparse(app.bind_url)
                return f"{u.scheme}://{u.netloc}"

            def public_url(app):
                return public_host(app) + urlparse(app.bind_url).path
        """,
        "hub/tests/mocking.py": """
            from traitlets import default

            from hub.app import JupyterHub
            from .utils import AsyncSession, public_url

            class MockHub(JupyterHub):
                @default("bind_url")
                def _default_bind_url(self):
                    return f"http://127.0.0.1:{8765}/@/space%20word/"

                def login_user(self, name):
                    return AsyncSession().get(public_url(self) + "hub/login")

            class RemoteHub(JupyterHub):
                pass
        """,
        "hub/tests/conftest.py": """
            from pytest import fixture

            from .mocking import MockHub, RemoteHub

            @fixture
            def app():
                mocked_app = MockHub.instance()
                yield mocked_app
                MockHub.clear_instance()

            @fixture
            def remote():
                return RemoteHub()
        """,
        "hub/tests/test_pages.py": """
            from urllib.parse import urljoin

            from .utils import AsyncSession, public_host, public_url

            def test_logout(app):
                AsyncSession().get(urljoin(public_host(app), "/hub/logout"))

            def test_page(app):
                AsyncSession().get(public_url(app) + "owhoami/")

            def test_remote(remote):
                AsyncSession().get(public_url(remote) + "owhoami/")
        """,
    })
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "."], tmp_path)
    findings = json.loads(result.output)["findings"]
    assert [(f["path"], f["line"]) for f in findings] == [("hub/tests/test_pages.py", 12)]
