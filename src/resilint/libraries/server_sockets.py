"""Sockets a program serves on: bound to an address of its own (``bind``, ``listen``) and never
connected to another's. Their timeout (``sock.settimeout(3)`` before ``recv``/``accept``)
bounds a wait for inbound traffic, often only so that a loop can notice it should stop: it is
no outbound call's timeout.
"""

from __future__ import annotations

import os
import re
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.pytest_fixtures import pytest_fixtures
from resilint.libraries.sessions import receiver_keys
from resilint.lint.nodes import DEFINITIONS, string_of
from resilint.lint.semantic import CallSite, ClassInfo, FunctionInfo, Instance, QName, Scope, SemanticModel, argument_for, names_http_method
from resilint.lint.traversal import iter_nodes

SETTIMEOUT = "socket.socket.settimeout"
# Servers a program runs in its own process (a thread, an event loop's task): made or started by
# these calls, they listen on the program's own port.
STARTS_SERVER: FrozenSet[str] = frozenset({
    "uvicorn.Server", "uvicorn.run", "uvicorn.server.Server", "hypercorn.asyncio.serve", "hypercorn.trio.serve",
    "werkzeug.serving.make_server", "werkzeug.serving.run_simple", "http.server.HTTPServer",
    "http.server.ThreadingHTTPServer", "wsgiref.simple_server.make_server", "socketserver.TCPServer",
    "socketserver.ThreadingTCPServer", "aiohttp.web.run_app", "aiohttp.test_utils.TestServer",
    # a framework's development server, run in a thread (``Thread(target=app.run)``)
    "flask.Flask.run", "flask.app.Flask.run", "quart.Quart.run",
})
# What runs a function it is handed as ``target=`` in the background.
_RUNS_TARGET: FrozenSet[str] = frozenset({"threading.Thread", "multiprocessing.Process"})
# A URL of this machine (``http://127.0.0.1:8000/health``, ``f"http://localhost:{port}/"``;
# ``0.0.0.0`` as a destination is this host too: a container published on it, gcsfs's tests).
_LOOPBACK_NETLOC = r"(127(\.\d{1,3}){3}|0\.0\.0\.0|localhost|\[::1\])(?=[:/]|$)"
LOOPBACK_URL = re.compile(r"^[a-z][a-z0-9+.-]*://([^/@\s]*@)?" + _LOOPBACK_NETLOC, re.I)
# The host a URL template writes after a placeholder that stands for its user and password
# (``f"http://{auth}localhost:{port}"``).
_LOOPBACK_AFTER_USER = re.compile(_LOOPBACK_NETLOC, re.I)
_LOOPBACK_WORDS = ("127.", "0.0.0.0", "localhost", "LOCALHOST", "Localhost", "::1")
# Or a host of this machine, the first argument of ``smtplib.SMTP("localhost")``.
_LOOPBACK_HOST = re.compile(r"^(127(\.\d{1,3}){3}|0\.0\.0\.0|localhost|::1)$", re.I)
SERVES: FrozenSet[str] = frozenset({
    "socket.socket.bind", "socket.socket.listen",
    # tornado's servers, and the sockets it binds for them
    "tornado.httpserver.HTTPServer.listen", "tornado.httpserver.HTTPServer.bind",
    "tornado.httpserver.HTTPServer.add_socket", "tornado.tcpserver.TCPServer.listen", "tornado.tcpserver.TCPServer.bind",
    "tornado.tcpserver.TCPServer.add_socket", "tornado.web.Application.listen", "tornado.netutil.bind_sockets",
    "tornado.netutil.bind_unix_socket",
})
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
    for site in model.calls_in(scope):
        name = model.qualified_name(site.node.func, site.scope, site.order)
        if name in STARTS_SERVER or name in STARTS_PROCESS:
            return True
        target = next((arg.value for arg in site.node.args if arg.keyword is not None and arg.keyword.value == "target"), None)
        if name in _RUNS_TARGET and target is not None and model.qualified_name(target, site.scope, site.order) in STARTS_SERVER:
            return True  # ``Thread(target=self.app.run, kwargs={"port": port}).start()``
    return False


