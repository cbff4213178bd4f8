"""Bounded, jittered, budgeted, deadline-aware retries: ``retry`` and ``retrying``.

Policy, per logical operation:

* at most ``attempts`` attempts (default 3, i.e. two retries);
* only retryable outcomes are retried (see :mod:`.classify`): transport errors and timeouts,
  statuses 408/429/500/502/503/504 — never another 4xx, never a programming error;
* before retry ``n`` (0-based) sleep ``uniform(0, min(cap, base * 2**n))`` (full jitter),
  or exactly the server's ``Retry-After`` when it sent one no larger than ``retry_after_cap``
  (a larger one ends the loop: the server will not be ready in time);
* never sleep past the deadline: if the pause would end at or after it (or leave less than the
  HTTP adapters' propagation margin), stop with :class:`DeadlineExceeded` instead;
* a retry after a health failure spends one token of the dependency's :class:`RetryBudget`;
  when none is left, stop with :class:`RetryBudgetExhausted` (no sleep, no extra call);
* non-idempotent operations (``method="POST"``/``"PATCH"``) are retried only when an
  idempotency key exists for the operation (:func:`idempotency_key` was called in the scope) or
  the caller declares ``idempotent=True``.

When the attempts run out, the last outcome is returned (a response) or re-raised (an
exception). When a policy stops the loop early, the policy's exception is raised, chained to the
last error (``__cause__``) and carrying the last response in ``.response``. That response has
been closed (its connection is back in the pool): read what you need from it, nothing to close.
"""

from __future__ import annotations

import functools
import inspect
import sys
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, Optional, Tuple, Type, TypeVar, overload

from . import metrics as _metrics
from ._clock import Clock, get_clock
from ._validate import require_int, require_number
from .budget import BudgetArg, RetryBudget, resolve_budget
from .classify import Verdict, classify as _default_classify
from .deadline import current_deadline
from .errors import DeadlineExceeded, ResilienceError, RetryBudgetExhausted
from .idempotency import IDEMPOTENT_METHODS, OperationScope, _scope

__all__ = ["RetryPolicy", "retry", "retrying", "Attempt", "backoff_delay", "full_jitter"]

A = TypeVar("A")
R = TypeVar("R")

if TYPE_CHECKING:  # for type checkers only: the runtime imports nothing outside the stdlib
    from typing import Protocol, TypedDict

    from typing_extensions import ParamSpec, Unpack

    P = ParamSpec("P")

    class _LoopOptions(TypedDict, total=False):
        """The keyword arguments of :class:`retrying` besides ``attempts``."""

        base: float
        cap: float
        retry_after_cap: float
        budget: BudgetArg
        dependency: Optional[str]
        method: Optional[str]
        idempotent: Optional[bool]
        retry_on: Tuple[Type[BaseException], ...]
        classify: Optional[Callable[[Any], Verdict]]
        clock: Optional[Clock]
        policy: "RetryPolicy"

    class RetryOptions(_LoopOptions, total=False):
        """The keyword arguments of :func:`retry`."""

        attempts: int

    class _RetryDecorator(Protocol):
        def __call__(self, fn: Callable[P, R], /) -> Callable[P, R]: ...


def backoff_delay(retry_index: int, base: float = 0.1, cap: float = 5.0, clock: Optional[Clock] = None) -> float:
    """Full-jitter backoff: ``uniform(0, min(cap, base * 2**retry_index))``."""
    return full_jitter(min(cap, base * (2 ** min(retry_index, 62))), clock)


def full_jitter(seconds: float, clock: Optional[Clock] = None) -> float:
    """A uniform draw in ``[0, seconds]``: the full-jitter form of a delay computed elsewhere
    (what the RES202 fix wraps a hand-written loop's ``sleep`` argument in)."""
    return get_clock(clock).uniform(0.0, max(0.0, seconds))


