"""requests sessions that supply a timeout themselves: a mounted adapter whose ``send`` sets
one, or a ``requests.Session`` subclass whose ``request``/``send`` does."""

from __future__ import annotations

import re
from typing import Dict, Iterator, List, Optional, Set, Tuple

import libcst as cst

from resilint.lint.canonical import ADAPTERS_WITHOUT_TIMEOUT
from resilint.lint.nodes import code_of, is_none, string_of
from resilint.lint.semantic import (
    CallSite,
    ClassInfo,
    FunctionInfo,
    Instance,
    Scope,
    SemanticModel,
)
from resilint.lint.traversal import children, iter_nodes

# A string literal whose value is "timeout" ends with ``timeout"`` or ``timeout'`` in the text,
# unless it spells a letter with an escape (``\x74``, ``\164``, ``\u0074``, ``\N{...}``) or
# continues on the next line (a backslash before the line break).
# A string literal that may read "timeout": spelled so, or up to seven lowercase letters and
# escapes that can stand for them (``"time\x6fut"``, a backslash before a line break).
_SPELLED = re.compile(r"""timeout['"]""")
_ESCAPE = r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[A-Za-z ]+\}|[0-7]{1,3}|\r\n|\r|\n)"
_AN_ESCAPE = re.compile(_ESCAPE)
_ESCAPED = re.compile(rf"""['"](?:[a-z]|{_ESCAPE}){{0,6}}{_ESCAPE}(?:[a-z]|{_ESCAPE}){{0,6}}['"]""")
_ESCAPED_REACH = 7 * 40  # seven escapes (``\N{LATIN SMALL LETTER T}``) and a quote, either side
_SESSION_HOOKS = ("request", "send")


def session_sets_timeout(call: cst.Call, model: SemanticModel, scope: Scope, order: int) -> bool:
    """True when the session a requests method is called on supplies a timeout itself.

    Two project patterns do: an adapter whose ``send`` sets the timeout, mounted on the same
    session (``s.mount("https://", TimeoutAdapter())``), and a ``requests.Session`` subclass whose
    ``request``/``send`` sets it. A mounted adapter of a class we cannot see (imported from
    another module) may do so too, so it also counts.
    """
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    return receiver_sets_timeout(func.value, func.attr.value, model, scope, order)


def receiver_sets_timeout(
    receiver: cst.BaseExpression, method: str, model: SemanticModel, scope: Scope, order: int
) -> bool:
    """True when the session ``receiver`` reads supplies a timeout to ``receiver.method(...)``."""
    value = model.resolve(receiver, scope, order)
    if isinstance(receiver, cst.Call) and model.qualified_name(receiver.func, scope, order) == "builtins.super":
        # ``super().request(...)`` in a method of a session subclass: the object is one of it
        function = scope.enclosing_function
        value = Instance(function.owner) if function is not None and function.owner is not None else value
    if isinstance(value, Instance) and isinstance(value.of, ClassInfo):
        if _class_sets_timeout(value.of, model, _SESSION_HOOKS + (method,)):
            return True
    if isinstance(value, Instance) and _sends_through_given_session(value):
        return True
    keys = receiver_keys(receiver, model, scope, order)
    if _adapters_set_timeout(model, mounted_on(model, keys)):
        return True
    return not _request_bound_with_timeout(model).isdisjoint(keys)


# Sessions that send every request through the session they are given (``session=``), which
# decides the timeout: requests-futures' ``FuturesSession(session=self._session)``.
_DELEGATING_SESSIONS = frozenset({"requests_futures.sessions.FuturesSession"})


def _sends_through_given_session(value: Instance) -> bool:
    site = value.site
    return (
        isinstance(value.of, str) and value.of in _DELEGATING_SESSIONS and isinstance(site, cst.Call)
        and any(arg.keyword is not None and arg.keyword.value == "session" for arg in site.args)
    )


def object_sets_timeout(model: SemanticModel, value: Instance, project_reads_adapters: bool = False) -> bool:
    """True when every request on this object gets a timeout it fills in itself: an instance of
    a project ``Session`` subclass that does, a session with such an adapter mounted, or one
    whose ``request`` the file replaced with a ``functools.partial`` that binds a timeout.
    ``project_reads_adapters``: the adapter classes of other modules that a class of the file
    mounts on itself count for nothing here (the project pass reads them: ``timeout_adapters``)."""
    if isinstance(value.of, ClassInfo):
        if project_reads_adapters and timeout_adapters_elsewhere(value.of, model) is None:
            return True
        if not project_reads_adapters and class_supplies_timeout(value.of, model):
            return True
    if value.site is None:
        return False
    return (_adapters_set_timeout(model, mounted_on_object(model, value))
            or object_key(value) in _request_bound_with_timeout(model))


