"""RES203: give an unbounded library retry an attempt limit, in the library's own terms.

* tenacity: no ``stop=`` → ``stop=stop_after_attempt(N)``; ``stop=stop_never`` → the same;
* backoff: ``max_tries=N`` (added, or replacing ``max_tries=None``);
* retrying: ``stop_max_attempt_number=N``;
* stamina: ``attempts=None`` → ``attempts=N``;
* celery: ``max_retries=None`` → ``max_retries=N - 1`` (celery counts retries, not attempts).

N is the total number of attempts, 5 unless given (``--attempts`` on the LibCST command line,
``attempts=`` to the class): more than the runtime's default of 3, because code written to retry
forever usually expects a persistent retry, and few enough that a dependency that stays down
sees at most 5 calls per operation. Only the limit changes: the wait and what is retried stay.

Left alone (listed): hand-written ``while True`` retry loops (a bound restructures their control
flow: rewrite them with ``resilint.runtime.retrying``), stop conditions built by project
functions or combined with ``|``/``&``.
"""

from __future__ import annotations

import argparse
from typing import Collection, Optional

import libcst as cst
from libcst.codemod import CodemodContext

from resilint.codemods.arguments import add_argument, keyword
from resilint.codemods.base import ResilintCodemod, Span
from resilint.codemods.imports import sibling
from resilint.libraries.retry_scopes import Policy, normalise, retry_scopes
from resilint.lint.nodes import keyword_args

DEFAULT_ATTEMPTS = 5


class AddBound(ResilintCodemod):
    DESCRIPTION = "Bound unbounded tenacity/backoff/retrying/stamina/celery retries to N attempts (RES203)."
    CODES = ("RES203",)
    APPLICABILITY = "safe"

    def __init__(self, context: CodemodContext, targets: Optional[Collection[Span]] = None, attempts: int = DEFAULT_ATTEMPTS) -> None:
        super().__init__(context, targets)
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.attempts = attempts

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument(
            "--attempts", type=int, default=DEFAULT_ATTEMPTS,
            help=f"total attempts given to an unbounded retry (default {DEFAULT_ATTEMPTS})",
        )

    def visit_Module(self, node: cst.Module) -> None:
        self.model = self.semantic_model(node)
        for policy in retry_scopes(self.model).policies:
            limit = policy.attempts
            if limit.inherited or limit.kind != "unbounded":
                continue
            reported = policy.limit_anchor
            if not self.is_target(reported):
                continue
            if not self._bound(policy, limit.node):
                self.leave_alone(reported, _why_not(policy, self.fix_target))

    def _bound(self, policy: Policy, given: Optional[cst.CSTNode]) -> bool:
        n = self.attempts
        call = policy.node.decorator if isinstance(policy.node, cst.Decorator) else policy.node
        if policy.library == "tenacity":
            like = call.func if isinstance(call, cst.Call) else call
            stop = cst.Call(sibling(self.context, self.model, like, "tenacity", "stop_after_attempt"), [cst.Arg(cst.Integer(str(n)))])  # type: ignore[arg-type]
            if given is not None:
                if normalise(self.model.qualified_name(given, policy.scope, policy.order)) != "tenacity.stop_never":  # type: ignore[arg-type]
                    return False
                self.plan(given, lambda _: stop)
            elif isinstance(call, cst.Call):
                self.plan(call, lambda updated: add_argument(updated, keyword("stop", stop)))
            else:  # a bare ``@retry``
                self.plan(call, lambda updated: cst.Call(updated, [keyword("stop", stop)]))
            return True
        if policy.library in ("backoff", "retrying") and isinstance(call, cst.Call):
            name = "max_tries" if policy.library == "backoff" else "stop_max_attempt_number"
            existing = keyword_args(call)[0].get(name)
            if existing is not None:
                self.plan(existing.value, lambda _: cst.Integer(str(n)))
            else:
                self.plan(call, lambda updated: add_argument(updated, keyword(name, cst.Integer(str(n)))))
            return True
        if policy.library == "stamina" and isinstance(call, cst.Call):
            existing = keyword_args(call)[0].get("attempts")
            if existing is None:
                return False
            self.plan(existing.value, lambda _: cst.Integer(str(n)))
            return True
        if policy.library == "celery" and given is not None:
            self.plan(given, lambda _: cst.Integer(str(n - 1)))
            return True
        return False


def _why_not(policy: Policy, target: str) -> str:
    if policy.library == "loop":
        way = "rewrite it with `resilint.runtime.retrying`" if target == "runtime" else "a deadline"
        return (
            "a hand-written retry loop with no limit: bounding it restructures its control flow; "
            f"add an attempt counter or {way}"
        )
    return f"a {policy.library} stop condition built elsewhere: bound it by hand"
