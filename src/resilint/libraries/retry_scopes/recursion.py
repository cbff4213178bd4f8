"""Retry by recursion: a function that calls itself again when its call out fails.

``def fetch(url, attempt=0): try: ... except ConnectionError: if attempt >= 3: raise;
sleep(2); return fetch(url, attempt + 1)`` repeats the whole function, as a retry decorator
would: a scope covering the function, whose policy is bounded by a parameter the recursive
call counts with (compared with a limit), waits what the handler sleeps, and retries what the
handler catches (or the bad statuses of an ``if`` around the call).
"""

from __future__ import annotations

from functools import partial

from typing import TYPE_CHECKING, Iterator, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.conditions import refused_request, status_polarity, unset_flag, without_attempt_limits
from resilint.libraries.retry_scopes.delays import delay_kind, described
from resilint.libraries.retry_scopes.loop_limits import helper_reads_bound
from resilint.libraries.retry_scopes.loops import calls_out, handler_kind, is_failure, local_state, sleeps_of_helper
from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    ON_STATUS,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_JITTERED,
    WAIT_NONE,
    Policy,
    RetryScope,
    Setting,
)
from resilint.libraries.retry_scopes.names import SLEEPS
from resilint.libraries.retry_scopes.statements import block, conditional_exit, counter_names, leaves, walk_statements
from resilint.lint.nodes import (
    call_argument, code_of, dotted_name, expression_nodes, is_true, keys_set_on, number_of, string_of,
)
from resilint.lint.semantic import CallSite, FunctionInfo, Instance
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser


def recursive_retries(rec: Recogniser, function: FunctionInfo) -> None:
    """Record a scope for each call of ``function`` to itself from a failure path, after a
    pause or with a counted parameter (a retry, not a fallback that calls again once)."""
    node = function.node
    if not isinstance(node, cst.FunctionDef):
        return
    for call in rec.model.calls_in(function.scope):
        if not _calls_itself(rec, function, call):
            continue
        path = _failure_path(rec, call, node)
        fallen = _after_failed_try(rec, call, node) if path is node else None
        if path is None or (path is node and fallen is None):
            continue
        # the handler whose failures reach the call: the one it is in, or one that falls through
        failed = path if isinstance(path, cst.ExceptHandler) else fallen[1] if fallen is not None else None
        if failed is not None and not _tries_a_call_out(rec, function, failed):
            continue
        requeued = _requeues(rec, function, call)
        if not _counted_parameters(function, call.node) and (requeued or not _pauses(rec, call, path)) and (
                requeued or not (_repeats_unchanged(function, call, path) or _once_by_flag(function, call, path))):
            # called again at once, uncounted: a fallback (create the table, run again); queued
            # again uncounted, after a lock conflict or a rate limit: rescheduled work
            continue
        policy = Policy("recursion", "requeue" if requeued else "recursion", call.node, scope=call.scope, order=call.order)
        if failed is not None:
            kind = handler_kind(rec, failed, call.scope, call.order)
            policy.retry_on = Setting(kind, failed, "")
            if kind == ON_ANY:
                policy.handlers = (failed,)
            statements = block(failed.body) if fallen is None else list(block(node.body))
        else:
            policy.retry_on = Setting(ON_STATUS, path)
            statements = block(path.body)
            # ``if r.status_code == 429 and rate_limit > 0: return self._send(...)``, that branch
            # or one inside it: it calls again only when the server refused the request
            inner = call.stack[next(i for i, n in enumerate(call.stack) if n is path):]
            policy.guards_non_idempotent = any(
                isinstance(n, cst.If) and any(c is call.node for c in iter_nodes(n.body)) and refused_request(n.test)
                for n in inner
            )
        handler = next((n for n in reversed(call.stack) if isinstance(n, cst.ExceptHandler)), None)
        if handler is not None:
            # what fails in its ``try`` is called again; a call of the handler that fails (a
            # login after a 401) leaves the function
            policy.tries = tuple(_try_of(function, handler))
        elif fallen is not None:
            policy.tries = (fallen[0],)
        _limit(rec, policy, function, call, statements)
        if policy.max_attempts is None and _once_by_flag(function, call, path):
            policy.max_attempts, policy.time_limit = 2, UNKNOWN  # the call again sets the flag its test reads
            policy.attempts = Setting("bounded", call.node)
        _wait(rec, policy, call, path)
        rec.scopes.append(RetryScope(rec.add(policy), "recursion", call.node, node, function))


