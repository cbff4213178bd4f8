"""Clients whose every request passes its own timeout: an ``aiohttp.ClientSession()`` or a
``urllib3.PoolManager()`` made without a default timeout, when each request the project sends
through the object gives one (``session.get(url, timeout=aiohttp.ClientTimeout(...))``,
``pool.request("GET", url, timeout=urllib3.Timeout(...))``), never waits by the default it
lacks: the requests decide, and are judged where they are made. Likewise a client made with a
default (``httpx.AsyncClient(timeout=60)``) whose every request gives its own timeout, bounded
or not (``timeout=None`` is RES102 where it is given), never waits by that default.

The file judges an object it keeps to itself; one it stores, returns or passes to a project
function is left to the project pass, which reads every call the project makes through it
(``ProjectGraph.uses_of``). Anything else done with the object (a request without a timeout,
or with an unbounded one; a call we cannot tell; the object handed to a library) keeps the
construction reported.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.client_subclasses import forwarded_client
from resilint.libraries.clients import CLIENT_CALLS, TimeoutSpec, find_timeout
from resilint.libraries.object_uses import Classify, object_uses
from resilint.libraries.timeout_values import TimeoutValue
from resilint.lint.nodes import DEFINITIONS, is_none
from resilint.lint.semantic import Binding, CallSite, Instance, Scope, SemanticModel
from resilint.lint.traversal import iter_nodes

# Calls through such an object that send nothing, so no timeout applies to them.
SENDS_NOTHING: FrozenSet[str] = frozenset({"close", "aclose", "clear", "detach"})
# Catalog entries under a client's name that make another client (``redis.Redis.from_url``),
# or open the object's one connection (``ftp.connect(host, port, timeout)``, which the later
# commands wait on), not a request through this one.
_MAKES_CLIENT: FrozenSet[str] = frozenset({"from_url", "connect"})


def _timed_methods(cls: str) -> FrozenSet[str]:
    return frozenset(
        name[len(cls) + 1:] for name, spec in CLIENT_CALLS.items()
        if name.startswith(f"{cls}.") and "." not in name[len(cls) + 1:] and spec.keyword is not None
        and name[len(cls) + 1:] not in _MAKES_CLIENT
    )


# The client constructions whose requests each take a timeout that replaces the object's own
# default, with those request methods.
TIMED_REQUESTS: Dict[str, FrozenSet[str]] = {
    name: methods for name, spec in CLIENT_CALLS.items()
    if (spec.unbounded_default is not None or spec.default_seconds is not None)
    for methods in (_timed_methods(name),) if methods
}


def method_spec(cls: str, path: Optional[Tuple[str, ...]]) -> Optional[TimeoutSpec]:
    """The catalog entry of the request a call through an object of ``cls`` makes, when the
    call takes ``path`` (``("get",)``) from it and that is a request taking a timeout."""
    if path is None or len(path) != 1 or path[0] not in TIMED_REQUESTS.get(cls, ()):
        return None
    return CLIENT_CALLS[f"{cls}.{path[0]}"]


def bounded(value: Optional[TimeoutValue]) -> bool:
    """A timeout a request gives that replaces the client's default with a bound: read, and not
    unbounded (``None`` waits forever)."""
    return value is not None and value.unbounded is None


def _classify(model: SemanticModel) -> Classify:
    def classify(path: Tuple[str, ...], site: CallSite) -> str:
        if len(path) == 1 and path[0] in SENDS_NOTHING:
            return "none"
        name = model.call_name(site)
        cls = name.rsplit(".", 1)[0] if name is not None else ""
        spec = method_spec(cls, path)
        if spec is None:
            return "other"
        argument = find_timeout(site.node, spec, model, site.scope, site.order)
        # any value it gives replaces the default: ``timeout=None`` (RES102 there) and one the
        # file cannot read too
        return "other" if argument.value is None else "timed"

    return classify


# Clients that open no connection when made without a host: ``connect(host, port, timeout)``
# opens it later, waiting the timeout it is given (by the position of that timeout).
_CONNECTS_LATER: Dict[str, int] = {"ftplib.FTP": 2, "ftplib.FTP_TLS": 2}
# Connections that open their socket at the first request, with the ``timeout`` attribute they
# hold then.
_TIMEOUT_ATTRIBUTE = frozenset({"http.client.HTTPConnection", "http.client.HTTPSConnection"})


def timeout_set_before_use(site: CallSite, name: str) -> bool:
    """``connection = HTTPConnection(host)``, then ``connection.timeout = settings.TIMEOUT``
    before anything is called on it: the connection is bounded when it connects."""
    if name not in _TIMEOUT_ATTRIBUTE:
        return False
    names = site.scope.names_bound_to(site.node)
    node = site.scope.node
    if len(names) != 1 or node is None:
        return False
    (held,) = names
    made = False
    for part in iter_nodes(node.body if isinstance(node, cst.FunctionDef) else node, stop_at=DEFINITIONS):
        if part is site.node:
            made = True
        elif made and isinstance(part, cst.Assign) and not is_none(part.value) and any(
            isinstance(t.target, cst.Attribute) and t.target.attr.value == "timeout"
            and isinstance(t.target.value, cst.Name) and t.target.value.value == held
            for t in part.targets
        ):
            return True
        elif made and isinstance(part, cst.Call) and isinstance(part.func, cst.Attribute) and (
                isinstance(part.func.value, cst.Name) and part.func.value.value == held):
            return False  # used before
    return False


def connects_later_with_timeout(model: SemanticModel, site: CallSite, name: str) -> bool:
    """``ftp = ftplib.FTP()`` (no host: nothing is sent) whose every ``connect`` in the file
    gives a timeout: the connection waits what ``connect`` says, not the construction's
    default. An object kept in an attribute counts too: the file that makes a client without
    a host is the one that connects it."""
    position = _CONNECTS_LATER.get(name)
    if position is None or any(a.keyword is None or a.keyword.value == "host" for a in site.node.args):
        return False

    def classify(path: Tuple[str, ...], call: CallSite) -> str:
        if path != ("connect",):
            return "use"
        args = call.node.args
        positional = [a for a in args if a.keyword is None and not a.star]
        given = len(positional) > position or any(a.keyword is not None and a.keyword.value == "timeout" for a in args)
        return "timed" if given else "other"

    flags = object_uses(model, frozenset({id(site.node)}), classify)[id(site.node)]
    return bool(flags.get("timed")) and not flags.get("other")


def _holders(model: SemanticModel, made: FrozenSet[int]) -> Dict[Tuple[int, str], Set[int]]:
    """The names (``session``, by the scope that binds it) and attribute names (``_client`` of
    ``self._client``, in any scope: 0) the file binds to each object."""
    bindings: List[Tuple[Tuple[int, str], Binding]] = []
    for scope in set(model.scope_of.values()) | {model.module_scope}:
        bindings += [((id(scope), name), b) for name, group in scope.bindings.items() for b in group]
    for cls in model.classes:
        bindings += [((0, name), b) for name, group in cls.instance_attributes.items() for b in group]
    found: Dict[Tuple[int, str], Set[int]] = {}
    for key, binding in bindings:
        if binding.expr is None and binding.entered is None:
            continue
        for value in model.binding_values(binding):
            if isinstance(value, Instance) and value.site is not None and id(value.site) in made:
                found.setdefault(key, set()).add(id(value.site))
    return found


class _Mentions(cst.CSTVisitor):
    """Where the code mentions a name holding one of the objects in a way the uses do not
    follow: returned or yielded inside a tuple, a list or a dict, kept in a container, assigned
    to a name declared ``global``, captured by a lambda. The object may then be used anywhere."""

    def __init__(self, model: SemanticModel, holders: Dict[Tuple[int, str], Set[int]], global_names: Set[str]) -> None:
        self.model = model
        self.holders = holders
        self.global_names = global_names
        self.parents: List[cst.CSTNode] = []
        self.scopes: List[Scope] = [model.module_scope]
        self.hidden: Set[int] = set()

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Name):
            self._check(node, self.holders.get(self._key(node.value)))
        elif isinstance(node, cst.Attribute) and not self._imported(node.value):
            self._check(node, self.holders.get((0, node.attr.value)))
        self.parents.append(node)
        scope = self.model.scope_of.get(node)
        if scope is not None and scope is not self.scopes[-1]:
            self.scopes.append(scope)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.parents.pop()
        if len(self.scopes) > 1 and self.model.scope_of.get(original_node) is self.scopes[-1]:
            self.scopes.pop()

    def _binding_scope(self, name: str) -> Scope:
        """The innermost scope that binds the name (a closure reads its function's)."""
        return next((scope for scope in reversed(self.scopes) if name in scope.bindings), self.model.module_scope)

    def _key(self, name: str) -> Tuple[int, str]:
        """The name as the scope that binds it holds it."""
        return id(self._binding_scope(name)), name

    def _imported(self, owner: cst.BaseExpression) -> bool:
        """``Check.http``, ``consul.http``: an attribute of what an import binds, not of an
        object the file makes (``self.http``)."""
        if not isinstance(owner, cst.Name):
            return False
        bindings = self._binding_scope(owner.value).bindings.get(owner.value)
        return bool(bindings) and all(binding.imported for binding in bindings)

    def _check(self, node: cst.BaseExpression, objects: Optional[Set[int]]) -> None:
        if objects and self.parents and not self._followed(node):
            self.hidden.update(objects)

    def _followed(self, node: cst.BaseExpression) -> bool:
        parent = self.parents[-1]
        if isinstance(parent, (cst.Attribute, cst.Arg, cst.Return, cst.WithItem, cst.AnnAssign) + _BINDS_OR_TESTS):
            # a call through it or an attribute (``session.get``, ``self._client``); passed
            # (judged as a use); returned (followed); entered by ``with``; a name bound,
            # declared, compared (``is None``), awaited or deleted
            return True
        if isinstance(parent, (cst.If, cst.While, cst.IfExp)) and parent.test is node:
            return True
        if isinstance(parent, cst.UnaryOperation) and len(self.parents) > 1 and isinstance(self.parents[-2], (cst.If, cst.While)):
            return True  # ``if not self._client:``
        if isinstance(parent, cst.Assign):
            # another holder, which the value flow follows, unless a declared global
            return all(
                isinstance(t.target, cst.Attribute) or _instance_dict_item(t.target)
                or (isinstance(t.target, cst.Name) and t.target.value not in self.global_names)
                for t in parent.targets
            )
        return False


def _instance_dict_item(target: cst.BaseExpression) -> bool:
    """``self.__dict__["session"]``: a cache a property keeps of what it returns, an attribute
    under another spelling."""
    return (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Attribute)
            and target.value.attr.value == "__dict__")


