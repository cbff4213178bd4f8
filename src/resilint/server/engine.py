"""What the language server checks with: the engine of ``resilint check``, kept warm.

A ``Project`` is the files of one configuration (the nearest ``pyproject.toml`` with a
``[tool.resilint]`` table, or a workspace folder's defaults). It holds each open document's
findings and module summary, keyed by the digest of the buffer they come from, and the
decoded summaries of the modules the open documents reach (``WarmCache``). An edit re-checks
that one buffer and re-runs the project pass, the graph step, over summaries already in
memory: every open document of the project gets its project findings again, so a change to a
module that another open file calls into updates that file's findings too.

A buffer is checked as ``resilint check --stdin-filename PATH -`` checks standard input: with
PATH's configuration, module name and project, and never stored in the result cache.
"""

from __future__ import annotations

import io
import json
import os
import tokenize
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from resilint.lint.add_noqa import suppressed_text
from resilint.lint.cache import ResultCache, file_key
from resilint.lint.catalog import project_codes, rule_catalog
from resilint.lint.checker import Checker, FileResult
from resilint.lint.config import (
    ConfigError, Settings, enabled_codes, find_config, fixable_codes, validate_selectors, validate_settings,
    with_test_scripts,
)
from resilint.lint.dependencies import with_declared_versions, with_fix_target
from resilint.lint.finding import Finding, RunResult, Withdrawn, without_withdrawn
from resilint.lint.line_shift import summary_moves, with_moved_lines
from resilint.lint.modules import project_roots
from resilint.lint.runner import imported_summaries
from resilint.lint.source import content_digest
from resilint.lint.summary import ModuleSummary

SELECTOR_SETTINGS = ("select", "ignore", "extend-select")


@dataclass(frozen=True)
class ClientSettings:
    """The editor's rule selection, over the configuration's (as ``--select``, ``--ignore``
    and ``--extend-select`` are over it on the command line)."""

    select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    extend_select: Tuple[str, ...] = ()

    @classmethod
    def from_options(cls, options: object) -> "ClientSettings":
        """From ``initializationOptions`` or ``workspace/didChangeConfiguration`` settings:
        ``{"select": [...], "ignore": [...], "extend-select": [...]}``, at the top or under a
        ``resilint`` key; ``extendSelect`` is read as ``extend-select``; a string may list
        codes separated by commas. Anything else is a ``ConfigError``."""
        if not isinstance(options, Mapping):
            return cls()
        inner = options.get("resilint")
        if isinstance(inner, Mapping):
            options = inner
        found: Dict[str, Tuple[str, ...]] = {}
        for key in SELECTOR_SETTINGS:
            value = options.get(key, options.get(_camel(key)))
            if value is None:
                continue
            if isinstance(value, str):
                value = value.split(",")
            if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
                raise ConfigError(f"editor setting `{key}`: expected a list of rule codes or prefixes, got {value!r}")
            found[key.replace("-", "_")] = tuple(item.strip().upper() for item in value)
        return cls(**found)


def _camel(key: str) -> str:
    head, *rest = key.split("-")
    return head + "".join(part.title() for part in rest)


def settings_for(path: str, folder: Optional[str], client: ClientSettings) -> Settings:
    """The settings of the file ``path`` as ``resilint check`` finds them (the nearest
    ``pyproject.toml`` with a ``[tool.resilint]`` table, from the file's directory up; else
    the defaults, relative to the workspace folder), with the editor's selection over them.
    ``ConfigError`` names what is wrong."""
    directory = os.path.dirname(os.path.abspath(path))
    settings = with_test_scripts(find_config(directory) or Settings(root=folder or directory))
    settings = with_declared_versions(settings, [path])
    rules = rule_catalog()
    validate_settings(settings, rules)
    validate_selectors(client.select, rules, "editor setting `select`")
    validate_selectors(client.ignore, rules, "editor setting `ignore`", ignoring=True)
    validate_selectors(client.extend_select, rules, "editor setting `extend-select`")
    settings = settings.with_overrides(
        select=client.select or None,
        ignore=settings.ignore + client.ignore,
        extend_select=settings.extend_select + client.extend_select,
    )
    # fixes for the target the project declares, as ``resilint fix`` chooses it (``auto``:
    # the runtime where the project depends on it)
    return with_fix_target(settings, [settings.root], files=())[0]


