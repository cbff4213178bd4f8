"""One file's summary for the project pass (``resilint.lint.summary``), made from its semantic
model: every function's calls, resolved as far as the file can tell, with the timeout
arguments they pass; what its functions return and what its objects are; its retry layers
(library decorators and loops, hand-written loops, clients that retry by themselves); and its
DB scopes (transactions, held connections) with the calls made inside them."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.call_guards import attributes_passed, call_guards, callee_guards, constant, leaves_block
from resilint.libraries.client_retries import ClientLayer, layer_of, library_setting, refuses_retries, settings_made
from resilint.libraries.clients import (
    CLIENT_CALLS, TIMEOUT_KEYWORDS, assigned_mapping, called_mapping, configures_elsewhere, copies_kwargs, keys_filled_in, local_mapping_keys, mapping_scope,
    returned_keys,
    set_on_every_path, written_mapping,
)
from resilint.libraries.db_scopes import db_scopes, enclosing_lambda, runs_later, scheduled_coroutines
from resilint.libraries.django_mail import settings_assigned
from resilint.libraries.django_signals import model_receivers
from resilint.libraries.http_requests import RequestFinder, Unsafe, sent_body
from resilint.libraries.network_mocks import fixture_doubles, mock_classes, mocked_libraries
from resilint.libraries.pytest_fixtures import pytest_plugins
from resilint.libraries.retry_scopes import (
    Policy,
    RetryScope,
    RetryScopes,
    calls_within,
    describe,
    retry_scopes,
)
from resilint.libraries.retry_scopes.delays import returned_delay
from resilint.libraries.retry_scopes.model import ON_SPECIFIC, UNKNOWN
from resilint.libraries.retry_scopes.swallowing import (
    caught_quietly, converted, failing_out, in_try_body, lost_response_as, reraised_only, swallows,
)
from resilint.libraries.retry_scopes.recogniser import Recogniser
from resilint.libraries.retry_scopes.rq import applied_function
from resilint.libraries.retry_scopes.statements import block, child_blocks
from resilint.libraries.objects import object_facts
from resilint.libraries.raised_errors import raised_errors
from resilint.libraries.request_timeouts import connects_later_with_timeout, timeout_set_before_use
from resilint.libraries.self_retrying import (
    client_class_call, client_layer, configured_at_call, exceptions_answered, gives_up_with, may_send, retried_exceptions,
)
from resilint.libraries.sessions import receiver_sets_timeout, timeout_adapters_elsewhere, writes_timeout_key
from resilint.libraries.socket_connects import to_own_listener
from resilint.libraries.timeout_values import TIMEOUT_OBJECTS, TimeoutEvaluator, value_to_data
from resilint.libraries.server_sockets import (
    FIXTURE_URL, conftest_server_classes, conftest_servers, local_address_classes, only_local_urls, own_route_url, relative_to_local_base, sends_to_loopback,
)
from resilint.lint.nodes import (
    DEFINITIONS, TRIES, args_name, code_of, dotted_name, is_none, keys_set_on, keyword_args, kwargs_name, number_of,
    spelled_as_class, string_of,
)
from resilint.lint.traversal import iter_nodes
from resilint.lint.semantic import (
    Binding,
    CallSite,
    ClassInfo,
    Const,
    FunctionInfo,
    Instance,
    Param,
    Partial,
    QName,
    SemanticModel,
    Value,
    Values,
    property_accessor,
)
from resilint.lint.summary import (
    CLASS_INSTANCES,
    LATE,
    MODULE_CODE,
    PER_CALL,
    POSITIONAL,
    STAR_ARGS,
    Argument,
    Arguments,
    Call,
    DbScope,
    FunctionSummary,
    Layer,
    ModuleSummary,
    ObjectFacts,
    Place,
    Ref,
    Request,
    Wait,
)

Locate = Callable[[cst.CSTNode], Place]
_SKIPPED_TARGETS = ("builtins.",)
_BUILTIN_EXCEPTION = re.compile(r"builtins\.[A-Z]\w*(Error|Exception|Warning|Exit|Interrupt)")


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
                accessor = next((d.decorator for d in info.decorators if property_accessor(d.decorator, info.name)), None)
                if isinstance(accessor, cst.Attribute):
                    name = f"{name}.<{accessor.attr.value}>"  # a property's setter: the name stays the getter's
            functions[key] = FunctionSummary(name, place)
            if info is not None:
                function = functions[key]
                function.sets_timeout = writes_timeout_key(model, info) or _fills_through_helper(model, info)
                function.parameters, function.bound, function.defaults, function.scalars = _signature(model, info)
                function.generator = info.generator
                function.property_getter = model.is_property(info)
                function.predicate_for = exceptions_answered(model, info)
            if name not in summary.functions or not _overload_stub(info):
                summary.functions[name] = functions[key]  # (a ``@typing.overload`` stub: only its signature)
        return functions[key]

    values = _Values(model, summary, locate, lambda: function_of(None))

    found = retry_scopes(model)
    loops: Dict[int, List[Tuple[int, int]]] = {}  # id(call node) → [(stack depth, layer index)]
    escapes: Dict[int, List[int]] = {}  # id(call node) → the layers its failure does not set off
    answered: Dict[int, List[int]] = {}  # id(call node) → those of them that read its answer
    for scope in found.scopes:
        if scope.covers is None and scope.kind != "call":
            continue
        layer = layer_of(scope.policy)
        if layer is None:
            continue
        if scope.function is not None and isinstance(scope.covers, cst.FunctionDef):
            owner = function_of(scope.function)
            owner.layers.append(_layer(model, scope.policy, layer, locate(scope.node), whole_function=True))
            for site, _ in failing_out(scope.policy, model.calls_in(scope.function.scope)):
                escapes.setdefault(id(site.node), []).append(len(owner.layers) - 1)
            continue
        covered = list(calls_within(model, scope))
        applies = _applied(model, scope)
        if applies is not None:
            covered = [applies[0]]
        if not covered:
            continue
        owner = function_of(covered[0].scope.enclosing_function)
        owner.layers.append(replace(
            _layer(model, scope.policy, layer, locate(scope.node)), guard=_guard(model, scope, covered[0]),
            applies=applies[1] if applies is not None else "",
        ))
        index = len(owner.layers) - 1
        for site in covered:
            loops.setdefault(id(site.node), []).append((_depth(site, scope), index))
        for site, read in failing_out(scope.policy, covered):
            escapes.setdefault(id(site.node), []).append(index)
            if read:
                answered.setdefault(id(site.node), []).append(index)

    for node, covered, via, function in _foreign_policies(model, found):
        owner = function_of(covered[0].scope.enclosing_function)
        owner.layers.append(Layer("", None, locate(node), via=via, applies=function or ""))
        index = len(owner.layers) - 1
        for site in covered:
            depth = next((i for i, inner in enumerate(site.stack) if inner is node), len(site.stack))
            loops.setdefault(id(site.node), []).append((depth, index))

    held: Dict[int, List[Tuple[int, int]]] = {}  # id(call node) → [(depth, DB scope index)]
    db = db_scopes(model)
    for info in model.functions:
        if id(info) in db.left_open:
            function_of(info).leaves_open = True
        if id(info) in db.left_open_by:
            function_of(info).leaves_open_by = db.left_open_by[id(info)]
        if id(info) in db.commits_within:
            function_of(info).commits_within = True
        through = [locate(call) for call in db.open_through.get(id(info), ())]
        if through:
            function_of(info).open_through = tuple(f"{where.line}:{where.column}" for where in through if where is not None)
        last = db.commits.get(id(info))
        if last is not None:
            where = locate(last) if isinstance(last, cst.Call) else None
            commits = "." if last == "." else f"{where.line}:{where.column}" if where is not None else ""
            if commits:
                function_of(info).commits = commits
            if id(info) in db.commit_calls:
                committed = locate(db.commit_calls[id(info)])
                function_of(info).committed_at = f"{committed.line}:{committed.column}"
    for scope in db.scopes:
        owner = function_of(scope.function)
        owner.db_scopes.append(DbScope(
            scope.opening.description, scope.opening.holds, locate(scope.node), scope.via, scope.whole_function,
            scope.locks, scope.yields, scope.wraps, scope.implicit,
            tuple(f"{where.line}:{where.column}" for where in (locate(site.node) for site in scope.queries) if where is not None),
        ))
        for site in scope.covered:
            held.setdefault(id(site.node), []).append((scope.depth, len(owner.db_scopes) - 1))
    for info in db.deferring:
        function_of(info).defers_in_transaction = True

    retried_tries = {id(t) for policy in found.policies for t in policy.tries}

    def swallowed(site: CallSite) -> bool:
        return any(
            node.__class__ in TRIES and id(node) not in retried_tries and swallows(model, node, site)
            for node in site.stack
        )

    def innermost_try(site: CallSite, read: Callable[[SemanticModel, cst.CSTNode, CallSite], Tuple[str, ...]]) -> Tuple[str, ...]:
        """What ``read`` says of the innermost ``try`` around the call (in its body) that no
        retry layer goes round from: the classes it lets out when it raises again only what it
        tests (``reraised_only``), or those it catches by name and lets die (``caught_quietly``)."""
        for node in reversed(site.stack):
            if node.__class__ in TRIES and id(node) not in retried_tries and in_try_body(node, site):
                return read(model, node, site)
        return ()

    _handed_lambdas(model, values, function_of, locate)
    # id(function) → id(lambda's summary) → (it, the calls written in the lambda)
    lambda_calls: Dict[int, Dict[int, Tuple[FunctionSummary, List[CallSite]]]] = {}
    scheduled = scheduled_coroutines([site.node for site in model.calls])
    # what a project wrapper is handed may be a URL of this machine (a test's, or a fixture's)
    sends_here_maybe = model.text is None or any(word in model.text for word in _HERE_WORDS)
    for site in model.calls:
        names = [n for n in model.call_names(site) if not n.startswith(_SKIPPED_TARGETS)]
        if not names:
            continue
        owner = function_of(site.scope.enclosing_function)
        inner = enclosing_lambda(site)
        lambda_function = values.lambdas.get(id(inner)) if inner is not None else None
        if lambda_function is not None:
            lambda_calls.setdefault(id(site.scope.enclosing_function), {}).setdefault(
                id(lambda_function), (lambda_function, []),
            )[1].append(site)
        covering = tuple(index for _, index in sorted(loops.get(id(site.node), ())))
        mocked = tuple(sorted(mocked_libraries(model, site)))
        arguments = _arguments(model, site, locate)
        passed = values.passed(site) + values.attributes_passed(site)
        guards = call_guards(model, site, locate)
        chosen = callee_guards(model, site) if len(names) > 1 else {}
        bound = _through_object(model, site)
        receiver = _receiver_made_at(model, site, locate) if bound else ""
        own_retries = refuses_retries(model, site)
        place = locate(site.node)
        scopes = tuple(index for _, index in sorted(held.get(id(site.node), ())))
        converted_to = converted(model, site)
        unpacks = _unpacked_function(model, site) if any(name in CLIENT_CALLS for name in names[:_MAX_CALLEES]) else ""
        to_client = any(name in CLIENT_CALLS for name in names[:_MAX_CALLEES])
        # a project function or object that may pass a URL on to a client (``session.request("get",
        # httpbin.url)`` through a ``Session`` subclass)
        to_wrapper = (
            not to_client and bool(site.node.args) and not names[0].startswith("builtins.") and sends_here_maybe
        )
        route = own_route_url(site, model) if to_client or to_wrapper else None
        # a URL of this machine, or of a fixture serving it: given to a client that waits the
        # socket default, or to a wrapper
        loopback = (to_wrapper or any(
            (name in CLIENT_CALLS and CLIENT_CALLS[name].socket_global) or spelled_as_class(name) for name in names[:_MAX_CALLEES]
        )) and (
            route == "" or sends_to_loopback(site, model) or (to_wrapper and relative_to_local_base(site, model))
            or only_local_urls(site, model) or to_own_listener(model, site)
        )
        url_from = (route or "") if to_client or (to_wrapper and route and route.startswith(FIXTURE_URL)) else ""
        client_layers: Dict[int, int] = {}  # the callees of one call may share their client's layer
        # ``super().post_save(...)`` in a class of many bases: each base may be the one that has it
        through_super = isinstance(site.node.func, cst.Attribute) and model.calls_super(site.node.func.value, site.scope, site.order)
        for name in names if through_super else names[:_MAX_CALLEES]:
            retrying: Optional[int] = None
            client = client_layer(model, site, name)
            setting = library_setting(name) if client is None else None
            if client is not None and id(client.where) in client_layers:
                retrying = client_layers[id(client.where)]
            elif client is not None:
                owner.layers.append(_client_layer(model, client, locate))
                retrying = client_layers[id(client.where)] = len(owner.layers) - 1
            elif setting is not None:  # a layer if the project sets it (``stripe.max_network_retries = 2``)
                owner.layers.append(Layer("", None, place, client=True, via=setting))
                retrying = len(owner.layers) - 1
            call = Call(
                name, place, covering, retrying, arguments, mocked, may_send(name) and not own_retries, scopes,
                runs_later(site) or id(site.node) in scheduled, passed, bound, receiver, guards + chosen.get(name, ()), tuple(escapes.get(id(site.node), ())),
                swallowed(site), tuple(answered.get(id(site.node), ())), converted_to, unpacks,
                innermost_try(site, reraised_only), innermost_try(site, caught_quietly), loopback, url_from,
                lost_response_as(model, site, name) if name in CLIENT_CALLS else "",
                _kept_here(model, site) if spelled_as_class(name) and name not in CLIENT_CALLS else None,
                _annotated_parameter(model, site) if client is not None else "",
            )
            owner.calls.append(call)
            if lambda_function is not None:
                # what the lambda runs when the function it is handed to calls it
                if retrying is not None:
                    lambda_function.layers.append(owner.layers[retrying])
                lambda_function.calls.append(replace(
                    call, layers=(), retrying=None if retrying is None else len(lambda_function.layers) - 1,
                    db_scopes=(), later=False, escapes=(), answered=(), guards=chosen.get(name, ()),
                ))

    finder = RequestFinder(model)
    applied = {id(scope.node) for scope in found.scopes}
    delays = Recogniser(model)
    for info in model.functions:
        owner = function_of(info)  # functions that call nothing still return something
        owner.returns = values.refs(model.returned_values(info))
        annotated = model.returned_class(info)
        owner.annotation = model.name_of(annotated) if annotated is not None else None
        owner.decorators = _unknown_decorators(model, info, applied, locate)
        delay = returned_delay(delays, info)
        owner.delay = delay if delay != UNKNOWN else None
        slept = delays.slept_by(info)
        owner.sleeps = slept[0] if slept is not None else None
        for handed, calls in [(owner, None), *lambda_calls.get(id(info), {}).values()]:
            for unsafe in finder.unsafe_requests(info, calls):
                sent = unsafe.sent
                status = unsafe.status
                if status == "unstable" and _made_before_loops(finder, found, unsafe):
                    status = PER_CALL
                handed.requests.append(Request(
                    sent.method, sent.name, status, unsafe.detail, locate(unsafe.call.node), sent.method_from,
                    unsafe.key_from, sent.receiver,
                ))
        if info.returns and (_may_build_headers(model, info) or values.keys):  # headers, or a key made anew
            owner.headers = finder.returned_headers(info)
            keys = returned_keys(model, info)
            owner.returned_keys = tuple(sorted(keys)) if keys is not None else None
    for info, raised in raised_errors(model):
        function_of(info).raises = tuple(raised)
    for policy in found.policies:
        wait = policy.wait
        if wait.via is not None and wait.node is not None and not (wait.slept and policy.polls_result):
            summary.waits.append(Wait(wait.via, wait.detail, policy.library, locate(wait.node), wait.slept, wait.slept_as))
    policies = {id(policy.node): policy for policy in found.policies}
    summary.star_imports = list(model.star_imports)
    summary.sets_socket_default = _sets_socket_default(model)
    summary.imported_modules = list(dict.fromkeys(model.imported_modules))
    summary.settings = settings_assigned(model.module, locate)
    summary.receivers = list(dict.fromkeys(model_receivers(model)))
    summary.fixtures = fixture_doubles(model)
    summary.pytest_plugins = pytest_plugins(model)
    summary.servers = conftest_servers(model)
    summary.server_classes = conftest_server_classes(model)
    summary.local_classes = [_qualified(model, name) for name in local_address_classes(model)]
    summary.mock_classes = mock_classes(model)
    for name, bindings in model.module_scope.bindings.items():
        imported = list(dict.fromkeys(b.imported for b in bindings if b.imported is not None))
        if imported:
            summary.imports[name] = imported[-1]
            if len(imported) > 1:  # ``try: from urllib.request import urlopen`` / ``except ImportError: …``
                summary.other_imports[name] = imported[:-1]
        policy = policies.get(id(bindings[-1].expr)) if bindings[-1].expr is not None else None
        _keep_policy(summary, _qualified(model, name), policy, model, locate, policy.node if policy is not None else None)
        values.store(_qualified(model, name), bindings)
    _store_foreign_writes(model, values)
    for setting, made in settings_made(model):
        if made is not None:
            summary.policies[setting] = _client_layer(model, made, locate)
    for info in model.functions:
        # a factory of a policy (``def ratelimit_backoff(exceptions): return
        # backoff.on_exception(expo, exceptions, max_tries=5)``), applied as ``@ratelimit_backoff(...)``
        policy = policies.get(id(info.returns[0])) if len(info.returns) == 1 and info.owner is None else None
        _keep_policy(summary, _qualified(model, info.qualname), policy, model, locate, policy.node if policy is not None else None)
    for cls in model.classes:
        qualified = _qualified(model, cls.qualname)
        policy = policies.get(id(cls.node))  # a celery task class: ``base=`` applies it anywhere
        _keep_policy(summary, qualified, policy, model, locate, cls.node.name)
        outer = cls.scope.parent or cls.scope
        summary.classes[qualified] = [
            name for name in (model.qualified_name(base, outer, 1 << 62) for base in cls.bases) if name is not None
        ]
        configured = client_class_call(model, cls)
        if configured is not None:
            key = values.object(Instance(cls, site=configured))
            if key:
                summary.objects[f"{CLASS_INSTANCES}{qualified}"] = summary.objects[key]
        adapters = timeout_adapters_elsewhere(cls, model)
        if adapters is None:
            summary.timeout_classes.append(qualified)
        elif adapters:
            summary.timeout_adapters[qualified] = adapters
        for attribute, bindings in cls.scope.bindings.items():
            values.store(f"{qualified}.{attribute}", bindings + cls.instance_attributes.get(attribute, []))
        for attribute, bindings in cls.instance_attributes.items():
            if attribute not in cls.scope.bindings:
                values.store(f"{qualified}.{attribute}", bindings)
    return summary


def _mapping_written(model: SemanticModel, value: cst.BaseExpression, site: CallSite) -> bool:
    """A dict written out where it is passed, or a local assigned one (or one or ``None`` by
    a condition: ``extra = {"Idempotency-Key": key} if key else None``)."""
    if isinstance(value, cst.Name):
        value = model.assigned_expression(value, site.scope, site.order) or value
    if isinstance(value, cst.IfExp):
        return all(isinstance(side, cst.Dict) or is_none(side) for side in (value.body, value.orelse))
    return isinstance(value, cst.Dict)


def _store_foreign_writes(model: SemanticModel, values: "_Values") -> None:
    """What this file sets another module's names (or a class's) to: ``config.TIMEOUT = 30``
    after ``from app import config``, stored under ``app.config.TIMEOUT`` for the project pass
    to join with the module's own assignments; one it cannot read is stored as unknown."""
    own = f"{model.module_name}." if model.module_name else "\0"
    writes: Dict[str, List[Binding]] = {}
    for target, binding in model.attribute_writes:
        owner = model.resolve(target.value, binding.scope, binding.order)
        if not isinstance(owner, QName) or owner.name.startswith(own):
            continue
        writes.setdefault(f"{owner.name}.{binding.name}", []).append(binding)
    for name, bindings in writes.items():
        values.store(name, bindings)
        values.summary.values.setdefault(name, [("unknown",)])