def _request_bound_with_timeout(model: SemanticModel) -> Set[Tuple[object, ...]]:
    """The identities (``receiver_keys``) of the sessions whose ``request`` the file replaced:
    ``session.request = functools.partial(session.request, timeout=T)``. Their verb methods call
    ``self.request``, which is then the partial (django-allauth's ``get_requests_session``);
    ``timeout=None`` binds no bound."""
    return model.derived(_request_bound_with_timeout, lambda: {
        key for site, target in _find_requests_replaced(model)
        for key in receiver_keys(target, model, site.scope, site.order)
    })


def _find_requests_replaced(model: SemanticModel) -> Iterator[Tuple[CallSite, cst.BaseExpression]]:
    """Each ``X.request = functools.partial(X.request, timeout=T)`` (or ``send``) of the file:
    the partial's call site and ``X``."""
    for site, name in model.iter_calls():
        if name != "functools.partial" or not site.node.args or site.node.args[0].keyword is not None:
            continue
        bound = site.node.args[0].value
        timeout = next((a for a in site.node.args if a.keyword is not None and a.keyword.value == "timeout"), None)
        if timeout is None or is_none(timeout.value) or not isinstance(bound, cst.Attribute):
            continue
        if bound.attr.value not in _SESSION_HOOKS:
            continue
        owner = site.scope.enclosing_function
        body = owner.node if owner is not None else model.module
        for node in iter_nodes(body):
            if isinstance(node, cst.Assign) and node.value is site.node and len(node.targets) == 1:
                target = node.targets[0].target
                if (isinstance(target, cst.Attribute) and target.attr.value == bound.attr.value
                        and code_of(target.value) == code_of(bound.value)):
                    yield site, bound.value


def _adapters_set_timeout(
    model: SemanticModel, adapters: List[Tuple[cst.BaseExpression, Scope, int]], deferred: Optional[List[str]] = None,
) -> bool:
    """Whether one of the adapters fills in a timeout; one of a class of another module of the
    project goes to ``deferred``, when given, for the project pass to tell."""
    for adapter, scope, order in adapters:
        adapter_value = model.resolve(adapter, scope, order)
        if isinstance(adapter_value, Instance) and isinstance(adapter_value.of, ClassInfo):
            if _class_sets_timeout(adapter_value.of, model, ("send",)):
                return True
            continue
        name = model.type_name(adapter_value)
        if deferred is not None and isinstance(adapter_value, Instance) and name is not None and model.project_class(adapter_value):
            deferred.append(name)
        elif name not in ADAPTERS_WITHOUT_TIMEOUT:
            return True  # an adapter we cannot see into
    return False


_SESSION_METHODS = _SESSION_HOOKS + ("get", "options", "head", "post", "put", "patch", "delete")


def class_supplies_timeout(cls: ClassInfo, model: SemanticModel) -> bool:
    """A session subclass whose ``request``/``send`` (or a verb method) fills in a timeout.
    Once per class and file: every instance of a project class the summary records asks it,
    and the answer reads the bodies of the class's methods and of its bases'."""
    adapters = timeout_adapters_elsewhere(cls, model)
    return adapters is None or bool(adapters)  # (an adapter of another module may: the file cannot tell)


def timeout_adapters_elsewhere(cls: ClassInfo, model: SemanticModel) -> Optional[List[str]]:
    """None when the class fills in a timeout as far as its file tells, else the adapter
    classes of other modules of the project it mounts on itself, whose ``send`` decides
    (``self.mount("https://", RateLimitAdapter())``): the project pass reads them."""
    def read() -> Optional[List[str]]:
        deferred: List[str] = []
        return None if _class_sets_timeout(cls, model, _SESSION_METHODS, deferred=deferred) else deferred

    return model.derived((timeout_adapters_elsewhere, id(cls)), read)


def writes_timeout_key(model: SemanticModel, function: FunctionInfo) -> bool:
    """``kwargs.setdefault("timeout", …)`` or ``kwargs["timeout"] = …`` somewhere in the
    function (its decorators, defaults and nested defs included)."""
    return id(function.node) in model.derived(writes_timeout_key, lambda: _functions_naming_timeout(model))


