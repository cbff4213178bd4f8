"""Python's lines, not ``str.splitlines()``'s, wherever a line number is given."""

from __future__ import annotations

import pytest

from resilint.lint.source import SourceError, decode, python_lines


def test_python_lines_break_only_at_python_line_endings():
    text = "a\fb\x85c\u2028d\x1ce\nf\r\ng\rh"
    assert python_lines(text) == ["a\fb\x85c\u2028d\x1ce", "f", "g", "h"]
    assert "".join(python_lines(text, keepends=True)) == text
    assert python_lines("x\n\n") == ["x", ""] and python_lines("") == []
    # Without \r the lines are split another way: the same lines.
    assert python_lines("a\fb\x85c\u2028d\x1ce\nf\n") == ["a\fb\x85c\u2028d\x1ce", "f"]
    assert python_lines("x") == ["x"] and python_lines("\n") == [""] and python_lines("x\ny") == ["x", "y"]


@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
def test_decoding_problems_are_located_on_pythons_line(ending):
    lines = [b"x = 1", b"y = 2", b"z = '\xff'"]
    with pytest.raises(SourceError) as invalid:
        decode(ending.join(lines))
    assert invalid.value.line == 3
    with pytest.raises(SourceError) as nul:
        decode(ending.join(lines[:2] + [b"z = 1\0"]))
    assert nul.value.line == 3