class RetryPolicy:
    """Configuration shared by :func:`retry`, :func:`retrying` and the HTTP adapters.

    ``budget``: a :class:`RetryBudget`, a dependency name, ``None`` (use the shared budget of
    ``dependency``, or of ``"default"``), or ``False`` (no budget — not recommended).
    ``retry_on``: extra exception types to treat as transient (they spend the budget too); the
    runtime's own refusals (:class:`ResilienceError`) are never retried, even when listed.
    ``classify``: replace the outcome classifier entirely (``outcome -> Verdict``).
    """

    def __init__(
        self,
        attempts: int = 3,
        *,
        base: float = 0.1,
        cap: float = 5.0,
        retry_after_cap: float = 10.0,
        budget: BudgetArg = None,
        dependency: Optional[str] = None,
        method: Optional[str] = None,
        idempotent: Optional[bool] = None,
        retry_on: Tuple[Type[BaseException], ...] = (),
        classify: Optional[Callable[[Any], Verdict]] = None,
        clock: Optional[Clock] = None,
    ) -> None:
        require_int("attempts", attempts)
        for label, seconds in (("base", base), ("cap", cap), ("retry_after_cap", retry_after_cap)):
            require_number(label, seconds)
        if isinstance(retry_on, type):
            retry_on = (retry_on,)  # retry_on=ConnectionError: what was meant is clear
        retry_on = tuple(retry_on)
        if not all(isinstance(t, type) and issubclass(t, BaseException) for t in retry_on):
            raise TypeError(f"retry_on must be a tuple of exception types, got {retry_on!r}")
        if attempts < 1:
            raise ValueError("attempts must be >= 1")
        if base < 0 or cap < 0 or retry_after_cap < 0:
            raise ValueError("base, cap and retry_after_cap must be >= 0")
        self.attempts = attempts
        self.base = base
        self.cap = cap
        self.retry_after_cap = retry_after_cap
        self.dependency = dependency
        self.method = method.upper() if method else None
        self.idempotent = idempotent
        self.retry_on = tuple(retry_on)
        self.classify = classify
        self._clock = clock
        self.budget = resolve_budget(budget, dependency)
        if self.budget is not None:
            if self.dependency is None:
                self.dependency = self.budget.name
            elif self.budget.name is None:
                self.budget.name = self.dependency

    @property
    def clock(self) -> Clock:
        """The clock in use: the one given, else the process-wide default at this moment."""
        return get_clock(self._clock)

    def __repr__(self) -> str:
        budget = "None" if self.budget is None else repr(self.budget.name)
        extra = "".join(
            f", {name}={value!r}"
            for name, value in (
                ("method", self.method),
                ("idempotent", self.idempotent),
                ("retry_on", tuple(t.__name__ for t in self.retry_on) or None),
                ("classify", self.classify),
            )
            if value is not None
        )
        return (
            f"RetryPolicy(attempts={self.attempts}, base={self.base}, cap={self.cap}, "
            f"retry_after_cap={self.retry_after_cap}, dependency={self.dependency!r}, budget={budget}{extra})"
        )

    def verdict(self, outcome: Any) -> Verdict:
        """How this policy judges ``outcome`` (a response or an exception)."""
        if self.classify is not None:
            return self.classify(outcome)
        # DeadlineExceeded is a TimeoutError, hence an OSError: ``retry_on=(OSError,)`` must
        # still never repeat the runtime's own refusals
        if self.retry_on and isinstance(outcome, self.retry_on) and not isinstance(outcome, ResilienceError):
            return Verdict(False, True, True, f"retry_on: {type(outcome).__name__}")
        return _default_classify(outcome, self.clock.time())


