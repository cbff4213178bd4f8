"""What a name may hold across the whole project: the summaries' values (``lint/summary.py``)
followed through modules, attributes, return values, items and parameters.

Each file tells what it can see: ``pkg.clients._session`` may hold a ``requests.Session`` made
at line 12 (with a retrying adapter mounted), ``pkg.api.Client.gateway`` what the parameter
``gateway`` of ``Client.__init__`` is given, ``pkg.make`` returns what ``pkg.other.build``
returns. Here those are joined: a parameter holds what every call of its function passes (a
``Gateway(session)`` in another module, a ``super().__init__(url)``), a name what every
assignment gives it, a call what every ``return`` of its function gives.

Nothing is guessed: a name whose values no file shows holds nothing, and rules report only on
values that are known. Recursion and cycles end (a value being computed is empty meanwhile).
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Set, Tuple

from resilint.lint.canonical import called_instance_type, canonical_name, returned_type
from resilint.lint.summary import CALLED, LATE, STAR_ARGS, Call, FunctionSummary, ModuleSummary, ObjectFacts, Ref

if TYPE_CHECKING:  # pragma: no cover
    from resilint.lint.project import ProjectGraph

_MAX_DEPTH = 40  # nested evaluations before a value is given up as unknown
_MAX_ROUNDS = 4  # evaluations of a cycle's values before what they hold is taken as complete
_UNSTABLE = object()  # read by a computation that must run again each round (``ValueFlow._reads``)
# What one name may hold, at most: beyond that the join is taken as unknown. Functions that hand
# their argument back on one path (``get_datetime(value)`` returning a datetime it is given),
# called on each other's results with methods chained, otherwise make every chain of those
# methods a value of their own, each round of a cycle multiplying them (frappe's date helpers).
_MAX_VALUES = 256
_MAX_OBJECT_PARTS = 16  # dotted parts of a library object's name reached through attributes
# The steps by which a Django manager hands back a queryset of its own model
# (``Order.objects.select_for_update().filter(...)``).
QUERYSET_STEPS = (
    "all", "filter", "exclude", "select_for_update", "select_related", "prefetch_related", "only", "defer", "using",
    "order_by", "annotate",
)
# What a Django manager gives back one row of a model as (``Network.objects.get(pk=pk)``,
# ``Order.objects.select_for_update().filter(...).first()``): an instance of the model.
_ONE_ROW = re.compile(
    rf"^(?:(?:{'|'.join(QUERYSET_STEPS)})\.)*"
    rf"(?:get|create|first|last|latest|earliest|get_by_natural_key|(?:{'|'.join(QUERYSET_STEPS)}|iterator)\.\[\])$"
)
# And what a Flask-SQLAlchemy model's ``query`` gives one row as (``User.query.get(id)``,
# ``User.query.filter_by(...).first()``, a row of ``User.query.all()`` a loop walks).
_ONE_QUERIED_ROW = re.compile(
    r"^(?:(?:filter|filter_by|order_by|options|join|outerjoin|limit|offset|distinct|with_for_update)\.)*"
    r"(?:get|first|one|one_or_none|get_or_404|first_or_404|one_or_404|(?:all|filter|filter_by|order_by|limit|offset|options)\.\[\])$"
)


# What binds a function's first arguments for a later call (``Caller`` of its partials).
PARTIAL = "functools.partial"

@dataclass(frozen=True)
class Held:
    """One thing a name may hold.

    ``kind``: "function" (a project function or method), "class" (a project class), "instance"
    (of the class ``name``: a library class or a project class), "object" (a library object by
    its canonical name: a function, a method, a module), "str", "bool", "partial" (of the
    callable ``name``, binding ``keywords``), "dict" (its entries in ``entries``)."""

    kind: str
    name: str
    function: Optional[FunctionSummary] = field(default=None, compare=False)
    module: Optional[ModuleSummary] = field(default=None, compare=False)  # where it was written
    key: str = ""  # the instance's facts in ``module.objects``
    keywords: Tuple[str, ...] = ()
    entries: Tuple[Tuple[str, Ref], ...] = field(default=(), compare=False)
    where: str = ""  # the file of an object with facts: two files' objects are two objects

    @property
    def facts(self) -> Optional[ObjectFacts]:
        return self.module.objects.get(self.key) if self.module is not None and self.key else None


@dataclass(frozen=True)
class Caller:
    """A call of a project function: by ``function``, through ``call``; ``offset`` is how many
    of the callee's first parameters the call fills without an argument (``self``)."""

    function: FunctionSummary
    call: Call
    offset: int


