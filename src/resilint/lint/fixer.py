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

import difflib
import sys
import warnings
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Collection, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Type

import libcst as cst
from libcst.codemod import CodemodContext, SkipFile

from resilint.codemods import all_codemods, codemods_for
from resilint.codemods.base import MEMO, SETTINGS, ResilintCodemod, Span, release_memo
from resilint.lint.checker import ANALYSIS_ERROR, Checker, parse_module
from resilint.lint.config import Settings
from resilint.lint.files import NotWritten, replace_file
from resilint.lint.finding import Edit, Finding, Fix, RunResult
from resilint.lint.positions import ConvertedPositions
from resilint.lint.source import LINE_BREAK, SourceError, content_digest, decode, python_lines, read_bytes
from resilint.lint.summary import ModuleSummary

MAX_ROUNDS = 3


def span_of(finding: Finding) -> Span:
    return (finding.line, finding.column, finding.end_line, finding.end_column)


@dataclass
class CodemodRun:
    updated: Optional[bytes]  # None: the codemod changed nothing
    left_alone: List[Tuple[int, str]] = field(default_factory=list)
    error: Optional[str] = None
    rewritten: Dict[Span, Span] = field(default_factory=dict)  # ResilintCodemod.rewritten


def run_codemod(
    codemod: Type[ResilintCodemod], data: bytes, path: str, settings: Settings, targets: Optional[Collection[Span]],
    memo: Optional[Dict[str, object]] = None,
) -> CodemodRun:
    """One codemod over one file's bytes, in memory. A codemod that raises costs its fix, never
    the run: the exception is the reason the fix is dropped. ``memo``: one dict shared by every
    run over the same ``data``, so that they share one parse, one position table and one
    semantic model (the trees are immutable; each run still gets its own context)."""
    module = memo.get("module") if memo is not None else None
    if not isinstance(module, cst.Module):
        try:
            module = parse_module(data)
        except Exception as exc:  # noqa: BLE001 - LibCST raises more than ParserSyntaxError
            return CodemodRun(None, error=f"cannot be parsed: {exc}")
        if memo is not None:
            memo["module"] = module
    scratch: Dict[str, object] = {SETTINGS: settings}
    if memo is not None:
        scratch[MEMO] = memo
    command = codemod(CodemodContext(filename=path, scratch=scratch), targets)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = command.transform_module(module)
            # Nothing planned: the module itself comes back, and generating its code again
            # (a tenth of a second on a large file) would only give back ``data``.
            updated = data if result is module else result.bytes
    except SkipFile:
        return CodemodRun(None, command.left_alone)
    except Exception as exc:  # noqa: BLE001
        return CodemodRun(None, command.left_alone, f"the codemod failed: {type(exc).__name__}: {exc}")
    return CodemodRun(updated if updated != data else None, command.left_alone, rewritten=command.rewritten)


def unparseable(data: bytes, path: str, original: Optional[bytes] = None) -> Optional[str]:
    """Why ``data``, a fix of ``original``, is not valid Python for the parsers that read the
    original, or None: LibCST's always; CPython's compiler when it compiles the original."""
    try:
        parse_module(data)
    except Exception as exc:  # noqa: BLE001
        return f"the result would not parse: {getattr(exc, 'message', exc)}"
    error = _compile_error(data, path)
    if error is None or (original is not None and _compile_error(original, path) is not None):
        return None
    return f"the result would not compile: {error}"


def uncompilable(data: bytes, path: str, original: Optional[bytes] = None) -> Optional[str]:
    """Why CPython does not compile ``data``, a fix of ``original``, or None. The edits ``check``
    reports are checked this way only: LibCST generated them from a tree it parsed, and ``fix``
    parses the result with LibCST as well before it writes anything (``unparseable``). When this
    interpreter cannot compile the original either (syntax newer than it), LibCST read the
    file, and LibCST's parse of the result is the check instead."""
    error = _compile_error(data, path)
    if error is None:
        return None
    if original is not None and _compile_error(original, path) is not None:
        return unparseable(data, path, original)
    return f"the result would not compile: {error}"


def interpreter_limit(data: bytes, path: str) -> Optional[str]:
    """What this Python says of ``data`` when it cannot compile what LibCST reads, with the
    syntax newer than it when known (``Python 3.11 cannot compile it (line 3: invalid syntax;
    type parameters are Python 3.12 syntax)``); else None."""
    error = _compile_error(data, path)
    if error is None:
        return None
    try:
        module = parse_module(data)
    except Exception:  # noqa: BLE001 - LibCST cannot read it either: not the interpreter's limit
        return None
    from resilint.lint.syntax_versions import describe, newer_syntax

    said = f"line {error.lineno}: {error.msg}" if isinstance(error, SyntaxError) else str(error)
    newer = newer_syntax(module)
    if newer is not None:
        said += f"; {describe(newer)}"
    return f"Python {sys.version_info[0]}.{sys.version_info[1]} cannot compile it ({said})"


