from __future__ import annotations

import asyncio
import io

import pytest

from resilint.runtime import (
    DEADLINE_HEADER,
    ASGIDeadlineMiddleware,
    DeadlineExceeded,
    WSGIDeadlineMiddleware,
    check_deadline,
    deadline,
    deadline_from_headers,
    get_metrics,
    inject_deadline,
    outbound_headers,
    parse_grpc_timeout,
    remaining,
)
from resilint.runtime.propagation import REFUSED_HEADER


def test_outbound_header_is_remaining_minus_margin(clock):
    assert outbound_headers() == {}
    with deadline(1.5):
        assert outbound_headers() == {DEADLINE_HEADER: "1490"}
        assert outbound_headers(margin_ms=100) == {DEADLINE_HEADER: "1400"}
        h = inject_deadline({"Accept": "x"})
        assert h[DEADLINE_HEADER] == "1490" and h["Accept"] == "x"
        clock.advance(1.495)
        with pytest.raises(DeadlineExceeded):
            outbound_headers()


@pytest.mark.parametrize(
    "value,seconds",
    [("100m", 0.1), ("2S", 2.0), ("1M", 60.0), ("1H", 3600.0), ("500u", 0.0005), ("7n", 7e-9),
     ("", None), ("12", None), ("1x", None), ("123456789S", None), (None, None)],
)
def test_parse_grpc_timeout(value, seconds):
    assert parse_grpc_timeout(value) == (pytest.approx(seconds) if seconds is not None else None)


def test_deadline_from_headers_capped_by_ceiling():
    h = DEADLINE_HEADER.lower()
    assert deadline_from_headers({h: "250"}, ceiling=5) == 0.25
    assert deadline_from_headers({h: "250000"}, ceiling=5) == 5
    assert deadline_from_headers({"grpc-timeout": "100m", h: "900"}, ceiling=5) == pytest.approx(0.1)
    assert deadline_from_headers({}, ceiling=5) == 5
    assert deadline_from_headers({}, ceiling=5, default=1) == 1
    assert deadline_from_headers({}, ceiling=None) is None
    assert deadline_from_headers({h: "junk"}, ceiling=3) == 3
    assert deadline_from_headers({h: "-5"}, ceiling=3) == 0


def call_wsgi(app, headers):
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/", "wsgi.input": io.BytesIO()}
    for k, v in headers.items():
        environ["HTTP_" + k.upper().replace("-", "_")] = v
    status = []
    body = b"".join(app(environ, lambda s, h, exc_info=None: status.append((s, dict(h)))))
    return status[0][0], status[0][1], body


def test_wsgi_middleware_sets_deadline_for_app_and_iteration():
    seen = []

    def app(environ, start_response):
        seen.append(remaining())
        start_response("200 OK", [])

        def body():
            seen.append(remaining())
            yield b"ok"

        return body()

    mw = WSGIDeadlineMiddleware(app, ceiling=10)
    status, _, body = call_wsgi(mw, {DEADLINE_HEADER: "800"})
    assert status.startswith("200") and body == b"ok"
    assert 0.7 < seen[0] <= 0.8 and 0.7 < seen[1] <= 0.8
    call_wsgi(mw, {"grpc-timeout": "2S"})
    assert 1.9 < seen[2] <= 2.0
    call_wsgi(WSGIDeadlineMiddleware(app, ceiling=0.5), {DEADLINE_HEADER: "100000"})
    assert seen[4] <= 0.5
    assert remaining() is None  # nothing leaked into the server's context


def test_wsgi_refuses_expired_work_before_it_starts():
    ran = []

    def app(environ, start_response):
        ran.append(1)
        start_response("200 OK", [])
        return [b""]

    status, headers, body = call_wsgi(WSGIDeadlineMiddleware(app), {DEADLINE_HEADER: "0"})
    assert status.startswith("504") and ran == [] and headers[REFUSED_HEADER] == "1"
    assert get_metrics().count("deadline_refused") == 1


def test_wsgi_maps_deadline_exceeded_from_app_to_504():
    def app(environ, start_response):
        check_deadline(1.0, "expensive report")
        start_response("200 OK", [])
        return [b""]

    status, _, body = call_wsgi(WSGIDeadlineMiddleware(app), {DEADLINE_HEADER: "200"})
    assert status.startswith("504") and b"expensive report" in body


def run_asgi(app, headers):
    sent = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/", "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]}
    asyncio.run(app(scope, receive, send))
    return sent


def test_asgi_middleware():
    seen = []

    async def app(scope, receive, send):
        seen.append(remaining())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    mw = ASGIDeadlineMiddleware(app, ceiling=10)
    sent = run_asgi(mw, {"x-resilint-deadline-ms": "300"})
    assert sent[0]["status"] == 200 and 0.2 < seen[0] <= 0.3
    run_asgi(mw, {"grpc-timeout": "50m"})
    assert seen[1] <= 0.05
    sent = run_asgi(mw, {"grpc-timeout": "0m"})
    assert sent[0]["status"] == 504 and len(seen) == 2

    async def refusing(scope, receive, send):
        check_deadline(5.0, "batch")

    sent = run_asgi(ASGIDeadlineMiddleware(refusing), {"grpc-timeout": "1S"})
    assert sent[0]["status"] == 504 and b"batch" in sent[1]["body"]


def test_asgi_passes_other_scopes():
    got = []

    async def app(scope, receive, send):
        got.append(scope["type"])

    asyncio.run(ASGIDeadlineMiddleware(app)({"type": "lifespan"}, None, None))
    assert got == ["lifespan"]


@pytest.mark.parametrize("value", ["\xb2", "1e400", "inf", "nan", "1_000", "\u0661\u0662", "100000000", "+5", ""])
def test_deadline_header_is_plain_ascii_milliseconds_within_bounds(value):
    h = DEADLINE_HEADER.lower()
    assert deadline_from_headers({h: value}, ceiling=None) is None  # ignored, as if absent
    assert deadline_from_headers({h: value}, ceiling=3, default=1) == 1
    assert deadline_from_headers({h: "99999999"}, ceiling=None) == pytest.approx(99999.999)
    assert deadline_from_headers({h: "12.5"}, ceiling=None) == pytest.approx(0.0125)


@pytest.mark.parametrize("value", ["\xb2m", "\xb2S", "1\xb2m", "99999999H"])
def test_malformed_or_absurd_grpc_timeout_is_ignored_by_both_middlewares(value):
    seen = []

    def wsgi_app(environ, start_response):
        seen.append(remaining())
        start_response("200 OK", [])
        return [b"ok"]

    async def asgi_app(scope, receive, send):
        seen.append(remaining())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    status, _, _ = call_wsgi(WSGIDeadlineMiddleware(wsgi_app, ceiling=None), {"grpc-timeout": value})
    assert status.startswith("200")  # was a 500 (ValueError from int("\xb2"))
    sent = run_asgi(ASGIDeadlineMiddleware(asgi_app, ceiling=None), {"grpc-timeout": value})
    assert sent[0]["status"] == 200  # was an exception out of the middleware
    assert seen == [None, None]