class ValueFlow:
    """The project's values, computed on demand and kept."""

    def __init__(self, graph: "ProjectGraph") -> None:
        self.graph = graph
        # Values are kept once final. A value computed while one it depends on was still being
        # computed (a cycle: a parameter fed by a call that the parameter's own value decides),
        # or from such a value, is provisional: once the outermost question is answered, every
        # provisional value is computed again from the others until none grows (values only
        # ever gain what they may hold), and then all of them are final. Asking again for a
        # value of a cycle would otherwise compute the whole cycle again for every question.
        self._final: Dict[object, Tuple[Held, ...]] = {}
        self._provisional: Dict[object, Tuple[Held, ...]] = {}
        self._recompute: Dict[object, Callable[[], Iterable[Held]]] = {}
        self._computing: Set[object] = set()
        # What each provisional value was computed from, so that computing it again can be
        # skipped while none of that moved: the provisional values it read (with the version of
        # each it saw; a version counts the times a value changed), and what the computation
        # returned. One that read a value still being computed, or was cut short, is computed
        # again in every round (``_UNSTABLE``). ``_reading``: the computations under way, the
        # innermost last, each with its key and what it has read so far.
        self._reads: Dict[object, Dict[object, int]] = {}
        self._returned: Dict[object, Tuple[Held, ...]] = {}
        self._versions: Dict[object, int] = {}
        self._reading: List[Tuple[object, Dict[object, int]]] = []
        self._cycles = 0
        # Counts every answer that is not final (provisional, cut short): what is derived from
        # values while it does not move is final too.
        self._unsettled = 0
        self._callers_final: Dict[int, List[Caller]] = {}
        # The project's ``functools.partial`` calls (their place in its order, the function that
        # makes each, the call): by the function their first argument may be, once that is
        # final, and those whose first argument is not final yet
        self._partials_final: Dict[int, List[Tuple[int, FunctionSummary, Call]]] = {}
        self._partials_pending: Optional[List[Tuple[int, FunctionSummary, Call]]] = None
        self._callees_final: Dict[Tuple[int, str], List[Tuple[FunctionSummary, int]]] = {}
        # By call name: the calls filed by the function each may call (with their place in the
        # project's order), and those whose callees are not final yet.
        self._filed: Dict[str, Tuple[Dict[int, List[Tuple[int, Caller]]], List[Tuple[int, Tuple[FunctionSummary, Call]]]]] = {}
        self._by_name: Optional[Dict[str, List[Tuple[FunctionSummary, Call]]]] = None
        self._inheritors: Optional[Dict[str, List[str]]] = None  # project class → its direct subclasses
        self._library_heirs: Dict[str, List[str]] = {}  # library class → the project classes right on it
        self._subclasses: Dict[str, List[str]] = {}
        self._lineages: Dict[str, List[str]] = {}
        # attribute name → (the function that adds it to every request, the factory it runs)
        self._request_attributes: Optional[Dict[str, List[Tuple[FunctionSummary, Ref]]]] = None

    def _memo(self, key: object, compute: Callable[[], Iterable[Held]]) -> Tuple[Held, ...]:
        known = self._final.get(key)
        if known is not None:
            return known
        known = self._provisional.get(key)
        if known is not None:
            self._cycles += 1
            self._read(key)
            return known
        if key in self._computing:
            self._cycles += 1
            if self._reading and self._reading[-1][0] != key:  # (its own: nothing, every time)
                self._reading[-1][1][_UNSTABLE] = -1
            return ()
        if len(self._computing) > _MAX_DEPTH:
            # cut short: what is computed from it is provisional, and computed again once the
            # outermost question is answered (from there, with room to reach it)
            self._unsettled += 1
            self._cycles += 1
            if self._reading:
                self._reading[-1][1][_UNSTABLE] = -1
            return ()
        found = self._compute(key, compute)
        if self._computing or not self._recompute:
            if key in self._provisional:
                self._read(key)
            return found
        self._settle()
        return self._final.get(key, found)

    def _read(self, key: object) -> None:
        if self._reading:
            self._reading[-1][1][key] = self._versions.get(key, 0)

    def _compute(self, key: object, compute: Callable[[], Iterable[Held]]) -> Tuple[Held, ...]:
        cycles = self._cycles
        returned, reads = self._returning(key, compute)
        found = _bounded(_distinct(returned))
        if self._cycles == cycles:
            self._final[key] = found
        else:
            self._reads[key], self._returned[key] = reads, returned
            self._provisional[key] = found
            self._recompute[key] = compute
            self._unsettled += 1
        return found

    def _returning(self, key: object, compute: Callable[[], Iterable[Held]]) -> Tuple[Tuple[Held, ...], Dict[object, int]]:
        """What ``compute()`` returns, and the provisional values it read (``_reads``)."""
        reads: Dict[object, int] = {}
        self._computing.add(key)
        self._reading.append((key, reads))
        try:
            return tuple(compute()), reads
        finally:
            self._reading.pop()
            self._computing.discard(key)

    def _settle(self) -> None:
        """Computes the provisional values again until none of them grows; then they are final.
        A value none of whose inputs changed since it was last computed would be computed the
        same: what it returned then is taken instead."""
        versions = self._versions
        for _ in range(_MAX_ROUNDS):
            pending = list(self._recompute.items())
            grown = False
            for key, compute in pending:
                before = self._provisional[key]
                reads = self._reads[key]
                if all(versions.get(read, 0) == version for read, version in reads.items()):
                    returned = self._returned[key]
                else:
                    returned, self._reads[key] = self._returning(key, compute)
                    self._returned[key] = returned
                found = _bounded(_distinct((*before, *returned)))
                if found != before:
                    versions[key] = versions.get(key, 0) + 1
                self._provisional[key] = found
                grown = grown or len(found) != len(before)
            if not grown and len(self._recompute) == len(pending):
                break
        self._final.update(self._provisional)
        self._provisional.clear()
        self._recompute.clear()
        self._reads.clear()
        self._returned.clear()
        versions.clear()

    def _settled(self) -> Tuple[int, int]:
        """What tells whether values read from now on were all final (``_memo``)."""
        return self._cycles, self._unsettled

    # --- names ------------------------------------------------------------------------------

    def of(self, name: str, near: str = "") -> Tuple[Held, ...]:
        """Everything ``name`` may hold, seen from the file ``near``."""
        return self._memo((name, self.graph.directory(near)), lambda: self._of(name, near))

    def _of(self, name: str, near: str) -> Iterable[Held]:
        own = self._own(name, near)
        if own is not None:
            return own
        graph = self.graph
        if graph.is_module(name):
            return (Held("module", name),)
        base, attribute = split_last(name)
        if base in FRAMEWORK_REQUESTS:
            return (*self.request_attribute(attribute), Held("object", canonical_name(name)))
        if not base or not graph.is_project_name(base):
            return (Held("object", canonical_name(name)),)  # a library's own object
        model, manager, query = name.partition(".objects.")
        if not manager:
            model, manager, query = name.partition(".query.")
        if manager and (_ONE_ROW if manager == ".objects." else _ONE_QUERIED_ROW).match(query):
            return [Held("instance", held.name, module=held.module) for held in self.of(model, near) if held.kind == "class"]
        if attribute == CALLED:
            return [held for owner in self.of(base, near) for held in self.callee(owner)]
        if attribute.startswith("("):
            return self.parameter(base, attribute[1:-1], near)
        found = [held for owner in self.of(base, near) for held in self.attribute(owner, attribute, near)]
        if a_request(base):
            found.extend(self.request_attribute(attribute))
        return found

    def _own(self, name: str, near: str) -> Optional[Iterable[Held]]:
        """What a module itself says ``name`` is (a function, a class, a name's values, a
        re-export), or None when no module does."""
        graph = self.graph
        function = graph.resolve(name, near)
        if function is not None:
            return (Held("function", function.name, function=function),)
        located = graph.locate(name, near)
        if located is None:
            return None
        module, rest = located
        qualified = f"{module.module}.{rest}"
        if qualified in module.classes:
            return (Held("class", qualified, module=module),)
        refs = module.values.get(qualified)
        if refs is not None:
            return [held for ref in refs for held in self.ref(ref, module)]
        rewritten = graph.through_imports(module, rest)
        if rewritten is not None and rewritten != name:
            return self.of(rewritten, module.path)
        return None

    def attribute(self, owner: Held, attribute: str, near: str) -> Iterable[Held]:
        """What ``attribute`` of ``owner`` holds (``[key]``/``[]`` for an item)."""
        kind = owner.kind
        if attribute.startswith("["):
            if kind != "dict" or owner.module is None:
                return ()
            key = attribute[1:-1]
            return [held for entry, ref in owner.entries if not key or entry == key for held in self.ref(ref, owner.module)]
        if kind == "function":
            # ``pkg.make.get``: the summaries name what a call returns by the function called
            function = owner.function
            assert function is not None
            return self._memo(
                ("attribute", id(function), attribute),
                lambda: [held for result in self.results(function) for held in self.attribute(result, attribute, near)],
            )
        if kind == "module":
            return self.of(f"{owner.name}.{attribute}", near)
        if kind in ("class", "instance") and self.graph.class_module(owner.name) is not None:
            return self.class_attribute(owner.name, attribute)
        if kind in ("instance", "object", "class") and owner.name.count(".") < _MAX_OBJECT_PARTS:
            return (Held("object", canonical_name(f"{owner.name}.{attribute}")),)
        return ()

    def request_attribute(self, attribute: str) -> Tuple[Held, ...]:
        """What a web framework's request carries as ``attribute`` because the project added it
        (Pyramid's ``config.add_request_method(factory, name="http", reify=True)``): what calling
        the factory with the request returns. A plain request method (no ``reify``/``property``)
        is called by the code, not read, and gives nothing here."""
        if self._request_attributes is None:
            self._request_attributes = {}
            for caller, call in self._named().get("add_request_method", ()):
                added = _added_request_attribute(call)
                if added is not None:
                    self._request_attributes.setdefault(added[0], []).append((caller, added[1]))
        return self._memo(("request", attribute), lambda: [
            held for caller, factory in self._request_attributes.get(attribute, ())  # type: ignore[union-attr]
            for callee in self.ref(factory, self.graph.module_of(caller)) for held in self.called(callee)
        ])

    def callee(self, named: Held) -> List[Held]:
        """What a call named by ``named`` and ``()`` runs (``summary.CALLED``): a function's
        is what it returns (``pkg.make.()``), a project class's its instances' ``__call__``."""
        if named.kind == "function" and named.function is not None:
            return list(self.results(named.function))
        if named.kind in ("class", "instance") and self.graph.class_module(named.name) is not None:
            return list(self.class_attribute(named.name, "__call__"))
        return []

    def called(self, value: Held) -> List[Held]:
        """What calling a value returns: what a project function returns, an instance of a
        class, what a project object's ``__call__`` returns."""
        if value.kind == "class":
            return [Held("instance", value.name, module=value.module)]
        if value.kind == "instance":
            return [
                held for method in self.callee(value) if method.kind == "function" and method.function is not None
                for held in self.results(method.function)
            ]
        return self.callee(value)

    def class_attribute(self, cls: str, attribute: str) -> Tuple[Held, ...]:
        """A project class's attribute: its own (methods, class attributes, what ``self.x = …``
        stores), else a base class's, in any module; else a library base's, by its name. A
        library base comes first only for what no project base defines: a mixin's method after
        it (``class User(db.Model, Email)``, ``Email.sendmail``) is what the code calls; a
        special method (``__init__``) is looked up in Python's order, library bases included."""
        found = (*self._project_attribute(cls, attribute, 0, special=attribute.startswith("__")), *self._late(cls, attribute))
        if found:
            return _distinct(found)
        for holder in self.lineage(cls):
            module = self.graph.class_module(holder)
            for base in self.bases(holder, module) if module is not None else ():
                if base.kind != "class" and base.name != "builtins.object":
                    return (Held("object", canonical_name(f"{base.name}.{attribute}")),)
        return ()

    def _late(self, cls: str, attribute: str) -> List[Held]:
        """What the methods an attribute is set from on the object itself return as ``cls``
        resolves them (``self.connection = self.get_connection()`` in a base's ``__init__``,
        on an object of the subclass that overrides ``get_connection``)."""
        for holder in self.lineage(cls):
            module = self.graph.class_module(holder)
            refs = module.values.get(f"{holder}.{attribute}") if module is not None else None
            if refs is None:
                continue
            return [
                held for ref in refs if ref[0] == LATE and holder != cls
                for method in self.class_attribute(cls, ref[1]) if method.kind == "function" and method.function is not None
                for held in self.results(method.function)
            ]
        return []

    def _project_attribute(self, cls: str, attribute: str, depth: int, special: bool) -> Tuple[Held, ...]:
        """The attribute as the first project class of ``cls``'s hierarchy that has it gives it
        (``special``: or a library base before it, by its name)."""
        module = self.graph.class_module(cls)
        if module is None:
            return ()
        own = self._own(f"{cls}.{attribute}", module.path)
        if own is not None:
            return _distinct(own)
        if depth > 10:
            return ()
        for base in self.bases(cls, module):
            if base.kind == "class":
                found = self._project_attribute(base.name, attribute, depth + 1, special)
            elif special and base.name != "builtins.object":
                found = (Held("object", canonical_name(f"{base.name}.{attribute}")),)
            else:
                continue
            if found:
                return found
        return ()

    def attribute_source(self, lineage: List[str], attribute: str) -> Optional[Tuple[str, ModuleSummary, Ref]]:
        """Where a project object's attribute is set, Python's way: the first class of
        ``lineage`` (``lineage(cls)``) whose code sets it, with its module and the one value it
        is set to (``self.get_weather = get_weather``: ``("ref",
        "pkg.FileService.__init__.(get_weather)")``; a parameter annotated with a project class,
        ``auth: Optional[AuthBase] = None``, is kept with that class beside it, which only names
        its type); None when that class sets it to several."""
        for holder in lineage:
            module = self.graph.class_module(holder)
            refs = module.values.get(f"{holder}.{attribute}") if module is not None else None
            if refs is not None and len(refs) == 2 and refs[0][0] == "new" and not refs[0][2] and refs[1][0] == "ref" and (
                refs[1][1].startswith(f"{holder}.__init__.(")
            ):
                refs = refs[1:]
            if refs is not None:
                return (holder, module, refs[0]) if len(refs) == 1 and module is not None else None
        return None

    def lineage(self, cls: str) -> List[str]:
        """``cls`` and the project classes it derives from, in the order Python looks an
        attribute up for a simple hierarchy (depth first, left base first)."""
        known = self._lineages.get(cls)
        if known is not None:
            return known
        found: List[str] = []
        pending = [cls]
        while pending and len(found) < 20:
            current = pending.pop()
            module = self.graph.class_module(current)
            if current in found or module is None:
                continue
            found.append(current)
            pending.extend(reversed([h.name for h in self.bases(current, module) if h.kind == "class"]))
        self._lineages[cls] = found
        return found

    def super_chain(self, init: FunctionSummary, target: str, lineage: List[str]) -> Optional[List[Tuple[Caller, FunctionSummary]]]:
        """The ``super().__init__(...)`` calls (each made by a constructor, with the one it runs)
        from the constructor ``init`` down to the constructor ``target`` of a class of
        ``lineage``; None when a step cannot be read."""
        chain: List[Tuple[Caller, FunctionSummary]] = []
        current = init
        while current.name != target:
            if len(chain) >= len(lineage):
                return None
            step = next((
                (call, callee, offset) for call in current.calls for callee, offset in self.callees(call, current.place.path)
                if callee is not current and callee.name.endswith(".__init__") and split_last(callee.name)[0] in lineage
            ), None)
            if step is None:
                return None
            chain.append((Caller(current, step[0], step[2]), step[1]))
            current = step[1]
        return chain

    def attribute_from(self, cls: str, name: str) -> Optional[str]:
        """The attribute of a project class set from ``name`` alone (``self.update_weather =
        update_weather``: ``update_weather`` for ``pkg.Refresh.__init__.(update_weather)``)."""
        module = self.graph.class_module(cls)
        if module is None:
            return None
        prefix = cls + "."
        found = [
            key[len(prefix):] for key, refs in module.values.items()
            if key.startswith(prefix) and len(refs) == 1 and refs[0][0] == "ref" and refs[0][1] == name
            and "." not in key[len(prefix):]
        ]
        return found[0] if len(found) == 1 else None

    def bases(self, cls: str, module: ModuleSummary) -> List[Held]:
        return [held for base in module.classes.get(cls, ()) for held in self.of(base, module.path)
                if held.kind in ("class", "object")]

    def library_base(self, cls: str, depth: int = 0) -> Optional[str]:
        """The library class a project class extends, at any depth (``class Api(Session)``)."""
        module = self.graph.class_module(cls)
        if module is None or depth > 10:
            return None
        for base in self.bases(cls, module):
            if base.kind == "class":
                found = self.library_base(base.name, depth + 1)
                if found is not None:
                    return found
            elif base.name != "builtins.object":
                return base.name
        return None

    # --- values written in a summary --------------------------------------------------------

    def ref(self, ref: Ref, module: ModuleSummary) -> Iterable[Held]:
        kind = ref[0]
        if kind == "ref":
            return self.of(ref[1], module.path)
        if kind == "new":
            return self.made(ref[1], module, ref[2])
        if kind == "str":
            return (Held("str", ref[1]),)
        if kind == "bool":
            return (Held("bool", str(ref[1])),)
        if kind == "int":
            return (Held("int", str(ref[1])),)
        if kind == "float":
            return (Held("float", str(ref[1])),)
        if kind == "partial":
            return (Held("partial", ref[1], module=module, keywords=tuple(ref[2])),)
        if kind == "dict":
            return (Held("dict", "", module=module, entries=tuple(ref[1])),)
        if kind == "or":
            return self.fallback(ref[1], ref[2], module)
        return ()

    def fallback(self, parameter: str, fallback: Iterable[Ref], module: ModuleSummary) -> List[Held]:
        """``session or make_session()``: what the callers pass as ``session``, and what
        ``make_session()`` makes unless every caller passes an object (not ``None``, not
        nothing)."""
        function_name, last = split_last(parameter)
        function = self.graph.resolve(function_name, module.path)
        name = last[1:-1]
        passed: List[Held] = []
        always = function is not None
        if function is not None:
            callers = self.callers(function) + self.decorator_calls(function)
            always = bool(callers)
            for caller in callers:
                held = self.argument(caller, function, name)
                if not held or any(h.kind not in ("instance", "function", "class", "partial") for h in held):
                    always = False
                passed.extend(held)
        if always:
            return passed
        return passed + [held for ref in fallback for held in self.ref(ref, module)]

    def made(self, name: str, module: ModuleSummary, key: str = "") -> Iterable[Held]:
        """What calling ``name`` makes: an instance of a class, what a function returns."""
        found: List[Held] = []
        where = module.path if key else ""
        for callee in self.of(name, module.path):
            if callee.kind == "class":
                found.append(Held("instance", callee.name, module=module, key=key, where=where))
            elif callee.kind == "function":
                found.extend(self.results(callee.function))  # type: ignore[arg-type]
            elif callee.kind == "object":  # a library class, or a factory (``build_opener``: an ``OpenerDirector``)
                found.append(Held("instance", returned_type(callee.name), module=module, key=key, where=where))
            elif callee.kind == "instance":
                made = called_instance_type(callee.name)  # ``SessionLocal()`` of a ``sessionmaker``
                if made is not None:
                    found.append(Held("instance", made, module=module, key=key, where=where))
        return found

    def results(self, function: FunctionSummary) -> Tuple[Held, ...]:
        """What a call of ``function`` may return: what its ``return``s hold, else an instance
        of the class its return annotation names."""
        module = self.graph.module_of(function)
        return self._memo(("()", id(function)), lambda: self._results(function, module))

    def _results(self, function: FunctionSummary, module: ModuleSummary) -> List[Held]:
        found = [held for ref in function.returns for held in self.ref(ref, module)]
        if function.annotation is not None and not any(self._known(held) for held in found):
            found.extend(held for held in self.made(function.annotation, module) if held.kind == "instance")
        return found

    def _known(self, held: Held) -> bool:
        """A value that says what the object is: not the result of a call only the project
        could tell, which it could not (``NETWORKS.get(name)`` of an empty mapping)."""
        if held.kind != "instance":
            return True
        return self.graph.class_module(held.name) is not None or not self.graph.is_project_name(held.name)

    # --- parameters -------------------------------------------------------------------------

    def parameter(self, function_name: str, parameter: str, near: str) -> Iterable[Held]:
        """What the parameter of a project function is given by every call of it in the project,
        or by its default where a call leaves it out; by its default alone when the project
        never calls it (a library's entry point: what a user who passes none gets,
        ``TrelloClient(api_key)`` with ``http_service=requests``)."""
        function = self.graph.resolve(function_name, near)
        if function is None:
            return ()
        found: List[Held] = []
        callers = self.callers(function) + self.decorator_calls(function)
        for caller in callers:
            found.extend(self.argument(caller, function, parameter))
        default = function.defaults.get(parameter) if not callers else None
        if default is not None and default[0] == "ref":
            found.extend(self.ref(default, self.graph.module_of(function)))
        return found

    def decorator_calls(self, function: FunctionSummary) -> List[Caller]:
        """The calls of ``function`` that the wrappers of its project decorators make
        (``@assumed_client("acm")`` whose wrapper sets ``kwargs["client"]`` and calls
        ``function(*args, **kwargs)``): they pass it what the wrapper adds."""
        found: List[Caller] = []
        near = function.place.path
        for name, _ in function.decorators:
            factory = self.graph.resolve(name, near)
            if factory is None:
                continue
            prefix = factory.name + ".<locals>."
            module = self.graph.module_of(factory)
            for inner in module.functions.values():
                if inner.name.startswith(prefix):
                    found.extend(Caller(inner, call, 0) for call in inner.calls if calls_a_parameter(call.target, prefix, factory.name))
        return found

    def argument(self, caller: Caller, function: FunctionSummary, parameter: str) -> List[Held]:
        """What one call passes as ``parameter`` of ``function`` (its default when it passes
        nothing there; nothing when it may pass it through ``*args``/``**kwargs``)."""
        module = self.graph.module_of(caller.function)
        refs = passed_at(caller.call, function, parameter, caller.offset)
        if refs:
            return [held for ref in refs for held in self.ref(ref, module)]
        if caller.call.target == PARTIAL:
            return []  # not bound there: the partial's own callers pass it
        if parameter in function.parameters:
            handed_on = self._through_star_args(caller, function.parameters.index(parameter) - caller.offset, function)
            if handed_on:
                return handed_on
        unpacked = [ref for slot, ref in caller.call.passed if slot == "**" and not _own_kwargs(ref)]
        if unpacked:
            # ``Base.__init__(**config)``: the entry of that name of the mappings it may be
            mappings = [held for ref in unpacked for held in self.ref(ref, module)]
            return [
                held for mapping in mappings if mapping.kind == "dict" and mapping.module is not None
                for key, ref in mapping.entries if key == parameter for held in self.ref(ref, mapping.module)
            ]
        forwarded = [ref[1] for slot, ref in caller.call.passed if slot == "**" and ref[0] == "ref"]
        if forwarded:
            # ``f(**kwargs)``: what the caller's own callers pass as that keyword
            return [held for name in forwarded for held in self.of(f"{split_last(name)[0]}.({parameter})", caller.function.place.path)]
        if not omits(caller.call, function, parameter, caller.offset):
            return []  # passed, but not a value the file could read
        default = function.defaults.get(parameter)
        return list(self.ref(default, self.graph.module_of(function))) if default is not None else []

    def _partials_of(self, function: FunctionSummary) -> List[Caller]:
        """The ``functools.partial(function, ...)`` of the project: what they bind is what the
        function gets there, whoever calls the partial later (``partial(_download_key,
        client=client)`` handed to an executor). Their own first argument is the function, so
        its parameters sit one position further (a method bound to its object, as many)."""
        if self._partials_pending is None:
            self._partials_pending = [
                (order, caller, call) for order, (caller, call) in enumerate(self._named().get("partial", ()))
                if call.target == PARTIAL
            ]
        # Every function's callers ask this, and a project may have thousands of functions: the
        # partials whose first argument is final are filed by the function it may be.
        found = list(self._partials_final.get(id(function), ()))
        pending = []
        for order, caller, call in self._partials_pending:
            settled = self._settled()
            module = self.graph.module_of(caller)
            targets = {
                id(held.function) for slot, ref in call.passed if slot == 0 for held in self.ref(ref, module)
                if held.kind == "function" and held.function is not None
            }
            if self._settled() == settled:
                for target in targets:
                    self._partials_final.setdefault(target, []).append((order, caller, call))
            else:
                pending.append((order, caller, call))
            if id(function) in targets:
                found.append((order, caller, call))
        self._partials_pending = pending
        by_order = {order: (caller, call) for order, caller, call in found}
        return [Caller(caller, call, min(function.bound, 1) - 1) for _, (caller, call) in sorted(by_order.items())]

    def _instances_called(self, function: FunctionSummary) -> List[Caller]:
        """The calls of an object whose ``__call__`` is ``function``, as the files name them:
        an instance of its class (or of a subclass) called (``RETRY(f)``, ``self._retry(f)``:
        ``pkg.Retry.()``), or what one of its methods returns, called (``self._retry.copy()(f)``:
        ``pkg.Retry.copy.()``). Only those are asked of the values: every call of a called
        result in the project would be far more."""
        cls = function.name.rsplit(".", 1)[0]
        prefixes = tuple(f"{name}." for name in (cls, *self.subclasses(cls)))
        found: List[Caller] = []
        for caller, call in self._named().get(CALLED, ()):
            if call.target.startswith(prefixes):
                found.extend(Caller(caller, call, offset) for callee, offset in self.callees(call, caller.place.path) if callee is function)
        return found

    def _through_star_args(self, caller: Caller, index: int, callee: Optional[FunctionSummary] = None, depth: int = 0) -> List[Held]:
        """What the call passes as its positional argument ``index`` when that falls in the
        ``*args`` its function hands on (``self._retry(*args)`` in ``def retry(self, *args)``):
        what each caller of that function passes there, through any depth of such hand-overs.
        When the call is of a parameter (``func(*args)`` in ``def with_retry(func, *args)``),
        only the callers that hand it ``callee`` count: the others pass another function's
        arguments."""
        refs = [ref for slot, ref in caller.call.passed if slot == index]
        if refs:
            module = self.graph.module_of(caller.function)
            return [held for ref in refs for held in self.ref(ref, module)]
        if depth > 4:
            return []
        own = ("ref", f"{caller.function.name}.(*)")
        for slot, ref in caller.call.passed:
            if isinstance(slot, str) and slot[:1] == STAR_ARGS and slot[1:].isdigit() and ref == own and index >= int(slot[1:]):
                position = len(caller.function.parameters) + index - int(slot[1:])
                outers = self.callers(caller.function)
                base, handed = split_last(caller.call.target)
                if callee is not None and base == caller.function.name and handed.startswith("("):
                    outers = [
                        outer for outer in outers
                        if any(h.function is callee for h in self.argument(outer, caller.function, handed[1:-1]))
                    ]
                return [held for outer in outers for held in self._through_star_args(outer, position - outer.offset, None, depth + 1)]
        return []

    def callers(self, function: FunctionSummary) -> List[Caller]:
        """Every call in the project that may call ``function``: among the calls whose name
        ends as the function's does (or as its class's, for ``__init__``), those whose callee
        the values show is the function."""
        key = id(function)
        known = self._callers_final.get(key)
        if known is not None:
            return known
        cycles = self._cycles
        parts = function.name.rsplit(".", 2)
        names = {parts[-1]}
        if len(parts) > 2 and parts[-1] == "__init__":
            names |= {cls.rsplit(".", 1)[-1] for cls in self.constructed_by(function.name.rsplit(".", 1)[0])}
        found: List[Caller] = []
        for name in names:
            found.extend(self._callers_named(name, function))
        if len(parts) > 2 and parts[-1] == "__call__":
            found.extend(self._instances_called(function))
        found.extend(self._partials_of(function))
        if self._cycles == cycles:
            self._callers_final[key] = found
        return found

    def subclasses(self, cls: str) -> List[str]:
        """The project classes derived from ``cls`` at any depth, nearest first."""
        known = self._subclasses.get(cls)
        if known is not None:
            return known
        self._inheritance()
        assert self._inheritors is not None
        found: List[str] = []
        seen = {cls}
        todo = deque([cls])
        while todo:
            for sub in self._inheritors.get(todo.popleft(), ()):
                if sub not in seen:
                    seen.add(sub)
                    found.append(sub)
                    todo.append(sub)
        self._subclasses[cls] = found
        return found

    def _inheritance(self) -> None:
        if self._inheritors is None:
            self._inheritors = {}
            for summary in self.graph.summaries:
                for name in summary.classes:
                    for base in self.bases(name, summary):
                        if base.kind == "class":
                            self._inheritors.setdefault(base.name, []).append(name)
                        else:
                            self._library_heirs.setdefault(base.name, []).append(name)

    def library_heirs(self, libraries: Iterable[str]) -> Set[str]:
        """The project classes that extend one of the library classes ``libraries`` at any
        depth, through any of their bases."""
        self._inheritance()
        direct = {name for library in libraries for name in self._library_heirs.get(library, ())}
        return direct.union(*(self.subclasses(name) for name in direct))

    def constructed_by(self, cls: str) -> Set[str]:
        """The project classes whose ``__init__`` is that of ``cls``: itself, and its subclasses
        at any depth that do not define their own (``Customers(self)`` runs ``Resource.__init__``)."""
        self._inheritance()
        assert self._inheritors is not None
        found = {cls}
        todo = [cls]
        while todo:
            for sub in self._inheritors.get(todo.pop(), ()):
                module = self.graph.class_module(sub)
                if sub not in found and module is not None and f"{sub}.__init__" not in module.functions:
                    found.add(sub)
                    todo.append(sub)
        return found

    def _callers_named(self, name: str, function: FunctionSummary) -> List[Caller]:
        """The calls named ``name`` that may call ``function``, in the project's order. A call
        whose callees are final is filed under each of them once; only the others are asked
        again for each function of that name (a project has hundreds of functions named
        ``get`` and thousands of calls of a ``get``)."""
        filed = self._filed.get(name)
        if filed is None:
            filed = self._filed[name] = ({}, list(enumerate(self._named().get(name, ()))))
        by_callee, pending = filed
        found = list(by_callee.get(id(function), ()))
        still = []
        for position, (caller, call) in pending:
            callees = self.callees(call, caller.place.path)
            final = (id(call), caller.place.path) in self._callees_final
            for callee, offset in callees:
                if final:
                    by_callee.setdefault(id(callee), []).append((position, Caller(caller, call, offset)))
                if callee is function:
                    found.append((position, Caller(caller, call, offset)))
            if not final:
                still.append((position, (caller, call)))
        filed[1][:] = still
        # A call filed earlier and one found now are merged back into the project's order.
        return [each for _, each in sorted(found, key=lambda item: item[0])]

    def named(self, name: str) -> List[Tuple[FunctionSummary, Call]]:
        """Every call of the project whose target's name ends in ``name``, with its function."""
        return self._named().get(name, [])

    def _named(self) -> Dict[str, List[Tuple[FunctionSummary, Call]]]:
        """Every call of the project by the last part of its target's name."""
        if self._by_name is None:
            self._by_name = {}
            for caller in self.graph.functions:
                for call in caller.calls:
                    self._by_name.setdefault(split_last(call.target)[1], []).append((caller, call))
        return self._by_name

    def offset(self, call: Call, function: FunctionSummary, near: str) -> Optional[int]:
        """How many of ``function``'s first parameters ``call`` (made in ``near``) fills by
        itself, when it may run ``function``; None when it does not."""
        return next((o for f, o in self.callees(call, near) if f is function), None)

    def callees(self, call: Call, near: str) -> List[Tuple[FunctionSummary, int]]:
        """The project functions a call may run, each with how many of its first parameters
        the call fills by itself (``self`` of a method called on an object). Kept once it was
        found from final values only: ``callers`` asks it of every call named like each
        function (every ``get`` of the project for every function named ``get``)."""
        key = (id(call), near)
        known = self._callees_final.get(key)
        if known is not None:
            return known
        settled = self._settled()
        found = self._callees(call, near)
        if self._settled() == settled:
            self._callees_final[key] = found
        return found

    def _callees(self, call: Call, near: str) -> List[Tuple[FunctionSummary, int]]:
        found: List[Tuple[FunctionSummary, int]] = []
        held = self.of(call.target, near)
        for callee in held:
            if callee.kind == "function":
                function = callee.function
                assert function is not None
                found.append((function, self._offset(call, function, near)))
            elif callee.kind == "class":
                for init in self.class_attribute(callee.name, "__init__"):
                    if init.kind == "function" and init.function is not None:
                        found.append((init.function, 1))
            elif callee.kind == "instance" and split_last(call.target)[1] == CALLED:
                # ``self._retry.copy()(f)``: what the call returned is an object, called
                for method in self.class_attribute(callee.name, "__call__"):
                    if method.kind == "function" and method.function is not None:
                        found.append((method.function, 1))
        return found or self._session_dispatch(call, near)

    def _session_dispatch(self, call: Call, near: str) -> List[Tuple[FunctionSummary, int]]:
        """``http.post(url, data=...)`` on a ``requests.Session`` subclass of the project that
        overrides ``request``: requests' verb method calls it with the method first
        (``request("POST", url, data=...)``), so the call runs the override, given its own
        arguments after ``self`` and the method."""
        base, verb = split_last(call.target)
        if verb not in _SESSION_VERBS or not base:
            return []
        return [
            (method.function, 2)
            for owner in self.of(base, near)
            if owner.kind == "instance" and self.library_base(owner.name) in _SESSIONS
            for method in self._project_attribute(owner.name, "request", 0, special=False)
            if method.kind == "function" and method.function is not None
        ]

    def _offset(self, call: Call, function: FunctionSummary, near: str) -> int:
        if function.bound == 0:
            return 0
        base, attribute = split_last(call.target)
        if function.bound == 2 or call.bound or attribute == CALLED:
            return 1  # an instance called runs its ``__call__`` with itself first
        owners = self.of(base, near) if base else ()
        return 0 if owners and all(h.kind == "class" for h in owners) else 1


