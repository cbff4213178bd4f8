"""The HTTP adapters at their boundaries, against real loopback servers: proxies (item 3),
bodies that trickle or break off (items 4 and 8), hedges under a bulkhead (item 7), what feeds
the hedge delay (item 11) and urllib3's timeout objects (item 13)."""

from __future__ import annotations

import asyncio
import http.client
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

import pytest

from resilint.runtime import Bulkhead, DeadlineExceeded, deadline, get_metrics
from resilint.runtime.testing import serve_handler, serve_wsgi

from .support import FAST, Script, self_signed_certificate, serve_tls

requests = pytest.importorskip("requests")
httpx = pytest.importorskip("httpx")
urllib3 = pytest.importorskip("urllib3")

from resilint.runtime.adapters import httpx as resilient_httpx  # noqa: E402
from resilint.runtime.adapters.httpx import AsyncResilientTransport, ResilientTransport  # noqa: E402
from resilint.runtime.adapters.requests import ResilientSession  # noqa: E402

pytestmark = pytest.mark.slow


# -- item 3: proxies and TLS settings are carried, never a silent bypass ---------------------
def forward_proxy():
    """A plain HTTP forward proxy (absolute-form request lines), recording what it relays."""

    class Proxy(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        relayed = []

        def log_message(self, *args):
            pass

        def do_GET(self):  # noqa: N802
            target = urlsplit(self.path)
            self.relayed.append({"url": self.path, "headers": dict(self.headers)})
            upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=5)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "proxy-connection")}
            upstream.request("GET", target.path or "/", headers=headers)
            answer = upstream.getresponse()
            body = answer.read()
            upstream.close()
            self.send_response(answer.status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Proxy


@pytest.fixture
def no_proxy_environment(monkeypatch):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    return monkeypatch


def test_resilient_client_retries_through_the_proxy_it_was_given(no_proxy_environment):
    app = Script((503, 0), default=(200, 0))
    proxy = forward_proxy()
    with serve_wsgi(app) as url, serve_handler(proxy) as proxy_url:
        with resilient_httpx.ResilientClient(proxy=proxy_url, dependency="proxied", **FAST) as client, deadline(5.0):
            assert client.get(url + "/x").status_code == 200  # was: 503, no retry, no header
    assert app.calls == 2 and len(proxy.relayed) == 2
    assert all("X-Resilint-Deadline-Ms" in r["headers"] for r in proxy.relayed)


def test_async_resilient_client_retries_through_the_environments_proxy(no_proxy_environment):
    app = Script((503, 0), default=(200, 0))
    proxy = forward_proxy()

    async def main(url):
        async with resilient_httpx.AsyncResilientClient(dependency="env-proxied", **FAST) as client:
            async with deadline(5.0):
                return (await client.get(url)).status_code

    with serve_wsgi(app) as url, serve_handler(proxy) as proxy_url:
        no_proxy_environment.setenv("HTTP_PROXY", proxy_url)
        assert asyncio.run(main(url)) == 200
    assert app.calls == 2 and len(proxy.relayed) == 2


def test_resilient_transport_takes_the_proxy_itself(no_proxy_environment):
    app = Script((503, 0), default=(200, 0))
    proxy = forward_proxy()
    with serve_wsgi(app) as url, serve_handler(proxy) as proxy_url:
        transport = ResilientTransport(proxy=proxy_url, dependency="proxied-transport", **FAST)
        with httpx.Client(transport=transport) as client:
            assert client.get(url).status_code == 200
    assert app.calls == 2 and len(proxy.relayed) == 2


def test_resilient_client_carries_verify_to_its_transport(tmp_path):
    cert_path, key_path = self_signed_certificate(tmp_path)
    trusted = ssl.create_default_context(cafile=str(cert_path))
    with serve_tls(Script(), cert_path, key_path) as (url, _):
        with resilient_httpx.ResilientClient(verify=trusted, dependency="verified") as client:
            assert client.get(url).status_code == 200  # the client's verify= was honoured
        with ResilientTransport(verify=trusted, dependency="verified") as transport:
            with httpx.Client(transport=transport) as client:
                assert client.get(url).status_code == 200


def test_connection_settings_for_your_own_transport_are_refused():
    with pytest.raises(TypeError, match="verify=, proxy=.*your own transport"):
        ResilientTransport(transport=httpx.HTTPTransport(), verify=False, proxy="http://127.0.0.1:1")


# -- items 4 and 8: bodies within the attempt -------------------------------------------------
class _TricklingError(BaseHTTPRequestHandler):
    """Answers 503 at once, then its 24-byte body one byte every 100 ms (2.4 s)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):  # noqa: N802
        try:
            self.wfile.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 24\r\n\r\n")
            for _ in range(24):
                self.wfile.flush()
                time.sleep(0.1)
                self.wfile.write(b".")
        except OSError:
            pass  # the client gave up


@pytest.mark.parametrize("client", ["httpx-async", "httpx-sync"])
def test_a_trickling_error_body_does_not_hold_the_caller_past_the_deadline(client):
    expected = (DeadlineExceeded, TimeoutError, httpx.TimeoutException)

    async def main(url):
        async with httpx.AsyncClient(transport=AsyncResilientTransport(dependency="drip", **FAST)) as c:
            t0 = time.monotonic()
            with pytest.raises(expected):
                async with deadline(0.4):
                    await c.get(url)
            return time.monotonic() - t0

    with serve_handler(_TricklingError) as url:
        if client == "httpx-async":
            elapsed = asyncio.run(main(url))
        else:
            with httpx.Client(transport=ResilientTransport(dependency="drip-sync", **FAST)) as c:
                t0 = time.monotonic()
                with deadline(0.4), pytest.raises(expected):
                    c.get(url)
                elapsed = time.monotonic() - t0
    assert elapsed < 0.4 + 0.2  # was 2.4 s: the discarded body was read to its end


def cut_off_once():
    """A handler whose first answer promises 100 bytes, sends 10 and drops the connection."""

    class CutOff(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        calls = []

        def log_message(self, *args):
            pass

        def do_GET(self):  # noqa: N802
            self.calls.append(self.path)
            first = len(self.calls) == 1
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            if first:
                self.wfile.write(b"x" * 10)
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(b"y" * 100)

    return CutOff


@pytest.mark.parametrize("client", ["requests", "httpx-sync", "httpx-async"])
def test_a_get_whose_body_breaks_off_is_retried(client):
    handler = cut_off_once()
    with serve_handler(handler) as url:
        if client == "requests":
            with ResilientSession(dependency="cut", **FAST) as s:
                body = s.get(url).content
        elif client == "httpx-sync":
            with httpx.Client(transport=ResilientTransport(dependency="cut", **FAST)) as c:
                body = c.get(url).content
        else:

            async def main():
                async with httpx.AsyncClient(transport=AsyncResilientTransport(dependency="cut", **FAST)) as c:
                    return (await c.get(url)).content

            body = asyncio.run(main())
    assert body == b"y" * 100  # was ChunkedEncodingError / RemoteProtocolError, no retry
    assert len(handler.calls) == 2


def test_a_streamed_body_is_the_callers_and_is_not_retried():
    handler = cut_off_once()
    with serve_handler(handler) as url:
        with ResilientSession(dependency="cut-stream", **FAST) as s:
            response = s.get(url, stream=True)
            with pytest.raises(requests.exceptions.ChunkedEncodingError):
                response.content
    assert len(handler.calls) == 1


# -- item 7: hedges and the bulkhead bound ----------------------------------------------------
class InFlight:
    """WSGI app answering 200 after ``delay``, recording the most requests it had at once."""

    def __init__(self, delay):
        self.delay = delay
        self.now = 0
        self.most = 0
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        with self.lock:
            self.now += 1
            self.calls += 1
            self.most = max(self.most, self.now)
        try:
            time.sleep(self.delay)
        finally:
            with self.lock:
                self.now -= 1
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]


def test_sync_hedges_never_exceed_the_bulkhead():
    app = InFlight(0.1)
    bulkhead = Bulkhead("hedged", max_concurrent=1, max_queue=16)
    with serve_wsgi(app) as url:
        with ResilientSession(dependency="hedged", bulkhead=bulkhead, hedge=True, hedge_delay=0.02, **FAST) as s:

            def caller():
                for _ in range(3):
                    assert s.get(url).status_code == 200

            threads = [threading.Thread(target=caller) for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
    assert app.calls >= 12 and app.most == 1  # was 3-5 in flight: losing hedges outlived their slot
    assert bulkhead.in_flight == 0


def test_a_hedge_leaves_when_the_bulkhead_has_room():
    app = InFlight(0.15)
    bulkhead = Bulkhead("roomy", max_concurrent=2)
    with serve_wsgi(app) as url:
        with ResilientSession(dependency="roomy", bulkhead=bulkhead, hedge=True, hedge_delay=0.02, **FAST) as s:
            assert s.get(url).status_code == 200
            end = time.monotonic() + 5
            while bulkhead.in_flight and time.monotonic() < end:  # the loser still holds its slot
                time.sleep(0.01)
    assert app.calls == 2 and app.most == 2 and bulkhead.in_flight == 0
    assert get_metrics().count("hedge", "roomy") == 1


# -- item 11: only successful latencies feed the hedge delay -----------------------------------
def test_fast_errors_do_not_make_healthy_slow_calls_hedged():
    errors = Script(default=(503, 0))
    slow = Script(default=(200, 0.15))
    with serve_wsgi(errors) as errors_url, serve_wsgi(slow) as slow_url:
        with ResilientSession(dependency="p95", hedge=True, attempts=1) as s:
            for _ in range(30):
                assert s.get(errors_url).status_code == 503
            assert s.get(slow_url).status_code == 200
    assert slow.calls == 1  # was 2: hedged after the 503s' ~1 ms "p95"
    assert get_metrics().count("hedge", "p95") == 0


# -- item 13: urllib3.Timeout -----------------------------------------------------------------
def test_resilient_session_accepts_urllib3_timeouts():
    app = Script((200, 1.0), default=(200, 0))
    with serve_wsgi(app) as url, ResilientSession(dependency="u3", attempts=1) as s:
        t0 = time.monotonic()
        with pytest.raises(requests.exceptions.ReadTimeout):  # was TypeError from float(Timeout)
            s.get(url, timeout=urllib3.Timeout(connect=1.0, read=0.2))
        assert time.monotonic() - t0 < 0.9  # the read bound was honoured
        assert s.get(url, timeout=urllib3.Timeout(total=5.0)).status_code == 200
        assert s.get(url, timeout=urllib3.Timeout(connect=2.0)).status_code == 200
