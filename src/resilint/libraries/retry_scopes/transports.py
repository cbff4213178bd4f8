"""Clients that retry by themselves: a retry count or a ``Retry`` object handed to a requests
adapter, a urllib3 pool or an httpx transport."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from resilint.libraries.retry_scopes.model import (
    ON_SPECIFIC,
    UNKNOWN,
    WAIT_NONE,
    Policy,
    RetryScope,
    Setting,
)
from resilint.lint.nodes import call_argument, is_false, number_of
from resilint.lint.semantic import CallSite

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser


def client_policy(rec: Recogniser, call: CallSite, library: str, kind: str, keyword: str, position: Optional[int]) -> None:
    arg = call_argument(call.node, keyword, position)
    if arg is None:
        if kind == "pool":
            # urllib3 pools retry 3 times by default (Retry.DEFAULT), never POST on read errors.
            policy = Policy(library, kind, call.node, scope=call.scope, order=call.order, max_attempts=3,
                            time_limit=UNKNOWN, attempts=Setting("bounded"), wait=Setting(WAIT_NONE),
                            retry_on=Setting(ON_SPECIFIC), guards_non_idempotent=True)
            rec.scopes.append(RetryScope(rec.add(policy), kind, call.node))
        return
    value = rec.follow(arg.value, call.scope, call.order)
    if isinstance(value, cst.Call) and id(value) in rec.by_node:
        retry_policy = rec.by_node[id(value)]
        rec.scopes.append(RetryScope(retry_policy, kind, call.node))
        return
    number = number_of(value)
    if number == 0 or is_false(value) and isinstance(value, cst.Name):
        return
    policy = Policy(
        library, kind, call.node, scope=call.scope, order=call.order,
        max_attempts=number if number is not None else UNKNOWN, time_limit=UNKNOWN,
        attempts=Setting("bounded" if number is not None else UNKNOWN, arg.value),
        wait=Setting(UNKNOWN if library == "httpx" else WAIT_NONE),
        retry_on=Setting(ON_SPECIFIC, None, "connect errors" if library == "httpx" else ""),
        guards_non_idempotent=True,
        retries_refusals=library != "httpx",  # an httpx transport retries failed connects only
    )
    rec.scopes.append(RetryScope(rec.add(policy), kind, call.node))
