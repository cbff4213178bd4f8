"""Checking one file: bytes → prefilter → parse → semantic model → rules → suppressions."""

from __future__ import annotations

import ast
import gc
import os
import sys
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import (
    AbstractSet,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
    Type,
    Union,
)

import libcst as cst

from resilint.lint.catalog import declared_fix, declared_fixes
from resilint.lint.comment_edits import comment_edit_line
from resilint.lint.config import Settings, path_matches
from resilint.lint.finding import (
    ANALYSIS_ERROR, UNUSED_SUPPRESSION, AnalysisError, Finding, Fix, Withdrawn, without_withdrawn,
)
from resilint.lint.modules import module_name, module_names, project_roots, shadowing_modules
from resilint.lint.nesting import check_tokens, check_tree
from resilint.lint.cst_from_ast import ConvertedTree, Unconvertible, convert
from resilint.lint.nodes import reading_source
from resilint.lint.positions import ConvertedPositions, NodePositions, Unplaced
from resilint.lint.project import run_project_rules
from resilint.lint.registry import all_rules
from resilint.lint.rule import Report, Rule, RuleContext
from resilint.lint.semantic import SemanticModel
from resilint.lint.source import LINE_BREAK, SourceError, decode, line_text, python_lines, read_bytes, too_large
from resilint.lint.summary import ModuleSummary, Place
from resilint.lint.suppressions import FILE_LEVEL, Suppression, parse_suppressions, suppressing

_NESTING_MESSAGES = ("too many nested parentheses", "too complex", "too many levels of indentation")
_PYTHON = f"Python {sys.version_info[0]}.{sys.version_info[1]}"


@dataclass(frozen=True)
class CheckedTree:
    """What ``check`` built for a file's bytes, lent to ``FixEdits`` while it is alive: the tree
    made from ``ast`` (its whitespace and comments are LibCST's defaults, not the file's), its
    positions, its semantic model."""

    module: cst.Module
    positions: ConvertedPositions
    model: SemanticModel


# What computes the edits of a file's findings' fixes (``resilint.fixing.fix_edits``, above the
# engine): (findings, the file's bytes, its path, settings, what check built for those bytes
# when it made its tree from ``ast``) → the findings, each declared fix computed or dropped.
FixEdits = Callable[[Sequence[Finding], bytes, str, Settings, Optional[CheckedTree]], List[Finding]]


