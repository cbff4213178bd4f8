"""The statement-level structure of loop bodies: which blocks leave the loop, which names they
count or grow, and whether a ``for`` loop counts attempts."""

from __future__ import annotations

from typing import TYPE_CHECKING, AbstractSet, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.lint.nodes import dotted_name, expression_nodes
from resilint.lint.semantic import Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser


def block(node: cst.BaseSuite) -> Sequence[cst.BaseStatement]:
    if isinstance(node, cst.IndentedBlock):
        return node.body
    return [node]  # type: ignore[list-item]  # SimpleStatementSuite: treat like one line


def named_classes(types: Optional[cst.BaseExpression]) -> List[cst.BaseExpression]:
    """The classes an ``except`` clause (or ``isinstance``) names: a tuple's elements, or the one
    expression (none for a bare ``except:``)."""
    if types is None:
        return []
    return [e.value for e in types.elements] if isinstance(types, cst.Tuple) else [types]


def small_statements(stmt: cst.CSTNode) -> Sequence[cst.BaseSmallStatement]:
    if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return stmt.body
    return ()


def leaves(stmts: Sequence[cst.BaseStatement]) -> bool:
    """Whether running this block always leaves the loop (raise / return / break)."""
    for stmt in reversed(stmts):
        smalls = small_statements(stmt)
        if smalls:
            for small in smalls:
                if isinstance(small, (cst.Raise, cst.Return, cst.Break)) or _never_returns(small):
                    return True
                if isinstance(small, cst.Continue):
                    return False
            if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                # Keep looking upwards only if this line has no effect on leaving.
                continue
        if isinstance(stmt, cst.If):
            return _if_leaves(stmt)
        if isinstance(stmt, (cst.With,)):
            return leaves(block(stmt.body))
        if isinstance(stmt, cst.Try):
            return leaves(block(stmt.body)) and all(leaves(block(h.body)) for h in stmt.handlers)
        return False
    return False


# Calls that never return: the process ends (``sys.exit(1)``), or they always raise (flask's
# ``abort(502)``, frappe's ``frappe.throw(msg)``, pytest's ``pytest.fail(msg)``); the loop ends
# with them. Spelled as written, since this walk has no model to resolve names with.
_NEVER_RETURNING = frozenset({
    "exit", "quit", "sys.exit", "os._exit", "os.abort", "flask.abort", "frappe.throw",
    "pytest.fail", "pytest.skip", "pytest.exit", "self.fail", "self.skipTest",
})


def raises_for_status(small: cst.CSTNode) -> bool:
    """``r.raise_for_status()`` as a statement of its own: every failed status leaves there."""
    call = small.value if isinstance(small, cst.Expr) else None
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "raise_for_status"


def _never_returns(small: cst.BaseSmallStatement) -> bool:
    value = small.value if isinstance(small, cst.Expr) else None
    return isinstance(value, cst.Call) and dotted_name(value.func) in _NEVER_RETURNING


def _if_leaves(node: cst.If) -> bool:
    if not leaves(block(node.body)):
        return False
    orelse = node.orelse
    if orelse is None:
        return False
    if isinstance(orelse, cst.If):
        return _if_leaves(orelse)
    return leaves(block(orelse.body))


def walk_statements(stmts: Sequence[cst.BaseStatement]) -> Iterator[cst.CSTNode]:
    """Statements and small statements in a loop body, not entering nested loops or defs."""
    for stmt in stmts:
        yield stmt
        for small in small_statements(stmt):
            yield small
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef, cst.For, cst.While)):
            continue
        if isinstance(stmt, cst.If):
            yield from walk_statements(block(stmt.body))
            orelse = stmt.orelse
            while orelse is not None:
                if isinstance(orelse, cst.If):
                    yield orelse
                    yield from walk_statements(block(orelse.body))
                    orelse = orelse.orelse
                else:
                    yield from walk_statements(block(orelse.body))
                    orelse = None
        elif isinstance(stmt, cst.With):
            yield from walk_statements(block(stmt.body))
        elif isinstance(stmt, (cst.Try, cst.TryStar)):
            yield from walk_statements(block(stmt.body))
            for handler in stmt.handlers:
                yield handler
                yield from walk_statements(block(handler.body))
            if stmt.orelse is not None:
                yield from walk_statements(block(stmt.orelse.body))
            if stmt.finalbody is not None:
                yield from walk_statements(block(stmt.finalbody.body))


