"""Test helpers: deterministic time and instant retries.

``FakeClock`` is a manual clock: ``now()`` only moves when you ``advance()`` it or something
sleeps on it; ``random()`` comes from a seeded generator (or a fixed value). ``instant_retries()``
makes every component that was not given its own clock skip its sleeps: time *appears* to pass
(deadlines still see it), but no wall time is spent. Example pytest fixture::

    @pytest.fixture
    def fast_retries():
        with instant_retries() as clock:
            yield clock   # clock.sleeps lists every pause that was skipped
"""

from __future__ import annotations

import random as _random
import threading
import time
from contextlib import contextmanager
from typing import Iterator, List, Optional

from ._clock import Clock, SystemClock, use_clock

__all__ = ["FakeClock", "SkippingClock", "instant_retries", "reset_registries", "serve_wsgi", "serve_handler"]


class FakeClock(Clock):
    """Manual monotonic clock. ``fixed_random`` pins ``random()`` (e.g. 1.0 → maximal jitter)."""

    def __init__(self, start: float = 1000.0, *, seed: int = 0, fixed_random: Optional[float] = None, wall_start: float = 1_700_000_000.0) -> None:
        self._now = float(start)
        self._start = float(start)
        self._wall_start = wall_start
        self._rng = _random.Random(seed)
        self.fixed_random = fixed_random
        self.sleeps: List[float] = []
        self._lock = threading.Lock()

    def now(self) -> float:
        """The manual monotonic time."""
        return self._now

    def time(self) -> float:
        """Wall-clock time moving with :meth:`now`."""
        return self._wall_start + (self._now - self._start)

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``."""
        with self._lock:
            self._now += max(0.0, seconds)

    def sleep(self, seconds: float) -> None:
        """Record the pause in :attr:`sleeps` and advance time by it, at once."""
        self.sleeps.append(seconds)
        self.advance(seconds)

    async def asleep(self, seconds: float) -> None:
        """Like :meth:`sleep`, then yield to the event loop once."""
        import asyncio

        self.sleep(seconds)
        await asyncio.sleep(0)

    def random(self) -> float:
        """``fixed_random`` if set, else the seeded generator's next draw."""
        if self.fixed_random is not None:
            return min(self.fixed_random, 1.0)
        return self._rng.random()


class SkippingClock(SystemClock):
    """Real monotonic time plus every skipped sleep: sleeping returns at once."""

    def __init__(self, *, seed: Optional[int] = None) -> None:
        self._offset = 0.0
        self._lock = threading.Lock()
        self._rng = _random.Random(seed) if seed is not None else None
        self.sleeps: List[float] = []

    def now(self) -> float:
        """Real monotonic time plus every pause skipped so far."""
        return time.monotonic() + self._offset

    def time(self) -> float:
        """Real wall-clock time plus every pause skipped so far."""
        return time.time() + self._offset

    def sleep(self, seconds: float) -> None:
        """Record the pause in :attr:`sleeps` and add it to the offset, without waiting."""
        with self._lock:
            self.sleeps.append(seconds)
            self._offset += max(0.0, seconds)

    async def asleep(self, seconds: float) -> None:
        """Like :meth:`sleep`, then yield to the event loop once."""
        import asyncio

        self.sleep(seconds)
        await asyncio.sleep(0)

    def random(self) -> float:
        """The seeded generator's next draw, or the system's."""
        return self._rng.random() if self._rng is not None else super().random()


@contextmanager
def instant_retries(seed: Optional[int] = None) -> Iterator[SkippingClock]:
    """Make the default clock a :class:`SkippingClock` for the duration of the block."""
    clock = SkippingClock(seed=seed)
    with use_clock(clock):
        yield clock


def reset_registries() -> None:
    """Forget every shared budget, breaker, bulkhead and latency tracker (between tests)."""
    from .breaker import CircuitBreaker
    from .budget import RetryBudget
    from .bulkhead import Bulkhead
    from .hedging import LatencyTracker

    RetryBudget.reset_registry()
    CircuitBreaker.reset_registry()
    Bulkhead.reset_registry()
    LatencyTracker.reset_registry()


# -- local servers (stdlib only) for integration tests and benchmarks ----------------------
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer  # noqa: E402
from socketserver import ThreadingMixIn  # noqa: E402
from typing import Any, Callable, Type  # noqa: E402
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server  # noqa: E402


class _QuietWSGIHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


class _ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


class _PoolWSGIServer(WSGIServer):
    """A WSGI server with a *fixed* number of worker threads (like gunicorn --threads N)."""

    allow_reuse_address = True
    request_queue_size = 128
    workers = 4

    def server_activate(self) -> None:
        super().server_activate()
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="wsgi-worker")

    def process_request(self, request: Any, client_address: Any) -> None:
        self._pool.submit(self._work, request, client_address)

    def _work(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)

    def server_close(self) -> None:
        super().server_close()
        self._pool.shutdown(wait=False)


@contextmanager
def _serving(server: HTTPServer) -> Iterator[str]:
    """Run ``server`` in a daemon thread; yield its base URL; shut it down and close it after."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def serve_wsgi(app: Callable[..., Any], workers: Optional[int] = None) -> Iterator[str]:
    """Serve a WSGI app on 127.0.0.1 (random port) in a thread; yields the base URL.

    ``workers=None``: one thread per request; ``workers=N``: a fixed pool of N threads.
    """
    if workers is None:
        server_cls: Type[WSGIServer] = _ThreadingWSGIServer
    else:
        server_cls = type("PoolWSGIServer", (_PoolWSGIServer,), {"workers": workers})
    server = make_server("127.0.0.1", 0, app, server_class=server_cls, handler_class=_QuietWSGIHandler)
    with _serving(server) as url:
        yield url


@contextmanager
def serve_handler(handler: Type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve a ``BaseHTTPRequestHandler`` subclass (for raw socket tricks) on 127.0.0.1."""

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server: HTTPServer = Server(("127.0.0.1", 0), handler)
    with _serving(server) as url:
        yield url
