"""stamina: ``@retry(...)`` and ``retry_context(...)`` loops."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import libcst as cst

from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_JITTERED,
    Policy,
    Setting,
    bounded_kind,
)
from resilint.lint.nodes import is_false
from resilint.lint.semantic import Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser


def build_policy(rec: Recogniser, node: cst.Call, scope: Scope, order: int, kind: str) -> Policy:
    keywords, star = rec.keywords(node, scope, order)
    policy = Policy("stamina", kind, node, scope=scope, order=order)
    attempts = keywords.get("attempts")
    timeout = keywords.get("timeout")
    policy.max_attempts = rec.limit(attempts, scope, order, star) if attempts or star else 10
    if policy.max_attempts == UNKNOWN and attempts is not None:
        policy.counted_from = (attempts.value, 0)  # another module's constant, which the project knows
    policy.time_limit = rec.limit(timeout, scope, order, star) if timeout or star else 45.0
    bounded = bounded_kind(policy.max_attempts, policy.time_limit)
    policy.attempts = Setting(
        bounded, (attempts or timeout).value if (attempts or timeout) else None,
        "`attempts=None, timeout=None` makes stamina retry forever" if bounded == "unbounded" else "",
    )
    jitter = keywords.get("wait_jitter")
    if jitter is not None and is_false(rec.follow(jitter.value, scope, order)):
        policy.wait = Setting(WAIT_EXPONENTIAL, jitter.value, "`wait_jitter=0` turns off stamina's jitter")
    else:
        policy.wait = Setting(UNKNOWN if star and jitter is None else WAIT_JITTERED)
    on = keywords.get("on")
    if on is None:
        policy.retry_on = Setting(UNKNOWN)
    else:
        kind_ = rec.exception_kind(on.value, scope, order)
        policy.retry_on = Setting(kind_, on.value, "`on=Exception` retries every error" if kind_ == ON_ANY else "")
    return policy


# declarations collected by the registry
POLICIES = {
    "stamina.retry": partial(build_policy, kind="decorator"),
    "stamina.retry_context": partial(build_policy, kind="iterator"),
}
