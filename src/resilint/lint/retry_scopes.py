"""Retry scopes: the code that a retry policy runs again, and the policy that governs it.

Shared by the RES2xx rules (and, as plain data, by the cross-module pass). Built from the
semantic model without another parse: library policies are found among the model's call sites
and decorators, hand-written retry loops among the ``for``/``while`` nodes on the call stacks.

Two levels:

* a :class:`Policy` is one definition of *how* to retry (a ``tenacity.retry(...)`` call, a
  ``backoff.on_exception(...)`` call, a urllib3 ``Retry(...)``, a celery ``self.retry(...)``
  call, a hand-written loop). Findings about the policy itself (wait, limit, what it retries
  on) are reported at its definition, once, however many functions use it;
* a :class:`RetryScope` is a policy applied to code: the function it decorates, the loop it
  drives, the function handed to ``Retrying(...)(fn)``. Findings about the retried code
  (a POST without an idempotency key) are reported per scope.

``retry_scopes(model)`` is memoised per model, so every rule shares one computation.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field, replace
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from resilint.lint.canonical import canonical_name
from resilint.lint.semantic import Binding, CallSite, FunctionInfo, Instance, Scope, SemanticModel

UNKNOWN = "unknown"
Limit = Union[int, float, None, str]  # a number, None (unbounded) or "unknown"

# wait kinds
WAIT_NONE = "none"
WAIT_FIXED = "fixed"
WAIT_EXPONENTIAL = "exponential"
WAIT_JITTERED = "jittered"
# retry_on kinds
ON_ANY = "any"
ON_SPECIFIC = "specific"
ON_STATUS = "status"
ON_RESULT = "result"

# Prefilter: a file that mentions none of these holds no library retry scope (tenacity,
# backoff, stamina, retrying, celery, urllib3, httpx, resilint.runtime). Hand-written loops are
# too common a shape to filter on; each rule adds what its own finding in one cannot lack
# (a POST, a sleep, a ``while``, an ``except``).
LIBRARY_TRIGGERS: Tuple[str, ...] = ("retry", "Retry", "retries", "backoff", "stamina")


@dataclass(eq=False)
class Setting:
    """One aspect of a policy: its kind, the node that sets it (None: the library default),
    a human description, and whether it was inherited from another policy (``retry_with``)."""

    kind: str
    node: Optional[cst.CSTNode] = None
    detail: str = ""
    inherited: bool = False


@dataclass(eq=False)
class Policy:
    library: str  # tenacity | backoff | stamina | retrying | resilint | celery | urllib3 | httpx | loop
    kind: str  # decorator | iterator | call | task | task-retry | urllib3-retry | adapter | pool | transport | loop
    node: cst.CSTNode  # the definition: where findings about the policy are reported
    attempts: Setting = field(default_factory=lambda: Setting(UNKNOWN))
    # attempts.kind: "bounded" | "unbounded" | "unknown"; ``max_attempts`` the number if known
    max_attempts: Limit = UNKNOWN
    time_limit: Limit = UNKNOWN  # seconds, None = no time limit, "unknown"
    wait: Setting = field(default_factory=lambda: Setting(UNKNOWN))
    retry_on: Setting = field(default_factory=lambda: Setting(UNKNOWN))
    # Catch-all handlers (bare ``except:``, ``except Exception``) that go round again in a
    # hand-written loop or around celery's ``self.retry()`` (RES205 reports on them).
    handlers: Tuple[cst.ExceptHandler, ...] = ()
    # Non-idempotent methods this policy retries (urllib3 ``allowed_methods``), if any.
    unsafe_methods: Optional[Setting] = None
    # True when the library itself refuses to repeat non-idempotent requests
    # (resilint's runtime with ``method=``/``idempotent=False``, httpx connect retries).
    guards_non_idempotent: bool = False
    scope: Optional[Scope] = None  # the scope the definition is written in
    order: int = 0

    @property
    def unbounded(self) -> bool:
        return self.max_attempts is None and self.time_limit is None


@dataclass(eq=False)
class RetryScope:
    """A policy applied to code: ``covers`` is the FunctionDef or the loop that is re-run."""

    policy: Policy
    kind: str  # decorator | iterator | call | task | loop | adapter | pool | transport
    node: cst.CSTNode  # where the policy meets the code (decorator, for loop, call)
    covers: Optional[cst.CSTNode] = None
    function: Optional[FunctionInfo] = None

    @property
    def library(self) -> str:
        return self.policy.library


@dataclass
class RetryScopes:
    policies: List[Policy]
    scopes: List[RetryScope]

    def covering(self) -> List[RetryScope]:
        return [s for s in self.scopes if s.covers is not None]


# --- names ---------------------------------------------------------------------------------

_TENACITY_SUBMODULES = frozenset(
    {"wait", "stop", "retry", "asyncio", "_asyncio", "before", "after", "before_sleep", "nap", "tornadoweb", "_utils"}
)
_FLATTEN = ("backoff.", "stamina.", "httpx.", "tenacity.", "celery.")


def normalise(name: Optional[str]) -> Optional[str]:
    """Canonical name, with library-internal module paths folded onto the public package."""
    if name is None:
        return None
    previous = None
    while previous != name:
        previous, name = name, canonical_name(name)
    parts = name.split(".")
    if name.startswith("tenacity.") and len(parts) >= 3 and parts[1] in _TENACITY_SUBMODULES:
        return "tenacity." + ".".join(parts[2:])
    if name.startswith(_FLATTEN) and len(parts) >= 3:
        private = [i for i, p in enumerate(parts[1:-1], 1) if p.startswith("_")]
        if private:
            return parts[0] + "." + ".".join(parts[max(private) + 1 :]).lstrip(".")
    return name


_TENACITY_DECORATOR = "tenacity.retry"
_TENACITY_OBJECTS = frozenset({"tenacity.Retrying", "tenacity.AsyncRetrying", "tenacity.TornadoRetrying"})
_BACKOFF = frozenset({"backoff.on_exception", "backoff.on_predicate"})
_STAMINA_DECORATOR = "stamina.retry"
_STAMINA_CONTEXT = "stamina.retry_context"
_RETRYING = frozenset({"retrying.retry", "retrying.Retrying"})
_RESILINT_DECORATOR = frozenset({"resilint.runtime.retry", "resilint.runtime.retry.retry"})
_RESILINT_LOOP = frozenset({"resilint.runtime.retrying", "resilint.runtime.retry.retrying"})
_URLLIB3_RETRY = frozenset({"urllib3.Retry", "urllib3.Retry.new", "urllib3.Retry.DEFAULT.new"})
_HTTP_ADAPTER = frozenset({"requests.adapters.HTTPAdapter"})
_URLLIB3_POOLS = frozenset({
    "urllib3.PoolManager", "urllib3.ProxyManager", "urllib3.HTTPConnectionPool",
    "urllib3.HTTPSConnectionPool", "urllib3.connection_from_url",
})
_HTTPX_TRANSPORTS = frozenset({"httpx.HTTPTransport", "httpx.AsyncHTTPTransport"})
_CELERY_TASK_DECORATORS = frozenset({"celery.shared_task", "celery.Celery.task", "celery.current_app.task"})
_CELERY_OPTIONS = frozenset({"autoretry_for", "retry_backoff", "retry_jitter", "retry_backoff_max", "max_retries", "default_retry_delay"})
_LOOP_POLICIES = _TENACITY_OBJECTS | _RESILINT_LOOP | {_STAMINA_CONTEXT, "retrying.Retrying"}

_SLEEPS = frozenset({
    "time.sleep", "asyncio.sleep", "trio.sleep", "anyio.sleep", "gevent.sleep", "eventlet.sleep",
    "eventlet.greenthread.sleep", "tornado.gen.sleep", "curio.sleep",
})
_CLOCKS = frozenset({
    "time.time", "time.monotonic", "time.perf_counter", "time.time_ns", "time.monotonic_ns",
    "datetime.datetime.now", "datetime.datetime.utcnow", "asyncio.get_event_loop", "asyncio.get_running_loop",
})
_RANDOM_MODULES = ("random.", "secrets.", "numpy.random.", "os.urandom", "uuid.uuid1", "uuid.uuid4")
_JITTERED_HELPERS = frozenset({"resilint.runtime.backoff_delay", "resilint.runtime.retry.backoff_delay"})
_PURE_FUNCTIONS = frozenset({
    "builtins.min", "builtins.max", "builtins.float", "builtins.int", "builtins.round", "builtins.abs",
    "builtins.pow", "math.pow", "math.exp", "math.ceil", "math.floor", "math.log", "math.sqrt",
})
# Exceptions that are control flow, not failures: a loop catching them is not retrying.
_NOT_FAILURES = frozenset({
    "builtins.StopIteration", "builtins.StopAsyncIteration", "builtins.KeyboardInterrupt",
    "builtins.GeneratorExit", "builtins.SystemExit", "queue.Empty", "queue.Full",
    "asyncio.CancelledError", "asyncio.QueueEmpty", "asyncio.QueueFull", "builtins.EOFError",
    "concurrent.futures.CancelledError", "multiprocessing.queues.Empty",
})
_ANY_EXCEPTION = frozenset({"builtins.Exception", "builtins.BaseException"})
_BOUND_WORDS = re.compile(r"deadline|timeout|elapsed|expir|until|start|attempt|retr|tries|tried|count|budget|max_|limit|remaining|time|_left|^n$|^i$", re.I)
_JITTER_WORD = re.compile(r"jitter|random|rand_|uniform", re.I)


# --- entry point ---------------------------------------------------------------------------

_CACHE: "weakref.WeakKeyDictionary[SemanticModel, RetryScopes]" = weakref.WeakKeyDictionary()


def retry_scopes(model: SemanticModel) -> RetryScopes:
    """All retry policies and scopes of the file (memoised per model)."""
    found = _CACHE.get(model)
    if found is None:
        found = _Recogniser(model).run()
        _CACHE[model] = found
    return found


# --- small helpers -------------------------------------------------------------------------


def _keywords(call: cst.Call) -> Tuple[Dict[str, cst.Arg], bool]:
    """keyword → Arg, and whether ``**kwargs`` may add more."""
    found: Dict[str, cst.Arg] = {}
    star = False
    for arg in call.args:
        if arg.star == "**":
            star = True
        elif arg.keyword is not None:
            found[arg.keyword.value] = arg
    return found, star


def _positional(call: cst.Call) -> List[cst.Arg]:
    out = []
    for arg in call.args:
        if arg.keyword is not None or arg.star == "**":
            break
        if arg.star == "*":
            break
        out.append(arg)
    return out


def _argument(call: cst.Call, keyword: str, position: Optional[int] = None) -> Optional[cst.Arg]:
    keywords, _ = _keywords(call)
    if keyword in keywords:
        return keywords[keyword]
    if position is not None:
        positional = _positional(call)
        if position < len(positional):
            return positional[position]
    return None


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _is_false(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name):
        return node.value == "False"
    if isinstance(node, (cst.Integer, cst.Float)):
        return _number(node) == 0
    return False


def _is_true(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name):
        return node.value == "True"
    if isinstance(node, (cst.Integer, cst.Float)):
        return _number(node) not in (0, None)
    return False


def _number(node: cst.BaseExpression) -> Optional[Union[int, float]]:
    try:
        if isinstance(node, cst.Integer):
            return int(node.value.replace("_", ""), 0)
        if isinstance(node, cst.Float):
            return float(node.value.replace("_", ""))
    except ValueError:
        return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        value = _number(node.expression)
        return -value if value is not None else None
    return None


def _string(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.SimpleString):
        try:
            value = node.evaluated_value
        except Exception:  # pragma: no cover - defensive
            return None
        return value if isinstance(value, str) else None
    if isinstance(node, cst.ConcatenatedString):
        left, right = _string(node.left), _string(node.right)
        return left + right if left is not None and right is not None else None
    return None


def _block(node: cst.BaseSuite) -> Sequence[cst.BaseStatement]:
    if isinstance(node, cst.IndentedBlock):
        return node.body
    return [node]  # type: ignore[list-item]  # SimpleStatementSuite: treat like one line


def _small(stmt: cst.CSTNode) -> Sequence[cst.BaseSmallStatement]:
    if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return stmt.body
    return ()


def _dotted(node: cst.CSTNode) -> Optional[str]:
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def _expressions(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node of an expression, not entering lambdas."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, cst.Lambda):
            continue
        stack.extend(current.children)


# --- statement-level structure of loops ------------------------------------------------------


def _leaves(stmts: Sequence[cst.BaseStatement]) -> bool:
    """Whether running this block always leaves the loop (raise / return / break)."""
    for stmt in reversed(stmts):
        smalls = _small(stmt)
        if smalls:
            for small in smalls:
                if isinstance(small, (cst.Raise, cst.Return, cst.Break)):
                    return True
                if isinstance(small, cst.Continue):
                    return False
            if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                # Keep looking upwards only if this line has no effect on leaving.
                continue
        if isinstance(stmt, cst.If):
            return _if_leaves(stmt)
        if isinstance(stmt, (cst.With,)):
            return _leaves(_block(stmt.body))
        if isinstance(stmt, cst.Try):
            return _leaves(_block(stmt.body)) and all(_leaves(_block(h.body)) for h in stmt.handlers)
        return False
    return False


def _if_leaves(node: cst.If) -> bool:
    if not _leaves(_block(node.body)):
        return False
    orelse = node.orelse
    if orelse is None:
        return False
    if isinstance(orelse, cst.If):
        return _if_leaves(orelse)
    return _leaves(_block(orelse.body))


def _walk_statements(stmts: Sequence[cst.BaseStatement]) -> Iterator[cst.CSTNode]:
    """Statements and small statements in a loop body, not entering nested loops or defs."""
    for stmt in stmts:
        yield stmt
        for small in _small(stmt):
            yield small
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef, cst.For, cst.While)):
            continue
        if isinstance(stmt, cst.If):
            yield from _walk_statements(_block(stmt.body))
            orelse = stmt.orelse
            while orelse is not None:
                if isinstance(orelse, cst.If):
                    yield orelse
                    yield from _walk_statements(_block(orelse.body))
                    orelse = orelse.orelse
                else:
                    yield from _walk_statements(_block(orelse.body))
                    orelse = None
        elif isinstance(stmt, cst.With):
            yield from _walk_statements(_block(stmt.body))
        elif isinstance(stmt, (cst.Try, cst.TryStar)):
            yield from _walk_statements(_block(stmt.body))
            for handler in stmt.handlers:
                yield handler
                yield from _walk_statements(_block(handler.body))
            if stmt.orelse is not None:
                yield from _walk_statements(_block(stmt.orelse.body))
            if stmt.finalbody is not None:
                yield from _walk_statements(_block(stmt.finalbody.body))


def _has_exit(stmts: Sequence[cst.BaseStatement]) -> bool:
    """A return or break somewhere in the block (the loop can be left on success)."""
    return any(isinstance(n, (cst.Return, cst.Break)) for n in _walk_statements(stmts))


def _has_continue(stmts: Sequence[cst.BaseStatement]) -> bool:
    return any(isinstance(n, cst.Continue) for n in _walk_statements(stmts))


def _assigned_names(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    names: Set[str] = set()
    for node in _walk_statements(stmts):
        targets: List[cst.BaseExpression] = []
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            targets = [node.target]
        for target in targets:
            text = _dotted(target)
            if text:
                names.add(text)
    return names


def _counters(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """Names changed by ``+=``/``-=`` or ``x = x + 1`` in the loop: attempt counters."""
    names: Set[str] = set()
    for node in _walk_statements(stmts):
        if isinstance(node, cst.AugAssign) and isinstance(node.operator, (cst.AddAssign, cst.SubtractAssign)):
            text = _dotted(node.target)
            if text:
                names.add(text)
        elif isinstance(node, cst.Assign) and len(node.targets) == 1:
            text = _dotted(node.targets[0].target)
            value = node.value
            if text and isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract)):
                if _dotted(value.left) == text or _dotted(value.right) == text:
                    names.add(text)
    return names


# --- the recogniser ------------------------------------------------------------------------


class _Recogniser:
    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self.policies: List[Policy] = []
        self.scopes: List[RetryScope] = []
        self.by_node: Dict[int, Policy] = {}
        self.names: Dict[int, Optional[str]] = {}
        self.decorated: Dict[int, List[RetryScope]] = {}
        self.growing: Set[str] = set()
        self._visiting: Set[str] = set()

    def name(self, call: CallSite) -> Optional[str]:
        key = id(call.node)
        if key not in self.names:
            self.names[key] = normalise(self.model.call_name(call))
        return self.names[key]

    def expr_name(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Optional[str]:
        return normalise(self.model.qualified_name(expr, scope, order))

    # --- driver ----------------------------------------------------------------------------

    def run(self) -> RetryScopes:
        for call in self.model.calls:
            self._library_policy(call, transports=False)
        for call in self.model.calls:  # after the Retry objects they may be given
            self._library_policy(call, transports=True)
        for function in self.model.functions:
            self._decorated(function)
        self._applications()
        self._loops()
        return RetryScopes(self.policies, self.scopes)

    def _add(self, policy: Policy) -> Policy:
        existing = self.by_node.get(id(policy.node))
        if existing is not None:
            return existing
        self.by_node[id(policy.node)] = policy
        self.policies.append(policy)
        return policy

    # --- library policies found among the calls ------------------------------------------------

    def _library_policy(self, call: CallSite, transports: bool) -> None:
        name = self.name(call)
        if name is None:
            return
        node = call.node
        if transports:
            if name in _HTTP_ADAPTER:
                self._transport(call, "urllib3", "adapter", "max_retries", 2)
            elif name in _URLLIB3_POOLS:
                self._transport(call, "urllib3", "pool", "retries", None)
            elif name in _HTTPX_TRANSPORTS:
                self._transport(call, "httpx", "transport", "retries", None)
            return
        if name == _TENACITY_DECORATOR or name in _TENACITY_OBJECTS:
            self._add(self._tenacity(node, call.scope, call.order, "decorator" if name == _TENACITY_DECORATOR else "iterator"))
        elif name in _BACKOFF:
            self._add(self._backoff(node, call.scope, call.order, predicate=name.endswith("on_predicate")))
        elif name in (_STAMINA_DECORATOR, _STAMINA_CONTEXT):
            self._add(self._stamina(node, call.scope, call.order, "decorator" if name == _STAMINA_DECORATOR else "iterator"))
        elif name in _RETRYING:
            self._add(self._retrying(node, call.scope, call.order))
        elif name in _RESILINT_DECORATOR or name in _RESILINT_LOOP:
            self._add(self._resilint(node, call.scope, call.order, "decorator" if name in _RESILINT_DECORATOR else "iterator"))
        elif name in _URLLIB3_RETRY:
            self._add(self._urllib3_retry(node, call.scope, call.order))

    # tenacity ---------------------------------------------------------------------------

    def _tenacity(
        self, node: cst.CSTNode, scope: Scope, order: int, kind: str,
        keywords: Optional[Dict[str, cst.Arg]] = None, star: bool = False,
    ) -> Policy:
        if keywords is None:
            keywords, star = _keywords(node) if isinstance(node, cst.Call) else ({}, False)
        policy = Policy("tenacity", kind, node, scope=scope, order=order)
        default = UNKNOWN if star else None
        # stop
        stop = keywords.get("stop")
        if stop is None:
            if star:
                policy.attempts = Setting(UNKNOWN)
            else:
                policy.attempts = Setting("unbounded", None, "tenacity never stops retrying unless given `stop=`")
                policy.max_attempts = policy.time_limit = None
        else:
            attempts, seconds = self._tenacity_stop(stop.value, scope, order)
            policy.max_attempts, policy.time_limit = attempts, seconds
            bounded = _bounded_kind(attempts, seconds)
            detail = f"`stop={code_of(stop.value)}` never stops" if bounded == "unbounded" else ""
            policy.attempts = Setting(bounded, stop.value, detail)
        # wait
        wait = keywords.get("wait")
        if wait is None:
            policy.wait = Setting(UNKNOWN) if star else Setting(
                WAIT_NONE, None, "tenacity waits nothing between attempts by default"
            )
        else:
            kind_, culprit = self._tenacity_wait(wait.value, scope, order)
            policy.wait = Setting(kind_, wait.value, culprit)
        # retry on
        retry = keywords.get("retry")
        if retry is None:
            policy.retry_on = Setting(UNKNOWN) if star else Setting(
                ON_ANY, None, "tenacity retries every exception by default (no `retry=`)"
            )
        else:
            kind_, detail = self._tenacity_retry_on(retry.value, scope, order)
            policy.retry_on = Setting(kind_, retry.value, detail)
        del default
        return policy

    def _follow(self, expr: cst.BaseExpression, scope: Scope, order: int) -> cst.BaseExpression:
        """The expression a name (or ``self.attr``) was last assigned, else ``expr`` itself."""
        if isinstance(expr, cst.Name):
            assigned = self.model.assigned_expression(expr, scope, order)
            if assigned is not None:
                return assigned
        elif isinstance(expr, cst.Attribute):
            owner = self.model.resolve(expr.value, scope, order)
            if isinstance(owner, Instance) and not isinstance(owner.of, str):
                bindings = owner.of.instance_attributes.get(expr.attr.value) or owner.of.scope.bindings.get(expr.attr.value)
                if bindings and bindings[-1].expr is not None:
                    return bindings[-1].expr
        return expr

    def _int(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Limit:
        value = _number(self._follow(expr, scope, order))
        return value if value is not None else UNKNOWN

    def _tenacity_stop(self, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Tuple[Limit, Limit]:
        """(attempts, seconds) of a tenacity stop expression."""
        if depth > 8:
            return UNKNOWN, UNKNOWN
        expr = self._follow(expr, scope, order)
        if isinstance(expr, cst.BinaryOperation):
            left = self._tenacity_stop(expr.left, scope, order, depth + 1)
            right = self._tenacity_stop(expr.right, scope, order, depth + 1)
            if isinstance(expr.operator, cst.BitOr):
                return _combine_any(left[0], right[0]), _combine_any(left[1], right[1])
            if isinstance(expr.operator, cst.BitAnd):
                return _combine_all(left[0], right[0]), _combine_all(left[1], right[1])
            return UNKNOWN, UNKNOWN
        name = self.expr_name(expr.func if isinstance(expr, cst.Call) else expr, scope, order)
        if name == "tenacity.stop_never":
            return None, None
        if isinstance(expr, cst.Call):
            if name == "tenacity.stop_after_attempt" and expr.args:
                return self._int(expr.args[0].value, scope, order), None
            if name in ("tenacity.stop_after_delay", "tenacity.stop_before_delay") and expr.args:
                return None, self._int(expr.args[0].value, scope, order)
            if name in ("tenacity.stop_any", "tenacity.stop_all"):
                parts = [self._tenacity_stop(a.value, scope, order, depth + 1) for a in expr.args if not a.star]
                if not parts:
                    return UNKNOWN, UNKNOWN
                attempts, seconds = parts[0]
                join = _combine_any if name == "tenacity.stop_any" else _combine_all
                for a, s in parts[1:]:
                    attempts, seconds = join(attempts, a), join(seconds, s)
                return attempts, seconds
        return UNKNOWN, UNKNOWN

    _TENACITY_JITTER = frozenset({
        "tenacity.wait_random", "tenacity.wait_random_exponential", "tenacity.wait_full_jitter",
        "tenacity.wait_exponential_jitter",
    })
    _TENACITY_EXPONENTIAL = frozenset({"tenacity.wait_exponential"})
    _TENACITY_FIXED = frozenset({"tenacity.wait_fixed", "tenacity.wait_incrementing"})
    _TENACITY_COMBINE = frozenset({"tenacity.wait_chain", "tenacity.wait_combine"})

    def _tenacity_wait(self, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Tuple[str, str]:
        """(kind, the function that decides it) of a tenacity wait expression."""
        if depth > 8:
            return UNKNOWN, ""
        expr = self._follow(expr, scope, order)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
            return _join_waits([
                self._tenacity_wait(expr.left, scope, order, depth + 1),
                self._tenacity_wait(expr.right, scope, order, depth + 1),
            ])
        if not isinstance(expr, cst.Call):
            name = self.expr_name(expr, scope, order)
            if name == "tenacity.wait_none":
                return WAIT_NONE, "`wait_none`"
            return UNKNOWN, ""
        name = self.expr_name(expr.func, scope, order)
        if name in self._TENACITY_JITTER:
            return WAIT_JITTERED, f"`{name.rsplit('.', 1)[1]}`"
        if name in self._TENACITY_EXPONENTIAL:
            return WAIT_EXPONENTIAL, "`wait_exponential`"
        if name in self._TENACITY_FIXED:
            return WAIT_FIXED, f"`{name.rsplit('.', 1)[1]}`"
        if name == "tenacity.wait_none":
            return WAIT_NONE, "`wait_none()`"
        if name in self._TENACITY_COMBINE:
            parts = [self._tenacity_wait(a.value, scope, order, depth + 1) for a in expr.args if not a.star]
            if any(a.star for a in expr.args) or not parts:
                return UNKNOWN, ""
            kind, detail = _join_waits(parts)
            return kind, f"`{name.rsplit('.', 1)[1]}` of {detail}" if kind != UNKNOWN else ""
        return UNKNOWN, ""

    _TENACITY_SPECIFIC = frozenset({
        "tenacity.retry_if_result", "tenacity.retry_if_not_result", "tenacity.retry_if_exception",
        "tenacity.retry_if_exception_message", "tenacity.retry_if_not_exception_message",
        "tenacity.retry_if_not_exception_type", "tenacity.retry_unless_exception_type",
        "tenacity.retry_if_exception_cause_type", "tenacity.retry_never",
    })

    def _tenacity_retry_on(self, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Tuple[str, str]:
        if depth > 8:
            return UNKNOWN, ""
        expr = self._follow(expr, scope, order)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.BitOr, cst.BitAnd)):
            left = self._tenacity_retry_on(expr.left, scope, order, depth + 1)
            right = self._tenacity_retry_on(expr.right, scope, order, depth + 1)
            either = isinstance(expr.operator, cst.BitOr)
            if (left[0] == ON_ANY or right[0] == ON_ANY) if either else (left[0] == ON_ANY and right[0] == ON_ANY):
                return ON_ANY, left[1] if left[0] == ON_ANY else right[1]
            if UNKNOWN in (left[0], right[0]):
                return UNKNOWN, ""
            return ON_SPECIFIC, ""
        if not isinstance(expr, cst.Call):
            name = self.expr_name(expr, scope, order)
            if name == "tenacity.retry_always":
                return ON_ANY, "`retry_always` retries every outcome"
            if name in self._TENACITY_SPECIFIC:
                return ON_SPECIFIC, ""
            return UNKNOWN, ""
        name = self.expr_name(expr.func, scope, order)
        if name == "tenacity.retry_if_exception_type":
            argument = _argument(expr, "exception_types", 0)
            if argument is None:
                return ON_ANY, "`retry_if_exception_type()` without a type retries every exception"
            caught = self._exception_kind(argument.value, scope, order)
            if caught == ON_ANY:
                return ON_ANY, "`retry_if_exception_type` of `Exception` retries every exception"
            return caught, ""
        if name in ("tenacity.retry_any", "tenacity.retry_all"):
            parts = [self._tenacity_retry_on(a.value, scope, order, depth + 1) for a in expr.args if not a.star]
            if not parts:
                return UNKNOWN, ""
            kinds = [p[0] for p in parts]
            if (ON_ANY in kinds) if name == "tenacity.retry_any" else all(k == ON_ANY for k in kinds):
                return ON_ANY, next(p[1] for p in parts if p[0] == ON_ANY)
            return (UNKNOWN, "") if UNKNOWN in kinds else (ON_SPECIFIC, "")
        if name in self._TENACITY_SPECIFIC:
            return ON_SPECIFIC, ""
        return UNKNOWN, ""

    def _exception_kind(self, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> str:
        """ON_ANY for Exception/BaseException (or a tuple containing one), else specific."""
        if depth > 5:
            return UNKNOWN
        expr = self._follow(expr, scope, order)
        if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
            kinds = [self._exception_kind(e.value, scope, order, depth + 1) for e in expr.elements]
            if ON_ANY in kinds:
                return ON_ANY
            return UNKNOWN if UNKNOWN in kinds else ON_SPECIFIC
        name = self.expr_name(expr, scope, order)
        if name in _ANY_EXCEPTION:
            return ON_ANY
        if name is None:
            return UNKNOWN if not isinstance(expr, (cst.Name, cst.Attribute)) else ON_SPECIFIC
        return ON_SPECIFIC

    def _retry_with(self, call: CallSite) -> None:
        """``fn.retry_with(...)``: a copy of fn's tenacity policy with some settings replaced."""
        func = call.node.func
        assert isinstance(func, cst.Attribute)
        target = self.model.resolve(func.value, call.scope, call.order)
        if not isinstance(target, FunctionInfo):
            return
        base = self._decorator_policy(target)
        if base is None or base.library != "tenacity" or not isinstance(base.node, (cst.Call, cst.Decorator, cst.Name, cst.Attribute)):
            return
        keywords, star = _keywords(base.node) if isinstance(base.node, cst.Call) else ({}, False)
        override, override_star = _keywords(call.node)
        merged = self._tenacity(call.node, call.scope, call.order, "call", {**keywords, **override}, star or override_star)
        for attr, key in (("attempts", "stop"), ("wait", "wait"), ("retry_on", "retry")):
            if key not in override:
                setattr(merged, attr, replace(getattr(merged, attr), inherited=True))
        policy = self._add(merged)
        self.scopes.append(RetryScope(policy, "call", call.node, target.node, target))

    # backoff ----------------------------------------------------------------------------

    def _backoff(self, node: cst.Call, scope: Scope, order: int, predicate: bool) -> Policy:
        keywords, star = _keywords(node)
        policy = Policy("backoff", "decorator", node, scope=scope, order=order)
        tries = keywords.get("max_tries")
        seconds = keywords.get("max_time")
        policy.max_attempts = self._limit(tries, scope, order, star)
        policy.time_limit = self._limit(seconds, scope, order, star)
        kind = _bounded_kind(policy.max_attempts, policy.time_limit)
        detail = "backoff retries forever without `max_tries` or `max_time`" if kind == "unbounded" else ""
        policy.attempts = Setting(kind, (tries or seconds).value if (tries or seconds) else None, detail)
        # wait: the generator, jittered by full_jitter unless jitter=None
        wait_gen = _argument(node, "wait_gen", 0)
        generator = self.expr_name(wait_gen.value, scope, order) if wait_gen else None
        jitter = keywords.get("jitter")
        if jitter is None:
            policy.wait = Setting(UNKNOWN if star else WAIT_JITTERED)
        elif _is_none(jitter.value):
            if generator in ("backoff.expo", "backoff.fibo"):
                policy.wait = Setting(WAIT_EXPONENTIAL, jitter.value, f"`jitter=None` turns off the jitter of `{generator}`")
            elif generator == "backoff.constant":
                policy.wait = Setting(WAIT_FIXED, jitter.value, "`jitter=None` with `backoff.constant` waits the same interval every time")
            else:
                policy.wait = Setting(UNKNOWN, jitter.value)
        else:
            policy.wait = Setting(WAIT_JITTERED, jitter.value)
        if predicate:
            policy.retry_on = Setting(ON_RESULT)
        else:
            exception = _argument(node, "exception", 1)
            if exception is None:
                policy.retry_on = Setting(UNKNOWN)
            else:
                kind = self._exception_kind(exception.value, scope, order)
                detail = "`on_exception` of `Exception` retries every error" if kind == ON_ANY else ""
                policy.retry_on = Setting(kind, exception.value, detail)
        return policy

    def _limit(self, arg: Optional[cst.Arg], scope: Scope, order: int, star: bool) -> Limit:
        if arg is None:
            return UNKNOWN if star else None
        value = self._follow(arg.value, scope, order)
        if _is_none(value):
            return None
        number = _number(value)
        return number if number is not None else UNKNOWN

    # stamina ----------------------------------------------------------------------------

    def _stamina(self, node: cst.Call, scope: Scope, order: int, kind: str) -> Policy:
        keywords, star = _keywords(node)
        policy = Policy("stamina", kind, node, scope=scope, order=order)
        attempts = keywords.get("attempts")
        timeout = keywords.get("timeout")
        policy.max_attempts = self._limit(attempts, scope, order, star) if attempts or star else 10
        policy.time_limit = self._limit(timeout, scope, order, star) if timeout or star else 45.0
        bounded = _bounded_kind(policy.max_attempts, policy.time_limit)
        policy.attempts = Setting(
            bounded, (attempts or timeout).value if (attempts or timeout) else None,
            "`attempts=None, timeout=None` makes stamina retry forever" if bounded == "unbounded" else "",
        )
        jitter = keywords.get("wait_jitter")
        if jitter is not None and _is_false(self._follow(jitter.value, scope, order)):
            policy.wait = Setting(WAIT_EXPONENTIAL, jitter.value, "`wait_jitter=0` turns off stamina's jitter")
        else:
            policy.wait = Setting(UNKNOWN if star and jitter is None else WAIT_JITTERED)
        on = keywords.get("on")
        if on is None:
            policy.retry_on = Setting(UNKNOWN)
        else:
            kind_ = self._exception_kind(on.value, scope, order)
            policy.retry_on = Setting(kind_, on.value, "`on=Exception` retries every error" if kind_ == ON_ANY else "")
        return policy

    # retrying ---------------------------------------------------------------------------

    def _retrying(self, node: cst.CSTNode, scope: Scope, order: int) -> Policy:
        keywords, star = _keywords(node) if isinstance(node, cst.Call) else ({}, False)
        if isinstance(node, cst.Call) and _positional(node) and not keywords:
            keywords = {}  # @retry(fn) form: defaults
        policy = Policy("retrying", "decorator", node, scope=scope, order=order)
        tries = keywords.get("stop_max_attempt_number")
        delay = keywords.get("stop_max_delay")
        if "stop_func" in keywords or "stop" in keywords:
            policy.max_attempts = policy.time_limit = UNKNOWN
            policy.attempts = Setting(UNKNOWN)
        else:
            policy.max_attempts = self._limit(tries, scope, order, star)
            seconds = self._limit(delay, scope, order, star)
            policy.time_limit = seconds / 1000 if isinstance(seconds, (int, float)) else seconds
            kind = _bounded_kind(policy.max_attempts, policy.time_limit)
            detail = "retrying never stops without `stop_max_attempt_number` or `stop_max_delay`" if kind == "unbounded" else ""
            policy.attempts = Setting(kind, (tries or delay).value if (tries or delay) else None, detail)
        jitter_keys = ("wait_jitter_max", "wait_random_min", "wait_random_max")
        if any(k in keywords for k in jitter_keys):
            policy.wait = Setting(WAIT_JITTERED, keywords[next(k for k in jitter_keys if k in keywords)].value)
        elif "wait_func" in keywords or "wait" in keywords or star:
            policy.wait = Setting(UNKNOWN)
        elif "wait_exponential_multiplier" in keywords or "wait_exponential_max" in keywords:
            arg = keywords.get("wait_exponential_multiplier") or keywords["wait_exponential_max"]
            policy.wait = Setting(WAIT_EXPONENTIAL, arg.value, "`wait_exponential_multiplier` without `wait_jitter_max`")
        elif "wait_fixed" in keywords:
            policy.wait = Setting(WAIT_FIXED, keywords["wait_fixed"].value, "`wait_fixed` without `wait_jitter_max`")
        elif "wait_incrementing_start" in keywords or "wait_incrementing_increment" in keywords:
            arg = keywords.get("wait_incrementing_start") or keywords["wait_incrementing_increment"]
            policy.wait = Setting(WAIT_FIXED, arg.value, "`wait_incrementing` without `wait_jitter_max`")
        else:
            policy.wait = Setting(WAIT_NONE, None, "retrying waits nothing between attempts by default")
        on = keywords.get("retry_on_exception")
        if on is not None:
            policy.retry_on = Setting(ON_SPECIFIC, on.value)
        elif "retry_on_result" in keywords and "retry_on_exception" not in keywords:
            policy.retry_on = Setting(ON_ANY, None, "retrying retries every exception unless given `retry_on_exception=`")
        elif star:
            policy.retry_on = Setting(UNKNOWN)
        else:
            policy.retry_on = Setting(ON_ANY, None, "retrying retries every exception unless given `retry_on_exception=`")
        return policy

    # resilint ---------------------------------------------------------------------------

    def _resilint(self, node: cst.CSTNode, scope: Scope, order: int, kind: str) -> Policy:
        keywords, star = _keywords(node) if isinstance(node, cst.Call) else ({}, False)
        policy = Policy("resilint", kind, node, scope=scope, order=order)
        attempts = _argument(node, "attempts", 0 if kind == "iterator" else None) if isinstance(node, cst.Call) else None
        policy.max_attempts = self._int(attempts.value, scope, order) if attempts else (UNKNOWN if star else 3)
        policy.time_limit = UNKNOWN
        policy.attempts = Setting("bounded" if isinstance(policy.max_attempts, int) else UNKNOWN)
        policy.wait = Setting(WAIT_JITTERED, None, "full jitter")
        policy.retry_on = Setting(ON_SPECIFIC, None, "transport errors and retryable statuses")
        idempotent = keywords.get("idempotent")
        policy.guards_non_idempotent = "method" in keywords or (
            idempotent is not None and _is_false(idempotent.value)
        ) or "policy" in keywords
        return policy

    # urllib3 / requests / httpx -----------------------------------------------------------

    def _urllib3_retry(self, node: cst.Call, scope: Scope, order: int) -> Policy:
        keywords, star = _keywords(node)
        policy = Policy("urllib3", "urllib3-retry", node, scope=scope, order=order)
        total = _argument(node, "total", 0)
        if total is not None:
            value = self._follow(total.value, scope, order)
            if _is_false(value) and isinstance(value, cst.Name):
                policy.max_attempts = 0
            else:
                policy.max_attempts = self._limit(total, scope, order, star)
                if policy.max_attempts is None:
                    policy.max_attempts = UNKNOWN  # other counters (connect=, read=) may bound it
        else:
            policy.max_attempts = UNKNOWN if star else 10  # Retry()'s default total
        policy.time_limit = UNKNOWN
        policy.attempts = Setting(UNKNOWN if policy.max_attempts == UNKNOWN else "bounded")
        factor = keywords.get("backoff_factor")
        jitter = keywords.get("backoff_jitter")
        factor_value = _number(self._follow(factor.value, scope, order)) if factor else None
        jitter_value = _number(self._follow(jitter.value, scope, order)) if jitter else None
        if factor is None:
            policy.wait = Setting(UNKNOWN if star else WAIT_NONE)
        elif jitter is not None and jitter_value != 0:
            policy.wait = Setting(WAIT_JITTERED, jitter.value)
        elif factor_value is not None and factor_value <= 0:
            policy.wait = Setting(WAIT_NONE, factor.value)
        elif star and jitter is None:
            policy.wait = Setting(UNKNOWN, factor.value)
        else:
            policy.wait = Setting(
                WAIT_EXPONENTIAL, factor.value,
                "urllib3 `Retry(backoff_factor=...)` without `backoff_jitter` sleeps exactly factor·2^n",
            )
        statuses = keywords.get("status_forcelist")
        policy.retry_on = Setting(ON_STATUS if statuses else ON_SPECIFIC, statuses.value if statuses else None)
        policy.unsafe_methods = self._urllib3_methods(keywords, scope, order)
        policy.guards_non_idempotent = policy.unsafe_methods is None
        return policy

    def _urllib3_methods(self, keywords: Dict[str, cst.Arg], scope: Scope, order: int) -> Optional[Setting]:
        for key in ("allowed_methods", "method_whitelist"):
            arg = keywords.get(key)
            if arg is None:
                continue
            value = self._follow(arg.value, scope, order)
            if _is_none(value) or (key == "method_whitelist" and isinstance(value, cst.Name) and value.value == "False"):
                return Setting(
                    "all", arg.value,
                    f"`{key}={value.value}` makes urllib3 retry every method, POST and PATCH included",  # type: ignore[attr-defined]
                )
            methods = self._method_strings(value, scope, order)
            unsafe = sorted(m for m in methods if m in ("POST", "PATCH"))
            if unsafe:
                return Setting(
                    "some", arg.value,
                    f"`{key}` includes {' and '.join(unsafe)}, so urllib3 retries non-idempotent requests",
                )
        return None

    def _method_strings(self, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Set[str]:
        if depth > 5:
            return set()
        expr = self._follow(expr, scope, order)
        found: Set[str] = set()
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            for element in expr.elements:
                found |= self._method_strings(element.value, scope, order, depth + 1)
        elif isinstance(expr, cst.BinaryOperation):
            found |= self._method_strings(expr.left, scope, order, depth + 1)
            found |= self._method_strings(expr.right, scope, order, depth + 1)
        elif isinstance(expr, cst.Call) and expr.args:
            found |= self._method_strings(expr.args[0].value, scope, order, depth + 1)
        else:
            text = _string(expr)
            if text:
                found.add(text.upper())
        return found

    def _transport(self, call: CallSite, library: str, kind: str, keyword: str, position: Optional[int]) -> None:
        arg = _argument(call.node, keyword, position)
        if arg is None:
            if kind == "pool":
                # urllib3 pools retry 3 times by default (Retry.DEFAULT), never POST on read errors.
                policy = Policy(library, kind, call.node, scope=call.scope, order=call.order, max_attempts=3,
                                time_limit=UNKNOWN, attempts=Setting("bounded"), wait=Setting(WAIT_NONE),
                                retry_on=Setting(ON_SPECIFIC), guards_non_idempotent=True)
                self.scopes.append(RetryScope(self._add(policy), kind, call.node))
            return
        value = self._follow(arg.value, call.scope, call.order)
        if isinstance(value, cst.Call) and id(value) in self.by_node:
            retry_policy = self.by_node[id(value)]
            self.scopes.append(RetryScope(retry_policy, kind, call.node))
            return
        number = _number(value)
        if number == 0 or _is_false(value) and isinstance(value, cst.Name):
            return
        policy = Policy(
            library, kind, call.node, scope=call.scope, order=call.order,
            max_attempts=number if number is not None else UNKNOWN, time_limit=UNKNOWN,
            attempts=Setting("bounded" if number is not None else UNKNOWN, arg.value),
            wait=Setting(UNKNOWN if library == "httpx" else WAIT_NONE),
            retry_on=Setting(ON_SPECIFIC, None, "connect errors" if library == "httpx" else ""),
            guards_non_idempotent=True,
        )
        self.scopes.append(RetryScope(self._add(policy), kind, call.node))

    # --- decorators ------------------------------------------------------------------------

    def _decorator_policy(self, function: FunctionInfo) -> Optional[Policy]:
        for scope in self._decorator_scopes(function):
            return scope.policy
        return None

    def _decorator_scopes(self, function: FunctionInfo) -> List[RetryScope]:
        cached = self.decorated.get(id(function))
        if cached is not None:
            return cached
        found: List[RetryScope] = []
        outer = function.scope.parent or function.scope
        order = 1 << 62
        for decorator in function.decorators:
            policy = self._decorator(decorator, function, outer, order)
            if policy is not None:
                found.append(RetryScope(policy, "task" if policy.library == "celery" else "decorator", decorator, function.node, function))
        self.decorated[id(function)] = found
        return found

    def _decorated(self, function: FunctionInfo) -> None:
        scopes = self._decorator_scopes(function)
        self.scopes.extend(scopes)
        self._celery_self_retry(function)

    def _decorator(self, decorator: cst.Decorator, function: FunctionInfo, scope: Scope, order: int) -> Optional[Policy]:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            policy = self.by_node.get(id(expr))
            if policy is not None:
                return policy
            return self._celery_task(expr, function, scope, order)
        name = self.expr_name(expr, scope, order)
        if name == _TENACITY_DECORATOR:
            return self._add(self._tenacity(decorator, scope, order, "decorator"))
        if name in _RESILINT_DECORATOR:
            return self._add(self._resilint(decorator, scope, order, "decorator"))
        if name == "retrying.retry":
            return self._add(self._retrying(decorator, scope, order))
        # a policy stored in a variable: ``api_retry = tenacity.retry(...)``; ``@api_retry``
        assigned = self.model.assigned_expression(expr, scope, order) if isinstance(expr, cst.Name) else None
        if isinstance(assigned, cst.Call):
            return self.by_node.get(id(assigned))
        return None

    # celery -----------------------------------------------------------------------------

    def _is_task_decorator(self, call: cst.Call, scope: Scope, order: int) -> bool:
        name = self.expr_name(call.func, scope, order)
        if name in _CELERY_TASK_DECORATORS:
            return True
        # Applications usually import their Celery app from a project module; accept any
        # ``<x>.task(...)``/``shared_task(...)`` that passes celery's retry options.
        if name is not None and (name.endswith(".task") or name.endswith("shared_task")):
            keywords, _ = _keywords(call)
            return bool(_CELERY_OPTIONS & set(keywords)) or "bind" in keywords
        return False

    def _celery_task(self, call: cst.Call, function: FunctionInfo, scope: Scope, order: int) -> Optional[Policy]:
        if not self._is_task_decorator(call, scope, order):
            return None
        keywords, star = _keywords(call)
        autoretry = keywords.get("autoretry_for")
        if autoretry is None:
            return None  # retried only through self.retry(), recognised per call
        policy = Policy("celery", "task", call, scope=scope, order=order)
        self._celery_limits(policy, keywords, star, scope, order)
        backoff = keywords.get("retry_backoff")
        jitter = keywords.get("retry_jitter")
        if backoff is None or _is_false(backoff.value):
            if star:
                policy.wait = Setting(UNKNOWN)
            else:
                delay = keywords.get("default_retry_delay")
                seconds = _number(delay.value) if delay else 180
                text = f"{seconds:g} s" if isinstance(seconds, (int, float)) else "`default_retry_delay`"
                policy.wait = Setting(
                    WAIT_FIXED, (backoff or autoretry).value,
                    f"celery's `autoretry_for` without `retry_backoff` waits a fixed `default_retry_delay` ({text}) between attempts",
                )
        elif jitter is not None and _is_false(jitter.value):
            policy.wait = Setting(WAIT_EXPONENTIAL, jitter.value, "`retry_jitter=False` turns off celery's jitter")
        else:
            policy.wait = Setting(WAIT_JITTERED, backoff.value)
        kind = self._exception_kind(autoretry.value, scope, order)
        policy.retry_on = Setting(kind, autoretry.value, "`autoretry_for` of `Exception` retries every error" if kind == ON_ANY else "")
        return self._add(policy)

    def _celery_limits(self, policy: Policy, keywords: Dict[str, cst.Arg], star: bool, scope: Scope, order: int,
                       override: Optional[cst.Arg] = None) -> None:
        arg = override or keywords.get("max_retries")
        if arg is None:
            policy.max_attempts = UNKNOWN if star else 3 + 1
            policy.attempts = Setting(UNKNOWN if star else "bounded")
        else:
            limit = self._limit(arg, scope, order, False)
            policy.max_attempts = limit + 1 if isinstance(limit, (int, float)) else limit
            kind = _bounded_kind(policy.max_attempts, None)
            policy.attempts = Setting(kind, arg.value, "`max_retries=None` makes celery retry forever" if kind == "unbounded" else "")
        policy.time_limit = None

    def _celery_self_retry(self, function: FunctionInfo) -> None:
        """``@app.task(bind=True)`` whose body calls ``self.retry(...)``."""
        task = None
        for decorator in function.decorators:
            expr = decorator.decorator
            if isinstance(expr, cst.Call):
                scope = function.scope.parent or function.scope
                if self._is_task_decorator(expr, scope, 1 << 62):
                    keywords, _ = _keywords(expr)
                    bind = keywords.get("bind")
                    if bind is not None and _is_true(bind.value):
                        task = (expr, keywords)
        if task is None:
            return
        params = list(function.node.params.posonly_params) + list(function.node.params.params)
        if not params:
            return
        self_name = params[0].name.value
        decorator_call, decorator_keywords = task
        for call in self.model.calls:
            if call.scope is not function.scope:
                continue
            func = call.node.func
            if not (isinstance(func, cst.Attribute) and func.attr.value == "retry"
                    and isinstance(func.value, cst.Name) and func.value.value == self_name):
                continue
            policy = Policy("celery", "task-retry", call.node, scope=call.scope, order=call.order)
            keywords, star = _keywords(call.node)
            self._celery_limits(policy, decorator_keywords, star, call.scope, call.order, keywords.get("max_retries"))
            countdown = keywords.get("countdown")
            eta = keywords.get("eta")
            if eta is not None or star:
                policy.wait = Setting(UNKNOWN)
            elif countdown is None:
                delay = decorator_keywords.get("default_retry_delay")
                seconds = _number(delay.value) if delay else 180
                text = f"{seconds:g} s" if isinstance(seconds, (int, float)) else "`default_retry_delay`"
                policy.wait = Setting(
                    WAIT_FIXED, call.node,
                    f"`self.retry()` without `countdown` waits celery's fixed `default_retry_delay` ({text})",
                )
            else:
                kind, detail = self.delay_kind(countdown.value, call.scope, call.order, None)
                policy.wait = Setting(kind, countdown.value, f"`countdown={detail}`" if detail else "")
            handler = next((n for n in reversed(call.stack) if isinstance(n, cst.ExceptHandler)), None)
            if handler is not None:
                kind = self._handler_kind(handler, call.scope, call.order)
                policy.retry_on = Setting(kind, handler, "")
                if kind == ON_ANY:
                    policy.handlers = (handler,)
            else:
                policy.retry_on = Setting(UNKNOWN)
            policy = self._add(policy)
            self.scopes.append(RetryScope(policy, "task", call.node, function.node, function))

    # --- applications: Retrying(...) loops and calls, retry(...)(fn) -----------------------------

    def _applications(self) -> None:
        for call in self.model.calls:
            node = call.node
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "retry_with":
                self._retry_with(call)
                continue
            # retry(...)(fn) / Retrying(...)(fn, ...)
            if isinstance(func, cst.Call) and id(func) in self.by_node:
                self._apply(self.by_node[id(func)], call)
                continue
            # r = Retrying(...); r(fn, ...) / r.call(fn) / r.wraps(fn)
            target = func
            if isinstance(func, cst.Attribute) and func.attr.value in ("call", "wraps", "__call__"):
                target = func.value
            if isinstance(target, (cst.Name, cst.Attribute)):
                assigned = self._follow(target, call.scope, call.order)
                if isinstance(assigned, cst.Call) and assigned is not node and id(assigned) in self.by_node:
                    policy = self.by_node[id(assigned)]
                    if policy.library in ("tenacity", "retrying", "backoff", "stamina", "resilint") and (
                        target is func or policy.kind == "iterator"
                    ):
                        self._apply(policy, call)
            # tenacity.retry(fn) without arguments: ``retry(fn)``
            name = self.names.get(id(node))
            if name in (_TENACITY_DECORATOR, "retrying.retry") and len(node.args) == 1 and node.args[0].keyword is None:
                value = self.model.resolve(node.args[0].value, call.scope, call.order)
                if isinstance(value, FunctionInfo):
                    policy = self.by_node.get(id(node))
                    if policy is not None:
                        self.scopes.append(RetryScope(policy, "call", node, value.node, value))

    def _apply(self, policy: Policy, call: CallSite) -> None:
        positional = _positional(call.node)
        if not positional:
            return
        value = self.model.resolve(positional[0].value, call.scope, call.order)
        if isinstance(value, FunctionInfo):
            self.scopes.append(RetryScope(policy, "call", call.node, value.node, value))
        else:
            self.scopes.append(RetryScope(policy, "call", call.node))

    # --- loops ---------------------------------------------------------------------------

    def _loops(self) -> None:
        loops: Dict[int, Tuple[cst.CSTNode, CallSite]] = {}
        direct: Dict[int, List[CallSite]] = {}
        for call in self.model.calls:
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
            if isinstance(loop, cst.For) and self._library_loop(loop, sample):
                continue
            policy = self._handwritten(loop, sample, direct.get(key, []))
            if policy is not None:
                self.scopes.append(RetryScope(self._add(policy), "loop", loop, loop, sample.scope.enclosing_function))

    def _library_loop(self, loop: cst.For, sample: CallSite) -> bool:
        iterator = loop.iter
        if isinstance(iterator, (cst.Name, cst.Attribute)):
            iterator = self._follow(iterator, sample.scope, sample.order)
        policy = self.by_node.get(id(iterator)) if isinstance(iterator, cst.Call) else None
        if policy is None:
            return False
        self.scopes.append(RetryScope(policy, "iterator", loop, loop, sample.scope.enclosing_function))
        return True

    def _handwritten(self, loop: cst.CSTNode, sample: CallSite, calls: List[CallSite]) -> Optional[Policy]:
        assert isinstance(loop, (cst.For, cst.While))
        body = _block(loop.body)
        scope, order = sample.scope, sample.order
        counted = isinstance(loop, cst.While) or self._is_counting(loop, scope, order)
        sleeps = [c for c in calls if self.name(c) in _SLEEPS]
        if not counted and not sleeps:
            return None  # a failover loop: next host, no pause
        flags = self._while_flags(loop)
        handlers: List[cst.ExceptHandler] = []
        for node in _walk_statements(body):
            if not isinstance(node, (cst.Try, cst.TryStar)):
                continue
            going_round = [h for h in node.handlers if not _leaves(_block(h.body)) and self._is_failure(h, scope, order)]
            if not going_round:
                continue
            try_body = _block(node.body)
            success = (
                _has_exit(try_body)
                or (node.orelse is not None and _has_exit(_block(node.orelse.body)))
                # ``except X: sleep(); continue`` then an unconditional ``break``/``return``
                or (any(_has_continue(_block(h.body)) for h in going_round) and _leaves(body))
                or bool(flags & _assigned_names(try_body))
            )
            if not success or not self._calls_out(node, calls):
                continue
            handlers.extend(going_round)
        status_ifs = [] if handlers else self._status_ifs(body, flags, scope, order)
        if not handlers and not status_ifs:
            return None
        policy = Policy("loop", "loop", loop, scope=scope, order=order)
        if handlers:
            kinds = [self._handler_kind(h, scope, order) for h in handlers]
            policy.handlers = tuple(h for h, k in zip(handlers, kinds) if k == ON_ANY)
            if policy.handlers:
                policy.retry_on = Setting(ON_ANY, policy.handlers[0], "")
            else:
                policy.retry_on = Setting(UNKNOWN if UNKNOWN in kinds else ON_SPECIFIC)
        else:
            policy.retry_on = Setting(ON_STATUS, status_ifs[0])
        self._loop_limit(policy, loop, body, scope, order)
        self._loop_wait(policy, sleeps, calls, scope)
        return policy

    def _is_counting(self, loop: cst.For, scope: Scope, order: int) -> bool:
        iterator = loop.iter
        if isinstance(iterator, cst.Call):
            name = self.expr_name(iterator.func, scope, order)
            return name in ("builtins.range", "itertools.count", "itertools.repeat", "builtins.enumerate") and (
                name != "builtins.enumerate" or self._is_counting_iter(iterator, scope, order)
            )
        return False

    def _is_counting_iter(self, call: cst.Call, scope: Scope, order: int) -> bool:
        if not call.args or not isinstance(call.args[0].value, cst.Call):
            return False
        return self.expr_name(call.args[0].value.func, scope, order) in ("builtins.range", "itertools.count", "itertools.repeat")

    def _while_flags(self, loop: cst.CSTNode) -> Set[str]:
        """Names a ``while`` condition waits for (``while not done``, ``while result is None``)."""
        if not isinstance(loop, cst.While):
            return set()
        test = loop.test
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test = test.expression
        elif isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and _is_none(test.comparisons[0].comparator):
            test = test.left
        else:
            return set()
        text = _dotted(test)
        return {text} if text else set()

    def _is_failure(self, handler: cst.ExceptHandler, scope: Scope, order: int) -> bool:
        if handler.type is None:
            return True
        types = handler.type
        elements = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else [types]
        names = [self.expr_name(e, scope, order) for e in elements]
        return not all(n in _NOT_FAILURES for n in names)

    def _handler_kind(self, handler: cst.ExceptHandler, scope: Scope, order: int) -> str:
        kind = ON_ANY if handler.type is None else self._exception_kind(handler.type, scope, order)
        if kind == ON_ANY and self._classifies(handler):
            return UNKNOWN
        return kind

    def _classifies(self, handler: cst.ExceptHandler) -> bool:
        """A catch-all handler that decides what to retry itself: it hands the exception to a
        predicate (``if not should_retry(exc): raise``, ``helper(exc, ...)``) or leaves on a
        condition that is not an attempt counter."""
        name = handler.name.name.value if handler.name is not None and isinstance(handler.name.name, cst.Name) else None
        body = _block(handler.body)
        counters = _counters(body)
        for node in _walk_statements(body):
            if isinstance(node, cst.If) and _conditional_exit(node):
                if not self._mentions_bound(node.test, counters, None, 0, names_only=True):
                    return True
            if name is None:
                continue
            for part in _expressions(node) if isinstance(node, (cst.Expr, cst.Assign, cst.If, cst.Return, cst.Raise)) else ():
                if isinstance(part, cst.Call) and not _is_logging(part):
                    for arg in part.args:
                        if isinstance(arg.value, cst.Name) and arg.value.value == name:
                            return True
            if isinstance(node, cst.For) and any(isinstance(p, cst.Name) and p.value == name for p in _expressions(node)):
                return True
        return False

    def _calls_out(self, node: cst.CSTNode, calls: List[CallSite]) -> bool:
        """The try body calls something that is not a builtin (input(), int() …)."""
        handler_ids = {id(h) for h in getattr(node, "handlers", ())}
        for call in calls:
            if not any(n is node for n in call.stack):
                continue
            if any(id(n) in handler_ids for n in call.stack):
                continue
            name = self.name(call)
            if name is None or not name.startswith("builtins."):
                return True
        return False

    # status checks ------------------------------------------------------------------------

    def _status_ifs(self, body: Sequence[cst.BaseStatement], flags: Set[str], scope: Scope, order: int) -> List[cst.If]:
        found = []
        loop_exits = _has_exit(body)
        for node in _walk_statements(body):
            if not isinstance(node, cst.If):
                continue
            polarity = self._status_polarity(node.test)
            if polarity is None:
                continue
            good, bad = (node.body, node.orelse) if polarity == "good" else (node.orelse, node.body)
            good_stmts, bad_stmts = _branch(good), _branch(bad)
            bad_goes_round = _has_continue(bad_stmts) or not _leaves(bad_stmts)
            if not bad_goes_round:
                continue
            good_leaves = bool(good_stmts) and (_has_exit(good_stmts) or bool(flags & _assigned_names(good_stmts)))
            if good_leaves or (_has_continue(bad_stmts) and loop_exits):
                found.append(node)
        return found

    def _status_polarity(self, test: cst.BaseExpression) -> Optional[str]:
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

    # limits and waits of hand-written loops -------------------------------------------------------

    def _loop_limit(self, policy: Policy, loop: cst.CSTNode, body: Sequence[cst.BaseStatement], scope: Scope, order: int) -> None:
        if isinstance(loop, cst.For):
            iterator = loop.iter
            name = self.expr_name(iterator.func, scope, order) if isinstance(iterator, cst.Call) else None
            if name == "builtins.enumerate" and isinstance(iterator, cst.Call):
                iterator = iterator.args[0].value
                name = self.expr_name(iterator.func, scope, order) if isinstance(iterator, cst.Call) else None
            if name == "builtins.range" and isinstance(iterator, cst.Call):
                numbers = [_number(a.value) for a in iterator.args]
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
        elif not (_is_true(loop.test) or self._while_flags(loop)):
            policy.max_attempts, policy.time_limit = UNKNOWN, UNKNOWN
            policy.attempts = Setting("bounded" if self._mentions_bound(loop.test, set(), scope, order) else UNKNOWN, loop.test)
            return
        # ``while True`` / ``while not done`` / ``for _ in itertools.count()``: look for a way out.
        counters = _counters(body)
        verdict = "unbounded"
        for node in _walk_statements(body):
            if isinstance(node, cst.If) and _conditional_exit(node):
                if self._mentions_bound(node.test, counters, scope, order):
                    verdict = "bounded"
                    break
                if self._inside_handler(node, body):
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

    def _inside_handler(self, target: cst.CSTNode, body: Sequence[cst.BaseStatement]) -> bool:
        for node in _walk_statements(body):
            if isinstance(node, cst.ExceptHandler):
                if any(n is target for n in _walk_statements(_block(node.body))):
                    return True
        return False

    def _mentions_bound(self, test: cst.BaseExpression, counters: Set[str], scope: Optional[Scope], order: int,
                        names_only: bool = False) -> bool:
        for node in _expressions(test):
            if isinstance(node, (cst.Name, cst.Attribute)):
                text = _dotted(node)
                if text is None:
                    continue
                if text in counters or _BOUND_WORDS.search(text.rsplit(".", 1)[-1]):
                    return True
            if isinstance(node, cst.Call) and scope is not None:
                name = self.expr_name(node.func, scope, order)
                if name in _CLOCKS or (name or "").endswith(".time"):
                    return True
        return False

    def _loop_wait(self, policy: Policy, sleeps: List[CallSite], calls: List[CallSite], scope: Scope) -> None:
        loop = policy.node
        self.growing = _growing(_block(loop.body)) if isinstance(loop, (cst.For, cst.While)) else set()
        if not sleeps:
            hidden = any(
                re.search(r"sleep|wait|backoff|delay|pause|throttle", (self.name(c) or _dotted(c.node.func) or ""), re.I)
                for c in calls
            )
            policy.wait = Setting(UNKNOWN if hidden else WAIT_NONE, None, "" if hidden else "retries immediately, with no pause")
            return
        results = []
        for call in sleeps:
            argument = _argument(call.node, "seconds", 0) or _argument(call.node, "delay", 0)
            if argument is None:
                results.append((WAIT_NONE, "", call))
                continue
            kind, detail = self.delay_kind(argument.value, call.scope, call.order, policy.node)
            results.append((kind, detail, call))
        kinds = [r[0] for r in results]
        if WAIT_JITTERED in kinds:
            chosen = results[kinds.index(WAIT_JITTERED)]
        elif UNKNOWN in kinds:
            chosen = results[kinds.index(UNKNOWN)]
        elif WAIT_EXPONENTIAL in kinds:
            chosen = results[kinds.index(WAIT_EXPONENTIAL)]
        else:
            chosen = results[0]
        kind, detail, call = chosen
        name = (self.name(call) or "sleep")
        text = f"`{name}({detail})`" if detail else f"`{name}`"
        if kind == WAIT_EXPONENTIAL:
            text += " grows exponentially but has no random term"
        elif kind == WAIT_FIXED:
            text += " waits a constant interval with no random term"
        policy.wait = Setting(kind, call.node, text)

    def delay_kind(
        self, expr: cst.BaseExpression, scope: Scope, order: int, loop: Optional[cst.CSTNode], depth: int = 0
    ) -> Tuple[str, str]:
        """(kind, source text) of a sleep argument: fixed / exponential / jittered / unknown."""
        kind = self._delay(expr, scope, order, loop, depth)
        return kind, code_of(expr)

    def _delay(self, expr: cst.BaseExpression, scope: Scope, order: int, loop: Optional[cst.CSTNode], depth: int) -> str:
        if depth > 6:
            return UNKNOWN
        if isinstance(expr, (cst.Integer, cst.Float)):
            return WAIT_FIXED
        if isinstance(expr, cst.UnaryOperation):
            return self._delay(expr.expression, scope, order, loop, depth + 1)
        if isinstance(expr, cst.BinaryOperation):
            parts = [self._delay(expr.left, scope, order, loop, depth + 1), self._delay(expr.right, scope, order, loop, depth + 1)]
            if WAIT_JITTERED in parts:
                return WAIT_JITTERED
            if UNKNOWN in parts:
                return UNKNOWN
            if isinstance(expr.operator, (cst.Power, cst.LeftShift)) or WAIT_EXPONENTIAL in parts:
                return WAIT_EXPONENTIAL
            return WAIT_FIXED
        if isinstance(expr, cst.Name):
            if _JITTER_WORD.search(expr.value):
                return WAIT_JITTERED
            if expr.value in self.growing:
                return WAIT_EXPONENTIAL
            if expr.value in self._visiting:
                return WAIT_FIXED  # ``delay = delay + 1``: judged by the other terms
            bindings = self._bindings(expr.value, scope)
            if not bindings:
                return UNKNOWN
            if any(b.imported or b.defined or b.entered is not None for b in bindings):
                return UNKNOWN
            sources = [b for b in bindings if b.expr is not None]
            if not sources:
                if isinstance(loop, cst.For) and expr.value in _target_names(loop.target) and not self._is_counting(loop, scope, order):
                    return UNKNOWN  # ``for delay in delays_generator()``: drawn from elsewhere
                return WAIT_FIXED  # a parameter or counter: chosen by the caller, no random term
            self._visiting.add(expr.value)
            try:
                kinds = [self._delay(b.expr, b.scope, b.order, loop, depth + 1) for b in sources]  # type: ignore[arg-type]
            finally:
                self._visiting.discard(expr.value)
            return _strongest(kinds)
        if isinstance(expr, cst.Attribute):
            attr = expr.attr.value
            if _JITTER_WORD.search(attr):
                return WAIT_JITTERED
            if "after" in attr.lower():
                return UNKNOWN  # a server's Retry-After
            return WAIT_FIXED  # a configuration value: self.retry_delay, settings.RETRY_DELAY
        if isinstance(expr, cst.Subscript):
            value = self._follow(expr.value, scope, order)
            if isinstance(value, (cst.List, cst.Tuple)) and all(_number(e.value) is not None for e in value.elements):
                return WAIT_FIXED
            return UNKNOWN
        if isinstance(expr, cst.Call):
            name = self.expr_name(expr.func, scope, order)
            if name is not None and (name.startswith(_RANDOM_MODULES) or name in _JITTERED_HELPERS
                                     or _JITTER_WORD.search(name.rsplit(".", 1)[-1])):
                return WAIT_JITTERED
            func_text = _dotted(expr.func) or ""
            if _JITTER_WORD.search(func_text.rsplit(".", 1)[-1]):
                return WAIT_JITTERED
            if name in _PURE_FUNCTIONS:
                parts = [self._delay(a.value, scope, order, loop, depth + 1) for a in expr.args if not a.star]
                return _strongest(parts) if parts else UNKNOWN
            target = self.model.resolve(expr.func, scope, order)
            if isinstance(target, FunctionInfo) and target.returns and depth < 3:
                saved, self.growing = self.growing, set()
                try:
                    kinds = [self._delay(r, target.scope, 1 << 62, None, depth + 1) for r in target.returns]
                finally:
                    self.growing = saved
                return _strongest(kinds)
            return UNKNOWN
        return UNKNOWN

    def _bindings(self, name: str, scope: Scope) -> List[Binding]:
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
    return {n.value for n in _expressions(target) if isinstance(n, cst.Name)}


def _branch(node: Optional[cst.CSTNode]) -> Sequence[cst.BaseStatement]:
    if node is None:
        return []
    if isinstance(node, cst.Else):
        return _block(node.body)
    if isinstance(node, cst.If):
        return [node]
    return _block(node)  # type: ignore[arg-type]


def _growing(stmts: Sequence[cst.BaseStatement]) -> Set[str]:
    """Names multiplied in the loop (``delay *= 2``, ``delay = min(delay * 2, cap)``)."""
    names: Set[str] = set()
    for node in _walk_statements(stmts):
        if isinstance(node, cst.AugAssign) and isinstance(node.operator, (cst.MultiplyAssign, cst.PowerAssign, cst.LeftShiftAssign)):
            text = _dotted(node.target)
            if text:
                names.add(text)
        elif isinstance(node, cst.Assign) and len(node.targets) == 1:
            text = _dotted(node.targets[0].target)
            if text is None:
                continue
            for part in _expressions(node.value):
                if isinstance(part, cst.BinaryOperation) and isinstance(part.operator, (cst.Multiply, cst.Power, cst.LeftShift)):
                    if _dotted(part.left) == text or _dotted(part.right) == text:
                        names.add(text)
    return names


_LOGGING_METHODS = frozenset({
    "debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print", "append",
    "add", "extend", "format", "str", "repr", "type", "isinstance", "print_exc", "format_exc",
    "retry",  # celery's self.retry(exc=exc) re-raises for a retry: it decides nothing
})


def _is_logging(call: cst.Call) -> bool:
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    return name in _LOGGING_METHODS


def _conditional_exit(node: cst.If) -> bool:
    """An ``if`` one of whose branches leaves the loop."""
    if _leaves(_block(node.body)) or any(isinstance(n, (cst.Raise, cst.Return, cst.Break)) for n in _walk_statements(_block(node.body))):
        return True
    orelse = node.orelse
    if isinstance(orelse, cst.Else):
        return _leaves(_block(orelse.body))
    return False


def _strongest(kinds: Sequence[str]) -> str:
    """Combine the kinds of the terms of one delay: any random term makes it jittered."""
    if WAIT_JITTERED in kinds:
        return WAIT_JITTERED
    if UNKNOWN in kinds or not kinds:
        return UNKNOWN
    if WAIT_EXPONENTIAL in kinds:
        return WAIT_EXPONENTIAL
    return WAIT_FIXED


def _status_codes(node: cst.BaseExpression) -> List[int]:
    values: List[int] = []
    elements: Iterable[cst.BaseExpression]
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        elements = [e.value for e in node.elements]
    else:
        elements = [node]
    for element in elements:
        number = _number(element)
        if isinstance(number, int) and 100 <= number < 600:
            values.append(number)
        else:
            return []
    return values


def _bounded_kind(attempts: Limit, seconds: Limit) -> str:
    if isinstance(attempts, (int, float)) or isinstance(seconds, (int, float)):
        return "bounded"
    if attempts is None and seconds is None:
        return "unbounded"
    return UNKNOWN


def _combine_any(a: Limit, b: Limit) -> Limit:
    """Stop when either stops: the smaller limit."""
    if a is None:
        return b
    if b is None:
        return a
    if a == UNKNOWN or b == UNKNOWN:
        return a if isinstance(a, (int, float)) else (b if isinstance(b, (int, float)) else UNKNOWN)
    return min(a, b)  # type: ignore[type-var]


def _combine_all(a: Limit, b: Limit) -> Limit:
    """Stop only when both say so: unbounded if either is."""
    if a is None or b is None:
        return None
    if a == UNKNOWN or b == UNKNOWN:
        return UNKNOWN
    return max(a, b)  # type: ignore[type-var]


def _join_waits(parts: List[Tuple[str, str]]) -> Tuple[str, str]:
    kinds = [p[0] for p in parts]
    if WAIT_JITTERED in kinds:
        return WAIT_JITTERED, next(p[1] for p in parts if p[0] == WAIT_JITTERED)
    if UNKNOWN in kinds:
        return UNKNOWN, ""
    details = " + ".join(p[1] for p in parts if p[1])
    if WAIT_EXPONENTIAL in kinds:
        return WAIT_EXPONENTIAL, details
    if WAIT_FIXED in kinds:
        return WAIT_FIXED, details
    return WAIT_NONE, details


_EMPTY_MODULE = cst.Module([])


def code_of(node: cst.CSTNode, limit: int = 60) -> str:
    try:
        text = _EMPTY_MODULE.code_for_node(node)
    except Exception:  # pragma: no cover - defensive
        return ""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def calls_within(model: SemanticModel, scope: RetryScope) -> Iterator[CallSite]:
    """The call sites executed by one attempt of the scope's code (not in nested defs)."""
    covers = scope.covers
    if covers is None:
        return
    for call in model.calls:
        stack = call.stack
        for index in range(len(stack) - 1, -1, -1):
            node = stack[index]
            if node is covers:
                # for a loop scope, the iterator expression is evaluated once, not per attempt
                if isinstance(covers, cst.For) and _inside(call.node, covers.iter):
                    break
                yield call
                break
            if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                break


def _inside(node: cst.CSTNode, container: cst.CSTNode) -> bool:
    # Cheap containment: positions are not known, so compare by walking the container lazily.
    stack = [container]
    while stack:
        current = stack.pop()
        if current is node:
            return True
        stack.extend(current.children)
    return False


def describe(scope_or_policy: Union[RetryScope, Policy]) -> str:
    """A short human name for a scope's policy: "a tenacity retry", "a hand-written retry loop"."""
    policy = scope_or_policy.policy if isinstance(scope_or_policy, RetryScope) else scope_or_policy
    if policy.library == "loop":
        return "a hand-written retry loop"
    if policy.library == "celery":
        return "celery's task retry"
    if policy.library == "resilint":
        return "resilint's retry"
    return f"a {policy.library} retry"
