"""RES202: the reported sleep of a hand-written retry loop gets a random term on top of its
delay, from the standard library: ``time.sleep(d)`` → ``time.sleep(d + random.uniform(0, d))``.

Safe: every wait is at least what it was (the draw is added, never subtracted), so a loop that
waits out a service's minimum, or whose attempts bound a readiness window, keeps it. Where the
loop caps its delay (``min(2 ** n, 30)``, ``delay = min(delay * 2, 60)`` or ``if delay > 60:
delay = 60`` in the loop), the
sum is capped by the same value: ``min(2 ** n + random.uniform(0, 2 ** n), 30)``, so no wait
exceeds the cap either. A cap the loop applies on some paths only (``if status != 420: if
wait > wait_max: wait = wait_max``) bounds the sum as ``max(wait, wait_max)``: within the cap
where the wait is, and a wait the loop let grow past it keeps its length. ``random`` is imported (``import random``) only when the file does not
already import it; the standard library is never a new dependency. A sleep that grows past
the project's line length is wrapped as black wraps it (``wrapping``).

Only the sleep the finding points at is edited: one jittered sleep makes the loop jittered
for the rule, and the loop's other sleeps were never reported. A delay computed by a call
(evaluating it twice could differ or cost) is left alone, with the reason.
"""

from __future__ import annotations

from typing import Iterator, List, Optional, Sequence, Tuple

import libcst as cst

from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import stdlib_attribute
from resilint.codemods.wrapping import LineFit
from resilint.libraries.retry_scopes import WAIT_EXPONENTIAL, WAIT_FIXED, calls_within, normalise, retry_scopes
from resilint.libraries.retry_scopes.delays import delay_kind
from resilint.libraries.retry_scopes.names import SLEEPS
from resilint.libraries.retry_scopes.recogniser import Recogniser
from resilint.libraries.retry_scopes.statements import block, growing_names
from resilint.lint.nodes import call_argument, number_of
from resilint.lint.semantic import SemanticModel
from resilint.lint.traversal import children, iter_nodes


class LoopJitter(ResilintCodemod):
    DESCRIPTION = "Add a random.uniform draw on top of the sleep of hand-written retry loops, within their cap (RES202)."
    CODES = ("RES202",)
    APPLICABILITY = "safe"

    def visit_Module(self, node: cst.Module) -> None:
        self.model = self.semantic_model(node)
        fit = LineFit(self, node, self.model)
        for call, delay_node, loop in reported_sleeps(self, self.model):
            delay, cap, some_paths = _delay_and_cap(delay_node, loop)
            if delay is None:
                self.leave_alone(call, "the delay is computed by a call: add `random.uniform(0, ...)` on top of it by hand")
                continue
            uniform = stdlib_attribute(self.context, self.model, "random", "uniform")
            self.plan(delay_node, lambda updated, d=delay, c=cap, u=uniform, p=some_paths: _jittered(updated, d, c, u, p))
            self.plan(call, fit.wrapper(call))  # grown past the line length: wrapped as black would


def reported_sleeps(codemod: ResilintCodemod, model: SemanticModel) -> Iterator[Tuple[cst.Call, cst.BaseExpression, cst.CSTNode]]:
    """(the sleep call, its delay, the loop) of each hand-written retry loop whose RES202 findings
    the codemod fixes: only the sleeps the findings point at (the loop's pause, and that of each
    failure path of its own; the loop's other sleeps were never reported), with a constant or
    exponential delay."""
    recogniser = Recogniser(model)
    for scope in retry_scopes(model).scopes:
        policy = scope.policy
        if policy.library != "loop" or policy.wait.kind not in (WAIT_FIXED, WAIT_EXPONENTIAL):
            continue
        reported = {
            id(pause.node) for pause in (policy.wait, *policy.more_waits)
            if pause.node is not None and codemod.is_target(pause.node)
        }
        if not reported:
            continue
        loop = policy.node
        recogniser.growing = growing_names(block(loop.body))  # type: ignore[attr-defined]
        for call in calls_within(model, scope):
            if id(call.node) not in reported or normalise(model.call_name(call)) not in SLEEPS:
                continue
            argument = call_argument(call.node, "seconds", 0) or call_argument(call.node, "delay", 0)
            if argument is None:
                continue
            kind, _ = delay_kind(recogniser, argument.value, call.scope, call.order, loop, site=call)
            if kind in (WAIT_FIXED, WAIT_EXPONENTIAL):
                with codemod.serving(call.node):  # (each pause's edit fixes its own finding)
                    yield call.node, argument.value, loop


def _delay_and_cap(
    value: cst.BaseExpression, loop: cst.CSTNode,
) -> Tuple[Optional[cst.BaseExpression], Optional[cst.BaseExpression], bool]:
    """The uncapped delay (None: not an expression that may be written twice), the cap the
    loop puts on it (None: none), and whether the loop caps it on some paths only."""
    capped = _min_parts(value)
    if capped is not None:
        delay, cap = capped
        return (delay if _pure(delay) else None), cap, False
    if not _pure(value):
        return None, None, False
    if isinstance(value, cst.Name):
        cap = _cap_among(_statements_around(loop, value), value.value)
        if cap is not None:
            return value, cap, False
        statements = [n for n in iter_nodes(loop) if isinstance(n, (cst.SimpleStatementLine, cst.If))]
        cap = _cap_among(statements, value.value)
        if cap is not None:
            return value, cap, True
    return value, None, False


