"""Where a failure goes: ``try: ... except Exception: pass`` swallows it, so a retry layer
around the callers never repeats it (RES204 does not multiply a client's retries that end
there); a call outside the ``try`` statements a layer retries fails out of the layer."""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.conditions import reads_status
from resilint.libraries.retry_scopes.model import ON_STATUS, Policy
from resilint.libraries.retry_scopes.names import ANY_EXCEPTION
from resilint.libraries.retry_scopes.statements import named_classes
from resilint.lint.nodes import DEFINITIONS, dotted_name
from resilint.lint.semantic import CallSite, Scope, SemanticModel
from resilint.lint.traversal import iter_nodes

_SWALLOWING = object()  # ``derived`` key: id(try) → whether every handler catches all and raises nothing


def swallows(model: SemanticModel, node: cst.CSTNode, site: CallSite) -> bool:
    """Whether ``site`` is in the body of the ``try`` ``node`` and every one of its handlers
    catches everything and raises nothing."""
    assert isinstance(node, (cst.Try, cst.TryStar))
    known: Dict[int, bool] = model.derived(_SWALLOWING, dict)
    if id(node) not in known:
        known[id(node)] = bool(node.handlers) and all(
            catches_all(model, handler, site.scope, site.order) and raises_nothing(handler) for handler in node.handlers
        )
    return known[id(node)] and _in_body(node, site, site.stack.index(node))


def catches_all(model: SemanticModel, handler: cst.ExceptHandler, scope: Scope, order: int) -> bool:
    """A bare ``except:``, or one of ``Exception``/``BaseException``."""
    return handler.type is None or model.qualified_name(handler.type, scope, order) in ANY_EXCEPTION


# What ``except Exception`` lets through: the classes derived from BaseException alone.
_BASE_ONLY = frozenset({
    "BaseException", "KeyboardInterrupt", "SystemExit", "GeneratorExit", "BaseExceptionGroup",
    "CancelledError", "Cancelled", "GreenletExit",
})


def shadowed(model: SemanticModel, node: cst.CSTNode, handler: cst.ExceptHandler, scope: Scope, order: int) -> bool:
    """Whether an earlier handler of the ``try`` ``node`` catches everything ``handler`` would
    (``BaseException``, or ``Exception`` before a handler of anything but
    the classes only BaseException covers): Python tries handlers in order, so it never runs."""
    for earlier in getattr(node, "handlers", ()):
        if earlier is handler:
            return False
        if not catches_all(model, earlier, scope, order):
            continue
        if model.qualified_name(earlier.type, scope, order) == "builtins.BaseException":
            return True
        types = handler.type
        elements = named_classes(types)
        if types is not None and not any(
            (model.qualified_name(e, scope, order) or "").rsplit(".", 1)[-1] in _BASE_ONLY for e in elements
        ):
            return True
    return False


def raises_nothing(handler: cst.ExceptHandler) -> bool:
    return not any(n.__class__ is cst.Raise for n in iter_nodes(handler.body, stop_at=DEFINITIONS))


def reraised_only(model: SemanticModel, node: cst.CSTNode, site: CallSite) -> Tuple[str, ...]:
    """The classes a ``try`` around ``site`` (in its body) lets out, when every handler catches
    everything and raises again only under a test of what it caught (``except Exception as e:
    if isinstance(e, ApiException) and e.status == 403: raise``): the classes tested, every
    other failure ending there; () otherwise."""
    assert isinstance(node, (cst.Try, cst.TryStar))
    if not node.handlers or not in_try_body(node, site):
        return ()
    found: List[str] = []
    for handler in node.handlers:
        if not catches_all(model, handler, site.scope, site.order):
            return ()
        if raises_nothing(handler):
            continue
        caught = handler.name.name.value if handler.name is not None and isinstance(handler.name.name, cst.Name) else None
        tested = _raising_tests(handler.body, caught)
        if not tested:
            return ()
        for test in tested:
            name = model.qualified_name(test, site.scope, site.order)
            if name is None:
                return ()
            found.append(name)
    return tuple(dict.fromkeys(found))


def caught_quietly(model: SemanticModel, node: cst.CSTNode, site: CallSite) -> Tuple[str, ...]:
    """The classes the handlers of the ``try`` around ``site`` name and raise nothing for
    (``except (ccxt.BaseError, TemporaryError): logger.exception(...)``)."""
    assert isinstance(node, (cst.Try, cst.TryStar))
    found: List[str] = []
    for handler in node.handlers:
        if handler.type is None or not raises_nothing(handler):
            continue
        found.extend(name for name in _handled(model, handler, site) if name is not None)
    return tuple(dict.fromkeys(found))


