"""What the rules and codemods declare, read from their modules' source without importing them.

Importing a rule or a codemod imports LibCST, about a second of CPU. ``resilint rules``,
``resilint rule CODE`` and ``resilint codemods`` only print declarations: a rule's code, name,
docstring, default and severity, and a codemod's name, codes, applicability and description,
from which a rule's fixability follows. ``ast`` reads them from the source in milliseconds.

So the declarations are literals on the classes, and inheritance is followed by class name
within each package (``tests/lint/test_catalog.py`` compares this catalog with the imported
registries, field by field). A package installed without its sources falls back to importing.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, FrozenSet, Iterator, List, Mapping, Optional, Tuple, Type

import resilint
from resilint.lint.finding import Fix
from resilint.lint.rule import Rule, family_of, rule_metadata, sections_of, summary_of

_RULES_PACKAGE = "rules"
_CODEMODS_PACKAGE = "codemods"
_CODEMOD_BASE = "ResilintCodemod"  # codemods/base.py, whose own declarations are read too


@dataclass(frozen=True)
class RuleInfo:
    """A rule's declarations: what ``Rule`` classes give the documentation and listings."""

    code: str
    name: str
    doc: str
    default: bool
    severity: str
    fixable: Optional[str]
    precision: str = Rule.precision
    message: str = ""
    always_reported: bool = False
    family: Optional[str] = None  # the rule's subpackage of ``resilint.rules`` (timeouts, retries...)

    def documentation(self) -> str:
        return self.doc

    def sections(self) -> Dict[str, str]:
        return sections_of(self.doc)

    def summary(self) -> str:
        return summary_of(self.doc)

    def metadata(self) -> Dict[str, Any]:
        return rule_metadata(self)


@dataclass(frozen=True)
class CodemodInfo:
    name: str
    codes: Tuple[str, ...]
    applicability: str
    description: str
    targets: Tuple[str, ...] = ("native", "runtime")  # the fix targets it writes for


@lru_cache(maxsize=None)
def codemod_catalog() -> Dict[str, CodemodInfo]:
    """Name (as ``resilint codemod NAME`` takes it) → declarations, sorted by name."""
    declared = _declared_classes(_CODEMODS_PACKAGE, recursive=False)
    if declared is None:
        return _imported_codemods()
    found: Dict[str, CodemodInfo] = {}
    for module, classes in declared.items():
        for name in sorted(classes):  # the last one wins, as in ``all_codemods``
            if name == _CODEMOD_BASE or not _inherits(name, _CODEMOD_BASE, classes, declared):
                continue
            codemod = module.rsplit(".", 1)[-1].replace("_", "-")
            codes, applicability, description, targets = (
                _attribute(name, attribute, classes, declared, {})
                for attribute in ("CODES", "APPLICABILITY", "DESCRIPTION", "TARGETS")
            )
            found[codemod] = CodemodInfo(codemod, tuple(codes), applicability, description, tuple(targets))
    return dict(sorted(found.items()))


@lru_cache(maxsize=None)
def rule_catalog() -> Dict[str, RuleInfo]:
    """Code → a rule's declarations, sorted by code, as ``registry.all_rules`` would give them."""
    declared = _declared_classes(_RULES_PACKAGE, recursive=True)
    if declared is None:
        return _imported_rules()
    defaults = {
        "code": None, "default": Rule.default, "severity": Rule.severity, "precision": Rule.precision, "message": "",
        "always_reported": Rule.always_reported,
    }
    fixable = rule_fixability()
    found: Dict[str, RuleInfo] = {}
    for module, classes in declared.items():
        parts = module.split(".")
        for name, declaration in classes.items():
            if not _inherits(name, "Rule", classes, declared):
                continue
            code = _attribute(name, "code", classes, declared, defaults)
            if code is None:
                continue
            if code in found:
                raise RuntimeError(f"rule code {code} is declared twice")
            found[code] = RuleInfo(
                code=code, name=_attribute(name, "name", classes, declared, defaults),
                doc=declaration.doc, default=_attribute(name, "default", classes, declared, defaults),
                severity=_attribute(name, "severity", classes, declared, defaults), fixable=fixable.get(code),
                precision=_attribute(name, "precision", classes, declared, defaults),
                message=_attribute(name, "message", classes, declared, defaults),
                always_reported=_attribute(name, "always_reported", classes, declared, defaults),
                family=parts[1] if len(parts) >= 3 else None,
            )
    return dict(sorted(found.items()))


