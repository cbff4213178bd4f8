"""Checking one file: bytes → prefilter → parse → semantic model → rules → suppressions."""

from __future__ import annotations

import ast
import fnmatch
import os
import sys
import warnings
from contextlib import contextmanager
from typing import Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Type

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from resilint.lint.config import Settings
from resilint.lint.finding import Finding
from resilint.lint.nesting import check_tokens, check_tree
from resilint.lint.registry import all_rules
from resilint.lint.rule import Report, Rule, RuleContext
from resilint.lint.semantic import SemanticModel
from resilint.lint.source import LINE_BREAK, SourceError, decode, python_lines, read_bytes, too_large
from resilint.lint.suppressions import Suppression, parse_suppressions, suppressing

ANALYSIS_ERROR = "RES000"
UNUSED_SUPPRESSION = "RES001"
_NESTING_MESSAGES = ("too many nested parentheses", "too complex", "too many levels of indentation")
_PYTHON = f"Python {sys.version_info[0]}.{sys.version_info[1]}"


class Checker:
    """The enabled rules and settings, applied file by file (one per worker process)."""

    def __init__(self, settings: Settings, codes: Sequence[str]) -> None:
        self.settings = settings
        self.registry: Mapping[str, Type[Rule]] = all_rules()
        self.codes = [c for c in codes if c in self.registry]
        self.rules = [self.registry[c]() for c in self.codes if not self.registry[c].engine]
        self.triggers = _triggers(self.rules, settings)

    # --- entry points --------------------------------------------------------------------

    def check_path(self, path: str) -> List[Finding]:
        try:
            data = read_bytes(path, self.settings.max_file_size)
        except SourceError as exc:
            return [self._analysis_error(path, exc)]
        return self.check_bytes(data, path)

    def check_bytes(self, data: bytes, path: str) -> List[Finding]:
        try:
            if len(data) > self.settings.max_file_size:
                raise too_large(len(data), self.settings.max_file_size)
            source = decode(data)
        except SourceError as exc:
            return [self._analysis_error(path, exc)]
        codes = self._codes_for(path)
        text = source.text
        lines = python_lines(text)
        try:
            with _quiet():
                reports, module = self._run_rules(text, data, path, codes)
                located = self._locate(reports, module, path, lines)
        except SourceError as exc:
            return [self._analysis_error(path, exc, lines)]
        except MemoryError:
            return [self._analysis_error(path, SourceError("ran out of memory while analysing this file"), lines)]
        return self._apply_suppressions(located, text, path, lines, codes)

    # --- steps ---------------------------------------------------------------------------

    def _codes_for(self, path: str) -> List[str]:
        ignored = set()
        relative = os.path.relpath(os.path.abspath(path), self.settings.root).replace(os.sep, "/")
        for pattern, codes in self.settings.per_file_ignores:
            if fnmatch.fnmatchcase(relative, pattern) or fnmatch.fnmatchcase(os.path.basename(path), pattern):
                ignored.update(codes)
        return [c for c in self.codes if not any(c.startswith(i) for i in ignored)]

    def _run_rules(
        self, text: str, data: bytes, path: str, codes: Sequence[str]
    ) -> Tuple[List[Report], Optional[cst.Module]]:
        rules = [r for r in self.rules if r.code in codes]
        wanted = bool(rules) and (self.triggers is None or any(t in data for t in self.triggers))
        # CPython's parser runs on every file, trigger or not, so that every syntax error is a
        # RES000; it is fast, and max-file-size bounds what it can cost.
        tree, deferred = _check_syntax(text, path)
        if not wanted and deferred is None:
            return [], None
        if tree is not None:
            check_tree(tree)
        else:
            check_tokens(text)
        module = _parse(text, tree, deferred)
        if not wanted:
            return [], None
        try:
            model = SemanticModel(module, module_name=module_name(path), path=path)
            ctx = RuleContext(model, self.settings)
            for rule in rules:
                ctx.run(rule)
        except RecursionError:
            raise SourceError("too deeply nested to analyse (recursion limit)") from None
        return ctx.reports, module

    def _locate(
        self, reports: List[Report], module: Optional[cst.Module], path: str, lines: List[str]
    ) -> List["_WithAnchor"]:
        if not reports or module is None:
            return []
        try:
            positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        except RecursionError:
            raise SourceError("too deeply nested to analyse (recursion limit)") from None
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
                        severity=rule.severity, fix=report.fix, related=report.related,
                        line_text=_line(lines, where.start.line),
                    ),
                    min(anchor.start.line, where.start.line),
                    max(anchor.end.line, where.end.line),
                )
            )
        return findings

    def _apply_suppressions(
        self, located: List["_WithAnchor"], text: str, path: str, lines: List[str], codes: Sequence[str]
    ) -> List[Finding]:
        suppressions = parse_suppressions(text)
        kept = [
            item.finding
            for item in located
            if suppressing(suppressions, item.finding.code, item.first_line, item.last_line) is None
        ]
        if UNUSED_SUPPRESSION in codes and suppressions:
            kept.extend(self._unused(suppressions, path, lines))
        return sorted(kept, key=lambda f: f.sort_key)

    def _unused(self, suppressions: Dict[int, List[Suppression]], path: str, lines: List[str]) -> List[Finding]:
        rule = self.registry[UNUSED_SUPPRESSION]
        findings = []
        for entries in suppressions.values():
            for entry in entries:
                for message in rule.problems(entry, self.registry, self.codes):  # type: ignore[attr-defined]
                    findings.append(
                        Finding(
                            UNUSED_SUPPRESSION, rule.name, message, path, entry.line, entry.column,
                            entry.line, entry.end_column, rule.severity, line_text=_line(lines, entry.line),
                        )
                    )
        return findings

    def _analysis_error(self, path: str, exc: SourceError, lines: Sequence[str] = ()) -> Finding:
        return analysis_error(path, exc, lines)


