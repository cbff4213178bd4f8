"""Clients that retry by themselves, whoever calls them: a requests session with a retrying
adapter mounted, an httpx client on a transport built with ``retries=``, and the library
clients whose retries ``client_retries.py`` reads (SDK clients, urllib3 pools, redis-py,
Minio, Stripe, google-api-core ``retry=``) and gRPC stubs (``grpc_retries.py``).

For each, ``(description, calls per operation, where the retries are configured, policy)``;
the count is None when the code does not say it (a client configured elsewhere). A layer
belongs to a request (``client_layer``) or to an object (``instance_layer``: judged at the
call that made it, so that it follows the object to whatever module uses it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, List, Optional, Protocol, Set, Tuple

import libcst as cst

from resilint.libraries.aws_errors import codes_retried, never_retried
from resilint.libraries.client_retries import (
    CLIENTS,
    NO_ATTEMPT_LIMIT,
    ClientLayer,
    Found,
    client_of,
    client_retries,
    hands_back_last_status,
    instance_retries,
    layer_at,
    layer_of,
    request_retries,
    retries_for_some,
)
from resilint.libraries.grpc_retries import is_stub, stub_request, stub_retries
from resilint.libraries.retry_scopes import (
    ON_ANY,
    ON_RESULT,
    ON_SPECIFIC,
    ON_STATUS,
    Policy,
    normalise,
    retry_scopes,
)
from resilint.libraries.retry_scopes.statements import has_continue
from resilint.libraries.sessions import mounted_on, mounted_on_object, receiver_keys
from resilint.lint.canonical import library_class
from resilint.lint.nodes import call_argument, is_false, is_none, keyword_args, number_of
from resilint.lint.modules import STANDARD_LIBRARY
from resilint.lint.semantic import CallSite, ClassInfo, FunctionInfo, Instance, Param, Scope, SemanticModel
from resilint.lint.summary import Layer
from resilint.lint.traversal import children, iter_nodes

_HTTPX_CLIENTS = frozenset({"httpx.Client", "httpx.AsyncClient"})
# The SDK clients whose requests RES301 counts as calls to another service.
_SERVICES = frozenset({"botocore.client.BaseClient", "boto3.resource", "openai.OpenAI", "openai.AsyncOpenAI", "jira.JIRA"})
_REQUEST_METHODS = frozenset({"get", "options", "head", "post", "put", "patch", "delete", "request", "send", "stream"})
# Methods of clients that build, describe or configure rather than send (``session.mount``,
# ``r.pipeline()``, ``es.options(...)``).
_ADMINISTRATION = frozenset({
    "get_paginator", "get_waiter", "can_paginate", "close", "meta", "exceptions", "generate_presigned_url",
    "generate_presigned_post", "with_options", "options", "mount", "get_adapter", "prepare_request",
    "merge_environment_settings", "build_request", "rebuild_auth", "pipeline", "pubsub", "lock",
    "register_script", "monitor",
})


def may_send(name: str) -> bool:
    """Whether a method of a client, by its name, sends a request (``mount`` and ``close`` do not)."""
    method = name.rsplit(".", 1)[-1]
    return method not in _ADMINISTRATION and not method[:1].isupper()


def sdk_request(name: str) -> bool:
    """A request of an SDK client (``botocore.client.BaseClient.put_object``)."""
    found = client_of(name)
    return found is not None and found[0] in _SERVICES and CLIENTS[found[0]].requests(found[1])


def client_layer(model: SemanticModel, site: CallSite, name: Optional[str]) -> Optional[ClientLayer]:
    """The retry layer that the client this call goes to adds by itself, if the call is a
    request (``session.mount(...)`` is not), or that the request asks for by itself."""
    if name is None:
        return None
    decided, layer = request_retries(model, site, name)
    if decided:
        return layer
    receiver = _receiver(model, site)
    if receiver is None:
        return None
    found = _client_of(name)
    if found is not None:
        kind, path = found
        requests = stub_request(path) if is_stub(kind) else CLIENTS[kind].requests(path)
        return _library_layer(model, receiver, site, kind) if requests else None
    if name.rsplit(".", 1)[-1] not in _REQUEST_METHODS:
        return None
    values = model.resolve_all(receiver, site.scope, site.order)
    # (one object: what it is built or returned as; several are told apart below, each made by
    # its own call, ``session or delivery_session`` with ``delivery_session = make_session(0)``)
    found = object_layer(model, receiver, site.scope, site.order, name.rsplit(".", 1)[0]) if len(values) < 2 else None
    if found is not None:
        return ClientLayer(*found)
    # An object of several values (``client if client is not None else httpx.Client(...)``,
    # or made under ``if client is None:``): the first made here that retries by itself.
    for value in values:
        if isinstance(value, Instance):
            layer = instance_layer(model, value)
            if layer is not None:
                return layer
    return None


def _receiver(model: SemanticModel, site: CallSite) -> Optional[cst.BaseExpression]:
    """The object a method call is made on: ``session`` of ``session.get(url)``, also of
    ``getattr(session, method.lower())(url)``."""
    func = site.node.func
    if isinstance(func, cst.Attribute):
        return func.value
    if (isinstance(func, cst.Call) and len(func.args) >= 2 and not any(a.star or a.keyword for a in func.args[:2])
            and model.qualified_name(func.func, site.scope, site.order) == "builtins.getattr"):
        return func.args[0].value
    return None


def _client_of(name: str) -> Optional[Tuple[str, Tuple[str, ...]]]:
    """The library client (or gRPC stub) class a request name is under, and its method path."""
    found = client_of(name)
    if found is not None or "Stub" not in name:
        return found
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        if is_stub(parts[cut - 1]):
            return ".".join(parts[:cut]), tuple(parts[cut:])
    return None


def _library_layer(
    model: SemanticModel, receiver: cst.BaseExpression, site: CallSite, kind: str,
) -> Optional[ClientLayer]:
    """The layer of the library client a request goes to: the client (or stub) that made the
    object the request is sent on, or the retries set for some requests on the way
    (``client.with_options(max_retries=0).chat.completions.create``)."""
    expr: cst.BaseExpression = receiver
    found: Optional[Found] = None
    for _ in range(8):
        values = model.resolve_all(expr, site.scope, site.order)
        if values and all(isinstance(v, Instance) and _response(model, v, kind) for v in values):
            return None  # ``data.get("Items")`` on what a request returned: a dict, not the client
        made = [v for v in values if isinstance(v, Instance) and (_under(model.type_name(v), kind) or _extends(model, v, kind))]
        if made:
            found = _made_by(model, made, kind, receiver, site)
            break
        if isinstance(expr, cst.Attribute):
            expr = expr.value
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
            override = retries_for_some(model, expr, site)
            if override is not None:
                found = override[0]
                break
            expr = expr.func.value
        else:
            found = _unseen(model, kind, receiver, site)  # built where the file cannot see
            break
    if found is not None and is_stub(kind):
        return ClientLayer(*found[:4], raises=("grpc",))
    return client_retries(kind, found)


def _unseen(model: SemanticModel, kind: str, receiver: cst.BaseExpression, site: CallSite) -> Optional[Found]:
    """The layer of a client built where the file cannot see, when its library retries anyway."""
    client = CLIENTS.get(kind)
    if client is None or client.unseen is None:
        return None
    return client.unseen, None, model.followed(receiver, site.scope, site.order), None


def _response(model: SemanticModel, value: Instance, kind: str) -> bool:
    """Whether ``value`` is what a request of a ``kind`` client returned (``c.list_buckets()``,
    ``s3.Object(b, k).get()``), not the client or one of its parts (``s3.Object(b, k)``)."""
    name = model.type_name(value)
    if not isinstance(value.site, cst.Call) or name is None or not name.startswith(kind + "."):
        return False
    client = CLIENTS.get(kind)
    return client is not None and client.requests(tuple(name[len(kind) + 1:].split(".")))


def _under(name: Optional[str], kind: str) -> bool:
    return name is not None and (name == kind or name.startswith(kind + "."))


def _extends(model: SemanticModel, value: Instance, kind: str) -> bool:
    """Whether ``value`` is an instance of a class of the file that extends the client ``kind``."""
    return isinstance(value.of, ClassInfo) and _client_class(model, value.of) == kind


def _client_class(model: SemanticModel, cls: ClassInfo) -> Optional[str]:
    """The library class a class of the file extends, through its bases here."""
    return library_class(model.library_base(cls)) if cls.bases else None


def _subclass_retries(model: SemanticModel, cls: ClassInfo, kind: str, made: cst.CSTNode) -> Optional[ClientLayer]:
    """The retries of the client ``kind`` an instance of ``cls`` made at ``made`` is."""
    configured = subclass_client_call(model, cls, made)
    return instance_retries(model, kind, configured) if configured is not None else None


def _made_by(
    model: SemanticModel, made: List[Instance], kind: str, receiver: cst.BaseExpression, site: CallSite, depth: int = 0,
) -> Optional[Found]:
    """The layer of the first of ``made`` that retries: a client of ``kind``, or an object one
    made (``s3.Table("t")``, ``r.pipeline()``), judged by that client."""
    unseen = False
    for value in made:
        name = model.type_name(value)
        if value.site is None:
            unseen = True
            continue
        if name == kind:
            retries = stub_retries if is_stub(kind) else instance_retries
            layer = retries(model, kind, value.site)
            if layer is not None:
                return layer[:4]
            continue
        if _extends(model, value, kind):
            layer = _subclass_retries(model, value.of, kind, value.site)  # type: ignore[arg-type]
            if layer is not None:
                return layer[:4]
            continue
        maker = model.call_site(value.site)
        made_by = value.site if isinstance(value.site, cst.Call) else None
        func = made_by.func if made_by is not None else None
        if maker is None or made_by is None or not isinstance(func, cst.Attribute) or depth > 3:
            continue
        override = retries_for_some(model, made_by, maker)
        if override is not None:
            if override[0] is not None:
                return override[0]
            continue
        owners = [v for v in model.resolve_all(func.value, maker.scope, maker.order)
                  if isinstance(v, Instance) and _under(model.type_name(v), kind)]
        layer = _made_by(model, owners, kind, func.value, maker, depth + 1)
        if layer is not None:
            return layer
    return _unseen(model, kind, receiver, site) if unseen else None


def object_layer(
    model: SemanticModel, expr: cst.BaseExpression, scope: Scope, order: int, kind: Optional[str] = None,
    depth: int = 0, bound: Optional[cst.Call] = None,
) -> Optional[Found]:
    """The retries a requests session or an httpx client adds by itself: a retrying adapter
    mounted, a retrying transport; also when the object is what a function of the file returns
    (``session = retrying_session()``), as the call that returned it configured it
    (``bound``: ``make_session(0)`` switches off the adapter's ``max_retries=retries``)."""
    if kind is None:
        kind = model.type_name(model.resolve(expr, scope, order))
    if kind is None or depth > 3:
        return None
    built = model.followed(expr, scope, order)
    target = model.resolve(built.func, scope, order) if isinstance(built, cst.Call) else None
    if isinstance(target, FunctionInfo):
        bound = built  # type: ignore[assignment]
    if library_class(kind) == "requests.Session":
        found = _retrying_adapter(model, mounted_on(model, receiver_keys(expr, model, scope, order)), bound)
    elif kind in _HTTPX_CLIENTS:
        found = _transport_retries(model, expr, scope, order)
    else:
        return None
    if found is not None:
        return found
    if isinstance(target, FunctionInfo):
        for returned in target.returns:
            layer = object_layer(model, returned, target.scope, 1 << 62, kind, depth + 1, bound)
            if layer is not None:
                return layer
    return None


def _retrying_adapter(
    model: SemanticModel, adapters: List[Tuple[cst.BaseExpression, Scope, int]], bound: Optional[cst.Call] = None,
) -> Optional[Found]:
    for adapter, scope, order in adapters:
        built = model.followed(adapter, scope, order)
        if bound is not None and switched_off_by(model, built, bound):
            continue
        layer = layer_at(model, built)
        if layer is not None and bound is not None and layer[1] is None:
            layer = _bound_retries(model, built, bound) or layer
        if layer is not None:
            return layer
    return None


def _bound_retries(model: SemanticModel, adapter: cst.CSTNode, bound: cst.Call) -> Optional[Found]:
    """The layer of ``HTTPAdapter(max_retries=retries)`` in a function of the file as the call
    ``bound`` of that function configures it: a ``Retry(...)`` or a number it passes."""
    passed = _factory_argument(model, adapter, bound)
    if passed is None:
        return None
    value, site = passed
    followed = model.followed(value, site.scope, site.order)
    policy = next((p for p in retry_scopes(model).policies if p.node is followed), None)
    if policy is not None:
        described = layer_of(policy)
        return (described[0], described[1], followed, policy) if described is not None else None
    count = number_of(followed)
    if count is None or isinstance(count, bool) or count != int(count) or count <= 0:
        return None
    return f"urllib3 Retry total={int(count)}", int(count) + 1, adapter, None


def _factory_argument(
    model: SemanticModel, adapter: cst.CSTNode, bound: cst.Call,
) -> Optional[Tuple[cst.BaseExpression, CallSite]]:
    """What the call ``bound`` of a function of the file passes the parameter that the
    function's ``HTTPAdapter(max_retries=...)`` gives as its retries (or the default)."""
    made = model.call_site(adapter) if isinstance(adapter, cst.Call) else None
    if made is None or normalise(model.call_name(made)) != "requests.adapters.HTTPAdapter":
        return None
    given = call_argument(adapter, "max_retries", 2)  # type: ignore[arg-type]
    if given is None or not isinstance(given.value, cst.Name):
        return None
    params = [v for v in model.resolve_all(given.value, made.scope, made.order) if isinstance(v, Param)]
    callee = model.call_site(bound)
    if len(params) != 1 or callee is None or model.resolve(bound.func, callee.scope, callee.order) is not params[0].function:
        return None
    param = params[0]
    passed = call_argument(bound, param.name, param.index)
    if passed is not None:
        return passed.value, callee
    default = param.function.default_of(param.name)
    return (default, callee) if default is not None else None


def configured_at_call(model: SemanticModel, value: Instance) -> bool:
    """The call that returned ``value`` gives the retrying adapter its function mounts its
    retries from a parameter (``make_session(0)``, ``make_session(Retry(total=2))``): the
    object is not the one the function's other calls return."""
    bound = value.bound
    if bound is None:
        return False
    return any(
        _factory_argument(model, model.followed(adapter, scope, order), bound) is not None
        for adapter, scope, order in mounted_on_object(model, value)
    )


def switched_off_by(model: SemanticModel, adapter: cst.CSTNode, bound: cst.Call) -> bool:
    """``HTTPAdapter(max_retries=retries)`` in a function of the file whose call ``bound``
    gives ``retries`` no retries (``0``, ``False``, ``None``): that call's object retries nothing,
    whatever other calls of the function give theirs."""
    passed = _factory_argument(model, adapter, bound)
    value = passed[0] if passed is not None else None
    return value is not None and (number_of(value) == 0 or is_false(value) or is_none(value))


def instance_layer(model: SemanticModel, value: Instance) -> Optional[ClientLayer]:
    """The retries an object adds to every request by itself, judged at the call that made it:
    a library client (its settings, or its library's default), a gRPC stub on a retrying
    channel, a session with a retrying adapter mounted (wherever the file mounts it), an httpx
    client built on a retrying transport."""
    kind = model.type_name(value)
    site = value.site
    if kind is None or site is None:
        return None
    if kind in CLIENTS:
        return instance_retries(model, kind, site)
    if is_stub(kind):
        return stub_retries(model, kind, site)
    found: Optional[Found] = None
    # a project subclass (``class SupplierSession(requests.Session)``) is its library class here
    library = _client_class(model, value.of) if isinstance(value.of, ClassInfo) else library_class(kind)
    if library in CLIENTS and isinstance(value.of, ClassInfo):
        return _subclass_retries(model, value.of, library, site)
    if library == "requests.Session":
        found = _retrying_adapter(model, mounted_on_object(model, value), value.bound)
    elif library in _HTTPX_CLIENTS and isinstance(site, cst.Call):
        transport = keyword_args(site)[0].get("transport")
        made = model.call_site(site)
        if transport is not None and made is not None:
            found = layer_at(model, model.followed(transport.value, made.scope, made.order))
    return ClientLayer(*found) if found is not None else None


def client_class_call(model: SemanticModel, cls: ClassInfo) -> Optional[cst.CSTNode]:
    """For a class of the file that extends a retrying library client and configures it itself,
    the call that does (``super().__init__(...)``): its instances are that client wherever they
    are made."""
    if _client_class(model, cls) not in CLIENTS:
        return None
    configured = subclass_client_call(model, cls, cls.node)
    return configured if configured is not cls.node else None


def subclass_client_call(model: SemanticModel, cls: ClassInfo, made: cst.CSTNode) -> Optional[cst.CSTNode]:
    """The call whose arguments configure the library client a class of the file extends
    (``class ElasticSearchClient(Elasticsearch)``): ``made``, the call that makes it, when no
    class of the file on the way to the library defines ``__init__``; the one call of a base's
    ``__init__`` in the class's ``__init__`` when it writes its arguments out
    (``super().__init__(host=conf["host"], timeout=10)``: every instance is that client);
    None when the arguments come from elsewhere (``**kwargs`` handed on)."""
    for _ in range(5):
        inits = [b.defined for b in cls.scope.bindings.get("__init__", ()) if isinstance(b.defined, FunctionInfo)]
        if len(inits) > 1:
            return None
        if inits:
            calls = [
                part for part in iter_nodes(inits[0].node) if isinstance(part, cst.Call)
                and isinstance(part.func, cst.Attribute) and part.func.attr.value == "__init__"
            ]
            if len(calls) != 1 or any(arg.star for arg in calls[0].args):
                return None
            return calls[0]
        bases = [model.resolve(base, cls.scope.parent or cls.scope, 1 << 62) for base in cls.bases]
        within = [base for base in bases if isinstance(base, ClassInfo) and base is not cls]
        if not within:
            return made
        cls = within[0]
    return None


def shares_layer_with_attributes(model: SemanticModel, value: Instance) -> bool:
    """The object's attributes are parts of the same client (``client.chat.completions``), so
    a request made through them has the object's retries."""
    kind = _client_class(model, value.of) if isinstance(value.of, ClassInfo) and value.of.bases else model.type_name(value)
    client = CLIENTS.get(kind or "")
    return client is not None and client.namespaced


def _transport_retries(model: SemanticModel, receiver: cst.BaseExpression, scope: Scope, order: int) -> Optional[Found]:
    built = model.followed(receiver, scope, order)
    if not isinstance(built, cst.Call):
        return None
    transport = keyword_args(built)[0].get("transport")
    if transport is None:
        return None
    return layer_at(model, model.followed(transport.value, scope, order))


# --- what a layer retries on, and what it raises when it gives up ----------------------------

_GENERIC_EXCEPTIONS = frozenset({"builtins.Exception", "builtins.BaseException"})


def retried_exceptions(model: SemanticModel, policy: Policy) -> Tuple[str, ...]:
    """The exception classes a policy retries, when the code names them; () when unknown."""
    if policy.retry_on.kind != ON_SPECIFIC:
        return ()
    scope, order = policy.scope or model.module_scope, policy.order
    if policy.library == "loop":
        names = []
        handlers = [
            node for node in iter_nodes(policy.node, stop_at=(cst.FunctionDef, cst.Lambda, cst.ClassDef))
            if isinstance(node, cst.ExceptHandler)
        ]
        # a handler's own ``try`` (``try: worker.quit() except Exception: log`` before its
        # ``raise``) catches the handler's work, not what the loop goes round on
        cleanup = {id(inner) for handler in handlers for inner in iter_nodes(handler) if inner is not handler}
        for node in handlers:
            if node.type is None or id(node) in cleanup:
                continue
            # ``except ClientError as e: if e.response["Error"]["Code"] != "X": raise``
            # retries the error with that code only, whether or not the handler ends raising
            codes = codes_retried(model, node, scope, order)
            if codes is not None:
                names.extend(codes)
            elif not _reraises(node):
                names.extend(_exception_names(model, node.type, scope, order))
        return tuple(names)
    node = policy.retry_on.node
    return tuple(_exception_names(model, node, scope, order)) if node is not None else ()


GIVES_UP_QUIETLY = "nothing"  # what ``gives_up_with`` says of a loop that swallows the failure


def gives_up_with(policy: Policy) -> Optional[str]:
    """The exception a layer raises once its attempts are spent, when it is not the last error
    (``GIVES_UP_QUIETLY``: none at all)."""
    if policy.gives_up_quietly:
        return GIVES_UP_QUIETLY
    if policy.gives_up_raising is not None:
        return policy.gives_up_raising
    if policy.library == "tenacity" and isinstance(policy.node, cst.Call):
        reraise = keyword_args(policy.node)[0].get("reraise")
        if reraise is None or is_false(reraise.value):
            return "tenacity.RetryError"
    if policy.library == "httpx":
        return " ".join(_HTTPX_CONNECT_FAILURES)  # a transport retries failed connections only
    if policy.library == "urllib3" and not hands_back_last_status(policy.node):
        return _URLLIB3_GIVES_UP_WITH
    return None


# What an httpx transport raises when its connection retries are spent, with the classes an
# ``except`` or a retry predicate catches them by.
_HTTPX_CONNECT_FAILURES = {
    "httpx.ConnectError": ("httpx.NetworkError", "httpx.TransportError", "httpx.RequestError", "httpx.HTTPError"),
    "httpx.ConnectTimeout": ("httpx.TimeoutException", "httpx.TransportError", "httpx.RequestError", "httpx.HTTPError"),
}
_OS_ERROR = ("builtins.OSError", "builtins.IOError", "builtins.EnvironmentError", "socket.error")
_RESET = ("builtins.ConnectionResetError", "builtins.ConnectionError", *_OS_ERROR)
# The classes an ``except`` catches a client's last failure by, for the failures a layer gives up with.
_CAUGHT_AS = {
    **_HTTPX_CONNECT_FAILURES,
    "urllib.error.URLError": _OS_ERROR,
    "builtins.ConnectionResetError": _RESET,
    "http.client.RemoteDisconnected": (*_RESET, "http.client.BadStatusLine", "http.client.HTTPException"),
    "urllib3.exceptions.MaxRetryError": (
        "urllib3.MaxRetryError", "urllib3.exceptions.RequestError", "urllib3.exceptions.PoolError",
        "urllib3.exceptions.HTTPError", "urllib3.HTTPError",
    ),
}


def separate_failures(
    outer: "LayerFacts", inner: "LayerFacts", in_project: Callable[[str], bool] = lambda name: False,
    ancestry: Callable[[str], Optional[Set[str]]] = lambda name: None,
) -> bool:
    """True when two layers retry different kinds of failure, so they do not multiply: the outer
    one retries a business condition (a result) and the inner one errors; the inner one retries
    statuses only and the outer one exceptions, or the outer one refusals only (429) and the
    inner one never retries those (``guards_non_idempotent``, ``retries_refusals``); or the
    outer one never retries what the inner
    one raises when it gives up (tenacity's ``RetryError``; an SDK's own errors, when the outer
    one retries only exceptions of other libraries; a project class the inner one raises, none
    of whose bases the outer one retries). ``in_project`` tells the project's own exception
    classes, which its code may raise from the inner layer's errors; ``ancestry`` the classes a
    project class derives from, itself included (None when not all are known)."""
    if outer.retries_on == ON_RESULT and inner.retries_on != ON_RESULT:
        return True
    if inner.library in _STOPPED_ONLY_WHEN_TOLD and inner.calls is None and inner.description.endswith(NO_ATTEMPT_LIMIT):
        return True  # a library retry told no limit retries its failures for ever: none reaches the outer layer
    if inner.retries_on == ON_STATUS and inner.library == "loop" and outer.retries_on == ON_SPECIFIC:
        return True
    if (outer.library == "loop" and outer.retries_on in (ON_STATUS, ON_SPECIFIC) and outer.guards_non_idempotent
            and not inner.retries_refusals):
        # the outer loop goes round on a 429 only (an answer's, or an error's: ``if
        # e.status_code != 429: raise``), which the inner layer never retries
        return True
    raised = inner.gives_up_with
    if raised == GIVES_UP_QUIETLY and outer.retries_on in (ON_SPECIFIC, ON_ANY):
        return True  # the outer layer retries errors, and the inner one's never leave it
    if outer.library == "loop" and outer.retries_on == ON_STATUS and not outer.exceptions and not inner.retries_refusals and (
        (raised and raised != GIVES_UP_QUIETLY) or inner.retries_on in (ON_SPECIFIC, ON_ANY)
    ):
        # the outer loop goes round on an answer's status and catches nothing, and the inner
        # layer ends in an error once spent (urllib3 raising for the statuses it retried, unless
        # ``raise_on_status=False``) and never retries a refusal the outer loop may see again
        # (a 429 whose ``Retry-After`` urllib3 honours, then one without): what it retried
        # leaves the outer loop
        return True
    caught = set(outer.exceptions)
    if not caught or caught & _GENERIC_EXCEPTIONS:
        return False
    if not raised and inner.retries_on == ON_SPECIFIC and inner.exceptions and not any(in_project(name) for name in caught):
        # the inner layer raises the last of the project classes it retries: the outer one
        # never retries it when it catches none of them nor of their bases, and nothing on the
        # way turns them into one it catches
        spent = [ancestry(name) for name in inner.exceptions]
        if all(bases is not None and not bases & caught for bases in spent):
            return True
    if not raised:
        return outer.retries_on == ON_SPECIFIC and _last_error_elsewhere(outer, inner, in_project)
    if raised.endswith(".*"):
        packages = tuple(family[:-1] for family in raised.split())
        return all(_elsewhere(name, packages, in_project) or _not_retried(name, packages) for name in caught)
    if " " not in raised and not raised.endswith(".*") and in_project(raised):
        # a project class the inner layer raises when spent (``raise RetriesExhausted()``):
        # separate when none of the classes it derives from is one the outer layer retries
        bases = ancestry(raised)
        if bases is not None and not bases & caught:
            return True
    catching = {name for each in raised.split() for name in (each, *_CAUGHT_AS.get(each, ()))}
    return not (catching & caught) and not any(in_project(name) for name in caught)


def _last_error_elsewhere(
    outer: "LayerFacts", inner: "LayerFacts", in_project: Callable[[str], bool],
) -> bool:
    """An inner layer that retries named classes raises the last of them when spent: the outer
    layer never retries it when everything it catches belongs to other third-party libraries
    (a backoff on botocore's ``ClientError`` around a Neo4j write retried on
    ``neo4j.exceptions.TransientError``), counting a library's relatives as its own
    (``elastic_transport`` for ``elasticsearch``)."""
    retried = [name for name in inner.exceptions if "." in name]
    if inner.gives_up_with is not None or inner.retries_on != ON_SPECIFIC or not retried or len(retried) < len(inner.exceptions):
        return False
    packages = tuple(f"{root}." for name in retried for root in _relatives(name.split(".", 1)[0]))
    return all(_elsewhere(name, packages, in_project) for name in outer.exceptions)


def _relatives(root: str) -> Tuple[str, ...]:
    """A package and those whose exceptions its own derive from or wrap, by what the client
    catalog says they raise together."""
    for client in CLIENTS.values():
        if root in client.raises:
            return client.raises
    return _RELATED.get(root, (root,))


# Exception families the client catalog does not list: requests wraps urllib3's errors, httpx
# httpcore's.
_RELATED = {"requests": ("requests", "urllib3"), "urllib3": ("requests", "urllib3"), "httpx": ("httpx", "httpcore"),
            "httpcore": ("httpx", "httpcore")}


def not_raised_by(name: str, spent: str, in_project: Callable[[str], bool], direct: bool) -> bool:
    """Whether the class ``name`` is never what a client fails with once spent, ``spent`` being
    what it gives up with (``urllib3.* requests.*`` packages, or the classes themselves): a
    class of another third-party library (or, for classes, none they are caught as); or, right
    at the client's request (``direct``: no project code between to turn its error into
    another), also a project class."""
    parts = spent.split()
    if not all(part.endswith(".*") for part in parts):
        if any(in_project(part) for part in parts):
            return False  # (what a project class is caught as is the project's to say)
        catching = {caught for part in parts for caught in (part, *_CAUGHT_AS.get(part, ()))}
        return name not in catching and name not in _GENERIC_EXCEPTIONS and (direct or not in_project(name))
    packages = tuple(part[:-1] for part in parts)
    if name.startswith(packages) or name.split(".", 1)[0] in STANDARD_LIBRARY:
        return False
    return direct or _elsewhere(name, packages, in_project)


def _elsewhere(name: str, packages: Tuple[str, ...], in_project: Callable[[str], bool]) -> bool:
    """An exception class of a third-party library other than ``packages`` (``requests.HTTPError``
    around an OpenAI client): never the class, nor a base class, of what those raise. Built-in
    and standard-library classes may be bases; project classes may wrap their errors."""
    root = name.split(".", 1)[0]
    if name in _NO_CLIENT_BASES:
        return True
    if name.startswith("urllib.error.") and "urllib." not in packages:
        return True  # the errors of the standard library's own client (``ContentTooShortError``)
    return not name.startswith(packages) and root not in STANDARD_LIBRARY and not in_project(name)


# Built-in classes no client's error derives from: what a code raises reading an answer
# (``response["operation_id"]``), never how a connection or a request failed.
_NO_CLIENT_BASES = frozenset({
    "builtins.KeyError", "builtins.IndexError", "builtins.AttributeError", "builtins.TypeError",
    "builtins.NameError", "builtins.ZeroDivisionError", "builtins.StopIteration", "builtins.NotImplementedError",
})


def _not_retried(name: str, packages: Tuple[str, ...]) -> bool:
    """An error of the inner client's own package that its retries never retry, so never end in
    (``client.exceptions.ResourceNotFoundException`` under botocore's throttling and 5xx
    retries). Only botocore's are known: the OpenAI and Stripe clients also retry whatever the
    server asks them to (``x-should-retry``, ``Stripe-Should-Retry``), and google-api-core's
    predicate is the request's own."""
    return "botocore." in packages and never_retried(name)




_URLLIB3_GIVES_UP_WITH = "urllib3.* requests.*"  # ``MaxRetryError``, which a requests adapter wraps (``ConnectionError``)


def for_method(inner: Layer, method: str) -> Layer:
    """The layer ``inner`` as it retries a request of ``method``: a urllib3 ``Retry`` that does
    not list POST or PATCH among its methods repeats such a request only when its connection
    failed, before anything was sent (urllib3 asks ``allowed_methods`` before it retries a read
    error or a status, never before it retries a connect): it retries no answer and no refusal,
    and ends in a connection error once spent."""
    if not (inner.client and inner.library == "urllib3" and inner.guards_non_idempotent and method in ("POST", "PATCH")):
        return inner
    return replace(inner, retries_on=ON_SPECIFIC, retries_refusals=False, gives_up_with=_URLLIB3_GIVES_UP_WITH)


# Retry libraries whose attempts are limited only when the code says so (``stop=``,
# ``max_tries=``, ``stop_max_attempt_number=``): "no limit" there is what the code asked for.
_STOPPED_ONLY_WHEN_TOLD = frozenset({"tenacity", "backoff", "retrying", "stamina"})


class LayerFacts(Protocol):
    description: str
    calls: Optional[int]
    library: str
    retries_on: str
    exceptions: Tuple[str, ...]
    gives_up_with: Optional[str]
    guards_non_idempotent: bool
    retries_refusals: bool


def _exception_names(model: SemanticModel, node: cst.CSTNode, scope: Scope, order: int) -> List[str]:
    """The classes named in ``node`` (a tuple of them, a single one): each whole dotted name,
    not also its last part (``requests.ConnectionError`` is not the built-in ``ConnectionError``)."""
    names = []
    stack: List[Tuple[cst.CSTNode, Scope, int]] = [(node, scope, order)]
    while stack:
        inner, where, at = stack.pop()
        if isinstance(inner, cst.Name):
            # ``NETWORK = (requests.ConnectionError, requests.Timeout)``: the classes it holds
            binding = model.lookup(inner.value, where, at)
            if binding is not None and isinstance(binding.expr, (cst.Tuple, cst.List)):
                stack.extend((element.value, binding.scope, binding.order) for element in reversed(binding.expr.elements))
                continue
            if binding is not None and isinstance(binding.defined, FunctionInfo):
                # ``retry_if_exception(should_retry)``: the classes the predicate answers yes for
                classes = _predicate_classes(binding.defined)
                if classes:
                    stack.extend((cls, binding.defined.scope, 1 << 62) for cls in reversed(classes))
                    continue
            function = binding.scope.function if binding is not None and binding.parameter is not None else None
            default = function.default_of(inner.value) if function is not None else None
            if default is not None:
                # ``def call_with_retries(func, exception_types=TRANSIENT)``: what a call that
                # passes none retries (calls passing others are not told apart)
                stack.append((default, binding.scope.parent or binding.scope, 1 << 62))  # type: ignore[union-attr]
                continue
        name = model.qualified_name(inner, where, at) if isinstance(inner, (cst.Name, cst.Attribute)) else None
        if name is not None:
            if name.rsplit(".", 1)[-1][:1].isupper():
                names.append(name)
            continue
        stack.extend((child, where, at) for child in reversed(list(children(inner))))
    return names


def exceptions_answered(model: SemanticModel, function: FunctionInfo) -> Tuple[str, ...]:
    """The classes, by qualified name, that ``function``, a predicate over an exception,
    answers yes for (``_predicate_classes``); () when it is no such predicate. Another
    module's retry that is handed it (``retry_on_exception=exc.retry_on_connection_errors``)
    retries those."""
    classes = _predicate_classes(function)
    if not classes:
        return ()
    return tuple(name for expr in classes for name in _exception_names(model, expr, function.scope, 1 << 62))


def _predicate_classes(function: FunctionInfo) -> Optional[List[cst.BaseExpression]]:
    """The classes a predicate over an exception tests it against (``isinstance(exc, X)``,
    ``case SlackApiError():`` in a ``match`` on it), when every other exception falls through
    to ``return False`` (its last statement, or a ``case _:`` that returns it), or when it
    returns nothing but those tests (``return isinstance(exc, X) or isinstance(exc, Y)``);
    None otherwise."""
    node = function.node
    if not isinstance(node, cst.FunctionDef) or not node.params.params or not node.body.body:
        return None
    name = node.params.params[0].name.value
    last = node.body.body[-1]
    if isinstance(last, cst.Match) and last.cases and isinstance(last.cases[-1].pattern, cst.MatchAs) and last.cases[-1].pattern.pattern is None:
        last = last.cases[-1].body.body[-1] if last.cases[-1].body.body else last  # type: ignore[union-attr]
    returned = [small.value for small in last.body if isinstance(small, cst.Return)] if isinstance(last, cst.SimpleStatementLine) else []
    falls_false = any(value is not None and is_false(value) for value in returned)
    if not falls_false and not (returned and returned[0] is not None and _answers_tests(node, returned[0], name)):
        return None
    found: List[cst.BaseExpression] = []
    for inner in iter_nodes(node.body):
        if _tests_class(inner, name):
            found.append(inner.args[1].value)  # type: ignore[attr-defined]
        elif isinstance(inner, cst.MatchClass):
            found.append(inner.cls)
    return found or None


def _tests_class(node: cst.CSTNode, name: str) -> bool:
    """``isinstance(name, X)``."""
    return (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "isinstance"
            and len(node.args) == 2 and isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == name)


def _answers_tests(node: cst.FunctionDef, returned: cst.BaseExpression, name: str) -> bool:
    """The function's one ``return`` hands back nothing but tests of the exception's class:
    written there, or in the one name it returns (``retrying = isinstance(exc, A) or
    isinstance(exc, B)``, logged, then ``return retrying``)."""
    if isinstance(returned, cst.Name):
        assigned = [
            small.value for stmt in node.body.body for small in (stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ())
            if isinstance(small, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == returned.value for t in small.targets)
        ]
        tests = len(assigned) == 1 and _only_tests(assigned[0], name)
    else:
        tests = len(node.body.body) == 1 and _only_tests(returned, name)
    # (the walk last: most functions end in a ``return`` of something else, and every one is asked)
    return tests and sum(isinstance(inner, cst.Return) for inner in iter_nodes(node.body, stop_at=(cst.FunctionDef, cst.Lambda))) == 1


def _only_tests(expr: cst.BaseExpression, name: str) -> bool:
    """``isinstance(exc, X) or isinstance(exc, Y)``: true only for those classes."""
    if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or):
        return _only_tests(expr.left, name) and _only_tests(expr.right, name)
    return _tests_class(expr, name)


def _reraises(handler: cst.ExceptHandler) -> bool:
    """The handler ends raising, and goes round on no path before (``if retryable: continue``)."""
    body = handler.body.body if isinstance(handler.body, cst.IndentedBlock) else ()
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine) and last.body:
        return isinstance(last.body[-1], cst.Raise) and not has_continue(body)
    return False
