"""celery: tasks with ``autoretry_for``, and bound tasks that call ``self.retry(...)``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, Optional, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.conditions import (
    all_raised_on_polled_state, polls_state, tests_failed_state, without_attempt_limits,
)
from resilint.libraries.retry_scopes.delays import delay_kind, growth, growth_words
from resilint.libraries.retry_scopes.loops import handler_kind
from resilint.libraries.retry_scopes.swallowing import shadowed
from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    ON_FAILED_RESULT,
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
from resilint.lint.nodes import code_of, dotted_name, is_false, is_none, is_true, keyword_args, number_of, string_keyed, string_of
from resilint.lint.semantic import CallSite, ClassInfo, FunctionInfo, Scope
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

_TASK_DECORATORS = frozenset({"celery.shared_task", "celery.Celery.task", "celery.current_app.task"})
_TASK_CLASSES = frozenset({"celery.Task", "celery.app.task.Task"})
_OPTIONS = frozenset({"autoretry_for", "retry_backoff", "retry_jitter", "retry_backoff_max", "max_retries", "default_retry_delay"})
_CELERY_ONLY = frozenset({"autoretry_for", "retry_backoff", "retry_jitter", "retry_backoff_max"})


def _is_task_decorator(rec: Recogniser, call: cst.Call, scope: Scope, order: int) -> bool:
    name = rec.expr_name(call.func, scope, order)
    if name in _TASK_DECORATORS:
        return True
    # Applications usually import their Celery app from a project module; accept any
    # ``<x>.task(...)``/``shared_task(...)`` that passes celery's retry options.
    if name is not None and (name.endswith(".task") or name.endswith("shared_task")):
        keywords, _ = _task_keywords(rec, call, scope, order)
        return bool(_OPTIONS & set(keywords)) or "bind" in keywords
    # A project's own task decorator (``shared_dedicated_queue_retry_task(...)``, returning
    # ``shared_task(*args, base=..., **kwargs)``) given options only celery reads.
    if name is not None and name.endswith("task"):
        keywords, _ = _task_keywords(rec, call, scope, order)
        return bool(_CELERY_ONLY & set(keywords))
    return False


def _task_keywords(rec: Recogniser, call: cst.Call, scope: Scope, order: int) -> Tuple[Dict[str, cst.Arg], bool]:
    """The decorator's keywords, with those of a dict written out that it unpacks
    (``@shared_task(**_RETRY)`` with ``_RETRY = {"autoretry_for": (...), ...}``); and whether
    an unpacked mapping it cannot read may add more."""
    found: Dict[str, cst.Arg] = {}
    star = False
    for arg in call.args:
        if arg.star == "**":
            entries = _written_entries(rec, arg.value, scope, order)
            if entries is None:
                star = True
                continue
            found.update((key, cst.Arg(value, keyword=cst.Name(key))) for key, value in entries.items())
        elif arg.keyword is not None:
            found[arg.keyword.value] = arg
    return found, star


def _written_entries(
    rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0,
) -> Optional[Dict[str, cst.BaseExpression]]:
    """The entries of the dict written out that ``expr`` is or names, with those of the dicts
    written out that it spreads in (``{**_RETRY, "autoretry_for": (...)}``), later ones
    winning; None when a key or a spread mapping cannot be read."""
    mapping = rec.follow(expr, scope, order)
    if not isinstance(mapping, cst.Dict) or depth > 3:
        return None
    found: Dict[str, cst.BaseExpression] = {}
    for element in mapping.elements:
        if isinstance(element, cst.StarredDictElement):
            spread = _written_entries(rec, element.value, scope, order, depth + 1)
            if spread is None:
                return None
            found.update(spread)
            continue
        key = string_of(element.key)
        if key is None:
            return None
        found[key] = element.value
    return found


def task_policy(rec: Recogniser, call: cst.Call, function: Optional[FunctionInfo], scope: Scope, order: int) -> Optional[Policy]:
    if not _is_task_decorator(rec, call, scope, order):
        return None
    keywords, star = _task_keywords(rec, call, scope, order)
    base = keywords.get("base")
    if base is not None:
        cls = rec.model.resolve(base.value, scope, order)
        inherited = task_class_policy(rec, cls) if isinstance(cls, ClassInfo) else None
        if inherited is not None and not _OPTIONS & set(keywords):
            return inherited  # ``@app.task(base=ProviderTask)``: the class's retry options
        if inherited is not None:
            keywords = {**_class_options(cls), **keywords}  # type: ignore[arg-type]
    return _options_policy(rec, call, keywords, star, scope, order)


def task_class_policy(rec: Recogniser, cls: ClassInfo) -> Optional[Policy]:
    """A ``celery.Task`` subclass whose class attributes set ``autoretry_for`` (and the other
    retry options): every task built on it (``base=``) retries so. Reported at the class."""
    if id(cls.node) in rec.by_node:
        return rec.by_node[id(cls.node)]
    outer = cls.scope.parent or cls.scope
    if not any(rec.expr_name(b, outer, 1 << 62) in _TASK_CLASSES for b in cls.bases):
        return None
    return _options_policy(rec, cls.node, _class_options(cls), False, cls.scope, 1 << 62)


def _class_options(cls: ClassInfo) -> Dict[str, cst.Arg]:
    """The class body's retry options, as the keywords of a decorator would give them."""
    found: Dict[str, cst.Arg] = {}
    for name, bindings in cls.scope.bindings.items():
        if name in _OPTIONS | {"retry_kwargs"} and bindings[-1].expr is not None:
            expr = bindings[-1].expr
            if name == "retry_kwargs" and isinstance(expr, cst.Dict):
                for element in expr.elements:
                    key = string_of(element.key) if isinstance(element, cst.DictElement) else None
                    if key in ("max_retries", "countdown"):
                        found[key if key != "countdown" else "default_retry_delay"] = cst.Arg(element.value, keyword=cst.Name(key))
            elif name != "retry_kwargs":
                found[name] = cst.Arg(expr, keyword=cst.Name(name))
    return found


