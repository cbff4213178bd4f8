"""The ONE timeout verdict the RES1xx rules share about a client call.

``judge`` turns a client call into at most one finding, so the rules cannot disagree: the most
severe problem wins (RES101 for a missing timeout; for a given one RES102 > RES105 > RES103 >
RES104). Each rule reports only the verdicts that carry its own code. What the call's timeout
*is* comes from the library layer (``resilint.libraries``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, AbstractSet, Callable, Collection, Dict, FrozenSet, Iterable, Iterator, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries import curl, socket_connects
from resilint.libraries.client_subclasses import CONNECTING_CLASSES, CONNECTS, forwarded_client
from resilint.libraries.clients import (
    GENERIC_WAIT,
    for_project,
    CURL_DEFAULT,
    CURL_OPTIONS,
    SOCKET_CONNECT,
    ZEEP_CLIENTS,
    ZEEP_TRANSPORTS,
    TimeoutArgument,
    TimeoutSpec,
    client_method_names,
    find_dsn,
    find_timeout,
    copies_kwargs,
    keys_filled_in,
    local_by_default,
    spec_for,
)
from resilint.libraries.network_mocks import answered, in_process, text_head, under_project_double
from resilint.libraries.presign import CONSTRUCTIONS, names_no_service, signs, signs_only
from resilint.libraries.request_timeouts import (
    SENDS_NOTHING, TIMED_REQUESTS, connects_later_with_timeout, every_request_timed, method_spec, pool_of_adapter,
)
from resilint.libraries.server_sockets import (
    FIXTURE_HELPER, FIXTURE_URL, FRAMEWORK_URLS, LOOPBACK_URL, SETTIMEOUT, loopback_clients, own_route_url, sends_to_loopback, serves_only,
)
from resilint.libraries.sessions import object_sets_timeout, session_sets_timeout
from resilint.libraries.timeout_values import (
    CONSTANT_NOTE,
    HTTPX_PHASES,
    NONE_GIVEN,
    Phase,
    TimeoutEvaluator,
    TimeoutValue,
    dsn_value,
    seconds_text as _seconds,
    value_from_data,
)
from resilint.lint.canonical import library_class
from resilint.lint.nodes import call_argument, code_of, dotted_name, is_none, is_true, kwargs_name, string_of
from resilint.lint.semantic import CallSite, Instance, Partial, SemanticModel
from resilint.lint.summary import (
    CALLED, POSITIONAL, PROJECT_DOUBLE, Argument, Arguments, Call, FunctionSummary, ModuleSummary, ObjectFacts, Place, Ref,
    summary_refs,
)
from resilint.lint.traversal import iter_nodes
from resilint.lint.value_flow import a_request, own_parameter, passed_at, split_last

if TYPE_CHECKING:  # pragma: no cover
    from resilint.lint.config import Settings
    from resilint.lint.project import ProjectContext, ProjectGraph
    from resilint.lint.rule import RuleContext

_PARTIAL = "functools.partial"
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
    "mysql.connector": None,
    "pymysql": None,
    "httplib2": None,
    "googleapiclient": None,
    "zeep": None,
    "hvac": None,
    "jira": None,
    "gitlab": None,
    "openai": None,
    "websocket": None,
    "requests_hardened": None,
    "pycurl": None,
    "treq": None,
}
_RUNTIME_SCALAR_HINT = f"pass `resilint.runtime.timeout(...).read`, {_DEADLINE}"
_RUNTIME_ALTERNATIVES = tuple(
    f", or {hint}" for hint in {*_RUNTIME_HINTS.values(), _RUNTIME_SCALAR_HINT} if hint is not None
)


def for_fix_target(message: str, settings: "Settings") -> str:
    """A message as the run's fix target puts it: the ``resilint.runtime`` alternative is named
    only to a project that uses the runtime (``fix-target``), as the fixes write."""
    if settings.fix_target == "runtime":
        return message
    for alternative in _RUNTIME_ALTERNATIVES:
        message = message.replace(alternative, "")
    return message

@dataclass(frozen=True)
class Verdict:
    code: str
    node: cst.CSTNode
    message: str
    anchor: cst.CSTNode
    # The client call's qualified name and catalog entry (what the timeout codemods rewrite).
    client: Optional[str] = None
    spec: Optional[TimeoutSpec] = None
    # Reported by the project pass, which reads how other modules use the client.
    deferred: bool = False
    # Made by a function the client is handed to (``asyncio.to_thread``): no fix is offered.
    applied: bool = False


def judge(
    site: CallSite, name: str, spec: TimeoutSpec, model: SemanticModel, max_timeout: float,
    trust_urls: bool = False,
) -> Optional[Verdict]:
    """The one timeout finding for this client call, if any. ``trust_urls``: a Redis URL we
    cannot read carries a timeout (the ``redis-url-timeouts`` setting)."""
    call = site.node
    if spec.socket_default:
        spec = _with_socket_default(model, spec, site)
        if spec is None:
            return None  # the function sets a socket default the file cannot read: its value decides
    evaluator = TimeoutEvaluator(model, site.scope, site.order, site)
    partial = _through_partial(model, site)
    if partial is not None:
        made = model.call_site(partial.call)
        bound = partial.call.with_changes(args=partial.call.args[1:])
        if made is None or find_timeout(bound, spec, model, made.scope, made.order) != TimeoutArgument(None, False):
            return None  # the partial gives the timeout (judged where it is made) or may give it
        # what the call runs: the partial's positional arguments, the call's, then the keywords
        merged = (*bound.args, *call.args)
        positional = tuple(a for a in merged if a.keyword is None and a.star != "**")
        call = call.with_changes(args=positional + tuple(a for a in merged if a.keyword is not None or a.star == "**"))
    ignored = _ignoring_timeout(call, spec)
    if ignored is not None:
        return Verdict("RES101", call.func, f"`{name}` is called with `{ignored}`: {spec.ignored_note}", call)
    argument = find_timeout(call, spec, model, site.scope, site.order)
    node = argument.value
    if node is not None and spec.none_means_default and is_none(node):
        return _missing(call, name, spec, model, site, max_timeout, given_none=node)
    if node is None:
        if argument.unknown:
            return _judge_filled(model, site, call, name, spec, max_timeout, evaluator)
        if _pool_kwargs_set(model, site, spec):
            return None
        if spec.session is not None:
            session = call_argument(call, spec.session[1], spec.session[0])
            if session is not None:
                if not _plain_session(model, session.value, site):
                    return None  # the session decides, and may set a timeout
                return _missing(call, name, spec, model, site, max_timeout,
                                how="is given a `requests.Session` that sets no timeout")
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
    if argument.read_in is not None:
        evaluator = TimeoutEvaluator(model, argument.read_in, 1 << 62)
    value = evaluator.evaluate(node)
    if value is None:
        return None
    return _judge_value(value, node, call, name, spec, max_timeout)


def _through_partial(model: SemanticModel, site: CallSite) -> Optional[Partial]:
    """The ``functools.partial`` the call goes through, if it does."""
    return next((v for v in model.resolve_all(site.node.func, site.scope, site.order) if isinstance(v, Partial)), None)


def _ignoring_timeout(call: cst.Call, spec: TimeoutSpec) -> Optional[str]:
    """``async_=True`` (a keyword of ``ignored_when`` given a true literal, also inside a literal
    ``**{...}``), as written, when the call has one."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in spec.ignored_when and is_true(arg.value):
            return f"{arg.keyword.value}={code_of(arg.value)}"
        if arg.star == "**" and isinstance(arg.value, cst.Dict):
            for element in arg.value.elements:
                if isinstance(element, cst.DictElement) and string_of(element.key) in spec.ignored_when and is_true(element.value):
                    return f"{string_of(element.key)}={code_of(element.value)}"
    return None


def _plain_session(model: SemanticModel, expr: cst.BaseExpression, site: CallSite) -> bool:
    """The expression holds only ``requests.Session`` objects that fill in no timeout."""
    values = model.resolve_all(expr, site.scope, site.order)
    return bool(values) and all(
        isinstance(value, Instance) and library_class(model.type_name(value)) == "requests.Session"
        and isinstance(value.of, str) and not object_sets_timeout(model, value)
        for value in values
    )


def _judge_filled(
    model: SemanticModel, site: CallSite, call: cst.Call, name: str, spec: TimeoutSpec, max_timeout: float,
    evaluator: TimeoutEvaluator,
) -> Optional[Verdict]:
    """A call that unpacks its function's own ``**kwargs``, into which the function fills in a
    timeout (``kwargs["timeout"] = DEFAULT_TIMEOUT``, ``kwargs.setdefault("timeout", None)``):
    that value, for the callers that pass none, judged where it is written when it is
    unbounded or too long (a default chosen there, not a magic number at the call)."""
    function = site.scope.enclosing_function
    own = kwargs_name(function.node) if function is not None else None
    unpacked = next((
        arg.value.value for arg in call.args if arg.star == "**" and isinstance(arg.value, cst.Name)
        and own is not None and (arg.value.value == own or copies_kwargs(model, arg.value.value, own, site))
    ), None)  # (``**kwargs``, or ``**req_kw`` with ``req_kw = deepcopy(kwargs)``)
    if unpacked is None or spec.keyword is None:
        return None
    filled = [value for key, value in keys_filled_in(model, function, unpacked) if key == spec.keyword]  # type: ignore[arg-type]
    value = evaluator.evaluate(filled[0]) if len(filled) == 1 else None
    verdict = _judge_value(value, filled[0], call, name, spec, max_timeout) if value is not None else None
    return verdict if verdict is not None and verdict.code in ("RES102", "RES105") else None


