"""One file's summary for the project pass (``resilint.lint.summary``), made from its semantic
model: every function's calls, resolved as far as the file can tell, with the timeout
arguments they pass; what its functions return and what its objects are; its retry layers
(library decorators and loops, hand-written loops, clients that retry by themselves); and its
DB scopes (transactions, held connections) with the calls made inside them."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.clients import TIMEOUT_KEYWORDS
from resilint.libraries.db_scopes import db_scopes, runs_later
from resilint.libraries.http_requests import RequestFinder
from resilint.libraries.network_mocks import mocked_libraries
from resilint.libraries.retry_scopes import (
    Policy,
    RetryScope,
    calls_within,
    describe,
    retry_scopes,
)
from resilint.libraries.retry_scopes.delays import returned_delay
from resilint.libraries.retry_scopes.model import UNKNOWN
from resilint.libraries.retry_scopes.recogniser import Recogniser
from resilint.libraries.self_retrying import (
    ClientLayer,
    client_layer,
    gives_up_with,
    layer_of,
    may_send,
    object_layer,
    retried_exceptions,
)
from resilint.libraries.sessions import (
    class_supplies_timeout,
    receiver_sets_timeout,
    writes_timeout_key,
)
from resilint.libraries.timeout_values import TimeoutEvaluator, value_to_data
from resilint.lint.nodes import code_of, kwargs_name
from resilint.lint.semantic import (
    Binding,
    CallSite,
    ClassInfo,
    FunctionInfo,
    Instance,
    QName,
    SemanticModel,
    Value,
)
from resilint.lint.summary import (
    MODULE_CODE,
    Argument,
    Arguments,
    Call,
    DbScope,
    FunctionSummary,
    Layer,
    ModuleSummary,
    Place,
    Request,
    Wait,
)

Locate = Callable[[cst.CSTNode], Place]
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
            if info is not None:
                functions[key].returns = _returned_type(model, info)
                functions[key].sets_timeout = writes_timeout_key(model, info)
            summary.functions[name] = functions[key]
        return functions[key]

    found = retry_scopes(model)
    loops: Dict[int, List[Tuple[int, int]]] = {}  # id(call node) → [(stack depth, layer index)]
    for scope in found.covering():
        layer = layer_of(scope.policy)
        if layer is None:
            continue
        if scope.function is not None and isinstance(scope.covers, cst.FunctionDef):
            owner = function_of(scope.function)
            owner.layers.append(_layer(model, scope.policy, layer, locate(scope.node), whole_function=True))
            continue
        covered = list(calls_within(model, scope))
        if not covered:
            continue
        owner = function_of(covered[0].scope.enclosing_function)
        owner.layers.append(_layer(model, scope.policy, layer, locate(scope.node)))
        index = len(owner.layers) - 1
        for site in covered:
            loops.setdefault(id(site.node), []).append((_depth(site, scope), index))

    held: Dict[int, List[Tuple[int, int]]] = {}  # id(call node) → [(depth, DB scope index)]
    db = db_scopes(model)
    for scope in db.scopes:
        owner = function_of(scope.function)
        owner.db_scopes.append(DbScope(
            scope.opening.description, scope.opening.holds, locate(scope.node), scope.via, scope.whole_function,
            scope.locks, scope.yields, scope.wraps,
        ))
        for site in scope.covered:
            held.setdefault(id(site.node), []).append((scope.depth, len(owner.db_scopes) - 1))
    for info in db.deferring:
        function_of(info).defers_in_transaction = True

    for site, name in model.iter_calls():
        if name is None or name.startswith(_SKIPPED_TARGETS):
            continue
        owner = function_of(site.scope.enclosing_function)
        retrying: Optional[int] = None
        client = client_layer(model, site, name)
        if client is not None:
            owner.layers.append(_client_layer(model, client, locate))
            retrying = len(owner.layers) - 1
        covering = tuple(index for _, index in sorted(loops.get(id(site.node), ())))
        mocked = tuple(sorted(mocked_libraries(model, site)))
        owner.calls.append(Call(
            name, locate(site.node), covering, retrying, _arguments(model, site, locate), mocked, may_send(name),
            tuple(index for _, index in sorted(held.get(id(site.node), ()))), runs_later(site),
        ))

    finder = RequestFinder(model)
    applied = {id(scope.node) for scope in found.scopes}
    delays = Recogniser(model)
    for info in model.functions:
        owner = function_of(info)  # functions that call nothing still return something
        owner.decorators = _unknown_decorators(model, info, applied, locate)
        delay = returned_delay(delays, info)
        owner.delay = delay if delay != UNKNOWN else None
        client = next(filter(None, (object_layer(model, r, info.scope, 1 << 62) for r in info.returns)), None)
        if client is not None:
            owner.layers.append(_client_layer(model, client, locate))
            owner.returns_layer = len(owner.layers) - 1
        for site, method, name, status, detail in finder.unsafe_requests(info):
            owner.requests.append(Request(method, name, status, detail, locate(site.node)))
    for policy in found.policies:
        wait = policy.wait
        if wait.via is not None and wait.node is not None:
            summary.waits.append(Wait(wait.via, wait.detail, policy.library, locate(wait.node)))
    policies = {id(policy.node): policy for policy in found.policies}
    for name, bindings in model.module_scope.bindings.items():
        for binding in bindings:
            if binding.imported is not None:
                summary.imports[name] = binding.imported
        policy = policies.get(id(bindings[-1].expr)) if bindings[-1].expr is not None else None
        layer = layer_of(policy) if policy is not None else None
        if policy is not None and layer is not None:
            summary.policies[_qualified(model, name)] = _layer(model, policy, layer, locate(policy.node), whole_function=True)
        known = _object_type(model, bindings[-1])
        if known is not None:
            summary.types[_qualified(model, name)] = known
            client = object_layer(model, cst.Name(name), model.module_scope, 1 << 62)
            if client is not None:
                top = function_of(None)
                top.layers.append(_client_layer(model, client, locate))
                summary.object_layers[_qualified(model, name)] = len(top.layers) - 1
    for cls in model.classes:
        base = _library_base(model, cls)
        if base is not None:
            summary.types[_qualified(model, cls.qualname)] = base
        for attribute, bindings in cls.instance_attributes.items():
            known = _attribute_type(model, cls, attribute, bindings)
            if known is not None:
                summary.types[_qualified(model, f"{cls.qualname}.{attribute}")] = known
    return summary


def _client_layer(model: SemanticModel, client: ClientLayer, locate: Locate) -> Layer:
    description, calls, where, policy = client
    if policy is not None:
        return _layer(model, policy, (description, calls), locate(where), client=True)
    return Layer(description, calls, locate(where), client=True, retrier=description)


def _layer(
    model: SemanticModel, policy: Policy, layer: Tuple[str, Optional[int]], place: Place,
    whole_function: bool = False, client: bool = False,
) -> Layer:
    return Layer(
        layer[0], layer[1], place, whole_function, client, describe(policy), policy.guards_non_idempotent,
        policy.library, policy.retry_on.kind, retried_exceptions(model, policy), gives_up_with(policy),
    )


def _unknown_decorators(
    model: SemanticModel, info: FunctionInfo, applied: Set[int], locate: Locate
) -> List[Tuple[str, Place]]:
    """The decorators of ``info`` that are no retry the file recognised, by qualified name."""
    found = []
    outer = info.scope.parent or info.scope
    for decorator in info.decorators:
        if id(decorator) in applied:
            continue
        expr = decorator.decorator
        name = model.qualified_name(expr.func if isinstance(expr, cst.Call) else expr, outer, 1 << 62)
        if name is not None and not name.startswith(_SKIPPED_TARGETS):
            found.append((name, locate(decorator)))
    return found


def _class_of(model: SemanticModel, value: Value) -> Optional[str]:
    """The qualified class of an object (``requests.Session``, ``app.api.Client``), if known."""
    if isinstance(value, Instance) and isinstance(value.of, str):
        return value.of
    if isinstance(value, Instance) and isinstance(value.of, ClassInfo):
        return model.type_name(value)
    return None


def _library_base(model: SemanticModel, cls: ClassInfo) -> Optional[str]:
    """The library class a project class extends (``class Api(requests.Session)``), so that its
    instances are that client in other modules, unless it fills in the timeout itself."""
    for base in cls.bases:
        value = model.resolve(base, cls.scope.parent or cls.scope, 1 << 62)
        if isinstance(value, QName) and not value.name.startswith("builtins."):
            return None if class_supplies_timeout(cls, model) else value.name
    return None


def _returned_type(model: SemanticModel, info: FunctionInfo) -> Optional[str]:
    known = _class_of(model, model.returned_value(info))
    if known is None:
        return None
    for expr in info.returns:
        if receiver_sets_timeout(expr, "request", model, info.scope, 1 << 62):
            return None
    return known


def _object_type(model: SemanticModel, binding: Binding) -> Optional[str]:
    if binding.expr is None and binding.entered is None:
        return None
    known = _class_of(model, model.binding_value(binding))
    if known is None or receiver_sets_timeout(cst.Name(binding.name), "request", model, model.module_scope, 1 << 62):
        return None
    return known


def _attribute_type(model: SemanticModel, cls: ClassInfo, attribute: str, bindings: List[Binding]) -> Optional[str]:
    for binding in reversed(bindings):
        known = _class_of(model, model.binding_value(binding))
        if known is not None:
            receiver = cst.Attribute(cst.Name("self"), cst.Name(attribute))
            method = next((f for f in model.functions if f.owner is cls), None)
            if method is not None and receiver_sets_timeout(receiver, "request", model, method.scope, 1 << 62):
                return None
            return known
    return None


def _arguments(model: SemanticModel, site: CallSite, locate: Locate) -> Arguments:
    """The shape of the call's arguments, with the values of timeout-like keywords."""
    function = site.scope.enclosing_function
    kwargs_param = kwargs_name(function.node) if function is not None else None
    keywords: List[str] = []
    values: List[Argument] = []
    positional, star, double_star, forwards = 0, False, False, False
    evaluator: Optional[TimeoutEvaluator] = None
    for arg in site.node.args:
        if arg.star == "**":
            double_star = True
            forwards = forwards or (isinstance(arg.value, cst.Name) and arg.value.value == kwargs_param)
        elif arg.star == "*":
            star = True
        elif arg.keyword is None:
            positional += 1
        else:
            keyword = arg.keyword.value
            keywords.append(keyword)
            if keyword in TIMEOUT_KEYWORDS:
                evaluator = evaluator or TimeoutEvaluator(model, site.scope, site.order)
                values.append(_argument(model, evaluator, function, keyword, arg.value, locate))
    return Arguments(tuple(keywords), positional, star, double_star, forwards, tuple(values))


