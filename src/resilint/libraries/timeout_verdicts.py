"""The ONE timeout verdict the RES1xx rules share about a client call.

``judge`` turns a client call into at most one finding, so the rules cannot disagree: the most
severe problem wins (RES101 for a missing timeout; for a given one RES102 > RES105 > RES103 >
RES104). Each rule reports only the verdicts that carry its own code. What the call's timeout
*is* comes from the library layer (``resilint.libraries``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.clients import TimeoutArgument, TimeoutSpec, find_dsn, find_timeout, spec_for
from resilint.libraries.network_mocks import in_process
from resilint.libraries.sessions import session_sets_timeout
from resilint.libraries.timeout_values import (
    Phase,
    TimeoutEvaluator,
    TimeoutValue,
    dsn_value,
    seconds_text as _seconds,
    value_from_data,
)
from resilint.lint.nodes import call_argument, code_of, is_none
from resilint.lint.semantic import CallSite, Partial, SemanticModel
from resilint.lint.summary import Arguments, Call, FunctionSummary, Place
from resilint.lint.value_flow import split_last

if TYPE_CHECKING:  # pragma: no cover
    from resilint.lint.config import Settings
    from resilint.lint.project import ProjectContext, ProjectGraph
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
    # The client call's qualified name and catalog entry (what the timeout codemods rewrite).
    client: Optional[str] = None
    spec: Optional[TimeoutSpec] = None


def judge(
    site: CallSite, name: str, spec: TimeoutSpec, model: SemanticModel, max_timeout: float,
    trust_urls: bool = False,
) -> Optional[Verdict]:
    """The one timeout finding for this client call, if any. ``trust_urls``: a Redis URL we
    cannot read carries a timeout (the ``redis-url-timeouts`` setting)."""
    call = site.node
    evaluator = TimeoutEvaluator(model, site.scope, site.order)
    partial = _through_partial(model, site)
    if partial is not None:
        made = model.call_site(partial.call)
        bound = partial.call.with_changes(args=partial.call.args[1:])
        if made is None or find_timeout(bound, spec, model, made.scope, made.order) != TimeoutArgument(None, False):
            return None  # the partial gives the timeout (judged where it is made) or may give it
        call = call.with_changes(args=(*bound.args, *call.args))
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


def _through_partial(model: SemanticModel, site: CallSite) -> Optional[Partial]:
    """The ``functools.partial`` the call goes through, if it does."""
    return next((v for v in model.resolve_all(site.node.func, site.scope, site.order) if isinstance(v, Partial)), None)


def _missing(
    call: cst.Call, name: str, spec: TimeoutSpec, model: SemanticModel, site: CallSite, max_timeout: float,
    given_none: Optional[cst.BaseExpression] = None,
) -> Optional[Verdict]:
    if spec.library == "requests" and session_sets_timeout(call, model, site.scope, site.order):
        return None
    given = [k for k in spec.partial if call_argument(call, k) is not None]
    judgement = judge_missing(
        name, spec, max_timeout, given_none=given_none is not None,
        how=_partial(given[0]) if given else None,
    )
    if judgement is None:
        return None
    node = given_none if given_none is not None and judgement.at_value else call.func
    return Verdict(judgement.code, node, judgement.message, call)


def _judge_value(
    value: TimeoutValue, node: cst.CSTNode, call: cst.Call, name: str, spec: TimeoutSpec, max_timeout: float
) -> Optional[Verdict]:
    judgement = judge_given(value, code_of(node, limit=None), name, spec, max_timeout)
    return Verdict(judgement.code, node, judgement.message, call) if judgement is not None else None


def _partial(keyword: str) -> str:
    return f"is given only `{keyword}`, which bounds the connect, not reads"


@dataclass(frozen=True)
class Judgement:
    """A verdict before it has a place: reported at the timeout value, or else at the call."""

    code: str
    message: str
    at_value: bool


def judge_missing(
    name: str, spec: TimeoutSpec, max_timeout: float, given_none: bool = False, how: Optional[str] = None
) -> Optional[Judgement]:
    """No timeout reaches the client ``name`` (or ``None`` selects its default)."""
    if spec.unbounded_default is not None and "RES101" in spec.checks:
        return Judgement(
            "RES101", f"`{name}` {how or 'is called without a timeout'}: {spec.unbounded_default}", False
        )
    if spec.default_seconds is not None and spec.default_seconds > max_timeout and "RES105" in spec.checks:
        if how is None:
            how = (
                f"is given {spec.keyword}=None, which selects the default" if given_none
                else "is called without a timeout"
            )
        return Judgement(
            "RES105", f"`{name}` {how}: {spec.default_message}, above max-timeout ({_seconds(max_timeout)} s)",
            given_none,
        )
    return None


def judge_given(
    value: TimeoutValue, text: str, name: str, spec: TimeoutSpec, max_timeout: float,
    checks: Optional[FrozenSet[str]] = None,
) -> Optional[Judgement]:
    """The timeout ``value`` (written ``text``) reaches the client ``name``."""
    checks = spec.checks if checks is None else spec.checks & checks
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
            return Judgement(
                "RES105",
                f"`{name}` is given {spec.keyword}={_seconds(value.phases[0].seconds or 0)}{shown}, which "
                f"falls back to the default: {spec.default_message}, above max-timeout ({_seconds(max_timeout)} s)",
                True,
            )
        return None
    reason = value.unbounded
    if reason is not None:
        if "RES102" in checks:
            return Judgement("RES102", f"`{name}` is given an unbounded timeout: {reason}; it may wait forever", True)
        return None
    largest = value.largest()
    if largest is not None and largest.seconds is not None and largest.seconds > max_timeout and "RES105" in checks:
        phase = f" in the {largest.name} phase" if largest.name else ""
        note = f": {largest.note}" if largest.note else ""
        return Judgement(
            "RES105",
            f"`{name}` may wait {_seconds(largest.seconds)} s{phase}{shown}{note}, above max-timeout "
            f"({_seconds(max_timeout)} s)",
            True,
        )
    if value.literal and "RES103" in checks:
        hint = _RUNTIME_HINTS.get(spec.library, _RUNTIME_SCALAR_HINT)
        remedy = f"take it from configuration, or {hint}" if hint else "take it from configuration"
        return Judgement("RES103", f"`{name}` has a hard-coded timeout `{text}`: {remedy}", True)
    if value.scalar and spec.split_hint is not None and "RES104" in checks:
        seconds = value.phases[0].seconds
        return Judgement(
            "RES104",
            f"`{name}` is given one timeout of {_seconds(seconds or 0)} s{shown} for both connecting and "
            f"reading: a refused connect should fail within a second while a read may need longer; "
            f"{spec.split_hint}",
            True,
        )
    return None


def timeout_verdicts(ctx: "RuleContext") -> List[Verdict]:
    """Every timeout verdict of the file, computed once for all RES1xx rules."""
    return model_verdicts(ctx.model, ctx.settings)


def model_verdicts(model: SemanticModel, settings: "Settings") -> List[Verdict]:
    """The same verdicts for a model built outside a rule run (the timeout codemods)."""
    key = (timeout_verdicts, settings.max_timeout, tuple(settings.extend_clients), settings.redis_url_timeouts)
    return model.derived(key, lambda: _judge_all(model, settings))


def _judge_all(model: SemanticModel, settings: "Settings") -> List[Verdict]:
    verdicts = []
    for site, name in model.iter_calls():
        if name == "functools.partial":
            verdict = _judge_partial(model, site, settings)
            if verdict is not None:
                verdicts.append(verdict)
            continue
        spec = spec_for(name, settings.extend_clients)
        if spec is None or name is None:
            continue
        if in_process(model, site, spec.library):
            continue  # a mock answers it: no network, so no timeout to judge
        verdict = judge(site, name, spec, model, settings.max_timeout, settings.redis_url_timeouts)
        if verdict is not None:
            verdicts.append(replace(verdict, client=name, spec=spec))
    return verdicts


def _judge_partial(model: SemanticModel, site: CallSite, settings: "Settings") -> Optional[Verdict]:
    """``functools.partial(requests.get, timeout=None)``: the timeout it gives every call
    through it, judged once where it is made."""
    args = site.node.args
    if not args or args[0].keyword is not None or args[0].star:
        return None
    name = model.qualified_name(args[0].value, site.scope, site.order)
    spec = spec_for(name, settings.extend_clients)
    if spec is None or name is None:
        return None
    bound = site.node.with_changes(args=args[1:])
    argument = find_timeout(bound, spec, model, site.scope, site.order)
    if argument.value is None:
        return None  # judged at each call through it
    value = TimeoutEvaluator(model, site.scope, site.order).evaluate(argument.value)
    if value is None:
        return None
    judgement = judge_given(value, code_of(argument.value, limit=None), name, spec, settings.max_timeout)
    if judgement is None:
        return None
    return Verdict(judgement.code, argument.value, judgement.message, site.node, client=name, spec=spec)


# Clients whose ``timeout=`` takes what ``resilint.runtime.timeout(...)`` returns (requests: the
# ``(connect, read)`` tuple it is; httpx: through ``.as_httpx()``): the only ones the timeout
# codemods rewrite.
RUNTIME_TIMEOUT_LIBRARIES = ("requests", "httpx")


def takes_runtime_timeout(verdict: Verdict) -> bool:
    """Whether the call's ``timeout=`` can be given the runtime's split timeout (a client of
    ``RUNTIME_TIMEOUT_LIBRARIES``); the timeout codemods leave the other calls alone."""
    spec = verdict.spec
    return spec is not None and spec.library in RUNTIME_TIMEOUT_LIBRARIES and spec.keyword == "timeout"


def report_verdicts(ctx: "RuleContext", code: str) -> None:
    for verdict in timeout_verdicts(ctx):
        if verdict.code == code:
            ctx.report(verdict.node, verdict.message, anchor=verdict.anchor, fixable=takes_runtime_timeout(verdict))




# --- across functions and modules (the project pass) ----------------------------------------


@dataclass(frozen=True)
class ProjectVerdict:
    code: str
    place: Place
    message: str
    related: Tuple[Tuple[Place, str], ...] = ()


@dataclass(frozen=True)
class Forward:
    """A project function passes what its caller gives (``**kwargs``, or its own ``timeout``
    parameter) on to a client: its callers decide the client's timeout."""

    client: str
    spec: TimeoutSpec
    parameter: Optional[str]  # None: through ``**kwargs``
    position: Optional[int]
    default: Optional[TimeoutValue]
    default_text: Optional[str]
    path: Tuple[Tuple[FunctionSummary, Call], ...]

    @property
    def keyword(self) -> str:
        return self.parameter or self.spec.keyword or ""


