"""celery: tasks with ``autoretry_for``, and bound tasks that call ``self.retry(...)``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Optional

import libcst as cst

from resilint.libraries.retry_scopes.delays import delay_kind
from resilint.libraries.retry_scopes.loops import handler_kind
from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    ON_RESULT,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_JITTERED,
    Policy,
    RetryScope,
    Setting,
    bounded_kind,
)
from resilint.lint.nodes import is_false, is_true, keyword_args, number_of
from resilint.lint.semantic import FunctionInfo, Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

_TASK_DECORATORS = frozenset({"celery.shared_task", "celery.Celery.task", "celery.current_app.task"})
_OPTIONS = frozenset({"autoretry_for", "retry_backoff", "retry_jitter", "retry_backoff_max", "max_retries", "default_retry_delay"})


def _is_task_decorator(rec: Recogniser, call: cst.Call, scope: Scope, order: int) -> bool:
    name = rec.expr_name(call.func, scope, order)
    if name in _TASK_DECORATORS:
        return True
    # Applications usually import their Celery app from a project module; accept any
    # ``<x>.task(...)``/``shared_task(...)`` that passes celery's retry options.
    if name is not None and (name.endswith(".task") or name.endswith("shared_task")):
        keywords, _ = keyword_args(call)
        return bool(_OPTIONS & set(keywords)) or "bind" in keywords
    return False


def task_policy(rec: Recogniser, call: cst.Call, function: Optional[FunctionInfo], scope: Scope, order: int) -> Optional[Policy]:
    if not _is_task_decorator(rec, call, scope, order):
        return None
    keywords, star = keyword_args(call)
    autoretry = keywords.get("autoretry_for")
    if autoretry is None:
        return None  # retried only through self.retry(), recognised per call
    policy = Policy("celery", "task", call, scope=scope, order=order)
    _limits(rec, policy, keywords, star, scope, order)
    backoff = keywords.get("retry_backoff")
    jitter = keywords.get("retry_jitter")
    if backoff is None or is_false(backoff.value):
        if star:
            policy.wait = Setting(UNKNOWN)
        else:
            delay = keywords.get("default_retry_delay")
            seconds = number_of(delay.value) if delay else 180
            text = f"{seconds:g} s" if isinstance(seconds, (int, float)) else "`default_retry_delay`"
            policy.wait = Setting(
                WAIT_FIXED, (backoff or autoretry).value,
                f"celery's `autoretry_for` without `retry_backoff` waits a fixed `default_retry_delay` ({text}) between attempts",
            )
    elif jitter is not None and is_false(jitter.value):
        policy.wait = Setting(WAIT_EXPONENTIAL, jitter.value, "`retry_jitter=False` turns off celery's jitter")
    else:
        policy.wait = Setting(WAIT_JITTERED, backoff.value)
    kind = rec.exception_kind(autoretry.value, scope, order)
    policy.retry_on = Setting(kind, autoretry.value, "`autoretry_for` of `Exception` retries every error" if kind == ON_ANY else "")
    return rec.add(policy)


def _limits(rec: Recogniser, policy: Policy, keywords: Dict[str, cst.Arg], star: bool, scope: Scope, order: int,
                   override: Optional[cst.Arg] = None) -> None:
    arg = override or keywords.get("max_retries")
    if arg is None:
        policy.max_attempts = UNKNOWN if star else 3 + 1
        policy.attempts = Setting(UNKNOWN if star else "bounded")
    else:
        limit = rec.limit(arg, scope, order, False)
        policy.max_attempts = limit + 1 if isinstance(limit, (int, float)) else limit
        kind = bounded_kind(policy.max_attempts, None)
        policy.attempts = Setting(kind, arg.value, "`max_retries=None` makes celery retry forever" if kind == "unbounded" else "")
    policy.time_limit = None


def self_retry(rec: Recogniser, function: FunctionInfo) -> None:
    """``@app.task(bind=True)`` whose body calls ``self.retry(...)``."""
    task = None
    for decorator in function.decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            scope = function.scope.parent or function.scope
            if _is_task_decorator(rec, expr, scope, 1 << 62):
                keywords, _ = keyword_args(expr)
                bind = keywords.get("bind")
                if bind is not None and is_true(bind.value):
                    task = (expr, keywords)
    if task is None:
        return
    params = list(function.node.params.posonly_params) + list(function.node.params.params)
    if not params:
        return
    self_name = params[0].name.value
    decorator_call, decorator_keywords = task
    for call in rec.model.calls:
        if call.scope is not function.scope:
            continue
        func = call.node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "retry"
                and isinstance(func.value, cst.Name) and func.value.value == self_name):
            continue
        policy = Policy("celery", "task-retry", call.node, scope=call.scope, order=call.order)
        keywords, star = keyword_args(call.node)
        _limits(rec, policy, decorator_keywords, star, call.scope, call.order, keywords.get("max_retries"))
        countdown = keywords.get("countdown")
        eta = keywords.get("eta")
        if eta is not None or star:
            policy.wait = Setting(UNKNOWN)
        elif countdown is None:
            delay = decorator_keywords.get("default_retry_delay")
            seconds = number_of(delay.value) if delay else 180
            text = f"{seconds:g} s" if isinstance(seconds, (int, float)) else "`default_retry_delay`"
            policy.wait = Setting(
                WAIT_FIXED, call.node,
                f"`self.retry()` without `countdown` waits celery's fixed `default_retry_delay` ({text})",
            )
        else:
            kind, detail = delay_kind(rec, countdown.value, call.scope, call.order, None, site=call)
            policy.wait = Setting(kind, countdown.value, f"`countdown={detail}`" if detail else "")
        handler = next((n for n in reversed(call.stack) if isinstance(n, cst.ExceptHandler)), None)
        if handler is not None:
            kind = handler_kind(rec, handler, call.scope, call.order)
            policy.retry_on = Setting(kind, handler, "")
            if kind == ON_ANY:
                policy.handlers = (handler,)
        else:
            # ``self.retry()`` outside any ``except``: the task retries on a condition of its own
            # (an order not ready yet), not because something failed.
            policy.retry_on = Setting(ON_RESULT)
        policy = rec.add(policy)
        rec.scopes.append(RetryScope(policy, "task", call.node, function.node, function))
