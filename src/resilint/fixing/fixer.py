"""Fixes: the findings' codemods applied to their files, every result checked in memory before
anything is written.

A codemod's result is kept only if it parses (LibCST and CPython's ``compile``) and if checking
it again, the project pass included, removes the findings it was aimed at and adds none; else
it is dropped, with the reason, and the file keeps what it had. Fixes are applied in rounds
until nothing changes (at most ``MAX_ROUNDS``), so that a second ``resilint fix`` changes
nothing. A file is written once, at the end, through ``files.replace_file`` (atomic, mode and
owner kept, refused when it changed on disk since it was checked). LibCST reads and writes
bytes, so the encoding (coding cookie, BOM) and the line endings stay what they were.

The codemods are found by discovery (``resilint.codemods``), as the rules are.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Collection, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Type

from resilint.codemods import all_codemods, codemods_for
from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import RUNTIME
from resilint.fixing.attribution import split_edits
from resilint.fixing.codemod_run import CodemodRun, interpreter_limit, run_codemod, span_of, unparseable
from resilint.fixing.edits import carry_over, edits_between, last_line_of, lines_back
from resilint.fixing.fix_edits import with_fixes
from resilint.lint.checker import ANALYSIS_ERROR, Checker
from resilint.lint.checker import _triggers as checker_triggers
from resilint.lint.config import Settings
from resilint.lint.deep_stack import call_with_deep_stack
from resilint.lint.dependencies import with_fix_target
from resilint.lint.files import NotWritten, replace_file
from resilint.lint.finding import Edit, Finding, RunResult, without_withdrawn
from resilint.lint.registry import all_rules
from resilint.lint.source import SourceError, content_digest, decode, encode_like, python_lines, read_bytes
from resilint.lint.summary import ModuleSummary

MAX_ROUNDS = 3


_LINE_STARTING_FORM_FEEDS = re.compile(rb"(?:^|(?<=[\r\n]))\x0c+")


def _form_feeds_set_aside(data: bytes, findings: List[Finding]) -> Tuple[bytes, List[Finding]]:
    """``data`` without the form feeds that start lines (for Python, whitespace that changes
    no indentation there), and ``findings`` placed in it; ``data`` and ``findings`` themselves
    when there is none."""
    if b"\x0c" not in data:
        return data, findings
    work = _LINE_STARTING_FORM_FEEDS.sub(b"", data)
    if work == data:
        return data, findings
    text = decode(data).text
    feeds = [len(line) - len(line.lstrip("\x0c")) for line in python_lines(text)]

    def moved(line: int, column: int) -> int:
        count = feeds[line - 1] if 0 < line <= len(feeds) else 0
        return column - count if column > count else column

    placed = [
        replace(f, column=moved(f.line, f.column), end_column=moved(f.end_line, f.end_column)) for f in findings
    ]
    return work, placed


def _faithful(run: CodemodRun, data: bytes) -> Optional[str]:
    """Make ``run``'s result leave every line it does not change byte-identical to ``data``
    (``edits.carry_over``: LibCST does not print every file exactly as it parsed it); why it
    cannot, or None."""
    assert run.original is not None and run.updated is not None
    printed = run.original.bytes
    if printed == data:
        return None
    carried = carry_over(decode(data).text, decode(printed).text, decode(run.updated).text)
    if carried is None:
        return (
            "LibCST does not write the lines this fix changes as the file has them (a form feed or "
            "a line ending it does not reproduce), so the rest of the file could not be kept byte for byte"
        )
    run.set_updated(encode_like(carried, data))
    return None


class FixingStopped(Exception):
    """Ctrl-C or SIGTERM asked the fixer to stop; the waiting thread raises the signal's own
    exception once the fixer has stopped."""


@dataclass(frozen=True)
class AppliedFix:
    """One finding fixed: where it was in the file as checked, and that fix's own edits, made
    on ``before`` (the file as checked, or as an earlier fix left it), with the lines of the
    file as checked that each one replaces or is added before."""

    path: str
    line: int
    column: int
    code: str
    name: str
    description: str
    applicability: str
    edits: Tuple[Edit, ...]
    before: str
    step: int = 0  # how many changes to the file were kept before this fix's
    original_lines: Tuple[Tuple[int, int], ...] = ()  # (first, last) per edit, in the file as checked


def _uses_runtime(before: str, edits: Sequence[Edit]) -> bool:
    """Whether a fix's edits write or change an import of ``resilint.runtime``."""
    lines = before.splitlines()
    return any(RUNTIME in edit.content or RUNTIME in "".join(lines[edit.line - 1:edit.end_line]) for edit in edits)


