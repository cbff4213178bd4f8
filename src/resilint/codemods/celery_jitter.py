"""RES202: celery's ``retry_jitter=False`` → ``retry_jitter=True``.

Unsafe: celery's jitter is full jitter (each countdown becomes a uniform draw below the
exponential one), which halves the mean wait and may make any single wait near zero. Celery
offers nothing that adds jitter on top.

Left alone (listed): tasks with ``autoretry_for`` but no ``retry_backoff`` (adding it replaces
the fixed delay with a new schedule, not only its spread) and ``self.retry(countdown=...)``.
"""

from __future__ import annotations

import libcst as cst

from resilint.codemods.arguments import replace_argument_value
from resilint.codemods.base import ResilintCodemod
from resilint.libraries.retry_scopes import WAIT_EXPONENTIAL, WAIT_FIXED, WAIT_NONE, retry_scopes


class CeleryJitter(ResilintCodemod):
    DESCRIPTION = "Turn celery's retry_jitter back on: full jitter, shorter waits on average (RES202)."
    CODES = ("RES202",)
    APPLICABILITY = "unsafe"

    def visit_Module(self, node: cst.Module) -> None:
        for policy in retry_scopes(self.semantic_model(node)).policies:
            wait = policy.wait
            if policy.library != "celery" or wait.inherited or wait.kind not in (WAIT_NONE, WAIT_FIXED, WAIT_EXPONENTIAL):
                continue
            target = wait.node if wait.node is not None else policy.node
            if not self.is_target(target):
                continue
            if policy.kind == "task" and wait.kind == WAIT_EXPONENTIAL and isinstance(policy.node, cst.Call):
                arg = next((a for a in policy.node.args if a.value is wait.node), None)
                if arg is not None:
                    self.plan(policy.node, lambda updated, a=arg: replace_argument_value(updated, a, cst.Name("True")))
                    continue
            if policy.kind == "task":
                self.leave_alone(target, (
                    "celery `autoretry_for` without `retry_backoff`: adding it replaces the fixed delay with a new "
                    "schedule; choose `retry_backoff`/`retry_backoff_max` by hand"
                ))
            else:
                self.leave_alone(target, "celery `self.retry(countdown=...)`: add a random term on top of the countdown by hand")
