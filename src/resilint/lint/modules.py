"""Which module a file is, for the import system: its dotted names, and the project roots they
start from. Read from the directories around the file (``__init__.py``), without parsing it."""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from resilint.lint.config import Settings


def _is_package(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "__init__.py"))


def module_name(path: str, roots: Sequence[str] = ()) -> str:
    """The dotted module name of a file: from the packages (``__init__.py``) around it, or, for
    a file in no package (namespace packages, scripts), from the project root it lies under."""
    return module_names(path, roots)[0]


def module_names(path: str, roots: Sequence[str] = (), is_package: Callable[[str], bool] = _is_package) -> List[str]:
    """Every name the file may be imported by, the one its own code resolves with first.

    A package without ``__init__.py`` (PEP 420) may be imported from the project root
    (``app.services.x``) or from a directory on ``sys.path`` below it (``services.x``): both
    are names of the same module."""
    absolute = os.path.abspath(path)
    directory, filename = os.path.split(absolute)
    stem = filename.rsplit(".", 1)[0]
    parts = [] if stem == "__init__" else [stem]
    while is_package(directory):
        directory, package = os.path.split(directory)
        parts.append(package)
        if not package:
            break
    packaged = ".".join(reversed(parts))
    names = [packaged] if packaged else []
    for root in roots:
        relative = os.path.relpath(absolute, root)
        if relative.startswith(".."):
            continue
        pieces = relative.split(os.sep)
        pieces[-1] = pieces[-1].rsplit(".", 1)[0]
        if pieces[-1] == "__init__":
            pieces.pop()
        if pieces and all(piece.isidentifier() for piece in pieces):
            name = ".".join(pieces)
            if name not in names:
                names.append(name)
    if parts == [stem] and len(names) > 1:
        names.append(names.pop(0))  # in no package: the root-relative name is the module's own
    return names or [stem]


def project_roots(settings: Settings) -> List[str]:
    """Where the project's imports start: ``src/`` in a src layout, the project root, and a
    directory below it that holds a Django ``manage.py`` (which puts its own directory on
    ``sys.path``: ``apps/common/x.py`` is imported as ``common.x`` there)."""
    source = os.path.join(settings.root, "src")
    roots = [source, settings.root] if os.path.isdir(source) else [settings.root]
    return roots + [d for d in _django_roots(os.path.abspath(settings.root)) if d not in roots]


