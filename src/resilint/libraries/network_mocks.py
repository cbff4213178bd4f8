"""Test doubles that keep a client's calls inside the process, so that no timeout can matter.

A boto3 client built under moto never opens a socket; a ``requests.get`` under ``responses``
is answered from a table. The RES1xx rules skip client calls made while such a mock is active
for the call's library:

* moto (``mock_aws`` and the older per-service ``mock_s3``, ``mock_sts`` …): botocore;
* responses, requests-mock: requests (and hvac, slumber, zeep, jira, python-gitlab, which
  send with it);
* respx, pytest-httpx: httpx (and openai-python, and zeep's `AsyncClient` and
  `AsyncTransport`, which send with it);
* aioresponses: aiohttp;
* httpretty (it patches the socket module): requests (and its users), urllib3, urllib,
  http.client, httplib2 (and googleapiclient);
* Betamax (``Betamax(session).use_cassette(...)`` and its pytest fixtures ``betamax_session``,
  ``betamax_recorder``): requests, whose session it answers from the cassette;
* vcrpy (``vcr.use_cassette``, a ``vcr.VCR(...)``'s ``use_cassette``, pytest-recording's
  ``@pytest.mark.vcr``): the HTTP clients it patches (requests and its users, urllib3, urllib,
  http.client, httplib2, httpx, aiohttp, botocore), which replay the cassette's recording;
* fakeredis: a redis client or pool given ``connection_class=fakeredis.FakeConnection``
  (its server lives in the process, wherever the call is);
* botocore's ``Stubber``: a client the function that builds it hands to ``Stubber(client)``;
* no double at all: a request of a ``file://`` or ``data:`` URL (urllib's handlers, a requests
  adapter mounted for files) opens no socket;
* ``unittest.mock.patch`` (and the ``mock`` backport), ``patch.object``, ``patch.multiple``,
  pytest-mock's ``mocker.patch`` (``.object``, ``.multiple``) and pytest's
  ``monkeypatch.setattr``: the client function, method or class they replace, by its qualified
  name (``patch("app.http.requests.get")`` and ``patch.object(requests, "get")`` replace
  ``requests.get`` wherever it is called; ``patch("requests.Session")`` every method of the
  class; ``patch.object(requests.Session, "request")``, through which every requests call
  goes, all of requests; ``patch("socket.socket")``, through which every pure-Python client
  connects, all of them; ``monkeypatch.setattr(SMTP, "connect", ...)``, which every smtplib
  client connects with, all of smtplib, and ``FTP.connect`` all of ftplib). A target that replaces only a name of a project module
  (``patch("app.http.get")``, ``patch.object(httpclient.HTTPClient, "post")``) leaves this
  file's own calls alone; the project pass answers the calls that go through it.

"Active" is read from the code around the call, in its own file:

* a ``with``/``async with`` block that enters the mock;
* a decorator that activates it, on the function or on its class (moto and requests-mock
  decorate every test method of a decorated class);
* a pytest fixture of the same file that yields inside the mock (or starts it, or requests a
  fixture that does), named as a parameter of the function or in ``@pytest.mark.usefixtures``,
  or marked ``autouse`` in the module or class; the plugins' own fixtures ``requests_mock``,
  ``respx_mock``, ``httpx_mock``, ``aioresponses`` and pytest-vcr's ``vcr_cassette`` count the
  same way;
* a mock started with ``.start()`` or entered by hand, ``.__enter__()`` (``self.mock = mock_aws(); self.mock.start()`` in
  ``setUp``, ``patcher = patch("requests.get"); patcher.start()``) in the class, or at module
  level;
* a ``mocker.patch(...)`` or ``monkeypatch.setattr(...)`` made in the test (or in a fixture it
  requests): the ``mocker`` and ``monkeypatch`` fixtures undo it when the test ends;
* for a helper of the file (``create_bucket()``), every call of it in the file being made
  under the mock.

Fixtures from ``conftest.py`` or from a pytest plugin live in another module: a module records
what its fixtures keep on (``fixture_doubles``), and the project pass adds it to the calls of
the tests that request them (or get them by ``autouse``): the tests under that
``conftest.py``, or every test for a plugin (a module a ``pytest_plugins`` list names, or one
the packaging registers as a ``pytest11`` entry point); their file's findings on those calls
are taken back.
"""

from __future__ import annotations

import re
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.clients import CLIENT_CALLS, ZEEP_CLIENTS
from resilint.libraries.pytest_fixtures import pytest_fixtures
from resilint.lint.canonical import canonical_name
from resilint.lint.nodes import dotted_name, keyword_args, parameter_names, spelled_as_class, string_of
from resilint.lint.semantic import CallSite, ClassInfo, FunctionInfo, Instance, QName, Scope, SemanticModel
from resilint.lint.summary import AUTOUSE, PROJECT_DOUBLE
from resilint.lint.traversal import iter_nodes

