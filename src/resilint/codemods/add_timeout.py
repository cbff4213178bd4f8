"""RES101/RES102: a client call without a timeout, or with ``None``, gets the deadline-aware
``resilint.runtime.timeout(read=..., connect=...)`` (the ``fix-timeout`` setting's values)."""

from __future__ import annotations

from typing import Union

import libcst as cst

from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import RUNTIME, use_name
from resilint.codemods.timeout_edits import add_keyword, bare, positive_number, runtime_timeout, seconds, verdicts_to_fix
from resilint.lint.nodes import is_none


class AddTimeout(ResilintCodemod):
    DESCRIPTION = "Pass the deadline-aware `resilint.runtime.timeout(read=..., connect=...)`"
    CODES = ("RES101", "RES102")
    APPLICABILITY = "safe"
    TARGETS = ("runtime",)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
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
                self.plan(target, lambda updated, v=value: _with_timeout(updated, v))
            else:
                self.plan(target, lambda _, v=value: v)
            self.rewriting(verdict.node, target)
        return tree.visit(self) if self._edits else tree


def _with_timeout(call: cst.CSTNode, value: cst.BaseExpression) -> cst.CSTNode:
    return add_keyword(call, "timeout", value) if isinstance(call, cst.Call) else call


def _connect_then_none(node: cst.CSTNode) -> "cst.BaseExpression | None":
    """``c`` of a literal ``(c, None)``: the user's connect timeout, with no read bound."""
    if not isinstance(node, cst.Tuple) or len(node.elements) != 2:
        return None
    first, second = (element.value for element in node.elements)
    if is_none(second) and positive_number(first) is not None:
        return first
    return None
