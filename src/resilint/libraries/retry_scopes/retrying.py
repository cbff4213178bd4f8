"""retrying: ``@retry(...)``, ``@retry``, ``retry(fn)`` and ``Retrying(...)``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    ON_RESULT,
    ON_SPECIFIC,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_JITTERED,
    WAIT_NONE,
    Policy,
    Setting,
    bounded_kind,
)
from resilint.libraries.retry_scopes.statements import named_classes
from resilint.lint.nodes import positional_args
from resilint.lint.semantic import FunctionInfo, Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser


def build_policy(rec: Recogniser, node: cst.CSTNode, scope: Scope, order: int) -> Policy:
    keywords, star = rec.keywords(node, scope, order) if isinstance(node, cst.Call) else ({}, False)
    if isinstance(node, cst.Call) and positional_args(node) and not keywords:
        keywords = {}  # @retry(fn) form: defaults
    policy = Policy("retrying", "decorator", node, scope=scope, order=order)
    tries = keywords.get("stop_max_attempt_number")
    delay = keywords.get("stop_max_delay")
    if "stop_func" in keywords or "stop" in keywords:
        policy.max_attempts = policy.time_limit = UNKNOWN
        policy.attempts = Setting(UNKNOWN)
    else:
        policy.max_attempts = rec.limit(tries, scope, order, star)
        if policy.max_attempts == UNKNOWN and tries is not None:
            policy.counted_from = (tries.value, 0)  # another module's constant, which the project knows
        seconds = rec.limit(delay, scope, order, star)
        policy.time_limit = seconds / 1000 if isinstance(seconds, (int, float)) else seconds
        kind = bounded_kind(policy.max_attempts, policy.time_limit)
        detail = "retrying never stops without `stop_max_attempt_number` or `stop_max_delay`" if kind == "unbounded" else ""
        policy.attempts = Setting(kind, (tries or delay).value if (tries or delay) else None, detail)
    jitter_keys = ("wait_jitter_max", "wait_random_min", "wait_random_max")
    if any(k in keywords for k in jitter_keys):
        policy.wait = Setting(WAIT_JITTERED, keywords[next(k for k in jitter_keys if k in keywords)].value)
    elif "wait_func" in keywords or "wait" in keywords or star:
        policy.wait = Setting(UNKNOWN)
    elif "wait_exponential_multiplier" in keywords or "wait_exponential_max" in keywords:
        arg = keywords.get("wait_exponential_multiplier") or keywords["wait_exponential_max"]
        policy.wait = Setting(WAIT_EXPONENTIAL, arg.value, "`wait_exponential_multiplier` without `wait_jitter_max`")
    elif "wait_fixed" in keywords:
        policy.wait = Setting(WAIT_FIXED, keywords["wait_fixed"].value, "`wait_fixed` without `wait_jitter_max`")
    elif "wait_incrementing_start" in keywords or "wait_incrementing_increment" in keywords:
        arg = keywords.get("wait_incrementing_start") or keywords["wait_incrementing_increment"]
        policy.wait = Setting(WAIT_FIXED, arg.value, "`wait_incrementing` without `wait_jitter_max`")
    else:
        policy.wait = Setting(WAIT_NONE, None, "retrying waits nothing between attempts by default")
    on = keywords.get("retry_on_exception")
    if on is not None:
        # ``retry_on_exception=lambda e: isinstance(e, AssertionError)``: the code checks what
        # it read until it holds, a poll (a failed request raises something else and leaves)
        policy.polls_result = _only_assertions(rec, on.value, scope, order)
        policy.retry_on = Setting(ON_RESULT if policy.polls_result else ON_SPECIFIC, on.value)
    elif "retry_on_result" in keywords and "retry_on_exception" not in keywords:
        policy.retry_on = Setting(ON_ANY, None, "retrying retries every exception unless given `retry_on_exception=`")
    elif star:
        policy.retry_on = Setting(UNKNOWN)
    else:
        policy.retry_on = Setting(ON_ANY, None, "retrying retries every exception unless given `retry_on_exception=`")
    return policy


def _only_assertions(rec: Recogniser, predicate: cst.BaseExpression, scope: Scope, order: int) -> bool:
    """The predicate returns ``isinstance(exc, AssertionError)`` and nothing else."""
    target = rec.model.resolve(predicate, scope, order)
    if isinstance(target, FunctionInfo):
        returned, where = target.returns, target.scope
    elif isinstance(predicate, cst.Lambda):
        returned, where = [predicate.body], scope
    else:
        return False
    if len(returned) != 1 or not isinstance(returned[0], cst.Call) or len(returned[0].args) != 2:
        return False
    test = returned[0]
    types = test.args[1].value
    names = named_classes(types)
    return rec.expr_name(test.func, where, 1 << 62) == "builtins.isinstance" and all(
        rec.expr_name(name, where, 1 << 62) == "builtins.AssertionError" for name in names
    )


# declarations collected by the registry
POLICIES = dict.fromkeys(("retrying.retry", "retrying.Retrying"), build_policy)
BARE_DECORATORS = frozenset({"retrying.retry"})
WRAPS_FUNCTION = frozenset({"retrying.retry"})