def _options_policy(
    rec: Recogniser, node: cst.CSTNode, keywords: Dict[str, cst.Arg], star: bool, scope: Scope, order: int,
) -> Optional[Policy]:
    autoretry = keywords.get("autoretry_for")
    if autoretry is None:
        return None  # retried only through self.retry(), recognised per call
    call = node
    policy = Policy("celery", "task", call, scope=scope, order=order)
    _limits(rec, policy, keywords, star, scope, order)
    backoff = keywords.get("retry_backoff")
    jitter = keywords.get("retry_jitter")
    if backoff is None or is_false(backoff.value):
        if star:
            policy.wait = Setting(UNKNOWN)
        else:
            text = _delay_text(keywords.get("default_retry_delay"))
            policy.wait = Setting(
                WAIT_FIXED, (backoff or autoretry).value,
                f"celery's `autoretry_for` without `retry_backoff` waits a fixed `default_retry_delay` ({text}) between attempts",
            )
    elif jitter is not None and is_false(jitter.value):
        policy.wait = Setting(WAIT_EXPONENTIAL, jitter.value, "`retry_jitter=False` turns off celery's jitter")
    else:
        policy.wait = Setting(WAIT_JITTERED, backoff.value)
    kind = rec.exception_kind(autoretry.value, scope, order)
    policy.retry_on = Setting(kind, autoretry.value, f"`autoretry_for` of `{code_of(autoretry.value)}` retries every error" if kind == ON_ANY else "")
    if _row_absent(rec, autoretry.value, scope, order) or (kind != ON_ANY and all_raised_on_polled_state(rec, autoretry.value, scope, order)):
        # ``autoretry_for=(Post.DoesNotExist,)``: waits for the enqueuing request's row to be
        # committed, a poll of the task's own database, no failing service; an error the
        # module raises only on a state it read (``if status == "in_progress": raise
        # StillRunning``) waits for a job to finish
        policy.polls_result = True
        policy.retry_on = Setting(ON_RESULT, autoretry.value, "")
    return rec.add(policy)


def _row_absent(rec: Recogniser, classes: cst.BaseExpression, scope: Scope, order: int) -> bool:
    """Whether ``classes`` (a class or a tuple of them) are all a Django model's ``DoesNotExist``."""
    elements = [e.value for e in classes.elements] if isinstance(classes, (cst.Tuple, cst.List)) else [classes]
    names = [rec.expr_name(element, scope, order) or dotted_name(element) or "" for element in elements]
    return bool(names) and all(
        name.rsplit(".", 1)[-1] == "DoesNotExist" or name == "django.core.exceptions.ObjectDoesNotExist" for name in names
    )


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
        why = ""
        if kind == "unbounded":
            why = ("`max_retries=None` makes celery retry forever" if is_none(rec.follow(arg.value, scope, order))
                   else f"`max_retries={code_of(arg.value)}` is None on one branch, where celery retries forever")
        policy.attempts = Setting(kind, arg.value, why)
    policy.time_limit = None


