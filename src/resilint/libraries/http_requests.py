"""HTTP requests as the retry rules see them: which calls send which method, where their
headers go, and what makes an idempotency key (the header, the generators of fresh values,
resilint's own key helper)."""

from __future__ import annotations

import re
from functools import partial
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.clients import local_mapping_keys, written_mapping
from resilint.libraries.retry_scopes import RetryScope, code_of, normalise
from resilint.lint.nodes import (
    DEFINITIONS, is_none, keys_set_on, kwargs_name, last_name, statements_in, string_of, written_into,
)
from resilint.libraries.sessions import object_key, receiver_keys
from resilint.lint.semantic import Binding, CallSite, FunctionInfo, Instance, Param, QName, Scope, SemanticModel, argument_for
from resilint.lint.traversal import children, iter_nodes

UNSAFE = ("POST", "PATCH")
KEY_HEADER = "idempotency-key"
CLIENTS = (
    "requests", "requests.Session", "httpx", "httpx.Client", "httpx.AsyncClient", "aiohttp.ClientSession",
    "requests_hardened.HTTPSession", "slumber.Resource",
)
# urllib3's pools: ``request(method, url, ...)`` and ``urlopen(method, url, ...)``
POOLS = ("urllib3.PoolManager", "urllib3.ProxyManager", "urllib3.HTTPConnectionPool", "urllib3.HTTPSConnectionPool")
# method call → its HTTP method
METHOD_CALLS: Dict[str, str] = {
    f"{client}.{verb}": verb.upper() for client in CLIENTS for verb in ("post", "patch")
}
# calls whose first argument (or ``method=``) is the HTTP method → where ``headers`` is positional
REQUEST_CALLS: Dict[str, Optional[int]] = {
    **{f"{client}.request": None for client in CLIENTS},
    "urllib3.request": 4,
    **{f"{pool}.{m}": (4 if m == "request" else 3) for pool in POOLS for m in ("request", "urlopen")},
    "http.client.HTTPConnection.request": 3,
    "http.client.HTTPSConnection.request": 3,
    "requests_hardened.Manager.send_request": None,
    "requests_oauthlib.OAuth2Session.request": 3,  # request(method, url, data, headers, ...)
}
# Classes whose objects send requests: the clients, the pools, and the owners of a method that
# takes the HTTP method (requests-hardened's ``Manager``, ``http.client.HTTPConnection``).
CLIENT_CLASSES = frozenset({*CLIENTS, *POOLS, *(name.rsplit(".", 1)[0] for name in REQUEST_CALLS)})
# SDK calls that create an object with a POST and take the idempotency key as a keyword of
# their own: Stripe's resources (``stripe.Charge.create(..., idempotency_key=key)``,
# ``stripe.checkout.Session.create``) and their nested resources
# (``stripe.Transfer.create_reversal(id, ...)``, ``stripe.Customer.create_source``), whose own
# network retries reuse one key but which a retry around the call repeats with none.
_KEYWORD_KEYED = re.compile(r"stripe\.(?:[a-z_]+\.)*[A-Z]\w*\.create(?:_[a-z_]+)?")
KEY_KEYWORD = "idempotency_key"
CLIENT_WORD = re.compile(r"session|client|http", re.I)
# Web frameworks' test clients: they send to the application under test, in the process or to
# the server the test starts (sanic_testing's ``ReusableClient``), never to a dependency.
FRAMEWORK_TEST_CLIENTS = (
    "sanic_testing.", "starlette.testclient.", "fastapi.testclient.", "flask.testing.", "werkzeug.test.",
    "django.test.", "rest_framework.test.", "aiohttp.test_utils.",
)
RANDOM_KEYS = ("uuid.uuid1", "uuid.uuid4", "secrets.", "random.", "os.urandom", "time.time", "time.monotonic",
                "time.time_ns", "datetime.datetime.now", "datetime.datetime.utcnow", "ulid.", "nanoid.",
                "shortuuid.uuid", "shortuuid.ShortUUID.uuid")
RESILINT_KEYS = ("resilint.runtime.idempotency_key", "resilint.runtime.idempotency.idempotency_key")
# a decorator that makes each call of the function one operation (one key for all its attempts)
OPERATION_DECORATORS = ("resilint.runtime.idempotent_operation", "resilint.runtime.idempotency.idempotent_operation")
IDEMPOTENCY_HEADER_NAMES = ("resilint.runtime.IDEMPOTENCY_HEADER", "resilint.runtime.idempotency.IDEMPOTENCY_HEADER")


def keyword_keyed(name: Optional[str]) -> bool:
    """The call sends its idempotency key as ``idempotency_key=``, not as a header."""
    return name is not None and _KEYWORD_KEYED.fullmatch(name) is not None


def key_name(name: Optional[str]) -> str:
    """What carries the key of a request named ``name``, for messages."""
    return f"`{KEY_KEYWORD}`" if keyword_keyed(name) else "`Idempotency-Key`"


def key_spelling(name: Optional[str]) -> str:
    """A request named ``name`` given no key is sent without this, for messages."""
    return f"`{KEY_KEYWORD}=`" if keyword_keyed(name) else "an `Idempotency-Key` header"


