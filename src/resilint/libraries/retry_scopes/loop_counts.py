"""How many attempts a bounded ``while`` retry loop makes, when a counter decides it.

``loop_limits`` knows that ``while tries < 3`` or ``if retries > 0: retries -= 1; continue``
bounds a loop; RES204 multiplies the layers' attempts, so it also needs how many. The loop is
read as one pass of events in source order: the attempt (the ``try``, or the first statement
that is not a counter step), the counters' steps (``attempt += 1``, ``retries -= 1``), the
tests that leave (``if attempt >= 5: raise``) and those that go round (``while n < 5``, ``if
retries > 0: ...; continue`` before a ``raise``), and the pass is replayed from the counters'
starting values until a test leaves. A failure the counter does not decide is taken to go
round: the other parts of a test count as true in an ``and`` and false in an ``or``, so the
figure is what the counter allows. Anything else (a counter stepped in a branch that decides
nothing, an attribute as the counter, a start or bound that is not a number) gives no count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple, Union

import libcst as cst

from resilint.libraries.retry_scopes.statements import (
    block, conditional_exit, has_continue, leaves, small_statements, walk_statements,
)
from resilint.lint.nodes import number_of
from resilint.lint.semantic import Binding, Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

_MAX_PASSES = 1000
_ATTEMPT = "attempt"
# ("attempt",) | ("step", NAME, DELTA) | ("leave_if", TEST) | ("stay_if", TEST, EVENTS)
Event = Tuple[object, ...]
_COMPARE = {
    cst.LessThan: lambda a, b: a < b, cst.LessThanEqual: lambda a, b: a <= b,
    cst.GreaterThan: lambda a, b: a > b, cst.GreaterThanEqual: lambda a, b: a >= b,
    cst.Equal: lambda a, b: a == b, cst.NotEqual: lambda a, b: a != b,
}


class _NotCounted(Exception):
    """The loop's shape is not one whose passes can be counted."""


def counted_attempts(
    rec: "Recogniser", loop: Union[cst.While, cst.For], body: Sequence[cst.BaseStatement], scope: Scope, order: int,
    going_round: Sequence[cst.ExceptHandler] = (),
) -> Optional[int]:
    """The attempts the loop makes when every failure goes round, or None when no counter
    decides them. With several handlers that go round, the most any of them allows."""
    if not isinstance(loop, cst.While):
        return None
    handlers = list(going_round) or [None]
    counts = []
    try:
        for handler in handlers:
            events = ([] if _always(loop.test) else [("stay_if", loop.test, [])]) + _events(body, handler, True)
            counters = {event[1] for event in _flatten(events) if event[0] == "step"}
            start = {name: _start(rec, name, scope) for name in counters}  # type: ignore[misc]
            if not counters or any(value is None for value in start.values()):
                return None
            count = _replay(rec, events, start, scope, order)  # type: ignore[arg-type]
            if count is None:
                return None
            counts.append(count)
    except _NotCounted:
        return None
    return max(counts)


def _events(stmts: Sequence[cst.BaseStatement], handler: Optional[cst.ExceptHandler], top: bool) -> List[Event]:
    events: List[Event] = []
    attempted = not top
    for index, stmt in enumerate(stmts):
        following = stmts[index + 1:]
        if isinstance(stmt, cst.Try):
            events.extend(_steps_only(block(stmt.body)))
            if top and not attempted:
                events.append((_ATTEMPT,))
                attempted = True
            if handler is not None and any(h is handler for h in stmt.handlers):
                events.extend(_events(block(handler.body), None, False))
            elif _steps_in(stmt.handlers):
                raise _NotCounted
            if _steps_in([b for b in (stmt.orelse, stmt.finalbody) if b is not None]):
                raise _NotCounted
            continue
        step = _step(stmt)
        if step is not None:
            events.append(step)
            continue
        if top and not attempted:
            events.append((_ATTEMPT,))
            attempted = True
        if isinstance(stmt, cst.If):
            events.extend(_decision(stmt, following))
        elif _steps_in([stmt]):
            raise _NotCounted  # stepped where the pass's path is not read
    if top and not attempted:
        events.append((_ATTEMPT,))
    return events


