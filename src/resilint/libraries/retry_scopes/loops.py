"""Retry loops: a ``for`` over a library's retrying iterator, and hand-written ``for``/``while``
loops whose body catches a failure, or checks a response status, and goes round again."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, AbstractSet, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from resilint.libraries.clients import spec_for
from resilint.libraries.deadline_scopes import deadline_around
from resilint.libraries.retry_scopes.conditions import (
    compared_sides, compared_texts, failed_branch, outcome_polarity, polls_state, raised_on_polled_state, refused_request,
    status_codes, status_membership, status_polarity, statuses_going_round,
)
from resilint.libraries.retry_scopes.delays import loop_wait
from resilint.libraries.retry_scopes.local_work import (
    BOUNDED_WAITS, called_definition, local_call, local_errors, receives, refused_input, silence,
)
from resilint.libraries.retry_scopes.loop_limits import conjuncts, loop_limit, mentions_bound, setting_switch, while_flags
from resilint.libraries.retry_scopes.loop_work import (
    asks_again, hands_new_input, is_logging, logs, moves_to_next_item, takes_new_work, target_feeds, works_off_items,
)
from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    ON_SPECIFIC,
    ON_STATUS,
    UNKNOWN,
    Policy,
    RetryScope,
    Setting,
)
from resilint.libraries.retry_scopes.parameter_facts import decide, decide_give_up
from resilint.libraries.retry_scopes.names import (
    CLIENT_BUILDERS, NOT_FAILURES, PAUSE_WORD, POPS, PUTS_BACK, REFILLS, SLEEPS, STREAM_CONSUMERS, STREAM_OPENERS, TAKES,
)
from resilint.libraries.retry_scopes.statements import (
    assigned_names,
    block,
    blocks,
    branch,
    child_blocks,
    conditional_exit,
    counter_names,
    guarded_exits,
    has_continue,
    has_exit,
    is_counting,
    leaves,
    named_classes,
    raises_for_status,
    small_statements,
    walk_statements,
)
from resilint.libraries.retry_scopes.swallowing import catches_all, raises_nothing, shadowed
from resilint.libraries.server_sockets import SERVES, runs_tests, sends_to_loopback, starts_own_server
from resilint.lint.nodes import DEFINITIONS, dotted_name, expression_nodes, is_none, is_true, number_of, string_of
from resilint.lint.semantic import CallSite, FunctionInfo, Scope
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser


def find_loops(rec: Recogniser) -> None:
    loops: Dict[int, Tuple[cst.CSTNode, CallSite]] = {}
    direct: Dict[int, List[CallSite]] = {}  # calls of the loop's own body
    within: Dict[int, List[CallSite]] = {}  # and of the loops nested in it
    for call in rec.model.calls:
        innermost = None
        for node in reversed(call.stack):
            kind = node.__class__  # by class: the node classes are slow ABCs
            if kind in DEFINITIONS:
                break
            if kind is cst.For or kind is cst.While:
                if innermost is None:
                    innermost = node
                if id(node) not in loops:
                    loops[id(node)] = (node, call)
                within.setdefault(id(node), []).append(call)
        if innermost is not None:
            direct.setdefault(id(innermost), []).append(call)
    for key, (loop, sample) in loops.items():
        if isinstance(loop, cst.For) and _library_loop(rec, loop, sample):
            continue
        policy = _handwritten(rec, loop, sample, direct.get(key, []), within[key])
        if policy is not None:
            rec.scopes.append(RetryScope(rec.add(policy), "loop", loop, loop, sample.scope.enclosing_function))


def _one_pass(loop: cst.While, body: Sequence[cst.BaseStatement]) -> bool:
    """``while not got_result and tries < n: ... if not got_result: raise RequestTimeout(...)``:
    the body ends by leaving on a part of the loop's own test, and nothing in it goes round
    early (``continue``), so no pass is followed by another."""
    last = body[-1] if body else None
    if not (isinstance(last, cst.If) and last.orelse is None and leaves(block(last.body))):
        return False
    test = loop.test
    parts = [test]
    while isinstance(parts[0], cst.BooleanOperation) and isinstance(parts[0].operator, cst.And):
        parts = [parts[0].left, parts[0].right, *parts[1:]]
    if not any(last.test.deep_equals(part) for part in parts):
        return False
    return not has_continue(body)


def _pause_loops(rec: Recogniser, loop: cst.CSTNode, within: List[CallSite]) -> List[CallSite]:
    """The sleeps of loops inside ``loop`` that only pause, in slices (``for i in range(10): if
    self.should_stop: return; time.sleep(0.1)``): a pause of the outer loop, told as each slice."""
    found = []
    for call in within:
        if rec.name(call) not in SLEEPS:
            continue
        index = next((i for i, node in enumerate(call.stack) if node is loop), None)
        inner = [node for node in call.stack[index + 1:] if isinstance(node, (cst.For, cst.While, cst.If))] if index is not None else []
        if len(inner) != 1 or not isinstance(inner[0], (cst.For, cst.While)) or not _only_pauses(
            inner[0], call, lambda check: _stop_check(rec, check, call),
        ):
            continue
        found.append(call)
    return found


def _stop_check(rec: Recogniser, call: cst.Call, sleep: CallSite) -> bool:
    """``self.cancel_check()``: a function of the file called with nothing, which raises to
    stop (a check between the slices of a pause); on ``self`` in a decorator's wrapper, a
    method of a class of the file by that name."""
    if call.args:
        return False
    if isinstance(rec.model.resolve(call.func, sleep.scope, sleep.order), FunctionInfo):
        return True
    func = call.func
    return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self" and any(
        function.owner is not None and function.name == func.attr.value for function in rec.model.functions
    )


def _only_pauses(loop: Union[cst.For, cst.While], sleep: CallSite, stop_check: Callable[[cst.Call], bool]) -> bool:
    """``for _ in range(N):``, or ``while remaining > 0 and not self.closed:`` counting down,
    whose body is the sleep, tests that leave (``if stop: return``) and checks that raise to
    stop (``self.cancel_check()``)."""
    if isinstance(loop, cst.For):
        iterator = loop.iter
        if not (isinstance(iterator, cst.Call) and dotted_name(iterator.func) == "range"):
            return False
    for statement in block(loop.body):
        if isinstance(statement, cst.If) and statement.orelse is None and leaves(branch(statement.body)):
            continue
        if isinstance(statement, cst.SimpleStatementLine) and (
            any(isinstance(small, cst.Expr) and small.value is sleep.node for small in statement.body)
            or (isinstance(loop, cst.While) and all(isinstance(small, cst.AugAssign) for small in statement.body))
            or all(isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and stop_check(small.value) for small in statement.body)
        ):
            continue  # the sleep, and what a ``while`` counts down (``remaining -= 0.5``)
        return False
    return True


def _library_loop(rec: Recogniser, loop: cst.For, sample: CallSite) -> bool:
    iterator = loop.iter
    if isinstance(iterator, (cst.Name, cst.Attribute)):
        iterator = rec.follow(iterator, sample.scope, sample.order)
    policy = rec.by_node.get(id(iterator)) if isinstance(iterator, cst.Call) else None
    if policy is None:
        return False
    if policy.node is loop.iter and policy.attempts.kind == "unbounded":
        _bound_by_deadline(rec, policy, loop, sample)
    rec.scopes.append(RetryScope(policy, "iterator", loop, loop, sample.scope.enclosing_function))
    return True


def _takes_next(body: Sequence[cst.BaseStatement]) -> bool:
    """The loop binds a name to the next item of an iterator (``url = next(urls)``,
    ``if url := next(urls, None):``)."""
    for statement in body:
        for node in iter_nodes(statement):
            value = node.value if isinstance(node, (cst.Assign, cst.NamedExpr)) else None
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "next":
                return True
    return False


def _skips_tried(body: Sequence[cst.BaseStatement]) -> bool:
    """The loop keeps the items it tried (``tried_urls.add(url)``) and leaves when the next one
    was tried already (``if url is None or url in tried_urls: break``): each pass another node."""
    added = {
        (dotted_name(node.func.value), node.args[0].value.value) for stmt in body for node in iter_nodes(stmt)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "add"
        and len(node.args) == 1 and isinstance(node.args[0].value, cst.Name)
    }
    for stmt in body:
        if not isinstance(stmt, cst.If) or not leaves(block(stmt.body)):
            continue
        for node in expression_nodes(stmt.test):
            if isinstance(node, cst.Comparison) and isinstance(node.left, cst.Name) and any(
                isinstance(target.operator, cst.In) and (dotted_name(target.comparator), node.left.value) in added
                for target in node.comparisons
            ):
                return True
    return False


def _pops_next(loop: cst.While, body: Sequence[cst.BaseStatement]) -> bool:
    """``while urls:`` (or ``while len(self.candidates) > 0``) that takes ``urls.pop(0)`` each
    pass and puts nothing back: each pass tries the next item, until none is left."""
    tested = {dotted_name(node) for node in expression_nodes(loop.test) if isinstance(node, (cst.Name, cst.Attribute))}
    tested.discard(None)
    popped, refilled = False, False
    for statement in body:
        for node in iter_nodes(statement):
            if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                    and dotted_name(node.func.value) in tested):
                method = node.func.attr.value
                popped = popped or method in POPS
                refilled = refilled or method in REFILLS
    return popped and not refilled


def _bound_by_deadline(rec: Recogniser, policy: Policy, loop: cst.CSTNode, sample: CallSite) -> bool:
    """A loop inside a deadline scope (``with anyio.fail_after(20):``, ``asyncio.wait_for`` of its
    function) stops when the deadline does, whatever its own limit."""
    bound = deadline_around(rec.model, sample, loop)
    if bound is None:
        return False
    policy.max_attempts, policy.time_limit = UNKNOWN, UNKNOWN
    policy.attempts = Setting("bounded", bound)
    return True


def _handwritten(
    rec: Recogniser, loop: cst.CSTNode, sample: CallSite, calls: List[CallSite], within: List[CallSite]
) -> Optional[Policy]:
    assert isinstance(loop, (cst.For, cst.While))
    body = block(loop.body)
    scope, order = sample.scope, sample.order
    counted = isinstance(loop, cst.While) or is_counting(rec, loop, scope, order)
    if isinstance(loop, cst.For) and counted:
        # ``for page in range(...)`` fetching page after page repeats nothing; ``for i in
        # range(len(hosts))`` using ``hosts[i]`` walks a collection like ``for host in hosts``.
        feeds = target_feeds(rec, loop, body, calls)
        if feeds == "value":
            return None
        counted = feeds is None
    sleeps = [
        c for c in calls if (rec.name(c) in SLEEPS or rec.slept(c) is not None) and not _yields_only(c.node)
    ] + _pause_loops(rec, loop, within)
    # ``if error_retry(): continue``: a function of the file that sleeps (and counts) before
    # saying go round; its pause is the loop's, placed where the loop calls it
    helpers: List[Tuple[CallSite, CallSite]] = []
    drawn = False  # a helper that draws a random value waits what the code cannot tell
    for c in calls:
        inner_sleeps = sleeps_of_helper(rec, c) if c not in sleeps else []
        drawn = drawn or inner_sleeps is None
        helpers += [(c, inner) for inner in inner_sleeps or ()]
    if not counted and not sleeps and not helpers and not drawn:
        return None  # a failover loop: next host, no pause
    if not sleeps and isinstance(loop, cst.While) and (_takes_next(body) or _pops_next(loop, body) or _skips_tried(body)):
        return None  # ``url = next(mirrors, None)`` on failure: the next mirror, until none is left
    if isinstance(loop, cst.While) and isinstance(loop.test, cst.NamedExpr) and isinstance(
        loop.test.value, (cst.Call, cst.Await)
    ):
        return None  # ``while job := queue.next_job():``: each pass takes a new item, until none is left
    if isinstance(loop, cst.While) and _one_pass(loop, body):
        return None  # every pass that would go round leaves at its end: one attempt, nothing retried
    requeue = requeued_item(body)
    if requeue is None and works_off_items(rec, body, within):
        return None  # each pass takes an item off a queue or a list, and a failed one is dropped
    if requeue is None and takes_new_work(rec, body, calls):
        return None  # a worker: each pass fetches new work, the failed one is not repeated
    if asks_again(rec, body, within):
        return None  # each pass asks for new input: a different request, not the same one again
    flags = while_flags(loop)
    predicates = _parameters(scope)
    handlers: List[cst.ExceptHandler] = []
    failing_round: List[cst.ExceptHandler] = []  # (also of a ``try`` that has no success exit)
    tries: List[cst.CSTNode] = []
    streams: List[cst.CSTNode] = []  # the ``try`` statements that open a stream and read it to its end
    for node in walk_statements(body):
        if not isinstance(node, (cst.Try, cst.TryStar)):
            continue
        after = _following(body, node)
        going_round = [
            h for h in node.handlers
            if _goes_round(h, after, loop) and is_failure(rec, h, scope, order) and not shadowed(rec.model, node, h, scope, order)
        ]
        if isinstance(loop, cst.While):
            # (a new input after a pause, ``machines_cache[:nodes]`` then ``retry.sleep_func(...)``,
            # is the same request tried again elsewhere: a retry, as a failover with a pause is)
            going_round = [
                h for h in going_round if not (
                    moves_to_next_item(rec, h, body, calls)
                    or (hands_new_input(rec, h, body, calls) and not sleeps and not helpers and not _pauses_in(h))
                )
            ]
        elif not counted:
            # ``for domain in domains: try: ... except: continue``: a failure moves on to the next
            # item at once, failover, whatever a success that is not good enough waits
            going_round = [h for h in going_round if _pauses_in(h) or not _next_at_once(h, sleeps)]
        if requeue is not None:
            # a worker that puts the failed item back on its queue tries that item again
            going_round = [h for h in going_round if any(n is requeue[0] for n in iter_nodes(h))]
        # a handler that sends next what the error's answer says (``host = e.host`` on a
        # redirect) follows it; another of the same ``try`` still retries when it waits before
        # going round (``except TryAgainError: time.sleep(0.05)``), not when it goes straight
        # round (an agent's step loop that shortens its context after an error)
        following = [h for h in going_round if _continues_from_answer([h], node.body)]
        if following:
            going_round = [h for h in going_round if h not in following and _pauses_in(h)]
        if not going_round:
            continue
        failing_round.extend(going_round)
        success = requeue is not None or (
            _succeeds(block(node.body), flags, predicates)
            or (node.orelse is not None and _succeeds(block(node.orelse.body), flags, predicates))
            # ``except X: sleep(); continue``, then the success path after the ``try``
            or (any(has_continue(block(h.body)) for h in going_round)
                and (leaves(body) or _succeeds(_following(body, node), flags, predicates)))
            or _reads_a_stream(rec, block(node.body), within)
            or _reconnects(rec, going_round, within)
            or _sets_flag_through_method(rec, block(node.body), flags, within)
            # ``while next_url:`` that moves on after the ``try`` (``next_url = links["next"]``)
            # once a page came: its failures that go round first ask for the same page again
            or _retries_before_moving_on(
                loop, after, going_round, block(node.body), block(node.orelse.body) if node.orelse is not None else (),
                _preceding(body, node),
            )
            # ``result = server.notify()`` in the ``try``, ``if result: break`` after it
            or _leaves_on_result(
                block(node.body), after, flags, _preceding(body, node), isinstance(loop, cst.While) and is_true(loop.test),
            )
            # a loop that never leaves, whose failures choose its pause (``refresh_time = 1``
            # in the handler, the token's lifetime in the ``try``): they go round sooner, a retry
            or _failure_sets_pause(node, going_round, sleeps)
        )
        if not success or not calls_out(rec, node, within) or local_state(rec, node, going_round, within, scope, order, body):
            continue
        handlers.extend(going_round)
        tries.append(node)
        if _reads_a_stream(rec, block(node.body), within) or _reconnects(rec, going_round, within):
            streams.append(node)
    # a reply compared with a word of success (``if res == "OK": break``) is a failed answer
    # only in a loop that pauses before it asks again; a loop that reads until a line says
    # "OK" reads on, it sends nothing again
    status_ifs = [] if handlers or _waits_for_value(loop, body) else _status_ifs(
        rec, body, flags | _condition_names(loop, body), scope, order, calls, answers=bool(sleeps or helpers),
    )
    asked_again = None if handlers or status_ifs else _asks_again_while_refused(rec, loop, body, within, scope, order)
    if not handlers and not status_ifs and asked_again is None:
        return None
    if not handlers and probes_own_server(rec, [c for c in within if rec.name(c) not in SLEEPS], scope):
        return None  # a status check of the server the function started: it waits for it to listen
    policy = Policy("loop", "loop", loop, scope=scope, order=order)
    if handlers:
        policy.tries = tuple(tries)
        if _swallows(handlers):
            raised = _raised_when_spent(loop, sample)
            policy.gives_up_quietly = raised is None
            if raised is None:
                decide_give_up(rec, policy, _after_in_function(loop, sample), scope, order)
            if isinstance(raised, cst.Raise) and raised.exc is not None and not _raises_last_caught(raised.exc, handlers, scope):
                exc = raised.exc.func if isinstance(raised.exc, cst.Call) else raised.exc
                policy.gives_up_raising = rec.expr_name(exc, scope, order)
        if policy.gives_up_raising is None and not policy.gives_up_quietly:
            policy.gives_up_raising = _converted_around(rec, loop, sample, scope, order)
        kinds = [handler_kind(rec, h, scope, order) for h in handlers]
        policy.handlers = tuple(h for h, k in zip(handlers, kinds) if k == ON_ANY)
        if policy.handlers:
            policy.retry_on = Setting(ON_ANY, policy.handlers[0], "")
        else:
            policy.retry_on = Setting(UNKNOWN if UNKNOWN in kinds else ON_SPECIFIC)
        # each goes round only when the error says the server refused the request (a lost
        # response raises something else, which leaves the loop)
        # a reconnect to a stream opens the stream again: what the code sent while reading it
        # (a message's handling) is not sent again
        policy.guards_non_idempotent = all(_round_on_refusal(h) for h in handlers) or (
            bool(streams) and len(streams) == len(tries)
        )
    elif asked_again is not None:
        # ``while response.status_code == 429: sleep(1); response = send()``
        policy.retry_on = Setting(ON_STATUS, loop.test)  # type: ignore[union-attr]
        policy.guards_non_idempotent = asked_again
    else:
        policy.retry_on = Setting(ON_STATUS, status_ifs[0])
        # it goes round only on statuses with which the server refused the request (429): a
        # POST whose response was lost raises, and leaves the loop
        going_round = statuses_going_round([
            node.test for node in walk_statements(body) if isinstance(node, cst.If) and leaves(branch(node.body))
        ])
        kept = _kept_by_chains(body)
        if kept is None:
            kept = _kept_by_sequence(body)
        if kept is not None:
            going_round = kept if going_round is None else going_round & kept
        policy.guards_non_idempotent = all(
            refused_request(node.test, otherwise=status_polarity(node.test) == "good") for node in status_ifs
        ) or (going_round is not None and all(400 <= code < 500 for code in going_round))
    decide(rec, policy, body, scope, order)
    if requeue is not None and handlers:
        _requeue_limit(rec, policy, requeue[1], scope, order)
    elif not _bound_by_deadline(rec, policy, loop, sample):
        loop_limit(
            rec, policy, loop, body, scope, order, going_round=handlers, failing_round=failing_round,
            failure_test=asked_again is not None,
        )
    # What runs after a success only is no wait between attempts: a pause in a ``try`` after its
    # first call out (pacing pages), and, when every failure goes straight round, what follows
    # the ``try`` (a pause that yields to other tasks while a batch is worked through).
    after_success = _after_first_call(rec, tries, calls)
    if handlers and all(_straight_round(h) for h in handlers):
        after_success |= {id(n) for node in tries for stmt in _following(body, node) for n in iter_nodes(stmt)}
        # (but a failed status that goes round after its own pause is a failure path too)
        after_success -= {id(n) for n in _failed_status_rounds(rec, body, scope, order)}
    sleeps = [c for c in sleeps if id(c.node) not in after_success]
    sleeps += [inner for c, inner in helpers if id(c.node) not in after_success]
    loop_wait(rec, policy, sleeps, [c for c in calls if id(c.node) not in after_success], scope)
    if drawn:
        policy.wait = Setting(UNKNOWN, None, "")
    return policy


def sleeps_of_helper(rec: Recogniser, call: CallSite) -> Optional[List[CallSite]]:
    """The sleeps written in the function of the file that ``call`` runs (one the file tells,
    not the caller's own, sleeping a value of its own rather than one it is given), outside
    any loop of its own (a poll there is its own business); None when that function draws a
    random value (``delay += random.uniform(...)``: what it waits is jittered, somehow)."""
    values = rec.model.resolve_all(call.node.func, call.scope, call.order)
    if len(values) != 1 or not isinstance(values[0], FunctionInfo) or values[0].scope is call.scope:
        return []
    helper = values[0]
    if rec.slept_by(helper) is not None:
        return []
    inner_calls = rec.model.calls_in(helper.scope)
    found = [
        inner for inner in inner_calls
        if rec.name(inner) in SLEEPS and not any(isinstance(n, (cst.For, cst.While)) for n in inner.stack
                                                  if not any(n is m for m in call.stack))
    ]
    if found and any(_RANDOM.search(rec.name(inner) or dotted_name(inner.node.func) or "") for inner in inner_calls):
        return None
    return found


_RANDOM = re.compile(r"(^|\.)(random|secrets)\.|jitter|uniform", re.I)


def _after_first_call(rec: Recogniser, tries: Sequence[cst.CSTNode], calls: List[CallSite]) -> Set[int]:
    """The calls of the ``try`` bodies that come after the first call out of their body, on
    its straight path: one under an ``if`` there (``if response.status_code == 429: sleep(5);
    continue``) may be the wait of a retry on the answer."""
    by_node = {id(c.node): c for c in calls}
    found: Set[int] = set()
    for node in tries:
        seen_call_out = False
        for inner in iter_nodes(node.body):  # type: ignore[attr-defined]
            site = by_node.get(id(inner)) if isinstance(inner, cst.Call) else None
            if site is None:
                continue
            if seen_call_out:
                below = site.stack[next((i for i, n in enumerate(site.stack) if n is node), -1) + 1:]
                guard = next((n for n in below if isinstance(n, cst.If)), None)
                # (under a success check, ``if result.status == 200: sleep(0.01)``, or under an
                # ``if`` the ``try`` returns right after: after a success too)
                if guard is None or (not _in_else(guard, below) and (
                        status_polarity(guard.test) == "good" or _returns_after(node, guard))):
                    found.add(id(inner))
            elif rec.name(site) not in SLEEPS and not (rec.name(site) or "").startswith("builtins."):
                seen_call_out = True
    return found


def _returns_after(node: cst.CSTNode, guard: cst.If) -> bool:
    """Whether the ``try`` body ``node`` returns (or breaks) right after the statement ``guard``
    of its own block, whose body does not go round."""
    stmts = block(node.body)  # type: ignore[attr-defined]
    if not any(stmt is guard for stmt in stmts) or has_continue(block(guard.body)):
        return False
    after = stmts[next(i for i, stmt in enumerate(stmts) if stmt is guard) + 1:]
    for stmt in after:
        smalls = small_statements(stmt)
        if any(isinstance(small, cst.Raise) for small in smalls) or not isinstance(
                stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            return False
        if any(isinstance(small, (cst.Return, cst.Break)) for small in smalls):
            return True
    return False


def _in_else(guard: cst.If, below: Sequence[cst.CSTNode]) -> bool:
    """Whether the path ``below`` goes through the ``else`` of ``guard``."""
    return guard.orelse is not None and any(n is guard.orelse for n in below)


def _failed_status_rounds(rec: Recogniser, body: Sequence[cst.BaseStatement], scope: Scope, order: int) -> Iterator[cst.CSTNode]:
    """The nodes of each branch that a failed status takes and that goes round
    (``if response.status_code == 429: sleep(2); continue``), and those after a way out taken on
    a good status."""
    follow = lambda expr: rec.follow(expr, scope, order)  # noqa: E731
    for node in walk_statements(body):
        if not isinstance(node, cst.If):
            continue
        failed = failed_branch(node, follow)
        if has_continue(failed):
            for stmt in failed:
                yield from iter_nodes(stmt)
    # what follows a way out on the status of success (``if r.status_code == 200 and "id" in
    # reply: break``, also nested in another ``if``) runs only when it was not one; not a
    # particular 2xx that ends the work (``if sent.status_code == 204: break``: the others
    # succeed too)
    succeeded = [
        index for index, stmt in enumerate(body)
        if any(any(status_polarity(guard, follow) == "good" and _tests_ok(guard, follow) for guard in guards)
               for _, guards in guarded_exits([stmt]))
    ]
    for stmt in body[succeeded[-1] + 1:] if succeeded else ():
        yield from iter_nodes(stmt)


def _tests_ok(test: cst.BaseExpression, follow: Callable[[cst.BaseExpression], cst.BaseExpression]) -> bool:
    """Whether the test compares a status with 200 (``r.status_code == 200``, ``HTTPStatus.OK``)."""
    return any(
        isinstance(node, cst.Comparison) and any(
            200 in status_codes(follow(target.comparator) if isinstance(target.comparator, (cst.Name, cst.Attribute)) else target.comparator)
            for target in node.comparisons
        )
        for node in expression_nodes(test)
    )


def _straight_round(handler: cst.ExceptHandler) -> bool:
    """The handler's last statement is ``continue``."""
    last = block(handler.body)[-1:]
    return bool(last) and isinstance(last[0], cst.SimpleStatementLine) and isinstance(last[0].body[-1], cst.Continue)


def _swallows(handlers: List[cst.ExceptHandler]) -> bool:
    """No handler raises: not on the last attempt, not another error."""
    return not any(
        isinstance(node, cst.Raise)
        for handler in handlers for node in iter_nodes(handler.body, stop_at=DEFINITIONS)
    )


def _after_in_function(loop: cst.CSTNode, sample: CallSite) -> Sequence[cst.BaseStatement]:
    """The statements after ``loop`` in the body of the function it is written in directly."""
    position = next((i for i, node in enumerate(sample.stack) if node is loop), 0)
    parent = sample.stack[position - 1] if position > 0 else None
    if not isinstance(parent, cst.FunctionDef):
        return ()
    stmts = block(parent.body)
    index = next((i for i, stmt in enumerate(stmts) if stmt is loop), None)
    return stmts[index + 1:] if index is not None else ()


def _raises_last_caught(exc: cst.BaseExpression, handlers: Sequence[cst.ExceptHandler], scope: Scope) -> bool:
    """``raise err`` after the loop, ``err`` only ever ``None`` or the error a handler caught
    (``except HTTPClientError as e: err = e``): the last error, as a bare ``raise`` would."""
    if not isinstance(exc, cst.Name):
        return False
    caught = {h.name.name.value for h in handlers if h.name is not None and isinstance(h.name.name, cst.Name)}
    bindings = scope.bindings.get(exc.value, [])
    return bool(caught) and bool(bindings) and all(
        binding.expr is not None and (is_none(binding.expr) or (isinstance(binding.expr, cst.Name) and binding.expr.value in caught))
        for binding in bindings
    )


def _converted_around(rec: Recogniser, loop: cst.CSTNode, sample: CallSite, scope: Scope, order: int) -> Optional[str]:
    """The class every error leaving the loop becomes, when the loop sits in a ``try`` of its
    function whose handlers catch everything and raise one class of their own (``except
    Exception as e: raise SynapseError(502, ...) from e``): what the loop gives up with."""
    position = next((i for i, node in enumerate(sample.stack) if node is loop), None)
    for node in reversed(sample.stack[:position] if position is not None else ()):
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return None
        if not isinstance(node, cst.Try) or not any(stmt is loop for stmt in walk_statements(block(node.body))):
            continue
        raised: Set[Optional[str]] = set()
        for handler in node.handlers:
            last = small_statements(block(handler.body)[-1]) if block(handler.body) else ()
            exc = last[-1].exc if last and isinstance(last[-1], cst.Raise) else None
            if handler_kind(rec, handler, scope, order) != ON_ANY or not isinstance(exc, cst.Call):
                return None
            raised.add(rec.expr_name(exc.func, scope, order))
        return raised.pop() if len(raised) == 1 and None not in raised else None
    return None


def _raised_when_spent(loop: cst.CSTNode, sample: CallSite) -> Union[None, bool, cst.Raise]:
    """What runs once the attempts are spent, when it raises or may: the ``raise`` statement
    right after the loop (``raise GaveUp()``), else True when the loop's ``else:`` or the
    statement after it may raise (``if not result: raise ...``); None when nothing raises.
    Unknown (the loop ends a block of a statement other than a ``def``) counts as raising."""
    assert isinstance(loop, (cst.For, cst.While))
    if loop.orelse is not None:
        # ``for ...: ... else: raise GaveUp()``: what the loop runs once its attempts are spent
        last = block(loop.orelse.body)[-1:]
        smalls = small_statements(last[0]) if last else ()
        if smalls and isinstance(smalls[-1], cst.Raise):
            return smalls[-1]
    following: List[cst.CSTNode] = [loop.orelse] if loop.orelse is not None else []
    position = next((i for i, node in enumerate(sample.stack) if node is loop), 0)
    parent = sample.stack[position - 1] if position > 0 else None
    if parent is None:
        return True
    suites = [block(parent.body)] if isinstance(parent, (cst.FunctionDef, cst.For, cst.While)) else []
    if isinstance(parent, (cst.For, cst.While)) and parent.orelse is not None:
        suites.append(block(parent.orelse.body))
    if not isinstance(parent, (cst.FunctionDef, cst.For, cst.While)):
        suites = list(child_blocks(parent))
    after: Optional[cst.CSTNode] = None
    for stmts in suites:
        index = next((i for i, stmt in enumerate(stmts) if stmt is loop), None)
        if index is None:
            continue
        if index + 1 < len(stmts):
            after = stmts[index + 1]
            following.append(after)
        elif not isinstance(parent, cst.FunctionDef):
            return True  # what runs next is past the enclosing statement
        break
    else:
        return True
    raises = [node for part in following for node in iter_nodes(part, stop_at=DEFINITIONS)
              if isinstance(node, cst.Raise)]
    if not raises:
        return None
    if loop.orelse is None and isinstance(after, cst.SimpleStatementLine) and len(raises) == 1 and raises[0] in after.body:
        return raises[0]
    return True




def requeued_item(body: Sequence[cst.BaseStatement]) -> Optional[Tuple[cst.Call, Tuple[cst.BaseExpression, ...]]]:
    """``job = jobs.get()`` ... ``except ...: jobs.put(job)``: the call that puts the item the
    loop took back on the same queue, from a handler, with the tests of the ``if``s it is under."""
    taken: Dict[str, str] = {}  # the item's name → the queue it came from
    for node in walk_statements(body):
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            value = node.value
            if isinstance(value, cst.Await):
                value = value.expression
            if (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                    and value.func.attr.value in TAKES):
                source = dotted_name(value.func.value)
                if source:
                    taken[node.targets[0].target.value] = source
    if not taken:
        return None
    for handler in walk_statements(body):
        if not isinstance(handler, cst.ExceptHandler):
            continue
        for call, guards in _calls_with_guards(block(handler.body), ()):
            func = call.func
            if (isinstance(func, cst.Attribute) and func.attr.value in PUTS_BACK and call.args
                    and isinstance(call.args[-1].value, cst.Name)
                    and taken.get(call.args[-1].value.value) == dotted_name(func.value)):
                return call, guards
    return None


def _calls_with_guards(
    stmts: Sequence[cst.BaseStatement], guards: Tuple[cst.BaseExpression, ...],
) -> Iterator[Tuple[cst.Call, Tuple[cst.BaseExpression, ...]]]:
    for stmt in stmts:
        if isinstance(stmt, cst.If):
            yield from _calls_with_guards(block(stmt.body), guards + (stmt.test,))
            if isinstance(stmt.orelse, cst.Else):
                yield from _calls_with_guards(block(stmt.orelse.body), guards + (stmt.test,))
            continue
        for small in small_statements(stmt):
            for node in expression_nodes(small):
                if isinstance(node, cst.Call):
                    yield node, guards


def _requeue_limit(
    rec: Recogniser, policy: Policy, guards: Tuple[cst.BaseExpression, ...], scope: Scope, order: int,
) -> None:
    """A re-queued item is tried again as often as the test around the ``put`` allows."""
    if any(mentions_bound(rec, test, set(), scope, order) for test in guards):
        policy.max_attempts, policy.time_limit = UNKNOWN, UNKNOWN
        policy.attempts = Setting("bounded", guards[0])
        return
    policy.max_attempts, policy.time_limit = None, None
    policy.attempts = Setting(
        "unbounded", policy.node.test if isinstance(policy.node, cst.While) else policy.node,
        "this worker puts a failed item back on its queue with no attempt counter, so it retries forever",
    )


def _goes_round(handler: cst.ExceptHandler, after: Sequence[cst.BaseStatement], loop: cst.CSTNode) -> bool:
    """A handler that does not always leave the loop: it falls through to the next pass (unless
    what follows its ``try`` leaves: ``except RequestException: pass`` then ``return status``,
    or sets the flag a ``while not retried`` loop stops on), or ``continue``s under a condition
    (``if attempt < 4: sleep(); continue`` before ``raise``)."""
    stmts = block(handler.body)
    return has_continue(stmts) or not (
        leaves(stmts) or leaves(after) or _ends_by_flag(loop, after) or _ends_by_flag(loop, stmts)
        or _empties_into_exit(stmts, after, while_flags(loop))
    )


def _empties_into_exit(stmts: Sequence[cst.BaseStatement], after: Sequence[cst.BaseStatement], flags: Set[str]) -> bool:
    """The handler empties a name (``values = []``) that the first statement after the ``try``
    tests, on the arm that leaves the loop or clears its flag (``if values: ... else: flag =
    False``): the failure ends the loop, as running out of pages does."""
    emptied = {
        target.target.value for stmt in stmts for small in small_statements(stmt) if isinstance(small, cst.Assign)
        and _falsy(small.value) for target in small.targets if isinstance(target.target, cst.Name)
    }
    first = after[0] if after else None
    if not emptied or not isinstance(first, cst.If):
        return False
    test = first.test
    if isinstance(test, cst.Name) and test.value in emptied:
        taken = block(first.orelse.body) if isinstance(first.orelse, cst.Else) else []
    elif isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and isinstance(test.expression, cst.Name) \
            and test.expression.value in emptied:
        taken = block(first.body)
    else:
        return False
    return bool(taken) and (leaves(taken) or bool(flags & assigned_names(taken)))


def _falsy(value: cst.BaseExpression) -> bool:
    """``[]``, ``{}``, ``()``, ``None``, ``False``, ``0``, ``""``."""
    if isinstance(value, (cst.List, cst.Dict, cst.Tuple)):
        return not value.elements
    if isinstance(value, cst.Name):
        return value.value in ("None", "False")
    return (isinstance(value, cst.Integer) and value.value == "0") or string_of(value) == ""


def _ends_by_flag(loop: cst.CSTNode, after: Sequence[cst.BaseStatement]) -> bool:
    """The statements set, on every path, what the loop's test waits on: a flag it runs only
    while false (``while not retried:`` … ``retried = True``), or the name it runs only while
    None (``while reference is None:`` … ``reference = recent.reference if recent else ""``,
    a value that is no call's result and no ``None``): the loop ends after that pass."""
    test = loop.test if isinstance(loop, cst.While) else None
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        flag, ends = dotted_name(test.expression), lambda value: isinstance(value, cst.Name) and value.value == "True"
    elif (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.Is)
            and is_none(test.comparisons[0].comparator)):
        flag, ends = dotted_name(test.left), _never_none
    else:
        return False
    for stmt in after:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if (isinstance(small, cst.Assign) and ends(small.value)
                    and flag and any(dotted_name(target.target) == flag for target in small.targets)):
                return True
    return False