def repeat_skips(function: FunctionInfo, again: cst.Call, site: CallSite) -> bool:
    """Whether the call a function makes to itself again (``again``) leaves a flag parameter
    at a value that rules out the branch ``site`` is in: ``self.get_json(path, _attempt=_attempt
    + 1)`` leaves ``use_post`` at its default ``False``, so the ``if use_post: sess.post(...)``
    of the first attempt is not what the retry sends."""
    node = function.node
    if not isinstance(node, cst.FunctionDef):
        return False
    params = [p for p in (*node.params.posonly_params, *node.params.params)]
    bound = 1 if function.owner is not None and isinstance(again.func, cst.Attribute) and params else 0
    for branch in site.stack:
        if not isinstance(branch, cst.If) or any(n is site.node for n in iter_nodes(branch.test)):
            continue
        test, holds = branch.test, any(n is site.node for n in iter_nodes(branch.body))
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, holds = test.expression, not holds
        if not isinstance(test, cst.Name):
            continue
        value = _given_to(again, test.value, params, bound, (*node.params.params, *node.params.kwonly_params))
        if value is not None and value != holds:
            return True
    return False


def _given_to(call: cst.Call, name: str, params: List[cst.Param], bound: int, declared: Tuple[cst.Param, ...]) -> Optional[bool]:
    """Whether ``call`` gives the parameter ``name`` a true or a false constant (``True``,
    ``False``, ``None``), written or left at its default; None when it passes anything else."""
    positions = [p.name.value for p in params][bound:]
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if (arg.keyword is not None and arg.keyword.value == name) or (
                arg.keyword is None and index < len(positions) and positions[index] == name):
            return _truth(arg.value)
    param = next((p for p in declared if p.name.value == name), None)
    return _truth(param.default) if param is not None and param.default is not None else None


def _truth(value: cst.BaseExpression) -> Optional[bool]:
    if isinstance(value, cst.Name) and value.value in ("True", "False", "None"):
        return value.value == "True"
    return None


# A celery task that queues itself again (``fetch.apply_async(args=(url, attempt + 1),
# countdown=2 ** attempt)``, ``fetch.delay(url, attempt + 1)``): a retry by re-queueing.
_REQUEUES = frozenset({"delay", "apply_async"})


_REPORTING = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print"})


