"""RES101/RES102: a client call without a timeout, or with ``None``, gets the deadline-aware
``resilint.runtime.timeout(read=..., connect=...)`` (the ``fix-timeout`` setting's values)."""

from __future__ import annotations

from typing import Dict, Union

import libcst as cst

from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import RUNTIME, use_name
from resilint.codemods.timeout_edits import add_keyword, bare, positive_number, runtime_timeout, seconds, verdicts_to_fix
from resilint.lint.nodes import is_none


class AddTimeout(ResilintCodemod):
    DESCRIPTION = "Pass the deadline-aware `resilint.runtime.timeout(read=..., connect=...)`"
    CODES = ("RES101", "RES102")
    APPLICABILITY = "safe"

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        self._added: Dict[cst.Call, cst.BaseExpression] = {}
        self._replaced: Dict[cst.CSTNode, cst.BaseExpression] = {}
        connect, read = self.settings.fix_timeout
        function = None
        model = self.semantic_model(tree)
        for verdict in verdicts_to_fix(self, model):
            assert verdict.spec is not None
            if verdict.code == "RES101":
                if not isinstance(verdict.anchor, cst.Call):
                    continue
                target: Union[cst.Call, cst.CSTNode] = verdict.anchor
                connect_node = seconds(min(connect, read))
            elif is_none(verdict.node):
                target = verdict.node
                connect_node = seconds(min(connect, read))
            elif _connect_then_none(verdict.node) is not None:
                target = verdict.node
                connect_node = bare(_connect_then_none(verdict.node))  # type: ignore[arg-type]
            else:
                self.leave_alone(verdict.node, "an unbounded value of this shape is not rewritten; bound it by hand")
                continue
            function = function or use_name(self.context, model, RUNTIME, "timeout")
            value = runtime_timeout(function, verdict.spec.library, seconds(read), connect_node)
            if verdict.code == "RES101":
                self._added[verdict.anchor] = value  # type: ignore[index]
            else:
                self._replaced[target] = value
            self.rewriting(verdict.node, target)
        if not self._added and not self._replaced:
            return tree
        return tree.visit(self)

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode):  # type: ignore[no-untyped-def]
        updated = super().on_leave(original_node, updated_node)
        if original_node in self._replaced:
            return self._replaced[original_node]
        if original_node in self._added and isinstance(updated, cst.Call):
            return add_keyword(updated, "timeout", self._added[original_node])
        return updated


def _connect_then_none(node: cst.CSTNode) -> "cst.BaseExpression | None":
    """``c`` of a literal ``(c, None)``: the user's connect timeout, with no read bound."""
    if not isinstance(node, cst.Tuple) or len(node.elements) != 2:
        return None
    first, second = (element.value for element in node.elements)
    if is_none(second) and positive_number(first) is not None:
        return first
    return None
