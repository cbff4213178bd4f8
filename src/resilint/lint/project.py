"""The project pass: the call graph of every summarised file, and the facts that cross functions
and modules. Runs in the main process on plain data (``lint/summary.py``); no file is parsed here.

Callees are found by qualified name, through re-exports (``from .http import fetch`` in a
package ``__init__``) and by method name on a class. Walks are breadth-first with a visited set,
so recursion and import cycles end, and each layer is reached along its shortest call path.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections import deque
from dataclasses import dataclass, replace
from typing import (
    TYPE_CHECKING,
    AbstractSet,
    Callable,
    Deque,
    Dict,
    FrozenSet,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    Set,
    Tuple,
    TypeVar,
)

from resilint.lint.call_conditions import CallConditions, Context
from resilint.lint.canonical import ADAPTERS_WITHOUT_TIMEOUT, DYNAMIC_OBJECTS, canonical_name, returned_type
from resilint.lint.config import is_test_code, is_test_script
from resilint.lint.finding import Finding, Related
from resilint.lint.source import SourceError, decode, line_text, python_lines, read_bytes
from resilint.lint.summary import (
    AUTOUSE, CALLED, CLASS_INSTANCES, FIXTURE_DECORATORS, MODEL_LABEL, MODULE_CODE, NEXT_IN_ORDER, PROJECT_DOUBLE, PROJECT_SIGNAL, TASK_RUNS, TASK_SIGNATURES, USER_MODEL, Call, FunctionSummary, Layer,
    ModuleSummary, Place, Ref,
)
from resilint.lint.value_flow import FRAMEWORK_REQUESTS, QUERYSET_STEPS, Caller, Held, ValueFlow, calls_a_parameter, made_at, omits, split_last

if TYPE_CHECKING:  # pragma: no cover
    from resilint.lint.config import Settings

_MAX_ALIAS_HOPS = 10
_DJANGO_SETTINGS = "django.conf.settings."
_ABSTRACT = frozenset({"abc.abstractmethod", "abc.abstractproperty"})
# The ``decorator`` package's decorator of a caller: the function it decorates takes the
# decorated function first and is the wrapper around each of its calls.
_CALLER_DECORATOR = "decorator.decorator"

_UNRESOLVED = object()
_MAX_CLIENT_PARTS = 4  # ``client.beta.chat.completions.create``: the parts of a client a request goes through
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
    # The layer as the call that reached it runs it, where that call's arguments decide some
    # of its facts (``Layer.decided_by``)
    told: Optional[Layer] = None

    @property
    def layer(self) -> Layer:
        return self.told or self.function.layers[self.index]

    @property
    def key(self) -> Tuple[str, int]:
        return self.function.name, self.index


@dataclass(frozen=True)
class Reached:
    """A layer reached from a call, and the calls that lead there (the first is the call made)."""

    layer: LayerRef
    path: Tuple[Tuple[FunctionSummary, Call], ...]


def _implementations(summaries: Iterable[ModuleSummary]) -> List[ModuleSummary]:
    """The summaries that say what the project's modules do: a stub (``http.pyi``) beside its
    module's source (``http.py``) declares the same names with no bodies, and what runs is the
    source (a ``Session`` subclass that fills in a timeout, a retrying wrapper)."""
    summaries = list(summaries)
    sources = {summary.path for summary in summaries if not summary.path.endswith(".pyi")}
    return [summary for summary in summaries if not (summary.path.endswith(".pyi") and summary.path[:-1] in sources)]


# What saves, creates or deletes one row of a Django model, and so runs the receivers of its
# model signals (``libraries/django_signals.py``): on the object, and on the model's manager.
_SIGNALLING_METHODS = {
    "save": "save", "delete": "delete", "create": "save", "get_or_create": "save", "update_or_create": "save",
    "create_user": "save", "create_superuser": "save",
}
_SIGNALLING_METHODS_OF_MANAGER = frozenset({"create", "get_or_create", "update_or_create", "create_user", "create_superuser"})
# How a module names Django's user model (``USER_MODEL``) when it saves a row of it.
_USER_MODEL_NAMES = frozenset({USER_MODEL, "django.contrib.auth.get_user_model"})
# A project's own user model derives from one of these.
_USER_MODEL_BASES = frozenset({"django.contrib.auth.models.AbstractUser", "django.contrib.auth.base_user.AbstractBaseUser", "django.contrib.auth.models.AbstractBaseUser"})
# What a manager hands back a queryset of the same model through, before it creates a row
# (``Product.objects.select_for_update().get_or_create(...)``).
_QUERYSET_STEPS = frozenset(QUERYSET_STEPS) | {"distinct", "none"}


def _manager_owner(base: str) -> str:
    """The model whose manager ``base`` is, queryset steps after it allowed
    (``app.models.Product.objects.using``: ``app.models.Product``); "" otherwise."""
    owner, manager, chain = base.partition(".objects")
    if not manager or (chain and not chain.startswith(".")):
        return ""
    return owner if all(step in _QUERYSET_STEPS for step in chain.split(".")[1:]) else ""


# A project's own ``django.dispatch.Signal()``: its ``send`` runs its receivers in the caller's frame.
_SIGNAL_SENDS = frozenset({"send", "send_robust"})
_DJANGO_SIGNALS = frozenset({"django.dispatch.Signal", "django.dispatch.dispatcher.Signal"})


class ProjectGraph:
    """Every summarised function, and their names. Two modules may share a name (two projects
    checked together, or scripts beside each other that import ``helpers``): a name is then
    looked up from the file that uses it, and the module nearest to that file wins."""

    def __init__(
        self, summaries: Iterable[ModuleSummary], libraries: FrozenSet[str] = frozenset(),
        plugin_paths: AbstractSet[str] = frozenset(),
    ) -> None:
        # The functions whose layers and calls the graph completes with other modules' facts are
        # its own copies: the summaries it is given stay as their files made them (a language
        # server runs the pass again over the same summaries after every edit).
        self.summaries: List[ModuleSummary] = _with_project_doubles(_with_conftest_doubles(_joined_writes([
            _completed_copy(s) if _may_complete(s) else s for s in _implementations(summaries)
        ]), plugin_paths))
        self._plugin_paths = plugin_paths
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
        self._library_names: Dict[Tuple[str, str], List[str]] = {}
        self._class_names: Dict[str, str] = {}  # another name of a project class → the class
        self._settings_modules: Optional[Tuple[bool, List[str]]] = None
        self._holder_index: Optional[_Holders] = None
        self._holder_memo: Dict[Tuple[str, str], Tuple[Set[str], Set[str]]] = {}
        # the stand-ins of dispatches: by the ids of the call (and method) they stand in for, and
        # the class a walk started from when that narrows the classes ``self`` may be
        self._dispatchers: Dict[object, Optional[FunctionSummary]] = {}
        # (what sends the signal, the sender model: "" for any) → the receivers
        self._receivers: Optional[Dict[Tuple[str, str], List[FunctionSummary]]] = None
        self._signalled: Dict[int, FunctionSummary] = {}  # id(call) → the call and the receivers it runs
        self._directories: Dict[str, str] = {}
        self._bare: Optional[Dict[str, ModuleSummary]] = None
        self._servers: Optional[List[Tuple[str, Set[str]]]] = None  # ``conftest_serves``
        # Names of libraries a project module must not be taken for (``bare_module``).
        self._libraries = libraries | frozenset(getattr(sys, "stdlib_module_names", ()))
        self._classes: Dict[str, ModuleSummary] = {
            name: summary for summary in self.summaries for name in summary.classes
        }
        self._tops = {name.split(".", 1)[0] for name in self._modules}
        # What a module sets for a whole library (``stripe.max_network_retries = 2``), by the
        # setting's name: a request of that library in any module retries so.
        self._settings: Dict[str, Layer] = {}
        for summary in self.summaries:
            for name, layer in summary.policies.items():
                if not self.is_project_name(name):
                    known = self._settings.get(name)
                    if known is None or (layer.calls or 0) > (known.calls or 0):
                        self._settings[name] = layer
        self.values = ValueFlow(self)
        self.conditions = CallConditions(self.values)
        # Layers a function gets from a decorator defined in another module: what it does
        # directly is retried too, though its own file could not tell.
        self.decorated: Set[Tuple[str, int]] = set()
        self._apply_imported_decorators()
        self._apply_imported_policies()
        self._read_other_modules_settings()

    def module_of(self, function: FunctionSummary) -> ModuleSummary:
        return self._module_of[id(function)]

    # --- names -----------------------------------------------------------------------------

    def resolve(self, target: str, near: str = "") -> Optional[FunctionSummary]:
        """The project function a call target names, seen from the file ``near`` (re-exports
        and other names of modules followed), else None."""
        key = (target, self.directory(near))
        found = self._resolved.get(key, _UNRESOLVED)
        if found is _UNRESOLVED:
            found = self._resolved[key] = self._resolve(target, near)
        return found  # type: ignore[return-value]

    def directory(self, near: str) -> str:
        """The directory of the file ``near``, which is all that name resolution depends on."""
        found = self._directories.get(near)
        if found is None:
            found = self._directories[near] = os.path.dirname(near)
        return found

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

    def conftest_serves(self, fixture: str, near: str) -> bool:
        """Whether a ``conftest.py`` in the directory of the file ``near`` or above it, or a
        pytest plugin (a module a ``pytest_plugins`` names), gives the fixture ``fixture`` as a
        server of this machine (``ModuleSummary.servers``)."""
        if self._servers is None:
            plugins = {id(s) for s in _plugins(self.summaries, self._plugin_paths)}
            self._servers = [
                ("" if id(s) in plugins else os.path.dirname(s.path), set(s.servers) | self._serving_objects(s)) for s in self.summaries
                if (s.servers or s.server_classes) and (id(s) in plugins or os.path.basename(s.path) == "conftest.py")
            ]
        return any(fixture in names for directory, names in self._servers if not directory or _below(near, directory))

    def _serving_objects(self, conftest: ModuleSummary) -> Set[str]:
        """The fixtures of a ``conftest.py`` that give an object of a project class whose
        address defaults to this machine (``yield MockHub.instance()``, ``MockHub`` setting
        ``bind_url`` to ``http://127.0.0.1:…``; also one it inherits)."""
        local = {name for summary in self.summaries for name in summary.local_classes}
        found: Set[str] = set()
        for fixture, made in conftest.server_classes.items() if local else ():
            for name in made:
                cls = name if self.class_module(name) is not None else split_last(name)[0]  # ``MockHub.instance()``
                if self.class_module(cls) is not None and set(self.values.lineage(cls)) & local:
                    found.add(fixture)
        return found

    def modules_named(self, name: str) -> List[ModuleSummary]:
        """The summaries of the modules of that dotted name (two projects may share one)."""
        return self._modules.get(name, [])

    def is_module(self, name: str) -> bool:
        return name in self._modules

    def is_project_name(self, name: str) -> bool:
        """Whether ``name`` starts in the project (a module or package of it), not in a library."""
        return name.split(".", 1)[0] in self._tops

    def class_module(self, name: str) -> Optional[ModuleSummary]:
        """The module that defines the project class ``name``, or that another name of it
        (an import, a re-export, ``from .errors import *``) stands for."""
        return self._classes.get(self.class_named(name))

    def class_named(self, name: str) -> str:
        """The project class ``name`` stands for where a module only imports it, else ``name``."""
        if name in self._classes or not self.is_project_name(name):
            return name
        found = self._class_names.get(name)
        if found is None:
            classes = [held.name for held in self.values.of(name) if held.kind == "class"]
            found = self._class_names[name] = classes[0] if len(classes) == 1 else name
        return found

    def ancestry(self, name: str) -> Optional[Set[str]]:
        """The project class ``name`` and every class it derives from, at any depth; None when a
        base is a library class or cannot be read (what that class derives from is unknown)."""

        def bases(cls: str) -> Optional[List[str]]:
            module = self.class_module(cls)
            if module is None:
                return None
            held = self.values.bases(cls, module)
            return [h.name for h in held] if len(held) == len(module.classes.get(cls, ())) else None

        return class_ancestry(self.class_named(name), bases)

    def locate(self, name: str, near: str) -> Optional[Tuple[ModuleSummary, str]]:
        """The module a dotted name starts with (the longest such prefix), and the rest."""
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            candidates = self._modules.get(".".join(parts[:cut]))
            if candidates:
                return _nearest(candidates, near, lambda m: m.path), ".".join(parts[cut:])
        bare = self.bare_module(parts[0]) if len(parts) > 1 else None
        return (bare, ".".join(parts[1:])) if bare is not None else None

    def bare_module(self, name: str) -> Optional[ModuleSummary]:
        """The one module of the project whose last name is ``name``, for ``import name`` where
        no module or package of the project starts with it: the project runs with that module's
        directory on its path (``PYTHONPATH=src/common/lib`` in its tox or Docker set-up).
        None when several modules end so, or the name is a library's the rules know or a
        standard module's."""
        if self._bare is None:
            ends: Dict[str, List[ModuleSummary]] = {}
            for summary in self.summaries:
                if "." in summary.module:
                    ends.setdefault(summary.module.rsplit(".", 1)[1], []).append(summary)
            self._bare = {
                stem: found[0] for stem, found in ends.items()
                if len(found) == 1 and stem not in self._tops and stem not in self._libraries
            }
        return self._bare.get(name)

    def through_imports(self, module: ModuleSummary, rest: str) -> Optional[str]:
        """``pkg.fetch`` → ``pkg.http.fetch`` when ``pkg`` imports ``fetch`` from ``.http``, by
        name or with ``from .http import *``."""
        first, _, remainder = rest.partition(".")
        imported = module.imports.get(first) or self.star_source(module, first)
        if imported is None:
            return None
        return f"{imported}.{remainder}" if remainder else imported

    def library_names(self, target: str, near: str = "") -> List[str]:
        """The library names a project name stands for where the project only imports them
        (``app.compat.urlopen`` → ``urllib.request.urlopen``; ``app.compat.http.get`` →
        ``requests.get`` after ``import requests as http``), re-exports followed, each import
        of a name bound on several paths (``if``/``else``, an ``ImportError`` fallback)."""
        key = (target, self.directory(near))
        found = self._library_names.get(key)
        if found is None:
            found = self._library_names[key] = self._find_library_names(target, near)
        return found

    def _find_library_names(self, target: str, near: str) -> List[str]:
        found: List[str] = []
        todo, seen = [target], set()
        while todo and len(seen) < _MAX_ALIAS_HOPS:
            name = todo.pop(0)
            if name in seen:
                continue
            seen.add(name)
            if not self.is_project_name(name):
                found.append(name)
                continue
            located = self.locate(name, near) if self.resolve(name, near) is None else None
            if located is None:
                continue
            module, rest = located
            first, _, remainder = rest.partition(".")
            defined = f"{module.module}.{first}"
            if defined in module.values or defined in module.classes or defined in module.functions:
                continue  # the module's own object, not an import
            last = module.imports.get(first) or self.star_source(module, first)
            for imported in (*module.other_imports.get(first, ()), *([last] if last else [])):
                todo.append(f"{imported}.{remainder}" if remainder else imported)
        return found if target not in found else []

    def star_source(self, module: ModuleSummary, name: str, depth: int = 0) -> Optional[str]:
        """Where a ``from .timing import *`` of ``module`` takes ``name`` from: the first of those
        modules that defines or imports it (``__all__`` is not read)."""
        for star in module.star_imports if depth < _MAX_ALIAS_HOPS else ():
            for candidate in self._modules.get(star, ()):
                qualified = f"{candidate.module}.{name}"
                if (qualified in candidate.functions or qualified in candidate.classes or qualified in candidate.values
                        or qualified in candidate.policies or name in candidate.imports
                        or self.star_source(candidate, name, depth + 1) is not None):
                    return f"{star}.{name}"
        return None

    def _policy(self, name: str, near: str) -> Optional[Layer]:
        """The retry policy a module keeps under ``name`` (``api_retry = tenacity.retry(...)``),
        re-exports followed; or the library setting of that name some module makes."""
        if name in self._settings:
            return self._settings[name]
        return self.defined(name, near, lambda module: module.policies)

    def defined(self, name: str, near: str, table: Callable[[ModuleSummary], Mapping[str, T]]) -> Optional[T]:
        """What the module that defines ``name`` keeps for it in ``table`` (its policies, its
        values), re-exports followed."""
        for _ in range(_MAX_ALIAS_HOPS):
            located = self.locate(name, near)
            if located is None:
                return None
            module, rest = located
            found = table(module).get(f"{module.module}.{rest}")
            if found is not None:
                return found
            rewritten = self.through_imports(module, rest)
            if rewritten is None or rewritten == name:
                return None
            name = rewritten
        return None

    def django_setting(self, name: str, near: str) -> Optional[List[Ref]]:
        """What ``django.conf.settings.NAME`` may hold: the values the project's settings modules
        give ``NAME``, joined. Those are the modules ``DJANGO_SETTINGS_MODULE`` names where the
        project sets it (``os.environ.setdefault(...)`` in ``manage.py``, ``wsgi.py``), else
        every module of a ``settings`` module or package that defines ``NAME``."""
        attribute = name[len(_DJANGO_SETTINGS):] if name.startswith(_DJANGO_SETTINGS) else ""
        if not attribute or "." in attribute:
            return None
        if self._settings_modules is None:
            self._settings_modules = self._find_settings_modules()
        named, modules = self._settings_modules
        found: List[Ref] = []
        for module in modules:
            refs = self.defined(f"{module}.{attribute}", near, lambda summary: summary.values)
            if refs is None and named:
                return None  # the settings module in use does not say (the default, or unknown)
            found.extend(refs or ())
        return found or None

    def _find_settings_modules(self) -> Tuple[bool, List[str]]:
        named = {
            ref[1] for function in self.functions for call in function.calls if call.target == "os.environ.setdefault"
            for slot, ref in call.passed if slot == 1 and ref[0] == "str"
            and (0, ("str", "DJANGO_SETTINGS_MODULE")) in call.passed
        }
        known = sorted(name for name in named if name in self._modules)
        if known:
            return True, known
        return False, sorted(name for name in self._modules if "settings" in name.split("."))

    # --- decorators of other modules ---------------------------------------------------------

    def _apply_imported_decorators(self) -> None:
        """``@api_retry`` where ``api_retry = tenacity.retry(...)`` lives in another module, or
        ``@handle_errors`` whose function wraps what it decorates in a retry: the decorated
        function gets that retry as a layer of its own (not a generator: the retry around its
        call only sees the generator made, never the body's failures)."""
        for function in self.functions:
            if function.generator:
                continue
            for name, where in function.decorators:
                layer = self._decorator_layer(name, function.place.path)
                if layer is not None and layer.count_from:
                    layer = self._counted(layer, name, where, function)
                if layer is not None and layer.caught_from:
                    layer = self._caught(layer, name, where, function)
                if layer is not None and layer.calls is not None and layer.calls <= 1:
                    continue  # ``@with_retries(1)``: one attempt retries nothing
                if layer is not None and self._decorates_callers(name, function.place.path):
                    # ``@retry_request(retries=6)`` only makes the decorator: no attempt runs there
                    function.calls = [c for c in function.calls if not (c.target == name and c.place.line == where.line)]
                if layer is not None and layer not in function.layers:
                    function.layers.append(layer)
                    self.decorated.add((function.name, len(function.layers) - 1))
                    self._converted_escape(function, layer, len(function.layers) - 1)

    def _converted_escape(self, function: FunctionSummary, layer: Layer, index: int) -> None:
        """The calls whose failures ``function`` turns into classes the decorator's layer does
        not retry (``except Exception as e: raise ServiceUnavailable(e)`` under a layer that
        retries ``RequestException``): they leave the layer unretried."""
        caught = set(layer.exceptions)
        if layer.retries_on != "specific" or not caught:
            return
        for position, call in enumerate(function.calls):
            if not call.converted or index in call.escapes:
                continue
            if all(self._not_caught(name, caught) for name in call.converted):
                function.calls[position] = replace(call, escapes=call.escapes + (index,))

    def _not_caught(self, raised: str, caught: Set[str]) -> bool:
        """A project class none of whose known bases is among ``caught``."""
        bases = self.ancestry(raised) if self.is_project_name(raised) else None
        return bases is not None and not bases & caught

    def _apply_imported_policies(self) -> None:
        """A loop or call driven by another module's object (``for attempt in api_retrying``):
        a layer with that policy's facts when the object is a retry policy; otherwise no layer
        at all. A policy applied by a call to a function (``api_retrying(fn, *args)``,
        ``queue.enqueue(fn, retry=Retry(3))``) runs that function on every attempt."""
        for function in self.functions:
            inert: Set[int] = set()
            for index, layer in enumerate(function.layers):
                if layer.via:
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
                    replace(call, layers=tuple(i for i in call.layers if i not in inert),
                            retrying=None if call.retrying in inert else call.retrying)
                    if set(call.layers) & inert or call.retrying in inert else call
                    for call in function.calls
                ]

    def _decorator_layer(self, name: str, near: str) -> Optional[Layer]:
        policy = self._policy(name, near)
        if policy is not None:
            return policy
        factory = self.resolve(name, near)
        if factory is None:
            return None
        if self._decorates_callers(name, near) and factory.parameters:
            # ``@decorator async def retry_request(func, retries=6, *args, **kwargs)`` (the
            # ``decorator`` package): the function is the wrapper, ``func`` what it decorates
            called = f"{factory.name}.({factory.parameters[0]})"
            for index, layer in enumerate(factory.layers):
                if not (layer.client or layer.whole_function or layer.pending) and any(
                    index in call.layers and call.target == called for call in factory.calls
                ):
                    return replace(layer, whole_function=True)
        prefix = factory.name + ".<locals>."
        inners = [f for f in self.module_of(factory).functions.values() if f.name.startswith(prefix)]
        for inner in inners:
            for layer in inner.layers:
                if layer.whole_function:
                    return layer
        # a wrapper whose own loop retries the decorated function: ``for attempt in range(n):
        # try: return function(*args, **kwargs)``, the function a parameter around the wrapper
        for inner in inners:
            for index, layer in enumerate(inner.layers):
                if layer.client or layer.whole_function or layer.pending:
                    continue
                if any(index in call.layers and calls_a_parameter(call.target, prefix, factory.name)
                       for call in inner.calls):
                    return replace(layer, whole_function=True)
        return None

    def _read_other_modules_settings(self) -> None:
        """Layers whose attempts another module's constant gives (``@retry(
        stop_max_attempt_number=ACME_ATTEMPTS)`` with ``ACME_ATTEMPTS`` imported): the number
        it holds; and those handed another module's predicate (``retry_on_exception=
        exc.retry_on_connection_errors``): the classes it answers yes for."""
        for function in self.functions:
            for index, layer in enumerate(function.layers):
                if layer.count_from and layer.calls is None and not split_last(layer.count_from)[1].startswith("("):
                    layer = self._with_attempts(layer, self.values.of(layer.count_from, function.place.path))
                if layer.caught_from and not layer.exceptions and not split_last(layer.caught_from)[1].startswith("("):
                    predicate = self.resolve(layer.caught_from, function.place.path)
                    if predicate is not None and predicate.predicate_for:
                        layer = replace(layer, exceptions=predicate.predicate_for)
                function.layers[index] = layer

    def _decorates_callers(self, name: str, near: str) -> bool:
        factory = self.resolve(name, near)
        return factory is not None and any(decorator == _CALLER_DECORATOR for decorator, _ in factory.decorators)

    def _counted(self, layer: Layer, name: str, where: Place, function: FunctionSummary) -> Layer:
        """A project decorator's retry counted by the argument its application passes
        (``@with_retries(5)``), or by the factory's default, or by another module's constant
        (``count = kwargs.pop("count", API_RETRY_COUNT)``)."""
        if not split_last(layer.count_from)[1].startswith("("):
            return self._with_attempts(layer, self.values.of(layer.count_from, function.place.path))
        return self._with_attempts(layer, self._decorator_argument(layer.count_from, name, where, function))

    def _caught(self, layer: Layer, name: str, where: Place, function: FunctionSummary) -> Layer:
        """A project decorator's loop that retries the exception classes its application
        passes (``@retry(KeyError)``)."""
        held = self._decorator_argument(layer.caught_from, name, where, function)
        if not held or any(h.kind not in ("object", "class") for h in held):
            return layer
        return replace(layer, exceptions=tuple(dict.fromkeys(h.name for h in held)))

    def _decorator_argument(self, parameter: str, name: str, where: Place, function: FunctionSummary) -> List[Held]:
        """What the decorator ``name`` applied at ``where`` to ``function`` passes its factory
        as ``parameter`` (``pkg.with_retries.(attempts)``), or the factory's default for it."""
        factory_name, slot = split_last(parameter)
        factory = self.resolve(factory_name, function.place.path)
        if factory is None:
            return []
        module = self.module_of(function)
        top = module.functions.get(f"{module.module}.{MODULE_CODE}")
        application = next(
            (c for f in (top, *module.functions.values()) if f is not None for c in f.calls
             if c.target == name and c.place.line == where.line and c.place.column >= where.column),
            None,
        )
        if application is not None:
            return list(self.values.argument(Caller(function, application, 0), factory, slot[1:-1]))
        default = factory.defaults.get(slot[1:-1])
        return list(self.values.ref(default, self.module_of(factory))) if default is not None else []

    @staticmethod
    def _with_attempts(layer: Layer, held: Iterable[Held]) -> Layer:
        counts = {int(h.name) for h in held if h.kind == "int"}
        if len(counts) != 1:
            return layer
        attempts = counts.pop() + layer.count_offset
        return replace(layer, calls=attempts, description=layer.description.replace("(attempts unknown)", f"{attempts} attempts"))

    def callee(self, call: Call, near: str, origin: str = "") -> Optional[FunctionSummary]:
        """The project function a call runs: by its name, or by what the object it is called on
        holds (``get_llm().complete``: the ``complete`` of the class ``get_llm`` returns). A
        method its class only declares (``@abstractmethod``, or a body that does nothing the
        summaries record) runs a subclass's override: the call runs ``overrides``'s stand-in."""
        found = self.resolve(call.target, near) or self._run_in_process(call.target, near)
        if found is None:
            callees = self.values.callees(call, near) if self.is_project_name(call.target) else []
            found = self._choice(call, callees) if len({id(f) for f, _ in callees}) > 1 else callees[0][0] if callees else None
        if found is None:
            found = self._mixed_in(call, near, origin) or self._next_in_order(call)
        found = (self.overrides(found, call, origin) or found) if found is not None else None
        signalled = self.receivers(call, near)
        if signalled:
            known = self._signalled.get(id(call))
            if known is None:
                known = self._signalled[id(call)] = self._stand_in(call, [(f, False) for f in ([found] if found else []) + signalled])
            return known
        return found

    def _run_in_process(self, target: str, near: str) -> Optional[FunctionSummary]:
        """The Celery task a call runs here and now, not on a worker: ``ping.run("x")``,
        ``ping.apply(args=("x",))``, ``ping.si("x").apply()`` (``delay``/``apply_async`` queue
        it instead)."""
        base, method = split_last(target)
        if method not in TASK_RUNS:
            return None
        owner, step = split_last(base)
        if step in TASK_SIGNATURES and method == "apply":
            base = owner
        tasks = [self.resolve(base, near)]
        if tasks[0] is None and "(" in base:  # a task handed in (``def dispatch(task, *args)``)
            tasks = [held.function for held in self.values.of(base, near) if held.kind == "function"]
        return next((
            task for task in tasks
            if task is not None and any(split_last(name)[1].endswith("task") for name, _ in task.decorators)
        ), None)

    def receivers(self, call: Call, near: str) -> List[FunctionSummary]:
        """The receivers of Django's model signals that ``call`` runs: it saves, creates or
        deletes a row of a project model (``Engagement.objects.create(...)``,
        ``engagement.save()``) that receivers are connected for, or for every model."""
        if self._receivers is None:
            self._receivers = self._receiver_index()
        if not self._receivers:
            return []
        base, method = split_last(call.target)
        if method in _SIGNAL_SENDS:
            return self._signal_receivers(base, near)
        sent_by = _SIGNALLING_METHODS.get(method)
        if sent_by is None:
            return []
        if method in _SIGNALLING_METHODS_OF_MANAGER:
            owner = _manager_owner(base)
            held = self.values.of(owner, near) if owner else []
            models = [h.name for h in held if h.kind == "class" or h.name in _USER_MODEL_NAMES]
        else:
            models = [h.name for h in self.values.of(base, near) if h.kind in ("instance", "class")]
        found: Dict[int, FunctionSummary] = {}
        for model in models:
            if model in _USER_MODEL_NAMES:
                senders = {USER_MODEL, ""}
            elif self.class_module(model) is None:
                continue
            else:
                senders = (self.ancestry(model) or {model}) | {""}
                if self._is_user_model(model):
                    senders.add(USER_MODEL)
            for sender in senders:
                found.update((id(f), f) for f in self._receivers.get((sent_by, sender), ()))
        return list(found.values())

    def _is_user_model(self, model: str) -> bool:
        """Whether the project class ``model`` derives from Django's abstract users (a project's
        ``AUTH_USER_MODEL``, the model ``get_user_model()`` gives)."""
        module = self.class_module(model)
        return module is not None and any(h.name in _USER_MODEL_BASES for h in self.values.bases(model, module))

    def _signal_receivers(self, signal: str, near: str) -> List[FunctionSummary]:
        """The receivers connected to a project's own ``Signal()`` that ``signal.send(...)``
        (or ``send_robust``) runs, in the caller's frame, whatever sender it names."""
        if not any(h.kind == "instance" and h.name in _DJANGO_SIGNALS for h in self.values.of(signal, near)):
            return []
        assert self._receivers is not None
        found: Dict[int, FunctionSummary] = {}
        for (sent_by, _), functions in self._receivers.items():
            if sent_by.startswith(PROJECT_SIGNAL) and self._same_name(sent_by[len(PROJECT_SIGNAL):], signal, near):
                found.update((id(f), f) for f in functions)
        return list(found.values())

    def _same_name(self, connected: str, sent: str, near: str) -> bool:
        """Whether two names of a signal (as the connecting and the sending modules spell
        them) are the same module global, re-exports followed."""
        if connected == sent:
            return True
        first, second = self.locate(connected, near), self.locate(sent, near)
        return (first is not None and second is not None and first[0] is second[0] and first[1] == second[1])

    def _receiver_index(self) -> Dict[Tuple[str, str], List[FunctionSummary]]:
        index: Dict[Tuple[str, str], List[FunctionSummary]] = {}
        for summary in self.summaries:
            for sent_by, sender, name in summary.receivers:
                function = self.resolve(name, summary.path) or self._called_object(name, summary.path)
                if function is None:
                    continue
                if sender.startswith(MODEL_LABEL):
                    senders = self._classes_named(sender[len(MODEL_LABEL):])
                else:
                    senders = [h.name for h in self.values.of(sender, summary.path) if h.kind == "class"] if sender not in ("", USER_MODEL) else [sender]
                for model in senders:
                    index.setdefault((sent_by, model), []).append(function)
        return index

    def _called_object(self, name: str, near: str) -> Optional[FunctionSummary]:
        """The ``__call__`` of the project object ``name`` holds (a module's
        ``notifier = SubmissionEmailNotifier()`` connected as a signal's receiver)."""
        for held in self.values.of(name, near):
            if held.kind == "instance" and self.class_module(held.name) is not None:
                method = next((h.function for h in self.values.class_attribute(held.name, "__call__") if h.kind == "function"), None)
                if method is not None:
                    return method
        return None

    def _classes_named(self, name: str) -> List[str]:
        """The project's classes whose own name is ``name`` (a model a signal's sender names by
        its label, ``apps.get_model("net", "IPAddress")``)."""
        return [cls for summary in self.summaries for cls in summary.classes if cls.rsplit(".", 1)[-1] == name]

    def _choice(self, call: Call, callees: List[Tuple[FunctionSummary, int]]) -> FunctionSummary:
        """For a call that may run one of several project functions (a parameter the callers
        fill with different functions or lambdas), a function that calls each of them,
        standing in for the choice, as ``overrides`` stands in for a dispatch."""
        known = self._dispatchers.get(id(call), False)
        if not known:
            known = self._dispatchers[id(call)] = self._stand_in(call, [(f, offset > 0) for f, offset in callees])
        return known  # type: ignore[return-value]

    def _stand_in(self, call: Call, callees: List[Tuple[FunctionSummary, bool]]) -> FunctionSummary:
        """A function standing in for a call that may run any of ``callees`` (each with whether
        it is called bound to an object), named after what the call names."""
        unique = {id(function): (function, bound) for function, bound in callees}.values()
        return self._calling(call.target.replace("(", "").replace(")", ""), call.place, unique, callees[0][0])

    def _calling(
        self, name: str, place: Place, callees: Iterable[Tuple[FunctionSummary, bool]], beside: FunctionSummary,
        like: Optional[Call] = None,
    ) -> FunctionSummary:
        """A function of the module of ``beside`` that calls each of ``callees`` at ``place``
        (passing what ``like`` passes: the call it stands in for)."""
        passed = like.passed if like is not None else ()
        arguments = like.arguments if like is not None else None
        function = FunctionSummary(name, place, calls=[
            Call(callee.name, place, bound=bound, passed=passed, arguments=arguments) for callee, bound in callees
        ])
        self._module_of[id(function)] = self.module_of(beside)
        return function

    def overrides(self, method: FunctionSummary, call: Optional[Call] = None, origin: str = "") -> Optional[FunctionSummary]:
        """For a method its class only declares, a function that calls every override of it in
        the project's subclasses (at any depth; those ``_receiver_classes`` names for ``origin``),
        standing in for the dispatch of ``call`` (whose arguments it passes on); None when the
        method does something itself or nothing overrides it."""
        cls, name = split_last(method.name)
        receivers = self._receiver_classes(cls, origin)
        key = (id(method), id(call), origin if receivers is not None else "")
        known = self._dispatchers.get(key, False)
        if known is not False:
            return known  # type: ignore[return-value]
        found: Optional[FunctionSummary] = None
        declared = any(d in _ABSTRACT for d, _ in method.decorators) or not (
            method.calls or method.returns or method.layers or method.requests or method.db_scopes or method.decorators
        )
        if declared and self.class_module(cls) is not None and not name.startswith("__"):
            implementations = [function for function in self._in_subclasses(cls, name, receivers) if function is not method]
            if implementations:
                found = self._calling(
                    method.name, method.place, [(function, True) for function in implementations], method, like=call,
                )
        self._dispatchers[key] = found
        return found

    def _receiver_classes(self, cls: str, origin: str) -> Optional[List[str]]:
        """The classes ``self`` may be in a method of ``cls`` reached from a method of
        ``origin`` (a walk that started in ``MoveOnDestroyMixin.destroy`` and ran
        ``DestroyModelMixin.destroy`` through ``super()``): the classes deriving from both; None
        (any subclass of ``cls``) when none does or ``origin`` is no other project class (the
        walk reached ``cls`` some other way)."""
        if not origin or origin == cls or self.class_module(origin) is None:
            return None
        deriving = set(self.values.subclasses(cls))
        both = [sub for sub in (origin, *self.values.subclasses(origin)) if sub in deriving]
        return both or None

    def _in_subclasses(self, cls: str, name: str, among: Optional[Sequence[str]] = None) -> List[FunctionSummary]:
        """The methods ``name`` that the project's subclasses of ``cls`` (at any depth; or
        those ``among`` them) run: a subclass's own, or the one it takes from another base
        before this class (a mixin's: ``class SubmissionNotifier(EmailNotificationMixin, Notifier)``)."""
        found_in: Dict[int, FunctionSummary] = {}
        for sub in self.values.subclasses(cls) if among is None else among:
            function = self.class_method(sub, name) or next((
                h.function for h in self.values.class_attribute(sub, name) if h.kind == "function" and h.function is not None
            ), None)
            if function is not None:
                found_in[id(function)] = function
        return list(found_in.values())

    def _next_in_order(self, call: Call) -> Optional[FunctionSummary]:
        """For ``super().pre_delete(obj)`` in a mixin with no bases (``pkg.WatchedMixin.<super>.
        pre_delete``), a function that calls, for each class mixing it in, the first method of
        that name after the mixin in that class's lookup order."""
        owner, name = split_last(call.target)
        cls, marker = split_last(owner)
        if marker != NEXT_IN_ORDER or not cls or self.class_module(cls) is None:
            return None
        known = self._dispatchers.get(id(call), False)
        if known is False:
            found_in: Dict[int, FunctionSummary] = {}
            for sub in self.values.subclasses(cls):
                order = self.values.lineage(sub)
                after = order[order.index(cls) + 1:] if cls in order else []
                method = next((m for m in (self.class_method(c, name) for c in after) if m is not None), None)
                if method is not None:
                    found_in[id(method)] = method
            implementations = list(found_in.values())
            known = self._dispatchers[id(call)] = self._calling(
                call.target, implementations[0].place, [(function, True) for function in implementations],
                implementations[0], like=call,
            ) if implementations else None
        return known  # type: ignore[return-value]

    def _mixed_in(self, call: Call, near: str, origin: str = "") -> Optional[FunctionSummary]:
        """For a method a mixin calls on ``self`` without defining it (``self.post_save(...)``
        in ``UpdateModelMixin``, named ``UpdateModelMixin.post_save`` by its file), a function
        that calls each method of that name the classes mixing it in take from their bases.
        Only its own module names it so: elsewhere the name is a ``super()`` call's, which
        never goes back down to the subclasses. ``origin``: the class of the method a walk
        started from (``MoveOnDestroyMixin`` of its ``destroy``, whose ``super().destroy()``
        runs the mixin's): only the classes mixing in both are ``self`` there; all of them
        when no class does (the walk reached the mixin another way)."""
        cls, name = split_last(call.target)
        if not self._mixin_calls_self(call.target, near):
            return None
        receivers = self._receiver_classes(cls, origin)
        key = (id(call), origin if receivers is not None else "")
        known = self._dispatchers.get(key, False)
        if known is False:
            implementations = self._in_subclasses(cls, name, receivers)
            known = self._dispatchers[key] = self._calling(
                call.target, implementations[0].place, [(function, True) for function in implementations], implementations[0],
                like=call,  # what ``self.post_save(obj, created=False)`` passes decides their paths
            ) if implementations else None
        return known  # type: ignore[return-value]

    def _mixin_calls_self(self, target: str, near: str) -> bool:
        """Whether a call so named is of a method of a project class its own module calls on
        ``self`` (elsewhere ``Mixin.name`` is a ``super()`` call's)."""
        cls, name = split_last(target)
        module = self.class_module(cls) if cls and not name.startswith("__") else None
        return module is not None and module.path == near

    def mixed_in_method(self, call: Call, near: str) -> Optional[FunctionSummary]:
        """The method a mixin's ``self._post(...)`` runs when the one class mixing it in that
        has such a method defines it (``APIClient._post`` for ``ImageApiMixin``)."""
        found = self._in_subclasses(*split_last(call.target)) if self._mixin_calls_self(call.target, near) else []
        return found[0] if len(found) == 1 else None

    def class_method(self, cls: str, name: str) -> Optional[FunctionSummary]:
        module = self.class_module(cls)
        return module.functions.get(f"{cls}.{name}") if module is not None else None

    # --- objects ---------------------------------------------------------------------------

    def instances(self, receiver: str, near: str = "") -> List[Held]:
        """The objects a call's receiver may be (``lint/value_flow.py``); a function there is
        what it returns and a class an instance of it (``pkg.make.get`` calls ``get`` on what
        ``make()`` made, ``pkg.Api.get`` on an ``Api()``: the files name them so)."""
        found: List[Held] = []
        for held in self.values.of(receiver, near):
            if held.kind == "function" and held.function is not None:
                found.extend(self._made_by_function(held.function))
            elif held.kind == "class":
                found.append(Held("instance", held.name))
            elif held.kind == "instance" or (held.kind == "object" and held.name in DYNAMIC_OBJECTS):
                found.append(held)
            elif held.kind == "object" and returned_type(held.name) != held.name:
                # a library factory another module imports (``compat.build_opener``): what it makes
                found.append(Held("instance", returned_type(held.name)))
        return found

    def _made_by_function(self, function: FunctionSummary, depth: int = 0) -> List[Held]:
        """The objects a function returns; through a property that returns another object's
        property (``Resource.session`` returning ``self.client.session``), what that one does."""
        found: List[Held] = []
        for held in self.values.results(function):
            if held.kind == "instance":
                found.append(held)
            elif held.kind == "function" and held.function is not None and depth < 3:
                found.extend(self._made_by_function(held.function, depth + 1))
        return found

    def object_methods(self, target: str, near: str = "") -> List[Tuple[str, bool]]:
        """The library methods ``target`` may call on an object only the project can tell
        (``pkg.make.get``: ``requests.Session.get``), each with whether the object fills in a
        timeout itself (a ``Session`` subclass, a mounted adapter)."""
        on_a_request = split_last(split_last(target)[0])[0] in FRAMEWORK_REQUESTS  # ``request.http.get``
        if not (self.is_project_name(target) or on_a_request) or self.resolve(target, near) is not None:
            return []
        found: List[Tuple[str, bool]] = [  # ``get_bounded = partial(session.get, timeout=5)``
            (canonical_name(held.name), "timeout" in held.keywords or "**" in held.keywords)
            for held in self.values.of(target, near) if held.kind == "partial"
        ]
        if split_last(target)[1] == CALLED:  # ``request = get_request_function(); request(...)``
            found.extend((canonical_name(held.name), False) for held in self.values.of(target, near) if held.kind == "object")
        for name in self.library_names(target, near):
            # A method of an instance of a class imported so (``Session().get``): whether
            # adapters mounted on it fill in a timeout, its own file could not tell.
            found.append((canonical_name(name), split_last(split_last(name)[0])[1][:1].isupper()))
        base, attribute = split_last(target)
        if not base or base in self._modules:
            return found
        if split_last(base)[1].startswith("("):
            # a parameter that holds a library module (``http_service=requests``): its function
            found.extend(
                (canonical_name(f"{held.name}.{attribute}"), False) for held in self.values.of(base, near)
                if held.kind == "object" and not self.is_project_name(held.name) and held.name in self._libraries
            )
        for held in self.instances(base, near):
            facts = held.facts
            sets_timeout = facts is not None and facts.sets_timeout
            cls = held.name
            if cls in self._classes:
                sets_timeout = sets_timeout or self._sets_timeout(cls)
                cls = self.values.library_base(cls) or cls
            found.append((canonical_name(f"{cls}.{attribute}"), sets_timeout))
        if base in self._classes:
            found.extend(self._mixed_in_library(base, attribute, near))
        # a part of a library client (``llm().chat.completions.create`` on an ``OpenAI``)
        path = attribute
        for _ in range(_MAX_CLIENT_PARTS - 1):
            if found:
                break
            base, part = split_last(base)
            if not base or base in self._modules:
                break
            path = f"{part}.{path}"
            found.extend(
                (canonical_name(f"{held.name}.{path}"), False) for held in self.instances(base, near)
                if held.name not in self._classes
            )
        return found

    def _mixed_in_library(self, cls: str, attribute: str, near: str) -> List[Tuple[str, bool]]:
        """For a method a mixin calls on ``self`` that no project class defines (``self.post(...)``
        in ``ContainerApiMixin``, so named only by the mixin's own file), the library methods of
        that name the classes mixing it in take from a library base (``class
        APIClient(requests.Session, ContainerApiMixin)``), with whether they fill in a timeout."""
        if not self._mixin_calls_self(f"{cls}.{attribute}", near):
            return []
        return [
            (canonical_name(f"{library}.{attribute}"), self._sets_timeout(sub))
            for sub in self.values.subclasses(cls)
            if self.resolve(f"{sub}.{attribute}", near) is None
            for library in (self.values.library_base(sub),) if library is not None
        ]

    def uses_of(
        self, module: ModuleSummary, key: str,
    ) -> Iterator[Tuple[FunctionSummary, Call, Optional[Tuple[str, ...]]]]:
        """Every call of the project the values show is made through the object ``module``
        makes at ``key`` (a module global, an attribute, what a factory returns, a parameter
        given it), with the attributes the call takes from it (``("put_object",)``,
        ``("meta", "client", "upload_file")``); and the calls it is passed to that are no
        project function (a library's, which may use it in any way), with None. Calls its own
        file resolved to the library are not among them: that file told what they are. A
        project function it is passed to is followed through its parameter.

        Only calls that name something that may hold the object, or pass it, are asked of the
        values (the value flow of every call of a large project costs seconds), and they are
        found through indexes, not by reading every call once per object."""
        qualified, names = self._holder_names(module, key)
        holders = self._holders()
        candidates: Dict[int, Tuple[FunctionSummary, Call]] = {}
        for name in names:
            candidates.update((order, (function, call)) for order, function, call in holders.calls_naming.get(name, ()))
        for mentioned in (*qualified, (module.path, key)):
            candidates.update(holders.calls_passing.get(mentioned, ()))
        for order in sorted(candidates):
            function, call = candidates[order]
            near = function.place.path
            parts = call.target.split(".")
            if not names.isdisjoint(parts):
                for end in range(len(parts) - 1, 0, -1):
                    base = ".".join(parts[:end])
                    if self.is_project_name(base) and self._holds(base, near, module, key):
                        yield function, call, tuple(parts[end:])
                        break
            if call.passed and any(_mentions(ref, qualified, module is self.module_of(function), key) for _, ref in call.passed):
                caller = self.module_of(function)
                if self.callee(call, near) is None and any(
                    self._is(held, module, key) for _, ref in call.passed for held in self.values.ref(ref, caller)
                ):
                    yield function, call, None

    def calls_naming(self, part: str) -> List[Tuple[FunctionSummary, Call]]:
        """The project's calls whose target has ``part`` among its dotted parts, in order."""
        return [(function, call) for _, function, call in self._holders().calls_naming.get(part, ())]

    def returned_by(self, module: ModuleSummary, key: str) -> List[FunctionSummary]:
        """The project functions that may return the object ``module`` makes at ``key``."""
        qualified, _ = self._holder_names(module, key)
        return [function for name in sorted(qualified) for function in self._by_name.get(name, ())]

    def _holder_names(self, module: ModuleSummary, key: str) -> Tuple[Set[str], Set[str]]:
        """The names that may hold the object ``module`` makes at ``key`` (module globals and
        attributes whose values mention it, functions that return it, the parameters of project
        functions it is passed to, and so on through every name that mentions one of those),
        and the last parts of those names, as call targets spell them: a superset, the value
        flow decides."""
        memo = (module.path, key)
        known = self._holder_memo.get(memo)
        if known is not None:
            return known
        holders = self._holders()
        qualified: Set[str] = set()
        todo: List[Mentioned] = [(module.path, key)]
        while todo:
            mentioned = todo.pop()
            found = list(holders.names.get(mentioned, ()))
            for function, call in holders.calls_passing.get(mentioned, {}).values():
                callee = self.resolve(call.target, function.place.path)
                if callee is not None:
                    found.extend(f"{callee.name}.({parameter})" for parameter in callee.parameters)
            for name in found:
                if name not in qualified:
                    qualified.add(name)
                    todo.append(name)
        known = self._holder_memo[memo] = (qualified, {name.rsplit(".", 1)[-1] for name in qualified})
        return known

    def _holders(self) -> "_Holders":
        if self._holder_index is None:
            self._holder_index = _Holders(self)
        return self._holder_index

    def _holds(self, name: str, near: str, module: ModuleSummary, key: str) -> bool:
        return any(self._is(held, module, key) for held in self.instances(name, near))

    @staticmethod
    def _is(held: Held, module: ModuleSummary, key: str) -> bool:
        return held.key == key and held.where == module.path

    def _sets_timeout(self, cls: str) -> bool:
        module = self._classes.get(cls)
        if module is None:
            return False
        return cls in module.timeout_classes or any(
            self._classes.get(adapter) is None
            or any(base in self._classes and base in self._classes[base].timeout_classes for base in self.values.lineage(adapter))
            or self._library_adapter_may_time(adapter)
            for adapter in module.timeout_adapters.get(cls, ())
        )

    def _library_adapter_may_time(self, adapter: str) -> bool:
        """Whether the library class a project adapter class extends may fill in a timeout
        (one the project pass cannot read; requests' own adapters do not)."""
        base = self.values.library_base(adapter)
        return base is not None and canonical_name(base) not in ADAPTERS_WITHOUT_TIMEOUT

    def object_layer(self, target: str, near: str = "") -> Optional["LayerRef"]:
        """The retry layer of the client a call goes to, whatever module made the client and
        however it got here (a module object, a factory's result, an attribute set in a base
        class, a parameter); also through a part of such a client whose facts say its parts
        share its retries (``client.chat.completions.create``)."""
        base, _ = split_last(target)
        part = False
        for _ in range(_MAX_CLIENT_PARTS):
            if not base:
                return None
            for held in self.instances(base, near):
                facts, module = held.facts, held.module
                if facts is None and held.kind == "instance":
                    # an instance of a project client class, configured where the class is
                    module = self.class_module(held.name)
                    facts = module.objects.get(f"{CLASS_INSTANCES}{self.class_named(held.name)}") if module is not None else None
                if facts is None or facts.layer is None or module is None or (part and not facts.namespaced):
                    continue
                top = module.functions.get(f"{module.module}.{MODULE_CODE}")
                if top is not None and facts.layer < len(top.layers):
                    return LayerRef(top, facts.layer)
            base, _ = split_last(base)
            part = True
        return None

    def parameter_layer(
        self, target: str, owner: FunctionSummary, entered: Tuple[Tuple[FunctionSummary, Call], ...],
    ) -> Tuple[bool, Optional["LayerRef"]]:
        """For a request on ``owner``'s own parameter (``session.request(...)`` in ``def
        send(method, url, session=None)``) that the walk ``entered`` through a call: whether
        that call decides the client, and its layer. A call that passes nothing there leaves
        the parameter's default, which the file judged with ``owner``'s own fallback
        (``session = session or delivery_session``); one that passes objects, theirs."""
        if not entered:
            return False, None
        base, _ = split_last(target)
        part = False  # a part of what the parameter holds (``conn.Instance(i).create_tags``)
        for _ in range(_MAX_CLIENT_PARTS):
            holder, parameter = split_last(base)
            if holder == owner.name or not holder:
                break
            base, part = holder, True
        if holder != owner.name or not parameter.startswith("(") or parameter.startswith("(*"):
            return False, None
        caller, into = entered[-1]
        offset = self.values.offset(into, owner, caller.place.path) or 0
        name = parameter[1:-1]
        if omits(into, owner, name, offset):
            # (unless a decorator may fill it in: ``kwargs["client"] = ...`` in its wrapper)
            return (False, None) if owner.decorators else (True, None)
        held = self.values.argument(Caller(caller, into, offset), owner, name)
        if part and not all(h.facts is not None and h.facts.namespaced for h in held):
            return False, None  # only a client's parts send through it
        return _held_layer(held)

    def _passed_clients(self, parameter: str, owner: FunctionSummary) -> Optional[List[Optional["LayerRef"]]]:
        """For a request on ``owner``'s own parameter that its file judged by the parameter's
        annotation (``def make_call(client: WebClient, ...)``), the retry layers of the clients
        every call of ``owner`` passes there (None in the list: one that does not retry); None
        when a call passes none, or what it passes is not known."""
        callers = self.values.callers(owner)
        if not callers:
            return None
        found: List[Optional[LayerRef]] = []
        for caller in callers:
            if omits(caller.call, owner, parameter, caller.offset):
                return None
            known, layer = _held_layer(self.values.argument(caller, owner, parameter))
            if not known:
                return None
            found.append(layer)
        return found

    # --- retry layers ------------------------------------------------------------------------

    def layers_reached(
        self, function: FunctionSummary, calls: Iterable[Call], after: Optional[int] = None,
        entry: Tuple[Tuple[FunctionSummary, Call], ...] = (),
    ) -> List[Reached]:
        """The first retry layers each of ``calls`` (made by ``function``) runs into: a loop layer
        inside ``after`` (or any loop layer when ``after`` is None), the client layer of the call
        itself, or, in the functions it calls at any depth, their first layers. A call that the
        arguments on the way rule out (``call_conditions.py``) runs into nothing. ``entry``:
        the calls that led into ``function``, whose arguments say what its parameters hold
        (the function a helper that retries what it is handed runs); the paths returned start
        after them."""
        found: Dict[Tuple[Tuple[str, int], Optional[Layer]], Reached] = {}
        queue: Deque[Tuple[FunctionSummary, Call, Tuple[Tuple[FunctionSummary, Call], ...], Optional[int], Optional[Made], Context]] = deque(
            (function, call, entry, after, None, {}) for call in calls
        )
        visited: _Visited = {(function.name, frozenset())}
        contexts: Dict[str, int] = {}
        conditions = self.conditions
        while queue:
            owner, call, path, outer, made, context = queue.popleft()
            inner = _next_loop(call, outer)
            while inner is not None and (
                inner in call.escapes or (path and not self.guard_holds(owner.layers[inner], owner, *path[-1]))
            ):
                # ``retry=False``: that loop makes one attempt; a call outside the ``try`` a loop
                # retries fails out of it at once
                inner = _next_loop(call, inner)
            path = path + ((owner, call),)
            if inner is not None:
                _keep(found, Reached(LayerRef(owner, inner, self.as_called(owner.layers[inner], owner, path[:-1]) if len(path) > 1 else None), path))
                continue
            if call.retrying is not None and not owner.layers[call.retrying].pending:
                passed = self._passed_clients(call.on_parameter, owner) if len(path) == 1 and call.on_parameter else None
                for layer in passed if passed is not None else [LayerRef(owner, call.retrying)]:
                    if layer is not None:
                        _keep(found, Reached(layer, path))
                continue
            if call.sends:
                known, client = self.made_layer(call.target, made)
                if not known:
                    known, client = self.parameter_layer(call.target, owner, path[:-1])
                if not known:
                    client = self.object_layer(call.target, owner.place.path)
                if client is not None:
                    _keep(found, Reached(client, path))
                    continue
                if known:
                    continue  # that object's attribute is a client that does not retry
            for callee in self.callees(call, owner, path[:-1]):
                if callee is function:
                    # back into the function the walk started in (``authed_get`` calling itself,
                    # or ``request`` -> ``get_base_url`` -> ``request``): a retry decorator of its
                    # own runs again inside its attempt
                    again = [
                        i for i, layer in enumerate(callee.layers)
                        if layer.whole_function and layer.library not in ("celery", "recursion", "loop")
                    ]  # (a retry by recursion re-entering is that retry itself, no second one)
                    if again:
                        _keep(found, Reached(LayerRef(callee, again[0]), path))
                    continue
                entered = _first_entry(visited, contexts, callee.name, conditions.enter(owner, call, callee, context))
                if entered is None:
                    continue
                # A celery task called as a plain function runs in its caller (``request.called_directly``):
                # its ``autoretry_for`` and ``self.retry()`` re-raise instead of retrying.
                decorators = [i for i, layer in enumerate(callee.layers) if layer.whole_function and layer.library != "celery"]
                if decorators:
                    _keep(found, Reached(LayerRef(callee, decorators[0]), path))
                    continue
                receiver = self.made_by(owner, call) or (made if made is not None and split_last(call.target)[0] in self.values.lineage(made.cls) else None)
                queue.extend((callee, inner_call, path, None, receiver, entered) for inner_call in conditions.running(callee, entered))
        return [Reached(reached.layer, reached.path[len(entry):]) for reached in found.values()] if entry else list(found.values())

    def callees(
        self, call: Call, owner: FunctionSummary, entered: Tuple[Tuple[FunctionSummary, Call], ...] = (),
    ) -> List[FunctionSummary]:
        """The project functions a call ``owner`` makes may run: ``callee``'s; for a call of
        ``owner``'s own parameter (``fn(*args)`` in ``def call_with_retries(fn, *args)``), the
        function the call that ``entered`` it passes, or, where the walk starts in ``owner``,
        every function its callers pass."""
        near = owner.place.path
        holder = _parameter_holder(call.target, owner)
        if holder is not None:
            # the parameter of ``owner``, or of the function ``owner`` is nested in (a closure):
            # the call on the way in that ran that function says what it holds
            function = owner if holder == owner.name else self.resolve(holder, near)
            for index in range(len(entered) - 1, -1, -1) if function is not None else ():
                caller, into = entered[index]
                offset = self.values.offset(into, function, caller.place.path)  # type: ignore[arg-type]
                if offset is not None or (function is owner and index == len(entered) - 1):
                    held = self.values.argument(Caller(caller, into, offset or 0), function, split_last(call.target)[1][1:-1])  # type: ignore[arg-type]
                    return [h.function for h in held if h.kind == "function" and h.function is not None]
            return [self.overrides(f, call) or f for f, _ in self.values.callees(call, near)]
        callee = self.callee(call, near)
        return [callee] if callee is not None else []

    def guard_holds(self, layer: Layer, function: FunctionSummary, caller: FunctionSummary, call: Call) -> bool:
        """Whether ``call`` (made by ``caller``) runs ``function``'s loop ``layer`` as a retry: a
        loop that runs only when a parameter says so (``send(..., retry=True)``) does when the
        call passes that value."""
        if not layer.guard:
            return True
        wanted = not layer.guard.startswith("!")
        parameter = layer.guard.lstrip("!")
        offset = self.values.offset(call, function, caller.place.path) or 0
        held = self.values.argument(Caller(caller, call, offset), function, parameter)
        return any(h.kind == "bool" and (h.name == "True") == wanted for h in held)

    def as_called(self, layer: Layer, function: FunctionSummary, path: Tuple[Tuple[FunctionSummary, Call], ...]) -> Optional[Layer]:
        """``function``'s loop ``layer`` as the calls of ``path`` that lead into it run it, when
        what they pass decides some of its facts (``request(url, fatal=None)`` hands every 4xx
        back at once); None when they decide none."""
        changes: Dict[str, object] = {}
        counted = layer.count_from[len(function.name) + 2:-1] if layer.count_from.startswith(f"{function.name}.(") else None
        if counted is not None and not layer.calls:
            # ``for _ in range(startup_period)``: as many as the calls on the way pass it
            counts = {int(v) for k, v in self.conditions.passed(path, function, counted) or () if k == "int"}
            if len(counts) == 1:
                attempts = counts.pop() + layer.count_offset
                changes["calls"] = attempts
                changes["description"] = layer.description.replace("(attempts unknown)", f"{attempts} attempts")
        for parameter, values, fact, value in layer.decided_by:
            held = self.conditions.passed(path, function, parameter)
            if held and held <= {(ref[0], str(ref[1]) if len(ref) > 1 else "") for ref in values}:
                changes[fact] = value
        return replace(layer, **changes) if changes else None  # type: ignore[arg-type]

    # --- one object's attributes ------------------------------------------------------------

    def made_by(self, owner: FunctionSummary, call: Call) -> Optional["Made"]:
        """The project object a method call is made on: by the call that made it when ``owner``
        shows it (``ErpClient(session=s).stock()``), else by its class when every value the
        receiver may hold is an instance of one project class (``client = Booking()`` in
        another module), standing for every construction of that class."""
        base, _ = split_last(call.target)
        made = made_at(owner, call)
        if made is not None:
            if base == made.target:
                cls = next((h.name for h in self.values.of(made.target, owner.place.path) if h.kind == "class"), None)
                return Made(cls, owner, made) if cls is not None else None
        if not base or not self.is_project_name(base) or base in self._modules:
            return None
        held = self.values.of(base, owner.place.path)
        # ``booking.cancel()`` that the file resolved to ``Booking.cancel``: a class named
        # through an object; not ``self._call()`` in a method, whose object may be a subclass's
        if call.bound and len(held) == 1 and held[0].kind == "class" and held[0].name not in self.values.lineage(split_last(owner.name)[0]):
            held = (Held("instance", held[0].name),)
        classes = {h.name for h in held if h.kind == "instance"}
        if len(classes) != 1 or len(held) != sum(h.kind == "instance" for h in held):
            return None
        cls = classes.pop()
        return Made(cls, None, None) if self.class_module(cls) is not None else None

    def made_layer(self, target: str, made: Optional["Made"]) -> Tuple[bool, Optional[LayerRef]]:
        """For a call on an attribute of the object ``made`` (``self.session.get``, also in a
        method its class inherits): whether the constructions of the object decide what the
        attribute holds, and the retry layer of that client. An attribute set from a
        constructor parameter, or from a parameter with a fallback (``session or make()``),
        holds what the object's construction passed there (through ``super().__init__(...)``
        when a subclass's constructor runs first), when it passed objects."""
        if made is None:
            return False, None
        base, _ = split_last(target)
        cls, attribute = split_last(base)
        lineage = self.values.lineage(made.cls)
        source = self.values.attribute_source(lineage, attribute) if cls in lineage else None
        if source is None or source[2][0] not in ("or", "ref"):
            return False, None
        holder, module, ref = source
        owner, parameter = split_last(ref[1])
        init = self.resolve(f"{holder}.__init__", module.path)
        if init is None or owner != init.name or not parameter.startswith("("):
            return False, None
        held: List[Held] = []
        for caller in self._constructions(made, init):
            passed = self.values.argument(caller, init, parameter[1:-1])
            if ref[0] == "or" and not passed and omits(caller.call, init, parameter[1:-1], caller.offset):
                passed = [h for fallback in ref[2] for h in self.values.ref(fallback, module)]
            if not passed:
                return False, None
            held.extend(passed)
        return _held_layer(held)

    def _constructions(self, made: "Made", init: FunctionSummary) -> List[Caller]:
        """The calls that run ``init`` for the object ``made``: the constructor call itself (or
        every call constructing its class), or the ``super().__init__(...)`` of the constructor
        it runs first, and so on; none when the chain cannot be read."""
        first = next((h.function for h in self.values.class_attribute(made.cls, "__init__") if h.kind == "function"), None)
        chain = self.values.super_chain(first, init.name, self.values.lineage(made.cls)) if first is not None else None
        if chain is None:
            return []
        if chain:
            return [chain[-1][0]]
        if made.call is not None and made.function is not None:
            return [Caller(made.function, made.call, 1)]
        return [
            caller for caller in self.values.callers(init)
            if any(h.kind == "class" and h.name == made.cls for h in self.values.of(caller.call.target, caller.function.place.path))
        ]

    def reachable(
        self, function: FunctionSummary, follow: Optional[Callable[[Call, FunctionSummary], bool]] = None,
        entry: Optional[Tuple[FunctionSummary, Call]] = None, origin: Optional[str] = None,
    ) -> Iterator[Tuple[FunctionSummary, Tuple[Call, ...], Sequence[Call]]]:
        """``function`` and every project function it calls at any depth, nearest first, with
        the calls that lead from ``function`` to it and those of its calls that may run there;
        ``follow(call, callee)`` may refuse a step (a call that only hands work over).
        ``entry``: the caller and call that run ``function``, whose arguments may rule some of
        its calls out (``call_conditions.py``); so may the calls on the way to a function: each
        is yielded once per such context (a few at most), else once. ``origin``: the class whose
        method the walk starts in (by default, the entry's or the function's), which a mixin's
        hooks are dispatched for (``_mixed_in``)."""
        start = self.conditions.enter(entry[0], entry[1], function, {}) if entry is not None else {}
        if origin is None:
            origin = split_last((entry[0] if entry is not None else function).name)[0]
        queue: Deque[Tuple[FunctionSummary, Tuple[Call, ...], Context, Optional[Tuple[FunctionSummary, Call]]]] = deque(
            [(function, (), start, entry)],
        )
        visited: _Visited = {(function.name, _frozen(start))}
        contexts: Dict[str, int] = {}
        conditions = self.conditions
        while queue:
            current, path, context, entered = queue.popleft()
            running = conditions.running(current, context)
            yield current, path, running
            for call in running:
                callee = self._handed(call, current, entered) or self.callee(call, current.place.path, origin)
                if callee is None or (follow is not None and not follow(call, callee)):
                    continue
                inner = _first_entry(visited, contexts, callee.name, conditions.enter(current, call, callee, context))
                if inner is not None:
                    queue.append((callee, path + (call,), inner, (current, call)))

    def calls_handed(self, function: FunctionSummary) -> bool:
        """Whether ``function`` calls one of its own parameters (a function its caller hands it),
        or, when it is nested in a function, one of that function's."""
        return any(_parameter_holder(call.target, function) is not None for call in function.calls)

    def _handed(
        self, call: Call, function: FunctionSummary, entered: Optional[Tuple[FunctionSummary, Call]],
    ) -> Optional[FunctionSummary]:
        """The one project function (or lambda) that the call which ran ``function`` handed it
        as the parameter ``call`` calls (``retry(lambda: self.session.post(...))`` into ``f()``):
        on that path, ``f`` is that function, not any that other callers pass."""
        base, last = split_last(call.target)
        if entered is None or base != function.name or not last.startswith("("):
            return None
        caller, through = entered
        offsets = [offset for callee, offset in self.values.callees(through, caller.place.path) if callee is function]
        if len(offsets) != 1:
            return None
        held = self.values.argument(Caller(caller, through, offsets[0]), function, last[1:-1])
        return held[0].function if len(held) == 1 and held[0].kind == "function" else None

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


