"""RES101/RES102: a client call without a timeout, or with ``None``, gets a named bound: the
scope's own (a ``timeout`` parameter, ``self.timeout``, a module ``*TIMEOUT*`` constant) when
it has a bounded one, else one module constant per value and file holding the ``fix-timeout``
setting's seconds (``timeout_values``), passed as it is (native target) or through the
deadline-aware ``resilint.runtime.timeout(read=..., connect=...)`` (runtime target)."""

from __future__ import annotations

from typing import Optional, Union

import libcst as cst
from libcst.codemod import CodemodContext

from resilint.codemods.base import ResilintCodemod, Span
from resilint.codemods.timeout_edits import add_keyword, positive_number, verdicts_to_fix
from resilint.codemods.timeout_values import NamedTimeouts, fix_target_of, or_bound
from resilint.codemods.wrapping import LineFit
from resilint.lint.nodes import is_none


class AddTimeout(ResilintCodemod):
    DESCRIPTION = "Pass a named timeout: the scope's own bound, or a module constant (through `resilint.runtime.timeout` with the runtime target)"
    CODES = ("RES101", "RES102")
    APPLICABILITY = "safe"

    def __init__(self, context: CodemodContext, targets: Optional["frozenset[Span]"] = None, fix_target: Optional[str] = None) -> None:
        super().__init__(context, targets)
        self.given_target = fix_target  # None: the run's (``timeout_values.fix_target_of``)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        connect, read = self.settings.fix_timeout
        model = self.semantic_model(tree)
        values: Optional[NamedTimeouts] = None
        fit = LineFit(self, tree, model)
        for verdict in verdicts_to_fix(self, model):
            assert verdict.spec is not None
            call = verdict.anchor
            if not isinstance(call, cst.Call):
                continue
            own_connect = None
            if verdict.code == "RES101":
                target: Union[cst.Call, cst.CSTNode] = call
            elif is_none(verdict.node):
                target = verdict.node
            elif _connect_then_none(verdict.node) is not None:
                target = verdict.node
                own_connect = positive_number(_connect_then_none(verdict.node))  # type: ignore[arg-type]
            else:
                self.leave_alone(verdict.node, "an unbounded value of this shape is not rewritten; bound it by hand")
                continue
            values = values or NamedTimeouts(self, model, tree, fix_target_of(self, self.given_target))
            library = verdict.spec.library
            # The user's own connect timeout stays theirs: only the missing read bound is added.
            reused = values.in_scope(call, library) if own_connect is None else None
            if reused is None or not reused[1]:
                bound = values.value(own_connect or min(connect, read), read, library, verdict.node, call)
                # a setting of the user's that may be None keeps its place before the bound
                value = bound if reused is None else or_bound(reused[0], bound)
            else:
                value = reused[0]
            wrap = fit.wrapper(call)  # a call grown past the line length is wrapped as black would
            if verdict.code == "RES101":
                self.plan(target, lambda updated, v=value, w=wrap: w(_with_timeout(updated, v)))
            else:
                self.plan(target, lambda _, v=value: v)
                self.plan(call, wrap)
                self.rewriting(verdict.node, call)
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
