"""``--format json``: one object, ``{"version": 1, "findings": [...], "errors": [...]}``."""

from __future__ import annotations

import json

from resilint.lint.finding import RunResult

from .support import render, timeout_finding

FINDING_KEYS = {
    "code", "name", "message", "path", "line", "column", "end_line", "end_column",
    "severity", "fix", "related",
}


def test_top_level_shape(project, result):
    text = render("json", result, project)
    assert text.endswith("}\n") and not text.endswith("\n\n")
    data = json.loads(text)
    assert set(data) == {"version", "findings", "errors"}
    assert data["version"] == 1
    assert text.startswith('{\n  "version": 1,')  # indent=2


def test_finding_keys_and_values(project, result):
    data = json.loads(render("json", result, project))
    assert [f["code"] for f in data["findings"]] == ["RES991", "RES992"]  # sorted by position
    for finding in data["findings"]:
        assert set(finding) == FINDING_KEYS
    timeout, retry = data["findings"]
    assert timeout == timeout_finding().to_json()
    assert timeout["fix"] == {
        "applicability": "safe",
        "description": "Add `timeout=10`",
        "edits": [{"line": 6, "column": 28, "end_line": 6, "end_column": 28, "content": ", timeout=10"}],
    }
    assert set(timeout["fix"]["edits"][0]) == {"line", "column", "end_line", "end_column", "content"}
    assert retry["related"] == [
        {"path": "app/client.py", "line": 10, "column": 5, "message": "the retry loop starts here"}
    ]
    assert set(retry["related"][0]) == {"path", "line", "column", "message"}
    assert retry["fix"]["edits"] == []


def test_no_fix_is_null(project):
    data = json.loads(render("json", RunResult([timeout_finding(fix=None)]), project))
    assert data["findings"][0]["fix"] is None


def test_errors_included(project, result):
    data = json.loads(render("json", result, project))
    assert data["errors"] == [{"path": "missing_dir", "message": "No such file or directory"}]


def test_empty(project):
    assert json.loads(render("json", RunResult(), project)) == {"version": 1, "findings": [], "errors": []}


def test_non_ascii_survives(project):
    finding = timeout_finding(path="app/clïent.py", message="naïve ☃")
    data = json.loads(render("json", RunResult([finding]), project))
    assert data["findings"][0]["path"] == "app/clïent.py"
    assert data["findings"][0]["message"] == "naïve ☃"
