"""``--add-noqa``: make each finding's line carry a comment that suppresses it.

Lines are Python's lines (``source.python_lines``) and a comment is a COMMENT token, never text
inside a string. A code joins the line's existing suppression (``# noqa: E501`` becomes
``# noqa: E501, RES101``), else ``  # noqa: CODE`` is appended to the line. RES000 is never
added: a file that cannot be analysed cannot carry a working comment, so it stays reported.
RES001 is never added either (as ruff never adds RUF100): the code that RES001 reports as
stale is removed from its comment instead, so that a re-check with RES001 is clean.

A file is written only if it still holds the bytes its findings were computed from, if the
edit leaves its syntax tree unchanged and every comment suppresses what it should, and
through ``files.replace_file`` (symlinks, hard links, read-only files, owners).
"""

from __future__ import annotations

import ast
import re
import sys
import tokenize
import warnings
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence, Set

from resilint.lint.files import ChangedOnDisk, NotWritten, replace_file
from resilint.lint.finding import ANALYSIS_ERROR, UNUSED_SUPPRESSION, Finding
from resilint.lint.source import SourceError, content_digest, decode, python_lines, python_tokens, read_bytes
from resilint.lint.suppressions import Suppression, by_comment_line, parse_suppressions, suppression_comment

_BOM = b"\xef\xbb\xbf"
_SPACE = " \t\f"  # Python's own whitespace; str.strip() would also eat U+2028 and friends
_LINE_OPEN = (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT)
_WHOLE = "*"  # in a line's stale codes: the whole suppression comment goes


@dataclass
class NoqaOutcome:
    added: int = 0  # lines given a code
    removed: int = 0  # stale codes removed for RES001
    files: int = 0
    skipped: List[str] = field(default_factory=list)  # "path: reason" or "path:line: reason"
    remaining: List[Finding] = field(default_factory=list)  # still reported: not suppressed


@dataclass
class _LineEdit:
    add: Set[str] = field(default_factory=set)
    drop: Dict[int, Set[str]] = field(default_factory=lambda: defaultdict(set))  # by column
    findings: List[Finding] = field(default_factory=list)


def add_noqa(findings: Sequence[Finding], digests: Mapping[str, str]) -> NoqaOutcome:
    """Suppress ``findings`` in their files; ``digests`` are those of the bytes they were
    computed from (``RunResult.digests``): a file that differs now is left alone."""
    outcome = NoqaOutcome()
    by_file: Dict[str, List[Finding]] = defaultdict(list)
    for finding in findings:
        if finding.code == ANALYSIS_ERROR:
            outcome.remaining.append(finding)
        else:
            by_file[finding.path].append(finding)
    for path, found in sorted(by_file.items()):
        try:
            done = _add_to_file(path, found, digests.get(path))
        except NotWritten as exc:
            outcome.skipped.append(f"{path}: {exc.reason}")
            outcome.remaining.extend(found)
            continue
        outcome.added += done.added
        outcome.removed += done.removed
        outcome.files += bool(done.added or done.removed)
        outcome.skipped.extend(done.skipped)
        outcome.remaining.extend(done.remaining)
    outcome.remaining.sort(key=lambda f: f.sort_key)
    return outcome


def _add_to_file(path: str, findings: List[Finding], digest: Optional[str]) -> NoqaOutcome:
    """What was done to one file; ``NotWritten`` when it was left as it was."""
    try:
        original = read_bytes(path)
        source = decode(original)
    except SourceError as exc:
        raise NotWritten(exc.reason) from None
    if digest != content_digest(original):
        raise ChangedOnDisk()
    text = source.text
    done = NoqaOutcome()
    updated_text = _with_comments(path, text, findings, done)
    if updated_text is None:
        return done
    data = updated_text.encode(source.encoding)
    if original.startswith(_BOM) and not data.startswith(_BOM):
        data = _BOM + data
    replace_file(path, original, data)
    return done


def suppressed_text(text: str, findings: Sequence[Finding]) -> Optional[str]:
    """``text`` (one file's) with the comments that suppress ``findings``, as ``--add-noqa``
    writes them (the language server's "suppress on this line"); None when it would not
    change, or when no comment can go on a finding's line."""
    done = NoqaOutcome()
    try:
        updated = _with_comments("", text, [f for f in findings if f.code != ANALYSIS_ERROR], done)
    except NotWritten:
        return None
    return None if done.skipped or done.remaining else updated


