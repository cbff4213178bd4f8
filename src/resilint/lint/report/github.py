"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request.

::

    ::warning file=app/client.py,line=12,col=5,endLine=12,endColumn=30,title=RES101 (http-call-without-timeout)::app/client.py:12:5: RES101 ...

``file`` is relative to the repository (the git work tree around the working directory, else
the working directory) and normalised, as GitHub places annotations by it. A finding that spans
several lines gets no ``col``/``endColumn``: GitHub accepts columns only on a one-line
annotation.

Values are escaped as the Actions runner expects (``@actions/core``'s ``escapeData`` and
``escapeProperty``): in the message ``%``, CR and LF; in properties also ``:`` and ``,``.
A file name with CR or LF stays exact in the ``file`` property (the runner undoes that
escaping, and GitHub needs the real name to place the annotation); other control characters
have no such escape and are written as Python escapes (``\\x1b``), so they cannot drive the
log viewer.
"""

from __future__ import annotations

from typing import Dict, Mapping, TextIO, Type

from resilint.lint.finding import RunResult
from resilint.lint.report import ReportOptions, SourcePaths, posix_path, printable
from resilint.lint.rule import Rule

FORMAT = "github"

_LEVELS = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(value: str) -> str:
    escaped = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    # Other control characters have no escape the runner undoes: Python escapes instead (an
    # annotation on a file named with ESC loses its file, rather than colouring the log).
    return printable(escaped)


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def _command(level: str, properties: Mapping[str, object], message: str) -> str:
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{level} {props}::{escape_data(message)}\n"


def render(
    result: RunResult, rules: Mapping[str, Type[Rule]], out: TextIO, options: ReportOptions
) -> None:
    paths = SourcePaths(options)
    for f in sorted(result.findings, key=lambda f: f.sort_key):
        name = rules[f.code].name if f.code in rules else f.name
        if f.end_line <= f.line:
            place: Dict[str, object] = {"line": f.line, "col": f.column, "endLine": f.line, "endColumn": f.end_column}
        else:  # GitHub takes columns on a one-line annotation only
            place = {"line": f.line, "endLine": f.end_line}
        properties = {"file": paths.in_repository(f.path), **place, "title": f"{f.code} ({name})"}
        message = f"{printable(posix_path(f.path))}:{f.line}:{f.column}: {f.code} {f.message}"
        out.write(_command(_LEVELS.get(f.severity, "warning"), properties, message))
    for error in result.errors:
        shown = posix_path(error.path)
        properties = {"file": paths.in_repository(error.path), "title": "resilint"}
        out.write(_command("error", properties, f"{printable(shown)}: {error.message}"))
