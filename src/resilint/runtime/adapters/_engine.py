"""The per-request pipeline shared by every HTTP adapter (no client library imported here).

For each logical request::

    add an Idempotency-Key once if asked (auto_idempotency_key): the same on every attempt
    repeat (bounded by RetryPolicy):
        refuse if the deadline has passed
        bulkhead slot (waiting at most until the deadline)  ->  breaker permit
        [hedged] for each copy, at the moment it is sent (never before the slot wait):
            timeout = min(configured, remaining deadline)
            X-Resilint-Deadline-Ms = remaining - margin     -> refused when nothing is left
            send and read the body (unless the caller streams it): a connection dropped
            mid-body is a failed attempt like any other; asyncio: the whole copy, body
            included, is bounded by the remaining deadline
        record result; classify; maybe sleep (jittered, budgeted, never past the deadline)

Each copy holds a bulkhead slot until *it* ends (a hedge leaves only if a slot is free at once),
so a losing hedge still running counts against the bulkhead's bound.

A response the caller does not get (a retried one, a hedge loser, the one an exception carries)
is closed by the adapter's ``release`` (its body was read within the attempt), so its pooled
connection is free again.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, MutableMapping, NamedTuple, Optional, Union

from .._clock import Clock, get_clock
from .._validate import require_int, require_number
from ..breaker import CircuitBreaker, PermitGuard
from ..budget import BudgetArg, resolve_budget
from ..bulkhead import Bulkhead
from ..deadline import remaining
from ..errors import ResilienceError
from ..hedging import LatencyTracker, ahedged_call, hedged_call
from ..idempotency import IDEMPOTENCY_HEADER, IDEMPOTENT_METHODS, request_key
from ..propagation import DEADLINE_HEADER, DEFAULT_MARGIN_MS, deadline_ms
from ..retry import RetryPolicy, _aattempt_loop, _attempt_loop, _Run
from ..timeouts import DEFAULT_CONNECT, DEFAULT_FACTOR, DEFAULT_READ, SplitTimeout, clamped

__all__ = ["HttpPolicy", "AttemptSpec"]

ComponentArg = Union[None, bool, Any]

if TYPE_CHECKING:  # for type checkers only: the runtime imports nothing outside the stdlib
    from typing import TypedDict


    class PolicyOptions(TypedDict, total=False):
        """The keyword arguments of :class:`HttpPolicy`, for ``**policy_kwargs: Unpack[...]``."""

        dependency: Optional[str]
        attempts: int
        base: float
        cap: float
        retry_after_cap: float
        read: float
        connect: float
        budget: BudgetArg
        breaker: Union[None, bool, CircuitBreaker]
        bulkhead: Union[None, bool, Bulkhead]
        propagate: bool
        margin_ms: int
        hedge: bool
        hedge_delay: Optional[float]
        auto_idempotency_key: bool
        clock: Optional[Clock]


class AttemptSpec(NamedTuple):
    """What one copy of a request is sent with, computed when it leaves: its timeout (clamped to
    the deadline left at that moment) and the headers to add (the deadline header)."""

    timeout: SplitTimeout
    headers: Dict[str, str]


class HttpPolicy:
    """Everything an adapter applies to a request.

    ``dependency``: name used for the shared budget/breaker/bulkhead/latency registries; by
    default the request's ``host:port``. ``breaker`` / ``bulkhead``: an instance, ``True`` (the
    registry's per-dependency default) or ``None`` (off). A breaker without its own
    ``slow_call_duration`` counts a call as slow from ``read / 1.4`` (the healthy p99 the read
    timeout stands for). ``budget``: a :class:`RetryBudget`, ``None`` (per-dependency shared
    budget) or ``False`` (off). ``hedge``: off by default; when on, idempotent or keyed requests
    slower than the dependency's p95 get one hedge, paid from the budget.
    ``auto_idempotency_key``: add an ``Idempotency-Key`` to each POST/PATCH request that has
    none (a new key per request, the same on its attempts; the key of an enclosing
    ``idempotency_scope()`` if there is one), which makes them retryable.
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
        budget: BudgetArg = None,
        breaker: ComponentArg = None,
        bulkhead: ComponentArg = None,
        propagate: bool = True,
        margin_ms: int = DEFAULT_MARGIN_MS,
        hedge: bool = False,
        hedge_delay: Optional[float] = None,
        auto_idempotency_key: bool = False,
        clock: Optional[Clock] = None,
    ) -> None:
        require_int("attempts", attempts)
        for label, seconds in (("base", base), ("cap", cap), ("retry_after_cap", retry_after_cap), ("read", read), ("connect", connect)):
            require_number(label, seconds)
        require_number("hedge_delay", hedge_delay, optional=True)
        if dependency is not None and not isinstance(dependency, str):
            raise TypeError(f"dependency must be a name (str) or None, got {dependency!r}")
        if attempts < 1 or read <= 0 or connect <= 0:
            raise ValueError("attempts must be >= 1, read and connect > 0")
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
        """The clock in use: the one given, else the process-wide default at this moment."""
        return get_clock(self._clock)

    def __repr__(self) -> str:
        def shown(value: Any) -> str:
            name = getattr(value, "name", None)
            return f"<{type(value).__name__} {name!r}>" if isinstance(value, (CircuitBreaker, Bulkhead)) else repr(value)

        return (
            f"HttpPolicy(dependency={self.dependency!r}, attempts={self.attempts}, base={self.base}, cap={self.cap}, "
            f"retry_after_cap={self.retry_after_cap}, read={self.read}, connect={self.connect}, "
            f"budget={shown(self.budget)}, breaker={shown(self.breaker)}, bulkhead={shown(self.bulkhead)}, "
            f"propagate={self.propagate}, margin_ms={self.margin_ms}, hedge={self.hedge}, "
            f"hedge_delay={self.hedge_delay}, auto_idempotency_key={self.auto_idempotency_key})"
        )

    def _component(self, value: ComponentArg, cls: Any, dep: str) -> Any:
        if value is None or value is False:
            return None
        if value is True:
            return cls.for_dependency(dep)
        return value

    def bind(
        self,
        host: str,
        method: str,
        headers: MutableMapping[str, Any],
        repeatable_body: bool = True,
        cap: Optional[SplitTimeout] = None,
    ) -> "_Bound":
        """One logical request; ``cap`` is the request's own ``timeout=`` (an upper bound)."""
        return _Bound(self, self.dependency or host or "default", method.upper(), headers, repeatable_body, cap)