def runs_tests(model: SemanticModel, scope: Scope) -> bool:
    """Whether ``scope`` is a pytest test or fixture (of the file): a server of this machine it
    probes is one the test run starts (in the fixture, another fixture, or the test session)."""
    function = scope.enclosing_function
    return function is not None and (function.name.startswith("test") or _is_fixture(model, function))


def sends_to_loopback(site: CallSite, model: Optional[SemanticModel] = None) -> bool:
    """Whether the call's URL or host (its first positional argument, ``url=`` or ``host=``:
    ``redis.Redis(host="localhost")``; the host of a socket address, ``("127.0.0.1", port)``),
    as written there or
    in the local or attribute it is read from (``base_url = "http://127.0.0.1:8080/"``;
    ``base_url + "shutdown"``; ``self.url`` set in ``setUp``), is one of this machine's."""
    given = _url_head(site, model)
    handed = _handed_heads(model, given, site) if model is not None and given is not None else None
    if handed is not None:  # ``def is_up(base_url): requests.get(f"{base_url}/status")``
        return all(_loopback_text(head) for head in handed)
    return given is not None and _loopback_text(given)


def relative_to_local_base(site: CallSite, model: SemanticModel) -> bool:
    """``client.get("/ultra_fast")`` on an object of the project, in a file that names a host of
    this machine (``HttpSession(base_url="http://127.0.0.1:%i" % self.port)``): a path, sent to
    the base the object was made with, which in test code is the test run's own server."""
    if not isinstance(site.node.func, cst.Attribute) or not _may_name_loopback(model):
        return False
    head = _url_head(site, model)  # (also a path kept in a local: ``url = "/redirect"``)
    text = _leading_text(head) if head is not None else None
    return text is not None and text.startswith("/") and not text.startswith("//")


def only_local_urls(site: CallSite, model: SemanticModel) -> bool:
    """A URL the file cannot read (``PyMISP(params["url"], key)``, the ``params`` one of a
    module list of instances) in a file whose every URL written out names this machine, and
    which writes at least one (``{"url": "https://localhost:8643"}``): in test code, one of the
    instances the test run starts."""
    if not _may_name_loopback(model):
        return False
    head = _url_head(site, model)
    if isinstance(head, cst.Subscript) and len(head.slice) == 1 and isinstance(head.slice[0].slice, cst.Index):
        key = string_of(head.slice[0].slice.value)  # ``params["url"]``: the file's dicts' "url" entries
        if key is not None:
            return _all_local(model.derived(only_local_urls, lambda: _written_urls(model)).get(key, []))
    if not isinstance(head, (cst.Name, cst.Attribute, cst.Subscript)):
        return False  # (a URL written out decides for itself; an object made there is no URL)
    return _all_local([text for texts in model.derived(only_local_urls, lambda: _written_urls(model)).values() for text in texts])


_URL_TEXT = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)


def _written_urls(model: SemanticModel) -> Dict[str, List[str]]:
    """The URLs the file writes out, by the key of the dict entry each is the value of (``""``
    for the others)."""
    found: Dict[str, List[str]] = {}
    keyed = {}
    for node in iter_nodes(model.module):
        if node.__class__ is cst.DictElement:  # (class tests: LibCST's node classes are slow ABCs)
            key = string_of(node.key)
            if key is not None:
                keyed[id(node.value)] = key
        elif node.__class__ in (cst.SimpleString, cst.FormattedString):
            text = _leading_text(node)
            if text is not None and _URL_TEXT.match(text):
                found.setdefault(keyed.get(id(node), ""), []).append(text)
    return found


def _all_local(urls: List[str]) -> bool:
    return bool(urls) and all(LOOPBACK_URL.match(text) for text in urls)


def _loopback_text(head: cst.BaseExpression) -> bool:
    text = _leading_text(head)
    return text is not None and (LOOPBACK_URL.match(text) is not None or _LOOPBACK_HOST.match(text) is not None)


def _names_loopback(text: Optional[str]) -> bool:
    """Whether the file's text may write a host of this machine."""
    return text is None or any(word in text for word in _LOOPBACK_WORDS)


def _may_name_loopback(model: SemanticModel) -> bool:
    """``_names_loopback`` of the model's file, read once per file."""
    return model.derived(_LOOPBACK_WORDS, lambda: _names_loopback(model.text))


