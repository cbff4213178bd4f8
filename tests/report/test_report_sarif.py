"""SARIF 2.1.0: schema validity, GitHub code scanning essentials, stable fingerprints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resilint import __version__
from resilint.lint.finding import AnalysisError, Finding, Related, RunResult
from resilint.lint.line_hash import line_hashes
from resilint.lint.report.sarif import linked_message

from tests.conftest import SARIF_SCHEMA

from .support import SOURCE, DemoTimeout, render, retry_finding, timeout_finding



@pytest.fixture(scope="module")
def validator():
    import jsonschema

    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def sarif(result: RunResult, root: Path, **kw) -> dict:
    text = render("sarif", result, root, **kw)
    assert text.endswith("\n")
    return json.loads(text)


def assert_valid(validator, log: dict) -> None:
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


def test_valid_against_the_official_schema(validator, project, result):
    assert_valid(validator, sarif(result, project))


def test_empty_run_is_valid(validator, project):
    log = sarif(RunResult(files_checked=3), project)
    assert_valid(validator, log)
    run = log["runs"][0]
    assert run["results"] == []
    assert run["invocations"][0]["executionSuccessful"] is True
    assert "toolExecutionNotifications" not in run["invocations"][0]


def test_top_level_and_driver(project, result):
    log = sarif(result, project)
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    assert len(log["runs"]) == 1
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "resilint"
    assert driver["version"] == __version__
    assert driver["informationUri"].startswith("https://")


def test_rules_are_all_known_rules_sorted_by_code(project, result):
    rules = sarif(result, project)["runs"][0]["tool"]["driver"]["rules"]
    # RES990 has no finding but is still described
    assert [r["id"] for r in rules] == ["RES990", "RES991", "RES992"]
    timeout = rules[1]
    assert timeout["name"] == "demo-call-without-timeout"
    assert timeout["shortDescription"]["text"] == DemoTimeout.summary() == "HTTP call made without a timeout."
    assert timeout["fullDescription"]["text"] == "Flags calls to HTTP clients that pass no `timeout`."
    assert timeout["help"]["text"] == DemoTimeout.documentation()
    assert timeout["help"]["markdown"] == DemoTimeout.documentation()
    assert "## Why is this bad?" in timeout["help"]["markdown"]
    assert timeout["helpUri"] == "https://github.com/resilint/resilint/blob/main/docs/rules/RES991.md"
    assert timeout["defaultConfiguration"]["level"] == "warning"
    assert "reliability" in timeout["properties"]["tags"]
    assert [r["defaultConfiguration"]["level"] for r in rules] == ["note", "warning", "error"]


def test_rule_index_points_at_the_rule(project, result):
    run = sarif(result, project)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert len(run["results"]) == 2
    for res in run["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]


def test_unknown_code_gets_a_descriptor(validator, project):
    engine = Finding("RES000", "analysis-problem", "could not parse", "app/client.py", 1, 1, 1, 2, line_text="x")
    log = sarif(RunResult([engine, timeout_finding()]), project)
    assert_valid(validator, log)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["RES000", "RES990", "RES991", "RES992"]
    for res in run["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]


def test_result_fields(project, result):
    run = sarif(result, project)["runs"][0]
    first = run["results"][0]  # sorted by position: line 6 before line 11
    assert first["ruleId"] == "RES991"
    assert first["level"] == "warning"
    assert first["message"]["text"] == "`requests.get` called without a timeout"
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "app/client.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 6, "startColumn": 12, "endLine": 6, "endColumn": 29}
    assert first["partialFingerprints"] == {"primaryLocationLineHash": line_hashes(SOURCE.encode())[5]}
    assert run["results"][1]["level"] == "error"


def test_uris_relative_with_base_id(project, result):
    run = sarif(result, project)["runs"][0]
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == project.resolve().as_uri() + "/"
    for res in run["results"]:
        for loc in res["locations"] + res.get("relatedLocations", []):
            artifact = loc["physicalLocation"]["artifactLocation"]
            assert artifact["uriBaseId"] == "%SRCROOT%"
            assert not artifact["uri"].startswith(("/", "file:"))


def test_odd_characters_are_uri_safe(validator, project):
    # On POSIX a backslash is part of the file name, not a separator: it is encoded, not turned into "/".
    finding = timeout_finding(path="app/my client#1\\x.py")
    log = sarif(RunResult([finding]), project)
    assert_valid(validator, log)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "app/my%20client%231%5Cx.py"


def test_absolute_paths(project):
    inside = timeout_finding(path=str(project / "app" / "client.py"))
    outside = timeout_finding(path=str(project.parent / "elsewhere.py"))
    run = sarif(RunResult([inside, outside]), project)["runs"][0]
    artifacts = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    by_uri = {a["uri"]: a for a in artifacts}
    assert by_uri["app/client.py"]["uriBaseId"] == "%SRCROOT%"
    outside_uri = (project.parent / "elsewhere.py").as_uri()
    assert by_uri[outside_uri] == {"uri": outside_uri}


def test_fingerprint_survives_lines_inserted_above(project):
    before = sarif(RunResult([timeout_finding()]), project)
    shifted_source = "# a new header comment\n\n\n" + SOURCE
    (project / "app" / "client.py").write_text(shifted_source, encoding="utf-8")
    after = sarif(RunResult([timeout_finding(line=9, source=shifted_source)]), project)

    def fp(log):
        return log["runs"][0]["results"][0]["partialFingerprints"]["primaryLocationLineHash"]

    def start(log):
        return log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"]

    assert (start(before), start(after)) == (6, 9)
    assert fp(before) == fp(after)


def test_fingerprint_changes_when_the_flagged_line_changes(project):
    a = sarif(RunResult([timeout_finding()]), project)["runs"][0]["results"][0]
    edited = SOURCE.replace("requests.get(url)", "requests.get(other_url)")
    (project / "app" / "client.py").write_text(edited, encoding="utf-8")
    b = sarif(RunResult([timeout_finding(source=edited)]), project)["runs"][0]["results"][0]
    assert a["partialFingerprints"] != b["partialFingerprints"]


def test_identical_lines_are_numbered_as_the_upload_action_numbers_them(project):
    # The action hashes the 100 characters from each line's start (spaces and tabs left out):
    # the first lines of ten identical ones share a hash, told apart by their number.
    (project / "app" / "generated.py").write_text("    return requests.get(url)\n" * 10, encoding="utf-8")
    findings = [timeout_finding(path="app/generated.py", line=n, line_text="return requests.get(url)") for n in (1, 2, 3)]
    results = sarif(RunResult(findings), project)["runs"][0]["results"]
    hashes = [r["partialFingerprints"]["primaryLocationLineHash"] for r in results]
    assert len({h.split(":")[0] for h in hashes}) == 1
    assert [h.split(":")[1] for h in hashes] == ["1", "2", "3"]


def test_a_file_that_cannot_be_read_gets_no_fingerprint_for_the_action_to_fill_in(validator, project):
    log = sarif(RunResult([timeout_finding(path="app/gone.py")]), project)
    assert_valid(validator, log)
    assert "partialFingerprints" not in log["runs"][0]["results"][0]


def test_text_not_on_disk_is_hashed_from_the_contents_given(project):
    source = "import requests\n\n\n\n\ndef f(u): return requests.get(u)\n"
    log = sarif(RunResult([timeout_finding(path="app/new.py")]), project, contents={"app/new.py": source.encode()})
    assert log["runs"][0]["results"][0]["partialFingerprints"] == {"primaryLocationLineHash": line_hashes(source.encode())[5]}


def test_fixes_present_when_given(project, result):
    run = sarif(result, project)["runs"][0]
    with_fix = run["results"][0]
    assert with_fix["fixes"] == [
        {
            "description": {"text": "Add `timeout=10` (safe fix)"},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "app/client.py", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {"startLine": 6, "startColumn": 28, "endLine": 6, "endColumn": 28},
                            "insertedContent": {"text": ", timeout=10"},
                        }
                    ],
                }
            ],
            "properties": {"applicability": "safe"},
        }
    ]
    # a fix without concrete edits cannot be expressed as artifactChanges (minItems 1)
    assert "fixes" not in run["results"][1]
    no_fix = sarif(RunResult([timeout_finding(fix=None)]), project)["runs"][0]["results"][0]
    assert "fixes" not in no_fix


def test_related_locations_present_when_given(project, result):
    run = sarif(result, project)["runs"][0]
    assert "relatedLocations" not in run["results"][0]
    related = run["results"][1]["relatedLocations"]
    assert related == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {"uri": "app/client.py", "uriBaseId": "%SRCROOT%"},
                # to the end of the line's text: `while True:`
                "region": {"startLine": 10, "startColumn": 5, "endLine": 10, "endColumn": 16},
            },
            "message": {"text": "the retry loop starts here"},
        }
    ]
    # GitHub shows a related location only when the message links to it
    assert run["results"][1]["message"]["text"] == "retry loop sleeps without jitter. See [the retry loop starts here](1)."


def test_a_location_the_message_names_becomes_the_link():
    related = (Related("app/a.py", 8, 1, "retry layer: tenacity"), Related("app/b.py", 10, 5, "retry layer: urllib3"))
    message = "tenacity 3 attempts (app/a.py:8) x urllib3 (app/b.py:10) = up to 12 calls (see app/a.py:80)"
    assert linked_message(message, related) == (
        "tenacity 3 attempts ([app/a.py:8](1)) x urllib3 ([app/b.py:10](2)) = up to 12 calls (see app/a.py:80)"
    )


def test_two_locations_on_one_line_link_two_mentions_or_list_the_second():
    related = (Related("a.py", 3, 1, "first"), Related("a.py", 3, 9, "second [x]\\y"))
    assert linked_message("at a.py:3 and a.py:3", related) == "at [a.py:3](1) and [a.py:3](2)"
    # link text escapes brackets and backslashes (SARIF 3.11.6); text outside links is left as is
    assert linked_message("held [here] at a.py:3", related) == (
        "held [here] at [a.py:3](1). See [second \\[x\\]\\\\y](2)."
    )


def test_errors_become_tool_execution_notifications(validator, project, result):
    log = sarif(result, project)
    assert_valid(validator, log)
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    [note] = invocation["toolExecutionNotifications"]
    assert note["level"] == "error"
    assert note["message"]["text"] == "No such file or directory"
    assert note["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "missing_dir",
        "uriBaseId": "%SRCROOT%",
    }


def test_output_is_deterministic(project, result):
    assert render("sarif", result, project) == render("sarif", result, project)


def test_many_findings_all_valid(validator, project):
    findings = []
    for n in range(1, 12):
        findings.append(timeout_finding(line=6, message=f"m{n}"))
        findings.append(retry_finding(related=()))
    errors = [AnalysisError("", "something went wrong")]
    log = sarif(RunResult(findings, errors, 1), project)
    assert_valid(validator, log)
    hashes = {r["partialFingerprints"]["primaryLocationLineHash"] for r in log["runs"][0]["results"]}
    assert hashes == {line_hashes(SOURCE.encode())[5], line_hashes(SOURCE.encode())[10]}