Libraries = FrozenSet[str]
_NONE: Libraries = frozenset()
# Clients built on requests are answered by requests' mocks too.
_REQUESTS = frozenset({"requests", "hvac", "slumber", "zeep", "jira", "gitlab"})
# zeep's async client and transport send with httpx (its others with requests).
_HTTPX = frozenset({"httpx", "openai", "zeep.AsyncClient", "zeep.transports.AsyncTransport"})
_BOTOCORE = frozenset({"botocore"})
_AIOHTTP = frozenset({"aiohttp"})
_SOCKET_HTTP = _REQUESTS | frozenset({"urllib3", "urllib", "http.client", "httplib2", "googleapiclient"})
_VCR = _SOCKET_HTTP | _HTTPX | _AIOHTTP | _BOTOCORE

# Context managers and decorators (called or not) that activate a mock.
_MOCKS: Dict[str, Libraries] = {
    "moto.mock_aws": _BOTOCORE,
    "responses.activate": _REQUESTS,
    "responses.RequestsMock": _REQUESTS,
    "responses.mock": _REQUESTS,
    "requests_mock.Mocker": _REQUESTS,
    "requests_mock.mock": _REQUESTS,
    "requests_mock.mocker.Mocker": _REQUESTS,
    "respx.mock": _HTTPX,
    "respx.MockRouter": _HTTPX,
    "respx.router.MockRouter": _HTTPX,
    "httpretty.activate": _SOCKET_HTTP,
    "httpretty.httprettified": _SOCKET_HTTP,
    "httpretty.enabled": _SOCKET_HTTP,
    "aioresponses.aioresponses": _AIOHTTP,
    **{name: _VCR for name in ("vcr.use_cassette", "vcr.VCR.use_cassette", "vcr.config.VCR.use_cassette", "pytest.mark.vcr")},
    # a cassette that Betamax plays on the session it was given (a requests adapter)
    "betamax.Betamax.use_cassette": _REQUESTS,
    "betamax.recorder.Betamax.use_cassette": _REQUESTS,
}
# moto before 5.0 had one decorator per service (``mock_s3``, ``mock_sts`` …).
_MOTO_SERVICE_PREFIX = "moto.mock_"
# Module functions that switch a mock on until it is switched off.
_STARTS: Dict[str, Libraries] = {
    "responses.start": _REQUESTS,
    "httpretty.enable": _SOCKET_HTTP,
    "respx.start": _HTTPX,
}
# Fixtures that pytest plugins of these libraries provide.
_PLUGIN_FIXTURES: Dict[str, Libraries] = {
    "requests_mock": _REQUESTS,
    "respx_mock": _HTTPX,
    "httpx_mock": _HTTPX,
    "aioresponses": _AIOHTTP,
    "vcr_cassette": _VCR,  # pytest-vcr's (what ``@pytest.mark.vcr`` asks for)
    "betamax_session": _REQUESTS,
    "betamax_recorder": _REQUESTS,
    "betamax_parametrized_session": _REQUESTS,
    "betamax_parametrized_recorder": _REQUESTS,
}
# Calls that replace an object for a while: unittest.mock's patchers (as decorators, context
# managers or started), by qualified name; and the patching fixtures of pytest-mock and pytest,
# by the methods the fixture has (the fixture is a parameter, so it has no qualified name unless
# annotated).
_PATCHERS: Dict[str, str] = {
    f"{module}.patch{kind}": kind.lstrip(".") or "patch"
    for module in ("unittest.mock", "mock") for kind in ("", ".object", ".multiple")
}
_FIXTURES: Dict[str, str] = {  # fixture name → the fixture it is
    "mocker": "mocker", "module_mocker": "mocker", "class_mocker": "mocker", "package_mocker": "mocker",
    "session_mocker": "mocker", "monkeypatch": "monkeypatch",
}
_FIXTURE_CLASSES: Dict[str, str] = {  # an annotation of the parameter
    "pytest_mock.MockerFixture": "mocker", "pytest_mock.plugin.MockerFixture": "mocker",
    "pytest_mock.MockFixture": "mocker", "pytest.MonkeyPatch": "monkeypatch",
    "_pytest.monkeypatch.MonkeyPatch": "monkeypatch",
}
_FIXTURE_PATCHERS: Dict[Tuple[str, Tuple[str, ...]], str] = {
    ("mocker", ("patch",)): "patch", ("mocker", ("patch", "object")): "object",
    ("mocker", ("patch", "multiple")): "multiple", ("monkeypatch", ("setattr",)): "setattr",
}
# Twisted trial's test cases, whose ``patch(obj, attribute, value)`` lasts for one test.
_TRIAL_CASES = frozenset({"twisted.trial.unittest.TestCase", "twisted.trial.unittest.SynchronousTestCase"})
# Objects every call of a library goes through: replacing one answers the whole library.
_FUNNELS: Dict[str, str] = {
    "requests.Session.request": "requests", "requests.Session.send": "requests",
    # ``send`` asks it for the adapter of each URL: the one it gives answers (devpi's ``reqmock``)
    "requests.Session.get_adapter": "requests",
    "requests.adapters.HTTPAdapter.send": "requests", "httpx.Client.send": "httpx",
    "httpx.AsyncClient.send": "httpx", "httpx.HTTPTransport.handle_request": "httpx",
    "httpx.AsyncHTTPTransport.handle_async_request": "httpx",
    # the socket every pure-Python client connects through (``_SOCKET_CLIENTS``)
    "socket.socket": "socket",
    # the method every client of the module connects with (``SMTP_SSL`` and ``LMTP`` inherit it)
    "smtplib.SMTP.connect": "smtplib", "ftplib.FTP.connect": "ftplib",
}
# The libraries whose connections are ``socket.socket`` objects: a patch of it answers them all.
_SOCKET_CLIENTS = _SOCKET_HTTP | frozenset({"socket", "smtplib", "ftplib", "poplib", "imaplib", "redis", "httpx", "aiohttp"})
# Client objects outside the catalog that a patch may replace (pycurl is judged by its options).
_EXTRA_CLIENTS = ("pycurl.Curl.perform",)
_USEFIXTURES = "pytest.mark.usefixtures"
# Mock objects, from ``unittest.mock`` (or ``mock``) or pytest-mock's ``mocker``, and the
# attributes of a project object that hold its client (``self._session``, ``self.http``).
_MOCK_OBJECTS = frozenset({"Mock", "MagicMock", "AsyncMock", "NonCallableMock", "NonCallableMagicMock", "create_autospec"})
_CLIENT_ATTRIBUTE = re.compile(r"session|client|http|conn|transport|requester|pool", re.I)
_REQUEST_METHODS = frozenset({"request", "send", "get", "post", "put", "patch", "delete", "head", "urlopen"})
_MODULE_SETUP = frozenset({"setUpModule", "setup_module"})