def buffer_bytes(text: str) -> bytes:
    """An editor's text as the bytes the file would hold: in the encoding its coding cookie
    names (UTF-8 without one, or when the text cannot be written in that encoding)."""
    data = text.encode("utf-8", "surrogatepass")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return data
    if encoding in ("utf-8", "utf-8-sig"):
        return data
    try:
        return text.encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return data


class WarmCache(ResultCache):
    """The result cache with what it decoded kept in memory: a summary stored under a key
    (made from the file's bytes) never changes, so an edit's project pass decodes none again,
    and a file's stat is compared with what this server recorded, not only with the file on
    disk's last run."""

    def __init__(self, settings: Settings, codes: Sequence[str]) -> None:
        # Where ``resilint check`` keeps it, so that each warms the other.
        super().__init__(settings, codes, os.environ.get("RESILINT_CACHE_DIR") or None)
        self._warm: Dict[str, ModuleSummary] = {}
        self._warm_findings: Dict[str, List[Finding]] = {}

    def known_key(self, path, info, names):  # type: ignore[no-untyped-def]
        record = self._fresh_files.get(path)
        if record is not None and record[:4] == [info.st_size, info.st_mtime_ns, info.st_ino, list(names)]:
            return record[4], record[5]
        return super().known_key(path, info, names)

    def get(self, key: str) -> Optional[List[Finding]]:
        found = self._warm_findings.get(key)
        if found is None:
            found = super().get(key)
            if found is not None:
                self._warm_findings[key] = found
        return found

    def summary(self, key: str) -> Optional[ModuleSummary]:
        found = self._warm.get(key)
        if found is None:
            found = super().summary(key)
            if found is not None:
                self._warm[key] = found
        return found

    def put(self, key: str, findings: List[Finding], summary: Optional[ModuleSummary] = None) -> None:
        super().put(key, findings, summary)
        self._warm_findings[key] = findings
        if summary is not None:
            self._warm[key] = summary


@dataclass
class _Checked:
    digest: str
    result: FileResult
    # The summary as the project pass reads it, to tell whether it changed (made once).
    summary_json: Optional[str] = None

    @property
    def summary(self) -> Optional[ModuleSummary]:
        return self.result.summary

    def read_by_project_pass(self) -> Optional[str]:
        if self.summary_json is None and self.result.summary is not None:
            self.summary_json = json.dumps(self.result.summary.to_json())
        return self.summary_json