def literal_method(call: cst.Call) -> Optional[str]:
    """The HTTP method of ``request("POST", ...)`` / ``request(method="post", ...)``, upper-cased;
    of a choice written out (``'GET' if use_get else 'POST'``), the unsafe one it may be."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "method":
            return _written_method(arg.value)
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        return _written_method(call.args[0].value)
    return None


def _written_method(expr: cst.BaseExpression) -> Optional[str]:
    if isinstance(expr, cst.IfExp):
        chosen = [_written_method(expr.body), _written_method(expr.orelse)]
        return next((m for m in chosen if m in UNSAFE), None) if None not in chosen else None
    text = string_of(expr)
    return text.upper() if text else None


# ``urlopen(url, data, ...)`` and ``build_opener().open(url, data, ...)``
URLOPENS = ("urllib.request.urlopen", "urllib.request.OpenerDirector.open")
URLLIB_REQUEST = "urllib.request.Request"

# Methods of a client object that take the HTTP method first (``session.request("POST", url)``,
# requests-hardened's ``manager.send_request("POST", url)``).
_METHOD_FIRST = ("request", "send_request")


@dataclass(frozen=True)
class Sent:
    """A request the file sends, or may send, that a retry could repeat unsafely.

    ``method`` is "POST"/"PATCH", or "" when the enclosing function's parameter ``method_from``
    decides it (``session.request(method, ...)``, ``getattr(session, verb.lower())(...)``);
    ``receiver``: the object it is sent on, when only the project pass can tell whether it is
    an HTTP client (an attribute set in another module, a parameter)."""

    method: str
    name: str
    position: Optional[int]  # the positional index of ``headers``
    method_from: Optional[str] = None
    receiver: Optional[str] = None


@dataclass(frozen=True)
class Unsafe:
    """A request of a function that a retry around it would repeat, with what its key is:
    ``status`` "missing" | "unstable" | "forwarded" (the caller's ``**kwargs`` decide) | "via"
    (the headers come from the project function ``key_from``) | "param" (the key, or the
    headers, are the function's parameter ``key_from``)."""

    call: CallSite
    sent: Sent
    status: str
    detail: str
    key_from: Optional[str] = None


class RequestFinder:
    """What a file's POST/PATCH calls send: their method, and whether their idempotency key is
    missing, stable, or made anew on every attempt (``uuid4()`` inside the retried code)."""

    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        # (id(expr), id(scope), order, resilint_scope, depth) → ``generator``'s answer: a helper's
        # returns are read for every call of it
        self._generators: Dict[Tuple[int, int, int, bool, int], Optional[str]] = {}

    # --- what the call sends ---------------------------------------------------------------

    def method(self, call: CallSite) -> Optional[Tuple[str, str, Optional[int]]]:
        """(HTTP method, display name, positional index of headers) of a POST/PATCH call (not
        an OAuth token request: ``sent``)."""
        if self._token_request(call):
            return None
        node = call.node
        name = normalise(self.model.call_name(call))
        func = node.func
        if name in METHOD_CALLS:
            return METHOD_CALLS[name], name, None
        chosen = next((n for n in map(normalise, self.model.call_names(call)[1:]) if n in METHOD_CALLS), None)
        if chosen is not None and isinstance(func, cst.Name):
            # ``send = session.get`` / ``if body: send = session.post`` / ``send(url, ...)``: the
            # POST it may be
            return METHOD_CALLS[chosen], chosen, None
        if name is not None and keyword_keyed(name):
            return "POST", name, None
        if name in URLOPENS:
            verb = self._urlopen_method(call)
            return (verb, name, None) if verb in UNSAFE else None
        if name in REQUEST_CALLS:
            verb = literal_method(node)
            return (verb, name, REQUEST_CALLS[name]) if verb in UNSAFE else None
        if not isinstance(func, cst.Attribute) or func.attr.value not in ("post", "patch", "request"):
            return None
        attr = func.attr.value
        receiver = func.value
        receiver_text = last_name(receiver)
        resolved = self.model.resolve(receiver, call.scope, call.order)
        if resolved is not None and name is not None and not name.startswith(self.model.module_name or "\0"):
            # a known object of another library: only the tables above count, unless the name
            # itself looks like an HTTP client of a project (myapp.http.client.post)
            if not CLIENT_WORD.search(name.rsplit(".", 2)[-2] if name.count(".") else "") or name.startswith(FRAMEWORK_TEST_CLIENTS):
                return None
        elif resolved is not None:
            return None
        if not receiver_text or not CLIENT_WORD.search(receiver_text):
            return None
        if attr in ("post", "patch"):
            return attr.upper(), f"{code_of(func, 40)}", None
        if attr == "request":
            verb = literal_method(node)
            return (verb, code_of(func, 40), None) if verb in UNSAFE else None
        return None

    def unsafe_requests(self, function: FunctionInfo, calls: Optional[Sequence[CallSite]] = None) -> Iterator[Unsafe]:
        """The requests made directly by ``function`` that a retry of the function would repeat
        unsafely, or may repeat once the project pass knows what its callers pass (the method,
        the key) or what another module's helper puts in the headers. ``calls``: those of a
        lambda written in it instead of its own."""
        for call in self.model.calls_in(function.scope) if calls is None else calls:
            sent = self.sent(call, function)
            if sent is None:
                continue
            status, detail = self.key_status(call, None, sent.position, function)
            key_from: Optional[str] = None
            if status == "unknown":
                if _forwards_own_kwargs(call, function, sent.position):
                    status = "forwarded"  # the caller's keyword arguments decide: judged where it is called
                else:
                    status, key_from = self.key_source(call, sent.position, function)
            elif status == "ok":
                status, key_from = self.key_source(call, sent.position, function)
            if status in ("missing", "unstable", "forwarded", "via", "param"):
                yield Unsafe(call, sent, status, detail, key_from)

    def _receivers(self, expr: cst.BaseExpression, call: CallSite) -> Iterator[object]:
        """What a request's object may be, a parameter's value read from this file's calls."""
        for value in self.model.resolve_all(expr, call.scope, call.order):
            if isinstance(value, Param):
                yield from self.model.passed_here(value)
            else:
                yield value

    def sent(self, call: CallSite, function: FunctionInfo) -> Optional[Sent]:
        """What ``call`` (in ``function``) sends, if it may be a POST or a PATCH; not an OAuth
        token request (a body with ``grant_type``), which only mints a token: sent again, it
        mints another (or is refused), and repeats no effect."""
        found = self.method(call)  # (which leaves token requests out itself)
        if found is not None:
            return Sent(*found)
        if self._token_request(call):
            return None
        node = call.node
        func = node.func
        if isinstance(func, cst.Name):  # ``send = getattr(self.session, method.lower()); send(url)``
            assigned = self.model.assigned_expression(func, call.scope, call.order)
            func = assigned if isinstance(assigned, cst.Call) else func
        if isinstance(func, cst.Call) and normalise(self.model.qualified_name(func.func, call.scope, call.order)) == "builtins.getattr":
            return self._getattr_request(func, call, function)
        name = normalise(self.model.call_name(call))
        if name in REQUEST_CALLS:
            method = self._method_argument(node, call)
            if method is not None:
                return Sent("", name, REQUEST_CALLS[name], method_from=method)
            return None
        if isinstance(func, cst.Attribute) and func.attr.value in ("post", "patch", *_METHOD_FIRST):
            return self._project_receiver(func, call)
        return None

    def _token_request(self, call: CallSite) -> bool:
        """A request whose form or JSON body has a ``grant_type`` key (``token_body``), given as
        ``data=``/``json=`` or, to a ``post``/``patch`` method, second (``session.post(url, data)``)."""
        func = call.node.func
        body = _passed(call.node, 1, "data") if isinstance(func, cst.Attribute) and func.attr.value in ("post", "patch") else None
        return any(
            arg.keyword is not None and arg.keyword.value in ("data", "json") and self.token_body(arg.value, call)
            for arg in call.node.args
        ) or (body is not None and self.token_body(body, call))

    def token_body(self, value: cst.BaseExpression, call: CallSite) -> bool:
        """An OAuth token request's body, written out at ``call`` or in the name it passes: a
        dict with a ``grant_type`` key (``data={"grant_type": "refresh_token", ...}``, or the key
        set on the name in its function, ``data["grant_type"] = "refresh_token"``), also as the
        JSON text of one (``json.dumps(data)``)."""
        value = sent_body(self.model, value, call)
        if (isinstance(value, cst.Name) and (self.model.text is None or "grant_type" in self.model.text)
                and _sets_key(call.scope, value.value, "grant_type")):
            return True
        if isinstance(value, cst.Name) and call.scope.node is not None and _signs_in(call) and any(
            _PASSWORD_KEY.search(key) for key, _ in keys_set_on(call.scope.node, value.value)
        ):
            return True  # ``data = {}``, ``data["password"] = self.password``, posted by ``login()``
        body = self.model.followed(value, call.scope, call.order)
        if isinstance(value, cst.Name) and any(n is call.node for n in iter_nodes(body)):
            # ``data = {...}`` (on each branch), then ``data = self.request_json(..., data=data)``:
            # the body is what the name holds before the statement assigns it the answer
            reaching = self.model.reaching(value.value, call.scope, call.order)
            before = self.model.reaching(value.value, call.scope, reaching[-1].order) if len(reaching) == 1 else ()
            if before and all(binding.expr is not None for binding in before):
                return all(self._token_form(binding.expr, call) for binding in before)  # type: ignore[arg-type]
        return self._token_form(body, call)

    @staticmethod
    def _token_form(body: cst.BaseExpression, call: CallSite) -> bool:
        if isinstance(body, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.BinaryOperation)):
            # a form written as text (``"grant_type=client_credentials&scope=..."``)
            return any(
                isinstance(part, (cst.SimpleString, cst.FormattedStringText)) and "grant_type=" in part.value
                for part in iter_nodes(body)
            )
        if isinstance(body, cst.Call) and isinstance(body.func, cst.Name) and body.func.value == "dict":
            keys = [arg.keyword.value for arg in body.args if arg.keyword is not None]  # ``dict(email=..., password=...)``
        elif isinstance(body, cst.Dict):
            keys = [string_of(element.key) or "" for element in body.elements if isinstance(element, cst.DictElement)]
        else:
            return False
        # a sign-in form (``{"email": username, "password": password}`` posted to
        # ``/login_int.php`` by ``_login_impl``) mints a session as a token request mints a token
        return "grant_type" in keys or (any(_PASSWORD_KEY.search(key) for key in keys) and _signs_in(call))

    def _method_argument(self, node: cst.Call, call: CallSite) -> Optional[str]:
        """The parameter of the enclosing function that ``request(method, ...)`` sends as its
        method, if the method is one."""
        argument = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "method"), None)
        if argument is None and node.args and node.args[0].keyword is None and not node.args[0].star:
            argument = node.args[0].value
        return _parameter_read(self.model, argument, call) if argument is not None else None

    def _getattr_request(self, func: cst.Call, call: CallSite, function: FunctionInfo) -> Optional[Sent]:
        """``getattr(session, method.lower())(url, ...)``: a request by the method a constant or
        a parameter names."""
        args = func.args
        if len(args) < 2 or any(a.star or a.keyword for a in args[:2]):
            return None
        parameter = _parameter_read(self.model, args[1].value, call)
        if parameter is None:
            return None
        values = self.model.resolve_all(args[0].value, call.scope, call.order)
        client = next((n for n in (normalise(self.model.type_name(v)) for v in values) if n in CLIENTS), None)
        if client is not None:
            return Sent("", f"{client}.<method>", None, method_from=parameter)
        # an object only the project can tell is a client (``session or get_session()``)
        ordered = sorted(values, key=lambda v: isinstance(v, Param))  # what the file makes first
        receiver = next(filter(None, (self._chain(v) for v in ordered)), None)
        if receiver is None and not CLIENT_WORD.search(last_name(args[0].value) or ""):
            return None
        return Sent("", f"{code_of(args[0].value, 30)}.<method>", None, method_from=parameter, receiver=receiver)

    def _chain(self, value: object) -> Optional[str]:
        """The name the project pass reads an object by."""
        if isinstance(value, Instance):
            return self.model.type_name(value)
        if isinstance(value, (Param, QName)):
            return self.model.name_of(value)
        return None

    def _project_receiver(self, func: cst.Attribute, call: CallSite) -> Optional[Sent]:
        """``self.events.post(...)`` on an object only the project pass can tell (a class
        attribute set in another module, what a parameter holds)."""
        names = [n for n in self.model.call_names(call) if n.endswith("." + func.attr.value)]
        # what the file makes first, a parameter's callers' objects last (``session or build()``)
        receivers = sorted((n.rsplit(".", 1)[0] for n in names), key=lambda n: "(" in n)
        if not receivers or normalise(self.model.type_name(self.model.resolve(func.value, call.scope, call.order))) in CLIENTS:
            return None
        if func.attr.value in _METHOD_FIRST:
            method = literal_method(call.node)
            if method in UNSAFE:
                return Sent(method, code_of(func, 40), None, receiver=receivers[0])
            parameter = self._method_argument(call.node, call)
            return Sent("", code_of(func, 40), None, method_from=parameter, receiver=receivers[0]) if parameter else None
        return Sent(func.attr.value.upper(), code_of(func, 40), None, receiver=receivers[0])

    def key_source(self, call: CallSite, position: Optional[int], function: FunctionInfo) -> Tuple[str, Optional[str]]:
        """Where a request's key comes from when the file alone cannot judge it: ("via",
        helper) when the headers are what a project function returns, ("param", name) when
        they (or the key in them) are a parameter of ``function``; ("unknown", None) else."""
        headers = _headers_argument(call.node, position)
        if headers is None:
            return "unknown", None
        return self.headers_source(headers, call)

    def passed_headers(self, headers: cst.BaseExpression, call: CallSite) -> Tuple[str, Optional[str]]:
        """What headers passed to a project function (which sends them on) say of the key:
        "missing", "unstable", "ok", or where it comes from ("param"/"via", name)."""
        found = self.find_key(headers, call.scope, call.order, call)
        if found is False:
            return "missing", None
        if found is not None and self.generator(found, call.scope, call.order, False) is not None:
            return "unstable", None
        return self.headers_source(headers, call)

    def headers_source(self, headers: cst.BaseExpression, call: CallSite, depth: int = 0) -> Tuple[str, Optional[str]]:
        merged = self._find_key(headers, call.scope, call.order, call)
        if isinstance(merged, _Merged) and merged.own is False:
            # ``merged = self._auth(); merged.update(headers)``, the own part without a key:
            # the key is what the caller passes
            return "param", merged.parameter
        value = self._key_expression(headers, call)
        if value is not None:
            parameter = _parameter_read(self.model, value, call)
            if parameter is not None:
                return "param", parameter
            maker = self._key_maker(value, call)
            return ("via", maker) if maker is not None else ("ok", None)
        parameter = _parameter_read(self.model, headers, call)
        if parameter is not None:
            return "param", parameter
        carrier = self._merged_carrier(headers, call) if depth < 5 else None
        if carrier is not None:  # (``headers = {**headers, ...}``: the same name again)
            return self.headers_source(carrier, call, depth + 1)
        source = self._header_source(headers, call.scope, call.order)
        return ("via", source) if source is not None else ("unknown", None)

    def _merged_carrier(self, headers: cst.BaseExpression, call: CallSite) -> Optional[cst.BaseExpression]:
        """Of headers merged from several mappings (``{**self._headers(), **(headers or {})}``),
        the one that may carry the key when every other surely lacks it (``headers``)."""
        merged = self.model.followed(headers, call.scope, call.order)
        if not isinstance(merged, cst.Dict) or any(isinstance(e, cst.DictElement) and (
            self.header_name(e.key, call.scope, call.order) or "").lower() == KEY_HEADER for e in merged.elements
        ):
            return None
        open_parts = [
            e.value for e in merged.elements
            if isinstance(e, cst.StarredDictElement) and self.find_key(e.value, call.scope, call.order, call) is not False
        ]
        if len(open_parts) != 1:
            return None
        part = open_parts[0]
        if isinstance(part, cst.BooleanOperation) and isinstance(part.operator, cst.Or) and isinstance(part.right, cst.Dict) \
                and not part.right.elements:
            part = part.left  # ``headers or {}``
        return part

    def _header_source(self, expr: cst.BaseExpression, scope: Scope, order: int, depth: int = 0) -> Optional[str]:
        """The project object the headers are built from, when the file cannot read it: a
        helper another module defines (``auth_headers(token)``), or another module's mapping
        (``dict(DEFAULT_HEADERS)``, ``{**DEFAULT_HEADERS, ...}``)."""
        if depth > 5:
            return None
        model = self.model
        if isinstance(expr, cst.Call):
            name = model.qualified_name(expr.func, scope, order)
            if name in _MAPPING_TYPES:
                inner = [a.value for a in expr.args if a.keyword is None and not a.star]
                return self._header_source(inner[0], scope, order, depth + 1) if len(inner) == 1 else None
            return name if name is not None and not name.startswith("builtins.") else None
        if isinstance(expr, cst.Dict):
            # one mapping merged in: its source; more (``{**self._headers(), **(headers or {})}``):
            # the key may come from any of them
            starred = [element for element in expr.elements if isinstance(element, cst.StarredDictElement)]
            return self._header_source(starred[0].value, scope, order, depth + 1) if len(starred) == 1 else None
        if isinstance(expr, cst.Name):
            binding = model.lookup(expr.value, scope, order)
            if binding is None:
                return None
            if binding.imported is not None:
                return model.qualified_name(expr, scope, order)
            if binding.expr is not None:
                return self._header_source(binding.expr, binding.scope, binding.order, depth + 1)
        return None

    def _key_maker(self, value: cst.BaseExpression, call: CallSite) -> Optional[str]:
        """The function of another module that makes the key at the request (``new_key()``, also
        in ``str(...)``): whether it makes a new one on every call is for the project pass."""
        if isinstance(value, cst.Call) and len(value.args) == 1 and self.model.qualified_name(value.func, call.scope, call.order) == "builtins.str":
            value = value.args[0].value
        if not isinstance(value, cst.Call) or isinstance(self.model.resolve(value.func, call.scope, call.order), FunctionInfo):
            return None
        name = self.model.qualified_name(value.func, call.scope, call.order)
        return name if name is not None and not name.startswith("builtins.") else None

    def _key_expression(self, headers: cst.BaseExpression, call: CallSite) -> Optional[cst.BaseExpression]:
        found = self.find_key(headers, call.scope, call.order, call)
        return found if found not in (None, False) else None

    def returned_headers(self, function: FunctionInfo) -> Optional[str]:
        """What the headers a helper returns say of the key: "missing", "stable", "unstable"
        (made anew by each call), "param:NAME" (a parameter's value), or None when it returns
        no header mapping the file can read; "unstable" too for a helper that returns a key made
        anew (``str(uuid.uuid4())``)."""
        if function.returns and all(
            not isinstance(expr, cst.Dict) and self.generator(expr, function.scope, 1 << 62, False) is not None
            for expr in function.returns
        ):
            return "unstable"
        found: Optional[str] = None
        for expr in function.returns:
            key = self._find_key(expr, function.scope, 1 << 62, None)  # type: ignore[arg-type]
            if isinstance(key, _Merged):
                # the key is in the mapping the caller passes, if any: the caller's to judge
                key = key.own if key.own is not False else key
            if key is None:
                return None
            if isinstance(key, _Merged):
                status = f"merge:{key.parameter}"
            elif key is False:
                status = "missing"
            else:
                parameter = _parameter_read(self.model, key, None, function.scope)
                if parameter is not None:
                    status = f"param:{parameter}"
                elif self.generator(key, function.scope, 1 << 62, False) is not None:
                    status = "unstable"
                else:
                    status = "stable"
            if found is not None and found != status:
                return None
            found = status
        return found

    # --- the idempotency key -----------------------------------------------------------------

    def key_status(
        self, call: CallSite, scope: Optional[RetryScope], position: Optional[int],
        helper: Optional[FunctionInfo] = None,
    ) -> Tuple[str, str]:
        """("ok" | "missing" | "unstable" | "unknown", detail)."""
        node = call.node
        name = normalise(self.model.call_name(call))
        if keyword_keyed(name):
            return self._keyword_key_status(call, scope, helper)
        if name in URLOPENS:
            return self._urlopen_key_status(call, scope, helper)
        headers: Optional[cst.BaseExpression] = None
        star = False
        positional = 0
        for arg in node.args:
            if arg.star == "**":
                # a local dict written out whose keys are known: its ``headers`` entry, if any
                keys = local_mapping_keys(arg.value.value, self.model, call.scope) if isinstance(arg.value, cst.Name) else None
                written = unpacked_headers(arg.value.value, self.model, call.scope) if keys and "headers" in keys else None
                if written is not None:  # ``kwargs = {"headers": self.headers}`` … ``**kwargs``
                    headers = written
                    continue
                star = star or keys is None or "headers" in keys
            elif arg.star == "*":
                star = star or position is not None  # ``*args`` fills only positional parameters
            elif arg.keyword is not None:
                if arg.keyword.value == "headers":
                    headers = arg.value
            else:
                if position is not None and positional == position:
                    headers = arg.value
                positional += 1
        if headers is None:
            if star:
                return "unknown", ""
            if isinstance(node.func, cst.Attribute) and any(
                isinstance(v, Instance) and session_has_key(self.model, v)
                for v in self._receivers(node.func.value, call)
            ):
                return "ok", ""  # the session's own headers carry it, on every request
            return "missing", ""
        found = self.find_key(headers, call.scope, call.order, call)
        if found is None:
            return "unknown", ""
        if found is False:
            return "missing", ""
        return self.stability(found, call, scope, helper)

    def _urllib_request(self, call: CallSite) -> Optional[CallSite]:
        """The ``urllib.request.Request(...)`` an ``urlopen`` call opens: written out, in a name,
        or made and returned by a function of the file (``req = self._create_request(url)``)."""
        opened = _opened(call.node)
        if opened is None:
            return None
        built = self.model.followed(opened, call.scope, call.order)
        if isinstance(built, cst.Call) and self.model.qualified_name(built.func, call.scope, call.order) == URLLIB_REQUEST:
            return self.model.call_site(built)
        for value in self.model.resolve_all(opened, call.scope, call.order):
            made = self.model.call_site(value.site) if isinstance(value, Instance) and value.site is not None else None
            if made is not None and self.model.call_name(made) == URLLIB_REQUEST:
                return made
        return None

    def _request_names(self, call: CallSite, request: CallSite) -> Iterator[Tuple[Scope, str]]:
        """The names a ``Request`` goes by where it is made and where ``urlopen`` opens it."""
        opened = _opened(call.node)
        if isinstance(opened, cst.Name):
            yield call.scope, opened.value
        if request.scope is not call.scope:
            for name in _names_assigned(request.scope, request.node):
                yield request.scope, name

    def _urlopen_method(self, call: CallSite) -> Optional[str]:
        """The method ``urlopen`` sends: the ``Request``'s ``method=``, else POST when it or the
        call carries a body (``data``, also ``req.data = ...``), else GET; None when it cannot be read."""
        made = self._urllib_request(call)
        request = made.node if made is not None else None
        data = _passed(call.node, 1, "data")
        if made is not None and request is not None:
            given = next((a.value for a in request.args if a.keyword is not None and a.keyword.value == "method"), None)
            if given is not None:
                return _written_method(given)
            data = data or _passed(request, 1, "data") or next(
                (found for scope, name in self._request_names(call, made)
                 for found in [_attribute_assigned(scope, name, "data")] if found is not None), None,
            )
        elif any(arg.star for arg in call.node.args) or not self._opens_url(call):
            return "POST" if data is not None and not is_none(data) else None  # (a ``Request`` handed in)
        return "POST" if data is not None and not is_none(data) else "GET"

    def _opens_url(self, call: CallSite) -> bool:
        """Whether ``urlopen`` is given a URL written as text, which carries no headers."""
        opened = _opened(call.node)
        url = self.model.followed(opened, call.scope, call.order) if opened is not None else None
        return isinstance(url, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))

    def _urlopen_key_status(
        self, call: CallSite, scope: Optional[RetryScope], helper: Optional[FunctionInfo],
    ) -> Tuple[str, str]:
        """``key_status`` of an ``urlopen`` call, whose headers are its ``Request``'s (``headers=``,
        or ``add_header`` on it); a URL opened as it is carries none."""
        made = self._urllib_request(call)
        if made is None:
            # a URL opened as it is carries no headers; a parameter may be a ``Request``
            return ("missing", "") if self._opens_url(call) else ("unknown", "")
        request = made.node
        if any(arg.star for arg in request.args) or any(_header_added(scope, name) for scope, name in self._request_names(call, made)):
            return "unknown", ""
        headers = _passed(request, 2, "headers")
        if headers is None:
            return "missing", ""
        found = self.find_key(headers, made.scope, made.order, made)
        if found is None or (found is not False and made.scope is not call.scope):
            return "unknown", ""  # (a key a helper writes into the request: whether it stays the same is not read)
        return ("missing", "") if found is False else self.stability(found, call, scope, helper)

    def _keyword_key_status(
        self, call: CallSite, scope: Optional[RetryScope], helper: Optional[FunctionInfo],
    ) -> Tuple[str, str]:
        """``key_status`` of a call given its key as ``idempotency_key=``."""
        given = next((a.value for a in call.node.args if a.keyword is not None and a.keyword.value == KEY_KEYWORD), None)
        if given is None:
            return ("unknown", "") if any(a.star == "**" for a in call.node.args) else ("missing", "")
        if is_none(given):
            return "missing", ""
        return self.stability(given, call, scope, helper)

    def find_key(self, expr: cst.BaseExpression, scope: Scope, order: int, call: CallSite, depth: int = 0):
        """The key's value expression, False when the headers surely lack it, None if unknown."""
        found = self._find_key(expr, scope, order, call, depth)
        return None if isinstance(found, _Merged) else found

    def _find_key(self, expr: cst.BaseExpression, scope: Scope, order: int, call: CallSite, depth: int = 0):
        """``find_key``, or a ``_Merged`` for headers that merge in a mapping parameter of the
        function that builds them (``headers.update(extra)``)."""
        if depth > 5:
            return None
        if is_none(expr):
            return False
        if isinstance(expr, cst.IfExp):
            # ``{"Idempotency-Key": key} if key else None``: the key, when there is one to send
            sides = [self._find_key(side, scope, order, call, depth + 1) for side in (expr.body, expr.orelse)]
            if any(side is None or isinstance(side, _Merged) for side in sides):
                return None
            return next((side for side in sides if side is not False), False)
        if isinstance(expr, cst.Dict):
            unknown = False
            for element in expr.elements:
                if isinstance(element, cst.StarredDictElement):
                    inner = self.find_key(element.value, scope, order, call, depth + 1)
                    if inner is None:
                        unknown = True
                    elif inner is not False:
                        return inner
                    continue
                header = self.header_name(element.key, scope, order)
                if header is None:
                    unknown = True
                elif header.lower() == KEY_HEADER:
                    return element.value
            return None if unknown else False
        if isinstance(expr, cst.Call):
            callee = self.model.resolve(expr.func, scope, order)
            name = self.model.name_of(callee)
            if name in _MAPPING_TYPES and not any(a.star for a in expr.args):
                positional = [a.value for a in expr.args if a.keyword is None]
                keywords = [a for a in expr.args if a.keyword is not None]
                if any(a.keyword.value.lower().replace("_", "-") == KEY_HEADER for a in keywords):  # type: ignore[union-attr]
                    return next(a.value for a in keywords if a.keyword.value.lower().replace("_", "-") == KEY_HEADER)  # type: ignore[union-attr]
                results = [self.find_key(p, scope, order, call, depth + 1) for p in positional]
                if any(r not in (None, False) for r in results):
                    return next(r for r in results if r not in (None, False))
                return None if None in results else False
            if isinstance(callee, FunctionInfo) and callee.returns:
                # a helper of this file that builds the headers: what all its returns say, with
                # what this call passes it to merge in
                return _joined([
                    self._passed_mapping(found, expr, callee, scope, order, call, depth) if isinstance(found, _Merged) else found
                    for found in (self._find_key(r, callee.scope, 1 << 62, call, depth + 1) for r in callee.returns)
                ])
            return None
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
            return self._instance_headers(expr.attr.value, scope, call, depth)
        if isinstance(expr, cst.Name):
            binding = self.model.lookup(expr.value, scope, order)
            if binding is None or (binding.expr is None and binding.unpacked is None):
                return None
            # later writes to the same dict in the function: headers["Idempotency-Key"] = key
            mutated = self.mutations(expr.value, scope, depth + 1)
            if mutated is _UNREADABLE:
                return None
            held = (
                self.find_key(binding.expr, binding.scope, binding.order, call, depth + 1) if binding.expr is not None
                else self._unpacked_key(binding, call, depth)
            )
            if isinstance(mutated, _Merged):
                return _Merged(mutated.parameter, held)
            return mutated if mutated is not None else held
        return None

    def _unpacked_key(self, binding: Binding, call: CallSite, depth: int):
        """``params, headers = get_params_and_headers(params)``: what that element of every
        tuple a helper of the file returns says of the key."""
        made, index, count = binding.unpacked  # type: ignore[misc]
        callee = self.model.resolve(made.func, binding.scope, binding.order) if isinstance(made, cst.Call) else None
        if not isinstance(callee, FunctionInfo) or not callee.returns:
            return None
        results = []
        for returned in callee.returns:
            elements = returned.elements if isinstance(returned, cst.Tuple) else None
            if elements is None or len(elements) != count or isinstance(elements[index], cst.StarredElement):
                return None
            results.append(self.find_key(elements[index].value, callee.scope, 1 << 62, call, depth + 1))
        return _joined(results)

    def _instance_headers(self, attribute: str, scope: Scope, call: CallSite, depth: int):
        """``headers=self.headers``: what every assignment of the attribute in its class holds
        (``self.headers = {"Accept": ...}`` in ``__init__``), when no method changes the dict
        in place (``self.headers["Idempotency-Key"] = key``, ``self.headers.update(...)``); or
        what every ``return`` of the class's property of that name builds."""
        function = scope.enclosing_function
        owner = function.owner if function is not None else None
        bindings = owner.instance_attributes.get(attribute) if owner is not None else None
        getter = self.model.property_of(owner, attribute) if owner is not None and not bindings else None
        if getter is not None and getter.returns:
            # ``headers=self._headers`` with ``@property def _headers(self): return {...}``
            results = [self.find_key(r, getter.scope, 1 << 62, call, depth + 1) for r in getter.returns]
        elif not bindings or owner is None or written_into(owner.node, partial(_self_attribute, attribute=attribute)):
            return None
        else:
            results = [
                self.find_key(b.expr, b.scope, b.order, call, depth + 1) if b.expr is not None else None for b in bindings
            ]
        if any(result is None for result in results):
            return None
        keys = [result for result in results if result is not False]
        return keys[0] if keys else False

    def _passed_mapping(
        self, merged: "_Merged", node: cst.Call, callee: FunctionInfo, scope: Scope, order: int, call: CallSite, depth: int,
    ):
        """The key of headers a helper builds and merges the mapping parameter into: the one in
        the mapping ``node`` passes there, else the helper's own."""
        argument = argument_for(node, callee, merged.parameter)
        if argument is None:
            return merged.own
        passed = self.find_key(argument, scope, order, call, depth + 1)
        return merged.own if passed is False else passed

    def header_name(self, key: cst.BaseExpression, scope: Scope, order: int) -> Optional[str]:
        text = string_of(key)
        if text is not None:
            return text
        name = self.model.qualified_name(key, scope, order)
        if name in IDEMPOTENCY_HEADER_NAMES:
            return "Idempotency-Key"
        assigned = self.model.assigned_expression(key, scope, order) if isinstance(key, cst.Name) else None
        if assigned is not None:
            return string_of(assigned)
        if name is not None and "." in name and not _MAY_NAME_KEY.search(name.rsplit(".", 1)[-1]):
            # another module's constant, named for another header (``SIGNATURE_HEADER``)
            return f"<{name}>"
        return None

    def mutations(self, name: str, scope: Scope, depth: int = 0):
        """A key written into the dict after it was built: subscript assignment, update,
        setdefault; ``_UNREADABLE`` when a write the file cannot read may add it."""
        for other in self.model.calls_in(scope):
            func = other.node.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name:
                if func.attr.value == "update" and other.node.args:
                    merged = _merged_parameter(other.node.args[0].value, scope)
                    if merged is not None:
                        return _Merged(merged, None)
                    found = self.find_key(other.node.args[0].value, other.scope, other.order, other, max(depth, 4) + 1)
                    if found not in (None, False):
                        return found
                    if found is None:
                        return _UNREADABLE
                if func.attr.value == "setdefault" and len(other.node.args) >= 2:
                    header = self.header_name(other.node.args[0].value, other.scope, other.order)
                    if header is not None and header.lower() == KEY_HEADER:
                        return other.node.args[1].value
        for target, value in _subscript_assignments(scope.node, name):
            header = self.header_name(target, scope, 1 << 62)
            if header is None:
                return _UNREADABLE
            if header.lower() == KEY_HEADER:
                return value
        return None

    def stability(
        self, value: cst.BaseExpression, call: CallSite, scope: Optional[RetryScope], helper: Optional[FunctionInfo]
    ) -> Tuple[str, str]:
        resilint_scope = scope is not None and (scope.library == "resilint" or self.operation_outside(scope))
        generator = self.generator(value, call.scope, call.order, resilint_scope)
        if generator is not None:
            return "unstable", generator  # evaluated by every attempt
        if isinstance(value, cst.Name):
            binding = self.model.lookup(value.value, call.scope, call.order)
            if binding is None or binding.expr is None:
                return "ok", ""
            inside = False
            if helper is not None:
                inside = binding.scope is helper.scope
            elif scope is not None and isinstance(scope.covers, (cst.FunctionDef,)):
                inside = binding.scope is self.model.scope_of.get(scope.covers)
            elif scope is not None and isinstance(scope.covers, (cst.For, cst.While)):
                inside = value.value in _names_assigned_in(scope.covers)
            if inside:
                generator = self.generator(binding.expr, binding.scope, binding.order, resilint_scope)
                if generator is not None:
                    return "unstable", f"`{value.value} = {generator.strip('`')}`"
        return "ok", ""

    def operation_outside(self, scope: RetryScope) -> bool:
        """The retried function is decorated with ``idempotent_operation`` outside (above) the
        retry decorator: resilint's ``idempotency_key()`` in it is one key per call, the same on
        every attempt."""
        function = scope.function
        if scope.kind != "decorator" or function is None or not isinstance(scope.node, cst.Decorator):
            return False
        outer = function.scope.parent or function.scope
        for decorator in function.decorators:
            if decorator is scope.node:
                return False
            name = normalise(self.model.qualified_name(decorator.decorator, outer, 1 << 62))
            if name in OPERATION_DECORATORS:
                return True
        return False

    def generator(
        self, expr: cst.BaseExpression, scope: Scope, order: int, resilint_scope: bool, depth: int = 0,
    ) -> Optional[str]:
        """The random-key call in ``expr`` (``uuid.uuid4()``), if any, also in what a helper of
        the file it calls returns (``new_key()``)."""
        key = (id(expr), id(scope), order, resilint_scope, depth)
        if key not in self._generators:
            self._generators[key] = self._generator(expr, scope, order, resilint_scope, depth)
        return self._generators[key]

    def _generator(self, expr: cst.BaseExpression, scope: Scope, order: int, resilint_scope: bool, depth: int) -> Optional[str]:
        stack: List[cst.CSTNode] = [expr]
        while stack:
            node = stack.pop()
            kind = node.__class__  # a class test: LibCST's node classes are ABCs, slow to isinstance
            if kind is cst.Call:
                name = normalise(self.model.qualified_name(node.func, scope, order)) or ""
                if name.startswith(RANDOM_KEYS) or (name in RESILINT_KEYS and not resilint_scope):
                    return f"`{code_of(node, 40)}`"
                helper = self.model.resolve(node.func, scope, order) if depth < 3 else None
                if isinstance(helper, FunctionInfo) and any(
                    self.generator(returned, helper.scope, 1 << 62, resilint_scope, depth + 1) for returned in helper.returns
                ):
                    return f"`{code_of(node, 40)}`"
            if kind is cst.Lambda:
                continue
            stack.extend(children(node))
        return None


