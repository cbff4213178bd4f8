"""Project functions given to tenacity: ``wait=``, ``stop=`` and ``retry=`` accept any callable
of the retry state, and a project may build its policies in helpers.

* a callable (``wait=wait_strategy``, ``stop=lambda rs: ...``) is judged by what it returns for
  the retry state: ``wait_exponential(...)(retry_state)`` is tenacity's own wait, ``2 **
  retry_state.attempt_number`` a computed delay, ``retry_state.attempt_number >= 5`` an attempt
  limit, ``retry_state.outcome.failed`` a retry on every exception;
* a call of a project function (``stop=make_stop()``) is judged by the tenacity object it
  returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, List, Optional, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.delays import delay_kind, own_delays
from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_JITTERED,
    Limit,
)
from resilint.lint.nodes import code_of
from resilint.lint.semantic import FunctionInfo, Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

# How tenacity.py judges one of its own expressions (``wait_exponential(...)``) in a scope.
Classify = Callable[[cst.BaseExpression, Scope], Tuple[str, str]]
ClassifyStop = Callable[[cst.BaseExpression, Scope], Tuple[Limit, Limit]]
_ATTEMPTS = "attempt_number"
_SECONDS = frozenset({"seconds_since_start", "idle_for"})


class ProjectCallable:
    """A project function or lambda given to tenacity (``called``: the argument is a call of it,
    a factory, whose returns are tenacity objects; else its returns are values of the state)."""

    def __init__(self, name: str, scope: Scope, returns: List[cst.BaseExpression], called: bool) -> None:
        self.name = name
        self.scope = scope
        self.returns = returns
        self.called = called

    @property
    def title(self) -> str:
        return "the lambda" if self.name == "lambda" else f"`{self.name}`"


def project_callable(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int) -> Optional[ProjectCallable]:
    """The project function behind ``wait=fn``, ``wait=lambda rs: ...`` or ``wait=make_wait()``."""
    if isinstance(expr, cst.Lambda):
        inner = rec.model.scope_of.get(expr)
        return ProjectCallable("lambda", inner, [expr.body], False) if inner is not None else None
    if not isinstance(expr, (cst.Name, cst.Attribute, cst.Call)):
        return None
    target = rec.model.resolve(expr.func if isinstance(expr, cst.Call) else expr, scope, order)
    if isinstance(target, FunctionInfo) and target.returns:
        return ProjectCallable(target.name, target.scope, list(target.returns), isinstance(expr, cst.Call))
    return None


def applied(expr: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """``wait_exponential(...)`` in ``return wait_exponential(...)(retry_state)``."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Call):
        return expr.func
    return None


def wait_of(rec: Recogniser, function: ProjectCallable, classify: Classify) -> Tuple[str, str]:
    """The wait a callable returns: tenacity's own applied to the state, or a computed delay."""
    kinds = []
    for expr in function.returns if function.called else own_delays(rec, function.returns, function.scope):
        inner = expr if function.called else applied(expr)
        if inner is not None:
            kind, detail = classify(inner, function.scope)
        else:
            kind, _ = delay_kind(rec, expr, function.scope, 1 << 62, None)
            detail = f"`{code_of(expr)}`"
        kinds.append((kind, detail))
    chosen = _weakest(kinds)
    if chosen[0] in (WAIT_FIXED, WAIT_EXPONENTIAL):
        return chosen[0], f"{function.title} returns {chosen[1]}"
    return chosen


def _weakest(kinds: List[Tuple[str, str]]) -> Tuple[str, str]:
    """A callable's wait is jittered when one of its returns is (as for a sleep helper), unknown
    when one is unknown, else the first pure one."""
    for wanted in (WAIT_JITTERED, UNKNOWN, WAIT_EXPONENTIAL, WAIT_FIXED):
        for kind, detail in kinds:
            if kind == wanted:
                return kind, detail
    return UNKNOWN, ""


def stop_of(
    rec: Recogniser, function: ProjectCallable, classify: ClassifyStop, combine: Callable[[Limit, Limit], Limit],
) -> Tuple[Limit, Limit]:
    """(attempts, seconds) of a stop callable: it stops when any of its returns says so."""
    attempts: Limit = None
    seconds: Limit = None
    for expr in function.returns:
        if function.called:
            a, s = classify(expr, function.scope)
        else:
            a, s = _stop_value(rec, expr, function.scope, classify, combine)
        attempts, seconds = combine(attempts, a), combine(seconds, s)
    return attempts, seconds


def _stop_value(
    rec: Recogniser, expr: cst.BaseExpression, scope: Scope, classify: ClassifyStop,
    combine: Callable[[Limit, Limit], Limit],
) -> Tuple[Limit, Limit]:
    inner = applied(expr)
    if inner is not None:
        return classify(inner, scope)
    if isinstance(expr, cst.Name) and expr.value == "False":
        return None, None  # never stops
    if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or):
        left = _stop_value(rec, expr.left, scope, classify, combine)
        right = _stop_value(rec, expr.right, scope, classify, combine)
        return combine(left[0], right[0]), combine(left[1], right[1])
    if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1 and isinstance(expr.left, cst.Attribute):
        operator = expr.comparisons[0].operator
        if isinstance(operator, (cst.GreaterThan, cst.GreaterThanEqual, cst.Equal)):
            limit = rec.int_value(expr.comparisons[0].comparator, scope, 1 << 62)
            if expr.left.attr.value == _ATTEMPTS:
                return limit, None
            if expr.left.attr.value in _SECONDS:
                return None, limit
    return UNKNOWN, UNKNOWN


def retry_on_of(rec: Recogniser, function: ProjectCallable, classify: Classify) -> Tuple[str, str]:
    """What a retry predicate retries, judged only when it has one ``return`` (a ``return True``
    under an ``if`` is a decision we do not read)."""
    if len(function.returns) != 1:
        return UNKNOWN, ""
    expr = function.returns[0]
    inner = expr if function.called else applied(expr)
    if inner is not None:
        return classify(inner, function.scope)
    if (isinstance(expr, cst.Name) and expr.value == "True") or (
        isinstance(expr, cst.Attribute) and expr.attr.value == "failed"
    ):
        return ON_ANY, f"{function.title} returns `{code_of(expr)}`, which retries every exception"
    if isinstance(expr, cst.Call) and rec.expr_name(expr.func, function.scope, 1 << 62) == "builtins.isinstance" and len(expr.args) == 2:
        kind = rec.exception_kind(expr.args[1].value, function.scope, 1 << 62)
        detail = f"{function.title} retries every `Exception`" if kind == ON_ANY else ""
        return kind, detail
    return UNKNOWN, ""
