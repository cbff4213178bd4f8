"""RES202: urllib3 ``Retry(backoff_factor=f)`` sleeps exactly ``f·2ⁿ``; add
``backoff_jitter=f``, a random ``uniform(0, f)`` on top of every sleep (a missing or ``0``
``backoff_jitter`` is given the factor's value). No wait gets shorter; urllib3 caps the sum by
``backoff_max``.

``backoff_jitter`` exists only in urllib3 2.0 and later; on urllib3 1.x (still pinned by
botocore before 1.29 and by many lock files) ``Retry(backoff_jitter=...)`` raises ``TypeError``
when the module is imported. So the fix is safe only where every declaration of urllib3 in the
project (``resilint.lint.dependencies``) guarantees 2.0 or later (``urllib3>=2``, poetry's
``^2.0``); unsafe otherwise, with the reason: an older urllib3 allowed, or urllib3 not declared
at all (requests, which brings it, allows urllib3 1.21 to 2.x: the installed version cannot be
known from the declarations).
A factor that is not a number or a (dotted) name is left alone: it would be evaluated twice.
"""

from __future__ import annotations

import os
from typing import Tuple

import libcst as cst

from resilint.codemods.arguments import add_argument, keyword, replace_argument_value
from resilint.codemods.base import ResilintCodemod
from resilint.libraries.retry_scopes import WAIT_EXPONENTIAL, retry_scopes
from resilint.lint.config import Settings
from resilint.lint.dependencies import dependencies_of
from resilint.lint.nodes import keyword_args, number_of


class Urllib3Jitter(ResilintCodemod):
    DESCRIPTION = "Add backoff_jitter to urllib3 Retry(backoff_factor=...) (RES202, urllib3 >= 2)."
    CODES = ("RES202",)
    APPLICABILITY = "unsafe"

    @classmethod
    def applicability_for(cls, settings: Settings) -> Tuple[str, str]:
        found = dependencies_of(settings)
        declared = found.declared("urllib3")
        if not declared:
            return "unsafe", (
                "`backoff_jitter` needs urllib3 >= 2 and the project does not declare urllib3 (requests allows "
                "urllib3 1.x): the installed version cannot be known"
            )
        if not found.at_least("urllib3", 2):
            older = next(r for r in declared if not r.guarantees_at_least(2))
            return "unsafe", f"`backoff_jitter` needs urllib3 >= 2; {os.path.basename(older.where)} allows `urllib3{older.specifier}`"
        return "safe", ""

    def visit_Module(self, node: cst.Module) -> None:
        model = self.semantic_model(node)
        for policy in retry_scopes(model).policies:
            wait = policy.wait
            if policy.library != "urllib3" or wait.kind != WAIT_EXPONENTIAL or wait.node is None:
                continue
            if not self.is_target(wait.node) or not isinstance(policy.node, cst.Call):
                continue
            factor = wait.node
            if number_of(factor) is None and not isinstance(factor, (cst.Name, cst.Attribute)):  # type: ignore[arg-type]
                self.leave_alone(factor, "`backoff_factor` is computed: add `backoff_jitter=` by hand (urllib3 >= 2)")
                continue
            value = factor.deep_clone()
            existing = keyword_args(policy.node)[0].get("backoff_jitter")
            if existing is not None:
                self.plan(policy.node, lambda updated, a=existing, v=value: replace_argument_value(updated, a, v))
            else:
                self.plan(policy.node, lambda updated, v=value: add_argument(updated, keyword("backoff_jitter", v)))