def _argument(
    model: SemanticModel, evaluator: TimeoutEvaluator, function: Optional[FunctionInfo], keyword: str,
    expr: cst.BaseExpression, locate: Locate,
) -> Argument:
    value = evaluator.evaluate(expr)
    data = value_to_data(value) if value is not None else None
    text = code_of(expr, limit=None)
    parameter = _parameter(function, expr)
    if parameter is None:
        return Argument(keyword, data, text, locate(expr))
    default = None
    if parameter.default is not None and function is not None:
        outer = TimeoutEvaluator(model, function.scope.parent or function.scope, 1 << 62)
        evaluated = outer.evaluate(parameter.default)
        default = value_to_data(evaluated) if evaluated is not None else None
    default_text = code_of(parameter.default, limit=None) if parameter.default is not None else None
    params = function.node.params  # type: ignore[union-attr]
    positional = [p.name.value for p in (*params.posonly_params, *params.params)]
    position = positional.index(parameter.name.value) if parameter.name.value in positional else None
    return Argument(keyword, data, text, locate(expr), parameter.name.value, position, default, default_text)


def _parameter(function: Optional[FunctionInfo], expr: cst.BaseExpression) -> Optional[cst.Param]:
    """The parameter of ``function`` that ``expr`` reads, if it reads one directly."""
    if function is None or not isinstance(expr, cst.Name) or not isinstance(function.node, cst.FunctionDef):
        return None
    params = function.node.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == expr.value:
            assigned = function.scope.bindings.get(expr.value, [])
            return param if len(assigned) == 1 else None  # reassigned in the body: not the parameter
    return None


def _qualified(model: SemanticModel, qualname: str) -> str:
    return f"{model.module_name}.{qualname}" if model.module_name else qualname


def _depth(site: CallSite, scope: RetryScope) -> int:
    """How deep the layer's loop is on the call's stack (outer loops first)."""
    for index, node in enumerate(site.stack):
        if node is scope.covers:
            return index
    return len(site.stack)
