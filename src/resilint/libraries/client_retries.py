"""How many times a library client retries each request by itself, read from the call that
builds it (or from the request): the inner layers RES204 multiplies.

Each library's count, default and "off" setting, as its documentation and code say:

* botocore / boto3, ``config=Config(retries={...})``: ``total_max_attempts`` counts every
  attempt, the first included (1: no retry); ``max_attempts`` counts the retries after the
  first in every mode (0: no retry; botocore adds one to it); ``total_max_attempts`` wins when
  both are given. Without either, the count is the retry mode's default (3 attempts in
  ``standard`` mode, botocore's default mode today; 5 in ``legacy`` mode, the default of older
  releases) or ``AWS_MAX_ATTEMPTS``: not in the code.
* OpenAI (``OpenAI``, ``AsyncOpenAI``, the Azure clients): ``max_retries`` retries after the first
  attempt, 2 by default; 0 is off; ``client.with_options(max_retries=...)`` for some requests.
* Elasticsearch and OpenSearch: ``max_retries``, 3 by default (connection errors and statuses
  429/502/503/504; timeouts with ``retry_on_timeout=True``); 0 is off;
  ``client.options(max_retries=...)`` for some requests.
* redis-py: ``retry=Retry(backoff, retries)`` retries that many times (a negative count for
  ever; 0 is off); ``retry_on_timeout=True`` or ``retry_on_error=[...]`` with ``retry=None``
  retries once. Without ``retry=``, those retry once before redis-py 6 and with the client's
  default ``Retry`` since; and a client with none of them retries by default since redis-py 6
  (3 times; 10 since redis-py 8) and not before. The version is not in the code: such a
  client is counted as unknown when it asks for retries, and not at all otherwise.
* Stripe: ``StripeClient(max_network_retries=N)``; a ``StripeClient`` without it does not
  retry. The module setting ``stripe.max_network_retries = N`` (for ``stripe.Charge.create``
  and the like) is 0 by default before stripe-python 12 and 2 since: only an assignment the
  project makes counts (``library_setting``).
* Minio: the urllib3 pool given as ``http_client``; without one, Minio's own pool retries 5
  times (``Retry(total=5, backoff_factor=0.2, status_forcelist=[500, 502, 503, 504])``).
* urllib3 pools: ``retries=`` of the pool (``retry_scopes/urllib3.py``: ``Retry.DEFAULT``, 3
  retries, when not given), replaced for one request by ``retries=`` of the request
  (``False`` or 0: none); ``urllib3.request(...)`` goes through a pool with the default.
* google-api-core: a ``retry=`` argument holding a ``Retry`` retries until its ``timeout`` (120 s
  by default): a time, not a count. Without ``retry=`` each method has its own default (storage
  downloads retry, uploads only with a generation precondition, generated clients as their
  service config says; ``retry=None`` turns it off): not counted.
* jira (``JIRA``): ``max_retries`` retries after the first attempt (connection errors, 429
  and 503), 3 by default; 0 is off.
* slack_sdk (``WebClient``, ``WebhookClient``, their async twins, since slack_sdk 3.9):
  ``retry_handlers=[...]``, one ``RetryState`` shared by every handler, so a request is sent at
  most the largest handler's ``max_retry_count`` + 1 times; without ``retry_handlers`` (or with
  ``None``), ``default_retry_handlers()``: one ``ConnectionErrorRetryHandler`` that retries a
  reset or refused connection once; ``retry_handlers=[]`` is off.
* aiohttp-retry (``RetryClient``): ``attempts`` of its ``retry_options`` counts every attempt,
  the first included (3 by default, ``ExponentialRetry()``); ``retry_scopes/aiohttp_retry.py``.
* gRPC: ``grpc_retries.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple

import libcst as cst

from resilint.libraries.clients import UNKNOWN_VALUE, unpacked_keyword
from resilint.libraries.retry_scopes import Policy, describe, retry_scopes
from resilint.lint.nodes import call_argument, code_of, is_false, is_none, is_true, keyword_args, number_of, string_keyed
from resilint.lint.semantic import CallSite, Scope, SemanticModel
from resilint.lint.traversal import iter_nodes

Layer = Tuple[str, Optional[int]]  # how a layer describes itself, and its calls per operation
# …, where the retries are configured, and the retry policy the file recognised there (if any)
Found = Tuple[str, Optional[int], cst.CSTNode, Optional[Policy]]


class ClientLayer(NamedTuple):
    """The retries a client adds by itself; ``raises``: the packages whose exceptions are all
    it raises once its attempts are spent (an SDK's own errors), when that is so;
    ``retries_refusals``: whether it may retry a refusal (429)."""

    description: str
    calls: Optional[int]
    where: cst.CSTNode
    policy: Optional[Policy]
    raises: Tuple[str, ...] = ()
    retries_refusals: bool = True


NO_ATTEMPT_LIMIT = "with no attempt limit"  # how a layer that never stops describes itself


def layer_of(policy: Policy) -> Optional[Layer]:
    """How a retry policy describes itself as a layer, or None when it does not retry at all."""
    attempts = policy.max_attempts
    known = isinstance(attempts, (int, float)) and not isinstance(attempts, bool)
    if policy.kind in ("adapter", "pool", "transport", "urllib3-retry"):
        # these count retries after the first attempt
        if known and attempts <= 0:
            return None
        if policy.kind == "pool" and policy.attempts.node is None and policy.library == "urllib3":
            return "urllib3 default retries=3", 4  # no ``retries=``: ``Retry.DEFAULT``
        what = "httpx transport retries" if policy.library == "httpx" else "urllib3 Retry total"
        return (f"{what}={int(attempts)}" if known else f"{what}=unknown"), (int(attempts) + 1 if known else None)
    name = describe(policy) if policy.library in ("loop", "recursion") else policy.library
    if known:
        if attempts <= 1:
            return None
        return f"{name} {int(attempts)} attempts", int(attempts)
    if attempts is None and policy.time_limit is None:
        return f"{name} {NO_ATTEMPT_LIMIT}", None
    return f"{name} (attempts unknown)", None


def layer_at(model: SemanticModel, node: cst.CSTNode) -> Optional[Found]:
    """The layer of the retrying adapter, pool or transport built by ``node``, if it retries."""
    for scope in retry_scopes(model).scopes:
        if scope.node is node:
            layer = layer_of(scope.policy)
            return None if layer is None else (layer[0], layer[1], node, scope.policy)
    return None


# --- clients, by class ---------------------------------------------------------------------

Reader = Callable[[SemanticModel, CallSite], Optional[Found]]


@dataclass(frozen=True)
class RetryingClient:
    """A client class that may retry every request: ``read`` tells its retries from the call
    that builds it (None: it does not retry); ``requests`` whether a method path under the
    client (``("chat", "completions", "create")``) sends a request; ``unseen`` describes the
    layer when the call that builds the client is not in the file (None: not a layer then);
    ``namespaced``: its attributes are parts of the same client (``client.chat.completions``);
    ``raises``: the packages whose exceptions are all it raises when its attempts are spent,
    or those exceptions themselves (``urllib.error.URLError``);
    ``refusals``: whether the client built by a call (the node its retries are read at) may
    retry a refusal (429)."""

    read: Reader
    requests: Callable[[Tuple[str, ...]], bool]
    unseen: Optional[str] = None
    namespaced: bool = False
    raises: Tuple[str, ...] = ()
    refusals: Callable[[cst.CSTNode], bool] = lambda where: True


# SDK methods that build or describe rather than call the service
_LOCAL = frozenset({
    "get_paginator", "get_waiter", "can_paginate", "close", "meta", "exceptions", "generate_presigned_url",
    "generate_presigned_post", "with_options", "options", "with_raw_response", "with_streaming_response",
    "construct_event", "parse_thin_event", "parse_event_notification",
})
_POOL_REQUESTS = frozenset({"request", "urlopen", "request_encode_url", "request_encode_body"})
# redis-py methods that do not send a command by themselves
_REDIS_LOCAL = frozenset({
    "pipeline", "pubsub", "lock", "register_script", "monitor", "close", "get_retry", "set_retry", "get_encoder",
    "get_connection_kwargs", "set_response_callback", "load_external_module", "from_url", "from_pool",
})
_MINIO_LOCAL = frozenset({
    "presigned_get_object", "presigned_put_object", "presigned_post_policy", "get_presigned_url", "set_app_info",
    "trace_on", "trace_off", "enable_accelerate_endpoint", "disable_accelerate_endpoint",
    "enable_dualstack_endpoint", "disable_dualstack_endpoint", "enable_virtual_style_endpoint",
    "disable_virtual_style_endpoint",
})


# jira client methods that build or describe rather than call the server
_JIRA_LOCAL = frozenset({"close", "client_info"})


# Methods of namespaced SDK clients that send a request and return its answer: a path that
# goes on after one is a method of that answer (``...create(...).choices[0].message.content.strip``),
# not of the client.
_ANSWERING = frozenset({
    "create", "retrieve", "list", "update", "delete", "cancel", "parse", "stream", "search", "get", "index",
    "bulk", "count", "msearch", "mget", "capture", "confirm", "create_and_poll", "upload", "submit_tool_outputs",
})
# What a boto3 resource's method path may go through before its action: its sub-resources
# (``Object``), its collections (``objects``) and their filters, its ``meta.client``.
_RESOURCE_STEPS = frozenset({"meta", "client", "all", "filter", "limit", "page_size"})


def _sdk_request(path: Tuple[str, ...]) -> bool:
    """A request of a client whose every lower-case method (at any depth) calls the service,
    unless the path goes through the answer of another request on the way (an item of it,
    ``[0]``, or a method that answers)."""
    method = path[-1]
    if method in _LOCAL or method[:1].isupper() or not all(part.isidentifier() for part in path):
        return False
    if any(part.startswith("_") for part in path) or any(part in _SETTINGS for part in path[:-1]):
        return False  # the client's internals and settings (``client.base_url.copy_with(...)``)
    return not any(part in _ANSWERING for part in path[:-1])


# Attributes of an SDK client that hold its settings, not parts of its API.
_SETTINGS = frozenset({
    "base_url", "websocket_base_url", "api_key", "default_headers", "auth_headers", "default_query", "timeout",
    "max_retries", "organization", "project", "custom_auth",
})


def _operation(path: Tuple[str, ...]) -> bool:
    """A botocore client's operation: a method of the client itself (``s3.put_object``), or a
    paginator's or a waiter's, which run it (``s3.get_paginator("list_objects_v2").paginate``);
    not a method of what one returned (``s3.list_buckets().get``) nor of its ``meta``."""
    return (len(path) == 1 and _sdk_request(path) and not path[0].startswith("_")) or path in _RUNNERS


_RUNNERS = frozenset({("get_paginator", "paginate"), ("get_waiter", "wait")})


def _resource_request(path: Tuple[str, ...]) -> bool:
    """An action of a boto3 resource, of one of its sub-resources or of a collection
    (``s3.Bucket(name).objects.filter(...).delete``), not of what an action returned
    (``obj.get()["Body"].read``)."""
    return _sdk_request(path) and all(
        part[:1].isupper() or part in _RESOURCE_STEPS or part.endswith("s") for part in path[:-1]
    )


def _direct_request(local: frozenset) -> Callable[[Tuple[str, ...]], bool]:
    def requests(path: Tuple[str, ...]) -> bool:
        return len(path) == 1 and path[0] not in local and not path[0][:1].isupper() and not path[0].startswith("_")
    return requests


def _redis_request(path: Tuple[str, ...]) -> bool:
    """A command (``r.get``), or a pipeline's ``execute`` (its other methods only queue)."""
    if len(path) == 2 and path[0] in ("pipeline", "transaction"):
        return path[1] == "execute"
    return _direct_request(_REDIS_LOCAL)(path)


def _pool_request(path: Tuple[str, ...]) -> bool:
    return len(path) == 1 and path[0] in _POOL_REQUESTS


def _count(model: SemanticModel, expr: cst.BaseExpression, scope: Scope, order: int) -> Optional[int]:
    value = number_of(model.followed(expr, scope, order))
    return int(value) if value is not None and value == int(value) else None


def _retries_setting(keyword: str, default: int, what: str) -> Reader:
    """A client whose ``keyword`` is the number of retries after the first attempt."""

    def read(model: SemanticModel, site: CallSite) -> Optional[Found]:
        arg = call_argument(site.node, keyword)
        if arg is None:
            for mapping in (a.value for a in site.node.args if a.star == "**"):
                given = unpacked_keyword(mapping, (keyword,), (keyword,), model, site.scope, site.order)
                if given is UNKNOWN_VALUE:
                    return f"{what} retries", None, site.node, None  # ``**options`` may set it
                if given is not None:  # ``Elasticsearch(**defaults)``, ``defaults = {"max_retries": 3, ...}``
                    return _retries(model, given, site, f"{what} {keyword}")  # type: ignore[arg-type]
            return f"{what} {keyword}={default} (the default)", default + 1, site.node, None
        return _retries(model, arg.value, site, f"{what} {keyword}")

    return read


def _retries(
    model: SemanticModel, expr: cst.BaseExpression, site: CallSite, what: str, where: Optional[cst.CSTNode] = None,
) -> Optional[Found]:
    """A number of retries after the first attempt: 0 (or False) is none."""
    where = site.node if where is None else where
    value = model.followed(expr, site.scope, site.order)
    if is_false(value):
        return None
    count = _count(model, expr, site.scope, site.order)
    if count is None:
        return f"{what}={code_of(expr)}", None, where, None
    return (f"{what}={count}", count + 1, where, None) if count > 0 else None


def _botocore(what: str) -> Reader:
    def read(model: SemanticModel, site: CallSite) -> Optional[Found]:
        unknown: Found = (what, None, site.node, None)
        arg = call_argument(site.node, "config", 9)  # boto3.client, Session.client/resource, create_client
        if arg is None:
            return unknown
        config = model.followed(arg.value, site.scope, site.order)
        built = model.qualified_name(config.func, site.scope, site.order) if isinstance(config, cst.Call) else None
        if not isinstance(config, cst.Call) or built != "botocore.config.Config":
            return unknown
        retries = call_argument(config, "retries")
        entries = _entries(model, retries.value, site.scope, site.order) if retries is not None else None
        if entries is None:
            return unknown  # the mode's default, or AWS_MAX_ATTEMPTS
        total, extra = entries.get("total_max_attempts"), entries.get("max_attempts")
        if total is not None:
            count = _count(model, total, site.scope, site.order)
            if count is None:
                return f"{what} (total_max_attempts={code_of(total)})", None, site.node, None
            return (f"{what} (total_max_attempts={count})", count, site.node, None) if count > 1 else None
        if extra is not None:
            count = _count(model, extra, site.scope, site.order)
            if count is None:
                return f"{what} (max_attempts={code_of(extra)})", None, site.node, None
            return (f"{what} (max_attempts={count} retries)", count + 1, site.node, None) if count > 0 else None
        return unknown

    return read


def _entries(
    model: SemanticModel, expr: cst.BaseExpression, scope: Scope, order: int,
) -> Optional[Dict[str, cst.BaseExpression]]:
    """The string-keyed entries of a dict literal or ``dict(key=...)``, None when unreadable."""
    value = model.followed(expr, scope, order)
    if isinstance(value, cst.Dict):
        return string_keyed(value)
    if isinstance(value, cst.Call) and model.qualified_name(value.func, scope, order) == "builtins.dict":
        keywords, star = keyword_args(value)
        if star or any(arg.keyword is None for arg in value.args):
            return None
        return {key: arg.value for key, arg in keywords.items()}
    return None


_REDIS_RETRY = frozenset({"redis.retry.Retry", "redis.asyncio.retry.Retry", "redis.Retry"})


def _redis(model: SemanticModel, site: CallSite) -> Optional[Found]:
    keywords, _ = keyword_args(site.node)
    if "connection_pool" in keywords:
        return None  # the pool's settings apply, not these
    on_timeout, on_error = keywords.get("retry_on_timeout"), keywords.get("retry_on_error")
    asks = None
    if on_timeout is not None and is_true(model.followed(on_timeout.value, site.scope, site.order)):
        asks = "retry_on_timeout=True"
    elif on_error is not None and not is_none(model.followed(on_error.value, site.scope, site.order)):
        asks = "retry_on_error"
    retry = keywords.get("retry")
    if retry is None:
        return (f"redis-py {asks}", None, site.node, None) if asks else None
    value = model.followed(retry.value, site.scope, site.order)
    if is_none(value):
        return (f"redis-py {asks} (1 retry)", 2, site.node, None) if asks else None
    if not isinstance(value, cst.Call) or model.qualified_name(value.func, site.scope, site.order) not in _REDIS_RETRY:
        return None
    retries = call_argument(value, "retries", 1)
    count = _count(model, retries.value, site.scope, site.order) if retries is not None else None
    if count is None:
        return "redis-py Retry (retries unknown)", None, site.node, None
    if count < 0:
        return f"redis-py Retry(retries={count}), which retries for ever", None, site.node, None
    return (f"redis-py Retry(retries={count})", count + 1, site.node, None) if count > 0 else None


_SLACK_HANDLERS = frozenset({
    "slack_sdk.http_retry.ConnectionErrorRetryHandler", "slack_sdk.http_retry.RateLimitErrorRetryHandler",
    "slack_sdk.http_retry.builtin_async_handlers.AsyncConnectionErrorRetryHandler",
    "slack_sdk.http_retry.builtin_async_handlers.AsyncRateLimitErrorRetryHandler",
})
# each returns built-in handlers with their default count (1 retry)
_SLACK_DEFAULTS = frozenset({
    "slack_sdk.http_retry.default_retry_handlers", "slack_sdk.http_retry.all_builtin_retry_handlers",
    "slack_sdk.http_retry.builtin_async_handlers.async_default_handlers",
})
_SLACK_DEFAULT = "slack_sdk default_retry_handlers() (1 retry on a failed connection)"


def _slack(model: SemanticModel, site: CallSite) -> Optional[Found]:
    keywords, star = keyword_args(site.node)
    handlers = keywords.get("retry_handlers")
    if handlers is None or is_none(model.followed(handlers.value, site.scope, site.order)):
        if star and handlers is None:
            return "slack_sdk retry_handlers", None, site.node, None  # ``**options`` may set them
        return _SLACK_DEFAULT, 2, site.node, None
    retries = _slack_handler_retries(model, handlers.value, site)
    if retries is None:
        return f"slack_sdk retry_handlers={code_of(handlers.value, 40)}", None, site.node, None
    return (f"slack_sdk retry_handlers (max_retry_count={retries})", retries + 1, site.node, None) if retries else None


def _slack_handler_retries(model: SemanticModel, expr: cst.BaseExpression, site: CallSite) -> Optional[int]:
    """The largest ``max_retry_count`` of a list of slack_sdk retry handlers (they share one
    count of attempts), None when the list cannot be read."""
    value = model.followed(expr, site.scope, site.order)
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        parts = [_slack_handler_retries(model, side, site) for side in (value.left, value.right)]
        return None if None in parts else max(parts)
    if isinstance(value, cst.Call) and model.qualified_name(value.func, site.scope, site.order) in _SLACK_DEFAULTS:
        return 1 if not value.args else None
    if not isinstance(value, cst.List):
        return None
    largest = 0
    for element in value.elements:
        handler = model.followed(element.value, site.scope, site.order) if isinstance(element, cst.Element) else None
        if not isinstance(handler, cst.Call):
            return None
        count = call_argument(handler, "max_retry_count", 0)
        if count is None:
            if model.qualified_name(handler.func, site.scope, site.order) not in _SLACK_HANDLERS:
                return None  # a handler class of the project's own, with its own default
            largest = max(largest, 1)
            continue
        read = _count(model, count.value, site.scope, site.order)
        if read is None:
            return None
        largest = max(largest, read)
    return largest


def _stripe_client(model: SemanticModel, site: CallSite) -> Optional[Found]:
    arg = call_argument(site.node, "max_network_retries")
    return _retries(model, arg.value, site, "StripeClient max_network_retries") if arg is not None else None


def _minio(model: SemanticModel, site: CallSite) -> Optional[Found]:
    arg = call_argument(site.node, "http_client", 6)
    if arg is None:
        return "Minio's default urllib3 Retry total=5", 6, site.node, None
    return layer_at(model, model.followed(arg.value, site.scope, site.order))


def _pool(model: SemanticModel, site: CallSite) -> Optional[Found]:
    return layer_at(model, site.node)


# aiohttp-retry's ``RetryClient``: the options it is given (``retry_scopes/aiohttp_retry.py``);
# once spent it hands back the last answer, or raises the last error as aiohttp raised it
_AIOHTTP_RETRY = RetryingClient(_pool, _direct_request(frozenset({"close"})), raises=("aiohttp",))


_OPENAI = RetryingClient(
    _retries_setting("max_retries", 2, "OpenAI client"), _sdk_request, "OpenAI client retries", True, ("openai",),
)
_BOTO = ("botocore", "boto3", "s3transfer")
_ELASTICSEARCH = RetryingClient(
    _retries_setting("max_retries", 3, "Elasticsearch client"), _sdk_request, namespaced=True,
    raises=("elasticsearch", "elastic_transport"),
)
_OPENSEARCH = RetryingClient(
    _retries_setting("max_retries", 3, "OpenSearch client"), _sdk_request, namespaced=True, raises=("opensearchpy",),
    # its transport retries connection errors and 502/503/504 unless told ``retry_on_status=``
    refusals=lambda where: isinstance(where, cst.Call) and any(
        arg.keyword is not None and arg.keyword.value == "retry_on_status" or arg.star == "**" for arg in where.args
    ),
)
# its default handlers retry failed connections only, and raise the last one as it came (a
# ``URLError``, ``ConnectionResetError`` or aiohttp's ``ServerConnectionError``), never the
# SDK's ``SlackApiError``; handlers of the code's own may give up on an answer (429) instead
_SLACK_CONNECTION_FAILURES = ("urllib", "http", "socket", "ssl", "aiohttp")
_SLACK = RetryingClient(_slack, _direct_request(frozenset()), "slack_sdk client retries", raises=_SLACK_CONNECTION_FAILURES)
# the sync clients' handler retries exactly these (a read timeout is not one: it leaves at once)
_SLACK_SYNC_FAILURES = ("urllib.error.URLError", "builtins.ConnectionResetError", "http.client.RemoteDisconnected")
_SLACK_SYNC = replace(_SLACK, raises=_SLACK_SYNC_FAILURES)
_REDIS = RetryingClient(_redis, _redis_request, raises=("redis",))
# A pool's last failure is urllib3's; a status it gives up on comes back as a response, which
# the caller may turn into an error of its own.
# spent, a pool raises ``MaxRetryError`` (on a status too, unless ``raise_on_status=False``)
_POOL = RetryingClient(_pool, _pool_request, raises=("urllib3.exceptions.MaxRetryError",))

CLIENTS: Dict[str, RetryingClient] = {
    "botocore.client.BaseClient": RetryingClient(
        _botocore("botocore client retries"), _operation, "botocore client retries", raises=_BOTO,
    ),
    # a resource's parts (``s3.Bucket(name).upload_file``, ``s3.meta.client``) send through its client
    "boto3.resource": RetryingClient(
        _botocore("boto3 resource retries"), _resource_request, "boto3 resource retries", namespaced=True, raises=_BOTO,
    ),
    "openai.OpenAI": _OPENAI,
    "openai.AsyncOpenAI": _OPENAI,
    "openai.AzureOpenAI": _OPENAI,
    "openai.AsyncAzureOpenAI": _OPENAI,
    "elasticsearch.Elasticsearch": _ELASTICSEARCH,
    "elasticsearch.AsyncElasticsearch": _ELASTICSEARCH,
    "opensearchpy.OpenSearch": _OPENSEARCH,
    "opensearchpy.AsyncOpenSearch": _OPENSEARCH,
    "redis.Redis": _REDIS,
    "redis.asyncio.Redis": _REDIS,
    "stripe.StripeClient": RetryingClient(
        _stripe_client, lambda path: len(path) > 1 and _sdk_request(path), namespaced=True, raises=("stripe",),
    ),
    # Minio calls its pool's ``urlopen`` unwrapped: spent retries end in urllib3's ``MaxRetryError``
    "minio.Minio": RetryingClient(_minio, _direct_request(_MINIO_LOCAL), raises=("urllib3",)),
    # the ResilientSession retries connection errors, 429 and 503 after the first attempt
    "jira.JIRA": RetryingClient(_retries_setting("max_retries", 3, "jira client"), _direct_request(_JIRA_LOCAL)),
    # urllib errors once spent (``URLError``, ``ConnectionResetError``), not the SDK's own
    "slack_sdk.WebClient": _SLACK_SYNC,
    "slack_sdk.web.async_client.AsyncWebClient": _SLACK,
    "slack_sdk.WebhookClient": _SLACK_SYNC,
    "slack_sdk.webhook.async_client.AsyncWebhookClient": _SLACK,
    "aiohttp_retry.RetryClient": _AIOHTTP_RETRY,
    "urllib3.PoolManager": _POOL,
    "urllib3.ProxyManager": _POOL,
    "urllib3.HTTPConnectionPool": _POOL,
    "urllib3.HTTPSConnectionPool": _POOL,
}


_CLIENT_PACKAGES = frozenset(kind.split(".", 1)[0] for kind in CLIENTS)
_URLLIB3 = ("urllib3.exceptions.MaxRetryError",)  # what a pool's request fails with once its retries are spent


def client_of(name: str) -> Optional[Tuple[str, Tuple[str, ...]]]:
    """``openai.OpenAI.chat.completions.create`` → (``openai.OpenAI``, its method path), when
    the name is under a client class that may retry by itself."""
    if name.split(".", 1)[0] not in _CLIENT_PACKAGES:
        return None
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        kind = ".".join(parts[:cut])
        if kind in CLIENTS:
            return kind, tuple(parts[cut:])
    return None


def instance_retries(model: SemanticModel, kind: str, site: cst.CSTNode) -> Optional[ClientLayer]:
    """The retries of the client of class ``kind`` built by the call ``site``."""
    client = CLIENTS.get(kind)
    call = model.call_site(site) if client is not None else None
    if client is None or call is None:
        return None
    return client_retries(kind, client.read(model, call))


def client_retries(kind: str, found: Optional[Found]) -> Optional[ClientLayer]:
    """The layer a client of class ``kind`` adds, as found."""
    if found is None:
        return None
    client = CLIENTS.get(kind)
    raises = client.raises if client is not None else ()
    if raises in (_SLACK_CONNECTION_FAILURES, _SLACK_SYNC_FAILURES) and found[0] != _SLACK_DEFAULT:
        raises = ()
    policy = found[3]
    if raises in (_URLLIB3, ("urllib3",)) and policy is not None and hands_back_last_status(policy.node):
        raises = ()  # spent on a status, the pool hands back the response: what the caller makes of it
    return ClientLayer(*found[:4], raises=raises, retries_refusals=client.refusals(found[2]) if client is not None else True)


def hands_back_last_status(retry: cst.CSTNode) -> bool:
    """A urllib3 ``Retry(raise_on_status=False)``: spent on a status, it hands the last response
    back, which the caller (or an SDK) may turn into an error of its own."""
    if not isinstance(retry, cst.Call):
        return False
    given = keyword_args(retry)[0].get("raise_on_status")
    return given is not None and is_false(given.value)


# --- one request's own settings --------------------------------------------------------------

_API_CORE_RETRIES = frozenset({
    "google.api_core.retry.Retry", "google.api_core.retry.AsyncRetry", "google.api_core.retry.StreamingRetry",
    "google.api_core.retry.AsyncStreamingRetry", "google.cloud.storage.retry.DEFAULT_RETRY",
    "google.cloud.bigquery.retry.DEFAULT_RETRY", "google.cloud.bigquery.DEFAULT_RETRY",
})
_RETRY_COPIES = frozenset({"with_deadline", "with_timeout", "with_delay", "with_predicate", "with_on_error"})
_URLLIB3_REQUESTS = frozenset({"urllib3.request"})


def request_retries(model: SemanticModel, site: CallSite, name: str) -> Tuple[bool, Optional[ClientLayer]]:
    """(whether the request itself says how it is retried, and the layer it then has): a
    google-api-core ``retry=Retry(...)``; urllib3's ``retries=`` of one request (``False``: none),
    and ``urllib3.request`` without it (a pool with urllib3's default)."""
    keywords, _ = keyword_args(site.node)
    retry = keywords.get("retry")
    if retry is not None:
        layer = _api_core_retry(model, retry.value, site)
        if layer is not None:
            return True, ClientLayer(*layer, raises=("google",))
    found = client_of(name)
    pool_request = found is not None and CLIENTS[found[0]] is _POOL and _pool_request(found[1])
    if not pool_request and name not in _URLLIB3_REQUESTS:
        return False, None
    given = keywords["retries"].value if "retries" in keywords else _unpacked_retries(model, site)
    if given is UNKNOWN_VALUE:
        return True, None  # ``**kwargs`` may set the request's own: not counted
    if given is None or is_none(model.followed(given, site.scope, site.order)):
        if name in _URLLIB3_REQUESTS:
            return True, ClientLayer("urllib3 default retries=3", 4, site.node, None, _URLLIB3)
        return False, None  # the pool's own
    value = model.followed(given, site.scope, site.order)
    policy = next((p for p in retry_scopes(model).policies if p.node is value), None)
    if policy is not None:
        described = layer_of(policy)
        if described is None:
            return True, None
        return True, client_retries("urllib3.PoolManager", (described[0], described[1], value, policy))
    found = _retries(model, given, site, "urllib3 retries")
    return True, ClientLayer(*found, raises=_URLLIB3) if found is not None else None


def _unpacked_retries(model: SemanticModel, site: CallSite) -> object:
    """The ``retries`` a request's ``**mapping`` gives (``kwargs = {"retries": 0, ...}``), None
    when none does, ``UNKNOWN_VALUE`` when one may."""
    for arg in site.node.args:
        if arg.star != "**":
            continue
        found = unpacked_keyword(arg.value, ("retries",), ("retries",), model, site.scope, site.order)
        if found is UNKNOWN_VALUE and model.text is not None and not _RETRIES_WRITTEN.search(model.text):
            continue  # a mapping of unknown content, in a file that never sets a request's retries
        if found is not None:
            return found
    return None


# ``retries=0``, ``kwargs["retries"] = 1``, ``{'retries': 0}``: a file that may give a request its own
_RETRIES_WRITTEN = re.compile(r"""\bretries\s*=[^=]|["']retries["']""")


def refuses_retries(model: SemanticModel, site: CallSite) -> bool:
    """The request turns its client's retries off for itself, whatever client it goes to:
    urllib3's ``retries=False`` (or 0), or a copy of the client made without retries on the
    way (``es.options(max_retries=0).search``, ``client.with_options(max_retries=0)...``)."""
    retries = keyword_args(site.node)[0].get("retries")
    if retries is not None and is_false(model.followed(retries.value, site.scope, site.order)):
        return True
    expr = site.node.func
    while isinstance(expr, (cst.Attribute, cst.Call)):
        if isinstance(expr, cst.Call):
            copy = retries_for_some(model, expr, site)
            if copy is not None:
                return copy[0] is None
            expr = expr.func
        else:
            expr = expr.value
    return False


def _api_core_retry(model: SemanticModel, expr: cst.BaseExpression, site: CallSite) -> Optional[Found]:
    value = model.followed(expr, site.scope, site.order)
    limit: Optional[cst.BaseExpression] = None
    while (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
           and value.func.attr.value in _RETRY_COPIES):  # ``DEFAULT_RETRY.with_deadline(30)``
        if limit is None and value.func.attr.value in ("with_deadline", "with_timeout") and value.args:
            limit = value.args[0].value
        value = model.followed(value.func.value, site.scope, site.order)
    built = value.func if isinstance(value, cst.Call) else value
    if model.qualified_name(built, site.scope, site.order) not in _API_CORE_RETRIES:
        return None
    if limit is None and isinstance(value, cst.Call):
        arg = call_argument(value, "timeout") or call_argument(value, "deadline")
        limit = arg.value if arg is not None else None
        seconds = _count(model, limit, site.scope, site.order) if limit is not None else 120  # its default
    else:
        seconds = _count(model, limit, site.scope, site.order) if limit is not None else None
    until = f"for up to {seconds} s" if seconds is not None else "until its timeout"
    return f"google-api-core Retry ({until})", None, value, None


_FOR_SOME_REQUESTS = frozenset({"options", "with_options"})


def retries_for_some(model: SemanticModel, call: cst.Call, site: CallSite) -> Optional[Tuple[Optional[Found]]]:
    """``client.options(max_retries=N)`` (Elasticsearch, OpenSearch) and
    ``client.with_options(max_retries=N)`` (OpenAI): the retries of the requests made through
    the copy, as a one-element tuple (holding None when it retries nothing), else None."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in _FOR_SOME_REQUESTS:
        return None
    retries = keyword_args(call)[0].get("max_retries")
    if retries is None:
        return None
    return (_retries(model, retries.value, site, f"{func.attr.value}(max_retries)", call),)


# --- settings of a whole library -----------------------------------------------------------

STRIPE_RETRIES = "stripe.max_network_retries"
_STRIPE = ("stripe",)
# module-level objects of stripe that answer without a request
_STRIPE_LOCAL = frozenset({
    "error", "util", "Webhook", "WebhookSignature", "StripeClient", "http_client", "oauth_error",
})
_STRIPE_OBJECT_METHODS = frozenset({"construct_from", "refresh_from", "to_dict", "class_url"})


def library_setting(name: str) -> Optional[str]:
    """The process-wide setting that decides how a library request is retried, when the
    library has one: ``stripe.Charge.create`` → ``stripe.max_network_retries``."""
    parts = name.split(".")
    if parts[0] != "stripe" or len(parts) < 3 or parts[1] in _STRIPE_LOCAL:
        return None
    resource, method = parts[-2], parts[-1]
    if not resource[:1].isupper() or method[:1].isupper() or method.startswith("_"):
        return None
    return STRIPE_RETRIES if method not in _LOCAL and method not in _STRIPE_OBJECT_METHODS else None


def settings_made(model: SemanticModel) -> Iterator[Tuple[str, Optional[ClientLayer]]]:
    """The library settings the file assigns (``stripe.max_network_retries = 2``), each with
    the layer it makes (None: retries off)."""
    if model.text is not None and "max_network_retries" not in model.text:
        return
    for node in iter_nodes(model.module):
        targets: List[cst.BaseExpression] = []
        value: Optional[cst.BaseExpression] = None
        if isinstance(node, cst.Assign):
            targets, value = [t.target for t in node.targets], node.value
        elif isinstance(node, cst.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        for target in targets:
            if not (isinstance(target, cst.Attribute) and target.attr.value == "max_network_retries"):
                continue
            if model.qualified_name(target.value, model.module_scope, 1 << 62) != "stripe":
                continue
            assert value is not None
            count = _count(model, value, model.module_scope, 1 << 62)
            shown = code_of(value) if count is None else str(count)
            made = ClientLayer(f"stripe.max_network_retries = {shown}", count + 1 if count else None, node, None, _STRIPE)
            yield STRIPE_RETRIES, made if count is None or count > 0 else None