def _handed_lambdas(
    model: SemanticModel, values: "_Values", function_of: Callable[[Optional[FunctionInfo]], FunctionSummary], locate: Locate,
) -> None:
    """A function summary for each lambda a call is handed as an argument
    (``with_retries(lambda: requests.post(url, json=body))``), named after the function it is
    written in and its place: what the function it is handed to runs when it calls it."""
    for site in model.calls:
        for arg in site.node.args:
            node = arg.value
            if node.__class__ is not cst.Lambda or arg.star or id(node) in values.lambdas:
                continue
            owner = function_of(site.scope.enclosing_function)
            place = locate(node)
            handed = FunctionSummary(f"{owner.name}.<lambda at {place.line}:{place.column}>", place)
            handed.parameters = [param.name.value for param in node.params.params]  # type: ignore[attr-defined]
            values.summary.functions[handed.name] = handed
            values.lambdas[id(node)] = handed


def _sets_socket_default(model: SemanticModel) -> bool:
    """Whether importing the module sets a process-wide socket timeout: the last
    ``socket.setdefaulttimeout`` call of its top level is given something other than ``None``.
    (One set in a function holds only for the processes that run it: a start-up routine, a
    script's ``main``, a service of one platform.)"""
    if model.text is not None and "setdefaulttimeout" not in model.text:
        return False
    given = [
        site.node.args[0].value for site in model.calls
        if site.scope is model.module_scope and site.node.args and model.call_name(site) == "socket.setdefaulttimeout"
    ]
    return bool(given) and not is_none(given[-1])