class _Bound:
    """One logical request under a policy."""

    def __init__(
        self,
        policy: HttpPolicy,
        dep: str,
        method: str,
        headers: MutableMapping[str, Any],
        repeatable: bool,
        cap: Optional[SplitTimeout],
    ) -> None:
        self.policy = policy
        self.dep = dep
        self.method = method
        self.headers = headers
        self.repeatable = repeatable
        # the per-attempt ceiling: the policy's timeouts, lowered by the request's own timeout=
        self.limit = SplitTimeout(
            connect=policy.connect if cap is None else min(policy.connect, cap.connect),
            read=policy.read if cap is None else min(policy.read, cap.read),
        )
        self.breaker: Optional[CircuitBreaker] = policy._component(policy.breaker, CircuitBreaker, dep)
        self.bulkhead: Optional[Bulkhead] = policy._component(policy.bulkhead, Bulkhead, dep)
        self.retry = RetryPolicy(
            policy.attempts if repeatable else 1,
            base=policy.base,
            cap=policy.cap,
            retry_after_cap=policy.retry_after_cap,
            budget=resolve_budget(policy.budget, dep) or False,
            dependency=dep,
            method=method,
            clock=policy._clock,
        )
        self.tracker = LatencyTracker.for_dependency(dep) if policy.hedge else None
        self.margin_ms = policy.margin_ms if policy.propagate else 0
        self.run = _Run(self.retry, method=method, reserve=self.margin_ms / 1000.0)

    def _has_key(self) -> bool:
        lowered = IDEMPOTENCY_HEADER.lower()
        return any(str(k).lower() == lowered for k in self.headers.keys())

    @property
    def idempotent(self) -> bool:
        return self.method in IDEMPOTENT_METHODS or self._has_key()

    def begin(self) -> None:
        if self.policy.auto_idempotency_key and not self.idempotent and self.method in ("POST", "PATCH"):
            self.headers[IDEMPOTENCY_HEADER] = request_key()
        # Only this request's own header makes it repeatable, never a key issued for another.
        self.run.keyed = self._has_key()

    def spec(self) -> AttemptSpec:
        """The timeout and deadline header of a copy about to be sent (see :class:`AttemptSpec`);
        refuses, with the last response and error, when nothing would be left for the callee."""
        left = remaining()
        ms = deadline_ms(left, self.margin_ms)
        if ms is not None and ms <= 0:
            raise self.run.refuse(
                f"attempt {self.run.attempt} not sent: {ms + self.margin_ms} ms left of the deadline, "
                f"nothing beyond the {self.margin_ms} ms margin for the callee",
                "outbound propagation",
            )
        headers = {DEADLINE_HEADER: str(ms)} if ms is not None and self.policy.propagate else {}
        return AttemptSpec(clamped(self.limit, left), headers)

    # -- one attempt: bulkhead outside, breaker inside --------------------------------------
    # The sync and async forms differ only in their I/O (taking a bulkhead slot, sending, hedging
    # in threads vs tasks); the breaker bookkeeping is PermitGuard, the slots _CopySlots and the
    # hedge settings _hedge_kwargs, shared by both.
    def _permit_guard(self) -> PermitGuard:
        permit = self.breaker.allow(slow_after=self.limit.read / DEFAULT_FACTOR) if self.breaker is not None else None
        return PermitGuard(permit, self.policy.clock)

    def _hedge_kwargs(self, slots: "_CopySlots") -> Dict[str, Any]:
        return dict(
            admit=slots.admit_hedge,
            unadmit=slots.unadmit_hedge,
            idempotent=self.idempotent and self.repeatable,
            budget=self.retry.budget or False,
            delay=self.policy.hedge_delay,
            tracker=self.tracker,
            dependency=self.dep,
            clock=self.policy._clock,
            attempt=self.run.attempt,
        )

    def attempt_sync(self, send: Callable[[AttemptSpec], Any], release: Callable[[Any], None]) -> Any:
        slots = _CopySlots(self.bulkhead)
        slots.acquire_first()

        def send_copy() -> Any:
            with slots.claim():
                return send(self.spec())

        try:
            with self._permit_guard() as guard:
                if self.policy.hedge:
                    resp = hedged_call(send_copy, discard=release, **self._hedge_kwargs(slots))
                else:
                    resp = send_copy()
            return guard.record(resp)
        finally:
            slots.settle()

    async def attempt_async(
        self, send: Callable[[AttemptSpec], Awaitable[Any]], arelease: Callable[[Any], Awaitable[None]]
    ) -> Any:
        slots = _CopySlots(self.bulkhead)
        await slots.aacquire_first()

        async def send_copy() -> Any:
            with slots.claim():
                return await _within_deadline(send(self.spec()))

        try:
            with self._permit_guard() as guard:
                if self.policy.hedge:
                    resp = await ahedged_call(send_copy, discard=arelease, **self._hedge_kwargs(slots))
                else:
                    resp = await send_copy()
            return guard.record(resp)
        finally:
            slots.settle()


