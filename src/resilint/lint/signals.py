"""Ctrl-C and SIGTERM end a run cleanly: workers stopped, no half-written file.

Python turns SIGINT into KeyboardInterrupt; ``terminated_by_sigterm`` does the same for
SIGTERM with ``Terminated``, so both unwind through the ``with`` blocks that stop the worker
processes. ``deferred_signals`` holds both back while a file is being replaced, so that it is
written whole or not at all.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Dict, Iterator, List

_ENDING = (signal.SIGINT, signal.SIGTERM)


class Terminated(BaseException):
    """SIGTERM arrived. A BaseException, like KeyboardInterrupt: no ``except Exception``
    along the way may swallow it."""


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def terminated_by_sigterm() -> Iterator[None]:
    """Within the block, SIGTERM raises ``Terminated``."""
    if not _main_thread():  # pragma: no cover - signal handlers belong to the main thread
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        _restore(signal.SIGTERM, previous)


@contextmanager
def deferred_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM are remembered; the first is delivered after it."""
    if not _main_thread():  # pragma: no cover
        yield
        return
    received: List[int] = []
    previous: Dict[int, Any] = {}
    for number in _ENDING:
        previous[number] = signal.signal(number, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        for number, handler in previous.items():
            _restore(number, handler)
        if received:
            signal.raise_signal(received[0])


def _restore(number: int, handler: Any) -> None:
    # None: the handler was not set from Python; the default is the closest equivalent.
    signal.signal(number, signal.SIG_DFL if handler is None else handler)