_ENCLOSING = (cst.If, cst.Else, cst.For, cst.While, cst.Try, cst.TryStar, cst.ExceptHandler, cst.Finally, cst.With)


def _default_set_before(model: SemanticModel, site: CallSite) -> bool:
    """Whether the function sets ``socket.setdefaulttimeout(N)`` (not ``None``) before the
    call, in a block around it: a client waiting the socket default waits that (a probe that
    sets 5 s, connects, and puts ``None`` back)."""
    if model.text is not None and "setdefaulttimeout" not in model.text:
        return False
    if model.call_name(site) in _CONNECT_ON_USE:
        site = _first_use(model, site) or site
    around = {id(node) for node in site.stack}
    return any(
        setter.scope is site.scope and setter.order < site.order and setter.node.args
        and not is_none(setter.node.args[0].value) and model.call_name(setter) == "socket.setdefaulttimeout"
        and all(id(node) in around for node in setter.stack if isinstance(node, _ENCLOSING))
        for setter in model.calls_in(site.scope)
    )


# Clients that connect at their first request, not when made: they wait the socket default set
# when that request is sent (``proxy = ServerProxy(url)``, ``socket.setdefaulttimeout(5)``,
# ``proxy.status()``).
_CONNECT_ON_USE = frozenset({"xmlrpc.client.ServerProxy", "http.client.HTTPConnection", "http.client.HTTPSConnection"})


def _first_use(model: SemanticModel, site: CallSite) -> Optional[CallSite]:
    """The first call through the local name the client ``site`` makes is assigned to."""
    names = site.scope.names_bound_to(site.node)
    uses = [
        call for call in model.calls_in(site.scope)
        if call.order > site.order and isinstance(call.node.func, cst.Attribute)
        and isinstance(call.node.func.value, cst.Name) and call.node.func.value.value in names
    ]
    return min(uses, key=lambda call: call.order) if len(names) == 1 and uses else None


def _self_method_called(binding: Binding) -> Optional[str]:
    """``self.connection = self.get_connection(key)`` in a method: the method called on the
    object, which a subclass may override (the base's ``__init__`` then runs the override)."""
    expr = binding.expr
    if not isinstance(expr, cst.Call) or not isinstance(expr.func, cst.Attribute):
        return None
    receiver = expr.func.value
    function = binding.scope.enclosing_function
    first = function.node.params.params[:1] if function is not None and isinstance(function.node, cst.FunctionDef) else ()
    if not first or not isinstance(receiver, cst.Name) or receiver.value != first[0].name.value or function.owner is None:
        return None
    return expr.func.attr.value


_MAX_CALLEES = 3  # the objects one call may go to that the summary keeps (``(a or b).get``)
_MAX_PASSED = 3  # the values kept per argument