class Project:
    """The open documents of one configuration, and what checking them keeps warm."""

    def __init__(self, settings: Settings) -> None:
        rules = rule_catalog()
        self.settings = settings
        self.codes = enabled_codes(settings, rules)
        self.fixable = set(fixable_codes(settings, rules))
        self.checker = Checker(settings, self.codes)
        self.has_project_rules = any(code in project_codes() for code in self.codes)
        self.cache = WarmCache(settings, self.codes)
        self.roots = project_roots(settings)
        self._checked: Dict[str, _Checked] = {}
        self._summaries: List[ModuleSummary] = []  # of the last project pass
        # what the project pass read, what it found, and the file findings it took back
        self._last_pass: Optional[Tuple[object, List[Finding], List[Withdrawn]]] = None
        self._last_pass_summaries: Dict[str, Optional[ModuleSummary]] = {}  # the open documents' then

    def check(self, buffers: Mapping[str, bytes]) -> Dict[str, List[Finding]]:
        """The findings of every open document (``path → bytes``) of the project: a buffer
        that changed since it was last checked is checked again, then the project pass runs
        over the open documents' summaries and those of the modules they reach."""
        for path in list(self._checked):
            if path not in buffers:
                del self._checked[path]
        for path, data in buffers.items():
            digest = content_digest(data)
            known = self._checked.get(path)
            if known is None or known.digest != digest:
                # Typing in a comment changes no code: the last check of the buffer answers.
                result = self.checker.recheck(known.result, data, path) if known is not None else self._stored(path, data)
                if result is None:
                    result = self.checker.check_file(data, path, reusable=True)
                self._checked[path] = _Checked(digest, result)
        found: Dict[str, List[Finding]] = {path: list(self._checked[path].result.findings) for path in buffers}
        if self.has_project_rules:
            summaries = [checked.summary for checked in self._checked.values() if checked.summary is not None]
            extra = imported_summaries(summaries, self.settings, self.codes, self.cache, self.roots)
            self._summaries = summaries + extra
            # What the project pass reads: the open documents' summaries (an edit inside a
            # comment or a string leaves a summary as it was) and the other modules' (the warm
            # cache gives the same object while the file's bytes are the same). When none
            # changed, neither do its findings.
            read = (
                tuple((path, checked.read_by_project_pass()) for path, checked in sorted(self._checked.items())),
                tuple(id(summary) for summary in extra),
            )
            if self._last_pass is None or self._last_pass[0] != read:
                moved = self._moved_last_pass(read)
                if moved is None:
                    moved = self.checker.project_findings(self._summaries, set(buffers)), self.checker.project_withdrawn
                self._last_pass = (read, *moved)
                self._last_pass_summaries = {path: checked.summary for path, checked in self._checked.items()}
            _, project, withdrawn = self._last_pass
            found = {path: without_withdrawn(findings, withdrawn) for path, findings in found.items()}
            for finding in project:
                found.setdefault(finding.path, []).append(finding)
        return {path: sorted(findings, key=lambda f: f.sort_key) for path, findings in found.items() if path in buffers}

    def _moved_last_pass(self, read: Tuple[Tuple[Tuple[str, Optional[str]], ...], Tuple[int, ...]]) -> Optional[Tuple[List[Finding], List[Withdrawn]]]:
        """The last project pass's findings, moved with the lines of the open documents whose
        summaries only moved lines since (a line added above some code: ``lint/line_shift.py``);
        None when anything else the pass reads changed."""
        if self._last_pass is None:
            return None
        (documents, extra), project, withdrawn = self._last_pass  # type: ignore[misc]
        if extra != read[1] or [path for path, _ in documents] != [path for path, _ in read[0]]:
            return None
        moves = {}
        for (path, before), (_, now) in zip(documents, read[0]):
            if before == now:
                continue
            moved = summary_moves(self._last_pass_summaries.get(path), self._checked[path].summary)
            if moved is None:
                return None
            moves[path] = moved
        return with_moved_lines(project, withdrawn, moves)

    def _stored(self, path: str, data: bytes) -> Optional[FileResult]:
        """What the result cache holds for these bytes at this path: a document just opened is
        usually the file on disk as ``resilint check`` last checked it (the key is made from
        the bytes, so nothing else can answer). It keeps nothing for ``recheck``: the
        document's first edit is checked in full."""
        key = file_key(path, data, self.roots)
        findings = self.cache.get(key)
        summary = self.cache.summary(key) if findings is not None and self.checker.summarise is not None else None
        if findings is None or (self.checker.summarise is not None and summary is None):
            return None
        return FileResult(findings, summary)

    def with_fix_edits(self, findings: Sequence[Finding], data: bytes, path: str) -> List[Finding]:
        """``findings`` of one buffer with the edits of their fixes, as ``resilint check
        --format json`` gives them; a rule that is not fixable keeps none (as in ruff)."""
        from resilint.fixing.fix_edits import with_fixes  # the codemods load at the first code action

        allowed = [f for f in findings if f.fix is not None and f.code in self.fixable]
        return [f for f in with_fixes(allowed, data, path, self.settings) if f.fix is not None and f.fix.edits]

    def fix_all(self, findings: Sequence[Finding], data: bytes, path: str) -> Optional[bytes]:
        """The buffer with every safe fix applied, as ``resilint fix`` would write the file (its
        fixes checked in memory first), or None when nothing changes."""
        from resilint.fixing.fixer import Fixer

        result = RunResult(
            findings=[f for f in findings if f.path == path], files_checked=1,
            digests={path: content_digest(data)}, summaries=list(self._summaries),
        )
        fixer = Fixer(self.settings, self.codes, result, unsafe=False, fixable=self.fixable, contents={path: data})
        outcome = fixer.fix(write=False)
        change = outcome.changes.get(path)
        return change[1] if change is not None and change[1] != data else None

    def save_cache(self) -> None:
        try:
            self.cache.save()
        except OSError:
            pass  # a read-only project: the cache is only an accelerator


def suppressed(text: str, finding: Finding) -> Optional[str]:
    """``text`` with a ``# noqa`` comment that suppresses ``finding`` on its line (added to
    the line's comment if it has one), as ``resilint check --add-noqa`` writes it; None where
    no comment can go (a line that ends inside a string)."""
    return suppressed_text(text, [finding])
