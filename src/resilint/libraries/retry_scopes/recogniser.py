"""The state shared while one file's retry scopes are recognised, and the name and value
resolution that every library recogniser needs. The library modules are functions over it."""

from __future__ import annotations

from functools import partial
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.applications import apply_all
from resilint.libraries.retry_scopes.celery import task_class_policy, task_policy
from resilint.libraries.retry_scopes.decorators import decorated
from resilint.libraries.retry_scopes.loops import find_loops
from resilint.libraries.retry_scopes.model import (
    ON_ANY,
    ON_SPECIFIC,
    UNKNOWN,
    Limit,
    Policy,
    RetryScope,
    RetryScopes,
    Setting,
)
from resilint.libraries.retry_scopes.local_work import calls_within, computes_only, local_call, refused_input
from resilint.libraries.retry_scopes.names import ANY_EXCEPTION, LIBRARY_SLEEPERS, normalise
from resilint.libraries.retry_scopes import urllib3
from resilint.libraries.retry_scopes.recursion import recursive_retries
from resilint.libraries.retry_scopes.transports import client_policy
from resilint.libraries.retry_scopes.registry import libraries
from resilint.libraries.retry_scopes.sleepers import Slept, slept_parameter
from resilint.libraries.retry_scopes.tenacity import retried_types
from resilint.lint.nodes import is_none, keyword_args, number_of, string_of, written_into
from resilint.lint.semantic import CallSite, FunctionInfo, Scope, SemanticModel
from resilint.lint.traversal import iter_nodes