def made_at(owner: FunctionSummary, call: Call) -> Optional[Call]:
    """The call of ``owner`` that made the object ``call`` is sent to, when its file shows it
    (``Call.receiver``: ``ErpClient(session=s).stock()``, ``client = ErpClient(); client.stock()``)."""
    return call_at(owner, call.receiver, besides=call) if call.receiver else None


def call_at(owner: FunctionSummary, position: str, besides: Optional[Call] = None) -> Optional[Call]:
    """The call of ``owner`` at ``position`` (``"12:8"``, as the summaries write a place of the
    same file), other than ``besides``."""
    line, column = (int(part) for part in position.split(":"))
    return next((c for c in owner.calls if c.place.line == line and c.place.column == column and c is not besides), None)


_SESSION_VERBS = frozenset({"get", "options", "head", "post", "put", "patch", "delete"})
_SESSIONS = frozenset({"requests.Session", "requests.sessions.Session"})


def _own_kwargs(ref: Ref) -> bool:
    """The ``**`` ref is the calling function's own ``**kwargs`` (``"pkg.f.(**)"``)."""
    return ref[0] == "ref" and ref[1].endswith(".(**)")


def passed_at(call: Call, function: FunctionSummary, parameter: str, offset: int) -> List[Ref]:
    """What ``call`` passes as ``parameter`` of ``function``, by keyword or by position, when
    it fills the first ``offset`` parameters itself (``self``)."""
    refs = [ref for slot, ref in call.passed if slot == parameter]
    if parameter in function.parameters:
        position = function.parameters.index(parameter) - offset
        refs.extend(ref for slot, ref in call.passed if slot == position)
    return refs


