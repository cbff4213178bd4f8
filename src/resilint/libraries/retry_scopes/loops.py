"""Retry loops: a ``for`` over a library's retrying iterator, and hand-written ``for``/``while``
loops whose body catches a failure, or checks a response status, and goes round again."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.delays import loop_wait
from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    ON_SPECIFIC,
    ON_STATUS,
    UNKNOWN,
    Policy,
    RetryScope,
    Setting,
)
from resilint.libraries.retry_scopes.names import (
    CLOCKS,
    NOT_FAILURES,
    PURE_FUNCTIONS,
    RANDOM_MODULES,
    SLEEPS,
)
from resilint.libraries.retry_scopes.statements import (
    assigned_names,
    block,
    branch,
    conditional_exit,
    counter_names,
    has_continue,
    has_exit,
    is_counting,
    leaves,
    small_statements,
    walk_statements,
)
from resilint.lint.nodes import (
    code_of,
    dotted_name,
    expression_nodes,
    is_none,
    is_true,
    number_of,
)
from resilint.lint.semantic import CallSite, Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

_BOUND_WORDS = re.compile(r"deadline|timeout|elapsed|expir|until|start|attempt|retr|tries|tried|count|budget|max_|limit|remaining|time|_left|^n$|^i$", re.I)


def find_loops(rec: Recogniser) -> None:
    loops: Dict[int, Tuple[cst.CSTNode, CallSite]] = {}
    direct: Dict[int, List[CallSite]] = {}
    for call in rec.model.calls:
        innermost = None
        for node in reversed(call.stack):
            if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                break
            if isinstance(node, (cst.For, cst.While)):
                if innermost is None:
                    innermost = node
                if id(node) not in loops:
                    loops[id(node)] = (node, call)
        if innermost is not None:
            direct.setdefault(id(innermost), []).append(call)
    for key, (loop, sample) in loops.items():
        if isinstance(loop, cst.For) and _library_loop(rec, loop, sample):
            continue
        policy = _handwritten(rec, loop, sample, direct.get(key, []))
        if policy is not None:
            rec.scopes.append(RetryScope(rec.add(policy), "loop", loop, loop, sample.scope.enclosing_function))


def _library_loop(rec: Recogniser, loop: cst.For, sample: CallSite) -> bool:
    iterator = loop.iter
    if isinstance(iterator, (cst.Name, cst.Attribute)):
        iterator = rec.follow(iterator, sample.scope, sample.order)
    policy = rec.by_node.get(id(iterator)) if isinstance(iterator, cst.Call) else None
    if policy is None:
        return False
    rec.scopes.append(RetryScope(policy, "iterator", loop, loop, sample.scope.enclosing_function))
    return True


def _handwritten(rec: Recogniser, loop: cst.CSTNode, sample: CallSite, calls: List[CallSite]) -> Optional[Policy]:
    assert isinstance(loop, (cst.For, cst.While))
    body = block(loop.body)
    scope, order = sample.scope, sample.order
    counted = isinstance(loop, cst.While) or is_counting(rec, loop, scope, order)
    if isinstance(loop, cst.For) and counted:
        # ``for page in range(...)`` fetching page after page repeats nothing; ``for i in
        # range(len(hosts))`` using ``hosts[i]`` walks a collection like ``for host in hosts``.
        feeds = _target_feeds(rec, loop, body, calls)
        if feeds == "value":
            return None
        counted = feeds is None
    sleeps = [c for c in calls if rec.name(c) in SLEEPS]
    if not counted and not sleeps:
        return None  # a failover loop: next host, no pause
    if _takes_new_work(rec, body, calls):
        return None  # a worker: each pass fetches new work, the failed one is not repeated
    flags = _while_flags(loop)
    handlers: List[cst.ExceptHandler] = []
    for node in walk_statements(body):
        if not isinstance(node, (cst.Try, cst.TryStar)):
            continue
        going_round = [h for h in node.handlers if not leaves(block(h.body)) and _is_failure(rec, h, scope, order)]
        if not going_round:
            continue
        try_body = block(node.body)
        success = (
            has_exit(try_body)
            or (node.orelse is not None and has_exit(block(node.orelse.body)))
            # ``except X: sleep(); continue`` then an unconditional ``break``/``return``
            or (any(has_continue(block(h.body)) for h in going_round) and leaves(body))
            or bool(flags & assigned_names(try_body))
        )
        if not success or not _calls_out(rec, node, calls):
            continue
        handlers.extend(going_round)
    status_ifs = [] if handlers else _status_ifs(rec, body, flags | _condition_names(loop, body), scope, order)
    if not handlers and not status_ifs:
        return None
    policy = Policy("loop", "loop", loop, scope=scope, order=order)
    if handlers:
        kinds = [handler_kind(rec, h, scope, order) for h in handlers]
        policy.handlers = tuple(h for h, k in zip(handlers, kinds) if k == ON_ANY)
        if policy.handlers:
            policy.retry_on = Setting(ON_ANY, policy.handlers[0], "")
        else:
            policy.retry_on = Setting(UNKNOWN if UNKNOWN in kinds else ON_SPECIFIC)
    else:
        policy.retry_on = Setting(ON_STATUS, status_ifs[0])
    _loop_limit(rec, policy, loop, body, scope, order)
    loop_wait(rec, policy, sleeps, calls, scope)
    return policy


def _target_names(target: cst.BaseExpression) -> Set[str]:
    if isinstance(target, cst.Name):
        return set() if target.value == "_" else {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        names: Set[str] = set()
        for element in target.elements:
            names |= _target_names(element.value)
        return names
    return set()


def _tainted(body: Sequence[cst.BaseStatement], seeds: Set[str]) -> Set[str]:
    """``seeds`` and the plain names assigned, in the loop body, from an expression using them."""
    tainted = set(seeds)
    changed = True
    while changed:
        changed = False
        for node in walk_statements(body):
            if isinstance(node, cst.Assign):
                targets = [t.target for t in node.targets]
            elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
                targets = [node.target]
            else:
                continue
            if node.value is None or not _uses(node.value, tainted):
                continue
            for target in targets:
                for name in _target_names(target) - tainted:
                    tainted.add(name)
                    changed = True
    return tainted


def _uses(expr: cst.CSTNode, names: Set[str]) -> bool:
    return any(isinstance(n, cst.Name) and n.value in names for n in expression_nodes(expr))


def _operation_calls(rec: Recogniser, body: Sequence[cst.BaseStatement], calls: List[CallSite]) -> List[CallSite]:
    """Calls in the loop that may be the operation being retried: not a sleep, log line, builtin or
    random draw, nor inside one of those or an ``except`` handler."""
    handlers = {id(n) for n in walk_statements(body) if isinstance(n, cst.ExceptHandler)}
    helpers = set()
    for call in calls:
        name = rec.name(call) or ""
        if (name in SLEEPS or name in PURE_FUNCTIONS or name.startswith("builtins.") or name.startswith(RANDOM_MODULES)
                or _is_logging(call.node)):
            helpers.add(id(call.node))
    found = []
    for call in calls:
        if id(call.node) in helpers:
            continue
        if any(id(n) in handlers or id(n) in helpers for n in call.stack):
            continue
        found.append(call)
    return found


def _call_inputs(call: cst.Call) -> List[cst.BaseExpression]:
    """What a call works on: its arguments (a ``timeout=`` aside) and its receiver."""
    inputs: List[cst.BaseExpression] = [
        a.value for a in call.args if not (a.keyword is not None and a.keyword.value in ("timeout", "delay"))
    ]
    func = call.func
    if isinstance(func, cst.Attribute):
        inputs.append(func.value)
    return inputs


def _target_feeds(
    rec: Recogniser, loop: cst.For, body: Sequence[cst.BaseStatement], calls: List[CallSite]
) -> Optional[str]:
    """How the target of a counting ``for`` reaches the operation: None when it does not (an
    attempt counter, used to count, wait or log), "index" when only as ``items[i]``, else "value"."""
    tainted = _tainted(body, _target_names(loop.target))
    if not tainted:
        return None
    verdict = None
    for call in _operation_calls(rec, body, calls):
        for expr in _call_inputs(call.node):
            use = _use_of(expr, tainted)
            if use == "value":
                return "value"
            verdict = use or verdict
    return verdict


def _use_of(expr: cst.CSTNode, names: Set[str], in_index: bool = False) -> Optional[str]:
    if isinstance(expr, cst.Lambda):
        return None
    if isinstance(expr, cst.Name):
        return ("index" if in_index else "value") if expr.value in names else None
    verdict = None
    if isinstance(expr, cst.Subscript):
        verdict = _use_of(expr.value, names, in_index)
        if verdict == "value":
            return verdict
        for element in expr.slice:
            verdict = _use_of(element, names, True) or verdict
        return verdict
    for child in expr.children:
        use = _use_of(child, names, in_index)
        if use == "value":
            return use
        verdict = use or verdict
    return verdict


def _takes_new_work(rec: Recogniser, body: Sequence[cst.BaseStatement], calls: List[CallSite]) -> bool:
    """A loop that takes new work each pass and stops on a sentinel: ``job = q.get()``, ``if job
    is None: break``, then ``post(json=job)``. The break is the end of the work, not a success,
    and a failed job is never tried again."""
    operations = _operation_calls(rec, body, calls)
    operation_ids = {id(c.node) for c in operations}
    sources: Set[str] = set()
    for node in walk_statements(body):
        if isinstance(node, cst.Assign) and any(
            isinstance(n, cst.Call) and id(n) in operation_ids for n in expression_nodes(node.value)
        ):
            for target in node.targets:
                sources |= _target_names(target.target)
    if not sources:
        return False
    position = _call_positions(body)
    for index, node in enumerate(walk_statements(body)):
        if not isinstance(node, cst.If) or not _ends_pass(block(node.body)):
            continue
        sentinels = _no_work_test(node.test) & sources
        if not sentinels:
            continue
        fed = _tainted(body, sentinels)
        for call in operations:
            if position.get(id(call.node), -1) > index and any(_uses(a.value, fed) for a in call.node.args):
                return True
    return False


def _call_positions(body: Sequence[cst.BaseStatement]) -> Dict[int, int]:
    """Each call's place in the loop body, in the order of ``walk_statements``."""
    position: Dict[int, int] = {}
    for index, node in enumerate(walk_statements(body)):
        if isinstance(node, cst.BaseSmallStatement):
            parts: Iterable[cst.CSTNode] = [node]
        elif isinstance(node, (cst.If, cst.While)):
            parts = [node.test]
        elif isinstance(node, cst.With):
            parts = [item.item for item in node.items]
        else:
            continue
        for part in parts:
            for sub in expression_nodes(part):
                if isinstance(sub, cst.Call):
                    position.setdefault(id(sub), index)
    return position