def _names(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


# Kinds of policy that configure a client's built-in retries (``Retry(0)`` turns them off).
_CLIENT_KINDS = frozenset({"urllib3-retry", "adapter", "pool", "transport", "client"})


class Recogniser:
    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self.policies: List[Policy] = []
        self.scopes: List[RetryScope] = []
        self.by_node: Dict[int, Policy] = {}  # id(definition node) → its policy
        self.names: Dict[int, Optional[str]] = {}  # id(call node) → normalised qualified name
        self.decorated: Dict[int, List[RetryScope]] = {}  # id(FunctionInfo) → its decorator scopes
        self.growing: Set[str] = set()  # names multiplied in the loop being judged
        self.visiting: Set[str] = set()  # names whose delay kind is being computed
        self.delay_via: Optional[str] = None  # the other module's function a delay depends on
        self.server_delay = False  # the last delay judged is the server's on every path
        self.server_fallback = False  # the last delay judged is the code's own where the server sent none
        self.site: Optional[CallSite] = None  # the sleep (or retry call) whose delay is judged
        self._slept: Dict[int, Optional[Slept]] = {}  # id(FunctionInfo) → the parameter it sleeps
        # every library sleep is named so, or is Twisted's
        self._may_sleep = model.text is None or any(word in model.text for word in ("sleep", "deferLater", "callLater"))

    # --- driver ----------------------------------------------------------------------------

    def run(self) -> RetryScopes:
        found = libraries()
        unsafe_defaults: List[Setting] = []
        for call in self.model.calls:
            name = self.name(call)
            factory = found.policies.get(name) if name is not None else None
            if factory is not None:
                self.add(factory(self, call.node, call.scope, call.order))
                continue
            defaults = urllib3.retry_subclass_defaults(self, call) if self.model.classes else None
            if defaults is not None:
                self.add(urllib3.build_policy(self, call.node, call.scope, call.order, defaults))
                continue
            handed = urllib3.imported_class_unsafe_methods(self, call)
            if handed is not None:
                unsafe_defaults.append(handed)
        for cls in self.model.classes:
            task_class_policy(self, cls)  # ``class ProviderTask(celery.Task): autoretry_for = ...``
        for bindings in self.model.module_scope.bindings.values():
            # a celery task decorator kept in a variable: ``retrying_task = shared_task(autoretry_for=...)``
            expr = bindings[-1].expr
            if isinstance(expr, cst.Call) and id(expr) not in self.by_node:
                task_policy(self, expr, None, self.model.module_scope, bindings[-1].order)
        for call in self.model.calls:  # after the Retry objects they may be given
            name = self.name(call)
            client = found.clients.get(name) if name is not None else None
            if client is not None:
                client(self, call)
            elif self.model.classes and urllib3.adapter_subclass(self, call):
                client_policy(self, call, library="urllib3", kind="adapter", keyword="max_retries", position=None)
        for function in self.model.functions:
            decorated(self, function)
            recursive_retries(self, function)
        apply_all(self)
        local = self._drop_single_attempts() + self._drop_local_decorations()
        find_loops(self)
        unsafe_defaults += urllib3.subclass_unsafe_methods(self) if self.model.classes else []
        unsafe_defaults += urllib3.assigned_unsafe_methods(self)
        return RetryScopes(self.policies, self.scopes, local, unsafe_defaults)

    def _drop_single_attempts(self) -> List[RetryScope]:
        """A retry that makes one attempt (``stop_after_attempt(1)``, ``max_tries=1``, celery's
        ``max_retries=0``) repeats nothing, so no rule judges it. A client's own setting of one
        attempt is kept: it is what turns that client's built-in retries off."""
        dropped = {
            id(policy) for policy in self.policies
            if policy.max_attempts == 1 and policy.kind not in _CLIENT_KINDS
        }
        return self._drop(dropped)

    def _drop(self, dropped: Set[int]) -> List[RetryScope]:
        """Forget the policies ``dropped`` (their ids); the scopes they had."""
        local = [s for s in self.scopes if id(s.policy) in dropped]
        if dropped:
            self.scopes = [s for s in self.scopes if id(s.policy) not in dropped]
            self.policies = [p for p in self.policies if id(p) not in dropped]
        return local

    def _drop_local_decorations(self) -> List[RetryScope]:
        """A retry decorator (or a celery task's own retries) written on a function of the file that calls something, and only
        local work (``@backoff.on_exception(...)`` on a task that only sleeps), or that only
        computes (``1 / 0`` in a test of the retries themselves), or that draws a fresh random
        name on each attempt and retries only the conflict of a name already taken: it repeats no
        call out, so it is no retry of one. A policy kept in a variable is left alone (other
        functions, and other modules, may apply it)."""
        dropped = set()
        for scope in self.scopes:
            function = scope.function
            if scope.kind not in ("decorator", "task") or function is None:
                continue
            if isinstance(scope.node, cst.Decorator):
                if scope.node.decorator is not scope.policy.node:
                    continue
            elif not (scope.kind == "task" and isinstance(scope.node, cst.Call)):
                continue  # (a celery task's ``raise self.retry(...)``: judged as its decorator is)
            decorating = {id(n) for d in getattr(function.node, "decorators", ()) for n in iter_nodes(d)}
            calls = [call for call in calls_within(self, function.node) if id(call.node) not in decorating]
            if ((calls and all(local_call(self, call) for call in calls)) or (not calls and computes_only(function))
                    or _redraws_on_conflict(self, scope.policy, calls)):
                dropped.add(id(scope.policy))
        return self._drop(dropped)

    def add(self, policy: Policy) -> Policy:
        """Record a policy once per definition node; the first one recorded wins."""
        existing = self.by_node.get(id(policy.node))
        if existing is not None:
            return existing
        self.by_node[id(policy.node)] = policy
        self.policies.append(policy)
        return policy

    # --- names and values ------------------------------------------------------------------

    def name(self, call: CallSite) -> Optional[str]:
        key = id(call.node)
        if key not in self.names:
            self.names[key] = normalise(self.model.call_name(call))
        return self.names[key]

    def slept(self, call: CallSite) -> Optional[Slept]:
        """The parameter a function of this file sleeps, for a call to it (``sleepers.py``), or
        the argument a library sleep that does not take it first waits (``deferLater``)."""
        if not self._may_sleep:
            return None
        library = LIBRARY_SLEEPERS.get(self.name(call) or "")
        if library is not None:
            return library
        target = self.model.resolve(call.node.func, call.scope, call.order)
        return self.slept_by(target) if isinstance(target, FunctionInfo) else None

    def slept_by(self, function: FunctionInfo) -> Optional[Slept]:
        if not self._may_sleep:
            return None
        key = id(function)
        if key not in self._slept:
            self._slept[key] = slept_parameter(self.model, function)
        return self._slept[key]

    def expr_name(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Optional[str]:
        if isinstance(expr, cst.Name) and _made_by_type(self.model.followed(expr, scope, order)):
            # ``Throttled = type("Throttled", (Exception,), {})``: a class of its own, which only
            # what raises it raises (the model reads it as its base, for its attributes)
            return f"{self.model.module_name}.{expr.value}" if self.model.module_name else expr.value
        return normalise(self.model.qualified_name(expr, scope, order))

    def follow(self, expr: cst.BaseExpression, scope: Scope, order: int) -> cst.BaseExpression:
        """The expression a name (or ``self.attr``) was last assigned, else ``expr`` itself."""
        return self.model.followed(expr, scope, order)

    def keywords(self, node: cst.Call, scope: Scope, order: int) -> Tuple[Dict[str, cst.Arg], bool]:
        """``keyword_args`` with the entries of the dicts ``node`` unpacks read as keywords
        where the function writes them out (``Retry(**retry_args)`` after ``retry_args =
        {"total": n, methods_key: {"POST"}}``, a key that names may give being read under each),
        and whether more keywords may come (a dict written into later, a module's dict, a key
        it cannot read)."""
        found, star = keyword_args(node)
        if not star:
            return found, star
        star = False
        unpacked: Dict[str, cst.Arg] = {}
        for arg in node.args:
            if arg.star != "**":
                continue
            mapping = self.follow(arg.value, scope, order) if self._local(arg.value, scope, order) else arg.value
            if not isinstance(mapping, cst.Dict) or (
                isinstance(arg.value, cst.Name) and written_into(scope.node, partial(_names, name=arg.value.value))
            ):
                star = True
                if not isinstance(mapping, cst.Dict):
                    continue
            for element in mapping.elements:
                keys = self._key_strings(element.key, scope, order) if isinstance(element, cst.DictElement) else []
                star = star or not keys
                for key in keys:
                    unpacked.setdefault(key, cst.Arg(element.value, keyword=cst.Name(key)))  # type: ignore[union-attr]
        return {**unpacked, **found}, star

    def _local(self, expr: cst.BaseExpression, scope: Scope, order: int) -> bool:
        """A dict written out at the call, or a function's local (another module may write into
        a module's dict)."""
        if isinstance(expr, cst.Dict):
            return True
        binding = self.model.lookup(expr.value, scope, order) if isinstance(expr, cst.Name) else None
        return binding is not None and binding.scope.kind == "function"

    def _key_strings(self, key: cst.BaseExpression, scope: Scope, order: int) -> List[str]:
        """The strings a dict key may be: written out, or every value a local name is given."""
        text = string_of(key)
        if text is not None:
            return [text] if text.isidentifier() else []
        if not isinstance(key, cst.Name):
            return []
        binding = self.model.lookup(key.value, scope, order)
        bindings = binding.scope.bindings.get(key.value, ()) if binding is not None else ()
        texts = [string_of(b.expr) for b in bindings]
        return [t for t in texts if t is not None and t.isidentifier()] if bindings and None not in texts else []

    def int_value(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Limit:
        value = number_of(self.follow(expr, scope, order))
        return value if value is not None else UNKNOWN

    def limit(self, arg: Optional[cst.Arg], scope: Scope, order: int, star: bool, depth: int = 0) -> Limit:
        if arg is None:
            return UNKNOWN if star else None
        value = self.follow(arg.value, scope, order)
        if is_none(value):
            return None
        if isinstance(value, cst.IfExp):
            # ``1 if settings.DEBUG else None``: no limit on one branch is no limit there (a
            # name that follows to its own reassignment, ``n = n if n is not None else 3``, is
            # not read again)
            if depth > 2:
                return UNKNOWN
            sides = [self.limit(cst.Arg(side), scope, order, False, depth + 1) for side in (value.body, value.orelse)]
            if None in sides:
                return None
            numbers = [side for side in sides if isinstance(side, (int, float))]
            return max(numbers) if len(numbers) == 2 else UNKNOWN
        number = number_of(value)
        return number if number is not None else UNKNOWN

    def exception_kind(self, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> str:
        """ON_ANY for Exception/BaseException (or a tuple containing one), else specific."""
        if depth > 5:
            return UNKNOWN
        expr = self.follow(expr, scope, order)
        if _made_by_type(expr):
            return ON_SPECIFIC  # a class of its own, whatever its base
        if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
            kinds = [self.exception_kind(e.value, scope, order, depth + 1) for e in expr.elements]
            if ON_ANY in kinds:
                return ON_ANY
            return UNKNOWN if UNKNOWN in kinds else ON_SPECIFIC
        name = self.expr_name(expr, scope, order)
        if name in ANY_EXCEPTION:
            return ON_ANY
        if name is None:
            return UNKNOWN if not isinstance(expr, (cst.Name, cst.Attribute)) else ON_SPECIFIC
        return ON_SPECIFIC


def _made_by_type(expr: cst.BaseExpression) -> bool:
    """``type(name, bases, namespace)``: a class made on the fly."""
    return (
        isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "type"
        and len(expr.args) == 3 and not any(a.star or a.keyword for a in expr.args)
    )


# Calls that draw a fresh random value (a name, a token) on each attempt.
_RANDOM_DRAWS = ("secrets.", "uuid.", "random.", "shortuuid.", "os.urandom")


def _redraws_on_conflict(rec: Recogniser, policy: Policy, calls: List[CallSite]) -> bool:
    """``@retry(retry=retry_if_exception_type(DuplicateEntryError))`` on a function that draws a
    new random name each attempt (``name = secrets.token_hex(5)``): the store answered that the
    name was taken, and the next attempt sends another name; nothing failed to be repeated."""
    if policy.library != "tenacity" or policy.retry_on.node is None or policy.scope is None:
        return False
    followed = rec.follow(policy.retry_on.node, policy.scope, policy.order)
    if not isinstance(followed, cst.Call):
        return False
    names = [rec.expr_name(t, policy.scope, policy.order) for t in retried_types(rec, followed, policy.scope, policy.order)]
    return refused_input(names) and any((rec.name(call) or "").startswith(_RANDOM_DRAWS) for call in calls)