def own_parameter(function: str, ref: Ref) -> Optional[str]:
    """The parameter of the function named ``function`` that a passed value is (``("ref",
    "pkg.f.(key)")``)."""
    prefix = f"{function}.("
    if ref[0] == "ref" and ref[1].startswith(prefix) and ref[1].endswith(")"):
        return ref[1][len(prefix):-1]
    return None


def omits(call: Call, function: FunctionSummary, parameter: str, offset: int) -> bool:
    """Whether ``call`` passes nothing as ``parameter`` of ``function``, which then holds its
    default: no keyword, no positional argument there, no ``*args``/``**kwargs`` that may fill it."""
    if any(slot == parameter or slot == "**" for slot, _ in call.passed):
        return False
    args = call.arguments
    if args is None:
        return False
    if args.double_star or args.star or parameter in args.keywords:
        return False
    if parameter in function.parameters:
        position = function.parameters.index(parameter) - offset
        if 0 <= position < args.positional:
            return False
    return True


def calls_a_parameter(target: str, prefix: str, factory: str) -> bool:
    """The call target is a parameter of the decorator ``factory`` or of a function inside it
    (``prefix``): the decorated function, called by a wrapper."""
    owner, last = split_last(target)
    return last.startswith("(") and (owner == factory or owner.startswith(prefix))