def _placed(fix: AppliedFix, back: Sequence[List[int]]) -> AppliedFix:
    """``fix`` with its lines in the file as checked, through the ``_lines_back`` maps of the
    changes kept before its own (a later round's fix was found in a text earlier ones changed)."""

    def original(line: int) -> int:
        for mapping in reversed(back[: fix.step]):
            line = mapping[min(max(line, 1), len(mapping) - 1)]
        return line

    spans = tuple((original(e.line), original(max(e.line, last_line_of(e)))) for e in fix.edits)
    return replace(fix, line=original(fix.line), original_lines=spans)


@dataclass
class FixOutcome:
    fixed: Counter = field(default_factory=Counter)  # code -> findings fixed
    changes: Dict[str, Tuple[bytes, bytes]] = field(default_factory=dict)  # path -> (before, after)
    dropped: List[str] = field(default_factory=list)  # "path: codemod: why"
    left_alone: List[str] = field(default_factory=list)  # "path:line: codemod: why"
    not_written: List[str] = field(default_factory=list)  # "path: why"
    # "path: why": files this Python cannot compile, whose fixes LibCST's parser alone checked
    parsed_only: List[str] = field(default_factory=list)
    remaining: List[Finding] = field(default_factory=list)
    applied: List[AppliedFix] = field(default_factory=list)  # of the files changed, in order
    unfixed: Dict[Finding, str] = field(default_factory=dict)  # remaining finding -> why (``fix``)


