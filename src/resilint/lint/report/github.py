"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request.

::

    ::warning file=app/client.py,line=12,col=5,endLine=12,endColumn=30,title=RES101 (http-call-without-timeout)::app/client.py:12:5: RES101 ...

Values are escaped as the Actions runner expects (``@actions/core``'s ``escapeData`` and
``escapeProperty``): in the message ``%``, CR and LF; in properties also ``:`` and ``,``.
A file name with CR or LF stays exact in the ``file`` property (the runner undoes that
escaping, and GitHub needs the real name to place the annotation); other control characters
have no such escape and are written as Python escapes (``\\x1b``), so they cannot drive the
log viewer.
"""

from __future__ import annotations

from typing import Mapping, TextIO, Type

from resilint.lint.finding import RunResult
from resilint.lint.report import ReportOptions, posix_path, printable
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
    for f in sorted(result.findings, key=lambda f: f.sort_key):
        path = posix_path(f.path)
        name = rules[f.code].name if f.code in rules else f.name
        properties = {
            "file": path,
            "line": f.line,
            "col": f.column,
            "endLine": f.end_line,
            "endColumn": f.end_column,
            "title": f"{f.code} ({name})",
        }
        message = f"{printable(path)}:{f.line}:{f.column}: {f.code} {f.message}"
        out.write(_command(_LEVELS.get(f.severity, "warning"), properties, message))
    for error in result.errors:
        path = posix_path(error.path)
        out.write(_command("error", {"file": path, "title": "resilint"}, f"{printable(path)}: {error.message}"))