def project_verdicts(ctx: "ProjectContext") -> List[ProjectVerdict]:
    """Every timeout verdict that needs another function or module, once for all RES1xx rules."""
    settings: "Settings" = ctx.settings
    key = (project_verdicts, settings.max_timeout, tuple(settings.extend_clients))
    return ctx.derived(key, lambda: _ProjectJudge(ctx.graph, settings).all())


def report_project_verdicts(ctx: "ProjectContext", code: str) -> None:
    for verdict in project_verdicts(ctx):
        if verdict.code == code:
            ctx.report(verdict.place, verdict.message, verdict.related)


class _ProjectJudge:
    def __init__(self, graph: "ProjectGraph", settings: "Settings") -> None:
        self.graph = graph
        self.settings = settings
        self._forwards: Dict[str, Optional[List[Forward]]] = {}

    def spec(self, name: Optional[str]) -> Optional[TimeoutSpec]:
        return spec_for(name, self.settings.extend_clients)

    def all(self) -> List[ProjectVerdict]:
        verdicts: List[ProjectVerdict] = []
        for function in self.graph.functions:
            # A client call of the file itself is judged with the file; another object the same
            # call may go to (``(a if fast else b).get``) only when it is another client.
            judged: Dict[Place, Set[str]] = {}
            for call in function.calls:
                if self.spec(call.target) is not None:
                    judged.setdefault(call.place, set()).add(call.target)
            for call in function.calls:
                if call.arguments is None or call.target in judged.get(call.place, ()):
                    continue
                near = function.place.path
                if call.place in judged and self.graph.object_call(call.target, near) in judged[call.place]:
                    continue
                verdicts.extend(self.judge_call(call, near))
        return verdicts

    def judge_call(self, call: Call, near: str) -> List[ProjectVerdict]:
        args = call.arguments
        assert args is not None
        client = self.graph.object_call(call.target, near)
        spec = self.spec(client)
        if client is not None and spec is not None:
            if spec.library in call.mocked:
                return []  # a test double answers it: no network
            base = split_last(call.target)[0]
            judgement = _judge_arguments(args, spec, client, self.settings.max_timeout)
            if judgement is None:
                return []
            factory = self.graph.resolve(base, near)
            related = ((factory.place, f"`{_short(base)}` returns the client"),) if factory is not None else ()
            given = args.value(spec.keyword or "")
            place = given.place if judgement.at_value and given is not None else call.place
            return [ProjectVerdict(judgement.code, place, f"{judgement.message} ({_origin(base)})", related)]
        partial = self.through_partial(call, near)
        if partial is not None:
            return partial
        callee = self.graph.callee(call, near)
        if callee is None:
            return []
        found = []
        for forward in self.forwards(callee) or ():
            verdict = self.judge_forwarded(call, callee, forward)
            if verdict is not None:
                found.append(verdict)
        return found

    def through_partial(self, call: Call, near: str) -> Optional[List[ProjectVerdict]]:
        """A call through another module's ``functools.partial`` of a client that binds no
        timeout: the call's own arguments decide."""
        graph = self.graph
        if not graph.is_project_name(call.target) or graph.resolve(call.target, near) is not None:
            return None
        for held in graph.values.of(call.target, near):
            spec = self.spec(held.name) if held.kind == "partial" else None
            if spec is None or spec.position is not None:
                continue
            if spec.keyword in held.keywords or "**" in held.keywords or spec.library in call.mocked:
                return []
            assert call.arguments is not None
            judgement = _judge_arguments(call.arguments, spec, held.name, self.settings.max_timeout)
            if judgement is None:
                return []
            given = call.arguments.value(spec.keyword or "")
            place = given.place if judgement.at_value and given is not None else call.place
            return [ProjectVerdict(judgement.code, place, f"{judgement.message} (through `functools.partial`: `{_short(call.target)}`)")]
        return None

    def judge_forwarded(self, call: Call, callee: FunctionSummary, forward: Forward) -> Optional[ProjectVerdict]:
        args = call.arguments
        assert args is not None
        if forward.spec.library in call.mocked:
            return None  # a test double answers what the wrapper sends
        related = tuple(
            (step.place, f"`{_short(owner.name)}` passes {'`**kwargs`' if forward.parameter is None else f'`{forward.parameter}`'} "
                         f"on to `{_short(step.target)}`")
            for owner, step in forward.path
        )
        wrapper = _short(callee.name)
        if forward.keyword in args.keywords:
            given = args.value(forward.keyword)
            value = value_from_data(given.value) if given is not None and given.value is not None else None
            if given is None or value is None:
                return None
            judgement = judge_given(value, given.text, forward.client, forward.spec, self.settings.max_timeout)
            if judgement is None:
                return None
            return ProjectVerdict(
                judgement.code, given.place if judgement.at_value else call.place,
                f"{judgement.message} (passed through `{wrapper}`)", related,
            )
        if args.double_star or args.star:
            return None  # what the caller's own arguments carry is unknown
        if forward.parameter is None:
            judgement = judge_missing(
                forward.client, forward.spec, self.settings.max_timeout,
                how=f"is called through `{wrapper}` without a timeout",
            )
            return ProjectVerdict(judgement.code, call.place, judgement.message, related) if judgement else None
        if forward.position is not None and args.positional > forward.position:
            return None  # passed by position: its value is not recorded
        if forward.default is None:
            return None
        judgement = judge_given(
            forward.default, forward.default_text or "", forward.client, forward.spec, self.settings.max_timeout,
            checks=_DEFAULT_CHECKS,
        )
        if judgement is None:
            return None
        return ProjectVerdict(
            judgement.code, call.place,
            f"{judgement.message} (the default `{forward.parameter}={forward.default_text}` of `{wrapper}`, "
            "which this call does not override)",
            related,
        )

    def forwards(self, function: FunctionSummary) -> Optional[List[Forward]]:
        """What ``function`` passes on from its callers to clients, at any depth."""
        if function.name in self._forwards:
            return self._forwards[function.name]  # None while in progress: a cycle
        self._forwards[function.name] = None
        found: List[Forward] = []
        for call in function.calls:
            args = call.arguments
            if args is None:
                continue
            near = function.place.path
            client = call.target if self.spec(call.target) is not None else self.graph.object_call(call.target, near)
            spec = self.spec(client)
            step = ((function, call),)
            if client is not None and spec is not None and spec.keyword is not None:
                given = args.value(spec.keyword)
                if given is not None and given.parameter is not None:
                    found.append(Forward(
                        client, spec, given.parameter, given.position,
                        value_from_data(given.default) if given.default is not None else None, given.default_text, step,
                    ))
                elif (args.forwards_kwargs and not function.sets_timeout and spec.keyword not in args.keywords
                        and not args.star and not (spec.position is not None and args.positional > spec.position)):
                    found.append(Forward(client, spec, None, None, None, None, step))
                continue
            if not args.forwards_kwargs or function.sets_timeout:
                continue
            callee = self.graph.callee(call, near)
            if callee is None or callee is function:
                continue
            for inner in self.forwards(callee) or ():
                if inner.keyword not in args.keywords:
                    found.append(Forward(
                        inner.client, inner.spec, inner.parameter, None, inner.default, inner.default_text,
                        step + inner.path,
                    ))
        self._forwards[function.name] = found
        return found


