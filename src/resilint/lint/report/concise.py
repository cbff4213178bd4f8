"""One line per finding, for editors, grep and scripts.

::

    app/client.py:12:5: RES101 `requests.get` called without a timeout
    missing.py: error: No such file or directory
    Found 1 finding and 1 error.
"""

from __future__ import annotations

from typing import Mapping, TextIO, Type

from resilint.lint.finding import RunResult
from resilint.lint.report import ReportOptions, printable
from resilint.lint.rule import Rule

FORMAT = "concise"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _one_line(text: str) -> str:
    """Keep the one-line-per-finding promise even for a message with a newline in it."""
    return printable(" ".join(text.splitlines()))


def render(
    result: RunResult, rules: Mapping[str, Type[Rule]], out: TextIO, options: ReportOptions
) -> None:
    findings = sorted(result.findings, key=lambda f: f.sort_key)
    for f in findings:
        out.write(f"{printable(f.path)}:{f.line}:{f.column}: {f.code} {_one_line(f.message)}\n")
    for error in result.errors:
        out.write(f"{printable(error.path)}: error: {_one_line(error.message)}\n")
    if not findings and not result.errors:
        out.write("All checks passed!\n")
        return
    summary = f"Found {_plural(len(findings), 'finding')}"
    if result.errors:
        summary += f" and {_plural(len(result.errors), 'error')}"
    out.write(summary + ".\n")
