"""Clients that retry by themselves, whoever calls them: a requests session with a retrying
adapter mounted, an httpx client on a transport built with ``retries=``, and SDK clients whose
library retries every request (botocore, OpenAI).

For each, ``(description, calls per operation, where the retries are configured)``; the count
is None when the file cannot see it (an SDK client configured elsewhere).
"""

from __future__ import annotations

from typing import List, Optional, Protocol, Tuple

import libcst as cst

from resilint.libraries.retry_scopes import (
    ON_RESULT,
    ON_SPECIFIC,
    ON_STATUS,
    Policy,
    retry_scopes,
)
from resilint.libraries.sessions import mounted_on, object_key, receiver_keys
from resilint.lint.canonical import library_class
from resilint.lint.nodes import is_false, keyword_args
from resilint.lint.semantic import CallSite, FunctionInfo, Instance, Scope, SemanticModel
from resilint.lint.traversal import iter_nodes

# method-name prefixes of SDK clients that retry every request → what the library does
# (botocore: 5 attempts in legacy mode, 3 in standard mode, unless the client's Config says
# otherwise; OpenAI: 3 attempts unless max_retries says otherwise. Where the client is built
# is rarely visible from the call, so the count is left unknown rather than guessed.)
_SDK_CLIENTS = {
    "botocore.client.BaseClient.": "botocore client retries",
    "boto3.resource.": "boto3 resource retries",
    "openai.OpenAI.": "OpenAI client retries",
    "openai.AsyncOpenAI.": "OpenAI client retries",
}
_HTTPX_CLIENTS = frozenset({"httpx.Client", "httpx.AsyncClient"})

Layer = Tuple[str, Optional[int]]
ClientLayer = Tuple[str, Optional[int], cst.CSTNode, Optional[Policy]]  # …, where, and the policy


def layer_of(policy: Policy) -> Optional[Layer]:
    """How a retry policy describes itself as a layer, or None when it does not retry at all."""
    attempts = policy.max_attempts
    known = isinstance(attempts, (int, float)) and not isinstance(attempts, bool)
    if policy.kind in ("adapter", "pool", "transport", "urllib3-retry"):
        # these count retries after the first attempt
        if known and attempts <= 0:
            return None
        what = "httpx transport retries" if policy.library == "httpx" else "urllib3 Retry total"
        return (f"{what}={int(attempts)}" if known else f"{what}=unknown"), (int(attempts) + 1 if known else None)
    name = "a hand-written retry loop" if policy.library == "loop" else policy.library
    if known:
        if attempts <= 1:
            return None
        return f"{name} {int(attempts)} attempts", int(attempts)
    if attempts is None and policy.time_limit is None:
        return f"{name} with no attempt limit", None
    return f"{name} (attempts unknown)", None


_REQUEST_METHODS = frozenset({"get", "options", "head", "post", "put", "patch", "delete", "request", "send", "stream"})
# SDK client methods that build or describe rather than call the service
_NOT_REQUESTS = frozenset({"get_paginator", "get_waiter", "can_paginate", "close", "meta", "exceptions",
                           "generate_presigned_url", "generate_presigned_post", "with_options"})


_ADMINISTRATION = _NOT_REQUESTS | frozenset({
    "mount", "get_adapter", "prepare_request", "merge_environment_settings", "build_request", "rebuild_auth",
})


def may_send(name: str) -> bool:
    """Whether a method of a client, by its name, sends a request (``mount`` and ``close`` do not)."""
    method = name.rsplit(".", 1)[-1]
    return method not in _ADMINISTRATION and not method[:1].isupper()


def _sdk_client(name: str) -> Optional[str]:
    """How an SDK client that retries by itself is described, when ``name`` is one of its requests."""
    method = name.rsplit(".", 1)[-1]
    for prefix, description in _SDK_CLIENTS.items():
        if name.startswith(prefix) and method not in _NOT_REQUESTS and not method[:1].isupper():
            return description
    return None


def sdk_request(name: str) -> bool:
    """A request of an SDK client (``botocore.client.BaseClient.put_object``)."""
    return _sdk_client(name) is not None


def client_layer(model: SemanticModel, site: CallSite, name: Optional[str]) -> Optional[ClientLayer]:
    """The retry layer that the client this call goes to adds by itself, if the call is a
    request (``session.mount(...)`` is not)."""
    if name is None:
        return None
    method = name.rsplit(".", 1)[-1]
    description = _sdk_client(name)
    if description is not None:
        return description, None, site.node, None
    func = site.node.func
    if not isinstance(func, cst.Attribute) or method not in _REQUEST_METHODS:
        return None
    return object_layer(model, func.value, site.scope, site.order, name.rsplit(".", 1)[0])


def object_layer(
    model: SemanticModel, expr: cst.BaseExpression, scope: Scope, order: int, kind: Optional[str] = None,
    depth: int = 0,
) -> Optional[ClientLayer]:
    """The retries a client object adds by itself: a session with a retrying adapter mounted, an
    httpx client on a retrying transport, an SDK client; also when the object is what a
    function of the file returns (``session = retrying_session()``)."""
    if kind is None:
        kind = model.type_name(model.resolve(expr, scope, order))
    if kind is None or depth > 3:
        return None
    for prefix, description in _SDK_CLIENTS.items():
        if kind + "." == prefix:
            return description, None, model.followed(expr, scope, order), None  # where it is built
    if library_class(kind) == "requests.Session":
        found = _mounted_retries(model, expr, scope, order)
    elif kind in _HTTPX_CLIENTS:
        found = _transport_retries(model, expr, scope, order)
    else:
        return None
    if found is not None:
        return found
    built = model.followed(expr, scope, order)
    target = model.resolve(built.func, scope, order) if isinstance(built, cst.Call) else None
    if isinstance(target, FunctionInfo):
        for returned in target.returns:
            layer = object_layer(model, returned, target.scope, 1 << 62, kind, depth + 1)
            if layer is not None:
                return layer
    return None