def _cap_among(statements: Sequence[cst.CSTNode], name: str) -> Optional[cst.BaseExpression]:
    """The cap ``name = min(..., cap)`` or ``if name > cap: name = cap`` puts on the delay."""
    for statement in statements:
        smalls = statement.body if isinstance(statement, cst.SimpleStatementLine) else [statement]
        for node in smalls:
            if isinstance(node, cst.Assign) and any(
                isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets
            ):
                parts = _min_parts(node.value)
                if parts is not None:
                    return parts[1]
            cap = _capped_by_if(node, name)
            if cap is not None:
                return cap
    return None


def _statements_around(loop: cst.CSTNode, target: cst.CSTNode) -> List[cst.CSTNode]:
    """The statements of the blocks that hold ``target`` in the loop, from the innermost: a cap
    there applies on every path to the sleep; one inside another branch (``if status != 420:``)
    does not, and a capped sum would shorten the waits it leaves uncapped."""
    found: List[cst.CSTNode] = []
    path: List[cst.CSTNode] = [loop]
    pending: List[Tuple[cst.CSTNode, int]] = [(loop, 0)]
    while pending:  # depth first, with the path to the current node
        node, depth = pending.pop()
        del path[depth:]
        path.append(node)
        if node is target:
            for holder in reversed(path):
                if isinstance(holder, (cst.IndentedBlock, cst.SimpleStatementSuite)):
                    found.extend(holder.body)
            return found
        pending.extend((child, depth + 1) for child in reversed(list(children(node))))
    return found


def _capped_by_if(node: cst.CSTNode, name: str) -> Optional[cst.BaseExpression]:
    """``cap`` of ``if name > cap: name = cap`` (or ``>=``), the other way a loop caps its delay."""
    if not isinstance(node, cst.If) or node.orelse is not None:
        return None
    test = node.test
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name)
            and test.left.value == name and isinstance(test.comparisons[0].operator, (cst.GreaterThan, cst.GreaterThanEqual))):
        return None
    cap = test.comparisons[0].comparator
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else []
    smalls = body[0].body if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) else []
    if (len(smalls) == 1 and isinstance(smalls[0], cst.Assign) and len(smalls[0].targets) == 1
            and isinstance(smalls[0].targets[0].target, cst.Name) and smalls[0].targets[0].target.value == name
            and smalls[0].value.deep_equals(cap) and _constant(cap)):
        return cap
    return None


def _min_parts(value: cst.BaseExpression) -> Optional[Tuple[cst.BaseExpression, cst.BaseExpression]]:
    """``min(delay, cap)``/``min(cap, delay)`` with a number or a name as the cap: (delay, cap)."""
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "min"):
        return None
    if len(value.args) != 2 or any(a.keyword is not None or a.star for a in value.args):
        return None
    first, second = value.args[0].value, value.args[1].value
    if _constant(second):
        return first, second
    if _constant(first):
        return second, first
    return None


def _constant(expr: cst.BaseExpression) -> bool:
    return number_of(expr) is not None or isinstance(expr, (cst.Name, cst.Attribute))


def _pure(expr: cst.BaseExpression) -> bool:
    """Arithmetic over numbers and (dotted) names: the same value each time it is written."""
    allowed = (
        cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.BinaryOperation, cst.UnaryOperation,
        cst.LeftParen, cst.RightParen, cst.BaseBinaryOp, cst.BaseUnaryOp, cst.SimpleWhitespace,
        cst.ParenthesizedWhitespace, cst.TrailingWhitespace, cst.Newline, cst.EmptyLine, cst.Comment,
        cst.Dot,
    )
    return all(isinstance(n, allowed) for n in iter_nodes(expr))


def _jittered(
    updated: cst.BaseExpression, delay: cst.BaseExpression, cap: Optional[cst.BaseExpression], uniform: cst.BaseExpression,
    some_paths: bool = False,
) -> cst.BaseExpression:
    spread = delay.deep_clone()
    spread = spread.with_changes(lpar=[], rpar=[]) if getattr(spread, "lpar", None) else spread
    draw = cst.Call(uniform.deep_clone(), [cst.Arg(cst.Integer("0")), cst.Arg(spread)])
    total = cst.BinaryOperation(_bare(delay), cst.Add(), draw)
    if cap is None:
        return total
    if updated is not None and _min_parts(updated) is not None:
        # ``min(d, cap)`` → ``min(d + draw, cap)``: the cap stays where it was written
        first = updated.args[0].value  # type: ignore[attr-defined]
        index = 0 if _bare(first).deep_equals(_bare(delay)) else 1
        args = list(updated.args)  # type: ignore[attr-defined]
        args[index] = args[index].with_changes(value=total)
        return updated.with_changes(args=args)
    if some_paths:
        # a cap the loop applies on some paths only (not to a 420's wait): the sum stays within
        # it where the wait does, and a wait already past it keeps its length
        cap = cst.Call(cst.Name("max"), [cst.Arg(_bare(delay)), cst.Arg(_bare(cap))])
    return cst.Call(cst.Name("min"), [cst.Arg(total), cst.Arg(_bare(cap))])


def _bare(expr: cst.BaseExpression) -> cst.BaseExpression:
    """A copy without the parentheses it was written with, except those that an addition
    binding tighter than its operator needs (``(1 << n) + draw``)."""
    copy = expr.deep_clone()
    if isinstance(copy, cst.BinaryOperation) and isinstance(copy.operator, _BELOW_ADDITION):
        return copy.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return copy.with_changes(lpar=[], rpar=[]) if getattr(copy, "lpar", None) else copy


_BELOW_ADDITION = (cst.LeftShift, cst.RightShift, cst.BitAnd, cst.BitOr, cst.BitXor)