def _repeats_unchanged(function: FunctionInfo, call: CallSite, path: cst.CSTNode) -> bool:
    """The failure path does nothing but call the function again with its own arguments,
    unchanged (``elif resp.status_code == 401: return self._send(msg, user_key=user_key)``):
    the same request again at once, no fallback (logging it aside)."""
    node = function.node
    if not isinstance(node, cst.FunctionDef) or isinstance(call.node.func, cst.Attribute) and call.node.func.attr.value in _REQUEUES:
        return False
    params = [p.name.value for p in node.params.params]
    if function.owner is not None and params and isinstance(call.node.func, cst.Attribute):
        params = params[1:]  # ``self._send(...)``: ``self`` is bound
    named = set(params) | {p.name.value for p in node.params.kwonly_params}
    # (the names any test of the function reads: a flag tested anywhere may decide the path)
    tested = {
        n.value for inner in iter_nodes(node.body) if isinstance(inner, (cst.If, cst.IfExp, cst.While))
        for n in iter_nodes(inner.test) if isinstance(n, cst.Name)
    }
    passed = set()
    for index, arg in enumerate(call.node.args):
        if arg.star or not isinstance(arg.value, cst.Name):
            return False
        wanted = arg.keyword.value if arg.keyword is not None else (params[index] if index < len(params) else None)
        if wanted is None or wanted not in named:
            return False
        if arg.value.value != wanted and (_truth(arg.value) is None or wanted in tested):
            # (``no_ssl=True``, tested nowhere in the function: once it is True, unchanged)
            return False
        passed.add(wanted)
    if named - passed:
        return False  # a parameter left to its default (``form`` dropped): another request, a fallback
    if any(target in named for target in _assigned_in(_around(call, path))):
        return False  # an argument changed on the way (``api_key = refresh()``)
    if not isinstance(path, (cst.If, cst.ExceptHandler)):
        return False
    # what runs on the path before the call, in the order it is written (``if self.parse_query:
    # self.parse_query = False`` before ``return self.run(key)`` changes what the call does)
    for inner in iter_nodes(path.body):
        if inner is call.node:
            return True
        if isinstance(inner, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Del)):
            if not any(n is call.node for n in iter_nodes(inner)):
                return False  # (``note = self._send(...)`` is the call's own statement)
        elif isinstance(inner, cst.Call) and not (
            isinstance(inner.func, (cst.Attribute, cst.Name))
            and (inner.func.attr.value if isinstance(inner.func, cst.Attribute) else inner.func.value) in _REPORTING
        ):
            return False
    return False


def _once_by_flag(function: FunctionInfo, call: CallSite, path: cst.CSTNode) -> bool:
    """The failure path calls again once with the same arguments and a flag set that its test
    reads (``if not retried and r.status_code in (500, 503): return send(url, data,
    retried=True)``; pyicloud's ``kwargs["retried"] = True`` before ``return
    self.request(method, url, **kwargs)``): the same request sent again, one more time."""
    node = function.node
    if not isinstance(node, cst.FunctionDef) or not isinstance(path, (cst.If, cst.ExceptHandler)):
        return False
    own = {p.name.value for p in (*node.params.params, *node.params.kwonly_params)}
    kwargs = node.params.star_kwarg.name.value if isinstance(node.params.star_kwarg, cst.Param) else None
    flags: Set[str] = set()
    for arg in call.node.args:
        if arg.star == "**" and isinstance(arg.value, cst.Name) and arg.value.value == kwargs:
            continue
        if arg.star or not isinstance(arg.value, (cst.Name, cst.Attribute)):
            return False
        if arg.keyword is not None and is_true(arg.value) and arg.keyword.value in own:
            flags.add(arg.keyword.value)  # ``retried=True``
        elif not (isinstance(arg.value, cst.Name) and arg.value.value in own):
            return False  # another value than the function was given
    if kwargs is not None:  # ``kwargs["retried"] = True`` on the way
        flags |= {key for key, value in keys_set_on(path, kwargs) if is_true(value)}
    if not flags:
        return False
    # what the tests on the way require to be unset (``not retried``, ``has_retried is None``):
    # the call again sets it, so its own test fails (``if retry:`` … ``retry=True`` goes on)
    unset = {
        dotted_name(flag) for test in (n.test for n in call.stack if isinstance(n, cst.If))
        for part in iter_nodes(test) for flag in (unset_flag(part),) if flag is not None
    } - {None}
    # the flag tested itself, or a name read from it (``has_retried = kwargs.get("retried")``)
    return bool(flags & unset) or bool(unset) and any(
        string_of(n) in flags for n in iter_nodes(node.body) if isinstance(n, cst.SimpleString)
    )


def _around(call: CallSite, path: cst.CSTNode) -> cst.CSTNode:
    """The statement the failure path belongs to (the ``if``/``elif`` chain, the ``try``):
    what runs between the failed attempt and the call again. Defaults filled in at the
    function's start (``if api_key is None: api_key = settings.KEY``) are the same again."""
    index = next(i for i, n in enumerate(call.stack) if n is path)
    return next((n for n in reversed(call.stack[:index]) if isinstance(n, (cst.If, cst.Try, cst.TryStar))), path)


