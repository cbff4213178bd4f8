"""Work that stays on this machine: a loop is a retry of an outbound call only when the failure
it repeats comes from one. Calls of local modules (files, processes, locks, clocks, logging,
and a level of the project's own logger, ``logger.debug(...)``),
a unix-domain socket, a browser driven here (``browser_automation``), and the functions of
the file that make only such calls; errors of local state and of browser automation."""

from __future__ import annotations

import re

from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Sequence, Union

import libcst as cst

from resilint.libraries.browser_automation import (
    browser_error, drives_browser, local_browser_call, remote_browser_call, ui_method,
)
from resilint.libraries.retry_scopes.names import LOCAL_ERRORS, LOCAL_MODULES, REFUSED_INPUT_ERRORS, REFUSED_INPUT_NAME
from resilint.libraries.server_sockets import serves_only
from resilint.lint.nodes import dotted_name, is_none
from resilint.lint.semantic import CallSite, ClassInfo, FunctionInfo, Instance, QName
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

_ASSERTION = "builtins.AssertionError"


def local_errors(names: Sequence[Optional[str]], calls: List[CallSite], rec: Recogniser) -> bool:
    """Whether the errors a handler catches (``names``, resolved) come from local work only:
    errors of files, locks and lookups, or of the browser automation the ``try`` drives
    (``calls``: its calls), with an ``AssertionError`` beside them on the page it checks. A
    browser reached over the network, or Playwright's HTTP client, raises the same errors from
    another machine."""
    if not names:
        return False
    if all(name in LOCAL_ERRORS for name in names):
        return True
    browser = [name for name in names if browser_error(name)]
    if not browser or any(remote_browser_call(rec.name(call)) for call in calls):
        return False
    return all(name in LOCAL_ERRORS or name == _ASSERTION or browser_error(name) for name in names)


def refused_input(names: Sequence[Optional[str]]) -> bool:
    """Whether a handler catches only errors of an input the dependency refused (an integrity
    or validation error of any library or of the project, or a project error named for a
    name that is taken): it did answer."""
    lasts = [name.rpartition(".")[2] for name in names if name is not None]
    return bool(names) and len(lasts) == len(names) and all(
        last in REFUSED_INPUT_ERRORS or REFUSED_INPUT_NAME.search(last) is not None for last in lasts
    )


def _only_named(names: Sequence[Optional[str]], lasts: FrozenSet[str]) -> bool:
    """Every name is known and ends in one of ``lasts`` (whatever module defines it)."""
    return bool(names) and all(name is not None and name.rpartition(".")[2] in lasts for name in names)


# Reads of the next message on a connection that is already open (a websocket, a socket, a
# ZeroMQ or message-queue consumer): a timeout there is the peer's silence, not a failed request.
_RECEIVES = frozenset({
    "receive", "receive_json", "receive_str", "receive_bytes", "recv", "recv_json", "recv_string",
    "recv_multipart", "recv_pyobj", "read_message",
})
# Methods of ``str`` (and ``bytes``) that no client names a request after.
_LOCAL_METHODS = frozenset({
    "startswith", "endswith", "lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines",
    "partition", "rpartition", "removeprefix", "removesuffix", "casefold", "isdigit", "isalpha", "isalnum",
    "zfill", "ljust", "rjust", "expandtabs", "title", "capitalize", "join", "format", "encode", "decode",
    # and a list's, whatever holds the list (``children.remove(pid)``), and a mapping's views
    "append", "extend", "insert", "remove", "items", "keys", "values",
    # and a parsed XML document's (``dom.getElementsByTagName("issue")``): the DOM API's own names
    "getElementsByTagName", "getElementsByTagNameNS", "getElementById", "getAttribute", "getAttributeNS",
    "hasAttribute", "toxml", "toprettyxml",
    # and a socket's settings, whatever holds the socket (``incoming.setblocking(False)``)
    "setblocking", "setsockopt", "getsockopt", "settimeout", "gettimeout", "getsockname", "getpeername", "fileno",
    # and a date's or a duration's conversions (``issue_date.timetuple()``)
    "timetuple", "utctimetuple", "strftime", "isoformat", "isocalendar", "isoweekday", "weekday", "toordinal",
    "total_seconds",
})
# The names ``gettext.install()`` adds to the builtins: a translated text of this program.
_TRANSLATIONS = frozenset({"_", "gettext", "ngettext", "pgettext", "npgettext"})
# Also "no data yet" on a non-blocking socket (TLS wanting more of the record included).
_TIMEOUTS = frozenset({
    "TimeoutError", "timeout", "Timeout", "ReadTimeout", "BlockingIOError", "SSLWantReadError", "SSLWantWriteError",
})


