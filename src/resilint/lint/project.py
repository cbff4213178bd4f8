"""The project pass: the call graph of every summarised file, and the facts that cross functions
and modules. Runs in the main process on plain data (``lint/summary.py``); no file is parsed here.

Callees are found by qualified name, through re-exports (``from .http import fetch`` in a
package ``__init__``) and by method name on a class. Walks are breadth-first with a visited set,
so recursion and import cycles end, and each layer is reached along its shortest call path.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Callable,
    Deque,
    Dict,
    Iterable,
    Iterator,
    List,
    Optional,
    Sequence,
    Set,
    Tuple,
    TypeVar,
)

from resilint.lint.canonical import canonical_name
from resilint.lint.finding import Finding, Related
from resilint.lint.summary import Call, FunctionSummary, Layer, ModuleSummary, Place

if TYPE_CHECKING:  # pragma: no cover
    from resilint.lint.config import Settings
    from resilint.lint.rule import Rule

_MAX_ALIAS_HOPS = 10
T = TypeVar("T")


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
    def __init__(self, summaries: Iterable[ModuleSummary]) -> None:
        self.modules: Dict[str, ModuleSummary] = {}
        self.functions: Dict[str, FunctionSummary] = {}
        self._aliases: Dict[str, str] = {}  # another name of a module → the name it uses
        for summary in summaries:
            self.modules.setdefault(summary.module, summary)
            for alias in summary.aliases:
                self._aliases.setdefault(alias, summary.module)
            for name, function in summary.functions.items():
                self.functions.setdefault(name, function)
        self._resolved: Dict[str, Optional[FunctionSummary]] = {}
        self._apply_imported_policies()

    def _apply_imported_policies(self) -> None:
        """``@api_retry`` where ``api_retry = tenacity.retry(...)`` lives in another module: the
        decorated function gets that policy as a layer of its own."""
        for function in self.functions.values():
            for name, _ in function.decorators:
                layer = self._policy(name)
                if layer is not None and layer not in function.layers:
                    function.layers.append(layer)

    def _policy(self, name: str) -> Optional[Layer]:
        for _ in range(_MAX_ALIAS_HOPS):
            for module in self._modules_of(name):
                if name in module.policies:
                    return module.policies[name]
            rewritten = self._through_imports(name)
            if rewritten is None or rewritten == name:
                return None
            name = rewritten
        return None

    # --- names -----------------------------------------------------------------------------

    def resolve(self, target: str) -> Optional[FunctionSummary]:
        """The project function a call target names, following re-exports, else None."""
        if target not in self._resolved:
            self._resolved[target] = self._resolve(target)
        return self._resolved[target]

    def _resolve(self, target: str) -> Optional[FunctionSummary]:
        seen: Set[str] = set()
        for _ in range(_MAX_ALIAS_HOPS):
            if target in self.functions:
                return self.functions[target]
            if target in seen:
                return None
            seen.add(target)
            rewritten = self._through_imports(target)
            if rewritten is None:
                return None
            target = rewritten
        return None

    def _through_imports(self, target: str) -> Optional[str]:
        """``pkg.fetch`` → ``pkg.http.fetch`` when ``pkg`` imports ``fetch`` from ``.http``;
        ``examples.shop.orders.f`` → ``shop.orders.f`` when both name one module."""
        parts = target.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            primary = self._aliases.get(".".join(parts[:cut]))
            if primary is not None:
                return ".".join([primary] + parts[cut:])
        for cut in range(len(parts) - 1, 0, -1):
            module = self.modules.get(".".join(parts[:cut]))
            if module is None:
                continue
            imported = module.imports.get(parts[cut])
            if imported is None:
                return None
            return ".".join([imported] + parts[cut + 1:])
        return None

    # --- objects ---------------------------------------------------------------------------

    def type_of(self, name: str, depth: int = 0) -> Optional[str]:
        """The class of the object ``name`` stands for: a module object, what ``self.attr`` of
        a class holds, what a factory or property returns (``pkg.get_session`` called)."""
        if depth > _MAX_ALIAS_HOPS:
            return None
        for candidate in (name, self._through_imports(name)):
            if candidate is None:
                continue
            for module in self._modules_of(candidate):
                found = module.types.get(candidate)
                if found is not None:
                    return found
        function = self.resolve(name)
        if function is not None:
            return function.returns
        base, _, attribute = name.rpartition(".")
        if base and base not in self.modules:
            owner = self.type_of(base, depth + 1)
            if owner is not None and owner != base:
                return self.type_of(f"{owner}.{attribute}", depth + 1)
        return None

    def object_call(self, target: str) -> Optional[str]:
        """``pkg.http.get_session.get`` → ``requests.Session.get`` when the object is known."""
        if self.resolve(target) is not None:
            return None
        base, _, attribute = target.rpartition(".")
        if not base or base in self.modules:
            return None
        owner = self.type_of(base)
        return canonical_name(f"{owner}.{attribute}") if owner is not None else None

    def _modules_of(self, name: str) -> Iterator[ModuleSummary]:
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = self.modules.get(".".join(parts[:cut]))
            if module is not None:
                yield module
                return

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
            callee = self.resolve(call.target)
            if callee is None or callee.name in visited:
                continue
            visited.add(callee.name)
            decorators = [i for i, layer in enumerate(callee.layers) if layer.whole_function]
            if decorators:
                _keep(found, Reached(LayerRef(callee, decorators[0]), path))
                continue
            queue.extend((callee, inner_call, path, None) for inner_call in callee.calls)
        return list(found.values())

    def reachable(self, function: FunctionSummary) -> Iterator[Tuple[FunctionSummary, Tuple[Call, ...]]]:
        """``function`` and every project function it calls at any depth, each once, nearest
        first, with the calls that lead from ``function`` to it."""
        queue: Deque[Tuple[FunctionSummary, Tuple[Call, ...]]] = deque([(function, ())])
        visited: Set[str] = {function.name}
        while queue:
            current, path = queue.popleft()
            yield current, path
            for call in current.calls:
                callee = self.resolve(call.target)
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
        for function in self.functions.values():
            for index, layer in enumerate(function.layers):
                if not layer.client:
                    yield LayerRef(function, index)


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
        self._rule: Optional["Rule"] = None
        self._by_path = {summary.path: summary for summary in graph.modules.values()}
        self._derived: Dict[object, object] = {}
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
                line_text=place.line_text,
            )
        )

    def run(self, rule: "Rule") -> None:
        self._rule = rule
        try:
            rule.check_project(self)
        finally:
            self._rule = None


def run_project_rules(
    rules: Sequence["Rule"], summaries: Iterable[ModuleSummary], settings: "Settings",
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