def _handed_heads(model: SemanticModel, given: cst.BaseExpression, site: CallSite) -> Optional[List[cst.BaseExpression]]:
    """When the URL is a parameter of a function of the file that the file calls (and no test
    or fixture, which pytest calls), what each of those calls hands it starts with
    (``is_up(base_url=_build_url(name))``, ``_build_url`` returning ``f"http://localhost:{port}"``);
    None otherwise, or when a call hands it nothing the file can read."""
    if not isinstance(given, cst.Name) or not _may_name_loopback(model):
        return None  # (no call of the file can hand it a URL of this machine)
    binding = model.lookup(given.value, site.scope, site.order)
    function = binding.parameter.function if binding is not None and binding.parameter is not None else None
    if function is None or function.name.startswith("test") or _is_fixture(model, function):
        return None
    callers = model.calls_of(function)
    default = function.default_of(given.value)
    heads = []
    for caller in callers:
        argument = argument_for(caller.node, function, given.value)
        if argument is None and default is not None and not any(arg.star for arg in caller.node.args):
            argument = default  # ``def run_server(self, host="localhost")`` called without one
        head = _url_head(caller, model, argument) if argument is not None else None
        if head is None:
            return None
        heads.append(head)
    return heads or None


# The methods of a client object that send a request to the URL they are given.
_REQUEST_METHODS: FrozenSet[str] = frozenset({
    "get", "post", "put", "patch", "delete", "head", "options", "request", "urlopen", "request_encode_url",
    "request_encode_body", "stream", "ws_connect",
})


def loopback_clients(model: SemanticModel) -> FrozenSet[int]:
    """The calls that make a client object (``urllib3.PoolManager()``) kept in a name of one
    function, whose only uses there are requests to this machine
    (``http.request("GET", "http://127.0.0.1:9090/all")``): nothing else can reach it."""
    # the call that made the object → (it, whether each request goes to this machine, by which name, from where)
    requests: Dict[int, Tuple[cst.CSTNode, List[Tuple[bool, str, Scope]]]] = {}
    for site in model.calls:
        func = site.node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _REQUEST_METHODS or not isinstance(func.value, cst.Name):
            continue
        local = sends_to_loopback(site, model) or own_route_url(site, model) == ""
        for value in model.resolve_all(func.value, site.scope, site.order):
            if isinstance(value, Instance) and value.site is not None:
                requests.setdefault(id(value.site), (value.site, []))[1].append((local, func.value.value, site.scope))
    found = set()
    for made, uses in requests.values():
        names = {name for _, name, _ in uses}
        scopes = {id(scope) for _, _, scope in uses}
        site = model.call_site(made) if all(local for local, _, _ in uses) and len(names) == 1 and len(scopes) == 1 else None
        if site is not None and site.scope is uses[0][2] and _only_requests(site.scope.node, names.pop()):
            found.add(id(made))
    return frozenset(found)


def _only_requests(function: cst.CSTNode, name: str) -> bool:
    """Whether every read of ``name`` in ``function`` calls a request method on it."""
    receivers = {
        id(node.func.value) for node in iter_nodes(function)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _REQUEST_METHODS
    }
    targets = set()  # where it is bound: ``http = ...``, ``with ... as http``
    for node in iter_nodes(function):
        if isinstance(node, cst.AssignTarget):
            targets.add(id(node.target))
        elif isinstance(node, cst.AsName):
            targets.add(id(node.name))
    return all(
        id(node) in receivers or id(node) in targets
        for node in iter_nodes(function) if isinstance(node, cst.Name) and node.value == name
    )


# The web frameworks' builders of a URL of the application's own routes: in test code, the
# application the test run serves (``requests.get(url_for("v1.tags"))`` with ``SERVER_NAME``
# set to the test server's address).
FRAMEWORK_URLS: FrozenSet[str] = frozenset({
    "flask.url_for", "flask.helpers.url_for", "django.urls.reverse", "django.urls.base.reverse",
    "django.shortcuts.resolve_url",
})