def _functions_naming_timeout(model: SemanticModel) -> Set[int]:
    """The ids of the defs and lambdas around each ``"timeout"`` string of the file, found in
    one walk (asked per function, a walk per function would read nested defs again and again)."""
    found: Set[int] = set()
    if model.text is not None and not _may_spell_timeout(model.text):
        return found
    stack: List[Tuple[cst.CSTNode, Tuple[int, ...]]] = [(model.module, ())]
    pop, push = stack.pop, stack.append
    while stack:
        node, owners = pop()
        kind = node.__class__  # class tests: LibCST's node classes are ABCs, whose isinstance is slow
        if kind is cst.SimpleString:
            text = node.value  # type: ignore[attr-defined]
            if ("timeout" in text or "\\" in text) and string_of(node) == "timeout":
                found.update(owners)
            continue
        if kind is cst.FunctionDef or kind is cst.Lambda:
            owners = owners + (id(node),)
        for child in children(node):
            push((child, owners))
    return found


def _may_spell_timeout(text: str) -> bool:
    """Whether a string literal of ``text`` may read "timeout". The search for a spelling with
    escapes starts from each escape (a regular expression tried at every quote of a file cost
    more than the walk it spares)."""
    if "timeout" in text and _SPELLED.search(text):
        return True
    return any(
        _ESCAPED.search(text, max(escape.start() - _ESCAPED_REACH, 0), escape.end() + _ESCAPED_REACH)
        for escape in _AN_ESCAPE.finditer(text)
    )


def receiver_keys(expr: cst.BaseExpression, model: SemanticModel, scope: Scope, order: int) -> List[Tuple[object, ...]]:
    """Identities of what an expression reads: the objects it may hold (by the call that made
    each, whatever names they travel by), and the variable itself (a binding, or ``self.attr``
    of a class) for an object made where the file cannot see."""
    keys: List[Tuple[object, ...]] = [
        object_key(value) for value in model.resolve_all(expr, scope, order)
        if isinstance(value, Instance) and value.site is not None
    ]
    if isinstance(expr, cst.Name):
        binding = model.lookup(expr.value, scope, order)
        if binding is not None:
            keys.append(("binding", id(binding)))
    elif isinstance(expr, cst.Attribute):
        base = model.resolve(expr.value, scope, order)
        if isinstance(base, Instance) and isinstance(base.of, ClassInfo):
            keys.append(("attribute", id(base.of), expr.attr.value))
    return keys


def object_key(value: Instance) -> Tuple[object, ...]:
    return ("object", id(value.site))


def mounted_on_object(model: SemanticModel, value: Instance) -> List[Tuple[cst.BaseExpression, Scope, int]]:
    """The adapters mounted on one object: where it is made and at module level, and by the
    function that configured it (``value.by``); the mounts of the functions that configure
    it into other objects (a retrying session and a single-attempt one from the same base
    factory) are theirs."""
    adapters = mounted_on(model, [object_key(value)])
    if not adapters:
        return adapters
    made = model.call_site(value.site) if value.site is not None else None
    made_in = made.scope.enclosing_function if made is not None else None
    if value.by is not None:
        return [a for a in adapters if _function_of(a) is None or _function_of(a) is value.by or _function_of(a) is made_in]
    others = model.configuring_functions()
    return [a for a in adapters if _function_of(a) is None or id(_function_of(a)) not in others]


def _function_of(adapter: Tuple[cst.BaseExpression, Scope, int]) -> Optional[FunctionInfo]:
    return adapter[1].enclosing_function


def mounted_on(model: SemanticModel, keys: List[Tuple[object, ...]]) -> List[Tuple[cst.BaseExpression, Scope, int]]:
    """The adapters mounted on what ``keys`` identify (``s.mount(prefix, adapter)``), each with
    where the mount reads it."""
    mounted = mounted_adapters(model)
    found: List[Tuple[cst.BaseExpression, Scope, int]] = []
    for key in keys:
        for adapter in mounted.get(key, ()):
            if adapter not in found:
                found.append(adapter)
    return found


def mounted_adapters(model: SemanticModel) -> Dict[object, List[Tuple[cst.BaseExpression, Scope, int]]]:
    """Adapters mounted on each session of the file, by every identity of the session."""
    return model.derived(mounted_adapters, lambda: _find_mounted_adapters(model))


def _find_mounted_adapters(model: SemanticModel) -> Dict[object, List[Tuple[cst.BaseExpression, Scope, int]]]:
    facts: Dict[object, List[Tuple[cst.BaseExpression, Scope, int]]] = {}
    for site, name in model.iter_calls():
        if name != "requests.Session.mount" or not isinstance(site.node.func, cst.Attribute):
            continue
        adapter = _mounted(site.node)
        if adapter is None:
            continue
        for key in receiver_keys(site.node.func.value, model, site.scope, site.order):
            facts.setdefault(key, []).append((adapter, site.scope, site.order))
    return facts