def _assigned_in(statement: cst.CSTNode) -> Iterator[str]:
    for inner in iter_nodes(statement, stop_at=(cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        if isinstance(inner, cst.Assign):
            for target in inner.targets:
                if isinstance(target.target, cst.Name):
                    yield target.target.value
        elif isinstance(inner, (cst.AugAssign, cst.AnnAssign)) and isinstance(inner.target, cst.Name):
            yield inner.target.value


def _calls_itself(rec: Recogniser, function: FunctionInfo, call: CallSite) -> bool:
    """The call runs ``function`` again: by its name, ``self(...)`` in a ``__call__``, or by
    queueing the task again."""
    values = rec.model.resolve_all(call.node.func, call.scope, call.order)
    if function in values or _requeues(rec, function, call):
        return True
    return function.name == "__call__" and function.owner is not None and any(
        isinstance(value, Instance) and value.of is function.owner for value in values
    )


def _requeues(rec: Recogniser, function: FunctionInfo, call: CallSite) -> bool:
    func = call.node.func
    return (isinstance(func, cst.Attribute) and func.attr.value in _REQUEUES
            and function in rec.model.resolve_all(func.value, call.scope, call.order))


def _passed(call: cst.Call) -> List[cst.BaseExpression]:
    """What the call hands the function: its arguments, or what ``apply_async`` passes in
    ``args=(...)`` and ``kwargs={...}``."""
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "apply_async":
        found: List[cst.BaseExpression] = []
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "args" and isinstance(arg.value, (cst.Tuple, cst.List)):
                found.extend(element.value for element in arg.value.elements)
            elif arg.keyword is not None and arg.keyword.value == "kwargs" and isinstance(arg.value, cst.Dict):
                found.extend(element.value for element in arg.value.elements if isinstance(element, cst.DictElement))
        return found
    return [arg.value for arg in call.args]


def _countdown(call: cst.Call) -> Optional[cst.BaseExpression]:
    """The delay ``apply_async`` queues the task again after (``countdown=``)."""
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "apply_async":
        argument = call_argument(call, "countdown", None)
        return argument.value if argument is not None else None
    return None


def _failure_path(rec: Recogniser, call: CallSite, function: cst.FunctionDef) -> Optional[cst.CSTNode]:
    """The ``except`` handler (of a failure) or the ``if`` on a bad status that the recursive
    call is in, within the function itself; or the function, when the call is written in its
    own body (a failure path only after a ``try`` that returns on success and whose handler
    falls through to it: ``_after_failed_try`` tells)."""
    for enclosing in reversed(call.stack):
        if enclosing is function:
            return function
        if isinstance(enclosing, (cst.FunctionDef, cst.Lambda)):
            return None
        if isinstance(enclosing, cst.ExceptHandler):
            return enclosing if is_failure(rec, enclosing, call.scope, call.order) else None
        if isinstance(enclosing, cst.If):
            test = without_attempt_limits(enclosing.test)  # ``if r.status_code >= 500 and attempt < 3:``
            follow = partial(rec.follow, scope=call.scope, order=call.order)  # ``in RETRY_STATUSES``
            if test is not None and status_polarity(test, follow) == "bad":
                return enclosing
    return None


def _after_failed_try(
    rec: Recogniser, call: CallSite, function: cst.FunctionDef,
) -> Optional[Tuple[cst.BaseCompoundStatement, cst.ExceptHandler]]:
    """The ``try`` written before the call in the function's own body that returns when its
    call works, and its failure handler that falls through to what follows (``try: return
    self.client.status() except OSError as e: log(e)``, then ``sleep(5); return self.get(...)``):
    only a failure reaches the call."""
    statements = block(function.body)
    index = next((i for i, stmt in enumerate(statements) if any(n is call.node for n in iter_nodes(stmt))), None)
    for stmt in statements[:index] if index is not None else ():
        if not isinstance(stmt, (cst.Try, cst.TryStar)) or not leaves(block(stmt.body)) or stmt.orelse is not None:
            continue
        handler = next((
            h for h in stmt.handlers
            if is_failure(rec, h, call.scope, call.order) and not leaves(block(h.body))
        ), None)
        if handler is not None:
            return stmt, handler
    return None


def _try_of(function: FunctionInfo, handler: cst.ExceptHandler) -> Iterator[cst.CSTNode]:
    """The ``try`` statement whose handler ``handler`` is."""
    for node in iter_nodes(function.node.body, stop_at=(cst.FunctionDef, cst.Lambda, cst.ClassDef)):  # type: ignore[union-attr]
        if isinstance(node, (cst.Try, cst.TryStar)) and any(h is handler for h in node.handlers):
            yield node
            return


def _tries_a_call_out(rec: Recogniser, function: FunctionInfo, handler: cst.ExceptHandler) -> bool:
    """The ``try`` of the handler calls another service (not builtins, not local state)."""
    for node in _try_of(function, handler):
        calls = rec.model.calls_run_in(function.scope)
        return calls_out(rec, node, calls) and not local_state(rec, node, [handler], calls, function.scope, 1 << 62)
    return False


def _limit(rec: Recogniser, policy: Policy, function: FunctionInfo, call: CallSite, statements: List[cst.BaseStatement]) -> None:
    """Bounded when the handler leaves on a test of a parameter that the recursive call
    counts with (``fetch(url, attempt + 1)``, ``retries - 1``); unbounded when nothing counts."""
    counters = _counted_parameters(function, call.node)
    once = _once_flag(function, call, statements)
    if once is not None:
        policy.max_attempts, policy.time_limit = 2, UNKNOWN  # the second call cannot go again
        policy.attempts = Setting("bounded", once)
        return
    # ``self.retry_count += 1`` on the way: a counter kept outside the call's arguments
    kept = {dotted_name(n.target) for n in walk_statements(statements) if isinstance(n, cst.AugAssign)} - {None}
    for node in walk_statements(statements):
        if not isinstance(node, cst.If):
            continue
        names = {dotted_name(n) for n in expression_nodes(node.test) if isinstance(n, (cst.Name, cst.Attribute))}
        guards = any(n is call.node for n in iter_nodes(node.body)) and names & (kept | counters)
        if (conditional_exit(node) and names & (counters | kept)) or guards:
            calls_again = any(n is call.node for n in iter_nodes(node.body))
            policy.max_attempts, policy.time_limit = _attempts(node.test, function, counters, calls_again), UNKNOWN
            if not calls_again:
                policy.gives_up_raising = _raised_when_spent(rec, node, call)
            start = _counted_down(node, function, call, statements) if policy.max_attempts == UNKNOWN else None
            if start is not None:
                number = rec.int_value(start, call.scope, call.order)
                if isinstance(number, int):
                    policy.max_attempts = number + 1
                else:
                    policy.counted_from = (start, 1)  # the project may know it (``@retrier(retries=2)``)
            policy.attempts = Setting("bounded", node.test)
            return
    # ``safechk += 1`` in the handler, then ``fetch(url, safechk)``: the count the caller passes
    # on is tested where the function starts (``elif safechk > 4: return``)
    parameters = {p.name.value for p in (*function.node.params.params, *function.node.params.kwonly_params)}  # type: ignore[union-attr]
    passed_on = kept & parameters & {arg.value.value for arg in call.node.args if isinstance(arg.value, cst.Name)}
    for node in walk_statements(block(function.node.body)) if passed_on else ():  # type: ignore[union-attr]
        if isinstance(node, cst.If) and conditional_exit(node) and passed_on & {
            n.value for n in expression_nodes(node.test) if isinstance(n, cst.Name)
        }:
            policy.max_attempts, policy.time_limit = UNKNOWN, UNKNOWN
            policy.attempts = Setting("bounded", node.test)
            return
    if counters:
        policy.max_attempts, policy.time_limit = UNKNOWN, UNKNOWN  # counted, tested elsewhere
        policy.attempts = Setting(UNKNOWN, call.node)
        return
    for node in walk_statements(statements):
        if isinstance(node, cst.If) and conditional_exit(node) and _decided_by_helper(rec, node.test, call):
            policy.max_attempts, policy.time_limit = UNKNOWN, UNKNOWN
            policy.attempts = Setting("bounded", node.test)
            return
    policy.max_attempts, policy.time_limit = None, None
    policy.attempts = Setting(
        "unbounded", call.node,
        f"`{function.name}` calls itself again after a failure with no attempt counter or limit, so it retries forever",
    )


def _raised_when_spent(rec: Recogniser, exit_test: cst.If, call: CallSite) -> Optional[str]:
    """The class a new error raised where the attempts are spent is of (``if attempt ==
    limit: raise ConnectionException(str(err)) from err``); None for the last error itself."""
    last = block(exit_test.body)[-1:]
    statement = last[0] if last else None
    small = statement.body[-1:] if isinstance(statement, cst.SimpleStatementLine) else ()
    raised = small[0] if small and isinstance(small[0], cst.Raise) else None
    if raised is None or not isinstance(raised.exc, cst.Call):
        return None  # ``raise``, ``raise err``: what the handler caught
    return rec.expr_name(raised.exc.func, call.scope, call.order)


def _once_flag(function: FunctionInfo, call: CallSite, statements: List[cst.BaseStatement]) -> Optional[cst.If]:
    """``if not retried: ...; return fetch(url, retried=True)`` (or ``if is_retry: raise``
    ``else: ...; self.fetch(url, is_retry=True)``): the call again goes round only while a
    parameter flag is unset, and sets it: one retry at most. The ``if``, else None."""
    params = function.node.params  # type: ignore[union-attr]
    names = {p.name.value for p in (*params.params, *params.kwonly_params)}
    for node in walk_statements(statements):
        if not isinstance(node, cst.If):
            continue
        in_body = any(n is call.node for n in iter_nodes(node.body))
        if not in_body and not (node.orelse is not None and any(n is call.node for n in iter_nodes(node.orelse))):
            continue
        test, negated = node.test, False
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, negated = test.expression, True
        # the branch that calls again runs while the flag is false: the call must set it
        wanted = "True" if negated == in_body else "False"
        if not isinstance(test, cst.Name) or test.value not in names:
            continue
        if any(arg.keyword is not None and arg.keyword.value == test.value and isinstance(arg.value, cst.Name)
               and arg.value.value == wanted for arg in call.node.args):
            return node
    return None


def _counted_parameters(function: FunctionInfo, call: cst.Call) -> Set[str]:
    """Parameters the recursive call passes one more (or one less) of: ``attempt + 1``, or the
    parameter itself counted in a statement of its own (``attempts += 1`` before the call)."""
    params = function.node.params  # type: ignore[union-attr]
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    stepped = {
        n.target.value for n in iter_nodes(function.node) if isinstance(n, cst.AugAssign)
        and isinstance(n.operator, (cst.AddAssign, cst.SubtractAssign)) and isinstance(n.target, cst.Name)
        and number_of(n.value) == 1
    } | {  # ``retry_count = retry_count + 1``
        n.targets[0].target.value for n in iter_nodes(function.node)
        if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name)
        and isinstance(n.value, cst.BinaryOperation) and isinstance(n.value.operator, (cst.Add, cst.Subtract))
        and isinstance(n.value.left, cst.Name) and n.value.left.value == n.targets[0].target.value and number_of(n.value.right) == 1
    }
    found: Set[str] = set()
    for value in _passed(call):
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract)):
            for side in (value.left, value.right):
                if isinstance(side, cst.Name) and side.value in names:
                    found.add(side.value)
        elif isinstance(value, cst.Name) and value.value in names and value.value in stepped:
            found.add(value.value)
    return found


