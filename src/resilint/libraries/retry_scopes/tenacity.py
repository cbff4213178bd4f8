"""tenacity: ``@retry(...)``, ``Retrying``/``AsyncRetrying`` loops and calls, ``fn.retry_with(...)``."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.conditions import raised_on_polled_state
from resilint.libraries.retry_scopes.decorators import decorator_policy
from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    ON_RESULT,
    ON_SPECIFIC,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_JITTERED,
    WAIT_NONE,
    Limit,
    Policy,
    RetryScope,
    Setting,
    bounded_kind,
)
from resilint.libraries.retry_scopes.names import normalise
from resilint.libraries.retry_scopes.tenacity_callables import project_callable, retry_on_of, stop_of, wait_of
from resilint.lint.nodes import call_argument, code_of, keyword_args
from resilint.lint.semantic import CallSite, ClassInfo, FunctionInfo, QName, Scope
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

DECORATOR = "tenacity.retry"
OBJECTS = frozenset({"tenacity.Retrying", "tenacity.AsyncRetrying", "tenacity.TornadoRetrying"})


def build_policy(
    rec: Recogniser, node: cst.CSTNode, scope: Scope, order: int, kind: str,
    keywords: Optional[Dict[str, cst.Arg]] = None, star: bool = False,
) -> Policy:
    if keywords is None:
        keywords, star = rec.keywords(node, scope, order) if isinstance(node, cst.Call) else ({}, False)
    policy = Policy("tenacity", kind, node, scope=scope, order=order)
    # stop
    stop = keywords.get("stop")
    if stop is None:
        if star:
            policy.attempts = Setting(UNKNOWN)
        else:
            policy.attempts = Setting("unbounded", None, "tenacity never stops retrying unless given `stop=`")
            policy.max_attempts = policy.time_limit = None
    else:
        attempts, seconds = _stop(rec, stop.value, scope, order)
        policy.max_attempts, policy.time_limit = attempts, seconds
        stopped = rec.follow(stop.value, scope, order)
        if attempts == UNKNOWN and isinstance(stopped, cst.Call) and stopped.args and (
                rec.expr_name(stopped.func, scope, order) == "tenacity.stop_after_attempt"):
            policy.counted_from = (stopped.args[0].value, 0)  # another module's constant, which the project knows
        bounded = bounded_kind(attempts, seconds)
        detail = f"`stop={code_of(stop.value)}` never stops" if bounded == "unbounded" else ""
        policy.attempts = Setting(bounded, stop.value, detail)
    policy.wait = _keyword_setting(
        rec, keywords.get("wait"), star, _wait, scope, order,
        Setting(WAIT_NONE, None, "tenacity waits nothing between attempts by default"),
    )
    policy.retry_on = _keyword_setting(
        rec, keywords.get("retry"), star, _retry_on, scope, order,
        Setting(ON_ANY, None, "tenacity retries every exception by default (no `retry=`)"),
    )
    retry = keywords.get("retry")
    # ``retry_if_result(...)``: a poll; ``retry_if_exception_type(TryAgain)`` (or an error the
    # module raises on a polled state) is judged as a result too (RES204), and as a poll when
    # the module raises it only so: never from a failure
    if policy.retry_on.kind == ON_RESULT and retry is not None:
        followed = rec.follow(retry.value, scope, order)
        retried = [t for n in iter_nodes(followed) if isinstance(n, cst.Call) for t in retried_types(rec, n, scope, order)]
        policy.polls_result = all(raised_on_polled_state(rec, t, scope, order) for t in retried)
    return policy


def _keyword_setting(
    rec: Recogniser, arg: Optional[cst.Arg], star: bool, classify: Callable[..., Tuple[str, str]],
    scope: Scope, order: int, default: Setting,
) -> Setting:
    """The setting a keyword gives (``wait=``, ``retry=``), or the library default when absent
    (unknown when ``**kwargs`` may carry it)."""
    if arg is None:
        return Setting(UNKNOWN) if star else default
    kind, detail = classify(rec, arg.value, scope, order)
    return Setting(kind, arg.value, detail)


def _stop(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Tuple[Limit, Limit]:
    """(attempts, seconds) of a tenacity stop expression."""
    if depth > 8:
        return UNKNOWN, UNKNOWN
    expr = rec.follow(expr, scope, order)
    function = project_callable(rec, expr, scope, order)
    if function is not None:
        return stop_of(rec, function, lambda e, s: _stop(rec, e, s, 1 << 62, depth + 1), _combine_any)
    if isinstance(expr, cst.BinaryOperation):
        left = _stop(rec, expr.left, scope, order, depth + 1)
        right = _stop(rec, expr.right, scope, order, depth + 1)
        if isinstance(expr.operator, cst.BitOr):
            return _combine_any(left[0], right[0]), _combine_any(left[1], right[1])
        if isinstance(expr.operator, cst.BitAnd):
            return _combine_all(left[0], right[0]), _combine_all(left[1], right[1])
        return UNKNOWN, UNKNOWN
    name = rec.expr_name(expr.func if isinstance(expr, cst.Call) else expr, scope, order)
    if name == "tenacity.stop_never":
        return None, None
    if isinstance(expr, cst.Call):
        if name == "tenacity.stop_after_attempt" and expr.args:
            return rec.int_value(expr.args[0].value, scope, order), None
        if name in ("tenacity.stop_after_delay", "tenacity.stop_before_delay") and expr.args:
            return None, rec.int_value(expr.args[0].value, scope, order)
        if name in ("tenacity.stop_any", "tenacity.stop_all"):
            parts = [_stop(rec, a.value, scope, order, depth + 1) for a in expr.args if not a.star]
            if not parts:
                return UNKNOWN, UNKNOWN
            attempts, seconds = parts[0]
            join = _combine_any if name == "tenacity.stop_any" else _combine_all
            for a, s in parts[1:]:
                attempts, seconds = join(attempts, a), join(seconds, s)
            return attempts, seconds
    return UNKNOWN, UNKNOWN


_JITTER = frozenset({
    "tenacity.wait_random", "tenacity.wait_random_exponential", "tenacity.wait_full_jitter",
    "tenacity.wait_exponential_jitter",
})
_EXPONENTIAL = frozenset({"tenacity.wait_exponential"})
_FIXED = frozenset({"tenacity.wait_fixed", "tenacity.wait_incrementing"})
_COMBINE = frozenset({"tenacity.wait_chain", "tenacity.wait_combine"})


def _wait(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Tuple[str, str]:
    """(kind, the function that decides it) of a tenacity wait expression."""
    if depth > 8:
        return UNKNOWN, ""
    expr = rec.follow(expr, scope, order)
    function = project_callable(rec, expr, scope, order)
    if function is not None:
        return wait_of(rec, function, lambda e, s: _wait(rec, e, s, 1 << 62, depth + 1))
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        return _join_waits([
            _wait(rec, expr.left, scope, order, depth + 1),
            _wait(rec, expr.right, scope, order, depth + 1),
        ])
    if not isinstance(expr, cst.Call):
        name = rec.expr_name(expr, scope, order)
        if name == "tenacity.wait_none":
            return WAIT_NONE, "`wait_none`"
        return UNKNOWN, ""
    name = rec.expr_name(expr.func, scope, order)
    made = [_wait_made(rec, value) for value in rec.model.resolve_all(expr.func, scope, order)]
    if len(made) == 1 and made[0][0] != UNKNOWN:
        return made[0]
    if len(made) > 1:
        # ``(wait_after if respect else wait_exponential)(...)``: no jitter as soon as one of
        # them may wait without
        unjittered = next((m for m in made if m[0] in (WAIT_EXPONENTIAL, WAIT_FIXED)), None)
        if unjittered is not None:
            return unjittered
        return made[0] if all(m[0] == WAIT_JITTERED for m in made) else (UNKNOWN, "")
    if name in _COMBINE:
        parts = [_wait(rec, a.value, scope, order, depth + 1) for a in expr.args if not a.star]
        if any(a.star for a in expr.args) or not parts:
            return UNKNOWN, ""
        kind, detail = _join_waits(parts)
        return kind, f"`{name.rsplit('.', 1)[1]}` of {detail}" if kind != UNKNOWN else ""
    return UNKNOWN, ""


def _wait_made(rec: Recogniser, callee: object) -> Tuple[str, str]:
    """(kind, its description) of the wait that calling
    ``callee`` makes: a tenacity wait by its name; a class of the file that extends one and
    draws no random number of its own waits as its base does."""
    if isinstance(callee, ClassInfo):
        for base in callee.bases:
            kind, detail = _wait_made(rec, rec.model.resolve(base, callee.scope.parent or callee.scope, 1 << 62))
            if kind == WAIT_JITTERED or (kind in (WAIT_EXPONENTIAL, WAIT_FIXED) and not _draws_randomly(callee.node)):
                return kind, f"`{callee.name}` (a {detail})"
            if kind != UNKNOWN:
                return UNKNOWN, ""
        return UNKNOWN, ""
    name = normalise(rec.model.name_of(callee)) if isinstance(callee, QName) else None
    if name in _JITTER:
        return WAIT_JITTERED, f"`{name.rsplit('.', 1)[1]}`"  # type: ignore[union-attr]
    if name in _EXPONENTIAL:
        return WAIT_EXPONENTIAL, "`wait_exponential`"
    if name in _FIXED:
        return WAIT_FIXED, f"`{name.rsplit('.', 1)[1]}`"  # type: ignore[union-attr]
    if name == "tenacity.wait_none":
        return WAIT_NONE, "`wait_none()`"
    return UNKNOWN, ""


def _draws_randomly(cls: cst.ClassDef) -> bool:
    """The class names something random (``random.uniform``, ``jitter``) anywhere in its body."""
    return any(isinstance(node, cst.Name) and _RANDOM_WORD.search(node.value) for node in iter_nodes(cls.body))


_RANDOM_WORD = re.compile(r"random|jitter|uniform", re.IGNORECASE)


# ``retry_if_result`` and ``retry_if_not_result`` judge only a returned value: an attempt that
# raises is not retried (tenacity's ``retry_if_result.__call__`` returns False on a failure).
_ON_RESULT = frozenset({"tenacity.retry_if_result", "tenacity.retry_if_not_result"})
_SPECIFIC = frozenset({
    "tenacity.retry_if_exception",
    "tenacity.retry_if_exception_message", "tenacity.retry_if_not_exception_message",
    "tenacity.retry_if_not_exception_type", "tenacity.retry_unless_exception_type",
    "tenacity.retry_if_exception_cause_type", "tenacity.retry_never",
})


def _retry_on(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Tuple[str, str]:
    if depth > 8:
        return UNKNOWN, ""
    expr = rec.follow(expr, scope, order)
    function = project_callable(rec, expr, scope, order)
    if function is not None:
        return retry_on_of(rec, function, lambda e, s: _retry_on(rec, e, s, 1 << 62, depth + 1))
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.BitOr, cst.BitAnd)):
        left = _retry_on(rec, expr.left, scope, order, depth + 1)
        right = _retry_on(rec, expr.right, scope, order, depth + 1)
        either = isinstance(expr.operator, cst.BitOr)
        if left[0] == right[0] == ON_RESULT:
            return ON_RESULT, ""
        if (left[0] == ON_ANY or right[0] == ON_ANY) if either else (left[0] == ON_ANY and right[0] == ON_ANY):
            return ON_ANY, left[1] if left[0] == ON_ANY else right[1]
        if UNKNOWN in (left[0], right[0]):
            return UNKNOWN, ""
        return ON_SPECIFIC, ""
    if not isinstance(expr, cst.Call):
        name = rec.expr_name(expr, scope, order)
        if name == "tenacity.retry_always":
            return ON_ANY, "`retry_always` retries every outcome"
        if name in _ON_RESULT:
            return ON_RESULT, ""
        if name in _SPECIFIC:
            return ON_SPECIFIC, ""
        return UNKNOWN, ""
    name = rec.expr_name(expr.func, scope, order)
    if name == "tenacity.retry_if_exception_type":
        argument = call_argument(expr, "exception_types", 0)
        if argument is None:
            return ON_ANY, "`retry_if_exception_type()` without a type retries every exception"
        if _only_try_again(rec, argument.value, scope, order):
            return ON_RESULT, ""
        caught = rec.exception_kind(argument.value, scope, order)
        if caught == ON_ANY:
            return ON_ANY, f"`retry_if_exception_type` of `{code_of(argument.value)}` retries every exception"
        return caught, ""
    if name in ("tenacity.retry_any", "tenacity.retry_all"):
        parts = [_retry_on(rec, a.value, scope, order, depth + 1) for a in expr.args if not a.star]
        if not parts:
            return UNKNOWN, ""
        kinds = [p[0] for p in parts]
        if (ON_ANY in kinds) if name == "tenacity.retry_any" else all(k == ON_ANY for k in kinds):
            return ON_ANY, next(p[1] for p in parts if p[0] == ON_ANY)
        if all(kind == ON_RESULT for kind in kinds):
            return ON_RESULT, ""
        return (UNKNOWN, "") if UNKNOWN in kinds else (ON_SPECIFIC, "")
    if name in _ON_RESULT:
        return ON_RESULT, ""
    if name in _SPECIFIC:
        return ON_SPECIFIC, ""
    return UNKNOWN, ""


def _only_try_again(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int) -> bool:
    """``retry_if_exception_type(tenacity.TryAgain)``: only what the function raises on purpose
    to be called again, once it has looked at a complete result (a job still pending): a poll on
    the result, like ``retry_if_result``; the client's own failures are not retried. So is an
    error that the module raises only on a polled state (``raise StatementNotFinished`` while
    the job's state is RUNNING)."""
    elements = _types(rec, expr, scope, order)
    return bool(elements) and all(
        rec.expr_name(e, scope, order) == "tenacity.TryAgain" or raised_on_polled_state(rec, e, scope, order)
        for e in elements
    )


def _types(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int) -> List[cst.BaseExpression]:
    """The exception types an argument names: one, or a tuple or list of them."""
    expr = rec.follow(expr, scope, order)
    return [e.value for e in expr.elements] if isinstance(expr, (cst.Tuple, cst.List)) else [expr]


def retried_types(rec: Recogniser, call: cst.Call, scope: Scope, order: int) -> List[cst.BaseExpression]:
    """The types a ``retry_if_exception_type(...)`` call names (none for another call)."""
    if rec.expr_name(call.func, scope, order) != "tenacity.retry_if_exception_type":
        return []
    argument = call_argument(call, "exception_types", 0)
    return _types(rec, argument.value, scope, order) if argument is not None else []


def retry_with(rec: Recogniser, call: CallSite) -> None:
    """``fn.retry_with(...)``: a copy of fn's tenacity policy with some settings replaced."""
    func = call.node.func
    assert isinstance(func, cst.Attribute)
    target = rec.model.resolve(func.value, call.scope, call.order)
    if not isinstance(target, FunctionInfo):
        return
    base = decorator_policy(rec, target)
    if base is None or base.library != "tenacity" or not isinstance(base.node, (cst.Call, cst.Decorator, cst.Name, cst.Attribute)):
        return
    keywords, star = keyword_args(base.node) if isinstance(base.node, cst.Call) else ({}, False)
    override, override_star = keyword_args(call.node)
    merged = build_policy(rec, call.node, call.scope, call.order, "call", {**keywords, **override}, star or override_star)
    for attr, key in (("attempts", "stop"), ("wait", "wait"), ("retry_on", "retry")):
        if key not in override:
            setattr(merged, attr, replace(getattr(merged, attr), inherited=True))
    policy = rec.add(merged)
    rec.scopes.append(RetryScope(policy, "call", call.node, target.node, target))


def _combine_any(a: Limit, b: Limit) -> Limit:
    """Stop when either stops: the smaller limit."""
    if a is None:
        return b
    if b is None:
        return a
    if a == UNKNOWN or b == UNKNOWN:
        return a if isinstance(a, (int, float)) else (b if isinstance(b, (int, float)) else UNKNOWN)
    return min(a, b)  # type: ignore[type-var]


def _combine_all(a: Limit, b: Limit) -> Limit:
    """Stop only when both say so: unbounded if either is."""
    if a is None or b is None:
        return None
    if a == UNKNOWN or b == UNKNOWN:
        return UNKNOWN
    return max(a, b)  # type: ignore[type-var]


def _join_waits(parts: List[Tuple[str, str]]) -> Tuple[str, str]:
    kinds = [p[0] for p in parts]
    if WAIT_JITTERED in kinds:
        return WAIT_JITTERED, next(p[1] for p in parts if p[0] == WAIT_JITTERED)
    if UNKNOWN in kinds:
        return UNKNOWN, ""
    details = " + ".join(p[1] for p in parts if p[1])
    if WAIT_EXPONENTIAL in kinds:
        return WAIT_EXPONENTIAL, details
    if WAIT_FIXED in kinds:
        return WAIT_FIXED, details
    return WAIT_NONE, details


# declarations collected by the registry
POLICIES = {DECORATOR: partial(build_policy, kind="decorator"), **dict.fromkeys(OBJECTS, partial(build_policy, kind="iterator"))}
BARE_DECORATORS = frozenset({DECORATOR})
WRAPS_FUNCTION = frozenset({DECORATOR})
