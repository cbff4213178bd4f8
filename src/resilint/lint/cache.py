"""The result cache: findings and the project-pass summary per file, keyed by everything that
decides them (the file's bytes, path and module names, resilint's code and version, the
interpreter and LibCST, the effective configuration), so a warm run reads and hashes files but
parses none.

Stored as JSON (never pickle: a cache directory may come with an untrusted checkout) in
``.resilint_cache/`` beside the configuration, written atomically at the end of a run:

* ``<digest>.json``: ``{"format": CACHE_FORMAT, "entries": {key: {"findings": [...]}},
  "project": {...}}``, the findings per file and the last project pass's findings with the
  keys of the files it read;
* ``<digest>.summaries``: a line ``{"format": CACHE_FORMAT}``, then one line per file,
  ``key<TAB>summary JSON``, read only when the project pass must run again (a file changed):
  a line per entry lets the entries that did not change be written back as they were read.

The document also holds what each file's key was made from as the file stood then
(``"files"``: path → size, modification time, inode, module names, key and content digest):
a later run whose ``stat`` of the file says the same uses that key without reading the file.
A file modified less than ``_RACY_SECONDS`` before the document was written gets no such
record (a change within the clock's resolution would go unseen): it is read and hashed.

Changing what an entry holds changes ``CACHE_FORMAT``. A file of another format, an unreadable
or damaged one, and any entry that is not exactly what ``put`` writes are ignored, and the files
concerned are checked again and their entries rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from resilint import __version__
from resilint.lint.modules import module_names
from resilint.lint.config import Settings
from resilint.lint.finding import Edit, Finding, Fix, Related, Withdrawn
from resilint.lint.line_shift import MovedLines, summary_moves, with_moved_lines
from resilint.lint.source import SourceError, read_bytes
from resilint.lint.summary import ModuleSummary

CACHE_DIRECTORY = ".resilint_cache"
CACHE_FORMAT = 8
_RACY_SECONDS = 2.0
_SUMMARIES_HEADER = f'{{"format":{CACHE_FORMAT}}}'
_MAX_ENTRIES = 200_000
_GITIGNORE = "# Automatically created by resilint.\n*\n"


def _code_fingerprint() -> List[object]:
    """Sizes and times of resilint's own modules: a changed rule invalidates the cache even
    before the version number moves (development installs)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    stamps: List[object] = []
    for directory, _, names in sorted(os.walk(package)):
        for name in sorted(names):
            if name.endswith(".py"):
                info = os.stat(os.path.join(directory, name))
                stamps.append([os.path.relpath(os.path.join(directory, name), package), info.st_size, info.st_mtime_ns])
    return stamps


def _libcst_version() -> str:
    """LibCST's version, read from its package without importing it (a tenth of a second, which
    a run answered from the cache need not pay)."""
    import importlib.util
    import re

    spec = importlib.util.find_spec("libcst")
    directory = os.path.dirname(spec.origin) if spec is not None and spec.origin else ""
    try:
        with open(os.path.join(directory, "_version.py"), encoding="utf-8") as handle:
            found = re.search(r"""version\s*=\s*['"]([^'"]+)['"]""", handle.read())
    except OSError:
        found = None
    if found is None:  # laid out otherwise: ask the package itself
        import libcst

        return str(getattr(libcst, "__version__", ""))
    return found.group(1)