def analysis_error(path: str, exc: SourceError, lines: Sequence[str] = ()) -> Finding:
    """The one RES000 finding of a file that could not be analysed."""
    line = exc.line or 1
    column = exc.column or 1
    return Finding(
        ANALYSIS_ERROR, all_rules()[ANALYSIS_ERROR].name, exc.reason, path, line, column,
        line, column + 1, "error", line_text=_line(lines, line),
    )


@contextmanager
def _quiet() -> Iterator[None]:
    """The checked code's own warnings (an invalid escape sequence, `1if x else y`) are not
    resilint's to print: CPython's parser and ``literal_eval`` emit them while reading it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


class _WithAnchor:
    __slots__ = ("finding", "first_line", "last_line")

    def __init__(self, finding: Finding, first_line: int, last_line: int) -> None:
        self.finding = finding
        self.first_line = first_line
        self.last_line = last_line


def _line(lines: Sequence[str], number: int) -> str:
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


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
    except (RecursionError, MemoryError):
        raise SourceError("too deeply nested to parse") from None


def _parse(text: str, tree: Optional[ast.Module], deferred: Optional[SourceError]) -> cst.Module:
    try:
        return cst.parse_module(text)
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
            return cst.parse_module(rewritten)
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


def module_name(path: str) -> str:
    """The dotted module name of a file, from the packages (``__init__.py``) around it."""
    absolute = os.path.abspath(path)
    directory, filename = os.path.split(absolute)
    stem = filename.rsplit(".", 1)[0]
    parts = [] if stem == "__init__" else [stem]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        parts.append(package)
        if not package:
            break
    return ".".join(reversed(parts))


def check_source(
    code: str, codes: Sequence[str], settings: Optional[Settings] = None, path: str = "example.py"
) -> List[Finding]:
    """Check a piece of source text as if it were the file ``path`` (rule examples, tests)."""
    return Checker(settings or Settings(), codes).check_bytes(code.encode("utf-8"), path)