# pytest plugins' fixtures that are a server of this machine, or make one when called
# (pytest-django, pytest-aiohttp, pytest-httpserver, pytest-httpbin, pytest-asyncio's free ports),
# or the host of the containers the test run starts (pytest-docker's ``docker_ip``).
LOOPBACK_FIXTURES: FrozenSet[str] = frozenset({
    "live_server", "aiohttp_client", "aiohttp_server", "aiohttp_raw_server", "httpserver", "unused_tcp_port",
    "unused_tcp_port_factory", "aiohttp_unused_port", "httpbin", "httpbin_secure", "httpbin_both", "docker_ip",
})
# ``Call.url_from`` of a URL read from a test's fixture the file does not define (a
# ``conftest.py``'s): the project pass tells whether that fixture serves this machine.
FIXTURE_URL = "(fixture)"
# Between that fixture's name and a function of another module that made the URL of it
# (``public_url(app)``): a URL of this machine when either says so.
FIXTURE_HELPER = " made by "


def own_route_url(site: CallSite, model: SemanticModel) -> Optional[str]:
    """Whether the call's URL is one of the application's own routes: "" when the file shows
    it (``url_for(...)``, or a function of the file that returns one or a URL of this machine;
    a pytest fixture that serves this machine: ``live_server.url``, a fixture of the file
    yielding ``ServersResult(base_url=f"http://127.0.0.1:{port}")``);
    the name of the function of another module of the project that makes it
    (``api_url_for(server, "tags")``), or ``FIXTURE_URL`` and the fixture's name (one of a
    ``conftest.py``), for the project pass to tell; None otherwise."""
    made = _url_head(site, model)
    fixture = _fixture_root(model, made, site.scope, site.order) if made is not None else None
    if fixture is not None:
        return fixture
    if _live_server_url(made):
        return ""
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


def _live_server_url(expr: Optional[cst.BaseExpression]) -> bool:
    """``self.live_server_url`` (or ``cls.``): the server Django's ``LiveServerTestCase`` (and
    its subclasses) starts on this machine for the test case."""
    return (
        isinstance(expr, cst.Attribute) and expr.attr.value == "live_server_url"
        and isinstance(expr.value, cst.Name) and expr.value.value in ("self", "cls")
    )


def _fixture_root(model: SemanticModel, expr: cst.BaseExpression, scope: Scope, order: int) -> Optional[str]:
    """For a URL read from a parameter that names a pytest fixture (``live_server.url``,
    ``sd_servers.base_url``): "" when the fixture serves this machine (a plugin's, or one of
    the file), ``FIXTURE_URL`` and its name when the file does not define it; None else."""
    root = expr
    if isinstance(root, cst.Call) and isinstance(root.func, cst.Name) and root.args and root.args[0].keyword is None and not root.args[0].star:
        # ``public_host(app)``: the URL a helper makes of what a fixture gives; when the
        # fixture is a ``conftest.py``'s, also the helper, which may make a route of its own
        handed = _fixture_root(model, root.args[0].value, scope, order)
        helper = model.qualified_name(root.func, scope, order)
        if handed and helper is not None and not isinstance(model.resolve(root.func, scope, order), FunctionInfo):
            return f"{handed}{FIXTURE_HELPER}{helper}"
        if handed is not None:
            return handed
    # ``httpserver.url_for("/x")``, ``ssl_server.server_address[0]``
    while isinstance(root, (cst.Attribute, cst.Call, cst.Subscript)):
        root = root.func if isinstance(root, cst.Call) else root.value
    if not isinstance(root, cst.Name):
        return None
    binding = model.lookup(root.value, scope, order)
    if binding is not None and binding.self_of is not None and binding.self_of.qualname in local_address_classes(model):
        return ""  # ``public_url(self)`` in a class whose address is this machine's
    function = binding.parameter.function if binding is not None and binding.parameter is not None else None
    if function is None or not (function.name.startswith("test") or _is_fixture(model, function)):
        return None  # pytest gives fixtures to its tests and to other fixtures only
    if root.value in LOOPBACK_FIXTURES:
        return ""
    defined = pytest_fixtures(model).get(root.value)
    if defined is None:
        return FIXTURE_URL + root.value
    if any(serves_here(model, function) for function, _ in defined):
        return ""
    handed = {_handed_fixture(model, function) for function, _ in defined}
    # ``def host_port(primary_host_port): return primary_host_port``, of a conftest or a plugin
    return FIXTURE_URL + handed.pop() if len(handed) == 1 and None not in handed else None