def self_retry(rec: Recogniser, function: FunctionInfo) -> None:
    """``@app.task(bind=True)`` whose body calls ``self.retry(...)``, or hands ``self`` to a
    helper that does (``except X as exc: retry_later(self, exc)``), or a function made into a
    task where it is written that calls that task's ``retry(...)``; and a helper that retries
    the task it receives (``def retry_later(task, exc): raise task.retry(countdown=...)``),
    whose wait is judged there."""
    params = list(function.node.params.posonly_params) + list(function.node.params.params)  # type: ignore[union-attr]
    task = _bound_task(rec, function)
    made = _made_task(rec, function) if task is None else None
    if task is None and made is None:
        for param in params:
            _helper_retries(rec, function, param.name.value)
        return
    if made is not None:
        self_name, decorator_keywords, unknown = made
    elif not params:
        return
    else:
        self_name, decorator_keywords, unknown = params[0].name.value, task[1], False  # type: ignore[index]
    for call in rec.model.calls_in(function.scope):
        func = call.node.func
        if (isinstance(func, cst.Attribute) and func.attr.value == "retry"
                and isinstance(func.value, cst.Name) and func.value.value == self_name):
            policy = _retry_call(rec, call, decorator_keywords)
            if unknown and "max_retries" not in keyword_args(call.node)[0]:
                _limits(rec, policy, decorator_keywords, True, call.scope, call.order)
        elif _hands_over(rec, call, self_name):
            policy = Policy("celery", "task-retry", call.node, scope=call.scope, order=call.order)
            _limits(rec, policy, decorator_keywords, False, call.scope, call.order, _handed_limit(rec, call, decorator_keywords, self_name))
            policy.wait = Setting(UNKNOWN)  # the helper's, judged where it is written
        else:
            continue
        position = next((i for i in range(len(call.stack) - 1, -1, -1) if isinstance(call.stack[i], cst.ExceptHandler)), None)
        handler = call.stack[position] if position is not None else None
        if position and isinstance(handler, cst.ExceptHandler) and shadowed(rec.model, call.stack[position - 1], handler, call.scope, call.order):
            continue  # an earlier handler catches all it would: the task never retries there
        if isinstance(handler, cst.ExceptHandler):
            if handler.type is not None and _row_absent(rec, handler.type, call.scope, call.order):
                continue  # ``except Post.DoesNotExist: raise self.retry()``: a poll for the row
            kind = handler_kind(rec, handler, call.scope, call.order)
            policy.retry_on = Setting(kind, handler, "")
            if position and isinstance(call.stack[position - 1], (cst.Try, cst.TryStar)):
                policy.tries = (call.stack[position - 1],)  # only what fails in its ``try`` is retried
            if kind == ON_ANY:
                policy.handlers = (handler,)
        else:
            if _polls(rec, call):
                continue  # waits for its own data to be there: a poll, as a loop that handles no failure
            # ``self.retry()`` outside any ``except`` that is no poll: the task retries a failure
            # its code saw in a result (``if not send(...): self.retry()``, ``send`` returning
            # False once its own retries gave up), not an exception.
            policy.retry_on = Setting(ON_FAILED_RESULT)
        policy = rec.add(policy)
        rec.scopes.append(RetryScope(policy, "task", call.node, function.node, function))


# Names that say whether something the task waits for is there yet (``if not_found:``).
_ABSENT = re.compile(r"found|exists?$|missing", re.I)


def _polls(rec: Recogniser, call: CallSite) -> bool:
    """``self.retry()`` under an ``if`` that tests a polled state (``if not available:``,
    ``if not_found:``) or what the task read from its own database (``delivery = Delivery.objects.filter(...).first()``
    … ``if delivery is None:``, a row the enqueuing request has not committed yet), whichever
    ``if`` around it tests it (``if result.remaining_count > 0:``, then ``if retry_after:``)."""
    # any ``if`` around it: ``if result.remaining > 0:``, then ``if retry_after:``
    return any(
        _polled(rec, without_attempt_limits(node.test), call) for node in call.stack if isinstance(node, cst.If)
    )


def _polled(rec: Recogniser, test: Optional[cst.BaseExpression], call: CallSite) -> bool:
    if test is None:
        return False
    if tests_failed_state(test):
        return False  # ``if response.status == "failed":``: the result says the call failed
    names = [node for node in iter_nodes(test) if isinstance(node, cst.Name)]
    if polls_state(test) or any(_ABSENT.search(name.value) for name in names):
        return True
    return any(
        isinstance(node, cst.Attribute) and node.attr.value == "objects"
        for name in names for node in iter_nodes(rec.follow(name, call.scope, call.order))
    )