def _never_none(value: cst.BaseExpression) -> bool:
    """A value written out that is not ``None``: a literal, a name or attribute read, or a
    choice between such (a call may return None)."""
    if isinstance(value, cst.IfExp):
        return _never_none(value.body) and _never_none(value.orelse)
    if is_none(value):
        return False
    return not any(isinstance(node, (cst.Call, cst.Await, cst.Yield)) for node in iter_nodes(value))


def _succeeds(stmts: Sequence[cst.BaseStatement], flags: Set[str], predicates: AbstractSet[str] = frozenset()) -> bool:
    """The block can leave the loop when the operation worked: a ``return``/``break`` (or the
    ``while not done`` flag set) that is not waiting for a polled state (``if job.status ==
    "done": return`` goes round on a job that is merely unfinished: a poll, not a retry), nor
    for what a test handed in by the caller says (``predicates``, the function's parameters:
    ``if check_fn(): return``, whose answer is not what the loop returns; the callers' check
    may be a poll as well as a retry)."""
    exits = [(leave, guards) for leave, guards in guarded_exits(stmts, flags=flags) if not _stops_on_request(leave, guards, stmts)]
    own = _built_here(stmts)
    # the object a polled test reads: another exit that tests its attributes reads its state
    # too (``if cluster.leader.name != leader: return 200`` / ``if not cluster.failover: return 503``)
    polled = {root for _, guards in exits for test in guards if polls_state(test) for root in _attribute_roots(test)}
    return any(
        not any(
            (polls_state(test) and not _reads_only(test, own))
            or (status_polarity(test) is None and _attribute_roots(test) & polled)
            or _asks_handed_check(test, leave, predicates)
            for test in guards
        )
        for leave, guards in exits
    )


