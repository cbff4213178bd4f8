"""Retry budget: retries (and hedges) may add at most ``ratio`` over first attempts.

Every first attempt *deposits*; every retry or hedge *spends* one token. Within a sliding window
of ``window`` seconds the number of spent tokens may not exceed
``ratio × first attempts + min_per_second × window`` (the floor lets low-traffic callers still
retry now and then). When a retry is needed and no token is left, it is refused at once, so an
outage costs the dependency about ``1 + ratio`` times normal traffic instead of ``attempts``
times. Only failures that say something about the dependency's health (5xx, 408, 429, connect
errors, timeouts) lead to retries, hence draw on the budget; a 404 never does.

Budgets are meant to be shared by everything calling the same dependency in the process:
``RetryBudget.for_dependency("payments")`` returns the same object each time.
"""

from __future__ import annotations

import math
import threading
from typing import Dict, List, Optional, Union

from . import metrics as _metrics
from ._clock import Clock, get_clock
from ._registry import PerDependency
from .errors import RetryBudgetExhausted

__all__ = ["BudgetArg", "RetryBudget", "RetryBudgetExhausted", "resolve_budget"]


class RetryBudget(PerDependency):
    """Sliding-window token budget, thread-safe. Buckets are ``window / buckets`` wide.

    ``RetryBudget.for_dependency(name, **kwargs)`` / ``reset_registry()`` come from
    :class:`~._registry.PerDependency`.
    """

    def __init__(
        self,
        ratio: float = 0.1,
        min_per_second: float = 1.0,
        window: float = 10.0,
        *,
        name: Optional[str] = None,
        buckets: int = 10,
        clock: Optional[Clock] = None,
    ) -> None:
        if ratio < 0 or min_per_second < 0 or window <= 0 or buckets < 1:
            raise ValueError("ratio/min_per_second must be >= 0, window > 0, buckets >= 1")
        self.ratio = float(ratio)
        self.min_per_second = float(min_per_second)
        self.window = float(window)
        self.name = name
        self._clock = clock
        self._width = self.window / buckets
        self._n = buckets
        self._deposits: List[int] = [0] * buckets
        self._spent: List[int] = [0] * buckets
        self._epoch: List[int] = [-1] * buckets
        self._lock = threading.Lock()

    # -- accounting -----------------------------------------------------------------------
    def _slot(self) -> int:
        tick = int(math.floor(get_clock(self._clock).now() / self._width))
        i = tick % self._n
        if self._epoch[i] != tick:
            self._epoch[i] = tick
            self._deposits[i] = 0
            self._spent[i] = 0
        # forget buckets that fell out of the window
        for j in range(self._n):
            if self._epoch[j] != -1 and tick - self._epoch[j] >= self._n:
                self._epoch[j] = -1
                self._deposits[j] = 0
                self._spent[j] = 0
        return i

    def deposit(self, n: int = 1) -> None:
        """Record ``n`` first attempts."""
        with self._lock:
            self._deposits[self._slot()] += n

    def balance(self) -> float:
        """Tokens available now (may be fractional)."""
        with self._lock:
            self._slot()
            return self._balance()

    def _balance(self) -> float:
        allowed = self.ratio * sum(self._deposits) + self.min_per_second * self.window
        return allowed - sum(self._spent)

    def try_spend(self, kind: str = "retry") -> bool:
        """Take one token for a retry or hedge; ``False`` (and a metric) when empty."""
        with self._lock:
            i = self._slot()
            if self._balance() >= 1.0:
                self._spent[i] += 1
                return True
        _metrics.emit("budget_exhausted", self.name, spent_for=kind)
        return False

    def spend(self, kind: str = "retry", response: object = None) -> None:
        """Like :meth:`try_spend` but raises :class:`RetryBudgetExhausted` when empty."""
        if not self.try_spend(kind):
            raise RetryBudgetExhausted(self.name, response=response)

    def stats(self) -> Dict[str, float]:
        """``first_attempts``, ``spent`` and ``balance`` over the window now."""
        with self._lock:
            self._slot()
            return {
                "first_attempts": float(sum(self._deposits)),
                "spent": float(sum(self._spent)),
                "balance": self._balance(),
            }

    def __repr__(self) -> str:
        return f"RetryBudget(name={self.name!r}, ratio={self.ratio}, min_per_second={self.min_per_second}, window={self.window})"


BudgetArg = Union[RetryBudget, str, None, bool]


def resolve_budget(budget: BudgetArg, dependency: Optional[str]) -> Optional[RetryBudget]:
    """What every ``budget=`` argument of the runtime means (policies, adapters, hedging):
    a :class:`RetryBudget` is used as is; a name selects that shared budget; ``None`` (or
    ``True``) the shared budget of ``dependency``, or of ``"default"``; ``False`` none at all."""
    if budget is False:
        return None
    if isinstance(budget, RetryBudget):
        return budget
    name = budget if isinstance(budget, str) else (dependency or "default")
    return RetryBudget.for_dependency(name)
