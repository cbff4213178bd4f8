"""RES202: a hand-written retry loop that sleeps a constant or a pure exponential sleeps a
uniform draw below it instead: ``time.sleep(2 ** attempt)`` →
``time.sleep(full_jitter(2 ** attempt))`` (``resilint.runtime.full_jitter``, full jitter over
the delay the loop already computes, so its growth and its cap stay the loop's own).

Every sleep of the loop whose delay the rule judges constant or purely exponential is
wrapped, so that one run leaves nothing for a second. A sleep whose delay comes from
elsewhere (a server's ``Retry-After``, a helper of another module) is not touched.
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


class LoopJitter(ResilintCodemod):
    DESCRIPTION = "Sleep a full-jitter draw in hand-written retry loops (RES202)."
    CODES = ("RES202",)
    APPLICABILITY = "safe"

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
                if normalise(self.model.call_name(call)) not in SLEEPS:
                    continue
                argument = call_argument(call.node, "seconds", 0) or call_argument(call.node, "delay", 0)
                if argument is None:
                    continue
                kind, _ = delay_kind(recogniser, argument.value, call.scope, call.order, loop, site=call)
                if kind in (WAIT_FIXED, WAIT_EXPONENTIAL):
                    jitter = name_node(self.context, self.model, RUNTIME, "full_jitter")
                    self.plan(argument.value, lambda updated, f=jitter: cst.Call(f, [cst.Arg(updated)]))
