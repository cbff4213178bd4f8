"""The project pass: the call graph of every summarised file, and the facts that cross functions
and modules. Runs in the main process on plain data (``lint/summary.py``); no file is parsed here.

Callees are found by qualified name, through re-exports (``from .http import fetch`` in a
package ``__init__``) and by method name on a class. Walks are breadth-first with a visited set,
so recursion and import cycles end, and each layer is reached along its shortest call path.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, replace
from typing import (
    TYPE_CHECKING,
    Callable,
    Deque,
    Dict,
    Iterable,
    Iterator,
    List,
    Optional,
    Protocol,
    Sequence,
    Set,
    Tuple,
    TypeVar,
)

from resilint.lint.canonical import canonical_name
from resilint.lint.finding import Finding, Related
from resilint.lint.source import SourceError, decode, line_text, python_lines, read_bytes
from resilint.lint.summary import MODULE_CODE, Call, FunctionSummary, Layer, ModuleSummary, Place
from resilint.lint.value_flow import Held, ValueFlow, split_last

if TYPE_CHECKING:  # pragma: no cover
    from resilint.lint.config import Settings

_MAX_ALIAS_HOPS = 10
T = TypeVar("T")


class ProjectRule(Protocol):
    """What the project pass needs of a rule (``lint/rule.py``'s ``Rule``, which this module does
    not import: the rule module refers to ``ProjectContext``)."""

    code: str
    name: str
    severity: str

    def check_project(self, ctx: "ProjectContext") -> None: ...


@dataclass(frozen=True)
class LayerRef:
    """One retry layer of one function."""

    function: FunctionSummary
    index: int

    @property
    def layer(self) -> Layer:
        return self.function.layers[self.index]

    @property
    def key(self) -> Tuple[str, int]:
        return self.function.name, self.index


@dataclass(frozen=True)
class Reached:
    """A layer reached from a call, and the calls that lead there (the first is the call made)."""

    layer: LayerRef
    path: Tuple[Tuple[FunctionSummary, Call], ...]


class ProjectGraph:
    """Every summarised function, and their names. Two modules may share a name (two projects
    checked together, or scripts beside each other that import ``helpers``): a name is then
    looked up from the file that uses it, and the module nearest to that file wins."""

    def __init__(self, summaries: Iterable[ModuleSummary]) -> None:
        self.summaries: List[ModuleSummary] = list(summaries)
        self.functions: List[FunctionSummary] = []
        self._modules: Dict[str, List[ModuleSummary]] = {}  # primary and other names
        self._by_name: Dict[str, List[FunctionSummary]] = {}
        self._module_of: Dict[int, ModuleSummary] = {}
        for summary in self.summaries:
            for name in (summary.module, *summary.aliases):
                self._modules.setdefault(name, []).append(summary)
            for name, function in summary.functions.items():
                self.functions.append(function)
                self._by_name.setdefault(name, []).append(function)
                self._module_of[id(function)] = summary
        self._resolved: Dict[Tuple[str, str], Optional[FunctionSummary]] = {}
        self._classes: Dict[str, ModuleSummary] = {
            name: summary for summary in self.summaries for name in summary.classes
        }
        self._tops = {name.split(".", 1)[0] for name in self._modules}
        self.values = ValueFlow(self)
        # Layers a function gets from a decorator defined in another module: what it does
        # directly is retried too, though its own file could not tell.
        self.decorated: Set[Tuple[str, int]] = set()
        self._apply_imported_decorators()
        self._apply_imported_policies()

    def module_of(self, function: FunctionSummary) -> ModuleSummary:
        return self._module_of[id(function)]

    # --- names -----------------------------------------------------------------------------

    def resolve(self, target: str, near: str = "") -> Optional[FunctionSummary]:
        """The project function a call target names, seen from the file ``near`` (re-exports
        and other names of modules followed), else None."""
        key = (target, os.path.dirname(near))
        if key not in self._resolved:
            self._resolved[key] = self._resolve(target, near)
        return self._resolved[key]

    def _resolve(self, target: str, near: str) -> Optional[FunctionSummary]:
        seen: Set[str] = set()
        for _ in range(_MAX_ALIAS_HOPS):
            candidates = self._by_name.get(target)
            if candidates:
                return _nearest(candidates, near, lambda f: f.place.path)
            located = self.locate(target, near)
            if located is None or target in seen:
                return None
            seen.add(target)
            module, rest = located
            found = module.functions.get(f"{module.module}.{rest}")
            if found is not None:
                return found
            rewritten = self.through_imports(module, rest)
            if rewritten is None:
                return None
            target = rewritten
        return None

    def is_module(self, name: str) -> bool:
        return name in self._modules

    def is_project_name(self, name: str) -> bool:
        """Whether ``name`` starts in the project (a module or package of it), not in a library."""
        return name.split(".", 1)[0] in self._tops

    def class_module(self, name: str) -> Optional[ModuleSummary]:
        """The module that defines the project class ``name``."""
        return self._classes.get(name)

    def locate(self, name: str, near: str) -> Optional[Tuple[ModuleSummary, str]]:
        """The module a dotted name starts with (the longest such prefix), and the rest."""
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            candidates = self._modules.get(".".join(parts[:cut]))
            if candidates:
                return _nearest(candidates, near, lambda m: m.path), ".".join(parts[cut:])
        return None

    @staticmethod
    def through_imports(module: ModuleSummary, rest: str) -> Optional[str]:
        """``pkg.fetch`` → ``pkg.http.fetch`` when ``pkg`` imports ``fetch`` from ``.http``."""
        first, _, remainder = rest.partition(".")
        imported = module.imports.get(first)
        if imported is None:
            return None
        return f"{imported}.{remainder}" if remainder else imported

    def _policy(self, name: str, near: str) -> Optional[Layer]:
        """The retry policy a module keeps under ``name`` (``api_retry = tenacity.retry(...)``),
        re-exports followed."""
        for _ in range(_MAX_ALIAS_HOPS):
            located = self.locate(name, near)
            if located is None:
                return None
            module, rest = located
            qualified = f"{module.module}.{rest}"
            if qualified in module.policies:
                return module.policies[qualified]
            rewritten = self.through_imports(module, rest)
            if rewritten is None or rewritten == name:
                return None
            name = rewritten
        return None

    # --- decorators of other modules ---------------------------------------------------------

    def _apply_imported_decorators(self) -> None:
        """``@api_retry`` where ``api_retry = tenacity.retry(...)`` lives in another module, or
        ``@handle_errors`` whose function wraps what it decorates in a retry: the decorated
        function gets that retry as a layer of its own."""
        for function in self.functions:
            for name, _ in function.decorators:
                layer = self._decorator_layer(name, function.place.path)
                if layer is not None and layer not in function.layers:
                    function.layers.append(layer)
                    self.decorated.add((function.name, len(function.layers) - 1))

    def _apply_imported_policies(self) -> None:
        """A loop or call driven by another module's object (``for attempt in api_retrying``):
        a layer with that policy's facts when the object is a retry policy; otherwise no layer
        at all."""
        for function in self.functions:
            inert: Set[int] = set()
            for index, layer in enumerate(function.layers):
                if not layer.via:
                    continue
                policy = self._policy(layer.via, function.place.path)
                if policy is None:
                    inert.add(index)
                    continue
                function.layers[index] = replace(policy, whole_function=False, via=layer.via, applies=layer.applies)
                if layer.applies:  # ``policy(fn, *args)`` runs ``fn(*args)`` on every attempt
                    application = next((c for c in function.calls if c.place == layer.place), None)
                    if application is not None:
                        function.calls.append(Call(
                            layer.applies, layer.place, application.layers, mocked=application.mocked,
                            db_scopes=application.db_scopes, later=application.later,
                            passed=tuple((s - 1 if isinstance(s, int) else s, r) for s, r in application.passed if s != 0),
                        ))
            if inert:
                function.calls = [
                    replace(call, layers=tuple(i for i in call.layers if i not in inert)) if set(call.layers) & inert else call
                    for call in function.calls
                ]

    def _decorator_layer(self, name: str, near: str) -> Optional[Layer]:
        policy = self._policy(name, near)
        if policy is not None:
            return policy
        factory = self.resolve(name, near)
        if factory is None:
            return None
        prefix = factory.name + ".<locals>."
        for inner in self.module_of(factory).functions.values():
            if inner.name.startswith(prefix):
                for layer in inner.layers:
                    if layer.whole_function:
                        return layer
        return None

    def callee(self, call: Call, near: str) -> Optional[FunctionSummary]:
        """The project function a call runs: by its name, or by what the object it is called on
        holds (``get_llm().complete``: the ``complete`` of the class ``get_llm`` returns)."""
        found = self.resolve(call.target, near)
        if found is not None:
            return found
        callees = self.values.callees(call, near) if self.is_project_name(call.target) else []
        return callees[0][0] if callees else None

    # --- objects ---------------------------------------------------------------------------

    def instances(self, receiver: str, near: str = "") -> List[Held]:
        """The objects a call's receiver may be (``lint/value_flow.py``); a function there is
        what it returns and a class an instance of it (``pkg.make.get`` calls ``get`` on what
        ``make()`` made, ``pkg.Api.get`` on an ``Api()``: the files name them so)."""
        found: List[Held] = []
        for held in self.values.of(receiver, near):
            if held.kind == "function" and held.function is not None:
                found.extend(h for h in self.values.results(held.function) if h.kind == "instance")
            elif held.kind == "class":
                found.append(Held("instance", held.name))
            elif held.kind == "instance":
                found.append(held)
        return found

    def object_call(self, target: str, near: str = "") -> Optional[str]:
        """``pkg.http.get_session.get`` → ``requests.Session.get`` when the object is a known
        library client that leaves the timeout to the caller; None for a project function, a
        call the file itself resolved, or an object that fills in a timeout by itself."""
        if not self.is_project_name(target) or self.resolve(target, near) is not None:
            return None
        base, attribute = split_last(target)
        if not base or base in self._modules:
            return None
        for held in self.instances(base, near):
            facts = held.facts
            if facts is not None and facts.sets_timeout:
                continue
            cls = held.name
            if cls in self._classes:
                if self._sets_timeout(cls):
                    continue
                cls = self.values.library_base(cls) or cls
            return canonical_name(f"{cls}.{attribute}")
        return None

    def _sets_timeout(self, cls: str) -> bool:
        module = self._classes.get(cls)
        return module is not None and cls in module.timeout_classes

    def object_layer(self, target: str, near: str = "") -> Optional["LayerRef"]:
        """The retry layer of the client a call goes to, whatever module made the client and
        however it got here (a module object, a factory's result, an attribute set in a base
        class, a parameter)."""
        base, _ = split_last(target)
        if not base:
            return None
        for held in self.instances(base, near):
            facts = held.facts
            if facts is None or facts.layer is None or held.module is None:
                continue
            top = held.module.functions.get(f"{held.module.module}.{MODULE_CODE}")
            if top is not None and facts.layer < len(top.layers):
                return LayerRef(top, facts.layer)
        return None

    # --- retry layers ------------------------------------------------------------------------

    def layers_reached(self, function: FunctionSummary, calls: Iterable[Call], after: Optional[int] = None) -> List[Reached]:
        """The first retry layers each of ``calls`` (made by ``function``) runs into: a loop layer
        inside ``after`` (or any loop layer when ``after`` is None), the client layer of the call
        itself, or, in the functions it calls at any depth, their first layers."""
        found: Dict[Tuple[str, int], Reached] = {}
        queue: Deque[Tuple[FunctionSummary, Call, Tuple[Tuple[FunctionSummary, Call], ...], Optional[int]]] = deque(
            (function, call, (), after) for call in calls
        )
        visited: Set[str] = {function.name}
        while queue:
            owner, call, path, outer = queue.popleft()
            path = path + ((owner, call),)
            inner = _next_loop(call, outer)
            if inner is not None:
                _keep(found, Reached(LayerRef(owner, inner), path))
                continue
            if call.retrying is not None:
                _keep(found, Reached(LayerRef(owner, call.retrying), path))
                continue
            client = self.object_layer(call.target, owner.place.path) if call.sends else None
            if client is not None:
                _keep(found, Reached(client, path))
                continue
            callee = self.callee(call, owner.place.path)
            if callee is None or callee.name in visited:
                continue
            visited.add(callee.name)
            decorators = [i for i, layer in enumerate(callee.layers) if layer.whole_function]
            if decorators:
                _keep(found, Reached(LayerRef(callee, decorators[0]), path))
                continue
            queue.extend((callee, inner_call, path, None) for inner_call in callee.calls)
        return list(found.values())

    def reachable(
        self, function: FunctionSummary, follow: Optional[Callable[[Call, FunctionSummary], bool]] = None,
    ) -> Iterator[Tuple[FunctionSummary, Tuple[Call, ...]]]:
        """``function`` and every project function it calls at any depth, each once, nearest
        first, with the calls that lead from ``function`` to it; ``follow(call, callee)`` may
        refuse a step (a call that only hands work over)."""
        queue: Deque[Tuple[FunctionSummary, Tuple[Call, ...]]] = deque([(function, ())])
        visited: Set[str] = {function.name}
        while queue:
            current, path = queue.popleft()
            yield current, path
            for call in current.calls:
                callee = self.callee(call, current.place.path)
                if callee is not None and follow is not None and not follow(call, callee):
                    continue
                if callee is not None and callee.name not in visited:
                    visited.add(callee.name)
                    queue.append((callee, path + (call,)))

    def covered_calls(self, ref: LayerRef) -> Iterator[Call]:
        """The calls of the layer's function that one attempt of the layer makes."""
        for call in ref.function.calls:
            if ref.layer.whole_function or ref.index in call.layers:
                if call.retrying != ref.index:
                    yield call

    def all_layers(self) -> Iterator[LayerRef]:
        for function in self.functions:
            for index, layer in enumerate(function.layers):
                if not layer.client and not layer.pending:
                    yield LayerRef(function, index)


