"""``--format github``: workflow commands that become pull-request annotations."""

from __future__ import annotations

from resilint.lint.finding import AnalysisError, RunResult

from .support import render, retry_finding, timeout_finding


def test_exact_line_for_a_finding(project):
    out = render("github", RunResult([timeout_finding()]), project)
    assert out == (
        "::warning file=app/client.py,line=6,col=12,endLine=6,endColumn=29,"
        "title=RES991 (demo-call-without-timeout)"
        "::app/client.py:6:12: RES991 `requests.get` called without a timeout\n"
    )


def test_levels(project):
    findings = [
        timeout_finding(),
        retry_finding(),  # severity error
        timeout_finding(line=2, severity="note", line_text="import time"),
    ]
    lines = render("github", RunResult(findings), project).splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["::notice", "::warning", "::error"]


def test_escaping_of_properties_and_data(project):
    finding = timeout_finding(
        path="dir,with:odd%chars/f.py",
        message="100% wrong: a, b\nsecond line\r",
    )
    [line] = render("github", RunResult([finding]), project).splitlines()
    assert line.startswith("::warning file=dir%2Cwith%3Aodd%25chars/f.py,line=6,")
    properties, data = line[len("::warning "):].split("::", 1)
    # the property separator ',' and the command separator '::' appear only where they belong
    assert properties.count(",") == 5
    assert "title=RES991 (demo-call-without-timeout)" in properties
    assert data == (
        "dir,with:odd%25chars/f.py:6:12: RES991 100%25 wrong: a, b%0Asecond line%0D"
    )


def test_title_is_escaped(project):
    rules = {}
    finding = timeout_finding(name="weird,name: x")
    [line] = render("github", RunResult([finding]), project, rules=rules).splitlines()
    assert "title=RES991 (weird%2Cname%3A x)::" in line


def test_errors(project):
    out = render("github", RunResult([], [AnalysisError("no/such, dir", "No such file\nor directory")]), project)
    assert out == "::error file=no/such%2C dir,title=resilint::no/such, dir: No such file%0Aor directory\n"


def test_nothing_to_report_prints_nothing(project):
    assert render("github", RunResult(files_checked=2), project) == ""
