"""What ``resilint fix`` and ``resilint codemod`` print: the unified diff of a change and the
one-line summary of a run."""

from __future__ import annotations

import difflib

from resilint.lint.fixer import FixOutcome
from resilint.lint.source import SourceError, decode, python_lines


def unified_diff(path: str, before: bytes, after: bytes) -> str:
    """The change to ``path`` as ``diff -u`` prints it (``a/``, ``b/`` prefixes, as git does);
    lines keep their own endings, so a CRLF file shows CRLF lines."""
    try:
        old, new = decode(before).text, decode(after).text
    except SourceError:  # pragma: no cover - both were checked to parse
        old, new = before.decode("utf-8", "replace"), after.decode("utf-8", "replace")
    old_lines, new_lines = python_lines(old, keepends=True), python_lines(new, keepends=True)
    for lines in (old_lines, new_lines):
        if lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += "\n\\ No newline at end of file\n"
    name = path.replace("\\", "/")
    return "".join(difflib.unified_diff(old_lines, new_lines, f"a/{name}", f"b/{name}"))


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
