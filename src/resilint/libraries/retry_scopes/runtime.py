"""resilint's own runtime: ``@resilint.runtime.retry(...)`` and ``retrying(...)`` loops."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import libcst as cst

from resilint.libraries.retry_scopes.model import (
    ON_SPECIFIC,
    UNKNOWN,
    WAIT_JITTERED,
    Policy,
    Setting,
)
from resilint.lint.nodes import call_argument, is_false
from resilint.lint.semantic import Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

DECORATORS = frozenset({"resilint.runtime.retry", "resilint.runtime.retry.retry"})
LOOPS = frozenset({"resilint.runtime.retrying", "resilint.runtime.retry.retrying"})


def build_policy(rec: Recogniser, node: cst.CSTNode, scope: Scope, order: int, kind: str) -> Policy:
    keywords, star = rec.keywords(node, scope, order) if isinstance(node, cst.Call) else ({}, False)
    policy = Policy("resilint", kind, node, scope=scope, order=order)
    attempts = (call_argument(node, "attempts", 0 if kind == "iterator" else None) or keywords.get("attempts")) if isinstance(node, cst.Call) else None
    policy.max_attempts = rec.int_value(attempts.value, scope, order) if attempts else (UNKNOWN if star else 3)
    policy.time_limit = UNKNOWN
    policy.attempts = Setting("bounded" if isinstance(policy.max_attempts, int) else UNKNOWN)
    policy.wait = Setting(WAIT_JITTERED, None, "full jitter")
    policy.retry_on = Setting(ON_SPECIFIC, None, "transport errors and retryable statuses")
    idempotent = keywords.get("idempotent")
    policy.guards_non_idempotent = "method" in keywords or (
        idempotent is not None and is_false(idempotent.value)
    ) or "policy" in keywords
    return policy


# declarations collected by the registry
POLICIES = {
    **dict.fromkeys(DECORATORS, partial(build_policy, kind="decorator")),
    **dict.fromkeys(LOOPS, partial(build_policy, kind="iterator")),
}
BARE_DECORATORS = DECORATORS
