"""urllib3: ``Retry(...)`` objects, and the requests adapters and urllib3 pools that retry."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.conditions import REFUSAL_STATUSES, status_codes
from resilint.libraries.retry_scopes.model import (
    ON_SPECIFIC,
    ON_STATUS,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_JITTERED,
    WAIT_NONE,
    Policy,
    Setting,
)
from resilint.libraries.retry_scopes.names import normalise
from resilint.libraries.retry_scopes.transports import client_policy
from resilint.lint.nodes import (
    DEFINITIONS,
    call_argument,
    is_false,
    is_none,
    kwargs_name,
    number_of,
    string_of,
)
from resilint.lint.semantic import CallSite, ClassInfo, FunctionInfo, Param, QName, Scope
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

RETRY = frozenset({"urllib3.Retry", "urllib3.Retry.new", "urllib3.Retry.DEFAULT.new"})
ADAPTERS = frozenset({"requests.adapters.HTTPAdapter"})
POOLS = frozenset({
    "urllib3.PoolManager", "urllib3.ProxyManager", "urllib3.HTTPConnectionPool",
    "urllib3.HTTPSConnectionPool", "urllib3.connection_from_url",
})


def build_policy(
    rec: Recogniser, node: cst.Call, scope: Scope, order: int, defaults: Optional[Dict[str, cst.Arg]] = None,
) -> Policy:
    """``Retry(...)``'s policy; ``defaults``: the keywords a project subclass fills in when the
    call does not give them (``retry_subclass_defaults``)."""
    keywords, star = rec.keywords(node, scope, order)
    keywords = {**(defaults or {}), **keywords}
    policy = Policy("urllib3", "urllib3-retry", node, scope=scope, order=order)
    total = call_argument(node, "total", 0) or keywords.get("total")
    if total is not None:
        value = rec.follow(total.value, scope, order)
        if is_false(value) and isinstance(value, cst.Name):
            policy.max_attempts = 0
        else:
            policy.max_attempts = rec.limit(total, scope, order, star)
            if policy.max_attempts is None:
                policy.max_attempts = UNKNOWN  # other counters (connect=, read=) may bound it
    else:
        policy.max_attempts = UNKNOWN if star else 10  # Retry()'s default total
    policy.time_limit = UNKNOWN
    policy.attempts = Setting(UNKNOWN if policy.max_attempts == UNKNOWN else "bounded")
    factor = keywords.get("backoff_factor")
    jitter = keywords.get("backoff_jitter")
    factor_value = number_of(rec.follow(factor.value, scope, order)) if factor else None
    jitter_value = number_of(rec.follow(jitter.value, scope, order)) if jitter else None
    if factor is None:
        policy.wait = Setting(UNKNOWN if star else WAIT_NONE)
    elif jitter is not None and jitter_value != 0:
        policy.wait = Setting(WAIT_JITTERED, jitter.value)
    elif factor_value is not None and factor_value <= 0:
        policy.wait = Setting(WAIT_NONE, factor.value)
    elif star and jitter is None:
        policy.wait = Setting(UNKNOWN, factor.value)
    else:
        policy.wait = Setting(
            WAIT_EXPONENTIAL, factor.value,
            "urllib3 `Retry(backoff_factor=...)` without `backoff_jitter` sleeps exactly factor·2^n",
        )
    statuses = keywords.get("status_forcelist")
    policy.retry_on = Setting(ON_STATUS if statuses else ON_SPECIFIC, statuses.value if statuses else None)
    respects = keywords.get("respect_retry_after_header")
    listed = status_codes(rec.follow(statuses.value, scope, order)) if statuses is not None else []
    policy.retries_refusals = not (
        respects is not None and is_false(rec.follow(respects.value, scope, order))
        and (statuses is None or listed) and not set(listed) & REFUSAL_STATUSES
    )
    policy.unsafe_methods = _unsafe_methods(rec, keywords, scope, order)
    policy.guards_non_idempotent = policy.unsafe_methods is None
    return policy


def retry_subclass_defaults(rec: Recogniser, call: CallSite) -> Optional[Dict[str, cst.Arg]]:
    """For a call of a class of the file that extends ``Retry`` (``class LoggingRetry(Retry)``),
    the keywords its ``__init__`` fills in before handing them on (``kwargs.setdefault(
    "backoff_factor", 1.0)``); None for any other call."""
    found = _subclass_called(rec, call, RETRY)
    if found is None:
        return None
    return _init_defaults(rec, found[1]) if found[1] is not None else {}


def _init_defaults(rec: Recogniser, init: FunctionInfo) -> Dict[str, cst.Arg]:
    """The keywords a ``Retry`` subclass's ``__init__`` fills in: ``kwargs.setdefault("k", v)``,
    ``kwargs["k"] = v`` (``kwargs.get("k", v)``: ``v``, for callers that pass none)."""
    defaults: Dict[str, cst.Arg] = {}
    for site in rec.model.calls_in(init.scope):
        func, args = site.node.func, site.node.args
        if isinstance(func, cst.Attribute) and func.attr.value == "setdefault" and len(args) == 2:
            key = string_of(args[0].value)
            if key is not None:
                defaults[key] = cst.Arg(value=args[1].value, keyword=cst.Name(key))
    kwargs = kwargs_name(init.node)
    for node in iter_nodes(init.node.body, stop_at=DEFINITIONS):  # type: ignore[attr-defined]
        if not (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Subscript)):
            continue
        target = node.targets[0].target
        elements = target.slice
        if not (isinstance(target.value, cst.Name) and target.value.value == kwargs and len(elements) == 1
                and isinstance(elements[0].slice, cst.Index)):
            continue
        key = string_of(elements[0].slice.value)
        value = node.value
        if (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "get"
                and len(value.args) == 2 and string_of(value.args[0].value) == key):
            value = value.args[1].value
        if key is not None:
            defaults[key] = cst.Arg(value=value, keyword=cst.Name(key))
    return defaults


def subclass_unsafe_methods(rec: Recogniser) -> List[Setting]:
    """For each class of the file that extends ``Retry``, the POST or PATCH its ``__init__``
    adds to the methods retried (``kwargs["allowed_methods"] = DEFAULT_ALLOWED_METHODS |
    {"POST"}``): every instance made without ``allowed_methods=`` retries them, in any module."""
    found = []
    for cls in rec.model.classes:
        subclass = _retry_subclass(rec, cls, RETRY)
        if subclass is not None and subclass[1] is not None:
            unsafe = _unsafe_methods(rec, _init_defaults(rec, subclass[1]), subclass[1].scope, 1 << 62)
            if unsafe is not None:
                found.append(unsafe)
    return found


def imported_class_unsafe_methods(rec: Recogniser, call: CallSite) -> Optional[Setting]:
    """A class of another module made with the keyword that lists the methods urllib3's
    ``Retry`` retries, naming POST or PATCH, and with another of ``Retry``'s own keywords
    (``WritesRetry(total=..., allowed_methods=["POST"])``, a ``Retry`` subclass that hands its
    keywords on; not a CORS rule's ``allowed_methods``)."""
    given = {arg.keyword.value for arg in call.node.args if arg.keyword is not None}
    if not given & set(_METHOD_LISTS) or not given & _RETRY_KEYWORDS:
        return None
    if not isinstance(rec.model.resolve(call.node.func, call.scope, call.order), QName):
        return None  # a class of the file: ``retry_subclass_defaults`` reads what it does
    keywords, _ = rec.keywords(call.node, call.scope, call.order)
    return _unsafe_methods(rec, keywords, call.scope, call.order)


# Keywords of ``Retry`` that say it is one (its counters and backoff).
_RETRY_KEYWORDS = frozenset({
    "total", "connect", "read", "redirect", "status", "other", "backoff_factor", "backoff_max", "backoff_jitter",
    "status_forcelist", "raise_on_status", "raise_on_redirect", "respect_retry_after_header",
})
# The ``Retry`` attributes that list the methods it retries (the second is urllib3 < 1.26's).
_METHOD_LISTS = ("allowed_methods", "method_whitelist")
# Calls and operators that add to a set or list of methods (``methods.add("POST")``).
_ADDS = frozenset({"add", "update", "append", "extend"})


def assigned_unsafe_methods(rec: Recogniser) -> List[Setting]:
    """An ``allowed_methods`` set on a ``Retry`` after it was made (``adapter.max_retries.
    allowed_methods = frozenset(methods)``, python-keycloak's) that names POST or PATCH, written
    out there or added to the set it is made from (``methods.add("POST")``)."""
    text = rec.model.text
    if text is not None and not any(name in text for name in _METHOD_LISTS):
        return []
    found = []
    for scope in [rec.model.module_scope, *(f.scope for f in rec.model.functions)]:
        body = scope.node.body if isinstance(scope.node, cst.FunctionDef) else scope.node
        for node in iter_nodes(body, stop_at=DEFINITIONS):
            if not isinstance(node, cst.Assign):
                continue
            keys = [t.target.attr.value for t in node.targets if isinstance(t.target, cst.Attribute)]
            key = next((k for k in keys if k in _METHOD_LISTS), None)
            if key is None:
                continue
            unsafe = listed_unsafe(rec, node.value, scope, 1 << 62, key, "urllib3", _added_methods(rec, node.value, scope), node)
            if unsafe is not None:
                found.append(unsafe)
    return found


def _added_methods(rec: Recogniser, value: cst.BaseExpression, scope: Scope) -> Set[str]:
    """The methods the function adds to the names ``value`` reads (``methods.add("POST")``,
    ``methods |= {"PATCH"}``)."""
    names = {node.value for node in iter_nodes(value) if isinstance(node, cst.Name)}
    found: Set[str] = set()
    for site in rec.model.calls_in(scope):
        func = site.node.func
        if (isinstance(func, cst.Attribute) and func.attr.value in _ADDS and isinstance(func.value, cst.Name)
                and func.value.value in names and site.node.args):
            found |= method_strings(rec, site.node.args[0].value, scope, 1 << 62)
    for node in iter_nodes(scope.node):
        if (isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.BitOrAssign)
                and isinstance(node.target, cst.Name) and node.target.value in names):
            found |= method_strings(rec, node.value, scope, 1 << 62)
    return found


