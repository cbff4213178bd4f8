"""The ONE timeout verdict the RES1xx rules share about a client call.

``judge`` turns a client call into at most one finding, so the rules cannot disagree: the most
severe problem wins (RES101 for a missing timeout; for a given one RES102 > RES105 > RES103 >
RES104). Each rule reports only the verdicts that carry its own code. What the call's timeout
*is* comes from the library layer (``resilint.libraries``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional

import libcst as cst

from resilint.libraries.clients import TimeoutSpec, find_dsn, find_timeout, spec_for
from resilint.libraries.network_mocks import in_process
from resilint.libraries.sessions import session_sets_timeout
from resilint.libraries.timeout_values import (
    Phase,
    TimeoutEvaluator,
    TimeoutValue,
    dsn_value,
)
from resilint.lint.nodes import call_argument, code_of, is_none
from resilint.lint.semantic import CallSite, SemanticModel

if TYPE_CHECKING:  # pragma: no cover
    from resilint.lint.config import Settings
    from resilint.lint.rule import RuleContext

_DEADLINE = "which caps it by the caller's remaining deadline"
_RUNTIME_HINTS = {
    "requests": f"pass the deadline-aware `resilint.runtime.timeout(connect=..., read=...)`, {_DEADLINE}",
    "httpx": f"pass the deadline-aware `resilint.runtime.timeout(connect=..., read=...).as_httpx()`, {_DEADLINE}",
    "aiohttp": (
        "build the `aiohttp.ClientTimeout` from the deadline-aware `resilint.runtime.timeout(connect=..., "
        f"read=...)`, {_DEADLINE}"
    ),
    # Connection settings of databases and SDK clients: configuration, not a per-call deadline.
    "redis": None,
    "psycopg2": None,
    "psycopg": None,
    "botocore": None,
}
_RUNTIME_SCALAR_HINT = f"pass `resilint.runtime.timeout(...).read`, {_DEADLINE}"

@dataclass(frozen=True)
class Verdict:
    code: str
    node: cst.CSTNode
    message: str
    anchor: cst.CSTNode


def judge(
    site: CallSite, name: str, spec: TimeoutSpec, model: SemanticModel, max_timeout: float,
    trust_urls: bool = False,
) -> Optional[Verdict]:
    """The one timeout finding for this client call, if any. ``trust_urls``: a Redis URL we
    cannot read carries a timeout (the ``redis-url-timeouts`` setting)."""
    call = site.node
    evaluator = TimeoutEvaluator(model, site.scope, site.order)
    argument = find_timeout(call, spec, model, site.scope, site.order)
    node = argument.value
    if node is not None and spec.none_means_default and is_none(node):
        return _missing(call, name, spec, model, site, max_timeout, given_none=node)
    if node is None:
        if argument.unknown:
            return None
        dsn = find_dsn(call, spec)
        if dsn is not None and spec.keyword is not None:
            state, seconds = dsn_value(dsn, spec.keyword, evaluator)
            if state == "unknown" and (trust_urls or not spec.opaque_dsn_lacks_timeout):
                return None
            if state == "found":
                if seconds is None:
                    return None
                value = TimeoutValue((Phase("", seconds),), literal=False, scalar=True)
                return _judge_value(value, dsn, call, name, spec, max_timeout)
        return _missing(call, name, spec, model, site, max_timeout)
    value = evaluator.evaluate(node)
    if value is None:
        return None
    return _judge_value(value, node, call, name, spec, max_timeout)


def _missing(
    call: cst.Call, name: str, spec: TimeoutSpec, model: SemanticModel, site: CallSite, max_timeout: float,
    given_none: Optional[cst.BaseExpression] = None,
) -> Optional[Verdict]:
    if spec.unbounded_default is not None and "RES101" in spec.checks:
        if spec.library == "requests" and session_sets_timeout(call, model, site.scope, site.order):
            return None
        given = [k for k in spec.partial if call_argument(call, k) is not None]
        how = f"is given only `{given[0]}`, which bounds the connect, not reads" if given else "is called without a timeout"
        return Verdict("RES101", call.func, f"`{name}` {how}: {spec.unbounded_default}", call)
    if spec.default_seconds is not None and spec.default_seconds > max_timeout and "RES105" in spec.checks:
        how = (
            f"is given {spec.keyword}=None, which selects the default" if given_none is not None
            else "is called without a timeout"
        )
        return Verdict(
            "RES105", given_none if given_none is not None else call.func,
            f"`{name}` {how}: {spec.default_message}, above max-timeout ({_seconds(max_timeout)} s)",
            call,
        )
    return None


def _judge_value(
    value: TimeoutValue, node: cst.CSTNode, call: cst.Call, name: str, spec: TimeoutSpec, max_timeout: float
) -> Optional[Verdict]:
    checks = spec.checks
    shown = f" ({value.via})" if value.via else ""
    if spec.zero_is_mode and value.scalar and value.phases[0].seconds == 0:
        return None
    if spec.zero_unbounded and value.scalar and value.phases[0].seconds is not None and value.phases[0].seconds <= 0:
        value = TimeoutValue(
            (Phase("", None, f"{spec.keyword}={_seconds(value.phases[0].seconds)}, which libpq reads as no timeout"),),
            literal=False, scalar=False, via=value.via,
        )
    if spec.zero_means_default and value.scalar and (value.phases[0].seconds or 0) <= 0:
        if spec.default_seconds is not None and spec.default_seconds > max_timeout and "RES105" in checks:
            return Verdict(
                "RES105", node,
                f"`{name}` is given {spec.keyword}={_seconds(value.phases[0].seconds or 0)}{shown}, which "
                f"falls back to the default: {spec.default_message}, above max-timeout ({_seconds(max_timeout)} s)",
                call,
            )
        return None
    reason = value.unbounded
    if reason is not None:
        if "RES102" in checks:
            return Verdict("RES102", node, f"`{name}` is given an unbounded timeout: {reason}; it may wait forever", call)
        return None
    largest = value.largest()
    if largest is not None and largest.seconds is not None and largest.seconds > max_timeout and "RES105" in checks:
        phase = f" in the {largest.name} phase" if largest.name else ""
        note = f": {largest.note}" if largest.note else ""
        return Verdict(
            "RES105", node,
            f"`{name}` may wait {_seconds(largest.seconds)} s{phase}{shown}{note}, above max-timeout "
            f"({_seconds(max_timeout)} s)",
            call,
        )
    if value.literal and "RES103" in checks:
        hint = _RUNTIME_HINTS.get(spec.library, _RUNTIME_SCALAR_HINT)
        remedy = f"take it from configuration, or {hint}" if hint else "take it from configuration"
        return Verdict(
            "RES103", node, f"`{name}` has a hard-coded timeout `{code_of(node, limit=None)}`: {remedy}", call
        )
    if value.scalar and spec.split_hint is not None and "RES104" in checks:
        seconds = value.phases[0].seconds
        return Verdict(
            "RES104", node,
            f"`{name}` is given one timeout of {_seconds(seconds or 0)} s{shown} for both connecting and "
            f"reading: a refused connect should fail within a second while a read may need longer; "
            f"{spec.split_hint}",
            call,
        )
    return None


def timeout_verdicts(ctx: "RuleContext") -> List[Verdict]:
    """Every timeout verdict of the file, computed once for all RES1xx rules."""
    settings: "Settings" = ctx.settings
    key = (timeout_verdicts, settings.max_timeout, tuple(settings.extend_clients), settings.redis_url_timeouts)
    return ctx.model.derived(key, lambda: _judge_all(ctx.model, settings))


def _judge_all(model: SemanticModel, settings: "Settings") -> List[Verdict]:
    verdicts = []
    for site, name in model.iter_calls():
        spec = spec_for(name, settings.extend_clients)
        if spec is None or name is None:
            continue
        if in_process(model, site, spec.library):
            continue  # a mock answers it: no network, so no timeout to judge
        verdict = judge(site, name, spec, model, settings.max_timeout, settings.redis_url_timeouts)
        if verdict is not None:
            verdicts.append(verdict)
    return verdicts


def report_verdicts(ctx: "RuleContext", code: str) -> None:
    for verdict in timeout_verdicts(ctx):
        if verdict.code == code:
            ctx.report(verdict.node, verdict.message, anchor=verdict.anchor)


def _seconds(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