def receives(call: CallSite) -> bool:
    """``await ws.receive(55)``, ``await self._queue.get()``: waits for the next inbound message
    (or item)."""
    func = call.node.func
    if not isinstance(func, cst.Attribute):
        return False
    if func.attr.value == "get" and not call.node.args:
        return (dotted_name(func.value) or "").rsplit(".", 1)[-1].lower().endswith("queue")
    return func.attr.value in _RECEIVES


# What only bounds the wait of the call it is handed (``asyncio.wait_for(ws.recv(), 10)``).
BOUNDED_WAITS = frozenset({"asyncio.wait_for", "asyncio.shield"})


def silence(names: Sequence[Optional[str]]) -> bool:
    """Whether a handler catches only timeouts (``TimeoutError``, ``socket.timeout``): on a
    read of an open connection, no message yet. A closed connection is a failure."""
    return _only_named(names, _TIMEOUTS)


def local_call(rec: Recogniser, call: CallSite) -> bool:
    """Whether ``call`` acts on this machine only."""
    if id(call.node) in rec.model.derived(_RAISED, lambda: {id(r.node.exc) for r in rec.model.raises}):
        return True  # ``raise ExtractorError("...")``: an error made to be raised, whatever its class
    name = rec.name(call) or ""
    if (name.startswith(LOCAL_MODULES) and not _held_otherwise(rec, call)) or local_browser_call(name):
        return True
    if isinstance(call.node.func, cst.Name) and call.node.func.value in _TRANSLATIONS and name in ("", f"builtins.{call.node.func.value}"):
        return True  # ``_("Copied %s")`` of ``gettext.install()``, which makes it a builtin
    func = call.node.func
    if isinstance(func, cst.Attribute) and func.attr.value in _LOCAL_METHODS:
        return True  # ``argv[-1].startswith("--")``: text or list work, whatever holds it
    if isinstance(func, cst.Attribute) and _made_by_local_work(rec, func.value, call):
        return True  # ``table.find_all("tr")`` with ``table = BeautifulSoup(data).find("table")``
    if isinstance(func, cst.Attribute) and ui_method(func.attr.value) and drives_browser(rec.model.imported_modules):
        from resilint.libraries.outbound import sends_request  # it imports the retry scopes

        if not sends_request(name):
            return True  # ``field.click()`` on an element passed in, in a module that drives a browser
    # a unix-domain socket (``socket.socket(socket.AF_UNIX)``) talks to a local process, and
    # a socket the program serves on waits for what others send (``server.accept()``)
    if name.startswith("socket.socket.") and serves_only(rec.model, call):
        return True
    if name.startswith("socket.socket"):
        func = call.node.func
        made = call.node if name == "socket.socket" else None
        if made is None and isinstance(func, cst.Attribute):
            root = func.value  # the socket a chain starts from: ``sock.recv(64).startswith(...)``
            while isinstance(root, cst.Call) and isinstance(root.func, cst.Attribute):
                root = root.func.value
            followed = rec.follow(root, call.scope, call.order)
            made = followed if isinstance(followed, cst.Call) else None
        if made is not None and made.args:
            return rec.expr_name(made.args[0].value, call.scope, call.order) == "socket.AF_UNIX"
        return False
    if _logs_through_a_wrapper(rec, call) or _logs_through_a_logger_module(call):
        return True
    called = called_definition(rec, call)
    return called is not None and local_definition(rec, called)