def blocks(stmts: Sequence[cst.BaseStatement]) -> Iterator[Sequence[cst.BaseStatement]]:
    """This block and every block nested in it (``if``/``else``, ``with``, ``try`` and its
    handlers), not entering nested loops or defs: each statement with its neighbours."""
    yield stmts
    for stmt in stmts:
        for child in child_blocks(stmt):
            yield from blocks(child)


def child_blocks(stmt: cst.CSTNode) -> List[Sequence[cst.BaseStatement]]:
    if isinstance(stmt, cst.If):
        found = [block(stmt.body)]
        if isinstance(stmt.orelse, cst.If):
            found.append([stmt.orelse])  # ``elif``: a block of one ``if``
        elif stmt.orelse is not None:
            found.append(block(stmt.orelse.body))
        return found
    if isinstance(stmt, cst.With):
        return [block(stmt.body)]
    if isinstance(stmt, (cst.Try, cst.TryStar)):
        found = [block(stmt.body)] + [block(h.body) for h in stmt.handlers]
        for extra in (stmt.orelse, stmt.finalbody):
            if extra is not None:
                found.append(block(extra.body))
        return found
    return []


def guarded_exits(
    stmts: Sequence[cst.BaseStatement],
    guards: Tuple[cst.BaseExpression, ...] = (),
    flags: AbstractSet[str] = frozenset(),
) -> Iterator[Tuple[cst.CSTNode, Tuple[cst.BaseExpression, ...]]]:
    """Each way out of the loop from this block, with the tests of the ``if``s it sits under: a
    ``return``/``break``, or an assignment to a flag of ``while not done``. A ``return`` inside a
    nested loop (a read loop in the ``try``) leaves this loop too; a ``break`` there does not.
    An ``assert`` guards what follows it in its block (``assert count == n`` then ``return``)."""
    for stmt in stmts:
        for small in small_statements(stmt):
            if isinstance(small, (cst.Return, cst.Break)) or (flags and flags & assigned_names([small])):
                yield small, guards
            elif isinstance(small, cst.Assert):
                guards = guards + (small.test,)
        if isinstance(stmt, cst.If):
            tests = guards + (stmt.test,)
            yield from guarded_exits(block(stmt.body), tests, flags)
            if isinstance(stmt.orelse, cst.If):
                yield from guarded_exits([stmt.orelse], tests, flags)
            elif stmt.orelse is not None:
                yield from guarded_exits(block(stmt.orelse.body), tests, flags)
        elif isinstance(stmt, (cst.For, cst.While)):
            for node, inner in guarded_exits(block(stmt.body), guards):
                if isinstance(node, cst.Return):
                    yield node, inner
        elif not isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            for child in child_blocks(stmt):
                yield from guarded_exits(child, guards, flags)


