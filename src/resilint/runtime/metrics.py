"""Metrics hooks: counters kept in process plus pluggable listeners.

Every notable runtime event goes through :func:`emit`. The default listener writes it to the
stdlib logger ``resilint.runtime`` (retries and hedges at DEBUG, deadline refusals at INFO,
breaker transitions and budget exhaustion at WARNING). Add your own with
:func:`add_listener` (``listener(event: MetricEvent)``), e.g. to feed Prometheus or StatsD.

Event kinds: ``first_attempt``, ``retry``, ``hedge``, ``budget_exhausted``,
``breaker_transition`` (fields ``old``, ``new``, ``reason``), ``deadline_refused``
(field ``what``), ``bulkhead_rejected``.
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, DefaultDict, Dict, List, Optional

__all__ = [
    "MetricEvent",
    "Metrics",
    "add_listener",
    "remove_listener",
    "emit",
    "get_metrics",
    "logging_listener",
    "retry_ratio",
]

logger = logging.getLogger("resilint.runtime")
logger.addHandler(logging.NullHandler())  # library etiquette: the application configures output

_LEVELS = {
    "first_attempt": logging.DEBUG,
    "retry": logging.DEBUG,
    "hedge": logging.DEBUG,
    "deadline_refused": logging.INFO,
    "bulkhead_rejected": logging.INFO,
    "budget_exhausted": logging.WARNING,
    "breaker_transition": logging.WARNING,
}


@dataclass(frozen=True)
class MetricEvent:
    """One runtime event: its ``kind`` (see the module documentation), the ``dependency`` it
    concerns and its ``fields``."""

    kind: str
    dependency: Optional[str]
    fields: Dict[str, Any] = field(default_factory=dict)


Listener = Callable[[MetricEvent], None]


def logging_listener(event: MetricEvent) -> None:
    """Default sink: one log record per event on the ``resilint.runtime`` logger."""
    level = _LEVELS.get(event.kind, logging.DEBUG)
    if not logger.isEnabledFor(level):
        return
    details = " ".join(f"{k}={v!r}" for k, v in event.fields.items())
    logger.log(level, "%s dependency=%s %s", event.kind, event.dependency, details)


class Metrics:
    """Thread-safe counters per (dependency, kind) and a list of listeners."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: DefaultDict[Optional[str], DefaultDict[str, int]] = defaultdict(
            lambda: defaultdict(int)
        )
        self.transitions: List[MetricEvent] = []
        self._listeners: List[Listener] = [logging_listener]

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(event)`` for every event from now on (outside any runtime lock)."""
        with self._lock:
            self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def emit(self, kind: str, dependency: Optional[str] = None, /, **fields: Any) -> None:
        """Count one event and pass it to every listener (a failing listener is logged)."""
        event = MetricEvent(kind, dependency, dict(fields))
        with self._lock:
            self._counts[dependency][kind] += 1
            if kind == "breaker_transition":
                self.transitions.append(event)
                del self.transitions[:-1000]
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(event)
            except Exception:  # a broken sink must never break a request
                logger.exception("resilint metrics listener %r failed", listener)

    def count(self, kind: str, dependency: Optional[str] = None) -> int:
        """Count of ``kind`` for one dependency, or summed over all when ``dependency`` is None."""
        with self._lock:
            if dependency is not None:
                counts = self._counts.get(dependency)
                return counts.get(kind, 0) if counts is not None else 0
            return sum(c.get(kind, 0) for c in self._counts.values())

    def retry_ratio(self, dependency: Optional[str] = None) -> float:
        """Retries (and hedges) divided by first attempts; 0.0 before any attempt."""
        first = self.count("first_attempt", dependency)
        extra = self.count("retry", dependency) + self.count("hedge", dependency)
        return extra / first if first else 0.0

    def snapshot(self) -> Dict[Optional[str], Dict[str, int]]:
        """A copy of every counter: ``{dependency: {kind: count}}``."""
        with self._lock:
            return {dep: dict(c) for dep, c in self._counts.items()}

    def reset(self) -> None:
        """Forget the counters and recorded transitions (listeners stay)."""
        with self._lock:
            self._counts.clear()
            self.transitions.clear()


_metrics = Metrics()


def get_metrics() -> Metrics:
    """The process-wide :class:`Metrics` instance."""
    return _metrics


def add_listener(listener: Listener) -> None:
    """Add ``listener(event)`` to the process-wide metrics (e.g. to feed Prometheus or StatsD)."""
    _metrics.add_listener(listener)


def remove_listener(listener: Listener) -> None:
    """Remove a listener added with :func:`add_listener`."""
    _metrics.remove_listener(listener)


def emit(kind: str, dependency: Optional[str] = None, /, **fields: Any) -> None:
    """Emit one event on the process-wide metrics."""
    _metrics.emit(kind, dependency, **fields)


def retry_ratio(dependency: Optional[str] = None) -> float:
    """(Retries + hedges) / first attempts, for one dependency or all of them."""
    return _metrics.retry_ratio(dependency)