class _Values:
    """The values of a file's names, attributes, returns and arguments as summary data, and
    the facts of the objects they hold (``lint/summary.py`` describes the forms)."""

    def __init__(self, model: SemanticModel, summary: ModuleSummary, locate: Locate, top: Callable[[], FunctionSummary]) -> None:
        self.model = model
        self.summary = summary
        self.locate = locate
        self.top = top
        self.finder = RequestFinder(model)
        self.in_mapping = False  # reading the entries of a ``dict(...)`` (``keyword_mapping``)
        # integer arguments matter in decorator calls only (``@with_retries(5)``)
        self.decorator_calls = {
            id(d.decorator) for f in model.functions for d in f.decorators if isinstance(d.decorator, cst.Call)
        }
        # a file that makes no key makes no fresh one either (the generators are named so)
        self.keys = model.text is None or _KEY_WORDS.search(model.text) is not None
        # an OAuth token body is written with its ``grant_type`` key, a sign-in form with a
        # password field
        self.tokens = model.text is None or "grant_type" in model.text or _PASSWORD_WORD.search(model.text) is not None
        # The key of each object's facts, by what they depend on (its class, the call that made
        # it, the function that configured it): the same object is passed, stored and
        # returned many times, and its facts read the whole file's mounts and sessions.
        self.objects: Dict[Tuple[object, ...], str] = {}
        # id(lambda) → the function summary of a lambda handed to a call as an argument
        self.lambdas: Dict[int, FunctionSummary] = {}

    def store(self, name: str, bindings: List[Binding]) -> None:
        """The joined values of a name (or attribute) under ``name``, when any is known.
        Imports, defs and classes are names the project pass finds by themselves."""
        found: List[Value] = []
        mappings: List[Ref] = []
        for binding in bindings:
            if binding.imported is not None or binding.defined is not None or is_none(binding.expr):
                continue
            if isinstance(binding.expr, (cst.Integer, cst.Float)):
                number = number_of(binding.expr)
                if number is not None:
                    # a constant a guard may compare with, or another module's timeout
                    mappings.append(("int", number) if isinstance(number, int) else ("float", number))
                continue
            if isinstance(binding.expr, cst.Dict) or _empty_dict_call(binding.expr):
                mapping = self.mapping(binding.expr, binding) if isinstance(binding.expr, cst.Dict) else ("dict", ())
                if mapping is not None:
                    mappings.append(self.with_items_set(mapping, binding))
                continue
            fallback = self.fallback(binding)
            if fallback is not None:
                mappings.append(fallback)
                continue
            late = _self_method_called(binding)
            if late is not None:
                mappings.append((LATE, late))  # what a subclass's override returns, on its objects
            found.extend(self.model.binding_values(binding))
        refs = mappings + self.refs(tuple(found))
        if not refs or all(b.scope is self.model.module_scope and isinstance(b.expr, cst.Call) for b in bindings):
            refs += self.timeout_constant(bindings)
        elif any(ref[0] in ("int", "float") for ref in refs) and any(is_none(b.expr) for b in bindings if b.imported is None):
            refs.append(("none",))  # a number on some assignments only: not one timeout
        if refs:
            self.summary.values[name] = refs

    def timeout_constant(self, bindings: List[Binding]) -> List[Ref]:
        """A name only ever bound to ``None``, a tuple of numbers or (at module level) a call
        that makes a timeout or arithmetic (``FRAUD_TIMEOUT = None``, ``REPORT_TIMEOUT = (5, 300)``,
        ``STREAM = httpx.Timeout(5, read=None)``, ``SLOW = timedelta(minutes=2).total_seconds()``,
        ``BACKUP_TIMEOUT = SERVER_TIMEOUT * 30``),
        as the timeout it would be (``("timeout", PHASES, SCALAR, TEXT)``): another module's
        client call may be given it. The value flow does not read it."""
        found: Set[Ref] = set()
        for binding in bindings:
            expr = binding.expr
            if binding.imported is not None or binding.defined is not None or not (
                is_none(expr) or isinstance(expr, (cst.Tuple, cst.List))
                or (isinstance(expr, (cst.Call, cst.BinaryOperation)) and binding.scope is self.model.module_scope)
            ):
                return []
            assert expr is not None
            value = TimeoutEvaluator(self.model, binding.scope, binding.order).evaluate(expr, at_site=False)
            if value is None or any(p.seconds is None and not p.unbounded for p in value.phases):
                return []  # not every element is a number or None: not a timeout
            phases = tuple((p.name, p.seconds, p.unbounded, p.note) for p in value.phases)
            text = code_of(expr, limit=None)
            found.add(("timeout", phases, value.scalar, text if len(text) <= 40 else ""))  # shown as the file pass shows it
        return list(found) if len(found) == 1 else []

    def mapping(self, expr: cst.Dict, binding: Binding) -> Optional[Ref]:
        """A dict literal by its string keys: what each entry holds (a dispatch table of
        functions, a mapping of default headers). Entries of unknown value are kept, holding
        nothing, so that the keys a mapping has are known."""
        entries: List[Tuple[str, Ref]] = []
        for element in expr.elements:
            if not isinstance(element, cst.DictElement):
                return None  # ``**other``: keys the file cannot list
            key = string_of(element.key)
            if key is None:
                return None
            number = number_of(element.value) if isinstance(element.value, cst.Integer) else None
            refs = [("int", number)] if isinstance(number, int) else self.refs(
                self.model.resolve_all(element.value, binding.scope, binding.order)
            )
            entries.append((key, refs[0] if refs else ("unknown",)))
        return ("dict", tuple(entries))

    def with_items_set(self, mapping: Ref, binding: Binding) -> Ref:
        """A dict the function that makes it then fills in by key (``self.managers = dict()``,
        then ``self.managers["KeyValuePair"] = ResourceManager(...)``): the entries it sets too."""
        target = next((
            dotted_name(node.targets[0].target) for node in iter_nodes(binding.scope.node.body, stop_at=DEFINITIONS)  # type: ignore[attr-defined]
            if isinstance(node, cst.Assign) and node.value is binding.expr and len(node.targets) == 1
        ), None) if binding.scope.function is not None else None
        if target is None:
            return mapping
        entries = list(mapping[1])
        known = {key for key, _ in entries}
        for key, value in keys_set_on(binding.scope.node, target):
            if key not in known:
                known.add(key)
                refs = self.refs(self.model.resolve_all(value, binding.scope, 1 << 62))
                entries.append((key, refs[0] if refs else ("unknown",)))
        return ("dict", tuple(entries))

    def keyword_mapping(self, call: cst.Call) -> Optional[Ref]:
        """``dict(session=session, timeout=60)``, by entry as a dict literal is."""
        site = self.model.call_site(call)
        if site is None or not call.args or any(arg.keyword is None for arg in call.args):
            return None
        entries: List[Tuple[str, Ref]] = []
        self.in_mapping = True  # an entry made by ``dict(...)`` in turn is kept as a dict, not read
        try:
            for arg in call.args:
                refs = self.refs(self.model.resolve_all(arg.value, site.scope, site.order))
                entries.append((arg.keyword.value, refs[0] if refs else ("unknown",)))  # type: ignore[union-attr]
        finally:
            self.in_mapping = False
        return ("dict", tuple(entries))

    def fallback(self, binding: Binding) -> Optional[Ref]:
        """``session or make_session()`` with ``session`` a parameter: the parameter's values,
        and the fallback's for the callers that may pass nothing (``("or", parameter,
        fallback values)``)."""
        if not self.model.falls_back(binding):
            return None
        expr = binding.expr
        assert isinstance(expr, cst.BooleanOperation)
        name = self.model.name_of(self.model.resolve_all(expr.left, binding.scope, binding.order)[0])
        return ("or", name, tuple(self.refs(self.model.resolve_all(expr.right, binding.scope, binding.order)))) if name else None

    def refs(self, values: Values) -> List[Ref]:
        found: List[Ref] = []
        for value in values:
            ref = self.ref(value)
            if ref is not None and ref not in found:
                found.append(ref)
        return found

    def ref(self, value: Value) -> Optional[Ref]:
        model = self.model
        if isinstance(value, Instance):
            name = model.type_name(value)
            if name == "builtins.dict" and isinstance(value.site, cst.Call) and not self.in_mapping:
                written = self.keyword_mapping(value.site)
                if written is not None:
                    return written
            return ("new", name, self.object(value)) if name is not None else None
        if isinstance(value, Const):
            return ("str", value.value)
        if isinstance(value, QName) and value.name in _BOOLEANS:
            return ("bool", _BOOLEANS[value.name])
        if isinstance(value, Partial):
            name = model.name_of(value.of)
            if name is None:
                return None
            keywords = tuple(a.keyword.value for a in value.call.args if a.keyword is not None)
            unpacked = any(a.star == "**" for a in value.call.args)
            return ("partial", name, keywords + (("**",) if unpacked else ()))
        name = model.name_of(value)
        # built-in functions say nothing the project pass asks; built-in exception classes may
        # be what a retry helper is told to catch (``retries_with_backoff(fn, TypeError, 5)``)
        if name is None or (name.startswith(_SKIPPED_TARGETS) and not _BUILTIN_EXCEPTION.fullmatch(name)):
            return None
        return ("ref", name)

    def object(self, value: Instance) -> str:
        """The key of the object's facts in the summary, "" when the file shows none."""
        if value.site is None:
            return ""
        made = (value.of if isinstance(value.of, str) else id(value.of), id(value.site), id(value.by))
        key = self.objects.get(made + (id(value.bound),))
        if key is None:
            # the object a factory's call returns is that of its other calls, unless the call
            # decides what the factory gives it from a parameter (``make_session(0)``)
            bound = value.bound if value.bound is not None and configured_at_call(self.model, value) else None
            key = self.objects.get(made + (id(bound),))
            if key is None:
                key = self.objects[made + (id(bound),)] = self._object(replace(value, bound=bound))
            self.objects[made + (id(value.bound),)] = key
        return key

    def _object(self, value: Instance) -> str:
        facts = object_facts(self.model, value)
        if facts is None:
            return ""
        layer, sets_timeout, key, namespaced, presign, requests = facts
        where = self.locate(value.site)
        name = where.key + (f":{value.by.qualname}" if value.by is not None else "")
        if value.bound is not None:
            called = self.locate(value.bound)
            name += f"@{called.key}"
        if name not in self.summary.objects:
            index: Optional[int] = None
            if layer is not None:
                top = self.top()
                top.layers.append(_client_layer(self.model, layer, self.locate))
                index = len(top.layers) - 1
            self.summary.objects[name] = ObjectFacts(
                index, sets_timeout, key, namespaced and index is not None, presign, requests,
            )
        return name

    def passed(self, site: CallSite) -> Tuple[Tuple[Any, Ref], ...]:
        """The values a call passes that the file can read, by position or keyword."""
        found: List[Tuple[Any, Ref]] = []
        position: Optional[int] = 0
        for arg in site.node.args:
            if arg.star == "*":
                function = self.model.positional_mapping(arg.value, site.scope, site.order) if position is not None else None
                if function is not None:
                    # ``f(*args)`` with the function's own ``*args``: from this position on, what
                    # its callers pass after its named parameters
                    found.append((f"{STAR_ARGS}{position}", ("ref", f"{self.model.name_of(function)}.(*)")))
                position = None  # later positions are unknown
                continue
            if arg.star:
                forwarded = self.forwarded(arg.value, site)
                written = self.local_mapping(arg.value, site) if not forwarded else None
                if written is not None:
                    forwarded = [("**", written)]
                elif not forwarded and isinstance(arg.value, cst.Name):
                    # ``Base.__init__(**config)`` with a mapping of keywords the callers pass
                    forwarded = [("**", ref) for ref in self.refs(self.model.resolve_all(arg.value, site.scope, site.order))
                                 if ref[0] == "dict" or (ref[0] == "ref" and ref[1].endswith(")"))]
                found.extend(forwarded)
                continue
            if arg.keyword is None and position is None:
                continue
            slot: Any = position if arg.keyword is None else arg.keyword.value
            if position is not None and arg.keyword is None:
                position += 1
            if self.tokens and self.finder.token_body(arg.value, site):  # (``body=login_body`` of a wrapper too)
                found.append((slot, ("token",)))  # for a project function that sends it on
                continue
            if slot == "headers":  # for a project function that sends them on: what of the key
                status, source = self.finder.passed_headers(arg.value, site)
                if status != "unknown":
                    found.append((slot, ("headers", status, source or "")))
                continue
            if arg.value.__class__ is cst.Integer and (id(site.node) in self.decorator_calls or self._own_function(site)):
                # (to a function of the file: how many times its loop goes round, ``range(startup_period)``)
                number = number_of(arg.value)
                if isinstance(number, int):
                    found.append((slot, ("int", number)))
                continue
            if id(site.node) in self.decorator_calls and arg.value.__class__ in (cst.Name, cst.Attribute):
                # a decorator is evaluated where its function is defined: a class constant
                # (``@retry_request(retries=retries)`` with ``retries = 6`` in the class body)
                outer = site.scope.parent if site.scope.kind == "function" and site.scope.parent is not None else site.scope
                number = number_of(self.model.followed(arg.value, outer, site.order))
                if isinstance(number, int):
                    found.append((slot, ("int", number)))
                    continue
                # and the classes a decorator is told to retry (``@retry(KeyError)``)
                named = self.model.resolve_all(arg.value, site.scope, site.order)
                if len(named) == 1 and isinstance(named[0], QName):
                    found.append((slot, ("ref", named[0].name)))
                    continue
            if arg.value.__class__ is cst.Lambda and id(arg.value) in self.lambdas:
                found.append((slot, ("ref", self.lambdas[id(arg.value)].name)))
                continue
            if arg.value.__class__ in _NO_VALUE:
                continue
            if arg.value.__class__ is cst.Name and arg.value.value == "None":  # type: ignore[attr-defined]
                found.append((slot, ("none",)))  # ``fatal=None``: a constant a callee's tests may read
                continue
            if self.keys and _mapping_written(self.model, arg.value, site):
                # a mapping with the key, for a helper that merges it into the headers it builds
                status, source = self.finder.passed_headers(arg.value, site)
                if status not in ("unknown", "missing"):
                    found.append((slot, ("headers", status, source or "")))
                    continue
            fresh = self.fresh(arg.value, site) if self.keys else None
            if fresh is not None:
                found.append((slot, ("fresh", fresh)))
                continue
            value = sent_body(self.model, arg.value, site) if slot in ("data", "json") else arg.value
            written = self.local_mapping(value, site)
            refs = [written] if written is not None else self.refs(self.model.resolve_all(value, site.scope, site.order))
            if value.__class__ is cst.Name and written is None:
                # an annotated parameter handed on (``method: Method``) holds what its callers
                # pass (``Method.POST``), not only an object of the class it names
                reaching = self.model.reaching(value.value, site.scope, site.order)  # type: ignore[attr-defined]
                if len(reaching) == 1 and reaching[0].parameter is not None and reaching[0].annotation is not None:
                    refs = [*refs, *(ref for ref in self.refs([reaching[0].parameter]) if ref not in refs)]
            found.extend((slot, ref) for ref in refs[:_MAX_PASSED])
        return tuple(found)

    def local_mapping(self, value: cst.BaseExpression, site: CallSite) -> Optional[Ref]:
        """A local of the calling function last assigned a dict written out (``config =
        {"session": session}``), by entry."""
        if not isinstance(value, cst.Name) or site.scope.parent is None:
            return None
        binding = self.model.lookup(value.value, site.scope, site.order)
        if binding is None or binding.scope is not site.scope or not isinstance(binding.expr, cst.Dict):
            return None
        return self.mapping(binding.expr, binding)


    def _own_function(self, site: CallSite) -> bool:
        """The call runs a function of the file (``self.wait_for_weaviate(10)``)."""
        return isinstance(self.model.resolve(site.node.func, site.scope, site.order), FunctionInfo)

    def fresh(self, value: cst.BaseExpression, site: CallSite) -> Optional[str]:
        """The random-key call a passed value is made by where it is passed: written there
        (``key=uuid.uuid4()``), or assigned to a local of the calling function
        (``key = str(uuid.uuid4())`` … ``key=key``), which every call of that function makes anew."""
        if value.__class__ not in _NO_CALL:
            return self.finder.generator(value, site.scope, site.order, False)
        if not isinstance(value, cst.Name) or site.scope.parent is None:
            return None
        binding = self.model.lookup(value.value, site.scope, site.order)
        if binding is None or binding.expr is None or binding.scope is not site.scope:
            return None
        loop = next((node for node in reversed(site.stack) if isinstance(node, (cst.For, cst.While, cst.FunctionDef))), None)
        if isinstance(loop, (cst.For, cst.While)) and not _contains(loop, binding.expr):
            return None  # made once before the loop that may retry the call
        made = self.finder.generator(binding.expr, binding.scope, binding.order, False)
        return f"`{value.value} = {made.strip('`')}`" if made is not None else None

    def attributes_passed(self, site: CallSite) -> Tuple[Tuple[Any, Ref], ...]:
        """What the attributes of the objects a call passes were set to before it
        (``fq.status = status``; ``send_webhooks(fq)``), in slots "0.status"."""
        found: List[Tuple[Any, Ref]] = []
        for slot, expr in attributes_passed(self.model, site):
            literal = constant(self.model, expr, site) if not isinstance(expr, (cst.Name, cst.Attribute)) else None
            refs = [literal] if literal is not None else self.refs(self.model.resolve_all(expr, site.scope, site.order))
            found.extend((slot, ref) for ref in refs[:_MAX_PASSED])
        return tuple(found)

    def forwarded(self, mapping: cst.BaseExpression, site: CallSite) -> List[Tuple[Any, Ref]]:
        """``f(**kwargs)`` with the function's own ``**kwargs``: whatever keywords its callers
        pass (slot ``**``), and the keys it sets itself (``kwargs["client"] = make()``,
        ``kwargs.setdefault("http", Session())``), which a decorator's wrapper injects so."""
        handed = _handed_back(self.model, mapping, site)
        if handed is not None:  # ``**self._set_request_timeout(kwargs)``: the kwargs, as the helper fills them in
            mapping = handed[2]
        function = self.model.keyword_mapping(mapping, site.scope, site.order)
        if function is None:
            return []
        found: List[Tuple[Any, Ref]] = [("**", ("ref", f"{self.model.name_of(function)}.(**)"))]
        filler, filled_name = (handed[0], handed[1]) if handed is not None else (function, mapping.value)  # type: ignore[attr-defined]
        for key, value in keys_filled_in(self.model, filler, filled_name):
            if isinstance(value, cst.Name) and value.value == "None":
                found.append((key, ("none",)))
                continue
            refs = self.refs(self.model.resolve_all(value, filler.scope, site.order if filler is function else 1 << 62))
            found.extend((key, ref) for ref in refs[:_MAX_PASSED])
        return found