def _no_work_test(test: cst.BaseExpression) -> Set[str]:
    """The name a test finds empty or at its end: ``not job``, ``job is None``, ``job == STOP``."""
    if (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
            and isinstance(test.expression, cst.Name)):
        return {test.expression.value}
    if (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name)
            and isinstance(test.comparisons[0].operator, (cst.Is, cst.Equal))):
        return {test.left.value}
    return set()


def _ends_pass(stmts: Sequence[cst.BaseStatement]) -> bool:
    """A block that leaves the loop or skips the pass without failing (no ``raise``)."""
    smalls = [s for stmt in stmts for s in small_statements(stmt)]
    return bool(smalls) and any(isinstance(s, (cst.Break, cst.Return, cst.Continue)) for s in smalls) and not any(
        isinstance(s, cst.Raise) for s in smalls
    )


def _while_flags(loop: cst.CSTNode) -> Set[str]:
    """Names a ``while`` condition waits for (``while not done``, ``while result is None``)."""
    if not isinstance(loop, cst.While):
        return set()
    test = loop.test
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    elif isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and is_none(test.comparisons[0].comparator):
        test = test.left
    else:
        return set()
    text = dotted_name(test)
    return {text} if text else set()


def _condition_names(loop: cst.CSTNode, body: Sequence[cst.BaseStatement]) -> Set[str]:
    """Names in a ``while`` condition that the body assigns (``while url: ... url = page["next"]``):
    the loop is left through its condition."""
    if not isinstance(loop, cst.While):
        return set()
    names = {dotted_name(n) for n in expression_nodes(loop.test) if isinstance(n, (cst.Name, cst.Attribute))}
    return {n for n in names if n} & assigned_names(body)


