"""aiohttp-retry: a ``RetryClient`` retries every request it sends by the options it is given
(``retry_options=ExponentialRetry(...)``, ``ExponentialRetry()`` when none).

What its code does (2.x): ``attempts`` counts every attempt, the first included (3 by default);
an answer with a status in ``statuses``, or any 5xx while ``retry_all_server_errors`` (the
default), is retried, and so is an error that is an instance of one of ``exceptions`` (none by
default); ``methods`` lists the methods retried, every one of them (POST and PATCH included)
when not given. ``ExponentialRetry`` sleeps ``start_timeout * factor ** attempt`` capped at
``max_timeout``, ``FibonacciRetry`` a Fibonacci series, ``ListRetry`` the delays it lists (one
attempt per delay), all of them exactly; ``RandomRetry`` and ``JitterRetry`` add a random term.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Optional

import libcst as cst

from resilint.libraries.retry_scopes.model import (
    ON_STATUS,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_JITTERED,
    Policy,
    RetryScope,
    Setting,
)
from resilint.libraries.retry_scopes.urllib3 import listed_unsafe
from resilint.lint.nodes import call_argument
from resilint.lint.semantic import CallSite, Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

_DEFAULT_ATTEMPTS = 3
# option class → how it waits, and what a finding says of a wait without a random term
_WAITS = {
    "ExponentialRetry": (WAIT_EXPONENTIAL, "aiohttp-retry `ExponentialRetry` sleeps exactly start_timeout·factor^n"),
    "RetryOptions": (WAIT_EXPONENTIAL, "aiohttp-retry `RetryOptions` (an `ExponentialRetry`) sleeps exactly start_timeout·factor^n"),
    "FibonacciRetry": (WAIT_EXPONENTIAL, "aiohttp-retry `FibonacciRetry` sleeps exactly a Fibonacci series"),
    "ListRetry": (WAIT_FIXED, "aiohttp-retry `ListRetry` sleeps exactly the delays it lists"),
    "RandomRetry": (WAIT_JITTERED, ""),
    "JitterRetry": (WAIT_JITTERED, ""),
}


def build_policy(rec: Recogniser, node: cst.CSTNode, scope: Scope, order: int, options: str) -> Policy:
    """The policy of an options object (``ExponentialRetry(attempts=5, methods={"GET"})``)."""
    policy = Policy("aiohttp-retry", "options", node, scope=scope, order=order)
    keywords, star = rec.keywords(node, scope, order) if isinstance(node, cst.Call) else ({}, False)
    if options == "ListRetry":
        delays = call_argument(node, "timeouts", 0) if isinstance(node, cst.Call) else None
        listed = rec.follow(delays.value, scope, order) if delays is not None else None
        policy.max_attempts = len(listed.elements) if isinstance(listed, (cst.List, cst.Tuple)) else UNKNOWN
        policy.attempts = Setting("bounded", delays.value if delays is not None else None)
    else:
        attempts = keywords.get("attempts") or (call_argument(node, "attempts", 0) if isinstance(node, cst.Call) else None)
        policy.max_attempts = rec.limit(attempts, scope, order, star) if attempts or star else _DEFAULT_ATTEMPTS
        policy.attempts = Setting("bounded" if isinstance(policy.max_attempts, int) else UNKNOWN, attempts.value if attempts else None)
    policy.time_limit = UNKNOWN
    kind, detail = _WAITS[options]
    policy.wait = Setting(kind, node, detail)
    exceptions = keywords.get("exceptions")
    if exceptions is not None:
        policy.retry_on = Setting(rec.exception_kind(exceptions.value, scope, order), exceptions.value)
    else:
        policy.retry_on = Setting(UNKNOWN if star else ON_STATUS, None, "5xx answers")
    policy.unsafe_methods = _unsafe_methods(rec, keywords.get("methods"), node, scope, order, star)
    policy.guards_non_idempotent = policy.unsafe_methods is None
    return policy


def _unsafe_methods(
    rec: Recogniser, methods: Optional[cst.Arg], node: cst.CSTNode, scope: Scope, order: int, star: bool,
) -> Optional[Setting]:
    if methods is None:
        if star:
            return None  # ``**options`` may name the methods
        return Setting("all", node, "aiohttp-retry retries every method when `methods=` is not given, POST and PATCH included")
    return listed_unsafe(rec, methods.value, scope, order, "methods", "aiohttp-retry")


def client_policy(rec: Recogniser, call: CallSite) -> None:
    """``RetryClient(...)``: the options it is given, or the default ``ExponentialRetry()``
    made where the client is (reported there)."""
    options = call_argument(call.node, "retry_options", 2)
    if options is not None:
        value = rec.follow(options.value, call.scope, call.order)
        if isinstance(value, cst.Call) and id(value) in rec.by_node:
            rec.scopes.append(RetryScope(rec.by_node[id(value)], "client", call.node))
        return
    if any(arg.star for arg in call.node.args):
        return  # the options may be among what it unpacks
    policy = build_policy(rec, call.node, call.scope, call.order, "ExponentialRetry")
    policy.wait.detail = "aiohttp-retry's default `ExponentialRetry()` sleeps exactly 0.1·2^n"
    policy.attempts = Setting("bounded")
    policy.max_attempts = _DEFAULT_ATTEMPTS
    rec.scopes.append(RetryScope(rec.add(policy), "client", call.node))


# declarations collected by the registry
POLICIES = {
    f"{module}.{name}": partial(build_policy, options=name)
    for module in ("aiohttp_retry", "aiohttp_retry.retry_options") for name in _WAITS
}
CLIENTS = {"aiohttp_retry.RetryClient": client_policy, "aiohttp_retry.client.RetryClient": client_policy}
