"""Whether an edit of a file's text lies inside one comment: the code, so its syntax tree and
every finding and summary fact drawn from it, is as it was; only the comment's own line (its
text in a finding's code frame) and the suppression comments can differ.

An editor sends a file's whole text on each keystroke; typing in a comment (a ``# noqa``
included) is then answered without analysing the file again (``Checker.recheck``).
"""

from __future__ import annotations

import io
import tokenize
from typing import Optional, Sequence, Tuple

_LINE_BREAKS = ("\n", "\r", "\x0c", "\x00")
# An encoding declaration may sit on the first two lines: a comment there can change how the
# file's bytes read.
_CODING_LINES = 2


def comment_edit_line(before: str, after: str, multiline_strings: Optional[Sequence[Tuple[int, int, int]]]) -> Optional[int]:
    """The 1-based line whose comment is all that differs between ``before`` and ``after``, or
    None when anything else may differ (code, a string, a line break, a comment that begins or
    ends with the edit, an edit on a line where a string spanning lines opens, continues or
    ends). ``multiline_strings``: ``before``'s strings that span lines (first line, last line,
    …), as the checker found them; None when they are not known."""
    if before == after or multiline_strings is None:
        return None
    start = _common_prefix(before, after)
    shared_end = min(len(before), len(after)) - start
    end = _common_suffix(before, after, shared_end)
    removed, added = before[start:len(before) - end], after[start:len(after) - end]
    if any(mark in removed or mark in added for mark in _LINE_BREAKS):
        return None
    line_start = max(before.rfind("\n", 0, start), before.rfind("\r", 0, start)) + 1
    number = before.count("\n", 0, line_start) + before.count("\r", 0, line_start) - before.count("\r\n", 0, line_start)
    number += 1
    if number <= _CODING_LINES:
        return None
    if any(first <= number <= last for first, last, _ in multiline_strings):
        return None
    before_comment = _comment_start(_line_at(before, line_start))
    after_comment = _comment_start(_line_at(after, line_start))
    # The edit begins after the ``#`` in both texts, so the same ``#`` opens the same comment.
    if before_comment is None or after_comment != before_comment or start - line_start <= before_comment:
        return None
    return number


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix, by halving (string comparison runs in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    """The length of the longest common suffix, at most ``limit``."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle:len(a) - low] == b[len(b) - middle:len(b) - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _line_at(text: str, start: int) -> str:
    ends = [i for i in (text.find("\n", start), text.find("\r", start)) if i != -1]
    return text[start:min(ends)] if ends else text[start:]


def _comment_start(line: str) -> Optional[int]:
    """The column of the line's comment, read by Python's tokenizer from the start of the line
    (no string spanning lines is open there: the caller made sure); None without one."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(line).readline):
            if token.type == tokenize.COMMENT:
                return token.start[1]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None  # an open bracket at the end of the line: its comment was already seen
    return None