def split_last(name: str) -> Tuple[str, str]:
    """``pkg.mod.f.(session)`` → (``pkg.mod.f``, ``(session)``): the last segment of a name,
    where a parameter or an item is one segment whatever it holds."""
    if not name.endswith((")", "]")):
        base, _, last = name.rpartition(".")
        return base, last
    depth = 0
    for index in range(len(name) - 1, -1, -1):
        char = name[index]
        if char in ")]":
            depth += 1
        elif char in "([":
            depth -= 1
        elif char == "." and depth == 0:
            return name[:index], name[index + 1:]
    return "", name


# The request classes of web frameworks whose requests a project extends with attributes of its
# own (a parameter annotated so is named by the class).
FRAMEWORK_REQUESTS = frozenset({"pyramid.request.Request"})


def a_request(name: str) -> bool:
    """A parameter named ``request``, or an object's ``request`` attribute: a web framework's
    request, where the framework calls the code (a view, a service factory) and no call of the
    project shows what it passes. Or one annotated with a framework's request class."""
    return name in FRAMEWORK_REQUESTS or split_last(name)[1] in ("(request)", "request")


def _added_request_attribute(call: Call) -> Optional[Tuple[str, Ref]]:
    """``config.add_request_method(factory, name="http", reify=True)``: the attribute it adds to
    every request and the factory that computes it, when it is an attribute (``reify`` or
    ``property``) and its name is written out."""
    passed = dict(call.passed)
    factory = passed.get(0)
    name = passed.get("name", passed.get(1))
    if factory is None or name is None or name[0] != "str":
        return None
    if not any(passed.get(flag) == ("bool", True) for flag in ("reify", "property")):
        return None
    return name[1], factory


def _bounded(values: Tuple[Held, ...]) -> Tuple[Held, ...]:
    """``values``, or nothing known when there are more than anyone follows (``_MAX_VALUES``)."""
    return values if len(values) <= _MAX_VALUES else ()


def _distinct(values: Iterable[Held]) -> Tuple[Held, ...]:
    return tuple(dict.fromkeys(values))
