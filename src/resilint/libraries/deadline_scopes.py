"""Deadline scopes: a time limit set around code, which ends whatever runs inside it when it
expires, so a loop inside one cannot go on for ever.

* ``with``/``async with`` of ``anyio.fail_after``/``move_on_after``, ``asyncio.timeout``/
  ``timeout_at``, ``async_timeout.timeout``/``timeout_at``, trio's ``fail_after``/
  ``move_on_after``/``fail_at``/``move_on_at``, a trio or anyio ``CancelScope(deadline=...)``,
  and resilint's own ``resilint.runtime.deadline(...)`` (which the runtime's timeouts and
  retries inside it obey);
* ``asyncio.wait_for(coroutine(), timeout)``: the function whose coroutine it awaits runs under
  the limit when every call of that function in the file is bounded so (by ``wait_for`` or
  inside one of the blocks above).

A limit of ``None`` is no limit (``asyncio.timeout(None)``), and a ``CancelScope`` without a
``deadline=`` is only cancelled by hand.
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import libcst as cst

from resilint.lint.nodes import call_argument, is_none
from resilint.lint.semantic import CallSite, Scope, SemanticModel

# qualified name → (keyword, position) of the argument that sets the limit
_SCOPES: Dict[str, Tuple[str, Optional[int]]] = {
    "anyio.fail_after": ("delay", 0),
    "anyio.move_on_after": ("delay", 0),
    "anyio.CancelScope": ("deadline", None),
    "asyncio.timeout": ("delay", 0),
    "asyncio.timeout_at": ("when", 0),
    "async_timeout.timeout": ("delay", 0),
    "async_timeout.timeout_at": ("deadline", 0),
    "trio.fail_after": ("seconds", 0),
    "trio.move_on_after": ("seconds", 0),
    "trio.fail_at": ("deadline", 0),
    "trio.move_on_at": ("deadline", 0),
    "trio.CancelScope": ("deadline", None),
    "resilint.runtime.deadline": ("seconds", 0),
    "resilint.runtime.deadline.deadline": ("seconds", 0),
}
# Calls that bound the coroutine they are given: qualified name → (keyword, position) of the limit.
_WRAPPERS: Dict[str, Tuple[str, Optional[int]]] = {
    "asyncio.wait_for": ("timeout", 1),
}


def deadline_around(model: SemanticModel, site: CallSite, node: cst.CSTNode) -> Optional[cst.CSTNode]:
    """What bounds ``node`` (a statement on ``site``'s stack) in time, if anything: the limit of
    an enclosing deadline block of the same function, or the call that bounds every call of
    that function in this file."""
    stack = site.stack
    index = next((i for i, entry in enumerate(stack) if entry is node), len(stack))
    found = _enclosing(model, stack[:index], site.scope, site.order)
    if found is not None:
        return found
    function = next((e for e in reversed(stack[:index]) if isinstance(e, (cst.FunctionDef, cst.Lambda, cst.ClassDef))), None)
    if isinstance(function, cst.FunctionDef):
        return _callers_bound(model).get(id(function))
    return None


def _enclosing(model: SemanticModel, stack: Tuple[cst.CSTNode, ...], scope: Scope, order: int) -> Optional[cst.CSTNode]:
    """The limit of the innermost deadline ``with`` among ``stack`` within one function."""
    for entry in reversed(stack):
        if isinstance(entry, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return None
        if isinstance(entry, cst.With):
            for item in entry.items:
                # ``scope = anyio.fail_after(20)`` … ``with scope:`` too
                entered = model.assigned_expression(item.item, scope, order) or item.item
                if isinstance(entered, cst.Call) and _limited(model, entered, _SCOPES, scope, order):
                    return item.item
    return None


def _limited(
    model: SemanticModel, call: cst.Call, table: Dict[str, Tuple[str, Optional[int]]], scope: Scope, order: int
) -> bool:
    """A call of ``table`` that sets a limit other than None (one hidden in ``*args``/``**kwargs``
    counts: we do not flag what we cannot read)."""
    spec = table.get(model.qualified_name(call.func, scope, order) or "")
    if spec is None:
        return False
    argument = call_argument(call, *spec)
    if argument is None:
        return any(a.star for a in call.args)
    return not is_none(argument.value)


def _callers_bound(model: SemanticModel) -> Dict[int, cst.CSTNode]:
    """id(FunctionDef) → a bounding call, for the functions of this file every call of which in
    the file runs under a deadline (memoised on the model)."""
    return model.derived(_callers_bound, lambda: _compute_callers_bound(model))


def _compute_callers_bound(model: SemanticModel) -> Dict[int, cst.CSTNode]:
    wrapped: Dict[int, cst.CSTNode] = {}  # id(call of a function) → the wrapper bounding it
    for site in model.calls:
        call = site.node
        if call.args and _limited(model, call, _WRAPPERS, site.scope, site.order):
            awaited = call.args[0].value
            if isinstance(awaited, cst.Call):
                wrapped[id(awaited)] = call
    found: Dict[int, cst.CSTNode] = {}
    for function in model.functions:
        bound: Optional[cst.CSTNode] = None
        for site in model.calls_of(function) if isinstance(function.node, cst.FunctionDef) else ():
            bound = wrapped.get(id(site.node)) or _enclosing(model, site.stack, site.scope, site.order)
            if bound is None:
                break  # a call of it that no deadline bounds
        if bound is not None:
            found[id(function.node)] = bound
    return found