def _decision(stmt: cst.If, following: Sequence[cst.BaseStatement]) -> List[Event]:
    """``if test: raise`` leaves when the test holds; ``if test: ...; continue`` before what
    leaves, or ``if test: ... else: raise``, goes round only when it holds (with the steps its
    body takes); an ``if`` that decides nothing may not step a counter."""
    body = block(stmt.body)
    orelse = stmt.orelse
    else_leaves = isinstance(orelse, cst.Else) and leaves(block(orelse.body))
    if has_continue(body) and leaves(following) and body and isinstance(body[0], cst.If) and leaves(body[1:]):
        # ``if status != 206: if retries < 3: retries += 1; continue`` then ``raise``: it goes
        # round when both tests hold
        inner = _decision(body[0], body[1:])
        if len(inner) == 1 and inner[0][0] == "stay_if" and not _steps_in(body[1:]):
            both = cst.BooleanOperation(stmt.test, cst.And(), inner[0][1])  # type: ignore[arg-type]
            return [("stay_if", both, inner[0][2])]
    if (has_continue(body) and leaves(following)) or (else_leaves and not leaves(body)):
        return [("stay_if", stmt.test, _steps_only(body))]
    if conditional_exit(stmt) and not else_leaves:
        events: List[Event] = [("leave_if", stmt.test)]
        if orelse is not None and _steps_in([orelse]):
            raise _NotCounted
        if _steps_in(body) and not leaves(body):
            raise _NotCounted
        return events
    if _steps_in([stmt]):
        raise _NotCounted
    return []


def _steps_only(stmts: Sequence[cst.BaseStatement]) -> List[Event]:
    """The counter steps of a block read straight through (a ``try`` body, a branch)."""
    events: List[Event] = []
    for stmt in stmts:
        step = _step(stmt)
        if step is not None:
            events.append(step)
        elif _steps_in([stmt]) and not isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            raise _NotCounted
    return events


def _step(stmt: cst.CSTNode) -> Optional[Event]:
    """``n += 1``, ``n -= 1``, ``n = n + 1`` on a plain name, as (``"step"``, name, delta)."""
    smalls = small_statements(stmt)
    if len(smalls) != 1:
        return None
    small = smalls[0]
    if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
        delta = number_of(small.value)
        if delta is not None and isinstance(small.operator, (cst.AddAssign, cst.SubtractAssign)):
            return ("step", small.target.value, delta if isinstance(small.operator, cst.AddAssign) else -delta)
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        name = small.targets[0].target.value
        step = _step_value(small.value, name)
        delta = number_of(step) if step is not None else None
        if delta is not None:
            return ("step", name, delta if isinstance(small.value.operator, cst.Add) else -delta)  # type: ignore[attr-defined]
    return None


def _steps_in(stmts: Sequence[cst.CSTNode]) -> bool:
    """Whether a counter is stepped anywhere in these statements (``except`` handlers and
    ``else`` blocks included)."""
    statements: List[cst.CSTNode] = []
    for node in stmts:
        if isinstance(node, cst.ExceptHandler):
            statements.extend(block(node.body))
        elif isinstance(node, (cst.Else, cst.Finally)):
            statements.extend(block(node.body))
        else:
            statements.append(node)
    return any(_step(node) is not None for node in walk_statements(statements))  # type: ignore[arg-type]


def _flatten(events: Sequence[Event]) -> List[Event]:
    found: List[Event] = []
    for event in events:
        found.append(event)
        if event[0] == "stay_if":
            found.extend(_flatten(event[2]))  # type: ignore[arg-type]
    return found


def _replay(rec: "Recogniser", events: Sequence[Event], start: Dict[str, float], scope: Scope, order: int) -> Optional[int]:
    values = dict(start)
    attempts = 0
    for _ in range(_MAX_PASSES):
        for event in events:
            kind = event[0]
            if kind == _ATTEMPT:
                attempts += 1
            elif kind == "step":
                values[event[1]] += event[2]  # type: ignore[index,operator]
            elif kind == "leave_if":
                if _holds(rec, event[1], values, scope, order, leaving=True):  # type: ignore[arg-type]
                    return attempts
            elif kind == "stay_if":
                if not _holds(rec, event[1], values, scope, order, leaving=False):  # type: ignore[arg-type]
                    return attempts
                for step in event[2]:  # type: ignore[attr-defined]
                    values[step[1]] += step[2]
    return None


