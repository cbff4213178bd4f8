"""Qualified names: ``normalise`` folds library-internal module paths onto the public package,
and the sets of names that the recognisers of several libraries and loops share. The names
one library handles are declared in that library's module."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from resilint.lint.canonical import canonical_name

_TENACITY_SUBMODULES = frozenset(
    {"wait", "stop", "retry", "asyncio", "_asyncio", "before", "after", "before_sleep", "nap", "tornadoweb", "_utils"}
)
_FLATTEN = ("backoff.", "stamina.", "httpx.", "tenacity.", "celery.")


def normalise(name: Optional[str]) -> Optional[str]:
    """Canonical name, with library-internal module paths folded onto the public package."""
    if name is None:
        return None
    return _normalised(name)


@lru_cache(maxsize=1 << 16)  # the same few thousand names are asked for every call of a run
def _normalised(name: str) -> str:
    previous = None
    while previous != name:
        previous, name = name, canonical_name(name)
    parts = name.split(".")
    if name.startswith("tenacity.") and len(parts) >= 3 and parts[1] in _TENACITY_SUBMODULES:
        return "tenacity." + ".".join(parts[2:])
    if name.startswith(_FLATTEN) and len(parts) >= 3:
        private = [i for i, p in enumerate(parts[1:-1], 1) if p.startswith("_")]
        if private:
            return parts[0] + "." + ".".join(parts[max(private) + 1 :]).lstrip(".")
    return name


SLEEPS = frozenset({
    "time.sleep", "asyncio.sleep", "trio.sleep", "anyio.sleep", "gevent.sleep", "eventlet.sleep",
    "eventlet.greenthread.sleep", "tornado.gen.sleep", "curio.sleep",
})
# Library calls that wait their argument at another place than the first (``deferLater(reactor,
# delay)``, Twisted's sleep): (position, keyword). The fixes leave them alone.
LIBRARY_SLEEPERS = {"twisted.internet.task.deferLater": (1, "delay")}
# A method that runs a callback after a delay (Twisted's ``IReactorTime.callLater(delay, f)``):
# a function that hands it its parameter and waits for the callback sleeps that parameter.
SCHEDULING_METHODS = frozenset({"callLater"})
# What opens a connection that is then read until it ends (besides the clients' requests,
# ``httpx.AsyncClient.stream``): a websocket.
STREAM_OPENERS = frozenset({
    "websockets.connect", "websockets.client.connect", "websockets.asyncio.client.connect",
    "websockets.legacy.client.connect", "aiohttp.ClientSession.ws_connect", "websocket.create_connection",
})
# Library calls that consume a broker's stream until it ends (Celery's event receiver, a kombu
# consumer): the loop around them connects again after each failure.
STREAM_CONSUMERS = frozenset({
    "celery.events.EventReceiver.capture", "celery.events.receiver.EventReceiver.capture",
    "kombu.mixins.ConsumerMixin.run",
})
CLOCKS = frozenset({
    "time.time", "time.monotonic", "time.perf_counter", "time.time_ns", "time.monotonic_ns",
    "datetime.datetime.now", "datetime.datetime.utcnow", "asyncio.get_event_loop", "asyncio.get_running_loop",
})
RANDOM_MODULES = ("random.", "secrets.", "numpy.random.", "os.urandom", "uuid.uuid1", "uuid.uuid4")
JITTERED_HELPERS = frozenset({
    "resilint.runtime.backoff_delay", "resilint.runtime.retry.backoff_delay",
    "resilint.runtime.full_jitter", "resilint.runtime.retry.full_jitter",
})
PURE_FUNCTIONS = frozenset({
    "builtins.min", "builtins.max", "builtins.float", "builtins.int", "builtins.round", "builtins.abs",
    "builtins.pow", "math.pow", "math.exp", "math.ceil", "math.floor", "math.log", "math.sqrt",
})
NOT_FAILURES = frozenset({
    "builtins.StopIteration", "builtins.StopAsyncIteration", "builtins.KeyboardInterrupt",
    "builtins.GeneratorExit", "builtins.SystemExit", "queue.Empty", "queue.Full",
    "asyncio.CancelledError", "asyncio.QueueEmpty", "asyncio.QueueFull", "builtins.EOFError",
    "concurrent.futures.CancelledError", "multiprocessing.queues.Empty",
    # TLS asks for the peer's next bytes (a non-blocking socket, a memory BIO): a wait, not a failure
    "ssl.SSLWantReadError", "ssl.SSLWantWriteError", "OpenSSL.SSL.WantReadError", "OpenSSL.SSL.WantWriteError",
})
ANY_EXCEPTION = frozenset({"builtins.Exception", "builtins.BaseException"})
# Errors of local state only (a file, a lock, a lookup, a collection changed while read): a
# loop that waits on them polls the machine it runs on, it does not retry another service.
LOCAL_ERRORS = frozenset({
    "builtins.FileExistsError", "builtins.FileNotFoundError", "builtins.IsADirectoryError",
    "builtins.NotADirectoryError", "builtins.PermissionError", "builtins.BlockingIOError",
    "builtins.IndexError", "builtins.KeyError", "builtins.LookupError", "builtins.RuntimeError",
    "builtins.InterruptedError", "builtins.ChildProcessError",
    # a child process of this program that has not ended yet (``process.wait(timeout=5)``)
    "subprocess.TimeoutExpired",
    # an answer refused by a schema of this process (voluptuous): the same input fails again
    "voluptuous.Invalid", "voluptuous.MultipleInvalid", "voluptuous.error.Invalid",
    "voluptuous.error.MultipleInvalid",
    # a serial port of this machine (pyserial), opened again after the device went away
    "serial.SerialException", "serial.serialutil.SerialException", "serial.SerialTimeoutException",
    "serial.serialutil.SerialTimeoutException",
    # a future of this process not done yet (``future.result(timeout=0.5)``): nothing is sent again
    "concurrent.futures.TimeoutError", "concurrent.futures._base.TimeoutError",
    "graphlib.CycleError",  # a dependency graph of this process sorted again without the cycle
    # a SQLite database is a file of this machine ("database is locked": another local writer)
    "sqlite3.OperationalError", "sqlite3.DatabaseError", "sqlite3.Error",
})
# The last part of the name of an error a dependency raises when it answered and refused the
# input (a constraint or a validation failed): the same input fails the same way again, and a
# dependency that is down raises something else. A loop that catches only these changes its
# input (the next name, the table's turn in the queue) rather than waiting for a service.
REFUSED_INPUT_ERRORS = frozenset({
    "IntegrityError", "UniqueViolation", "UniqueViolationError", "ForeignKeyViolation",
    "ForeignKeyViolationError", "DuplicateKeyError", "ValidationError",
})
# And a project's own errors named for the conflict (``SlugExistsError``, ``AlreadyExists``,
# ``DuplicateName``), which code raises when the store refuses a name that is taken.
REFUSED_INPUT_NAME = re.compile(r"(Already)?Exists(Error|Exception)?$|^Duplicate[A-Z]")
# Modules whose calls act on the local machine: files, processes, locks, clocks, parsing, log
# lines, devices, in-process queues. (Not D-Bus: a broker many clients of the machine share
# fails them together.)
# A function named for a pause (``retry.sleep_func(t)``, ``self.wait(until=...)``).
PAUSE_WORD = re.compile(r"sleep|wait|backoff|delay|pause|throttle", re.I)
LOCAL_MODULES = (
    "os.", "shutil.", "pathlib.", "fcntl.", "msvcrt.", "glob.", "tempfile.", "json.", "io.", "time.",
    "send2trash.",  # moving a file of this machine to its recycle bin
    # lock files and inter-process locks of this machine
    "filelock.", "portalocker.", "zc.lockfile.", "flufl.lock.", "fasteners.",
    "subprocess.", "signal.", "sqlite3.", "pickle.", "csv.", "zipfile.", "tarfile.",
    "builtins.", "logging.", "pyudev.", "psutil.", "serial.", "usb.", "evdev.", "re.", "graphlib.",
    "curses.",  # the terminal of this machine: a key read again until one is pressed
    "sys.stdout.", "sys.stderr.", "sys.stdin.",  # this process's own streams
    "portend.",  # whether a port of this machine is free, or taken
    # computing in this process: drawing random values, parsing, compressing, hashing, encoding
    "random.", "secrets.", "string.", "uuid.", "math.", "decimal.", "fractions.", "zlib.", "gzip.", "bz2.",
    "lzma.", "base64.", "binascii.", "hashlib.", "hmac.", "struct.", "codecs.", "copy.", "textwrap.",
    "unicodedata.", "difflib.", "itertools.", "functools.", "operator.", "collections.",
    # dates and time zones (the zone files are this machine's), and their text forms
    "datetime.", "calendar.", "zoneinfo.", "dateutil.", "pytz.", "email.utils.", "wsgiref.handlers.format_date_time",
    # parsing and formatting text, and markup given as text; translating it
    "urllib.parse.", "html.", "shlex.", "locale.", "bs4.", "gettext.", "django.utils.translation.",
    # validating and making up values in this process (Django's validators, Faker)
    "django.core.validators.", "faker.",
    # importing and inspecting this program's modules
    "importlib.", "pkgutil.", "inspect.",
    # in-process queues, events and locks, and the wait that bounds them (its awaited call is
    # judged itself)
    "asyncio.Queue.", "asyncio.PriorityQueue.", "asyncio.LifoQueue.", "asyncio.Event.", "asyncio.Condition.",
    "asyncio.wait_for", "queue.Queue.", "queue.SimpleQueue.", "queue.PriorityQueue.", "queue.LifoQueue.",
    "threading.Event", "threading.Condition", "threading.Lock", "threading.RLock", "threading.Semaphore",
    "threading.BoundedSemaphore",
    # a unix-domain socket, or a Windows named pipe (pywin32): a process of this machine
    "asyncio.open_unix_connection", "asyncio.start_unix_server", "win32file.", "win32pipe.",
    # a server of this program binding its own port (aiohttp's runner and sites)
    "aiohttp.web.AppRunner", "aiohttp.web.TCPSite", "aiohttp.web.UnixSite", "aiohttp.web.SockSite",
    "aiohttp.web_runner.",
)
# Calls that ask a person for input: a loop that asks again after a failure sends new input.
USER_INPUT = frozenset({
    "builtins.input", "getpass.getpass", "click.prompt", "click.confirm", "typer.prompt", "typer.confirm",
    "rich.prompt.Prompt.ask", "rich.prompt.Confirm.ask", "prompt_toolkit.prompt", "prompt_toolkit.PromptSession.prompt",
    "aioconsole.ainput",
})
USER_INPUT_WORD = re.compile(r"prompt|^ask$|^ask_|^(raw_|get_|read_|user_|a)?input$", re.I)
# What takes an item off a queue or a list, and what puts one (back) on it.
POPS = frozenset({"pop", "popleft"})
TAKES = frozenset({"get", "get_nowait"}) | POPS
PUTS_BACK = frozenset({"put", "put_nowait", "append", "appendleft", "insert"})
REFILLS = PUTS_BACK | {"extend"}
# Clients built for later requests, which send nothing when made.
CLIENT_BUILDERS = frozenset({
    "aiohttp.ClientSession", "httpx.Client", "httpx.AsyncClient", "requests.Session", "requests.session",
})