class _Run:
    """State of one logical operation under a policy.

    ``keyed``: whether the request carries an idempotency key. ``None`` (``retry``/``retrying``)
    means "if :func:`idempotency_key` was called in the operation scope"; the adapters pass what
    the request's own headers say, so another request's key never makes this one repeatable.
    ``reserve``: seconds an attempt needs beyond its pause to be worth starting (the adapters'
    propagation margin: a request that would tell the callee "0 ms left" is not sent).
    """

    def __init__(
        self, policy: RetryPolicy, method: Optional[str] = None, keyed: Optional[bool] = None, reserve: float = 0.0
    ) -> None:
        self.p = policy
        self.attempt = 0
        self.method = (method or policy.method or "").upper() or None
        self.keyed = keyed
        self.reserve = reserve
        self.last_verdict: Optional[Verdict] = None
        self.last_response: Any = None
        self.last_error: Optional[BaseException] = None

    def refuse(self, message: str, what: str) -> DeadlineExceeded:
        """The :class:`DeadlineExceeded` that ends the loop, carrying the last response (in
        ``.response``) and the last error (as ``__cause__``) of the attempts made so far."""
        _metrics.emit("deadline_refused", self.p.dependency, what=what)
        err = DeadlineExceeded(message, response=self.last_response)
        err.__cause__ = self.last_error
        return err

    def start_attempt(self) -> None:
        d = current_deadline()
        if d is not None and d.expired:
            after = f" after {self.last_verdict.reason}" if self.last_verdict else ""
            raise self.refuse(f"deadline exceeded before attempt {self.attempt + 1}{after}", f"attempt {self.attempt + 1}")
        self.attempt += 1
        if self.attempt == 1:
            if self.p.budget is not None:
                self.p.budget.deposit()
            _metrics.emit("first_attempt", self.p.dependency, attempt=1, reason="first attempt")
        else:
            _metrics.emit("retry", self.p.dependency, attempt=self.attempt, reason=self.last_verdict.reason if self.last_verdict else "")

    def may_repeat(self) -> bool:
        if self.p.idempotent is not None:
            return self.p.idempotent
        if self.method is None or self.method in IDEMPOTENT_METHODS:
            return True
        if self.keyed is not None:
            return self.keyed
        scope = _scope.get()
        return scope is not None and scope.key_issued

    def decide(self, outcome: Any) -> Optional[float]:
        """Seconds to wait before the next attempt, or ``None`` to stop with ``outcome``.
        Raises DeadlineExceeded / RetryBudgetExhausted when a policy ends the loop early."""
        if isinstance(outcome, DeadlineExceeded) and outcome.response is None and outcome.__cause__ is None:
            # refused inside the attempt (a bulkhead queue, a nested call): it ends the loop like
            # every other deadline stop, with what the earlier attempts got
            outcome.response, outcome.__cause__ = self.last_response, self.last_error
        verdict = self.p.verdict(outcome)
        self.last_verdict = verdict
        if isinstance(outcome, BaseException):
            self.last_response, self.last_error = None, outcome
        else:
            self.last_response, self.last_error = outcome, None
        if verdict.ok or not verdict.retryable:
            return None
        if self.attempt >= self.p.attempts or not self.may_repeat():
            return None
        if verdict.retry_after is not None:
            if verdict.retry_after > self.p.retry_after_cap:
                return None
            delay = verdict.retry_after
        else:
            delay = backoff_delay(self.attempt - 1, self.p.base, self.p.cap, self.p._clock)
        d = current_deadline()
        if d is not None and delay + self.reserve >= d.remaining():
            raise self.refuse(
                f"not retrying: a {delay * 1000:.0f} ms pause would end past the deadline "
                f"({d.remaining() * 1000:.0f} ms left) after {verdict.reason}",
                "retry after backoff",
            )
        if verdict.health_failure and self.p.budget is not None:
            if not self.p.budget.try_spend("retry"):
                err = RetryBudgetExhausted(self.p.dependency, response=self.last_response)
                err.__cause__ = self.last_error
                raise err
        return delay


def _close(response: Any) -> None:
    close = getattr(response, "close", None)
    if callable(close) and not inspect.iscoroutinefunction(close):
        try:
            close()
        except Exception:
            pass


async def _aclose(response: Any) -> None:
    aclose = getattr(response, "aclose", None)
    if callable(aclose):
        await aclose()
    else:
        _close(response)


# The attempt loop, once for threads and once for asyncio. Everything that decides (deadline
# checks, classification, budget, backoff) lives in ``_Run``; these two only do the I/O, and they
# cannot be one function because the async one must ``await`` the call, the close and the sleep.
# ``start()`` begins an attempt (its errors end the loop unclassified) and returns what ``call``
# takes. A response that is not returned is closed: before the pause when it is retried, and
# before the exception when a policy ends the loop (the exception only carries it, closed).
def _attempt_loop(
    run: _Run,
    start: Callable[[], A],
    call: Callable[[A], Any],
    close: Callable[[Any], None],
    sleep: Callable[[float], None],
) -> Any:
    while True:
        arg = start()
        try:
            result = call(arg)
        except Exception as exc:
            delay = run.decide(exc)
            if delay is None:
                raise
        else:
            try:
                delay = run.decide(result)
            except ResilienceError:
                close(result)
                raise
            if delay is None:
                return result
            close(result)
        sleep(delay)


async def _aattempt_loop(
    run: _Run,
    start: Callable[[], A],
    call: Callable[[A], Awaitable[Any]],
    aclose: Callable[[Any], Awaitable[None]],
    asleep: Callable[[float], Awaitable[None]],
) -> Any:
    while True:
        arg = start()
        try:
            result = await call(arg)
        except Exception as exc:
            delay = run.decide(exc)
            if delay is None:
                raise
        else:
            try:
                delay = run.decide(result)
            except ResilienceError:
                await aclose(result)
                raise
            if delay is None:
                return result
            await aclose(result)
        await asleep(delay)