# The name of a constant of another module that may hold the idempotency key's header name.
_MAY_NAME_KEY = re.compile(r"idempot|dedup", re.I)
# A write into a header mapping whose key the file cannot read (``headers.update(extra)``).
_UNREADABLE = object()


@dataclass(frozen=True)
class _Merged:
    """Headers a function builds and then merges its mapping ``parameter`` into
    (``headers.update(extra)``); ``own``: what ``find_key`` says of them without it."""

    parameter: str
    own: object


def _self_attribute(node: cst.BaseExpression, attribute: str) -> bool:
    return (isinstance(node, cst.Attribute) and node.attr.value == attribute
            and isinstance(node.value, cst.Name) and node.value.value == "self")


def _merged_parameter(value: cst.BaseExpression, scope: Scope) -> Optional[str]:
    """The parameter of the function of ``scope`` that ``value`` names, if it names one."""
    node = scope.node
    if not isinstance(value, cst.Name) or not isinstance(node, cst.FunctionDef):
        return None
    params = node.params
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    return value.value if value.value in names else None


# Mappings made from a dict's items and keywords, as headers are (requests' case-insensitive
# one keeps every key it is given).
_MAPPING_TYPES = frozenset({"builtins.dict", "requests.structures.CaseInsensitiveDict"})