_BINDS_OR_TESTS = (
    cst.AssignTarget, cst.AsName, cst.Param, cst.FunctionDef, cst.ClassDef, cst.ImportAlias, cst.NameItem,
    cst.Comparison, cst.ComparisonTarget, cst.Await, cst.Del,
)


def _hidden(model: SemanticModel, made: FrozenSet[int]) -> Set[int]:
    """The objects whose holders the file mentions where their uses cannot be followed."""
    holders = _holders(model, made)
    if not holders:
        return set()
    global_names = {name for scope in set(model.scope_of.values()) for name in scope.global_names}
    visitor = _Mentions(model, holders, global_names)
    model.module.visit(visitor)
    return visitor.hidden


_ADAPTER_POOL_METHODS = frozenset({"init_poolmanager", "proxy_manager_for"})


def pool_of_adapter(model: SemanticModel, site: CallSite) -> bool:
    """A pool made in ``init_poolmanager`` (or ``proxy_manager_for``) of a requests
    ``HTTPAdapter`` subclass: the adapter's ``send`` passes every request's timeout to it."""
    function = site.scope.enclosing_function
    cls = function.owner if function is not None else None
    if cls is None or function.name not in _ADAPTER_POOL_METHODS:
        return False
    outer = cls.scope.parent or cls.scope
    return any(model.qualified_name(base, outer, 1 << 62) == "requests.adapters.HTTPAdapter" for base in cls.bases)