def mock_classes(model: SemanticModel) -> Dict[str, List[str]]:
    """The classes of the file that keep a test double on while active: they define
    ``__enter__`` and make one of the mocks above (``self._mocker = requests_mock.Mocker()``,
    entered in ``__enter__``), with what that double answers."""
    if not _may_mock(model):
        return {}
    found: Dict[str, List[str]] = {}
    for cls in model.classes:
        if "__enter__" not in cls.scope.bindings:
            continue
        answered_here: Set[str] = set()
        for node in iter_nodes(cls.node):
            if isinstance(node, cst.Call):
                site = model.call_site(node)
                answered_here |= mock_libraries(model.call_name(site)) if site is not None else _NONE
        if answered_here:
            found[model.name_of(cls) or cls.qualname] = sorted(answered_here)
    return found


def mock_libraries(name: Optional[str]) -> Libraries:
    """The client libraries a mock of this qualified name keeps in process (empty: not a mock)."""
    if name is None:
        return _NONE
    if name in _MOCKS:
        return _MOCKS[name]
    if name.startswith(_MOTO_SERVICE_PREFIX):
        return _BOTOCORE
    return _NONE


# A file that mentions none of these has no mock to look for; a patch needs one of the
# patching words too.
_MOCK_WORDS = ("moto", "mock_", "Mock(", "Mocker", "create_autospec", "responses", "requests_mock", "respx", "httpx_mock", "aioresponses", "httpretty", "self.patch(", "vcr", "betamax")
_PATCH_WORDS = (("mock", "monkeypatch"), ("patch", "setattr"))


def mocked_libraries(model: SemanticModel, site: CallSite) -> Libraries:
    """What active test doubles answer at ``site`` (for calls judged elsewhere): client
    libraries (``"requests"``) and the qualified names of replaced objects (``"requests.get"``);
    ``answered`` reads them."""
    if names_local_resource(model, site):
        return _ANY_LIBRARY
    if not _may_mock(model):
        return _NONE
    mocks = _Mocks.of(model)
    return mocks.around(site) | mocks.around_uses(site) | mocks.through_replaced_client(site)


def under_project_double(model: SemanticModel, site: CallSite) -> bool:
    """Whether a class of another module named as a test double is active at ``site``
    (``@HttpMocker()``): only the project pass can tell what it answers."""
    return _may_mock(model) and any(entry.startswith(PROJECT_DOUBLE) for entry in _Mocks.of(model).around(site))


def in_process(model: SemanticModel, site: CallSite, library: str, name: Optional[str] = None) -> bool:
    """Whether a call of ``name``, a client of ``library``, at ``site`` is answered by an active
    test double (there, or at every use of the object it makes: ``around_uses``), or is built
    on a fake connection (``connection_class=fakeredis.FakeConnection``),
    or names a URL answered in the process (``file://``, ``data:``)."""
    if _on_a_fake_connection(model, site) or names_local_resource(model, site) or _stubbed(model, site):
        return True
    if not (_may_mock(model) or _writes_local_scheme(model)):
        return False
    mocks = _Mocks.of(model)
    return answered(mocks.around(site), library, name) or answered(mocks.around_uses(site), library, name)


_ANY_LIBRARY = frozenset({"*"})  # what answers a request of a URL the process serves itself
# URL schemes a client answers in the process (urllib's DataHandler and FileHandler, a requests
# adapter mounted for ``file://``, requests-mock's ``Adapter`` mounted for ``mock://``): no
# socket is opened, so there is nothing to wait for.
_LOCAL_SCHEMES = ("file:", "data:", "mock:")