def _settings_digest(settings: Settings, codes: Sequence[str]) -> str:
    relevant = asdict(settings)
    relevant.pop("config_path", None)
    # The interpreter's own parser and LibCST's decide what is a syntax error (and so RES000).
    parsers = [list(sys.version_info[:3]), _libcst_version()]
    text = json.dumps([__version__, _code_fingerprint(), parsers, sorted(codes), relevant], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def file_key(path: str, data: bytes, roots: Sequence[str] = (), names: Optional[Sequence[str]] = None) -> str:
    """What decides one file's findings besides the settings: its bytes, the path they are
    reported under, where it is (per-file-ignores match its path relative to the configuration,
    and a relative path depends on the working directory) and which module it is (the
    ``__init__.py`` files around it name it, and relative imports and the project's own
    functions resolve against that name)."""
    digest = hashlib.sha256()
    for part in (path, os.path.abspath(path), *(module_names(path, roots) if names is None else names)):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    digest.update(data)
    return digest.hexdigest()


# --- entries ---------------------------------------------------------------------------------

_FINDING_FIELDS = {
    "code": str, "name": str, "message": str, "path": str, "line": int, "column": int,
    "end_line": int, "end_column": int, "severity": str, "related": list, "line_text": str,
}
_FIX_FIELDS = {"applicability": str, "description": str}  # and "edits": a list, or None (declared only)
_EDIT_FIELDS = {"line": int, "column": int, "end_line": int, "end_column": int, "content": str}
_RELATED_FIELDS = {"path": str, "line": int, "column": int, "message": str}


def _fields(data: Any, types: Mapping[str, type]) -> Dict[str, Any]:
    """The named fields of a stored dict, each of exactly its type (``True`` is no line number)."""
    if not isinstance(data, dict) or any(type(data.get(name)) is not kind for name, kind in types.items()):
        raise ValueError("not an entry resilint wrote")
    return {name: data[name] for name in types}


def _finding_to_cache(finding: Finding) -> dict:
    data = finding.to_json()
    data["line_text"] = finding.line_text
    return data


def _finding_from_cache(data: Any) -> Finding:
    values = _fields(data, _FINDING_FIELDS)
    fix = data.get("fix")
    if fix is not None:
        stored = fix.get("edits") if isinstance(fix, dict) else None
        fix = _fields(fix, _FIX_FIELDS)
        if stored is not None and not isinstance(stored, list):
            raise ValueError("not an entry resilint wrote")
        edits = None if stored is None else tuple(Edit(**_fields(edit, _EDIT_FIELDS)) for edit in stored)
        fix = Fix(fix["applicability"], fix["description"], edits)  # ValueError: unknown applicability
    values["fix"] = fix
    values["related"] = tuple(Related(**_fields(item, _RELATED_FIELDS)) for item in values["related"])
    return Finding(**values)


def _shaped_like_an_entry(entry: Any) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("findings"), list)


def _findings_from_entry(entry: Any) -> List[Finding]:
    if not _shaped_like_an_entry(entry):
        raise ValueError("not an entry resilint wrote")
    return [_finding_from_cache(item) for item in entry["findings"]]


def _load_document(path: str) -> Dict[str, Any]:
    """The cache document at ``path``; empty when it is missing, not a regular file, not JSON
    (truncated, too deeply nested to decode) or of another format."""
    try:
        document = json.loads(read_bytes(path))
    except (SourceError, ValueError, RecursionError):
        return {}
    if not isinstance(document, dict) or document.get("format") != CACHE_FORMAT:
        return {}
    return document


def _mapping(value: Any) -> Dict[str, Any]:
    return value if isinstance(value, dict) else {}


# --- directories -----------------------------------------------------------------------------


def _topmost_missing(directory: str) -> Optional[str]:
    """The outermost directory of ``directory``'s path that does not exist yet, if any."""
    directory = os.path.abspath(directory)
    missing = None
    while not os.path.lexists(directory):
        missing = directory
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return missing


def _make_directories(directory: str) -> None:
    """Create ``directory``; the outermost directory created gets a ``.gitignore`` that hides
    it from git (and from resilint's own discovery). A directory that already existed never
    gets one: ``--cache-dir .`` must not make the project ignore itself."""
    created = _topmost_missing(directory)
    os.makedirs(directory, exist_ok=True)
    if created is None:
        return
    try:
        with open(os.path.join(created, ".gitignore"), "x", encoding="utf-8") as handle:
            handle.write(_GITIGNORE)
    except FileExistsError:
        pass  # a concurrent run created the directory too