def class_ancestry(name: str, bases: Callable[[str], Optional[List[str]]]) -> Optional[Set[str]]:
    """``name`` and every class it derives from, at any depth, as ``bases`` reads each class
    (None: not known); None when one other than a builtin is not known."""
    found = {name}
    pending = [name]
    while pending:
        cls = pending.pop()
        if cls.startswith("builtins."):
            continue
        written = bases(cls)
        if written is None:
            return None
        for base in written:
            if base not in found:
                found.add(base)
                pending.append(base)
    return found


@dataclass(frozen=True)
class Made:
    """A project object by the call that made it: ``call`` of class ``cls``, in ``function``;
    without them, any object of the class."""

    cls: str
    function: Optional[FunctionSummary]
    call: Optional[Call]


def _mentions(ref: Tuple[object, ...], names: Set[str], here: bool, key: str) -> bool:
    """Whether a summary value may be the object made at ``key`` (``here``: in the module of the
    value) or what one of ``names`` holds or returns."""
    kind = ref[0]
    if kind == "new":
        return (here and ref[2] == key) or ref[1] in names
    if kind in ("ref", "partial"):
        return ref[1] in names
    if kind == "dict":
        return any(_mentions(entry, names, here, key) for _, entry in ref[1])  # type: ignore[union-attr]
    if kind == "or":
        return ref[1] in names or any(_mentions(entry, names, here, key) for entry in ref[2])  # type: ignore[union-attr]
    return False


