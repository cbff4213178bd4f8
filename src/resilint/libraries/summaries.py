"""One file's summary for the project pass (``resilint.lint.summary``), made from its semantic
model: every function's calls, resolved as far as the file can tell, and its retry layers
(library decorators and loops, hand-written loops, clients that retry by themselves)."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import libcst as cst

from resilint.libraries.retry_scopes import RetryScope, calls_within, retry_scopes
from resilint.libraries.self_retrying import client_layer, layer_of
from resilint.lint.semantic import CallSite, FunctionInfo, SemanticModel
from resilint.lint.summary import Call, FunctionSummary, Layer, ModuleSummary, Place

Locate = Callable[[cst.CSTNode], Place]
MODULE_CODE = "<module>"  # the pseudo-function holding a module's top-level code
_SKIPPED_TARGETS = ("builtins.",)


def summarise(model: SemanticModel, locate: Locate) -> ModuleSummary:
    summary = ModuleSummary(model.module_name, model.path)
    functions: Dict[Optional[int], FunctionSummary] = {}

    def function_of(info: Optional[FunctionInfo]) -> FunctionSummary:
        key = id(info) if info is not None else None
        if key not in functions:
            if info is None:
                name, place = _qualified(model, MODULE_CODE), locate(model.module)
            else:
                name, place = _qualified(model, info.qualname), locate(info.node.name)  # type: ignore[union-attr]
            functions[key] = FunctionSummary(name, place)
            summary.functions[name] = functions[key]
        return functions[key]

    loops: Dict[int, List[Tuple[int, int]]] = {}  # id(call node) → [(stack depth, layer index)]
    for scope in retry_scopes(model).covering():
        layer = layer_of(scope.policy)
        if layer is None:
            continue
        description, calls = layer
        if scope.function is not None and isinstance(scope.covers, cst.FunctionDef):
            owner = function_of(scope.function)
            owner.layers.append(Layer(description, calls, locate(scope.node), whole_function=True))
            continue
        covered = list(calls_within(model, scope))
        if not covered:
            continue
        owner = function_of(covered[0].scope.enclosing_function)
        owner.layers.append(Layer(description, calls, locate(scope.node)))
        index = len(owner.layers) - 1
        for site in covered:
            loops.setdefault(id(site.node), []).append((_depth(site, scope), index))

    for site, name in model.iter_calls():
        if name is None or name.startswith(_SKIPPED_TARGETS):
            continue
        owner = function_of(site.scope.enclosing_function)
        retrying: Optional[int] = None
        client = client_layer(model, site, name)
        if client is not None:
            owner.layers.append(Layer(client[0], client[1], locate(client[2]), client=True))
            retrying = len(owner.layers) - 1
        covering = tuple(index for _, index in sorted(loops.get(id(site.node), ())))
        owner.calls.append(Call(name, locate(site.node), covering, retrying))

    for site_name, binding_list in model.module_scope.bindings.items():
        for binding in binding_list:
            if binding.imported is not None:
                summary.imports[site_name] = binding.imported
    return summary


def _qualified(model: SemanticModel, qualname: str) -> str:
    return f"{model.module_name}.{qualname}" if model.module_name else qualname


def _depth(site: CallSite, scope: RetryScope) -> int:
    """How deep the layer's loop is on the call's stack (outer loops first)."""
    for index, node in enumerate(site.stack):
        if node is scope.covers:
            return index
    return len(site.stack)