# The flag a long-running loop checks to stop when asked (``if self._shut_down: return``), and
# the one it checks the other way (``if not self._refreshing_enabled: return``).
_STOP_FLAG = re.compile(r"(shut_?down|stop(ped|ping|_requested)?|clos(ed|ing)|cancell?(ed|ing)|exit(ing)?|terminat\w*|quit(ting)?)$", re.I)
_RUN_FLAG = re.compile(r"(running|enabled|alive|active)$", re.I)


def _stops_on_request(leave: cst.CSTNode, guards: Tuple[cst.BaseExpression, ...], stmts: Sequence[cst.BaseStatement]) -> bool:
    """A way out that only stops the loop when it is asked to, before the work of the pass
    (``if self._shut_down: return None`` in the wait that starts it): no answer, a test of a
    stop flag alone, and calls still to come, so it says nothing of a success. (One after the
    work, ``if self.should_stop: return`` once a stream of events ended, leaves a pass that
    worked.)"""
    if isinstance(leave, cst.Return) and leave.value is not None and not is_none(leave.value):
        return False
    if not isinstance(leave, (cst.Return, cst.Break)) or not guards:
        return False
    test = guards[-1]
    flag = _STOP_FLAG
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, flag = test.expression, _RUN_FLAG
    name = test.attr.value if isinstance(test, cst.Attribute) else test.value if isinstance(test, cst.Name) else None
    if name is None or flag.search(name) is None:
        return False
    nodes = [node for stmt in stmts for node in iter_nodes(stmt)]
    position = next((index for index, node in enumerate(nodes) if node is leave), len(nodes))
    return any(isinstance(node, cst.Call) for node in nodes[position:])