def fixture_doubles(model: SemanticModel) -> Dict[str, List[str]]:
    """A module's fixtures that keep test doubles on, by name (``AUTOUSE`` for those every
    test gets): what the doubles answer (``ModuleSummary.fixtures``; the project pass tells
    which tests get them: those under a ``conftest.py``, every one from a plugin module)."""
    if not _may_mock(model):
        return {}
    mocks = _Mocks.of(model)
    found: Dict[str, Set[str]] = {}
    for name, functions in mocks.fixtures.items():
        for function, autouse in functions:
            provided = mocks._provided(function)
            if provided:
                found.setdefault(AUTOUSE if autouse else name, set()).update(provided)
    return {name: sorted(provided) for name, provided in found.items()}


def names_local_resource(model: SemanticModel, site: CallSite) -> bool:
    """Whether a request's URL (its first or second positional argument, or ``url=``), as
    written at the call or last assigned to the name it passes, starts with a scheme answered
    in the process (``file:``, ``data:``)."""
    if not _writes_local_scheme(model):
        return False  # the file writes neither scheme: a byte scan, not a resolution per call
    if model.call_name(site) in ZEEP_CLIENTS:
        return False  # its WSDL read from a file: the operations go where the WSDL says
    args = site.node.args
    given = [a.value for a in args[:2] if a.keyword is None and not a.star]
    given += [a.value for a in args if a.keyword is not None and a.keyword.value == "url"]
    local = _LOCAL_SCHEMES + _unix_socket_prefixes(model)
    for expr in given:
        head = text_head(model.followed(expr, site.scope, site.order))
        if head is not None and head.lower().startswith(local):
            return True
    return False


def _writes_local_scheme(model: SemanticModel) -> bool:
    return model.derived(names_local_resource, lambda: model.text is None or any(
        scheme in model.text.lower() for scheme in _LOCAL_SCHEMES
    ) or bool(_unix_socket_prefixes(model)))


# The methods by which a requests adapter chooses the connection pool it sends through.
_POOL_CHOICES = ("get_connection", "get_connection_with_tls_context")


def _unix_socket_prefixes(model: SemanticModel) -> Tuple[str, ...]:
    """The URL prefixes (with a host: ``http://snapd/``) the file mounts an adapter of its own
    on that picks its own connection pool, in a file that opens ``AF_UNIX`` sockets: certbot's
    ``_SnapdAdapter``, whose connections talk to ``/run/snapd.socket``, never the network."""
    def find() -> Tuple[str, ...]:
        if model.text is not None and ("AF_UNIX" not in model.text or ".mount(" not in model.text):
            return ()
        found = []
        for site in model.calls:
            func = site.node.func
            if not (isinstance(func, cst.Attribute) and func.attr.value == "mount") or len(site.node.args) != 2:
                continue
            prefix, adapter = (arg.value for arg in site.node.args)
            written = string_of(prefix)
            if written is None or "://" not in written or not written.split("://", 1)[1].strip("/"):
                continue
            made = model.resolve(adapter, site.scope, site.order)
            cls = made.of if isinstance(made, Instance) else None
            if isinstance(cls, ClassInfo) and any(name in cls.scope.bindings for name in _POOL_CHOICES):
                found.append(written.lower())
        return tuple(found)

    return model.derived(_unix_socket_prefixes, find)


def text_head(expr: cst.BaseExpression) -> Optional[str]:
    """The text a string expression starts with: a literal, an f-string's leading text, the
    left side of ``+``."""
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        return text_head(expr.left)
    if isinstance(expr, cst.FormattedString) and expr.parts and isinstance(expr.parts[0], cst.FormattedStringText):
        return expr.parts[0].value
    return string_of(expr)


def _stubbed(model: SemanticModel, site: CallSite) -> bool:
    """A botocore client that the function building it hands to botocore's own test double,
    ``Stubber(client)``: every operation is answered in the process, or refused."""
    if model.text is not None and "Stubber" not in model.text:
        return False
    for other in model.calls_in(site.scope):
        args = other.node.args
        if not args or args[0].keyword is not None or model.call_name(other) != "botocore.stub.Stubber":
            continue
        if any(isinstance(v, Instance) and v.site is site.node for v in model.resolve_all(args[0].value, other.scope, other.order)):
            return True
    return False


def _on_a_fake_connection(model: SemanticModel, site: CallSite) -> bool:
    """A redis client or pool given fakeredis's connection class: its server is in the process."""
    given = keyword_args(site.node)[0].get("connection_class")
    if given is None:
        return False
    name = model.qualified_name(given.value, site.scope, site.order) or ""
    return name.split(".", 1)[0] == "fakeredis"


def answered(mocked: Iterable[str], library: str, name: Optional[str]) -> bool:
    """Whether what ``mocked_libraries`` found answers a call of ``name`` (a client of
    ``library``): a mock of the library, or a replaced object that is the callee or owns it."""
    for entry in mocked:
        if entry == "*" or entry == library or (name is not None and (name == entry or name.startswith(entry + "."))):
            return True
        if entry == "socket" and library in _SOCKET_CLIENTS:
            return True
    return False


