"""What one file tells the project pass: plain data, with positions, and no syntax tree.

A :class:`ModuleSummary` is made per file by the library layer (``resilint.libraries.summaries``)
while the file's semantic model exists, cached with the file's findings, and read by the project
pass in the main process (``lint/project.py``) to follow calls across functions and modules.
Everything here round-trips through JSON (``to_json``/``from_json``) unchanged.
"""

from __future__ import annotations

import pickle
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

SUMMARY_VERSION = 88
# The slot of ``Call.passed`` for ``f(*args)`` with the calling function's own ``*args``, and
# the position it starts at (``"*0"``): the positions from there on are what that function's
# callers pass after its named parameters.
STAR_ARGS = "*"
# The keyword under which ``Arguments.values`` keeps a timeout object passed by position to a
# project function (``build_session(headers, aiohttp.ClientTimeout(total=None))``): this prefix
# and the position (``"#1"``); the project pass judges it where the function hands it to a client.
POSITIONAL = "#"
# What a project's own ``django.dispatch.Signal()`` is sent by, in ``ModuleSummary.receivers``:
# this prefix and the signal's name (the project pass tells whether the name holds a Signal).
PROJECT_SIGNAL = "signal:"
# A signal sender named by its model's name (``apps.get_model("net", "IPAddress")``): the
# project's model classes of that name.
MODEL_LABEL = "model:"
# Django's user model however a module names it (``django.contrib.auth.models.User``,
# ``get_user_model()``, ``settings.AUTH_USER_MODEL``, ``"auth.User"``): as a signal's sender
# and as the model a save or a ``create_user`` writes a row of.
USER_MODEL = "django.contrib.auth.models.User"
# What runs a Celery task in the caller's process: the task's own body (``run``), eagerly
# (``apply``), also from a signature of it (``ping.si("x").apply()``); the file pass names
# these calls, the project pass tells whether they run a task.
TASK_RUNS = frozenset({"run", "apply"})
TASK_SIGNATURES = frozenset({"s", "si", "signature"})
# The last segment of a call's target when it calls an object (``pkg.make.()``: what
# ``make()`` returns, called; ``pkg.Factory.()``: a ``Factory`` instance, called).
CALLED = "()"
# What ``super()`` gives in a class with no bases (a mixin): the class after it in the method
# resolution order of each class that mixes it in (``pkg.WatchedMixin.<super>.pre_delete``).
NEXT_IN_ORDER = "<super>"
# A value's kind for what a method called on the object itself returns (``("late", "get_connection")``
# of ``self.connection = self.get_connection()``): on an object of a subclass that overrides the
# method, what the override returns.
LATE = "late"
# The main process holds the summary of every file until the project pass: without a __dict__
# per object, a summary takes about a third less memory (``slots`` needs Python 3.10).
_SLOTS: Dict[str, Any] = {"slots": True} if sys.version_info >= (3, 10) else {}
MODULE_CODE = "<module>"  # the pseudo-function holding a module's top-level code

# What a name, an attribute, a return value or an argument may hold, as one file tells it; the
# project pass resolves them (``lint/project.py``). A plain tuple, its kind first:
#   ("new", NAME, OBJECT)  an instance of the class NAME (a library class, a project class, or
#                          a name the project pass reads as one: "pkg.make" for what make()
#                          returns); OBJECT: the key of its facts in ``ModuleSummary.objects``, or ""
#   ("ref", NAME)          the object NAME itself: a function, a class, a module global, a library
#                          object; NAME may go through attributes ("pkg.Client.session"), items
#                          ("pkg.HANDLERS[]", "[]" for any item) and parameters ("pkg.f.(session)":
#                          what f's callers pass as ``session``)
#   ("str", TEXT)          a string constant
#   ("bool", FLAG)         True or False
#   ("int", NUMBER)        an integer (kept for the arguments of decorators, ``@with_retries(5)``,
#                          for module and class constants, and for the values guards compare)
#   ("float", NUMBER)      a float module or class constant (another module's timeout)
#   ("none",)              None, in a guard's values
#   ("headers", STATUS, FROM)  headers passed on, as to the idempotency key: STATUS "missing",
#                          "unstable", "ok", "param" (FROM: the caller's parameter holding the
#                          key or the headers) or "via" (FROM: the helper or mapping they come from)
#   ("token",)             an OAuth token request's body (``data={"grant_type": ...}``): a
#                          POST that only mints a token, sent on by a wrapper's ``**kwargs``
#   ("fresh", TEXT)        a value made anew where it is written (``uuid.uuid4()``): a key
#                          that is new on every attempt when that code is retried
#   ("partial", NAME, KEYWORDS)  functools.partial(NAME, ...) binding those keywords
#   ("dict", ((KEY, REF), ...))  a dict literal with string keys, by entry (("unknown",): an
#                          entry whose value the file cannot read)
#   ("timeout", PHASES, SCALAR, TEXT)  a name only ever bound to None or a tuple of numbers,
#                          as a timeout (PHASES: (name, seconds, unbounded, note) each)
Ref = Tuple[Any, ...]
# A fact of a retry loop that a parameter of its function decides (``fatal=None`` hands every
# 4xx back at once): (parameter, the constants with which the fact holds, the ``Layer`` field,
# its value then). A call passing anything else, or what the file cannot read, leaves the field.
Decided = Tuple[str, Tuple[Ref, ...], str, Any]