def _made_before_loops(finder: RequestFinder, found: RetryScopes, unsafe: Unsafe) -> bool:
    """A key the function makes anew on each call, before the retry loops of the function
    around the request: the same on every attempt of those loops, though not of a retry of
    the whole function."""
    call = unsafe.call
    loops = [scope for scope in found.covering() if isinstance(scope.covers, (cst.For, cst.While))
             and any(node is scope.covers for node in call.stack)]
    return bool(loops) and all(finder.key_status(call, scope, unsafe.sent.position)[0] == "ok" for scope in loops)


_BOOLEANS = {"builtins.True": True, "builtins.False": False}
# Expressions whose value no project fact depends on (numbers, containers of them, f-strings).
_NO_VALUE = frozenset({
    cst.Integer, cst.Float, cst.Imaginary, cst.FormattedString, cst.BinaryOperation, cst.UnaryOperation,
    cst.Comparison, cst.List, cst.Tuple, cst.Set, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp,
    cst.Lambda,
})


# Expressions that call nothing, so make no fresh key by themselves.
_NO_CALL = frozenset({cst.Name, cst.Attribute, cst.SimpleString, cst.ConcatenatedString})
# Words without which no URL a project wrapper is handed in the file is one of this
# machine's (what matters in test code only), nor a pytest fixture's or a test's own route.
_PASSWORD_WORD = re.compile(r"passw(?:or)?d", re.I)
_HERE_WORDS = ("127.0.0.1", "0.0.0.0", "localhost", "::1", "def test", "live_server", "httpbin", "httpserver", "docker_ip")
# Whole words: "time" inside "timeout" or "datetime" names no generator (``RANDOM_KEYS``).
_KEY_WORDS = re.compile(r"\b(?:uuid|shortuuid|secrets|random|urandom|time|datetime|ulid|nanoid|idempotency_key)\b")


def _unpacked_function(model: SemanticModel, site: CallSite) -> str:
    """What the call's only ``**`` argument is, as its file names it: the result of a function of
    another module (``requests.get(url, **make_hook_kwargs())``: "app.hooks.make_hook_kwargs()"),
    or an attribute of an object (a property: ``Redis(**config.REDIS_KWARGS)``); "" when there
    is none, or the file reads it (``Call.unpacks``)."""
    stars = [arg for arg in site.node.args if arg.star == "**"]
    if len(stars) == 1 and isinstance(stars[0].value, cst.Attribute):
        # ``Redis(**config.REDIS_KWARGS)``: a property of another module's class, which the
        # project pass finds by the object's values
        return model.qualified_name(stars[0].value, site.scope, site.order) or ""
    unpacked = stars[0].value if len(stars) == 1 else None
    if isinstance(unpacked, cst.Name):
        unpacked = _only_unpacked_result(model, site, unpacked)  # ``kw = make(); f(**kw)``
    if not isinstance(unpacked, cst.Call):
        return ""
    func = unpacked.func
    if isinstance(model.resolve(func, site.scope, site.order), FunctionInfo):
        return ""  # the file's own: judged with the file (``clients.find_timeout``)
    name = model.qualified_name(func, site.scope, site.order)
    return f"{name}()" if name else ""


def _only_unpacked_result(model: SemanticModel, site: CallSite, name: cst.Name) -> Optional[cst.BaseExpression]:
    """The call a local holds when the function assigns it that call's result once and uses it
    only here (``aws_config = self.config.get_aws_config()``, then ``boto3.client(...,
    **aws_config)``): nothing else can change its keys."""
    scope = site.scope
    bindings = scope.bindings.get(name.value) if scope.kind == "function" else None
    if not bindings or len(bindings) != 1 or not isinstance(bindings[0].expr, cst.Call):
        return None
    mentions = sum(1 for node in iter_nodes(scope.node) if isinstance(node, cst.Name) and node.value == name.value)
    return bindings[0].expr if mentions == 2 else None


def _may_build_headers(model: SemanticModel, info: FunctionInfo, depth: int = 0) -> bool:
    """A function whose returns may be a header mapping: a dict literal, ``dict(...)``, a name
    bound to one, or what another such function of the file returns (most functions return
    something else, and are not read)."""
    for expr in info.returns:
        followed = model.followed(expr, info.scope, 1 << 62)
        if isinstance(followed, cst.Dict):
            return True
        if isinstance(followed, cst.Call):
            callee = model.resolve(followed.func, info.scope, 1 << 62)
            if model.name_of(callee) == "builtins.dict":
                return True
            if isinstance(callee, FunctionInfo) and callee is not info and depth < 3 and _may_build_headers(model, callee, depth + 1):
                return True
    return False


def _applied(model: SemanticModel, scope: RetryScope) -> Optional[Tuple[CallSite, str]]:
    """A policy applied by a call to a function the file cannot see (``Retrying(...)(fn)``,
    ``queue.enqueue(fn, retry=Retry(...))`` with ``fn`` from another module): the call, and the
    function's name, which the project pass follows."""
    if scope.kind != "call" or scope.covers is not None or not isinstance(scope.node, cst.Call):
        return None
    site = model.call_site(scope.node)
    target = applied_function(scope.node)
    if target is None:
        positional = [a.value for a in scope.node.args if a.keyword is None and not a.star]
        target = positional[0] if positional else None
    name = model.qualified_name(target, site.scope, site.order) if site is not None and target is not None else None
    if site is None or name is None or name.startswith(_SKIPPED_TARGETS):
        return None
    return site, name


def _foreign_policies(
    model: SemanticModel, found: RetryScopes,
) -> Iterator[Tuple[cst.CSTNode, List[CallSite], str, Optional[str]]]:
    """Loops and calls driven by an object another module defines, which may be a retry policy
    (``for attempt in api_retrying: with attempt:``, ``api_retrying(fn, *args)``): (where, the
    calls it covers, the object's name, the function a call retries)."""
    recognised = {id(scope.covers) for scope in found.scopes} | {id(scope.node) for scope in found.scopes}
    for loop in model.loops:
        if not isinstance(loop, cst.For) or id(loop) in recognised or not _attempt_loop(loop):
            continue
        via = _foreign_name(model, loop.iter, loop)
        if via is None:
            continue
        covered = [site for site in model.calls if any(node is loop for node in site.stack)
                   and not _inside(site.node, loop.iter)]
        if covered:
            yield loop, covered, via, None
    for site in model.calls:
        node = site.node
        if id(node) in recognised or not node.args or node.args[0].keyword is not None or node.args[0].star:
            continue
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("call", "__call__"):
            func = func.value
        via = _foreign_name(model, func, site)
        if via is None:
            continue
        retried = model.qualified_name(node.args[0].value, site.scope, site.order)
        if retried is not None and not retried.startswith(_SKIPPED_TARGETS):
            yield node, [site], via, retried