class Checker:
    """The enabled rules and settings, applied file by file (one per worker process).

    A finding whose rule has a codemod carries a declared fix (``Fix.edits`` None); with
    ``fix_edits`` (for the reports that show edits, and for ``fix``), its edits are computed by
    that function, which the caller takes from the fixing layer: the engine runs no codemod."""

    def __init__(self, settings: Settings, codes: Sequence[str], fix_edits: Optional[FixEdits] = None) -> None:
        self.settings = settings
        self.fix_edits = fix_edits
        self.project_errors: List[AnalysisError] = []  # the project rules that crashed in the last pass
        self.project_withdrawn: List[Withdrawn] = []  # the file findings the last pass took back
        target = settings.fix_target
        self.target = target if target in ("native", "runtime") else None
        self.declared = declared_fixes(self.target)
        self.registry: Mapping[str, Type[Rule]] = all_rules()
        self.codes = [c for c in codes if c in self.registry]
        enabled = [self.registry[c]() for c in self.codes if not self.registry[c].engine]
        self.rules = [r for r in enabled if type(r).check is not Rule.check]
        self.project_rules = [r for r in enabled if r.project]
        self.summarise = next((r.summarise for r in self.project_rules if r.summarise is not None), None)
        self.triggers = _triggers(self.rules, settings)
        self.roots = project_roots(settings)

    def _declared(self, report: Report) -> Optional[Fix]:
        return declared_fix(report.fixed_by, self.target) if report.fixed_by else self.declared.get(report.code)

    # --- entry points --------------------------------------------------------------------

    def check_file(self, data: Optional[bytes], path: str, reusable: bool = False) -> "FileResult":
        """The file's findings and, when project rules are enabled, its summary; with
        ``reusable``, what ``recheck`` needs to answer a later edit of the file (an editor's)."""
        with _collected_once():
            return self._check_file(data, path, reusable)

    def recheck(self, previous: "FileResult", data: bytes, path: str) -> Optional["FileResult"]:
        """The result of ``check_file(data, path)`` drawn from ``previous`` (a reusable result of
        the same path) when ``data`` differs from its text only inside one comment; None when
        the file must be checked again. Such an edit leaves the code as it was: the findings
        are the same but for their suppression comments and the edited line's text."""
        kept = previous.reusable
        if kept is None or self.fix_edits is not None or len(data) > self.settings.max_file_size:
            return None
        try:
            text = decode(data).text
        except SourceError:
            return None
        number = comment_edit_line(kept.text, text, kept.multiline_strings)
        if number is None or self._wanted(data) != kept.wanted:
            return None
        lines = python_lines(text)
        edited = line_text(lines, number)
        located = [
            _WithAnchor(replace(item.finding, line_text=edited), item.first_line, item.last_line)
            if item.finding.line == number else item
            for item in kept.located
        ]
        suppressions = parse_suppressions(text, kept.multiline_strings, lines)
        summary = replace(previous.summary) if previous.summary is not None else None
        if summary is not None:
            _record_suppressions(summary, suppressions)
        findings = self._apply_suppressions(located, suppressions, path, lines, kept.codes, summary)
        return FileResult(findings, summary, replace(kept, text=text, located=located))

    def _check_file(self, data: Optional[bytes], path: str, reusable: bool = False) -> "FileResult":
        if data is None:
            try:
                data = read_bytes(path, self.settings.max_file_size)
            except SourceError as exc:
                return FileResult([self._analysis_error(path, exc)])
        try:
            if len(data) > self.settings.max_file_size:
                raise too_large(len(data), self.settings.max_file_size)
            source = decode(data)
        except SourceError as exc:
            return FileResult([self._analysis_error(path, exc)])
        codes = self._codes_for(path)
        text = source.text
        lines = python_lines(text)
        try:
            with _quiet():
                try:
                    findings, summary, kept = self._analyse(text, data, path, codes, lines, True, reusable)
                except Unplaced:
                    findings, summary, kept = self._analyse(text, data, path, codes, lines, False, reusable)
        except SourceError as exc:
            return FileResult([self._analysis_error(path, exc, lines)])
        except MemoryError:
            reason = "ran out of memory while analysing this file"
            return FileResult([self._analysis_error(path, SourceError(reason), lines)])
        return FileResult(findings, summary, kept)

    def project_findings(self, summaries: Sequence[ModuleSummary], reported_paths: Optional[Set[str]] = None) -> List[Finding]:
        """The project rules' findings over these summaries (per-file ignores applied), and the
        suppressions left unused once they are known (RES001). A rule that crashed is in
        ``project_errors`` until the next pass: its suppressions are not called unused."""
        self.project_errors = []
        self.project_withdrawn = []
        if not self.project_rules:
            return []
        ctx = run_project_rules(self.project_rules, summaries, self.settings, reported_paths)
        self.project_withdrawn = sorted(
            Withdrawn(code, p.path, p.line, p.column, p.end_line, p.end_column) for code, p in ctx.withdrawn
        )
        findings = [f for f in ctx.findings if f.code in self._codes_for(f.path)]
        failed = set()
        for rule, error in ctx.failures:
            failed.add(rule.code)
            self.project_errors.append(
                AnalysisError(
                    _shown(self.settings.root or "."),  # as paths are shown: from the working directory
                    f"internal error in the project rule {rule.code} ({rule.name}): {error}; "
                    "its findings may be missing, the other rules ran",
                )
            )
        return findings + self.unused_after_project(summaries, ctx.suppressed, reported_paths, failed)

    # --- steps ---------------------------------------------------------------------------

    def _codes_for(self, path: str) -> List[str]:
        ignored = set()
        for pattern, codes in self.settings.per_file_ignores:
            if path_matches(path, (pattern,), self.settings.root):
                ignored.update(codes)
        return [c for c in self.codes if not any(c.startswith(i) for i in ignored)]

    def _analyse(
        self, text: str, data: bytes, path: str, codes: Sequence[str], lines: List[str], convert: bool,
        reusable: bool = False,
    ) -> Tuple[List[Finding], Optional[ModuleSummary], Optional["_Reusable"]]:
        model, positions, rules, multiline_strings = self._model(text, data, path, codes, lines, convert)
        reports: List[Report] = []
        try:
            with reading_source(positions.text_of if isinstance(positions, ConvertedPositions) else None):
                if model is not None and rules:
                    ctx = RuleContext(model, self.settings)
                    try:
                        for rule in rules:
                            ctx.run(rule)
                    except RecursionError:
                        raise SourceError("too deeply nested to analyse (recursion limit)") from None
                    reports = ctx.reports
                located = self._locate(reports, positions, path, lines)
                suppressions = parse_suppressions(text, multiline_strings, lines)
                summary = self._summarise(model, positions, path, lines, suppressions)
                findings = self._apply_suppressions(located, suppressions, path, lines, codes, summary)
                if self.fix_edits is not None and any(f.fix is not None and f.fix.edits is None for f in findings):
                    # While the model lives: the codemods decide from it, and from the same tree.
                    built = (
                        CheckedTree(positions.module, positions, model)
                        if isinstance(positions, ConvertedPositions) and model is not None else None
                    )
                    findings = self.fix_edits(findings, data, path, self.settings, built)
        finally:
            if model is not None:
                model.release()
        kept = _Reusable(text, self._wanted(data), tuple(codes), located, multiline_strings) if reusable else None
        return findings, summary, kept

    def _model(
        self, text: str, data: bytes, path: str, codes: Sequence[str], lines: List[str], convert: bool
    ) -> Tuple[Optional[SemanticModel], Optional[NodePositions], List[Rule], Optional[List[Tuple[int, int, int]]]]:
        """The file's semantic model and positions, the rules to run on it, and where its strings
        on several lines are, when its tree was made from ``ast`` (``ConvertedTree``)."""
        rules = [r for r in self.rules if r.code in codes]
        wanted = bool(rules) and self._wanted(data)
        # Files without triggers can still sit on a call path, so project rules see every file.
        summarise = self.summarise is not None
        # CPython's parser runs on every file, trigger or not, so that every syntax error is a
        # RES000; it is fast, and max-file-size bounds what it can cost.
        tree, deferred = _check_syntax(text, path)
        if not wanted and not summarise and deferred is None:
            return None, None, [], None
        if tree is not None:
            check_tree(tree)
        else:
            check_tokens(text)
        # The tree built from ``ast`` when it can be (a third of LibCST's parse), else LibCST's.
        converted = _converted(tree, text, lines) if convert else None
        module = converted.module if converted is not None else _parse(text, tree, deferred)
        if not wanted and not summarise:
            return None, None, [], None
        try:
            model = SemanticModel(
                module, module_name=module_name(path, self.roots), path=path, text=text,
                shadowed=shadowing_modules(path, self.roots),
            )
        except RecursionError:
            raise SourceError("too deeply nested to analyse (recursion limit)") from None
        positions = (
            ConvertedPositions(module, converted.known, lines) if converted is not None
            else _positions(model, tree, lines)
        )
        strings = converted.multiline_strings if converted is not None else None
        return model, positions, rules if wanted else [], strings

    def _wanted(self, data: bytes) -> bool:
        """Whether the file names something the rules look for (``_triggers``)."""
        return self.triggers is None or any(t in data for t in self.triggers)

    def _summarise(
        self, model: Optional[SemanticModel], positions: Optional[NodePositions], path: str, lines: List[str],
        suppressions: Dict[int, List[Suppression]],
    ) -> Optional[ModuleSummary]:
        if self.summarise is None or model is None or positions is None:
            return None

        def locate(node: cst.CSTNode) -> Place:
            where = positions[node]
            return Place(path, where.start.line, where.start.column + 1, where.end.line, where.end.column + 1)

        try:
            summary: ModuleSummary = self.summarise(model, locate)
        except RecursionError:
            raise SourceError("too deeply nested to analyse (recursion limit)") from None
        summary.aliases = [name for name in module_names(path, self.roots) if name != summary.module]
        _record_suppressions(summary, suppressions)
        return summary

    def _locate(
        self, reports: List[Report], positions: Optional[NodePositions], path: str, lines: List[str]
    ) -> List["_WithAnchor"]:
        if not reports or positions is None:
            return []
        findings = []
        for report in reports:
            where = positions[report.node]
            anchor = positions[report.anchor] if report.anchor is not None else where
            rule = self.registry[report.code]
            findings.append(
                _WithAnchor(
                    Finding(
                        code=report.code, name=rule.name, message=report.message, path=path,
                        line=where.start.line, column=where.start.column + 1,
                        end_line=where.end.line, end_column=where.end.column + 1,
                        severity=rule.severity, related=report.related,
                        fix=report.fix or (self._declared(report) if report.fixable else None),
                        line_text=line_text(lines, where.start.line),
                    ),
                    min(anchor.start.line, where.start.line),
                    max(anchor.end.line, where.end.line),
                )
            )
        return findings

    def _apply_suppressions(
        self, located: List["_WithAnchor"], suppressions: Dict[int, List[Suppression]], path: str, lines: List[str],
        codes: Sequence[str], summary: Optional[ModuleSummary] = None,
    ) -> List[Finding]:
        kept = [
            item.finding
            for item in located
            if suppressing(suppressions, item.finding.code, item.first_line, item.last_line) is None
        ]
        if UNUSED_SUPPRESSION in codes and suppressions:
            entries = [entry for line in suppressions.values() for entry in line]
            if summary is not None:
                # A suppression that may serve a project rule is judged after the project pass.
                project_codes = {r.code for r in self.project_rules}
                deferred = [e for e in entries if e.codes is None or e.codes & project_codes]
                summary.pending_suppressions = [_pending(e, lines) for e in deferred]
                entries = [e for e in entries if e not in deferred]
            kept.extend(self._unused(entries, path, lambda number: line_text(lines, number)))
        return sorted(kept, key=lambda f: f.sort_key)

    def _unused(self, entries: Iterable[Suppression], path: str, line_text: Callable[[int], str]) -> List[Finding]:
        rule = self.registry[UNUSED_SUPPRESSION]
        findings = []
        for entry in entries:
            for message in rule.problems(entry, self.registry, self.codes):  # type: ignore[attr-defined]
                findings.append(
                    Finding(
                        UNUSED_SUPPRESSION, rule.name, message, path, entry.line, entry.column,
                        entry.line, entry.end_column, rule.severity, line_text=line_text(entry.line),
                    )
                )
        return findings

    def unused_after_project(
        self, summaries: Sequence[ModuleSummary], used: Set[Tuple[str, int, str]], reported_paths: Optional[Set[str]],
        failed: AbstractSet[str] = frozenset(),
    ) -> List[Finding]:
        """RES001 for the suppressions deferred to the project pass, once its findings are known
        (not those that may be of a rule in ``failed``, which did not finish)."""
        if UNUSED_SUPPRESSION not in self.codes:
            return []
        findings = []
        for summary in summaries:
            if reported_paths is not None and summary.path not in reported_paths:
                continue
            if UNUSED_SUPPRESSION not in self._codes_for(summary.path):
                continue
            for pending in summary.pending_suppressions:
                if failed and (pending["codes"] is None or failed.intersection(pending["codes"])):
                    continue
                entry = Suppression(
                    pending["line"], pending["column"], pending["end_column"],
                    None if pending["codes"] is None else frozenset(pending["codes"]), pending["ours"],
                    set(pending["used"]) | {code for path, line, code in used if path == summary.path and line == pending["line"]},
                    whole_file=bool(pending.get("whole_file")),
                )
                text = str(pending["line_text"])
                findings.extend(self._unused([entry], summary.path, lambda _: text))
        return findings

    def _analysis_error(self, path: str, exc: SourceError, lines: Sequence[str] = ()) -> Finding:
        return analysis_error(path, exc, lines)