@lru_cache(maxsize=None)
def project_codes() -> FrozenSet[str]:
    """The codes of the rules that read the project pass (``project = True``)."""
    declared = _declared_classes(_RULES_PACKAGE, recursive=True)
    if declared is None:
        return frozenset(code for code, rule in discover_rule_classes().items() if rule.project)
    found = set()
    for classes in declared.values():
        for name in classes:
            if _inherits(name, "Rule", classes, declared) and _attribute(name, "project", classes, declared, {"project": False}):
                code = _attribute(name, "code", classes, declared, {"code": None})
                if code is not None:
                    found.add(code)
    return frozenset(found)


@lru_cache(maxsize=None)
def rule_fixability(target: Optional[str] = None) -> Dict[str, str]:
    """Code → "safe" when a safe codemod fixes its findings, else "unsafe"; a code without a
    codemod is not there. What ``Rule.fixable`` says, read without importing a codemod.
    ``target``: only the codemods that write for that fix target ("native", "runtime")."""
    found: Dict[str, str] = {}
    for codemod in codemod_catalog().values():
        if target is not None and target not in codemod.targets:
            continue
        for code in codemod.codes:
            if found.get(code) != "safe":
                found[code] = codemod.applicability
    return found


@lru_cache(maxsize=None)
def declared_fixes(target: Optional[str] = None) -> Dict[str, Fix]:
    """Code → the fix its findings carry until the edits are computed (``Fix.edits`` None):
    the rule's applicability and the codemods of that applicability that may fix a finding
    (those that write for the fix ``target`` when given). Whether one does, and how, only
    running it tells (``resilint.fixing``)."""
    found: Dict[str, Fix] = {}
    for code in rule_fixability(target):
        fix = declared_fix(tuple(c.name for c in codemod_catalog().values() if code in c.codes), target)
        if fix is not None:
            found[code] = fix
    return found


@lru_cache(maxsize=None)
def declared_fix(names: Tuple[str, ...], target: Optional[str] = None) -> Optional[Fix]:
    """The declared fix of a finding that only the codemods ``names`` may fix (those that write
    for the fix ``target`` when given): safe when one of them is, naming those of that
    applicability; None when none of them is there."""
    catalog = codemod_catalog()
    usable = [catalog[n] for n in names if n in catalog and (target is None or target in catalog[n].targets)]
    if not usable:
        return None
    applicability = "safe" if any(c.applicability == "safe" for c in usable) else "unsafe"
    named = [c.name for c in usable if c.applicability == applicability]
    return Fix(applicability, f"may be fixed by {' or '.join(named)}", None)


# --- reading the source ------------------------------------------------------------------


@dataclass
class _Declared:
    bases: List[str]
    attributes: Dict[str, Any]  # the class body's assignments of literals
    doc: str


def _declared_classes(package: str, recursive: bool) -> Optional[Dict[str, Dict[str, _Declared]]]:
    """Module → class name → what its source declares, for every module of ``package`` (a
    directory of resilint's, or any directory) and of its subpackages when ``recursive``, as
    ``pkgutil.walk_packages`` finds them; None when the sources are not there."""
    directory = os.path.join(os.path.dirname(resilint.__file__), package)
    found: Dict[str, Dict[str, _Declared]] = {}
    for module, path in _modules(directory, os.path.basename(directory), recursive):
        try:
            with open(path, "rb") as handle:
                tree = ast.parse(handle.read(), filename=path)
        except OSError:
            return None
        found[module] = {node.name: _declared(node) for node in tree.body if isinstance(node, ast.ClassDef)}
    return found or None


