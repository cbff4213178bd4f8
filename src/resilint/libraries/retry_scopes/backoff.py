"""backoff: ``@on_exception(...)`` and ``@on_predicate(...)``."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import libcst as cst

from resilint.libraries.retry_scopes.conditions import all_raised_on_polled_state
from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    ON_RESULT,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_JITTERED,
    Policy,
    Setting,
    bounded_kind,
)
from resilint.lint.nodes import call_argument, code_of, is_none
from resilint.lint.semantic import Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser


def build_policy(rec: Recogniser, node: cst.Call, scope: Scope, order: int, predicate: bool) -> Policy:
    keywords, star = rec.keywords(node, scope, order)
    policy = Policy("backoff", "decorator", node, scope=scope, order=order)
    tries = keywords.get("max_tries")
    seconds = keywords.get("max_time")
    policy.max_attempts = rec.limit(tries, scope, order, star)
    if policy.max_attempts == UNKNOWN and tries is not None:
        policy.counted_from = (tries.value, 0)  # another module's constant, which the project knows
    policy.time_limit = rec.limit(seconds, scope, order, star)
    kind = bounded_kind(policy.max_attempts, policy.time_limit)
    detail = "backoff retries forever without `max_tries` or `max_time`" if kind == "unbounded" else ""
    policy.attempts = Setting(kind, (tries or seconds).value if (tries or seconds) else None, detail)
    # wait: the generator, jittered by full_jitter unless jitter=None
    wait_gen = call_argument(node, "wait_gen", 0) or keywords.get("wait_gen")
    generator = rec.expr_name(wait_gen.value, scope, order) if wait_gen else None
    jitter = keywords.get("jitter")
    if jitter is None:
        policy.wait = Setting(UNKNOWN if star else WAIT_JITTERED)
    elif is_none(jitter.value):
        if generator in ("backoff.expo", "backoff.fibo"):
            policy.wait = Setting(WAIT_EXPONENTIAL, jitter.value, f"`jitter=None` turns off the jitter of `{generator}`")
        elif generator == "backoff.constant":
            policy.wait = Setting(WAIT_FIXED, jitter.value, "`jitter=None` with `backoff.constant` waits the same interval every time")
        else:
            policy.wait = Setting(UNKNOWN, jitter.value)
    else:
        policy.wait = Setting(WAIT_JITTERED, jitter.value)
    if predicate:
        policy.retry_on = Setting(ON_RESULT)
    else:
        exception = call_argument(node, "exception", 1) or keywords.get("exception")
        if exception is None:
            policy.retry_on = Setting(UNKNOWN)
        elif all_raised_on_polled_state(rec, rec.follow(exception.value, scope, order), scope, order):
            # ``BulkOperationInProgressError``, raised only on the state an answer holds: a poll;
            # a lost response raises another error, which leaves it
            policy.retry_on = Setting(ON_RESULT, exception.value)
            policy.polls_result = policy.guards_non_idempotent = True
        else:
            kind = rec.exception_kind(exception.value, scope, order)
            detail = f"`on_exception` of `{code_of(exception.value)}` retries every error" if kind == ON_ANY else ""
            policy.retry_on = Setting(kind, exception.value, detail)
    return policy


# declarations collected by the registry
POLICIES = {
    "backoff.on_exception": partial(build_policy, predicate=False),
    "backoff.on_predicate": partial(build_policy, predicate=True),
}