def _is_failure(rec: Recogniser, handler: cst.ExceptHandler, scope: Scope, order: int) -> bool:
    if handler.type is None:
        return True
    types = handler.type
    elements = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else [types]
    names = [rec.expr_name(e, scope, order) for e in elements]
    return not all(n in NOT_FAILURES for n in names)


def handler_kind(rec: Recogniser, handler: cst.ExceptHandler, scope: Scope, order: int) -> str:
    kind = ON_ANY if handler.type is None else rec.exception_kind(handler.type, scope, order)
    if kind == ON_ANY and _classifies(rec, handler):
        return UNKNOWN
    return kind


def _classifies(rec: Recogniser, handler: cst.ExceptHandler) -> bool:
    """A catch-all handler that decides what to retry itself: it hands the exception to a
    predicate (``if not should_retry(exc): raise``, ``helper(exc, ...)``) or leaves on a
    condition that is not an attempt counter."""
    name = handler.name.name.value if handler.name is not None and isinstance(handler.name.name, cst.Name) else None
    body = block(handler.body)
    counters = counter_names(body)
    for node in walk_statements(body):
        if isinstance(node, cst.If) and conditional_exit(node):
            if not _mentions_bound(rec, node.test, counters, None, 0, names_only=True):
                return True
        if name is None:
            continue
        for part in expression_nodes(node) if isinstance(node, (cst.Expr, cst.Assign, cst.If, cst.Return, cst.Raise)) else ():
            if isinstance(part, cst.Call) and not _is_logging(part):
                for arg in part.args:
                    if isinstance(arg.value, cst.Name) and arg.value.value == name:
                        return True
        if isinstance(node, cst.For) and any(isinstance(p, cst.Name) and p.value == name for p in expression_nodes(node)):
            return True
    return False