def _shown(path: str) -> str:
    """``path`` relative to the working directory, as reports show paths."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive
        return path


def analysis_error(path: str, exc: SourceError, lines: Sequence[str] = ()) -> Finding:
    """The one RES000 finding of a file that could not be analysed."""
    line = exc.line or 1
    column = exc.column or 1
    return Finding(
        ANALYSIS_ERROR, all_rules()[ANALYSIS_ERROR].name, exc.reason, path, line, column,
        line, column + 1, "error", line_text=line_text(lines, line),
    )


@contextmanager
def _collected_once() -> Iterator[None]:
    """No cyclic garbage collection while a file is checked, one of the young objects after.

    Checking a file allocates millions of objects that live as long as the check (its trees and
    semantic model): each automatic collection scanned them again, a fifth of a cold run's CPU.
    Nothing is promoted while collection is off, so one collection of the youngest generation
    afterwards frees whatever cycles the check left; the semantic model breaks its own first
    (``SemanticModel.release``), so that collection has almost nothing to scan."""
    if not gc.isenabled():  # the caller manages collection
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)


@contextmanager
def _quiet() -> Iterator[None]:
    """The checked code's own warnings (an invalid escape sequence, `1if x else y`) are not
    resilint's to print: CPython's parser and ``literal_eval`` emit them while reading it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


