"""How long a retry waits: the kind of a sleep argument or countdown (fixed, exponential,
jittered), and the wait of a hand-written retry loop."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from resilint.libraries.retry_scopes.model import (
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_JITTERED,
    WAIT_NONE,
    Policy,
    Setting,
)
from resilint.libraries.retry_scopes.names import (
    JITTERED_HELPERS,
    LIBRARY_SLEEPERS,
    PAUSE_WORD,
    PURE_FUNCTIONS,
    RANDOM_MODULES,
)
from resilint.libraries.retry_scopes.reaching import reaching_definitions
from resilint.libraries.retry_scopes.sleepers import slept_argument
from resilint.libraries.retry_scopes.statements import block, counter_names, growing_names, is_counting, named_classes
from resilint.lint.nodes import (
    call_argument,
    code_of,
    dotted_name,
    expression_nodes,
    is_none,
    kwargs_name,
    number_of,
    parameter_names,
    string_of,
)
from resilint.lint.semantic import Binding, CallSite, ClassInfo, FunctionInfo, QName, Scope, argument_for
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

_JITTER_WORD = re.compile(r"jitter|random|rand_|uniform", re.I)
# A function named for a number of attempts (``get_query_retry_limit()``, ``max_retries()``).
_COUNT_WORD = re.compile(r"retr(?:y|ies)_?(?:limit|count)|max_?(?:retries|attempts|tries)|(?:attempt|retry|tries)_?count", re.I)


def loop_wait(rec: Recogniser, policy: Policy, sleeps: List[CallSite], calls: List[CallSite], scope: Scope) -> None:
    loop = policy.node
    rec.growing = growing_names(block(loop.body)) if isinstance(loop, (cst.For, cst.While)) else set()
    if not sleeps:
        hidden = [
            c for c in calls
            if PAUSE_WORD.search(rec.name(c) or dotted_name(c.node.func) or "")
        ]
        if hidden:
            policy.wait = _slept_elsewhere(rec, hidden, loop) or Setting(UNKNOWN, None, "")
        else:
            policy.wait = Setting(WAIT_NONE, None, "retries immediately, with no pause")
        return
    results = []
    servers = []
    for call in sleeps:
        argument = _sleep_argument(rec, call)
        if argument is None:
            results.append((WAIT_NONE, "", call, None, False))
            continue
        rec.delay_via = None
        kind, detail = delay_kind(rec, argument.value, call.scope, call.order, policy.node, site=call)
        if rec.server_delay:
            servers.append((kind, detail, call, None, False))
        else:
            results.append((kind, detail, call, rec.delay_via, rec.server_fallback))
    # a pause that is the server's Retry-After leaves the loop's other pauses to be judged
    results = results or servers
    # pauses on branches of their own (``if code == 429: sleep(helper(tries)) else:
    # sleep(tries)``) are each a path's whole wait: one without jitter is judged as it is
    others = [r for r in results if r[0] in (WAIT_JITTERED, UNKNOWN)]
    apart = [r for r in results if r[0] in (WAIT_FIXED, WAIT_EXPONENTIAL) and all(_exclusive(r[2], o[2]) for o in others)]
    if others and apart:
        results = apart
    kinds = [r[0] for r in results]
    if WAIT_JITTERED in kinds:
        chosen = results[kinds.index(WAIT_JITTERED)]
    elif UNKNOWN in kinds:
        chosen = results[kinds.index(UNKNOWN)]
    elif WAIT_EXPONENTIAL in kinds:
        chosen = results[kinds.index(WAIT_EXPONENTIAL)]
    else:
        chosen = results[0]
    policy.wait = _judged_pause(rec, chosen, loop)
    if chosen[0] in (WAIT_FIXED, WAIT_EXPONENTIAL):
        # a pause without a random term on a failure path of its own (another ``except``
        # handler, another branch) is that path's wait, to fix as well
        paths = [chosen]
        for result in results:
            if result[0] in (WAIT_FIXED, WAIT_EXPONENTIAL) and all(_exclusive(result[2], other[2]) for other in paths):
                paths.append(result)
        policy.more_waits = tuple(_judged_pause(rec, result, loop) for result in paths[1:])


def _judged_pause(rec: Recogniser, result: Tuple[str, str, CallSite, Optional[str], bool], loop: cst.CSTNode) -> Setting:
    """The wait of one pause of a loop: (kind, the delay's text, the sleep, the other module's
    function the delay depends on, whether it is the code's own where the server sent none)."""
    kind, detail, call, via, fallback = result
    name = (rec.name(call) if rec.slept(call) is None else code_of(call.node.func)) or "sleep"
    before = LIBRARY_SLEEPERS.get(rec.name(call) or "", (0, ""))[0]
    if detail and before:  # ``deferLater(reactor, 5)``: what it is given before the delay too
        detail = ", ".join([*(code_of(arg.value) for arg in call.node.args[:before]), detail])
    text = described(rec, name, detail, kind, _sleep_argument(rec, call), call, loop, fallback)
    return Setting(kind, call.node, text, via=via if kind == UNKNOWN else None)


def _exclusive(one: CallSite, other: CallSite) -> bool:
    """Whether the two calls are on different branches of an ``if`` (its body, its ``else``)
    or in different ``except`` handlers of one ``try``: no pass makes both."""
    for statement in reversed(one.stack):
        if isinstance(statement, cst.If) and any(node is statement for node in other.stack):
            inside = [any(node is call.node for node in iter_nodes(statement.body)) for call in (one, other)]
            if inside[0] != inside[1]:
                return True
        if isinstance(statement, (cst.Try, cst.TryStar)) and any(node is statement for node in other.stack):
            handlers = [next((h for h in statement.handlers if any(n is h for n in call.stack)), None) for call in (one, other)]
            if None not in handlers and handlers[0] is not handlers[1]:
                return True
            # one in a handler, the other the ``try``'s last call: a failure raised before it
            # goes to the handler, and nothing after it can
            tried = one if handlers[0] is None else other
            if handlers.count(None) == 1 and (_last_call_of(statement.body, tried.node) or _leaves_after(tried)):
                return True
    # a handler's pause followed by ``continue``, and one after its ``try``: a pass that takes
    # the handler goes round before it gets there
    first, later = (one, other) if one.order < other.order else (other, one)
    if any(
        isinstance(statement, (cst.Try, cst.TryStar)) and not any(node is statement for node in later.stack)
        and any(isinstance(node, cst.ExceptHandler) for node in first.stack[index:]) and _leaves_after(first)
        for index, statement in enumerate(first.stack)
    ):
        return True
    # ``if busy: sleep(a); continue`` then ``if transient: sleep(b); continue``: a pass that
    # pauses on the first goes round the loop both are in before it gets to the second
    loops = [[node for node in call.stack if isinstance(node, (cst.For, cst.While))] for call in (first, later)]
    return (bool(loops[0]) and bool(loops[1]) and loops[0][-1] is loops[1][-1] and _leaves_after(first)
            and not _in_handler_of(later, first))


def _in_handler_of(call: CallSite, tried: CallSite) -> bool:
    """Whether ``call`` is in a handler of a ``try`` whose body holds ``tried``."""
    return any(
        isinstance(node, (cst.Try, cst.TryStar)) and any(inner is node for inner in tried.stack)
        and any(isinstance(later, cst.ExceptHandler) for later in call.stack[index:])
        for index, node in enumerate(call.stack)
    )


def _leaves_after(call: CallSite) -> bool:
    """Whether the statement after the one that makes ``call``, in the innermost block around
    it, leaves it (``await asyncio.sleep(delay); continue``): nothing after it in the ``try``
    runs on that pass."""
    owner = next((node for node in reversed(call.stack) if hasattr(node, "body")), None)
    suites = [getattr(owner, "body", None), getattr(getattr(owner, "orelse", None), "body", None)]
    for suite in suites:
        statements = list(suite.body) if isinstance(suite, cst.IndentedBlock) else []
        for index, statement in enumerate(statements[:-1]):
            if any(node is call.node for node in iter_nodes(statement)):
                following = statements[index + 1]
                return isinstance(following, cst.SimpleStatementLine) and isinstance(
                    following.body[0], (cst.Continue, cst.Break, cst.Return, cst.Raise)
                )
    return False


def _last_call_of(body: cst.CSTNode, call: cst.Call) -> bool:
    """Whether ``call`` is in ``body`` and no call of ``body`` runs after it."""
    inside = {id(n) for n in iter_nodes(call)}
    calls = [n for n in iter_nodes(body) if isinstance(n, cst.Call) and (n is call or id(n) not in inside)]
    return bool(calls) and calls[-1] is call


def _sleep_argument(rec: Recogniser, call: CallSite) -> Optional[cst.Arg]:
    slept = rec.slept(call)
    if slept is not None:
        return slept_argument(call.node, slept)
    return call_argument(call.node, "seconds", 0) or call_argument(call.node, "delay", 0)


def described(
    rec: Recogniser, name: str, detail: str, kind: str, argument: Optional[cst.Arg], call: CallSite, loop: cst.CSTNode,
    server_fallback: bool = False, counters: Optional[Set[str]] = None,
) -> str:
    """How the loop (or the function that calls itself again) waits, for messages:
    ``time.sleep(delay)`` and how that delay grows. ``counters``: the attempt counters of a
    retry that is no loop (a recursion's counted parameters)."""
    text = f"`{name}({detail})`" if detail else f"`{name}`"
    if kind in (WAIT_EXPONENTIAL, WAIT_FIXED):
        if counters is None:
            counters = _counters(loop) if isinstance(loop, (cst.For, cst.While)) else set()
        value = argument.value if argument is not None else None
        if isinstance(value, cst.Name) and value.value not in counters | rec.growing:
            # ``delay = 60 * retries; sleep(delay)``; not a name the loop itself adds to or
            # multiplies (``sleep(interval); interval += STEP``), whose first value is no rule
            value = rec.follow(value, call.scope, call.order)
        grows = growth(value, counters, rec.growing) if value is not None else "constant"
        helper = _helper_growth(rec, value, counters, call) if isinstance(value, cst.Call) else None
        grows = helper or grows
        schedule = _schedule(rec, loop, value.value, call.scope, call.order) if isinstance(value, cst.Name) else None
        if schedule is not None:
            grows = _schedule_growth(schedule)
        if kind == WAIT_EXPONENTIAL and (grows == "constant" or (
            helper is None and isinstance(value, cst.Call) and dotted_name(value.func) not in ("pow", "math.pow")
        )):
            grows = "exponential"  # as ``_delay`` read it, also in a helper (``_retry_delay(n)``: ``0.3 * 2 ** n``)
        text += " " + growth_words(grows, server_fallback)
    return text


def _helper_growth(rec: Recogniser, value: cst.Call, counters: Set[str], call: CallSite) -> Optional[str]:
    """How the delay a function of the file returns grows (``self._delay(error, attempt)``,
    returning ``1000 * math.pow(2, attempt)``): its returns read with the parameters the
    loop's counters are passed as; None when it is no such function."""
    helper = rec.model.resolve(value.func, call.scope, call.order)
    node = helper.node if isinstance(helper, FunctionInfo) else None
    if not isinstance(node, cst.FunctionDef) or not helper.returns:  # type: ignore[union-attr]
        return None
    params = [p.name.value for p in node.params.params]
    if helper.owner is not None and isinstance(value.func, cst.Attribute):  # type: ignore[union-attr]
        params = params[1:]
    counted: Set[str] = set()
    for index, arg in enumerate(value.args):
        # (a counter, or what grows with one: ``calculate_backoff(count + 1, retries)``)
        if not arg.star and growth(arg.value, counters, set()) != "constant":
            counted.add(arg.keyword.value if arg.keyword is not None else params[index] if index < len(params) else "")
    scope = helper.scope  # type: ignore[union-attr]
    returns = own_delays(rec, helper.returns, scope)  # type: ignore[union-attr]
    kinds = [growth(r, counted, set(), lambda e: rec.follow(e, scope, 1 << 62)) for r in returns]
    return _GROWTHS[max(_GROWTHS.index(k) for k in kinds)] if kinds else None


def _schedule(rec: Recogniser, loop: Optional[cst.CSTNode], name: str, scope: Scope, order: int) -> Optional[List[float]]:
    """The waits a ``for`` loop takes its target ``name`` from, when it walks numbers written
    out: ``for seconds in (1, 2, 4, 8, 16):``, or a name (a parameter's default included,
    ``def retry_read(attempts=(1, 2, 4)):``) bound to such a tuple or list."""
    if not (isinstance(loop, cst.For) and isinstance(loop.target, cst.Name) and loop.target.value == name):
        return None
    walked: Optional[cst.BaseExpression] = loop.iter
    if isinstance(walked, cst.Name):
        bindings = rec.model.reaching(walked.value, scope, order)
        binding = bindings[0] if len(bindings) == 1 else None
        if binding is not None and binding.parameter is not None:
            function = binding.parameter.function.node
            params = function.params if isinstance(function, cst.FunctionDef) else None
            name_walked = walked.value
            walked = next((
                p.default for p in (*params.params, *params.kwonly_params) if p.name.value == name_walked
            ), None) if params is not None else None
        elif binding is not None and binding.expr is not None:
            walked = binding.expr
        else:
            walked = None
    if not isinstance(walked, (cst.Tuple, cst.List)) or not walked.elements:
        return None
    numbers = [number_of(e.value) if isinstance(e, cst.Element) else None for e in walked.elements]
    return None if any(n is None for n in numbers) else numbers  # type: ignore[return-value]


def _schedule_growth(waits: Sequence[float]) -> str:
    """How a schedule of waits grows, in ``growth``'s words."""
    steps = list(zip(waits, waits[1:]))
    if all(later == earlier for earlier, later in steps):
        return "constant"
    if len({later - earlier for earlier, later in steps}) == 1:
        return "linear"
    if all(earlier > 0 and later >= 1.5 * earlier for earlier, later in steps):
        return "exponential"
    return "varying"


def _slept_elsewhere(rec: Recogniser, hidden: List[CallSite], loop: cst.CSTNode) -> Optional[Setting]:
    """A loop whose one pause is a call to a function of another module given a delay
    (``cancellable_sleep(5)``): the project pass knows whether that function sleeps it."""
    if len(hidden) != 1:
        return None
    call = hidden[0]
    name = rec.name(call)
    target = rec.model.resolve(call.node.func, call.scope, call.order)
    positional = [arg for arg in call.node.args if arg.keyword is None and not arg.star]
    # (or a keyword named for the pause: ``self.throttle(wait=wait)``)
    handed = positional[:1] or [
        arg for arg in call.node.args if arg.keyword is not None and _DELAY_KEYWORD.fullmatch(arg.keyword.value)
    ][:1]
    if name is None or not handed or isinstance(target, (FunctionInfo, ClassInfo)):
        return None
    kind, detail = delay_kind(rec, handed[0].value, call.scope, call.order, loop, site=call)
    if kind not in (WAIT_FIXED, WAIT_EXPONENTIAL):
        return None
    keyword = handed[0].keyword
    written = f"{keyword.value}={detail}" if keyword is not None else detail
    text = described(rec, code_of(call.node.func), written, kind, handed[0], call, loop, rec.server_fallback)
    return Setting(UNKNOWN, call.node, text, via=name, slept=kind, slept_as=keyword.value if keyword is not None else "")


_DELAY_KEYWORD = re.compile(r"wait|delay|seconds|secs|interval|pause|sleep|backoff|duration", re.I)


def _counters(loop: Union[cst.For, cst.While]) -> Set[str]:
    """The loop's attempt counters: its ``for`` target and the names it adds to."""
    names = counter_names(block(loop.body))
    if isinstance(loop, cst.For):
        names |= {n.value for n in iter_nodes(loop.target) if isinstance(n, cst.Name)}
    return names


def delay_kind(
    rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int, loop: Optional[cst.CSTNode],
    site: Optional[CallSite] = None,
) -> Tuple[str, str]:
    """(kind, source text) of a sleep argument: fixed / exponential / jittered / unknown.
    ``site``: the call that waits, whose local variables are judged on every path to it."""
    saved, rec.site = rec.site, site
    rec.server_fallback = False
    try:
        kind = _delay(rec, expr, scope, order, loop, 0)
    finally:
        rec.site = saved
    rec.server_delay = kind == _SERVER
    return (UNKNOWN if kind == _SERVER else kind), code_of(expr)


# Readings of this machine's clock, in a delay that waits until a moment.
_CLOCKS = frozenset({"time.time", "time.monotonic", "datetime.datetime.now", "datetime.datetime.utcnow"})
# What ``_delay`` calls a delay the server chose on every path (its ``Retry-After``): unknown to
# the rules, but no reason to leave another pause of the same loop unjudged (``loop_wait``).
_SERVER = "server"


def _delay(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int, loop: Optional[cst.CSTNode], depth: int) -> str:
    # (deep enough for a helper's ``min(self.factor * (2 ** (min(n, 1000) - 1)), cap)``)
    if depth > 10:
        return UNKNOWN
    if isinstance(expr, (cst.Integer, cst.Float)):
        return WAIT_FIXED
    if isinstance(expr, (cst.UnaryOperation, cst.Await)):  # ``-x``; ``await self.wait_time(n)``
        return _delay(rec, expr.expression, scope, order, loop, depth + 1)
    if isinstance(expr, cst.BinaryOperation):
        parts = [_delay(rec, expr.left, scope, order, loop, depth + 1), _delay(rec, expr.right, scope, order, loop, depth + 1)]
        if WAIT_JITTERED in parts:
            return WAIT_JITTERED
        if isinstance(expr.operator, (cst.Power, cst.LeftShift)) and parts == [WAIT_FIXED, UNKNOWN]:
            # ``2 ** (attempt - 1)`` with the count read from a mapping of the failed items: a
            # fixed base raised to a count, whatever the count is
            return WAIT_EXPONENTIAL
        if UNKNOWN in parts:
            return UNKNOWN
        if _SERVER in parts:
            return _SERVER
        if isinstance(expr.operator, (cst.Power, cst.LeftShift)) or WAIT_EXPONENTIAL in parts:
            return WAIT_EXPONENTIAL
        return WAIT_FIXED
    if isinstance(expr, (cst.IfExp, cst.BooleanOperation)):
        # ``retry_after or 5``, ``int(h["Retry-After"]) if "Retry-After" in h else 5``: the
        # server's delay when it sends one; the code's own on every other path, judged so
        branches = [expr.body, expr.orelse] if isinstance(expr, cst.IfExp) else [expr.left, expr.right]
        own = [b for b in branches if not server_delay(b, lambda e: rec.follow(e, scope, order))]
        if not own:
            return _SERVER
        rec.server_fallback = rec.server_fallback or len(own) < len(branches)
        return _strongest([_delay(rec, b, scope, order, loop, depth + 1) for b in own])
    if isinstance(expr, cst.Name) and rec.site is not None and scope is rec.site.scope and expr.value not in rec.visiting:
        # ``wait = 2 ** n`` then ``if "Retry-After" in r.headers: wait = int(...)``: judged on
        # every path to the wait, not by its last assignment
        on_paths = _on_every_path(rec, expr.value, rec.site, loop, depth)
        if on_paths is not None:
            return on_paths
    if server_delay(expr, lambda e: rec.follow(e, scope, order)):
        return _SERVER  # a server's Retry-After
    if isinstance(expr, cst.Call) and _header_lookup(expr):
        default = expr.args[1].value if len(expr.args) > 1 else None
        if default is None or number_of(default) == 0 or _number_text(default) == 0:
            return _SERVER  # no delay of the code's own: the server's, or none when it sends none
        rec.server_fallback = True
        if _number_text(default) is not None:
            return WAIT_FIXED  # ``int(headers.get("Retry-After", "30"))``: a header's text of its own
        return _delay(rec, default, scope, order, loop, depth + 1)
    if isinstance(expr, cst.Name):
        if _JITTER_WORD.search(expr.value):
            return WAIT_JITTERED
        if expr.value in rec.growing:
            return WAIT_EXPONENTIAL
        if expr.value in rec.visiting:
            return WAIT_FIXED  # ``delay = delay + 1``: judged by the other terms
        bindings = _bindings(expr.value, scope)
        if not bindings:
            return UNKNOWN
        if all(b.imported for b in bindings):
            return WAIT_FIXED  # a constant of another module (``RETRY_DELAY``), like ``settings.RETRY_DELAY``
        if any(b.imported or b.defined or b.entered is not None for b in bindings):
            return UNKNOWN
        sources = [b for b in bindings if b.expr is not None]
        uncapped = [b for b in sources if not _caps(b.expr, expr.value)]  # type: ignore[arg-type]
        sources = uncapped or sources  # (``to_next = min(to_next, 300)`` bounds what it held)
        # ``refresh_time = 1`` in the loop's ``except``: what a failure waits before it asks again
        failing = _set_in_handlers(loop, sources) if isinstance(loop, (cst.For, cst.While)) else []
        sources = failing or sources
        if not sources:
            schedule = _schedule(rec, loop, expr.value, scope, order)
            if schedule is not None:
                # ``for seconds in (1, 2, 4, 8, 16):``: the code's own waits, none random
                return WAIT_EXPONENTIAL if _schedule_growth(schedule) == "exponential" else WAIT_FIXED
            if isinstance(loop, cst.For) and expr.value in _target_names(loop.target) and not is_counting(rec, loop, scope, order):
                return UNKNOWN  # ``for delay in delays_generator()``: drawn from elsewhere
            return WAIT_FIXED  # a parameter or counter: chosen by the caller, no random term
        # ``sleep = int(retry_after)`` on one path, ``sleep = 5`` on the other: the server's delay
        # when it sends one, the code's own otherwise, judged so
        own = [b for b in sources if not server_delay(b.expr, lambda e, b=b: rec.follow(e, b.scope, b.order))]  # type: ignore[arg-type]
        if not own:
            return _SERVER
        rec.server_fallback = rec.server_fallback or len(own) < len(sources)
        rec.visiting.add(expr.value)
        try:
            kinds = [_delay(rec, b.expr, b.scope, b.order, loop, depth + 1) for b in own]  # type: ignore[arg-type]
        finally:
            rec.visiting.discard(expr.value)
        return _strongest(kinds)
    if isinstance(expr, cst.Attribute):
        if _JITTER_WORD.search(expr.attr.value):
            return WAIT_JITTERED
        if _kept_server_wait(rec, expr, scope) or _read_off_wait_error(rec, expr, scope, order):
            return _SERVER  # ``self.backoff_until``, set from what the server's answers say; ``e.value``
        return WAIT_FIXED  # a configuration value: self.retry_delay, settings.RETRY_DELAY
    if isinstance(expr, cst.Subscript):
        return WAIT_FIXED if _numbers_only(rec, rec.follow(expr.value, scope, order), scope, order) else UNKNOWN
    if isinstance(expr, cst.Call):
        name = rec.expr_name(expr.func, scope, order)
        if name is not None and (name.startswith(RANDOM_MODULES) or name in JITTERED_HELPERS
                                 or _JITTER_WORD.search(name.rsplit(".", 1)[-1])):
            return WAIT_JITTERED
        func_text = dotted_name(expr.func) or ""
        if _JITTER_WORD.search(func_text.rsplit(".", 1)[-1]):
            return WAIT_JITTERED
        if name in _CLOCKS:
            return WAIT_FIXED  # the time now: ``reset - time.time()`` waits until the reset, no random term
        if name in PURE_FUNCTIONS:
            parts = [_delay(rec, a.value, scope, order, loop, depth + 1) for a in expr.args if not a.star]
            if _SERVER in parts and set(parts) <= {_SERVER, WAIT_FIXED}:
                return _SERVER  # ``max(0, int(retry_after))``, ``min(retry_after, 60)``: the server's, bounded
            return _strongest(parts) if parts else UNKNOWN
        attribute = string_of(expr.args[1].value) if name == "builtins.getattr" and len(expr.args) >= 2 else None
        if attribute is None:
            attribute = _keyword_read(expr, scope)
        if attribute is not None:
            # ``getattr(server, "wait", 0.0)``: a configuration value, as ``server.wait`` is; and
            # ``kwargs.pop("watch_delay", None)``, the caller's, as a keyword parameter is
            return WAIT_JITTERED if _JITTER_WORD.search(attribute) else WAIT_FIXED
        called = expr.func.attr.value if isinstance(expr.func, cst.Attribute) else (name or func_text).rsplit(".", 1)[-1]
        if _COUNT_WORD.search(called):
            # ``times = settings.get_query_retry_limit()``: how many attempts, not how long to
            # wait; the delay built from it draws nothing random unless its other terms do
            return WAIT_FIXED
        target = rec.model.resolve(expr.func, scope, order)
        if isinstance(target, FunctionInfo) and target.returns and depth < 3:
            saved, rec.growing = rec.growing, set()
            try:
                kinds = [_delay(rec, r, target.scope, 1 << 62, None, depth + 1) for r in target.returns]
            finally:
                rec.growing = saved
            rec.server_fallback = rec.server_fallback or (_SERVER in kinds and len(set(kinds)) > 1)
            return _strongest(kinds)
        if name is not None and (target is None or isinstance(target, QName)):
            rec.delay_via = name  # a function of another module: the project pass knows what it returns
        return UNKNOWN
    return UNKNOWN


def _keyword_read(call: cst.Call, scope: Scope) -> Optional[str]:
    """The key of ``kwargs.pop("watch_delay", None)`` or ``kwargs.get(...)`` on the function's
    own ``**kwargs``: a keyword its caller passes."""
    func = call.func
    function = scope.enclosing_function
    if (function is None or not isinstance(func, cst.Attribute) or func.attr.value not in ("get", "pop")
            or not isinstance(func.value, cst.Name) or func.value.value != kwargs_name(function.node) or not call.args):
        return None
    return string_of(call.args[0].value)


def _kept_server_wait(rec: Recogniser, expr: cst.Attribute, scope: Scope) -> bool:
    """``self.backoff_until`` whose every assignment in its class, but a number it starts
    from, is the server's wait, also from this machine's clock (``time.time() +
    float(duration)``, in a method that every call of the file hands the server's wait,
    ``self._set_backoff(get_backoff_duration(resp.headers))``)."""
    function = scope.enclosing_function
    if function is None or function.owner is None or not function.on_self(expr):
        return False
    bindings = function.owner.instance_attributes.get(expr.attr.value, [])
    found = False
    for binding in bindings:
        if binding.expr is None:
            return False
        if number_of(binding.expr) is not None:
            continue  # the state before any answer came
        if not _server_value(rec, _after_clock(rec, binding.expr, binding.scope, binding.order), binding.scope, binding.order, 0):
            return False
        found = True
    return found


def _after_clock(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int) -> cst.BaseExpression:
    """``x`` of ``time.time() + x`` (a moment that far from now), else ``expr``."""
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        for clock, rest in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(clock, cst.Call) and rec.expr_name(clock.func, scope, order) in _CLOCKS:
                return rest
    return expr


def _server_value(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int, depth: int) -> bool:
    """The value is a wait the server sent: ``server_delay``, a call handed an answer's
    headers (``get_backoff_duration(resp.headers)``), a name assigned one, or a parameter every
    call of the file passes one."""
    while isinstance(expr, cst.Call) and dotted_name(expr.func) in ("int", "float") and len(expr.args) == 1:
        expr = expr.args[0].value
    if depth > 3:
        return False
    if server_delay(expr, lambda e: rec.follow(e, scope, order)):
        return True
    if isinstance(expr, cst.Call):
        return any(isinstance(arg.value, cst.Attribute) and arg.value.attr.value == "headers" for arg in expr.args)
    if not isinstance(expr, cst.Name):
        return False
    binding = rec.model.lookup(expr.value, scope, order)
    if binding is None:
        return False
    if binding.expr is not None:
        return _server_value(rec, binding.expr, binding.scope, binding.order, depth + 1)
    param = binding.parameter
    if param is None:
        return False
    handed = []
    for site in rec.model.calls:
        if rec.model.resolve(site.node.func, site.scope, site.order) is not param.function:
            continue
        given = argument_for(site.node, param.function, param.name)
        if given is None:
            return False
        handed.append(_server_value(rec, given, site.scope, site.order, depth + 1))
    return bool(handed) and all(handed)


def _set_in_handlers(loop: cst.CSTNode, bindings: List[Binding]) -> List[Binding]:
    """The bindings made in the ``except`` handlers of the loop's ``try`` statements."""
    inside = _in_handlers(loop)
    return [binding for binding in bindings if id(binding.expr) in inside]


def _in_handlers(loop: cst.CSTNode) -> Set[int]:
    """The ids of the nodes in the ``except`` handlers of the loop's ``try`` statements."""
    return {
        id(node) for statement in iter_nodes(loop) if isinstance(statement, (cst.Try, cst.TryStar))
        for handler in statement.handlers for node in iter_nodes(handler)
    }


def _numbers_only(rec: Recogniser, value: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> bool:
    """A list or tuple of numbers, also with another such list unpacked in it (``[*DELAYS, 0]``)."""
    if not isinstance(value, (cst.List, cst.Tuple)) or depth > 2:
        return False
    return all(
        _numbers_only(rec, rec.follow(element.value, scope, order), scope, order, depth + 1)
        if isinstance(element, cst.StarredElement) else number_of(element.value) is not None
        for element in value.elements
    )


# The headers in which a server says when to come back: ``Retry-After``, and the reset of a
# rate limit (``RateLimit-Reset``, ``X-RateLimit-Reset``).
_RETRY_AFTER = re.compile(r"retry[-_]?after|rate[-_]?limit[-_]?reset", re.I)


def server_delay(
    expr: cst.BaseExpression, follow: Optional[Callable[[cst.BaseExpression], cst.BaseExpression]] = None,
) -> bool:
    """A delay the server sends: ``response.retry_after``, ``headers["Retry-After"]``,
    ``headers.get("Retry-After")`` (without a default of the code's own), in ``int()``/``float()``
    or as a duration's seconds (``exc.retry_after.total_seconds()``), or a name assigned one
    (``follow``)."""
    while True:
        if isinstance(expr, cst.Call) and dotted_name(expr.func) in ("int", "float") and len(expr.args) == 1:
            expr = expr.args[0].value
        elif (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "total_seconds"
              and not expr.args):
            expr = expr.func.value
        else:
            break
    if isinstance(expr, cst.Name) and follow is not None:
        followed = follow(expr)
        return followed is not expr and server_delay(followed)
    if isinstance(expr, cst.Attribute):
        # (not a constant of the code's own, ``constants.DEFAULT_RETRY_AFTER``)
        attribute = expr.attr.value  # (``self.ratelimit_reset`` set from ``X-RateLimit-Reset``)
        return ("after" in attribute.lower() or _RETRY_AFTER.search(attribute) is not None) and not attribute.isupper()
    if isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index):
        return _names_retry_after(expr.slice[0].slice.value)
    return isinstance(expr, cst.Call) and _header_lookup(expr) and (len(expr.args) < 2 or _no_delay(expr.args[1].value))


# The errors a server raises to say how long to wait (Telegram's ``FloodWait`` and
# ``FloodWaitError``, a ``RateLimitError``): what a handler reads off the one it caught is the
# server's delay (``amount = e.value``, ``e.seconds``).
_WAIT_ERROR = re.compile(r"Flood|RateLimit|Throttl|TooManyRequests|SlowDown|SlowMode|Wait(Error|Exception)?$", re.I)


def _read_off_wait_error(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int) -> bool:
    while isinstance(expr, cst.Call) and dotted_name(expr.func) in ("int", "float") and len(expr.args) == 1:
        expr = expr.args[0].value
    if isinstance(expr, cst.Name):
        expr = rec.follow(expr, scope, order)
    if not (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name)):
        return False
    caught = expr.value.value
    handlers = [
        node for node in iter_nodes(scope.node)
        if isinstance(node, cst.ExceptHandler) and node.name is not None and isinstance(node.name.name, cst.Name)
        and node.name.name.value == caught and node.type is not None
    ]
    # the handler the value is read in (``except FloodWait as e`` beside ``except OSError as e``)
    handlers = [handler for handler in handlers if any(node is expr for node in iter_nodes(handler))] or handlers
    return bool(handlers) and all(
        _WAIT_ERROR.search(rec.expr_name(kind, scope, order) or dotted_name(kind) or "")
        for handler in handlers for kind in named_classes(handler.type)
    )


