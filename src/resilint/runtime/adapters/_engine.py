"""The per-request pipeline shared by every HTTP adapter (no client library imported here).

For each logical request::

    open an operation scope (one idempotency key for all attempts)
    repeat (bounded by RetryPolicy):
        refuse if the deadline has passed
        timeout = min(configured, remaining deadline)       -> DeadlineExceeded before I/O
        set X-Resilint-Deadline-Ms = remaining - margin
        bulkhead slot  ->  breaker permit  ->  [hedged] send  ->  record result
        classify; maybe sleep (jittered, budgeted, never past the deadline)
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Dict, MutableMapping, Optional, Union

from .._clock import Clock, get_clock
from ..breaker import CircuitBreaker, PermitGuard
from ..budget import RetryBudget
from ..bulkhead import Bulkhead
from ..hedging import LatencyTracker, ahedged_call, hedged_call
from ..idempotency import IDEMPOTENCY_HEADER, IDEMPOTENT_METHODS, idempotency_key
from ..propagation import DEADLINE_HEADER, DEFAULT_MARGIN_MS, outbound_deadline_ms
from ..retry import RetryPolicy, _aattempt_loop, _attempt_loop, _Run, _ScopeHolder
from ..timeouts import DEFAULT_CONNECT, DEFAULT_READ, SplitTimeout, timeout

__all__ = ["HttpPolicy"]

ComponentArg = Union[None, bool, Any]


class HttpPolicy:
    """Everything an adapter applies to a request.

    ``dependency``: name used for the shared budget/breaker/bulkhead/latency registries; by
    default the request's ``host:port``. ``breaker`` / ``bulkhead``: an instance, ``True`` (the
    registry's per-dependency default) or ``None`` (off). ``budget``: a :class:`RetryBudget`,
    ``None`` (per-dependency shared budget) or ``False`` (off). ``hedge``: off by default; when
    on, idempotent or keyed requests slower than the dependency's p95 get one hedge, paid from
    the budget. ``auto_idempotency_key``: add ``Idempotency-Key`` to POST/PATCH requests that
    have none (only if the server deduplicates on it), which makes them retryable.
    """

    def __init__(
        self,
        dependency: Optional[str] = None,
        *,
        attempts: int = 3,
        base: float = 0.1,
        cap: float = 5.0,
        retry_after_cap: float = 10.0,
        read: float = DEFAULT_READ,
        connect: float = DEFAULT_CONNECT,
        budget: Union[RetryBudget, None, bool] = None,
        breaker: ComponentArg = None,
        bulkhead: ComponentArg = None,
        propagate: bool = True,
        margin_ms: int = DEFAULT_MARGIN_MS,
        hedge: bool = False,
        hedge_delay: Optional[float] = None,
        auto_idempotency_key: bool = False,
        clock: Optional[Clock] = None,
    ) -> None:
        self.dependency = dependency
        self.attempts = attempts
        self.base = base
        self.cap = cap
        self.retry_after_cap = retry_after_cap
        self.read = read
        self.connect = connect
        self.budget = budget
        self.breaker = breaker
        self.bulkhead = bulkhead
        self.propagate = propagate
        self.margin_ms = margin_ms
        self.hedge = hedge
        self.hedge_delay = hedge_delay
        self.auto_idempotency_key = auto_idempotency_key
        self._clock = clock

    @property
    def clock(self) -> Clock:
        return get_clock(self._clock)

    def _component(self, value: ComponentArg, cls: Any, dep: str) -> Any:
        if value is None or value is False:
            return None
        if value is True:
            return cls.for_dependency(dep)
        return value

    def bind(self, host: str, method: str, headers: MutableMapping[str, str], repeatable_body: bool = True) -> "_Bound":
        return _Bound(self, self.dependency or host or "default", method.upper(), headers, repeatable_body)


class _Bound:
    """One logical request under a policy."""

    def __init__(self, policy: HttpPolicy, dep: str, method: str, headers: MutableMapping[str, str], repeatable: bool) -> None:
        self.policy = policy
        self.dep = dep
        self.method = method
        self.headers = headers
        self.repeatable = repeatable
        self.breaker: Optional[CircuitBreaker] = policy._component(policy.breaker, CircuitBreaker, dep)
        self.bulkhead: Optional[Bulkhead] = policy._component(policy.bulkhead, Bulkhead, dep)
        budget = policy.budget
        if budget is None or budget is True:
            budget = RetryBudget.for_dependency(dep)
        self.retry = RetryPolicy(
            policy.attempts if repeatable else 1,
            base=policy.base,
            cap=policy.cap,
            retry_after_cap=policy.retry_after_cap,
            budget=budget if budget is not False else False,
            dependency=dep,
            method=method,
            clock=policy._clock,
        )
        self.tracker = LatencyTracker.for_dependency(dep) if policy.hedge else None
        self.holder = _ScopeHolder()
        self.run: Optional[_Run] = None

    def _has_key(self) -> bool:
        lowered = IDEMPOTENCY_HEADER.lower()
        return any(str(k).lower() == lowered for k in self.headers.keys())

    @property
    def idempotent(self) -> bool:
        return self.method in IDEMPOTENT_METHODS or self._has_key()

    def begin(self) -> None:
        self.holder.enter()
        if self.policy.auto_idempotency_key and not self.idempotent and self.method in ("POST", "PATCH"):
            self.headers[IDEMPOTENCY_HEADER] = idempotency_key()
        self.run = _Run(self.retry, method=self.method, keyed=self._has_key())

    def end(self) -> None:
        self.holder.exit()

    def prepare_attempt(self, cap: Optional[SplitTimeout]) -> SplitTimeout:
        assert self.run is not None
        self.run.start_attempt()
        read = self.policy.read if cap is None else min(self.policy.read, cap.read)
        connect = self.policy.connect if cap is None else min(self.policy.connect, cap.connect)
        t = timeout(read=read, connect=connect)
        if self.policy.propagate:
            ms = outbound_deadline_ms(self.policy.margin_ms)
            if ms is not None:
                self.headers[DEADLINE_HEADER] = str(ms)
        return t

    # -- one attempt: bulkhead outside, breaker inside --------------------------------------
    # The sync and async forms differ only in their I/O (taking a bulkhead slot, sending, hedging
    # in threads vs tasks); the breaker bookkeeping is PermitGuard and the hedge settings are
    # _hedge_kwargs, shared by both.
    def _permit_guard(self) -> PermitGuard:
        permit = self.breaker.allow() if self.breaker is not None else None
        return PermitGuard(permit, self.policy.clock)

    def _hedge_kwargs(self) -> Dict[str, Any]:
        return dict(
            idempotent=self.idempotent,
            budget=self.retry.budget,
            delay=self.policy.hedge_delay,
            tracker=self.tracker,
            dependency=self.dep,
            clock=self.policy._clock,
        )

    def attempt_sync(self, send: Callable[[], Any], discard: Callable[[Any], None]) -> Any:
        if self.bulkhead is not None:
            self.bulkhead.acquire()
        try:
            with self._permit_guard() as guard:
                if self.policy.hedge:
                    resp = hedged_call(send, discard=discard, **self._hedge_kwargs())
                else:
                    resp = send()
            return guard.record(resp)
        finally:
            if self.bulkhead is not None:
                self.bulkhead.release()

    async def attempt_async(self, send: Callable[[], Awaitable[Any]]) -> Any:
        if self.bulkhead is not None:
            await self.bulkhead.aacquire()
        try:
            with self._permit_guard() as guard:
                if self.policy.hedge:
                    resp = await ahedged_call(send, **self._hedge_kwargs())
                else:
                    resp = await send()
            return guard.record(resp)
        finally:
            if self.bulkhead is not None:
                self.bulkhead.release()


def run_sync(
    bound: _Bound,
    cap: Optional[SplitTimeout],
    send: Callable[[SplitTimeout], Any],
    close: Callable[[Any], None],
) -> Any:
    bound.begin()
    try:
        return _attempt_loop(
            bound.run,  # type: ignore[arg-type]
            lambda: bound.prepare_attempt(cap),
            lambda t: bound.attempt_sync(lambda: send(t), close),
            close,
            lambda delay: bound.policy.clock.sleep(delay),
        )
    finally:
        bound.end()


async def run_async(
    bound: _Bound,
    cap: Optional[SplitTimeout],
    send: Callable[[SplitTimeout], Awaitable[Any]],
    aclose: Callable[[Any], Awaitable[None]],
) -> Any:
    bound.begin()
    try:
        return await _aattempt_loop(
            bound.run,  # type: ignore[arg-type]
            lambda: bound.prepare_attempt(cap),
            lambda t: bound.attempt_async(lambda: send(t)),
            aclose,
            lambda delay: bound.policy.clock.asleep(delay),
        )
    finally:
        bound.end()
