"""RES202, runtime target: the reported sleep of a hand-written retry loop sleeps a uniform
draw below its delay: ``time.sleep(2 ** attempt)`` → ``time.sleep(full_jitter(2 ** attempt))``
(``resilint.runtime.full_jitter``, full jitter over the delay the loop already computes, so its
growth and its cap stay the loop's own).

Unsafe: full jitter halves the mean wait, and any single wait may be near zero (a loop that
waits out a service's documented minimum, or whose attempts bound a readiness window, waits
less). The safe fix is ``loop-jitter``, which adds jitter on top; ``resilint fix`` runs only
that one, and this codemod runs when asked for by name (``resilint codemod loop-full-jitter``).

Only the sleep the finding points at is wrapped: one jittered sleep makes the loop jittered
for the rule, and the loop's other sleeps were never reported.
"""

from __future__ import annotations

import libcst as cst

from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import RUNTIME, name_node
from resilint.codemods.loop_jitter import reported_sleeps


class LoopFullJitter(ResilintCodemod):
    DESCRIPTION = "Sleep resilint.runtime's full-jitter draw of the delay in hand-written retry loops (RES202)."
    CODES = ("RES202",)
    APPLICABILITY = "unsafe"
    TARGETS = ("runtime",)
    # Full jitter shortens waits: asked for by name. ``fix`` adds jitter on top (``loop-jitter``)
    # and leaves a delay it cannot (one computed by a call) to the user, with the reason.
    RUN_BY_FIX = False

    def visit_Module(self, node: cst.Module) -> None:
        self.model = self.semantic_model(node)
        for _, delay, _ in reported_sleeps(self, self.model):
            jitter = name_node(self.context, self.model, RUNTIME, "full_jitter")
            self.plan(delay, lambda updated, f=jitter: cst.Call(f, [cst.Arg(updated)]))