def _counted_down(test: cst.If, function: FunctionInfo, call: CallSite, statements: List[cst.BaseStatement]) -> Optional[cst.BaseExpression]:
    """``if count > 0: count -= 1; return wrapper(*args, **kwargs)`` (or ``if retries <= 0:
    raise`` before ``fetch(url, retries - 1)``): the expression the count starts from, whose
    value is the number of retries (one attempt more), else None."""
    calls_again = any(n is call.node for n in iter_nodes(test.body))
    name = _while_positive(test.test) if calls_again else (_when_spent(test.test) if conditional_exit(test) else None)
    if name is None:
        return None
    decremented = any(
        isinstance(n, cst.AugAssign) and isinstance(n.operator, cst.SubtractAssign) and dotted_name(n.target) == name
        and number_of(n.value) == 1
        for n in walk_statements(statements)
    ) or any(
        isinstance(arg.value, cst.BinaryOperation) and isinstance(arg.value.operator, cst.Subtract)
        and isinstance(arg.value.left, cst.Name) and arg.value.left.value == name and number_of(arg.value.right) == 1
        for arg in call.node.args
    )
    return _start_of(function, name) if decremented else None


def _while_positive(test: cst.BaseExpression) -> Optional[str]:
    """``count > 0``, ``count >= 1``, ``0 < count``, ``count``: the name."""
    if isinstance(test, cst.Name):
        return test.value
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    operator, right = test.comparisons[0].operator, test.comparisons[0].comparator
    if isinstance(test.left, cst.Name) and (
        (isinstance(operator, cst.GreaterThan) and number_of(right) == 0)
        or (isinstance(operator, cst.GreaterThanEqual) and number_of(right) == 1)
    ):
        return test.left.value
    if isinstance(right, cst.Name) and isinstance(operator, cst.LessThan) and number_of(test.left) == 0:
        return right.value
    return None