def _made_by_local_work(rec: Recogniser, expr: cst.BaseExpression, call: CallSite, depth: int = 0) -> bool:
    """Whether the object a method is called on comes from local work: a literal
    (``self.seen = {}``), or what a call of a local module returned (``BeautifulSoup(data)``),
    and the reads and method calls off it (``.find("table")``), followed through the names and
    attributes that hold it and the loops that walk it (``for row in table.find_all("tr")``)."""
    if depth > 6:
        return False
    if isinstance(expr, _LITERALS):
        return True
    if isinstance(expr, cst.Call):
        name = rec.expr_name(expr.func, call.scope, call.order) or ""
        if name.startswith("builtins."):
            return name in _LOCAL_VALUES  # not ``super()``, whose methods are the base class's
        if name.startswith(LOCAL_MODULES):
            return True
        return isinstance(expr.func, cst.Attribute) and _made_by_local_work(rec, expr.func.value, call, depth + 1)
    if isinstance(expr, cst.Attribute):
        held = _attribute_values(rec, expr, call)
        if held is not None:
            # ``self._body``, a stream on one path and ``io.BytesIO()`` on another: local work
            # only when every value the object is given is
            return bool(held) and all(_made_by_local_work(rec, value, call, depth + 1) for value in held)
    if isinstance(expr, (cst.Name, cst.Attribute)):
        followed = rec.follow(expr, call.scope, call.order)
        if followed is not expr:
            return _made_by_local_work(rec, followed, call, depth + 1)
    if isinstance(expr, cst.Subscript):
        # an entry of a dict or list written out is what that entry holds (``CLIENTS[name]``
        # of ``{"coupons": stripe.Coupon}`` is a Stripe resource, not plain data)
        container = rec.follow(expr.value, call.scope, call.order)
        if isinstance(container, (cst.Dict, cst.List, cst.Tuple, cst.Set)):
            return all(_made_by_local_work(rec, element.value, call, depth + 1) for element in container.elements
                       if isinstance(element, (cst.DictElement, cst.Element)))
    if isinstance(expr, (cst.Attribute, cst.Subscript)):
        return _made_by_local_work(rec, expr.value, call, depth + 1)
    if not isinstance(expr, cst.Name):
        return False
    walked = next((
        node.iter for node in reversed(call.stack)
        if isinstance(node, cst.For) and isinstance(node.target, cst.Name) and node.target.value == expr.value
    ), None)
    return walked is not None and _made_by_local_work(rec, walked, call, depth + 1)


def _held_otherwise(rec: Recogniser, call: CallSite) -> bool:
    """Whether the object a method is called on may be something other than the local value
    its name resolves to: an attribute the class also sets to what the file cannot read
    (``self._body = io.BytesIO()`` on one path, ``response["Body"]`` on another)."""
    func = call.node.func
    receiver = func.value if isinstance(func, cst.Attribute) else None
    if isinstance(receiver, cst.Name):
        receiver = rec.follow(receiver, call.scope, call.order)
    held = _attribute_values(rec, receiver, call) if isinstance(receiver, cst.Attribute) else None
    return held is not None and not all(_made_by_local_work(rec, value, call) for value in held)


def _attribute_values(rec: Recogniser, expr: cst.Attribute, call: CallSite) -> Optional[List[cst.BaseExpression]]:
    """Every value a class of the file gives the attribute of its instance (``self._body =
    ...`` in any method, ``None`` left out), when it sets it more than once; else None."""
    owner = rec.model.resolve(expr.value, call.scope, call.order)
    if not (isinstance(owner, Instance) and isinstance(owner.of, ClassInfo)):
        return None
    bindings = owner.of.instance_attributes.get(expr.attr.value, [])
    if len(bindings) < 2:
        return None
    return [b.expr for b in bindings if b.expr is not None and not is_none(b.expr)]