@lru_cache(maxsize=8)
def _django_roots(root: str) -> Tuple[str, ...]:
    """The directories one or two levels below ``root`` that hold a ``manage.py``."""
    found = []
    level = [root]
    for _ in range(2):
        below = []
        for directory in level:
            try:
                entries = sorted(os.scandir(directory), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and entry.name.isidentifier() and not entry.name.startswith("_"):
                    below.append(entry.path)
                    if os.path.isfile(os.path.join(entry.path, "manage.py")):
                        found.append(entry.path)
        level = below
    return tuple(found)


class ModuleFinder:
    """Finds the file that ``import module`` would load from one of the roots, as Python looks
    for it; a name whose parent is no package directory under a root (``requests.Session.get``)
    costs one memoised directory test, not a search."""

    def __init__(self, roots: Sequence[str]) -> None:
        self.roots = roots
        self._directories: Dict[str, bool] = {}
        self._listings: Dict[str, Set[str]] = {}

    def find(self, module: str) -> Optional[str]:
        parts = module.split(".")
        if not all(part.isidentifier() for part in parts):
            return None
        for root in self.roots:
            if not self._may_hold(root, parts[0]):
                continue
            parent = os.path.join(root, *parts[:-1])
            if len(parts) > 1 and not self._is_directory(parent):
                continue
            base = os.path.join(parent, parts[-1])
            for candidate in (base + ".py", os.path.join(base, "__init__.py")):
                if os.path.isfile(candidate):
                    return candidate
        return None

    def _may_hold(self, root: str, top: str) -> bool:
        """Whether ``root`` has a package or module named ``top`` (one listing per root)."""
        names = self._listings.get(root)
        if names is None:
            try:
                names = {entry[:-3] if entry.endswith(".py") else entry for entry in os.listdir(root)}
            except OSError:
                names = set()
            self._listings[root] = names
        return top in names

    def _is_directory(self, path: str) -> bool:
        if path not in self._directories:
            self._directories[path] = os.path.isdir(path)
        return self._directories[path]


# ``sys.stdlib_module_names`` (Python 3.10+) as of 3.11, for Python 3.9, which lacks it.
_STDLIB_3_11 = frozenset((
    "abc", "aifc", "antigravity", "argparse", "array", "ast", "asynchat", "asyncio", "asyncore",
    "atexit", "audioop", "base64", "bdb", "binascii", "bisect", "builtins", "bz2", "cProfile",
    "calendar", "cgi", "cgitb", "chunk", "cmath", "cmd", "code", "codecs", "codeop", "collections",
    "colorsys", "compileall", "concurrent", "configparser", "contextlib", "contextvars", "copy",
    "copyreg", "crypt", "csv", "ctypes", "curses", "dataclasses", "datetime", "dbm", "decimal",
    "difflib", "dis", "distutils", "doctest", "email", "encodings", "ensurepip", "enum", "errno",
    "faulthandler", "fcntl", "filecmp", "fileinput", "fnmatch", "fractions", "ftplib", "functools",
    "gc", "genericpath", "getopt", "getpass", "gettext", "glob", "graphlib", "grp", "gzip",
    "hashlib", "heapq", "hmac", "html", "http", "idlelib", "imaplib", "imghdr", "imp", "importlib",
    "inspect", "io", "ipaddress", "itertools", "json", "keyword", "lib2to3", "linecache", "locale",
    "logging", "lzma", "mailbox", "mailcap", "marshal", "math", "mimetypes", "mmap",
    "modulefinder", "msilib", "msvcrt", "multiprocessing", "netrc", "nis", "nntplib", "nt",
    "ntpath", "nturl2path", "numbers", "opcode", "operator", "optparse", "os", "ossaudiodev",
    "pathlib", "pdb", "pickle", "pickletools", "pipes", "pkgutil", "platform", "plistlib",
    "poplib", "posix", "posixpath", "pprint", "profile", "pstats", "pty", "pwd", "py_compile",
    "pyclbr", "pydoc", "pydoc_data", "pyexpat", "queue", "quopri", "random", "re", "readline",
    "reprlib", "resource", "rlcompleter", "runpy", "sched", "secrets", "select", "selectors",
    "shelve", "shlex", "shutil", "signal", "site", "smtpd", "smtplib", "sndhdr", "socket",
    "socketserver", "spwd", "sqlite3", "sre_compile", "sre_constants", "sre_parse", "ssl", "stat",
    "statistics", "string", "stringprep", "struct", "subprocess", "sunau", "symtable", "sys",
    "sysconfig", "syslog", "tabnanny", "tarfile", "telnetlib", "tempfile", "termios", "textwrap",
    "this", "threading", "time", "timeit", "tkinter", "token", "tokenize", "tomllib", "trace",
    "traceback", "tracemalloc", "tty", "turtle", "turtledemo", "types", "typing", "unicodedata",
    "unittest", "urllib", "uu", "uuid", "venv", "warnings", "wave", "weakref", "webbrowser",
    "winreg", "winsound", "wsgiref", "xdrlib", "xml", "xmlrpc", "zipapp", "zipfile", "zipimport",
    "zlib", "zoneinfo",
))
STANDARD_LIBRARY: FrozenSet[str] = frozenset(getattr(sys, "stdlib_module_names", ())) | _STDLIB_3_11


# The standard library's modules the rules know (network clients, sleeps, random draws): a
# project module of the same name shadows them. Not every standard module: a project's own
# ``test`` or ``types`` package is ordinary project code whose values the project pass follows.
_STDLIB: FrozenSet[str] = frozenset(
    "asyncio ftplib http imaplib poplib random smtplib socket sqlite3 ssl time urllib".split()
)
_LISTINGS: Dict[str, FrozenSet[str]] = {}


def shadowing_modules(path: str, roots: Sequence[str]) -> FrozenSet[str]:
    """The top-level names that ``import NAME`` in the file at ``path`` finds in the project,
    as Python's import system does, where a library of that name would otherwise be meant: a
    module (a ``.py`` file) of a project root (on the path when the project runs or is tested), or
    of the file's own directory when it is in no package (a script: its directory comes first
    on the path). A library here is one of the standard library or one the rules know by name
    (their trigger words): ``requests.py`` at the root of a project is the project's
    ``requests``, and its ``get`` is no HTTP call of the requests library. A package of that
    name is not counted: at a project's root it is the library's own source (its repository,
    a vendored copy), whose calls are the library's."""
    if not path:
        return frozenset()
    directories = list(roots)
    own = os.path.dirname(os.path.abspath(path))
    if not _is_package(own):
        directories.append(own)
    found: Set[str] = set()
    for directory in directories:
        found.update(_top_level_modules(directory))
    return frozenset(found & library_names())


def _top_level_modules(directory: str) -> FrozenSet[str]:
    """The modules in ``directory``, read again when it changed (a long-lived process: the
    language server, a test suite)."""
    directory = os.path.abspath(directory)
    try:
        key = f"{directory}\0{os.stat(directory).st_mtime_ns}"
    except OSError:
        return frozenset()
    if key not in _LISTINGS:
        names: Set[str] = set()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            entries = []
        for entry in entries:
            stem, dot, suffix = entry.name.partition(".")
            if dot and suffix in ("py", "pyi") and stem.isidentifier():
                names.add(stem)
        _LISTINGS[key] = frozenset(names)
    return _LISTINGS[key]


@lru_cache(maxsize=None)
def library_names() -> FrozenSet[str]:
    """The standard modules and the libraries the rules know by name (their trigger words)."""
    from resilint.lint.registry import all_rules

    triggers = {word for rule in all_rules().values() for word in rule.triggers if word.isidentifier()}
    return _STDLIB | frozenset(triggers)
