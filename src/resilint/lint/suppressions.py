"""Suppressions: on a line, ``# noqa``, ``# noqa: RES101,RES102``, ``# resilint: ignore[RES101]``;
for the whole file, a comment ``# resilint: noqa`` (every code) or ``# resilint: noqa: RES101``
anywhere in it (as ruff's ``# ruff: noqa``), best at the top.

``parse_suppressions`` gives them by line; the file-level ones under ``FILE_LEVEL`` (their
``line`` is still the comment's own). RES000 is never suppressed: a file that cannot be analysed
is reported before any comment of it is read.
"""

from __future__ import annotations

import re
import tokenize
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple

from resilint.lint.source import character_column, python_lines, python_tokens

_CODE = r"[A-Z]+[0-9]+"
_CODES = rf"{_CODE}(?:\s*[,\s]\s*{_CODE})*"
_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODES}))?", re.IGNORECASE)
_RESILINT = re.compile(rf"#\s*resilint:\s*ignore(?:\[(?P<codes>{_CODES})\])?", re.IGNORECASE)
# The whole comment is the directive; what follows the codes (a reason) must be set apart by
# white space, so that a misspelt code list (``noqa: RES10l``) suppresses nothing at all
# rather than every code of the file.
_FILE = re.compile(rf"#\s*resilint:\s*noqa(?::\s*(?P<codes>{_CODES}))?(?=\s|$)", re.IGNORECASE)
FILE_LEVEL = 0  # the key of the file-level suppressions (lines count from 1)
_SPLIT = re.compile(r"[,\s]+")
# The end of a string on several lines whose lines may hold comments (a concatenation's pieces)
UNKNOWN_END = -1


@dataclass
class Suppression:
    line: int
    column: int  # 1-based column of the comment's ``#``
    end_column: int
    codes: Optional[FrozenSet[str]]  # None: every code
    ours: bool  # ``# resilint: ...`` (blanket ones of ours are checked for use, noqa's are not)
    used: Set[str] = field(default_factory=set)
    written: Tuple[str, ...] = ()  # the codes in the order they are written, to edit the comment
    whole_file: bool = False  # ``# resilint: noqa``: every line of the file

    def covers(self, code: str) -> bool:
        return self.codes is None or code in self.codes


def _comments(text: str, line: int = 1) -> Iterator[Tuple[int, int, str]]:
    """(line, column, text) of every comment: real comments only, never text inside strings.
    ``line``: the number of the first line of ``text``."""
    try:
        for token in python_tokens(text):
            if token.type == tokenize.COMMENT:
                yield token.start[0] + line - 1, token.start[1], token.string
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return  # only reached for files that do not parse, which get no findings to suppress


def _candidate_comments(
    text: str, multiline_strings: Optional[Sequence[Tuple[int, int, int]]], lines: Optional[Sequence[str]]
) -> Iterator[Tuple[int, int, str]]:
    """The comments of the lines that may hold a suppression. Python's tokenizer is slow, so
    when the file's strings that span lines are known (first line, last line, and the UTF-8
    offset where the string ends on its last line; from the syntax tree), each such line is
    tokenized alone, from where no string is open (the whole file is, when a concatenation on
    several lines holds one of them):
    - a line a string opens and continues past, or lies within, has no comment (a ``#``
      before the string would have made the string part of the comment);
    - on a line where strings end, the text after the last of them;
    - any other line, whole."""
    if lines is None:
        lines = python_lines(text)
    wanted = [n for n, line in enumerate(lines, 1) if "noqa" in line.lower() or "resilint:" in line]
    if multiline_strings is None:
        yield from _comments(text)
        return
    within = set()
    ends: Dict[int, int] = {}
    for first, last, end in multiline_strings:
        if end == UNKNOWN_END:
            if any(first <= n <= last for n in wanted):
                yield from _comments(text)
                return
            continue
        within.update(range(first, last))
        ends[last] = max(end, ends.get(last, 0))
    for number in wanted:
        if number in within:
            continue
        line = lines[number - 1]
        if number in ends:
            start = character_column(line, ends[number])
            yield from ((n, column + start, comment) for n, column, comment in _comments(line[start:], number))
        else:
            yield from _comments(line, number)


def parse_suppressions(
    text: str, multiline_strings: Optional[Sequence[Tuple[int, int, int]]] = None,
    lines: Optional[Sequence[str]] = None,
) -> Dict[int, List[Suppression]]:
    """The suppression comments of ``text`` by line; ``lines``: its ``python_lines``, when known."""
    found: Dict[int, List[Suppression]] = {}
    if "noqa" not in text.lower() and "resilint:" not in text:
        return found
    for number, start, comment in _candidate_comments(text, multiline_strings, lines):
        whole = _FILE.match(comment)
        if whole is not None:
            found.setdefault(FILE_LEVEL, []).append(_suppression(whole, number, start, True, whole_file=True))
            continue
        for pattern, ours in ((_NOQA, False), (_RESILINT, True)):
            for match in pattern.finditer(comment):
                found.setdefault(number, []).append(_suppression(match, number, start, ours))
    return found


def _suppression(match: "re.Match[str]", line: int, start: int, ours: bool, whole_file: bool = False) -> Suppression:
    raw = match.group("codes")
    written = tuple(c.upper() for c in _SPLIT.split(raw.strip()) if c) if raw else ()
    return Suppression(
        line, start + match.start() + 1, start + match.end() + 1, frozenset(written) if raw else None, ours,
        written=written, whole_file=whole_file,
    )


def suppressing(
    suppressions: Dict[int, List[Suppression]], code: str, first_line: int, last_line: int
) -> Optional[Suppression]:
    """The suppression of the file, or on any line of the span, that covers ``code``, marking
    it used."""
    for line in (FILE_LEVEL, *range(first_line, last_line + 1)):
        for suppression in suppressions.get(line, ()):
            if suppression.covers(code):
                suppression.used.add(code)
                return suppression
    return None


def suppression_comment(codes: Sequence[str], ours: bool = False, whole_file: bool = False) -> str:
    """The comment that suppresses ``codes``: ``# noqa: …``, ``# resilint: ignore[…]``, or for
    the whole file ``# resilint: noqa: …``."""
    listed = ", ".join(codes)
    if whole_file:
        return f"# resilint: noqa: {listed}"
    return f"# resilint: ignore[{listed}]" if ours else f"# noqa: {listed}"


def by_comment_line(suppressions: Dict[int, List[Suppression]]) -> Dict[int, List[Suppression]]:
    """``suppressions`` with the file-level ones under the line of their comment."""
    placed: Dict[int, List[Suppression]] = {}
    for entries in suppressions.values():
        for entry in entries:
            placed.setdefault(entry.line, []).append(entry)
    for entries in placed.values():
        entries.sort(key=lambda entry: entry.column)
    return placed
