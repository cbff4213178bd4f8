"""Every format is discovered and renders any result to ``out`` alone."""

from __future__ import annotations

import hashlib
import json

import pytest

from resilint.lint import report
from resilint.lint.finding import AnalysisError, Finding, RunResult
from resilint.lint.report import ReportOptions, reporters

from .support import render, retry_finding, timeout_finding

FORMATS = ["concise", "github", "gitlab", "json", "sarif", "text"]


def test_all_formats_discovered():
    found = reporters()
    assert set(FORMATS) <= set(found)
    assert list(found) == sorted(found)


def test_the_names_listed_without_importing_the_formats_are_theirs():
    """The CLI's help names the formats without importing them: module name == ``FORMAT``."""
    assert report.format_names() == list(reporters())


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


@pytest.mark.slow
def test_thousands_of_identical_lines_get_unique_stable_fingerprints(project):
    # Generated code and vendored copies: one rule on 5,000 identical lines of one file.
    findings = [timeout_finding(line=n, line_text="return requests.get(url)") for n in range(1, 5001)]
    base = findings[0].fingerprint()
    assert {f.fingerprint() for f in findings} == {base}
    fingerprints = [issue["fingerprint"] for issue in json.loads(render("gitlab", RunResult(findings), project))]
    expected = [base] + [hashlib.sha256(f"{base}:{n}".encode()).hexdigest()[:32] for n in range(1, 5000)]
    assert fingerprints == expected
    assert len(set(fingerprints)) == 5000


def test_each_identical_fingerprint_costs_one_derivation(monkeypatch):
    derivations = []
    real = report.derived_fingerprint

    def counted(fingerprint, occurrence):
        derivations.append(occurrence)
        return real(fingerprint, occurrence)

    monkeypatch.setattr(report, "derived_fingerprint", counted)
    unique = report.UniqueFingerprints()
    handed_out = [unique("f" * 32) for _ in range(3000)] + [unique("e" * 32)]
    assert len(set(handed_out)) == 3001
    assert derivations == list(range(1, 3000))  # not one per earlier copy: linear, not quadratic


def test_a_fingerprint_already_taken_by_another_finding_is_skipped():
    unique = report.UniqueFingerprints()
    first_copy = report.derived_fingerprint("a" * 32, 1)
    assert unique(first_copy) == first_copy  # another finding's own fingerprint, by chance
    assert unique("a" * 32) == "a" * 32
    assert unique("a" * 32) == report.derived_fingerprint("a" * 32, 2)
    assert unique("a" * 32) == report.derived_fingerprint("a" * 32, 3)


def test_only_the_platform_separator_becomes_a_slash():
    assert report.posix_path("app\\client.py", sep="\\") == "app/client.py"  # Windows
    assert report.posix_path("app/odd\\name.py", sep="/") == "app/odd\\name.py"  # POSIX: part of the name


def test_backslash_in_a_posix_file_name_is_kept(project):
    finding = timeout_finding(path="app/odd\\name.py")
    [line] = render("github", RunResult([finding]), project).splitlines()
    assert line.startswith("::warning file=app/odd\\name.py,")
    assert "::app/odd\\name.py:6:12: RES991" in line


ODD_NAME = "app/new\nline\x1besc\u2028sep.py"


@pytest.mark.parametrize("fmt", ["concise", "github", "text"])
def test_control_characters_in_file_names_keep_one_line_per_finding(fmt, project):
    (project / ODD_NAME).write_text((project / "app" / "client.py").read_text())
    result = RunResult([timeout_finding(path=ODD_NAME)], [AnalysisError("bad\rname.py", "cannot be read")])
    out = render(fmt, result, project)
    assert "\x1b" not in out and "\u2028" not in out and "\r" not in out
    shown = "app/new\\nline\\x1besc\\u2028sep.py"
    lines = out.split("\n")
    assert any(line.startswith(shown + ":6:12: RES991") or f"::{shown}:6:12: RES991" in line for line in lines)
    assert any("bad\\rname.py" in line for line in lines)
    if fmt == "github":  # the property keeps the newline in the runner's own, lossless, escaping
        assert "file=app/new%0Aline\\x1besc\\u2028sep.py," in out
    if fmt == "text":
        assert "6 |     return requests.get(url)" in lines  # the frame still finds the file
