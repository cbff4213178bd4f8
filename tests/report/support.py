"""Shared helpers for the reporter tests: hand-built findings over small real files.

Nothing here depends on the real rules; ``DemoTimeout``, ``DemoRetry`` and ``DemoNote`` stand
in for them.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Dict, Type

from resilint.lint.finding import Edit, Finding, Fix, Related, RunResult
from resilint.lint.report import ReportOptions, reporters
from resilint.lint.rule import Rule


class DemoTimeout(Rule):
    """HTTP call made without a timeout.

    ## What it does
    Flags calls to HTTP clients that pass no `timeout`.

    ## Why is this bad?
    A call without a timeout waits forever on a slow dependency.

    ## Example
    ```python
    requests.get(url)
    ```

    ## Use instead
    ```python
    requests.get(url, timeout=10)
    ```

    ## Fix safety
    Adding a timeout is safe.
    """

    code = "RES991"
    name = "demo-call-without-timeout"
    message = "HTTP call without a timeout"
    severity = "warning"
    fixable = "safe"


class DemoRetry(Rule):
    """Retry loop without jitter.

    ## What it does
    Flags retries that sleep a fixed time.

    ## Why is this bad?
    Synchronised retries stampede a recovering dependency.

    ## Example
    ```python
    time.sleep(1)
    ```

    ## Use instead
    ```python
    time.sleep(random.uniform(0, 1))
    ```
    """

    code = "RES992"
    name = "demo-retry-without-jitter"
    message = "retry without jitter"
    severity = "error"
    fixable = "unsafe"


class DemoNote(Rule):
    """A rule that is known but produces no finding in these tests.

    ## What it does
    Nothing in particular.

    ## Why is this bad?
    It is not.

    ## Example
    ```python
    pass
    ```

    ## Use instead
    ```python
    pass
    ```
    """

    code = "RES990"
    name = "demo-note"
    message = "a note"
    severity = "note"
    default = False


RULES: Dict[str, Type[Rule]] = {r.code: r for r in (DemoRetry, DemoTimeout, DemoNote)}

SOURCE = """\
import requests
import time


def fetch(url):
    return requests.get(url)


def poll(url):
    while True:
        time.sleep(1)
"""


def line_of(source: str, line: int) -> str:
    return source.splitlines()[line - 1].strip()


def timeout_finding(path: str = "app/client.py", line: int = 6, source: str = SOURCE, **kw) -> Finding:
    # `requests.get(url)` on "    return requests.get(url)": columns 12..29 (end exclusive)
    defaults = dict(
        code="RES991",
        name="demo-call-without-timeout",
        message="`requests.get` called without a timeout",
        path=path,
        line=line,
        column=12,
        end_line=line,
        end_column=29,
        severity="warning",
        fix=Fix("safe", "Add `timeout=10`", (Edit(line, 28, line, 28, ", timeout=10"),)),
    )
    if "line_text" not in kw:
        defaults["line_text"] = line_of(source, line)
    defaults.update(kw)
    return Finding(**defaults)


def retry_finding(path: str = "app/client.py", line: int = 11, source: str = SOURCE, **kw) -> Finding:
    defaults = dict(
        code="RES992",
        name="demo-retry-without-jitter",
        message="retry loop sleeps without jitter",
        path=path,
        line=line,
        column=9,
        end_line=line,
        end_column=22,
        severity="error",
        fix=Fix("unsafe", "Rewrite with `resilint.runtime.retry`"),
        related=(Related(path, line - 1, 5, "the retry loop starts here"),),
    )
    if "line_text" not in kw:
        defaults["line_text"] = line_of(source, line)
    defaults.update(kw)
    return Finding(**defaults)


def render(fmt: str, result: RunResult, root: Path, rules=None, **options) -> str:
    out = io.StringIO()
    reporters()[fmt](result, RULES if rules is None else rules, out, ReportOptions(root=str(root), **options))
    return out.getvalue()
