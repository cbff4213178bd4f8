"""One stack and recursion budget for everything that walks LibCST trees: the workers that
check files and the fixer that rewrites them in the main process.

LibCST's visitors and code generation recurse once per nesting level, and real code nests
deeply (hundreds of concatenated strings, an ``elif`` chain of 700 branches, a 400-term
``or``): at Python's default limit of 1,000 frames such a file cannot be checked or fixed.
So that work runs on a thread with ``STACK_SIZE`` of C stack and ``RECURSION_LIMIT`` frames.
A file that is still too deep raises ``RecursionError`` there, which its caller reports for
that file alone.

In the main process the calling thread waits, and stays the one that receives Ctrl-C and
SIGTERM (``lint.signals``): on either it asks the work to stop (``stop``), waits until the
work has stopped at a point where no file is half written, and only then lets the signal's
exception go on.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Callable, List, Optional, TypeVar

T = TypeVar("T")

STACK_SIZE = 256 << 20
# About 2.5 KB of C stack per Python frame where calls go through C: 50,000 fit with room.
RECURSION_LIMIT = 50_000


def call_with_deep_stack(function: Callable[..., T], *args: Any, stop: Optional[threading.Event] = None) -> T:
    """``function(*args)`` on a thread with ``STACK_SIZE`` of stack and ``RECURSION_LIMIT``;
    its result, or the exception it raised. ``stop`` is set when the waiting thread is
    interrupted (KeyboardInterrupt, ``Terminated``): ``function`` is expected to check it and
    return or raise soon; the interruption is raised once it has."""
    outcome: List[Any] = []

    done = threading.Event()

    def target() -> None:
        try:
            outcome.append((True, function(*args)))
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            outcome.append((False, exc))
        finally:
            done.set()

    try:
        previous_stack = threading.stack_size(STACK_SIZE)
    except (ValueError, RuntimeError):  # pragma: no cover - a platform that refuses the size
        return function(*args)
    previous_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous_limit, RECURSION_LIMIT))
    # Not a daemon: the interpreter never ends it halfway through writing a file.
    thread = threading.Thread(target=target, name="resilint-deep", daemon=False)
    try:
        thread.start()
    finally:
        threading.stack_size(previous_stack)
    interrupted: Optional[BaseException] = None
    try:
        # Not ``thread.join()``: on Python 3.11, a join interrupted by a signal handler's
        # exception marks the thread as stopped while it still runs (bpo-45274's fix), so a
        # second join returned at once and the process ended halfway through a write.
        while not done.is_set():
            try:
                done.wait()
            except BaseException as exc:  # noqa: BLE001 - Ctrl-C, SIGTERM: stop, then re-raise
                if interrupted is None:
                    interrupted = exc
                if stop is not None:
                    stop.set()
    finally:
        sys.setrecursionlimit(previous_limit)
    thread.join()
    if interrupted is not None:
        raise interrupted
    succeeded, value = outcome[0]
    if not succeeded:
        raise value
    return value  # type: ignore[no-any-return]