# A default filled in by a wrapper bounds its callers: only an unbounded or excessive one matters.
_DEFAULT_CHECKS = frozenset({"RES102", "RES105"})


def _judge_arguments(args: Arguments, spec: TimeoutSpec, name: str, max_timeout: float) -> Optional[Judgement]:
    """The verdict for a client call known only by its recorded arguments."""
    keyword = spec.keyword
    if keyword is not None and keyword in args.keywords:
        given = args.value(keyword)
        value = value_from_data(given.value) if given is not None and given.value is not None else None
        if given is None or value is None:
            return None
        if spec.none_means_default and given.text == "None":
            return judge_missing(name, spec, max_timeout, given_none=True)
        return judge_given(value, given.text, name, spec, max_timeout)
    if args.double_star or (args.star and spec.position is not None):
        return None
    if spec.position is not None and args.positional > spec.position:
        return None
    if set(spec.elsewhere) & set(args.keywords) or spec.dsn is not None:
        return None
    given = [k for k in spec.partial if k in args.keywords]
    return judge_missing(name, spec, max_timeout, how=_partial(given[0]) if given else None)


def _origin(receiver: str) -> str:
    """Where the client of a call comes from, for messages: ``pkg.make`` → "the client comes
    from `make`"; ``pkg.send.(session)`` → "the client is what the callers of `send` pass as
    `session`"."""
    owner, last = split_last(receiver)
    if last.startswith("(") and owner:
        return f"the client is what the callers of `{_short(owner)}` pass as `{last[1:-1]}`"
    return f"the client comes from `{_short(receiver)}`"


def _short(name: str) -> str:
    """``app.http.fetch`` → ``fetch``; methods keep their class (``Client.get``)."""
    parts = name.split(".")
    return ".".join(parts[-2:]) if len(parts) > 2 and parts[-2][:1].isupper() else parts[-1]