def _handed_fixture(model: SemanticModel, function: FunctionInfo) -> Optional[str]:
    """The fixture a fixture of the file gives its tests as it is: what it returns or yields is
    that parameter, which no fixture of the file defines."""
    values = _given_values(function)
    first = values[0] if values else None
    if not isinstance(first, cst.Name) or not all(isinstance(v, cst.Name) and v.value == first.value for v in values):
        return None
    name = first.value
    binding = model.lookup(name, function.scope, 1 << 62)
    if binding is None or binding.parameter is None or name in pytest_fixtures(model):
        return None
    return name


def conftest_servers(model: SemanticModel) -> List[str]:
    """A ``conftest.py``'s fixtures that give their tests a server of this machine
    (``ModuleSummary.servers``); also those of a module that writes a host of this machine,
    which the project pass takes when a ``pytest_plugins`` names the module."""
    if os.path.basename(model.path) != "conftest.py" and not _may_name_loopback(model):
        return []  # (a pytest plugin's fixtures too: the project pass tells which modules are plugins)
    return sorted(
        name for name, functions in pytest_fixtures(model).items() if any(serves_here(model, f) for f, _ in functions)
    )


def conftest_server_classes(model: SemanticModel) -> Dict[str, List[str]]:
    """Of a ``conftest.py``'s other fixtures, those that give their tests an object a project
    class of another module makes (``yield MockHub.instance()``, ``return Hub(config)``):
    fixture name → what the file calls to make it, qualified; the project pass tells whether
    that class serves this machine (``ModuleSummary.local_classes``)."""
    if os.path.basename(model.path) != "conftest.py":
        return {}
    found: Dict[str, List[str]] = {}
    own_package = model.module_name.split(".", 1)[0]
    for name, functions in pytest_fixtures(model).items():
        for function, _ in functions:
            for value in _given_values(function):
                made = model.followed(value, function.scope, 1 << 62)
                made = made.expression if isinstance(made, cst.Await) else made
                called = model.qualified_name(made.func, function.scope, 1 << 62) if isinstance(made, cst.Call) else None
                if called is not None and own_package and called.split(".", 1)[0] == own_package:
                    found.setdefault(name, []).append(called)
    return {name: sorted(set(made)) for name, made in sorted(found.items()) if name not in conftest_servers(model)}


# The attributes that hold where a server listens, or where its clients reach it: ``bind_url``,
# ``base_url``, ``ip``, ``host``, ``hostname``, ``address``.
_ADDRESS_ATTRIBUTE = re.compile(r"(?:^|_)(?:url|ip|host|hostname|address)$", re.I)


def local_address_classes(model: SemanticModel) -> List[str]:
    """The file's classes that give an address attribute a default of this machine: a class
    attribute (``host = "127.0.0.1"``, traitlets' ``bind_url = Unicode("http://127.0.0.1:8081")``)
    or a traitlets default (``@default("bind_url")`` returning ``f"http://127.0.0.1:{port}/"``).
    An object of such a class that a test fixture gives is a server of this machine."""
    return model.derived(local_address_classes, lambda: _local_address_classes(model))


def _local_address_classes(model: SemanticModel) -> List[str]:
    if not _may_name_loopback(model):
        return []
    found: List[str] = []
    for cls in model.classes:
        for statement in cls.node.body.body:
            if _local_default(model, cls, statement):
                found.append(cls.qualname)
                break
    return found


def _local_default(model: SemanticModel, cls: ClassInfo, statement: cst.CSTNode) -> bool:
    if isinstance(statement, cst.FunctionDef):
        named = [
            string_of(d.decorator.args[0].value) for d in statement.decorators
            if isinstance(d.decorator, cst.Call) and d.decorator.args
            and model.qualified_name(d.decorator.func, cls.scope, 1 << 62) in ("traitlets.default", "traitlets.traitlets.default")
        ]
        if not any(n is not None and _ADDRESS_ATTRIBUTE.search(n) for n in named):
            return False
        function = next((f for f in model.functions if f.node is statement), None)
        return function is not None and bool(function.returns) and all(_own_url(model, value, function.scope) for value in function.returns)
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            value = small.value
            if isinstance(value, cst.Call) and value.args and value.args[0].keyword is None:
                value = value.args[0].value  # ``Unicode("http://127.0.0.1:8081", config=True)``
            if any(isinstance(t, cst.Name) and _ADDRESS_ATTRIBUTE.search(t.value) for t in targets) and _own_url(model, value, cls.scope):
                return True
    return False