def _missing(
    call: cst.Call, name: str, spec: TimeoutSpec, model: SemanticModel, site: CallSite, max_timeout: float,
    given_none: Optional[cst.BaseExpression] = None, how: Optional[str] = None,
) -> Optional[Verdict]:
    if spec.library == "requests" and session_sets_timeout(call, model, site.scope, site.order):
        return None
    given = [k for k in spec.partial if call_argument(call, k) is not None]
    judgement = judge_missing(
        name, spec, max_timeout, given_none=given_none is not None,
        how=_partial(given[0], spec) if given else how,
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


def _partial(keyword: str, spec: TimeoutSpec) -> str:
    return f"is given only `{keyword}`, which bounds {spec.partial_note}"


@dataclass(frozen=True)
class Judgement:
    """A verdict before it has a place: reported at the timeout value, or else at the call."""

    code: str
    message: str
    at_value: bool


def _pool_kwargs_set(model: SemanticModel, site: CallSite, spec: TimeoutSpec) -> bool:
    """redis-py: ``client.connection_pool.connection_kwargs["socket_timeout"] = 3`` after the
    client is made gives every connection its pool opens later that timeout."""
    if spec.library != "redis" or site.scope.kind not in ("function", "module"):
        return False
    holders = site.scope.names_bound_to(site.node)
    if not holders:
        return False
    holder = holders[0]
    root = site.scope.node.body if isinstance(site.scope.node, cst.FunctionDef) else site.scope.node
    for node in iter_nodes(root, stop_at=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        if not isinstance(node, cst.AssignTarget) or not isinstance(node.target, cst.Subscript):
            continue
        target = node.target
        owner = target.value
        key = target.slice[0].slice if len(target.slice) == 1 else None
        if (isinstance(owner, cst.Attribute) and owner.attr.value == "connection_kwargs"
                and isinstance(key, cst.Index) and string_of(key.value) in spec.keywords
                and (dotted_name(owner) or "").split(".", 1)[0] == holder):
            return True
    return False


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
                f"is given {spec.setting}=None, which selects the default" if given_none
                else "is called without a timeout"
            )
        return Judgement(
            "RES105", f"`{name}` {how}: {spec.default_message}, above max-timeout ({_seconds(max_timeout)} s)",
            given_none,
        )
    return None


def _none_as_default(value: TimeoutValue, spec: TimeoutSpec) -> TimeoutValue:
    """A ``None`` that selects the client's default (botocore's ``config=None``, also on one
    path of a choice, ``Config(...) if n else None``) waits that default, not forever."""
    phases = tuple(
        Phase(p.name, spec.default_seconds, note=spec.default_message or "")
        if not p.name and p.unbounded and NONE_GIVEN in p.unbounded else p
        for p in value.phases
    )
    return replace(value, phases=phases) if phases != value.phases else value



def judge_given(
    value: TimeoutValue, text: str, name: str, spec: TimeoutSpec, max_timeout: float,
    checks: Optional[FrozenSet[str]] = None,
) -> Optional[Judgement]:
    """The timeout ``value`` (written ``text``) reaches the client ``name``."""
    checks = spec.checks if checks is None else spec.checks & checks
    if spec.none_means_default and spec.default_seconds is not None:
        value = _none_as_default(value, spec)
    if spec.unit != 1.0:
        value = _in_seconds(value, spec.unit)
    shown = f" ({value.via})" if value.via else ""
    if spec.zero_is_mode and value.scalar and value.phases[0].seconds == 0:
        return None
    if spec.zero_unbounded and value.scalar and value.phases[0].seconds is not None and value.phases[0].seconds <= 0:
        value = TimeoutValue(
            (Phase("", None, f"{spec.setting}={_seconds(value.phases[0].seconds)}, which {spec.zero_unbounded} reads as no timeout"),),
            literal=False, scalar=False, via=value.via,
        )
    if spec.zero_means_default and value.scalar and (value.phases[0].seconds or 0) <= 0:
        if spec.default_seconds is not None and spec.default_seconds > max_timeout and "RES105" in checks:
            return Judgement(
                "RES105",
                f"`{name}` is given {spec.setting}={_seconds(value.phases[0].seconds or 0)}{shown}, which "
                f"falls back to the default: {spec.default_message}, above max-timeout ({_seconds(max_timeout)} s)",
                True,
            )
        return None
    reason = value.unbounded
    if reason is not None:
        if value.chosen and spec.checks == GENERIC_WAIT:
            return None  # ``asyncio.timeout(None if no_limit_configured else deadline)``: the program's own choice
        if "RES102" in checks:
            return Judgement("RES102", f"`{name}` is given an unbounded timeout: {reason}; it may wait forever", True)
        return None
    largest = value.largest()
    if largest is not None and largest.seconds is not None and largest.seconds > max_timeout and "RES105" in checks:
        # every phase that waits as long is named (``sock_connect`` and ``sock_read`` both 600 s)
        longest = [p for p in value.phases if p.name and p.seconds == largest.seconds and not p.unbounded] if largest.name else [largest]
        names = [p.name for p in longest if p.name]
        phase = f" in the {' and '.join(names)} phase{'s' if len(names) > 1 else ''}" if names else ""
        notes = list(dict.fromkeys(p.note for p in longest if p.note))
        note = f": {'; '.join(notes)}" if notes else ""
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


def _in_seconds(value: TimeoutValue, unit: float) -> TimeoutValue:
    """A value written in another unit (pycurl's ``TIMEOUT_MS``), in seconds."""
    phases = tuple(replace(p, seconds=p.seconds * unit if p.seconds is not None else None) for p in value.phases)
    return replace(value, phases=phases)


def timeout_verdicts(ctx: "RuleContext") -> List[Verdict]:
    """Every timeout verdict of the file, computed once for all RES1xx rules."""
    return model_verdicts(ctx.model, ctx.settings)


def model_verdicts(model: SemanticModel, settings: "Settings") -> List[Verdict]:
    """The same verdicts for a model built outside a rule run (the timeout codemods)."""
    key = (timeout_verdicts, settings.max_timeout, tuple(settings.extend_clients), settings.redis_url_timeouts, settings.declared_versions)
    return model.derived(key, lambda: _judge_all(model, settings))


def _judge_all(model: SemanticModel, settings: "Settings") -> List[Verdict]:
    verdicts = []
    # ``redis.StrictRedis().from_url(url)``: the first client only reaches the class method
    reaching_class = {
        id(site.node.func.value) for site, _ in model.iter_calls()
        if isinstance(site.node.func, cst.Attribute) and site.node.func.attr.value == "from_url"
        and isinstance(site.node.func.value, cst.Call)
    }
    for site, name in model.iter_calls():
        if id(site.node) in reaching_class:
            continue
        if name in CONSTRUCTIONS:
            verdict = _judge_client(model, site, name, settings)
            if verdict is not None:
                verdicts.append(verdict)
            continue
        if name == _PARTIAL:
            verdict = _judge_partial(model, site, settings)
            if verdict is not None:
                verdicts.append(verdict)
            continue
        if _applies(name):
            verdict = _judge_applied(model, site, name, settings)  # type: ignore[arg-type]
            if verdict is not None:
                verdicts.append(verdict)
            continue
        connect = socket_connects.connect_name(name)
        if connect is not None:
            if socket_connects.connects_untimed(model, site) and not in_process(model, site, "socket", connect):
                how = "connects a socket given no timeout (no `settimeout` before it)"
                verdicts.append(Verdict(
                    "RES101", site.node.func, f"`{connect}` {how}: {SOCKET_CONNECT.unbounded_default}", site.node,
                    client=connect, spec=SOCKET_CONNECT,
                ))
            continue
        if name == curl.SETOPT or name in curl.PERFORMS:
            if not in_process(model, site, "pycurl", name):
                verdict = _judge_curl(model, site, name, settings.max_timeout)
                if verdict is not None:
                    verdicts.append(verdict)
            continue
        spec = spec_for(name, settings.extend_clients)
        if spec is None:
            name = forwarded_client(model, site)
            spec = spec_for(name)
        if spec is None or name is None:
            continue
        if in_process(model, site, spec.library, name):
            continue  # a mock answers it: no network, so no timeout to judge
        if connects_later_with_timeout(model, site, name):
            continue  # ``ftplib.FTP()`` sends nothing; its ``connect(host, port, timeout)`` is bounded
        if name == SETTIMEOUT and serves_only(model, site):
            continue  # a wait for inbound traffic, not an outbound call's
        if spec.library == "urllib3" and pool_of_adapter(model, site):
            continue  # requests gives each request's own timeout to the pool its adapter makes
        verdict = judge(site, name, for_project(spec, settings.declared_versions), model, settings.max_timeout, settings.redis_url_timeouts)
        if verdict is not None and name in TIMED_REQUESTS and verdict.node is site.node.func:
            # a client without a default: its requests may each give one (judged where sent)
            timed = every_request_timed(model, site.node)
            if timed:
                continue
            # a verdict with a fix stays with the file, whose findings carry the fixes
            verdict = replace(verdict, deferred=timed is None and spec.library not in RUNTIME_TIMEOUT_LIBRARIES)
        elif verdict is not None and name in TIMED_REQUESTS and every_request_timed(model, site.node, defaulted=True):
            continue  # a verdict on the client's default, which each of its requests replaces
        if (verdict is not None and spec.socket_global and verdict.code == "RES101" and not verdict.deferred
                and verdict.node is site.node.func and name not in TIMED_REQUESTS):
            # unless this module or one its import runs sets a process-wide default (the project pass)
            verdict = replace(verdict, deferred=True)
        if verdict is not None and under_project_double(model, site):
            verdict = replace(verdict, deferred=True)  # the project pass tells whether that class is a double
        if verdict is not None:
            verdicts.append(replace(verdict, client=name, spec=spec, message=_naming_every_client(model, site, name, verdict.message)))
    return verdicts


def _naming_every_client(model: SemanticModel, site: CallSite, name: str, message: str) -> str:
    """The message naming each library client the receiver may hold, not only the first one
    assigned (``self.pool = ProxyManager(...) if proxy else PoolManager(...)``)."""
    method = split_last(name)[1]
    names = sorted({name, *(other for other in model.call_names(site) if split_last(other)[1] == method and spec_for(other) is not None)})
    if len(names) == 1:
        return message
    return message.replace(f"`{name}`", " or ".join(f"`{other}`" for other in names), 1)


# Functions that call the callable they are given with the arguments that follow it (in a
# thread): ``asyncio.to_thread(requests.get, url)`` is ``requests.get(url)``. By the position of
# the callable (``loop.run_in_executor(None, requests.get, url)``: 1).
APPLIERS = {
    "asyncio.to_thread": 0, "starlette.concurrency.run_in_threadpool": 0, "anyio.to_thread.run_sync": 0,
    "concurrent.futures.Executor.submit": 0, "concurrent.futures.ThreadPoolExecutor.submit": 0,
    "concurrent.futures.thread.ThreadPoolExecutor.submit": 0,
    # run after the response is sent, in a thread for a plain function
    **{f"{module}.BackgroundTasks.add_task": 0 for module in ("starlette.background", "fastapi", "fastapi.background")},
}


def _judge_applied(model: SemanticModel, site: CallSite, name: str, settings: "Settings") -> Optional[Verdict]:
    """A client request handed to a function that calls it in a thread, judged as the call it
    makes there; reported at the client, with no fix (the timeout goes among the applier's
    arguments, which not every applier passes on by keyword)."""
    made = _applied_call(site, name)
    if made is None:
        return None
    target = made.node.func
    client = model.qualified_name(target, site.scope, site.order)
    spec = spec_for(client, settings.extend_clients) if client is not None else None
    if spec is None or client is None or client in CONSTRUCTIONS or client in TIMED_REQUESTS:
        return None
    if in_process(model, site, spec.library, client):
        return None
    verdict = judge(made, client, for_project(spec, settings.declared_versions), model, settings.max_timeout, settings.redis_url_timeouts)
    if verdict is None:
        return None
    node = target if verdict.node is made.node else verdict.node
    return replace(verdict, node=node, anchor=site.node, client=client, spec=spec, applied=True)


def _applies(name: Optional[str]) -> bool:
    """Whether ``name`` calls the function it is handed (in a thread: ``executor.submit``)."""
    return name in APPLIERS or (name or "").endswith(".run_in_executor")


def _applied_call(site: CallSite, name: str) -> Optional[CallSite]:
    """The call an applier makes of the function it is handed (``executor.submit(session.post,
    url, json=body)``: ``session.post(url, json=body)``), as a call of the file's scope."""
    position = APPLIERS.get(name, 1)
    args = site.node.args
    if len(args) <= position or any(arg.star or arg.keyword is not None for arg in args[: position + 1]):
        return None
    return CallSite(site.node.with_changes(func=args[position].value, args=args[position + 1:]), site.scope, site.order, site.stack)


def _socket_defaults(model: SemanticModel) -> Dict[int, List[Tuple[int, Optional[float]]]]:
    """The file's ``socket.setdefaulttimeout(N)`` calls, by the scope (its ``id``) they are
    written in, in order: (order, seconds; None when the value cannot be read, is ``None`` or
    is not above zero)."""
    def compute() -> Dict[int, List[Tuple[int, Optional[float]]]]:
        found: Dict[int, List[Tuple[int, Optional[float]]]] = {}
        for site, name in model.iter_calls():
            if name == "socket.setdefaulttimeout" and site.node.args:
                value = TimeoutEvaluator(model, site.scope, site.order).evaluate(site.node.args[0].value)
                seconds = value.phases[0].seconds if value is not None and value.scalar else None
                found.setdefault(id(site.scope), []).append((site.order, seconds if seconds is not None and seconds > 0 else None))
        return found

    return model.derived(_socket_defaults, compute)


def _with_socket_default(model: SemanticModel, spec: TimeoutSpec, site: CallSite) -> Optional[TimeoutSpec]:
    """``spec`` with the default a ``socket.setdefaulttimeout(N)`` sets before the call: in
    the same function (redash's BigQuery runner), else at the module's top level (the last
    one there); None when the function's value cannot be read."""
    defaults = _socket_defaults(model)
    where = "this module's"
    top = defaults.get(id(model.module_scope))
    seconds = top[-1][1] if top else None
    if site.scope is not model.module_scope:
        before = [found for order, found in defaults.get(id(site.scope), ()) if order < site.order]
        if any(found is None for found in before):
            return None
        if before:
            seconds, where = before[-1], "the function's"
    if seconds is None:
        return spec
    return replace(spec, default_seconds=float(seconds), default_message=(
        f"without `http=`, googleapiclient's build_http() waits what {where} "
        f"`socket.setdefaulttimeout` sets: {seconds:g} s"
    ))


def _judge_client(model: SemanticModel, site: CallSite, name: str, settings: "Settings") -> Optional[Verdict]:
    """A boto3 client's construction: none when the file only signs URLs with it; left to the
    project pass when other modules may use it and the file makes no other call through it."""
    spec = spec_for(name)
    if spec is None or in_process(model, site, spec.library, name):
        return None
    verdict = judge(site, name, spec, model, settings.max_timeout)
    if verdict is None:
        return None
    only = signs_only(model, site.node)
    if only:
        return None  # every call through it signs a URL: nothing goes over the network
    return replace(verdict, client=name, spec=spec, deferred=only is None)


def _judge_curl(model: SemanticModel, site: CallSite, name: str, max_timeout: float) -> Optional[Verdict]:
    """A pycurl timeout option's value where ``setopt`` sets it; at ``perform()``, a handle
    whose options never bound the transfer."""
    if name == curl.SETOPT:
        found = curl.timeout_option(model, site)
        if found is None:
            return None
        spec = CURL_OPTIONS[found[0]]
        verdict = judge(site, f"pycurl.{found[0]}", spec, model, max_timeout)
        return replace(verdict, client=name, spec=spec) if verdict is not None else None
    options = curl.Handles.of(model).set_on(site)
    if options is None:
        return None
    transfer, connect = curl.bounds(options)
    if transfer:
        return None
    how = (
        "runs a transfer whose handle is given only `CONNECTTIMEOUT`, which bounds the connect, not the transfer"
        if connect else "runs a transfer whose handle sets no `TIMEOUT`"
    )
    return Verdict("RES101", site.node.func, f"`{name}` {how}: {CURL_DEFAULT}", site.node, client=name,
                   spec=CURL_OPTIONS["TIMEOUT"])


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
    value = TimeoutEvaluator(model, argument.read_in or site.scope, 1 << 62 if argument.read_in else site.order).evaluate(argument.value)
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
    return spec is not None and spec.library in RUNTIME_TIMEOUT_LIBRARIES and spec.keyword == "timeout" and not verdict.applied


def report_verdicts(ctx: "RuleContext", code: str, skipped: FrozenSet[int] = frozenset()) -> None:
    """Report the file's verdicts of ``code``, but those on the nodes ``skipped`` names."""
    reported: Set[int] = set(skipped)  # a value two calls share (``**pool_kwargs``) is one finding
    for verdict in timeout_verdicts(ctx):
        if verdict.code == code and not verdict.deferred and id(verdict.node) not in reported:
            reported.add(id(verdict.node))
            message = for_fix_target(verdict.message, ctx.settings)
            ctx.report(verdict.node, message, anchor=verdict.anchor, fixable=takes_runtime_timeout(verdict))


def test_server_calls(model: SemanticModel) -> FrozenSet[int]:
    """The calls of the file whose URL or host is one of this machine's
    (``requests.get("http://127.0.0.1:6666/query")``) or a route of the application's own
    (``requests.put(url_for("v1.tags"))``; one a function of another module makes is left to
    the project pass), each by the call and by its function expression, where a verdict may be
    placed: in test code, the server the test run starts."""
    made = loopback_clients(model)  # ``http = urllib3.PoolManager()`` asked only of this machine
    return frozenset(node for site in model.calls for node in _test_server_nodes(model, site, made))


def _test_server_nodes(model: SemanticModel, site: CallSite, made: AbstractSet[int]) -> Tuple[int, ...]:
    """Where a verdict on the call is placed (the call, its function; for an applier, the
    function it is handed: ``_judge_applied``) when it goes to this machine or to the
    application's own route; () when it does not. For the call an applier makes
    (``executor.submit(session.post, url)``), only when the file shows that: the project pass
    does not judge an applied call, so a route another module makes stays reported."""
    placed = (id(site.node), id(site.node.func))
    if (id(site.node) in made or sends_to_loopback(site, model) or own_route_url(site, model) is not None
            or _names_no_server(model, site) or _reads_wsdl_here(model, site)):
        return placed
    name = model.call_name(site)
    applied = _applied_call(site, name) if _applies(name) else None  # type: ignore[arg-type]
    if applied is not None and (sends_to_loopback(applied, model) or own_route_url(applied, model) == ""):
        return (*placed, id(applied.node.func))
    return ()


def _reads_wsdl_here(model: SemanticModel, site: CallSite) -> bool:
    """A zeep client made from a WSDL of the test's own: a file (a path, or a ``file://`` URL),
    a document in memory (``io.StringIO``), or none (``Client(None)`` raises at once); or a
    transport handed at once to such a client. The service it describes is the test's."""
    name = model.call_name(site)
    if name in ZEEP_TRANSPORTS:
        outer = model.argument_of(site.node)
        return outer is not None and _reads_wsdl_here(model, outer)
    if name not in ZEEP_CLIENTS and name not in _ZEEP_DOCUMENTS:
        return False
    given = call_argument(site.node, "wsdl" if name in ZEEP_CLIENTS else "location", 0)
    return given is not None and _local_document(model, given.value, site)


def _local_document(model: SemanticModel, expr: cst.BaseExpression, site: CallSite) -> bool:
    wsdl = model.followed(expr, site.scope, site.order)
    if is_none(wsdl):
        return True
    if isinstance(wsdl, cst.Call) and isinstance(wsdl.func, cst.Attribute) and wsdl.func.attr.value in _STRING_METHODS:
        wsdl = wsdl.func.value  # ``("file:///" + path).replace("\\", "/")``
    head = text_head(wsdl)
    if head is not None:
        return "://" not in head or head.lower().startswith("file:")
    made = model.call_site(wsdl) if isinstance(wsdl, cst.Call) else None
    return made is not None and (model.call_name(made) in _LOCAL_DOCUMENTS or _reads_wsdl_here(model, made))


_STRING_METHODS = frozenset({"replace", "strip", "format"})
_ZEEP_DOCUMENTS = frozenset({"zeep.wsdl.Document", "zeep.wsdl.wsdl.Document"})
# What makes a local document or the path of one.
_LOCAL_DOCUMENTS = frozenset({
    "io.StringIO", "io.BytesIO", "os.path.join", "os.path.abspath", "os.path.dirname", "pathlib.Path",
    "pathlib.PurePath", "builtins.open",
})


def _names_no_server(model: SemanticModel, site: CallSite) -> bool:
    """``redis.Redis()``: a client that connects to this machine unless told otherwise (also
    a subclass of it the file defines, ``Redis4()``)."""
    spec = spec_for(model.call_name(site), ()) or spec_for(forwarded_client(model, site), ())
    return spec is not None and local_by_default(spec, site.node, model, site.scope)


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
    # The client is the callable a parameter of the first function on the path holds (``def
    # call_api(endpoint, http_method, **kwargs): http_method(url, **kwargs)``): each caller's
    # ``call_api(path, requests.get, **kwargs)`` tells which (``bound_to``); ``client`` and
    # ``spec`` are placeholders until then.
    held: str = ""
    # The first function on the path hands its own ``*args`` on towards the client: how many
    # positional arguments beyond those it names a caller may pass before one lands where the
    # client takes its timeout; None when it hands on no ``*args``.
    spare_args: Optional[int] = None
    # A function on the path fills in a timeout when the callers pass none (``if "timeout" not
    # in kwargs: kwargs.update(timeout=self.timeout)``): only a timeout a caller gives is theirs.
    filled: bool = False

    @property
    def keyword(self) -> str:
        return self.parameter or self.spec.keyword or ""


_HELD_SPEC = TimeoutSpec("", keyword=None)
_MAX_METHODS_FOLLOWED = 200  # the project functions read for what one kept object's methods reach


def project_verdicts(ctx: "ProjectContext") -> List[ProjectVerdict]:
    """Every timeout verdict that needs another function or module, once for all RES1xx rules."""
    settings: "Settings" = ctx.settings
    key = (project_verdicts, settings.max_timeout, tuple(settings.extend_clients))
    return ctx.derived(key, lambda: _ProjectJudge(ctx.graph, settings, ctx.in_test_code).all(ctx.reports_in))


def passed_constant(
    ctx: "ProjectContext", call: Call, near: str, client: str = "",
) -> Optional[Tuple[TimeoutValue, str]]:
    """The module constant (of any module) a client call passes as its timeout, as a timeout,
    with its name: ``timeout=settings.STREAM_TIMEOUT``. ``client``: the library method the
    call runs, when its target is a project name for it (``HTTPClient.send_request``)."""
    settings: "Settings" = ctx.settings
    spec = spec_for(client or call.target, settings.extend_clients)
    if spec is None or not spec.keyword:
        return None
    judge = ctx.derived((passed_constant, tuple(settings.extend_clients)), lambda: _ProjectJudge(ctx.graph, settings, ctx.in_test_code))
    names = _passed_names(call, {spec.keyword} | ({spec.position} if spec.position is not None else set()))
    value = judge.constant(names[0], near) if len(names) == 1 else None
    return (value, value.via or names[0].rsplit(".", 1)[-1]) if value is not None else None


def report_project_verdicts(ctx: "ProjectContext", code: str, skip: Callable[[str], bool] = lambda path: False) -> None:
    """The project's verdicts of ``code``, but in the files ``skip`` names; and the file
    findings of ``code`` on the calls that a test double of another module answers taken back."""
    reported: Set[Place] = set()  # one finding per place: two ways to the same object tell of one call
    for verdict in project_verdicts(ctx):
        if verdict.code == code and not skip(verdict.place.path) and verdict.place not in reported:
            reported.add(verdict.place)
            ctx.report(verdict.place, for_fix_target(verdict.message, ctx.settings), verdict.related)
    for place in _answered_in_tests(ctx):
        ctx.withdraw(place)


def _answered_in_tests(ctx: "ProjectContext") -> List[Place]:
    """The client calls of test code that a double answers, which only the project shows: a
    fixture of a ``conftest.py`` the test requests (``Call.mocked`` as the graph completes it).
    Their file judged them without it; where it saw the double, taking back is a no-op."""
    settings: "Settings" = ctx.settings

    def find() -> List[Place]:
        found = []
        for function in ctx.graph.functions:
            path = function.place.path
            if not ctx.reports_in(path) or not ctx.in_test_code(path):
                continue
            for call in function.calls:
                spec = spec_for(call.target, settings.extend_clients) if call.mocked else None
                if spec is not None and answered(call.mocked, spec.library, call.target):
                    found.append(call.place)
        return found

    return ctx.derived((_answered_in_tests, tuple(settings.extend_clients)), find)


# What a constant another module defines can tell (RES103 is for numbers written at the call).
_CONSTANT_CHECKS = frozenset({"RES102", "RES104", "RES105"})


class _ProjectJudge:
    def __init__(self, graph: "ProjectGraph", settings: "Settings", in_test_code: Callable[[str], bool]) -> None:
        self.graph = graph
        self.settings = settings
        self.in_test_code = in_test_code
        self._forwards: Dict[str, Optional[List[Forward]]] = {}
        # Cheap first tests, so that the value flow is asked only of calls that may be answered
        self._client_methods = client_method_names(settings.extend_clients)
        self._forwarding: Dict[str, bool] = {}  # a name as called → whether it may forward (``forwarding_name``)
        self._as_called: Optional[Dict[str, List[FunctionSummary]]] = None
        self._bound: Dict[str, List[FunctionSummary]] = {}
        self._may_forward: Optional[Set[str]] = None
        self._partial_clients: Optional[bool] = None
        self._defaults: Dict[str, bool] = {}  # module → whether importing it sets a socket default
        self._setters: Optional[Set[str]] = None  # the modules that set one when imported
        self._connecting: Optional[Set[str]] = None  # project classes that may be a connecting client
        self._in_reported_files: List[FunctionSummary] = graph.functions  # whose calls are judged (``all``)

    def spec(self, name: Optional[str]) -> Optional[TimeoutSpec]:
        """The client's spec as the project's declared versions make it (``for_project``), as
        its own file judges it."""
        spec = spec_for(name, self.settings.extend_clients)
        return for_project(spec, self.settings.declared_versions) if spec is not None else None

    def all(self, reported: Callable[[str], bool] = lambda path: True) -> List[ProjectVerdict]:
        """The verdicts on the calls of the files whose findings are ``reported``: each is
        placed at its call or at the call's arguments, so the other files' would not be shown."""
        self._in_reported_files = [function for function in self.graph.functions if reported(function.place.path)]
        verdicts: List[ProjectVerdict] = [
            *self.signing_clients(), *self.timed_clients(), *self.socket_default_clients(), *self.own_route_clients(),
            *self.doubled_clients(),
        ]
        for function in self._in_reported_files:
            # A client call of the file itself is judged with the file; another object the same
            # call may go to (``(a if fast else b).get``) only when it is another client.
            judged: Dict[Place, Set[str]] = {}
            for call in function.calls:
                if self.spec(call.target) is not None:
                    judged.setdefault(call.place, set()).add(call.target)
            near = function.place.path
            for call in function.calls:
                if call.arguments is None:
                    continue
                if call.target in judged.get(call.place, ()):
                    verdicts.extend(self.imported_constant(call, near))
                    verdicts.extend(self.unpacked_mapping(call, near))
                    continue
                libraries = {
                    spec.library for spec in map(self.spec, self.object_clients(call.target, near)) if spec is not None
                } if call.place in judged else set()
                if libraries and libraries <= {spec.library for spec in map(self.spec, judged[call.place]) if spec is not None}:
                    continue  # (``requests.request`` beside ``requests.Session.request``: the same library's, judged alike)
                verdicts.extend(self.judge_call(call, near, function))
        return verdicts

    def imported_constant(self, call: Call, near: str, client: Optional[str] = None) -> List[ProjectVerdict]:
        """A client call whose timeout is a constant of another module (``timeout=HTTP_TIMEOUT``
        with ``from app.settings import HTTP_TIMEOUT``, or ``settings.HTTP_TIMEOUT``), which its
        own file could not read: judged by that constant's value (RES102, RES104, RES105).
        ``client``: the library method the call runs, when the call is on a project object."""
        name = client or call.target
        spec = self.spec(name)
        arguments = call.arguments
        if spec is None or arguments is None or answered(call.mocked, spec.library, name):
            return []
        given = arguments.value(spec.keyword) if spec.keyword is not None else None
        if given is not None:
            if given.value is not None:  # its file read the value, maybe but for other modules' constants
                read = value_from_data(given.value)
                value = self.filled(read, near) if read is not None else None
            else:
                value = self.passed_constant(call, spec.keyword, given.position, near)  # type: ignore[arg-type]
            text, at = given.text, given.place
        elif (spec.position is not None and arguments.positional > spec.position and not arguments.star
              and spec.keyword not in arguments.keywords):
            # by position (``sock.settimeout(settings.IDLE_TIMEOUT)``): a constant of another
            # module only, as its file judged its own
            names = _passed_names(call, {spec.position})
            located = self.graph.locate(names[0], near) if len(names) == 1 else None
            if located is not None and located[0].path == near:
                return []
            value = self.constant(names[0], near) if len(names) == 1 else None
            text, at = names[0].rsplit(".", 1)[-1] if names else "", call.place
        else:
            return []
        if value is None:
            return []
        if spec.none_means_default and value.via is not None and value.via.endswith(" = None"):
            judgement = judge_missing(name, spec, self.settings.max_timeout, given_none=True)
        else:
            judgement = judge_given(value, text, name, spec, self.settings.max_timeout, checks=_CONSTANT_CHECKS)
        if judgement is None:
            return []
        return [ProjectVerdict(judgement.code, at if judgement.at_value else call.place, judgement.message)]

    def filled(self, value: TimeoutValue, near: str) -> Optional[TimeoutValue]:
        """A timeout object whose phases name constants of other modules
        (``aiohttp.ClientTimeout(total=config.EXPORT_TIMEOUT)``), with their values; None when
        it names none, or one that is not a single number or ``None``."""
        names = {p.note[len(CONSTANT_NOTE):] for p in value.phases if p.seconds is None and p.note.startswith(CONSTANT_NOTE)}
        if not names:
            return None
        constants: Dict[str, Phase] = {}
        shown: List[str] = []
        for name in sorted(names):
            constant = self.constant(name, near)
            if constant is None or len(constant.phases) != 1 or not (constant.scalar or constant.unbounded):
                return None
            short = name.rsplit(".", 1)[-1]
            found = constant.phases[0]
            constants[name] = Phase("", found.seconds, f"{short} is None" if found.unbounded else None)
            if found.seconds is not None:
                shown.append(f"{short} = {_seconds(found.seconds)}")
        phases = tuple(
            replace(constants[p.note[len(CONSTANT_NOTE):]], name=p.name) if p.note.startswith(CONSTANT_NOTE) and p.seconds is None else p
            for p in value.phases
        )
        if any(p.unbounded for p in phases) and not all(p.unbounded for p in phases):
            return None  # whether ``None`` there is unbounded depends on the other phases
        # one constant for every phase: ``ClientTimeout(total=X)`` alone, ``httpx.Timeout(X)``
        scalar = len(names) == 1 and len(phases) == len(value.phases) and all(p.note.startswith(CONSTANT_NOTE) for p in value.phases) and (
            {p.name for p in value.phases} in ({"total"}, set(HTTPX_PHASES))
        ) and phases[0].seconds is not None
        return TimeoutValue(phases, literal=False, scalar=scalar, via=", ".join(shown) or None)

    def passed_constant(self, call: Call, keyword: str, position: Optional[int], near: str) -> Optional[TimeoutValue]:
        """The module constant a call passes as ``keyword`` (or at ``position``), as a timeout."""
        names = _passed_names(call, {keyword} | ({position} if position is not None else set()))
        return self.constant(names[0], near) if len(names) == 1 else None

    def constant(self, name: str, near: str) -> Optional[TimeoutValue]:
        """The timeout a module constant is, when every assignment the summaries show gives the
        same one: a number, ``None`` or a tuple of them."""
        refs = self.graph.defined(name, near, lambda module: module.values) or self.graph.django_setting(name, near) or ()
        short = name.rsplit(".", 1)[-1]
        numbers = {float(ref[1]) for ref in refs if ref[0] in ("int", "float")}
        if len(numbers) == 1 and all(ref[0] in ("int", "float") for ref in refs):
            seconds = numbers.pop()
            return TimeoutValue((Phase("", seconds),), literal=False, scalar=True, via=f"{short} = {seconds:g}")
        timed = [ref for ref in refs if ref[0] == "timeout"]
        if len(timed) != 1 or any(ref[0] not in ("timeout", "new") for ref in refs):
            return None  # (a call's "new" ref is the object that timeout is)
        if any(ref[0] == "new" and self.graph.is_project_name(ref[1]) for ref in refs):
            return None  # also what a project function returns (``check_setting_int(...)`` at start-up)
        _, phases, scalar, text = timed[0]
        return TimeoutValue(
            tuple(Phase(n, s, f"{short} is {u}" if u else None, note) for n, s, u, note in phases),
            literal=False, scalar=scalar, via=f"{short} = {text}" if text else short,
        )

    def socket_default_clients(self) -> Iterator[ProjectVerdict]:
        """The clients that wait what ``socket.setdefaulttimeout`` set, called without a timeout,
        which their own file left to this pass (``Verdict.deferred``): reported unless importing
        their module imports one that sets a default for the process (``_sets_default``)."""
        for function in self._in_reported_files:
            if self._socket_default_before(function):
                continue
            tests = self.in_test_code(function.place.path)
            reported: Set[Place] = set()  # one finding per call, as its file reports one
            near = function.place.path
            for call in function.calls:
                if call.place in reported or (tests and (call.loopback or self._served_by_conftest(call, near))):
                    continue  # in test code, a host of this machine: the server the test run starts
                if call.arguments is None or call.arguments.supplied:
                    continue  # (before its client is looked for: every call of the project is asked)
                client = call.target if self.spec(call.target) is not None else self.forwarded_client(call, function)
                spec = self.spec(client)
                if (client is None or spec is None or not spec.socket_global
                        or client in TIMED_REQUESTS or answered(call.mocked, spec.library, client)):
                    continue
                judgement = _judge_arguments(call.arguments, spec, client, self.settings.max_timeout)
                if judgement is not None and judgement.code == "RES101":
                    reported.add(call.place)
                    yield ProjectVerdict(judgement.code, call.place, judgement.message)

    def doubled_clients(self) -> Iterator[ProjectVerdict]:
        """The client calls under a class of another module named as a test double
        (``@HttpMocker()``), which their own file left to this pass: reported as their file
        would, unless that class keeps a double on that answers them (``PROJECT_DOUBLE`` entries
        left in ``Call.mocked`` are those of no such class)."""
        for function in self._in_reported_files:
            for call in function.calls:
                spec = self.spec(call.target) if any(entry.startswith(PROJECT_DOUBLE) for entry in call.mocked) else None
                if spec is None or call.arguments is None or answered(call.mocked, spec.library, call.target):
                    continue
                judgement = _judge_arguments(call.arguments, spec, call.target, self.settings.max_timeout)
                if judgement is not None:
                    yield ProjectVerdict(judgement.code, _verdict_place(judgement, _given(call.arguments, spec), call), judgement.message)

    def own_route_clients(self) -> Iterator[ProjectVerdict]:
        """The test code's requests to a URL a function of another module makes, or that a
        fixture of a ``conftest.py`` gives, which their own file left to this pass
        (``Call.url_from``): reported as their file would, unless that function returns a route
        of the application's own (``url_for(...)``) or a URL of this machine, or the fixture
        serves this machine (``ModuleSummary.servers``): the server the test run starts."""
        for function in self._in_reported_files:
            if not any(call.url_from for call in function.calls) or not self.in_test_code(function.place.path):
                continue
            near = function.place.path
            for call in function.calls:
                spec = self.spec(call.target) if call.url_from else None
                if spec is None or call.arguments is None or answered(call.mocked, spec.library, call.target):
                    continue
                if self._served_by_conftest(call, near):
                    continue
                made_by = call.url_from.partition(FIXTURE_HELPER)[2] if call.url_from.startswith(FIXTURE_URL) else call.url_from
                maker = self.graph.resolve(made_by, near) if made_by else None
                if maker is not None and maker.returns and all(_own_route(ref) for ref in maker.returns):
                    continue
                judgement = _judge_arguments(call.arguments, spec, call.target, self.settings.max_timeout)
                if judgement is not None and judgement.code == "RES101":
                    yield ProjectVerdict(judgement.code, call.place, judgement.message)

    def _served_by_conftest(self, call: Call, near: str) -> bool:
        """The call's URL or host comes from a fixture of a ``conftest.py`` above it that serves
        this machine (``baseURL`` returning ``"http://localhost:5000"``)."""
        fixture = call.url_from[len(FIXTURE_URL):].partition(FIXTURE_HELPER)[0]
        return call.url_from.startswith(FIXTURE_URL) and self.graph.conftest_serves(fixture, near)

    def forwarded_client(self, call: Call, function: FunctionSummary) -> Optional[str]:
        """The library client a project class that only passes its arguments on makes
        (``class Email(Progress, smtplib.SMTP)``), as its own file judged it (``client_subclasses``),
        when the call gives it a host to connect to (``SMTP()`` connects later, with ``connect``)."""
        args = call.arguments
        if args is None or not (args.positional or args.star or "host" in args.keywords):
            return None
        if self._connecting is None:
            # most projects have no such class: then no call needs its value read
            self._connecting = self.graph.values.library_heirs(CONNECTING_CLASSES)
        if not self._connecting:
            return None
        held = [h for h in self.graph.values.of(call.target, function.place.path) if h.kind == "class"]
        if len(held) != 1 or held[0].name not in self._connecting:
            return None
        cls = held[0].name
        base = self.graph.values.library_base(cls)
        module = self.graph.class_module(cls)
        if base not in CONNECTING_CLASSES or module is None:
            return None
        if any(_replaces(module.functions.get(f"{cls}.{method}"), method) for method in CONNECTS):
            return None  # it connects its own way, judged where it does
        init = module.functions.get(f"{cls}.__init__")
        made = [step for step in init.calls if step.target.endswith(".__init__")] if init is not None else []
        forwards = init is None or (
            len(init.calls) == 1 and len(made) == 1 and made[0].arguments is not None
            and made[0].arguments.star and made[0].arguments.forwards_kwargs
        )
        # or it makes the base once with arguments of its own, none a timeout, in a class that
        # sets none (``client_subclasses._never_timed``)
        never_timed = init is not None and len(made) == 1 and made[0].arguments is not None and not (
            made[0].arguments.star or made[0].arguments.double_star or "timeout" in made[0].arguments.keywords
            or "timeout" in init.parameters or any(name.startswith(f"{cls}.") and name.endswith(".timeout") for name in module.values)
        )
        return base if forwards or never_timed else None

    def _socket_default_before(self, function: FunctionSummary) -> bool:
        """Whether importing the module of ``function`` sets a socket default for the process."""
        if self._setters is None:
            self._setters = {summary.module for summary in self.graph.summaries if summary.sets_socket_default}
        return bool(self._setters) and self._sets_default(self.graph.module_of(function), self._setters)

    def _sets_default(self, module: ModuleSummary, setters: Set[str]) -> bool:
        """Whether importing ``module`` runs a module of ``setters``: through the packages above
        it (their ``__init__``) and the modules their top-level imports load, transitively."""
        if module.module in self._defaults:
            return self._defaults[module.module]
        seen: Set[str] = set()
        waiting = _with_packages(module.module)
        found = False
        while waiting and not found:
            name = waiting.pop()
            if name in seen:
                continue
            seen.add(name)
            found = name in setters
            for summary in self.graph.modules_named(name):
                for imported in summary.imported_modules:
                    waiting.extend(_with_packages(imported))
        self._defaults[module.module] = found
        return found

    def signing_clients(self) -> Iterator[ProjectVerdict]:
        """The verdicts on boto3 clients that other modules may reach, which their own file left
        to this pass (``Verdict.deferred``): reported unless every call the project makes
        through the client signs a URL, and one does."""
        for module, call, key, facts, spec in self._constructions(CONSTRUCTIONS):
            if not facts.presign or answered(call.mocked, spec.library, call.target):
                continue
            assert call.arguments is not None
            judgement = _judge_arguments(call.arguments, spec, call.target, self.settings.max_timeout)
            if judgement is None:
                continue
            paths = [path for _, _, path in self.graph.uses_of(module, key)]
            if (facts.presign == "signs" or paths) and all(path is not None and signs(path) for path in paths):
                continue  # it only signs URLs: nothing goes over the network
            given = _given(call.arguments, spec)
            place = _verdict_place(judgement, given, call)
            yield ProjectVerdict(judgement.code, place, judgement.message)

    def _constructions(self, targets: Collection[str]) -> Iterator[Tuple[ModuleSummary, Call, str, ObjectFacts, TimeoutSpec]]:
        """The project's calls to ``targets`` whose module recorded facts about the object each
        made, with the key of those facts and the client's spec."""
        for function in self._in_reported_files:
            module = self.graph.module_of(function)
            if not module.objects:
                continue
            for call in function.calls:
                if call.target not in targets or call.arguments is None:
                    continue
                key = call.place.key
                facts = module.objects.get(key)
                spec = self.spec(call.target)
                if facts is not None and spec is not None:
                    yield module, call, key, facts, spec

    def timed_clients(self) -> Iterator[ProjectVerdict]:
        """The verdicts on clients made without a default timeout that other modules may reach,
        which their own file left to this pass (``Verdict.deferred``): reported unless every
        call the project makes through the client is a request that gives a bounded timeout
        (or sends nothing), and one request does."""
        for module, call, key, facts, spec in self._constructions(TIMED_REQUESTS):
            if not facts.requests or spec.library in RUNTIME_TIMEOUT_LIBRARIES or answered(call.mocked, spec.library, call.target):
                continue
            assert call.arguments is not None
            judgement = _judge_arguments(call.arguments, spec, call.target, self.settings.max_timeout)
            if judgement is None or judgement.at_value:
                continue
            uses = [(use, path) for _, use, path in self.graph.uses_of(module, key)]
            sends = facts.requests == "timed" or any(path is not None and path[0] not in SENDS_NOTHING for _, path in uses)
            if (sends and all(_sends_timed(call.target, use, path) for use, path in uses)
                    and all(self.called(factory) or factory.property_getter for factory in self.graph.returned_by(module, key))):
                continue  # each request gives its own bounded timeout: the default is never used
            yield ProjectVerdict(judgement.code, call.place, judgement.message)

    def called(self, function: FunctionSummary) -> bool:
        """Whether the project calls ``function``: what it returns to no caller of the project
        goes to callers nobody can read. (A property getter is read, not called: the requests
        the project sends through what it returns are those ``uses_of`` and its file show.)"""
        last = function.name.rsplit(".", 1)[-1]
        return any(self.graph.callee(call, caller.place.path) is function for caller, call in self.graph.calls_naming(last))

    def object_client(self, target: str, near: str, filled: bool = False) -> Optional[str]:
        """The library client method a call on a project object runs (``graph.object_methods``),
        asked only of calls whose name ends as a client method's; one of an object that fills
        in a timeout itself only with ``filled``."""
        return next(iter(self.object_clients(target, near, filled)), None)

    def object_clients(self, target: str, near: str, filled: bool = False) -> List[str]:
        """Every such client method, the first first."""
        method = split_last(target)[1]
        if method not in self._client_methods and method != CALLED:
            return []
        return list(dict.fromkeys(
            name for name, sets_timeout in self.graph.object_methods(target, near)
            if (filled or not sets_timeout) and self.spec(name) is not None
        ))

    def forwarding_callee(self, call: Call, near: str) -> Optional[FunctionSummary]:
        """The project function a call runs, when that function passes its callers' timeout
        (or their lack of one) on to a client: by name, else by the values of its receiver
        when its name ends as such a function's."""
        graph = self.graph
        callee = graph.resolve(call.target, near) or graph.mixed_in_method(call, near)
        if callee is None and self.forwarding_name(split_last(call.target)[1]):
            callee = graph.callee(call, near)
        return callee

    def forwarding_name(self, name: str) -> bool:
        """Whether a function that forwards a timeout is called ``name`` (as calls spell it: a
        constructor by its class), or a module global so named is bound to one (``fetch_sync =
        async_to_sync(fetch)``). Only the functions of that name are asked: an editor's pass
        over one file asks a few names, not the whole project."""
        known = self._forwarding.get(name)
        if known is None:
            if self._as_called is None:
                self._as_called, self._bound = _functions_as_called(self.graph)
            bound = self._bound.get(name, ())
            known = self._forwarding[name] = any(
                self.forwards(function) for function in (*self._as_called.get(name, ()), *bound)
            )
        return known

    def may_forward_names(self) -> Set[str]:
        """The names, as calls spell them, of the functions that may pass a timeout on (one of
        their calls forwards ``**kwargs`` or passes a parameter by keyword): only calls so
        named are asked of the value flow for a callee that forwards."""
        if self._may_forward is None:
            self._may_forward = _names_as_called(
                function for function in self.graph.functions
                if any(call.arguments is not None and _passes_callers_arguments(call.arguments) for call in function.calls)
            )
        return self._may_forward

    def partial_clients(self) -> bool:
        """Whether some module binds a ``functools.partial`` of a client call at all."""
        if self._partial_clients is None:
            self._partial_clients = any(
                ref[0] == "partial" and self.spec(ref[1]) is not None
                for summary in self.graph.summaries for ref in summary_refs(summary)
            )
        return self._partial_clients

    def unpacked_mapping(self, call: Call, near: str) -> List[ProjectVerdict]:
        """A client call whose only ``**`` argument is what a function of another module
        returns (``requests.get(url, **make_hook_kwargs())``), which its file took for unknown:
        judged as passing no timeout when every dict that function returns is written out
        and none of their keys sets one."""
        spec = self.spec(call.target)
        args = call.arguments
        if not call.unpacks or spec is None or args is None or args.star or answered(call.mocked, spec.library, call.target):
            return []
        if set(spec.keywords) & set(args.keywords) or (spec.position is not None and args.positional > spec.position):
            return []
        called = call.unpacks.endswith("()")
        name = call.unpacks[:-2] if called else call.unpacks
        function = self.graph.resolve(name, near) or (None if called else self._property_read(name, near))
        if function is None or function.returned_keys is None or set(function.returned_keys) & set(spec.settings):
            return []
        how = f"is called with `**{_short(function.name)}{'()' if called else ''}`, whose dict gives no timeout"
        judgement = judge_missing(call.target, spec, self.settings.max_timeout, how=how)
        if judgement is None:
            return []
        related = ((function.place, f"`{_short(function.name)}` returns the keyword arguments"),)
        return [ProjectVerdict(judgement.code, call.place, judgement.message, related)]

    def _defined_by(self, name: str) -> str:
        """An attribute of a project class named by the class whose body or methods set it
        (``Bit2me.session`` → ``ExchangeWithoutApiSecret.session``), for messages."""
        cls, attribute = split_last(name)
        if not cls or self.graph.class_module(cls) is None:
            return name
        for owner in self.graph.values.lineage(cls):
            module = self.graph.class_module(owner)
            key = f"{owner}.{attribute}"
            if module is not None and (key in module.values or key in module.functions):
                return key
        return name

    def _property_read(self, name: str, near: str) -> Optional[FunctionSummary]:
        """The project function an attribute read runs when every object the attribute is read
        from is an instance of one project class that defines it (``config.REDIS_KWARGS`` of a
        ``SecureDropConfig`` that ``get_current()`` returns: its property)."""
        base, attribute = split_last(name)
        found = {
            id(function): function for held in self.graph.instances(base, near)
            for function in (self.graph.resolve(f"{held.name}.{attribute}", near),) if function is not None
        } if base else {}
        return next(iter(found.values())) if len(found) == 1 else None

    def judge_call(self, call: Call, near: str, caller: Optional[FunctionSummary] = None) -> List[ProjectVerdict]:
        clients = self.object_clients(call.target, near)
        # An object that fills in a timeout (``kwargs.setdefault("timeout", ...)``) sends the
        # one a call gives instead: that one is judged, a call that gives none is not.
        filled = not clients and bool(clients := self.object_clients(call.target, near, filled=True))
        if clients:
            # each client the name may be (``psycopg`` or ``psycopg2``, imported under an ``if``)
            found: Dict[str, ProjectVerdict] = {}
            for client in clients:
                for verdict in self._judge_client_call(call, near, caller, client, filled):
                    found.setdefault(verdict.code, verdict)
            return list(found.values())
        return self._judge_wrapper_call(call, near, caller)

    def _judge_client_call(
        self, call: Call, near: str, caller: Optional[FunctionSummary], client: str, filled: bool,
    ) -> List[ProjectVerdict]:
        args = call.arguments
        assert args is not None
        spec = self.spec(client)
        if spec is not None:
            if answered(call.mocked, spec.library, client) or (filled and _given(args, spec) is None):
                return []  # a test double answers it: no network; or the object's own timeout
            if (_no_server_named(args, spec) or call.loopback or self._served_by_conftest(call, near)) and self.in_test_code(near):
                # ``Channel()._get_client()()``, ``u.client.get("http://127.0.0.1:%i/" % port)``:
                # this machine's server, the test run's
                return []
            if client in CONSTRUCTIONS and names_no_service(_first_string(call)):
                return []  # another library's session, whose ``client`` builds its own kind
            base = split_last(call.target)[0]
            judgement = _judge_arguments(args, spec, client, self.settings.max_timeout)
            if judgement is None:
                return self.imported_constant(call, near, client)
            if spec.socket_global and judgement.code == "RES101" and caller is not None and self._socket_default_before(caller):
                return []
            importer = self._importer(call.target, near)
            if importer is not None and (client in CONSTRUCTIONS or client in TIMED_REQUESTS):
                return []  # judged by what is done with the object, which its file did not record
            factory = self.graph.resolve(base, near)
            related = ((factory.place, f"`{_short(base)}` returns the client"),) if factory is not None else ()
            given = _given(args, spec)
            place = _verdict_place(judgement, given, call)
            mixing = self.graph.values.subclasses(base) if (
                self.graph.class_module(base) is not None and self.graph.values.library_base(base) is None
            ) else []
            origin = importer or (
                f"`self` is a `{_short(mixing[0])}`, which mixes in `{_short(base)}`" if len(mixing) == 1
                else _origin(self._defined_by(base))
            )
            return [ProjectVerdict(judgement.code, place, f"{judgement.message} ({origin})", related)]
        return []

    def _judge_wrapper_call(self, call: Call, near: str, caller: Optional[FunctionSummary]) -> List[ProjectVerdict]:
        partial = self.through_partial(call, near) if self.partial_clients() else None
        if partial is not None:
            return partial
        callee = self.forwarding_callee(call, near)
        if callee is None or ((call.loopback or self._served_by_conftest(call, near)) and self.in_test_code(near)):
            return []  # in test code, a wrapper sending to a host of this machine: the test run's server
        found: Dict[Tuple[str, Place], ProjectVerdict] = {}
        forwards = [bound for forward in self.forwards(callee) or () for bound in self.bound_to(forward, call, callee, caller)]
        for forward in sorted(forwards, key=lambda f: (not _taken_by_presence(call, f), f.client)):
            if caller is not None and not self.may_reach(caller, call, callee, forward):
                continue  # the caller's arguments rule out the branch that sends it
            verdict = self.judge_forwarded(call, callee, forward, caller)
            # a wrapper that may pass the timeout to several client methods (``request`` or
            # ``stream``): one finding per call
            if verdict is not None and (verdict.code, verdict.place) not in found:
                found[(verdict.code, verdict.place)] = verdict
        return list(found.values())

    def _importer(self, target: str, near: str) -> Optional[str]:
        """For a library name a project module imports and the call reaches through it
        (``compat.urlopen``), where it comes from, in words."""
        located = self.graph.locate(target, near) if self.graph.library_names(target, near) else None
        if located is None:
            return None
        module, rest = located
        first = rest.split(".", 1)[0]
        if first not in module.imports and not module.other_imports.get(first):
            source = self.graph.star_source(module, first)  # ``from tests.testhelper import *``
            if source is not None:
                return f"imported through `{split_last(source)[0]}`"
        return f"imported through `{module.module}`"

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
            if set(spec.keywords) & set(held.keywords) or "**" in held.keywords or answered(call.mocked, spec.library, held.name):
                return []
            assert call.arguments is not None
            judgement = _judge_arguments(call.arguments, spec, held.name, self.settings.max_timeout)
            if judgement is None:
                return []
            given = _given(call.arguments, spec)
            place = _verdict_place(judgement, given, call)
            return [ProjectVerdict(judgement.code, place, f"{judgement.message} (through `functools.partial`: `{_short(call.target)}`)")]
        return None

    def may_reach(self, caller: FunctionSummary, call: Call, callee: FunctionSummary, forward: Forward) -> bool:
        """Whether the calls on the way to the client run, given what ``caller`` passes
        (``request_api(url, timeout=5)`` leaves ``method`` "GET": ``requests.post if method ==
        "POST" else requests.get`` sends a GET)."""
        conditions = self.graph.conditions
        context = conditions.enter(caller, call, callee, {})
        for index, (owner, step) in enumerate(forward.path):
            # (a wrapper on the way may pass a constant of its own: ``method="POST"``)
            if context and not conditions.runs(step, owner, context):
                return False
            if index + 1 < len(forward.path):
                context = conditions.enter(owner, step, forward.path[index + 1][0], context)
        return True

    def judge_forwarded(
        self, call: Call, callee: FunctionSummary, forward: Forward, caller: Optional[FunctionSummary] = None,
    ) -> Optional[ProjectVerdict]:
        args = call.arguments
        assert args is not None
        if not self._made_with(call, callee, forward) or not self._may_send_kept(call, callee, caller, forward):
            return None
        wrappers = [callee.name, *(owner.name for owner, _ in forward.path)]
        if any(answered(call.mocked, forward.spec.library, name) for name in [forward.client, *wrappers]) or (
            self.replaced_client(call.mocked, forward) or self._replaced_wrapper_class(call.mocked, wrappers, call.place.path)
        ):
            return None  # a test double answers what the wrapper sends, or the wrapper itself
        related = tuple(
            (step.place, f"`{_short(owner.name)}` passes {'`**kwargs`' if forward.parameter is None else f'`{forward.parameter}`'} "
                         f"on to `{_short(step.target)}`")
            for owner, step in forward.path
        )
        wrapper = _short(callee.name[: -len(".__init__")] if callee.name.endswith(".__init__") else callee.name)
        if forward.filled and forward.keyword not in args.keywords:
            return None  # the wrapper's own timeout, judged where it is written
        if forward.keyword in args.keywords:
            given = args.value(forward.keyword)
            if given is None:
                return None
            checks: Optional[FrozenSet[str]] = None
            value = value_from_data(given.value) if given.value is not None else None
            if value is None:  # another module's constant, which the caller's file could not read
                value = self.passed_constant(call, forward.keyword, given.position, call.place.path)
                checks = _CONSTANT_CHECKS
            if value is None:
                return None
            judgement = judge_given(value, given.text, forward.client, forward.spec, self.settings.max_timeout, checks=checks)
            if judgement is None:
                return None
            return ProjectVerdict(
                judgement.code, given.place if judgement.at_value else call.place,
                f"{judgement.message} (passed through `{wrapper}`)", related,
            )
        if args.double_star or args.star:
            return None  # what the caller's own arguments carry is unknown
        if forward.spare_args is not None and self._extra_args(call, callee, call.place.path) > forward.spare_args:
            return None  # positional arguments beyond the wrapper's own may reach the client
        if forward.parameter is None and _configured_otherwise(args, forward.spec):
            return None  # a connection string the caller passes on may carry the timeout
        if forward.parameter is None and self.in_test_code(call.place.path) and _no_server_named(args, forward.spec) and (
            not forward.path or _no_server_named(forward.path[-1][1].arguments, forward.spec, forwarded=True)
        ):
            return None  # ``RedisBroker()`` building ``redis.Redis(**parameters)``: the test run's server
        if forward.parameter is None:
            judgement = judge_missing(
                forward.client, forward.spec, self.settings.max_timeout,
                how=f"is called through `{wrapper}` without a timeout",
            )
            return ProjectVerdict(judgement.code, call.place, judgement.message, related) if judgement else None
        slot = forward.position - (self.graph.values.offset(call, callee, call.place.path) or 0) if forward.position is not None else None
        if slot is not None and args.positional > slot:
            # passed by position: judged when it is a ``None`` or a timeout object written there
            written = args.value(f"{POSITIONAL}{slot}")
            if written is not None and written.value is not None:
                judgement = judge_given(value_from_data(written.value), written.text, forward.client, forward.spec, self.settings.max_timeout)
                place = written.place if judgement is not None and judgement.at_value else call.place
            elif ("none",) in (ref for at, ref in call.passed if at == slot):
                judgement = judge_given(_NO_TIMEOUT, "None", forward.client, forward.spec, self.settings.max_timeout)
                place = call.place
            else:
                return None
            if judgement is None:
                return None
            return ProjectVerdict(judgement.code, place, f"{judgement.message} (passed through `{wrapper}`)", related)
        if forward.default is None or forward.spec.checks == GENERIC_WAIT:
            # (a wrapper of a generic wait, ``def wait(timeout=None): ... move_on_after(timeout)``,
            # waits until the work is done unless its caller asks for a deadline: its own choice)
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

    def _extra_args(self, call: Call, callee: FunctionSummary, near: str) -> int:
        """How many more positional arguments ``call`` passes ``callee`` than it names (``self``
        bound by a call through an object counted): they fill its ``*args``; negative when
        fewer."""
        assert call.arguments is not None
        return call.arguments.positional + (self.graph.values.offset(call, callee, near) or 0) - len(callee.parameters)

    def replaced_client(self, mocked: Iterable[str], forward: Forward) -> bool:
        """Whether a patch replaces the project's client object that the wrapper sends through,
        or its method (``patch("shop.vendors.async_session.get")`` for a module's
        ``async_session = httpx.AsyncClient()``), or the client library as the module that
        sends imports it (``patch("render.draw.httpx")``)."""
        cls, method = split_last(forward.client)
        for entry in mocked:
            owner, _, name = entry.rpartition(".")
            if self._replaced_import(entry, forward):
                return True
            if name == method and self._replaced_class_method(owner, forward):
                return True
            objects = [entry] + ([owner] if owner and name == method else [])
            for function, step in forward.path:
                if not step.receiver:
                    continue
                module = self.graph.module_of(function)
                for held in (held for path in objects for held in self.graph.values.of(path, function.place.path)):
                    # the object the call is sent on: by its facts' key, else (an object with no
                    # facts recorded) a client of the same class held in the wrapper's module
                    same = held.key == step.receiver if held.key else held.kind == "instance" and held.name == cls
                    if same and held.module is module:
                        return True
                    if held.kind == "function" and held.function is not None and _makes(held.function, step.receiver, module, self.graph):
                        return True  # the factory that makes it (``monkeypatch.setattr(mod, "create_session", ...)``)
        return False

    def _replaced_class_method(self, cls: str, forward: Forward) -> bool:
        """``cls`` is a project class (a ``requests.Session`` subclass) whose method of the
        client's name the patch replaces (``patch.object(ConfiguredSession, "request")``), and
        the wrapper sends on an instance of it or of a subclass."""
        graph = self.graph
        if not cls or graph.class_module(cls) is None:
            return False
        for function, step in forward.path:
            base = split_last(step.target)[0]
            for held in graph.values.of(base, function.place.path) if base else ():
                if held.kind == "instance" and cls in (graph.ancestry(held.name) or {held.name}):
                    return True
        return False

    def _replaced_wrapper_class(self, mocked: Iterable[str], wrappers: List[str], near: str) -> bool:
        """A patch replaces a project class (``patch("app.sync.GrafanaAPIClient")``, by the name
        a module imports it under) whose methods, or a subclass's, are among the wrappers the
        request goes through: the double answers them all."""
        graph = self.graph
        for entry in mocked:
            for held in graph.values.of(entry, near) if graph.is_project_name(entry) else ():
                if held.kind != "class":
                    continue
                for wrapper in wrappers:
                    owner = split_last(wrapper)[0]
                    if held.name == owner or held.name in (graph.ancestry(owner) or ()):
                        return True
        return False

    def _replaced_import(self, entry: str, forward: Forward) -> bool:
        """``entry`` is the client's library (or a module or class of it, or the client's method)
        as imported by the module whose function calls the client (``patch("render.draw.httpx")``,
        ``patch("host.logs.ClientSession.get")``): the patch replaces what that call reaches."""
        if not forward.path:
            return False
        sender = self.graph.module_of(forward.path[-1][0])
        for module_name in (sender.module, *sender.aliases):
            if entry.startswith(module_name + "."):
                first, _, rest = entry[len(module_name) + 1:].partition(".")
                imported = sender.imports.get(first)
                replaced = f"{imported}.{rest}" if imported is not None and rest else imported
                return replaced is not None and (forward.client == replaced or forward.client.startswith(replaced + "."))
        return False

    def bound_to(
        self, forward: Forward, call: Call, callee: FunctionSummary, caller: Optional[FunctionSummary],
    ) -> List[Forward]:
        """``forward`` as ``call`` (made by ``caller``) into ``callee`` binds it: a client held by
        ``callee``'s parameter becomes the client the call passes there (``requests.get``), or
        stays held, by the caller's own parameter it passes on; a client that is not one whose
        timeout the wrapper's call leaves out is dropped."""
        if not forward.held:
            return [forward]
        offset = self.graph.values.offset(call, callee, call.place.path) or 0
        found: List[Forward] = []
        for ref in passed_at(call, callee, forward.held, offset):
            own = own_parameter(caller.name, ref) if caller is not None else None
            if own is not None:
                found.append(replace(forward, held=own))
                continue
            name = ref[1] if ref[0] == "ref" else None
            spec = self.spec(name)
            last = forward.path[-1][1].arguments
            if name is None or spec is None or spec.keyword is None or last is None or not _leaves_timeout_out(last, spec):
                continue
            found.append(replace(forward, client=name, spec=spec, held="", spare_args=_spare_args(last, spec)))
        return found

    def _handed_on(
        self, function: FunctionSummary, call: Call, step: Tuple[Tuple[FunctionSummary, Call], ...], near: str,
    ) -> Iterator[Forward]:
        """``query(path, timeout=10)`` calling ``raw(path, timeout=timeout)``, which passes its
        ``timeout`` on to a client: ``function``'s own parameter reaches the client too."""
        callee = self.graph.callee(call, near)
        args = call.arguments
        if callee is None or callee is function or args is None:
            return
        offset: Optional[int] = None
        for inner in self.forwards(callee) or ():
            if inner.parameter is None or inner.held:
                continue
            if inner.parameter not in args.keywords:
                # ``Consumer(events_url, request_timeout)``: handed on by position
                if inner.position is None:
                    continue
                if offset is None:
                    offset = self.graph.values.offset(call, callee, near) or 0
                own = next((
                    own_parameter(function.name, ref) for at, ref in call.passed
                    if at == inner.position - offset and own_parameter(function.name, ref) is not None
                ), None)
                if own is not None:
                    # (``Context(quiet, request_timeout)`` in ``Loader.__init__(..., request_timeout=300.0)``:
                    # the outer default is what its callers that pass none get)
                    default, text = _default_timeout(function.defaults.get(own))
                    if default is None:
                        default = self._constant_default(function, own)
                        text = str(function.defaults[own][1]).rsplit(".", 1)[-1] if default is not None else None
                    position = function.parameters.index(own) if own in function.parameters else None
                    yield Forward(inner.client, inner.spec, own, position, default, text, step + inner.path)
                continue
            given = args.value(inner.parameter)
            if given is None or given.own_parameter is None:
                continue
            yield Forward(
                inner.client, inner.spec, given.parameter, given.position,
                value_from_data(given.default) if given.default is not None else None, given.default_text,
                step + inner.path,
            )

    def _kept_for_clients(self, init: FunctionSummary) -> Iterator[Forward]:
        """``self.timeout = timeout`` in ``__init__``, then ``timeout=self.timeout`` in a client
        call of another method of the class (or of a subclass that keeps this ``__init__``, in
        any module): the constructor's callers decide that timeout."""
        cls = split_last(init.name)[0]
        yield from self._kept_for_subclasses(init, cls)
        for method in self.graph.module_of(init).functions.values():
            if split_last(method.name)[0] != cls or method is init:
                continue
            for call in method.calls:
                args = call.arguments
                if args is None or not any(value.kept_by_init for value in args.values):
                    continue
                client = self._called_client(call, method.place.path)
                spec = self.spec(client) if client is not None else None
                given = _given(args, spec) if spec is not None and spec.keyword is not None else None
                if client is not None and spec is not None and given is not None and given.kept_by_init:
                    default = value_from_data(given.default) if given.default is not None else None
                    if default is None and given.parameter is not None:
                        default = self._constant_default(init, given.parameter)
                    yield Forward(client, spec, given.parameter, given.position, default, given.default_text, ((method, call),))

    def _called_client(self, call: Call, near: str) -> Optional[str]:
        """The client a call runs: its target, the client its target's object is
        (``object_client``), or the client method a ``functools.partial`` binds
        (``session.request = partial(session.request, timeout=self.timeout)``: every request
        through it sends that timeout)."""
        if call.target == _PARTIAL:
            bound = next((ref for at, ref in call.passed if at == 0), None)
            return bound[1] if bound is not None and bound[0] == "ref" and self.spec(bound[1]) is not None else None
        return call.target if self.spec(call.target) is not None else self.object_client(call.target, near)

    def _constant_default(self, function: FunctionSummary, parameter: str) -> Optional[TimeoutValue]:
        """A parameter's default that is a module constant, also one another module defines
        (``timeout=DEFAULT_TIMEOUT`` imported from a ``config`` module)."""
        default = function.defaults.get(parameter)
        return self.constant(default[1], function.place.path) if default is not None and default[0] == "ref" else None

    def _made_with(self, call: Call, callee: FunctionSummary, forward: Forward) -> bool:
        """Whether an ``__init__``'s forward through a method of one of its subclasses applies to
        the object ``call`` makes: one of that subclass (or below), not of the base."""
        if not callee.name.endswith(".__init__") or not forward.path:
            return True
        method_class = split_last(forward.path[0][0].name)[0]
        if method_class == split_last(callee.name)[0]:
            return True
        return method_class in self.graph.values.lineage(call.target)

    def _may_send_kept(
        self, call: Call, init: FunctionSummary, caller: Optional[FunctionSummary], forward: Forward,
    ) -> bool:
        """For an object its maker keeps to itself (``Call.kept``) and whose ``__init__`` only
        stores the timeout for another method to send with: whether the ``__init__`` itself, or
        an attribute the maker reads or calls on the object, may run that method
        (``SpotifyOAuth(...)`` used only for ``get_authorize_url()`` never posts)."""
        sender = next((owner for owner, _ in forward.path if not owner.name.endswith(".__init__")), None)
        if call.kept is None or caller is None or sender is None:
            return True
        values = self.graph.values
        made = {held.name for held in values.of(call.target, caller.place.path) if held.kind == "class"}
        if len(made) != 1:
            return True
        cls = made.pop()
        lineage = values.lineage(cls)
        todo: List[FunctionSummary] = [init]
        for attribute in call.kept:
            method = next((found for base in lineage if (found := self.graph.class_method(base, attribute))), None)
            if method is not None and method.decorators:
                return True  # a decorator of the project's may run anything around it (``@CheckAuth``)
            if method is not None:
                todo.append(method)
            elif not lineage or values.library_base(cls) is not None or any(
                len(values.bases(base, module)) < len(module.classes.get(base, ()))
                for base in lineage if (module := self.graph.class_module(base)) is not None
            ):
                return True  # a method a library base (or a base the project cannot read) gives
        seen: Set[str] = set()
        while todo:
            method = todo.pop()
            if method is sender:
                return True
            if method.name in seen or len(seen) > _MAX_METHODS_FOLLOWED:
                continue
            seen.add(method.name)
            near = method.place.path
            todo.extend(inner for step in method.calls if (inner := self.graph.callee(step, near)) is not None)
        return False

    def _kept_for_subclasses(self, init: FunctionSummary, cls: str) -> Iterator[Forward]:
        """``timeout=self.timeout`` in a method of a subclass that keeps ``init``, where ``init``
        stores its parameter there (``class LlamaCppClient(GenAIClient)``, whose base's
        ``__init__(self, cfg, timeout=120)`` sets ``self.timeout = timeout``)."""
        stored = self.graph.module_of(init).values
        for sub in self.graph.values.subclasses(cls):
            module = self.graph.class_module(sub)
            if module is None or f"{sub}.__init__" in module.functions:
                continue  # an ``__init__`` of its own decides what it keeps
            for method in module.functions.values():
                if split_last(method.name)[0] != sub:
                    continue
                for call in method.calls:
                    spec = self.spec(call.target) if call.arguments is not None else None
                    given = _given(call.arguments, spec) if spec is not None and spec.keyword is not None else None  # type: ignore[arg-type]
                    if given is None or given.value is not None or not given.text.startswith("self."):
                        continue
                    refs = stored.get(f"{cls}.{given.text[len('self.'):]}", [])
                    kept = own_parameter(init.name, refs[0]) if len(refs) == 1 else None
                    if kept is None or kept not in init.parameters:
                        continue
                    default, text = _default_timeout(init.defaults.get(kept))
                    if default is None:
                        default = self._constant_default(init, kept)
                        text = str(init.defaults[kept][1]).rsplit(".", 1)[-1] if default is not None else None
                    yield Forward(call.target, spec, kept, init.parameters.index(kept), default, text, ((method, call),))  # type: ignore[arg-type]

    def forwards(self, function: FunctionSummary) -> Optional[List[Forward]]:
        """What ``function`` passes on from its callers to clients, at any depth."""
        if function.name in self._forwards:
            return self._forwards[function.name]  # None while in progress: a cycle
        self._forwards[function.name] = None
        found: List[Forward] = list(self._kept_for_clients(function)) if function.name.endswith(".__init__") else []
        for call in function.calls:
            args = call.arguments
            if args is None:
                continue
            step = ((function, call),)
            held = own_parameter(function.name, ("ref", call.target))
            by_position = _passes_own_by_position(function, call)
            if held is None and not _passes_callers_arguments(args) and not by_position:
                continue  # no question for the value flow: it cannot forward a timeout
            near = function.place.path
            client = self._called_client(call, near)
            spec = self.spec(client)
            if held is not None and not held.startswith("*"):
                # ``func(*args, **kwargs)``, ``http_method(url)``: whether ``*args`` may carry a
                # timeout is for the client each caller hands in to tell (``bound_to``)
                if (args.forwards_kwargs or not args.double_star) and not function.sets_timeout:
                    found.append(Forward("", _HELD_SPEC, None, None, None, None, step, held))
                continue
            if client is not None and spec is not None and spec.keyword is not None:
                given = _given(args, spec)
                if given is not None and given.own_parameter is not None:
                    found.append(Forward(
                        client, spec, given.parameter, given.position,
                        value_from_data(given.default) if given.default is not None else None, given.default_text, step,
                    ))
                elif args.forwards_kwargs and (_leaves_timeout_out(args, spec) or (given is not None and given.filled_in)):
                    # (a session whose mounted adapter fills in a timeout, ``supplied``, bounds the
                    # callers passing none; one a caller passes is sent)
                    found.append(Forward(
                        client, spec, None, None, None, None, step, spare_args=_spare_args(args, spec),
                        filled=function.sets_timeout or args.supplied,
                    ))
                continue
            if by_position or any(value.own_parameter is not None for value in args.values):
                found.extend(self._handed_on(function, call, step, near))
            if not args.forwards_kwargs:
                continue
            if split_last(call.target)[1] not in self.may_forward_names():
                continue
            callee = self.graph.callee(call, near)
            if callee is None or callee is function:
                continue
            for inner in (b for f in self.forwards(callee) or () for b in self.bound_to(f, call, callee, function)):
                spare = None if inner.spare_args is None else inner.spare_args - self._extra_args(call, callee, near)
                if spare is not None and (spare < 0 or (args.star and not args.forwards_args)):
                    continue  # what lands in the inner function's ``*args`` is not known
                if inner.keyword not in args.keywords:
                    found.append(Forward(
                        inner.client, inner.spec, inner.parameter, None, inner.default, inner.default_text,
                        step + inner.path, inner.held, spare if args.forwards_args else None,
                        filled=inner.filled or function.sets_timeout,
                    ))
        self._forwards[function.name] = found
        return found


def _makes(factory: FunctionSummary, receiver: str, module: Optional[ModuleSummary], graph: "ProjectGraph") -> bool:
    """Whether ``factory`` makes the object a call is sent on (its receiver key, the place of
    the call that made it, ``"11:12"``), in the module of that call's function."""
    return graph.module_of(factory) is module and any(
        call.place.key == receiver for call in factory.calls
    )


def _replaces(method: Optional[FunctionSummary], name: str) -> bool:
    """Whether a project class's own ``name`` method (``send``) never calls the base's."""
    return method is not None and not any(split_last(call.target)[1] == name for call in method.calls)


def _own_route(ref: Ref) -> bool:
    """A returned value that is a framework's URL of the application's own routes
    (``url_for(...)``), or a URL of this machine."""
    if ref[0] == "new":
        return ref[1] in FRAMEWORK_URLS
    return ref[0] == "str" and LOOPBACK_URL.match(str(ref[1])) is not None


def _sends_timed(cls: str, call: Call, path: Optional[Tuple[str, ...]]) -> bool:
    """Whether a call through a client of ``cls`` sends nothing, or sends a request that gives
    a timeout of its own, which replaces the client's default whatever it is (as in the file
    pass: an unbounded one is RES102 where it is given); or is made on what such a request
    returned (``pool.request(...).data.decode()``: the request is a use of its own)."""
    if path is not None and len(path) == 1 and path[0] in SENDS_NOTHING:
        return True
    if path is not None and len(path) > 1 and method_spec(cls, path[:1]) is not None:
        return True
    spec = method_spec(cls, path)
    args = call.arguments
    if spec is None or args is None:
        return False
    return _given(args, spec) is not None


def _leaves_timeout_out(args: Arguments, spec: TimeoutSpec) -> bool:
    """Whether a wrapper's call of a client gives it no timeout of its own: none by keyword,
    none by position, and no ``*args`` where the client takes one by position."""
    by_position = spec.position is not None and (
        (args.star and not args.forwards_args) or args.positional > spec.position
    )
    return _given(args, spec) is None and not by_position


def _spare_args(args: Arguments, spec: TimeoutSpec) -> Optional[int]:
    """How many positional arguments a wrapper's ``*args`` may hand the client (after the
    ones its call writes out) before one lands where the client takes its timeout; None when
    the call hands on no ``*args`` of its own, or the client takes no timeout by position."""
    if not args.forwards_args or spec.position is None:
        return None
    return max(spec.position - args.positional, 0)


def _passes_callers_arguments(args: Arguments) -> bool:
    """Whether a call passes something of its caller's on (its ``**kwargs``, or a parameter by
    keyword): only such a call can forward a timeout its caller gives."""
    return args.forwards_kwargs or any(a.own_parameter is not None for a in args.values)


def _default_timeout(default: Optional[Ref]) -> Tuple[Optional[TimeoutValue], Optional[str]]:
    """A parameter's constant default, as a timeout value and its text."""
    if default == ("none",):
        return _NO_TIMEOUT, "None"
    if default is not None and default[0] in ("int", "float"):
        return TimeoutValue((Phase("", float(default[1])),), literal=False, scalar=True), str(default[1])
    return None, None


def _passes_own_by_position(function: FunctionSummary, call: Call) -> bool:
    """Whether ``call`` passes a parameter of ``function`` on by position."""
    return any(isinstance(at, int) and own_parameter(function.name, ref) is not None for at, ref in call.passed)


def _passed_names(call: Call, slots: Collection[object]) -> List[str]:
    """The names a call passes in these slots (positions or keywords)."""
    return [ref[1] for slot, ref in call.passed if slot in slots and ref[0] == "ref"]


def _names_as_called(functions: Iterable[FunctionSummary]) -> Set[str]:
    """The last parts of the functions' names, as calls spell them (a constructor by its class)."""
    return {name for function in functions for name in _called_as(function)}


def _called_as(function: FunctionSummary) -> Tuple[str, ...]:
    parts = function.name.rsplit(".", 2)
    return (parts[-1], parts[-2]) if parts[-1] == "__init__" and len(parts) > 2 else (parts[-1],)


def _functions_as_called(graph: "ProjectGraph") -> Tuple[Dict[str, List[FunctionSummary]], Dict[str, List[FunctionSummary]]]:
    """The project's functions by the names calls spell them with, and by the last part of
    each module global bound to one (``fetch_sync = async_to_sync(fetch)``)."""
    as_called: Dict[str, List[FunctionSummary]] = {}
    by_name: Dict[str, List[FunctionSummary]] = {}
    for function in graph.functions:
        by_name.setdefault(function.name, []).append(function)
        for name in _called_as(function):
            as_called.setdefault(name, []).append(function)
        if function.name.endswith(".__init__"):
            # and by the subclasses that keep it (``LlamaCppClient(cfg)`` runs its base's)
            for cls in graph.values.constructed_by(split_last(function.name)[0]):
                as_called.setdefault(split_last(cls)[1], []).append(function)
    bound: Dict[str, List[FunctionSummary]] = {}
    for summary in graph.summaries:
        for key, values in summary.values.items():
            for ref in values:
                if len(ref) == 2 and ref[0] == "ref" and ref[1] in by_name:
                    bound.setdefault(split_last(key)[1], []).extend(by_name[ref[1]])
    return as_called, bound


# ``None`` passed where a client takes its timeout: no timeout at all.
_NO_TIMEOUT = TimeoutValue((Phase("", None, "None (no timeout at all)"),), literal=False, scalar=False)
# A default filled in by a wrapper bounds its callers: only an unbounded or excessive one matters.
_DEFAULT_CHECKS = frozenset({"RES102", "RES105"})


def _first_string(call: Call) -> Optional[str]:
    """The text of the call's first argument, when a string is written there."""
    return next((ref[1] for slot, ref in call.passed if slot == 0 and ref[0] == "str"), None)


def _given(args: Arguments, spec: TimeoutSpec) -> Optional[Argument]:
    """The recorded timeout argument of a call, under any keyword that carries it."""
    return next((args.value(k) for k in spec.keywords if k in args.keywords), None)


def _judge_arguments(args: Arguments, spec: TimeoutSpec, name: str, max_timeout: float) -> Optional[Judgement]:
    """The verdict for a client call known only by its recorded arguments."""
    keyword = next((k for k in spec.keywords if k in args.keywords), None)
    if keyword is not None:
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
    if spec.elsewhere_position is not None and args.positional > spec.elsewhere_position:
        return None
    if set(spec.elsewhere) & set(args.keywords) or _may_pass_dsn(args, spec) or spec.session is not None:
        return None
    if set(spec.ignored_when) & set(args.keywords):
        return None  # its value is not recorded
    given = [k for k in spec.partial if k in args.keywords]
    return judge_missing(name, spec, max_timeout, how=_partial(given[0], spec) if given else None)


def _may_pass_dsn(args: Arguments, spec: TimeoutSpec) -> bool:
    """Whether the call passes a connection string, which may carry the timeout (its own file
    read one written out)."""
    return spec.dsn is not None and (args.positional > spec.dsn[0] or spec.dsn[1] in args.keywords)


def _configured_otherwise(args: Arguments, spec: TimeoutSpec) -> bool:
    """Whether what a caller passes on through a wrapper's ``*args, **kwargs`` may set the
    client's timeout another way: a connection string (``dsn=dsn``, or any positional argument,
    which the wrapper may pass where the DSN goes), or a keyword of ``spec.elsewhere``."""
    if set(spec.elsewhere) & set(args.keywords):
        return True
    return spec.dsn is not None and (bool({spec.dsn[1], *_DSN_NAMES} & set(args.keywords)) or args.positional > 0)


# What wrappers call the connection string they pass on as the client's (``_connect(dsn=None,
# **kwargs)`` calling psycopg 3's ``connect(dsn or "", **kwargs)``, whose own is ``conninfo``)
_DSN_NAMES = frozenset({"dsn", "conninfo", "url", "uri", "connstring", "connection_string"})


def _with_packages(name: str) -> List[str]:
    """``a.b.c`` and the packages importing it imports first: ``a``, ``a.b``."""
    parts = name.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts) + 1)]