def _when_spent(test: cst.BaseExpression) -> Optional[str]:
    """``count <= 0``, ``count == 0``, ``count < 1``, ``not count``: the name."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and isinstance(test.expression, cst.Name):
        return test.expression.value
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1 or not isinstance(test.left, cst.Name):
        return None
    operator, right = test.comparisons[0].operator, number_of(test.comparisons[0].comparator)
    if (isinstance(operator, (cst.LessThanEqual, cst.Equal)) and right == 0) or (isinstance(operator, cst.LessThan) and right == 1):
        return test.left.value
    return None


def _start_of(function: FunctionInfo, name: str) -> Optional[cst.BaseExpression]:
    """What a count starts from: its parameter's default, or its first assignment in the
    function, where ``kwargs.pop("count", retries)`` (or ``.get``) starts from the default
    (the callers other than the recursion pass none)."""
    params = function.node.params  # type: ignore[union-attr]
    for param in (*params.params, *params.kwonly_params):
        if param.name.value == name:
            return param.default
    bindings = function.scope.bindings.get(name)
    first = min(bindings, key=lambda b: b.order) if bindings else None
    expr = first.expr if first is not None else None
    if (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in ("pop", "get")
            and len(expr.args) == 2 and not any(a.keyword or a.star for a in expr.args)):
        return expr.args[1].value
    return expr


def _attempts(test: cst.BaseExpression, function: FunctionInfo, counters: Set[str], calls_again: bool = False) -> object:
    """``attempt >= 3`` with ``attempt=0``: 4 attempts; a test under which the function calls
    itself again (``calls_again``), ``retry < 5``: 6; else unknown (but bounded)."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name)):
        return UNKNOWN
    name = test.left.value
    limit = number_of(test.comparisons[0].comparator)
    operator = test.comparisons[0].operator
    params = function.node.params  # type: ignore[union-attr]
    default = next(
        (number_of(p.default) for p in (*params.params, *params.kwonly_params) if p.name.value == name and p.default),
        None,
    )
    if name not in counters or not isinstance(limit, int) or default != 0:
        return UNKNOWN
    if calls_again:
        # called again while the count is below the limit: that many retries, and the first call
        return limit + 1 if isinstance(operator, cst.LessThan) else limit + 2 if isinstance(operator, cst.LessThanEqual) else UNKNOWN
    if isinstance(operator, cst.GreaterThanEqual):
        return limit + 1
    if isinstance(operator, cst.GreaterThan):
        return limit + 2
    return UNKNOWN