def _names_retry_after(key: cst.BaseExpression) -> bool:
    """A header key that names ``Retry-After`` (or a rate limit's reset): the text itself, or a
    constant named for it (``RETRY_AFTER_HEADER`` imported from a constants module, aiohttp's
    ``hdrs.RETRY_AFTER``), whose value the file does not show."""
    text = string_of(key)
    if text is None and isinstance(key, (cst.Name, cst.Attribute)):
        text = key.value if isinstance(key, cst.Name) else key.attr.value
    return text is not None and bool(_RETRY_AFTER.search(text))


def _no_delay(default: cst.BaseExpression) -> bool:
    """A default that is no delay of the code's own (``headers.get("retry-after", "")``, ``None``):
    the code waits the server's only where it sends one."""
    return is_none(default) or string_of(default) == ""


def _number_text(expr: cst.BaseExpression) -> Optional[float]:
    """The number a string literal spells (``"30"``), if it spells one."""
    text = string_of(expr)
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def _header_lookup(call: cst.Call) -> bool:
    """``headers.get("Retry-After", ...)``."""
    func = call.func
    return isinstance(func, cst.Attribute) and func.attr.value == "get" and bool(call.args) and _names_retry_after(call.args[0].value)


def growth(
    expr: cst.BaseExpression, counters: Set[str], growing: Set[str],
    follow: Optional[Callable[[cst.BaseExpression], cst.BaseExpression]] = None, depth: int = 0,
) -> str:
    """How a delay grows from one attempt to the next, for messages: "constant", "varying"
    (``10 / tries``), "linear" (``60 * attempt``), "polynomial" (``attempt ** 2``) or
    "exponential" (``2 ** attempt``, ``pow(2, attempt)``, ``delay *= 2``). ``counters``: the loop's attempt counters; ``growing``: names it multiplies;
    ``follow``: what a name was assigned (``countdown = 30 * (self.request.retries + 1)``)."""
    if depth > 12:
        return "constant"

    def again(inner: cst.BaseExpression) -> str:
        return growth(inner, counters, growing, follow, depth + 1)

    if isinstance(expr, cst.Name):
        if expr.value in growing:
            return "exponential"
        if expr.value in counters:
            return "linear"
        followed = follow(expr) if follow is not None else expr
        return again(followed) if followed is not expr else "constant"
    if isinstance(expr, cst.Attribute):
        return "linear" if (dotted_name(expr) or "").endswith("request.retries") else "constant"  # celery's count
    if isinstance(expr, cst.UnaryOperation):
        return again(expr.expression)
    if isinstance(expr, (cst.IfExp, cst.BooleanOperation)):  # ``int(reset) if reset else 2 ** n``
        branches = [expr.body, expr.orelse] if isinstance(expr, cst.IfExp) else [expr.left, expr.right]
        return _GROWTHS[max(_GROWTHS.index(again(branch)) for branch in branches)]
    if isinstance(expr, cst.BinaryOperation):
        left, right = again(expr.left), again(expr.right)
        if isinstance(expr.operator, (cst.Power, cst.LeftShift)):
            if right != "constant":
                return "exponential"
            return "polynomial" if left != "constant" else "constant"
        if isinstance(expr.operator, cst.Multiply) and left != "constant" and right != "constant":
            return _GROWTHS[max(_GROWTHS.index(left), _GROWTHS.index(right), _GROWTHS.index("polynomial"))]
        if isinstance(expr.operator, (cst.Divide, cst.FloorDivide)) and right != "constant":
            return _GROWTHS[max(_GROWTHS.index(left), _GROWTHS.index("varying"))]  # ``10 / tries``
        return _GROWTHS[max(_GROWTHS.index(left), _GROWTHS.index(right))]
    if isinstance(expr, cst.Call) and dotted_name(expr.func) in ("pow", "math.pow") and len(expr.args) == 2:
        base, exponent = again(expr.args[0].value), again(expr.args[1].value)  # as ``base ** exponent``
        return "exponential" if exponent != "constant" else ("polynomial" if base != "constant" else "constant")
    if isinstance(expr, cst.Call):
        kinds = [again(a.value) for a in expr.args if not a.star]
        return _GROWTHS[max(_GROWTHS.index(k) for k in kinds)] if kinds else "constant"
    return "constant"