Mentioned = object  # a name (``str``), or an object made, as (its module's path, its key)


class _Holders:
    """What each summary value mentions, inverted: for a name, or an object made (its module's
    path and key), the names whose values or returns mention it, and the calls that pass it;
    and every call by each part of its target's name. Built once per graph, so that finding
    what may hold an object reads only what mentions it (``_mentions`` decides the same)."""

    def __init__(self, graph: "ProjectGraph") -> None:
        self.names: Dict[Mentioned, List[str]] = {}
        self.calls_passing: Dict[Mentioned, Dict[int, Tuple[FunctionSummary, Call]]] = {}
        self.calls_naming: Dict[str, List[Tuple[int, FunctionSummary, Call]]] = {}
        order = 0
        for summary in graph.summaries:
            path = summary.path
            for name, refs in summary.values.items():
                for mentioned in _mentioned_by(refs, path):
                    self.names.setdefault(mentioned, []).append(name)
            for function in summary.functions.values():
                if function.returns:
                    for mentioned in _mentioned_by(function.returns, path):
                        self.names.setdefault(mentioned, []).append(function.name)
        naming = self.calls_naming
        for function in graph.functions:
            path = ""
            for call in function.calls:
                order += 1
                each = (order, function, call)
                for part in frozenset(call.target.split(".")):
                    bucket = naming.get(part)
                    if bucket is None:
                        naming[part] = [each]
                    else:
                        bucket.append(each)
                if call.passed:
                    path = path or graph.module_of(function).path
                    for mentioned in _mentioned_by([ref for _, ref in call.passed], path):
                        self.calls_passing.setdefault(mentioned, {})[order] = (function, call)