def _sleeps(rec: Recogniser, call: CallSite, path: cst.CSTNode) -> List[CallSite]:
    """The sleeps on the failure path: written there, or in a function of the file it calls
    (``if not await self._is_retryable(exc): raise``, which sleeps before saying yes)."""
    found: List[CallSite] = []
    for site in rec.model.calls_in(call.scope):
        if not any(n is path for n in site.stack):
            continue
        found.extend([site] if rec.name(site) in SLEEPS else sleeps_of_helper(rec, site) or ())
    return found


def _decided_by_helper(rec: Recogniser, test: cst.BaseExpression, call: CallSite) -> bool:
    """The exit's test asks a function of the file that tests a count, a clock or a deadline,
    directly or through the name it was assigned to (``retryable = self._is_retryable(exc)``)."""
    for node in expression_nodes(test):
        followed = rec.follow(node, call.scope, call.order) if isinstance(node, cst.Name) else node
        for part in expression_nodes(followed) if followed is not None else ():
            if isinstance(part, cst.Call) and helper_reads_bound(rec, part, call.scope, call.order):
                return True
    return False


def _pauses(rec: Recogniser, call: CallSite, path: cst.CSTNode) -> bool:
    return bool(_sleeps(rec, call, path)) or _countdown(call.node) is not None