@dataclass
class FileResult:
    findings: List[Finding]
    summary: Optional[ModuleSummary] = None
    reusable: Optional["_Reusable"] = None


@dataclass(frozen=True)
class _Reusable:
    """What ``Checker.recheck`` reuses of a file's check: its text, whether it named a rule's
    trigger, the codes enabled for it, its findings before suppression, and its strings that
    span lines."""

    text: str
    wanted: bool
    codes: Tuple[str, ...]
    located: List["_WithAnchor"]
    multiline_strings: Optional[List[Tuple[int, int, int]]]


def _record_suppressions(summary: ModuleSummary, suppressions: Dict[int, List[Suppression]]) -> None:
    """The file's suppression comments in its summary, for the project rules' findings."""
    summary.suppressions = {
        line: (None if entry.codes is None else sorted(entry.codes))
        for line, entries in suppressions.items()
        if line != FILE_LEVEL
        for entry in entries
    }
    summary.file_suppressions = [
        (entry.line, None if entry.codes is None else sorted(entry.codes)) for entry in suppressions.get(FILE_LEVEL, ())
    ]


def _pending(entry: Suppression, lines: Sequence[str]) -> Dict[str, object]:
    return {
        "line": entry.line, "column": entry.column, "end_column": entry.end_column,
        "codes": None if entry.codes is None else sorted(entry.codes), "ours": entry.ours,
        "used": sorted(entry.used), "line_text": line_text(lines, entry.line), "whole_file": entry.whole_file,
    }