def _raising_tests(body: cst.BaseSuite, caught: Optional[str]) -> List[cst.BaseExpression]:
    """The classes of the ``isinstance(caught, C)`` tests (alone or first of an ``and``) that
    every ``raise`` of a handler's body sits under, directly; [] when a raise is not so."""
    classes: List[cst.BaseExpression] = []
    for statement in body.body:
        if isinstance(statement, cst.If):
            test = statement.test
            while isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
                test = test.left
            tested = _isinstance_class(test, caught)
            if tested is not None and statement.orelse is None:
                classes.append(tested)
                continue
        if any(isinstance(n, cst.Raise) for n in iter_nodes(statement, stop_at=DEFINITIONS)):
            return []
    return classes


def _isinstance_class(test: cst.BaseExpression, caught: Optional[str]) -> Optional[cst.BaseExpression]:
    if (caught is not None and isinstance(test, cst.Call) and isinstance(test.func, cst.Name)
            and test.func.value == "isinstance" and len(test.args) == 2
            and isinstance(test.args[0].value, cst.Name) and test.args[0].value.value == caught
            and isinstance(test.args[1].value, (cst.Name, cst.Attribute))):
        return test.args[1].value
    return None


def in_try_body(node: cst.CSTNode, site: CallSite) -> bool:
    """Whether ``site`` is in the body of the ``try`` ``node`` of its stack."""
    return _in_body(node, site, site.stack.index(node))  # type: ignore[arg-type]


def _in_body(node: cst.Try, site: CallSite, index: int) -> bool:
    """Whether ``site`` (with ``node`` at ``index`` of its stack) is in the ``try``'s body, not
    in a handler, its ``else`` or its ``finally``: what the handlers catch."""
    if any(isinstance(n, (cst.ExceptHandler, cst.ExceptStarHandler)) for n in site.stack[index + 1:]):
        return False
    return not any(
        inner is site.node for part in (node.orelse, node.finalbody) if part is not None
        for inner in iter_nodes(part, stop_at=DEFINITIONS)
    )


def converted(model: SemanticModel, site: CallSite) -> Tuple[str, ...]:
    """The classes the failures of ``site`` leave its function as, when the innermost ``try``
    around it (in its body) catches everything and each handler ends raising a named class
    (``except HTTPError as e: raise TooManyRequests(e)``, ``except Exception as e: raise
    ServiceUnavailable(e)``); () otherwise."""
    node = _innermost_try(site)
    if node is None:
        return ()
    names = [_raised_class(model, handler, site) for handler in node.handlers]
    everything = any(catches_all(model, handler, site.scope, site.order) for handler in node.handlers)
    return tuple(dict.fromkeys(names)) if everything and names and all(names) else ()  # type: ignore[arg-type]


def _innermost_try(site: CallSite) -> Optional[cst.Try]:
    """The innermost ``try`` of the call's own function around it, when the call is in its
    body (what its handlers catch); None otherwise."""
    function = site.scope.enclosing_function
    for index in range(len(site.stack) - 1, -1, -1):
        node = site.stack[index]
        if function is not None and node is function.node:
            return None
        if isinstance(node, cst.Try):
            return node if _in_body(node, site, index) else None
    return None


# The errors a request whose response was lost (a timeout, a reset connection) raises, by the
# top-level module of its client, as handlers catch them (the last part of the name).
_LOST_RESPONSE = {
    "requests": frozenset({"RequestException", "ConnectionError", "Timeout", "ReadTimeout", "ChunkedEncodingError"}),
    "httpx": frozenset({"HTTPError", "RequestError", "TransportError", "TimeoutException", "ReadTimeout", "NetworkError", "ReadError"}),
    "aiohttp": frozenset({
        "ClientError", "ClientConnectionError", "ClientOSError", "ServerDisconnectedError", "ServerTimeoutError",
        "ClientPayloadError",
    }),
}
_LOST_BUILTINS = frozenset({"builtins.OSError", "builtins.ConnectionError", "builtins.TimeoutError", "asyncio.TimeoutError"})


def lost_response_as(model: SemanticModel, site: CallSite, client: str) -> str:
    """The project class a lost response of the request ``site`` makes with ``client``'s method
    leaves its function as: the handler of the innermost ``try`` around it that catches the
    library's error ends raising that class (``except requests.RequestException: raise
    FailedToSendSMS()``); "" otherwise."""
    errors = _LOST_RESPONSE.get(client.split(".", 1)[0])
    if errors is None:
        return ""
    node = _innermost_try(site)
    for handler in node.handlers if node is not None else ():
        if catches_all(model, handler, site.scope, site.order) or any(
            name is not None and (name in _LOST_BUILTINS or (name.split(".", 1)[0] == client.split(".", 1)[0]
                                                               and name.rsplit(".", 1)[-1] in errors))
            for name in _handled(model, handler, site)
        ):
            return _raised_class(model, handler, site) or ""
    return ""


def _handled(model: SemanticModel, handler: cst.ExceptHandler, site: CallSite) -> List[Optional[str]]:
    """The classes a handler names."""
    if handler.type is None:
        return []
    types = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
    return [model.qualified_name(t.value if isinstance(t, cst.Element) else t, site.scope, site.order) for t in types]  # type: ignore[arg-type]