def growth_words(grows: str, server_fallback: bool = False) -> str:
    """``grows linearly but has no random term`` (or a constant interval's words); with
    ``server_fallback``, said of the code's own delay, when the server sends none."""
    words = (
        "waits a constant interval" if grows == "constant" else "changes with the attempt" if grows == "varying"
        else f"grows {'exponentially' if grows == 'exponential' else grows + 'ly'}"
    )
    when = " when the server sends no `Retry-After`" if server_fallback else ""
    return f"{words}{' with' if grows == 'constant' else ' but has'} no random term{when}"


_GROWTHS = ["constant", "varying", "linear", "polynomial", "exponential"]


def own_delays(rec: Recogniser, returns: Sequence[cst.BaseExpression], scope: Scope) -> List[cst.BaseExpression]:
    """The delays a function (of ``scope``) returns of the code's own: a return of the server's
    delay (``Retry-After``) is the server's choice when it sends one, the others are the code's
    on every path where it sends none; all of them when every one is the server's."""
    own = [r for r in returns if not server_delay(r, lambda e: rec.follow(e, scope, 1 << 62))]
    return own or list(returns)


def returned_delay(rec: Recogniser, function: FunctionInfo) -> str:
    """What kind of delay a function returns (fixed / exponential / jittered / unknown)."""
    if not function.returns:
        return UNKNOWN
    saved, rec.growing = rec.growing, set()
    try:
        return _strongest([_delay(rec, r, function.scope, 1 << 62, None, 1) for r in own_delays(rec, function.returns, function.scope)])
    finally:
        rec.growing = saved