def _mentioned_by(refs: Iterable[Tuple[object, ...]], path: str) -> Set[Mentioned]:
    """What summary values of the module at ``path`` mention, in ``_mentions``'s terms."""
    found: Set[Mentioned] = set()
    todo = list(refs)
    while todo:
        ref = todo.pop()
        kind = ref[0]
        if kind == "new":
            found.add(ref[1])
            found.add((path, ref[2]))
        elif kind in ("ref", "partial"):
            found.add(ref[1])
        elif kind == "dict":
            todo.extend(entry for _, entry in ref[1])  # type: ignore[union-attr]
        elif kind == "or":
            found.add(ref[1])
            todo.extend(ref[2])  # type: ignore[arg-type]
    return found


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


def _keep(found: Dict[Tuple[Tuple[str, int], Optional[Layer]], Reached], reached: Reached) -> None:
    found.setdefault((reached.layer.key, reached.layer.told), reached)


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
        self._tests: Dict[str, bool] = {}  # whether each file is test code (``in_test_code``)
        self._lines: Dict[str, List[str]] = {}  # the lines of each file a finding is reported in
        self.suppressed: Set[Tuple[str, int, str]] = set()  # (path, comment line, code) that served
        self.failures: List[Tuple["ProjectRule", str]] = []  # a rule that crashed, and the error
        # A module the project reaches under two names (a directory without ``__init__.py``
        # imported from beside it and from above) yields the same finding on each path.
        self._reported: Set[Tuple[str, str, int, int, str]] = set()
        # The file findings (code, and the span they lie in) that what only the project shows
        # takes back: a call a test double of another module answers (``withdraw``).
        self.withdrawn: Set[Tuple[str, Place]] = set()

    def reports_in(self, path: str) -> bool:
        """Whether a finding in the file ``path`` is reported: a rule may skip judging what
        is written elsewhere (an editor asks for its open documents only)."""
        return self._reported_paths is None or path in self._reported_paths

    def in_test_code(self, path: str) -> bool:
        """Whether the file ``path`` is test code (the ``test-code`` setting), asked once per file
        for every project rule."""
        known = self._tests.get(path)
        if known is None:
            known = self._tests[path] = is_test_code(path, self.settings)
        return known

    def derived(self, key: object, compute: "Callable[[], T]") -> "T":
        """A fact several project rules derive from the graph, computed once."""
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]  # type: ignore[return-value]

    def report(self, place: Place, message: str, related: Sequence[Tuple[Place, str]] = ()) -> None:
        """A finding with no fix: the codemods rewrite what a file's own analysis sees, and what
        only the project pass sees (a client, a delay or a POST behind a call into another
        module) is fixed by hand."""
        rule = self._rule
        assert rule is not None, "report() is only valid while a rule runs"
        if not self.reports_in(place.path):
            return
        summary = self._by_path.get(place.path)
        line = summary.suppressing_line(rule.code, place) if summary is not None else None
        if line is not None:
            self.suppressed.add((place.path, line, rule.code))
            return
        key = (rule.code, place.path, place.line, place.column, message)
        if key in self._reported:
            return
        self._reported.add(key)
        self.findings.append(
            Finding(
                rule.code, rule.name, message, place.path, place.line, place.column, place.end_line,
                place.end_column, rule.severity,
                related=tuple(Related(p.path, p.line, p.column, text) for p, text in related),
                line_text=self._line_text(place),
            )
        )

    def withdraw(self, place: Place) -> None:
        """The finding of the running rule that a file's own analysis made within ``place`` is
        not reported: what only the project shows answers it (a ``conftest.py`` fixture that
        keeps a test double on for the test that makes the call)."""
        rule = self._rule
        assert rule is not None, "withdraw() is only valid while a rule runs"
        self.withdrawn.add((rule.code, place))

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
        """Runs ``rule``; a bug in it is kept as its failure, and the other rules still run."""
        self._rule = rule
        try:
            rule.check_project(self)
        except Exception as exc:  # noqa: BLE001 - any bug, reported rather than fatal
            self.failures.append((rule, "".join(traceback.format_exception_only(type(exc), exc)).strip()))
        finally:
            self._rule = None