# Built-in calls that make plain data of this process, whose methods are local work.
_LOCAL_VALUES = frozenset(f"builtins.{name}" for name in (
    "dict", "list", "set", "frozenset", "tuple", "str", "bytes", "bytearray", "int", "float", "sorted", "reversed",
    "enumerate", "zip", "range", "open",
))
_LITERALS = (cst.Dict, cst.List, cst.Set, cst.Tuple, cst.SimpleString, cst.FormattedString, cst.ConcatenatedString,
             cst.DictComp, cst.ListComp, cst.SetComp)


_LOGGING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
_LOGGERS = frozenset({"logging.getLogger", "logging.Logger", "logging.LoggerAdapter"})


def _logs_through_a_logger_module(call: CallSite) -> bool:
    """``logger.debug(...)`` on a name that says it is the logger (``logger``, ``log``,
    ``self._log``): the project's own logging module or object, whose levels log here."""
    func = call.node.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in _LOGGING_METHODS:
        return False
    receiver = dotted_name(func.value) or ""
    return bool(_LOGGER_NAME.fullmatch(receiver.rsplit(".", 1)[-1]))


_LOGGER_NAME = re.compile(r"_*(log|logger|logging|LOG|LOGGER)")


def _logs_through_a_wrapper(rec: Recogniser, call: CallSite) -> bool:
    """``log.debug(...)`` on an object of another module's class built around a standard
    logger (``log = BraceAdapter(logging.getLogger(__name__))``, a ``LoggerAdapter`` of the
    project): it logs here."""
    func = call.node.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in _LOGGING_METHODS:
        return False
    values = rec.model.resolve_all(func.value, call.scope, call.order)
    return bool(values) and all(
        isinstance(value, Instance) and isinstance(value.site, cst.Call) and any(
            isinstance(arg.value, cst.Call)
            and rec.model.qualified_name(arg.value.func, rec.model.module_scope, 1 << 62) in _LOGGERS
            for arg in value.site.args
        )
        for value in values
    )


def called_definition(rec: Recogniser, call: CallSite) -> Union[FunctionInfo, ClassInfo, None]:
    """The function or class of this file that ``call`` calls, when the file tells. A method
    only as ``self.method()`` with a body of its own: called on another object (a parameter
    annotated with a base class), or abstract (``check_health`` of a health-check base), it
    stands for whatever a subclass's override does."""
    values = rec.model.resolve_all(call.node.func, call.scope, call.order)
    if len(values) != 1:
        return None
    value = values[0]
    if isinstance(value, ClassInfo) or (isinstance(value, FunctionInfo) and value.owner is None):
        return value
    func = call.node.func
    if (isinstance(value, FunctionInfo) and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
            and func.value.value in ("self", "cls") and not _abstract(value)):
        return value
    if (isinstance(value, FunctionInfo) and value.owner is not None and not value.owner.bases
            and not _abstract(value) and not _subclassed(rec, value.owner)):
        return value  # ``received.get(path)`` on a class of the file that nothing extends
    return None


def _subclassed(rec: Recogniser, cls: ClassInfo) -> bool:
    """Whether a class of the file names ``cls`` among its bases."""
    return any(
        rec.model.resolve(base, other.scope.parent or other.scope, 1 << 62) is cls
        for other in rec.model.classes for base in other.bases
    )


def _abstract(function: FunctionInfo) -> bool:
    """A method left to subclasses: ``@abstractmethod``, or a body of only ``pass``, ``...``,
    a docstring or ``raise NotImplementedError``."""
    node = function.node
    if not isinstance(node, cst.FunctionDef):
        return False
    if any(dotted_name(d.decorator).endswith("abstractmethod") for d in node.decorators if dotted_name(d.decorator)):
        return True
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else [node.body]
    for statement in body:
        smalls = statement.body if isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) else [statement]
        for small in smalls:
            if isinstance(small, cst.Pass) or (isinstance(small, cst.Expr) and isinstance(small.value, (cst.Ellipsis, cst.SimpleString, cst.ConcatenatedString))):
                continue
            if isinstance(small, cst.Raise) and small.exc is not None and "NotImplementedError" in (dotted_name(small.exc.func if isinstance(small.exc, cst.Call) else small.exc) or ""):
                continue
            return False
    return True