def _taken_by_presence(call: Call, forward: Forward) -> bool:
    """The first step to the client runs under a test that a keyword the call passes is set
    (``fetchUrl(url, postData=data)`` into ``if postData: session.post(...)``): of the branches
    the call's values cannot decide, the one its message names."""
    args = call.arguments
    guards = forward.path[0][1].guards if forward.path else ()
    return args is not None and any(test == "true" and subject in args.keywords for subject, test, _ in guards)


def _verdict_place(judgement: Judgement, given: Optional[Argument], call: Call) -> Place:
    """Where a verdict on a call goes: at the value, when the verdict is about the value and
    the call writes it; else at the call (a value set elsewhere, ``params["timeout"] = t``
    before ``session.request(**params)``, may serve several calls, each judged on its own)."""
    if judgement.at_value and given is not None and call.place.line <= given.place.line <= call.place.end_line:
        return given.place
    return call.place


def _no_server_named(args: Optional[Arguments], spec: TimeoutSpec, forwarded: bool = False) -> bool:
    """Arguments that name no server for a client that connects to this machine unless told
    otherwise (``local_by_default``); ``forwarded``: the client's own call, whose ``**`` is its
    caller's arguments, judged at the caller."""
    return bool(spec.server_keywords) and args is not None and not (
        args.positional or args.star or (args.double_star and not (forwarded and args.forwards_kwargs))
        or set(args.keywords) & set(spec.server_keywords)
    )


def _origin(receiver: str) -> str:
    """Where the client of a call comes from, for messages: ``pkg.make`` → "the client comes
    from `make`"; ``pkg.send.(session)`` → "the client is what the callers of `send` pass as
    `session`"."""
    owner, last = split_last(receiver)
    if a_request(owner):
        return f"the client is `request.{last}`, which the project adds to every request (`add_request_method`)"
    if last.startswith("(") and owner:
        return f"the client is what the callers of `{_short(owner)}` pass as `{last[1:-1]}`"
    return f"the client comes from `{_short(receiver)}`"


def _short(name: str) -> str:
    """``app.http.fetch`` → ``fetch``; methods keep their class (``Client.get``)."""
    parts = name.split(".")
    return ".".join(parts[-2:]) if len(parts) > 2 and parts[-2][:1].isupper() else parts[-1]