def _made_task(rec: Recogniser, function: FunctionInfo) -> Optional[Tuple[str, Dict[str, cst.Arg], bool]]:
    """A function made into a task where it is written (``task_func = shared_task(**opts)(inner)``
    in a decorator, ``inner`` calling ``task_func.retry(...)``): the name of that task, the
    options it was made with, and whether an unpacked mapping may add others."""
    for call in rec.model.calls_in(function.scope):
        func = call.node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "retry" and isinstance(func.value, cst.Name)):
            continue
        binding = rec.model.lookup(func.value.value, call.scope, call.order)
        made = binding.expr if binding is not None else None
        if not (isinstance(made, cst.Call) and isinstance(made.func, cst.Call) and len(made.args) == 1):
            continue
        scope = binding.scope  # type: ignore[union-attr]
        if not _is_task_decorator(rec, made.func, scope, binding.order):  # type: ignore[union-attr]
            continue
        if rec.model.resolve(made.args[0].value, scope, binding.order) is not function:  # type: ignore[union-attr]
            continue
        keywords, star = _task_keywords(rec, made.func, scope, binding.order)  # type: ignore[union-attr]
        return func.value.value, keywords, star
    return None


def _bound_task(rec: Recogniser, function: FunctionInfo) -> Optional[Tuple[cst.Call, Dict[str, cst.Arg]]]:
    for decorator in function.decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            scope = function.scope.parent or function.scope
            if _is_task_decorator(rec, expr, scope, 1 << 62):
                keywords, _ = keyword_args(expr)
                bind = keywords.get("bind")
                if bind is not None and is_true(bind.value):
                    return expr, keywords
    return None


def _hands_over(rec: Recogniser, call: CallSite, self_name: str) -> bool:
    """In an ``except``, or under an ``if`` (``if not send(url, data): handle_retry(self)``),
    the task itself handed to a helper that retries it: a function of the file that calls
    ``.retry(...)`` on that parameter, or one named for it (``retry_later``). Called on no
    condition, such a helper runs the task again on a schedule: not a retry."""
    if not any(isinstance(n, (cst.ExceptHandler, cst.If)) for n in call.stack):
        return False
    if not any(isinstance(a.value, cst.Name) and a.value.value == self_name for a in call.node.args):
        return False
    callee = rec.model.resolve(call.node.func, call.scope, call.order)
    if isinstance(callee, FunctionInfo):
        return any(
            isinstance(c.node.func, cst.Attribute) and c.node.func.attr.value == "retry"
            for c in rec.model.calls_in(callee.scope)
        )
    name = rec.name(call) or dotted_name(call.node.func) or ""
    return "retry" in name.rsplit(".", 1)[-1].lower()


def _retry_kwargs_limit(call: cst.Call, task: str, decorator_keywords: Dict[str, cst.Arg]) -> Optional[cst.Arg]:
    """``task.retry(**task.retry_kwargs)``: the ``max_retries`` of the decorator's
    ``retry_kwargs={...}``, which the call unpacks (celery itself reads it only for
    ``autoretry_for``)."""
    written = decorator_keywords.get("retry_kwargs")
    if written is None or not isinstance(written.value, cst.Dict) or not any(
        arg.star == "**" and isinstance(arg.value, cst.Attribute) and arg.value.attr.value == "retry_kwargs"
        and isinstance(arg.value.value, cst.Name) and arg.value.value.value == task
        for arg in call.args
    ):
        return None
    entries = string_keyed(written.value)
    limit = entries.get("max_retries") if entries is not None else None
    return cst.Arg(limit, keyword=cst.Name("max_retries")) if limit is not None else None


def _handed_limit(
    rec: Recogniser, call: CallSite, decorator_keywords: Dict[str, cst.Arg], self_name: str,
) -> Optional[cst.Arg]:
    """The limit the helper the task is handed to retries it with, when it unpacks the task's
    ``retry_kwargs`` (saleor's ``handle_webhook_retry(self, ...)``)."""
    callee = rec.model.resolve(call.node.func, call.scope, call.order)
    if not isinstance(callee, FunctionInfo) or not isinstance(callee.node, cst.FunctionDef):
        return None
    position = next((i for i, a in enumerate(call.node.args) if isinstance(a.value, cst.Name) and a.value.value == self_name), None)
    params = [*callee.node.params.posonly_params, *callee.node.params.params]
    if position is None or position >= len(params):
        return None
    task = params[position].name.value
    return next((
        found for inner in rec.model.calls_in(callee.scope)
        if isinstance(inner.node.func, cst.Attribute) and inner.node.func.attr.value == "retry"
        and (found := _retry_kwargs_limit(inner.node, task, decorator_keywords)) is not None
    ), None)


