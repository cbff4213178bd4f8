"""Every format is discovered and renders any result to ``out`` alone."""

from __future__ import annotations

import pytest

from resilint.lint.finding import AnalysisError, Finding, RunResult
from resilint.lint.report import ReportOptions, reporters

from .support import render, retry_finding, timeout_finding

FORMATS = ["concise", "github", "gitlab", "json", "sarif", "text"]


def test_all_formats_discovered():
    found = reporters()
    assert set(FORMATS) <= set(found)
    assert list(found) == sorted(found)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("color", [False, True])
def test_renders_only_to_out(fmt, color, project, result, capsys):
    odd = Finding(
        "RES991", "demo", "ünïcode ☃ message", "app/ünï cøde.py", 1, 1, 1, 1, severity="unknown", line_text=""
    )
    extra = RunResult(
        findings=result.findings + [odd, timeout_finding(line=6, message="dup"), retry_finding(related=())],
        errors=result.errors + [AnalysisError("", "no path")],
        files_checked=3,
    )
    for options in ({}, {"statistics": True}, {"show_source": False}):
        out = render(fmt, extra, project, color=color, **options)
        assert out.endswith("\n")
        empty = render(fmt, RunResult(), project, color=color, **options)
        assert isinstance(empty, str)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


@pytest.mark.parametrize("fmt", FORMATS)
def test_undecodable_file_name_can_be_written_to_a_utf8_file(fmt, project, tmp_path):
    # os.fsdecode(b"app/\xff.py") on POSIX: a lone surrogate that strict UTF-8 cannot encode
    finding = timeout_finding(path="app/\udcff.py")
    target = tmp_path / "report.out"
    with open(target, "w", encoding="utf-8") as out:
        result = RunResult([finding], [AnalysisError("bad\udcfe", "x")])
        reporters()[fmt](result, {}, out, ReportOptions(root=str(project)))
    assert target.read_text(encoding="utf-8")
