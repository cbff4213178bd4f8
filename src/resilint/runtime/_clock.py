"""Injectable time, sleep and randomness.

Every runtime component takes an optional ``clock``; when it is ``None`` the process-wide
default is looked up *at the moment of use*, so swapping the default (see
:func:`use_clock` and :mod:`resilint.runtime.testing`) affects objects created earlier too.
"""

from __future__ import annotations

import random as _random
import threading
import time
from contextlib import contextmanager
from typing import Iterator, Optional

__all__ = ["Clock", "SystemClock", "get_clock", "set_default_clock", "use_clock"]


class Clock:
    """Interface (and the real implementation) of time, sleeping and randomness."""

    def now(self) -> float:
        """Monotonic seconds; only differences are meaningful."""
        return time.monotonic()

    def time(self) -> float:
        """Wall-clock seconds since the epoch (used only to read HTTP dates)."""
        return time.time()

    def sleep(self, seconds: float) -> None:
        """Block for ``seconds`` (nothing when it is not positive)."""
        if seconds > 0:
            time.sleep(seconds)

    async def asleep(self, seconds: float) -> None:
        """Await ``seconds`` (asyncio)."""
        import asyncio

        await asyncio.sleep(max(0.0, seconds))

    def random(self) -> float:
        """A float in [0, 1)."""
        return _random.random()

    def uniform(self, low: float, high: float) -> float:
        """A float in ``[low, high)`` drawn from :meth:`random`."""
        return low + (high - low) * self.random()


class SystemClock(Clock):
    """The real clock: ``time.monotonic``, ``time.sleep``, ``asyncio.sleep``, ``random``."""


_lock = threading.Lock()
_default: Clock = SystemClock()


def get_clock(clock: Optional[Clock] = None) -> Clock:
    """Return ``clock`` if given, else the current process-wide default."""
    return clock if clock is not None else _default


def set_default_clock(clock: Optional[Clock]) -> Clock:
    """Install ``clock`` (``None`` restores the system clock); returns the previous one."""
    global _default
    with _lock:
        previous = _default
        _default = clock if clock is not None else SystemClock()
    return previous


@contextmanager
def use_clock(clock: Clock) -> Iterator[Clock]:
    """Temporarily make ``clock`` the default for every component that was not given one."""
    previous = set_default_clock(clock)
    try:
        yield clock
    finally:
        set_default_clock(previous)
