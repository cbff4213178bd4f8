"""Clients that retry by themselves, whoever calls them: a requests session with a retrying
adapter mounted, an httpx client on a transport built with ``retries=``, and SDK clients whose
library retries every request (botocore, OpenAI).

For each, ``(description, calls per operation, where the retries are configured)``; the count
is None when the file cannot see it (an SDK client configured elsewhere).
"""

from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst

from resilint.libraries.retry_scopes import Policy, retry_scopes
from resilint.libraries.sessions import mounted_adapters, receiver_key
from resilint.lint.nodes import keyword_args
from resilint.lint.semantic import CallSite, SemanticModel

# method-name prefixes of SDK clients that retry every request → what the library does
# (botocore: 5 attempts in legacy mode, 3 in standard mode, unless the client's Config says
# otherwise; OpenAI: 3 attempts unless max_retries says otherwise. Where the client is built
# is rarely visible from the call, so the count is left unknown rather than guessed.)
_SDK_CLIENTS = {
    "botocore.client.BaseClient.": "botocore client retries",
    "openai.OpenAI.": "OpenAI client retries",
    "openai.AsyncOpenAI.": "OpenAI client retries",
}
_HTTPX_CLIENTS = frozenset({"httpx.Client", "httpx.AsyncClient"})

Layer = Tuple[str, Optional[int]]
ClientLayer = Tuple[str, Optional[int], cst.CSTNode]


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


def client_layer(model: SemanticModel, site: CallSite, name: Optional[str]) -> Optional[ClientLayer]:
    """The retry layer that the client this call goes to adds by itself, if any."""
    if name is None:
        return None
    for prefix, description in _SDK_CLIENTS.items():
        if name.startswith(prefix):
            return description, None, site.node
    func = site.node.func
    if not isinstance(func, cst.Attribute):
        return None
    if name.startswith("requests.Session."):
        return _mounted_retries(model, site, func.value)
    if any(name.startswith(client + ".") for client in _HTTPX_CLIENTS):
        return _transport_retries(model, site, func.value)
    return None


def _layer_at(model: SemanticModel, node: cst.CSTNode) -> Optional[ClientLayer]:
    """The layer of the retrying adapter or transport built by ``node``, if it retries."""
    for scope in retry_scopes(model).scopes:
        if scope.node is node:
            layer = layer_of(scope.policy)
            return None if layer is None else (layer[0], layer[1], node)
    return None


def _mounted_retries(model: SemanticModel, site: CallSite, receiver: cst.BaseExpression) -> Optional[ClientLayer]:
    key = receiver_key(receiver, model, site.scope, site.order)
    for adapter in mounted_adapters(model).get(key, ()) if key is not None else ():
        layer = _layer_at(model, model.followed(adapter, site.scope, site.order))
        if layer is not None:
            return layer
    return None


def _transport_retries(model: SemanticModel, site: CallSite, receiver: cst.BaseExpression) -> Optional[ClientLayer]:
    built = model.followed(receiver, site.scope, site.order)
    if not isinstance(built, cst.Call):
        return None
    transport = keyword_args(built)[0].get("transport")
    if transport is None:
        return None
    return _layer_at(model, model.followed(transport.value, site.scope, site.order))