def _spelled(func: cst.BaseExpression) -> str:
    """The last name a callee is written with (``Client`` of ``zeep.Client``)."""
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""


def _may_be_double(name: Optional[str]) -> bool:
    """A class named as a test double (``HttpMocker``, ``MockServer``)."""
    return spelled_as_class(name) and "mock" in (name or "").rsplit(".", 1)[-1].lower()


def _first_read(func: cst.BaseExpression) -> cst.BaseExpression:
    """The innermost attribute read of a called attribute chain (``client.service`` of
    ``client.service.Op``)."""
    while isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute):
        func = func.value
    return func


def _may_mock(model: SemanticModel) -> bool:
    # asked once per call site: the text is scanned once per file
    return model.derived(_MOCK_WORDS, lambda: model.text is None or _mentions_mock(model.text))


def _mentions_mock(text: str) -> bool:
    if any(word in text for word in _MOCK_WORDS):
        return True
    return all(any(word in text for word in words) for words in _PATCH_WORDS)


class _Mocks:
    """The mocks of one file: memoised on the model, asked once per client call."""

    @staticmethod
    def of(model: SemanticModel) -> "_Mocks":
        return model.derived(_Mocks, lambda: _Mocks(model))

    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self.inside: Dict[int, Libraries] = {}  # id(def or class) → mocks active in its body
        self.provided: Dict[int, Libraries] = {}  # id(fixture def) → mocks active for its users
        self.calls_in: Dict[int, List[CallSite]] = {}  # id(scope) → the calls made directly in it
        self.replaced: Dict[int, Set[str]] = {}  # id(def) → names whose client it replaces with a mock
        for call in model.calls:
            self.calls_in.setdefault(id(call.scope), []).append(call)
        self.fixtures = pytest_fixtures(model)
        setups = [f.scope for f in model.functions if f.scope.parent is model.module_scope and f.name in _MODULE_SETUP]
        self.module = self._started(model.module_scope, *setups) | self._autouse(model.module_scope)

    def around(self, site: CallSite) -> Libraries:
        found = set(self.module)
        for node in site.stack:
            if isinstance(node, cst.With):
                for item in node.items:
                    found |= self.expression(item.item, site.scope, site.order)
            elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                found |= self._inside(node)
        return frozenset(found)

    def around_uses(self, site: CallSite) -> Libraries:
        """For an instance of a class kept in a local (``consumer = Consumer(...)``)
        and only used to call its methods, or those of its parts (``client.service.Op()``):
        what answers every one of those calls (the test sends its requests inside ``with
        responses.RequestsMock():``, built the object before); also for an object made to be
        handed at once to such an instance's maker (``Client(wsdl, transport=Transport())``)."""
        outer = self._made_with(site)
        if outer is not None:
            site = outer
        scope = site.scope
        made = self.model.resolve(site.node.func, scope, site.order) if scope.function is not None else None
        if not (isinstance(made, ClassInfo) or (isinstance(made, QName) and made.name.rsplit(".", 1)[-1][:1].isupper())):
            return _NONE  # not a class, as far as the file tells (a request's answer is used anywhere)
        name = scope.name_bound_to(site.node)
        reads = self.model.attribute_reads(scope, name) if name is not None else None
        if not reads:
            return _NONE  # handed elsewhere: its other uses are not seen
        read_ids = {id(read) for read in reads}
        uses = [call for call in self.calls_in.get(id(scope), ()) if id(_first_read(call.node.func)) in read_ids]
        if len(uses) != len(reads):
            return _NONE  # an attribute read that is no call of it (``binding = client.service._binding``)
        common = self._answering(uses[0])
        for use in uses[1:]:
            common &= self._answering(use)
        return common

    def _made_with(self, site: CallSite) -> Optional[CallSite]:
        """The construction that ``site``'s object is written as an argument of
        (``Client(wsdl, transport=Transport())``)."""
        outer = self.model.argument_of(site.node)
        return outer if outer is not None and spelled_as_class(_spelled(outer.node.func)) else None

    def _answering(self, use: CallSite) -> Libraries:
        """What answers a use of an object: the doubles around it, or the process itself (a
        ``file://`` document, ``transport.load("file:///...")``)."""
        return _ANY_LIBRARY if names_local_resource(self.model, use) else self.around(use)

    def through_replaced_client(self, site: CallSite) -> Libraries:
        """``client.request(...)`` on an object whose client the test, or the fixture of the
        file that gives it, replaced with a mock (``client._session = mock.MagicMock()``,
        ``c._client.request = request_mock``), and the construction of such an object (also one
        a fixture returns as it is made, when every test of the file that requests the fixture
        replaces its client): what its methods send is answered in the process."""
        func = site.node.func
        function = site.scope.function
        if function is None:
            return _NONE
        made = site.scope.name_bound_to(site.node)  # ``client = ClientBase(...)``, replaced next
        if made is not None and self._replaces_client(function, made):
            return _ANY_LIBRARY
        if made is None and self._returned_to_replacing_tests(function, site):
            return _ANY_LIBRARY
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return _NONE
        name = func.value.value
        if self._replaces_client(function, name):
            return _ANY_LIBRARY
        if name not in parameter_names(function.node.params) or name not in self.fixtures:  # type: ignore[union-attr]
            return _NONE
        for fixture, _ in self.fixtures[name]:
            given = {
                node.value.value for node in iter_nodes(fixture.node)
                if isinstance(node, (cst.Return, cst.Yield)) and isinstance(node.value, cst.Name)
            }
            if any(self._replaces_client(fixture, held) for held in given):
                return _ANY_LIBRARY
        return _NONE

    def _returned_to_replacing_tests(self, function: FunctionInfo, site: CallSite) -> bool:
        """``return Client(token="TOKEN")`` in a fixture of the file that every test of the
        file requesting it (and at least one) replaces the client of."""
        name = next((n for n, entries in self.fixtures.items() if any(f is function for f, _ in entries)), None)
        if name is None or not any(isinstance(node, cst.Return) and node.value is site.node for node in iter_nodes(function.node)):
            return False
        users = [  # (a fixture of a test class serves that class's tests)
            f for f in self.model.functions
            if f.name.startswith("test") and name in parameter_names(f.node.params)  # type: ignore[union-attr]
            and (function.owner is None or f.owner is function.owner)
        ]
        return bool(users) and all(self._replaces_client(user, name) for user in users)

    def _replaces_client(self, function: FunctionInfo, name: str) -> bool:
        """Whether ``function`` replaces, on the object ``name`` holds, a client or a request
        method with a mock object or one a mock fixture gives (``client._session =
        mock.MagicMock()``, ``c._client.request = request_mock``)."""
        key = id(function.node)
        if key not in self.replaced:
            self.replaced[key] = self._replaced_in(function)
        return name in self.replaced[key]

    def _replaced_in(self, function: FunctionInfo) -> Set[str]:
        """The names whose objects ``function`` replaces a client of (``_replaces_client``)."""
        found: Set[str] = set()
        mock_parameters = {p for p in parameter_names(function.node.params) if "mock" in p.lower()}  # type: ignore[union-attr]
        for node in iter_nodes(function.node):
            if node.__class__ is not cst.Assign:  # (a class test: LibCST's node classes are slow ABCs)
                continue
            names = {held for t in node.targets for held in (_replaced_on(t.target),) if held is not None}
            if not names or found >= names:
                continue
            value = node.value
            if isinstance(value, cst.Name) and value.value in mock_parameters:
                found |= names
                continue
            if not isinstance(value, cst.Call):
                continue
            made = self.model.qualified_name(value.func, function.scope, 1 << 62) or ""
            if made.rsplit(".", 1)[-1] in _MOCK_OBJECTS and (made.startswith(("unittest.mock.", "mock.")) or (
                isinstance(value.func, cst.Attribute) and dotted_name(value.func.value) in _FIXTURES
            )):
                found |= names
        return found

    def _inside(self, node: cst.CSTNode) -> Libraries:
        key = id(node)
        if key not in self.inside:
            self.inside[key] = _NONE  # a cycle through fixtures adds nothing
            scope = self.model.scope_of.get(node)
            if scope is not None and scope.function is not None and scope.node is node:
                self.inside[key] = self._function(scope.function) | self._callers(scope.function)
            elif scope is not None and scope.cls is not None:
                self.inside[key] = self._class(scope.cls)
        return self.inside[key]

    def _callers(self, function: FunctionInfo) -> Libraries:
        """A helper that every call in this file makes under a mock (``create_bucket()`` from
        mocked tests) runs under it too."""
        common: Optional[Libraries] = None
        for site in self.model.calls_of(function):
            here = self.around(site)
            common = here if common is None else common & here
        return common or _NONE

    # --- what activates a mock ---------------------------------------------------------------

    def expression(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Libraries:
        """A decorator or ``with`` item that activates a mock: ``mock_aws()``, ``respx.mock``,
        ``patch("requests.get")``."""
        target = expr.func if isinstance(expr, cst.Call) else expr
        value = self.model.resolve(target, scope, order)
        if isinstance(value, FunctionInfo) and isinstance(expr, cst.Call):
            return self._provided(value)  # a helper of the file that yields inside a mock
        name = self.model.name_of(value) or self.model.type_name(value)
        if isinstance(expr, cst.Call) and name in _PATCHERS:
            return self.patched(expr, _PATCHERS[name], scope, order)
        found = mock_libraries(name)
        if not found and isinstance(expr, cst.Call) and isinstance(value, QName) and _may_be_double(name):
            return frozenset({PROJECT_DOUBLE + value.name})  # (a class of another module, maybe a double)
        return found

    def patched(self, call: cst.Call, kind: str, scope: Scope, order: int) -> Libraries:
        """What a patching call replaces: qualified names of library objects (a library, for an
        object every call of it goes through)."""
        args = [a for a in call.args if not a.star]
        positional = [a.value for a in args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in args if a.keyword is not None}
        targets: List[str] = []
        if kind in ("patch", "multiple") or (kind == "setattr" and len(positional) == 2):
            first = keywords.get("target", positional[0] if positional else None)
            text = string_of(first)
            if kind == "multiple":
                owner = text if text is not None else self._owner(first, scope, order)
                replaced = [_library_object(f"{owner}.{a}") for a in keywords if a != "target"] if owner else []
                targets = [r for r in replaced if r]
            else:
                found = _library_object(text) if text else None
                # a project object (``"shop.vendors.async_session.get"``): the project pass
                # tells whether it is the client, or the wrapper, a call goes through
                targets = [found] if found else [text] if text else []
        elif kind in ("object", "setattr") and len(positional) >= 2:
            attribute = string_of(positional[1])
            owner = self._owner(positional[0], scope, order)
            replaced = _client_object(canonical_name(f"{owner}.{attribute}")) if attribute and owner else None
            # else a project object (``patch.object(httpclient.HTTPClient, "post")``): the
            # project pass tells whether a call goes through it
            targets = [replaced] if replaced else [f"{owner}.{attribute}"] if attribute and owner else []
        return frozenset(targets)

    def _owner(self, expr: Optional[cst.BaseExpression], scope: Scope, order: int) -> Optional[str]:
        """The library module or class an expression names, or the class of a library object
        (``patch.object(session, "get")`` replaces ``get`` of that session: its class's, here)."""
        if expr is None:
            return None
        held = self.model.resolve(expr, scope, order)
        return held.name if isinstance(held, QName) else self.model.type_name(held)

    def _decorators(self, decorators: Iterable[cst.Decorator], scope: Scope) -> Libraries:
        found: Set[str] = set()
        for decorator in decorators:
            found |= self.expression(decorator.decorator, scope, 1 << 62)
            for name in self._usefixtures(decorator, scope):
                found |= self._fixture(name)
        return frozenset(found)

    def _usefixtures(self, decorator: cst.Decorator, scope: Scope) -> List[str]:
        expr = decorator.decorator
        if not isinstance(expr, cst.Call) or self.model.qualified_name(expr.func, scope, 1 << 62) != _USEFIXTURES:
            return []
        return [text for text in (string_of(a.value) for a in expr.args) if text]

    def _function(self, function: FunctionInfo) -> Libraries:
        """Decorators, requested fixtures and mocks the body starts itself."""
        outer = function.scope.parent or function.scope
        found = set(self._decorators(function.decorators, outer))
        for name in parameter_names(function.node.params):
            found |= self._fixture(name)
        found |= self._started(function.scope)
        return frozenset(found)

    def _class(self, cls: ClassInfo) -> Libraries:
        """Class decorators, autouse fixtures of the class, and mocks its methods start
        (``setUp``): they are on while its tests run."""
        outer = cls.scope.parent or cls.scope
        methods = [f.scope for f in self.model.functions if f.owner is cls]
        found = self._decorators(cls.node.decorators, outer) | self._started(*methods) | self._autouse(cls.scope)
        for base in cls.bases:  # a base class of the file: its ``setUp`` runs for these tests too
            inherited = self.model.resolve(base, outer, 1 << 62)
            if isinstance(inherited, ClassInfo) and inherited is not cls:
                found |= self._inside(inherited.node)
        return found

    def _started(self, *scopes: Scope) -> Libraries:
        """Mocks switched on by a call made directly in one of these scopes: ``responses.start()``,
        a started patcher, ``mocker.patch(...)``, ``monkeypatch.setattr(...)``."""
        found: Set[str] = set()
        for scope in scopes:
            for call in self.calls_in.get(id(scope), ()):
                name = self.model.call_name(call)
                found |= _start_libraries(name)
                if name is not None and name.endswith(".start") and isinstance(call.node.func, cst.Attribute):
                    found |= self._started_patcher(call.node.func.value, call)
                kind = self._fixture_patcher(call)
                if kind is not None:
                    found |= self.patched(call.node, kind, call.scope, call.order)
        return frozenset(found)

    def _started_patcher(self, receiver: cst.BaseExpression, call: CallSite) -> Libraries:
        """``patcher.start()`` of ``patcher = patch("requests.get")`` (or of the call itself)."""
        found: Set[str] = set()
        for value in self.model.resolve_all(receiver, call.scope, call.order):
            if isinstance(value, Instance) and isinstance(value.of, str) and value.of in _PATCHERS:
                made = self.model.call_site(value.site) if value.site is not None else None
                if made is not None:
                    found |= self.patched(made.node, _PATCHERS[value.of], made.scope, made.order)
        return frozenset(found)

    def _fixture_patcher(self, call: CallSite) -> Optional[str]:
        """The kind of patch ``mocker.patch.object(...)``/``monkeypatch.setattr(...)`` makes, when
        ``mocker``/``monkeypatch`` is that fixture: a parameter of that name, or one annotated
        with its class."""
        chain: List[str] = []
        expr: cst.BaseExpression = call.node.func
        while isinstance(expr, cst.Attribute):
            chain.append(expr.attr.value)
            expr = expr.value
        if not isinstance(expr, cst.Name) or not chain:
            return None
        if chain == ["patch"] and expr.value == "self" and self._trial_test(call):
            return "setattr"  # Twisted trial's ``self.patch(obj, "name", value)``, undone after the test
        binding = self.model.lookup(expr.value, call.scope, call.order)
        if binding is None or binding.parameter is None:
            return None
        annotated = self.model.type_name(self.model.binding_value(binding))
        fixture = _FIXTURE_CLASSES.get(annotated) if annotated is not None else _FIXTURES.get(expr.value)
        return _FIXTURE_PATCHERS.get((fixture or "", tuple(reversed(chain))))

    def _trial_test(self, call: CallSite) -> bool:
        function = call.scope.enclosing_function
        cls = function.owner if function is not None else None
        return cls is not None and self.model.library_base(cls) in _TRIAL_CASES

    # --- pytest fixtures -----------------------------------------------------------------------

    def _fixture(self, name: str) -> Libraries:
        if name not in self.fixtures:
            return _PLUGIN_FIXTURES.get(name, _NONE)
        found: Set[str] = set()
        for function, _ in self.fixtures[name]:
            found |= self._provided(function)
        return frozenset(found)

    def _provided(self, function: FunctionInfo) -> Libraries:
        """A fixture keeps a mock on for its users when it yields inside it, starts it, or
        itself requests a fixture that does."""
        key = id(function.node)
        if key not in self.provided:
            self.provided[key] = _NONE  # a cycle through fixtures adds nothing
            if _may_leave_first(function.node):
                return _NONE  # (``if request.node.get_closest_marker("requests"): return``: not for every test)
            found = set(self._function(function))
            for with_node in _withs_around_yield(function.node):
                for item in with_node.items:
                    found |= self.expression(item.item, function.scope, 1 << 62)
            self.provided[key] = frozenset(found)
        return self.provided[key]

    def _autouse(self, scope: Scope) -> Libraries:
        found: Set[str] = set()
        for entries in self.fixtures.values():
            for function, autouse in entries:
                if autouse and function.scope.parent is scope:
                    found |= self._provided(function)
        return frozenset(found)


# The client objects a patch may replace: the catalog's calls and their owners (``requests``,
# ``requests.Session``), and the objects every call of a library goes through.
_CLIENT_OBJECTS = frozenset(
    ".".join(parts[:end]) for parts in (name.split(".") for name in (*CLIENT_CALLS, *_FUNNELS, *_EXTRA_CLIENTS))
    for end in range(1, len(parts) + 1)
)


def _may_leave_first(function: cst.CSTNode) -> bool:
    """Whether a fixture may return before it does anything, on a test of its own at its top
    (``if request.node.get_closest_marker("requests"): return``)."""
    body = function.body.body if isinstance(function, cst.FunctionDef) and isinstance(function.body, cst.IndentedBlock) else ()
    return any(
        isinstance(stmt, cst.If) and any(
            isinstance(small, cst.Return) for line in stmt.body.body if isinstance(line, cst.SimpleStatementLine)
            for small in line.body
        )
        for stmt in body
    )


def _replaced_on(target: cst.BaseExpression) -> Optional[str]:
    """For ``name._session``, ``name._client.request`` (an attribute chain that reaches a client,
    an attribute named for one, or replaces a request method): ``name``."""
    parts: List[str] = []
    while isinstance(target, cst.Attribute):
        parts.append(target.attr.value)
        target = target.value
    if not (isinstance(target, cst.Name) and parts):
        return None
    return target.value if any(_CLIENT_ATTRIBUTE.search(part) for part in parts) or parts[0] in _REQUEST_METHODS else None


def _client_object(name: str) -> Optional[str]:
    """``name`` as a patch replaces it, when it is a client object: a library for a funnel."""
    if "." not in name or name not in _CLIENT_OBJECTS:
        return None
    return _FUNNELS.get(name, name)


def _library_object(target: str) -> Optional[str]:
    """The client object a patch target string replaces: ``"app.http.requests.get"`` →
    ``requests.get`` (``app.http.requests`` is the requests module); None for a name of a
    project module (``"app.http.get"``, ``"app.http.requests"``) or anything else."""
    parts = target.split(".")
    for index in range(len(parts) - 1):
        found = _client_object(canonical_name(".".join(parts[index:])))
        if found is not None:
            return found
    return None


def _start_libraries(name: Optional[str]) -> Libraries:
    if name is None:
        return _NONE
    if name in _STARTS:
        return _STARTS[name]
    for method in (".start", ".__enter__"):  # (``mocker.__enter__()`` in ``setUp`` switches it on too)
        if name.endswith(method):
            return mock_libraries(name[: -len(method)])
    return _NONE


def _withs_around_yield(node: cst.FunctionDef) -> List[cst.With]:
    """The ``with`` blocks of a generator fixture that are still open where it yields."""
    found: List[cst.With] = []
    for inner in iter_nodes(node.body, stop_at=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        if isinstance(inner, cst.With) and any(
            isinstance(n, cst.Yield) for n in iter_nodes(inner.body, stop_at=(cst.FunctionDef, cst.ClassDef, cst.Lambda))
        ):
            found.append(inner)
    return found
