"""``--format concise``: one line per finding."""

from __future__ import annotations

from resilint.lint.finding import AnalysisError, RunResult

from .support import render, retry_finding, timeout_finding


def test_one_line_per_finding(project, result):
    lines = render("concise", result, project).splitlines()
    assert lines == [
        "app/client.py:6:12: RES991 `requests.get` called without a timeout",
        "app/client.py:11:9: RES992 retry loop sleeps without jitter",
        "missing_dir: error: No such file or directory",
        "Found 2 findings and 1 error.",
    ]


def test_multiline_message_stays_on_one_line(project):
    lines = render("concise", RunResult([timeout_finding(message="first\nsecond")]), project).splitlines()
    assert lines == ["app/client.py:6:12: RES991 first second", "Found 1 finding."]


def test_no_ansi_and_no_frame(project, result):
    out = render("concise", result, project, color=True)
    assert "\x1b[" not in out
    assert "^" not in out


def test_clean_run(project):
    assert render("concise", RunResult(files_checked=3), project) == "All checks passed!\n"


def test_errors_only(project):
    out = render("concise", RunResult([], [AnalysisError("a", "b")]), project)
    assert out == "a: error: b\nFound 0 findings and 1 error.\n"


def test_many(project):
    findings = [retry_finding(line=11, message=f"m{n}") for n in range(7)]
    lines = render("concise", RunResult(findings), project).splitlines()
    assert len(lines) == 8 and lines[-1] == "Found 7 findings."
