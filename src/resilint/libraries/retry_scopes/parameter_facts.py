"""Facts of a hand-written retry loop that a parameter of its function decides, for the project
pass to read per call (``Layer.decided_by``).

gallery-dl's ``Extractor.request(url, fatal=True)`` retries every request in a loop. Called with
``fatal=None``, the loop's first status test (``if code < 400 or code < 500 and (... or fatal is
None): return response``) hands every answer below 500 back at once, a 429 included: for that
caller the loop never retries a refused request, so a loop around it that goes round on 429s
does not multiply it. And once its attempts are spent, ``if not fatal: return NullResponse()``
gives up quietly, but a caller that passes nothing gets the ``HttpError`` raised after it,
which a layer around it may retry.

A test is read with a status of 429 and each constant the parameter may be given (``None``,
``True``, ``False`` and its default), three-valued: a part the code does not tell (another
name, a call) is unknown, and an unknown test decides nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.conditions import reads_status
from resilint.libraries.retry_scopes.statements import block, leaves, small_statements
from resilint.lint.nodes import number_of, string_of
from resilint.lint.semantic import FunctionInfo, Param, Scope
from resilint.lint.summary import Ref
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.model import Policy
    from resilint.libraries.retry_scopes.recogniser import Recogniser

_REFUSED = 429
_UNKNOWN = object()
_CONSTANTS: Tuple[Ref, ...] = (("none",), ("bool", True), ("bool", False))
_STOP = "stop"  # the scan met what it cannot read: nothing is decided
_LEFT = "left"  # the loop leaves with the refused answer


def decide(rec: "Recogniser", policy: "Policy", body: Sequence[cst.BaseStatement], scope: Scope, order: int) -> None:
    """Set what the loop's parameter tests decide on ``policy``: ``retries_refusals`` when a
    test that reads no parameter hands every refusal back, else the constants with which one
    does (``decided_by``)."""
    function = scope.enclosing_function
    if function is None or not isinstance(function.node, cst.FunctionDef):
        return
    parameters = _parameters(rec, function, scope, order)
    handed_back = _handing_back(body, None, None)
    if handed_back:
        policy.retries_refusals = False
        return
    for name, default in parameters.items():
        values = [value for value in _candidates(default) if _handing_back(body, name, value)]
        if values:
            policy.decided_by += ((name, tuple(values), "retries_refusals", False),)


def decide_give_up(
    rec: "Recogniser", policy: "Policy", after: Sequence[cst.BaseStatement], scope: Scope, order: int,
) -> None:
    """``if not fatal: return NullResponse()`` then ``raise HttpError(...)`` after the loop: it
    gives up quietly unless the parameter is given a constant that fails the test, and then
    raises that class (``decided_by``)."""
    function = scope.enclosing_function
    if len(after) < 2 or function is None or not isinstance(after[0], cst.If) or after[0].orelse is not None:
        return
    guard, rest = after[0], after[1:]
    if not leaves(block(guard.body)) or any(isinstance(n, cst.Raise) for n in iter_nodes(guard.body)):
        return
    raised = _raised_at_end(rec, rest, scope, order)
    if raised is None:
        return
    for name, default in _parameters(rec, function, scope, order).items():
        verdicts = [(value, _truth(guard.test, name, value)) for value in _candidates(default)]
        if any(verdict is None for _, verdict in verdicts):
            continue
        raising = tuple(value for value, verdict in verdicts if verdict is False)
        if raising:
            policy.decided_by += ((name, raising, "gives_up_with", raised),)


def _raised_at_end(rec: "Recogniser", stmts: Sequence[cst.BaseStatement], scope: Scope, order: int) -> Optional[str]:
    """The classes the ``raise`` that ends ``stmts`` raises, when nothing before it returns:
    the class called there (``raise HttpError(msg)``), or the classes the name it raises was
    made from (``exc = HttpError(msg)`` or ``exc = ChallengeError(...)``, then ``raise exc``)."""
    last = small_statements(stmts[-1]) if stmts else ()
    if not last or not isinstance(last[-1], cst.Raise) or last[-1].exc is None:
        return None
    if any(isinstance(node, (cst.Return, cst.Yield)) for stmt in stmts for node in iter_nodes(stmt)):
        return None
    exc = last[-1].exc
    made: List[cst.BaseExpression] = [exc.func] if isinstance(exc, cst.Call) else []
    if isinstance(exc, cst.Name):
        made = [
            node.value.func for stmt in stmts for node in iter_nodes(stmt)
            if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call)
            and any(isinstance(t.target, cst.Name) and t.target.value == exc.value for t in node.targets)
        ]
    names = [rec.expr_name(func, scope, order) for func in made]
    if not names or None in names:
        return None
    return " ".join(dict.fromkeys(name for name in names if name is not None))


def _parameters(rec: "Recogniser", function: FunctionInfo, scope: Scope, order: int) -> Dict[str, Optional[Ref]]:
    """The parameters of ``function`` that hold what the caller passed at ``order`` (not
    assigned before), with their default as a constant when it is one."""
    found: Dict[str, Optional[Ref]] = {}
    node = function.node
    assert isinstance(node, cst.FunctionDef)
    for param in (*node.params.params, *node.params.kwonly_params):
        name = param.name.value
        values = rec.model.resolve_all(param.name, scope, order)
        if len(values) == 1 and isinstance(values[0], Param) and values[0].function is function:
            found[name] = _constant(param.default) if param.default is not None else None
    return found


def _constant(node: cst.BaseExpression) -> Optional[Ref]:
    if isinstance(node, cst.Name) and node.value in ("None", "True", "False"):
        return ("none",) if node.value == "None" else ("bool", node.value == "True")
    number = number_of(node)
    if isinstance(number, int):
        return ("int", number)
    text = string_of(node)
    return ("str", text) if text is not None else None


def _candidates(default: Optional[Ref]) -> List[Ref]:
    return [*_CONSTANTS, *([default] if default is not None and default not in _CONSTANTS else [])]


def _handing_back(stmts: Sequence[cst.BaseStatement], name: Optional[str], value: Optional[Ref]) -> bool:
    """Whether, with a 429 (and ``name`` holding ``value``), the loop's first status test that
    decides anything leaves the loop."""
    return _scan(stmts, name, value) == _LEFT


def _scan(stmts: Sequence[cst.BaseStatement], name: Optional[str], value: Optional[Ref]) -> Optional[str]:
    """The status tests of ``stmts`` in the order they run: ``_LEFT`` when one holds and leaves,
    ``_STOP`` when one holds and stays (going round on the 429), cannot be read, or an error
    may be raised for the status first (``raise_for_status()``); None when all fall through."""
    for stmt in stmts:
        if isinstance(stmt, cst.If):
            outcome = _scan_if(stmt, name, value)
        elif isinstance(stmt, (cst.Try, cst.TryStar)):
            outcome = _scan(block(stmt.body), name, value)
            if outcome is None and stmt.orelse is not None:
                outcome = _scan(block(stmt.orelse.body), name, value)
        elif isinstance(stmt, cst.With):
            outcome = _scan(block(stmt.body), name, value)
        elif isinstance(stmt, (cst.For, cst.While, cst.FunctionDef, cst.ClassDef)):
            outcome = _STOP if _tests_status(stmt) else None
        else:
            outcome = _STOP if _leaves_or_raises_for_status(stmt) else None
        if outcome is not None:
            return outcome
    return None


def _scan_if(stmt: cst.If, name: Optional[str], value: Optional[Ref]) -> Optional[str]:
    if not _tests_status(stmt.test):
        # a test of something else (``if tries > limit:``): only harmless when no status test
        # hides in its branches
        return _STOP if _tests_status(stmt) or _leaves_or_raises_for_status(stmt) else None
    truth = _truth(stmt.test, name, value)
    if truth is None:
        return _STOP
    if truth:
        return _LEFT if leaves(block(stmt.body)) else _STOP
    if isinstance(stmt.orelse, cst.If):
        return _scan_if(stmt.orelse, name, value)
    return _scan(block(stmt.orelse.body), name, value) if stmt.orelse is not None else None


def _tests_status(node: cst.CSTNode) -> bool:
    return any(isinstance(part, cst.Comparison) and reads_status(part.left) for part in iter_nodes(node))


def _leaves_or_raises_for_status(stmt: cst.CSTNode) -> bool:
    """A statement that leaves the loop or goes round (before any status was tested, so for
    every answer), or raises an error for a failed status."""
    for node in iter_nodes(stmt, stop_at=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        if isinstance(node, (cst.Return, cst.Raise, cst.Break, cst.Continue)):
            return True
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "raise_for_status":
            return True
    return False


def _truth(test: cst.BaseExpression, name: Optional[str], value: Optional[Ref]) -> Optional[bool]:
    """Whether ``test`` holds for a 429 with ``name`` holding ``value``; None when unknown."""
    if isinstance(test, cst.BooleanOperation):
        left, right = _truth(test.left, name, value), _truth(test.right, name, value)
        if isinstance(test.operator, cst.And):
            return False if False in (left, right) else None if None in (left, right) else True
        return True if True in (left, right) else None if None in (left, right) else False
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = _truth(test.expression, name, value)
        return None if inner is None else not inner
    if isinstance(test, cst.Comparison):
        return _compare(test, name, value)
    held = _operand(test, name, value)
    return None if held is _UNKNOWN else bool(held)


def _compare(test: cst.Comparison, name: Optional[str], value: Optional[Ref]) -> Optional[bool]:
    left = _operand(test.left, name, value)
    for target in test.comparisons:
        right = _operand(target.comparator, name, value)
        if left is _UNKNOWN or right is _UNKNOWN:
            return None
        holds = _apply(target.operator, left, right)
        if holds is None:
            return None
        if not holds:
            return False
        left = right
    return True


def _apply(operator: cst.BaseCompOp, left: Any, right: Any) -> Optional[bool]:
    try:
        if isinstance(operator, cst.Is):
            return left is right
        if isinstance(operator, cst.IsNot):
            return left is not right
        if isinstance(operator, cst.Equal):
            return bool(left == right)
        if isinstance(operator, cst.NotEqual):
            return bool(left != right)
        if isinstance(operator, cst.In):
            return left in right
        if isinstance(operator, cst.NotIn):
            return left not in right
        if isinstance(operator, cst.LessThan):
            return bool(left < right)
        if isinstance(operator, cst.LessThanEqual):
            return bool(left <= right)
        if isinstance(operator, cst.GreaterThan):
            return bool(left > right)
        if isinstance(operator, cst.GreaterThanEqual):
            return bool(left >= right)
    except TypeError:
        return None
    return None


def _operand(node: cst.BaseExpression, name: Optional[str], value: Optional[Ref]) -> Any:
    """The Python value of one side of a test: a literal, the status (429), or the parameter's."""
    if isinstance(node, cst.Name) and node.value in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[node.value]
    if isinstance(node, cst.Ellipsis):
        return ...
    if isinstance(node, cst.Name) and name is not None and node.value == name:
        assert value is not None
        return value[1] if len(value) > 1 else None
    if reads_status(node):
        return _REFUSED
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        items = [_operand(element.value, name, value) for element in node.elements]
        return _UNKNOWN if any(item is _UNKNOWN for item in items) else tuple(items)
    number = number_of(node)
    if isinstance(number, (int, float)):
        return number
    text = string_of(node)
    return text if text is not None else _UNKNOWN
