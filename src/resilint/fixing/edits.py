"""Edits: the smallest line-wise changes that turn one text into another, as ``Fix.edits``
reports them (1-based positions, end column exclusive; an insertion has equal start and end)."""

from __future__ import annotations

import difflib
from typing import List, Sequence, Tuple

from resilint.lint.finding import Edit
from resilint.lint.source import LINE_BREAK, python_lines

# Above this many lines, the lines both texts begin and end with are set aside before the
# matcher runs: its search for the longest match costs the product of the two sides where
# lines repeat (a generated module of 4,000 alike calls), and a fix changes a few lines.
_WHOLE_MATCH_LINES = 2_000


def edits_between(before: str, after: str) -> Tuple[Edit, ...]:
    """The smallest line-wise edits that turn ``before`` into ``after``."""
    return line_edits(python_lines(before, keepends=True), python_lines(after, keepends=True))


def line_edits(old: Sequence[str], new: Sequence[str], first_line: int = 1) -> Tuple[Edit, ...]:
    """``edits_between`` of two lists of lines (line breaks kept), ``old`` starting at line
    ``first_line`` of its file."""
    edits: List[Edit] = []
    for tag, i1, i2, j1, j2 in line_opcodes(old, new):
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            # Line for line, so that fixes on consecutive lines stay separate edits.
            edits.extend(
                _trimmed(first_line + i1 + offset, old[i1 + offset], new[j1 + offset]) for offset in range(i2 - i1)
            )
        else:
            edits.append(_trimmed(first_line + i1, "".join(old[i1:i2]), "".join(new[j1:j2])))
    return tuple(edits)


def line_opcodes(old: Sequence[str], new: Sequence[str]) -> List[Tuple[str, int, int, int, int]]:
    """``difflib``'s opcodes of two lists of lines; on long texts, of what lies between the
    lines both begin and end with (then the same for every change a fix makes)."""
    if len(old) + len(new) <= _WHOLE_MATCH_LINES:
        return difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    limit = min(len(old), len(new))
    head = 0
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    middle = difflib.SequenceMatcher(None, old[head:len(old) - tail], new[head:len(new) - tail], autojunk=False)
    codes = [("equal", 0, head, 0, head)] if head else []
    codes.extend((tag, i1 + head, i2 + head, j1 + head, j2 + head) for tag, i1, i2, j1, j2 in middle.get_opcodes())
    if tail:
        codes.append(("equal", len(old) - tail, len(old), len(new) - tail, len(new)))
    return codes


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


def last_line_of(edit: Edit) -> int:
    """The last line an edit replaces text on (an edit ending at column 1 ends on the line before)."""
    return edit.end_line - 1 if edit.end_column == 1 and edit.end_line > edit.line else edit.end_line


def lines_back(before: str, after: str) -> List[int]:
    """For each line of ``after`` (index = line number; index 0 unused), the line of ``before``
    it comes from, or, for a line a change added or rewrote, the first line that change
    replaced (or the line it was added before)."""
    old, new = python_lines(before, keepends=True), python_lines(after, keepends=True)
    mapping = [0] * (len(new) + 2)
    for tag, i1, i2, j1, j2 in line_opcodes(old, new):
        for offset, line in enumerate(range(j1, j2)):
            mapping[line + 1] = i1 + (offset if tag == "equal" else 0) + 1
    mapping[len(new) + 1] = len(old) + 1  # after the last line
    return mapping