def _headers_argument(node: cst.Call, position: Optional[int]) -> Optional[cst.BaseExpression]:
    positional = 0
    for arg in node.args:
        if arg.keyword is not None:
            if arg.keyword.value == "headers":
                return arg.value
        elif not arg.star:
            if position is not None and positional == position:
                return arg.value
            positional += 1
    return None


def _parameter_read(
    model: SemanticModel, expr: Optional[cst.BaseExpression], call: Optional[CallSite], scope: Optional[Scope] = None,
) -> Optional[str]:
    """The parameter of the enclosing function that ``expr`` reads (``method``,
    ``method.lower()``, ``str(key)``), if it reads one."""
    if expr is None:
        return None
    while isinstance(expr, cst.Call) and not expr.args and isinstance(expr.func, cst.Attribute) \
            and expr.func.attr.value in ("lower", "upper"):
        expr = expr.func.value
    if isinstance(expr, cst.Call) and len(expr.args) == 1 and isinstance(expr.func, cst.Name) and expr.func.value == "str":
        expr = expr.args[0].value
    if not isinstance(expr, cst.Name):
        return None
    where = call.scope if call is not None else scope
    order = call.order if call is not None else 1 << 62
    if where is None:
        return None
    for value in model.resolve_all(expr, where, order):
        if isinstance(value, Param):
            return value.name
    # an annotated parameter (``method: Method``) holds what the caller passes, whatever its type
    reaching = model.reaching(expr.value, where, order)
    if len(reaching) == 1 and reaching[0].parameter is not None:
        return reaching[0].parameter.name
    return None