class _ScopeHolder:
    """Opens an operation scope unless one is already open; resets it exactly once."""

    def __init__(self) -> None:
        self.token: Any = None

    def enter(self) -> None:
        if _scope.get() is None:
            self.token = _scope.set(OperationScope())

    def exit(self) -> None:
        if self.token is not None:
            try:
                _scope.reset(self.token)
            except ValueError:  # reset from another context; harmless
                pass
            self.token = None


def _own_budget(kwargs: Dict[str, Any], site: str) -> Dict[str, Any]:
    """Without ``dependency``/``budget``/``policy``, a retry scope gets the budget of the place
    it is written (``site``), like a dependency of its own: unrelated retry sites never drain
    each other's budget, and the same site shares one across calls."""
    if "policy" not in kwargs and kwargs.get("budget") is None and kwargs.get("dependency") is None:
        kwargs["budget"] = RetryBudget.for_dependency(site)
    return kwargs


def _policy_from(kwargs: Dict[str, Any]) -> RetryPolicy:
    policy: Optional[RetryPolicy] = kwargs.pop("policy", None)
    if policy is not None:
        if kwargs:
            raise TypeError("pass either policy= or policy keyword arguments, not both")
        return policy
    return RetryPolicy(**kwargs)


@overload
def retry(fn: Callable[P, R], /, **kwargs: Unpack[RetryOptions]) -> Callable[P, R]: ...


@overload
def retry(fn: None = None, /, **kwargs: Unpack[RetryOptions]) -> _RetryDecorator: ...


def retry(fn: Optional[Callable[..., Any]] = None, /, **kwargs: Any) -> Any:
    """Decorator (sync or ``async def``): ``@retry`` or ``@retry(attempts=3, dependency="x")``.

    Accepts the :class:`RetryPolicy` keyword arguments (or ``policy=``). Without ``dependency``
    or ``budget`` the function gets its own budget named after it (``module.qualname``). The
    decorated function keeps its signature and return type (for type checkers too).
    """
    if fn is None:
        # a misspelt or mistyped setting fails here, at the decorator (budget=False: no side effect)
        _policy_from(dict(kwargs) if "policy" in kwargs else dict(kwargs, budget=False))
        return lambda f: retry(f, **kwargs)
    if not callable(fn):
        raise TypeError(
            f"retry() decorates a function, got {fn!r}; its settings are keyword arguments, "
            f"e.g. @retry(attempts={fn!r})" if isinstance(fn, int) else
            f"retry() decorates a function, got {fn!r}; its settings are keyword arguments"
        )
    site = f"{getattr(fn, '__module__', None)}.{getattr(fn, '__qualname__', type(fn).__name__)}"
    policy = _policy_from(_own_budget(dict(kwargs), site))

    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def async_wrapper(*args: Any, **kw: Any) -> Any:
            holder = _ScopeHolder()
            holder.enter()
            try:
                run = _Run(policy)
                return await _aattempt_loop(
                    run, run.start_attempt, lambda _: fn(*args, **kw), _aclose, lambda d: policy.clock.asleep(d)
                )
            finally:
                holder.exit()

        async_wrapper.retry_policy = policy  # type: ignore[attr-defined]
        return async_wrapper

    @functools.wraps(fn)
    def wrapper(*args: Any, **kw: Any) -> Any:
        holder = _ScopeHolder()
        holder.enter()
        try:
            run = _Run(policy)
            return _attempt_loop(run, run.start_attempt, lambda _: fn(*args, **kw), _close, lambda d: policy.clock.sleep(d))
        finally:
            holder.exit()

    wrapper.retry_policy = policy  # type: ignore[attr-defined]
    return wrapper


class Attempt:
    """One attempt of a :class:`retrying` loop; use it as ``with attempt:``.

    Exceptions worth retrying are swallowed by the ``with`` (the loop goes on); the final one
    propagates. Call :meth:`check` with a response so its status is judged too.
    """

    def __init__(self, loop: "_RetryLoop", number: int) -> None:
        self._loop = loop
        self.number = number
        self.result: Any = None
        self._has_result = False

    def check(self, response: Any) -> Any:
        """Record a response (its status decides whether to retry) and return it."""
        self.result = response
        self._has_result = True
        return response

    @property
    def idempotency_key(self) -> str:
        """The operation's key: the same on every attempt of this loop (see
        :func:`~.idempotency.idempotency_key`)."""
        from .idempotency import idempotency_key

        return idempotency_key()

    def __enter__(self) -> "Attempt":
        return self

    def __exit__(self, exc_type: Any, exc: Optional[BaseException], tb: Any) -> bool:
        return self._loop._after(self, exc)

    async def __aenter__(self) -> "Attempt":
        return self

    async def __aexit__(self, exc_type: Any, exc: Optional[BaseException], tb: Any) -> bool:
        return self._loop._after(self, exc)