def _raised_class(model: SemanticModel, handler: cst.ExceptHandler, site: CallSite) -> Optional[str]:
    body = handler.body.body
    last = body[-1] if body else None
    statement = last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else None
    if not isinstance(statement, cst.Raise) or statement.exc is None:
        return None
    raised = statement.exc.func if isinstance(statement.exc, cst.Call) else statement.exc
    return model.qualified_name(raised, site.scope, site.order)


def failing_out(policy: Policy, sites: List[CallSite]) -> List[Tuple[CallSite, bool]]:
    """The calls of ``sites`` outside the ``try`` statements whose failures set the policy off
    (``Policy.tries``): when one raises, the error leaves the layer unretried. Each comes with
    whether those ``try`` statements read its result (``r = post(...)``, then ``try:
    r.json()``): a failed answer (an error page that does not parse) sets the retry off there."""
    if not policy.tries:
        return [(site, False) for site in _untested(policy, sites)] if policy.retry_on.kind == ON_STATUS else []
    inside = set()
    read: Set[str] = set()
    for attempt in policy.tries:
        for node in iter_nodes(attempt.body):  # type: ignore[attr-defined]
            if isinstance(node, cst.Call):
                inside.add(id(node))
            elif isinstance(node, cst.Name):
                read.add(node.value)
    outside = [site for site in sites if id(site.node) not in inside]
    results = _results(policy.node) if outside and read else {}
    return [(site, bool(results.get(id(site.node), set()) & read)) for site in outside]


def _untested(policy: Policy, sites: List[CallSite]) -> List[CallSite]:
    """A loop that goes round on the statuses it tests (``if r.status_code == 429: continue``)
    repeats no failure of the calls whose answers those tests do not read (a token fetched
    before the request): their errors leave it, and what they answer sets nothing off. Only
    what the tests read, directly or through names made from it (``code =
    r.status_code``), is retried; none when the tests read nothing the loop's calls answer."""
    loop = policy.node
    if not isinstance(loop, (cst.For, cst.While)):
        return []
    tests = [
        node.test for node in iter_nodes(loop.body, stop_at=DEFINITIONS)
        if isinstance(node, cst.If) and any(
            isinstance(part, cst.Comparison) and reads_status(part.left) for part in iter_nodes(node.test)
        )
    ]
    tested = {node.value for test in tests for node in iter_nodes(test) if isinstance(node, cst.Name)}
    made_from: Dict[str, Set[str]] = {}  # a name → the names its value is made from
    for node in iter_nodes(loop.body, stop_at=DEFINITIONS):
        if isinstance(node, cst.Assign) and not isinstance(node.value, cst.Call):
            read = {n.value for n in iter_nodes(node.value) if isinstance(n, cst.Name)}
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    made_from.setdefault(target.target.value, set()).update(read)
    pending = list(tested)
    while pending:
        for name in made_from.get(pending.pop(), ()):
            if name not in tested:
                tested.add(name)
                pending.append(name)
    in_tests = {id(node) for test in tests for node in iter_nodes(test) if isinstance(node, cst.Call)}
    results = _results(loop)
    answering = {key for key, names in results.items() if names & tested} | in_tests
    if not any(id(site.node) in answering for site in sites):
        return []
    # a call on the object that gives the answer sends what it answers (``conn.request(...)``,
    # then ``response = conn.getresponse()``)
    receivers = {_receiver(site.node) for site in sites if id(site.node) in answering} - {None}
    return [site for site in sites if id(site.node) not in answering and _receiver(site.node) not in receivers]


def _receiver(call: cst.CSTNode) -> Optional[str]:
    func = call.func if isinstance(call, cst.Call) else None
    return dotted_name(func.value) if isinstance(func, cst.Attribute) else None


def _results(node: cst.CSTNode) -> Dict[int, Set[str]]:
    """id(call) → the names its result is bound to (``r = post(...)``, ``with get() as r``,
    ``r = await post(...)``), the answer itself: not a value built from it (``headers =
    {"Authorization": f"Bearer {token()}"}`` holds no answer the ``try`` could find failed)."""
    found: Dict[int, Set[str]] = {}
    for statement in iter_nodes(node, stop_at=DEFINITIONS):
        if isinstance(statement, cst.Assign):
            names = {t.target.value for t in statement.targets if isinstance(t.target, cst.Name)}
            value: Optional[cst.CSTNode] = statement.value
        elif isinstance(statement, cst.WithItem) and statement.asname is not None and isinstance(statement.asname.name, cst.Name):
            names, value = {statement.asname.name.value}, statement.item
        else:
            continue
        pending = [value] if value is not None else []
        while pending:  # the answer, read or parsed (``post(...).json()``, ``json.loads(get(...).text)``)
            part = pending.pop()
            if isinstance(part, cst.Await):
                pending.append(part.expression)
            elif isinstance(part, (cst.Attribute, cst.Subscript)):
                pending.append(part.value)
            elif isinstance(part, cst.Call):
                found.setdefault(id(part), set()).update(names)
                pending.append(part.func)
                pending.extend(arg.value for arg in part.args)
    return found