def _calls_out(rec: Recogniser, node: cst.CSTNode, calls: List[CallSite]) -> bool:
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


def _status_ifs(rec: Recogniser, body: Sequence[cst.BaseStatement], flags: Set[str], scope: Scope, order: int) -> List[cst.If]:
    found = []
    loop_exits = has_exit(body) or bool(flags & assigned_names(body))
    for node in walk_statements(body):
        if not isinstance(node, cst.If):
            continue
        polarity = _status_polarity(node.test)
        if polarity is None:
            continue
        good, bad = (node.body, node.orelse) if polarity == "good" else (node.orelse, node.body)
        good_stmts, bad_stmts = branch(good), branch(bad)
        bad_goes_round = has_continue(bad_stmts) or not leaves(bad_stmts)
        if not bad_goes_round:
            continue
        good_leaves = bool(good_stmts) and (has_exit(good_stmts) or bool(flags & assigned_names(good_stmts)))
        if good_leaves or (has_continue(bad_stmts) and loop_exits):
            found.append(node)
    return found


def _status_polarity(test: cst.BaseExpression) -> Optional[str]:
    """"good" when the test is true for a successful HTTP status, "bad" for a failed one."""
    negate = False
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        negate = not negate
        test = test.expression
    polarity = None
    if isinstance(test, cst.Attribute) and test.attr.value == "ok":
        polarity = "good"
    elif isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        left = test.left
        if not (isinstance(left, cst.Attribute) and left.attr.value in ("status_code", "status", "status_int", "code")):
            return None
        target = test.comparisons[0]
        codes = _status_codes(target.comparator)
        if not codes:
            return None
        operator = target.operator
        good_codes = all(200 <= c < 300 for c in codes)
        if isinstance(operator, (cst.Equal, cst.In)):
            polarity = "good" if good_codes else "bad"
        elif isinstance(operator, (cst.NotEqual, cst.NotIn)):
            polarity = "bad" if good_codes else "good"
        elif isinstance(operator, (cst.GreaterThanEqual, cst.GreaterThan)) and codes[0] >= 300:
            polarity = "bad"
        elif isinstance(operator, (cst.LessThan, cst.LessThanEqual)) and codes[0] >= 300:
            polarity = "good"
        else:
            return None
        if polarity == "good" and not good_codes and isinstance(operator, (cst.Equal, cst.In)):
            polarity = "bad"
    else:
        return None
    if negate:
        polarity = "bad" if polarity == "good" else "good"
    return polarity