def _attempt_loop(loop: cst.For) -> bool:
    """``for attempt in X: with attempt: ...``, the shape of a retrying iterator's loop."""
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    first = body[0] if body else None
    if not isinstance(first, cst.With) or not isinstance(loop.target, cst.Name):
        return False
    return any(isinstance(item.item, cst.Name) and item.item.value == loop.target.value for item in first.items)


def _foreign_name(model: SemanticModel, expr: cst.BaseExpression, where: object) -> Optional[str]:
    """The name of an object imported from another module, which the file cannot see into."""
    if not isinstance(expr, (cst.Name, cst.Attribute)):
        return None
    site = where if isinstance(where, CallSite) else None
    scope = site.scope if site is not None else model.scope_of.get(_enclosing(model, where)) or model.module_scope
    order = site.order if site is not None else 1 << 62
    values = model.resolve_all(expr, scope, order)
    if len(values) != 1 or not isinstance(values[0], QName):
        return None
    name = values[0].name
    root = expr
    while isinstance(root, cst.Attribute):
        root = root.value
    binding = model.lookup(root.value, scope, order) if isinstance(root, cst.Name) else None
    if binding is None or binding.imported is None or name.startswith(_SKIPPED_TARGETS):
        return None
    return name


def _enclosing(model: SemanticModel, loop: object) -> Optional[cst.CSTNode]:
    for site in model.calls:
        if any(node is loop for node in site.stack):
            for node in reversed(site.stack):
                if isinstance(node, (cst.FunctionDef, cst.Lambda)):
                    return node
            return model.module
    return None


def _inside(node: cst.CSTNode, container: cst.CSTNode) -> bool:
    return any(inner is node for inner in iter_nodes(container))


def _guard(model: SemanticModel, scope: RetryScope, site: CallSite) -> str:
    """The parameter that decides whether the loop runs: tested by an ``if`` around it, or by
    an ``if`` before it that returns (``if not retry: return send()``); "retry" when the loop
    runs only if it is true, "!retry" only if it is false."""
    previous: Optional[cst.CSTNode] = None
    for node in site.stack:
        if node is scope.covers:
            break
        if isinstance(node, cst.If) and not _contains(node.orelse, scope.covers):
            tested = _tested_parameter(model, node.test, site)
            if tested is not None:
                return tested
        previous = node
    single = _single_attempt_unless(model, scope, site)
    if single:
        return single
    if isinstance(previous, cst.FunctionDef) and isinstance(previous.body, cst.IndentedBlock):
        for statement in previous.body.body:
            if statement is scope.covers:
                break
            if isinstance(statement, cst.If) and statement.orelse is None and leaves_block(statement.body):
                tested = _tested_parameter(model, statement.test, site)
                if tested is not None:
                    return tested[1:] if tested.startswith("!") else "!" + tested
    return ""


def _single_attempt_unless(model: SemanticModel, scope: RetryScope, site: CallSite) -> str:
    """``for attempt in range(attempts)`` with ``attempts = self.max_attempts if retry else 1``:
    one attempt unless the parameter says so ("retry", or "!retry" for the reverse)."""
    loop = scope.covers
    if not isinstance(loop, cst.For) or not isinstance(loop.iter, cst.Call) or not loop.iter.args:
        return ""
    count = model.followed(loop.iter.args[-1].value, site.scope, site.order)
    if not isinstance(count, cst.IfExp):
        return ""
    for once, polarity in ((count.orelse, ""), (count.body, "!")):
        if number_of(once) in (0, 1):
            tested = _tested_parameter(model, count.test, site)
            if tested is not None:
                return polarity + tested if not tested.startswith("!") else (tested[1:] if polarity else tested)
    return ""


def _tested_parameter(model: SemanticModel, test: cst.BaseExpression, site: CallSite) -> Optional[str]:
    negated = False
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, negated = test.expression, True
    if isinstance(test, cst.Name) and any(isinstance(v, Param) for v in model.resolve_all(test, site.scope, site.order)):
        return ("!" if negated else "") + test.value
    return None


def _empty_dict_call(expr: Optional[cst.BaseExpression]) -> bool:
    """``dict()``: an empty mapping, as ``{}`` is."""
    return isinstance(expr, cst.Call) and not expr.args and isinstance(expr.func, cst.Name) and expr.func.value == "dict"


def _contains(tree: Optional[cst.CSTNode], node: Optional[cst.CSTNode]) -> bool:
    return tree is not None and node is not None and any(inner is node for inner in iter_nodes(tree))


def _receiver_made_at(model: SemanticModel, site: CallSite, locate: Locate) -> str:
    """Where the object a method is called on was made, when the file shows the one call
    that made it."""
    func = site.node.func
    assert isinstance(func, cst.Attribute)
    values = model.resolve_all(func.value, site.scope, site.order)
    if len(values) != 1 or not isinstance(values[0], Instance) or not isinstance(values[0].site, cst.Call):
        return ""
    where = locate(values[0].site)
    return where.key if where is not None else ""


def _keep_policy(
    summary: ModuleSummary, name: str, policy: Optional[Policy], model: SemanticModel, locate: Locate,
    at: Optional[cst.CSTNode],
) -> None:
    """Keep a policy the module makes for the functions of other modules it may decorate."""
    layer = layer_of(policy) if policy is not None else None
    if policy is not None and layer is not None and at is not None:
        summary.policies[name] = _layer(model, policy, layer, locate(at), whole_function=True)


def _kept_here(model: SemanticModel, site: CallSite) -> Optional[Tuple[str, ...]]:
    """When the object ``site`` makes never leaves its function, the names of its attributes
    the function reads or calls: it is called on at once (``Api(...).url()``), or held by a
    local the function assigns it once and mentions elsewhere only to read an attribute
    (``oauth = SpotifyOAuth(...)``; ``oauth.get_authorize_url()``, ``oauth.cache_handler``)."""
    called_on = model.derived(_CALLED_ON, lambda: {
        id(other.node.func.value): other.node.func.attr.value for other in model.calls if isinstance(other.node.func, cst.Attribute)
    })
    if id(site.node) in called_on:
        return (called_on[id(site.node)],)
    if _discarded(site):
        return ()  # ``with pytest.raises(ValueError): Client(None)``: thrown away at once
    name = site.scope.name_bound_to(site.node)
    reads = model.attribute_reads(site.scope, name) if name is not None else None
    return tuple(dict.fromkeys(read.attr.value for read in reads)) if reads else None


_CALLED_ON = object()  # ``derived`` key: the methods called on the file's objects, by node


def _discarded(site: CallSite) -> bool:
    """The call is a statement of its own, in the innermost block around it."""
    owner = site.stack[-1] if site.stack else None
    if isinstance(owner, (cst.FunctionDef, cst.For, cst.While)):
        suites = [block(owner.body)]
    else:
        suites = child_blocks(owner) if owner is not None else []
    return any(
        isinstance(small, cst.Expr) and small.value is site.node
        for suite in suites for stmt in suite if isinstance(stmt, cst.SimpleStatementLine) for small in stmt.body
    )


def _through_object(model: SemanticModel, site: CallSite) -> bool:
    """The call's callee is an attribute of an object the file knows (not of a module or a class)."""
    func = site.node.func
    if not isinstance(func, cst.Attribute):
        return False
    return any(isinstance(v, Instance) for v in model.resolve_all(func.value, site.scope, site.order))


_SCALARS = frozenset({"int", "float", "str", "bytes", "bool"})


def _signature(model: SemanticModel, info: FunctionInfo) -> Tuple[List[str], int, Dict[str, Ref], Dict[str, str]]:
    """A function's positional parameters, how a call through an object binds the first, its
    constant defaults (True, False, strings), and its parameters annotated with a builtin
    scalar type (``order: int``) that do not default to None."""
    node = info.node
    if not isinstance(node, cst.FunctionDef):
        return [], 0, {}, {}
    params = node.params
    positional = [p.name.value for p in (*params.posonly_params, *params.params)]
    bound = 0
    if info.owner is not None:
        names = {model.qualified_name(d.decorator, info.scope.parent or info.scope, 1 << 62) for d in info.decorators}
        bound = 0 if "builtins.staticmethod" in names else 2 if "builtins.classmethod" in names else 1
    defaults: Dict[str, Ref] = {}
    scalars: Dict[str, str] = {}
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        default = param.default
        annotation = param.annotation.annotation if param.annotation is not None else None
        if isinstance(annotation, cst.Name) and annotation.value in _SCALARS and not (default is not None and is_none(default)):
            scalars[param.name.value] = annotation.value
        ref = _default_ref(model, info, default) if default is not None else None
        if ref is not None:
            defaults[param.name.value] = ref
    # ``self.timeout = kwargs.get("timeout", 500)``: a keyword the callers may pass, with the
    # default the function gives it, as a parameter's
    given = (n for n in iter_nodes(node.body) if n.__class__ is cst.Call and len(n.args) == 2)  # a default written out
    for read in (_keyword_read(params, n) for n in given) if params.star_kwarg is not None else ():
        ref = _default_ref(model, info, read.default) if read is not None and read.default is not None else None
        if read is not None and ref is not None and read.name.value not in defaults:
            defaults[read.name.value] = ref
    return positional, bound, defaults, scalars


