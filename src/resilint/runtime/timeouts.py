"""Split, deadline-clamped timeouts and their calibration from healthy latency."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, NamedTuple, Optional

from ..defaults import DEFAULT_CONNECT, DEFAULT_READ
from ._clock import Clock
from .deadline import current_deadline
from .errors import DeadlineExceeded

__all__ = [
    "SplitTimeout", "timeout", "Calibration", "calibrate", "DEFAULT_CONNECT", "DEFAULT_READ", "DEFAULT_FACTOR",
]

#: ``DEFAULT_CONNECT`` and ``DEFAULT_READ`` (``resilint.defaults``, shared with the codemods) are
#: used when ``timeout()`` is called without arguments (codemods emit that form).
#: ``calibrate``'s timeout = healthy p99 × factor; read the other way, a timeout ÷ this factor is
#: the healthy p99 it stands for (what the adapters call slow for a breaker without its own bar).
DEFAULT_FACTOR = 1.4


class SplitTimeout(NamedTuple):
    """``(connect, read)`` seconds. Pass it as-is as requests' ``timeout=``.

    For httpx use :meth:`as_httpx` (``httpx.Timeout``); ``total`` is the sum, the worst case of
    one attempt.
    """

    connect: float
    read: float

    @property
    def total(self) -> float:
        """``connect + read``: the longest one attempt can wait."""
        return self.connect + self.read

    def as_httpx(self) -> Any:
        """Convert to ``httpx.Timeout`` (httpx imported lazily). Write/pool use the read value."""
        import httpx

        return httpx.Timeout(self.read, connect=self.connect, read=self.read, write=self.read, pool=self.connect)

    def as_dict(self) -> Dict[str, float]:
        """httpx's per-request extension format: connect/read/write/pool."""
        return {"connect": self.connect, "read": self.read, "write": self.read, "pool": self.connect}


def timeout(
    read: Optional[float] = None,
    connect: Optional[float] = None,
    *,
    clock: Optional[Clock] = None,
) -> SplitTimeout:
    """A split timeout clamped to the remaining deadline.

    Each value is ``min(configured, remaining())``. When the current deadline has nothing left,
    :class:`DeadlineExceeded` is raised here, before any I/O is attempted.
    """
    read_s = DEFAULT_READ if read is None else float(read)
    connect_s = min(DEFAULT_CONNECT, read_s) if connect is None else float(connect)
    if read_s <= 0 or connect_s <= 0:
        raise ValueError("timeouts must be positive")
    d = current_deadline()
    left = None if d is None else d.remaining()
    if left is not None and left <= 0:
        from . import metrics

        metrics.emit("deadline_refused", None, what="outbound call")
        raise DeadlineExceeded("deadline exceeded before the call was sent")
    return clamped(SplitTimeout(connect=connect_s, read=read_s), left)


def clamped(limit: SplitTimeout, left: Optional[float]) -> SplitTimeout:
    """``limit`` with each value lowered to ``left`` seconds (``None``: no deadline)."""
    if left is None:
        return limit
    return SplitTimeout(connect=min(limit.connect, left), read=min(limit.read, left))


@dataclass(frozen=True)
class Calibration:
    """What :func:`calibrate` derived: per-attempt ``connect``/``read`` timeouts, how many
    ``attempts`` fit (of ``requested_attempts``), and a ``warning`` when fewer fit."""

    connect: float
    read: float
    attempts: int
    requested_attempts: int
    warning: Optional[str] = None

    @property
    def timeout(self) -> SplitTimeout:
        """The calibrated ``(connect, read)`` as a :class:`SplitTimeout`."""
        return SplitTimeout(self.connect, self.read)


def calibrate(
    p99: float,
    budget: float,
    attempts: int = 3,
    *,
    factor: float = DEFAULT_FACTOR,
    connect_p99: Optional[float] = None,
    base: float = 0.1,
    cap: float = 5.0,
) -> Calibration:
    """Derive per-attempt timeouts from the dependency's *healthy* p99 latency.

    ``read = p99 × factor`` (factor 1.3–1.5 keeps healthy calls from timing out while cutting
    pathological ones). ``connect`` is ``connect_p99 × factor`` when known (a slow handshake is
    not capped by the read timeout), else ``min(read, 1.0)``. The attempts that fit are those whose worst case (``read`` per attempt
    plus the mean full-jitter backoff between attempts) fits in ``budget``. When fewer fit than
    asked, ``attempts`` is lowered and ``warning`` says so. The read timeout is never set below
    the healthy p99: if even one attempt cannot fit, ``attempts`` is 0 and the warning says the
    budget is below healthy latency.
    """
    if p99 <= 0 or budget <= 0 or attempts < 1:
        raise ValueError("p99 and budget must be positive and attempts >= 1")
    if not 1.0 <= factor <= 3.0:
        raise ValueError("factor should be a small multiple of p99 (typically 1.3-1.5)")
    read = p99 * factor

    def cost(n: int) -> float:
        sleeps = sum(min(cap, base * 2.0**k) / 2.0 for k in range(n - 1))
        return n * read + sleeps

    fit = 0
    while fit < attempts and cost(fit + 1) <= budget + 1e-9:
        fit += 1
    warning = None
    if fit == 0:
        if budget >= p99:
            # one attempt fits if we accept a read timeout between p99 and p99 × factor
            read = budget
            fit = 1
            warning = (
                f"budget {budget:.3f}s holds a single attempt only with a read timeout of "
                f"{read:.3f}s (below p99×{factor}); asked for {attempts}"
            )
        else:
            warning = (
                f"budget {budget:.3f}s is below the healthy p99 {p99:.3f}s: no attempt can "
                "succeed reliably; raise the budget or do not make this call"
            )
    elif fit < attempts:
        warning = (
            f"only {fit} of {attempts} attempts fit in {budget:.3f}s at {read:.3f}s each; "
            "attempts lowered (timeouts are never cut below healthy latency)"
        )
    connect = connect_p99 * factor if connect_p99 else min(read, 1.0)
    return Calibration(
        connect=round(connect, 6),
        read=round(read, 6),
        attempts=fit,
        requested_attempts=attempts,
        warning=warning,
    )