def _positions(model: SemanticModel, tree: Optional[ast.Module], lines: Sequence[str]) -> NodePositions:
    functions = [f.node for f in model.functions if isinstance(f.node, cst.FunctionDef)]
    return NodePositions(model.module, tree, lines, [site.node for site in model.calls], functions, model.loops)


class _WithAnchor:
    __slots__ = ("finding", "first_line", "last_line")

    def __init__(self, finding: Finding, first_line: int, last_line: int) -> None:
        self.finding = finding
        self.first_line = first_line
        self.last_line = last_line


def _triggers(rules: Iterable[Rule], settings: Settings) -> Optional[Tuple[bytes, ...]]:
    """Byte strings of which a file must contain one to be parsed; None: parse every file."""
    found = set()
    for rule in rules:
        if not rule.triggers:
            return None
        found.update(t.encode() for t in rule.triggers)
    # User-declared clients may be reached through any module name.
    for client in settings.extend_clients:
        found.update(part.encode() for part in client.split(".") if part)
    return tuple(sorted(found))


def _check_syntax(text: str, path: str) -> Tuple[Optional[ast.Module], Optional[SourceError]]:
    """CPython's own parser first: ten times faster than LibCST, better messages, and it
    refuses pathological nesting that would crash LibCST's native parser.

    Returns the syntax error to report if LibCST agrees: code newer than the running
    interpreter (``match`` on 3.9) is refused by ``ast`` but parsed by LibCST. The message
    names the grammar that refused it: code newer than both (``class A[T]`` with Python 3.11
    and a LibCST before 1.1) is not wrong, only unreadable here.
    """
    try:
        return ast.parse(text, filename=path), None
    except SyntaxError as exc:
        error = SourceError(f"syntax error ({_PYTHON}): {exc.msg or 'invalid syntax'}", exc.lineno, exc.offset)
        if any(m in error.reason for m in _NESTING_MESSAGES):
            raise error from None
        return None, error
    except RecursionError:
        raise SourceError("too deeply nested to parse") from None
    except MemoryError:
        # CPython's parser says MemoryError for deep nesting too: the tokens tell which it was.
        check_tokens(text)
        raise