def _held_layer(held: Sequence[Held]) -> Tuple[bool, Optional[LayerRef]]:
    """Whether ``held`` (what an attribute or a parameter holds) tells the client, when every
    value is an object, and the retry layer of the first that retries by itself."""
    if not held or any(h.kind != "instance" for h in held):
        return False, None
    for each in held:
        facts = each.facts
        if facts is not None and facts.layer is not None and each.module is not None:
            top = each.module.functions.get(f"{each.module.module}.{MODULE_CODE}")
            if top is not None and facts.layer < len(top.layers):
                return True, LayerRef(top, facts.layer)
    return True, None


def _joined_writes(summaries: List[ModuleSummary]) -> List[ModuleSummary]:
    """The summaries with each module's values joined with what other modules set its names
    to (``config.TIMEOUT = 30`` after ``from app import config``): copies, where they change.
    A name whose module keeps no value for it stays unknown."""
    by_name: Dict[str, ModuleSummary] = {}
    for summary in summaries:
        for name in (summary.module, *summary.aliases):
            by_name.setdefault(name, summary)
    added: Dict[int, Dict[str, List[Ref]]] = {}
    for summary in summaries:
        own = f"{summary.module}."
        for key, refs in summary.values.items():
            if key.startswith(own):
                continue
            end = key.rfind(".")
            while end > 0 and key[:end] not in by_name:
                end = key.rfind(".", 0, end)
            owner = by_name.get(key[:end]) if end > 0 else None
            if owner is None or owner is summary:
                continue
            qualified = f"{owner.module}.{key[end + 1:]}"
            if qualified in owner.values:
                added.setdefault(id(owner), {}).setdefault(qualified, []).extend(refs)
    if not added:
        return summaries
    return [
        replace(summary, values={
            **summary.values, **{key: summary.values[key] + refs for key, refs in added[id(summary)].items()},
        }) if id(summary) in added else summary
        for summary in summaries
    ]


