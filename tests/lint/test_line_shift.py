"""Edits that only move lines: a summary's lines are all found, and findings move with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from resilint.lint.catalog import rule_catalog
from resilint.lint.checker import Checker
from resilint.lint.config import Settings, enabled_codes
from resilint.lint.finding import Finding, Related, Withdrawn
from resilint.lint.line_shift import MovedLines, line_shape, moved_lines, with_moved_lines

PROJECTS = Path(__file__).parents[1] / "rules" / "projects"


def _summary(text: str, path: str = "app/module.py"):
    settings = Settings(root=".")
    summary = Checker(settings, enabled_codes(settings, rule_catalog())).check_file(text.encode(), path).summary
    assert summary is not None
    return summary


def _sources():
    """The fixture projects' modules that make calls: real shapes of every kind the summaries keep."""
    found = sorted(p for p in PROJECTS.rglob("*.py") if p.read_text(encoding="utf-8").count("(") > 20)
    assert len(found) > 40
    return found[::8]


@pytest.mark.parametrize("source", _sources(), ids=lambda p: str(p.relative_to(PROJECTS)))
def test_blank_lines_above_definitions_move_every_line_of_the_summary(source):
    lines = source.read_text(encoding="utf-8").split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith(("def ", "class ", "async def "))]
    assert starts
    at = starts[len(starts) // 2]
    edited = lines[:at] + ["", "# moved"] + lines[at:]
    path = str(source.relative_to(PROJECTS))
    moved = moved_lines(line_shape(_summary("\n".join(lines), path)), line_shape(_summary("\n".join(edited), path)))
    assert moved is not None
    assert moved.lines and all(new == old + (2 if old > at else 0) for old, new in moved.lines.items())


SOURCE = """\
import requests

def fetch(url):
    return requests.get(url, timeout=5)

def post(url):
    return list(map(lambda u: requests.post(u), [url]))
"""


def test_a_change_beyond_lines_is_not_a_move():
    before = line_shape(_summary(SOURCE))
    assert moved_lines(before, line_shape(_summary(SOURCE.replace("return requests.get", "return  requests.get")))) is None
    assert moved_lines(before, line_shape(_summary(SOURCE.replace("timeout=5", "timeout=6")))) is None
    assert moved_lines(before, line_shape(_summary(SOURCE + "\nrequests.get('u')\n"))) is None
    assert moved_lines(before, line_shape(_summary(SOURCE))) == MovedLines({line: line for line in set(before.lines)})


def _finding(line: int, message: str = "m", path: str = "app/module.py", related=()) -> Finding:
    return Finding("RES204", "nested-retry", message, path, line, 5, line, 9, related=tuple(related))


def test_findings_move_with_their_lines_and_with_the_places_their_text_names():
    moved = moved_lines(line_shape(_summary(SOURCE)), line_shape(_summary("\n\n" + SOURCE)))
    assert moved is not None and moved.renamed == {"<lambda at 7:21>"}
    elsewhere = _finding(3, "through `fetch` (app/module.py:4) x 3 (other/app/module.py:4)", "other.py",
                         [Related("app/module.py", 4, 12, "at app/module.py:4")])
    findings, withdrawn = with_moved_lines(
        [_finding(4), elsewhere], [Withdrawn("RES101", "app/module.py", 4, 12, 4, 40)], {"app/module.py": moved},
    )
    assert [(f.path, f.line, f.end_line) for f in findings] == [("app/module.py", 6, 6), ("other.py", 3, 3)]
    assert findings[1].message == "through `fetch` (app/module.py:6) x 3 (other/app/module.py:4)"
    assert findings[1].related == (Related("app/module.py", 6, 12, "at app/module.py:6"),)
    assert withdrawn == [Withdrawn("RES101", "app/module.py", 6, 12, 6, 40)]


def test_a_finding_the_moved_summary_cannot_place_runs_the_pass_again():
    moved = moved_lines(line_shape(_summary(SOURCE)), line_shape(_summary("\n\n" + SOURCE)))
    assert moved is not None
    assert with_moved_lines([_finding(5)], [], {"app/module.py": moved}) is None  # no place on line 5
    assert with_moved_lines([_finding(4, "(app/module.py:5)")], [], {"app/module.py": moved}) is None
    # a lambda is named by its place: a text that names a moved one would go stale
    assert with_moved_lines([_finding(1, "through `<lambda at 7:21>`", "other.py")], [], {"app/module.py": moved}) is None