def _wait(rec: Recogniser, policy: Policy, call: CallSite, path: cst.CSTNode) -> None:
    """What the failure path sleeps before calling again (or the countdown it queues the task
    again with)."""
    countdown = _countdown(call.node)
    if countdown is not None:
        kind, detail = delay_kind(rec, countdown, call.scope, call.order, None, site=call)
        text = f"`countdown={detail}`" + (" grows exponentially but has no random term" if kind == WAIT_EXPONENTIAL else
                                          " waits a constant interval with no random term" if kind == WAIT_FIXED else "")
        policy.wait = Setting(kind if kind in (WAIT_FIXED, WAIT_EXPONENTIAL, WAIT_JITTERED) else UNKNOWN, countdown, text)
        return
    sleeps = _sleeps(rec, call, path)
    if not sleeps:
        policy.wait = Setting(WAIT_NONE, None, f"`{code_of(call.node.func)}` is called again at once, with no pause")
        return
    site = sleeps[0]
    argument = call_argument(site.node, "seconds", 0) or call_argument(site.node, "delay", 0)
    if argument is None:
        policy.wait = Setting(WAIT_NONE, site.node, "")
        return
    kind, detail = delay_kind(rec, argument.value, site.scope, site.order, None, site=site)
    function = call.scope.enclosing_function
    counters = _counted_parameters(function, call.node) if function is not None and isinstance(function.node, cst.FunctionDef) else set()
    if function is not None and isinstance(function.node, cst.FunctionDef):
        counters |= counter_names(block(function.node.body))  # (``count -= 1`` of a count popped from ``kwargs``)
    text = described(rec, rec.name(site) or "sleep", detail, kind, argument, site, path, rec.server_fallback, counters)
    policy.wait = Setting(kind if kind in (WAIT_FIXED, WAIT_EXPONENTIAL, WAIT_JITTERED) else UNKNOWN, site.node, text)