def _with_conftest_doubles(summaries: List[ModuleSummary], plugin_paths: AbstractSet[str] = frozenset()) -> List[ModuleSummary]:
    """The summaries with the tests that get fixtures keeping test doubles on
    (``ModuleSummary.fixtures``) from a ``conftest.py`` above them or from a pytest plugin
    given what those answer, in their calls' ``mocked``: the fixtures each test requests by its
    parameters (or through the fixtures of its file it requests), and the ``autouse`` ones.
    Copies, where they change; a test is a function whose name starts with ``test``, as pytest
    collects them. The plugins: the modules at ``plugin_paths`` (the packaging's ``pytest11``
    entry points) and those a ``conftest.py`` or a plugin names in ``pytest_plugins``."""
    conftests = [(os.path.dirname(s.path), s.fixtures) for s in summaries if s.fixtures and os.path.basename(s.path) == "conftest.py"]
    plugins = [s.fixtures for s in _plugins(summaries, plugin_paths) if s.fixtures]
    if not conftests and not plugins:
        return summaries

    def doubles(summary: ModuleSummary, name: str, function: FunctionSummary) -> Optional[Callable[[Tuple[str, ...]], Tuple[str, ...]]]:
        tables = [fixtures for directory, fixtures in conftests if _below(summary.path, directory)] + plugins
        found = {
            double for table in tables
            for fixture in (AUTOUSE, *_requested_fixtures(summary, function)) for double in table.get(fixture, ())
        } if tables and split_last(name)[1].startswith("test") else set()
        return (lambda mocked: tuple(sorted(set(mocked) | found))) if found else None

    return _with_mocked(summaries, doubles)


