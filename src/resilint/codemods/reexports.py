"""Whether a module's import is also what other code imports from it: a fix never removes such
an import, even when the module itself no longer uses the name.

``from lib.policy import wait_exponential`` in another module of the project reads the name
``lib.policy`` imported from tenacity; a fix that renamed the call in ``lib.policy`` and dropped
the import it left unused broke that module. So an import a fix leaves unused is removed only
when none of the following holds: the file is a package's ``__init__.py`` (its imports are its
interface); the module's ``__all__`` lists the name, or is not a literal the file shows; another
file of the project imports the name from this module (``from M import name``, ``from M import
*``, or ``import M`` / ``from P import M`` and an attribute ``.name`` anywhere in that file).

The project's files are those ``resilint check`` would find under the project root (excludes
and ``.gitignore`` respected); each is read once per process, and parsed with ``ast`` only if
it spells the name.
"""

from __future__ import annotations

import ast
import os
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from resilint.lint.config import Settings
from resilint.lint.modules import module_name, project_roots
from resilint.lint.nodes import string_of

# Per project root: its Python files; per file: what it imports (see ``_Imports``).
_FILES: Dict[str, List[str]] = {}
_FACTS: Dict[Tuple[str, float, int], "_Imports"] = {}


class _Imports:
    def __init__(self, names: FrozenSet[Tuple[str, str]], modules: FrozenSet[str], attributes: FrozenSet[str]) -> None:
        self.names = names  # (module, name) of ``from module import name`` ("*" for a star)
        self.modules = modules  # modules it may hold as objects (``import M``, ``from P import M``)
        self.attributes = attributes  # every ``.attr`` it reads


def is_reexport(module: Optional[cst.Module], path: str, settings: Settings, local: str) -> bool:
    """Whether the module-level name ``local`` of the file at ``path`` (its tree ``module``) is
    part of what other code may import from it, so that no fix may remove it."""
    if os.path.basename(path).startswith("__init__."):
        return True
    listed = _dunder_all(module) if module is not None else set()
    if listed is None or local in listed:
        return True
    if not path:
        return False
    roots = project_roots(settings)
    this = module_name(path, roots)
    if not this:
        return False
    needle = local.encode()
    for other in _project_files(settings):
        if os.path.abspath(other) == os.path.abspath(path):
            continue
        facts = _imports_of(other, roots, needle)
        if facts is None:
            continue
        if (this, local) in facts.names or (this, "*") in facts.names:
            return True
        if this in facts.modules and local in facts.attributes:
            return True
    return False


def _dunder_all(module: cst.Module) -> Optional[Set[str]]:
    """The names the module's ``__all__`` lists; None when it assigns ``__all__`` something
    other than a literal list or tuple of strings (it may then list anything)."""
    listed: Set[str] = set()
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            value: Optional[cst.BaseExpression] = None
            if isinstance(small, cst.Assign) and any(
                isinstance(t.target, cst.Name) and t.target.value == "__all__" for t in small.targets
            ):
                value = small.value
            elif isinstance(small, (cst.AugAssign, cst.AnnAssign)) and isinstance(small.target, cst.Name) and small.target.value == "__all__":
                value = small.value
            else:
                continue
            if not isinstance(value, (cst.List, cst.Tuple)):
                return None
            for element in value.elements:
                text = string_of(element.value)
                if text is None:
                    return None
                listed.add(text)
    return listed


def _project_files(settings: Settings) -> List[str]:
    root = os.path.abspath(settings.root)
    if root not in _FILES:
        from resilint.lint.discovery import discover

        _FILES[root] = [path for path in discover([root], settings).files if path.endswith((".py", ".pyi"))]
    return _FILES[root]


def _imports_of(path: str, roots: List[str], needle: bytes) -> Optional[_Imports]:
    """What the file imports, if it spells ``needle`` at all (else None, without parsing)."""
    try:
        info = os.stat(path)
        key = (path, info.st_mtime, info.st_size)
        if key in _FACTS:
            return _FACTS[key]
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if needle not in data and b"*" not in data:
        return None
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names: Set[Tuple[str, str]] = set()
    modules: Set[str] = set()
    attributes: Set[str] = set()
    package = module_name(path, roots)
    if not os.path.basename(path).startswith("__init__."):
        package = package.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package
                for _ in range(node.level - 1):
                    parent = parent.rpartition(".")[0]
                base = f"{parent}.{base}".strip(".") if base else parent
            for alias in node.names:
                names.add((base, alias.name))
                modules.add(f"{base}.{alias.name}".strip("."))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                modules.add(alias.name)
        elif isinstance(node, ast.Attribute):
            attributes.add(node.attr)
    facts = _Imports(frozenset(names), frozenset(modules), frozenset(attributes))
    _FACTS[key] = facts
    return facts