@dataclass(frozen=True, **_SLOTS)
class Place:
    """A span in a file: 1-based lines and columns, ``end_column`` exclusive. (The text of a
    finding's line is read from the file when the project pass reports there, not carried by
    every place of every summary.)"""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    def short(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def key(self) -> str:
        """``"line:column"``: how a module's summary names what was made here (the object a
        call makes, ``Call.receiver``, the facts in ``ModuleSummary.objects``)."""
        return f"{self.line}:{self.column}"


@dataclass(frozen=True, **_SLOTS)
class Layer:
    """A retry layer: code that runs an operation again when it fails.

    ``calls`` is the most calls it makes per operation (attempts, first one included), or None
    when the count is unknown; ``description`` names it for messages ("tenacity 3 attempts").
    ``whole_function``: it repeats the whole function (a decorator), so every caller of the
    function reaches it; otherwise it repeats part of the body (a loop) or a client's requests.
    """

    description: str
    calls: Optional[int]
    place: Place
    whole_function: bool = False
    client: bool = False  # a client that retries by itself (a mounted adapter, an SDK client)
    retrier: str = ""  # what retries, for messages ("a tenacity retry")
    guards_non_idempotent: bool = False  # it never repeats a POST/PATCH by itself
    library: str = ""
    # What it retries on: "any" | "specific" (exceptions) | "status" | "result" (a poll) |
    # "failed-result" (a result that reports a failure) | "unknown",
    # the exception classes when known, and the one it raises when it gives up, if known (a
    # class, or "pkg.*": only errors of those packages, several separated by spaces).
    retries_on: str = "unknown"
    exceptions: Tuple[str, ...] = ()
    gives_up_with: Optional[str] = None
    # A loop that runs only when a parameter of its function is true ("retry") or false
    # ("!retry"): ``def send(..., retry=False): if retry: for attempt in ...``.
    guard: str = ""
    # Another module's object that drives this loop or call (``for attempt in api_retrying:``,
    # ``api_retrying(fn, ...)``): a layer only if the project pass finds a retry policy there,
    # whose facts it then takes; ``applies``: the function such a call runs (``fn``).
    via: str = ""
    applies: str = ""
    # A loop whose attempts are a parameter of a function around it (``for attempt in
    # range(attempts)`` in a decorator factory ``with_retries(attempts=3)``): that parameter, by
    # name (``pkg.with_retries.(attempts)``); where the decorator is applied, its argument counts.
    # Or a module constant another module defines (``API_RETRY_COUNT``). ``count_offset`` is
    # added to that value: a recursion that counts ``retries`` down and goes again while it is
    # above 0 makes ``retries + 1`` attempts.
    count_from: str = ""
    count_offset: int = 0
    # Whether it may retry a request the server refused without acting on it (429, 408, 425):
    # False only where the code says so (a urllib3 ``Retry`` that ignores ``Retry-After`` and
    # lists none of them among its statuses).
    retries_refusals: bool = True
    # A loop whose handler catches a parameter of a function around it (``except exceptions:``
    # in a decorator factory ``retry(exceptions)``): that parameter, by name; where the
    # decorator is applied (``@retry(KeyError)``), its argument is what the layer retries.
    caught_from: str = ""
    decided_by: Tuple[Decided, ...] = ()

    @property
    def pending(self) -> bool:
        """Driven by another module's object that the project pass found to be no retry policy
        (or has not read yet): no layer."""
        return bool(self.via) and not self.description


# The status of a request whose key the function makes on each call, before the loops that
# retry it inside the function: stable for those loops, new on every attempt of any other retry.
PER_CALL = "per-call"


@dataclass(frozen=True, **_SLOTS)
class Request:
    """A POST/PATCH a function sends that a retry around it would repeat unsafely:
    ``status`` "missing" (no idempotency key), "unstable" (a new key on every call), ``PER_CALL``,
    "forwarded" (the caller's ``**kwargs`` carry the headers), "via" (the headers are what the
    project function ``key_from`` returns) or "param" (the key, or the headers, are the
    parameter ``key_from``). ``method`` is "" when the parameter ``method_from`` gives it;
    ``receiver`` names the object it is sent on when only the project can tell that it is an
    HTTP client."""

    method: str
    name: str
    status: str
    detail: str
    place: Place
    method_from: Optional[str] = None
    key_from: Optional[str] = None
    receiver: Optional[str] = None


@dataclass(frozen=True, **_SLOTS)
class Setting:
    """A module-level assignment of a framework setting a project rule reads (Django's
    ``EMAIL_HOST``): where it is, whether it runs on some paths only (under an ``if`` or a
    ``try``), and the dotted names among its string constants
    (``"django.core.mail.backends.smtp.EmailBackend"``)."""

    name: str
    place: Place
    conditional: bool
    dotted: Tuple[str, ...] = ()


@dataclass(frozen=True, **_SLOTS)
class Wait:
    """A retry policy's wait that is whatever the function ``via`` returns, for a project rule
    to judge once it knows that function (``time.sleep(backoff.delay_for(attempt))``); with
    ``slept``, the kind of delay the loop hands ``via`` (``cancellable_sleep(5)``), a wait if
    that function sleeps it."""

    via: str
    text: str  # how the wait is written
    library: str
    place: Place
    slept: str = ""
    slept_as: str = ""  # the keyword it is handed as ("": the first positional argument)


@dataclass(frozen=True, **_SLOTS)
class Argument:
    """A keyword argument the timeout rules may judge once the callee is known.

    ``value`` is what the library layer made of the expression (plain data, None: unknown);
    when the expression is a parameter of the calling function, ``parameter`` names it and
    ``default``/``default_text`` describe its default (a wrapper's ``timeout=None``)."""

    keyword: str
    value: Optional[Dict[str, Any]]
    text: str
    place: Place
    parameter: Optional[str] = None
    position: Optional[int] = None  # the parameter's index among positional parameters
    default: Optional[Dict[str, Any]] = None
    default_text: Optional[str] = None
    # ``parameter`` is the class's ``__init__``'s, which keeps it on the object for this method
    # (``self.timeout = timeout``, then ``timeout=self.timeout``): the constructor's callers
    # decide the value, not this method's.
    kept_by_init: bool = False
    # the function fills it into the ``**kwargs`` it hands on (``kwargs.setdefault("timeout",
    # 10)``) when its callers give none: theirs, when they give one, is what is sent
    filled_in: bool = False

    @property
    def own_parameter(self) -> Optional[str]:
        """The parameter of the calling function the value is, if it is one of its own."""
        return None if self.kept_by_init else self.parameter


@dataclass(frozen=True, **_SLOTS)
class Arguments:
    """The shape of a call's arguments: enough to tell whether a timeout was passed."""

    keywords: Tuple[str, ...] = ()
    positional: int = 0
    star: bool = False  # ``*args``
    double_star: bool = False  # ``**something`` of unknown content
    forwards_kwargs: bool = False  # the ``**`` is the calling function's own ``**kwargs``
    values: Tuple[Argument, ...] = ()
    # The object called fills in a timeout itself (a ``Session`` subclass, a mounted adapter), or
    # is made without a host and connected later with one (``ftplib.FTP()``), or waits the
    # socket default its function has just set (``socket.setdefaulttimeout(5)`` before it).
    supplied: bool = False
    # The ``*`` is the calling function's own ``*args``, after ``positional`` arguments: empty
    # for a caller that passes no more positional arguments than the function names.
    forwards_args: bool = False

    def value(self, keyword: str) -> Optional[Argument]:
        return next((a for a in self.values if a.keyword == keyword), None)


@dataclass(frozen=True, **_SLOTS)
class DbScope:
    """Code during which a function holds a DB connection (and maybe a transaction).

    ``description`` names it for messages ("`transaction.atomic()`"); ``holds`` says what it
    holds ("a transaction", "a pooled connection"). ``via``: a ``with`` of a project function
    the file could not tell about, a scope only if the project pass finds that function is a
    context manager yielding inside one. ``yields``: a generator yields inside it (so the
    function is such a context manager); ``wraps``: it covers a call of the function that an
    enclosing decorator wraps; ``locks``: rows are locked in it (``select_for_update()``);
    ``implicit``: the first query sent through an object opened it (``cursor.execute()``, at
    ``place``): "driver" when the file knows that object is a DB-API driver's, "named" when
    only its name says it is a cursor.
    """

    description: str
    holds: str
    place: Place
    via: Optional[str] = None
    whole_function: bool = False
    locks: bool = False
    yields: bool = False
    wraps: bool = False
    implicit: str = ""
    # Of an implicit transaction: where the queries after the first are ("line:column"); one
    # begins a new transaction when a call before it ended the first.
    queries: Tuple[str, ...] = ()


@dataclass(frozen=True, **_SLOTS)
class ObjectFacts:
    """What the file shows of one object it makes: the retry layer it adds to every request (an
    index into the layers of the module's top-level code), whether it fills in a timeout for
    every request (a mounted adapter, a ``Session`` subclass), the idempotency key its
    headers carry for every request ("stable", "unstable", or "" for none), whether the
    requests made through its attributes have its retry layer too (``client.chat.completions``
    is part of the client ``client``), and, for a boto3 client other modules may reach, what
    the file does with it: "signs" (it only signs URLs with it), "escapes" (it makes no call
    through it), or "" (the file judged it alone); and for a client made without a default
    timeout that other modules may reach (``request_timeouts.py``): "timed" (each request the
    file sends through it gives its own timeout), "escapes" (it sends none), or "" (the file
    judged it alone)."""

    layer: Optional[int] = None
    sets_timeout: bool = False
    key: str = ""
    namespaced: bool = False
    presign: str = ""
    requests: str = ""


Guard = Tuple[str, str, Tuple[Ref, ...]]  # (subject, test, values): ``libraries/call_guards.py``
# A choice (``if self.is_creation or self.refresh_elevation:``): ``("", ANY, alternatives)``,
# each alternative ``(ALL, guard, ...)``, the guards that hold together when that part holds.
ANY, ALL = "any", "all"


def subjects_of(guard: Guard) -> Iterator[str]:
    """What ``guard`` tests: its subject, or those of its alternatives' guards."""
    subject, test, values = guard
    if test != ANY:
        yield subject
        return
    for alternative in values:
        for inner in alternative[1:]:
            yield from subjects_of(inner)


# What a decorator or ``with`` item of a class another module may define as a test double
# gives the calls under it in ``Call.mocked`` (``@HttpMocker()``): this prefix and the class's
# name, which the project pass replaces with what that class keeps in process
# (``ModuleSummary.mock_classes``).
PROJECT_DOUBLE = "double:"
# The key in ``ModuleSummary.objects`` (this prefix and the class's qualified name) of the facts
# every instance of a class of the module has, whoever makes it: a subclass of a retrying client
# that configures its base itself (``super().__init__(host=conf["host"])``).
CLASS_INSTANCES = "class:"


@dataclass(frozen=True, **_SLOTS)
class Call:
    """A call made by a function: ``target`` is the callee's qualified name as far as the file
    can tell (a project function, a method ``pkg.mod.Class.method``, or a library object).
    ``layers`` are indexes into the function's loop layers that repeat this call, outermost
    first (a decorator repeats every call of its function and is not listed); ``retrying`` is the
    index of the layer that the call itself is (a request to a client that retries by itself).
    ``db_scopes`` are indexes into the function's DB scopes open at the call, outermost first;
    ``later``: the call is in a lambda, so it runs when (if) the lambda is called."""

    target: str
    place: Place
    layers: Tuple[int, ...] = ()
    retrying: Optional[int] = None
    arguments: Optional[Arguments] = None
    mocked: Tuple[str, ...] = ()  # client libraries a test double answers here (no network)
    # By its method name, a request if the object is a client, which the request leaves to
    # retry as the client does (``pool.request(..., retries=False)`` does not).
    sends: bool = False
    db_scopes: Tuple[int, ...] = ()
    later: bool = False
    # What the call passes that the file can read: (position or keyword, value), for the
    # parameters of the callee (``Gateway(session)``, ``request("POST", ...)``).
    passed: Tuple[Tuple[Any, Ref], ...] = ()
    # The callee is a method reached through an object the file knows (``self.gateway.charge``,
    # ``super().__init__``): Python passes the object as its first argument.
    bound: bool = False
    # The object it is called on was made by the call at this "line:column" of the file
    # (``ErpClient(session=s).stock()``, ``client = ErpClient(...)``; ``client.stock()``): what
    # that call passed decides what the object's attributes hold.
    receiver: str = ""
    # What must hold of the function's parameters for the call to run (``libraries/call_guards.py``):
    # (subject, test, values), subject a parameter or a parameter's attribute ("no_delay",
    # "fq.status"), test "true" | "false" | "in" | "not in", values the constants of an "in";
    # or a choice between parts (``ANY``, above).
    guards: Tuple[Guard, ...] = ()
    # The function's retry layers (indexes) that a failure of this call does not set off: they
    # retry only what fails in other ``try`` statements, so this call's errors leave them.
    escapes: Tuple[int, ...] = ()
    # The call is in a ``try`` whose handlers catch every exception and raise none (and that no
    # retry layer of the function goes round from): its failures never reach the callers.
    swallowed: bool = False
    # Among ``escapes``, the layers whose ``try`` reads what the call returned (``r = post(...)``;
    # ``try: r.json()``): a failed answer, rather than a raised error, sets them off.
    answered: Tuple[int, ...] = ()
    # The call is in a ``try`` whose handlers catch every exception and each raise one named
    # class (``except Exception as e: raise ServiceUnavailable(e)``): the classes its failures
    # leave the function as. A layer around that retries none of them never sees them.
    converted: Tuple[str, ...] = ()
    # What the call unpacks as its only ``**`` argument, when another module makes it: a
    # function's result (``requests.get(url, **make_hook_kwargs())``: "app.make_hook_kwargs()")
    # or an object's attribute (``Redis(**config.REDIS_KWARGS)``, a property): the keys it
    # returns are the project's to tell.
    unpacks: str = ""
    # The call is in a ``try`` whose handlers catch every exception and raise again only those
    # of these classes (``except Exception as e: if isinstance(e, ApiException): raise``): its
    # other failures never reach the callers.
    spared: Tuple[str, ...] = ()
    # The classes the innermost ``try`` around the call catches by name and raises nothing
    # for (``except TemporaryError: logger.exception(...)``): those failures end there.
    caught: Tuple[str, ...] = ()
    # A client that waits the socket default, or a project wrapper, given a host of this
    # machine (``smtplib.SMTP("localhost")``, ``session.request("get", httpbin.url)``): in
    # test code, the server the test run starts.
    loopback: bool = False
    # The function of another module of the project whose result is the call's URL
    # (``requests.put(api_url_for(server, "tags"))``): in test code, when it returns a route
    # of the application's own (``url_for(...)``), the server the test run starts.
    url_from: str = ""
    # The project class a lost response of this request leaves its function as: the handler
    # of the library's errors around it ends raising it (``except RequestException: raise
    # FailedToSendSMS()``). A caller that catches that class quietly ends the failure there.
    lost_as: str = ""
    # The object the call makes never leaves the function, which only reads these attributes
    # of it (or calls them): at once (``Api(...).url()``) or through a local it assigns the
    # object once and mentions nowhere else. What it may send is what those attributes run.
    kept: Optional[Tuple[str, ...]] = None
    # The parameter of its function the call is made on, when the file knew the client only by
    # the parameter's annotation (``client.api_call(...)`` in ``def make_call(client:
    # WebClient)``): the callers decide which client, with which retries, it is.
    on_parameter: str = ""


@dataclass(**_SLOTS)
class FunctionSummary:
    name: str  # qualified: package.module.Class.method
    place: Place
    layers: List[Layer] = field(default_factory=list)
    calls: List[Call] = field(default_factory=list)
    requests: List[Request] = field(default_factory=list)
    # Decorators the file could not tell anything about: (qualified name, place). A retry policy
    # defined in another module (``@api_retry``) becomes a layer in the project pass.
    decorators: List[Tuple[str, Place]] = field(default_factory=list)
    returns: List[Ref] = field(default_factory=list)  # what it may return
    delay: Optional[str] = None  # what kind of delay it returns: "fixed" | "exponential" | "jittered"
    sets_timeout: bool = False  # it writes a "timeout" key (``kwargs.setdefault("timeout", …)``)
    db_scopes: List[DbScope] = field(default_factory=list)
    # Inside a transaction it defers its work to ``on_commit`` (it asks ``in_atomic_block``).
    defers_in_transaction: bool = False
    # Its positional parameters by name (``self`` included), and how a call through an object
    # binds the first: 0 a function or static method, 1 a method, 2 a classmethod.
    parameters: List[str] = field(default_factory=list)
    bound: int = 0
    # Constant defaults of its parameters (``retry=False``), for callers that do not pass them.
    defaults: Dict[str, Ref] = field(default_factory=dict)
    # The headers it returns, as to the idempotency key: "missing", "stable", "unstable",
    # "param:NAME" (its parameter's value); None when it returns no mapping the file reads.
    headers: Optional[str] = None
    # The class its return annotation names (``-> "Network"``), for the project pass when what
    # it returns cannot be read.
    annotation: Optional[str] = None
    # The project errors its ``raise`` statements name, each with how it raises it
    # (``libraries/raised_errors.py``): "failure" (in an ``except`` handler), "refused" (on a
    # status with which the server says it did not act, 429) or "answer".
    raises: Tuple[Tuple[str, str], ...] = ()
    # The position among its callers' arguments of the parameter it sleeps (``sleepers.py``).
    sleeps: Optional[int] = None
    # It ends the implicit transaction of the session it queries through as its last act
    # (``session.commit()``, also in a ``try`` that rolls back): "." itself, or the target of
    # the call that does it last (another module's ``session_commit()``), for the project pass.
    commits: str = ""
    # Where it commits so itself ("line:column" of that call): its calls after it run outside
    # the transaction.
    committed_at: str = ""
    # It returns with the implicit transaction of a session that outlives it still open (a
    # query through ``Model.query`` or ``db.session`` and no commit after it).
    leaves_open: bool = False
    # The parameter through whose ``.query`` it queries last, leaving that transaction open
    # (``model.query.filter(...).one()``): it returns with one open when its callers hand it a
    # model class, which the project pass tells.
    leaves_open_by: str = ""
    # The project calls after its last commit ("line:column"), outside any block or branch,
    # that may leave a transaction open for it to return with (``return self.repo.get_one(id)``
    # in a wrapper): the project pass tells whether one does and nothing after it ends it.
    open_through: Tuple[str, ...] = ()
    # It ends the implicit transaction it runs in on the way, whatever it does after (a
    # ``commit()`` outside any branch or loop, maybe in a ``try``): a transaction its caller
    # holds ends there.
    commits_within: bool = False
    # Its body yields: a call only makes the generator, and a decorator's retry around that call
    # never sees the body's failures.
    generator: bool = False
    # Its parameters annotated with a builtin scalar type and no ``None`` default (``order:
    # int``): they hold some value of that type, never None, whatever the caller passes.
    scalars: Dict[str, str] = field(default_factory=dict)
    # The keys of the dicts it returns, when each return is a dict written out whose keys the
    # file can list (``return {"hooks": {...}}``); None otherwise.
    returned_keys: Optional[Tuple[str, ...]] = None
    # A ``@property`` (or ``cached_property``) getter: read as an attribute, never called by name.
    property_getter: bool = False
    # A predicate over an exception: the classes it answers yes for (``return isinstance(exc,
    # ConnectionFailure)``), which a retry handed it retries.
    predicate_for: Tuple[str, ...] = ()


@dataclass(**_SLOTS)
class ModuleSummary:
    module: str
    path: str
    functions: Dict[str, FunctionSummary] = field(default_factory=dict)
    # Other names the module may be imported by (a namespace package seen from two roots).
    aliases: List[str] = field(default_factory=list)
    # Names bound by imports at module level: local name → qualified name (re-exports); and
    # the modules it imports everything from (``from .timing import *``).
    imports: Dict[str, str] = field(default_factory=dict)
    star_imports: List[str] = field(default_factory=list)
    # The other imports of a name bound by several (in ``if``/``else`` branches, or a fallback
    # for an ``ImportError``), in source order; ``imports`` holds the last.
    other_imports: Dict[str, List[str]] = field(default_factory=dict)
    # It sets a process-wide socket timeout when it is imported (``socket.setdefaulttimeout(N)``
    # at its top level), and the modules its top-level imports may load (``a.b``, ``a.b.c``).
    sets_socket_default: bool = False
    imported_modules: List[str] = field(default_factory=list)
    # What the module's names may hold, joined over every assignment the file shows: module
    # globals, and ``Class.attr`` for class attributes and what ``self.attr = …`` stores.
    values: Dict[str, List[Ref]] = field(default_factory=dict)
    # The module's classes: qualified name → the names of their bases, as the file reads them;
    # and those that fill in a timeout for every request (a ``Session`` subclass's ``request``).
    classes: Dict[str, List[str]] = field(default_factory=dict)
    timeout_classes: List[str] = field(default_factory=list)
    # Of the others, those that mount on themselves adapters of classes of other modules: the
    # project pass tells whether one of those fills in a timeout.
    timeout_adapters: Dict[str, List[str]] = field(default_factory=dict)
    # Facts about objects made in the module, by the key their "new" values carry.
    objects: Dict[str, "ObjectFacts"] = field(default_factory=dict)
    # Retry policies kept in module variables (``api_retry = tenacity.retry(...)``), for the
    # functions of other modules that they decorate; and, under a library's name, the settings
    # that make every request of that library retry (``stripe.max_network_retries = 2``).
    policies: Dict[str, Layer] = field(default_factory=dict)
    waits: List[Wait] = field(default_factory=list)
    settings: List[Setting] = field(default_factory=list)
    # Suppression comments: line → the codes they name (None: every code).
    suppressions: Dict[int, Optional[List[str]]] = field(default_factory=dict)
    # With RES001 enabled: suppressions that may serve a project rule, judged after the pass.
    pending_suppressions: List[Dict[str, Any]] = field(default_factory=list)
    # ``# resilint: noqa`` comments: (the comment's line, the codes they name; None: every code).
    file_suppressions: List[Tuple[int, Optional[List[str]]]] = field(default_factory=list)
    # Receivers of Django's model signals it connects: (what sends the signal, "save" or
    # "delete"; the sender model, "" for every model; the receiver function), run where such a
    # model is saved (or created) or deleted.
    receivers: List[Tuple[str, str, str]] = field(default_factory=list)
    # Its pytest fixtures that keep test doubles on for the tests requesting them: fixture name
    # (``AUTOUSE`` for those every test gets) → what the doubles answer. The project pass gives
    # them to the tests under a ``conftest.py``, and to every test from a plugin module.
    fixtures: Dict[str, List[str]] = field(default_factory=dict)
    # The modules its ``pytest_plugins = [...]`` loads as plugins (a ``conftest.py``'s, or a
    # plugin's own).
    pytest_plugins: List[str] = field(default_factory=list)
    # And those that give their tests a server of this machine (``return live_server``, a URL
    # of 127.0.0.1): a test's request to a URL read from one goes to the server its run starts.
    servers: List[str] = field(default_factory=list)
    # Its other fixtures that give their tests an object a project class of another module
    # makes: fixture name → the qualified names called to make it (``MockHub.instance``).
    server_classes: Dict[str, List[str]] = field(default_factory=dict)
    # Its classes whose address attribute defaults to this machine (``bind_url``, ``host``).
    local_classes: List[str] = field(default_factory=list)
    # Its classes that keep a test double on while they are active (a ``with`` block, or a
    # decorator: ``class HttpMocker(ContextDecorator)`` entering a ``requests_mock.Mocker()``),
    # with what the double answers: the project pass gives the calls under them that answer.
    mock_classes: Dict[str, List[str]] = field(default_factory=dict)

    def suppressing_line(self, code: str, place: Place) -> Optional[int]:
        """The line of the comment that suppresses ``code`` at ``place``, if any."""
        for line, codes in self.file_suppressions:
            if codes is None or code in codes:
                return line
        for line in range(place.line, place.end_line + 1):
            if line in self.suppressions:
                codes = self.suppressions[line]
                if codes is None or code in codes:
                    return line
        return None

    def to_json(self, lines: Optional[List[int]] = None) -> List[Any]:
        """Plain data for the cache, positional (a list per object, in field order) and without
        the file's path in every place: the cached summaries of a project are read whole each
        time a file changes, and this form decodes several times faster than field names.

        ``lines``: the line numbers of places and suppressions are appended to it, in order,
        and written as 0 (``lint/line_shift.py``; "line:column" strings are its to find)."""
        path = self.path

        def line(number: int) -> int:
            if lines is None:
                return number
            lines.append(number)
            return 0

        def place(p: Place) -> List[Any]:
            if p.path == path:
                return [line(p.line), p.column, line(p.end_line), p.end_column]
            return [p.line, p.column, p.end_line, p.end_column, p.path]

        def layer(item: Layer) -> List[Any]:
            return [item.description, item.calls, place(item.place), item.whole_function, item.client, item.retrier,
                    item.guards_non_idempotent, item.library, item.retries_on, list(item.exceptions), item.gives_up_with,
                    item.guard, item.via, item.applies, item.count_from, item.count_offset,
                    item.retries_refusals, item.caught_from,
                    [[d[0], [list(r) for r in d[1]], d[2], d[3]] for d in item.decided_by]]

        def arguments(item: Optional[Arguments]) -> Optional[List[Any]]:
            if item is None:
                return None
            values = [[v.keyword, v.value, v.text, place(v.place), v.parameter, v.position, v.default, v.default_text,
                       v.kept_by_init, v.filled_in] for v in item.values]
            return _trimmed([list(item.keywords), item.positional, item.star, item.double_star, item.forwards_kwargs,
                             values, item.supplied, item.forwards_args], _ARGUMENTS)

        def function(f: FunctionSummary) -> List[Any]:
            return _trimmed([
                f.name, place(f.place), [layer(item) for item in f.layers],
                [_trimmed([c.target, place(c.place), list(c.layers), c.retrying, arguments(c.arguments), list(c.mocked),
                           c.sends, list(c.db_scopes), c.later, [list(p) for p in c.passed], c.bound, c.receiver,
                           [[g[0], g[1], [list(r) for r in g[2]]] for g in c.guards], list(c.escapes), c.swallowed, list(c.answered),
                           list(c.converted), c.unpacks, list(c.spared), list(c.caught), c.loopback, c.url_from, c.lost_as, None if c.kept is None else list(c.kept), c.on_parameter],
                          _CALL)
                 for c in f.calls],
                [_trimmed([r.method, r.name, r.status, r.detail, place(r.place), r.method_from, r.key_from, r.receiver],
                          _REQUEST) for r in f.requests],
                [[name, place(where)] for name, where in f.decorators],
                list(f.returns), f.delay, f.sets_timeout,
                [[d.description, d.holds, place(d.place), d.via, d.whole_function, d.locks, d.yields, d.wraps, d.implicit,
                  list(d.queries)] for d in f.db_scopes],
                f.defers_in_transaction, f.parameters, f.bound, f.defaults, f.headers, f.annotation,
                [list(entry) for entry in f.raises], f.sleeps, f.commits, f.leaves_open, f.scalars,
                None if f.returned_keys is None else list(f.returned_keys), f.committed_at, list(f.open_through),
                f.commits_within, f.generator, f.leaves_open_by, f.property_getter, list(f.predicate_for),
            ], _FUNCTION)

        return [
            SUMMARY_VERSION, self.module, path, [function(f) for f in self.functions.values()], self.aliases,
            self.imports, self.values, {name: layer(item) for name, item in self.policies.items()}, self.classes,
            {key: [o.layer, o.sets_timeout, o.key, o.namespaced, o.presign, o.requests] for key, o in self.objects.items()},
            [self.timeout_classes, self.timeout_adapters],
            [[w.via, w.text, w.library, place(w.place), w.slept, w.slept_as] for w in self.waits],
            [[line(number), codes] for number, codes in self.suppressions.items()],
            [{**entry, "line": line(entry["line"])} for entry in self.pending_suppressions] if lines is not None
            else self.pending_suppressions,
            [[line(number), codes] for number, codes in self.file_suppressions], self.star_imports, self.sets_socket_default,
            self.imported_modules, self.other_imports,
            [[s.name, place(s.place), s.conditional, list(s.dotted)] for s in self.settings],
            [list(receiver) for receiver in self.receivers], self.fixtures, self.servers, self.mock_classes,
            self.pytest_plugins, self.server_classes, self.local_classes,
        ]

    @classmethod
    def from_json(cls, data: Any, shared: Optional["SharedValues"] = None) -> Optional["ModuleSummary"]:
        """The summary stored in ``data`` (``to_json``), or None when it is not one of this
        version or not of its shape. ``shared``: the values already read from other summaries,
        which this one then shares rather than holds again (``SharedValues``)."""
        if shared is None:
            shared = SharedValues()
        ref_from_json = shared.ref
        intern = sys.intern
        try:
            if data[0] != SUMMARY_VERSION:
                return None
            path = str(data[2])

            def place(p: List[Any]) -> Place:
                return Place(str(p[4]) if len(p) > 4 else path, int(p[0]), int(p[1]), int(p[2]), int(p[3]))

            def layer(d: List[Any]) -> Layer:
                return Layer(d[0], d[1], place(d[2]), d[3], d[4], d[5], d[6], d[7], d[8], tuple(d[9]), d[10], d[11], d[12],
                             d[13], d[14], d[15], d[16], d[17],
                             tuple((e[0], tuple(tuple(r) for r in e[1]), e[2], e[3]) for e in d[18]))

            def arguments(d: Optional[List[Any]]) -> Optional[Arguments]:
                if d is None:
                    return None
                d = d + _ARGUMENTS[len(d):]
                if not d[5]:  # most calls: no timeout value, an Arguments like many others
                    return shared.arguments(
                        tuple(intern(str(k)) for k in d[0]), int(d[1]), bool(d[2]), bool(d[3]), bool(d[4]), bool(d[6]),
                        bool(d[7]),
                    )
                values = tuple(Argument(v[0], v[1], v[2], place(v[3]), v[4], v[5], v[6], v[7], bool(v[8:] and v[8]), bool(v[9:] and v[9])) for v in d[5])
                return Arguments(tuple(d[0]), int(d[1]), bool(d[2]), bool(d[3]), bool(d[4]), values, bool(d[6]), bool(d[7]))

            def call(c: List[Any]) -> Call:
                c = c + _CALL[len(c):]
                return Call(intern(str(c[0])), place(c[1]), tuple(c[2]), c[3], arguments(c[4]), tuple(c[5]), bool(c[6]),
                            tuple(map(int, c[7])), bool(c[8]), tuple((p[0], ref_from_json(p[1])) for p in c[9]),
                            bool(c[10]), str(c[11]),
                            tuple((str(g[0]), str(g[1]), tuple(ref_from_json(r) for r in g[2])) for g in c[12]),
                            tuple(map(int, c[13])), bool(c[14]), tuple(map(int, c[15])), tuple(map(str, c[16])), str(c[17]),
                            tuple(map(str, c[18])), tuple(map(str, c[19])), bool(c[20]), str(c[21]), str(c[22]),
                            None if c[23] is None else tuple(map(str, c[23])), str(c[24]))

            def request(r: List[Any]) -> Request:
                r = r + _REQUEST[len(r):]
                return Request(r[0], r[1], r[2], r[3], place(r[4]), r[5], r[6], r[7])

            def function(f: List[Any]) -> FunctionSummary:
                f = f + _FUNCTION[len(f):]
                return FunctionSummary(
                    name=str(f[0]), place=place(f[1]), layers=[layer(item) for item in f[2]],
                    calls=[call(c) for c in f[3]],
                    requests=[request(r) for r in f[4]],
                    decorators=[(str(name), place(where)) for name, where in f[5]],
                    returns=[ref_from_json(r) for r in f[6]], delay=f[7], sets_timeout=bool(f[8]),
                    db_scopes=[
                        DbScope(
                            str(d[0]), str(d[1]), place(d[2]), d[3], bool(d[4]), bool(d[5]), bool(d[6]), bool(d[7]), str(d[8]),
                            tuple(str(q) for q in d[9]),
                        )
                        for d in f[9]
                    ],
                    defers_in_transaction=bool(f[10]), parameters=[str(name) for name in f[11]], bound=int(f[12]),
                    defaults={str(name): ref_from_json(ref) for name, ref in f[13].items()}, headers=f[14],
                    annotation=f[15], raises=tuple((str(e[0]), str(e[1])) for e in f[16]),
                    sleeps=None if f[17] is None else int(f[17]), commits=str(f[18]), leaves_open=bool(f[19]),
                    scalars={str(name): str(kind) for name, kind in f[20].items()},
                    returned_keys=None if f[21] is None else tuple(str(key) for key in f[21]),
                    committed_at=str(f[22]), open_through=tuple(str(at) for at in f[23]),
                    commits_within=bool(f[24]), generator=bool(f[25]), leaves_open_by=str(f[26]),
                    property_getter=bool(f[27]), predicate_for=tuple(str(name) for name in f[28]),
                )

            functions = [function(f) for f in data[3]]
            return cls(
                module=str(data[1]), path=path, functions={f.name: f for f in functions},
                aliases=[str(a) for a in data[4]], imports=dict(data[5]),
                values={str(name): [ref_from_json(r) for r in refs] for name, refs in data[6].items()},
                policies={str(name): layer(item) for name, item in data[7].items()},
                classes={str(name): [str(b) for b in bases] for name, bases in data[8].items()},
                objects={
                    str(key): ObjectFacts(o[0], bool(o[1]), str(o[2]), bool(o[3]), str(o[4]), str(o[5]))
                    for key, o in data[9].items()
                },
                timeout_classes=[str(name) for name in data[10][0]],
                timeout_adapters={str(name): [str(a) for a in adapters] for name, adapters in data[10][1].items()},
                waits=[Wait(w[0], w[1], w[2], place(w[3]), str(w[4]), str(w[5])) for w in data[11]],
                suppressions={int(line): (None if codes is None else [str(c) for c in codes]) for line, codes in data[12]},
                pending_suppressions=[dict(entry) for entry in data[13]],
                file_suppressions=[
                    (int(line), None if codes is None else [str(c) for c in codes]) for line, codes in data[14]
                ],
                star_imports=[str(name) for name in data[15]],
                sets_socket_default=bool(data[16]), imported_modules=[str(name) for name in data[17]],
                other_imports={str(name): [str(i) for i in imported] for name, imported in data[18].items()},
                settings=[Setting(str(s[0]), place(s[1]), bool(s[2]), tuple(str(d) for d in s[3])) for s in data[19]],
                receivers=[(str(sent_by), str(sender), str(receiver)) for sent_by, sender, receiver in data[20]],
                fixtures={str(name): [str(m) for m in mocks] for name, mocks in data[21].items()},
                servers=[str(name) for name in data[22]],
                mock_classes={str(name): [str(m) for m in mocks] for name, mocks in data[23].items()},
                pytest_plugins=[str(name) for name in data[24]],
                server_classes={str(name): [str(m) for m in made] for name, made in data[25].items()},
                local_classes=[str(name) for name in data[26]],
            )
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            return None


# What ``to_json`` leaves off the end of a list when it is the field's default; the names and
# places that lead each list have none.
_ARGUMENTS: List[Any] = [[], 0, False, False, False, [], False, False]
_CALL: List[Any] = [None, None, [], None, None, [], False, [], False, [], False, "", [], [], False, [], [], "", [], [], False, "", "", None, ""]
_FUNCTION: List[Any] = [None, None, [], [], [], [], [], None, False, [], False, [], 0, {}, None, None, [], None, "", False, {}, None, "", [], False, False, "", False, []]
_REQUEST: List[Any] = [None, None, None, None, None, None, None, None]


def summary_refs(summary: ModuleSummary) -> Iterator[Ref]:
    """Every value a module summary records: its names', its functions' returns, defaults and
    the arguments of their calls, the entries of its mappings."""
    pending: List[Ref] = [ref for refs in summary.values.values() for ref in refs]
    for function in summary.functions.values():
        pending.extend(function.returns)
        pending.extend(function.defaults.values())
        pending.extend(ref for call in function.calls for _, ref in call.passed)
    while pending:
        ref = pending.pop()
        if ref[0] == "dict":
            pending.extend(entry for _, entry in ref[1])
        elif ref[0] == "or":
            pending.append(("ref", ref[1]))
            pending.extend(ref[2])
        yield ref


def ref_from_json(data: Any) -> Ref:
    """A value as ``to_json`` stored it (lists all the way down) back as tuples."""
    return tuple(ref_from_json(item) if isinstance(item, list) else item for item in data)


# ``ModuleSummary.fixtures``' key for the fixtures every test under the ``conftest.py`` gets.
AUTOUSE = "(autouse)"
# The decorators that make a function a pytest fixture.
FIXTURE_DECORATORS = frozenset({"pytest.fixture", "pytest_asyncio.fixture"})

# The kinds of values made of strings only (``lint/summary.py``'s list at the top).
_FLAT_KINDS = frozenset({"ref", "new", "str", "headers", "fresh"})


class SharedValues:
    """What the summaries of one project read from JSON have in common, held once: the values
    (``("ref", "pkg.f.(session)")`` is passed by hundreds of calls), the names in them, and the
    shapes of call arguments without a timeout value. The main process holds every summary of
    a project during its pass; about a third of them was such repeats."""

    __slots__ = ("_refs", "_arguments")

    def __init__(self) -> None:
        self._refs: Dict[Ref, Ref] = {}
        self._arguments: Dict[Tuple[Any, ...], Arguments] = {}

    def ref(self, data: Any) -> Ref:
        """``ref_from_json(data)``, the same tuple for equal values made of strings."""
        if data[0] in _FLAT_KINDS:
            # (Only values made of strings: ``("int", 1)`` equals ``("int", True)``.)
            value = tuple(data)
            try:
                return self._refs.setdefault(value, value)
            except TypeError:  # not of its kind's shape: kept as it is
                pass
        return ref_from_json(data)

    def arguments(
        self, keywords: Tuple[str, ...], positional: int, star: bool, double_star: bool, forwards_kwargs: bool,
        supplied: bool, forwards_args: bool,
    ) -> Arguments:
        """The arguments of that shape without values (``Arguments`` is frozen: shared safely)."""
        key = (keywords, positional, star, double_star, forwards_kwargs, supplied, forwards_args)
        found = self._arguments.get(key)
        if found is None:
            found = self._arguments[key] = Arguments(
                keywords, positional, star, double_star, forwards_kwargs, (), supplied, forwards_args,
            )
        return found


def _trimmed(values: List[Any], defaults: List[Any]) -> List[Any]:
    while len(values) > 2 and values[-1] == defaults[len(values) - 1]:
        values.pop()
    return values


class PackedSummary:
    """A summary kept pickled from the worker that made it until the project pass reads it:
    about a quarter of the memory of the objects, for the main process that holds the summary
    of every file while the workers check the rest."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    @classmethod
    def pack(cls, summary: ModuleSummary) -> "PackedSummary":
        # The cache's plain lists pickle in C, twice as fast as the frozen dataclasses (whose
        # state pickle reads and restores field by field in Python), and a third smaller.
        return cls(pickle.dumps(summary.to_json(), protocol=pickle.HIGHEST_PROTOCOL))

    def unpack(self, shared: Optional["SharedValues"] = None) -> ModuleSummary:
        summary = ModuleSummary.from_json(pickle.loads(self.data), shared)
        assert summary is not None  # made by ``pack`` in this version
        return summary


def unpack_all(packed: List[PackedSummary], shared: Optional[SharedValues] = None) -> List[ModuleSummary]:
    """The summaries, emptying ``packed`` as it goes so that each pickle is freed as soon as
    its objects exist (the two forms of every summary are never held at once); their common
    values held once (``shared``, else among these summaries)."""
    shared = shared if shared is not None else SharedValues()
    packed.reverse()
    summaries = []
    while packed:
        summaries.append(packed.pop().unpack(shared))
    return summaries