def _modules(directory: str, prefix: str, recursive: bool) -> Iterator[Tuple[str, str]]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return
    for name in names:
        path = os.path.join(directory, name)
        if name.endswith(".py") and name != "__init__.py" and name.isascii():
            yield f"{prefix}.{name[:-3]}", path
        elif recursive and os.path.isfile(os.path.join(path, "__init__.py")):
            yield from _modules(path, f"{prefix}.{name}", recursive)


def _declared(node: ast.ClassDef) -> _Declared:
    bases = [b.id if isinstance(b, ast.Name) else b.attr for b in node.bases if isinstance(b, (ast.Name, ast.Attribute))]
    attributes: Dict[str, Any] = {}
    for statement in node.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            continue
        if isinstance(target, ast.Name):
            try:
                attributes[target.id] = ast.literal_eval(value)
            except ValueError:
                attributes[target.id] = _NOT_A_LITERAL
    return _Declared(bases, attributes, ast.get_docstring(node, clean=True) or "")


class _NotALiteral:
    def __repr__(self) -> str:
        return "<not a literal>"


_NOT_A_LITERAL = _NotALiteral()


def _lookup(name: str, own: Mapping[str, _Declared], declared: Mapping[str, Mapping[str, _Declared]]) -> Optional[_Declared]:
    """A class by name: in its own module first, else in any module of the package."""
    if name in own:
        return own[name]
    return next((classes[name] for classes in declared.values() if name in classes), None)


def _inherits(name: str, root: str, own: Mapping[str, _Declared], declared: Mapping[str, Mapping[str, _Declared]]) -> bool:
    if name == root:
        return True
    found = _lookup(name, own, declared)
    return found is not None and any(_inherits(base, root, own, declared) for base in found.bases if base != name)


def _attribute(
    name: str, attribute: str, own: Mapping[str, _Declared], declared: Mapping[str, Mapping[str, _Declared]],
    defaults: Mapping[str, Any],
) -> Any:
    """The class's literal ``attribute``, inherited as Python would (bases in order), else the
    root's default. A value that is not a literal is an error: this catalog cannot read it."""
    found = _lookup(name, own, declared)
    if found is None:
        return defaults.get(attribute)
    if attribute in found.attributes:
        value = found.attributes[attribute]
        if value is _NOT_A_LITERAL:
            raise RuntimeError(f"{name}.{attribute} must be a literal: the rule catalog reads it without importing")
        return value
    for base in found.bases:
        if base != name and _lookup(base, own, declared) is not None:
            return _attribute(base, attribute, own, declared, defaults)
    return defaults.get(attribute)


# --- without the sources -------------------------------------------------------------------


def discover_rule_classes() -> Dict[str, Type[Rule]]:
    """Code → rule class, sorted by code: every ``Rule`` subclass with a code in a module under
    ``resilint.rules``, imported (``registry.all_rules`` adds their fixability)."""
    import resilint.rules as package

    found: Dict[str, Type[Rule]] = {}
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Rule) and obj is not Rule and obj.__module__ == module.__name__:
                if getattr(obj, "code", None) is None:
                    continue
                if obj.code in found and found[obj.code] is not obj:
                    raise RuntimeError(
                        f"rule code {obj.code} is defined twice: "
                        f"{found[obj.code].__module__} and {obj.__module__}"
                    )
                found[obj.code] = obj
    return dict(sorted(found.items()))


def _imported_rules() -> Dict[str, RuleInfo]:
    fixable = rule_fixability()
    return {
        code: RuleInfo(
            rule.code, rule.name, rule.documentation(), rule.default, rule.severity, fixable.get(code), rule.precision,
            getattr(rule, "message", ""), rule.always_reported, family_of(rule),
        )
        for code, rule in discover_rule_classes().items()
    }


def _imported_codemods() -> Dict[str, CodemodInfo]:
    from resilint.codemods import all_codemods

    return {
        name: CodemodInfo(name, tuple(codemod.CODES), codemod.APPLICABILITY, codemod.DESCRIPTION, tuple(codemod.TARGETS))
        for name, codemod in all_codemods().items()
    }
