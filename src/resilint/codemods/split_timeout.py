"""RES103: a timeout written as a number becomes the deadline-aware, split
``resilint.runtime.timeout(read=N, connect=...)``; the user's number stays the read ceiling, a
literal ``(c, r)`` keeps both of its values.

RES104 (one scalar from a name for both phases) is not rewritten: a literal is RES103 first, and
a name's value is split where it is defined, not at each call that uses it."""

from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst

from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import RUNTIME, use_name
from resilint.codemods.timeout_edits import bare, positive_number, runtime_timeout, seconds, verdicts_to_fix


class SplitTimeout(ResilintCodemod):
    DESCRIPTION = "Use the deadline-aware, split `resilint.runtime.timeout(read=..., connect=...)`"
    CODES = ("RES103",)
    APPLICABILITY = "unsafe"
    TARGETS = ("runtime",)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        connect, _ = self.settings.fix_timeout
        function = None
        model = self.semantic_model(tree)
        for verdict in verdicts_to_fix(self, model):
            assert verdict.spec is not None
            phases = _phases(verdict.node, connect)
            if phases is None:
                self.leave_alone(verdict.node, "only a number or a literal `(connect, read)` pair is rewritten")
                continue
            function = function or use_name(self.context, model, RUNTIME, "timeout")
            read_node, connect_node = phases
            value = runtime_timeout(function, verdict.spec.library, read_node, connect_node)
            self.plan(verdict.node, lambda _, v=value: v)
            self.rewriting(verdict.node, verdict.node)
        return tree.visit(self) if self._edits else tree


def _phases(node: cst.CSTNode, connect: float) -> Optional[Tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(read, connect) expressions for the runtime: a number N reads (N, min(connect, N)); a
    literal pair ``(c, r)`` reads (r, c)."""
    if isinstance(node, cst.Tuple) and len(node.elements) == 2:
        first, second = (element.value for element in node.elements)
        if positive_number(first) is not None and positive_number(second) is not None:
            return bare(second), bare(first)
        return None
    value = positive_number(node)  # type: ignore[arg-type]
    if value is None:
        return None
    return bare(node), seconds(min(connect, value))  # type: ignore[arg-type]