def _subscript_assignments(body: cst.CSTNode, name: str) -> Iterator[Tuple[cst.BaseExpression, cst.BaseExpression]]:
    for node in statements_in(body):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                t = target.target
                if (isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and t.value.value == name
                        and len(t.slice) == 1 and isinstance(t.slice[0].slice, cst.Index)):
                    yield t.slice[0].slice.value, node.value


def _names_assigned_in(loop: cst.CSTNode) -> Set[str]:
    names: Set[str] = set()
    for node in statements_in(loop):
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for target in targets:
                if isinstance(target, cst.Name):
                    names.add(target.value)
    return names


def _forwards_own_kwargs(call: CallSite, function: FunctionInfo, position: Optional[int]) -> bool:
    """``session.post(url, **kwargs)`` where ``kwargs`` is the function's own ``**`` parameter
    and nothing else could carry headers (``*args`` too, when ``position`` says the method
    takes them by keyword only: ``requests.post(url, *args, **kwargs)``)."""
    kwargs = kwargs_name(function.node)
    if kwargs is None:
        return False
    unpacked = [a for a in call.node.args if a.star == "**" or (a.star == "*" and position is not None)]
    keywords = {a.keyword.value for a in call.node.args if a.keyword is not None}
    return (
        "headers" not in keywords and len(unpacked) == 1 and unpacked[0].star == "**"
        and isinstance(unpacked[0].value, cst.Name) and unpacked[0].value.value == kwargs
    )


