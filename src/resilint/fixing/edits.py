"""Edits: the smallest line-wise changes that turn one text into another, as ``Fix.edits``
reports them (1-based positions, end column exclusive; an insertion has equal start and end)."""

from __future__ import annotations

import difflib
from typing import Dict, List, Optional, Sequence, Tuple

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


def carry_over(original: str, printed: str, fixed: str) -> Optional[str]:
    """``original`` with the changes that turn ``printed`` into ``fixed``, or None when that
    cannot be done exactly.

    ``printed`` is LibCST's code for its parse of ``original``, and ``fixed`` its code for the
    fixed tree. The two texts a parse is printed from are not always byte-identical: LibCST
    drops a form feed before a top-level statement, repeats one that starts an indented line
    on every line of the block, and drops the last line break of a file whose lines end with a
    lone CR. So the fix's changes are applied to the file's own lines: every line they do not
    touch is written back exactly as it was. A changed line that LibCST printed otherwise is
    carried over when the difference is only its leading whitespace or its line break (the
    file's own are kept); any other difference on a changed line returns None."""
    old = python_lines(original, keepends=True)
    shown = python_lines(printed, keepends=True)
    new = python_lines(fixed, keepends=True)
    # For each line of ``printed``, the line of ``original`` it prints, when it prints it
    # exactly or up to its leading whitespace and line break.
    same: Dict[int, int] = {}
    for tag, i1, i2, j1, j2 in line_opcodes(shown, old):
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for offset in range(i2 - i1):
                if tag == "equal" or _code_of(shown[i1 + offset]) == _code_of(old[j1 + offset]):
                    same[i1 + offset] = j1 + offset
    hunks: List[Tuple[int, int, List[str]]] = []  # (first, end) in ``original``, its new lines
    for tag, i1, i2, j1, j2 in line_opcodes(shown, new):
        if tag == "equal":
            continue
        lines = list(new[j1:j2])
        if i1 == i2:  # lines added before printed line i1
            if i1 in same:
                at = same[i1]
            elif i1 - 1 in same:
                at = same[i1 - 1] + 1
            elif i1 == 0:
                at = 0
            else:
                return None
            hunks.append((at, at, lines))
            continue
        if any(index not in same for index in range(i1, i2)):
            return None
        first, last = same[i1], same[i2 - 1]
        if last - first != i2 - i1 - 1:
            return None
        for index in range(i1, i2):  # the file's own indentation instead of LibCST's
            printed_indent, own_indent = _indent(shown[index]), _indent(old[same[index]])
            if printed_indent != own_indent:
                # One line become several (constants above it, a call wrapped): the line that
                # continues it takes its own indentation, form feed and all; the others only
                # the file's spaces and tabs, a form feed being a page break, not indentation.
                mine = _continuing(shown[index], lines) if i2 - i1 == 1 and len(lines) > 1 else None
                lines = [
                    (own_indent if mine is None or at == mine else own_indent.replace("\f", "")) + line[len(printed_indent):]
                    if line.startswith(printed_indent) else line
                    for at, line in enumerate(lines)
                ]
        if lines and not lines[-1].endswith(("\n", "\r")) and old[last].endswith(("\n", "\r")):
            lines[-1] += _line_break(old[last])  # the last line's break, which LibCST dropped
        hunks.append((first, last + 1, lines))
    result = list(old)
    for first, end, lines in sorted(hunks, key=lambda hunk: (hunk[0], hunk[1]), reverse=True):
        result[first:end] = lines
    return "".join(result)


def _continuing(printed: str, lines: Sequence[str]) -> int:
    """Which of ``lines`` continues the one line ``printed`` (what it began with, up to its
    first parenthesis, begins it), else the first."""
    start = _code_of(printed).split("(", 1)[0]
    return next((at for at, line in enumerate(lines) if start and _code_of(line).startswith(start)), 0)


def _code_of(line: str) -> str:
    """A line without its leading whitespace and its line break."""
    return line.lstrip(" \t\f").rstrip("\r\n")


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip(" \t\f"))]


def _line_break(line: str) -> str:
    return line[len(line.rstrip("\r\n")):]