def _nearest(candidates: Sequence[T], near: str, path: Callable[[T], str]) -> T:
    """The candidate whose file shares the longest directory with ``near`` (the first on ties)."""
    if len(candidates) == 1 or not near:
        return candidates[0]
    here = os.path.dirname(os.path.abspath(near))

    def closeness(candidate: T) -> int:
        there = os.path.dirname(os.path.abspath(path(candidate)))
        try:
            return len(os.path.commonpath([here, there]))
        except ValueError:
            return 0

    return max(candidates, key=closeness)


def _next_loop(call: Call, outer: Optional[int]) -> Optional[int]:
    """The loop layer directly inside ``outer`` that repeats ``call`` (the outermost one when
    ``outer`` is None or a decorator)."""
    if outer is None or outer not in call.layers:
        return call.layers[0] if call.layers else None
    position = call.layers.index(outer)
    return call.layers[position + 1] if position + 1 < len(call.layers) else None


def _keep(found: Dict[Tuple[str, int], Reached], reached: Reached) -> None:
    found.setdefault(reached.layer.key, reached)


class ProjectContext:
    """What a project rule sees: the graph, the settings, and a way to report at a place."""

    def __init__(self, graph: ProjectGraph, settings: "Settings", reported_paths: Optional[Set[str]] = None) -> None:
        self.graph = graph
        self.settings = settings
        self.findings: List[Finding] = []
        self._reported_paths = reported_paths
        self._rule: Optional["ProjectRule"] = None
        self._by_path = {summary.path: summary for summary in graph.summaries}
        self._derived: Dict[object, object] = {}
        self._lines: Dict[str, List[str]] = {}  # the lines of each file a finding is reported in
        self.suppressed: Set[Tuple[str, int, str]] = set()  # (path, comment line, code) that served

    def derived(self, key: object, compute: "Callable[[], T]") -> "T":
        """A fact several project rules derive from the graph, computed once."""
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]  # type: ignore[return-value]

    def report(self, place: Place, message: str, related: Sequence[Tuple[Place, str]] = ()) -> None:
        rule = self._rule
        assert rule is not None, "report() is only valid while a rule runs"
        if self._reported_paths is not None and place.path not in self._reported_paths:
            return
        summary = self._by_path.get(place.path)
        line = summary.suppressing_line(rule.code, place) if summary is not None else None
        if line is not None:
            self.suppressed.add((place.path, line, rule.code))
            return
        self.findings.append(
            Finding(
                rule.code, rule.name, message, place.path, place.line, place.column, place.end_line,
                place.end_column, rule.severity,
                related=tuple(Related(p.path, p.line, p.column, text) for p, text in related),
                line_text=self._line_text(place),
            )
        )

    def _line_text(self, place: Place) -> str:
        """The stripped text of the place's first line, read from its file (once per file)."""
        lines = self._lines.get(place.path)
        if lines is None:
            try:
                lines = python_lines(decode(read_bytes(place.path)).text)
            except SourceError:
                lines = []
            self._lines[place.path] = lines
        return line_text(lines, place.line)

    def run(self, rule: ProjectRule) -> None:
        self._rule = rule
        try:
            rule.check_project(self)
        finally:
            self._rule = None


def run_project_rules(
    rules: Sequence[ProjectRule], summaries: Iterable[ModuleSummary], settings: "Settings",
    reported_paths: Optional[Set[str]] = None,
) -> Tuple[List[Finding], Set[Tuple[str, int, str]]]:
    """The findings of the project rules over these summaries, for the files in
    ``reported_paths`` (None: every file), and the suppressions that served."""
    if not rules:
        return [], set()
    ctx = ProjectContext(ProjectGraph(summaries), settings, reported_paths)
    for rule in rules:
        ctx.run(rule)
    return ctx.findings, ctx.suppressed