def _is_fixture(model: SemanticModel, function: FunctionInfo) -> bool:
    return any(function is defined for functions in pytest_fixtures(model).values() for defined, _ in functions)


def serves_here(model: SemanticModel, function: FunctionInfo, depth: int = 0) -> bool:
    """Whether a pytest fixture gives its tests a server of this machine: it returns or yields a
    URL of this machine, an object made with one (``ServersResult(base_url=url)``), a plugin's
    server fixture (``return live_server``, ``yield await aiohttp_client(app)``), or another
    fixture of the file that does."""
    return any(_serves(model, value, function.scope, depth) for value in _given_values(function))


def _given_values(function: FunctionInfo) -> List[cst.BaseExpression]:
    """What a fixture gives its tests: what it returns or yields."""
    return list(function.returns) + [
        node.value for node in iter_nodes(function.node.body, stop_at=DEFINITIONS)  # type: ignore[attr-defined]
        if isinstance(node, cst.Yield) and isinstance(node.value, cst.BaseExpression)
    ]


def _serves(model: SemanticModel, expr: cst.BaseExpression, scope: Scope, depth: int) -> bool:
    if depth > 4:
        return False
    expr = model.followed(_head(expr), scope, 1 << 62)
    if isinstance(expr, cst.Await):
        expr = expr.expression
    if _own_url(model, expr, scope):
        return True
    if isinstance(expr, cst.Call):
        return _serves(model, expr.func, scope, depth + 1) or any(
            _serves(model, arg.value, scope, depth + 1) for arg in expr.args if not arg.star
        )
    if isinstance(expr, cst.Name):
        binding = model.lookup(expr.value, scope, 1 << 62)
        if binding is not None and binding.parameter is not None:
            return expr.value in LOOPBACK_FIXTURES or any(
                serves_here(model, function, depth + 1) for function, _ in pytest_fixtures(model).get(expr.value, ())
            )
    return False


def _own_url(model: SemanticModel, expr: cst.BaseExpression, scope: Scope) -> bool:
    """A returned expression that is a framework's URL of its own routes, or of this machine."""
    head = _head(expr)
    if isinstance(head, cst.Call) and model.qualified_name(head.func, scope, 1 << 62) in FRAMEWORK_URLS:
        return True
    text = _leading_text(head)
    # (or a host of this machine, as a server is bound to: ``HTTPServer(("localhost", 0), ...)``)
    return text is not None and (LOOPBACK_URL.match(text) is not None or _LOOPBACK_HOST.match(text) is not None)


def _url_head(
    site: CallSite, model: Optional[SemanticModel], given: Optional[cst.BaseExpression] = None,
) -> Optional[cst.BaseExpression]:
    """The expression the call's URL or host (or ``given``, an expression of its arguments)
    starts with, followed through the names it is read from (``url = api_url_for(...)``: that
    call)."""
    if given is None:
        given = _first_or_keyword(site.node, ("url", "host"))
    for _ in range(8):  # ``base_url + "shutdown"``, ``self.url + "modules"`` with ``self.url = "http://..."``
        given = _head(given) if given is not None else None
        if isinstance(given, cst.Call) and model is not None:
            address = _address_of(model, given, site)
            if address is not None:  # ``ldap3.Connection(ldap3.Server("localhost"))``
                given = address
                continue
            made = _returned_by(model, given, site)
            if made is not None:  # ``self.url("/ping")`` returning ``f"http://127.0.0.1:{self.port}{path}"``
                return _head(made)
        if not isinstance(given, (cst.Name, cst.Attribute)) or model is None:
            break
        parsed = _parsed_url(model, given, site)
        if parsed is not None:  # ``urlsplit(base_url).hostname``: the URL it was read from
            given = parsed
            continue
        followed = model.followed(given, site.scope, site.order)
        if followed is given and isinstance(given, cst.Attribute):
            followed = _property_returns(model, given, site) or given  # ``server.url``, a property
        if followed is given:
            break
        given = followed
    return given


