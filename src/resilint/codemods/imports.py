"""Names a rewrite uses, imported once and never shadowing a name the file already binds.

A rewrite that writes ``retry(...)`` into a module whose function has a parameter called
``retry`` would call the parameter. So a name is imported under its own spelling only when no
scope of the file binds it; otherwise under an alias (``runtime_retry``) that nothing binds.
An existing import of the same object is reused, whatever its alias, only when it is bound
for certain before the rewritten code can run: a module-level statement of its own (not under
``if TYPE_CHECKING:``, ``try`` or any other block), with no module-level code that may call
anything above it, and no star import below it. A star import (``from socket import *``) may
rebind any name, so in a file that has one the name is always imported under an alias.
"""

from __future__ import annotations

from typing import FrozenSet, List, Optional, Set, Tuple

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

from resilint.codemods.base import SETTINGS
from resilint.codemods.reexports import is_reexport
from resilint.lint.config import ConfigError, Settings, load_settings
from resilint.lint.semantic import Scope, SemanticModel
from resilint.lint.traversal import iter_nodes

RUNTIME = "resilint.runtime"


def bound_names(model: SemanticModel) -> FrozenSet[str]:
    """Every name any scope of the file binds (imports, assignments, parameters, defs), and
    every name it reads: one it reads without binding comes from a star import or the builtins,
    which a new import would shadow too. Computed once per file: every name a rewrite imports
    asks for it."""
    return model.derived(bound_names, lambda: frozenset(_names_in_use(model)))


def _names_in_use(model: SemanticModel) -> Set[str]:
    names: Set[str] = set(model.module_scope.bindings)
    for scope in model.scope_of.values():
        names.update(scope.bindings)
    nodes = list(iter_nodes(model.module))
    # keyword argument names and attribute names are not variables
    labels = {id(n.keyword) for n in nodes if isinstance(n, cst.Arg) and n.keyword is not None}
    labels.update(id(n.attr) for n in nodes if isinstance(n, cst.Attribute))
    names.update(n.value for n in nodes if isinstance(n, cst.Name) and id(n) not in labels)
    return names


def imported_as(model: SemanticModel, qualified: str) -> Optional[str]:
    """The module-level name an existing import binds to ``qualified``, if any, and if that
    name is sure to hold it wherever a rewrite may use it (``bound_before_use``)."""
    scope: Scope = model.module_scope
    for name, bindings in scope.bindings.items():
        if len(bindings) == 1 and bindings[0].imported == qualified and bound_before_use(model.module, name):
            return name
    return None


def bound_before_use(module: cst.Module, name: str) -> bool:
    """Whether a module-level import statement binds ``name`` unconditionally before any
    module-level code may call something that reads it, and nothing rebinds it behind the
    file's back afterwards (a star import below it)."""
    for index, statement in enumerate(module.body):
        if _imports_name(statement, name):
            return not any(_has_star_import(later) for later in module.body[index + 1:])
        if _may_run_code(statement):
            return False
    return False


def has_star_import(module: cst.Module) -> bool:
    """Whether the file has a ``from ... import *``, which may bind any name."""
    return any(_has_star_import(statement) for statement in module.body)


def _has_star_import(statement: cst.CSTNode) -> bool:
    stop = (cst.FunctionDef, cst.ClassDef, cst.BaseExpression)
    return any(isinstance(node, cst.ImportStar) for node in iter_nodes(statement, stop_at=stop))


def _imports_name(statement: cst.BaseStatement, name: str) -> bool:
    """Whether ``statement`` is a simple statement line with an import binding ``name``."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
            aliases = small.names
        elif isinstance(small, cst.Import):
            aliases = small.names
        else:
            continue
        for alias in aliases:
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                bound = alias.asname.name.value
            else:
                bound = alias.evaluated_name.split(".", 1)[0]
            if bound == name:
                return True
    return False


def _may_run_code(statement: cst.BaseStatement) -> bool:
    """Whether executing a module-level statement may call something (which may read a name
    bound further down): any call or decorator outside function bodies, a function's default
    values included; class bodies run when defined."""
    for node in iter_nodes(statement, stop_at=(cst.FunctionDef, cst.Lambda)):
        if isinstance(node, (cst.Call, cst.Decorator)):
            return True
        if isinstance(node, cst.FunctionDef):
            if node.decorators or any(isinstance(n, cst.Call) for n in iter_nodes(node.params)):
                return True
    return False


def use_name(context: CodemodContext, model: SemanticModel, module: str, name: str) -> str:
    """The name under which the rewrite may call ``module.name``, its import queued once
    (``AddImportsVisitor``) when the file lacks one."""
    existing = imported_as(model, f"{module}.{name}") or _queued_as(context, module, name)
    if existing is not None:
        return existing
    taken = bound_names(model) | _queued_names(context)
    local = name
    # a star import may rebind the plain name anywhere below it
    if local in taken or has_star_import(model.module):
        local = f"{module.rsplit('.', 1)[-1]}_{name}"
        suffix = 2
        while local in taken:
            local = f"{module.rsplit('.', 1)[-1]}_{name}{suffix}"
            suffix += 1
    AddImportsVisitor.add_needed_import(context, module, name, asname=None if local == name else local)
    return local


def name_node(context: CodemodContext, model: SemanticModel, module: str, name: str) -> cst.Name:
    return cst.Name(use_name(context, model, module, name))


def sibling(context: CodemodContext, model: SemanticModel, like: cst.BaseExpression, module: str, name: str) -> cst.BaseExpression:
    """``module.name`` spelled like ``like`` spells its own library: ``t.stop_after_attempt``
    beside ``t.retry`` (``import tenacity as t``), an imported bare name beside a bare name."""
    if isinstance(like, cst.Attribute):
        return like.with_changes(attr=cst.Name(name))
    return name_node(context, model, module, name)


def forget(context: CodemodContext, module: str, name: Optional[str], local: str) -> None:
    """Drop ``from module import name [as local]`` (``import module [as local]`` when ``name``
    is None) if the rewrite left it unused and no other code imports it from this module
    (``reexports.is_reexport``)."""
    spelled = name if name is not None else module
    if is_reexport(context.wrapper.module if context.wrapper is not None else None, context.filename or "", _settings(context), local):
        return  # other code imports it from this module (``reexports``)
    RemoveImportsVisitor.remove_unused_import(context, module, name, None if local == spelled else local)


def _settings(context: CodemodContext) -> Settings:
    """The run's settings (``resilint fix``), else those of the file's project (standalone)."""
    given = context.scratch.get(SETTINGS)
    if isinstance(given, Settings):
        return given
    try:
        return load_settings([context.filename or "."])
    except ConfigError:
        return Settings()


def _queued(context: CodemodContext) -> List[Tuple[str, Optional[str], Optional[str]]]:
    """The imports already queued in this run (two rewrites in one file): (module, obj, alias)."""
    items = context.scratch.get(AddImportsVisitor.CONTEXT_KEY, [])
    # an ``ImportItem`` in current LibCST, a plain tuple in older releases
    return [(i.module_name, i.obj_name, i.alias) if hasattr(i, "module_name") else (i[0], i[1], i[2]) for i in items]


def _queued_as(context: CodemodContext, module: str, name: str) -> Optional[str]:
    for queued_module, obj, alias in _queued(context):
        if queued_module == module and obj == name:
            return alias or obj
    return None


def _queued_names(context: CodemodContext) -> Set[str]:
    return {alias or obj if obj is not None else (alias or module).split(".", 1)[0] for module, obj, alias in _queued(context)}