def adapter_subclass(rec: Recogniser, call: CallSite) -> bool:
    """A call of a class of the file that extends requests' ``HTTPAdapter`` and hands the
    constructor's keywords on to it (no ``__init__`` of its own, or one that calls
    ``super().__init__(..., **kwargs)``): its ``max_retries=`` mounts a urllib3 ``Retry`` as
    the adapter's own does (a ``TimeoutHTTPAdapter`` that only fills in a timeout)."""
    found = _subclass_called(rec, call, ADAPTERS)
    if found is None:
        return False
    init = found[1]
    return init is None or any(
        isinstance(site.node.func, cst.Attribute) and site.node.func.attr.value == "__init__"
        and any(arg.star == "**" for arg in site.node.args)
        for site in rec.model.calls_in(init.scope)
    )


def _subclass_called(rec: Recogniser, call: CallSite, bases: FrozenSet[str]) -> Optional[Tuple[ClassInfo, Optional[FunctionInfo]]]:
    """The class of the file ``call`` makes, when it extends one of ``bases``, with its own
    ``__init__`` if it has one."""
    cls = rec.model.resolve(call.node.func, call.scope, call.order)
    return _retry_subclass(rec, cls, bases) if isinstance(cls, ClassInfo) else None


def _retry_subclass(rec: Recogniser, cls: ClassInfo, bases: FrozenSet[str]) -> Optional[Tuple[ClassInfo, Optional[FunctionInfo]]]:
    """``cls`` when it extends one of ``bases``, with its own ``__init__`` if it has one."""
    model = rec.model
    outer = cls.scope.parent or model.module_scope
    if not any(normalise(model.qualified_name(base, outer, 1 << 62)) in bases for base in cls.bases):
        return None
    init = next((b.defined for b in cls.scope.bindings.get("__init__", ()) if isinstance(b.defined, FunctionInfo)), None)
    return cls, init