def _class_sets_timeout(
    cls: ClassInfo, model: SemanticModel, methods: Tuple[str, ...], depth: int = 0, deferred: Optional[List[str]] = None,
) -> bool:
    if depth > 5:
        return False
    for method in methods:
        for binding in cls.scope.bindings.get(method, ()):
            if isinstance(binding.defined, FunctionInfo) and _mentions_timeout(binding.defined.node):
                return True
    if methods != ("send",):
        # a session subclass that mounts such an adapter on itself (``self.mount("https://",
        # Adapter(timeout=120))`` in its ``__init__``): every request of its instances
        for binding in cls.scope.bindings.get("__init__", ()):
            if isinstance(binding.defined, FunctionInfo) and _adapters_set_timeout(
                model, _mounted_on_self(model, binding.defined), deferred,
            ):
                return True
    for base_expr in cls.bases:
        base = model.resolve(base_expr, cls.scope.parent or cls.scope, 1 << 62)
        if isinstance(base, ClassInfo) and base is not cls:
            if _class_sets_timeout(base, model, methods, depth + 1, deferred):
                return True
    return False


def _mounted_on_self(model: SemanticModel, init: FunctionInfo) -> List[Tuple[cst.BaseExpression, Scope, int]]:
    """The adapters an ``__init__`` mounts on its own object (``self.mount(prefix, adapter)``)."""
    found = []
    for site in model.calls_in(init.scope):
        func = site.node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "mount" and isinstance(func.value, cst.Name)
                and init.on_self(func)):
            continue
        adapter = _mounted(site.node)
        if adapter is not None:
            found.append((adapter, site.scope, site.order))
    return found


def _mounted(mount: cst.Call) -> Optional[cst.BaseExpression]:
    """The adapter ``session.mount(prefix, adapter)`` is given, unless its prefix is of another
    scheme than HTTP's (``mount("ftp://", FTPAdapter())``: requests sends it no HTTP request)."""
    args = [a for a in mount.args if not a.star]
    adapter = next((a.value for a in args if a.keyword and a.keyword.value == "adapter"), None)
    prefix = next((a.value for a in args if a.keyword and a.keyword.value == "prefix"), None)
    positional = [a.value for a in args if a.keyword is None]
    if prefix is None and positional:
        prefix = positional.pop(0)
    written = string_of(prefix) if prefix is not None else None
    if written is not None and not written.lower().startswith("http"):
        return None
    return positional[0] if adapter is None and positional else adapter


def _mentions_timeout(node: cst.CSTNode) -> bool:
    """``kwargs.setdefault("timeout", …)``, ``kwargs["timeout"] = …``, ``super().send(…, timeout=…)``,
    or a ``timeout`` parameter with a default other than ``None`` (``def request(self, method,
    url, ..., timeout=30, ...)``), which the override passes on."""
    passed_on = False  # ``timeout=None`` in its parameters, which it only passes on
    if isinstance(node, cst.FunctionDef):
        params = node.params
        for param in (*params.params, *params.kwonly_params):
            if param.name.value == "timeout" and param.default is not None:
                if not is_none(param.default):
                    return True
                passed_on = not _rebinds(node, "timeout")
    for inner in iter_nodes(node):
        if isinstance(inner, cst.SimpleString) and string_of(inner) == "timeout":
            return True
        if isinstance(inner, cst.Arg) and inner.keyword is not None and inner.keyword.value == "timeout":
            if not (passed_on and isinstance(inner.value, cst.Name) and inner.value.value == "timeout"):
                return True
        if (isinstance(inner, cst.Arg) and inner.keyword is None and not inner.star and isinstance(inner.value, cst.Name)
                and inner.value.value == "timeout" and isinstance(node, cst.FunctionDef) and _rebinds(node, "timeout")):
            return True  # ``if timeout is None: timeout = a.timeout`` … ``super().request(method, url, ..., timeout, ...)``
    return False


def _rebinds(function: cst.FunctionDef, name: str) -> bool:
    """Whether the body assigns ``name`` again (``if not timeout: timeout = self.timeout``)."""
    return any(
        isinstance(target, cst.Name) and target.value == name
        for node in iter_nodes(function.body)
        for target in (
            [t.target for t in node.targets] if isinstance(node, cst.Assign)
            else [node.target] if isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr)) else []
        )
    )
