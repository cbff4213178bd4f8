"""Loops whose passes do different work, so that going round again repeats nothing: pages or
items fed by the loop target, a worker taking new jobs until a sentinel, a prompt asking for
new input. Their failures are skipped or answered with new input, not retried."""

from __future__ import annotations

import re

from typing import TYPE_CHECKING, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.local_work import called_definition, calls_within, local_call
from resilint.libraries.retry_scopes.names import (
    POPS,
    PURE_FUNCTIONS,
    RANDOM_MODULES,
    REFILLS,
    SLEEPS,
    USER_INPUT,
    USER_INPUT_WORD,
)
from resilint.libraries.retry_scopes.statements import block, small_statements, walk_statements
from resilint.lint.nodes import dotted_name, expression_nodes, is_none, number_of
from resilint.lint.semantic import CallSite, FunctionInfo, Scope, argument_for
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

def target_names(target: cst.BaseExpression) -> Set[str]:
    if isinstance(target, cst.Name):
        return set() if target.value == "_" else {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        names: Set[str] = set()
        for element in target.elements:
            names |= target_names(element.value)
        return names
    return set()


def works_off_items(rec: "Recogniser", body: Sequence[cst.BaseStatement], calls: List[CallSite]) -> bool:
    """Each pass takes an item off a queue or a list and works on it, and nothing puts one back
    there: ``peer = await queue.get()``, ``queue.get_nowait()``, ``job = pending.pop(0)``,
    ``pending.remove(info)``, then a call given the item (a worker: what fails is logged and
    dropped, the next pass works on the next item). A connection taken from a pool and sent
    through (``conn = pool.get(); conn.send(request)``) is no work: the same request goes again."""
    inside = {id(node) for stmt in body for node in iter_nodes(stmt)}
    within = [site for site in calls if id(site.node) in inside]
    taken: List[Tuple[str, CallSite, Set[str]]] = []
    refilled: Set[str] = set()
    for site in within:
        func = site.node.func
        if not isinstance(func, cst.Attribute):
            continue
        owner, method = dotted_name(func.value), func.attr.value
        name = rec.name(site) or ""
        parts = name.split(".")
        positional = [a for a in site.node.args if a.keyword is None]
        if owner is None or (name and parts[0] != "builtins" and not (len(parts) > 1 and parts[-2].endswith("Queue"))):
            continue  # (``os.remove(path)``, a library's own ``pop``)
        if method in REFILLS:
            refilled.add(owner)
        elif method == "remove" and len(positional) == 1:
            taken.append((owner, site, {n.value for n in expression_nodes(positional[0].value) if isinstance(n, cst.Name)}))
        elif (method in ("get", "get_nowait") and not positional) or (
            method in POPS and (not positional or number_of(positional[0].value) is not None)
        ):
            taken.append((owner, site, _assigned_from(body, site.node)))
    for owner, site, seeds in taken:
        fed = _tainted(body, seeds) if seeds and owner not in refilled else set()
        if fed and any(other is not site and any(_uses(arg.value, fed) for arg in other.node.args) for other in within):
            return True
    return False


def _assigned_from(body: Sequence[cst.BaseStatement], call: cst.Call) -> Set[str]:
    """The names the loop body assigns what ``call`` returns to (``a, b = await q.get()``)."""
    return {
        name for node in walk_statements(body) if isinstance(node, cst.Assign)
        and any(inner is call for inner in expression_nodes(node.value))
        for target in node.targets for name in target_names(target.target)
    }


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
                for name in target_names(target) - tainted:
                    tainted.add(name)
                    changed = True
    return tainted


def _uses(expr: cst.CSTNode, names: Set[str]) -> bool:
    """Whether ``expr`` reads one of ``names``, other than as the attempt's number (or a timeout)
    handed to a call by keyword (``build_request(url, retries_taken=n)`` builds the same request)."""
    skipped = {
        id(inner) for node in expression_nodes(expr) if isinstance(node, cst.Arg) and node.keyword is not None
        for inner in (node.keyword, *(expression_nodes(node.value) if _leaves_request_same(node) else ()))
    }
    return any(isinstance(n, cst.Name) and n.value in names and id(n) not in skipped for n in expression_nodes(expr))


def _leaves_request_same(arg: cst.Arg) -> bool:
    return arg.keyword is not None and (arg.keyword.value in ("timeout", "delay") or _names_attempt(arg.keyword.value))


def operation_calls(
    rec: Recogniser, body: Sequence[cst.BaseStatement], calls: List[CallSite], tried: bool = False
) -> List[CallSite]:
    """Calls in the loop that may be the operation being retried: not a sleep, log line, builtin or
    random draw, nor inside one of those or an ``except`` handler. ``tried``: when the body has a
    ``try``, only the calls it protects (a metrics call before it is not what is retried)."""
    statements = list(walk_statements(body))
    handlers = {id(n) for n in statements if isinstance(n, cst.ExceptHandler)}
    tries = {id(n) for n in statements if isinstance(n, (cst.Try, cst.TryStar))} if tried else set()
    # what the ``else:`` (after a success) or ``finally:`` of such a ``try`` does is not tried
    # (``LAUNCH_TIME.labels(retries=i).observe(duration)`` once the launch went through)
    after_try = {
        id(inner) for n in statements if isinstance(n, (cst.Try, cst.TryStar)) and tried
        for part in (n.orelse, n.finalbody) if part is not None for inner in iter_nodes(part)
    }
    helpers = set()
    for call in calls:
        name = rec.name(call) or ""
        if (name in SLEEPS or name in PURE_FUNCTIONS or name.startswith("builtins.") or name.startswith(RANDOM_MODULES)
                or is_logging(call.node)):
            helpers.add(id(call.node))
    found = []
    for call in calls:
        if id(call.node) in helpers:
            continue
        if any(id(n) in handlers or id(n) in helpers for n in call.stack):
            continue
        if tries and (not any(id(n) in tries for n in call.stack) or id(call.node) in after_try):
            continue
        found.append(call)
    return found


def call_inputs(call: cst.Call) -> List[cst.BaseExpression]:
    """What a call works on: its arguments (a ``timeout=`` aside, and the number of the attempt,
    ``attempt=attempt``, which leaves the request the same) and its receiver."""
    inputs: List[cst.BaseExpression] = [a.value for a in call.args if not _leaves_request_same(a)]
    func = call.func
    if isinstance(func, cst.Attribute):
        inputs.append(func.value)
    return inputs


_ATTEMPT_WORDS = frozenset({"attempt", "attempts", "retry", "retries", "tries", "try", "trial"})


def _names_attempt(keyword: str) -> bool:
    """``attempt``, ``retry_count``, ``num_tries``: a keyword that passes the attempt's number."""
    return any(word in _ATTEMPT_WORDS for word in keyword.lower().split("_"))


def target_feeds(
    rec: Recogniser, loop: cst.For, body: Sequence[cst.BaseStatement], calls: List[CallSite]
) -> Optional[str]:
    """How the target of a counting ``for`` reaches the operation: None when it does not (an
    attempt counter, used to count, wait or log), "index" when only as ``items[i]``, else "value"."""
    tainted = _tainted(body, target_names(loop.target))
    if not tainted:
        return None
    verdict = None
    for call in operation_calls(rec, body, calls, tried=True):
        for expr in call_inputs(call.node):
            use = _use_of(expr, tainted)
            if use == "value":
                return "value"
            verdict = use or verdict
    return verdict


def moves_to_next_item(
    rec: Recogniser, handler: cst.ExceptHandler, body: Sequence[cst.BaseStatement], calls: List[CallSite]
) -> bool:
    """A handler that advances the cursor a ``while`` loop walks a collection with (``i += 1;
    continue``, where the loop works on ``rows[i]``): the failed item is skipped, not tried again."""
    advanced: Set[str] = set()
    for node in walk_statements(block(handler.body)):
        if isinstance(node, cst.AugAssign):
            advanced |= target_names(node.target)
        elif isinstance(node, cst.Assign):
            for target in node.targets:
                advanced |= target_names(target.target)
    if not advanced:
        return False
    handled = {id(n) for n in iter_nodes(handler)}
    indexes = any(
        isinstance(n, cst.Subscript) and id(n) not in handled
        and any(_use_of(element, advanced, True) == "index" for element in n.slice)
        for stmt in body for n in iter_nodes(stmt)
    )
    if not indexes:
        return False  # an attempt counter: what the loop works on stays the same
    tainted = _tainted(body, advanced)
    return any(_use_of(expr, tainted) for call in operation_calls(rec, body, calls, tried=True) for expr in call_inputs(call.node))


def hands_new_input(
    rec: Recogniser, handler: cst.ExceptHandler, body: Sequence[cst.BaseStatement], calls: List[CallSite]
) -> bool:
    """A handler that derives anew, from its old value, a name the ``try`` passes whole as an
    argument of the call it tries (``modname, name = modname.rsplit(".", 1)`` for
    ``import_module(modname)``): the next pass makes another call, not the same one again (a
    name set afresh, ``client = None`` to connect again, still sends the same)."""
    assigned: Set[str] = set()
    for node in walk_statements(block(handler.body)):
        if isinstance(node, cst.Assign):
            names = {name for target in node.targets for name in target_names(target.target)}
            assigned |= names & {n.value for n in expression_nodes(node.value) if isinstance(n, cst.Name)}
    if not assigned:
        return False
    return any(
        isinstance(arg.value, cst.Name) and arg.value.value in assigned and not arg.star
        and not (arg.keyword is not None and arg.keyword.value in ("timeout", "delay"))
        for call in operation_calls(rec, body, calls, tried=True) for arg in call.node.args
    )


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


def takes_new_work(rec: Recogniser, body: Sequence[cst.BaseStatement], calls: List[CallSite]) -> bool:
    """A loop that takes new work each pass and stops on a sentinel: ``job = q.get()``, ``if job
    is None: break``, then ``post(json=job)``. The break is the end of the work, not a success,
    and a failed job is never tried again."""
    operations = operation_calls(rec, body, calls)
    operation_ids = {id(c.node) for c in operations}
    # what a ``try`` only takes, and takes again after a pause when that fails, is no next job:
    # the read of a stream (``chunk = await body.read(n)``, ``except ...: await sleep(...)``)
    sleeps = {id(c.node) for c in calls if rec.name(c) in SLEEPS}
    guarded: Dict[int, Set[int]] = {}  # an assignment in a ``try`` → the operations of that ``try``
    for node in walk_statements(body):
        if isinstance(node, (cst.Try, cst.TryStar)) and any(id(n) in sleeps for h in node.handlers for n in iter_nodes(h)):
            inside = list(walk_statements(block(node.body)))
            tried = {id(n) for stmt in inside for n in expression_nodes(stmt) if id(n) in operation_ids}
            guarded.update((id(inner), tried) for inner in inside)
    sources: Set[str] = set()
    # (an item a generator hands out, ``yield item``, is work whatever fetched it: a poller)
    yielded = {n.value for stmt in body for node in iter_nodes(stmt) if isinstance(node, cst.Yield) and node.value is not None
               for n in iter_nodes(node.value) if isinstance(n, cst.Name)}
    for node in walk_statements(body):
        if isinstance(node, cst.Assign) and id(node) in guarded and guarded[id(node)] <= {
            id(n) for n in expression_nodes(node.value)
        } and not any(target_names(target.target) & yielded for target in node.targets):
            continue
        if isinstance(node, cst.Assign) and any(
            isinstance(n, cst.Call) and id(n) in operation_ids for n in expression_nodes(node.value)
        ):
            for target in node.targets:
                sources |= target_names(target.target)
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
        if fed & yielded:
            return True  # handed out to the generator's consumer
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


def asks_again(rec: Recogniser, body: Sequence[cst.BaseStatement], calls: List[CallSite]) -> bool:
    """A loop that asks for new input each pass (``name = prompt("Name?")``): it gives the
    operation a different request after ``AlreadyExists``, or it re-asks after an answer it
    could not read (``int(input(...))``); either way each pass waits for a person, and what
    goes round is the question, not a request the machine repeats."""
    by_node = {id(c.node): c for c in calls}
    asked: Set[str] = set()
    # also in a nested loop that asks until the answer is not empty
    assignments = (
        node for stmt in body for node in iter_nodes(stmt, stop_at=(cst.FunctionDef, cst.ClassDef, cst.Lambda))
        if isinstance(node, (cst.Assign, cst.AnnAssign))
    )
    for node in assignments:
        if node.value is None:
            continue
        if any(isinstance(n, cst.Call) and id(n) in by_node and _asks_user(rec, by_node[id(n)])
               for n in expression_nodes(node.value)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for target in targets:
                # an attribute too: ``self.phone_number = ainput(...)``, asked when a handler cleared it
                asked |= target_names(target) if not isinstance(target, cst.Attribute) else {dotted_name(target) or "."}
    return bool(asked)


def _question(call: cst.Call) -> bool:
    """The call is given a question for a person first: a literal text that ends in ``?``
    (a client is given an address, a query or a payload, not a question)."""
    first = next((arg.value for arg in call.args if arg.keyword is None and not arg.star), None)
    text = first.evaluated_value if isinstance(first, cst.SimpleString) else None
    return isinstance(text, str) and " " in text.strip() and text.rstrip().endswith("?")


def _asks_user(rec: Recogniser, call: CallSite, seen: FrozenSet[int] = frozenset()) -> bool:
    name = rec.name(call) or dotted_name(call.node.func) or ""
    if name in USER_INPUT or USER_INPUT_WORD.search(name.rsplit(".", 1)[-1]):
        return True
    if _question(call.node):
        return True  # ``something("What nick would you like your bot to use?")``: a person answers
    # a wrapper of the file (``def obtain_input(text): return input(text)``, kept to be
    # patched in tests) asks the user when what it returns is an answer and it does nothing else
    function = called_definition(rec, call)
    if not isinstance(function, FunctionInfo):
        return _handed_prompts(rec, call, seen)
    return _only_asks(rec, function, seen)


def _only_asks(rec: Recogniser, function: FunctionInfo, seen: FrozenSet[int]) -> bool:
    """Whether every value ``function`` returns is a person's answer, and it does nothing else."""
    if id(function) in seen or not function.returns:
        return False
    inner = calls_within(rec, function.node)
    by_node = {id(c.node): c for c in inner}
    answers = []
    for returned in function.returns:
        value = rec.follow(returned, function.scope, 1 << 62)
        site = by_node.get(id(value)) if isinstance(value, cst.Call) else None
        if site is None or not _asks_user(rec, site, seen | {id(function)}):
            return False
        answers.append(site)
    asked = {id(site.node) for site in answers}
    return all(id(c.node) in asked or local_call(rec, c) for c in inner)


def _handed_prompts(rec: Recogniser, call: CallSite, seen: FrozenSet[int]) -> bool:
    """A parameter called as a prompt (``value = code_callback()``): every value the file hands
    it, through the calls of its function or as its default, is a function that asks a person
    (``lambda: input("Phone: ")``, a ``def`` returning ``input(...)``), also handed on from a
    parameter of the caller (Telethon's ``start`` handing its ``code_callback`` to ``_start``);
    what the file cannot see (the application's own callback) does not decide."""
    func = call.node.func
    return isinstance(func, cst.Name) and _prompts_in(rec, func, call.scope, call.order, seen, 0) is True


def _prompts_in(
    rec: Recogniser, name: cst.Name, scope: Scope, order: int, seen: FrozenSet[int], depth: int,
) -> Optional[bool]:
    """Whether the callables ``name`` may hold there ask a person: True when some do and every
    one the file shows does, False when one does not, None when the file shows none."""
    found: List[bool] = []
    for binding in rec.model.reaching(name.value, scope, order):
        if binding.defined is not None:
            found.append(isinstance(binding.defined, FunctionInfo) and _only_asks(rec, binding.defined, seen))
        elif binding.parameter is not None:
            handed = _handed_to(rec, binding.parameter.function, name.value, seen, depth)
            if handed is not None:
                found.append(handed)
        else:
            return False
    return all(found) if found else None


def _handed_to(rec: Recogniser, function: FunctionInfo, parameter: str, seen: FrozenSet[int], depth: int) -> Optional[bool]:
    """Whether what the file hands ``function``'s ``parameter`` (by its calls, or its default)
    asks a person (None: it hands nothing the file can read as a callable)."""
    values = [(argument_for(site.node, function, parameter), site.scope, site.order) for site in rec.model.calls_of(function)]
    default = function.default_of(parameter)
    if default is not None:
        values.append((default, function.scope.parent or function.scope, 1 << 62))
    found: List[bool] = []
    for value, scope, order in values:
        if value is None or is_none(value):
            continue  # not handed there, or ``None`` (replaced before the call, or not called)
        if isinstance(value, cst.Lambda):
            sites = [c for c in calls_within(rec, value) if c.node is value.body]
            found.append(bool(sites) and id(value) not in seen and _asks_user(rec, sites[0], seen | {id(value)}))
        elif isinstance(value, cst.Name) and depth < 2:
            handed = _prompts_in(rec, value, scope, order, seen, depth + 1)
            if handed is not None:
                found.append(handed)
        else:
            return False
    return all(found) if found else None


_LOGGING_METHODS = frozenset({
    "debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print", "append",
    "add", "extend", "format", "str", "repr", "type", "isinstance", "print_exc", "format_exc",
    "retry",  # celery's self.retry(exc=exc) re-raises for a retry: it decides nothing
    # the error as text for a message (six, Django's encoding helpers), or a message printed
    "text_type", "ensure_str", "ensure_text", "force_str", "force_text", "smart_str", "smart_text",
    "format_exception", "echo", "secho",
    # error trackers send the error and return (``sentry_sdk.capture_exception(exc)``, raven's
    # ``client.captureException()``): they decide nothing either
    "capture_exception", "captureException",
})


def is_logging(call: cst.Call) -> bool:
    return logs(call.func)


def logs(callee: cst.BaseExpression) -> bool:
    """Whether the callable ``callee`` names (``print``, ``logger.warning``, a plugin base
    class's ``self.log_debug``) prints, logs or formats what it is given."""
    name = callee.attr.value if isinstance(callee, cst.Attribute) else callee.value if isinstance(callee, cst.Name) else ""
    return name in _LOGGING_METHODS or _LEVEL_METHOD.fullmatch(name) is not None


# A logging method named after its level (``log_debug``, ``logWarning``), as frameworks give
# their plugins on a base class of another module
_LEVEL_METHOD = re.compile(r"_?log_?(debug|info|warning|warn|error|critical)", re.IGNORECASE)