def _unsafe_methods(rec: Recogniser, keywords: Dict[str, cst.Arg], scope: Scope, order: int) -> Optional[Setting]:
    for key in ("allowed_methods", "method_whitelist"):
        arg = keywords.get(key)
        if arg is None:
            continue
        value = rec.follow(arg.value, scope, order)
        if is_none(value) or (key == "method_whitelist" and isinstance(value, cst.Name) and value.value == "False"):
            return Setting(
                "all", arg.value,
                f"`{key}={value.value}` makes urllib3 retry every method, POST and PATCH included",  # type: ignore[attr-defined]
            )
        if _defaults_to_none(rec, value, scope, order):
            return Setting(
                "all", arg.value,
                f"`{key}={value.value}` passes a parameter that defaults to None, which makes urllib3 retry "  # type: ignore[attr-defined]
                "every method, POST and PATCH included",
            )
        listed = listed_unsafe(rec, arg.value, scope, order, key, "urllib3")
        if listed is not None:
            return listed
    return None


def listed_unsafe(
    rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int, key: str, library: str,
    added: Set[str] = frozenset(), at: Optional[cst.CSTNode] = None,  # type: ignore[assignment]
) -> Optional[Setting]:
    """The setting of a list of retried methods (``expr``, given as ``key``, with the methods
    ``added`` to it) that names POST or PATCH, which ``library`` then retries, placed ``at``
    (else at ``expr``); None when it names neither."""
    unsafe = sorted(m for m in method_strings(rec, expr, scope, order) | added if m in ("POST", "PATCH"))
    if not unsafe:
        return None
    return Setting(
        "some", at or expr, f"`{key}` includes {' and '.join(unsafe)}, so {library} retries non-idempotent requests",
    )


