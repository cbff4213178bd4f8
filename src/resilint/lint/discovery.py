"""Which files to check: directories recursively, ``.py``/``.pyi``, excludes and ``.gitignore``.

A path named explicitly, a file or a directory, is always checked, whatever its name, the
excludes or ``.gitignore`` say (as in ruff with ``--force-exclude`` off). Below a directory,
each path is judged by its own name, as git does while it walks: an excluded or ignored
directory is not entered, and a directory the user named is entered even when it is ignored.
A path that does not exist is an error for that path only.
"""

from __future__ import annotations

import errno
import fnmatch
import io
import os
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

import pathspec

from resilint.lint.config import Settings
from resilint.lint.finding import AnalysisError
from resilint.lint.source import SourceError, read_bytes

PYTHON_SUFFIXES = (".py", ".pyi")


@dataclass
class Discovered:
    files: List[str] = field(default_factory=list)  # as given / joined, not resolved
    errors: List[AnalysisError] = field(default_factory=list)


def _matches_exclude(name: str, relative: str, patterns: Sequence[str]) -> bool:
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        if fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(relative, pattern):
            return True
    return False


class _GitIgnores:
    """``.gitignore`` files met on the way down, each applying below its own directory."""

    def __init__(self) -> None:
        self._specs: Dict[str, Optional[pathspec.GitIgnoreSpec]] = {}

    def _spec(self, directory: str) -> Optional[pathspec.GitIgnoreSpec]:
        if directory not in self._specs:
            spec = None
            try:  # a regular file only: a FIFO named .gitignore would block the walk forever
                text = read_bytes(os.path.join(directory, ".gitignore")).decode("utf-8", "replace")
            except SourceError:
                pass
            else:
                spec = pathspec.GitIgnoreSpec.from_lines(io.StringIO(text, newline=None))
            self._specs[directory] = spec
        return self._specs[directory]

    def ignored(self, path: str, is_dir: bool, ancestors: Sequence[str]) -> bool:
        verdict = False
        for directory in ancestors:  # outermost first; a deeper .gitignore decides last
            spec = self._spec(directory)
            if spec is None:
                continue
            relative = os.path.relpath(path, directory).replace(os.sep, "/")
            if is_dir:
                relative += "/"
            for pattern in spec.patterns:  # the last pattern that matches decides, as in git
                if pattern.include is not None and _matches_itself(pattern, relative):
                    verdict = pattern.include
        return verdict


def _matches_itself(pattern: pathspec.Pattern, relative: str) -> bool:
    """Whether ``pattern`` matches the path itself. pathspec's expressions also match whatever
    lies below a matching directory (``build/`` matches ``build/x.py`` up to its directory
    mark): the walk never enters such a directory, unless the user named it or one above it."""
    match = pattern.regex.match(relative)  # type: ignore[attr-defined]
    if match is None:
        return False
    try:
        mark = match.end("ps_d")  # pathspec's directory mark
    except IndexError:
        return True  # the pattern has none (``build/**`` matches what is below by itself)
    return mark == -1 or mark == len(relative)


def repository_root(start: str) -> Optional[str]:
    """The git work tree ``start`` lies in (the nearest directory above it with a ``.git``)."""
    directory = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(directory, ".git")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _ancestors(root: Optional[str], directory: str) -> List[str]:
    """Directories from the repository root down to ``directory`` (inclusive)."""
    directory = os.path.abspath(directory)
    chain = [directory]
    while root is not None and directory != root:
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
        chain.append(directory)
    return list(reversed(chain))


def discover(paths: Sequence[str], settings: Settings) -> Discovered:
    result = Discovered()
    excludes = tuple(settings.exclude) + tuple(settings.extend_exclude)
    gitignores = _GitIgnores()
    seen = set()

    def add(path: str) -> None:
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            result.files.append(path)

    for given in paths:
        problem = _missing(given)
        if problem is not None:
            result.errors.append(AnalysisError(given, problem))
            continue
        if not os.path.isdir(given):
            add(given)  # named explicitly: always checked
            continue
        repo_root = repository_root(given) if settings.respect_gitignore else None
        for path in _walk(given, settings, excludes, gitignores, repo_root, result):
            add(path)
    return result


def _missing(path: str) -> Optional[str]:
    """Why a path given on the command line cannot be followed to anything, if it cannot."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop"
        if exc.errno == errno.ENOENT:
            return "broken symbolic link" if os.path.islink(path) else "no such file or directory"
        return (exc.strerror or str(exc)).lower()
    except ValueError:  # a NUL byte in the path
        return "no such file or directory"
    return None


def _walk(
    top: str,
    settings: Settings,
    excludes: Tuple[str, ...],
    gitignores: _GitIgnores,
    repo_root: Optional[str],
    result: Discovered,
) -> Iterator[str]:
    def on_error(exc: OSError) -> None:
        result.errors.append(AnalysisError(exc.filename or top, f"cannot list directory: {exc.strerror}"))

    for directory, dirnames, filenames in os.walk(top, onerror=on_error):
        ancestors = _ancestors(repo_root, directory) if repo_root else []

        def skip(name: str, is_dir: bool) -> bool:
            full = os.path.join(directory, name)
            relative = os.path.relpath(os.path.abspath(full), settings.root).replace(os.sep, "/")
            if _matches_exclude(name, relative, excludes):
                return True
            return bool(repo_root) and gitignores.ignored(os.path.abspath(full), is_dir, ancestors)

        dirnames[:] = sorted(d for d in dirnames if not skip(d, True))
        present = set(filenames)
        for name in sorted(filenames):
            if name.endswith(PYTHON_SUFFIXES) and not skip(name, False) and not _semgrep_test_target(directory, name, present):
                yield os.path.join(directory, name)


def _semgrep_test_target(directory: str, name: str, filenames: Set[str]) -> bool:
    """Whether a file is the test target of a semgrep rule beside it (``rule.py`` or
    ``rule.fixed.py`` next to ``rule.yaml``, whose first key is ``rules:``): code written to
    show what another linter flags, which ``semgrep --test`` reads and nothing runs."""
    stem = name.rsplit(".", 1)[0]
    stem = stem[: -len(".fixed")] if stem.endswith(".fixed") else stem
    for rules in (f"{stem}.yaml", f"{stem}.yml"):
        if rules in filenames:
            try:
                with open(os.path.join(directory, rules), "rb") as handle:
                    head = handle.read(4096)
            except OSError:
                return False
            first = next((line for line in head.splitlines() if line.strip() and not line.startswith((b"#", b"---"))), b"")
            return first.startswith(b"rules:")
    return False
