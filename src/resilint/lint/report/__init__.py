"""Output formats. One module per format; each defines ``FORMAT`` and ``render``.

Formats are found by discovery (every module in this package with a ``FORMAT``), so adding a
format is adding a module. The helpers below are shared by several formats.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import pkgutil
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Set, TextIO, Type

from resilint.lint.discovery import repository_root
from resilint.lint.finding import Finding, RunResult
from resilint.lint.rule import Rule
from resilint.lint.source import SourceError, read_bytes

Renderer = Callable[[RunResult, Mapping[str, Type[Rule]], TextIO, "ReportOptions"], None]


@dataclass(frozen=True)
class ReportOptions:
    color: bool = False  # decided by the CLI: a TTY, and NO_COLOR unset
    statistics: bool = False  # print per-rule counts (text) instead of / besides findings
    show_source: bool = True  # code frames in text output
    root: str = "."  # finding paths are relative to this directory (the working directory)
    progress: bool = False
    # The directory the machine formats (SARIF, GitLab, GitHub) write paths relative to; None:
    # the git work tree around ``root``, else ``root`` (code scanning and GitLab match paths
    # against the repository's files).
    source_root: Optional[str] = None
    # The text of files that are not on disk as checked (standard input), by reported path.
    contents: Mapping[str, bytes] = field(default_factory=dict)
    quiet: bool = False  # the findings only: no summary line (``--quiet``)
    # In a run that fixed (``check --fix``): how many findings were fixed, and why each finding
    # reported was not.
    fixed: Optional[int] = None
    unfixed: Mapping[Finding, str] = field(default_factory=dict)


def format_names() -> List[str]:
    """The formats' names without importing them (each is its module's name, which
    ``tests/report/test_report_formats.py`` checks against ``FORMAT``)."""
    return sorted(info.name for info in pkgutil.iter_modules(__path__))


def reporter(name: str) -> Renderer:
    """The renderer of one format, importing that format's module only."""
    return importlib.import_module(f"{__name__}.{name}").render  # type: ignore[no-any-return]


def shows_fix_edits(name: str) -> bool:
    """Whether the format writes the edits of the findings' fixes (``SHOWS_FIX_EDITS``): only
    then does ``check`` compute them; the others say which findings are fixable from the rules'
    declarations."""
    return bool(getattr(importlib.import_module(f"{__name__}.{name}"), "SHOWS_FIX_EDITS", False))


def reporters() -> Dict[str, Renderer]:
    found: Dict[str, Renderer] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        fmt = getattr(module, "FORMAT", None)
        if fmt:
            found[fmt] = module.render
    return dict(sorted(found.items()))


# --- paths -----------------------------------------------------------------------------------

_SURROGATE = re.compile("[\ud800-\udfff]")  # from undecodable file names; unencodable on output
# C0 and C1 controls, DEL, and the Unicode line and paragraph separators: characters that end a
# line for some reader (a terminal, `str.splitlines`, an editor) or drive the terminal.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def replace_surrogates(text: str) -> str:
    return _SURROGATE.sub("\ufffd", text)


def escape_controls(text: str) -> str:
    r"""Control characters as Python escapes (``\n``, ``\x1b``, ``\u2028``): a file named with a
    newline still takes one line of a one-line-per-finding format, and cannot drive the terminal."""
    return _CONTROL.sub(lambda match: repr(match.group())[1:-1], text)


def printable(text: str) -> str:
    """A file name (or message) as the one-line formats print it."""
    return replace_surrogates(escape_controls(text))


def posix_path(path: str, sep: str = os.sep) -> str:
    """``path`` with this platform's separator written as ``/`` (URIs, GitHub and GitLab want
    ``/``). On POSIX a backslash is an ordinary character of a file name, so it stays."""
    return path if sep == "/" else path.replace(sep, "/")


class SourcePaths:
    """Reported paths (relative to ``options.root``) as paths from the source root: normalised
    (no ``..`` or ``.`` parts), with ``/`` separators, symbolic links kept as named."""

    def __init__(self, options: ReportOptions) -> None:
        self.root = os.path.abspath(options.root)
        self.base = os.path.abspath(options.source_root or repository_root(self.root) or self.root)

    def absolute(self, path: str) -> str:
        return os.path.normpath(os.path.join(self.root, path))

    def relative(self, path: str) -> Optional[str]:
        """``path`` from the source root, or None when it lies outside (or on another drive)."""
        try:
            relative = os.path.relpath(self.absolute(path), self.base)
        except ValueError:  # another drive on Windows
            return None
        if relative == os.pardir or relative.startswith(os.pardir + os.sep):
            return None
        return posix_path(relative)

    def in_repository(self, path: str) -> str:
        """``relative(path)``, or the absolute path of a file outside the source root."""
        relative = self.relative(path)
        return relative if relative is not None else posix_path(self.absolute(path))


def read_source(path: str, options: ReportOptions) -> Optional[bytes]:
    """The bytes of a reported file (standard input's from ``options.contents``); None when it
    cannot be read (deleted since, a directory, no access). Only regular files are opened."""
    if path in options.contents:
        return options.contents[path]
    try:
        return read_bytes(os.path.join(options.root, path))
    except (SourceError, ValueError):
        return None


# --- fingerprints ----------------------------------------------------------------------------


def derived_fingerprint(fingerprint: str, occurrence: int) -> str:
    return hashlib.sha256(f"{fingerprint}:{occurrence}".encode("utf-8")).hexdigest()[:32]


class UniqueFingerprints:
    """Makes fingerprints unique within one report, deterministically.

    The first finding with a given fingerprint keeps it; the n-th further one gets
    ``derived_fingerprint(fingerprint, n)`` (or the next free n, should that be taken). Each
    fingerprint remembers how far its occurrences went, so the n-th copy of an identical line
    (generated code, vendored copies) costs one hash, not one per earlier copy: linear in the
    number of findings.
    """

    def __init__(self) -> None:
        self._taken: Set[str] = set()
        self._next_occurrence: Dict[str, int] = {}

    def __call__(self, fingerprint: str) -> str:
        occurrence = self._next_occurrence.get(fingerprint, 0)
        candidate = fingerprint if occurrence == 0 else derived_fingerprint(fingerprint, occurrence)
        while candidate in self._taken:
            occurrence += 1
            candidate = derived_fingerprint(fingerprint, occurrence)
        self._taken.add(candidate)
        self._next_occurrence[fingerprint] = occurrence + 1
        return candidate