class retrying:  # noqa: N801 - reads like a function in ``for attempt in retrying():``
    """Loop form of :func:`retry`, sync and async::

        for attempt in retrying(attempts=3, dependency="search"):
            with attempt:
                resp = attempt.check(session.get(url, timeout=timeout(read=2)))

        async for attempt in retrying(dependency="search"):
            with attempt:
                resp = attempt.check(await client.get(url))

    Without ``dependency``/``budget`` the loop gets its own budget, named after where it is
    written (``"module:line"``), as :func:`retry` names one after the decorated function.

    The object is reusable: each ``for``/``async for`` over it is a new logical operation (its
    own attempts, its own idempotency key), so one ``retrying(...)`` can be kept and looped over
    again, from several threads or tasks at once.
    """

    def __init__(self, attempts: int = 3, **kwargs: "Unpack[_LoopOptions]") -> None:
        settings: Dict[str, Any] = dict(kwargs)
        if "policy" not in settings:
            settings["attempts"] = attempts
        caller = sys._getframe(1)
        self.policy = _policy_from(_own_budget(settings, f"{caller.f_globals.get('__name__')}:{caller.f_lineno}"))

    def __iter__(self) -> "_RetryLoop":
        """A new operation: its attempts, one by one."""
        return _RetryLoop(self.policy)

    def __aiter__(self) -> "_RetryLoop":
        """A new operation, for ``async for``."""
        return _RetryLoop(self.policy)

    def __repr__(self) -> str:
        return f"retrying({self.policy!r})"


class _RetryLoop:
    """One operation of a :class:`retrying` loop: the state of its attempts."""

    def __init__(self, policy: RetryPolicy) -> None:
        self.policy = policy
        self._run: Optional[_Run] = None
        self._holder = _ScopeHolder()
        self._delay: Optional[float] = None
        self._current: Optional[Attempt] = None
        self._done = False

    # shared ------------------------------------------------------------------------------
    def _after(self, attempt: Attempt, exc: Optional[BaseException]) -> bool:
        if exc is not None and not isinstance(exc, Exception):
            self._finish()
            return False
        outcome: Any = exc if exc is not None else (attempt.result if attempt._has_result else None)
        try:
            delay = self._run.decide(outcome) if self._run else None
        except BaseException:
            self._finish()
            if outcome is not None and not isinstance(outcome, BaseException):
                _close(outcome)
            raise
        if delay is None:
            self._finish()
            return False  # success: nothing to swallow; final failure: let it propagate
        if outcome is not None and not isinstance(outcome, BaseException):
            _close(outcome)
        self._delay = delay
        return exc is not None

    def _finish(self) -> None:
        self._done = True
        self._holder.exit()

    def _next_attempt(self) -> Attempt:
        if self._run is None:
            self._holder.enter()
            self._run = _Run(self.policy)
        try:
            self._run.start_attempt()
        except BaseException:
            self._finish()
            raise
        self._current = Attempt(self, self._run.attempt)
        return self._current

    def _should_stop(self) -> bool:
        if self._done:
            return True
        if self._current is not None and self._delay is None:
            # the body did not use ``with attempt:``; treat the attempt as final
            self._finish()
            return True
        return False

    # sync --------------------------------------------------------------------------------
    def __iter__(self) -> "_RetryLoop":
        return self

    def __next__(self) -> Attempt:
        if self._should_stop():
            raise StopIteration
        if self._delay is not None:
            delay, self._delay = self._delay, None
            self.policy.clock.sleep(delay)
        return self._next_attempt()

    # async -------------------------------------------------------------------------------
    def __aiter__(self) -> "_RetryLoop":
        return self

    async def __anext__(self) -> Attempt:
        if self._should_stop():
            raise StopAsyncIteration
        if self._delay is not None:
            delay, self._delay = self._delay, None
            await self.policy.clock.asleep(delay)
        return self._next_attempt()