def _on_every_path(rec: Recogniser, name: str, site: CallSite, loop: Optional[cst.CSTNode], depth: int) -> Optional[str]:
    """The kind of a local variable at ``site``, from the assignments that reach it: jittered
    only when every one of them is (None: not a local we can follow)."""
    function = site.scope.function
    if function is None or not isinstance(function.node, cst.FunctionDef) or name not in function.scope.bindings:
        return None
    definitions = reaching_definitions(block(function.node.body), name, site.node)
    if not definitions:
        return None
    if isinstance(loop, (cst.For, cst.While)):
        # ``refresh_time = 1`` in the loop's ``except``: what a failure waits before it asks again
        inside = _in_handlers(loop)
        definitions = {d for d in definitions if d[0] is not None and id(d[0]) in inside} or definitions
    parameters = parameter_names(function.node.params)
    orders = {id(b.expr): b.order for b in function.scope.bindings[name] if b.expr is not None}
    kinds = set()
    servers = 0
    pending, seen = list(definitions), set(definitions)
    rec.visiting.add(name)
    try:
        while pending:
            base, augmented = pending.pop(0)
            if base is None:
                if name not in parameters:
                    continue  # not yet assigned on this path: it cannot reach the wait
                kind = WAIT_FIXED  # a parameter: chosen by the caller, no random term
            else:
                value = base.value  # type: ignore[attr-defined]
                if _converts(value, name) or _caps(value, name):
                    # ``reset = int(reset)``, ``min(reset, 300)``: what reached it, converted or bounded
                    earlier = reaching_definitions(block(function.node.body), name, base) or set()
                    pending.extend(d for d in earlier - seen if d[0] is not None)
                    seen |= earlier
                    continue
                if is_none(value):
                    continue  # ``reset = None``: the wait is guarded by it
                at = orders.get(id(value), 1 << 62)
                server = server_delay(value, lambda e, at=at: rec.follow(e, function.scope, at))
                kind = _SERVER if server else _delay(rec, value, function.scope, at, loop, depth + 1)
                if kind == _SERVER and len(definitions) > 1:
                    # the server's delay on this path (also padded: ``0.5 + exc.retry_after.total_seconds()``);
                    # the code's own on the others is judged
                    rec.server_fallback = True
                    servers += 1
                    continue
            for aug in augmented:
                kind = _augmented(rec, name, kind, aug, function.scope, loop, depth)
            kinds.add(kind)
    finally:
        rec.visiting.discard(name)
    if not kinds:
        return _SERVER if servers else None
    if kinds == {WAIT_JITTERED}:
        return WAIT_JITTERED
    return _strongest(sorted(kinds - {WAIT_JITTERED}))


