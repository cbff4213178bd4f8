"""Retry scopes made by decorators: a policy call (``@retry(...)``), a bare policy name
(``@retry``), a policy stored in a variable, a celery task."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

import libcst as cst

from resilint.libraries.retry_scopes.celery import self_retry, task_policy
from resilint.libraries.retry_scopes.local_work import calls_within
from resilint.libraries.retry_scopes.loop_work import asks_again
from resilint.libraries.retry_scopes.model import Policy, RetryScope
from resilint.libraries.retry_scopes.registry import libraries
from resilint.libraries.retry_scopes.statements import block
from resilint.lint.semantic import FunctionInfo, Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser


def decorator_policy(rec: Recogniser, function: FunctionInfo) -> Optional[Policy]:
    for scope in decorator_scopes(rec, function):
        return scope.policy
    return None


def decorator_scopes(rec: Recogniser, function: FunctionInfo) -> List[RetryScope]:
    cached = rec.decorated.get(id(function))
    if cached is not None:
        return cached
    found: List[RetryScope] = []
    outer = function.scope.parent or function.scope
    order = 1 << 62
    for decorator in function.decorators:
        policy = _decorator(rec, decorator, function, outer, order)
        if policy is not None:
            found.append(RetryScope(policy, "task" if policy.library == "celery" else "decorator", decorator, function.node, function))
    rec.decorated[id(function)] = found
    return found


def decorated(rec: Recogniser, function: FunctionInfo) -> None:
    scopes = decorator_scopes(rec, function)
    inert = [scope for scope in scopes if _repeats_nothing(rec, scope, function)]
    for scope in inert:
        if scope.policy.node is scope.node.decorator and scope.policy in rec.policies:  # type: ignore[attr-defined]
            rec.policies.remove(scope.policy)  # written for this function alone: no policy at all
    rec.scopes.extend(scope for scope in scopes if scope not in inert)
    self_retry(rec, function)


def _repeats_nothing(rec: Recogniser, scope: RetryScope, function: FunctionInfo) -> bool:
    """A decorator that never repeats what its function does: a retry library's on a generator
    (it takes it for a plain function, whose call only makes the generator and never fails:
    the body runs later, as the caller iterates, outside the retry); or any retry around a
    function that asks the user for new input on each call (``click.prompt``, ``getpass``) and
    sends it: each attempt is another request."""
    node = function.node
    if not isinstance(node, cst.FunctionDef):
        return False
    if scope.policy.library in GENERATOR_BLIND and function.generator:
        return True
    return scope.kind == "decorator" and asks_again(rec, block(node.body), calls_within(rec, node))


# Retry libraries whose decorator calls the function and returns what it returns: a generator's
# call returns the generator, so the body's failures never reach the retry.
GENERATOR_BLIND = frozenset({"tenacity", "backoff", "retrying", "stamina"})


def _decorator(rec: Recogniser, decorator: cst.Decorator, function: FunctionInfo, scope: Scope, order: int) -> Optional[Policy]:
    expr = decorator.decorator
    if isinstance(expr, cst.Call):
        policy = rec.by_node.get(id(expr))
        if policy is not None:
            return policy
        return task_policy(rec, expr, function, scope, order)
    name = rec.expr_name(expr, scope, order)
    found = libraries()
    if name is not None and name in found.bare_decorators:
        return rec.add(found.policies[name](rec, decorator, scope, order))
    # a policy stored in a variable: ``api_retry = tenacity.retry(...)``; ``@api_retry``
    assigned = rec.model.assigned_expression(expr, scope, order) if isinstance(expr, cst.Name) else None
    if isinstance(assigned, cst.Call):
        return rec.by_node.get(id(assigned))
    return None