def _parameters(scope: Scope) -> Set[str]:
    """The parameters of the function the loop is in."""
    function = scope.enclosing_function
    node = function.node if function is not None else None
    if not isinstance(node, cst.FunctionDef):
        return set()
    params = node.params
    return {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}


def _asks_handed_check(test: cst.BaseExpression, leave: cst.CSTNode, predicates: AbstractSet[str]) -> bool:
    """The test calls a function the caller handed in on a value (``check_fn(last_result)``)
    and the way out does not return that call's answer: the caller's check of what was
    fetched decides, not a call's success. (Called with nothing, ``if send(): return True``,
    it may as well be the operation retried.)"""
    asked = {
        node.func.value for node in expression_nodes(test)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in predicates and node.args
    }
    returned = getattr(leave, "value", None) if isinstance(leave, cst.Return) else None
    return bool(asked) and not (returned is not None and any(
        isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in asked
        for node in expression_nodes(returned)
    ))


def _state_roots(test: cst.BaseExpression) -> Set[str]:
    """The names a test reads a state of: through their attributes (``cluster`` of
    ``cluster.leader.name``), or compared themselves (``result`` of ``result == "success"``,
    beside ``result in ("busted", "testfailed")``)."""
    return _attribute_roots(test) | {side.value for side in compared_sides(test) if isinstance(side, cst.Name)}


def _built_here(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """The names the block assigns values it built itself, calling nothing (``pending =
    retry_items``, ``left = {k: v for ...}``): no state of something polled."""
    found: Set[str] = set()
    for node in walk_statements(stmts):
        if (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)
                and not any(isinstance(part, cst.Call) for part in iter_nodes(node.value))):
            found.add(node.targets[0].target.value)
    return found


def _reads_only(test: cst.BaseExpression, names: Set[str]) -> bool:
    """Whether every name ``test`` reads is one of ``names`` (``if not pending:``)."""
    read = {node.value for node in iter_nodes(test) if isinstance(node, cst.Name)}
    return bool(read) and read <= names


def _attribute_roots(test: cst.BaseExpression) -> Set[str]:
    """The names whose attributes a test reads (``cluster`` of ``cluster.leader.name``)."""
    roots: Set[str] = set()
    for node in expression_nodes(test):
        if isinstance(node, cst.Attribute):
            root: cst.BaseExpression = node
            while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
                root = root.func if isinstance(root, cst.Call) else root.value
            if isinstance(root, cst.Name):
                roots.add(root.value)
    return roots


def _sets_flag_through_method(
    rec: Recogniser, stmts: Sequence[cst.BaseStatement], flags: Set[str], calls: List[CallSite],
) -> bool:
    """``while not self._lease: try: self.refresh_lease()``: a method of the class that the
    ``try`` calls sets the attribute the loop waits for (``self._lease = ...``), on success;
    or the ``try`` calls a method of another object whose state the loop waits for (``while
    not self.connection.started: try: self.connection.start()``), which sets it itself."""
    attributes = {flag[len("self."):] for flag in flags if flag.startswith("self.") and flag.count(".") == 1}
    owners = {flag.rsplit(".", 1)[0] for flag in flags if flag.count(".") > 1 or not flag.startswith("self.")} - {""}
    if not attributes and not owners:
        return False
    inside = {id(n) for stmt in stmts for n in iter_nodes(stmt)}
    for site in calls:
        func = site.node.func
        if id(site.node) not in inside or not isinstance(func, cst.Attribute):
            continue
        method = rec.model.resolve(func, site.scope, site.order)
        if dotted_name(func.value) in owners and not isinstance(method, FunctionInfo):
            return True  # a library object's own method
        if not (isinstance(func.value, cst.Name) and func.value.value == "self"):
            continue
        if isinstance(method, FunctionInfo) and _assigns_own(rec, method, attributes, set()):
            return True
    return False


def _assigns_own(rec: Recogniser, method: FunctionInfo, attributes: Set[str], seen: Set[int]) -> bool:
    """Whether the method sets one of its object's ``attributes``, or a method of the object
    it calls or hands on (``self.retry(self._do_refresh_lease)``) does, a few levels down."""
    if not isinstance(method.node, cst.FunctionDef) or id(method) in seen or len(seen) > 4:
        return False
    seen.add(id(method))
    for node in iter_nodes(method.node.body):
        if isinstance(node, cst.AssignTarget) and isinstance(node.target, cst.Attribute) and isinstance(
                node.target.value, cst.Name) and node.target.value.value == "self" and node.target.attr.value in attributes:
            return True
    for node in iter_nodes(method.node.body):
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
            other = rec.model.resolve(node, method.scope, 1 << 62)
            if isinstance(other, FunctionInfo) and other.owner is method.owner and _assigns_own(rec, other, attributes, seen):
                return True
    return False


def _reads_a_stream(rec: Recogniser, stmts: Sequence[cst.BaseStatement], calls: List[CallSite]) -> bool:
    """``async with client.stream(...) as r: async for line in r.aiter_lines(): yield line``:
    the block opens a connection (a client's request, a websocket) and reads it until it ends,
    so the loop around it connects again after each failure (a reconnect), never leaving on
    success."""
    return _reads_a_stream_in(rec, stmts, calls, 0)


def _reads_a_stream_in(rec: Recogniser, stmts: Sequence[cst.BaseStatement], calls: List[CallSite], depth: int) -> bool:
    """``_reads_a_stream``, also in a ``with`` nested in another (``async with ClientSession()
    as session: async with session.ws_connect(url) as ws:``), reading in a method of the file
    the block calls (``await self.read_messages()``), or in a method of the file the loop
    calls (``await self.connect_websocket()``), two calls deep at most."""
    by_node = {id(site.node): site for site in calls}
    inside = {id(node) for stmt in stmts for node in iter_nodes(stmt)}
    if any(id(site.node) in inside and rec.name(site) in STREAM_CONSUMERS for site in calls):
        return True  # ``EventReceiver(conn, ...).capture(limit=None)``
    if _reads_opened_stream(rec, stmts, by_node):
        return True
    for stmt in stmts:
        if not isinstance(stmt, cst.With):
            continue
        inner = block(stmt.body)
        if any(isinstance(node, cst.With) for node in inner) and _reads_a_stream_in(rec, inner, calls, depth):
            return True
        # (read in a ``with`` of the project's nested in it: ``async with create_channel(ws) as
        # channel: await self.read(channel)``)
        within_withs = _through_withs(inner)
        if not any(isinstance(node, (cst.For, cst.While)) for node in within_withs) and not _reads_in_method(rec, within_withs, by_node):
            continue
        for item in stmt.items:
            opened = item.item.expression if isinstance(item.item, cst.Await) else item.item
            site = by_node.get(id(opened))
            name = rec.name(site) if site is not None else None
            if name is not None and (name in STREAM_OPENERS or spec_for(name, ()) is not None):
                return True
            if _reads_response_lines(item, inner):
                return True
    if depth >= 2:
        return False
    for function in _methods_called(rec, stmts, by_node):
        if _reads_a_stream_in(rec, block(function.node.body), rec.model.calls_in(function.scope), depth + 1):
            return True
    return False