def _converts(value: cst.BaseExpression, name: str) -> bool:
    """``name = int(name)``: the same value, converted."""
    return (isinstance(value, cst.Call) and dotted_name(value.func) in ("int", "float") and len(value.args) == 1
            and isinstance(value.args[0].value, cst.Name) and value.args[0].value.value == name)


def _caps(value: cst.BaseExpression, name: str) -> bool:
    """``name = min(name, 5 * 60)``, ``max(0, name)``: the same value, bounded by constants."""
    if not (isinstance(value, cst.Call) and dotted_name(value.func) in ("min", "max") and value.args):
        return False
    arguments = [arg.value for arg in value.args]
    return any(isinstance(a, cst.Name) and a.value == name for a in arguments) and all(
        (isinstance(a, cst.Name) and a.value == name) or not any(isinstance(n, cst.Name) for n in iter_nodes(a))
        for a in arguments
    )


def _augmented(
    rec: Recogniser, name: str, kind: str, aug: cst.AugAssign, scope: Scope, loop: Optional[cst.CSTNode], depth: int
) -> str:
    """``delay *= 2`` in the loop grows exponentially; ``delay += random.random()`` adds jitter."""
    value = _delay(rec, aug.value, scope, 1 << 62, loop, depth + 1)
    if WAIT_JITTERED in (kind, value):
        return WAIT_JITTERED
    if UNKNOWN in (kind, value):
        return UNKNOWN
    if isinstance(aug.operator, (cst.MultiplyAssign, cst.PowerAssign, cst.LeftShiftAssign)) and name in rec.growing:
        return WAIT_EXPONENTIAL
    return _strongest([kind, value])


def _bindings(name: str, scope: Scope) -> List[Binding]:
    current: Optional[Scope] = scope
    while current is not None:
        if current.kind == "class" and current is not scope:
            current = current.parent
            continue
        if name in current.bindings:
            return current.bindings[name]
        current = current.parent
    return []


def _target_names(target: cst.BaseExpression) -> Set[str]:
    return {n.value for n in expression_nodes(target) if isinstance(n, cst.Name)}


def _strongest(kinds: Sequence[str]) -> str:
    """Combine the kinds of the terms of one delay (or of the values it may take): any random
    term makes it jittered; the server's delay on some paths leaves the code's own on the others."""
    if WAIT_JITTERED in kinds:
        return WAIT_JITTERED
    if UNKNOWN in kinds or not kinds:
        return UNKNOWN
    kinds = [kind for kind in kinds if kind != _SERVER]
    if not kinds:
        return _SERVER
    if WAIT_EXPONENTIAL in kinds:
        return WAIT_EXPONENTIAL
    return WAIT_FIXED