def unpacked_headers(name: str, model: SemanticModel, scope: Scope) -> Optional[cst.BaseExpression]:
    """The ``headers`` a local dict written out gives the call that unpacks it, when the code
    sets no other headers on it later (``kwargs = {"headers": self.headers}``, then
    ``kwargs["json"] = payload``)."""
    written = written_mapping(name, model, scope)
    if written is None or "headers" in written[1]:
        return None
    return next((
        element.value for element in written[0].elements
        if isinstance(element, cst.DictElement) and string_of(element.key) == "headers"
    ), None)


def session_has_key(model: SemanticModel, value: Instance) -> bool:
    """The session's own headers get an ``Idempotency-Key`` (``s.headers.update({...})``,
    ``s.headers["Idempotency-Key"] = ...``): every request on it sends the same one."""
    return value.site is not None and object_key(value) in model.derived(session_has_key, lambda: _keyed_sessions(model))


def _keyed_sessions(model: SemanticModel) -> Set[Tuple[object, ...]]:
    """The identities of the sessions whose headers the file gives a key (read once per file)."""
    found: Set[Tuple[object, ...]] = set()
    if model.text is not None and "dempotency" not in model.text.lower():
        return found
    finder = RequestFinder(model)
    for site in model.calls:
        func = site.node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in ("update", "setdefault")):
            continue
        headers = func.value
        if not (isinstance(headers, cst.Attribute) and headers.attr.value == "headers") or not site.node.args:
            continue
        if func.attr.value == "setdefault":
            name = finder.header_name(site.node.args[0].value, site.scope, site.order)
            keyed = name is not None and name.lower() == KEY_HEADER
        else:
            keyed = finder.find_key(site.node.args[0].value, site.scope, site.order, site) not in (None, False)
        if keyed:
            found.update(receiver_keys(headers.value, model, site.scope, site.order))
    scope = model.module_scope
    for node in statements_in(model.module):  # module-level ``s.headers["Idempotency-Key"] = ...``
        if not isinstance(node, cst.Assign):
            continue
        for target in node.targets:
            subscript = target.target
            if not (isinstance(subscript, cst.Subscript) and isinstance(subscript.value, cst.Attribute)
                    and subscript.value.attr.value == "headers" and len(subscript.slice) == 1
                    and isinstance(subscript.slice[0].slice, cst.Index)):
                continue
            name = finder.header_name(subscript.slice[0].slice.value, scope, 1 << 62)
            if name is not None and name.lower() == KEY_HEADER:
                found.update(receiver_keys(subscript.value.value, model, scope, 1 << 62))
    return found