def _reads_opened_stream(rec: Recogniser, stmts: Sequence[cst.BaseStatement], by_node: Dict[int, CallSite]) -> bool:
    """``ws = create_connection(url)`` then ``while True: ws.recv()``: a connection opened
    without ``with`` (also into an attribute, ``self.websocket = await session.ws_connect(url)``)
    and read in a loop that follows it in the block, or in a method of the file called after it."""
    opened: Set[str] = set()
    for stmt in stmts:
        if isinstance(stmt, (cst.For, cst.While)) and opened and any(
            isinstance(node, (cst.Name, cst.Attribute)) and dotted_name(node) in opened for node in iter_nodes(stmt)
        ):
            return True
        if opened and _reads_in_method(rec, [stmt], by_node):
            return True  # ``await self.connection(self.websocket)``, which reads it in a loop
        for small in small_statements(stmt):
            if not isinstance(small, cst.Assign) or len(small.targets) != 1:
                continue
            target = dotted_name(small.targets[0].target)
            value = small.value.expression if isinstance(small.value, cst.Await) else small.value
            site = by_node.get(id(value))
            if target is not None and site is not None and rec.name(site) in STREAM_OPENERS:
                opened.add(target)
    return False


def _reconnects(rec: Recogniser, handlers: Sequence[cst.ExceptHandler], calls: List[CallSite]) -> bool:
    """A handler opens the stream again (``except WebSocketConnectionClosedException: sleep(5);
    ws = create_connection(url)``) and the loop goes back to reading it: a reconnect that never
    leaves on success."""
    inside = {id(node) for handler in handlers for node in iter_nodes(handler)}
    return any(id(site.node) in inside and rec.name(site) in STREAM_OPENERS for site in calls)


def _through_withs(stmts: Sequence[cst.BaseStatement]) -> List[cst.BaseStatement]:
    """The statements, with those of the ``with`` blocks among them in their place."""
    found: List[cst.BaseStatement] = []
    for stmt in stmts:
        found.extend(_through_withs(block(stmt.body)) if isinstance(stmt, cst.With) else (stmt,))
    return found


def _methods_called(rec: Recogniser, stmts: Sequence[cst.BaseStatement], by_node: Dict[int, CallSite]) -> Iterator[FunctionInfo]:
    """The functions of the file that the block's statements call as a whole (``await
    self.read_messages()``), and the coroutine functions whose coroutine they hand on to be
    run (``await channel.run_tasks(self.read_messages(channel))``)."""
    for stmt in stmts:
        for small in small_statements(stmt):
            value = small.value if isinstance(small, cst.Expr) else None
            value = value.expression if isinstance(value, cst.Await) else value
            if not isinstance(value, cst.Call):
                continue
            for node in iter_nodes(value):
                site = by_node.get(id(node)) if isinstance(node, cst.Call) else None
                function = rec.model.resolve(site.node.func, site.scope, site.order) if site is not None else None
                if isinstance(function, FunctionInfo) and isinstance(function.node, cst.FunctionDef) and (
                    node is value or function.node.asynchronous is not None
                ):
                    yield function


def _reads_in_method(rec: Recogniser, stmts: Sequence[cst.BaseStatement], by_node: Dict[int, CallSite]) -> bool:
    """The block calls a function of the file whose body reads in a loop (``async for msg in
    self.websocket``)."""
    return any(
        any(isinstance(node, (cst.For, cst.While)) for node in block(function.node.body))
        for function in _methods_called(rec, stmts, by_node)
    )


# What reads a streamed response of httpx or requests line by line or chunk by chunk
_STREAM_READS = frozenset({
    "aiter_lines", "aiter_bytes", "aiter_text", "aiter_raw", "iter_lines", "iter_bytes", "iter_text", "iter_raw",
    "iter_content",
})


def _reads_response_lines(item: cst.WithItem, body: Sequence[cst.BaseStatement]) -> bool:
    """``async with get_client().stream("GET", url) as r: async for line in r.aiter_lines()``
    on an object the file cannot tell (another module's client): a ``stream`` whose response
    is read as a client's streamed response is."""
    opened = item.item.expression if isinstance(item.item, cst.Await) else item.item
    if not (isinstance(opened, cst.Call) and isinstance(opened.func, cst.Attribute) and opened.func.attr.value == "stream"):
        return False
    alias = item.asname.name if item.asname is not None else None
    if not isinstance(alias, cst.Name):
        return False
    for inner in body:
        if not isinstance(inner, cst.For):
            continue
        source = inner.iter
        if (isinstance(source, cst.Call) and isinstance(source.func, cst.Attribute)
                and source.func.attr.value in _STREAM_READS and isinstance(source.func.value, cst.Name)
                and source.func.value.value == alias.value):
            return True
    return False


def _preceding(body: Sequence[cst.BaseStatement], node: cst.CSTNode) -> Sequence[cst.BaseStatement]:
    """The statements of the loop body written before the one that holds ``node``."""
    for index, stmt in enumerate(body):
        if stmt is node or any(inner is node for inner in iter_nodes(stmt)):
            return body[:index]
    return ()


def _following(body: Sequence[cst.BaseStatement], node: cst.CSTNode) -> Sequence[cst.BaseStatement]:
    """The statements after ``node`` in its block of the loop body."""
    for stmts in blocks(body):
        for index, stmt in enumerate(stmts):
            if stmt is node:
                return stmts[index + 1 :]
    return ()


def _leaves_on_result(
    tried: Sequence[cst.BaseStatement], after: Sequence[cst.BaseStatement], flags: Set[str],
    before: Sequence[cst.BaseStatement], forever: bool = False,
) -> bool:
    """What follows the ``try`` leaves the loop on a test of what the ``try`` assigned (``if
    result: break`` after ``result = server.notify()``): a success exit, which the handlers'
    failures fall through to without taking. Not when the ``try`` sends what the pass set up
    before it (``domain = ".".join(parts[-n:])``): each pass asks something else."""
    kept = assigned_names(tried)
    prepared = assigned_names(before)
    # (in a ``while True``, the answer's name set to ``None`` before it, ``data = None``, is
    # reset, not input prepared)
    reset = {alias for alias, value in _assignments(before) if is_none(value)} if forever else set()
    targets = {id(t.target) for stmt in tried for n in iter_nodes(stmt) if isinstance(n, cst.Assign) for t in n.targets}
    if prepared and any(
        isinstance(n, cst.Name) and n.value in prepared and not (n.value in reset and id(n) in targets)
        for stmt in tried for n in iter_nodes(stmt)
    ):
        return False
    return bool(kept) and _succeeds(after, flags) and any(
        kept & {n.value for test in guards for n in expression_nodes(test) if isinstance(n, cst.Name)}
        for _, guards in guarded_exits(after, flags=flags)
    )


def _retries_before_moving_on(
    loop: cst.CSTNode, after: Sequence[cst.BaseStatement], handlers: Sequence[cst.ExceptHandler],
    tried: Sequence[cst.BaseStatement], succeeded: Sequence[cst.BaseStatement] = (),
    before: Sequence[cst.BaseStatement] = (),
) -> bool:
    """A ``while`` loop that moves on through its condition after the ``try`` (``next_url =
    ...``), or through what the ``try`` passes its call (``get_events(last_event_id=
    last_event_id)``, then ``last_event_id = ...`` for each event that came), whose failures go
    round before that (a handler's ``continue``, or one after the ``try`` ahead of the
    assignment, or the assignment only in the ``try``'s ``else:``, which a failure skips):
    they ask for the same thing again. One whose failures also reach the assignment
    (``current_check -= WEEK``) moves on either way."""
    # (``current_batch = next_batch`` at the top of the pass: the request is given the cursor)
    passed = _passed_names(tried)
    passed |= {alias[1] for alias in _aliases(before) if alias[0] in passed}
    names = _condition_names(loop, after) | (passed & _assigned_anywhere([*succeeded, *after]))
    if not names:
        return False
    if any(has_continue(block(handler.body)) for handler in handlers):
        return True
    for stmt in after:
        if names & assigned_names([stmt]):
            return False
        if has_continue([stmt]):
            return True
    if _paced(after):
        # a failure waits what a success waits before the next pass (a heartbeat sent every
        # ``interval``): the loop asks at its own pace, no sooner and no more for a failure
        return False
    # (what the request is handed moves on only after a success: a failure asks for it again)
    return bool(passed & _assigned_anywhere(succeeded))


def _paced(stmts: Sequence[cst.BaseStatement]) -> bool:
    """One of these statements (run by every pass) waits: ``await asyncio.sleep(interval)``,
    ``with anyio.move_on_after(interval): await stop.wait()``."""
    return any(
        isinstance(node, cst.Call) and isinstance(node.func, (cst.Attribute, cst.Name))
        and (node.func.attr.value if isinstance(node.func, cst.Attribute) else node.func.value) in ("sleep", "wait")
        for stmt in stmts if isinstance(stmt, (cst.SimpleStatementLine, cst.With)) for node in iter_nodes(stmt)
    )


def _asks_again_while_refused(
    rec: Recogniser, loop: cst.CSTNode, body: Sequence[cst.BaseStatement], within: List[CallSite], scope: Scope, order: int,
) -> Optional[bool]:
    """A ``while`` whose condition is an answer's failure (``while response.status_code ==
    429:``, ``while "retry-after" in response.headers:``) and whose body asks again, assigning
    that answer from a call out (``response = send(...)``): a retry on the status. Whether it
    goes round only on a refusal (its answer was not acted on); None when it is no such loop."""
    if not isinstance(loop, cst.While):
        return None
    failures = [
        part for part in conjuncts(loop.test)
        if status_polarity(part, lambda expr: rec.follow(expr, scope, order)) == "bad" or _asks_to_come_back(part)
    ]
    if not failures:
        return None
    answers = {root for part in failures for root in _state_roots(part)}
    outbound = {id(call.node) for call in within if not (rec.name(call) or "").startswith("builtins.") and rec.name(call) not in SLEEPS}
    resent = {
        target.target.value for node in walk_statements(body) if isinstance(node, cst.Assign)
        for target in node.targets if isinstance(target.target, cst.Name) and target.target.value in answers
        and any(id(inner) in outbound for inner in iter_nodes(node.value))
    }
    if not resent or any(
        isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "raise_for_status"
        and dotted_name(node.func.value) in resent
        for statement in body for node in iter_nodes(statement, stop_at=DEFINITIONS)
    ):
        return None  # (``response.raise_for_status()`` on each new answer: a failure leaves, a 202 polls)
    return all(refused_request(part) or _asks_to_come_back(part) for part in failures)


def _asks_to_come_back(test: cst.BaseExpression) -> bool:
    """``"retry-after" in response.headers``: the answer says when to ask again."""
    return (
        isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.In)
        and (string_of(test.left) or "").lower() == "retry-after"
    )


def _failure_sets_pause(node: cst.CSTNode, handlers: Sequence[cst.ExceptHandler], sleeps: Sequence[CallSite]) -> bool:
    """A name the loop's pause reads (``time.sleep(max(refresh_time, 1))``) that the ``try``
    sets on success and the handlers set otherwise: the failures choose when to ask again."""
    paused = {
        name.value for call in sleeps for arg in call.node.args[:1]
        for name in expression_nodes(arg.value) if isinstance(name, cst.Name)
    }
    tried = _assigned_anywhere(block(getattr(node, "body")))
    return bool(paused & tried) and all(paused & tried & _chosen_anew(block(handler.body)) for handler in handlers)


