"""RES103: a timeout written as a number becomes a named, split one: one module constant per
value and file (``timeout_values``), reused by every call with that value: ``HTTP_TIMEOUT =
(connect, read)`` for requests or ``httpx.Timeout(read, connect=...)`` (native target), or
named seconds passed through the deadline-aware ``resilint.runtime.timeout(read=...,
connect=...)`` (runtime target). The user's number stays the read ceiling; a literal ``(c, r)``
keeps both of its values.

RES104 (one scalar from a name for both phases) is not rewritten: a literal is RES103 first, and
a name's value is split where it is defined, not at each call that uses it."""

from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst
from libcst.codemod import CodemodContext

from resilint.codemods.base import ResilintCodemod, Span
from resilint.codemods.timeout_edits import positive_number, verdicts_to_fix
from resilint.codemods.timeout_values import NamedTimeouts, Number, fix_target_of, positive_pair
from resilint.codemods.wrapping import LineFit


class SplitTimeout(ResilintCodemod):
    DESCRIPTION = "Name the timeout: one module constant per value, split into connect and read (through `resilint.runtime.timeout` with the runtime target)"
    CODES = ("RES103",)
    APPLICABILITY = "unsafe"

    def __init__(self, context: CodemodContext, targets: Optional["frozenset[Span]"] = None, fix_target: Optional[str] = None) -> None:
        super().__init__(context, targets)
        self.given_target = fix_target  # None: the run's (``timeout_values.fix_target_of``)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        connect, _ = self.settings.fix_timeout
        model = self.semantic_model(tree)
        values: Optional[NamedTimeouts] = None
        fit = LineFit(self, tree, model)
        for verdict in verdicts_to_fix(self, model):
            assert verdict.spec is not None
            phases = _phases(verdict.node, connect)
            if phases is None or not isinstance(verdict.anchor, cst.Call):
                self.leave_alone(verdict.node, "only a number or a literal `(connect, read)` pair is rewritten")
                continue
            values = values or NamedTimeouts(self, model, tree, fix_target_of(self, self.given_target))
            read, phase_connect = phases
            value = values.value(phase_connect, read, verdict.spec.library, verdict.node, verdict.anchor)
            self.plan(verdict.node, lambda _, v=value: v)
            self.plan(verdict.anchor, fit.wrapper(verdict.anchor))  # wrapped as black would, if it grew too long
            self.rewriting(verdict.node, verdict.anchor)
            self.rewriting(verdict.node, verdict.node)
        return tree.visit(self) if self._edits else tree


def _phases(node: cst.CSTNode, connect: float) -> Optional[Tuple[Number, Number]]:
    """(read, connect) seconds: a number N reads (N, min(connect, N)); a literal pair ``(c, r)``
    reads (r, c)."""
    pair = positive_pair(node)  # type: ignore[arg-type]
    if pair is not None:
        return pair[1], pair[0]
    if isinstance(node, cst.Tuple):
        return None
    value = positive_number(node)  # type: ignore[arg-type]
    if value is None:
        return None
    return value, min(connect, value)