def _defaults_to_none(rec: Recogniser, value: cst.BaseExpression, scope: Scope, order: int) -> bool:
    """``value`` reads a parameter written with the default None and never assigned in its
    function (``def retry_strategy(allowed_methods=None): Retry(allowed_methods=allowed_methods)``):
    a caller that passes nothing retries every method."""
    if not isinstance(value, cst.Name):
        return False
    params = [v for v in rec.model.resolve_all(value, scope, order) if isinstance(v, Param)]
    if len(params) != 1:
        return False
    function = params[0].function
    default = function.default_of(params[0].name)
    return default is not None and is_none(default) and len(function.scope.bindings.get(params[0].name, ())) == 1


def method_strings(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Set[str]:
    if depth > 5:
        return set()
    expr = rec.follow(expr, scope, order)
    found: Set[str] = set()
    if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
        for element in expr.elements:
            found |= method_strings(rec, element.value, scope, order, depth + 1)
    elif isinstance(expr, cst.BinaryOperation):
        found |= method_strings(rec, expr.left, scope, order, depth + 1)
        found |= method_strings(rec, expr.right, scope, order, depth + 1)
    elif isinstance(expr, cst.Call) and expr.args:
        found |= method_strings(rec, expr.args[0].value, scope, order, depth + 1)
    else:
        text = string_of(expr)
        if text:
            found.add(text.upper())
    return found


# declarations collected by the registry
POLICIES = dict.fromkeys(RETRY, build_policy)
CLIENTS = {
    **dict.fromkeys(ADAPTERS, partial(client_policy, library="urllib3", kind="adapter", keyword="max_retries", position=2)),
    **dict.fromkeys(POOLS, partial(client_policy, library="urllib3", kind="pool", keyword="retries", position=None)),
}