def _chosen_anew(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """The names these statements set only to values not made from what they held
    (``refresh_time = 1``; not a count of failures, ``errors += 1``, nor a wait they grow and
    cap, ``wait += step`` then ``wait = wait_max``)."""
    nodes = [node for stmt in stmts for node in iter_nodes(stmt, stop_at=DEFINITIONS)]
    grown = {node.target.value for node in nodes if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name)}
    found: Set[str] = set()
    for node in nodes:
        if not isinstance(node, cst.Assign):
            continue
        for target in node.targets:
            name = target.target.value if isinstance(target.target, cst.Name) else None
            if name is None or name in grown:
                continue
            if any(isinstance(read, cst.Name) and read.value == name for read in iter_nodes(node.value)):
                grown.add(name)
                found.discard(name)
            else:
                found.add(name)
    return found


def _assignments(stmts: Sequence[cst.BaseStatement]) -> Iterator[Tuple[str, cst.BaseExpression]]:
    """``(name, value)`` of the statements' own ``name = value``."""
    for stmt in stmts:
        for small in small_statements(stmt) if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                yield small.targets[0].target.value, small.value


def _aliases(stmts: Sequence[cst.BaseStatement]) -> Iterator[Tuple[str, str]]:
    """``(alias, name)`` of the statements' ``alias = name``."""
    return ((alias, value.value) for alias, value in _assignments(stmts) if isinstance(value, cst.Name))


def _passed_names(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """The names the calls of these statements are handed (``fetch(offset)``,
    ``get_events(last_event_id=last_event_id)``, ``params={"since": since}``)."""
    return {
        name.value for node in walk_statements(stmts) if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite))
        for small in node.body for call in expression_nodes(small) if isinstance(call, cst.Call)
        for arg in call.args for name in expression_nodes(arg.value) if isinstance(name, cst.Name)
    }


def _assigned_anywhere(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """The names these statements assign, in loops of their own too (``for event in events:
    last_event_id = event["id"]``), nested definitions left out."""
    return {
        target.value for stmt in stmts for node in iter_nodes(stmt, stop_at=DEFINITIONS)
        for target in (
            [t.target for t in node.targets] if isinstance(node, cst.Assign)
            else [node.target] if isinstance(node, (cst.AugAssign, cst.AnnAssign)) else []
        )
        if isinstance(target, cst.Name)
    }


def _condition_names(loop: cst.CSTNode, body: Sequence[cst.BaseStatement]) -> Set[str]:
    """Names in a ``while`` condition that the body assigns (``while url: ... url = page["next"]``):
    the loop is left through its condition."""
    if not isinstance(loop, cst.While):
        return set()
    names = {dotted_name(n) for n in expression_nodes(loop.test) if isinstance(n, (cst.Name, cst.Attribute))}
    return {n for n in names if n} & assigned_names(body)


def is_failure(rec: Recogniser, handler: cst.ExceptHandler, scope: Scope, order: int) -> bool:
    if handler.type is None:
        return True
    types = handler.type
    elements = named_classes(types)
    names = [rec.expr_name(e, scope, order) for e in elements]
    if all(_project_error(rec, name) and raised_on_polled_state(rec, e, scope, order) for e, name in zip(elements, names)):
        return False  # ``except SessionLockedException:`` that the module raises only on a state it read
    return not all(n in NOT_FAILURES or _redirect(n) for n in names) and not _only_interrupted(rec, handler, scope, order)


# The server's answer that the request must go elsewhere (Telegram's 303 ``PhoneMigrate``,
# ``UserMigrateError``; a ``Redirect`` error): following it sends another request, it repeats
# none (``TooManyRedirects`` is a failure).
_REDIRECT_ERROR = re.compile(r"(?<!TooMany)(Migrate|Redirect|SeeOther)(Error|Exception)?$")


def _redirect(name: Optional[str]) -> bool:
    return name is not None and _REDIRECT_ERROR.search(name.rsplit(".", 1)[-1]) is not None


def _project_error(rec: Recogniser, name: Optional[str]) -> bool:
    """An error class of the project (its package's), not a library's: a library raises its
    own on a failed transfer too (``urllib.error.ContentTooShortError`` on a short read)."""
    package = rec.model.module_name.split(".", 1)[0]
    return bool(name and package) and name.split(".", 1)[0] == package  # type: ignore[union-attr]


_LOCAL_ERRNOS = frozenset({"errno.EINTR", "errno.EEXIST"})


def _only_interrupted(rec: Recogniser, handler: cst.ExceptHandler, scope: Scope, order: int) -> bool:
    """``except OSError as e: if e.errno != errno.EINTR: raise``: it goes round only when a
    signal interrupted the call (a wait for the program's own child, redash's RQ worker),
    which nothing failed at, or when a file of that name exists (``errno.EEXIST``: the next
    pass tries another name, certbot's ``unique_file``); every other error leaves."""
    body = block(handler.body)
    for node in walk_statements(body):
        if not isinstance(node, cst.If):
            continue
        tests_eintr = any(
            (isinstance(part, cst.Attribute) and rec.expr_name(part, scope, order) in _LOCAL_ERRNOS)
            # a helper that says so (pika's ``if _is_resumable(error): continue``)
            or (isinstance(part, cst.Call) and _INTERRUPTED_HELPER.search((dotted_name(part.func) or "").rsplit(".", 1)[-1]) is not None)
            for part in expression_nodes(node.test)
        )
        if not tests_eintr:
            continue
        branches = [block(node.body)] + ([block(node.orelse.body)] if isinstance(node.orelse, cst.Else) else [])
        if any(_raises_again(branch) for branch in branches):
            return True
        # ``if error.errno == errno.EINTR: continue`` then ``raise``: the same, written the other way
        if node in body and _raises_again(body[body.index(node) + 1:]) and not _raises_again(block(node.body)):
            return True
    return False


_INTERRUPTED_HELPER = re.compile(r"resumable|interrupted|eintr", re.I)


def _raises_again(stmts: Sequence[cst.BaseStatement]) -> bool:
    return any(
        isinstance(small, cst.Raise) for stmt in stmts if isinstance(stmt, cst.SimpleStatementLine) for small in stmt.body
    )


def handler_kind(rec: Recogniser, handler: cst.ExceptHandler, scope: Scope, order: int) -> str:
    kind = ON_ANY if handler.type is None else rec.exception_kind(handler.type, scope, order)
    if kind == ON_ANY and _classifies(rec, handler, scope):
        return UNKNOWN
    return kind


def _classifies(rec: Recogniser, handler: cst.ExceptHandler, scope: Scope) -> bool:
    """A catch-all handler that decides what to retry itself: it hands the exception to a
    predicate (``if not should_retry(exc): raise``, ``helper(exc, ...)``; not to a parameter
    whose default prints or logs, ``printfn(exc)`` with ``printfn=print``) or leaves on a
    condition that is not an attempt counter."""
    name = handler.name.name.value if handler.name is not None and isinstance(handler.name.name, cst.Name) else None
    body = block(handler.body)
    counters = counter_names(body)
    # ``raise ConnectionFailed(e)`` only builds what the handler gives up with
    raised = {id(node.exc) for node in walk_statements(body) if isinstance(node, cst.Raise) and node.exc is not None}
    for node in walk_statements(body):
        if isinstance(node, cst.If) and conditional_exit(node):
            # ``if err not in retryable or attempt == 4: break``: a side of an ``or`` that is no
            # counter leaves on what was read (not a switch of the configuration, ``if
            # config.autostart: sleep(...) else: break``, which leaves on every error or none)
            if not setting_switch(node.test, name) and any(not mentions_bound(rec, part, counters, None, 0) for part in _alternatives(node.test)):
                return True
            if name is not None and any(isinstance(n, cst.Name) and n.value == name for n in expression_nodes(node.test)):
                return True  # ``if attempt and e.code == 517: sleep(1) else: raise``: the error decides
        if isinstance(node, cst.If) and name is not None and _spends_on_other_errors(node, name, counters):
            return True
        if name is None:
            continue
        for part in expression_nodes(node) if isinstance(node, (cst.Expr, cst.Assign, cst.AnnAssign, cst.If, cst.Return, cst.Raise)) else ():
            if (isinstance(part, cst.Call) and id(part) not in raised and not is_logging(part) and not _logging_parameter(part, scope)
                    and not _reports_only(rec, part, scope)):
                for arg in part.args:
                    if isinstance(arg.value, cst.Name) and arg.value.value == name:
                        return True
        if isinstance(node, cst.For) and any(isinstance(p, cst.Name) and p.value == name for p in expression_nodes(node)):
            return True
    return False


def _spends_on_other_errors(node: cst.If, name: str, counters: Set[str]) -> bool:
    """``if isinstance(e, Retryable): ... else: retries_left = 0``: a chain of tests of the
    error whose arm for the other errors spends the attempt counter, so they leave at once."""
    if not any(isinstance(n, cst.Name) and n.value == name for n in expression_nodes(node.test)):
        return False
    orelse = node.orelse
    while isinstance(orelse, cst.If):
        orelse = orelse.orelse
    if not isinstance(orelse, cst.Else):
        return False
    for stmt in block(orelse.body):
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                        and small.targets[0].target.value in counters and isinstance(small.value, cst.Integer)
                        and small.value.value == "0"):
                    return True
    return False