class Fixer:
    """Applies codemods to the files of one run (``run(..., keep_summaries=True)``).

    ``fixable``: the codes whose findings ``fix`` may fix (None: every code; ``--fixable`` and
    ``--unfixable``); ``contents``: the text of files that are not on disk as checked
    (standard input), which are then only changed in memory (``write`` does not apply)."""

    def __init__(
        self, settings: Settings, codes: Sequence[str], result: RunResult, unsafe: bool = False,
        fixable: Optional[Collection[str]] = None, contents: Optional[Mapping[str, bytes]] = None,
    ) -> None:
        if settings.fix_target not in ("native", "runtime"):
            settings = with_fix_target(settings, sorted(result.digests) or ["."], result.digests)[0]
        self.settings = settings
        self.target = settings.fix_target
        self.checker = Checker(settings, codes)
        self.unsafe = unsafe
        self.fixable = set(fixable) if fixable is not None else None
        self.contents = dict(contents or {})
        self.result = result
        self.outcome = FixOutcome()
        # Why a finding was not fixed: its fix dropped (path, code, message), a case a codemod
        # left alone (path, line), a file not written (path).
        self._dropped_why: Dict[Tuple[str, str, str], str] = {}
        self._left_alone_at: Dict[Tuple[str, int], str] = {}
        self._not_written_why: Dict[str, str] = {}
        self.reported = set(result.digests) | {f.path for f in result.findings}
        self.summaries: Dict[str, ModuleSummary] = {s.path: s for s in result.summaries}
        self._project: Optional[List[Finding]] = None
        self._local: Dict[str, List[Finding]] = {}
        # Of the file being fixed: by codemod, the cases its latest run left alone (line, why);
        # the changes kept, each as (before, after).
        self._cases: Dict[str, List[Tuple[int, str]]] = {}
        self._steps: List[Tuple[str, str]] = []
        self._stop = threading.Event()  # set on Ctrl-C or SIGTERM: no further file is started

    # --- entry points --------------------------------------------------------------------

    def fix(self, write: bool = True) -> FixOutcome:
        """Fix the run's findings that have an allowed codemod, of the fixable codes."""
        return call_with_deep_stack(self._fix, write, stop=self._stop)

    def apply(self, name: str, paths: Iterable[str], write: bool = True) -> FixOutcome:
        """``resilint codemod NAME``: one codemod over every case it recognises in ``paths``,
        kept only if the result parses, adds no finding and a second run changes nothing."""
        return call_with_deep_stack(self._apply_everywhere, name, list(paths), write, stop=self._stop)

    # Both run with the workers' stack and recursion budget (``deep_stack``), so that a file
    # ``check`` could analyse, and offer a fix for, can be fixed as well.

    def _fix(self, write: bool) -> FixOutcome:
        # safe ones first, as ``codemods_for`` orders them: a finding takes the safe fix when
        # there is one (a runtime-target loop gets jitter on top rather than full jitter)
        codemods = sorted(
            (c for c in all_codemods().items() if self._allowed(c[1])),
            key=lambda c: c[1].applicability_for(self.settings)[0] != "safe",
        )
        codes = {code for _, c in codemods for code in c.CODES if self._fixable(code)}
        paths = sorted({f.path for f in self.result.findings if f.code in codes})
        for path in paths:
            self._fix_file_alone(path, codemods, write)
        outcome = self._finish()
        outcome.unfixed = {finding: self._why_unfixed(finding) for finding in outcome.remaining}
        return outcome

    def _apply_everywhere(self, name: str, paths: List[str], write: bool) -> FixOutcome:
        codemod = all_codemods()[name]
        # A file with none of its rules' trigger names holds no case: the codemod would parse
        # and model it to find nothing (issue 26: minutes over a library, changing nothing).
        if codemod.TRIGGERS is not None:
            triggers: Optional[Tuple[bytes, ...]] = tuple(t.encode() for t in codemod.TRIGGERS)
        else:
            rules = [all_rules()[c] for c in codemod.CODES if c in all_rules()]
            triggers = checker_triggers(rules, self.settings) if rules else None
        for path in sorted(set(paths)):
            if triggers is not None and not self._mentions(path, triggers):
                continue
            self._fix_file_alone(path, [(name, codemod)], write, everything=True)
        return self._finish()

    def _mentions(self, path: str, triggers: Sequence[bytes]) -> bool:
        """Whether the file's bytes hold one of ``triggers`` (a file that cannot be read is
        left to ``_fix_file``, which says why)."""
        try:
            data = self.contents[path] if path in self.contents else read_bytes(path, self.settings.max_file_size)
        except SourceError:
            return True
        return any(t in data for t in triggers)

    # --- one file ------------------------------------------------------------------------

    def _allowed(self, codemod: Type[ResilintCodemod]) -> bool:
        return (
            codemod.RUN_BY_FIX and (codemod.applicability_for(self.settings)[0] == "safe" or self.unsafe)
            and self.target in codemod.TARGETS
        )

    def _fixable(self, code: str) -> bool:
        return self.fixable is None or code in self.fixable

    def _why_unfixed(self, finding: Finding) -> str:
        """Why ``fix`` left ``finding`` as it was, in a few words."""
        if finding.path in self._not_written_why:
            return f"the file was not written: {self._not_written_why[finding.path]}"
        if not codemods_for(finding.code):
            return f"{finding.code} has no automatic fix"
        if not self._fixable(finding.code):
            return f"{finding.code} is not fixable in this run (--fixable/--unfixable, or the fixable/unfixable settings)"
        dropped = self._dropped_why.get((finding.path, finding.code, finding.message))
        if dropped is not None:
            return f"its fix was dropped: {dropped}"
        left_alone = self._left_alone_at.get((finding.path, finding.line))
        if left_alone is not None:
            return f"left alone: {left_alone}"
        if finding.fix is not None and finding.fix.applicability == "unsafe" and not self.unsafe:
            whys = [c.applicability_for(self.settings)[1] for c in codemods_for(finding.code, self.target)]
            why = next((w for w in whys if w), "")
            return f"its fix is unsafe{f' ({why})' if why else ''}: apply it with --unsafe-fixes"
        return "no codemod rewrites this case (see the rule's Fix safety)"

    def _fix_file_alone(
        self, path: str, codemods: Sequence[Tuple[str, Type[ResilintCodemod]]], write: bool, everything: bool = False
    ) -> None:
        """``_fix_file``, stopping before the file when Ctrl-C or SIGTERM asked to stop (a file
        being written is finished first), and with what is too deeply nested for even the deep
        stack reported for this file alone: it is left as it was and the other files are fixed."""
        if self._stop.is_set():
            raise FixingStopped()
        applied_before, fixed_before = len(self.outcome.applied), Counter(self.outcome.fixed)
        try:
            self._fix_file(path, codemods, write, everything)
        except RecursionError:
            self.outcome.changes.pop(path, None)
            del self.outcome.applied[applied_before:]
            self.outcome.fixed = fixed_before
            self._forget(path)
            self._not_written(path, "nested too deeply to be fixed (RecursionError); left as it was")

    def _fix_file(
        self, path: str, codemods: Sequence[Tuple[str, Type[ResilintCodemod]]], write: bool, everything: bool = False
    ) -> None:
        write = write and path not in self.contents
        try:
            original = self.contents[path] if path in self.contents else read_bytes(path, self.settings.max_file_size)
        except SourceError as exc:
            self._not_written(path, exc.reason)
            return
        if self.result.digests.get(path) != content_digest(original):
            self._not_written(path, "changed on disk since it was checked")
            return
        current = original
        given_up: Set[Tuple[str, str, str]] = set()  # (codemod, code, message) of dropped fixes
        self._cases = {}
        self._steps = []
        applied_before = len(self.outcome.applied)
        fixed_before = Counter(self.outcome.fixed)  # a file not written fixed nothing
        for _ in range(MAX_ROUNDS):
            progressed = False
            for name, codemod in codemods:
                updated = self._apply(path, current, name, codemod, given_up, everything)
                if updated is not None:
                    current, progressed = updated, True
            if not progressed or everything:
                break
        for name, cases in self._cases.items():
            for line, reason in cases:
                self.outcome.left_alone.append(f"{path}:{line}: {name}: {reason}")
                self._left_alone_at.setdefault((path, line), f"{name}: {reason}")
        if everything and current != original:
            again = run_codemod(codemods[0][1], current, path, self.settings, None)
            if again.updated is not None:
                self.outcome.dropped.append(f"{path}: {codemods[0][0]}: a second run would change it again")
                self.outcome.fixed = fixed_before
                self._forget(path)
                return
        if current == original:
            return
        limit = interpreter_limit(original, path)
        if limit is not None:
            self.outcome.parsed_only.append(f"{path}: {limit}; its fixes were checked with LibCST's parser instead")
        back = [lines_back(before, after) for before, after in self._steps]
        self.outcome.applied[applied_before:] = [_placed(fix, back) for fix in self.outcome.applied[applied_before:]]
        self.outcome.changes[path] = (original, current)
        if write:
            try:
                replace_file(path, original, current, within=self.settings.root)
            except NotWritten as exc:
                self._not_written(path, exc.reason)
                del self.outcome.changes[path]
                del self.outcome.applied[applied_before:]
                self.outcome.fixed = fixed_before
                self._forget(path)

    def _not_written(self, path: str, reason: str) -> None:
        self.outcome.not_written.append(f"{path}: {reason}")
        self._not_written_why[path] = reason

    def _apply(
        self, path: str, data: bytes, name: str, codemod: Type[ResilintCodemod], given_up: Set[Tuple[str, str, str]],
        everything: bool,
    ) -> Optional[bytes]:
        """The file's bytes with this codemod's fixes, once verified; None if nothing was kept."""
        # ``everything`` (``resilint codemod``) needs the file's findings only to check a change:
        # a file the codemod leaves as it is is not checked again.
        findings = [] if everything else self._findings_in(path, data)
        # A dropped fix is not tried again in a later round; its finding is known by its message,
        # which, unlike its position, an earlier fix in the file does not move.
        targets = [
            f for f in findings
            if f.code in codemod.CODES and (name, f.code, f.message) not in given_up and self._fixable(f.code)
        ]
        if not targets and not everything:
            return None
        # LibCST misplaces a block whose first line starts with a form feed (its indentation
        # then holds the form feed, and every other line's columns are off by one): the
        # codemod runs on the file without the form feeds that start lines, and its changes
        # are carried over onto the file's own lines (``_faithful``).
        work, targets = _form_feeds_set_aside(data, targets)
        run = run_codemod(codemod, work, path, self.settings, None if everything else [span_of(f) for f in targets])
        # The latest run's cases, so that their lines are those of the text that is kept.
        self._cases[name] = sorted(set(run.left_alone))
        if run.error is not None or run.updated is None:
            if run.error is not None:
                self.outcome.dropped.append(f"{path}: {name}: {run.error}")
                self._give_up(given_up, name, path, targets, run.error)
            return None
        problem = _faithful(run, data)
        if problem is not None:
            self.outcome.dropped.append(f"{path}: {name}: {problem}; not applied")
            self._give_up(given_up, name, path, targets, problem)
            return None
        if everything:
            findings = self._findings_in(path, data)
        alone = [] if everything else self._aimed(run, work, targets)
        aimed = [finding for finding, _ in alone]
        problem = unparseable(run.updated, path, data) or self._recheck(path, run.updated, findings, aimed)
        if problem is not None:
            self.outcome.dropped.append(f"{path}: {name}: {problem}; not applied")
            self._give_up(given_up, name, path, aimed or targets, problem)
            return None
        self.outcome.fixed.update(f.code for f in aimed)
        self._record(path, codemod, work, alone)
        self._steps.append((decode(data).text, decode(run.updated).text))
        return run.updated

    def _findings_in(self, path: str, data: bytes) -> List[Finding]:
        project = self._project_findings()
        local = without_withdrawn(self._local_findings(path, data), self.checker.project_withdrawn)
        return local + [f for f in project if f.path == path]

    def _give_up(self, given_up: Set[Tuple[str, str, str]], name: str, path: str, findings: Iterable[Finding], why: str) -> None:
        for finding in findings:
            given_up.add((name, finding.code, finding.message))
            self._dropped_why[(path, finding.code, finding.message)] = f"{name}: {why}"

    def _record(
        self, path: str, codemod: Type[ResilintCodemod], data: bytes, alone: List[Tuple[Finding, Tuple[Edit, ...]]],
    ) -> None:
        """Each fix applied, with its own edits (``--show-fixes``, the rules a diff hunk holds);
        its lines are those of the text it was applied to until ``_placed``."""
        before = decode(data).text
        for finding, edits in alone:
            description = codemod.DESCRIPTION
            if _uses_runtime(before, edits):
                description = f"{description.rstrip('.')}; uses the resilint-runtime dependency (fix target: runtime)."
            self.outcome.applied.append(
                AppliedFix(
                    path, finding.line, finding.column, finding.code, finding.name, description,
                    codemod.applicability_for(self.settings)[0], edits, before, len(self._steps),
                )
            )

    def _aimed(self, run: CodemodRun, data: bytes, targets: List[Finding]) -> List[Tuple[Finding, Tuple[Edit, ...]]]:
        """The targets the codemod actually rewrote, each with the edits of fixing it alone,
        told apart from the one run over all of them (``attribution``)."""
        text = decode(data).text
        split, _ = split_edits(run, text, [span_of(f) for f in targets])
        if len(targets) == 1 and span_of(targets[0]) not in split:
            assert run.updated is not None
            return [(targets[0], edits_between(text, decode(run.updated).text))]
        return [(f, split[span_of(f)]) for f in targets if split.get(span_of(f))]

    def _recheck(self, path: str, data: bytes, before: List[Finding], aimed: List[Finding]) -> Optional[str]:
        """Why the fixed text is not kept (None: kept, and it becomes the file's state): it must
        remove the findings it was aimed at and add none, the project pass included."""
        checked = self.checker.check_file(data, path)
        broken = [f for f in checked.findings if f.code == ANALYSIS_ERROR]
        if broken:
            return f"the result cannot be analysed: {broken[0].message}"
        project = self._project_findings(replacing=(path, checked.summary))
        local = without_withdrawn(checked.findings, self.checker.project_withdrawn)
        after = Counter((f.path, f.code) for f in local + project)
        previous = Counter((f.path, f.code) for f in before) + Counter(
            (f.path, f.code) for f in self._project_findings() if f.path != path
        )
        allowed = previous - Counter((f.path, f.code) for f in aimed)
        for (where, code), count in sorted(after.items()):
            if count > allowed[(where, code)]:
                if any(f.code == code and f.path == where for f in aimed):
                    return f"re-checking it still finds {code} where it was aimed"
                return f"re-checking it finds a new {code} in {where}"
        self._local[path] = checked.findings
        if checked.summary is not None and self.checker.project_rules:
            self.summaries[path] = checked.summary
            self._project = project
        return None

    # --- state ---------------------------------------------------------------------------

    def _local_findings(self, path: str, data: bytes) -> List[Finding]:
        if path not in self._local:
            checked = self.checker.check_file(data, path)
            self._local[path] = checked.findings
            if checked.summary is not None and path not in self.summaries and self.checker.project_rules:
                self.summaries[path] = checked.summary
        return self._local[path]

    def _project_findings(self, replacing: Optional[Tuple[str, Optional[ModuleSummary]]] = None) -> List[Finding]:
        if not self.checker.project_rules:
            return []
        if replacing is None and self._project is not None:
            return self._project
        summaries = dict(self.summaries)
        if replacing is not None and replacing[1] is not None:
            summaries[replacing[0]] = replacing[1]
        found = self.checker.project_findings(list(summaries.values()), self.reported)
        self.result.errors.extend(e for e in self.checker.project_errors if e not in self.result.errors)
        if replacing is None:
            self._project = found
        return found

    def _forget(self, path: str) -> None:
        """A change that is not written: the file's state is what is on disk again."""
        self._local.pop(path, None)
        self._project = None
        for summary in self.result.summaries:
            if summary.path == path:
                self.summaries[path] = summary

    def _finish(self) -> FixOutcome:
        changed = set(self.outcome.changes)
        project = self._project_findings()
        remaining = [f for f in self.result.findings if f.path not in changed]
        for path in sorted(changed):
            local = without_withdrawn(self._local.get(path, []), self.checker.project_withdrawn)
            found = local + [f for f in project if f.path == path]
            try:
                remaining.extend(with_fixes(found, self.outcome.changes[path][1], path, self.settings))
            except RecursionError:  # the remaining findings are reported, without a fix to offer
                remaining.extend(replace(f, fix=None) if f.fix is not None and f.fix.edits is None else f for f in found)
        self.outcome.remaining = sorted(set(remaining), key=lambda f: f.sort_key)
        return self.outcome