def _joined(results: List[object]):
    """What several returns say of the key together: unknown when one is, else the first key
    one of them carries, else missing (False)."""
    if any(r is None for r in results):
        return None
    keys = [r for r in results if r is not False]
    return keys[0] if keys else False


_EMPTY_BODIES = (cst.List, cst.Dict, cst.Tuple)


def sent_body(model: SemanticModel, value: cst.BaseExpression, call: CallSite) -> cst.BaseExpression:
    """The mapping a request's ``data``/``json`` argument sends: the dict behind its JSON text
    (``json.dumps(data)``), and the side of a choice that is not an empty body
    (``json.dumps(data) if data else []``)."""
    for _ in range(3):
        if isinstance(value, cst.IfExp):
            empty = [is_none(side) or (isinstance(side, _EMPTY_BODIES) and not side.elements) or string_of(side) == ""
                     for side in (value.body, value.orelse)]
            if empty.count(True) != 1:
                return value
            value = value.orelse if empty[0] else value.body
        elif (isinstance(value, cst.Call) and value.args and value.args[0].keyword is None and not value.args[0].star
              and model.qualified_name(value.func, call.scope, call.order) == "json.dumps"):
            value = value.args[0].value
        else:
            return value
    return value


def _passed(call: cst.Call, position: int, keyword: str) -> Optional[cst.BaseExpression]:
    """What ``call`` passes as the parameter at ``position`` named ``keyword``."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [arg for arg in call.args if arg.keyword is None]
    if any(arg.star for arg in positional[:position + 1]) or len(positional) <= position:
        return None
    return positional[position].value


def _opened(urlopen: cst.Call) -> Optional[cst.BaseExpression]:
    """What ``urlopen(url, ...)`` or ``opener.open(fullurl, ...)`` opens: a URL or a ``Request``."""
    return _passed(urlopen, 0, "url") or _passed(urlopen, 0, "fullurl")


def _header_added(scope: Scope, name: str) -> bool:
    """Whether the function (or module) of ``scope`` calls ``name.add_header(...)`` or
    ``name.add_unredirected_header(...)``."""
    node = scope.node.body if isinstance(scope.node, (cst.FunctionDef, cst.ClassDef)) else scope.node
    return node is not None and any(
        isinstance(part, cst.Call) and isinstance(part.func, cst.Attribute) and isinstance(part.func.value, cst.Name)
        and part.func.value.value == name and part.func.attr.value in ("add_header", "add_unredirected_header")
        for part in iter_nodes(node, stop_at=DEFINITIONS)
    )


def _attribute_assigned(scope: Scope, name: str, attribute: str) -> Optional[cst.BaseExpression]:
    """What the function (or module) of ``scope`` last assigns to ``name.attribute``."""
    node = scope.node.body if isinstance(scope.node, (cst.FunctionDef, cst.ClassDef)) else scope.node
    found: Optional[cst.BaseExpression] = None
    for statement in iter_nodes(node, stop_at=DEFINITIONS) if node is not None else ():
        if isinstance(statement, cst.Assign) and any(
            isinstance(target.target, cst.Attribute) and isinstance(target.target.value, cst.Name)
            and target.target.value.value == name and target.target.attr.value == attribute
            for target in statement.targets
        ):
            found = statement.value
    return found


def _names_assigned(scope: Scope, value: cst.BaseExpression) -> List[str]:
    """The names the function (or module) of ``scope`` assigns ``value`` to (``req = Request(url)``)."""
    node = scope.node.body if isinstance(scope.node, (cst.FunctionDef, cst.ClassDef)) else scope.node
    return [
        target.target.value
        for statement in (iter_nodes(node, stop_at=DEFINITIONS) if node is not None else ())
        if isinstance(statement, cst.Assign) and statement.value is value
        for target in statement.targets if isinstance(target.target, cst.Name)
    ]


def _sets_key(scope: Scope, name: str, key: str) -> bool:
    """Whether the function (or module) of ``scope`` sets ``name[key] = ...``."""
    node = scope.node.body if isinstance(scope.node, (cst.FunctionDef, cst.ClassDef)) else scope.node
    return node is not None and any(
        isinstance(target.target, cst.Subscript) and isinstance(target.target.value, cst.Name)
        and target.target.value.value == name and len(target.target.slice) == 1
        and isinstance(target.target.slice[0].slice, cst.Index) and string_of(target.target.slice[0].slice.value) == key
        for statement in iter_nodes(node, stop_at=DEFINITIONS) if isinstance(statement, cst.Assign)
        for target in statement.targets
    )


# A form field that carries a password (``password``, ``user[password]``, ``vb_login_password``).
_PASSWORD_KEY = re.compile(r"pass(?:word|wd)?\b|password", re.I)
_SIGN_IN = re.compile(r"log_?in|sign_?in|auth|session", re.I)


def _signs_in(call: CallSite) -> bool:
    """The request is a sign-in: its function or the URL text it is given names one
    (``def _login_impl``, ``self.root + "/login_int.php"``)."""
    function = call.scope.enclosing_function
    if function is not None and _SIGN_IN.search(function.name):
        return True
    return any(
        isinstance(part, (cst.SimpleString, cst.FormattedStringText)) and _SIGN_IN.search(part.value)
        for arg in call.node.args[:1] for part in iter_nodes(arg.value)
    )