def _helper_retries(rec: Recogniser, function: FunctionInfo, param: str) -> None:
    """``def retry_later(task, exc): raise task.retry(exc=exc, countdown=...)``: its wait."""
    if param in ("self", "cls"):
        return
    for call in rec.model.calls_in(function.scope):
        func = call.node.func
        if (isinstance(func, cst.Attribute) and func.attr.value == "retry"
                and isinstance(func.value, cst.Name) and func.value.value == param
                and ("countdown" in keyword_args(call.node)[0] or "eta" in keyword_args(call.node)[0])):
            policy = _retry_call(rec, call, {})
            policy.attempts = Setting(UNKNOWN)  # the task's limit, not the helper's
            policy.max_attempts = policy.time_limit = UNKNOWN
            policy.retry_on = Setting(UNKNOWN)
            rec.add(policy)


def _retry_call(rec: Recogniser, call: CallSite, decorator_keywords: Dict[str, cst.Arg]) -> Policy:
    """The policy of one ``task.retry(...)`` call: the decorator's limits, its countdown."""
    policy = Policy("celery", "task-retry", call.node, scope=call.scope, order=call.order)
    keywords, star = keyword_args(call.node)
    via: Optional[str] = None
    task = call.node.func.value.value if isinstance(call.node.func, cst.Attribute) and isinstance(call.node.func.value, cst.Name) else ""
    handed = _retry_kwargs_limit(call.node, task, decorator_keywords)
    if handed is not None:
        keywords, star = {"max_retries": handed, **keywords}, False
    elif star:
        unpacked = _unpacked_keywords(rec, call)
        if unpacked is not None:
            extra, via = unpacked
            keywords = {**extra, **keywords}
            star = False
    _limits(rec, policy, decorator_keywords, star, call.scope, call.order, keywords.get("max_retries"))
    countdown = keywords.get("countdown")
    eta = keywords.get("eta")
    if via is not None and countdown is None and eta is None:
        policy.wait = Setting(UNKNOWN, call.node, f"`countdown` of `{via.rsplit('.', 1)[-1]}`", via=via)
    elif eta is not None or (star and countdown is None):
        # a ``countdown`` written at the call is the one it waits: what ``**`` unpacks cannot
        # give it again
        policy.wait = Setting(UNKNOWN)
    elif countdown is None:
        text = _delay_text(decorator_keywords.get("default_retry_delay"))
        policy.wait = Setting(
            WAIT_FIXED, call.node,
            f"`self.retry()` without `countdown` waits celery's fixed `default_retry_delay` ({text})",
        )
    else:
        kind, detail = delay_kind(rec, countdown.value, call.scope, call.order, None, site=call)
        grows = growth(countdown.value, set(), set(), lambda expr: rec.follow(expr, call.scope, call.order))
        text = f"`countdown={detail}`" if detail else ""
        if text and grows != "constant" and kind != WAIT_JITTERED:
            text += " " + growth_words(grows)
        policy.wait = Setting(kind, countdown.value, text)
    return policy


def _unpacked_keywords(rec: Recogniser, call: CallSite) -> Optional[Tuple[Dict[str, cst.Arg], Optional[str]]]:
    """``self.retry(exc=exc, **RETRY_KWARGS)``: the keywords of a dict literal of the file, or
    no keywords and the name of another module's dict (the project pass reads its
    ``countdown``); None when the ``**`` is of unknown content."""
    unpacked = [a for a in call.node.args if a.star == "**"]
    if len(unpacked) != 1 or any(a.star == "*" for a in call.node.args):
        return None
    expr = unpacked[0].value
    followed = rec.follow(expr, call.scope, call.order)
    if isinstance(followed, cst.Dict):
        entries = _written_entries(rec, expr, call.scope, call.order)
        if entries is None:
            return None
        return {key: cst.Arg(value, keyword=cst.Name(key)) for key, value in entries.items()}, None
    name = rec.expr_name(expr, call.scope, call.order) if isinstance(expr, (cst.Name, cst.Attribute)) else None
    return ({}, name) if name is not None and followed is expr else None


def _delay_text(delay: Optional[cst.Arg]) -> str:
    """Celery's ``default_retry_delay`` as the message gives it: seconds when written as a number
    (180 when not given), else the expression that sets it (``settings.RETRY_DELAY``)."""
    seconds = number_of(delay.value) if delay is not None else 180
    if isinstance(seconds, (int, float)):
        return f"{seconds:g} s"
    assert delay is not None
    return f"`{code_of(delay.value)}`"