def unconditional_names(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """Names every pass through this block assigns (top-level statements, ``with`` bodies)."""
    names: Set[str] = set()
    for stmt in stmts:
        if isinstance(stmt, cst.With):
            names |= unconditional_names(block(stmt.body))
        elif small_statements(stmt):
            names |= assigned_names([stmt])
    return names


def has_exit(stmts: Sequence[cst.BaseStatement]) -> bool:
    """A return or break somewhere in the block (the loop can be left on success)."""
    return any(isinstance(n, (cst.Return, cst.Break)) for n in walk_statements(stmts))


def has_continue(stmts: Sequence[cst.BaseStatement]) -> bool:
    return any(isinstance(n, cst.Continue) for n in walk_statements(stmts))


def assigned_names(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    names: Set[str] = set()
    for node in walk_statements(stmts):
        targets: List[cst.BaseExpression] = []
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            targets = [node.target]
        while targets:
            target = targets.pop()
            if isinstance(target, (cst.Tuple, cst.List)):  # ``stream_fd, prebuffer = open_stream(...)``
                targets.extend(e.value for e in target.elements)
                continue
            text = dotted_name(target)
            if text:
                names.add(text)
    return names


def counter_names(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """Names changed by ``+=``/``-=`` or ``x = x + 1`` in the loop: attempt counters; and lists
    of delays used up one per pass (``delays = delays[1:]``, ``delays.pop(0)``), whose running
    out (``if not delays: raise``) ends the loop as a counter would."""
    names: Set[str] = set()
    for node in walk_statements(stmts):
        if isinstance(node, cst.AugAssign) and isinstance(node.operator, (cst.AddAssign, cst.SubtractAssign)):
            text = dotted_name(node.target)
            if text:
                names.add(text)
        elif isinstance(node, cst.Assign) and len(node.targets) == 1:
            text = dotted_name(node.targets[0].target)
            value = node.value
            if text and isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract)):
                if dotted_name(value.left) == text or dotted_name(value.right) == text:
                    names.add(text)
            elif (text and isinstance(value, cst.Subscript) and dotted_name(value.value) == text
                  and any(isinstance(e.slice, cst.Slice) for e in value.slice)):
                names.add(text)
    return names | used_up(stmts)


def used_up(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """The collections the block takes an item off (``delays.pop(0)``, ``stack.pop()``)."""
    names: Set[str] = set()
    for node in walk_statements(stmts):
        for small in small_statements(node) if isinstance(node, cst.SimpleStatementLine) else ():
            for part in expression_nodes(small):
                if (isinstance(part, cst.Call) and isinstance(part.func, cst.Attribute)
                        and part.func.attr.value in ("pop", "popleft")):
                    text = dotted_name(part.func.value)
                    if text:
                        names.add(text)
    return names


def growing_names(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """Names multiplied in the loop (``delay *= 2``, ``delay = min(delay * 2, cap)``)."""
    names: Set[str] = set()
    for node in walk_statements(stmts):
        if isinstance(node, cst.AugAssign) and isinstance(node.operator, (cst.MultiplyAssign, cst.PowerAssign, cst.LeftShiftAssign)):
            text = dotted_name(node.target)
            if text:
                names.add(text)
        elif isinstance(node, cst.Assign) and len(node.targets) == 1:
            text = dotted_name(node.targets[0].target)
            if text is None:
                continue
            for part in expression_nodes(node.value):
                if isinstance(part, cst.BinaryOperation) and isinstance(part.operator, (cst.Multiply, cst.Power, cst.LeftShift)):
                    if dotted_name(part.left) == text or dotted_name(part.right) == text:
                        names.add(text)
    return names


def branch(node: Optional[cst.CSTNode]) -> Sequence[cst.BaseStatement]:
    if node is None:
        return []
    if isinstance(node, cst.Else):
        return block(node.body)
    if isinstance(node, cst.If):
        return [node]
    return block(node)  # type: ignore[arg-type]


def conditional_exit(node: cst.If) -> bool:
    """An ``if`` one of whose branches leaves the loop."""
    if leaves(block(node.body)) or any(isinstance(n, (cst.Raise, cst.Return, cst.Break)) for n in walk_statements(block(node.body))):
        return True
    orelse = node.orelse
    if isinstance(orelse, cst.Else):
        return leaves(block(orelse.body))
    return False


def is_counting(rec: Recogniser, loop: cst.For, scope: Scope, order: int) -> bool:
    iterator = loop.iter
    if isinstance(iterator, cst.Call):
        name = rec.expr_name(iterator.func, scope, order)
        return name in ("builtins.range", "itertools.count", "itertools.repeat", "builtins.enumerate") and (
            name != "builtins.enumerate" or _is_counting_iter(rec, iterator, scope, order)
        ) or (name == "builtins.reversed" and _is_counting_iter(rec, iterator, scope, order))  # counting down
    return False


def _is_counting_iter(rec: Recogniser, call: cst.Call, scope: Scope, order: int) -> bool:
    if not call.args or not isinstance(call.args[0].value, cst.Call):
        return False
    return rec.expr_name(call.args[0].value.func, scope, order) in ("builtins.range", "itertools.count", "itertools.repeat")