def _status_codes(node: cst.BaseExpression) -> List[int]:
    values: List[int] = []
    elements: Iterable[cst.BaseExpression]
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        elements = [e.value for e in node.elements]
    else:
        elements = [node]
    for element in elements:
        number = number_of(element)
        if isinstance(number, int) and 100 <= number < 600:
            values.append(number)
        else:
            return []
    return values


def _loop_limit(rec: Recogniser, policy: Policy, loop: cst.CSTNode, body: Sequence[cst.BaseStatement], scope: Scope, order: int) -> None:
    if isinstance(loop, cst.For):
        iterator = loop.iter
        name = rec.expr_name(iterator.func, scope, order) if isinstance(iterator, cst.Call) else None
        if name == "builtins.enumerate" and isinstance(iterator, cst.Call):
            iterator = iterator.args[0].value
            name = rec.expr_name(iterator.func, scope, order) if isinstance(iterator, cst.Call) else None
        if name == "builtins.range" and isinstance(iterator, cst.Call):
            numbers = [number_of(a.value) for a in iterator.args]
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
            policy.max_attempts, policy.time_limit = UNKNOWN, UNKNOWN
            policy.attempts = Setting("bounded")  # a finite collection, as far as we know
            return
    elif not (is_true(loop.test) or _while_flags(loop)):
        policy.max_attempts, policy.time_limit = UNKNOWN, UNKNOWN
        policy.attempts = Setting("bounded" if _mentions_bound(rec, loop.test, set(), scope, order) else UNKNOWN, loop.test)
        return
    # ``while True`` / ``while not done`` / ``for _ in itertools.count()``: look for a way out.
    counters = counter_names(body)
    verdict = "unbounded"
    for node in walk_statements(body):
        if isinstance(node, cst.If) and conditional_exit(node):
            if _mentions_bound(rec, node.test, counters, scope, order):
                verdict = "bounded"
                break
            if _inside_handler(node, body):
                verdict = UNKNOWN
    if verdict == "unbounded":
        policy.max_attempts, policy.time_limit = None, None
        header = f"while {code_of(loop.test)}" if isinstance(loop, cst.While) else f"for ... in {code_of(loop.iter)}"
        policy.attempts = Setting(
            "unbounded", None,
            f"this `{header}` retry loop has no attempt counter or deadline, so it retries forever",
        )
    else:
        policy.max_attempts, policy.time_limit = UNKNOWN, UNKNOWN
        policy.attempts = Setting(verdict)


def _inside_handler(target: cst.CSTNode, body: Sequence[cst.BaseStatement]) -> bool:
    for node in walk_statements(body):
        if isinstance(node, cst.ExceptHandler):
            if any(n is target for n in walk_statements(block(node.body))):
                return True
    return False


def _mentions_bound(rec: Recogniser, test: cst.BaseExpression, counters: Set[str], scope: Optional[Scope], order: int,
                    names_only: bool = False) -> bool:
    for node in expression_nodes(test):
        if isinstance(node, (cst.Name, cst.Attribute)):
            text = dotted_name(node)
            if text is None:
                continue
            if text in counters or _BOUND_WORDS.search(text.rsplit(".", 1)[-1]):
                return True
        if isinstance(node, cst.Call) and scope is not None:
            name = rec.expr_name(node.func, scope, order)
            if name in CLOCKS or (name or "").endswith(".time"):
                return True
    return False


_LOGGING_METHODS = frozenset({
    "debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print", "append",
    "add", "extend", "format", "str", "repr", "type", "isinstance", "print_exc", "format_exc",
    "retry",  # celery's self.retry(exc=exc) re-raises for a retry: it decides nothing
})


def _is_logging(call: cst.Call) -> bool:
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    return name in _LOGGING_METHODS
