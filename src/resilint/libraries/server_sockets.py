"""Sockets a program serves on: bound to an address of its own (``bind``, ``listen``) and never
connected to another's. Their timeout (``sock.settimeout(3)`` before ``recv``/``accept``)
bounds a wait for inbound traffic, often only so that a loop can notice it should stop: it is
no outbound call's timeout.
"""

from __future__ import annotations

import re
from typing import FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.sessions import receiver_keys
from resilint.lint.nodes import string_of
from resilint.lint.semantic import CallSite, FunctionInfo, QName, Scope, SemanticModel

SETTIMEOUT = "socket.socket.settimeout"
# Servers a program runs in its own process (a thread, an event loop's task): made or started by
# these calls, they listen on the program's own port.
STARTS_SERVER: FrozenSet[str] = frozenset({
    "uvicorn.Server", "uvicorn.run", "uvicorn.server.Server", "hypercorn.asyncio.serve", "hypercorn.trio.serve",
    "werkzeug.serving.make_server", "werkzeug.serving.run_simple", "http.server.HTTPServer",
    "http.server.ThreadingHTTPServer", "wsgiref.simple_server.make_server", "socketserver.TCPServer",
    "socketserver.ThreadingTCPServer", "aiohttp.web.run_app", "aiohttp.test_utils.TestServer",
})
# A URL of this machine (``http://127.0.0.1:8000/health``, ``f"http://localhost:{port}/"``).
LOOPBACK_URL = re.compile(r"^[a-z][a-z0-9+.-]*://(127(\.\d{1,3}){3}|localhost|\[::1\])(?=[:/]|$)", re.I)
# Or a host of this machine, the first argument of ``smtplib.SMTP("localhost")``.
_LOOPBACK_HOST = re.compile(r"^(127(\.\d{1,3}){3}|localhost|::1)$", re.I)
SERVES: FrozenSet[str] = frozenset({"socket.socket.bind", "socket.socket.listen"})
_CALLS_OUT: FrozenSet[str] = frozenset({"socket.socket.connect", "socket.socket.connect_ex", "socket.socket.sendto"})


def serves_only(model: SemanticModel, site: CallSite) -> bool:
    """Whether the socket ``site`` calls a method of (``sock.settimeout(...)``) is, as far as the
    file shows, bound to an address and connected nowhere. A socket the file cannot follow is
    not."""
    func = site.node.func
    if not isinstance(func, cst.Attribute):
        return False
    keys = set(receiver_keys(func.value, model, site.scope, site.order))
    if not keys:
        return False
    served, called_out = _uses(model)
    return any(key in served for key in keys) and not any(key in called_out for key in keys)


def _uses(model: SemanticModel) -> Tuple[Set[Tuple[object, ...]], Set[Tuple[object, ...]]]:
    """The identities of the sockets the file binds or listens on, and of those it connects."""
    return model.derived(_uses, lambda: _find_uses(model))


def _find_uses(model: SemanticModel) -> Tuple[Set[Tuple[object, ...]], Set[Tuple[object, ...]]]:
    served: Set[Tuple[object, ...]] = set()
    called_out: Set[Tuple[object, ...]] = set()
    for site, name in model.iter_calls():
        if name not in SERVES and name not in _CALLS_OUT:
            continue
        func = site.node.func
        if not isinstance(func, cst.Attribute):
            continue
        keys: List[Tuple[object, ...]] = receiver_keys(func.value, model, site.scope, site.order)
        (served if name in SERVES else called_out).update(keys)
    return served, called_out


# Calls that start a program in a process of its own, which a loopback probe then waits for
# (a freshly built server binary started by a smoke test).
STARTS_PROCESS: FrozenSet[str] = frozenset({
    "subprocess.Popen", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell",
})


def starts_own_server(model: SemanticModel, scope: Scope) -> bool:
    """Whether the function of ``scope`` makes or starts a server of this process
    (``uvicorn.Server(...)``, ``make_server(...)``), or starts a program in a process of its
    own (``subprocess.Popen([binary])``) that a loopback URL can only be."""
    return any(
        model.qualified_name(site.node.func, site.scope, site.order) in STARTS_SERVER | STARTS_PROCESS
        for site in model.calls_in(scope)
    )


def sends_to_loopback(site: CallSite, model: Optional[SemanticModel] = None) -> bool:
    """Whether the call's URL or host (its first positional argument, ``url=`` or ``host=``:
    ``redis.Redis(host="localhost")``; the host of a socket address, ``("127.0.0.1", port)``),
    as written there or
    in the local or attribute it is read from (``base_url = "http://127.0.0.1:8080/"``;
    ``base_url + "shutdown"``; ``self.url`` set in ``setUp``), is one of this machine's."""
    given = _url_head(site, model)
    text = _leading_text(given) if given is not None else None
    return text is not None and (LOOPBACK_URL.match(text) is not None or _LOOPBACK_HOST.match(text) is not None)