_URL_PARSERS = frozenset({"urllib.parse.urlsplit", "urllib.parse.urlparse"})
_URL_PARTS = frozenset({"hostname", "netloc"})


def _parsed_url(model: SemanticModel, expr: cst.BaseExpression, site: CallSite) -> Optional[cst.BaseExpression]:
    """For the host of a parsed URL (``url.hostname`` with ``url = urlsplit(base_url)``), the
    URL it was parsed from."""
    if not isinstance(expr, cst.Attribute) or expr.attr.value not in _URL_PARTS:
        return None
    parsed = model.followed(expr.value, site.scope, site.order)
    if not isinstance(parsed, cst.Call) or not parsed.args or parsed.args[0].keyword is not None:
        return None
    return parsed.args[0].value if model.qualified_name(parsed.func, site.scope, site.order) in _URL_PARSERS else None


def _property_returns(model: SemanticModel, expr: cst.Attribute, site: CallSite) -> Optional[cst.BaseExpression]:
    """What a property of a class of the file returns, when its getter has one ``return``."""
    owner = model.resolve(expr.value, site.scope, site.order)
    if not isinstance(owner, Instance) or isinstance(owner.of, str):
        return None
    getter = model.property_of(owner.of, expr.attr.value)
    return getter.returns[0] if getter is not None and len(getter.returns) == 1 else None


# Objects that only name the server a client connects to: the host is their first argument.
_ADDRESS_OBJECTS: FrozenSet[str] = frozenset({"ldap3.Server", "ldap3.core.server.Server"})


def _address_of(model: SemanticModel, call: cst.Call, site: CallSite) -> Optional[cst.BaseExpression]:
    """The host an address object is made with (``ldap3.Server("localhost", port=389)``)."""
    if model.qualified_name(call.func, site.scope, site.order) not in _ADDRESS_OBJECTS:
        return None
    return _first_or_keyword(call, ("host",))


# Calls that take the HTTP method first and the URL second (``session.request("GET", url)``,
# urllib3's ``pool.request``/``urlopen``, ``http.client``'s ``conn.request``).
_METHOD_FIRST: FrozenSet[str] = frozenset({"request", "urlopen", "request_encode_url", "request_encode_body"})
_HTTP_METHODS: FrozenSet[str] = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def _first_or_keyword(call: cst.Call, keywords: Tuple[str, ...]) -> Optional[cst.BaseExpression]:
    """The call's argument given by one of ``keywords``, else its first positional one (its
    second for a call that takes the HTTP method first)."""
    args = call.args
    given = next((a.value for a in args if a.keyword is not None and a.keyword.value in keywords), None)
    if given is not None:
        return given
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    method_first = name in _METHOD_FIRST and "url" in keywords and bool(args) and (
        names_http_method(args[0].value) or (string_of(args[0].value) or "").upper() in _HTTP_METHODS
    )  # not ``urllib.request.urlopen(url)``
    index = 1 if method_first else 0
    if len(args) <= index or any(a.keyword is not None or a.star for a in args[:index + 1]):
        return None
    return args[index].value


def _returned_by(model: SemanticModel, call: cst.Call, site: CallSite) -> Optional[cst.BaseExpression]:
    """What a function of the file the call runs returns, when it has one ``return`` of a
    template or string (a URL it builds)."""
    callee = model.resolve(call.func, site.scope, site.order)
    if not isinstance(callee, FunctionInfo) or len(callee.returns) != 1:
        return None
    returned = callee.returns[0]
    return returned if isinstance(_head(returned), (cst.FormattedString, cst.SimpleString, cst.ConcatenatedString)) else None


_SCHEME_ONLY = re.compile(r"^[a-z][a-z0-9+.-]*://$", re.I)
_SCHEME_THEN_PLACEHOLDER = re.compile(r"^[a-z][a-z0-9+.-]*://%s", re.I)


