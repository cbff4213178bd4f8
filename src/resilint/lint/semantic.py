"""The semantic model: what a rule needs to know about one file, built in ONE LibCST pass.

LibCST's QualifiedNameProvider/ScopeProvider cost about ten times the parse itself, so the
model is our own. The pass only *records* facts (scopes, bindings, call sites, the structural
stack around each call); names are resolved afterwards, lazily and memoised, so a use that
comes before its definition in the file (a method using ``self.session`` set in a later
``__init__``, a function using a module global assigned below it) still resolves.

An expression may hold several things: a name assigned in several places (a module global
that a getter fills in lazily, an attribute set in two methods), ``session or Session()``,
``a if flag else b``. ``resolve_all`` gives every value the file can see, joined over those
assignments, in source order; ``resolve`` gives the first of them. A value is one of:

* ``QName("requests.get")``: an importable object, by its canonical qualified name;
* ``Instance("requests.Session")``: a value produced by calling that object (``site``: the call);
* ``FunctionInfo`` / ``ClassInfo``: a def or class of this file;
* ``Instance(ClassInfo)``: an instance of a class of this file;
* ``Param``: what a parameter of a function of this file is given (its callers tell: the
  project pass follows them);
* ``Partial``: ``functools.partial(f, ...)`` of one of these;
* ``Const``: a string constant (``"POST"``, ``METHOD.lower()``).

Nothing else is known: an expression the model cannot read resolves to no value at all
(``resolve`` gives None), and no rule reports on what it does not know.
"""

from __future__ import annotations

import builtins
import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, TypeVar, Union

import libcst as cst

from resilint.lint.canonical import RETURNS_ITS_ARGUMENT, called_instance_type, canonical_name, loaded_module, returned_type
from resilint.lint.nodes import call_argument, dotted_name, is_none, string_of
from resilint.lint.summary import CALLED, NEXT_IN_ORDER, TASK_RUNS, TASK_SIGNATURES
from resilint.lint.traversal import iter_nodes, walk

_BUILTINS = frozenset(dir(builtins))
_PROPERTY_DECORATORS = frozenset({
    "builtins.property", "functools.cached_property",
    # Django's and werkzeug's own, older than functools' (and pyramid's ``reify``)
    "django.utils.functional.cached_property", "werkzeug.utils.cached_property", "pyramid.decorator.reify",
})
_INLINE_CALLBACKS = "twisted.internet.defer.inlineCallbacks"
T = TypeVar("T")
_UNRESOLVED = object()
_IN_PROGRESS = object()


def identifier(name: str) -> str:
    """A name as Python sees it: identifiers are NFKC-normalised when parsed (PEP 3131), so
    ``ｒｅｑｕｅｓｔｓ`` is ``requests``. Names are recorded and looked up in this form; ASCII
    names, nearly all of them, are their own normal form and cost nothing."""
    return name if name.isascii() else unicodedata.normalize("NFKC", name)


@dataclass(frozen=True)
class QName:
    name: str


@dataclass(frozen=True)
class Overridable(QName):
    """An attribute an object of a subclass reads from its base, named as the subclass's
    (``Sqs.connection``): the base may set it from a method the subclass overrides. Called
    itself (``self.request_json(...)``) it is the base's method, which needs no such name."""


@dataclass(eq=False)
class FunctionInfo:
    node: Union[cst.FunctionDef, cst.Lambda]
    name: str
    qualname: str
    scope: "Scope"  # the function's own scope
    owner: Optional["ClassInfo"]  # the class whose body defines it (a method)
    decorators: Tuple[cst.Decorator, ...] = ()
    returns: List[cst.BaseExpression] = field(default_factory=list)
    is_async: bool = False
    generator: bool = False  # its own body yields (not a function nested in it)
    yields: List[cst.BaseExpression] = field(default_factory=list)  # what its own ``yield``s hand out

    def default_of(self, name: str) -> Optional[cst.BaseExpression]:
        """The default the parameter ``name`` is written with, if it has one."""
        params = self.node.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            if param.name.value == name:
                return param.default
        return None

    def own_attribute(self, expr: cst.BaseExpression) -> Optional["Binding"]:
        """For ``self.name`` in a method (``self`` its first parameter): the one assignment of
        that attribute in its class; None when the class sets it more than once, or never."""
        if self.owner is None or not isinstance(expr, cst.Attribute) or not self.on_self(expr):
            return None
        bindings = self.owner.instance_attributes.get(expr.attr.value, [])
        return bindings[0] if len(bindings) == 1 else None

    def on_self(self, expr: cst.Attribute) -> bool:
        """``self.name``: an attribute of the method's first parameter."""
        params = self.node.params.params if isinstance(self.node, cst.FunctionDef) else ()
        return bool(params) and isinstance(expr.value, cst.Name) and expr.value.value == params[0].name.value


@dataclass(eq=False)
class ClassInfo:
    node: cst.ClassDef
    name: str
    qualname: str
    scope: "Scope"  # the class body's scope
    bases: Tuple[cst.BaseExpression, ...] = ()
    # ``self.x = ...`` in any method: attribute name → bindings
    instance_attributes: Dict[str, List["Binding"]] = field(default_factory=dict)


@dataclass(frozen=True)
class Instance:
    of: Union[str, ClassInfo]
    # The call that made it, when the file shows it: facts about one object (an adapter
    # mounted on it, headers set on it) follow the object, whatever names it travels by.
    site: Optional[cst.CSTNode] = field(default=None, compare=False)
    # The function that configured this object made elsewhere before returning it
    # (``session = base_session(); session.mount(...); return session``): the facts of its
    # result are those of the object with what this function did to it, not what others did.
    by: Optional["FunctionInfo"] = field(default=None, compare=False)
    # The call of a function of the file that returned it (``read = make_session(Retry(2))``):
    # what that call passes may decide a setting the function gives the object from a parameter
    # (``HTTPAdapter(max_retries=retries)``). It is the same object for every other purpose.
    bound: Optional[cst.Call] = field(default=None, compare=False)


@dataclass(frozen=True)
class Param:
    """The value of a function's parameter: what its callers pass, or its default."""

    function: "FunctionInfo"
    name: str
    index: Optional[int]  # among the positional parameters, ``self`` included; None: keyword-only


@dataclass(frozen=True)
class Partial:
    """``functools.partial(of, ...)``: calling it calls ``of`` with ``call``'s arguments first."""

    of: "Value"
    call: cst.Call


@dataclass(frozen=True)
class Const:
    value: str


Value = Union[QName, Instance, FunctionInfo, ClassInfo, Param, Partial, Const, None]
Values = Tuple[Union[QName, Instance, FunctionInfo, ClassInfo, Param, Partial, Const], ...]
_NOT_OBJECTS = (Param, Const)
_SYMBOLIC = re.compile(r"[(\[]")
_SUPER = QName("builtins.super")
_OBJECT = QName("builtins.object")
_MODEL_MANAGERS = frozenset({"objects", "_default_manager", "_base_manager"})
_TASK_METHODS = TASK_RUNS | TASK_SIGNATURES
_DJANGO_MODELS = frozenset({"django.db.models.Model", "django.db.models.base.Model"})
_PARTIAL = QName("functools.partial")
_GETATTR = QName("builtins.getattr")
_TYPE = QName("builtins.type")
_CALLS_BY_SCOPE = object()  # ``derived`` key of the calls grouped by scope
_CALLS_RUN_BY_SCOPE = object()  # ``derived`` key of the calls a scope runs, its comprehensions' included
_SITES = object()  # ``derived`` key of the call sites by node
_ARGUMENT_OF = object()  # ``derived`` key: the call sites a call is written as an argument of, by node
_ATTRIBUTE_READS = object()  # ``derived`` key (with a scope's node) of its names' mentions and attribute reads


@dataclass(eq=False)
class Binding:
    """``name`` gets a value at ``order``. Exactly one of the value sources is set."""

    name: str
    order: int
    scope: "Scope"
    expr: Optional[cst.BaseExpression] = None  # name = expr
    entered: Optional[cst.BaseExpression] = None  # with expr as name
    imported: Optional[str] = None  # import / from-import, the qualified name
    defined: Union[FunctionInfo, ClassInfo, None] = None
    self_of: Optional[ClassInfo] = None  # the first parameter of a method
    class_of: Optional[ClassInfo] = None  # the first parameter of a classmethod
    parameter: Optional[Param] = None  # a parameter of a function (or lambda)
    # none of the above: a parameter, a loop target, an unpacked element → unknown, unless
    # annotated (``session: requests.Session``): then an instance of the annotated class
    annotation: Optional[cst.BaseExpression] = None
    # an element of a tuple assignment (``service, smooth = self._pick()``): the assigned
    # expression and the element's index; its value is that element of each tuple the
    # expression may be (``expr`` stays unset: the binding does not hold the whole value)
    unpacked: Optional[Tuple[cst.BaseExpression, int, int]] = None
    # a ``for`` loop's target: the query it walks the rows of (``for user in User.query.all()``)
    iterated: Optional[cst.Call] = None
    # or what else it walks the items of (``for user in users``, ``users: Iterable[User]``)
    walked: Optional[cst.BaseExpression] = None


@dataclass(eq=False)
class Scope:
    kind: str  # "module" | "class" | "function" | "lambda" | "comprehension"
    name: str
    parent: Optional["Scope"]
    node: cst.CSTNode
    bindings: Dict[str, List[Binding]] = field(default_factory=dict)
    global_names: set = field(default_factory=set)
    function: Optional[FunctionInfo] = None
    cls: Optional[ClassInfo] = None

    def name_bound_to(self, expr: cst.CSTNode) -> Optional[str]:
        """The name this scope assigns ``expr`` to (``consumer = Consumer(...)``), if any."""
        return next((name for name, bound in self.bindings.items() if any(b.expr is expr for b in bound)), None)

    def bind(self, binding: Binding) -> None:
        target = self
        if binding.name in self.global_names:
            while target.parent is not None:
                target = target.parent
        target.bindings.setdefault(binding.name, []).append(binding)

    def names_bound_to(self, expr: cst.CSTNode) -> List[str]:
        """The names of this scope assigned ``expr`` itself (``proxy = ServerProxy(url)``)."""
        return [name for name, bindings in self.bindings.items() if any(b.expr is expr for b in bindings)]

    @property
    def enclosing_function(self) -> Optional[FunctionInfo]:
        scope: Optional[Scope] = self
        while scope is not None:
            if scope.function is not None:
                return scope.function
            scope = scope.parent
        return None


# The structural context of a call: the nodes that enclose it, innermost last.
StackEntry = Union[
    cst.For, cst.While, cst.With, cst.Try, cst.ExceptHandler, cst.FunctionDef, cst.ClassDef,
    cst.Lambda, cst.If,
]


@dataclass(eq=False)
class CallSite:
    node: cst.Call
    scope: Scope
    order: int
    stack: Tuple[cst.CSTNode, ...]


@dataclass(eq=False)
class RaiseSite:
    node: cst.Raise
    scope: Scope
    order: int
    stack: Tuple[cst.CSTNode, ...]


