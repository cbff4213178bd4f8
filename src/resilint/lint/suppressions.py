"""Inline suppressions: ``# noqa``, ``# noqa: RES101,RES102``, ``# resilint: ignore[RES101]``."""

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
_SPLIT = re.compile(r"[,\s]+")
# The end of a string on several lines whose lines may hold comments (a concatenation's pieces)
UNKNOWN_END = -1


@dataclass
class Suppression:
    line: int
    column: int  # 1-based column of the comment's ``#``
    end_column: int
    codes: Optional[FrozenSet[str]]  # None: every code
    ours: bool  # ``# resilint: ignore`` (blanket ones of ours are checked for use, noqa's are not)
    used: Set[str] = field(default_factory=set)
    written: Tuple[str, ...] = ()  # the codes in the order they are written, to edit the comment

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
        for pattern, ours in ((_NOQA, False), (_RESILINT, True)):
            for match in pattern.finditer(comment):
                raw = match.group("codes")
                written = tuple(c.upper() for c in _SPLIT.split(raw.strip()) if c) if raw else ()
                found.setdefault(number, []).append(
                    Suppression(
                        number, start + match.start() + 1, start + match.end() + 1,
                        frozenset(written) if raw else None, ours, written=written,
                    )
                )
    return found


def suppressing(
    suppressions: Dict[int, List[Suppression]], code: str, first_line: int, last_line: int
) -> Optional[Suppression]:
    """The suppression on any line of the span that covers ``code``, marking it used."""
    for line in range(first_line, last_line + 1):
        for suppression in suppressions.get(line, ()):
            if suppression.covers(code):
                suppression.used.add(code)
                return suppression
    return None


def suppression_comment(codes: Sequence[str], ours: bool = False) -> str:
    """The comment that suppresses ``codes``: ``# noqa: …``, or ``# resilint: ignore[…]``."""
    listed = ", ".join(codes)
    return f"# resilint: ignore[{listed}]" if ours else f"# noqa: {listed}"