def _head(expr: cst.BaseExpression) -> cst.BaseExpression:
    """The part of a URL or address that holds its start: the left of ``base + "/path"``, the
    host of a socket address ``("localhost", port)``, the value a template starts with
    (``f"{BASE_URL}/health"``, ``"{}/health".format(BASE_URL)``) or puts right after the
    scheme (``f"http://{HOST}:{PORT}/"``, ``"http://%s:%s/" % (host, port)``), a template kept
    in a name (``url.format(name)``)."""
    while True:
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
            expr = expr.left
        elif isinstance(expr, cst.NamedExpr):  # ``(url := api_url_for(...))``
            expr = expr.value
        elif isinstance(expr, cst.Tuple) and expr.elements and not isinstance(expr.elements[0], cst.StarredElement):
            expr = expr.elements[0].value
        elif isinstance(expr, cst.FormattedString) and expr.parts and isinstance(expr.parts[0], cst.FormattedStringExpression):
            expr = expr.parts[0].expression
        elif (isinstance(expr, cst.FormattedString) and len(expr.parts) > 1 and isinstance(expr.parts[0], cst.FormattedStringText)
              and _SCHEME_ONLY.match(expr.parts[0].value) and isinstance(expr.parts[1], cst.FormattedStringExpression)
              and not _user_before_loopback(expr, 1)):
            expr = expr.parts[1].expression  # the host of ``f"http://{docker_ip}:{port}/"``
        elif (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "format"
              and re.match(r"\{0?\}", string_of(expr.func.value) or "") and expr.args and expr.args[0].keyword is None
              and not expr.args[0].star):
            expr = expr.args[0].value
        elif (isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo)
              and _SCHEME_THEN_PLACEHOLDER.match(string_of(expr.left) or "")):
            expr = expr.right  # the host of ``"http://%s:%s/" % host_port``
        elif (isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo)
              and (string_of(expr.left) or "").startswith("%s")):
            expr = expr.right  # ``"%s?_since=%s" % (collection_url, etag)``: what it starts with
        elif (isinstance(expr, cst.Call) and _last_name(expr.func) == "sub" and len(expr.args) >= 3
              and all(a.keyword is None and not a.star for a in expr.args[:3])):
            expr = expr.args[2].value  # ``re.sub("/records$", "", collection_url)``: that URL, edited
        elif (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "format"
              and isinstance(expr.func.value, (cst.Name, cst.Attribute))):
            expr = expr.func.value  # ``url.format(name)``: the template, where it is written
        elif (isinstance(expr, cst.Call) and _URL_JOINER.search(_last_name(expr.func)) and expr.args
              and expr.args[0].keyword is None and not expr.args[0].star):
            expr = expr.args[0].value  # ``urljoin(base, path)``, ``url_path_join(base_url, "hub")``, ``url_concat(url, query)``
        else:
            return expr


# Functions that build a URL on the one they are given first: ``urllib.parse.urljoin``,
# Jupyter's ``url_path_join``, tornado's ``url_concat``, yarl-style ``join_url``.
_URL_JOINER = re.compile(r"^(?:url_?(?:path_?)?(?:join|concat)|join_?url)$", re.I)


def _user_before_loopback(template: cst.FormattedString, index: int) -> bool:
    """Whether the template's placeholder at ``index`` is followed by a host of this machine:
    it stands for a user and password (``f"http://{auth}localhost:{port}"``), not the host."""
    following = template.parts[index + 1] if index + 1 < len(template.parts) else None
    return isinstance(following, cst.FormattedStringText) and _LOOPBACK_AFTER_USER.match(following.value) is not None


def _last_name(func: cst.BaseExpression) -> str:
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""


def _leading_text(expr: cst.BaseExpression) -> Optional[str]:
    """A string's text, or a template's up to its first placeholder: an f-string's, and one
    filled with ``.format(...)`` or ``%`` (``"http://localhost:{}/".format(PORT)``)."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "format":
        expr = expr.func.value
    elif isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo):
        expr = expr.left
    if isinstance(expr, cst.FormattedString):
        text = ""
        parts = expr.parts
        for index, part in enumerate(parts):
            if not isinstance(part, cst.FormattedStringText):
                if text.endswith("://") and _user_before_loopback(expr, index):
                    continue  # ``f"http://{auth}localhost:{port}"``: a user and password, then the host
                break
            text += part.value
        return text
    return string_of(expr)
