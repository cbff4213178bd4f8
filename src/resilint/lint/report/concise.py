"""One line per finding, for editors, grep and scripts.

::

    app/client.py:12:5: RES101 `requests.get` called without a timeout
    missing.py: error: No such file or directory
    Found 1 finding and 1 error.

In a run that fixed (``fix``, ``check --fix``), a finding that was not fixed is followed by an
indented line saying why (``  = not fixed: its fix is unsafe: ...``).
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
        if f in options.unfixed:
            out.write(f"  = not fixed: {_one_line(options.unfixed[f])}\n")
    for error in result.errors:
        out.write(f"{printable(error.path)}: error: {_one_line(error.message)}\n")
    if options.quiet:
        return
    if not findings and not result.errors and not options.fixed:
        out.write("All checks passed!\n")
        return
    if options.fixed is not None:
        summary = f"Found {_plural(len(findings) + options.fixed, 'finding')} ({options.fixed} fixed, {len(findings)} remaining)"
    else:
        summary = f"Found {_plural(len(findings), 'finding')}"
    if result.errors:
        summary += f" and {_plural(len(result.errors), 'error')}"
    out.write(summary + ".\n")