class ResultCache:
    """Findings per file in ``<digest>.json``; the project-pass summaries per file in
    ``<digest>.summaries.json``, read only when the project pass must run again; and the
    project pass's own findings, kept with the files (and their keys) they came from, so that
    a run over an unchanged tree decodes no summary at all."""

    def __init__(self, settings: Settings, codes: Sequence[str], directory: Optional[str] = None) -> None:
        self.directory = directory or os.path.join(settings.root, CACHE_DIRECTORY)
        self.path = os.path.join(self.directory, __version__, f"{_settings_digest(settings, codes)}.json")
        self.summaries_path = self.path[: -len(".json")] + ".summaries"
        document = _load_document(self.path)
        self._entries: Dict[str, Any] = _mapping(document.get("entries"))
        self._project: Any = document.get("project")
        self._fresh: Dict[str, Any] = {}
        self._summaries: Optional[Dict[str, str]] = None  # key → JSON text, loaded on first use
        self._fresh_summaries: Dict[str, str] = {}
        self._new_summaries = False
        self._decoded: Dict[str, ModuleSummary] = {}  # decode_summaries' work, until asked for
        self._fresh_project: Optional[Dict[str, Any]] = None
        self._files: Dict[str, Any] = _mapping(document.get("files"))
        self._fresh_files: Dict[str, List[Any]] = {}

    # --- what a file's key was made from ---------------------------------------------------

    def known_key(self, path: str, info: os.stat_result, names: Sequence[str]) -> Optional[Tuple[str, str]]:
        """The (key, content digest) recorded for ``path`` when it had this size, modification
        time and inode and these module names; None when it may have changed since."""
        record = self._files.get(path)
        if (
            isinstance(record, list) and len(record) == 6
            and record[:3] == [info.st_size, info.st_mtime_ns, info.st_ino] and record[3] == list(names)
            and isinstance(record[4], str) and isinstance(record[5], str)
        ):
            self._fresh_files[path] = record
            return record[4], record[5]
        return None

    def record_key(self, path: str, info: os.stat_result, names: Sequence[str], key: str, digest: str) -> None:
        """What ``path``'s key was made from, for ``known_key`` in a later run."""
        self._fresh_files[path] = [info.st_size, info.st_mtime_ns, info.st_ino, list(names), key, digest]

    def get(self, key: str) -> Optional[List[Finding]]:
        """The findings stored for ``key``, or None (absent or damaged)."""
        entry = self._fresh.get(key) or self._entries.get(key)
        if entry is None:
            return None
        try:
            findings = _findings_from_entry(entry)
        except (ValueError, TypeError):
            self._entries.pop(key, None)  # damaged or foreign: the file is checked and rewritten
            return None
        self._fresh[key] = entry
        return findings

    def decode_summaries(self, keys: Sequence[str], stop: Callable[[], bool] = lambda: False) -> None:
        """Decode the summaries stored for ``keys`` now, for ``summary`` to return later; until
        ``stop`` says to (asked every few summaries): the rest are decoded when asked for."""
        for count, key in enumerate(keys):
            if count % 32 == 31 and stop():
                return
            if key not in self._decoded:
                decoded = self.summary(key)
                if decoded is not None:
                    self._decoded[key] = decoded

    def summary(self, key: str) -> Optional[ModuleSummary]:
        """The project-pass summary stored for ``key``, or None (absent or damaged)."""
        decoded = self._decoded.pop(key, None)
        if decoded is not None:
            return decoded
        if key in self._fresh_summaries:
            stored = self._fresh_summaries[key]
        else:
            if self._summaries is None:
                self._summaries = _load_lines(self.summaries_path)
            stored = self._summaries.get(key)
        if stored is None:
            return None
        try:
            summary = ModuleSummary.from_json(json.loads(stored))
        except (ValueError, RecursionError):
            summary = None
        if summary is not None:
            self._fresh_summaries[key] = stored
        return summary

    def put(self, key: str, findings: List[Finding], summary: Optional[ModuleSummary] = None) -> None:
        self._fresh[key] = {"findings": [_finding_to_cache(f) for f in findings]}
        if summary is not None:
            self._fresh_summaries[key] = json.dumps(summary.to_json(), separators=(",", ":"))
            self._new_summaries = True

    # --- the project pass ------------------------------------------------------------------

    def project_findings(
        self, checked: Mapping[str, str], unchanged: Callable[[str, str], bool], changed: Optional[Set[str]] = None,
    ) -> Optional[Tuple[List[Finding], List[Withdrawn]]]:
        """The project pass's findings of the last run, and the file findings it took back, if
        it checked the same files with the same keys and every other file it read (``path →
        key``) is ``unchanged``; a checked file whose key changed but whose summary did not (a
        comment, a string the summary does not keep) counts as the same, and so does one whose
        summary only moved lines (a blank line added above some code), with the findings moved
        as it moved (``lint/line_shift.py``): its path is added to ``changed``."""
        stored = self._project
        try:
            if not isinstance(stored, dict) or not isinstance(stored.get("checked"), dict):
                return None
            before = stored["checked"]
            if set(before) != set(checked):
                return None
            differ = [path for path, key in checked.items() if before[path] != key]
            moves: Dict[str, MovedLines] = {}
            for path in differ:
                lines = self._moved_lines(before[path], checked[path])
                if lines is None:
                    return None
                moves[path] = lines
            read = stored["read"]
            if not isinstance(read, dict) or not all(unchanged(path, key) for path, key in read.items()):
                return None
            moved = with_moved_lines(
                [_finding_from_cache(item) for item in stored["findings"]], [Withdrawn(*item) for item in stored["withdrawn"]],
                moves,
            )
        except (KeyError, TypeError, ValueError):
            return None
        if moved is None:
            return None
        findings, withdrawn = moved
        self._fresh_project = stored
        if changed is not None:
            changed.update(differ)
        return findings, withdrawn

    def _moved_lines(self, before: str, now: str) -> Optional[MovedLines]:
        """How the lines of the summary stored under ``before`` moved in the one under ``now``
        (``lint/line_shift.py``): nothing when they are the same as stored (no decoding), None
        when they differ in more than lines."""
        if self._summaries is None:
            self._summaries = _load_lines(self.summaries_path)
        old = self._fresh_summaries.get(before) or self._summaries.get(before)
        new = self._fresh_summaries.get(now) or self._summaries.get(now)
        if old is None or new is None:
            return None
        if old == new:
            return MovedLines({})
        try:
            shapes = [ModuleSummary.from_json(json.loads(stored)) for stored in (old, new)]
        except (ValueError, RecursionError):
            return None
        return summary_moves(*shapes)

    def project_read(self) -> Optional[Dict[str, str]]:
        """The files (``path → key``) besides the checked ones that the last project pass read."""
        stored = self._fresh_project or self._project
        read = stored.get("read") if isinstance(stored, dict) else None
        return dict(read) if isinstance(read, dict) else None

    def put_project(
        self, checked: Mapping[str, str], read: Mapping[str, str], findings: List[Finding], withdrawn: List[Withdrawn],
    ) -> None:
        self._fresh_project = {
            "checked": dict(checked), "read": dict(read), "findings": [_finding_to_cache(f) for f in findings],
            "withdrawn": [w.to_json() for w in withdrawn],
        }

    def save(self) -> None:
        # Entries of other runs are written back as read, less those that are not resilint's
        # (one level looked at: checking every finding would cost what the cache saves).
        merged = {key: entry for key, entry in self._entries.items() if _shaped_like_an_entry(entry)}
        merged.update(self._fresh)
        if len(merged) > _MAX_ENTRIES:
            merged = dict(self._fresh)
        document: Dict[str, Any] = {"format": CACHE_FORMAT, "entries": merged}
        if self._fresh_project is not None:
            document["project"] = self._fresh_project
        settled = time.time_ns() - int(_RACY_SECONDS * 1e9)
        files = {path: record for path, record in self._fresh_files.items() if record[1] < settled}
        if files:
            document["files"] = files
        _write(self.path, document, {"format": CACHE_FORMAT, "entries": self._fresh})
        if self._new_summaries:
            summaries = dict(self._summaries) if self._summaries is not None else _load_lines(self.summaries_path)
            summaries.update(self._fresh_summaries)
            if len(summaries) > _MAX_ENTRIES:
                summaries = dict(self._fresh_summaries)
            _write_lines(self.summaries_path, summaries)