@contextmanager
def _unvalidated() -> Iterator[None]:
    """LibCST's parser builds every node through its constructor, whose ``__post_init__``
    validates the node (a fifth of the parse): needless for nodes the parser itself made from
    valid source. Nodes built elsewhere (codemods) are still validated."""
    validate = cst.CSTNode.__dict__.get("__post_init__")
    if validate is None:  # a LibCST that validates elsewhere: nothing to turn off
        yield
        return
    cst.CSTNode.__post_init__ = _no_validation  # type: ignore[method-assign]
    try:
        yield
    finally:
        cst.CSTNode.__post_init__ = validate  # type: ignore[method-assign]


def _no_validation(self: cst.CSTNode) -> None:
    pass


def parse_module(source: Union[str, bytes]) -> cst.Module:
    """LibCST's parse of ``source`` (bytes: its encoding is read as Python does), without the
    validation of the nodes its parser makes."""
    with _unvalidated():
        return cst.parse_module(source)


def _converted(tree: Optional[ast.Module], text: str, lines: Sequence[str]) -> Optional[ConvertedTree]:
    """The LibCST tree of the file made from its ``ast`` tree, when the converter can build it."""
    if tree is None:
        return None
    try:
        with _unvalidated():
            return convert(tree, text, lines)
    except Unconvertible:
        return None
    except RecursionError:
        raise SourceError("too deeply nested to parse") from None


def _parse(text: str, tree: Optional[ast.Module], deferred: Optional[SourceError]) -> cst.Module:
    try:
        return parse_module(text)
    except cst.ParserSyntaxError as exc:
        if deferred is not None:  # both refuse it: CPython's message is the clearer one
            raise deferred from None
        refused = exc
    except RecursionError:
        raise SourceError("too deeply nested to parse") from None
    # CPython accepts what LibCST refuses: a gap in LibCST's grammar, not a syntax error.
    assert tree is not None  # ast either parsed the file or said why not
    rewritten = _unparenthesized_annotation_targets(text, tree)
    if rewritten is not None:
        try:
            return parse_module(rewritten)
        except cst.ParserSyntaxError:
            pass
    raise SourceError(
        f"valid Python that LibCST, the parser resilint uses, cannot read: {refused.message}",
        refused.raw_line, refused.raw_column + 1,
    ) from None


def _unparenthesized_annotation_targets(text: str, tree: ast.Module) -> Optional[str]:
    """``(x): int = 1`` with the parentheses blanked out (``x  : int = 1``), or None when the
    file has no such statement: LibCST's native parser refuses a parenthesized annotated
    target (LibCST issue 1011). Every position after the target stays where it was; the target
    moves left by the width of its opening parentheses. Only one-line statements are rewritten.
    """
    pieces = LINE_BREAK.split(text)  # line, break, line, break, ..., line
    changed = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.AnnAssign) or node.simple:
            continue
        target, annotation = node.target, node.annotation
        if not node.lineno == target.lineno == target.end_lineno == annotation.lineno:
            continue
        index = 2 * (node.lineno - 1)
        line = pieces[index].encode("utf-8")  # ast's columns count UTF-8 bytes
        opening = line[node.col_offset:target.col_offset]
        closing = line[target.end_col_offset:annotation.col_offset]  # type: ignore[misc]
        only_parentheses = not opening.strip(b"( \t") and not closing.strip(b") \t:")
        if not opening.startswith(b"(") or not only_parentheses or closing.count(b":") != 1:
            continue
        moved = line[target.col_offset:target.end_col_offset]  # type: ignore[misc]
        pieces[index] = (
            line[:node.col_offset] + moved + b" " * len(opening) + closing.replace(b")", b" ")
            + line[annotation.col_offset:]
        ).decode("utf-8")
        changed = True
    return "".join(pieces) if changed else None


def check_source(
    code: str, codes: Sequence[str], settings: Optional[Settings] = None, path: str = "example.py"
) -> List[Finding]:
    """Check a piece of source text as if it were the file ``path`` (rule examples, tests),
    project rules included, as a project of that one file."""
    settings = settings or Settings()
    checker = Checker(settings, codes)
    result = checker.check_file(code.encode("utf-8"), path)
    summaries = [result.summary] if result.summary is not None else []
    project = checker.project_findings(summaries)
    findings = without_withdrawn(result.findings, checker.project_withdrawn) + project
    return sorted(findings, key=lambda f: f.sort_key)