def _default_ref(model: SemanticModel, info: FunctionInfo, default: cst.BaseExpression) -> Optional[Ref]:
    """A parameter's default as the summary keeps it: a string, a flag, a number (an integer
    also a constant's), ``None``, or another module's name it is given."""
    text = string_of(default)
    if text is not None:
        return ("str", text)
    if isinstance(default, cst.Name) and default.value in ("True", "False"):
        return ("bool", default.value == "True")
    if isinstance(default, cst.Integer) and isinstance(number_of(default), int):
        return ("int", number_of(default))
    if isinstance(default, cst.Float) and isinstance(number_of(default), float):
        return ("float", number_of(default))
    if is_none(default):
        return ("none",)  # ``headers=None``: no headers unless given
    if isinstance(default, cst.Name):  # ``retries=API_RETRY_COUNT``: a constant's number
        number = number_of(model.followed(default, info.scope.parent or info.scope, 1 << 62))
        binding = model.lookup(default.value, info.scope.parent or info.scope, 1 << 62) if number is None else None
        if isinstance(number, int):
            return ("int", number)
        if binding is not None and binding.imported is not None:
            return ("ref", binding.imported)
    if isinstance(default, cst.Attribute):  # ``timeout=Transfer.DEFAULT_TIMEOUT``: a class's constant
        owner = model.resolve(default.value, info.scope.parent or info.scope, 1 << 62)
        if isinstance(owner, ClassInfo):
            bindings = owner.scope.bindings.get(default.attr.value)
            number = number_of(bindings[-1].expr) if bindings and bindings[-1].expr is not None else None
            if isinstance(number, int):
                return ("int", number)
        name = model.name_of(owner) if owner is not None else None
        if name is not None:
            return ("ref", f"{name}.{default.attr.value}")
    return None


def _client_layer(model: SemanticModel, client: ClientLayer, locate: Locate) -> Layer:
    description, calls, where, policy, raises, refusals = client
    # An SDK's retries end in an exception of its own package ("openai.*"): an outer layer
    # that retries only other libraries' exceptions does not repeat it.
    # (``raises`` names packages, or the classes themselves, capitalised: ``urllib.error.URLError``)
    family = " ".join(name if name[name.rfind(".") + 1:][:1].isupper() else f"{name}.*" for name in raises) or None
    if policy is not None:
        layer = _layer(model, policy, (description, calls), locate(where), client=True)
        return replace(layer, gives_up_with=family) if family else layer
    return Layer(description, calls, locate(where), client=True, retrier=description, gives_up_with=family, retries_refusals=refusals)


def _layer(
    model: SemanticModel, policy: Policy, layer: Tuple[str, Optional[int]], place: Place,
    whole_function: bool = False, client: bool = False,
) -> Layer:
    count_from, count_offset = _count_from(model, policy)
    return Layer(
        layer[0], layer[1], place, whole_function, client, describe(policy), policy.guards_non_idempotent,
        policy.library, policy.retry_on.kind, retried_exceptions(model, policy), gives_up_with(policy),
        count_from=count_from, count_offset=count_offset,
        retries_refusals=policy.retries_refusals, caught_from=_caught_from(model, policy), decided_by=policy.decided_by,
    )


def _caught_from(model: SemanticModel, policy: Policy) -> str:
    """The parameter a hand-written loop's handler catches, or a retry decorator is given,
    when the file cannot name the classes (``except exceptions:`` in a decorator factory
    ``retry(exceptions)``, ``backoff.on_exception(expo, exception_type)``); or the predicate
    of another module a retry is handed (``retry_on_exception=exc.retry_on_connection_errors``),
    whose summary says which classes it answers yes for."""
    if policy.retry_on.kind != ON_SPECIFIC:
        return ""
    if policy.library != "loop":
        # ``backoff.on_exception(expo, exception_type)`` with the classes a parameter
        node = policy.retry_on.node
        values = model.resolve_all(node, policy.scope or model.module_scope, policy.order) if isinstance(node, (cst.Name, cst.Attribute)) else []
        if len(values) == 1 and (isinstance(values[0], Param) or isinstance(values[0], QName) and policy.library == "retrying"):
            return model.name_of(values[0]) or ""
        return ""
    handlers = [
        node for node in iter_nodes(policy.node, stop_at=(cst.FunctionDef, cst.Lambda, cst.ClassDef))
        if isinstance(node, cst.ExceptHandler)
    ]
    if len(handlers) != 1 or not isinstance(handlers[0].type, cst.Name):
        return ""
    values = model.resolve_all(handlers[0].type, policy.scope or model.module_scope, policy.order)
    return (model.name_of(values[0]) or "") if len(values) == 1 and isinstance(values[0], Param) else ""


def _count_from(model: SemanticModel, policy: Policy) -> Tuple[str, int]:
    """What the attempts are when the file cannot count them: the parameter a loop's
    ``range(...)`` reads (with what it adds, ``range(max_retries + 1)``), or the parameter or
    other module's constant a recursion's count starts from; with the attempts to add."""
    if policy.max_attempts != UNKNOWN:
        return "", 0
    node = policy.attempts.node
    offset = 0
    if policy.counted_from is not None:
        counted, offset = policy.counted_from
    elif policy.library == "loop" and isinstance(node, cst.Call) and len(node.args) == 1:
        counted = node.args[0].value
        if isinstance(counted, cst.BinaryOperation) and isinstance(counted.operator, cst.Add) and isinstance(number_of(counted.right), int):
            counted, offset = counted.left, number_of(counted.right)  # type: ignore[assignment]
    else:
        return "", 0
    for value in model.resolve_all(counted, policy.scope or model.module_scope, policy.order):
        if isinstance(value, Param) or (policy.counted_from is not None and isinstance(value, QName)):
            return model.name_of(value) or "", offset  # type: ignore[return-value]
    return "", 0


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
        base = keyword_args(expr)[0].get("base") if isinstance(expr, cst.Call) else None
        base_name = model.qualified_name(base.value, outer, 1 << 62) if base is not None else None
        if base_name is not None:  # ``@app.task(base=ProviderTask)``: the task class's retries
            found.append((base_name, locate(decorator)))
    return found


def _annotated_parameter(model: SemanticModel, site: CallSite) -> str:
    """The parameter of the call's function that the call is made on, when the file knows what
    it holds only by its annotation (``client.api_call(...)``, ``client: WebClient``)."""
    root = site.node.func
    while isinstance(root, cst.Attribute):
        root = root.value
    binding = model.lookup(root.value, site.scope, site.order) if isinstance(root, cst.Name) else None
    function = site.scope.enclosing_function
    if binding is None or binding.parameter is None or binding.annotation is None or function is None or binding.scope is not function.scope:
        return ""
    return root.value  # type: ignore[attr-defined]


def _fills_through_helper(model: SemanticModel, function: FunctionInfo) -> bool:
    """The function hands a mapping to a helper of the file that writes a timeout key into it
    and returns it (``**self._set_request_timeout(kwargs)``)."""
    return any(
        handed is not None and writes_timeout_key(model, handed[0])
        for site in model.calls_run_in(function.scope) for arg in site.node.args if arg.star == "**"
        for handed in (_handed_back(model, arg.value, site),)
    )


def _handed_back(model: SemanticModel, value: cst.BaseExpression, site: CallSite) -> Optional[Tuple[FunctionInfo, str, cst.Name]]:
    """For ``**helper(kwargs)``, the function of the file (a method of the caller's class, or of
    the module) that takes a mapping as its only argument and returns it (having filled keys in:
    ``kwargs.setdefault("timeout", self.timeout)``), with its parameter's name, and the name
    the caller hands it."""
    if not isinstance(value, cst.Call) or len(value.args) != 1:
        return None
    given = value.args[0]
    if given.keyword is not None or given.star or not isinstance(given.value, cst.Name):
        return None
    helper = model.resolve(value.func, site.scope, site.order)
    caller = site.scope.enclosing_function
    if not isinstance(helper, FunctionInfo) or caller is None or helper.owner is not caller.owner:
        return None
    params = [p.name.value for p in (*helper.node.params.posonly_params, *helper.node.params.params)]
    params = params[1:] if helper.owner is not None else params
    returned = helper.returns
    if len(params) != 1 or not returned or not all(isinstance(r, cst.Name) and r.value == params[0] for r in returned):
        return None
    return helper, params[0], given.value


def _merged_into(model: SemanticModel, name: str, site: CallSite) -> Optional[Sequence[cst.BaseDictElement]]:
    """What ``**name`` passes of the caller's keyword arguments: all of them (no elements) while
    the name still holds the parameter; the elements of the dict it was rebound to when that
    dict unpacks them (``options = {"socket_timeout": ..., **options}``); None otherwise."""
    binding = model.lookup(name, site.scope, site.order)
    if binding is None or binding.expr is None:
        return ()
    value = binding.expr
    if isinstance(value, cst.Dict) and any(
        isinstance(e, cst.StarredDictElement) and isinstance(e.value, cst.Name) and e.value.value == name
        for e in value.elements
    ):
        return value.elements
    return None


