"""What a timeout expression means: unbounded (None, inf), a literal number, or unknown."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from resilint.lint.semantic import Scope, SemanticModel

_INFINITY_NAMES = frozenset({"math.inf", "numpy.inf", "cmath.inf"})
_SPLIT_TIMEOUTS = frozenset({"httpx.Timeout"})
_HTTPX_PHASES = ("connect", "read", "write", "pool")


def unbounded_reason(
    expr: cst.BaseExpression, model: SemanticModel, scope: Scope, order: int, depth: int = 0
) -> Optional[str]:
    """Why this timeout value waits forever, or None if it does not (or we cannot tell)."""
    if depth > 5:
        return None
    if isinstance(expr, cst.Name) and expr.value not in ("None",):
        assigned = model.assigned_expression(expr, scope, order)
        if assigned is None or assigned is expr:
            return None
        reason = unbounded_reason(assigned, model, scope, order, depth + 1)
        return f"{expr.value} is {reason}" if reason else None
    if _is_none(expr):
        return "None (no timeout at all)"
    if isinstance(expr, (cst.Tuple, cst.List)):
        phases = ("connect", "read")
        for index, element in enumerate(expr.elements):
            if _is_none(element.value):
                phase = phases[index] if index < len(phases) else f"element {index}"
                return f"a tuple whose {phase} timeout is None"
        return None
    if isinstance(expr, cst.Call):
        name = model.qualified_name(expr.func, scope, order)
        if name == "builtins.float" and expr.args and _is_infinity_string(expr.args[0].value):
            return "float('inf')"
        if name in _SPLIT_TIMEOUTS:
            return _httpx_timeout_reason(expr)
        return None
    if isinstance(expr, (cst.Attribute, cst.Name)):
        if model.qualified_name(expr, scope, order) in _INFINITY_NAMES:
            return "infinite"
    return None


def _httpx_timeout_reason(call: cst.Call) -> Optional[str]:
    default_none = False
    given = {}
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None or arg.keyword.value == "timeout":
            default_none = _is_none(arg.value)
        else:
            given[arg.keyword.value] = arg.value
    for phase in _HTTPX_PHASES:
        if phase in given and _is_none(given[phase]):
            return f"httpx.Timeout with {phase}=None"
    if default_none and not all(phase in given for phase in _HTTPX_PHASES):
        missing = [p for p in _HTTPX_PHASES if p not in given]
        return f"httpx.Timeout(None), leaving {'/'.join(missing)} unbounded"
    return None


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _is_infinity_string(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return isinstance(value, str) and value.strip().lower() in ("inf", "infinity", "+inf")
    return False