def _load_lines(path: str) -> Dict[str, str]:
    """The summaries file: a header line, then ``key<TAB>summary JSON`` per line, each decoded
    only when asked for, and written back as read (no decoding and encoding of every summary
    when one file changed). Empty when it is missing, not a regular file or of another format."""
    try:
        data = read_bytes(path).decode("utf-8")
    except (SourceError, UnicodeDecodeError):
        return {}
    header, _, rest = data.partition("\n")
    if header != _SUMMARIES_HEADER:
        return {}
    entries = {}
    for line in rest.split("\n"):
        key, tab, text = line.partition("\t")
        if tab:
            entries[key] = text
    return entries


def _write_lines(path: str, entries: Mapping[str, str]) -> None:
    _write_text(path, "".join([_SUMMARIES_HEADER, "\n", *(f"{key}\t{text}\n" for key, text in entries.items())]))


def _write(path: str, document: Dict[str, Any], fallback: Dict[str, Any]) -> None:
    _write_text(path, _encode(document, fallback))


def _write_text(path: str, text: str) -> None:
    temporary = None
    try:
        _make_directories(os.path.dirname(path))
        descriptor, temporary = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except OSError:
        # A read-only checkout still gets its findings; only the cache is lost.
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)


def _encode(document: Dict[str, Any], fallback: Dict[str, Any]) -> str:
    try:
        return json.dumps(document, separators=(",", ":"))
    except RecursionError:  # an old entry nested too deeply to encode is damaged: keep this run's
        return json.dumps(fallback, separators=(",", ":"))
