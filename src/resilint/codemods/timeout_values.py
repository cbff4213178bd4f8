"""The value a timeout fix writes: never another literal at the call site.

A fix passes, in this order of preference,

* what the scope already has (RES101/RES102): a ``timeout`` parameter of the enclosing
  function or a ``self.timeout`` attribute its class sets, when the value they hold by default
  is bounded (and within ``max-timeout``); a ``self.timeout``, or the ``timeout`` of an object
  the instance holds (``self._session.timeout``), that the user sets and may leave ``None``,
  followed by a bound (``self._session.timeout or HTTP_TIMEOUT``); else a module constant
  named like a timeout (``TIMEOUT``, ``HTTP_TIMEOUT``, ``DEFAULT_TIMEOUT``: a number, or a
  ``(connect, read)`` pair for requests) — the project's own choice, passed as it is;
* else one module-level constant per value and file, placed after the imports and reused by
  every call with that value (and by later runs: a constant with the same value is found):

  - the *native* target writes what the library itself takes: ``HTTP_TIMEOUT = (3.05, 10)``
    for requests, ``HTTP_TIMEOUT = httpx.Timeout(10, connect=3.05)`` for httpx;
  - the *runtime* target names the seconds (``HTTP_READ_TIMEOUT = 10``,
    ``HTTP_CONNECT_TIMEOUT = 3.05``) and calls ``timeout(read=HTTP_READ_TIMEOUT,
    connect=HTTP_CONNECT_TIMEOUT)`` at the call: the runtime clamps to the deadline left *when
    the call is made*, so its ``timeout()`` cannot itself be a module constant (evaluated
    once, at import, with no deadline).

Names never collide with one the file binds: ``HTTP_TIMEOUT``, else after the enclosing
function (``FETCH_USER_TIMEOUT``), else numbered (``HTTP_TIMEOUT_2``).
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from resilint.codemods.base import ResilintCodemod, Span, docstring_or_strict
from resilint.codemods.import_order import in_imports, split_leading
from resilint.codemods.imports import RUNTIME, bound_names, use_name
from resilint.codemods.timeout_edits import positive_number, runtime_timeout, seconds
from resilint.lint.modules import ModuleFinder, project_roots
from resilint.lint.nodes import is_none
from resilint.lint.semantic import Binding, ClassInfo, FunctionInfo, SemanticModel
from resilint.lint.source import SourceError, read_bytes
from resilint.lint.traversal import iter_nodes

NATIVE = "native"
RUNTIME_TARGET = "runtime"
FIX_TARGETS = (NATIVE, RUNTIME_TARGET)

Number = Union[int, float]
# The seconds a run's constants hold, with what they are written for: (library or "runtime",
# connect, read).
ValueKey = Tuple[object, ...]

_TIMEOUT_NAME = re.compile(r"^_?[A-Z0-9_]*TIMEOUT[A-Z0-9_]*$")
# A constant for one phase only is not a whole timeout: passing it as one would change the other.
_ONE_PHASE = ("CONNECT", "READ", "WRITE", "POOL", "IDLE", "KEEPALIVE", "KEEP_ALIVE", "SOCKET", "LOCK", "TTL")


def fix_target_of(codemod: ResilintCodemod, given: Optional[str]) -> str:
    """The target a timeout codemod writes for: the one it was given, else the run's
    (``ResilintCodemod.fix_target``: the setting, or what the project declares)."""
    chosen = given or codemod.fix_target
    if chosen not in FIX_TARGETS:
        raise ValueError(f"unknown fix target {chosen!r}: expected one of {', '.join(FIX_TARGETS)}")
    return chosen


def positive_pair(node: cst.BaseExpression) -> Optional[Tuple[Number, Number]]:
    """``(connect, read)`` of a literal pair of positive numbers."""
    if isinstance(node, cst.Tuple) and len(node.elements) == 2:
        first, second = (positive_number(element.value) for element in node.elements)
        if first is not None and second is not None:
            return first, second
    return None


class NamedTimeouts:
    """One codemod run's timeout values: the names in scope it reuses and the module constants
    it introduces, written after the imports by one planned edit."""

    def __init__(self, codemod: ResilintCodemod, model: SemanticModel, tree: cst.Module, target: str) -> None:
        self.codemod, self.model, self.tree, self.target = codemod, model, tree, target
        self._constants = _module_constants(tree, model)
        self._introduced: List[Tuple[str, cst.BaseExpression]] = []
        self._users: List[Set[Span]] = []  # for each constant introduced, the targets that use it
        self._by_key: Dict[ValueKey, str] = {}
        self._anchor, self._anchor_first = _anchor(tree)
        self._runtime_function: Optional[str] = None
        self._planned = False
        self._modules: Optional[_ProjectModules] = None  # read once a held object's class is asked for

    # --- what the scope has ---------------------------------------------------------------

    def in_scope(self, call: cst.Call, library: str) -> Optional[Tuple[cst.BaseExpression, bool]]:
        """A timeout the call's scope already holds, and whether it is bounded as it is: a
        ``timeout`` parameter with a bounded default, a ``self.timeout`` attribute, the
        ``timeout`` of an object the instance holds (``self._session.timeout``), a module
        constant named like a timeout. An attribute set from a constructor's parameter without
        a default or with ``None`` is the user's setting, which may be ``None``: the fix writes
        ``it or <a bound>``, keeping what the user set."""
        site = self.model.call_site(call)
        if site is None:
            return None
        function = site.scope.enclosing_function
        found: Optional[Tuple[cst.BaseExpression, bool]] = None
        if function is not None and isinstance(function.node, cst.FunctionDef):
            binding = self.model.lookup("timeout", site.scope, site.order)
            if binding is not None and binding.parameter is not None and binding.parameter.function is function:
                # A parameter the function does not pass on may hold a wait of another kind
                # (the whole loop's budget): only a bounded default says it is a call's timeout.
                if self._default_bound(function, "timeout", library):
                    found = (cst.Name("timeout"), True)
            found = found or self._self_attribute(function, call, library)
        if found is not None and found[1]:
            return found
        constant = self._constant(call, function is None, library)
        if found is None:
            return None if constant is None else (constant, True)
        return found if constant is None else (or_bound(found[0], constant), True)

    def _constant(self, call: cst.Call, at_module: bool, library: str) -> Optional[cst.Name]:
        for name, (value, index) in self._constants.items():
            if not _TIMEOUT_NAME.match(name) or any(part in name for part in _ONE_PHASE):
                continue
            if at_module and not self._defined_before(index, call):
                continue
            if self._bounded(value, library):
                return cst.Name(name)
        return None

    def _bounded(self, value: Optional[cst.BaseExpression], library: str, depth: int = 0) -> bool:
        """Whether ``value`` is a bound the library's ``timeout=`` takes as it is."""
        if value is None or depth > 3:
            return False
        # Above ``max-timeout`` (RES105) is no bound a fix may hand on.
        ceiling = self.codemod.settings.max_timeout
        number = positive_number(value)
        if number is not None:
            return number <= ceiling
        pair = positive_pair(value)
        if pair is not None:
            return library == "requests" and max(pair) <= ceiling  # httpx reads a tuple as four values
        if isinstance(value, cst.Name) and value.value in self._constants:
            return self._bounded(self._constants[value.value][0], library, depth + 1)
        return False

    def _default_bound(self, function: FunctionInfo, parameter: str, library: str) -> Optional[bool]:
        """True: the parameter's default is a bound; False: it has none or ``None`` (the
        caller's setting, which may be ``None``); None: a default of another kind."""
        default = function.default_of(parameter)
        if default is None or is_none(default):
            return False
        return True if self._bounded(default, library) else None

    def _self_attribute(self, function: FunctionInfo, call: cst.Call, library: str) -> Optional[Tuple[cst.BaseExpression, bool]]:
        """``self.timeout`` (or ``self._timeout``) in a method whose class sets it, in every
        place it does, to a bounded value or a parameter's (the user's setting); else the
        ``timeout`` of the one object the instance holds whose class sets one so."""
        cls = function.owner
        node = function.node
        if cls is None or not isinstance(node, cst.FunctionDef) or not node.params.params or node.decorators:
            return None
        first = cst.Name(node.params.params[0].name.value)
        for attribute in ("timeout", "_timeout"):
            bounded = self._attribute_bound(self.model, cls, attribute, library)
            if bounded is not None:
                return cst.Attribute(value=first, attr=cst.Name(attribute)), bounded
        # The object the call already reads from (``proxies=self._session.proxies``) first: the
        # fix then reads it no more than the call does, even where it may be ``None``.
        read = {
            each.value.attr.value for each in iter_nodes(call)
            if isinstance(each, cst.Attribute) and isinstance(each.value, cst.Attribute)
            and isinstance(each.value.value, cst.Name) and each.value.value.value == first.value
        }
        held = [
            name for name in sorted(cls.instance_attributes)
            if self._holds_timeout(cls, name, library, may_be_none=name in read)
        ]
        chosen = [name for name in held if name in read] or held
        if len(chosen) == 1:  # more than one: which object's setting the call shares is a guess
            return cst.Attribute(value=cst.Attribute(value=first, attr=cst.Name(chosen[0])), attr=cst.Name("timeout")), False
        return None

    def _attribute_bound(self, model: SemanticModel, cls: ClassInfo, attribute: str, library: str) -> Optional[bool]:
        """As ``_default_bound``, over every binding of ``self.<attribute>`` in ``cls``."""
        bindings = cls.instance_attributes.get(attribute)
        if not bindings or all(is_none(binding.expr) for binding in bindings):
            return None  # never set to anything but None: no setting of the user's to keep
        verdicts = [self._binding_bound(model, binding, library) for binding in bindings]
        return None if None in verdicts else all(verdicts)

    def _binding_bound(self, model: SemanticModel, binding: Binding, library: str) -> Optional[bool]:
        expr = binding.expr
        if isinstance(expr, cst.Name):
            found = model.lookup(expr.value, binding.scope, binding.order)
            if found is not None and found.parameter is not None and isinstance(found.parameter.function.node, cst.FunctionDef):
                return self._default_bound(found.parameter.function, expr.value, library)
        # a name in another module is not one of this module's constants
        if (model is self.model or not isinstance(expr, cst.Name)) and self._bounded(expr, library):
            return True
        return False if is_none(expr) else None

    def _holds_timeout(self, cls: ClassInfo, attribute: str, library: str, may_be_none: bool) -> bool:
        """Whether every binding of ``self.<attribute>`` makes an instance of one project class
        whose instances carry a ``timeout`` its constructor sets (``ResilientSession(...)``
        with ``self.timeout = timeout``), or, where ``may_be_none``, sets ``None``."""
        made = set()
        for binding in cls.instance_attributes[attribute]:
            if may_be_none and is_none(binding.expr):
                continue
            if not isinstance(binding.expr, cst.Call):
                return False
            made.add(self.model.qualified_name(binding.expr.func, binding.scope, binding.order))
        if len(made) != 1 or None in made:
            return False
        if self._modules is None:
            self._modules = _ProjectModules(project_roots(self.codemod.settings))
        found = _project_class(self.model, made.pop(), self._modules)  # type: ignore[arg-type]
        return found is not None and self._attribute_bound(*found, "timeout", library) is not None

    def _defined_before(self, index: int, call: cst.Call) -> bool:
        statement = _module_statement_index(self.tree, call)
        return statement is not None and index < statement

    # --- constants --------------------------------------------------------------------------

    def value(self, connect: Number, read: Number, library: str, finding: cst.CSTNode, near: cst.Call) -> cst.BaseExpression:
        """What ``timeout=`` gets for these seconds: a constant (native), or the runtime's
        ``timeout()`` of named seconds (runtime); the constants planned for ``finding``."""
        function_name = _function_name(self.model, near)
        if self.target == NATIVE:
            if library == "httpx":
                whole = self._httpx_timeout(connect, read)
            else:
                whole = cst.Tuple([cst.Element(seconds(connect)), cst.Element(seconds(read))])
            stem = self._stem((library, connect, read), [("TIMEOUT", whole)], finding, function_name)
            return cst.Name(_joined(stem, "TIMEOUT"))
        stem = self._stem(
            ("runtime", connect, read), [("READ_TIMEOUT", seconds(read)), ("CONNECT_TIMEOUT", seconds(connect))],
            finding, function_name,
        )
        if self._runtime_function is None:
            self._runtime_function = use_name(self.codemod.context, self.model, RUNTIME, "timeout")
        return runtime_timeout(
            self._runtime_function, library, cst.Name(_joined(stem, "READ_TIMEOUT")), cst.Name(_joined(stem, "CONNECT_TIMEOUT")),
        )

    def _httpx_timeout(self, connect: Number, read: Number) -> cst.BaseExpression:
        spelled = next((name for name, b in self.model.module_scope.bindings.items() if len(b) == 1 and b[0].imported == "httpx"), None)
        func: cst.BaseExpression = (
            cst.Attribute(value=cst.Name(spelled), attr=cst.Name("Timeout")) if spelled is not None
            else cst.Name(use_name(self.codemod.context, self.model, "httpx", "Timeout"))
        )
        connect_arg = cst.Arg(
            keyword=cst.Name("connect"), value=seconds(connect),
            equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
        )
        return cst.Call(func=func, args=[cst.Arg(seconds(read), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), connect_arg])

    def _stem(
        self, key: ValueKey, parts: Sequence[Tuple[str, cst.BaseExpression]], finding: cst.CSTNode, function_name: Optional[str],
    ) -> str:
        """The stem of the constants (``HTTP`` of ``HTTP_TIMEOUT``) holding these parts: ones the
        module has with the same values, else new ones, planned for ``finding``."""
        stem = self._by_key.get(key)
        if stem is None:
            stem = self._existing_stem(parts)
            if stem is None:
                stem = self._new_stem(parts, function_name)
                users: Set[Span] = set()
                self._introduced.extend((_joined(stem, suffix), value) for suffix, value in parts)
                self._users.extend(users for _ in parts)
                self._plan()
            self._by_key[key] = stem
        introduced = [i for i, (name, _) in enumerate(self._introduced) if name == _joined(stem, parts[0][0])]
        if introduced:
            self.codemod.rewriting(finding, self._anchor)  # the constants' edit serves this finding too
            self._users[introduced[0]].update(self.codemod.targets_at(finding))
        return stem

    def _existing_stem(self, parts: Sequence[Tuple[str, cst.BaseExpression]]) -> Optional[str]:
        first = parts[0][0]
        for name in self._constants:
            if name != first and not name.endswith("_" + first):
                continue
            stem = name[: -len(first) - 1] if name != first else ""
            if all(
                _joined(stem, suffix) in self._constants and _same(self._constants[_joined(stem, suffix)][0], value)
                for suffix, value in parts
            ):
                return stem
        return None

    def _new_stem(self, parts: Sequence[Tuple[str, cst.BaseExpression]], function_name: Optional[str]) -> str:
        taken = bound_names(self.model) | {name for name, _ in self._introduced}
        candidates = ["HTTP"] + ([_constant_case(function_name)] if function_name else [])
        number = 2
        while True:
            for stem in candidates:
                if not any(_joined(stem, suffix) in taken for suffix, _ in parts):
                    return stem
            candidates = [f"HTTP_{number}"]
            number += 1

    def _plan(self) -> None:
        if self._planned:
            return  # planned with the first: the edit writes every constant the run introduces
        self._planned = True
        introduced = self._introduced
        anchor_first = self._anchor_first

        def write(updated: cst.CSTNode) -> Union[cst.CSTNode, cst.FlattenSentinel]:
            constants = [
                cst.SimpleStatementLine(
                    body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(name))], value=value)],
                    leading_lines=(cst.EmptyLine(),) if index == 0 and not anchor_first else (),
                )
                for index, (name, value) in enumerate(introduced)
            ]
            statement = updated
            assert isinstance(statement, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
            if anchor_first:
                # No import above: the constants open the module (after its docstring), and
                # the statement that was first keeps its place below them, a blank line apart.
                blank, comments = split_leading(statement.leading_lines)
                constants[0] = constants[0].with_changes(leading_lines=blank)
                below = statement.with_changes(leading_lines=(cst.EmptyLine(),) + comments)
                return cst.FlattenSentinel([*constants, below])
            if not statement.leading_lines:
                statement = statement.with_changes(leading_lines=(cst.EmptyLine(),))  # the constants stand apart
            return cst.FlattenSentinel([*constants, statement])

        self.codemod.plan(self._anchor, write)
        self.codemod.inserted_above[id(self._anchor)] = self._users


def _anchor(tree: cst.Module) -> Tuple[cst.BaseStatement, bool]:
    """The statement the constants go above: the first after the module's imports (docstring,
    ``__future__`` and imports above it); and whether there is no import above it."""
    body = list(tree.body)
    index = 1 if body and docstring_or_strict(body[0]) and len(body) > 1 else 0
    first = index
    while index < len(body) - 1 and in_imports(body[index]):
        index += 1
    if index == len(body) - 1 and in_imports(body[index]):
        index = len(body) - 1  # nothing but imports: the call cannot be in this module's body
    return body[index], index == first and not in_imports(body[index])


def _module_constants(tree: cst.Module, model: SemanticModel) -> Dict[str, Tuple[cst.BaseExpression, int]]:
    """Module-level names assigned once, with a literal number, pair or call: value, statement index."""
    found: Dict[str, Tuple[cst.BaseExpression, int]] = {}
    for index, statement in enumerate(tree.body):
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            continue
        small = statement.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            name, value = small.targets[0].target.value, small.value
        elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
            name, value = small.target.value, small.value
        else:
            continue
        if len(model.module_scope.bindings.get(name, ())) == 1:
            found[name] = (value, index)
    return found


def _project_class(
    model: SemanticModel, qualified: str, modules: "_ProjectModules", depth: int = 0,
) -> Optional[Tuple[SemanticModel, ClassInfo]]:
    """The class ``qualified`` names, with the model of the module that defines it: this
    module, or a project module (through the imports that re-export it)."""
    module, _, name = qualified.rpartition(".")
    if module != model.module_name:
        model = modules.model(module)  # type: ignore[assignment]
        if model is None:
            return None
    for cls in model.classes:
        if cls.qualname == name:
            return model, cls
    binding = model.lookup(name, model.module_scope, 1 << 30)
    if binding is not None and binding.imported and depth < 3:
        return _project_class(model, binding.imported, modules, depth + 1)
    return None


class _ProjectModules:
    """The project's modules a run reads besides the fixed file, each parsed once: found as
    ``import`` finds them from the project roots (``ModuleFinder``)."""

    def __init__(self, roots: Sequence[str]) -> None:
        self._finder = ModuleFinder(roots)
        self._models: Dict[str, Optional[SemanticModel]] = {}

    def model(self, module: str) -> Optional[SemanticModel]:
        if module not in self._models:
            self._models[module] = self._read(module)
        return self._models[module]

    def _read(self, module: str) -> Optional[SemanticModel]:
        path = self._finder.find(module) if module else None
        if path is None:
            return None
        try:
            tree = cst.parse_module(read_bytes(path, 1 << 20))
        except (SourceError, OSError, cst.ParserSyntaxError, RecursionError, UnicodeDecodeError):
            return None  # what a file that cannot be read defines is not known
        return SemanticModel(tree, module_name=module, path=path)


def or_bound(setting: cst.BaseExpression, bound: cst.BaseExpression) -> cst.BaseExpression:
    """``setting or bound``: the user's setting where given, the bound where it is ``None``."""
    return cst.BooleanOperation(left=setting, operator=cst.Or(), right=bound)


def _joined(stem: str, suffix: str) -> str:
    return f"{stem}_{suffix}" if stem else suffix


def _same(existing: cst.BaseExpression, wanted: cst.BaseExpression) -> bool:
    """Whether a constant's value is the one a fix would write: the same seconds, or the same
    ``httpx.Timeout(read, connect=c)`` (spelled alike)."""
    number, pair = positive_number(existing), positive_pair(existing)
    if number is not None or pair is not None:
        return (number, pair) == (positive_number(wanted), positive_pair(wanted))
    if isinstance(existing, cst.Call) and isinstance(wanted, cst.Call) and _callee(existing.func) == _callee(wanted.func):
        spelled = cst.Module([]).code_for_node
        return "".join(spelled(existing).split()) == "".join(spelled(wanted).split())
    return False


def _callee(func: cst.BaseExpression) -> str:
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
        return f"{func.value.value}.{func.attr.value}"
    return ""


def _function_name(model: SemanticModel, call: cst.Call) -> Optional[str]:
    site = model.call_site(call)
    function = site.scope.enclosing_function if site is not None else None
    return function.name if function is not None and isinstance(function.node, cst.FunctionDef) else None


def _constant_case(name: str) -> str:
    spaced = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name.strip("_"))
    return re.sub(r"_+", "_", spaced).upper() or "HTTP"


def _module_statement_index(tree: cst.Module, node: cst.CSTNode) -> Optional[int]:
    """The index of the module-level statement that holds ``node``."""
    for index, statement in enumerate(tree.body):
        if _holds(statement, node):
            return index
    return None


def _holds(tree: cst.CSTNode, node: cst.CSTNode) -> bool:
    return any(each is node for each in iter_nodes(tree))

