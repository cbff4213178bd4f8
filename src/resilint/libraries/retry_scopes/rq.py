"""RQ: a job enqueued with ``retry=Retry(max=3, interval=60)`` runs again when it raises.

``Retry(max=N)`` allows N retries after the first run (N + 1 runs); ``interval`` is a fixed
number of seconds, or a list of them per retry, 0 (at once) by default, never random. Any
exception the job raises is retried. The policy applies to the function enqueued with it
(``queue.enqueue(fn, *args, retry=...)``, ``enqueue_call(func=fn, retry=...)``, the ``@job``
decorator), not to other calls of that function."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from resilint.libraries.retry_scopes.delays import delay_kind
from resilint.libraries.retry_scopes.local_work import computes_only
from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_JITTERED,
    WAIT_NONE,
    Policy,
    RetryScope,
    Setting,
)
from resilint.lint.nodes import code_of, keyword_args, number_of
from resilint.lint.semantic import CallSite, FunctionInfo, Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

_ENQUEUE = ("enqueue", "enqueue_call", "enqueue_in", "enqueue_at")


def retry_policy(rec: Recogniser, node: cst.CSTNode, scope: Scope, order: int) -> Policy:
    policy = Policy("rq", "rq-retry", node, scope=scope, order=order)
    if not _may_be_applied(rec, node, scope):
        return policy  # (``assert Retry(max=3).max == 3``: no job is retried by it)
    keywords, star = rec.keywords(node, scope, order) if isinstance(node, cst.Call) else ({}, False)
    positional = [a for a in getattr(node, "args", ()) if a.keyword is None and not a.star]
    limit = keywords.get("max") or (positional[0] if positional else None)
    retries = number_of(limit.value) if limit is not None else None
    if isinstance(retries, int):
        policy.max_attempts, policy.time_limit = retries + 1, None
        policy.attempts = Setting("bounded", limit.value if limit else None)
    else:
        policy.max_attempts, policy.time_limit = UNKNOWN, UNKNOWN
        policy.attempts = Setting("bounded" if limit is not None else UNKNOWN, limit.value if limit else None)
    interval = keywords.get("interval") or (positional[1] if len(positional) > 1 else None)
    if interval is None:
        policy.wait = Setting(UNKNOWN if star else WAIT_NONE, None, "" if star else "RQ retries at once by default (`interval=0`)")
    else:
        value = interval.value
        if isinstance(value, (cst.List, cst.Tuple)):
            numbers = [number_of(e.value) for e in value.elements]
            kind = WAIT_EXPONENTIAL if None not in numbers and len(set(numbers)) > 1 else WAIT_FIXED if None not in numbers else UNKNOWN
            text = f"`interval={code_of(value)}` grows but has no random term" if kind == WAIT_EXPONENTIAL else (
                f"`interval={code_of(value)}` waits a constant interval with no random term"
            )
        else:
            # RQ waits the interval as given on every retry: whatever configuration says, it
            # draws nothing random, unless the value itself is drawn (once per job)
            kind, _ = delay_kind(rec, value, scope, order, None)
            kind = WAIT_JITTERED if kind == WAIT_JITTERED else WAIT_FIXED
            text = f"`interval={code_of(value)}` waits a constant interval with no random term (RQ adds none)"
        policy.wait = Setting(kind, value, text if kind != UNKNOWN else "")
    policy.retry_on = Setting(ON_ANY, None, "RQ retries a job on every exception it raises")
    return policy


def _may_be_applied(rec: Recogniser, node: cst.CSTNode, scope: Scope) -> bool:
    """Whether a ``Retry(...)`` made in a function may reach a job: passed as a ``retry=``
    argument there, or kept in a local the function passes so (one made at module or class
    level, or returned by a factory, may be used anywhere)."""
    if scope.kind != "function":
        return True
    name = scope.name_bound_to(node)
    for call in rec.model.calls_in(scope):
        for arg in call.node.args:
            if arg.keyword is None or arg.keyword.value != "retry":
                continue
            if arg.value is node or (name is not None and isinstance(arg.value, cst.Name) and arg.value.value == name):
                return True
    function = scope.function
    return function is not None and any(
        r is node or (name is not None and isinstance(r, cst.Name) and r.value == name) for r in function.returns
    )


def enqueued_with_retry(rec: Recogniser, call: CallSite) -> None:
    """``queue.enqueue(fn, ..., retry=Retry(...))``: the policy over ``fn``."""
    func = call.node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in _ENQUEUE):
        return
    keywords, _ = keyword_args(call.node)
    retry = keywords.get("retry")
    if retry is None:
        return
    policy = rec.by_node.get(id(rec.follow(retry.value, call.scope, call.order)))
    if policy is None or policy.library != "rq":
        return
    target = _enqueued(call.node, func.attr.value)
    function = rec.model.resolve(target, call.scope, call.order) if target is not None else None
    if isinstance(function, FunctionInfo) and computes_only(function):
        # a job that fails on purpose (``1 / 0`` in a test of the retries): nothing goes out;
        # a policy written here serves no other job
        if retry.value is policy.node:
            rec.policies = [p for p in rec.policies if p is not policy]
        return
    if isinstance(function, FunctionInfo):
        rec.scopes.append(RetryScope(policy, "call", call.node, function.node, function))
    else:
        rec.scopes.append(RetryScope(policy, "call", call.node))


def _enqueued(node: cst.Call, method: str) -> Optional[cst.BaseExpression]:
    keywords, _ = keyword_args(node)
    if "func" in keywords:
        return keywords["func"].value
    positional = [a.value for a in node.args if a.keyword is None and not a.star]
    skip = 1 if method in ("enqueue_in", "enqueue_at") else 0  # the time comes first
    return positional[skip] if len(positional) > skip else None


def applied_function(node: cst.CSTNode) -> Optional[cst.BaseExpression]:
    """The function an ``enqueue`` call with a retry runs (its ``func=`` or its first
    positional argument after the time of ``enqueue_in``/``enqueue_at``)."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _ENQUEUE:
        return _enqueued(node, node.func.attr.value)
    return None


# declarations collected by the registry
POLICIES = {"rq.Retry": retry_policy, "rq.job.Retry": retry_policy, "rq.retry.Retry": retry_policy}
CLIENTS = {f"rq.Queue.{method}": enqueued_with_retry for method in _ENQUEUE}
