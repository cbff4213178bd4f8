"""gRPC's own retries: a channel whose service config (the ``grpc.service_config`` channel
option) has a ``retryPolicy`` retries the calls of the stubs built on it, each up to
``maxAttempts`` times, the original attempt included (values above 5 count as 5: gRPC's
``service_config.proto``). ``grpc.enable_retries`` is on by default; 0 turns every retry off.
Without a ``retryPolicy`` gRPC only retries transparently (a call that never left the client),
which is no layer.

A stub's calls are retried when the channel it is built on is one the file shows (built in
the file, or by a function of the file), and a policy of the config names the stub's
service (``{"service": "inventory.v1.Stock"}`` for ``StockStub``) or every service."""

from __future__ import annotations

import json
from typing import Any, List, Optional, Tuple

import libcst as cst

from resilint.libraries.client_retries import ClientLayer, Found
from resilint.lint.nodes import call_argument, number_of, string_keyed, string_of
from resilint.lint.semantic import Instance, Scope, SemanticModel

# channel factories → the position of their ``options``
_CHANNELS = {
    "grpc.insecure_channel": 1, "grpc.secure_channel": 2,
    "grpc.aio.insecure_channel": 1, "grpc.aio.secure_channel": 2,
}
_INTERCEPTED = frozenset({"grpc.intercept_channel", "grpc.aio.intercept_channel"})
_MAX_ATTEMPTS = 5
_UNKNOWN = object()  # a value the file does not spell out


def is_stub(kind: str) -> bool:
    """A class named like a generated gRPC stub (``StockStub``)."""
    name = kind.rsplit(".", 1)[-1]
    return name.endswith("Stub") and name[:1].isupper() and len(name) > 4


def stub_request(path: Tuple[str, ...]) -> bool:
    """``stub.Reserve(request)``, ``stub.Reserve.future(request)``, ``stub.Reserve.with_call(request)``."""
    return len(path) == 1 or (len(path) == 2 and path[1] in ("future", "with_call"))


def stub_retries(model: SemanticModel, kind: str, site: cst.CSTNode) -> Optional[ClientLayer]:
    """The retries of the stub of class ``kind`` built by the call ``site``."""
    call = model.call_site(site)
    if call is None or not isinstance(site, cst.Call):
        return None
    channel = call_argument(site, "channel", 0)
    if channel is None:
        return None
    service = kind.rsplit(".", 1)[-1][:-len("Stub")]
    for value in model.resolve_all(channel.value, call.scope, call.order):
        if isinstance(value, Instance) and value.site is not None:
            layer = _channel_retries(model, value, service, 0)
            if layer is not None:
                return ClientLayer(*layer, raises=("grpc",))  # a stub raises ``grpc.RpcError``
    return None


def _channel_retries(model: SemanticModel, channel: Instance, service: str, depth: int) -> Optional[Found]:
    made = channel.site
    call = model.call_site(made) if made is not None else None
    if call is None or not isinstance(made, cst.Call) or depth > 3:
        return None
    kind = model.type_name(channel)
    if kind in _INTERCEPTED:  # ``grpc.intercept_channel(channel, *interceptors)`` keeps its channel's config
        inner = call_argument(made, "channel", 0)
        values = model.resolve_all(inner.value, call.scope, call.order) if inner is not None else ()
        for value in values:
            if isinstance(value, Instance):
                layer = _channel_retries(model, value, service, depth + 1)
                if layer is not None:
                    return layer
        return None
    position = _CHANNELS.get(kind or "")
    if position is None:
        return None
    options = call_argument(made, "options", position)
    if options is None:
        return None
    config, enabled = _UNKNOWN, True
    pairs = literal(model, options.value, call.scope, call.order)
    if not isinstance(pairs, list):
        return None
    for pair in pairs:
        if isinstance(pair, list) and len(pair) == 2:
            if pair[0] == "grpc.enable_retries":
                enabled = pair[1] not in (0, False)
            elif pair[0] == "grpc.service_config":
                config = pair[1]
    if not enabled:
        return None
    if isinstance(config, str):
        try:
            config = json.loads(config)
        except ValueError:
            return None
    attempts = _attempts(config, service)
    if attempts is _UNKNOWN:
        return "gRPC retryPolicy (maxAttempts unknown)", None, made, None
    if attempts is None or attempts <= 1:
        return None
    calls = min(attempts, _MAX_ATTEMPTS)
    shown = f"{attempts}, counted as {_MAX_ATTEMPTS}" if attempts > _MAX_ATTEMPTS else str(attempts)
    return f"gRPC retryPolicy maxAttempts={shown}", calls, made, None


def _attempts(config: Any, service: str) -> Any:
    """The ``maxAttempts`` of the retry policy that applies to ``service``: None when none does
    (or the file cannot tell whether one does), ``_UNKNOWN`` when one does with a count the
    file does not spell out."""
    methods = config.get("methodConfig") if isinstance(config, dict) else None
    if not isinstance(methods, list):
        return None
    for method in methods:
        if not isinstance(method, dict) or "retryPolicy" not in method or not _names(method.get("name"), service):
            continue
        policy = method["retryPolicy"]
        attempts = policy.get("maxAttempts", _UNKNOWN) if isinstance(policy, dict) else _UNKNOWN
        if isinstance(attempts, (int, float)) and not isinstance(attempts, bool):
            return int(attempts)
        return _UNKNOWN
    return None


def _names(names: Any, service: str) -> bool:
    """Whether a method config's names take in the service (an entry without a service is the
    default for every service)."""
    if not isinstance(names, list):
        return True
    for name in names:
        if not isinstance(name, dict):
            return True  # unreadable: it may
        named = name.get("service")
        if not named or named == "*" or not isinstance(named, str):
            return True
        if named.rsplit(".", 1)[-1] == service:
            return True
    return False


def literal(model: SemanticModel, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Any:
    """The Python value of a literal (strings, numbers, booleans, None, lists, tuples, dicts
    with string keys, ``json.dumps(...)`` of one), names followed; ``_UNKNOWN`` where the file
    does not spell it out."""
    if depth > 12:
        return _UNKNOWN
    expr = model.followed(expr, scope, order)
    text = string_of(expr)
    if text is not None:
        return text
    number = number_of(expr)
    if number is not None:
        return number
    if isinstance(expr, cst.Name) and expr.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[expr.value]
    if isinstance(expr, (cst.List, cst.Tuple)):
        items: List[Any] = []
        for element in expr.elements:
            if isinstance(element, cst.StarredElement):
                return _UNKNOWN
            items.append(literal(model, element.value, scope, order, depth + 1))
        return items
    if isinstance(expr, cst.Dict):
        entries = string_keyed(expr)
        if entries is None:
            return _UNKNOWN
        return {key: literal(model, value, scope, order, depth + 1) for key, value in entries.items()}
    if (isinstance(expr, cst.Call) and expr.args and not expr.args[0].keyword and not expr.args[0].star
            and model.qualified_name(expr.func, scope, order) == "json.dumps"):
        return literal(model, expr.args[0].value, scope, order, depth + 1)
    return _UNKNOWN
