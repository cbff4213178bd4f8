"""How many passes a hand-written retry loop may make: a ``for`` over a range or a collection,
a ``while`` condition on a counter or a deadline, an ``if`` in the body that leaves on one, or a
``while not done`` flag that the failure path sets as well."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, AbstractSet, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.clients import TIMEOUT_KEYWORDS
from resilint.libraries.timeout_values import TimeoutEvaluator
from resilint.libraries.retry_scopes.loop_counts import counted_attempts
from resilint.libraries.retry_scopes.model import UNKNOWN, Policy, Setting
from resilint.libraries.retry_scopes.conditions import failed_branch
from resilint.libraries.retry_scopes.names import CLOCKS, PAUSE_WORD, SLEEPS
from resilint.libraries.retry_scopes.statements import (
    assigned_names,
    block,
    child_blocks,
    conditional_exit,
    counter_names,
    has_continue,
    leaves,
    named_classes,
    unconditional_names,
    used_up,
    walk_statements,
)
from resilint.lint.nodes import code_of, dotted_name, expression_nodes, is_false, is_none, is_true, number_of
from resilint.lint.semantic import FunctionInfo, Scope
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

# The errors a budget raises when it is spent (``BackoffTimeoutExceededError``, tenacity's ``RetryError``).
_SPENT = re.compile(r"timeout|deadline|exceeded|exhausted|expired|RetryError", re.I)
# (a rate limit is the server's, not a limit of the loop: ``if self.wait_on_rate_limit:``; nor
# is a switch that starts something by itself: ``if config.mqtt_autostart:``)
_BOUND_WORDS = re.compile(
    r"deadline|timeout|elapsed|expir|until|(?<!auto)start|attempt|retr(?!yable|iable|y_?after)|tries|tried|count|budget|max_"
    r"|(?<!rate_)(?<!rate)limit|remaining|time|_left|^n$|^i$", re.I,
)


def while_flags(loop: cst.CSTNode) -> Set[str]:
    """Names a ``while`` condition waits for (``while not done``, ``while result is None``,
    ``while count < limit and not succeeded``, ``while keep_trying`` that the body sets to
    ``False``)."""
    if not isinstance(loop, cst.While):
        return set()
    flags: Set[str] = set()
    for part in conjuncts(loop.test):
        flag = _flag(part)
        if flag:
            flags.add(flag)
    cleared = _cleared_flag(loop.test, loop)  # (the whole test: ``while click and retry > 0`` is a count)
    return flags | {cleared} if cleared else flags


def _cleared_flag(test: cst.BaseExpression, loop: cst.While) -> Optional[str]:
    """``while keep_trying:`` whose body sets ``keep_trying = False``, and never in an
    ``except`` handler: the flag ends the loop once the work went through (one a failure
    clears, ``self.keep_alive = False`` in a server's handler, ends it on a failure instead)."""
    name = dotted_name(test) if isinstance(test, (cst.Name, cst.Attribute)) else None
    if name is None:
        return None
    in_handlers = {
        id(node) for stmt in walk_statements(block(loop.body)) if isinstance(stmt, (cst.Try, cst.TryStar))
        for handler in stmt.handlers for node in iter_nodes(handler)
    }
    cleared = [
        node for node in walk_statements(block(loop.body))
        if isinstance(node, cst.Assign) and is_false(node.value) and any(dotted_name(t.target) == name for t in node.targets)
    ]
    return name if cleared and not any(id(node) in in_handlers for node in cleared) else None


def conjuncts(test: cst.BaseExpression) -> List[cst.BaseExpression]:
    """The sides of a test's ``and`` (the test itself when it has none)."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return conjuncts(test.left) + conjuncts(test.right)
    return [test]


def _flag(test: cst.BaseExpression) -> Optional[str]:
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return dotted_name(test.expression)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        # ``while x is None``, ``while x == None``, ``while sent == False``, ``while ok is not True``
        comparator, operator = test.comparisons[0].comparator, test.comparisons[0].operator
        constant = "None" if is_none(comparator) else comparator.value if isinstance(comparator, cst.Name) else None
        if (constant in ("None", "False") and isinstance(operator, (cst.Is, cst.Equal))) or (
            constant == "True" and isinstance(operator, (cst.IsNot, cst.NotEqual))
        ):
            return dotted_name(test.left)
    return None


def loop_limit(
    rec: Recogniser, policy: Policy, loop: cst.CSTNode, body: Sequence[cst.BaseStatement], scope: Scope, order: int,
    going_round: Sequence[cst.ExceptHandler] = (), failing_round: Sequence[cst.ExceptHandler] = (),
    failure_test: bool = False,
) -> None:
    """The loop's attempt limit. ``going_round``: its handlers that go round again; a bound
    tested only in some of them leaves the others' failures retried forever. ``failing_round``:
    every handler of a failure that goes round (also in a loop that retries on a status), of
    which one that counts nothing leaves its failures retried forever. ``failure_test``: the
    ``while`` condition is the failure it retries (``while response.status_code == 429:``),
    which bounds nothing; what else it tests may."""
    flags = while_flags(loop)
    if isinstance(loop, cst.For):
        iterator = loop.iter
        name = rec.expr_name(iterator.func, scope, order) if isinstance(iterator, cst.Call) else None
        if name in ("builtins.enumerate", "builtins.reversed", "builtins.iter") and isinstance(iterator, cst.Call) and iterator.args:
            iterator = iterator.args[0].value
            name = rec.expr_name(iterator.func, scope, order) if isinstance(iterator, cst.Call) else None
        if name == "builtins.range" and isinstance(iterator, cst.Call):
            numbers = [_count(rec, a.value, scope, order) for a in iterator.args]
            if len(numbers) == 1 and numbers[0] is not None:
                policy.max_attempts = numbers[0]
            elif len(numbers) >= 2 and None not in numbers[:2]:
                policy.max_attempts = numbers[1] - numbers[0]  # type: ignore[operator]
            else:
                policy.max_attempts = UNKNOWN
            policy.time_limit = UNKNOWN
            policy.attempts = Setting("bounded", iterator)
            return
        if name not in ("itertools.count", "itertools.repeat") or (
            name == "itertools.repeat" and isinstance(iterator, cst.Call) and len(iterator.args) > 1
        ):
            _limited(policy, "bounded")  # a finite collection, as far as we know
            return
    elif not is_true(loop.test) and not (failure_test and not _limits_besides_failure(rec, loop.test, scope, order)):
        others = [part for part in conjuncts(loop.test) if _flag(part) is None and dotted_name(part) not in flags]
        # (also a collection each pass uses up, ``while not called and stack:`` with ``stack.pop()``)
        if any(mentions_bound(rec, part, used_up(body), scope, order) for part in others):
            # ``while tries < 3``, ``while not done and time.time() < end``
            counter = _uncounted_continue(loop.test, body)
            if counter is not None:
                _unbounded(policy, f"this `while {code_of(loop.test)}` retry loop has a `continue` before `{counter}` "
                                   "is counted: that path goes round without counting, so it retries forever")
                return
            counter = _never_counted(others, body, scope)
            if counter is not None:
                _unbounded(policy, f"this `while {code_of(loop.test)}` retry loop never changes `{counter}`: its "
                                   "condition stays as it was, so it retries forever")
                return
            uncounted = _uncounted_handler(loop.test, body, [*going_round, *failing_round])
            if uncounted is not None:
                counter, handler = uncounted
                caught = f"`{code_of(handler.type)}`" if handler.type is not None else "an error"
                _unbounded(policy, f"this `while {code_of(loop.test)}` retry loop does not count `{counter}` when it "
                                   f"catches {caught}: that path goes round without counting, so it retries forever")
                return
            _limited(policy, "bounded", loop.test, counted_attempts(rec, loop, body, scope, order, going_round))
            return
        infinite = next((part for part in others if _against_infinity(rec, part, scope, order)), None)
        if infinite is not None:
            _unbounded(policy, _infinite_limit(f"while {code_of(loop.test)}", infinite))
            return
        if not flags:
            _limited(policy, UNKNOWN, loop.test)
            return
        if flags & unconditional_names(body):
            _limited(policy, "bounded", loop.test)  # every pass sets the flag: one retry at most
            return
    # ``while True`` / ``while not done`` / ``for _ in itertools.count()``: look for a way out.
    # An exit on anything else (``if exc.response.status_code != 409: raise``) leaves for some
    # failures and keeps retrying the others forever: it bounds nothing.
    counters = counter_names(body)

    def limits(test: cst.BaseExpression, names: Set[str]) -> bool:
        return mentions_bound(rec, test, names, scope, order) and not setting_switch(test, None, names)

    bounds = [in_handler for test, in_handler, flipped in _exit_tests(body, flags) if limits(test, counters | flipped)]
    header = f"while {code_of(loop.test)}" if isinstance(loop, cst.While) else f"for ... in {code_of(loop.iter)}"
    if bounds:
        # every bound is tested in a handler: a handler that tests none (in no ``if`` of its
        # own) goes round forever; with bounds elsewhere too, so does one that goes straight
        # round past them (``if longpolling: continue``), when none is tested before its ``try``
        checked = going_round if all(bounds) else [
            handler for handler in going_round
            if _free_continue(handler.body) is not None and _catches_lost_calls(handler)
            and not _bounded_before(rec, body, handler, counters, flags, scope, order)
        ]
        for handler in checked:
            handler_body = block(handler.body)
            if not any(limits(test, counters | flipped) for test, _, flipped in _exit_tests(handler_body, flags)) and not any(
                limits(stmt.test, counters) for stmt in walk_statements(handler_body) if isinstance(stmt, (cst.If, cst.While))
            ):
                caught = f"`except {code_of(handler.type)}`" if handler.type is not None else "a bare `except:`"
                _unbounded(policy, f"this `{header}` retry loop counts only some failures: {caught} goes round with "
                                   "no attempt counter or deadline, so it retries forever")
                return
    uncounted_status = _uncounted_status(rec, body, counters, flags, scope, order) if bounds else None
    if uncounted_status is not None:
        _unbounded(policy, f"this `{header}` retry loop counts only some failures: when `{code_of(uncounted_status)}` "
                           "it goes round with no attempt counter or deadline, so it retries forever")
        return
    infinite = next((test for test, _, _ in _exit_tests(body, flags) if _against_infinity(rec, test, scope, order)), None)
    if not bounds and infinite is not None:
        _unbounded(policy, _infinite_limit(header, infinite))
    elif not bounds and _hands_the_error_on(rec, body, scope, order):
        _limited(policy, UNKNOWN)  # ``retry.ensure_deadline(0.5, exc)``: what it does decides
    elif not bounds:
        _unbounded(policy, f"this `{header}` retry loop has no attempt counter or deadline, so it retries forever")
    else:
        _limited(policy, "bounded", attempts=counted_attempts(rec, loop, body, scope, order, going_round))


# What reports an error without deciding anything: logging, and error trackers.
_REPORTS = frozenset({
    "debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print", "capture_exception",
    "capture_message", "captureException", "notify", "incr", "increment", "send",
})


def _hands_the_error_on(rec: Recogniser, body: Sequence[cst.BaseStatement], scope: Scope, order: int) -> bool:
    """Whether the loop hands the error it caught (``except E as e``, or a name it is kept in,
    ``exc = e``) to a call that may raise it again: a method of another object or a function the
    file cannot read (``retry.ensure_deadline(0.5, exc)``), or one of the file that raises. Such
    a call may end the loop on a deadline or a count the code does not show."""
    caught: Set[str] = set()
    for handler in walk_statements(body):
        if isinstance(handler, cst.ExceptHandler) and handler.name is not None and isinstance(handler.name.name, cst.Name):
            caught.add(handler.name.name.value)
            for stmt in walk_statements(block(handler.body)):
                if isinstance(stmt, cst.Assign) and isinstance(stmt.value, cst.Name) and stmt.value.value == handler.name.name.value:
                    caught.update(t.target.value for t in stmt.targets if isinstance(t.target, cst.Name))
    if not caught:
        return False
    for node in _nodes_of(body):
        if not isinstance(node, cst.Call) or not any(
            isinstance(arg.value, cst.Name) and arg.value.value in caught for arg in node.args
        ):
            continue
        last = node.func.attr.value if isinstance(node.func, cst.Attribute) else node.func.value if isinstance(node.func, cst.Name) else ""
        if last in _REPORTS or (isinstance(node.func, cst.Attribute) and isinstance(node.func.value, (cst.SimpleString, cst.ConcatenatedString))):
            continue  # a report, or a message made of it (``"retry #{}: {}".format(times, e)``)
        name = rec.expr_name(node.func, scope, order) or ""
        if name.startswith(("builtins.", "logging.", "sentry_sdk.", "traceback.")):
            continue
        called = rec.model.resolve(node.func, scope, order)
        if isinstance(called, FunctionInfo) and isinstance(called.node, cst.FunctionDef) and not any(
                isinstance(n, cst.Raise) for n in _nodes_of(block(called.node.body))):
            continue  # a function of the file that raises nothing
        return True
    return False


def _nodes_of(body: Sequence[cst.BaseStatement]) -> Iterator[cst.CSTNode]:
    """Every node of the block's simple statements, nested definitions left out."""
    for stmt in walk_statements(body):
        if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in stmt.body:
                yield from expression_nodes(small)


def _unbounded(policy: Policy, message: str) -> None:
    policy.max_attempts, policy.time_limit = None, None
    policy.attempts = Setting("unbounded", None, message)


# Error classes of a call that got no answer (not a conflict or a refusal, ``WatchError``).
_LOST_CALL = re.compile(r"timeout|timedout|connection|ssl|network|unavailable|socket", re.I)


def _catches_lost_calls(handler: cst.ExceptHandler) -> bool:
    """The handler catches only errors named for a call that got no answer (``except
    (requests.Timeout, requests.SSLError)``)."""
    types = handler.type
    parts = named_classes(types)
    names = [dotted_name(part) for part in parts]
    return bool(names) and all(name is not None and _LOST_CALL.search(name.rsplit(".", 1)[-1]) for name in names)


def _bounded_before(
    rec: Recogniser, body: Sequence[cst.BaseStatement], handler: cst.ExceptHandler, counters: Set[str], flags: Set[str],
    scope: Scope, order: int,
) -> bool:
    """A bound is tested on every pass before the ``try`` of ``handler`` (``if attempts > 5:
    raise`` at the top of the loop)."""
    index = next((i for i, stmt in enumerate(body) if any(node is handler for node in walk_statements([stmt]))), None)
    return index is None or any(
        mentions_bound(rec, test, counters | flipped, scope, order) for test, _, flipped in _exit_tests(list(body[:index]), flags)
    )


def _uncounted_status(
    rec: Recogniser, body: Sequence[cst.BaseStatement], counters: Set[str], flags: Set[str], scope: Scope, order: int,
) -> Optional[cst.BaseExpression]:
    """In a loop bounded on other paths, the test of a failed status whose branch pauses and
    goes round with no bound tested on its way (``elif status == 429: sleep(t); continue``
    beside a handler that counts network errors): that status is retried forever."""
    def bounded(test: cst.BaseExpression) -> bool:
        return mentions_bound(rec, test, counters, scope, order)

    def pauses(stmts: Sequence[cst.BaseStatement]) -> bool:
        return any(
            isinstance(node, cst.Call) and (
                rec.expr_name(node.func, scope, order) in SLEEPS or PAUSE_WORD.search(dotted_name(node.func) or "")
            )
            for node in _nodes_of(stmts)
        )

    for node, earlier, before in _status_branches(body, ()):
        failed = failed_branch(node, lambda expr: rec.follow(expr, scope, order))
        if not has_continue(failed):
            continue
        if not pauses(failed) or bounded(node.test) or any(bounded(test) for test in earlier):
            continue
        if any(bounded(test) for test, in_handler, _ in _exit_tests(list(before), flags) if not in_handler):
            continue  # ``if attempts > 5: raise`` on every pass before the status is read
        if any(bounded(stmt.test) for stmt in walk_statements(failed) if isinstance(stmt, (cst.If, cst.While))):
            continue
        return node.test
    return None


def _status_branches(
    stmts: Sequence[cst.BaseStatement], before: Tuple[cst.BaseStatement, ...],
) -> Iterator[Tuple[cst.If, Tuple[cst.BaseExpression, ...], Tuple[cst.BaseStatement, ...]]]:
    """Each ``if`` on the loop's straight path (in the ``try``, its ``else:``, a ``with``, an
    ``elif`` chain) with the tests of the chain's earlier branches that leave the loop when
    true, and the statements every pass runs before it."""
    for index, stmt in enumerate(stmts):
        prior = (*before, *stmts[:index])
        if isinstance(stmt, cst.If):
            chain: Tuple[cst.BaseExpression, ...] = ()
            current: object = stmt
            while isinstance(current, cst.If):
                yield current, chain, prior
                if leaves(block(current.body)):
                    chain = (*chain, current.test)
                current = current.orelse
        elif isinstance(stmt, (cst.Try, cst.TryStar)):
            tried = block(stmt.body)
            yield from _status_branches(tried, prior)
            if stmt.orelse is not None:
                yield from _status_branches(block(stmt.orelse.body), (*prior, *tried))
        elif isinstance(stmt, cst.With):
            yield from _status_branches(block(stmt.body), prior)


def _uncounted_continue(test: cst.BaseExpression, body: Sequence[cst.BaseStatement]) -> Optional[str]:
    """``while retry < 3:`` whose counter is counted only by a statement of its own at the end
    of the body (``retry += 1``) and a ``continue`` before it that goes round without counting
    (``if r.status_code == 404: continue``): the counter."""
    tested = {dotted_name(node) for node in expression_nodes(test)} - {None}
    counters = counter_names(body) & tested
    if not counters:
        return None
    own = [index for index, stmt in enumerate(body) if counters & counter_names([stmt]) and isinstance(stmt, cst.SimpleStatementLine)]
    nested = [stmt for stmt in body if counters & counter_names([stmt]) and not isinstance(stmt, cst.SimpleStatementLine)]
    if not own or nested:
        return None
    for stmt in body[:own[0]]:
        if _free_continue(stmt) is not None:
            return sorted(counters)[0]
    return None


def _never_counted(tests: Sequence[cst.BaseExpression], body: Sequence[cst.BaseStatement], scope: Scope) -> Optional[str]:
    """``while retry_count < limit:`` whose body never assigns the local ``retry_count``
    (``retry_count + 1`` throws the sum away) nor anything else the test reads, and which
    calls nothing in its test: the counter, when every such test is so."""
    changed = assigned_names(body) | counter_names(body) | used_up(body)
    found = None
    for test in tests:
        parts = list(expression_nodes(test))
        # (an attribute a limit is read from, ``self.backoff_limit``, is no counter)
        within = {id(part) for node in parts if isinstance(node, cst.Attribute) for part in iter_nodes(node)}
        names = {node.value for node in parts if isinstance(node, cst.Name) and id(node) not in within}
        attributes = {dotted_name(node) for node in parts if isinstance(node, cst.Attribute)}
        if any(isinstance(node, (cst.Call, cst.Subscript)) for node in parts) or (names | attributes) & changed or (
                not names or not all(name in scope.bindings for name in names)):
            return None
        if isinstance(test, cst.Comparison):
            found = found or (test.left.value if isinstance(test.left, cst.Name) else sorted(names)[0])
    return found


def _uncounted_handler(
    test: cst.BaseExpression, body: Sequence[cst.BaseStatement], going_round: Sequence[cst.ExceptHandler],
) -> Optional[Tuple[str, cst.ExceptHandler]]:
    """``while errors <= max_retries:`` whose counter the ``try`` counts on some failures
    (``else: errors += 1`` after a failed status) while a handler that goes round counts it
    nowhere: not in itself, the ``try``'s ``finally``, nor a statement of the loop around the
    ``try``. The counter and that handler."""
    tested = {dotted_name(node) for node in expression_nodes(test)} - {None}
    counters = counter_names(body) & tested
    if not counters:
        return None
    for statement in body:
        if not isinstance(statement, (cst.Try, cst.TryStar)):
            continue
        others = [other for other in body if other is not statement]
        if counters & counter_names(others) or (
            statement.finalbody is not None and counters & counter_names(block(statement.finalbody.body))
        ) or _counted_before_any_call(block(statement.body), counters):
            continue
        for handler in statement.handlers:
            if any(handler is h for h in going_round) and not counters & counter_names(block(handler.body)):
                return sorted(counters)[0], handler
    return None


def _counted_before_any_call(tried: Sequence[cst.BaseStatement], counters: Set[str]) -> bool:
    """``try: attempts_left -= 1; return await fetch()``: the ``try`` counts before anything in
    it can fail, so every failure its handlers catch has been counted."""
    for statement in tried:
        if any(isinstance(node, (cst.Call, cst.Await)) for node in iter_nodes(statement)):
            return False
        if isinstance(statement, cst.SimpleStatementLine) and counters & counter_names([statement]):
            return True
    return False


def _free_continue(node: cst.CSTNode) -> Optional[cst.Continue]:
    """A ``continue`` in ``node`` (not in a nested loop or definition) that may be taken on
    every pass: not one under an ``if`` on a name the branch itself sets (``if not
    was_disconnected: was_disconnected = True; continue`` goes round once)."""
    if isinstance(node, cst.Continue):
        return node
    if isinstance(node, (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        return None
    if isinstance(node, cst.If):
        tested = {dotted_name(n) for n in expression_nodes(node.test)}
        once = bool(tested & assigned_names(block(node.body)))
        found = None if once else _free_continue(node.body)
        return found if found is not None or node.orelse is None else _free_continue(node.orelse)
    for child in node.children:
        found = _free_continue(child)
        if found is not None:
            return found
    return None


def _limited(policy: Policy, kind: str, node: Optional[cst.CSTNode] = None, attempts: Optional[int] = None) -> None:
    policy.max_attempts = UNKNOWN if attempts is None else attempts
    policy.time_limit = UNKNOWN
    policy.attempts = Setting(kind, node)


def _exit_tests(body: Sequence[cst.BaseStatement], flags: Set[str]) -> List[tuple]:
    """The tests of the ``if``s that decide to leave the loop, whether each is in an ``except``
    handler, and the names the branch that stays assigns when the other leaves: ``if attempt >=
    5: raise``, ``if failures > 3: done = True``, ``if attempt < 4: sleep(); continue``
    followed by ``raise``, ``if not failed: failed = e`` … ``else: raise``; and the tests of
    ``assert`` statements, which leave when false (test code bounds its polls so)."""
    handler_statements = {
        id(node)
        for handler in walk_statements(body) if isinstance(handler, cst.ExceptHandler)
        for node in walk_statements(block(handler.body))
    }
    found = []
    for stmts, after in _blocks_with_continuation(body, ()):
        for index, stmt in enumerate(stmts):
            # what the pass runs next: the rest of the block, then of the blocks around it
            # (``if retry > 0: wait = ...; continue`` nested in a branch, ``return`` after the ``try``)
            following = [*stmts[index + 1 :], *after]
            if isinstance(stmt, cst.SimpleStatementLine):  # ``assert time.monotonic() < deadline``
                found.extend(
                    (small.test, id(stmt) in handler_statements, set())
                    for small in stmt.body if isinstance(small, cst.Assert)
                )
                continue
            branch: object = stmt
            while isinstance(branch, cst.If):  # an ``elif`` goes on to what follows its ``if``
                exits = (
                    conditional_exit(branch)
                    or bool(flags & assigned_names(block(branch.body)))
                    or (has_continue(block(branch.body)) and leaves(following))
                )
                if exits:
                    # ``if not failed: failed = e`` (reconnect once) ``else: raise``: the branch
                    # that goes round sets what the test reads, so the next failure leaves
                    otherwise = branch.orelse
                    flips = (isinstance(otherwise, cst.Else) and leaves(block(otherwise.body))
                             and not leaves(block(branch.body)))
                    flipped = assigned_names(block(branch.body)) if flips else set()
                    found.append((branch.test, id(stmt) in handler_statements, flipped))
                branch = branch.orelse
    return found


def _blocks_with_continuation(
    stmts: Sequence[cst.BaseStatement], after: Tuple[cst.BaseStatement, ...],
) -> Iterator[Tuple[Sequence[cst.BaseStatement], Tuple[cst.BaseStatement, ...]]]:
    """``blocks``, each with the statements the pass runs once the block ends without a jump."""
    yield stmts, after
    for index, stmt in enumerate(stmts):
        rest = (*stmts[index + 1 :], *after)
        if isinstance(stmt, (cst.Try, cst.TryStar)) and stmt.orelse is not None:
            yield from _blocks_with_continuation(block(stmt.body), (*block(stmt.orelse.body), *rest))
            for child in child_blocks(stmt)[1:]:
                yield from _blocks_with_continuation(child, rest)
            continue
        for child in child_blocks(stmt):
            yield from _blocks_with_continuation(child, rest)


def setting_switch(test: cst.BaseExpression, caught: Optional[str], counters: AbstractSet[str] = frozenset()) -> bool:
    """A test that reads one setting of the object, neither the error nor anything computed
    from it nor a counter the loop steps (``self.client_config_map.mqtt_bridge.mqtt_autostart``,
    ``not cls.RETRY_ON_TIMEOUT``): it leaves on every error or on none, and bounds nothing."""
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    root = test
    while isinstance(root, cst.Attribute):
        root = root.value
    return (isinstance(test, cst.Attribute) and isinstance(root, cst.Name) and root.value in ("self", "cls")
            and root.value != caught and dotted_name(test) not in counters)


def mentions_bound(rec: Recogniser, test: cst.BaseExpression, counters: Set[str], scope: Optional[Scope], order: int) -> bool:
    if scope is not None and _against_infinity(rec, test, scope, order):
        return False  # ``retries < MAX_RETRIES`` with ``MAX_RETRIES = float("inf")``
    # the timeout a call in the test is given (``requests.get(url, timeout=HEALTH_TIMEOUT).ok``)
    # bounds that call, not the loop
    passed = {
        id(inner) for node in expression_nodes(test) if isinstance(node, cst.Call)
        for arg in node.args if arg.keyword is not None and arg.keyword.value in TIMEOUT_KEYWORDS
        for inner in (*expression_nodes(arg.value), arg.keyword)
    }
    # ``status in RETRY_STATUS_CODES``, ``isinstance(e, Timeout)``: a set the value is looked up
    # in, or the classes of an error, classify; they count nothing
    passed |= {
        id(inner) for node in expression_nodes(test) if isinstance(node, cst.Comparison)
        for target in node.comparisons if isinstance(target.operator, (cst.In, cst.NotIn))
        for inner in expression_nodes(target.comparator)
    } | {
        id(inner) for node in expression_nodes(test)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "isinstance" and len(node.args) == 2
        for inner in expression_nodes(node.args[1].value)
    }
    if scope is not None:
        # ``if not retry_import(e):``: a function of the file is judged by what it reads below
        # (``helper_reads_bound``), not by its name
        passed |= {
            id(node.func) for node in expression_nodes(test)
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
            and isinstance(rec.model.resolve(node.func, scope, order), FunctionInfo)
        }
    for node in expression_nodes(test):
        if id(node) in passed:
            continue
        if isinstance(node, (cst.Name, cst.Attribute)):
            text = dotted_name(node)
            if text is None:
                continue
            if text in counters:
                return True
            if _BOUND_WORDS.search(text.rsplit(".", 1)[-1]):
                verdict = _classifier_verdict(rec, node, counters, scope, order) if scope is not None else None
                if verdict is None or verdict:
                    return True
        if isinstance(node, cst.Call) and scope is not None:
            name = rec.expr_name(node.func, scope, order)
            if name in CLOCKS or (name or "").endswith(".time"):
                return True
            if helper_reads_bound(rec, node, scope, order):
                return True
    return False


def _classifier_verdict(rec: Recogniser, node: cst.CSTNode, counters: Set[str], scope: Scope, order: int) -> Optional[bool]:
    """For a name that the function only ever assigns what a function of the file says of the
    caught error (``retry = retry_import(e)``): whether that function reads a bound, since the
    name's spelling tells nothing then. None for any other name, or when the function is
    handed a count (``should_retry(e, attempt)``)."""
    bindings = scope.bindings.get(node.value, []) if isinstance(node, cst.Name) else []
    calls = [binding.expr for binding in bindings]
    if not calls or not all(
        isinstance(call, cst.Call) and call.args and all(
            isinstance(arg.value, cst.Name) and not arg.keyword and arg.value.value not in counters
            and not _BOUND_WORDS.search(arg.value.value) for arg in call.args
        )
        and isinstance(rec.model.resolve(call.func, scope, order), FunctionInfo)
        for call in calls
    ):
        return None
    return any(helper_reads_bound(rec, call, scope, order) for call in calls)  # type: ignore[arg-type]


def _limits_besides_failure(rec: Recogniser, test: cst.BaseExpression, scope: Scope, order: int) -> bool:
    """Whether a condition that is a failure also tests a count or a clock (``while r.status_code
    == 429 and attempt < 5:``)."""
    return any(mentions_bound(rec, part, set(), scope, order) for part in conjuncts(test))


def _infinite_limit(header: str, test: cst.BaseExpression) -> str:
    return f"this `{header}` retry loop's only limit, `{code_of(test)}`, compares with infinity, so it retries forever"


def _against_infinity(rec: Recogniser, test: cst.BaseExpression, scope: Scope, order: int) -> bool:
    """A comparison of a count with a limit that is infinite: ``float("inf")`` or ``math.inf``,
    also as what a name or an attribute is given, or as the default of a ``.get()`` of the
    configuration (``conf.get("max_retries", float("inf"))``)."""
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    if not isinstance(test, cst.Comparison):
        return False
    sides = [test.left, *(target.comparator for target in test.comparisons)]
    return any(_infinite(rec, rec.follow(side, scope, order), scope, order) for side in sides)


def _infinite(rec: Recogniser, value: cst.BaseExpression, scope: Scope, order: int) -> bool:
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "get":
        value = value.args[1].value if len(value.args) == 2 and value.args[1].keyword is None else value
    found = TimeoutEvaluator(rec.model, scope, order).number(value, False)
    return found is not None and math.isinf(found[0]) and found[0] > 0


def helper_reads_bound(rec: Recogniser, call: cst.Call, scope: Scope, order: int) -> bool:
    """``if self._handle_backoff(msg): break``: the exit is decided by a function of the file
    that tests a count, a clock or a deadline (``if self.failures > 5:``), or catches the error
    a helper object raises once its budget is spent (``except BackoffTimeoutExceededError:
    return True``)."""
    values = rec.model.resolve_all(call.func, scope, order)
    if len(values) != 1 or not isinstance(values[0], FunctionInfo) or not isinstance(values[0].node, cst.FunctionDef):
        return False
    body = block(values[0].node.body)
    counters = counter_names(body)
    # (or it returns what is left of one: ``def time_remaining(): return timeout - elapsed``)
    if any(
        isinstance(returned, cst.BinaryOperation) and isinstance(returned.operator, cst.Subtract)
        and mentions_bound(rec, returned, counters, None, order)
        for returned in values[0].returns
    ):
        return True
    for stmt in walk_statements(body):
        if isinstance(stmt, (cst.If, cst.While)) and mentions_bound(rec, stmt.test, counters, None, order):
            return True
        if isinstance(stmt, cst.ExceptHandler) and stmt.type is not None and any(
            _SPENT.search(dotted_name(node) or "") for node in expression_nodes(stmt.type)
            if isinstance(node, (cst.Name, cst.Attribute))
        ):
            return True
    return False


def _count(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Optional[float]:
    """A ``range()`` bound: a number written there, a name bound once to one
    (``MAX_RETRIES = 2``, also through another name: ``max_attempts = _MAX_ATTEMPTS``), a class
    constant read off the object (``self.max_attempts``), a sum or difference of those
    (``MAX_ATTEMPTS + 1``), or the larger of a choice of two (``_MAX_ATTEMPTS if task ==
    "document" else 1``: at most that many)."""
    number = number_of(expr)
    if number is not None or depth > 3:
        return number
    if isinstance(expr, cst.Attribute):
        value = number_of(rec.follow(expr, scope, order))
        return value if isinstance(value, int) else None
    if isinstance(expr, cst.Name):
        bindings = rec.model.reaching(expr.value, scope, order)
        if len(bindings) == 1 and bindings[0].expr is not None and bindings[0].imported is None:
            value = _count(rec, bindings[0].expr, bindings[0].scope, bindings[0].order, depth + 1)
            return value if isinstance(value, int) else None
        return None
    if isinstance(expr, cst.IfExp):
        either = [_count(rec, side, scope, order, depth + 1) for side in (expr.body, expr.orelse)]
        return max(either) if None not in either else None  # type: ignore[type-var]
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract)):
        left = _count(rec, expr.left, scope, order, depth + 1)
        right = _count(rec, expr.right, scope, order, depth + 1)
        if left is None or right is None:
            return None
        return left + right if isinstance(expr.operator, cst.Add) else left - right
    return None