# The web frameworks' builders of a URL of the application's own routes: in test code, the
# application the test run serves (``requests.get(url_for("v1.tags"))`` with ``SERVER_NAME``
# set to the test server's address).
FRAMEWORK_URLS: FrozenSet[str] = frozenset({
    "flask.url_for", "flask.helpers.url_for", "django.urls.reverse", "django.urls.base.reverse",
    "django.shortcuts.resolve_url",
})


def own_route_url(site: CallSite, model: SemanticModel) -> Optional[str]:
    """Whether the call's URL is one of the application's own routes: "" when the file shows
    it (``url_for(...)``, or a function of the file that returns one or a URL of this machine);
    the name of the function of another module of the project that makes it
    (``api_url_for(server, "tags")``), for the project pass to tell; None otherwise."""
    made = _url_head(site, model)
    if not isinstance(made, cst.Call):
        return None
    name = model.qualified_name(made.func, site.scope, site.order)
    if name in FRAMEWORK_URLS:
        return ""
    callee = model.resolve(made.func, site.scope, site.order)
    if isinstance(callee, FunctionInfo):
        return "" if callee.returns and all(_own_url(model, expr, callee.scope) for expr in callee.returns) else None
    own_package = model.module_name.split(".", 1)[0]
    if name is not None and isinstance(callee, QName) and own_package and name.split(".", 1)[0] == own_package:
        return name  # a function of another module of the project, as far as names tell
    return None


def _own_url(model: SemanticModel, expr: cst.BaseExpression, scope: Scope) -> bool:
    """A returned expression that is a framework's URL of its own routes, or of this machine."""
    head = _head(expr)
    if isinstance(head, cst.Call) and model.qualified_name(head.func, scope, 1 << 62) in FRAMEWORK_URLS:
        return True
    text = _leading_text(head)
    return text is not None and LOOPBACK_URL.match(text) is not None


def _url_head(site: CallSite, model: Optional[SemanticModel]) -> Optional[cst.BaseExpression]:
    """The expression the call's URL or host starts with, followed through the names it is
    read from (``url = api_url_for(...)``: that call)."""
    args = site.node.args
    given = next((a.value for a in args if a.keyword is not None and a.keyword.value in ("url", "host")), None)
    if given is None and args and args[0].keyword is None and not args[0].star:
        given = args[0].value
    for _ in range(3):  # ``base_url + "shutdown"``, ``self.url + "modules"`` with ``self.url = "http://..."``
        given = _head(given) if given is not None else None
        if isinstance(given, cst.Call) and model is not None:
            made = _returned_by(model, given, site)
            if made is not None:  # ``self.url("/ping")`` returning ``f"http://127.0.0.1:{self.port}{path}"``
                return _head(made)
        if not isinstance(given, (cst.Name, cst.Attribute)) or model is None:
            break
        followed = model.followed(given, site.scope, site.order)
        if followed is given:
            break
        given = followed
    return given


def _returned_by(model: SemanticModel, call: cst.Call, site: CallSite) -> Optional[cst.BaseExpression]:
    """What a function of the file the call runs returns, when it has one ``return`` of a
    template or string (a URL it builds)."""
    callee = model.resolve(call.func, site.scope, site.order)
    if not isinstance(callee, FunctionInfo) or len(callee.returns) != 1:
        return None
    returned = callee.returns[0]
    return returned if isinstance(_head(returned), (cst.FormattedString, cst.SimpleString, cst.ConcatenatedString)) else None


def _head(expr: cst.BaseExpression) -> cst.BaseExpression:
    """The part of a URL or address that holds its start: the left of ``base + "/path"``, the
    host of a socket address ``("localhost", port)``, the value a template starts with
    (``f"{BASE_URL}/health"``, ``"{}/health".format(BASE_URL)``)."""
    while True:
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
            expr = expr.left
        elif isinstance(expr, cst.Tuple) and expr.elements and not isinstance(expr.elements[0], cst.StarredElement):
            expr = expr.elements[0].value
        elif isinstance(expr, cst.FormattedString) and expr.parts and isinstance(expr.parts[0], cst.FormattedStringExpression):
            expr = expr.parts[0].expression
        elif (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "format"
              and re.match(r"\{0?\}", string_of(expr.func.value) or "") and expr.args and expr.args[0].keyword is None
              and not expr.args[0].star):
            expr = expr.args[0].value
        else:
            return expr


def _leading_text(expr: cst.BaseExpression) -> Optional[str]:
    """A string's text, or a template's up to its first placeholder: an f-string's, and one
    filled with ``.format(...)`` or ``%`` (``"http://localhost:{}/".format(PORT)``)."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "format":
        expr = expr.func.value
    elif isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo):
        expr = expr.left
    if isinstance(expr, cst.FormattedString):
        text = ""
        for part in expr.parts:
            if not isinstance(part, cst.FormattedStringText):
                break
            text += part.value
        return text
    return string_of(expr)