def _holds(rec: "Recogniser", test: cst.BaseExpression, values: Dict[str, float], scope: Scope, order: int, leaving: bool) -> bool:
    """Whether the test holds with the counters at ``values``; what they do not decide counts
    so that the failure goes round (false in a test that leaves, true in one that stays)."""
    found = _truth(rec, test, values, scope, order)
    return (not leaving) if found is None else found


def _truth(rec: "Recogniser", test: cst.BaseExpression, values: Dict[str, float], scope: Scope, order: int) -> Optional[bool]:
    if isinstance(test, cst.BooleanOperation):
        left = _truth(rec, test.left, values, scope, order)
        right = _truth(rec, test.right, values, scope, order)
        if isinstance(test.operator, cst.And):
            parts = [p for p in (left, right) if p is not None]
            return None if not parts else all(parts)
        parts = [p for p in (left, right) if p is not None]
        return None if not parts else any(parts)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = _truth(rec, test.expression, values, scope, order)
        return None if inner is None else not inner
    if isinstance(test, cst.Name) and test.value in values:
        return bool(values[test.value])
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        compare = _COMPARE.get(type(target.operator))
        if compare is None:
            return None
        names = [side.value for side in (test.left, target.comparator) if isinstance(side, cst.Name)]
        if not any(name in values for name in names):
            return None
        left = _value(rec, test.left, values, scope, order)
        right = _value(rec, target.comparator, values, scope, order)
        if left is None or right is None:
            raise _NotCounted  # a bound that is not a number
        return compare(left, right)
    return None


def _value(rec: "Recogniser", expr: cst.BaseExpression, values: Dict[str, float], scope: Scope, order: int) -> Optional[float]:
    if isinstance(expr, cst.Name) and expr.value in values:
        return values[expr.value]
    return _number(rec, expr, scope, order)


def _start(rec: "Recogniser", name: str, scope: Scope) -> Optional[float]:
    """The counter's value before the first pass: its one assignment in the function other
    than its steps (``attempt = 0``), or its parameter's default."""
    bindings = [
        b for b in scope.bindings.get(name, ()) if not (
            b.expr is None and b.parameter is None and b.imported is None and b.defined is None and b.entered is None
        ) and _step_value(b.expr, name) is None
    ]
    if len(bindings) != 1:
        return None
    return _binding_value(rec, bindings[0], name, 0)


def _step_value(expr: Optional[cst.BaseExpression], name: str) -> Optional[cst.BaseExpression]:
    """``n + 1`` assigned to ``n``: the step."""
    if (isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract))
            and isinstance(expr.left, cst.Name) and expr.left.value == name):
        return expr.right
    return None


def _number(rec: "Recogniser", expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Optional[float]:
    """A number written there, a name bound to one where the loop starts (a parameter by its
    default, a module constant, also through another name: ``retries_left =
    API_REQUEST_RETRY_TIMES``), a class constant read off the object (``self.ATTEMPTS``), or a
    sum or difference of those."""
    number = number_of(expr)
    if number is not None:
        return number
    if isinstance(expr, cst.Attribute):
        return number_of(rec.follow(expr, scope, order))
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract)):
        left, right = _number(rec, expr.left, scope, order, depth), _number(rec, expr.right, scope, order, depth)
        if left is None or right is None:
            return None
        return left + right if isinstance(expr.operator, cst.Add) else left - right
    if not isinstance(expr, cst.Name):
        return None
    bindings = rec.model.reaching(expr.value, scope, order)
    if len(bindings) != 1:
        return None
    return _binding_value(rec, bindings[0], expr.value, depth)


def _binding_value(rec: "Recogniser", binding: Binding, name: str, depth: int) -> Optional[float]:
    """A binding's number, also through the name it is given (``retries_left = RETRY_TIMES``)."""
    found = _binding_number(binding, name)
    if found is None and depth < 4 and isinstance(binding.expr, (cst.Name, cst.Attribute)) and binding.imported is None:
        return _number(rec, binding.expr, binding.scope, binding.order, depth + 1)
    return found


def _binding_number(binding: Binding, name: str) -> Optional[float]:
    if binding.parameter is not None:
        default = binding.parameter.function.default_of(name)
        return number_of(default) if default is not None else None
    if binding.expr is not None and binding.imported is None and binding.defined is None:
        return number_of(binding.expr)
    return None


def _always(test: cst.BaseExpression) -> bool:
    return isinstance(test, cst.Name) and test.value == "True" or number_of(test) == 1
