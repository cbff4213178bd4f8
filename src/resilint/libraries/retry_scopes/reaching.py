"""Which assignments of a local name reach one statement of a function: a small flow analysis
over its statements (``if``/``else``, loops with ``break``/``continue``, ``try``, ``with``), so
that a sleep is judged by the values it can really be given, on every path to it.

``delay = 2 ** n`` followed by ``delay = jittered(delay)`` on both branches of an ``if`` reaches
the sleep only through the jittered assignments; with one branch, the pure exponential reaches
it too.
"""

from __future__ import annotations

from typing import FrozenSet, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.statements import block
from resilint.lint.traversal import iter_nodes

# One way a value reaches the target: the assignment that set it (None: the parameter's value,
# or no value yet) and the augmented assignments (``delay *= 2``) applied to it since.
Definition = Tuple[Optional[cst.CSTNode], FrozenSet[cst.AugAssign]]
_State = FrozenSet[Definition]
_LOOP_PASSES = 4  # enough for the definitions of one name to stop changing


class _Unknown(Exception):
    """The name is bound in a way this analysis does not follow (a loop target, ``with … as``)."""


def reaching_definitions(
    body: Sequence[cst.BaseStatement], name: str, target: cst.CSTNode
) -> Optional[Set[Definition]]:
    """The definitions of ``name`` that reach the statement holding ``target``, or None when
    that cannot be told (the target is not in ``body``, or ``name`` is bound by other means)."""
    flow = _Flow(name, target)
    try:
        flow.block(body, frozenset({(None, frozenset())}))
    except _Unknown:
        return None
    return set(flow.found) if flow.reached else None


class _Flow:
    def __init__(self, name: str, target: cst.CSTNode) -> None:
        self.name = name
        self.target = target
        self.found: Set[Definition] = set()
        self.reached = False
        self.breaks: List[Set[Definition]] = []
        self.continues: List[Set[Definition]] = []
        self.tries: List[Set[Definition]] = []  # every state seen in an enclosing ``try`` body

    def block(self, stmts: Sequence[cst.BaseStatement], state: Optional[_State]) -> Optional[_State]:
        """The definitions after the block; None when no path falls out of its end."""
        for stmt in stmts:
            if state is None:
                return None
            state = self.statement(stmt, state)
        return state

    def statement(self, stmt: cst.CSTNode, state: _State) -> Optional[_State]:
        if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            current: Optional[_State] = state
            for small in stmt.body:
                if current is None:
                    return None
                current = self.small(small, current)
            return current
        if isinstance(stmt, cst.If):
            taken = self.block(block(stmt.body), state)
            if stmt.orelse is None:
                other: Optional[_State] = state
            elif isinstance(stmt.orelse, cst.If):
                other = self.statement(stmt.orelse, state)
            else:
                other = self.block(block(stmt.orelse.body), state)
            return _join(taken, other)
        if isinstance(stmt, (cst.For, cst.While)):
            return self.loop(stmt, state)
        if isinstance(stmt, (cst.Try, cst.TryStar)):
            return self.try_(stmt, state)
        if isinstance(stmt, cst.With):
            if any(item.asname is not None and self._binds(item.asname.name) for item in stmt.items):
                raise _Unknown
            return self.block(block(stmt.body), state)
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            if stmt.name.value == self.name:
                raise _Unknown
            return state
        if any(self._is_target(n) for n in iter_nodes(stmt)) or self._assigns_in(stmt):
            raise _Unknown  # ``match`` and other statements we do not follow
        return state

    def small(self, small: cst.BaseSmallStatement, state: _State) -> Optional[_State]:
        if any(n is self.target for n in iter_nodes(small)):
            self.reached = True
            self.found |= state
        for frame in self.tries:
            frame |= state
        if isinstance(small, (cst.Return, cst.Raise)):
            return None
        if isinstance(small, cst.Break):
            if self.breaks:
                self.breaks[-1] |= state
            return None
        if isinstance(small, cst.Continue):
            if self.continues:
                self.continues[-1] |= state
            return None
        if isinstance(small, cst.Assign):
            targets = [t.target for t in small.targets]
            if any(isinstance(t, cst.Name) and t.value == self.name for t in targets):
                return frozenset({(small, frozenset())})
            if any(self._binds(t) for t in targets):
                raise _Unknown  # unpacked: ``delay, n = ...``
        elif isinstance(small, cst.AnnAssign) and small.value is not None and self._binds(small.target):
            return frozenset({(small, frozenset())})
        elif isinstance(small, cst.AugAssign) and self._binds(small.target):
            return frozenset((base, augs | {small}) for base, augs in state)
        elif isinstance(small, (cst.Global, cst.Nonlocal)) and any(n.name.value == self.name for n in small.names):
            raise _Unknown
        if any(isinstance(n, cst.NamedExpr) and self._binds(n.target) for n in iter_nodes(small)):
            raise _Unknown
        return state

    def loop(self, stmt: cst.CSTNode, state: _State) -> Optional[_State]:
        assert isinstance(stmt, (cst.For, cst.While))
        if isinstance(stmt, cst.For) and any(self._binds(n) for n in iter_nodes(stmt.target)):
            raise _Unknown
        entry = set(state)
        breaks: Set[Definition] = set()
        for _ in range(_LOOP_PASSES):
            self.breaks.append(set())
            self.continues.append(set())
            out = self.block(block(stmt.body), frozenset(entry))
            breaks |= self.breaks.pop()
            again = self.continues.pop() | (out or frozenset())
            if again <= entry:
                break
            entry |= again
        forever = isinstance(stmt, cst.While) and isinstance(stmt.test, cst.Name) and stmt.test.value == "True"
        after: Optional[_State] = None if forever else frozenset(entry)
        if stmt.orelse is not None and after is not None:
            after = self.block(block(stmt.orelse.body), after)
        return _join(after, frozenset(breaks) if breaks else None)

    def try_(self, stmt: cst.CSTNode, state: _State) -> Optional[_State]:
        assert isinstance(stmt, (cst.Try, cst.TryStar))
        self.tries.append(set(state))
        out = self.block(block(stmt.body), state)
        seen = frozenset(self.tries.pop())
        for frame in self.tries:
            frame |= seen
        if stmt.orelse is not None and out is not None:
            out = self.block(block(stmt.orelse.body), out)
        for handler in stmt.handlers:
            if handler.name is not None and self._binds(handler.name.name):
                raise _Unknown
            out = _join(out, self.block(block(handler.body), seen))
        if stmt.finalbody is not None:
            out = self.block(block(stmt.finalbody.body), out or seen)
        return out

    def _binds(self, target: cst.CSTNode) -> bool:
        return any(isinstance(n, cst.Name) and n.value == self.name for n in iter_nodes(target))

    def _is_target(self, node: cst.CSTNode) -> bool:
        return node is self.target

    def _assigns_in(self, stmt: cst.CSTNode) -> bool:
        return any(
            isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.NamedExpr)) for n in iter_nodes(stmt)
        )


def _join(a: Optional[_State], b: Optional[_State]) -> Optional[_State]:
    if a is None:
        return b
    if b is None:
        return a
    return a | b