def _compile_error(data: bytes, path: str) -> Optional[Exception]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the file's own SyntaxWarnings are not ours to print
            compile(data, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return exc
    return None


def edits_between(before: str, after: str) -> Tuple[Edit, ...]:
    """The smallest line-wise edits that turn ``before`` into ``after`` (1-based positions,
    end column exclusive; an insertion has equal start and end)."""
    old, new = python_lines(before, keepends=True), python_lines(after, keepends=True)
    edits = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            # Line for line, so that fixes on consecutive lines stay separate edits.
            edits.extend(_trimmed(i1 + offset + 1, old[i1 + offset], new[j1 + offset]) for offset in range(i2 - i1))
        else:
            edits.append(_trimmed(i1 + 1, "".join(old[i1:i2]), "".join(new[j1:j2])))
    return tuple(edits)


def _trimmed(first_line: int, removed: str, added: str) -> Edit:
    """Replacing ``removed`` (from column 1 of ``first_line``) by ``added``, less what both
    begin and end with: the edit spans from the first difference to the last."""
    prefix = _common_prefix(removed, added)
    suffix = _common_prefix(removed[prefix:][::-1], added[prefix:][::-1])
    start = _position(first_line, removed[:prefix])
    end = _position(first_line, removed[:len(removed) - suffix])
    return Edit(start[0], start[1], end[0], end[1], added[prefix:len(added) - suffix])


def _common_prefix(a: str, b: str) -> int:
    size = 0
    for x, y in zip(a, b):
        if x != y:
            break
        size += 1
    # Never between the two characters of a "\r\n" line break.
    if 0 < size < min(len(a), len(b)) + 1 and a[size - 1:size + 1] in ("\r\n", "\n\r"):
        size -= 1
    return size


def _position(first_line: int, text: str) -> Tuple[int, int]:
    """Where ``text``, starting at column 1 of ``first_line``, ends."""
    pieces = LINE_BREAK.split(text)
    return first_line + len(pieces) // 2, len(pieces[-1]) + 1


def with_fixes(
    findings: Sequence[Finding], data: bytes, path: str, settings: Settings, built: Optional[ConvertedPositions] = None
) -> List[Finding]:
    """``findings`` of one file, each whose rule has a codemod carrying the concrete edits of
    fixing it alone, the imports included; nothing is run for other rules.

    A codemod runs once over all its findings; a codemod that records what it rewrote for each
    (``ResilintCodemod.rewriting``) has that run's edits split between them: an edit inside the
    node replaced for a finding is that finding's, an edit outside all of them (an import) is
    every finding's. Otherwise, or when an edit straddles two, it runs once per finding.

    ``built``: the positions of the tree ``check`` built for ``data`` from its ``ast`` tree, which
    the codemods then take their positions from instead of generating the module's code."""
    wanted = [f for f in findings if f.fix is None and codemods_for(f.code)]
    if not wanted:
        return list(findings)
    try:
        text = decode(data).text
    except SourceError:
        return list(findings)
    fixes: Dict[int, Fix] = {}
    memo: Dict[str, object] = {"built": built}
    codemods = sorted({c for f in wanted for c in codemods_for(f.code)}, key=lambda c: (c.APPLICABILITY != "safe", c.__name__))
    try:
        for codemod in codemods:
            mine = [f for f in wanted if f.code in codemod.CODES and id(f) not in fixes]
            run = run_codemod(codemod, data, path, settings, [span_of(f) for f in mine], memo)
            if not mine or run.updated is None or uncompilable(run.updated, path, data) is not None:
                continue  # it fixes none of them (a client it leaves alone, a finding through a wrapper)
            edits = edits_between(text, decode(run.updated).text)
            split = {id(mine[0]): edits} if len(mine) == 1 else _split(edits, run.rewritten, mine)
            if split is None:
                split = _one_by_one(codemod, mine, data, text, path, settings, memo)
            for finding in mine:
                if split.get(id(finding)):
                    fixes[id(finding)] = Fix(codemod.APPLICABILITY, codemod.DESCRIPTION, split[id(finding)])
    finally:
        release_memo(memo)
    return [replace(f, fix=fixes[id(f)]) if id(f) in fixes else f for f in findings]


def _split(
    edits: Sequence[Edit], rewritten: Dict[Span, Span], findings: Sequence[Finding]
) -> Optional[Dict[int, Tuple[Edit, ...]]]:
    """Each finding's share of one run's ``edits``; None when they cannot be told apart."""
    regions = {id(f): rewritten[span_of(f)] for f in findings if span_of(f) in rewritten}
    if not regions:
        return None
    shared: List[Edit] = []
    own: Dict[int, List[Edit]] = {key: [] for key in regions}
    for edit in edits:
        start, end = (edit.line, edit.column), (edit.end_line, edit.end_column)
        holders = [key for key, r in regions.items() if (r[0], r[1]) <= start and end <= (r[2], r[3])]
        touched = [key for key, r in regions.items() if start < (r[2], r[3]) and (r[0], r[1]) < end]
        if any(key not in holders for key in touched):
            return None  # across a rewritten node's edge (two fixes on one line): whose is it?
        if holders:
            own[min(holders, key=lambda key: _size(regions[key]))].append(edit)
        else:
            shared.append(edit)
    return {key: tuple(sorted(shared + edits_of, key=lambda e: (e.line, e.column))) for key, edits_of in own.items() if edits_of}


def _size(span: Span) -> Tuple[int, int]:
    return (span[2] - span[0], span[3] - span[1])


def _one_by_one(
    codemod: Type[ResilintCodemod], findings: Sequence[Finding], data: bytes, text: str, path: str, settings: Settings,
    memo: Optional[Dict[str, object]] = None,
) -> Dict[int, Tuple[Edit, ...]]:
    """Each finding's edits from a run of the codemod with that one target."""
    found = {}
    for finding in findings:
        run = run_codemod(codemod, data, path, settings, [span_of(finding)], memo)
        if run.updated is not None and uncompilable(run.updated, path, data) is None:
            found[id(finding)] = edits_between(text, decode(run.updated).text)
    return found


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


def last_line_of(edit: Edit) -> int:
    """The last line an edit replaces text on (an edit ending at column 1 ends on the line before)."""
    return edit.end_line - 1 if edit.end_column == 1 and edit.end_line > edit.line else edit.end_line


def _lines_back(before: str, after: str) -> List[int]:
    """For each line of ``after`` (index = line number; index 0 unused), the line of ``before``
    it comes from, or, for a line a change added or rewrote, the first line that change
    replaced (or the line it was added before)."""
    old, new = python_lines(before, keepends=True), python_lines(after, keepends=True)
    mapping = [0] * (len(new) + 2)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for offset, line in enumerate(range(j1, j2)):
            mapping[line + 1] = i1 + (offset if tag == "equal" else 0) + 1
    mapping[len(new) + 1] = len(old) + 1  # after the last line
    return mapping


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
        self.settings = settings
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

    # --- entry points --------------------------------------------------------------------

    def fix(self, write: bool = True) -> FixOutcome:
        """Fix the run's findings that have an allowed codemod, of the fixable codes."""
        codemods = [c for c in all_codemods().items() if self._allowed(c[1])]
        codes = {code for _, c in codemods for code in c.CODES if self._fixable(code)}
        paths = sorted({f.path for f in self.result.findings if f.code in codes})
        for path in paths:
            self._fix_file(path, codemods, write)
        outcome = self._finish()
        outcome.unfixed = {finding: self._why_unfixed(finding) for finding in outcome.remaining}
        return outcome

    def apply(self, name: str, paths: Iterable[str], write: bool = True) -> FixOutcome:
        """``resilint codemod NAME``: one codemod over every case it recognises in ``paths``,
        kept only if the result parses, adds no finding and a second run changes nothing."""
        codemod = all_codemods()[name]
        for path in sorted(set(paths)):
            self._fix_file(path, [(name, codemod)], write, everything=True)
        return self._finish()

    # --- one file ------------------------------------------------------------------------

    def _allowed(self, codemod: Type[ResilintCodemod]) -> bool:
        return codemod.APPLICABILITY == "safe" or self.unsafe

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
            return "its fix is unsafe: apply it with --unsafe-fixes"
        return "no codemod rewrites this case (see the rule's Fix safety)"

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
                self._forget(path)
                return
        if current == original:
            return
        limit = interpreter_limit(original, path)
        if limit is not None:
            self.outcome.parsed_only.append(f"{path}: {limit}; its fixes were checked with LibCST's parser instead")
        back = [_lines_back(before, after) for before, after in self._steps]
        self.outcome.applied[applied_before:] = [_placed(fix, back) for fix in self.outcome.applied[applied_before:]]
        self.outcome.changes[path] = (original, current)
        if write:
            try:
                replace_file(path, original, current)
            except NotWritten as exc:
                self._not_written(path, exc.reason)
                del self.outcome.changes[path]
                del self.outcome.applied[applied_before:]
                self._forget(path)

    def _not_written(self, path: str, reason: str) -> None:
        self.outcome.not_written.append(f"{path}: {reason}")
        self._not_written_why[path] = reason

    def _apply(
        self, path: str, data: bytes, name: str, codemod: Type[ResilintCodemod], given_up: Set[Tuple[str, str, str]],
        everything: bool,
    ) -> Optional[bytes]:
        """The file's bytes with this codemod's fixes, once verified; None if nothing was kept."""
        findings = self._local_findings(path, data) + [f for f in self._project_findings() if f.path == path]
        # A dropped fix is not tried again in a later round; its finding is known by its message,
        # which, unlike its position, an earlier fix in the file does not move.
        targets = [
            f for f in findings
            if f.code in codemod.CODES and (name, f.code, f.message) not in given_up and (everything or self._fixable(f.code))
        ]
        if not targets and not everything:
            return None
        run = run_codemod(codemod, data, path, self.settings, None if everything else [span_of(f) for f in targets])
        # The latest run's cases, so that their lines are those of the text that is kept.
        self._cases[name] = sorted(set(run.left_alone))
        if run.error is not None or run.updated is None:
            if run.error is not None:
                self.outcome.dropped.append(f"{path}: {name}: {run.error}")
                self._give_up(given_up, name, path, targets, run.error)
            return None
        alone = [] if everything else self._aimed(codemod, data, path, targets, run.updated)
        aimed = [finding for finding, _ in alone]
        problem = unparseable(run.updated, path, data) or self._recheck(path, run.updated, findings, aimed)
        if problem is not None:
            self.outcome.dropped.append(f"{path}: {name}: {problem}; not applied")
            self._give_up(given_up, name, path, aimed or targets, problem)
            return None
        self.outcome.fixed.update(f.code for f in aimed)
        self._record(path, codemod, data, alone)
        self._steps.append((decode(data).text, decode(run.updated).text))
        return run.updated

    def _give_up(self, given_up: Set[Tuple[str, str, str]], name: str, path: str, findings: Iterable[Finding], why: str) -> None:
        for finding in findings:
            given_up.add((name, finding.code, finding.message))
            self._dropped_why[(path, finding.code, finding.message)] = f"{name}: {why}"

    def _record(self, path: str, codemod: Type[ResilintCodemod], data: bytes, alone: List[Tuple[Finding, bytes]]) -> None:
        """Each fix applied, with its own edits (``--show-fixes``, the rules a diff hunk holds);
        its lines are those of the text it was applied to until ``_placed``."""
        before = decode(data).text
        for finding, fixed_alone in alone:
            self.outcome.applied.append(
                AppliedFix(
                    path, finding.line, finding.column, finding.code, finding.name, codemod.DESCRIPTION,
                    codemod.APPLICABILITY, edits_between(before, decode(fixed_alone).text), before, len(self._steps),
                )
            )

    def _aimed(
        self, codemod: Type[ResilintCodemod], data: bytes, path: str, targets: List[Finding], updated: bytes,
    ) -> List[Tuple[Finding, bytes]]:
        """The targets the codemod actually rewrote, each with the file fixed for it alone
        (``updated``, the run over every target, when there is one)."""
        if len(targets) == 1:
            return [(targets[0], updated)]
        memo: Dict[str, object] = {}
        try:
            alone = [(f, run_codemod(codemod, data, path, self.settings, [span_of(f)], memo).updated) for f in targets]
            return [(f, fixed) for f, fixed in alone if fixed is not None]
        finally:
            release_memo(memo)

    def _recheck(self, path: str, data: bytes, before: List[Finding], aimed: List[Finding]) -> Optional[str]:
        """Why the fixed text is not kept (None: kept, and it becomes the file's state): it must
        remove the findings it was aimed at and add none, the project pass included."""
        checked = self.checker.check_file(data, path)
        broken = [f for f in checked.findings if f.code == ANALYSIS_ERROR]
        if broken:
            return f"the result cannot be analysed: {broken[0].message}"
        project = self._project_findings(replacing=(path, checked.summary))
        after = Counter((f.path, f.code) for f in checked.findings + project)
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
            found = self._local.get(path, []) + [f for f in project if f.path == path]
            remaining.extend(with_fixes(found, self.outcome.changes[path][1], path, self.settings))
        self.outcome.remaining = sorted(set(remaining), key=lambda f: f.sort_key)
        return self.outcome