def _plugins(summaries: List[ModuleSummary], plugin_paths: AbstractSet[str]) -> List[ModuleSummary]:
    """The modules pytest loads as plugins: those at ``plugin_paths``, and those that a
    ``conftest.py`` or another plugin names in its ``pytest_plugins``."""
    by_module = {s.module: s for s in summaries}
    found = {id(s): s for s in summaries if s.path in plugin_paths}
    pending = [s for s in summaries if s.path in plugin_paths or os.path.basename(s.path) == "conftest.py"]
    while pending:
        for name in pending.pop().pytest_plugins:
            plugin = by_module.get(name)
            if plugin is not None and id(plugin) not in found:
                found[id(plugin)] = plugin
                pending.append(plugin)
    return list(found.values())


def _requested_fixtures(summary: ModuleSummary, test: FunctionSummary) -> Set[str]:
    """The fixtures a test requests that its own file does not define: by its parameters, and
    through the parameters of the fixtures of its file it requests (``dogshell(capsys, dog)``
    asks ``conftest.py`` for ``dog``). A fixture of the file takes the place of one of the
    same name in a ``conftest.py``, as in pytest."""
    own = {
        split_last(function.name)[1]: function for function in summary.functions.values()
        if any(decorator in FIXTURE_DECORATORS for decorator, _ in function.decorators)
    }
    found: Set[str] = set()
    pending, seen = list(test.parameters), set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in own:
            pending.extend(own[name].parameters)
        else:
            found.add(name)
    return found