def _alternatives(test: cst.BaseExpression) -> List[cst.BaseExpression]:
    """The sides of a test's ``or`` (the test itself when it has none)."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        return _alternatives(test.left) + _alternatives(test.right)
    return [test]


def _logging_parameter(call: cst.Call, scope: Scope) -> bool:
    """``printfn(exc)`` where ``printfn`` is a parameter of the function whose default is a
    printing or logging callable (``printfn=print``, ``log=logger.warning``)."""
    function = scope.enclosing_function
    default = function.default_of(call.func.value) if function is not None and isinstance(call.func, cst.Name) else None
    return default is not None and logs(default)


# What a function may call and still only report a failure: its own logging, printing and
# pausing (``logger.info(...)``, ``time.sleep(5 + random.uniform(0, 5))``).
_REPORTING_MODULES = ("builtins.", "time.", "random.", "logging.", "asyncio.sleep")


def _reports_only(rec: Recogniser, call: cst.Call, scope: Scope) -> bool:
    """``_handle_retry(attempt, "Rate limit exceeded", e)`` where the function of the file it
    calls only logs, prints or sleeps: it raises nothing and answers nothing, so it decides
    nothing about what is retried."""
    function = rec.model.resolve(call.func, scope, 1 << 62)
    if not isinstance(function, FunctionInfo) or not isinstance(function.node, cst.FunctionDef):
        return False
    for node in iter_nodes(function.node.body, stop_at=DEFINITIONS):
        if isinstance(node, (cst.Raise, cst.Yield, cst.Await)) or (isinstance(node, cst.Return) and node.value is not None):
            return False
        if isinstance(node, cst.Call) and not is_logging(node) and not (
            rec.expr_name(node.func, function.scope, 1 << 62) or ""
        ).startswith(_REPORTING_MODULES):
            return False
    return True


def calls_out(rec: Recogniser, node: cst.CSTNode, calls: List[CallSite]) -> bool:
    """The try body calls something that is not a builtin (input(), int() …)."""
    handler_ids = {id(h) for h in getattr(node, "handlers", ())}
    for call in calls:
        if not any(n is node for n in call.stack):
            continue
        if any(id(n) in handler_ids for n in call.stack):
            continue
        name = rec.name(call)
        if name is None or not name.startswith("builtins."):
            return True
    return False


def local_state(
    rec: Recogniser, node: cst.CSTNode, handlers: List[cst.ExceptHandler], calls: List[CallSite], scope: Scope,
    order: int, body: Sequence[cst.BaseStatement] = (),
) -> bool:
    """The failure the handlers wait out comes from local work, not another service: they
    catch only errors of files, locks, lookups or the browser the ``try`` drives, or the
    ``try`` calls only local work (``os.open``, a unix socket's ``connect``, starting a
    browser, a function of the file that does only such things); or it only waits for the
    next message on an open connection (``ws.receive()``) and catches only its timeout; or it
    is no failure of a service at all, but its answer refusing the input (an
    ``IntegrityError``), and the handlers change what the loop ``body`` sends next (the next
    name, the item's turn in the queue): the same input again would be refused again."""
    handler_ids = {id(h) for h in getattr(node, "handlers", ())}
    outside = [
        call for call in calls
        if any(n is node for n in call.stack) and not any(id(n) in handler_ids for n in call.stack)
    ]
    names = []
    bare = any(handler.type is None for handler in handlers)  # catches anything: only the calls tell
    for handler in handlers:
        types = handler.type
        if types is not None:
            names.extend(rec.expr_name(e.value if isinstance(e, cst.Element) else e, scope, order)
                         for e in (types.elements if isinstance(types, cst.Tuple) else [types]))
    if not bare and (local_errors(names, outside, rec) or (
        (refused_input(names) or all(_refused_by_message(handler) for handler in handlers)) and _changes_input(handlers, body)
    )):
        return True
    if any(rec.name(call) in SERVES for call in outside):
        return True  # a server binding its own port and serving: starting it again is no retry
    if _waits_for_own_state(rec, calls, handler_ids):
        return True
    if handlers and all(_continues_from_answer([handler], getattr(node, "body", None)) for handler in handlers):
        return True  # the error's answer tells what to send next (a fresh page token): another request
    if probes_own_server(rec, outside, scope):
        return True  # a readiness probe of the server the function started: it waits for it to listen
    # the error a ``try`` raises itself (``raise SocketError("Connection lost")``) is no call out
    raised = {id(n.exc) for n in iter_nodes(node) if isinstance(n, cst.Raise) and n.exc is not None}
    # (not its ``else:``, which runs once nothing failed)
    after = {id(n) for part in (getattr(node, "orelse", None),) if part is not None for n in iter_nodes(part)}
    reads = [
        call for call in outside if id(call.node) not in raised and id(call.node) not in after
        and not (rec.name(call) or "").startswith("builtins.") and rec.name(call) not in BOUNDED_WAITS
    ]
    received = {id(call.node) for call in reads if receives(call)}
    if not bare and received and silence(names) and all(
        id(call.node) in received or local_call(rec, call)
        or any(isinstance(n, cst.Call) and id(n) in received for arg in call.node.args for n in iter_nodes(arg.value))
        for call in reads
    ):
        # a read loop on an open connection (what it got decoded, ``u(chan.recv(1024))``, and
        # written out): a timeout is silence, nothing is sent again
        return True
    # a pause in the ``try`` (the wait before the next page) fails no call out either, nor
    # what works out its length (``asyncio.sleep(get_delay())``)
    pauses = {id(n) for call in outside if rec.name(call) in SLEEPS for n in iter_nodes(call.node)}
    return bool(outside) and all(
        local_call(rec, call) or id(call.node) in pauses or _never_raises(rec, call) or rec.name(call) in CLIENT_BUILDERS
        for call in outside
    )


# The waits on this process's own synchronisation objects.
_OWN_STATE_WAITS = frozenset({
    f"{module}.{kind}.wait" for module in ("threading", "asyncio") for kind in ("Event", "Condition")
})


def _waits_for_own_state(rec: Recogniser, calls: Sequence[CallSite], handler_ids: Set[int]) -> bool:
    """The handlers' only wait is an untimed one on an event or condition of this process
    (``self._filter_done.wait()``): they wait for the process's own state, whatever the
    ``try`` failed with, not for a service to recover. A timed one (``stop.wait(5)``) is a
    pause that can be cut short, as a retry's is."""
    waits = [call for call in calls if any(id(n) in handler_ids for n in call.stack)
             and (rec.name(call) in _OWN_STATE_WAITS or rec.name(call) in SLEEPS)]
    return bool(waits) and all(
        rec.name(call) in _OWN_STATE_WAITS and not call.node.args for call in waits
    )


def probes_own_server(rec: Recogniser, calls: Sequence[CallSite], scope: Scope) -> bool:
    """Whether ``calls`` ask only a loopback URL (and do local work) in a function that starts
    its own server or program: a readiness probe, which waits for it to listen."""
    probes = {id(call.node) for call in calls if sends_to_loopback(call, rec.model)}
    return bool(probes) and (starts_own_server(rec.model, scope) or runs_tests(rec.model, scope)) and all(
        id(call.node) in probes or local_call(rec, call) or _reads_answer_of(call, probes) for call in calls
    )


def _reads_answer_of(call: CallSite, probes: Set[int]) -> bool:
    """``urlopen(url).read()``: a method of what one of the ``probes`` answered."""
    func = call.node.func
    return isinstance(func, cst.Attribute) and id(func.value) in probes


def _never_raises(rec: Recogniser, call: CallSite) -> bool:
    """A function of the file that lets no exception out: after statements that call nothing,
    one ``try`` whose ``finally`` returns (which discards any exception), or one of whose
    handlers catches everything and raises nothing; also that ``try`` as the whole body of a
    last ``while True:`` whose other handlers raise only what is no failure (``except
    asyncio.CancelledError: raise``). A retry around it never sees a failure."""
    called = called_definition(rec, call)
    node = called.node if isinstance(called, FunctionInfo) else None
    if not isinstance(node, cst.FunctionDef):
        return False
    statements = list(node.body.body) if isinstance(node.body, cst.IndentedBlock) else []
    looped = bool(statements) and isinstance(statements[-1], cst.While) and is_true(statements[-1].test)
    if looped:
        inner = block(statements[-1].body)  # type: ignore[attr-defined]
        statements = statements[:-1] + (list(inner) if len(inner) == 1 else [statements[-1]])
    if not statements or not isinstance(statements[-1], cst.Try):
        return False
    if any(isinstance(part, cst.Call) for statement in statements[:-1] for part in iter_nodes(statement)):
        return False
    last = statements[-1]
    if looped and not all(
        raises_nothing(handler) or _catches_only(rec, handler, called.scope, NOT_FAILURES)  # type: ignore[union-attr]
        for handler in last.handlers
    ):
        return False
    if last.finalbody is not None and any(isinstance(part, cst.Return) for part in walk_statements(block(last.finalbody.body))):
        return True
    return any(
        catches_all(rec.model, handler, called.scope, 1 << 62) and raises_nothing(handler)  # type: ignore[union-attr]
        for handler in last.handlers
    ) and last.orelse is None and last.finalbody is None


def _catches_only(rec: Recogniser, handler: cst.ExceptHandler, scope: Scope, names: AbstractSet[str]) -> bool:
    """Whether the handler names classes and each is one of ``names``."""
    types = handler.type
    if types is None:
        return False
    caught = [rec.expr_name(e.value if isinstance(e, cst.Element) else e, scope, 1 << 62)
              for e in (types.elements if isinstance(types, cst.Tuple) else [types])]
    return all(name in names for name in caught)


def _moves_on(
    rec: Recogniser, stmts: Sequence[cst.BaseStatement], body: Sequence[cst.BaseStatement], calls: List[CallSite],
) -> bool:
    """The failed branch assigns what a call of the loop sends (``next_url = ...`` for
    ``fetch(next_url)``): the next pass asks for something else, it does not repeat the call."""
    changed = _assigned_going_round(stmts)
    if not changed:
        return False
    # what the failed branch itself calls (``LoginFailed(err)``), or the loop's ``else:``, is
    # no request sent again
    inside = {id(node) for stmt in stmts for node in iter_nodes(stmt) if isinstance(node, cst.Call)}
    again = {id(node) for stmt in body for node in iter_nodes(stmt) if isinstance(node, cst.Call)} - inside
    for call in calls:
        if id(call.node) not in again or rec.name(call) in SLEEPS:
            continue
        for arg in call.node.args:
            if arg.keyword is not None and _SETTINGS.search(arg.keyword.value):
                continue  # ``timeout=timeout * 2``: the same request, given longer (or a pause's length)
            if any(isinstance(part, cst.Name) and part.value in changed for part in iter_nodes(arg.value)):
                return True
    return False


_SETTINGS = re.compile(r"timeout|retr|attempt|backoff|delay|wait|sleep|pause", re.IGNORECASE)


def _assigned_going_round(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """The names a failed branch assigns on its ways round the loop, not in an ``if`` arm that
    leaves it (``else: result = SectionResult(error=...); return``: the give-up)."""
    names: Set[str] = set()
    for stmt in stmts:
        arm: Optional[cst.CSTNode] = stmt
        if not isinstance(stmt, cst.If):
            names |= assigned_names([stmt])
        while isinstance(arm, cst.If):
            if not leaves(block(arm.body)):
                names |= _assigned_going_round(block(arm.body))
            arm = arm.orelse
        if isinstance(arm, cst.Else) and not leaves(block(arm.body)):
            names |= _assigned_going_round(block(arm.body))
    return names


_REFUSAL_WORDS = re.compile(
    r"conflict|already exists|already in use|duplicate|unique|is taken|smaller|too large|too big|too many", re.IGNORECASE,
)


def _round_on_refusal(handler: cst.ExceptHandler) -> bool:
    """``except ApiError as e: if e.error_code == 429: sleep(...) else: raise``: the handler's
    first statement tests the error's status for a refusal (429, 408 …) and raises otherwise;
    or raises first on any other status (``if attempt == max_retries or e.status_code != 429:
    raise``)."""
    statements = block(handler.body)
    first = statements[0] if statements else None
    if isinstance(first, cst.If) and first.orelse is None and leaves(block(first.body)) and any(
        refused_request(part, otherwise=True) for part in _alternatives(first.test)
    ):
        return True
    if not isinstance(first, cst.If) or not refused_request(first.test):
        return False
    otherwise = block(first.orelse.body) if isinstance(first.orelse, cst.Else) else statements[1:]
    return bool(otherwise) and leaves(otherwise)


def _refused_by_message(handler: cst.ExceptHandler) -> bool:
    """The handler goes round only when the error's text says the input was refused (``if
    "Conflict" in str(exc): name = next_name() else: raise``; ``if "select a smaller result"
    in str(exc): step //= 2; continue`` then ``raise``)."""
    statements = block(handler.body)
    for index, statement in enumerate(statements):
        if not isinstance(statement, cst.If):
            continue
        otherwise = block(statement.orelse.body) if isinstance(statement.orelse, cst.Else) else statements[index + 1:]
        words = [string_of(node) or "" for node in expression_nodes(statement.test) if isinstance(node, cst.SimpleString)]
        if any(_REFUSAL_WORDS.search(word) for word in words) and otherwise and leaves(otherwise):
            return True
    return False


# Methods that change the collection they are called on (``queue.insert(0, item)``).
_MUTATORS = REFILLS | POPS | {"add", "update", "remove", "discard", "setdefault", "clear"}


def _kept_by_chains(body: Sequence[cst.BaseStatement]) -> Optional[Set[int]]:
    """The statuses an ``if``/``elif`` chain whose ``else`` leaves the loop lets go round: those
    its staying branches test for (``if r.status_code == 400: pass`` / ``elif r.status_code ==
    409: raise ...`` / ``else: raise``: only 400); None when no such chain bounds them."""
    kept: Optional[Set[int]] = None
    elifs: Set[int] = set()
    for node in walk_statements(body):
        if not isinstance(node, cst.If) or id(node) in elifs:
            continue
        staying: Set[int] = set()
        current: Union[cst.If, cst.Else, None] = node
        while isinstance(current, cst.If):
            if isinstance(current.orelse, cst.If):
                elifs.add(id(current.orelse))
            if not leaves(branch(current.body)):
                found = status_membership(current.test)
                if found is None or not found[1]:
                    break
                staying.update(found[0])
            current = current.orelse
        if isinstance(current, cst.Else) and leaves(block(current.body)):
            kept = staying if kept is None else kept & staying
    return kept


def _kept_by_sequence(body: Sequence[cst.BaseStatement]) -> Optional[Set[int]]:
    """The statuses a loop body that ends by leaving lets go round: those its ``if``s that stay
    test for (``if code < 400: return r`` / ``if code == 429: wait(); continue`` / ``raise
    Abort(...)``: only 429); None when a statement there may go round otherwise."""
    last = small_statements(body[-1]) if body else ()
    if not last or not isinstance(last[-1], (cst.Raise, cst.Return)):
        return None
    staying: Set[int] = set()
    for stmt in body[:-1]:
        if isinstance(stmt, cst.If):
            if stmt.orelse is not None:
                return None
            if leaves(block(stmt.body)):
                continue
            found = status_membership(stmt.test)
            if found is None or not found[1]:
                return None
            staying.update(found[0])
        elif not isinstance(stmt, cst.SimpleStatementLine) or any(isinstance(small, cst.Continue) for small in stmt.body):
            return None
    return staying


def _continues_from_answer(handlers: Sequence[cst.ExceptHandler], tried: Optional[cst.BaseSuite]) -> bool:
    """A handler gives a name that the ``try`` reads a value taken from the error it caught
    (``new = json.loads(e.body)["metadata"]["continue"]``; ``token = new``), or drops from it
    what the error names (``ids.remove(failed_id(e))``): the next pass sends what the server's
    answer said to, not the failed request again. (A delay read from the error, slept after
    the ``try``, changes no request.)"""
    if not isinstance(tried, cst.BaseSuite):
        return False
    body = block(tried)
    for handler in handlers:
        if handler.name is None or not isinstance(handler.name.name, cst.Name):
            continue
        derived = {handler.name.name.value}
        assigned: Set[str] = set()
        going_round = _assigned_going_round(block(handler.body))  # (not what a give-up arm reports)
        for part in iter_nodes(handler.body, stop_at=DEFINITIONS):
            if isinstance(part, cst.Assign) and any(
                isinstance(n, cst.Name) and n.value in derived for n in iter_nodes(part.value)
            ):
                names = {t.target.value for t in part.targets if isinstance(t.target, cst.Name)} & going_round
                derived |= names
                assigned |= names
            elif (isinstance(part, cst.Call) and isinstance(part.func, cst.Attribute) and isinstance(part.func.value, cst.Name)
                    and part.func.attr.value in _MUTATORS and any(
                        isinstance(n, cst.Name) and n.value in derived for arg in part.args for n in iter_nodes(arg.value))):
                assigned.add(part.func.value.value)  # ``ids.remove(failed_id(e))``: what the error named is dropped
            elif isinstance(part, cst.Del) and isinstance(part.target, cst.Subscript) and isinstance(part.target.value, cst.Name) and any(
                    isinstance(n, cst.Name) and n.value in derived for n in iter_nodes(part.target.slice[0])):
                assigned.add(part.target.value.value)  # ``del indices[indices.index(missing)]``: the same
                derived.add(part.target.value.value)  # (``search = search.index(*indices)`` after it)
        if assigned and _read_outside(assigned, handlers, body):
            return True
    return False


def _changes_input(handlers: Sequence[cst.ExceptHandler], body: Sequence[cst.BaseStatement]) -> bool:
    """A handler assigns or changes a name that the loop ``body`` reads outside the handlers."""
    changed: Set[str] = set()
    for handler in handlers:
        changed |= _assigned_going_round(block(handler.body))
        for part in iter_nodes(handler.body, stop_at=DEFINITIONS):
            if (isinstance(part, cst.Call) and isinstance(part.func, cst.Attribute) and isinstance(part.func.value, cst.Name)
                    and part.func.attr.value in _MUTATORS):
                changed.add(part.func.value.value)
            elif isinstance(part, cst.Del) and isinstance(part.target, cst.Subscript) and isinstance(part.target.value, cst.Name):
                changed.add(part.target.value.value)  # ``del pending[0]``
            elif isinstance(part, cst.Assign) and any(
                    isinstance(t.target, cst.Subscript) and isinstance(t.target.value, cst.Name) for t in part.targets):
                # ``settings[name] = default``: the mapping the next pass reads is another
                changed.update(t.target.value.value for t in part.targets if isinstance(t.target, cst.Subscript)
                               and isinstance(t.target.value, cst.Name))
            elif isinstance(part, (cst.For, cst.While)):  # ``for item in names: text = text.replace(...)``
                changed |= assigned_names(block(part.body))
    return bool(changed) and _read_outside(changed, handlers, body)


def _read_outside(names: Set[str], handlers: Sequence[cst.ExceptHandler], body: Sequence[cst.BaseStatement]) -> bool:
    """Whether the loop ``body`` reads one of ``names`` outside the ``handlers``: not where it
    only assigns the name (``res = self.load(url)``), nor a keyword or an attribute spelled
    the same (``timeout=TIMEOUT``, ``self.timeout``)."""
    inside = {id(handler) for handler in handlers}
    pending: List[cst.CSTNode] = list(body)
    while pending:
        part = pending.pop()
        if id(part) in inside:
            continue
        if isinstance(part, cst.Name) and part.value in names:
            return True
        if isinstance(part, (cst.AssignTarget, cst.AnnAssign)) and isinstance(part.target, cst.Name):
            pending.extend(child for child in part.children if child is not part.target)
        elif isinstance(part, cst.Arg):
            pending.append(part.value)
        elif isinstance(part, cst.Attribute):
            pending.append(part.value)
        else:
            pending.extend(part.children)
    return False


def _status_ifs(
    rec: Recogniser, body: Sequence[cst.BaseStatement], flags: Set[str], scope: Scope, order: int, calls: List[CallSite],
    answers: bool = False,
) -> List[cst.If]:
    found = []
    loop_exits = has_exit(body) or bool(flags & assigned_names(body))
    ifs = [node for node in walk_statements(body) if isinstance(node, cst.If)]
    # what another test of the loop compares with states (``result in ("busted", "testfailed")``)
    polled = {root for node in ifs if polls_state(node.test) and compared_texts(node.test) for root in _state_roots(node.test)}
    for node in ifs:
        polarity = status_polarity(node.test, lambda expr: rec.follow(expr, scope, order))
        if polarity is None and answers:
            polarity = outcome_polarity(node.test)
            if _state_roots(node.test) & polled:
                continue  # ``result == "success"`` beside a test of other states of the same result: a poll
        if polarity is None or polls_state(node.test):
            continue  # (a success joined with a state it waits for: a poll)
        if _failures_raised_before(body, node):
            continue  # ``r.raise_for_status()`` first: only a success status (202) goes round, a poll
        good, bad = (node.body, node.orelse) if polarity == "good" else (node.orelse, node.body)
        good_stmts, bad_stmts = branch(good), branch(bad)
        if any(
            polls_state(test) and any(isinstance(n, cst.Comparison) for n in expression_nodes(test))
            for _, guards in guarded_exits(good_stmts, flags=flags) for test in guards
        ):
            continue  # ``if r.status_code == 204:`` then ``if version in versions: break``: a poll
        bad_goes_round = has_continue(bad_stmts) or not (_leaves_on_failure(bad_stmts) or _falls_out(body, node))
        if not bad_goes_round or _moves_on(rec, bad_stmts, body, calls) or _waits_on_success(bad_stmts):
            continue
        good_leaves = bool(good_stmts) and (has_exit(good_stmts) or bool(flags & assigned_names(good_stmts)))
        if good_leaves or (has_continue(bad_stmts) and loop_exits):
            found.append(node)
    return found


def _yields_only(call: cst.Call) -> bool:
    """``await asyncio.sleep(0)``: a turn given to the event loop (or the scheduler), no pause."""
    first = call.args[0].value if call.args and call.args[0].keyword is None else None
    return first is not None and number_of(first) == 0


def _next_at_once(handler: cst.ExceptHandler, sleeps: Sequence[CallSite]) -> bool:
    """The handler ends with ``continue`` and waits nothing on the way."""
    statements = block(handler.body)
    last = small_statements(statements[-1]) if statements else ()
    inside = {id(node) for node in iter_nodes(handler.body)}
    return bool(last) and isinstance(last[-1], cst.Continue) and not any(id(s.node) in inside for s in sleeps)


def _pauses_in(handler: cst.ExceptHandler) -> bool:
    """Whether the handler calls something named for a pause (``retry.sleep_func(t)``)."""
    return any(
        isinstance(node, cst.Call) and PAUSE_WORD.search(dotted_name(node.func) or "") is not None
        for node in iter_nodes(handler.body)
    )


def _waits_for_value(loop: cst.CSTNode, body: Sequence[cst.BaseStatement]) -> bool:
    """``while percentage != 100:`` with ``percentage`` read from each answer: the loop waits
    for a value the server reports to reach one it names, a poll (a counter it increments,
    ``while tries != 3``, is no such value)."""
    test = loop.test if isinstance(loop, cst.While) else None
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name)):
        return False
    comparison = test.comparisons[0]
    return (
        isinstance(comparison.operator, (cst.Equal, cst.NotEqual))
        and isinstance(comparison.comparator, (cst.Integer, cst.Float, cst.SimpleString))
        and test.left.value in assigned_names(body) and test.left.value not in counter_names(body)
    )


