"""What ``resilint fix``, ``resilint check --fix`` and ``resilint codemod`` print: the unified
diff of a change (each hunk naming the rules whose fixes it holds), the list of the fixes
applied (``--show-fixes``) and the one-line summary of a run."""

from __future__ import annotations

import difflib
import re
from typing import List, Sequence, Tuple

from resilint.lint.finding import Edit
from resilint.fixing.edits import last_line_of
from resilint.fixing.fixer import AppliedFix, FixOutcome
from resilint.lint.source import SourceError, decode, python_lines

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


def unified_diff(path: str, before: bytes, after: bytes, applied: Sequence[AppliedFix] = ()) -> str:
    """The change to ``path`` as ``diff -u`` prints it (``a/``, ``b/`` prefixes, as git does);
    lines keep their own endings, so a CRLF file shows CRLF lines. Each hunk header names the
    rules of the ``applied`` fixes whose edits it holds, where git writes a function's name
    (``@@ -1,5 +1,6 @@ RES101 (missing-timeout)``), which ``patch`` and ``git apply`` ignore."""
    try:
        old, new = decode(before).text, decode(after).text
    except SourceError:  # pragma: no cover - both were checked to parse
        old, new = before.decode("utf-8", "replace"), after.decode("utf-8", "replace")
    old_lines, new_lines = python_lines(old, keepends=True), python_lines(new, keepends=True)
    for lines in (old_lines, new_lines):
        if lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += "\n\\ No newline at end of file\n"
    name = path.replace("\\", "/")
    diff = list(difflib.unified_diff(old_lines, new_lines, f"a/{name}", f"b/{name}"))
    mine = [fix for fix in applied if fix.path == path]
    for index, line in enumerate(diff):
        match = _HUNK.match(line)
        if match is None or not mine:
            continue
        first = int(match.group(1))
        count = int(match.group(2)) if match.group(2) is not None else 1
        rules = _rules_in(mine, first, first + max(count, 1) - 1) or _rules_in(mine, 1, len(old_lines) + 1)
        diff[index] = f"{line.rstrip(chr(10))} {', '.join(rules)}\n"
    return "".join(diff)


def _rules_in(applied: Sequence[AppliedFix], first: int, last: int) -> List[str]:
    """``CODE (name)`` of the fixes with an edit on lines ``first`` to ``last`` (of the file as
    checked, which the diff's ``-`` side shows)."""
    found = []
    for fix in applied:
        if any(start <= last and first <= end for start, end in fix.original_lines):
            label = f"{fix.code} ({fix.name})"
            if label not in found:
                found.append(label)
    return sorted(found)


def applied_fixes(applied: Sequence[AppliedFix], diff: bool) -> str:
    """``--show-fixes``: every fix applied, with its file, line, rule, and what it changed."""
    if not applied:
        return ""
    lines = [f"{'Would fix' if diff else 'Fixed'} {_count(len(applied), 'finding')}:"]
    for fix in applied:
        lines.append(
            f"  {fix.path}:{fix.line}:{fix.column}: {fix.code} ({fix.name}), {fix.applicability} fix: "
            f"{fix.description.rstrip('.')}"
        )
        lines.extend(f"      {change}" for change in describe_edits(fix.before, fix.edits, fix.original_lines))
    return "\n".join(lines) + "\n"


def describe_edits(before: str, edits: Sequence[Edit], shown_lines: Sequence[Tuple[int, int]] = ()) -> List[str]:
    """Each edit as a line: ``line 12: `old` -> `new``` (the whole lines it touches), or a line
    added or removed. ``shown_lines``: the line numbers to show for each edit (those of the file
    as checked), else the edits' own."""
    old_lines = python_lines(before, keepends=True)
    described = []
    for index, edit in enumerate(edits):
        first, last = edit.line, max(last_line_of(edit), edit.line)
        shown = shown_lines[index][0] if index < len(shown_lines) else first
        region = "".join(old_lines[first - 1:last])
        start = edit.column - 1
        end = len("".join(old_lines[first - 1:edit.end_line - 1])) + edit.end_column - 1
        replaced = region[:start] + edit.content + region[end:] if region or edit.content else ""
        if not region.strip() or (edit.column == 1 and edit.end_column == 1 and edit.end_line == edit.line):
            added = edit.content.strip()
            described.append(f"line {shown}: added `{_one_line(added)}`")
        elif not replaced.strip():
            described.append(f"line {shown}: removed `{_one_line(region.strip())}`")
        else:
            described.append(f"line {shown}: `{_one_line(region.strip())}` -> `{_one_line(replaced.strip())}`")
    return described


def _one_line(text: str) -> str:
    return " ".join(text.split())


def fix_summary(outcome: FixOutcome, diff: bool, report_remaining: bool) -> str:
    fixed = sum(outcome.fixed.values())
    files = len(outcome.changes)
    verb = "Would fix" if diff else "Fixed"
    if report_remaining:
        per_code = ", ".join(f"{code}: {count}" for code, count in sorted(outcome.fixed.items()))
        text = f"{verb} {_count(fixed, 'finding')} in {_count(files, 'file')}" + (f" ({per_code})" if per_code else "")
        text += f"; {_count(len(outcome.remaining), 'finding')} remaining"
        unsafe = sum(1 for f in outcome.remaining if f.fix is not None and f.fix.applicability == "unsafe")
        if unsafe:
            text += f" ({unsafe} fixable with --unsafe-fixes)"
    else:
        text = f"{'Would change' if diff else 'Changed'} {_count(files, 'file')}"
    if outcome.dropped:
        text += f"; {_count(len(outcome.dropped), 'fix')} dropped"
    if outcome.left_alone:
        text += f"; {_count(len(outcome.left_alone), 'case')} left alone"
    return text + "."


def _count(number: int, noun: str) -> str:
    plural = "es" if noun.endswith("x") else "s"
    return f"{number} {noun}{'' if number == 1 else plural}"