class _CopySlots:
    """The bulkhead slots of one attempt's copies: the first copy's, taken (waiting in the
    queue if need be) before anything else, and one per hedge, taken only if free at once.
    Each copy gives its slot back when *it* ends, not when the caller gets an answer: a losing
    hedge that cannot be interrupted still counts against the bound while it runs."""

    def __init__(self, bulkhead: Optional[Bulkhead]) -> None:
        self.bulkhead = bulkhead
        self._lock = threading.Lock()
        self._unclaimed = 0

    def acquire_first(self) -> None:
        if self.bulkhead is not None:
            self.bulkhead.acquire()
            self._unclaimed = 1

    async def aacquire_first(self) -> None:
        if self.bulkhead is not None:
            await self.bulkhead.aacquire()
            self._unclaimed = 1

    def admit_hedge(self) -> bool:
        if self.bulkhead is None:
            return True
        if not self.bulkhead.try_acquire():
            return False
        with self._lock:
            self._unclaimed += 1
        return True

    def unadmit_hedge(self) -> None:
        with self._lock:
            if self._unclaimed <= 0:
                return
            self._unclaimed -= 1
        self.bulkhead.release()  # type: ignore[union-attr]

    def claim(self) -> "_Claim":
        """A copy starting: it owns one of the slots until it ends."""
        return _Claim(self)

    def settle(self) -> None:
        """The caller is done: give back a slot no copy claimed (none was sent)."""
        if self.bulkhead is not None:
            with self._lock:
                unclaimed, self._unclaimed = self._unclaimed, 0
            for _ in range(unclaimed):
                self.bulkhead.release()


class _Claim:
    __slots__ = ("slots", "owned")

    def __init__(self, slots: _CopySlots) -> None:
        self.slots = slots
        self.owned = False

    def __enter__(self) -> None:
        slots = self.slots
        if slots.bulkhead is not None:
            with slots._lock:
                if slots._unclaimed > 0:
                    slots._unclaimed -= 1
                    self.owned = True

    def __exit__(self, *exc: Any) -> None:
        if self.owned:
            self.slots.bulkhead.release()  # type: ignore[union-attr]


async def _within_deadline(awaitable: Awaitable[Any]) -> Any:
    """Await one attempt for no longer than the deadline leaves: connect, headers, everything.

    When the time is up the attempt is cancelled (httpx then drops its connection) and a plain
    ``TimeoutError`` is raised, as a client's own read timeout would be: the dependency did not
    answer in the time it had, which the breaker counts; the retry loop then ends with
    ``DeadlineExceeded`` chained to it.
    """
    import asyncio

    left = remaining()
    if left is None:
        return await awaitable
    try:
        return await asyncio.wait_for(awaitable, left)
    except ResilienceError:  # a refusal from inside (on 3.11+ it is also an asyncio.TimeoutError)
        raise
    except asyncio.TimeoutError:
        raise TimeoutError(f"attempt cut: no answer within the {left * 1000:.0f} ms left of the deadline") from None


def run_sync(bound: _Bound, send: Callable[[AttemptSpec], Any], release: Callable[[Any], None]) -> Any:
    bound.begin()
    return _attempt_loop(
        bound.run,
        bound.run.start_attempt,
        lambda _: bound.attempt_sync(send, release),
        release,
        lambda delay: bound.policy.clock.sleep(delay),
    )


async def run_async(
    bound: _Bound,
    send: Callable[[AttemptSpec], Awaitable[Any]],
    arelease: Callable[[Any], Awaitable[None]],
) -> Any:
    bound.begin()
    return await _aattempt_loop(
        bound.run,
        bound.run.start_attempt,
        lambda _: bound.attempt_async(send, arelease),
        arelease,
        lambda delay: bound.policy.clock.asleep(delay),
    )