_PROTOCOLS = frozenset({"typing.Protocol", "typing_extensions.Protocol"})
def _tuple_element(written: cst.BaseExpression, index: int, size: int) -> Optional[cst.BaseExpression]:
    """Element ``index`` of a tuple or list of ``size`` elements written out, without ``*``."""
    if not isinstance(written, (cst.Tuple, cst.List)) or len(written.elements) != size or any(
        isinstance(e, cst.StarredElement) for e in written.elements
    ):
        return None
    return written.elements[index].value


# Django's fields whose value on an instance is a row of another model.
_RELATED_FIELDS = frozenset({
    "django.db.models.ForeignKey", "django.db.models.OneToOneField",
    "django.db.models.fields.related.ForeignKey", "django.db.models.fields.related.OneToOneField",
})


class SemanticModel:
    """Facts about one module, with lazy name resolution."""

    def __init__(
        self, module: cst.Module, *, module_name: str = "", path: str = "", text: Optional[str] = None,
        shadowed: FrozenSet[str] = frozenset(),
    ) -> None:
        self.module = module
        self.module_name = module_name
        # Top-level names the file imports from the project, not from the library of that name
        # (``modules.shadowing_modules``): what they hold is unknown to the rules.
        self.shadowed = shadowed
        self.path = path
        self.text = text  # the source, when the caller has it (cheap substring tests)
        self.calls: List[CallSite] = []
        self.raises: List[RaiseSite] = []  # ``raise X(...)`` statements that name what they raise
        self.loops: List[Union[cst.For, cst.While]] = []  # in source order
        self.functions: List[FunctionInfo] = []
        self.classes: List[ClassInfo] = []
        self.star_imports: List[str] = []  # ``from .timing import *`` at module level
        # ``config.TIMEOUT = 30``: an attribute of a name that is not ``self`` set, with the
        # binding that sets it (the value another module's name gets from this file)
        self.attribute_writes: List[Tuple[cst.Attribute, Binding]] = []
        self.imported_modules: List[str] = []  # what its top-level imports may load (``a.b``, ``a.b.c``)
        self.scope_of: Dict[cst.CSTNode, Scope] = {}
        self._cache: Dict[Tuple[int, int], object] = {}
        self._call_names: Dict[int, object] = {}  # the rules ask every call's name many times
        self._enclosing: Dict[Tuple[int, str], Tuple[Binding, ...]] = {}  # what inner scopes read of a scope
        # The arms of each ``if``/``elif``/``else`` chain, by the orders their code runs at:
        # (chain, arm index, first order, last order); only one arm of a chain runs.
        self.arms: List[Tuple[int, int, int, int]] = []
        # The chains that end with an ``else``, by how many arms they have: one of those arms
        # always runs (in any other chain, maybe none does).
        self.complete_chains: Dict[int, int] = {}
        # The test of each chain's first arm.
        self.chain_tests: Dict[int, cst.BaseExpression] = {}
        self._arms_cache: Dict[int, Tuple[Tuple[int, int], ...]] = {}
        self._arm_starts: List[int] = []  # where each arm starts, as ``arms`` is sorted
        self._parsed_annotations: Dict[str, Optional[cst.BaseExpression]] = {}
        self._derived: Dict[object, object] = {}
        self._reaching = None  # (while the bindings are being made)
        builder = _ModelBuilder(self)
        walk(module, builder)
        self.module_scope: Scope = builder.module_scope
        # (name, id(scope), order) → ``reaching``'s answer, once every binding is known
        self._reaching: Optional[Dict[Tuple[str, int, int], Tuple[Binding, ...]]] = {}

    # --- resolution ----------------------------------------------------------------------

    def resolve(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Value:
        """The first object ``expr`` may hold (``resolve_all``), None when the file knows none:
        a parameter's value is its callers' business, and a string is no object."""
        return _first_object(self.resolve_all(expr, scope, order))

    def resolve_all(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Values:
        """Every value ``expr`` may hold, as far as this file can tell, in source order."""
        key = (id(expr), order)
        cached = self._cache.get(key, _UNRESOLVED)
        if cached is _IN_PROGRESS:
            return ()  # a cycle (x = x.y): unknown
        if cached is not _UNRESOLVED:
            return cached  # type: ignore[return-value]
        self._cache[key] = _IN_PROGRESS
        try:
            values = _distinct(self._resolve(expr, scope, order))
        except RecursionError:
            values = ()
        self._cache[key] = values
        return values

    def qualified_name(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Optional[str]:
        """The canonical dotted name of what ``expr`` refers to, if the file knows it."""
        return next(self._known_names(self.resolve_all(expr, scope, order)), None)

    def call_name(self, call: CallSite) -> Optional[str]:
        """``requests.get``, ``requests.Session.get`` (a method), ``mymodule.helper`` …"""
        key = id(call.node)
        found = self._call_names.get(key, _UNRESOLVED)
        if found is _UNRESOLVED:
            found = self._call_names[key] = next(self._known_names(self._callees(call)), None)
        return found  # type: ignore[return-value]

    def _callees(self, call: CallSite) -> Values:
        values = self.resolve_all(call.node.func, call.scope, call.order)
        for value in values:
            if value.__class__ is Overridable:
                return tuple(v for v in values if v.__class__ is not Overridable)
        return values

    def call_names(self, call: CallSite) -> Tuple[str, ...]:
        """Every name the call may call, for the project pass: the objects the file knows
        (``(a if fast else b).get``: two clients' ``get``) and names only the project can
        resolve (``pkg.f.(session).get``: what ``f``'s callers pass as ``session``)."""
        values = self._callees(call)
        names = tuple(dict.fromkeys(self._names(values)))
        func = call.node.func
        if names:
            return names
        if isinstance(func, cst.Attribute) and not self.calls_super(func.value, call.scope, call.order):
            mixin = self._mixin_method(func, call.scope, call.order)
            if mixin is not None:
                return (mixin,)
        if isinstance(func, cst.Name):
            # ``http_method(url)`` of a parameter annotated with a protocol class of the file
            # (``http_method: HttpMethod``): what the callers pass
            binding = self.lookup(func.value, call.scope, call.order)
            if binding is not None and binding.parameter is not None:
                name = self.name_of(binding.parameter)
                return (name,) if name is not None else ()
        # ``request = get_request_function(); request(...)``: a call of what a call returned
        # (``pkg.get_request_function.()``), or of an object (its ``__call__``: ``RETRY(f)``,
        # ``self._retry(f)``, ``self._retry.copy()(f)``)
        return tuple(dict.fromkeys(f"{name}.{CALLED}" for name in map(self.type_name, values) if name is not None))

    def _known_names(self, values: Values) -> Iterator[str]:
        return (name for name in self._names(values) if not _SYMBOLIC.search(name))

    def _names(self, values: Values) -> Iterator[str]:
        for value in values:
            name = self.name_of(value.of if isinstance(value, Partial) else value)
            if name is not None:
                yield name

    def name_of(self, value: Value) -> Optional[str]:
        """The dotted name of a value for the summaries: what the project pass resolves. A
        parameter is named by its function and itself in parentheses (``pkg.f.(session)``)."""
        if isinstance(value, QName):
            return value.name
        if isinstance(value, (FunctionInfo, ClassInfo)):
            return self._local_name(value.qualname)
        if isinstance(value, Param):
            return f"{self._local_name(value.function.qualname)}.({value.name})"
        return None

    def type_name(self, value: Value) -> Optional[str]:
        """For an instance, the qualified name of its class."""
        if isinstance(value, Instance):
            return value.of if isinstance(value.of, str) else self._local_name(value.of.qualname)
        return None

    def lookup(self, name: str, scope: Scope, order: int) -> Optional[Binding]:
        """The binding of ``name`` visible at ``order`` in ``scope`` (Python's LEGB, simplified)."""
        found = self.reaching(name, scope, order)
        return found[-1] if found else None

    def reaching(self, name: str, scope: Scope, order: int) -> Tuple[Binding, ...]:
        """The bindings of ``name`` a read at ``order`` in ``scope`` may see, the latest last.

        In the scope of the read, code runs in order: the latest assignment before it (the
        last one of the scope, for a read before any), and the import before a ``None`` that
        stands in for it when the import fails. An enclosing scope is read when the
        inner code runs, after it is complete, and any of its assignments may have happened
        (a module global that a getter fills in on first use, or a setter replaces); of those,
        ``None`` placeholders say nothing of what the name holds once it is used."""
        known = self._reaching
        if known is None:
            return self._reaching_now(name, scope, order)
        key = (name, id(scope), order)
        found = known.get(key)
        if found is None:
            found = known[key] = self._reaching_now(name, scope, order)
        return found

    def _reaching_now(self, name: str, scope: Scope, order: int) -> Tuple[Binding, ...]:
        name = identifier(name)
        current: Optional[Scope] = scope
        first = True
        while current is not None:
            if current.kind == "class" and not first:
                current = current.parent  # class bodies are not visible from their methods
                continue
            bindings = current.bindings.get(name)
            if bindings:
                if first:
                    index = next((i for i in range(len(bindings) - 1, -1, -1) if bindings[i].order < order), len(bindings) - 1)
                    binding = bindings[index]
                    if index and is_none(binding.expr) and bindings[index - 1].imported is not None:
                        # ``try: import requests`` / ``except ImportError: requests = None``: the
                        # module, unless the import failed
                        return (bindings[index - 1], binding)
                    if self.arms and binding.order < order and self._arms_at(binding.order):
                        return self._branch_bindings(bindings, index, order)  # (it sits in an arm)
                    return (binding,)
                key = (id(current), name)
                held = self._enclosing.get(key)
                if held is None:
                    held = self._enclosing[key] = tuple(b for b in bindings if not is_none(b.expr)) or (bindings[-1],)
                return held
            first = False
            current = current.parent
        return ()

    def _branch_bindings(self, bindings: Sequence[Binding], index: int, order: int) -> Tuple[Binding, ...]:
        """The bindings before ``order`` that reach it when the latest ones sit in the arms of an
        ``if``/``elif``/``else`` chain that the read is not in: one per arm, each arm's latest
        (``if key: client = OpenAI(...)`` / ``elif shared: client = state.client``), and the
        one before the chain unless every arm of a chain ending with ``else`` assigns the name,
        the latest last. An assignment in another arm of a chain the read is inside never
        reaches it."""
        found: List[Binding] = []
        chain: Optional[int] = None
        taken: Set[int] = set()
        for binding in reversed(bindings[:index + 1]):
            if self._exclusive(binding.order, order) is not None:
                continue  # another arm of a chain the read is in
            arm = self._arm_outside(binding.order, order)
            if arm is None or (chain is not None and arm[0] != chain):
                if not found or (
                    chain is not None and self.complete_chains.get(chain) != len(taken)
                    and not _tests_unset(self.chain_tests.get(chain), binding.name)
                ):
                    found.append(binding)  # (some arm, or no arm, of the chain may run without assigning it)
                break  # it runs whenever the read does (or belongs to another chain): earlier ones are overwritten
            if arm[1] in taken:
                continue  # an earlier assignment of an arm already counted
            chain = arm[0]
            taken.add(arm[1])
            found.append(binding)
        return tuple(reversed(found))

    def _arm_outside(self, at: int, order: int) -> Optional[Tuple[int, int]]:
        """The outermost chain arm holding the code at ``at`` that does not hold ``order``."""
        around = set(self._arms_at(order))
        return next(((chain, arm) for chain, arm in self._arms_at(at) if (chain, arm) not in around), None)

    def _exclusive(self, at: int, order: int) -> Optional[int]:
        """A chain whose arms hold ``at`` and ``order`` apart (one runs, not the other)."""
        held = dict(self._arms_at(order))
        return next((chain for chain, arm in self._arms_at(at) if chain in held and held[chain] != arm), None)

    def _arms_at(self, order: int) -> Tuple[Tuple[int, int], ...]:
        """The (chain, arm) pairs whose code holds ``order``, outermost first."""
        found = self._arms_cache.get(order)
        if found is None:
            if not self._arms_cache:
                self.arms.sort(key=lambda a: a[2])  # (the file's arms are all known by now)
                self._arm_starts = [start for _, _, start, _ in self.arms]
            # (the arms that start at or before ``order``, while ``arms`` is as it was sorted)
            starting = bisect_right(self._arm_starts, order) if len(self._arm_starts) == len(self.arms) else len(self.arms)
            found = self._arms_cache[order] = tuple(
                (chain, arm) for chain, arm, start, end in islice(self.arms, starting) if start <= order <= end
            )
        return found

    def assigned_expression(
        self, expr: cst.BaseExpression, scope: Scope, order: int
    ) -> Optional[cst.BaseExpression]:
        """Follow ``NAME`` to the expression last assigned to it (for constants), else None."""
        seen = 0
        while isinstance(expr, cst.Name) and expr.value not in ("None", "True", "False") and seen < 20:
            binding = self.lookup(expr.value, scope, order)
            element = self._element_expression(binding) if binding is not None and binding.unpacked is not None else None
            if element is not None:
                expr, scope, order = element
            elif binding is None or binding.expr is None:
                return None
            else:
                expr, scope, order = binding.expr, binding.scope, binding.order
            seen += 1
        return expr

    def _element_expression(self, binding: Binding) -> Optional[Tuple[cst.BaseExpression, "Scope", int]]:
        """The expression an element of a tuple assignment was, where one is written: in a
        tuple written out, or in the only ``return a, b`` of the file's function called
        (``client, retry = make_client_and_retry()``)."""
        assert binding.unpacked is not None
        expr, index, size = binding.unpacked
        if isinstance(expr, cst.Call):
            function = self.resolve(expr.func, binding.scope, binding.order)
            if not isinstance(function, FunctionInfo) or len(function.returns) != 1:
                return None
            expr, scope, order = function.returns[0], function.scope, 1 << 62
        else:
            scope, order = binding.scope, binding.order
        element = _tuple_element(expr, index, size)
        return (element, scope, order) if element is not None else None

    def followed(self, expr: cst.BaseExpression, scope: Scope, order: int) -> cst.BaseExpression:
        """The expression a name (or ``self.attr``) was last assigned, else ``expr`` itself (the
        value of ``(name := value)``)."""
        if isinstance(expr, cst.NamedExpr):
            return self.followed(expr.value, scope, order)
        if isinstance(expr, cst.Name):
            assigned = self.assigned_expression(expr, scope, order)
            if assigned is not None:
                return assigned
        elif isinstance(expr, cst.Attribute):
            owner = self.resolve(expr.value, scope, order)
            if isinstance(owner, Instance) and not isinstance(owner.of, str):
                bindings = owner.of.instance_attributes.get(expr.attr.value) or owner.of.scope.bindings.get(expr.attr.value)
                if bindings and bindings[-1].expr is not None:
                    return bindings[-1].expr
        return expr

    def _local_name(self, qualname: str) -> str:
        return f"{self.module_name}.{qualname}" if self.module_name else qualname

    def _resolve(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Iterator[Value]:
        kind = expr.__class__
        if kind is cst.Name:
            name = identifier(expr.value)  # type: ignore[attr-defined]
            bindings = self.reaching(name, scope, order)
            if not bindings:
                if name in _BUILTINS:
                    yield QName(f"builtins.{name}")
                elif self.star_imports and self.module_name:
                    # ``from tests.testhelper import *`` then ``requests.get(...)``: a name
                    # one of those modules binds, which the project pass looks up there
                    yield QName(f"{self.module_name}.{name}")
                return
            for binding in bindings:
                yield from self.binding_values(binding)
        elif kind is cst.Attribute:
            attr = expr.attr.value  # type: ignore[attr-defined]
            for base in self.resolve_all(expr.value, scope, order):  # type: ignore[attr-defined]
                yield from self._attribute(base, attr)
        elif kind is cst.Call:
            yield from self._call(expr, scope, order)  # type: ignore[arg-type]
        elif kind is cst.Await:
            yield from self.resolve_all(expr.expression, scope, order)  # type: ignore[attr-defined]
        elif kind is cst.Yield and expr.value is not None and self._inline_callbacks(scope):  # type: ignore[attr-defined]
            # ``x = yield make()`` in Twisted's ``@inlineCallbacks``: what ``make()`` gives (its
            # Deferred's result, or the object itself), as ``await`` does
            yield from self.resolve_all(expr.value, scope, order)  # type: ignore[attr-defined, arg-type]
        elif kind is cst.BooleanOperation:
            parameter = self._optional_parameter(expr.left, scope, order)  # type: ignore[attr-defined]
            if parameter is not None and expr.operator.__class__ is cst.Or:  # type: ignore[attr-defined]
                # ``session or build()``: what the callers pass, whatever its annotation says
                yield parameter
            else:
                yield from self.resolve_all(expr.left, scope, order)  # type: ignore[attr-defined]
            yield from self.resolve_all(expr.right, scope, order)  # type: ignore[attr-defined]
        elif kind is cst.IfExp:
            yield from self.resolve_all(expr.body, scope, order)  # type: ignore[attr-defined]
            yield from self.resolve_all(expr.orelse, scope, order)  # type: ignore[attr-defined]
        elif kind is cst.NamedExpr:  # ``(url := api_url_for(...))``: the value it names
            yield from self.resolve_all(expr.value, scope, order)  # type: ignore[attr-defined]
        elif kind is cst.Subscript:
            yield from self._item(expr, scope, order)  # type: ignore[arg-type]
        elif kind is cst.SimpleString or kind is cst.ConcatenatedString:
            text = string_of(expr)
            if text is not None:
                yield Const(text)

    def _call(self, call: cst.Call, scope: Scope, order: int) -> Iterator[Value]:
        args = call.args
        func = call.func
        if func.__class__ is cst.Attribute and func.attr.value in ("lower", "upper") and not args:  # type: ignore[attr-defined]
            for value in self.resolve_all(func.value, scope, order):  # type: ignore[attr-defined]
                if isinstance(value, Const):
                    yield Const(value.value.lower() if func.attr.value == "lower" else value.value.upper())  # type: ignore[attr-defined]
        if func.__class__ is cst.Attribute and func.attr.value in _KEYWORD_READS and args and args[0].keyword is None:  # type: ignore[attr-defined]
            read = self._keyword_read(func.value, args[0].value, scope, order)  # type: ignore[attr-defined]
            if read is not None:  # ``kwargs.pop("client")``: what the callers pass as ``client=``
                yield read
                if len(args) > 1 and not is_none(args[1].value):  # the default when they pass none
                    yield from self.resolve_all(args[1].value, scope, order)
                return
            if func.attr.value == "get" and isinstance(func.value, cst.Name):  # type: ignore[attr-defined]
                mapping = self.assigned_expression(func.value, scope, order)  # type: ignore[attr-defined]
                if isinstance(mapping, cst.Dict):  # ``PROVIDERS.get(name)`` of a dict literal: an entry
                    yield from self._entries(func.value, mapping, args[0].value, scope, order)  # type: ignore[attr-defined]
                    if len(args) > 1 and not is_none(args[1].value):
                        yield from self.resolve_all(args[1].value, scope, order)
                    return
            mapping_values = self.resolve_all(func.value, scope, order) if func.attr.value == "get" and len(args) == 2 else ()  # type: ignore[attr-defined]
            if (mapping_values and all(isinstance(held, Param) for held in mapping_values)
                    and isinstance(args[1].value, (cst.Name, cst.Attribute))):
                # ``options.get("executor", RequestExecutor)`` of a mapping the callers pass: its
                # entry, unknown here, or the default (as for ``executor or RequestExecutor``)
                yield from self.resolve_all(args[1].value, scope, order)
                return
        for callee in self.resolve_all(func, scope, order):
            if callee == _SUPER and (not args or self._own_super(args, scope, order)):
                yield from self._super(scope)
                continue
            if callee == _PARTIAL and args and not args[0].star and args[0].keyword is None:
                for of in self.resolve_all(args[0].value, scope, order):
                    yield Partial(of, call)
                continue
            if callee == _GETATTR and len(args) >= 2 and not any(a.star or a.keyword for a in args[:2]):
                attributes = [a.value for a in self.resolve_all(args[1].value, scope, order) if isinstance(a, Const)]
                if not attributes and names_http_method(args[1].value):
                    # ``getattr(session, method.lower())``: whichever verb, the client's ``request``
                    attributes = ["request"]
                for attribute in attributes:
                    for base in self.resolve_all(args[0].value, scope, order):
                        yield from self._attribute(base, attribute)
                if len(args) == 3 and not args[2].star and not args[2].keyword:
                    # ``getattr(session, "session", session)``: or the default, when it has none
                    yield from self.resolve_all(args[2].value, scope, order)
                continue
            if callee == _TYPE and len(args) == 3 and not any(a.star or a.keyword for a in args):
                bases = args[1].value
                if isinstance(bases, cst.Tuple) and len(bases.elements) == 1 and not isinstance(bases.elements[0], cst.StarredElement):
                    # ``type("WelcomeMail", (TemplateMail,), {"name": name})``: a class made on the
                    # fly, which behaves as its base but for the attributes the dict sets
                    yield from self.resolve_all(bases.elements[0].value, scope, order)
                continue
            handed = RETURNS_ITS_ARGUMENT.get(self.name_of(callee) or "")
            given = call_argument(call, *handed) if handed is not None else None
            if given is not None:  # ``CacheControl(sess=session)``: that session
                yield from self.resolve_all(given.value, scope, order)
                continue
            first = string_of(args[0].value) if args and args[0].keyword is None else None
            module = loaded_module(self.name_of(callee), first)  # boto3 = lazy_import("boto3")
            if module is not None:
                yield QName(module)
            else:
                yield from self._call_result(callee, call)

    def keyword_mapping(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Optional[FunctionInfo]:
        """The function whose ``**kwargs`` parameter ``expr`` names (not reassigned since)."""
        return self._star_parameter(expr, scope, order, "star_kwarg")

    def positional_mapping(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Optional[FunctionInfo]:
        """The function whose ``*args`` parameter ``expr`` names (not reassigned since)."""
        return self._star_parameter(expr, scope, order, "star_arg")

    def _star_parameter(self, expr: cst.BaseExpression, scope: Scope, order: int, kind: str) -> Optional[FunctionInfo]:
        if expr.__class__ is not cst.Name:
            return None
        binding = self.lookup(expr.value, scope, order)  # type: ignore[attr-defined]
        function = binding.scope.function if binding is not None else None
        if (function is None or binding is None or binding.expr is not None or binding.entered is not None
                or binding.parameter is not None or binding.imported is not None or binding.defined is not None):
            return None
        star = getattr(function.node.params, kind)
        return function if isinstance(star, cst.Param) and star.name.value == binding.name else None

    def _keyword_read(self, mapping: cst.BaseExpression, key: cst.BaseExpression, scope: Scope, order: int) -> Value:
        """``kwargs["client"]``, ``kwargs.get("client")``: the keyword argument ``client`` of the
        function's callers, read as a parameter of that name."""
        name = string_of(key)
        function = self.keyword_mapping(mapping, scope, order) if name is not None and name.isidentifier() else None
        return Param(function, name, None) if function is not None and name is not None else None

    def _item(self, expr: cst.Subscript, scope: Scope, order: int) -> Iterator[Value]:
        """``HANDLERS["create"]`` of a dict literal: that entry; with a key the file cannot
        read, any of its entries. A generic class given its type arguments
        (``HttpRepo[CreateRecipe, Recipe]``) is that class."""
        if _generic_alias(expr):
            yield from self.resolve_all(expr.value, scope, order)
            return
        if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
            return
        read = self._keyword_read(expr.value, expr.slice[0].slice.value, scope, order)
        if read is not None:
            yield read
            return
        owner = expr.value
        if isinstance(owner, cst.Subscript):
            # ``DEFAULTS[kind][encryption]["init"]``: the entries of each nested dict literal the
            # keys before may select
            nested = self._nested_dicts(owner, scope, order)
            if nested:
                for mapping in nested:
                    yield from self._entries(owner, mapping, expr.slice[0].slice.value, scope, order)
                return
        mapping = self.assigned_expression(owner, scope, order) if isinstance(owner, cst.Name) else owner
        yield from self._entries(owner, mapping, expr.slice[0].slice.value, scope, order)

    def _nested_dicts(self, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> List[cst.Dict]:
        """The dict literals ``expr`` may be: a name of one, or an entry a subscript of one
        selects (every entry whose value is one, when the key cannot be read); none when some
        entry it may select is something else."""
        if isinstance(expr, cst.Name):
            mapping = self.assigned_expression(expr, scope, order)
            return [mapping] if isinstance(mapping, cst.Dict) else []
        if not isinstance(expr, cst.Subscript) or depth > 4 or len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
            return []
        key = string_of(expr.slice[0].slice.value)
        found: List[cst.Dict] = []
        for mapping in self._nested_dicts(expr.value, scope, order, depth + 1):
            for element in mapping.elements:
                if not isinstance(element, cst.DictElement):
                    return []
                if key is not None and string_of(element.key) != key:
                    continue
                if key is None and not isinstance(element.value, cst.Dict):
                    continue  # ``"sync": pop3_sync`` beside the nested dicts: not what is indexed further
                if not isinstance(element.value, cst.Dict):
                    return []
                found.append(element.value)
        return found

    def _entries(
        self, owner: cst.BaseExpression, mapping: Optional[cst.BaseExpression], key_expr: cst.BaseExpression,
        scope: Scope, order: int,
    ) -> Iterator[Value]:
        """What ``owner[key_expr]`` (or ``owner.get(key_expr)``) holds when ``owner`` is (a name
        of) the dict literal ``mapping``; another module's dict is named for the project pass."""
        key = string_of(key_expr)
        item = f"[{key}]" if key is not None and not any(c in key for c in ".[]()") else "[]"
        if not isinstance(mapping, cst.Dict):
            # another module's dict (or a parameter's): named for the project pass
            for value in self.resolve_all(owner, scope, order):
                name = self.name_of(value) if isinstance(value, (QName, Param)) else None
                if name is not None:
                    yield QName(f"{name}.{item}")
            if any(isinstance(value, Instance) and value.of == "builtins.dict" for value in self.resolve_all(owner, scope, order)):
                yield from self._attribute_item(owner, item, scope, order)
            return
        entries = [e for e in mapping.elements if isinstance(e, cst.DictElement)]
        chosen = [e for e in entries if string_of(e.key) == key] if key is not None else entries
        if not chosen:
            yield from self._attribute_item(owner, item, scope, order)
        for entry in chosen:
            yield from self.resolve_all(entry.value, scope, order)

    def _attribute_item(self, owner: cst.BaseExpression, item: str, scope: Scope, order: int) -> Iterator[Value]:
        """``self.managers["KeyValuePair"]`` of a dict the object fills in by key
        (``self.managers = dict()``, then ``self.managers["KeyValuePair"] = ...``): named as
        the class's attribute for the project pass, which has its entries."""
        if not isinstance(owner, cst.Attribute) or item == "[]":
            return
        classes = {
            value.of.qualname for value in self.resolve_all(owner.value, scope, order)
            if isinstance(value, Instance) and isinstance(value.of, ClassInfo)
        }
        if len(classes) == 1:
            yield QName(f"{self._local_name(classes.pop())}.{owner.attr.value}.{item}")

    def _own_super(self, args: Sequence[cst.Arg], scope: Scope, order: int) -> bool:
        """``super(Client, self)`` in a method of ``Client``: the same as ``super()``."""
        function = scope.enclosing_function
        cls = function.owner if function is not None else None
        return (
            cls is not None and len(args) == 2 and not any(a.star or a.keyword for a in args)
            and self.resolve(args[0].value, scope, order) is cls
            and isinstance(args[1].value, cst.Name) and args[1].value.value in ("self", "cls")
        )

    def _mixin_method(self, func: cst.Attribute, scope: Scope, order: int) -> Optional[str]:
        """A method a class with no bases (a mixin) calls on its instance without defining it
        (``self.post_save(...)`` in ``UpdateModelMixin``): named by the mixin, the project pass
        runs what the classes mixing it in take from their other bases."""
        attr = identifier(func.attr.value)
        receivers = self.resolve_all(func.value, scope, order) if not attr.startswith("__") else ()
        held = receivers[0] if len(receivers) == 1 else None
        if not (isinstance(held, Instance) and isinstance(held.of, ClassInfo) and self.base_less(held.of)):
            return None
        return f"{self._local_name(held.of.qualname)}.{attr}"

    def base_less(self, cls: ClassInfo) -> bool:
        """A class with no bases but ``object`` (``class HistoryResourceMixin(object):``)."""
        return all(self.resolve(base, cls.scope.parent or cls.scope, 1 << 62) == _OBJECT for base in cls.bases)

    def calls_super(self, expr: cst.BaseExpression, scope: Scope, order: int) -> bool:
        """``super()`` (a call of the builtin)."""
        return (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "super"
                and self.resolve(expr.func, scope, order) == _SUPER)

    def _super(self, scope: Scope) -> Iterator[Value]:
        """``super()`` in a method: each base class, in order, so that ``super().request(...)``
        in a ``requests.Session`` subclass is ``requests.Session.request``, and ``super().create()``
        in ``class View(WatchedMixin, ModelViewSet)`` reaches ``ModelViewSet.create`` when the
        mixin does not define it (the method resolution order goes on to the next base; a base
        without the attribute gives nothing); in a class with no bases, what comes after it in
        the classes that mix it in, which the project pass finds."""
        function = scope.enclosing_function
        cls = function.owner if function is not None else None
        if cls is None:
            return
        if self.base_less(cls):
            # a mixin's ``super().pre_delete(obj)``: the next class of each class mixing it in
            yield QName(f"{self._local_name(cls.qualname)}.{NEXT_IN_ORDER}")
        for base_expr in cls.bases:
            base = self.resolve(base_expr, cls.scope.parent or cls.scope, 1 << 62)
            if isinstance(base, QName) and base.name != "builtins.object":
                yield Instance(base.name)
            elif isinstance(base, ClassInfo) and base is not cls:
                yield Instance(base)

    def library_base(self, cls: ClassInfo, depth: int = 0) -> Optional[str]:
        """The library class a class of the file derives from, through its bases here."""
        for base_expr in cls.bases:
            base = self.resolve(base_expr, cls.scope.parent or cls.scope, 1 << 62)
            if isinstance(base, QName) and base.name != "builtins.object":
                return canonical_name(base.name)
            if isinstance(base, ClassInfo) and base is not cls and depth < 5:
                found = self.library_base(base, depth + 1)
                if found is not None:
                    return found
        return None

    def _optional_parameter(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Optional[Param]:
        """The parameter ``expr`` reads, when it is only that parameter (not reassigned)."""
        if expr.__class__ is not cst.Name:
            return None
        bindings = self.reaching(expr.value, scope, order)  # type: ignore[attr-defined]
        if len(bindings) != 1 or bindings[0].expr is not None or bindings[0].entered is not None:
            return None
        return bindings[0].parameter

    def falls_back(self, binding: Binding) -> bool:
        """``parameter or fallback``: the fallback only when a caller passes nothing."""
        expr = binding.expr
        if not (isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or)):
            return False
        left = self.resolve_all(expr.left, binding.scope, binding.order)
        return len(left) == 1 and isinstance(left[0], Param)

    def binding_value(self, binding: Binding) -> Value:
        return _first_object(self.binding_values(binding))

    def binding_values(self, binding: Binding) -> Values:
        if binding.imported is not None:
            if self.shadowed and binding.imported.split(".", 1)[0] in self.shadowed:
                return ()  # the project's own ``requests.py``, say: not the library
            return (QName(canonical_name(binding.imported)),)
        if binding.defined is not None:
            return (binding.defined,)
        if binding.self_of is not None:
            return (Instance(binding.self_of),)
        if binding.class_of is not None:
            return (binding.class_of,)
        if binding.unpacked is not None:
            return self._element_values(*binding.unpacked, binding.scope, binding.order)
        if binding.iterated is not None:
            # a row of the query, named for the project pass (which knows the model classes)
            names = (self.type_name(value) for value in self.resolve_all(binding.iterated, binding.scope, binding.order))
            return tuple(QName(f"{name}.[]") for name in names if name is not None)
        if binding.walked is not None:
            return tuple(self._items_of_annotated(binding.walked, binding.scope, binding.order))
        source = binding.expr if binding.expr is not None else binding.entered
        if source is None:
            annotated = self._annotated(binding)
            if annotated is not None and self._injected(binding) and self.project_class(annotated):
                # ``def __init__(self, publisher: PublisherLike)`` with a class of another module
                # of the project (a Protocol, an abstract base, a base class): what the callers
                # pass says what it is
                return (annotated, binding.parameter)
            if (annotated is not None and binding.parameter is not None and _configured_client(annotated)
                    and not self.project_class(annotated)):
                # ``def call_api(session: requests.Session)``: a client the caller configured (an
                # adapter's retries, a timeout), which the annotation cannot tell
                return (annotated, binding.parameter)
            if annotated is not None:
                return (annotated,)
            return (binding.parameter,) if binding.parameter is not None else ()
        if binding.scope.kind == "class" and isinstance(source, cst.Call):
            related = self._related_model(source, binding.scope)
            if related is not None:
                return (related,)
        # ``with X() as s``: for the clients we model, ``__enter__`` returns the object itself;
        # ``with closing(X()) as s`` gives ``X()`` too.
        if (binding.entered is not None and source.__class__ is cst.Call and len(source.args) == 1  # type: ignore[attr-defined]
                and self.qualified_name(source.func, binding.scope, binding.order) == "contextlib.closing"):  # type: ignore[attr-defined]
            source = source.args[0].value  # type: ignore[attr-defined]
        values = self.resolve_all(source, binding.scope, binding.order)
        if values:
            return values
        annotated = self._annotated(binding)
        return (annotated,) if annotated is not None else ()

    def _related_model(self, call: cst.Call, scope: "Scope") -> Optional[Value]:
        """``workflow_state = models.ForeignKey("WorkflowState", ...)`` in a model's body: what
        the attribute holds on an instance is an instance of that model (a class, ``"self"``,
        or a class of the module named as text)."""
        if self.qualified_name(call.func, scope, 1 << 62) not in _RELATED_FIELDS or not call.args or call.args[0].keyword:
            return None
        target = call.args[0].value
        named = string_of(target)
        if named is not None:
            if named == "self" and scope.cls is not None:
                return Instance(scope.cls)
            found = self.resolve(cst.Name(named), self.module_scope, 1 << 62) if named.isidentifier() else None
        else:
            found = self.resolve(target, scope.parent or scope, 1 << 62)
        if isinstance(found, ClassInfo):
            return Instance(found)
        return Instance(found.name) if isinstance(found, QName) else None

    def _element_values(self, expr: cst.BaseExpression, index: int, size: int, scope: "Scope", order: int) -> Values:
        """Element ``index`` of the ``size``-tuples ``expr`` may be: of a tuple written out, or
        of every ``return a, b, c`` of the file's function it calls."""
        if isinstance(expr, (cst.Tuple, cst.List)):
            tuples = [(expr, scope, order)]
        elif isinstance(expr, cst.Call):
            function = self.resolve(expr.func, scope, order)
            if not isinstance(function, FunctionInfo) or not function.returns:
                return ()
            tuples = [(returned, function.scope, 1 << 62) for returned in function.returns]
        else:
            return ()
        found: List[Value] = []
        for written, where, at in tuples:
            element = _tuple_element(written, index, size)
            if element is None:
                continue  # ``return None`` on a path that fails, say: nothing to unpack there
            found.extend(self.resolve_all(element, where, at))
        return _distinct(found)

    @staticmethod
    def _injected(binding: Binding) -> bool:
        """A parameter of a constructor: the object the caller hands in (dependency injection)."""
        parameter = binding.parameter
        return parameter is not None and parameter.function is not None and parameter.function.name == "__init__"

    def _project_base(self, expr: cst.BaseExpression, cls: ClassInfo) -> bool:
        """A base of ``cls`` that is a class of another module of the project."""
        base = self.resolve(expr, cls.scope.parent or cls.scope, 1 << 62)
        return isinstance(base, QName) and self.project_class(Instance(base.name))

    def project_class(self, value: Instance) -> bool:
        """An instance of a class imported from the file's own top-level package."""
        top = self.module_name.split(".", 1)[0]
        return bool(top) and isinstance(value.of, str) and value.of.split(".", 1)[0] == top and "." in self.module_name

    def _items_of_annotated(self, walked: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> List[Value]:
        """The items of a collection a parameter is annotated as (``users: Iterable[User]``,
        ``list[User]``, ``QuerySet[User]``: instances of that class), also walked through a
        copy, a concatenation or a comprehension that keeps its items (``set([u for u in
        source] + [u for u in target])``); none when anything else is walked."""
        if depth > 4:
            return []
        if isinstance(walked, cst.Name):
            holder = self.lookup(walked.value, scope, order)
            annotation = holder.annotation if holder is not None and holder.parameter is not None else None
            if not (isinstance(annotation, cst.Subscript) and len(annotation.slice) == 1
                    and isinstance(annotation.slice[0].slice, cst.Index)
                    and (dotted_name(annotation.value) or "").rsplit(".", 1)[-1] in _COLLECTIONS):
                return []
            item = self._annotated(replace(holder, annotation=annotation.slice[0].slice.value))  # type: ignore[arg-type]
            return [item] if item is not None else []
        if (isinstance(walked, cst.Call) and isinstance(walked.func, cst.Name) and walked.func.value in _COPIES
                and len(walked.args) == 1 and not walked.args[0].star and walked.args[0].keyword is None):
            return self._items_of_annotated(walked.args[0].value, scope, order, depth + 1)
        if isinstance(walked, cst.BinaryOperation) and isinstance(walked.operator, cst.Add):
            return [*self._items_of_annotated(walked.left, scope, order, depth + 1),
                    *self._items_of_annotated(walked.right, scope, order, depth + 1)]
        if (isinstance(walked, (cst.ListComp, cst.SetComp, cst.GeneratorExp)) and walked.for_in.inner_for_in is None
                and not walked.for_in.ifs and isinstance(walked.elt, cst.Name) and isinstance(walked.for_in.target, cst.Name)
                and walked.elt.value == walked.for_in.target.value):
            return self._items_of_annotated(walked.for_in.iter, scope, order, depth + 1)
        return []

    def _annotated(self, binding: Binding) -> Value:
        """An instance of the class a binding is annotated with: ``requests.Session``,
        ``Optional[requests.Session]`` or ``requests.Session | None``."""
        cls = self.annotated_class(binding.annotation, binding.scope, binding.order)
        if isinstance(cls, QName):
            return Instance(cls.name)
        if isinstance(cls, ClassInfo):
            return Instance(cls)
        return None

    def annotated_class(self, annotation: Optional[cst.BaseExpression], scope: Scope, order: int) -> Value:
        """The class an annotation names (``requests.Session``, ``Optional[Session]``,
        ``Session | None``, ``"Network"``): a QName of a library's or a ClassInfo, else None."""
        if isinstance(annotation, (cst.SimpleString, cst.ConcatenatedString)):
            text = string_of(annotation)
            if text is None or len(text) > 200:
                return None
            if text not in self._parsed_annotations:  # kept: resolutions are cached by the node's id
                try:
                    self._parsed_annotations[text] = cst.parse_expression(text)
                except cst.ParserSyntaxError:
                    self._parsed_annotations[text] = None
            annotation = self._parsed_annotations[text]
        while annotation is not None:
            if isinstance(annotation, cst.Subscript) and annotation.slice:
                element = annotation.slice[0].slice
                annotation = element.value if isinstance(element, cst.Index) else None
            elif isinstance(annotation, cst.BinaryOperation):
                annotation = annotation.left
            else:
                break
        if annotation is None:
            return None
        cls = self.resolve(annotation, scope, order)
        if isinstance(cls, QName) and not cls.name.startswith(("builtins.", "typing.")):
            return cls
        if isinstance(cls, ClassInfo) and not self._protocol(cls):
            return cls
        return None

    def _protocol(self, cls: ClassInfo) -> bool:
        """A ``typing.Protocol`` of the file: no object is one, so an annotation naming it says
        nothing of what the callers pass (``archiver: Archiver``)."""
        outer = cls.scope.parent or cls.scope
        return any(
            self.qualified_name(base.value if isinstance(base, cst.Subscript) else base, outer, 1 << 62) in _PROTOCOLS
            for base in cls.bases
        )

    def _attribute(self, base: Value, attr: str) -> Values:
        attr = identifier(attr)
        if isinstance(base, Param):
            return (QName(f"{self.name_of(base)}.{attr}"),)
        if isinstance(base, QName):
            return (QName(canonical_name(f"{base.name}.{attr}")),)
        if isinstance(base, Instance):
            if attr == "__class__":  # ``return self.__class__(...)``: a new object of the same class
                return (base.of,) if isinstance(base.of, ClassInfo) else (QName(base.of),) if isinstance(base.of, str) else ()
            if isinstance(base.of, ClassInfo):
                return self._class_attribute(base.of, attr, instance=True)
            if base.of in _NAMESPACES and base.site is not None:
                written = self._namespace_attribute(base, attr)
                if written:
                    return written
            return (QName(canonical_name(f"{base.of}.{attr}")),)
        if isinstance(base, ClassInfo):
            return self._class_attribute(base, attr, instance=False)
        if isinstance(base, FunctionInfo) and attr in _TASK_METHODS and base.decorators:
            # a decorated function's ``run``/``apply``/``si`` (a Celery task's): named for the
            # project pass, which tells whether it runs the task here
            return (QName(f"{self._local_name(base.qualname)}.{attr}"),)
        return ()

    def _namespace_attribute(self, base: Instance, attr: str) -> Values:
        """What the file sets an attribute of a namespace object to (``state =
        threading.local()``; ``state.session = requests.Session()``), wherever it reads it."""
        found: List[Value] = []
        for target, binding in self.attribute_writes:
            if identifier(target.attr.value) == attr and any(
                isinstance(held, Instance) and held.site is base.site
                for held in self.resolve_all(target.value, binding.scope, binding.order)
            ):
                found.extend(self.binding_values(binding))
        return _distinct(found)

    def _class_attribute(
        self, cls: ClassInfo, attr: str, *, instance: bool, depth: int = 0, of: Optional[ClassInfo] = None,
    ) -> Values:
        """What ``attr`` of the class (or of its instances) may hold: every assignment to it in
        the class body and, on instances, in any method; else what a base class gives (``of``:
        the class first asked, when asking its bases)."""
        own = cls.scope.bindings.get(attr)
        if own:
            binding = self._property_getter(own, attr) or own[-1]
            if isinstance(binding.defined, FunctionInfo) and instance and self.is_property(binding.defined):
                return self.returned_values(binding.defined)
            if binding.defined is not None or binding.imported is not None:
                return self.binding_values(binding)
        found: List[Value] = []
        declared: List[Value] = []  # ``session: requests.Session`` in the class body, no value
        for binding in own or ():
            if binding.expr is None and binding.entered is None and binding.annotation is not None:
                declared.extend(self.binding_values(binding))
            elif not is_none(binding.expr):
                found.extend(self.binding_values(binding))
        assigned: List[Value] = []
        if instance:
            for binding in cls.instance_attributes.get(attr, ()):
                if self.falls_back(binding):
                    # ``self.session = session or make()``: whether ``make()`` is ever used
                    # depends on the callers, which the project pass reads by this name
                    assigned.append(QName(f"{self._local_name(cls.qualname)}.{attr}"))
                elif not is_none(binding.expr):
                    assigned.extend(self.binding_values(binding))
                elif binding.annotation is not None:
                    # ``self.client_session: Optional[ClientSession] = None``: what it will hold
                    # once code the file may not show (a decorator's wrapper) sets it
                    annotated = self._annotated(binding)
                    if annotated is not None:
                        declared.append(annotated)
        # a declaration names the type the methods' assignments hold; what they assign says
        # more (a session a factory built with a timeout adapter mounted), unless it is what
        # the callers pass
        if not assigned or any(isinstance(value, Param) for value in assigned):
            found[:0] = declared
        found.extend(assigned)
        if found or own or (instance and attr in cls.instance_attributes) or depth > 10:
            return _distinct(found)
        for base_expr in cls.bases:
            base = self.resolve(base_expr, cls.scope.parent or cls.scope, 1 << 62)
            if isinstance(base, ClassInfo) and base is not cls:
                inherited = self._class_attribute(base, attr, instance=instance, depth=depth + 1, of=of or cls)
                if inherited:
                    return inherited
            elif isinstance(base, QName) and attr in _MODEL_MANAGERS and base.name in _DJANGO_MODELS:
                # a manager queries this model's rows, not its base's: named as other
                # modules name it (``net.models.IPAddress.objects``), its signals follow
                return (QName(f"{self._local_name((of or cls).qualname)}.{attr}"),)
            elif isinstance(base, QName) and base.name != "builtins.object":
                if len(cls.bases) > 1 and any(self._project_base(other, cls) for other in cls.bases):
                    # any of the bases may give it (``class Updater(FileConfiguration,
                    # CoreSysAttributes)``): named by the class, the project pass looks in each
                    return (QName(f"{self._local_name((of or cls).qualname)}.{attr}"),)
                inherited = QName(canonical_name(f"{base.name}.{attr}"))
                if instance and _overrides(of or cls) and self._project_base(base_expr, cls):
                    # a base's method may set it from a method this class overrides
                    # (``self.connection = self.get_connection()``): also as this class's, which
                    # the project pass reads with the override
                    return (inherited, Overridable(f"{self._local_name((of or cls).qualname)}.{attr}"))
                return (inherited,)
        return ()

    def _call_result(self, callee: Value, call: Optional[cst.Call] = None) -> Values:
        if isinstance(callee, QName):
            return (Instance(returned_type(callee.name), call),)
        if isinstance(callee, ClassInfo):
            return (Instance(callee, call),)
        if isinstance(callee, FunctionInfo):
            returned = self.returned_values(callee)
            if call is None or not call.args:
                return returned
            return tuple(
                replace(value, bound=call) if isinstance(value, Instance) and value.bound is None else value
                for value in returned
            )
        if isinstance(callee, Partial):
            return self._call_result(callee.of, call)
        if isinstance(callee, Instance):
            name = self.type_name(callee)
            made = called_instance_type(name) if name is not None else None
            if made is not None:
                return (Instance(made, call),)
            # an object of the project called (``self.client()``): what its ``__call__`` returns,
            # read here for a class of the file, by the project pass for another module's
            if isinstance(callee.of, ClassInfo):
                method = next((b.defined for b in callee.of.scope.bindings.get("__call__", ()) if isinstance(b.defined, FunctionInfo)), None)
                return self.returned_values(method) if method is not None else ()
            return (Instance(f"{name}.__call__", call),) if name is not None and callee.of == name else ()
        return ()

    def returned_value(self, function: FunctionInfo) -> Value:
        """The first object a project function may return."""
        return _first_object(self.returned_values(function))

    def returned_values(self, function: FunctionInfo) -> Values:
        """Every value a function of the file may return, joined over its ``return``s."""
        found: List[Value] = []
        for expr in function.returns:
            found.extend(self.resolve_all(expr, function.scope, 1 << 62))
        if not found:  # what it returns cannot be read: the class it is annotated to return
            annotated = self.returned_class(function)
            if annotated is not None:
                found.append(Instance(annotated.name if isinstance(annotated, QName) else annotated))  # type: ignore[union-attr,arg-type]
        if not found and function.yields and self._context_manager(function):
            # ``with self.client() as conn`` over a ``@contextmanager`` that yields the client
            for expr in function.yields:
                found.extend(self.resolve_all(expr, function.scope, 1 << 62))
        if not found and function.owner is not None and _makes_its_class(function):
            # ``cls._instances["loop"] = cls()`` … ``return cls._instances["loop"]``: a
            # classmethod that keeps the one instance it makes
            found.append(Instance(function.owner))
        return _distinct([self._configured(function, value) for value in found])

    def _context_manager(self, function: FunctionInfo) -> bool:
        """A generator made a context manager (``@contextlib.contextmanager``): what it yields is
        what ``with`` gives the name after ``as``."""
        outer = function.scope.parent or self.module_scope
        return any(
            self.qualified_name(d.decorator, outer, 1 << 62) in ("contextlib.contextmanager", "contextlib.asynccontextmanager")
            for d in function.decorators
        )

    def _configured(self, function: FunctionInfo, value: Value) -> Value:
        """``value``, or the object as ``function`` configured it: an object another function
        made that this one calls methods of before returning it (``session.mount(...)``,
        ``session.headers.update(...)``)."""
        if not isinstance(value, Instance) or value.by is not None or not isinstance(value.site, cst.Call):
            return value
        made = self.call_site(value.site)
        if made is None or made.scope.enclosing_function is function:
            return value
        identity = _identity(value)
        for site in self.calls_in(function.scope):
            root = site.node.func
            if root.__class__ is not cst.Attribute:
                continue
            while root.__class__ is cst.Attribute:
                root = root.value  # type: ignore[attr-defined]
            if root.__class__ is cst.Name and any(
                _identity(held) == identity for held in self.resolve_all(root, site.scope, site.order)  # type: ignore[arg-type]
            ):
                return Instance(value.of, value.site, by=function)
        return value

    def configuring_functions(self) -> Set[int]:
        """The functions that return an object made elsewhere as they configured it."""
        return self.derived("configuring", lambda: {
            id(function) for function in self.functions
            if any(isinstance(v, Instance) and v.by is function for v in self.returned_values(function))
        })

    def returned_class(self, function: FunctionInfo) -> Value:
        """The class a function's return annotation names (``-> httpx.AsyncClient``)."""
        node = function.node
        if not isinstance(node, cst.FunctionDef) or node.returns is None:
            return None
        return self.annotated_class(node.returns.annotation, function.scope.parent or function.scope, 1 << 62)

    def property_of(self, cls: ClassInfo, attr: str) -> Optional[FunctionInfo]:
        """The getter of the property ``attr`` the class body defines, if it is one."""
        own = cls.scope.bindings.get(attr)
        if not own:
            return None
        defined = (self._property_getter(own, attr) or own[-1]).defined
        return defined if isinstance(defined, FunctionInfo) and self.is_property(defined) else None

    @staticmethod
    def _property_getter(bindings: List[Binding], attr: str) -> Optional[Binding]:
        """The getter of a property whose setter or deleter is defined after it (``@host.setter``
        rebinds ``host``): reading the attribute still runs the getter."""
        last = bindings[-1].defined
        if not isinstance(last, FunctionInfo) or not any(property_accessor(decorator.decorator, attr) for decorator in last.decorators):
            return None
        return next((b for b in reversed(bindings[:-1]) if isinstance(b.defined, FunctionInfo)
                     and not any(property_accessor(d.decorator, attr) for d in b.defined.decorators)), None)

    def _inline_callbacks(self, scope: Scope) -> bool:
        """Whether the function of ``scope`` is a Twisted ``@inlineCallbacks`` generator."""
        function = scope.enclosing_function
        return function is not None and any(
            self.qualified_name(d.decorator, function.scope.parent or function.scope, 1 << 62) == _INLINE_CALLBACKS
            for d in function.decorators
        )

    def is_property(self, function: FunctionInfo) -> bool:
        for decorator in function.decorators:
            target = decorator.decorator
            name = self.qualified_name(target, function.scope.parent or function.scope, 1 << 62)
            if name in _PROPERTY_DECORATORS:
                return True
        return False

    # --- convenience for rules -----------------------------------------------------------

    def derived(self, key: object, compute: Callable[[], T]) -> T:
        """A fact several rules derive from this file (its retry scopes, its timeout verdicts),
        computed once per file: ``compute()`` on first use of ``key``, the stored value after."""
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]  # type: ignore[return-value]

    def calls_of(self, function: FunctionInfo) -> List[CallSite]:
        """The file's calls of ``function`` (those whose callee resolves to it), in order."""

        def by_callee() -> Dict[int, List[CallSite]]:
            found: Dict[int, List[CallSite]] = {}
            for site in self.calls:
                target = self.resolve(site.node.func, site.scope, site.order)
                if isinstance(target, FunctionInfo):
                    found.setdefault(id(target), []).append(site)
            return found

        return self.derived(SemanticModel.calls_of, by_callee).get(id(function), [])

    def release(self) -> None:
        """Break the model's reference cycles (scopes with their bindings, functions and classes;
        derived facts that keep the model), once nothing will ask it again: reference counting
        then frees it, and the syntax tree it holds, at once, instead of the cyclic collector
        scanning all of it."""
        for scope in self.scope_of.values():
            scope.bindings = {}
            scope.parent = scope.function = scope.cls = None
        for cls in self.classes:
            cls.instance_attributes = {}  # their bindings' parameters hold the methods
        self.attribute_writes = []
        self._derived.clear()
        self._cache.clear()
        self._reaching = {}
        self._enclosing.clear()

    def calls_in(self, scope: Scope) -> List[CallSite]:
        """The calls made directly in ``scope`` (not in the functions, lambdas or comprehensions
        it holds), in source order."""
        by_scope = self.derived(_CALLS_BY_SCOPE, self._calls_by_scope)
        return by_scope.get(id(scope), [])

    def calls_run_in(self, scope: Scope) -> List[CallSite]:
        """The calls ``scope`` runs as it runs: its own, and those of the comprehensions it
        holds (``[self.fetch(s) for s in shards]``), not of its functions or lambdas."""
        by_scope = self.derived(_CALLS_RUN_BY_SCOPE, self._calls_run_by_scope)
        return by_scope.get(id(scope), [])

    def _calls_run_by_scope(self) -> Dict[int, List[CallSite]]:
        found: Dict[int, List[CallSite]] = {}
        for call in self.calls:
            scope = call.scope
            while scope.kind == "comprehension" and scope.parent is not None:
                scope = scope.parent
            found.setdefault(id(scope), []).append(call)
        return found

    def _calls_by_scope(self) -> Dict[int, List[CallSite]]:
        found: Dict[int, List[CallSite]] = {}
        for call in self.calls:
            found.setdefault(id(call.scope), []).append(call)
        return found

    def passed_here(self, param: Param) -> Values:
        """What the calls of this file pass as the parameter (the project pass follows the
        calls of other modules too)."""
        function = param.function
        found: List[Value] = []
        for site in self.calls:
            if function not in self.resolve_all(site.node.func, site.scope, site.order):
                continue
            bound = 1 if function.owner is not None and isinstance(site.node.func, cst.Attribute) else 0
            position = 0
            for arg in site.node.args:
                if arg.star:
                    break
                if arg.keyword is not None:
                    if identifier(arg.keyword.value) == param.name:
                        found.extend(self.resolve_all(arg.value, site.scope, site.order))
                elif param.index is not None and position + bound == param.index:
                    found.extend(self.resolve_all(arg.value, site.scope, site.order))
                if arg.keyword is None:
                    position += 1
        return _distinct(found)

    def attribute_reads(self, scope: Scope, name: str) -> Optional[List[cst.Attribute]]:
        """The mentions of a local that a function binds once, besides that binding, when each
        reads an attribute of it (``name.x``, ``name.x.y()``); None when it is bound again or
        mentioned otherwise (passed, returned, stored: its other uses are not seen)."""
        if scope.kind != "function" or len(scope.bindings.get(name, ())) != 1:
            return None
        mentions, reads = self.derived((_ATTRIBUTE_READS, id(scope.node)), lambda: _names_read(scope.node))
        found = reads.get(name, [])
        return found if len(found) == mentions.get(name, 0) - 1 else None

    def argument_of(self, node: cst.Call) -> Optional[CallSite]:
        """The call that the call ``node`` is written as an argument of (``Client(wsdl,
        transport=Transport())``)."""
        return self.derived(_ARGUMENT_OF, lambda: {
            id(arg.value): call for call in self.calls for arg in call.node.args if isinstance(arg.value, cst.Call)
        }).get(id(node))

    def call_site(self, node: cst.CSTNode) -> Optional[CallSite]:
        """The call site of a call node of the file."""
        return self.derived(_SITES, lambda: {id(call.node): call for call in self.calls}).get(id(node))

    def iter_calls(self) -> Iterator[Tuple[CallSite, Optional[str]]]:
        for call in self.calls:
            yield call, self.call_name(call)


def _tests_unset(test: Optional[cst.BaseExpression], name: str) -> bool:
    """``if session is None:`` / ``if not session:``: an ``if`` that fills the name in when it is
    unset, so what it held before reaches on only when it is already set (a lazy cache, whose
    value is what the ``if`` makes); also with another condition (``if schema and not
    transport:``)."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _tests_unset(test.left, name) or _tests_unset(test.right, name)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return isinstance(test.expression, cst.Name) and test.expression.value == name
    return (
        isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and test.left.value == name
        and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, (cst.Is, cst.Equal))
        and is_none(test.comparisons[0].comparator)
    )


def _names_read(root: cst.CSTNode) -> Tuple[Dict[str, int], Dict[str, List[cst.Attribute]]]:
    """How often each name is mentioned below ``root``, and the attribute reads of each."""
    mentions: Dict[str, int] = {}
    reads: Dict[str, List[cst.Attribute]] = {}
    for found in iter_nodes(root):
        if isinstance(found, cst.Name):
            mentions[found.value] = mentions.get(found.value, 0) + 1
        elif isinstance(found, cst.Attribute) and isinstance(found.value, cst.Name):
            reads.setdefault(found.value.value, []).append(found)
    return mentions, reads


class _ModelBuilder:
    """The single pass (driven by lint/traversal.walk). Records; resolves nothing."""

    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self.module_scope = Scope("module", "", None, model.module)
        self.scope = self.module_scope
        self.stack: List[cst.CSTNode] = []
        self.order = 0
        self.qualnames: List[str] = []
        model.scope_of[model.module] = self.module_scope
        self.type_checking = model.text is None or "TYPE_CHECKING" in model.text
        self._elifs: Dict[int, Tuple[int, int]] = {}  # an ``elif`` → its chain and arm index
        self._arm_of: Dict[int, Tuple[int, int]] = {}  # a block that is an arm → chain, arm index
        self._arm_starts: Dict[int, Tuple[int, int, int]] = {}  # an arm's block → chain, index, first order
        self._tested_at: Dict[int, int] = {}  # an ``elif`` → the order when its test starts

    def _next(self) -> int:
        self.order += 1
        return self.order

    # --- branches: the order ranges of each arm of an ``if``/``elif``/``else`` chain ----------

    def visit_If(self, node: cst.If) -> None:
        self.stack.append(node)
        if id(node) in self._elifs:
            self._tested_at[id(node)] = self.order  # the arm before it ended here
        chain, index = self._elifs.pop(id(node), (id(node), 0))
        if index == 0:
            self.model.chain_tests[chain] = node.test
        self._arm_of[id(node.body)] = (chain, index)
        if isinstance(node.orelse, cst.If):
            self._elifs[id(node.orelse)] = (chain, index + 1)
        elif isinstance(node.orelse, cst.Else):
            self._arm_of[id(node.orelse.body)] = (chain, index + 1)

    def leave_If(self, node: cst.If) -> None:
        # (an arm ends where the next one starts; the last, here)
        self.stack.pop()
        body = self._arm_starts.pop(id(node.body), None)
        if body is None:
            return
        chain, index, start = body
        orelse = node.orelse
        if isinstance(orelse, cst.Else):
            other = self._arm_starts.pop(id(orelse.body), None)
            if other is not None:
                self.model.arms.append((chain, index, start, other[2] - 1))
                self.model.arms.append((other[0], other[1], other[2], self.order))
                self.model.complete_chains[chain] = other[1] + 1
                return
        elif isinstance(orelse, cst.If):
            self.model.arms.append((chain, index, start, self._tested_at.pop(id(orelse), self.order)))
            return
        self.model.arms.append((chain, index, start, self.order))

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._arm_started(node)

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._arm_started(node)

    def _arm_started(self, block: cst.CSTNode) -> None:
        arm = self._arm_of.pop(id(block), None)
        if arm is not None:
            self._arm_starts[id(block)] = (arm[0], arm[1], self.order + 1)

    def _push_scope(self, kind: str, name: str, node: cst.CSTNode) -> Scope:
        scope = Scope(kind, name, self.scope, node)
        self.scope = scope
        self.model.scope_of[node] = scope
        return scope

    def _pop_scope(self) -> None:
        assert self.scope.parent is not None
        self.scope = self.scope.parent

    def _qualname(self, name: str) -> str:
        return ".".join(self.qualnames + [name])

    # --- imports -------------------------------------------------------------------------

    def visit_Import(self, node: cst.Import) -> None:
        order = self._next()
        for alias in node.names:
            dotted = _dotted(alias.name)
            if dotted is None:
                continue
            if self.scope.kind == "module":
                self.model.imported_modules.append(dotted)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self._bind(alias.asname.name.value, order, imported=dotted)
            else:
                top = dotted.split(".", 1)[0]
                self._bind(top, order, imported=top)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = _dotted(node.module) if node.module is not None else ""
        if node.relative:
            module = self._relative_base(len(node.relative), module or "")
        if module and self.scope.kind == "module":
            self.model.imported_modules.append(module)
        if isinstance(node.names, cst.ImportStar):
            if module and self.scope.kind == "module":
                self.model.star_imports.append(module)  # what it binds is that module's to say
            return
        order = self._next()
        for alias in node.names:
            name = _dotted(alias.name)
            if name is None:
                continue
            qualified = f"{module}.{name}" if module else name
            if self.scope.kind == "module":
                self.model.imported_modules.append(qualified)  # ``from . import api``: a submodule
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            self._bind(local, order, imported=qualified)

    def _relative_base(self, dots: int, module: str) -> str:
        """The absolute name ``from .module import`` reads, as importlib resolves it: one dot
        is the package the file is in, which for a package's ``__init__`` is the package itself."""
        if not self.model.module_name:
            return "." * dots + module
        package = self.model.module_name.split(".")
        if not _is_package_init(self.model.path):
            package.pop()
        base = package[: max(len(package) - dots + 1, 0)]
        return ".".join(base + ([module] if module else []))

    # --- definitions ---------------------------------------------------------------------

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        order = self._next()
        name = identifier(node.name.value)
        qualname = self._qualname(name)
        outer = self.scope
        scope = Scope("class", name, outer, node)
        info = ClassInfo(node, name, qualname, scope, tuple(a.value for a in node.bases))
        scope.cls = info
        self._bind(name, order, defined=info)
        self.model.classes.append(info)
        self.scope = scope
        self.model.scope_of[node] = scope
        self.qualnames.append(name)
        self.stack.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.stack.pop()
        self.qualnames.pop()
        self._pop_scope()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        order = self._next()
        owner = self.scope.cls if self.scope.kind == "class" else None
        name = identifier(node.name.value)
        qualname = self._qualname(name)
        scope = Scope("function", name, self.scope, node)
        info = FunctionInfo(
            node, name, qualname, scope, owner, tuple(node.decorators),
            is_async=node.asynchronous is not None,
        )
        scope.function = info
        self._bind(name, order, defined=info)
        self.model.functions.append(info)
        self.scope = scope
        self.model.scope_of[node] = scope
        self.qualnames.extend([name, "<locals>"])
        self.stack.append(node)
        self._bind_parameters(node.params, owner, node.decorators, info)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()
        del self.qualnames[-2:]
        self._pop_scope()

    def _bind_parameters(
        self,
        params: cst.Parameters,
        owner: Optional[ClassInfo],
        decorators: Tuple[cst.Decorator, ...] = (),
        function: Optional[FunctionInfo] = None,
    ) -> None:
        order = self._next()
        positional = list(params.posonly_params) + list(params.params)
        decorator_names = {
            identifier(d.decorator.value) for d in decorators if isinstance(d.decorator, cst.Name)
        }

        def parameter(name: str, index: Optional[int]) -> Optional[Param]:
            return Param(function, identifier(name), index) if function is not None else None

        for index, param in enumerate(positional):
            if index == 0 and owner is not None and "staticmethod" not in decorator_names:
                if "classmethod" in decorator_names:
                    self._bind(param.name.value, order, class_of=owner)
                else:
                    self._bind(param.name.value, order, self_of=owner)
            else:
                annotation = _annotation(param)
                if index == 0 and owner is None and annotation is None:
                    annotation = _bound_task_base(decorators)
                self._bind(param.name.value, order, annotation=annotation, parameter=parameter(param.name.value, index))
        for param in params.kwonly_params:
            self._bind(param.name.value, order, annotation=_annotation(param), parameter=parameter(param.name.value, None))
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                self._bind(star.name.value, order)

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._push_scope("lambda", "<lambda>", node)
        self.stack.append(node)
        self._bind_parameters(node.params, None)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.stack.pop()
        self._pop_scope()

    def _visit_comprehension(self, node: cst.CSTNode) -> None:
        self._push_scope("comprehension", "<comprehension>", node)

    def _leave_comprehension(self, node: cst.CSTNode) -> None:
        self._pop_scope()

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _visit_comprehension
    leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = _leave_comprehension

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind_target(node.target, self._next())

    def visit_Global(self, node: cst.Global) -> None:
        for item in node.names:
            self.scope.global_names.add(identifier(item.name.value))

    def visit_Return(self, node: cst.Return) -> None:
        function = self.scope.function
        if function is not None and node.value is not None:
            function.returns.append(node.value)

    def visit_Yield(self, node: cst.Yield) -> None:
        function = self.scope.function
        if function is not None:
            function.generator = True
            if isinstance(node.value, cst.BaseExpression):
                function.yields.append(node.value)  # (not ``yield from``)

    # --- bindings ------------------------------------------------------------------------

    def _bind(self, name: str, order: int, **source: object) -> Binding:
        binding = Binding(identifier(name), order, self.scope, **source)  # type: ignore[arg-type]
        self.scope.bind(binding)
        return binding

    def _bind_target(
        self, target: cst.BaseExpression, order: int, expr: Optional[cst.BaseExpression] = None,
        entered: Optional[cst.BaseExpression] = None,
    ) -> None:
        if isinstance(target, cst.Name):
            self._bind(target.value, order, expr=expr, entered=entered)
        elif isinstance(target, cst.Attribute):
            self._bind_attribute(target, order, expr, entered)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = target.elements
            plain = expr is not None and not any(isinstance(e, cst.StarredElement) for e in elements)
            for index, element in enumerate(elements):
                unpacked = (expr, index, len(elements)) if plain else None  # type: ignore[assignment]
                if isinstance(element.value, cst.Name):
                    self._bind(element.value.value, order, unpacked=unpacked)
                elif isinstance(element.value, cst.Attribute):
                    self._bind_attribute(element.value, order, None, None, unpacked=unpacked)
                else:
                    self._bind_target(element.value, order)
        elif isinstance(target, cst.StarredElement):
            self._bind_target(target.value, order)

    def _bind_attribute(
        self, target: cst.Attribute, order: int, expr: Optional[cst.BaseExpression],
        entered: Optional[cst.BaseExpression], annotation: Optional[cst.BaseExpression] = None,
        unpacked: Optional[Tuple[cst.BaseExpression, int, int]] = None,
    ) -> None:
        # ``self.x = value`` in a method: an instance attribute of the enclosing class.
        attribute = identifier(target.attr.value)
        binding = Binding(attribute, order, self.scope, expr=expr, entered=entered, annotation=annotation, unpacked=unpacked)
        function = self.scope.function
        bindings = (
            function.scope.bindings.get(identifier(target.value.value))
            if function is not None and function.owner is not None and isinstance(target.value, cst.Name) else None
        )
        if function is not None and bindings and bindings[0].self_of is function.owner:
            function.owner.instance_attributes.setdefault(attribute, []).append(binding)
        elif isinstance(target.value, (cst.Name, cst.Attribute)):
            self.model.attribute_writes.append((target, binding))

    def visit_Assign(self, node: cst.Assign) -> None:
        order = self._next()
        for target in node.targets:
            self._bind_target(target.target, order, expr=node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        order = self._next()
        annotation = node.annotation.annotation
        if isinstance(node.target, cst.Name):
            self._bind(node.target.value, order, expr=node.value, annotation=annotation)
        elif isinstance(node.target, cst.Attribute):
            self._bind_attribute(node.target, order, node.value, None, annotation)
        elif node.value is not None:
            self._bind_target(node.target, order, expr=node.value)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind_target(node.target, self._next(), expr=node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_target(node.target, self._next())

    def visit_For(self, node: cst.For) -> None:
        self.model.loops.append(node)
        if isinstance(node.target, cst.Name) and _row_query(node.iter):
            self._bind(node.target.value, self._next(), iterated=node.iter)
        elif isinstance(node.target, cst.Name):
            self._bind(node.target.value, self._next(), walked=node.iter)
        else:
            self._bind_target(node.target, self._next())
        self.stack.append(node)

    def leave_For(self, original_node: cst.For) -> None:
        self.stack.pop()

    def visit_With(self, node: cst.With) -> None:
        order = self._next()
        for item in node.items:
            if item.asname is not None:
                self._bind_target(item.asname.name, order, entered=item.item)
        self.stack.append(node)

    def leave_With(self, original_node: cst.With) -> None:
        self.stack.pop()

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._bind_target(node.name.name, self._next())
        self.stack.append(node)

    def leave_ExceptHandler(self, original_node: cst.ExceptHandler) -> None:
        self.stack.pop()

    def _push(self, node: cst.CSTNode) -> None:
        self.stack.append(node)

    def _pop(self, node: cst.CSTNode) -> None:
        self.stack.pop()

    def visit_While(self, node: cst.While) -> None:
        self.model.loops.append(node)
        self.stack.append(node)

    visit_Try = visit_TryStar = _push
    leave_While = leave_Try = leave_TryStar = _pop

    # --- calls ---------------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        if self.type_checking and _only_type_checked(node, self.stack):
            return  # ``if TYPE_CHECKING:``: never runs
        self.model.calls.append(CallSite(node, self.scope, self._next(), tuple(self.stack)))

    def visit_Raise(self, node: cst.Raise) -> None:
        if node.exc is not None:
            self.model.raises.append(RaiseSite(node, self.scope, self.order, tuple(self.stack)))


def _only_type_checked(call: cst.Call, stack: Sequence[cst.CSTNode]) -> bool:
    """Whether ``call`` (inside the nodes of ``stack``) is in the body of ``if TYPE_CHECKING:``
    (``typing.TYPE_CHECKING``), which only a type checker reads."""
    for node in stack:
        if node.__class__ is not cst.If:
            continue
        test = node.test  # type: ignore[attr-defined]
        name = test.value if isinstance(test, cst.Name) else test.attr.value if isinstance(test, cst.Attribute) else ""
        orelse = node.orelse  # type: ignore[attr-defined]
        if name == "TYPE_CHECKING" and (orelse is None or not any(n is call for n in iter_nodes(orelse))):
            return True
    return False


def _overrides(cls: ClassInfo) -> bool:
    """Whether the class defines a method other than ``__init__``, which may override one its
    bases call on the object."""
    return any(
        isinstance(binding.defined, FunctionInfo) and name != "__init__"
        for name, bindings in cls.scope.bindings.items() for binding in bindings
    )


def argument_for(node: cst.Call, callee: FunctionInfo, parameter: str) -> Optional[cst.BaseExpression]:
    """What a call passes as ``parameter`` of the function it calls (by keyword or position)."""
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == parameter:
            return arg.value
    definition = callee.node
    if not isinstance(definition, cst.FunctionDef):
        return None
    positional = [p.name.value for p in (*definition.params.posonly_params, *definition.params.params)]
    if positional and positional[0] in ("self", "cls") and callee.owner is not None:
        positional = positional[1:]
    if parameter not in positional:
        return None
    index = positional.index(parameter)
    plain = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
    return plain[index] if index < len(plain) else None


def names_http_method(expr: cst.BaseExpression) -> bool:
    """An attribute name that spells an HTTP method the file cannot read: ``method.lower()``,
    ``http_method``, ``verb``."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in ("lower", "upper"):
        expr = expr.func.value
    name = expr.attr.value if isinstance(expr, cst.Attribute) else expr.value if isinstance(expr, cst.Name) else ""
    return name.lower().endswith(("method", "verb"))


# Reads of one keyword from a ``**kwargs`` mapping.
_KEYWORD_READS = frozenset({"pop", "get", "setdefault"})
# Objects whose attributes are whatever the program sets on them.
_NAMESPACES = frozenset({"threading.local", "types.SimpleNamespace"})


# Collections whose one type argument is what walking them gives.
_COLLECTIONS = frozenset({
    "Iterable", "Iterator", "Collection", "Sequence", "MutableSequence", "List", "list", "Set", "set", "AbstractSet",
    "MutableSet", "FrozenSet", "frozenset", "QuerySet",
})
# Builtins that make a collection of the same items.
_COPIES = frozenset({"set", "list", "tuple", "frozenset", "sorted", "reversed"})


def _makes_its_class(function: FunctionInfo) -> bool:
    """A classmethod that calls its ``cls`` (and returns what the file cannot read)."""
    node = function.node
    if not isinstance(node, cst.FunctionDef) or not node.params.params or not any(
        isinstance(d.decorator, cst.Name) and d.decorator.value == "classmethod" for d in function.decorators
    ):
        return False
    cls = node.params.params[0].name.value
    return bool(function.returns) and any(
        isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == cls
        for call in iter_nodes(node.body)
    )


def _distinct(values: Iterable[Value]) -> Values:
    """The values, each once, in order (None is no value)."""
    values = tuple(values)
    if len(values) < 2:
        return values if not values or values[0] is not None else ()
    found: Dict[object, Value] = {}
    for value in values:
        if value is not None:
            found.setdefault(_identity(value), value)
    return tuple(found.values())  # type: ignore[arg-type]


def _identity(value: Value) -> object:
    # Two instances made at different calls are different objects; two spellings of the same
    # call's result are one.
    if isinstance(value, Instance):
        return (Instance, value.of if isinstance(value.of, str) else id(value.of), id(value.site), id(value.by))
    return value


def _first_object(values: Values) -> Value:
    """The first value that is an object the file knows: not a parameter's (its callers', for
    the project pass), not a string, not a name the project pass must resolve (``pkg.f.(session)
    .get``, ``pkg.HANDLERS.[]``)."""
    for value in values:
        if value.__class__ in _NOT_OBJECTS:
            continue
        if isinstance(value, QName) and _SYMBOLIC.search(value.name):
            continue
        if isinstance(value, Instance) and isinstance(value.of, str) and _SYMBOLIC.search(value.of):
            continue
        return value
    return None


def _is_package_init(path: str) -> bool:
    return path.replace("\\", "/").rsplit("/", 1)[-1] in ("__init__.py", "__init__.pyi")


# Library classes whose instances a caller configures before handing them on (retries mounted
# on a session, a client's config): an annotation names the class, not how it was built.
_CONFIGURED_CLIENT = re.compile(r"(Session|Client|PoolManager|ConnectionPool)$")


def _configured_client(value: Value) -> bool:
    return (
        isinstance(value, Instance) and isinstance(value.of, str) and _CONFIGURED_CLIENT.search(value.of) is not None
        and not value.of.startswith(_NOT_NETWORK_CLIENTS)
    )


# Sessions of a database or a test client, whose parameters are everywhere in some code bases
# (``db: Session``) and carry no retries a caller mounts.
_NOT_NETWORK_CLIENTS = ("builtins.", "sqlalchemy.", "sqlmodel.", "django.", "flask_sqlalchemy.", "starlette.testclient.")


def _bound_task_base(decorators: Sequence[cst.Decorator]) -> Optional[cst.BaseExpression]:
    """The task class a bound task's first parameter is an instance of: ``base=`` of
    ``@shared_task(bind=True, base=ApiTask)`` (Celery's ``self``)."""
    for decorator in decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            keywords = {a.keyword.value: a.value for a in expr.args if a.keyword is not None}
            if "base" in keywords and isinstance(keywords.get("bind"), cst.Name) and keywords["bind"].value == "True":
                return keywords["base"]
    return None


def property_accessor(decorator: cst.BaseExpression, attr: str) -> bool:
    """``@attr.setter`` or ``@attr.deleter``."""
    return (isinstance(decorator, cst.Attribute) and decorator.attr.value in ("setter", "deleter")
            and isinstance(decorator.value, cst.Name) and decorator.value.value == attr)


def _annotation(param: cst.Param) -> Optional[cst.BaseExpression]:
    return param.annotation.annotation if param.annotation is not None else None


def _dotted(node: Union[cst.Attribute, cst.Name, cst.BaseExpression, None]) -> Optional[str]:
    parts: List[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(identifier(node.attr.value))
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(identifier(node.value))
    return ".".join(reversed(parts))


# The methods of an ORM query whose result a loop walks row by row (SQLAlchemy's
# ``User.query.filter(...).all()``, Django's ``Network.objects.filter(...)``).
_ROW_LISTS = frozenset({
    "all", "filter", "filter_by", "exclude", "order_by", "select_related", "prefetch_related", "only", "defer",
    "distinct", "options", "join", "outerjoin", "limit", "offset", "select_for_update", "with_for_update", "annotate",
    "using", "iterator",
})


def _row_query(expr: cst.BaseExpression) -> bool:
    """``X.query.all()``, ``X.objects.filter(...)``: a call of a query's method that gives rows."""
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _ROW_LISTS


def _generic_alias(expr: cst.Subscript) -> bool:
    """Whether ``expr`` spells a class with type arguments (``Repo[Model]``, ``Repo[A, B]``):
    a class-like name (``CamelCase``, not a ``CONSTANT``) given only names of the same kind."""

    def class_like(node: cst.BaseExpression) -> bool:
        spelled = dotted_name(node)
        last = spelled.rsplit(".", 1)[-1] if spelled else ""
        return bool(last) and last[0].isupper() and not last.isupper()

    return class_like(expr.value) and all(
        isinstance(element.slice, cst.Index) and class_like(element.slice.value) for element in expr.slice
    )