def _uses(model: SemanticModel, defaulted: bool = False) -> Dict[int, Dict[str, bool]]:
    """What the file does with each object it makes without a default timeout (``defaulted``:
    with one): each request through it that gives a timeout of its own ("timed"), anything else
    ("other"), and whether other modules may reach it ("escapes")."""

    def compute() -> Dict[int, Dict[str, bool]]:
        classes = {model.name_of(cls) for cls in model.classes}
        made = frozenset(
            id(site.node) for site, name in model.iter_calls()
            for client in (forwarded_client(model, site) if name in classes else name,) if client in TIMED_REQUESTS
            for argument in (find_timeout(site.node, CLIENT_CALLS[client], model, site.scope, site.order),)
            if not argument.unknown and (argument.value is not None) == defaulted and not pool_of_adapter(model, site)
        )
        if not made:
            return {}
        found = object_uses(model, made, _classify(model))
        for key in _hidden(model, made):
            found[key]["other"] = True
        return found

    return model.derived((_uses, defaulted), compute)


def every_request_timed(model: SemanticModel, made: cst.CSTNode, defaulted: bool = False) -> Optional[bool]:
    """True when the file makes requests through the object the call ``made`` makes (one made
    without a default timeout; ``defaulted``: with one), each giving its own timeout, which
    replaces the object's default whatever it is (a bound, ``timeout=None``, RES102 where it is
    given, or a value the file cannot read), and does nothing else that may send with it, and
    nothing outside the file can reach it; None when other modules may (without a default, the
    project pass decides; with one, the default is judged as usual); False otherwise."""
    flags = _uses(model, defaulted).get(id(made))
    if flags is None or flags.get("other"):
        return False
    if flags.get("escapes"):
        return None
    return bool(flags.get("timed"))


def requests_fact(model: SemanticModel, value: Instance) -> str:
    """For the summary, what the file does with an object made without a default timeout that
    other modules may reach: "timed" (each request it sends gives its own timeout), "escapes"
    (it sends none), or "" (the file judged it alone)."""
    if value.site is None:
        return ""
    flags = _uses(model).get(id(value.site))
    if not flags or every_request_timed(model, value.site) is not None:
        return ""  # none made without a default here (one with a default is the file's alone), or judged
    return "timed" if flags.get("timed") else "escapes"
