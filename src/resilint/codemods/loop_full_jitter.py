"""RES202, runtime target: the reported sleep of a hand-written retry loop sleeps a uniform
draw below its delay: ``time.sleep(2 ** attempt)`` → ``time.sleep(full_jitter(2 ** attempt))``
(``resilint.runtime.full_jitter``, full jitter over the delay the loop already computes, so its
growth and its cap stay the loop's own).

Unsafe: full jitter halves the mean wait, and any single wait may be near zero (a loop that
waits out a service's documented minimum, or whose attempts bound a readiness window, waits
less). The safe fix is ``loop-jitter``, which adds jitter on top.

Only the sleep the finding points at is wrapped: one jittered sleep makes the loop jittered
for the rule, and the loop's other sleeps were never reported.
"""

from __future__ import annotations

import libcst as cst

from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import RUNTIME, name_node
from resilint.libraries.retry_scopes import WAIT_EXPONENTIAL, WAIT_FIXED, calls_within, normalise, retry_scopes
from resilint.libraries.retry_scopes.delays import delay_kind
from resilint.libraries.retry_scopes.names import SLEEPS
from resilint.libraries.retry_scopes.recogniser import Recogniser
from resilint.libraries.retry_scopes.statements import block, growing_names
from resilint.lint.nodes import call_argument


class LoopFullJitter(ResilintCodemod):
    DESCRIPTION = "Sleep resilint.runtime's full-jitter draw of the delay in hand-written retry loops (RES202)."
    CODES = ("RES202",)
    APPLICABILITY = "unsafe"
    TARGETS = ("runtime",)

    def visit_Module(self, node: cst.Module) -> None:
        self.model = self.semantic_model(node)
        found = retry_scopes(self.model)
        recogniser = Recogniser(self.model)
        for scope in found.scopes:
            policy = scope.policy
            if policy.library != "loop" or policy.wait.kind not in (WAIT_FIXED, WAIT_EXPONENTIAL):
                continue
            if policy.wait.node is None or not self.is_target(policy.wait.node):
                continue
            loop = policy.node
            recogniser.growing = growing_names(block(loop.body))  # type: ignore[attr-defined]
            for call in calls_within(self.model, scope):
                if call.node is not policy.wait.node:
                    continue  # only the finding's statement
                if normalise(self.model.call_name(call)) not in SLEEPS:
                    continue
                argument = call_argument(call.node, "seconds", 0) or call_argument(call.node, "delay", 0)
                if argument is None:
                    continue
                kind, _ = delay_kind(recogniser, argument.value, call.scope, call.order, loop, site=call)
                if kind in (WAIT_FIXED, WAIT_EXPONENTIAL):
                    jitter = name_node(self.context, self.model, RUNTIME, "full_jitter")
                    self.plan(argument.value, lambda updated, f=jitter: cst.Call(f, [cst.Arg(updated)]))
