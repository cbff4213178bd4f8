"""Deadlines: one monotonic expiry per logical request, carried in a ContextVar.

``with deadline(2.0): ...`` sets the expiry for everything that runs inside, including
coroutines awaited from there and (through :func:`contextvars.copy_context`) helper threads the
runtime starts. Nesting never extends a deadline: the inner scope keeps the earlier expiry.
"""

from __future__ import annotations

import contextvars
from typing import Any, Optional, Tuple

from ._clock import Clock, get_clock
from ._validate import require_number
from .errors import DeadlineExceeded

__all__ = [
    "MAX_DEADLINE",
    "Deadline",
    "DeadlineExceeded",
    "deadline",
    "remaining",
    "current_deadline",
    "check_deadline",
]


#: The longest deadline, in seconds, the runtime keeps: 99,999,999 ms (about 27.8 hours), the
#: most an 8-digit header can carry (gRPC caps its timeouts at 8 digits too). A longer or
#: infinite one is no deadline at all: for an outbound call it means "never" either way, and
#: keeping it would put absurd numbers on the wire.
MAX_DEADLINE = 99_999.999


class Deadline:
    """A point in monotonic time (of a given clock) after which the work is worthless."""

    __slots__ = ("expires_at", "_clock")

    def __init__(self, expires_at: float, clock: Optional[Clock] = None) -> None:
        self.expires_at = expires_at
        self._clock = clock

    @property
    def clock(self) -> Clock:
        """The clock this deadline is measured on (the default clock at this moment if none)."""
        return get_clock(self._clock)

    def remaining(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.expires_at - self.clock.now())

    @property
    def expired(self) -> bool:
        """True once the expiry has been reached."""
        return self.clock.now() >= self.expires_at

    def __repr__(self) -> str:
        return f"Deadline(remaining={self.remaining():.3f}s)"


_current: contextvars.ContextVar[Optional[Deadline]] = contextvars.ContextVar(
    "resilint_deadline", default=None
)


#: The scopes entered in the current context, innermost last: ``(deadline object, token)``.
#: Kept per context (each asyncio task, each thread) so one ``deadline`` object can be entered
#: again while entered (nesting) or from several tasks at once, and each exit undoes its own entry.
_entries: contextvars.ContextVar[Tuple[Tuple["deadline", "contextvars.Token[Optional[Deadline]]"], ...]] = (
    contextvars.ContextVar("resilint_deadline_entries", default=())
)


class deadline:  # noqa: N801 - used like a function: ``with deadline(2.0):``
    """Context manager (sync and async) bounding everything inside to ``seconds`` from now.

    If an enclosing deadline expires earlier, it is kept. ``seconds=None`` leaves the current
    deadline (if any) unchanged, which lets callers write ``with deadline(config.timeout)``;
    so does a value above :data:`MAX_DEADLINE` (``math.inf`` included). The value bound by
    ``as`` is the effective :class:`Deadline` (or ``None``).

    The object is reusable: each ``with`` starts its own ``seconds`` from the moment it is
    entered, and its exit restores what was in effect before that entry — also when the same
    object is nested in itself or shared by concurrent asyncio tasks.
    """

    def __init__(self, seconds: Optional[float], *, clock: Optional[Clock] = None) -> None:
        require_number("deadline seconds", seconds, optional=True, what="a number")
        if seconds is not None and seconds != seconds:  # NaN
            raise ValueError("deadline seconds must be a number, not NaN")
        self.seconds = seconds
        self._clock = clock

    def __repr__(self) -> str:
        return f"deadline({self.seconds!r})"

    def __enter__(self) -> Optional[Deadline]:
        outer = _current.get()
        if self.seconds is None or self.seconds > MAX_DEADLINE:
            effective = outer
        else:
            clock = get_clock(self._clock)
            mine = Deadline(clock.now() + max(0.0, float(self.seconds)), self._clock)
            effective = mine
            if outer is not None and outer.remaining() <= mine.remaining():
                effective = outer
        _entries.set(_entries.get() + ((self, _current.set(effective)),))
        return effective

    def __exit__(self, *exc: Any) -> None:
        entries = _entries.get()
        for i in range(len(entries) - 1, -1, -1):
            if entries[i][0] is self:
                _entries.set(entries[:i] + entries[i + 1 :])
                _current.reset(entries[i][1])
                return
        raise RuntimeError(f"{self!r} exited in a context where it was not entered")

    async def __aenter__(self) -> Optional[Deadline]:
        return self.__enter__()

    async def __aexit__(self, *exc: Any) -> None:
        self.__exit__(*exc)


def current_deadline() -> Optional[Deadline]:
    """The deadline in effect, or ``None``."""
    return _current.get()


def remaining() -> Optional[float]:
    """Seconds left before the current deadline (>= 0), or ``None`` when there is none."""
    d = _current.get()
    return None if d is None else d.remaining()


def check_deadline(needed: float = 0.0, what: str = "work") -> Optional[float]:
    """Raise :class:`DeadlineExceeded` unless more than ``needed`` seconds remain.

    Use it before starting work whose cost you know (``check_deadline(0.2, "render")``): work
    that cannot finish before the caller gives up should not start. Returns what remains.
    """
    left = remaining()
    if left is None:
        return None
    if left <= 0 or left < needed:
        from . import metrics

        metrics.emit("deadline_refused", None, what=what, remaining=left, needed=needed)
        raise DeadlineExceeded(
            f"{what} refused: {left * 1000:.0f} ms left of the deadline, {needed * 1000:.0f} ms needed"
        )
    return left
