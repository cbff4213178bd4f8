"""Edits that only move lines: the project pass's last findings, moved with them.

A blank line, a comment or a docstring line added above some code leaves what the module's
summary says as it was, only at other lines. The project pass reads nothing else of a module
(but its lines' text, read again), and its rules compare positions only by order, so its
findings are then those of its last run, each line of the edited files moved as its place
moved: no pass over every module is needed. Anything else (a call added, a column moved, a line
a finding names that no place of the summary has) is an ordinary change, and the pass runs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple

from resilint.lint.finding import Finding, Related, Withdrawn
from resilint.lint.summary import ModuleSummary

# "line:column" as the summaries name a place in strings: keys of the objects a module makes,
# the receiver a call is sent to, the queries of a transaction, ``<lambda at 12:4>``.
_PLACE_IN_TEXT = re.compile(r"(\d+):(\d+)")
# A lambda is named by its place (``pkg.f.<lambda at 12:4>``), and a finding's text may name it.
_LAMBDA = re.compile(r"<lambda at \d+:\d+>")


@dataclass(frozen=True)
class LineShape:
    """A summary with its line numbers left out (``shape``), and those numbers in the order the
    summary has them (``lines``): two summaries of one shape differ only in lines."""

    shape: str
    lines: Tuple[int, ...]
    lambdas: FrozenSet[str]  # the names of its lambdas, ``<lambda at 12:4>``


def line_shape(summary: ModuleSummary) -> LineShape:
    lines: List[int] = []
    data = summary.to_json(lines)

    def without_lines(text: str) -> str:
        def left_out(match: "re.Match[str]") -> str:
            lines.append(int(match.group(1)))
            return f"#:{match.group(2)}"

        return _PLACE_IN_TEXT.sub(left_out, text) if ":" in text else text

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return without_lines(value)
        if isinstance(value, (list, tuple)):
            return [walk(item) for item in value]
        if isinstance(value, dict):
            return {without_lines(str(key)): walk(item) for key, item in value.items()}
        return value

    # The places are numbered first (``to_json``), the strings as the walk meets them: the same
    # order for every summary of one shape.
    shape = json.dumps(walk(data), separators=(",", ":"), sort_keys=False)
    lambdas = frozenset(match.group(0) for name in summary.functions for match in _LAMBDA.finditer(name))
    return LineShape(shape, tuple(lines), lambdas)


@dataclass(frozen=True)
class MovedLines:
    """How the lines of one module moved: old line → new line, for every line its summary
    places; and the names of its lambdas that moved with them (the old names)."""

    lines: Mapping[int, int]
    renamed: FrozenSet[str] = frozenset()


def moved_lines(before: LineShape, after: LineShape) -> Optional[MovedLines]:
    """Where each line of ``before`` went in ``after``, when the two differ only so: the same
    shape, each old line moved to one new line, in the same order (None otherwise)."""
    if before.shape != after.shape or len(before.lines) != len(after.lines):
        return None
    moves: Dict[int, int] = {}
    for old, new in zip(before.lines, after.lines):
        if moves.setdefault(old, new) != new:
            return None
    ordered = [moves[old] for old in sorted(moves)]
    if any(earlier >= later for earlier, later in zip(ordered, ordered[1:])):
        return None
    renamed = frozenset(name for name in before.lambdas if name not in after.lambdas)
    return MovedLines(moves, renamed)


def summary_moves(before: Optional[ModuleSummary], after: Optional[ModuleSummary]) -> Optional[MovedLines]:
    """How the lines of ``before`` moved in ``after``, when the two summaries differ only so."""
    if before is None or after is None:
        return None
    return moved_lines(line_shape(before), line_shape(after))


def with_moved_lines(
    findings: Sequence[Finding], withdrawn: Sequence[Withdrawn], moves: Mapping[str, MovedLines],
) -> Optional[Tuple[List[Finding], List[Withdrawn]]]:
    """The project pass's ``findings`` and ``withdrawn`` file findings with the lines of the
    files in ``moves`` moved; None when one of them is at a line the summary does not place,
    or its text names a lambda that moved (then the pass must run). The text of a moved
    finding's line is read again by the caller."""
    if not any(old != new for moved in moves.values() for old, new in moved.lines.items()):
        return list(findings), list(withdrawn)
    renamed = {name for moved in moves.values() for name in moved.renamed}
    if renamed and any(
        name in text for f in findings for text in (f.message, *(r.message for r in f.related)) for name in renamed
    ):
        return None
    lines = {path: moved.lines for path, moved in moves.items()}
    mentions = [(re.compile(rf"(?<![\w/.\\]){re.escape(path)}:(\d+)(?![\d:])"), path) for path in lines]
    try:
        moved = [_moved_finding(finding, lines, mentions) for finding in findings]
        taken_back = [
            replace(item, line=_line(lines[item.path], item.line), end_line=_line(lines[item.path], item.end_line))
            if item.path in lines else item
            for item in withdrawn
        ]
    except KeyError:
        return None
    return moved, taken_back


def _moved_finding(
    finding: Finding, moves: Mapping[str, Mapping[int, int]], mentions: Sequence[Tuple["re.Pattern[str]", str]],
) -> Finding:
    def text(message: str) -> str:
        # a message names the other places it speaks of as ``path:line`` (``Place.short``)
        for mention, path in mentions:
            if path in message:
                message = mention.sub(lambda match: f"{path}:{_line(moves[path], int(match.group(1)))}", message)
        return message

    related = tuple(
        Related(r.path, _line(moves[r.path], r.line) if r.path in moves else r.line, r.column, text(r.message))
        for r in finding.related
    )
    lines = moves.get(finding.path)
    moved = replace(finding, message=text(finding.message), related=related)
    if lines is None:
        return moved if moved != finding else finding
    return replace(moved, line=_line(lines, finding.line), end_line=_line(lines, finding.end_line))


def _line(moves: Mapping[int, int], line: int) -> int:
    return moves[line]  # KeyError: a line no place of the summary has
