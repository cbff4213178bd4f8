"""Shared helpers for the runtime tests that talk to real servers on 127.0.0.1."""

from __future__ import annotations

import threading
import time
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
