"""Shared helpers for the runtime tests that talk to real servers on 127.0.0.1."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from socketserver import ThreadingMixIn
from typing import Any, Callable

import pytest

from resilint.runtime import deadline


class Script:
    """WSGI app answering from a script of (status, delay) per request; records each request's
    ``HTTP_*`` headers, its method and its arrival time (``at``, ``time.monotonic()``)."""

    def __init__(self, *steps, default=(200, 0.0), headers=None):
        self.steps = list(steps)
        self.default = default
        self.extra = headers or []
        self.seen = []
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        with self.lock:
            n = len(self.seen)
            self.seen.append(
                {k: v for k, v in environ.items() if k.startswith("HTTP_")}
                | {"method": environ["REQUEST_METHOD"], "at": time.monotonic()}
            )
            status, delay = self.steps[n] if n < len(self.steps) else self.default
        if delay:
            time.sleep(delay)
        start_response(f"{status} X", [("Content-Length", "2")] + self.extra)
        return [b"ok"]

    @property
    def calls(self):
        return len(self.seen)

    def deadline_ms(self, n: int) -> int:
        """The deadline header request ``n`` arrived with."""
        return int(self.seen[n]["HTTP_X_RESILINT_DEADLINE_MS"])


FAST = dict(base=0.001, cap=0.01)


def assert_gives_up_by_deadline(get, errors):
    """Under a 0.2 s deadline, ``get()`` against a 1 s server fails with ``errors`` within 0.45 s."""
    t0 = time.monotonic()
    with deadline(0.2):
        with pytest.raises(errors):
            get()
    assert time.monotonic() - t0 < 0.45


def wait_until(condition: Callable[[], Any], timeout: float = 2.0) -> None:
    """Poll ``condition`` (a real event in another thread) until it holds."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "condition not reached"
        time.sleep(0.005)


def self_signed_certificate(directory):
    """A certificate for 127.0.0.1 signed by itself (so it is its own CA), and its key, as PEM
    files in ``directory``; returns ``(cert_path, key_path)``. Made with ``cryptography``."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "resilint test")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


@contextmanager
def serve_tls(app, cert_path, key_path):
    """Serve a WSGI ``app`` over TLS on 127.0.0.1; yields ``(base_url, handshakes)`` where
    ``handshakes`` counts the TLS handshakes clients started (a list of one int)."""
    import ssl
    from wsgiref.simple_server import WSGIServer, make_server

    from resilint.runtime.testing import _QuietWSGIHandler

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(cert_path), str(key_path))
    handshakes = [0]

    class TLSServer(ThreadingMixIn, WSGIServer):
        daemon_threads = True

        def get_request(self):
            sock, address = self.socket.accept()
            handshakes[0] += 1
            sock.settimeout(5)
            return context.wrap_socket(sock, server_side=True), address

    server = make_server("127.0.0.1", 0, app, server_class=TLSServer, handler_class=_QuietWSGIHandler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{server.server_port}", handshakes
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