def local_definition(rec: Recogniser, definition: Union[FunctionInfo, ClassInfo]) -> bool:
    """A function of the file whose every call (in the lambdas and functions it holds too) acts
    on this machine only, so that calling it reaches no other service; or a class of the file
    (an exception raised on bad input, an object that only keeps what it is given) whose bases
    are builtins or such classes, and whose construction (``__new__``, ``__init__``,
    ``__post_init__``) makes only such calls: its other methods run when called, not when
    it is made."""
    memo: Dict[int, bool] = rec.model.derived(_LOCAL_DEFINITIONS, dict)
    key = id(definition)
    if key not in memo:
        memo[key] = False  # while it is judged: a call back into it decides nothing
        if isinstance(definition, ClassInfo) and not all(
            _local_base(rec, base, definition) for base in definition.bases
        ):
            return False
        nodes = [definition.node] if isinstance(definition, FunctionInfo) else [
            bound.defined.node for name in _CONSTRUCTION for bound in definition.scope.bindings.get(name, ())
            if isinstance(bound.defined, FunctionInfo)
        ]
        memo[key] = all(
            local_call(rec, call) for node in nodes for call in calls_within(rec, node)
            if called_definition(rec, call) is not definition  # calling itself again reaches nothing new
        )
    return memo[key]


# The methods that run when a class is called.
_CONSTRUCTION = ("__new__", "__init__", "__post_init__")


def _local_base(rec: Recogniser, base: cst.BaseExpression, cls: ClassInfo) -> bool:
    scope = cls.scope.parent or cls.scope
    values = rec.model.resolve_all(base, scope, 1 << 62)
    if len(values) != 1:
        return False
    value = values[0]
    if isinstance(value, ClassInfo):
        return local_definition(rec, value)
    return isinstance(value, QName) and value.name.startswith("builtins.")


def calls_within(rec: Recogniser, node: cst.CSTNode) -> List[CallSite]:
    """The calls written in the definition ``node``, in its nested scopes too."""
    return rec.model.derived(_CALLS_WITHIN, lambda: _calls_by_definition(rec)).get(id(node), [])


def _calls_by_definition(rec: Recogniser) -> Dict[int, List[CallSite]]:
    found: Dict[int, List[CallSite]] = {}
    for call in rec.model.calls:
        for node in call.stack:
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                found.setdefault(id(node), []).append(call)
    return found


# What may reach another machine without a call written: an attribute or item read (a
# property, a lazy proxy), an await, a generator's hand-over, a context manager, a loop's
# iterator. A body with none of them and no call only computes.
_MAY_REACH_OUT = (cst.Call, cst.Attribute, cst.Subscript, cst.Await, cst.Yield, cst.With, cst.For, cst.While)


def computes_only(function: FunctionInfo) -> bool:
    """Whether ``function`` does work but calls nothing and reads nothing that could send
    (``1 / 0``, ``return a + b``): a test's job that fails on purpose. A stub (``...``,
    ``pass``, a docstring) is not judged so: its real body is elsewhere."""
    node = function.node
    if not isinstance(node, cst.FunctionDef) or not isinstance(node.body, cst.IndentedBlock):
        return False
    statements = [
        small for statement in node.body.body if isinstance(statement, cst.SimpleStatementLine) for small in statement.body
    ]
    if len(statements) != len(node.body.body):
        return False  # a compound statement: an ``if``, a ``try``
    work = [
        small for small in statements
        if not isinstance(small, (cst.Pass, cst.Raise))
        and not (isinstance(small, cst.Expr) and isinstance(small.value, (cst.Ellipsis, cst.SimpleString, cst.ConcatenatedString)))
    ]
    return bool(work) and not any(isinstance(n, _MAY_REACH_OUT) for small in work for n in iter_nodes(small))


_RAISED = object()  # ``derived`` key: the ids of the calls ``raise`` statements make their error with
_LOCAL_DEFINITIONS = object()  # ``derived`` key: id(definition) → whether it works locally
_CALLS_WITHIN = object()  # ``derived`` key: id(definition node) → the calls written in it