def _arguments(model: SemanticModel, site: CallSite, locate: Locate) -> Arguments:
    """The shape of the call's arguments, with the values of timeout-like keywords."""
    name = model.call_name(site) or ""
    spec = CLIENT_CALLS.get(name)
    function = site.scope.enclosing_function
    kwargs_param = kwargs_name(function.node) if function is not None else None
    args_param = args_name(function.node) if function is not None else None
    keywords: List[str] = []
    values: List[Argument] = []
    positional, star, double_star, forwards = 0, False, False, False
    forwards_args = False
    evaluator: Optional[TimeoutEvaluator] = None
    for arg in site.node.args:
        if arg.star == "**":
            unpacked = arg.value.value if isinstance(arg.value, cst.Name) and arg.value.value != kwargs_param else None
            where = mapping_scope(unpacked, model, function.scope, site.order) if unpacked is not None and function is not None else None
            written = written_mapping(unpacked, model, where) if unpacked is not None and where is not None else None
            if written is not None:  # ``kwargs = {"timeout": 20}`` … ``send(query, **kwargs)``
                mapping, later = written
                for element in mapping.elements:
                    keyword = string_of(element.key)  # type: ignore[union-attr]
                    if keyword in later:
                        continue  # set again on some path: its value is not this one
                    keywords.append(keyword)  # type: ignore[arg-type]
                    if _recorded(keyword):
                        evaluator = evaluator or TimeoutEvaluator(model, site.scope, site.order, site)
                        values.append(_argument(model, evaluator, function, keyword, element.value, locate))
                for keyword in sorted(later):
                    keywords.append(keyword)  # given, with a value the summary keeps if it is the one on every path
                    value = set_on_every_path(unpacked, keyword, model, where) if _recorded(keyword) else None
                    if value is not None:
                        evaluator = evaluator or TimeoutEvaluator(model, site.scope, site.order, site)
                        values.append(_argument(model, evaluator, function, keyword, value, locate))
                continue
            if isinstance(arg.value, cst.Call):
                called = called_mapping(arg.value, model, site.scope, site.order)
            else:  # ``kw = make_send_kwargs(args)`` … ``**kw``
                called = assigned_mapping(unpacked, model, where) if unpacked is not None and where is not None else None
            if called is not None and all(value is not None for key, value in called.items() if _recorded(key)):
                # ``**self.get_request_kwargs()``: a function of the file returning a dict written out
                for keyword, value in called.items():
                    keywords.append(keyword)
                    if _recorded(keyword) and value is not None:
                        given, read_in = value
                        if read_in is site.scope:
                            evaluator = evaluator or TimeoutEvaluator(model, site.scope, site.order, site)
                            values.append(_argument(model, evaluator, function, keyword, given, locate))
                        else:  # what the function's own names make of it (``args.timeout or None``)
                            values.append(_argument(model, TimeoutEvaluator(model, read_in, 1 << 62), None, keyword, given, locate))
                continue
            keys = local_mapping_keys(unpacked, model, where) if unpacked is not None and where is not None else None
            if keys is not None and not keys & TIMEOUT_KEYWORDS:
                # a dict written out on each branch (``data = {"json": body}`` / ``{"data": body}``):
                # whichever it is, it passes these keys and no timeout
                keywords.extend(sorted(keys))
                continue
            double_star = True
            copied = unpacked is not None and kwargs_param is not None and copies_kwargs(model, unpacked, kwargs_param, site)
            handed = _handed_back(model, arg.value, site)
            if handed is not None and handed[2].value == kwargs_param:
                # ``**self._set_request_timeout(kwargs)``, which fills in and returns them
                forwards = True
                filled, merged = keys_filled_in(model, handed[0], handed[1]), ()
            elif not (isinstance(arg.value, cst.Name) and (arg.value.value == kwargs_param or copied)):
                continue
            else:
                merged = () if copied else _merged_into(model, arg.value.value, site)
                forwards = forwards or merged is not None
                filled = [
                    (string_of(element.key), element.value) for element in merged or () if isinstance(element, cst.DictElement)
                ]
                if merged == () and function is not None:  # ``kwargs.setdefault("timeout", self._timeout)``
                    filled = keys_filled_in(model, function, arg.value.value)
            for keyword, value in filled:
                if _recorded(keyword):  # a default the function fills in
                    keywords.append(keyword)  # type: ignore[arg-type]
                    evaluator = evaluator or TimeoutEvaluator(model, site.scope, site.order, site)
                    given = _argument(model, evaluator, function, keyword, value, locate)  # type: ignore[arg-type]
                    values.append(replace(given, filled_in=merged == ()))
        elif arg.star == "*":
            # only ``*args`` after every positional argument: what it holds lands after them
            forwards_args = not star and args_param is not None and isinstance(arg.value, cst.Name) and (
                arg.value.value == args_param and all(a.star or a.keyword is not None for a in site.node.args[site.node.args.index(arg) + 1:])
            )
            star = True
        elif arg.keyword is None:
            if spec is not None and spec.keyword and spec.position == positional and not star:
                # ``urlopen(url, data, 5)``: kept under its keyword's name, for how long it waits
                evaluator = evaluator or TimeoutEvaluator(model, site.scope, site.order, site)
                values.append(_argument(model, evaluator, function, spec.keyword, arg.value, locate))
            elif spec is None and not star and _timeout_object(model, site, arg.value):
                evaluator = evaluator or TimeoutEvaluator(model, site.scope, site.order, site)
                values.append(_argument(model, evaluator, function, f"{POSITIONAL}{positional}", arg.value, locate))
            positional += 1
        else:
            keyword = arg.keyword.value
            if spec is not None and keyword in spec.elsewhere and not configures_elsewhere(arg, spec):
                continue  # ``client_strategy=SYNC``: as if not given
            keywords.append(keyword)
            if _recorded(keyword) or (spec is None and _timeout_object(model, site, arg.value)):
                evaluator = evaluator or TimeoutEvaluator(model, site.scope, site.order, site)
                values.append(_argument(model, evaluator, function, keyword, arg.value, locate))
    func = site.node.func
    supplied = (
        isinstance(func, cst.Attribute) and name.startswith("requests.Session.")
        and receiver_sets_timeout(func.value, func.attr.value, model, site.scope, site.order)
    ) or connects_later_with_timeout(model, site, name) or timeout_set_before_use(site, name) or (
        name in CLIENT_CALLS and CLIENT_CALLS[name].socket_global and _default_set_before(model, site)
    )
    return Arguments(tuple(keywords), positional, star, double_star, forwards, tuple(values), supplied, forwards_args)


def _timeout_object(model: SemanticModel, site: CallSite, expr: cst.BaseExpression) -> bool:
    """Whether ``expr`` is a timeout object written out (``aiohttp.ClientTimeout(total=None)``),
    or a name last assigned one."""
    made = model.followed(expr, site.scope, site.order) if expr.__class__ in (cst.Name, cst.Attribute) else expr
    return made.__class__ is cst.Call and model.qualified_name(made.func, site.scope, site.order) in TIMEOUT_OBJECTS  # type: ignore[attr-defined]


def _recorded(keyword: Optional[str]) -> bool:
    """Whether a keyword argument's value is kept: a client's timeout keyword, or one named for
    a timeout that a project wrapper may hand on to one (``_timeout=None``,
    ``request_timeout=5``)."""
    return keyword is not None and (keyword in TIMEOUT_KEYWORDS or "timeout" in keyword.lower())


def _argument(
    model: SemanticModel, evaluator: TimeoutEvaluator, function: Optional[FunctionInfo], keyword: str,
    expr: cst.BaseExpression, locate: Locate,
) -> Argument:
    value = evaluator.evaluate(expr)
    data = value_to_data(value) if value is not None else None
    text = code_of(expr, limit=None)
    parameter = _parameter(function, expr)
    kept = None
    if parameter is None and isinstance(expr, cst.Attribute):
        kept = _kept_by_init(function, expr)
        if kept is not None:
            function, parameter = kept
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
    return Argument(keyword, data, text, locate(expr), parameter.name.value, position, default, default_text, kept is not None)


def _kept_by_init(function: Optional[FunctionInfo], expr: cst.Attribute) -> Optional[Tuple[FunctionInfo, cst.Param]]:
    """For ``self.timeout`` in a method other than ``__init__``: the class's ``__init__`` and its
    parameter, when ``__init__`` sets the attribute once, to that parameter, and nothing else in
    the class sets it."""
    binding = function.own_attribute(expr) if function is not None and function.name != "__init__" else None
    init = binding.scope.function if binding is not None else None
    if binding is None or binding.expr is None or init is None or init.name != "__init__" or init.owner is not function.owner:  # type: ignore[union-attr]
        return None
    parameter = _parameter(init, binding.expr)
    return (init, parameter) if parameter is not None else None


def _parameter(function: Optional[FunctionInfo], expr: cst.BaseExpression) -> Optional[cst.Param]:
    """The parameter of ``function`` that ``expr`` reads, if it reads one directly, or through
    the one attribute of ``self`` the function sets to it (``self.timeout = timeout`` in an
    ``__init__`` that then passes ``timeout=self.timeout``)."""
    if function is None or not isinstance(function.node, cst.FunctionDef):
        return None
    if isinstance(expr, cst.Attribute):
        expr = _attribute_parameter(function, expr)  # type: ignore[assignment]
    params = function.node.params
    keyword = _keyword_read(params, expr)
    if keyword is not None:
        return keyword
    if not isinstance(expr, cst.Name):
        return None
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == expr.value:
            assigned = function.scope.bindings.get(expr.value, [])
            return param if len(assigned) == 1 else None  # reassigned in the body: not the parameter
    return None


def _keyword_read(params: cst.Parameters, expr: Optional[cst.BaseExpression]) -> Optional[cst.Param]:
    """``kwargs.get("timeout", 500)`` of the function's own ``**kwargs``: the keyword its callers
    may pass, as a keyword-only parameter with that default (``None`` when it gives none)."""
    star = params.star_kwarg.name.value if isinstance(params.star_kwarg, cst.Param) else None
    if not (star is not None and isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)
            and expr.func.attr.value in ("get", "pop") and isinstance(expr.func.value, cst.Name)
            and expr.func.value.value == star and 1 <= len(expr.args) <= 2 and not any(a.star or a.keyword for a in expr.args)):
        return None
    key = string_of(expr.args[0].value)
    if key is None or not key.isidentifier():
        return None
    default = expr.args[1].value if len(expr.args) == 2 else cst.Name("None")
    return cst.Param(name=cst.Name(key), default=default)


def _overload_stub(info: Optional[FunctionInfo]) -> bool:
    """A ``@typing.overload`` signature of a function whose body is the last definition."""
    return info is not None and any(
        (dotted_name(d.decorator) or "").rsplit(".", 1)[-1] == "overload" for d in info.node.decorators  # type: ignore[union-attr]
    )


def _attribute_parameter(function: FunctionInfo, expr: cst.Attribute) -> Optional[cst.BaseExpression]:
    """What ``self.name`` holds when the method itself sets it once, and nothing else in the
    class sets it: the expression it is set to."""
    binding = function.own_attribute(expr)
    return binding.expr if binding is not None and binding.scope is function.scope else None


def _qualified(model: SemanticModel, qualname: str) -> str:
    return f"{model.module_name}.{qualname}" if model.module_name else qualname


def _depth(site: CallSite, scope: RetryScope) -> int:
    """How deep the layer's loop is on the call's stack (outer loops first)."""
    for index, node in enumerate(site.stack):
        if node is scope.covers:
            return index
    return len(site.stack)