def _with_project_doubles(summaries: List[ModuleSummary]) -> List[ModuleSummary]:
    """The summaries with the calls made under a project class that keeps a test double on
    (``ModuleSummary.mock_classes``; ``@HttpMocker()``, ``with HttpMocker():``) given what it
    answers in their ``mocked``, for the entries the files left for this pass
    (``PROJECT_DOUBLE``, kept where no such class answers); the class found by its name,
    through the modules that re-export it."""
    doubles = {name: answered for s in summaries for name, answered in s.mock_classes.items()}
    if not doubles:
        return summaries
    modules = {s.module: s for s in summaries}

    def answered(name: str, hops: int = 0) -> Tuple[str, ...]:
        if name in doubles:
            return tuple(doubles[name])
        module, _, last = name.rpartition(".")
        imported = modules[module].imports.get(last) if module in modules else None
        return answered(imported, hops + 1) if imported is not None and hops < 5 else ()

    def resolved(mocked: Tuple[str, ...]) -> Tuple[str, ...]:
        return tuple(sorted({
            library for entry in mocked
            for library in ((answered(entry[len(PROJECT_DOUBLE):]) or (entry,)) if entry.startswith(PROJECT_DOUBLE) else (entry,))
        }))

    def left_here(summary: ModuleSummary, name: str, function: FunctionSummary) -> Optional[Callable[[Tuple[str, ...]], Tuple[str, ...]]]:
        return resolved if any(entry.startswith(PROJECT_DOUBLE) for call in function.calls for entry in call.mocked) else None

    return _with_mocked(summaries, left_here)


def _with_mocked(
    summaries: List[ModuleSummary],
    change: Callable[[ModuleSummary, str, FunctionSummary], Optional[Callable[[Tuple[str, ...]], Tuple[str, ...]]]],
) -> List[ModuleSummary]:
    """The summaries with each function's calls given the ``mocked`` that ``change`` makes of
    theirs, for the functions it returns a change for: copies, where they change."""
    found = []
    for summary in summaries:
        functions: Dict[str, FunctionSummary] = {}
        changed = False
        for name, function in summary.functions.items():
            make = change(summary, name, function)
            if make is not None:
                changed = True
                function = replace(function, calls=[replace(call, mocked=make(call.mocked)) for call in function.calls])
            functions[name] = function
        found.append(replace(summary, functions=functions) if changed else summary)
    return found


def _below(path: str, directory: str) -> bool:
    """Whether the file ``path`` is in ``directory`` or under it, as a ``conftest.py`` there
    sees it ("" the working directory: every file)."""
    return not directory or path.startswith(directory + os.sep)


def _may_complete(summary: ModuleSummary) -> bool:
    """Whether the graph may add to a function of the module (``_apply_imported_decorators``,
    ``_apply_imported_policies``)."""
    return any(_function_may_complete(function) for function in summary.functions.values())


def _function_may_complete(function: FunctionSummary) -> bool:
    return bool(function.decorators) or any(layer.via or layer.applies for layer in function.layers)


def _completed_copy(summary: ModuleSummary) -> ModuleSummary:
    """The module with its own copy of each function the graph may add to; the others are
    shared, since nothing changes them."""
    return replace(summary, functions={
        name: replace(function, layers=list(function.layers), calls=list(function.calls))
        if _function_may_complete(function) else function
        for name, function in summary.functions.items()
    })


def run_project_rules(
    rules: Sequence[ProjectRule], summaries: Iterable[ModuleSummary], settings: "Settings",
    reported_paths: Optional[Set[str]] = None,
) -> ProjectContext:
    """The project rules run over these summaries, for the files in ``reported_paths`` (None:
    every file): the context holds their findings, the suppressions that served and the rules
    that failed."""
    libraries = frozenset(word for rule in rules for word in rule.triggers if word.isidentifier())
    summaries = list(summaries)
    # the packaging's pytest plugins are among the test tooling's scripts (``tooling_scripts``)
    plugins = {s.path for s in summaries if (s.fixtures or s.pytest_plugins) and is_test_script(s.path, settings)}
    ctx = ProjectContext(ProjectGraph(summaries, libraries, plugins), settings, reported_paths)
    for rule in rules:
        ctx.run(rule)
    return ctx


def _parameter_holder(target: str, function: FunctionSummary) -> Optional[str]:
    """The function whose parameter the call ``target`` of ``function`` calls: ``function``
    itself (``pkg.retry.(fn)`` in ``pkg.retry``) or one it is nested in (``pkg.retry.(fn)`` in
    ``pkg.retry.<locals>.attempt``); None for any other call."""
    base, last = split_last(target)
    if not last.startswith("("):
        return None
    return base if base == function.name or function.name.startswith(base + ".<locals>.") else None


_MAX_CONTEXTS = 4  # contexts a walk enters one function in before it stops telling them apart
_Visited = Set[Tuple[str, FrozenSet[Tuple[str, FrozenSet[Tuple[str, str]]]]]]  # (function, context) pairs walked


def _frozen(context: Context) -> FrozenSet[Tuple[str, FrozenSet[Tuple[str, str]]]]:
    return frozenset(context.items())


def _first_entry(
    visited: _Visited, contexts: Dict[str, int], name: str,
    entered: Context,
) -> Optional[Context]:
    """The context a walk enters the function ``name`` in, or None when it entered it so
    before (or without any context): a function is walked once per context, a few at most."""
    if entered and contexts.get(name, 0) >= _MAX_CONTEXTS:
        entered = {}
    key = (name, _frozen(entered))
    if key in visited or (name, frozenset()) in visited:
        return None
    visited.add(key)
    if entered:
        contexts[name] = contexts.get(name, 0) + 1
    return entered