def _failures_raised_before(body: Sequence[cst.BaseStatement], node: cst.If) -> bool:
    """Whether the loop body, before the test ``node``, calls ``raise_for_status()`` as a
    statement of its own, outside any ``try``: every failed status has left the loop there."""
    for statement in body:
        if statement is node or any(n is node for n in iter_nodes(statement)):
            return False
        if isinstance(statement, cst.SimpleStatementLine) and any(raises_for_status(small) for small in statement.body):
            return True
    return False


def _waits_on_success(stmts: Sequence[cst.BaseStatement]) -> bool:
    """An ``elif`` chain that goes round only on a success status saying the answer is not
    ready (``elif r.status_code == 204: sleep(...)``), every other status leaving
    (``else: r.raise_for_status()``): a poll of a job, not a retry of a failure."""
    if len(stmts) != 1 or not isinstance(stmts[0], cst.If):
        return False
    current: Union[cst.If, cst.Else, None] = stmts[0]
    waits = False
    while isinstance(current, cst.If):
        found = status_membership(current.test)
        if found is not None and found[1] and all(200 <= code < 300 for code in found[0]) and not leaves(block(current.body)):
            waits = True
        elif not _leaves_on_failure(block(current.body)):
            return False
        current = current.orelse
    return waits and current is not None and _leaves_on_failure(block(current.body))


def _leaves_on_failure(stmts: Sequence[cst.BaseStatement]) -> bool:
    """The block leaves the loop, or raises for the failed status it is left with
    (``r.raise_for_status()`` as its last statement)."""
    if leaves(stmts):
        return True
    smalls = small_statements(stmts[-1]) if stmts else ()
    return bool(smalls) and raises_for_status(smalls[-1])


def _falls_out(body: Sequence[cst.BaseStatement], node: cst.CSTNode) -> bool:
    """Whether running on past ``node`` always leaves the loop: a statement of the loop body
    after the one that holds it returns, raises or breaks (``if r.ok: return r`` followed, at
    the end of the body, by ``return r.status_code``: a failed status goes no round there)."""
    for index, stmt in enumerate(body):
        if any(inner is node for inner in iter_nodes(stmt)):
            return leaves(body[index + 1 :])
    return False