def _layer_at(model: SemanticModel, node: cst.CSTNode) -> Optional[ClientLayer]:
    """The layer of the retrying adapter or transport built by ``node``, if it retries."""
    for scope in retry_scopes(model).scopes:
        if scope.node is node:
            layer = layer_of(scope.policy)
            return None if layer is None else (layer[0], layer[1], node, scope.policy)
    return None


def _mounted_retries(model: SemanticModel, receiver: cst.BaseExpression, scope: Scope, order: int) -> Optional[ClientLayer]:
    return _retrying_adapter(model, mounted_on(model, receiver_keys(receiver, model, scope, order)))


def _retrying_adapter(
    model: SemanticModel, adapters: List[Tuple[cst.BaseExpression, Scope, int]]
) -> Optional[ClientLayer]:
    for adapter, scope, order in adapters:
        layer = _layer_at(model, model.followed(adapter, scope, order))
        if layer is not None:
            return layer
    return None


def instance_layer(model: SemanticModel, value: Instance) -> Optional[ClientLayer]:
    """The retries an object adds to every request by itself, judged at the call that made it:
    an SDK client, a session with a retrying adapter mounted (wherever the file mounts it), an
    httpx client built on a retrying transport."""
    kind = model.type_name(value)
    site = value.site
    if kind is None or site is None:
        return None
    for prefix, description in _SDK_CLIENTS.items():
        if kind + "." == prefix:
            return description, None, site, None
    if library_class(kind) == "requests.Session":
        return _retrying_adapter(model, mounted_on(model, [object_key(value)]))
    if kind in _HTTPX_CLIENTS and isinstance(site, cst.Call):
        transport = keyword_args(site)[0].get("transport")
        made = model.call_site(site)
        if transport is not None and made is not None:
            return _layer_at(model, model.followed(transport.value, made.scope, made.order))
    return None


def _transport_retries(model: SemanticModel, receiver: cst.BaseExpression, scope: Scope, order: int) -> Optional[ClientLayer]:
    built = model.followed(receiver, scope, order)
    if not isinstance(built, cst.Call):
        return None
    transport = keyword_args(built)[0].get("transport")
    if transport is None:
        return None
    return _layer_at(model, model.followed(transport.value, scope, order))


# --- what a layer retries on, and what it raises when it gives up ----------------------------

_GENERIC_EXCEPTIONS = frozenset({"builtins.Exception", "builtins.BaseException"})


def retried_exceptions(model: SemanticModel, policy: Policy) -> Tuple[str, ...]:
    """The exception classes a policy retries, when the code names them; () when unknown."""
    if policy.retry_on.kind != ON_SPECIFIC:
        return ()
    scope, order = policy.scope or model.module_scope, policy.order
    if policy.library == "loop":
        names = []
        for node in iter_nodes(policy.node, stop_at=(cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            if isinstance(node, cst.ExceptHandler) and node.type is not None and not _reraises(node):
                names.extend(_exception_names(model, node.type, scope, order))
        return tuple(names)
    node = policy.retry_on.node
    return tuple(_exception_names(model, node, scope, order)) if node is not None else ()


def gives_up_with(policy: Policy) -> Optional[str]:
    """The exception a layer raises once its attempts are spent, when it is not the last error."""
    if policy.library == "tenacity" and isinstance(policy.node, cst.Call):
        reraise = keyword_args(policy.node)[0].get("reraise")
        if reraise is None or is_false(reraise.value):
            return "tenacity.RetryError"
    return None


def separate_failures(outer: "LayerFacts", inner: "LayerFacts") -> bool:
    """True when two layers retry different kinds of failure, so they do not multiply: the outer
    one retries a business condition (a result) and the inner one errors; the inner one retries
    statuses only and the outer one exceptions; or the outer one never retries what the inner
    one raises when it gives up."""
    if outer.retries_on == ON_RESULT and inner.retries_on != ON_RESULT:
        return True
    if inner.retries_on == ON_STATUS and inner.library == "loop" and outer.retries_on == ON_SPECIFIC:
        return True
    raised = inner.gives_up_with
    caught = set(outer.exceptions)
    return bool(raised and caught and not caught & _GENERIC_EXCEPTIONS and raised not in caught)


class LayerFacts(Protocol):
    library: str
    retries_on: str
    exceptions: Tuple[str, ...]
    gives_up_with: Optional[str]


def _exception_names(model: SemanticModel, node: cst.CSTNode, scope: Scope, order: int) -> List[str]:
    names = []
    for inner in iter_nodes(node):
        if isinstance(inner, (cst.Name, cst.Attribute)):
            name = model.qualified_name(inner, scope, order)
            if name is not None and name.rsplit(".", 1)[-1][:1].isupper():
                names.append(name)
    return names


def _reraises(handler: cst.ExceptHandler) -> bool:
    body = handler.body.body if isinstance(handler.body, cst.IndentedBlock) else ()
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine) and last.body:
        return isinstance(last.body[-1], cst.Raise)
    return False
