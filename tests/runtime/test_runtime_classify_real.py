"""What is retried, judged against real loopback servers: TLS failures never (item 5), a 503
raised by ``raise_for_status()`` as a 503 returned (item 6), urllib's errors as the stdlib
types they wrap (item 12)."""

from __future__ import annotations

import asyncio
import socket
import ssl
import urllib.error
import urllib.request

import pytest

from resilint.runtime import CLOSED, OPEN, CircuitBreaker, retry
from resilint.runtime.testing import serve_wsgi

from .support import FAST, Script, self_signed_certificate, serve_tls

requests = pytest.importorskip("requests")
httpx = pytest.importorskip("httpx")

from resilint.runtime.adapters.httpx import AsyncResilientTransport, ResilientTransport  # noqa: E402
from resilint.runtime.adapters.requests import ResilientSession  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    return self_signed_certificate(tmp_path_factory.mktemp("tls"))


def strict_breaker(name):
    return CircuitBreaker(name, min_calls=1, failure_rate=0.5)


# -- item 5: a certificate that does not verify is not retried, and not the dependency's ill health
def test_httpx_sync_certificate_failure_is_one_handshake(certificate):
    breaker = strict_breaker("tls-sync")
    with serve_tls(Script(), *certificate) as (url, handshakes):
        with httpx.Client(transport=ResilientTransport(dependency="tls-sync", breaker=breaker, **FAST)) as client:
            with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
                client.get(url)
    assert handshakes[0] == 1  # was 3: retried as a connect error
    assert breaker.state == CLOSED  # was open: counted as the dependency failing
    assert breaker.stats()["calls"] == 0  # not counted at all, not even as a healthy call


def test_httpx_async_certificate_failure_is_one_handshake(certificate):
    breaker = strict_breaker("tls-async")

    async def main(url):
        transport = AsyncResilientTransport(dependency="tls-async", breaker=breaker, **FAST)
        async with httpx.AsyncClient(transport=transport) as client:
            with pytest.raises(httpx.ConnectError):
                await client.get(url)

    with serve_tls(Script(), *certificate) as (url, handshakes):
        asyncio.run(main(url))
    assert handshakes[0] == 1 and breaker.state == CLOSED


def test_requests_and_urllib_certificate_failures_are_one_handshake(certificate):
    breaker = strict_breaker("tls-requests")
    calls = []

    @retry(**FAST)
    def fetch(url):
        calls.append(url)
        return urllib.request.urlopen(url, timeout=5)

    with serve_tls(Script(), *certificate) as (url, handshakes):
        with ResilientSession(dependency="tls-requests", breaker=breaker, **FAST) as session:
            with pytest.raises(requests.exceptions.SSLError):
                session.get(url)
        with pytest.raises(urllib.error.URLError):
            fetch(url)
    assert handshakes[0] == 2 and len(calls) == 1 and breaker.state == CLOSED


def test_a_trusted_certificate_is_served(certificate):
    cert_path, _ = certificate
    with serve_tls(Script(), *certificate) as (url, handshakes):
        trusted = ssl.create_default_context(cafile=str(cert_path))
        with httpx.Client(transport=ResilientTransport(dependency="tls-ok", verify=trusted)) as client:
            assert client.get(url).status_code == 200
        with ResilientSession(dependency="tls-ok-requests") as session:
            assert session.get(url, verify=str(cert_path)).status_code == 200


# -- item 6: raise_for_status() on a retryable status ---------------------------------------
def test_raise_for_status_503_is_retried_with_requests_and_httpx():
    app = Script((503, 0), (503, 0), default=(200, 0))

    @retry(**FAST)
    def with_requests(url):
        response = requests.get(url, timeout=5)
        response.raise_for_status()
        return response.status_code

    @retry(**FAST)
    def with_httpx(url):
        return httpx.get(url).raise_for_status().status_code

    with serve_wsgi(app) as url:
        assert with_requests(url) == 200  # was HTTPError on the first 503
        assert app.calls == 3
        app.steps, app.seen = [(503, 0)] * 2, []
        assert with_httpx(url) == 200
    assert app.calls == 3


def test_raise_for_status_404_is_not_retried():
    app = Script(default=(404, 0))

    @retry(**FAST)
    def fetch(url):
        requests.get(url, timeout=5).raise_for_status()

    with serve_wsgi(app) as url, pytest.raises(requests.HTTPError):
        fetch(url)
    assert app.calls == 1


def test_breaker_call_counts_a_raised_503_as_a_failure():
    breaker = CircuitBreaker("raised", min_calls=3)
    app = Script(default=(503, 0))

    def fetch(url):
        requests.get(url, timeout=5).raise_for_status()

    with serve_wsgi(app) as url:
        for _ in range(3):
            with pytest.raises(requests.HTTPError):
                breaker.call(fetch, url)
    assert breaker.state == OPEN  # was closed: recorded as healthy
    assert "failure rate 100%" in breaker.history[-1][2]


# -- item 12: urllib's errors ---------------------------------------------------------------
def test_urllib_http_error_503_is_retried_and_404_is_not():
    app = Script((503, 0), default=(200, 0))
    calls = []

    @retry(**FAST)
    def fetch(url):
        calls.append(url)
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status

    with serve_wsgi(app) as url:
        assert fetch(url) == 200  # was HTTPError 503 after one call
        app.steps, app.seen = [(404, 0)], []
        with pytest.raises(urllib.error.HTTPError):
            fetch(url + "/missing")
    assert len(calls) == 3 and app.calls == 1


def test_urllib_connection_refused_is_retried():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    calls = []

    @retry(**FAST)
    def fetch():
        calls.append(1)
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)

    with pytest.raises(urllib.error.URLError) as info:
        fetch()
    assert isinstance(info.value.reason, ConnectionRefusedError)
    assert len(calls) == 3  # was 1
