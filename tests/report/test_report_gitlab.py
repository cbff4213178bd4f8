"""``--format gitlab``: a GitLab Code Quality report."""

from __future__ import annotations

import json

from resilint.lint.finding import AnalysisError, RunResult

from .support import SOURCE, render, retry_finding, timeout_finding

REQUIRED = {"description", "check_name", "fingerprint", "severity", "location"}
SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def issues(result, root):
    text = render("gitlab", result, root)
    assert text.endswith("]\n")
    data = json.loads(text)
    assert isinstance(data, list)
    return data


def test_required_keys(project, result):
    for issue in issues(result, project):
        assert set(issue) == REQUIRED
        assert issue["severity"] in SEVERITIES
        assert isinstance(issue["location"]["path"], str)
        assert isinstance(issue["location"]["lines"]["begin"], int)
        assert issue["location"]["lines"]["end"] >= issue["location"]["lines"]["begin"]


def test_values(project, result):
    timeout, retry, error = issues(result, project)
    assert timeout == {
        "description": "RES991 `requests.get` called without a timeout",
        "check_name": "RES991",
        "fingerprint": timeout_finding().fingerprint(),
        "severity": "major",
        "location": {"path": "app/client.py", "lines": {"begin": 6, "end": 6}},
    }
    assert retry["severity"] == "critical"
    assert error["check_name"] == "analysis-error"
    assert error["location"]["path"] == "missing_dir"
    assert "No such file or directory" in error["description"]


def test_severity_mapping(project):
    findings = [
        timeout_finding(severity="warning"),
        timeout_finding(line=1, severity="error", line_text="import requests"),
        timeout_finding(line=2, severity="note", line_text="import time"),
    ]
    by_line = {i["location"]["lines"]["begin"]: i["severity"] for i in issues(RunResult(findings), project)}
    assert by_line == {6: "major", 1: "critical", 2: "info"}


def test_fingerprints_unique_and_deterministic(project):
    same = [timeout_finding(message=f"variant {n}") for n in range(5)]
    assert len({f.fingerprint() for f in same}) == 1
    errors = [AnalysisError("x", "boom"), AnalysisError("x", "boom")]
    first = issues(RunResult(same + [retry_finding()], errors), project)
    fingerprints = [i["fingerprint"] for i in first]
    assert len(fingerprints) == len(set(fingerprints)) == 8
    assert fingerprints[0] == same[0].fingerprint()  # the first keeps the plain fingerprint
    again = issues(RunResult(same + [retry_finding()], errors), project)
    assert [i["fingerprint"] for i in again] == fingerprints


def test_fingerprint_stable_when_lines_inserted_above(project):
    shifted = "# header\n" * 4 + SOURCE
    a = issues(RunResult([timeout_finding()]), project)[0]
    b = issues(RunResult([timeout_finding(line=10, source=shifted)]), project)[0]
    assert a["location"]["lines"]["begin"] != b["location"]["lines"]["begin"]
    assert a["fingerprint"] == b["fingerprint"]


def test_paths_are_posix_relative(project):
    [issue] = issues(RunResult([timeout_finding(path="./app/client.py")]), project)
    assert issue["location"]["path"] == "app/client.py"
    # On POSIX a backslash is an ordinary character of a file name.
    [issue] = issues(RunResult([timeout_finding(path="app/odd\\name.py")]), project)
    assert issue["location"]["path"] == "app/odd\\name.py"


def test_empty_report_is_an_empty_array(project):
    assert issues(RunResult(), project) == []
