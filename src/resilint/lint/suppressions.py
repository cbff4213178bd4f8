"""Inline suppressions: ``# noqa``, ``# noqa: RES101,RES102``, ``# resilint: ignore[RES101]``."""

from __future__ import annotations

import re
import tokenize
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple

from resilint.lint.source import python_tokens

_CODE = r"[A-Z]+[0-9]+"
_CODES = rf"{_CODE}(?:\s*[,\s]\s*{_CODE})*"
_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODES}))?", re.IGNORECASE)
_RESILINT = re.compile(rf"#\s*resilint:\s*ignore(?:\[(?P<codes>{_CODES})\])?", re.IGNORECASE)
_SPLIT = re.compile(r"[,\s]+")


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


def _comments(text: str) -> Iterator[Tuple[int, int, str]]:
    """(line, column, text) of every comment: real comments only, never text inside strings."""
    try:
        for token in python_tokens(text):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.start[1], token.string
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return  # only reached for files that do not parse, which get no findings to suppress


def parse_suppressions(text: str) -> Dict[int, List[Suppression]]:
    found: Dict[int, List[Suppression]] = {}
    if "noqa" not in text.lower() and "resilint:" not in text:
        return found
    for number, start, comment in _comments(text):
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