def _with_comments(path: str, text: str, findings: List[Finding], done: NoqaOutcome) -> Optional[str]:
    """``text`` with the comments added (``done`` counts them, and says what was skipped),
    verified; None when nothing changes. ``NotWritten`` when it cannot be verified."""
    suppressions = by_comment_line(parse_suppressions(text))
    lines = python_lines(text, keepends=True)
    open_ends = _open_line_ends(text)
    applied: Dict[int, _LineEdit] = {}
    for number, edit in sorted(_plan(findings, suppressions, done).items()):
        if edit.add and number not in open_ends:
            # The line ends inside a multi-line string or continues with a backslash: the
            # comment would become part of the string or break the code. Say so, do the rest.
            done.skipped.append(
                f"{path}:{number}: the line ends inside a string or continues with a backslash; "
                "add the comment by hand"
            )
            done.remaining.extend(edit.findings)
            continue
        body = lines[number - 1].rstrip("\r\n")
        updated = _rewrite(body, suppressions.get(number, []), edit)
        lines[number - 1] = updated + lines[number - 1][len(body):]
        applied[number] = edit
        if edit.add and updated != body:
            done.added += 1
        done.removed += sum(len(codes) for codes in edit.drop.values())
    if not done.added and not done.removed:
        return None
    updated_text = "".join(lines)
    _verify(text, updated_text, applied)
    return updated_text


def _plan(
    findings: List[Finding], suppressions: Dict[int, List[Suppression]], done: NoqaOutcome
) -> Dict[int, _LineEdit]:
    """What to do on each line: codes to add, and the stale codes RES001 reported, to remove."""
    edits: Dict[int, _LineEdit] = defaultdict(_LineEdit)
    for finding in findings:
        if finding.code != UNUSED_SUPPRESSION:
            edits[finding.line].add.add(finding.code)
            edits[finding.line].findings.append(finding)
            continue
        reported = next((s for s in suppressions.get(finding.line, ()) if s.column == finding.column), None)
        if reported is None:
            done.remaining.append(finding)
            continue
        if reported.written:  # RES001 names the stale code in its message
            stale = {c for c in reported.written if re.search(rf"\b{c}\b", finding.message)}
        else:
            stale = {_WHOLE}  # a bare `# resilint: ignore` that suppresses nothing
        if not stale:
            done.remaining.append(finding)
            continue
        edits[finding.line].drop[reported.column].update(stale)
        edits[finding.line].findings.append(finding)
    return edits


def _rewrite(body: str, suppressions: List[Suppression], edit: _LineEdit) -> Optional[str]:
    """``body`` (a line without its ending) with ``edit`` applied to its suppression comments."""
    if any(s.codes is None and not s.whole_file and s.column not in edit.drop for s in suppressions):
        missing: Set[str] = set()  # a blanket suppression already covers every code
    else:
        missing = set(edit.add)
    target = next((s for s in suppressions if s.codes is not None and not s.whole_file), None)
    for suppression in sorted(suppressions, key=lambda s: s.column, reverse=True):
        stale = edit.drop.get(suppression.column, set())
        kept = [c for c in suppression.written if c not in stale]
        if suppression is target and missing:
            kept += sorted(missing - set(kept))
            missing = set()
        elif not stale:
            continue
        start, end = suppression.column - 1, suppression.end_column - 1
        if kept and _WHOLE not in stale:
            body = body[:start] + suppression_comment(kept, suppression.ours, suppression.whole_file) + body[end:]
        else:
            body = _without(body, start, end)
    if missing:
        return f"{body.rstrip(_SPACE)}  {suppression_comment(sorted(missing))}"
    return body


def _without(body: str, start: int, end: int) -> str:
    """``body`` without the comment text between ``start`` and ``end``, and the space it leaves."""
    before, after = body[:start].rstrip(_SPACE), body[end:].lstrip(_SPACE)
    if not after:
        return before
    if not before:
        return body[:start] + after  # keeps the indentation of a comment on its own line
    return f"{before}  {after}"


def _open_line_ends(text: str) -> Set[int]:
    """The lines that end outside any string and without a backslash: a comment may go there."""
    try:
        return {token.start[0] for token in python_tokens(text) if token.type in _LINE_OPEN}
    except (tokenize.TokenError, IndentationError, SyntaxError) as exc:
        raise NotWritten(f"cannot be tokenized: {exc}") from None


def _verify(before: str, after: str, edits: Dict[int, _LineEdit]) -> None:
    """Refuse any edit that changes the code, or whose comments would not do their job."""
    if _syntax_tree(before) != _syntax_tree(after):
        raise NotWritten("the edit would change the code, not only comments (a bug in resilint)")
    landed = by_comment_line(parse_suppressions(after))
    for number, edit in edits.items():
        here = landed.get(number, [])
        if not all(any(s.covers(code) for s in here) for code in edit.add):
            raise NotWritten(f"line {number}: the comment would not suppress the finding (a bug in resilint)")


def _syntax_tree(text: str) -> str:
    version = ".".join(map(str, sys.version_info[:2]))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the file's own SyntaxWarnings are not ours to print
            return ast.dump(ast.parse(text))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise NotWritten(
            f"Python {version} cannot parse it, so the edit cannot be verified; add the comments by hand"
        ) from None
