"""SARIF as GitHub code scanning reads it, from real runs: the official schema, GitHub's
documented limits, rule descriptions, fingerprints the upload action agrees with, related
locations linked from the message, and paths relative to the repository (GitLab and GitHub
annotations too)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from resilint.cli import main
from resilint.lint.registry import all_rules
from resilint.lint.line_hash import line_hashes
from resilint.lint.report.sarif import DESCRIPTION_LIMIT, _descriptor, full_description
from tests.conftest import REPO, SARIF_SCHEMA, write_tree

from .sarif_limits import PRECISIONS, PROBLEM_SEVERITIES, code_scanning_problems


@pytest.fixture(scope="module")
def validator():
    import jsonschema

    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def schema_errors(validator, log):
    return [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(log)]


@pytest.fixture(scope="module")
def examples_sarif(tmp_path_factory):
    """resilint's SARIF for the bundled example app, from the repository's root."""
    out = tmp_path_factory.mktemp("sarif") / "examples.sarif"
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        CliRunner().invoke(main, ["check", "examples", "--format", "sarif", "--no-cache", "-o", str(out)], catch_exceptions=False)
    text = out.read_text(encoding="utf-8")
    return json.loads(text), text


def test_a_real_report_is_valid_and_within_githubs_limits(validator, examples_sarif):
    log, text = examples_sarif
    assert schema_errors(validator, log) == []
    assert code_scanning_problems(log, text) == []
    assert len(log["runs"][0]["results"]) >= 20


def test_every_result_has_the_hash_the_upload_action_computes(examples_sarif):
    log, _ = examples_sarif
    for result in log["runs"][0]["results"]:
        location = result["locations"][0]["physicalLocation"]
        data = (REPO / location["artifactLocation"]["uri"]).read_bytes()
        expected = line_hashes(data)[location["region"]["startLine"] - 1]
        assert result["partialFingerprints"] == {"primaryLocationLineHash": expected}


def test_related_locations_are_linked_from_the_message(examples_sarif):
    log, _ = examples_sarif
    with_related = [r for r in log["runs"][0]["results"] if r.get("relatedLocations")]
    assert {r["ruleId"] for r in with_related} >= {"RES204", "RES301"}
    for result in with_related:
        for location in result["relatedLocations"]:
            assert f"]({location['id']})" in result["message"]["text"]
    nested = next(r for r in with_related if r["ruleId"] == "RES204")
    assert "tenacity 3 attempts ([examples/shop/shipping.py:8](1))" in nested["message"]["text"]


def test_rule_descriptions_fit_github_with_the_whole_documentation_in_help():
    for code, rule in all_rules().items():
        descriptor = _descriptor(rule)
        full = descriptor["fullDescription"]["text"]
        assert 0 < len(full) <= DESCRIPTION_LIMIT, code
        assert rule.sections()["What it does"].startswith(full.rstrip("\u2026")), code
        assert descriptor["help"]["markdown"] == rule.documentation()
        assert descriptor["properties"]["precision"] in PRECISIONS
        assert descriptor["properties"]["problem.severity"] in PROBLEM_SEVERITIES
    # the longest "What it does": its first paragraph whole, then the list items that fit
    long_one = _descriptor(all_rules()["RES101"])["fullDescription"]["text"]
    first, items = all_rules()["RES101"].sections()["What it does"].split("\n\n")[:2]
    assert long_one.startswith(first + "\n\n- `requests` functions")
    assert long_one.endswith(";\u2026") and len(long_one) > len(first) + 500


def test_a_first_paragraph_longer_than_githubs_limit_is_cut_after_a_sentence():
    class Long:
        @staticmethod
        def sections():
            return {"What it does": "Flags a thing. " * 100}

    text = full_description(Long)  # type: ignore[arg-type]
    assert len(text) <= DESCRIPTION_LIMIT and text.endswith("Flags a thing.\u2026")


def git_project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    write_tree(root, {
        "app/client.py": """
            import requests


            def fetch(url):
                return requests.get(url)
            """,
        "src/tool.py": "x = 1\n",
    })
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


@pytest.mark.parametrize("fmt", ["sarif", "gitlab", "github"])
def test_paths_with_dot_dot_are_written_from_the_repository_root(cli, tmp_path, fmt):
    root = git_project(tmp_path)
    result = cli(["check", "../app/../app/client.py", "--format", fmt, "--no-cache"], cwd=root / "src")
    assert result.exit_code == 1, result.stderr
    if fmt == "sarif":
        run = json.loads(result.stdout)["runs"][0]
        assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == root.resolve().as_uri() + "/"
        location = run["results"][0]["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": "app/client.py", "uriBaseId": "%SRCROOT%"}
        assert run["results"][0]["partialFingerprints"]["primaryLocationLineHash"] == line_hashes(
            (root / "app" / "client.py").read_bytes()
        )[4]
    elif fmt == "gitlab":
        [issue] = json.loads(result.stdout)
        assert issue["location"]["path"] == "app/client.py"
    else:
        assert result.stdout.startswith("::warning file=app/client.py,line=5,")
        assert "::../app/client.py:5:12: RES101" in result.stdout  # the message shows the path as given


def test_without_a_repository_a_file_outside_the_working_directory_gets_an_absolute_uri(cli, tmp_path):
    write_tree(tmp_path, {"app/client.py": "import requests\nrequests.get('u')\n", "here/x.py": "x = 1\n"})
    result = cli(["check", "../app/client.py", "--format", "sarif", "--no-cache"], cwd=tmp_path / "here")
    location = json.loads(result.stdout)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": (tmp_path / "app" / "client.py").as_uri()}


def test_github_annotations_omit_columns_for_a_finding_over_several_lines(cli, tmp_path):
    write_tree(tmp_path, {"client.py": """
        import time

        import requests


        def fetch():
            for attempt in range(3):
                try:
                    return requests.get("https://a.example", timeout=3)
                except:
                    time.sleep(1)
            for attempt in range(3):
                try:
                    return requests.get("https://a.example", timeout=3)
                except Exception: time.sleep(1)
        """})
    result = cli(["check", "client.py", "--select", "RES205", "--format", "github", "--no-cache"], cwd=tmp_path)
    several, one = result.stdout.splitlines()
    assert several.startswith("::warning file=client.py,line=10,endLine=11,title=RES205 (retry-on-any-error)::")
    assert one.startswith("::warning file=client.py,line=15,col=16,endLine=15,endColumn=25,")
