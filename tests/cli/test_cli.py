"""The command line, in-process through click's runner."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from resilint import __version__

from tests.conftest import REPO, SARIF_SCHEMA, write_tree

APP = {
    "app/client.py": """
        import requests
        import httpx

        def fetch(u):
            return requests.get(u)

        def stream(u):
            return httpx.get(u, timeout=None)
    """,
    "app/clean.py": "import requests\nfrom app.config import TIMEOUTS\nrequests.get('u', timeout=TIMEOUTS.rates)\n",
}


@pytest.fixture
def app(tmp_path):
    return write_tree(tmp_path, APP)


def findings(result):
    return [(f["path"], f["line"], f["code"]) for f in json.loads(result.stdout)["findings"]]


def test_exit_codes(cli, app):
    assert cli(["check", "app/clean.py"], app).exit_code == 0
    assert cli(["check", "app"], app).exit_code == 1
    assert cli(["check", "app", "--exit-zero"], app).exit_code == 0
    assert cli(["check", "app", "--format", "nope"], app).exit_code == 2
    assert cli(["check", "nowhere", "--exit-zero"], app).exit_code == 2


def test_default_path_is_the_working_directory(cli, app):
    result = cli(["check", "--format", "json"], app)
    assert findings(result) == [("app/client.py", 5, "RES101"), ("app/client.py", 8, "RES102")]


def test_select_ignore_and_extend_select(cli, app):
    assert findings(cli(["check", "app", "--format", "json", "--select", "RES102"], app)) == [
        ("app/client.py", 8, "RES102")
    ]
    assert findings(cli(["check", "app", "--format", "json", "--ignore", "RES1"], app)) == []
    result = cli(["check", "app", "--format", "json", "--ignore", "RES1", "--extend-select", "res101"], app)
    assert findings(result) == [("app/client.py", 5, "RES101")]
    result = cli(["check", "app", "--select", "RES9"], app)
    assert result.exit_code == 2 and "unknown rule selector `RES9`" in result.stderr


def test_config_in_pyproject_and_cli_override(cli, app):
    (app / "pyproject.toml").write_text('[tool.resilint]\nignore = ["RES102"]\nper-file-ignores = {"app/client.py" = ["RES101"]}\n')
    assert cli(["check", "app"], app).exit_code == 0
    result = cli(["check", "app", "--format", "json", "--select", "RES102"], app)
    assert findings(result) == []  # --select replaces select, the config's ignore still applies
    (app / "pyproject.toml").write_text("[tool.resilint]\nselct = ['RES1']\n")
    result = cli(["check", "app"], app)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"resilint: error: {app / 'pyproject.toml'}: unknown key `selct` in [tool.resilint] (did you mean `select`?)"
    ]


def test_config_option_points_at_another_file(cli, app):
    (app / "strict.toml").write_text('[tool.resilint]\nselect = ["RES102"]\n')
    result = cli(["check", "app", "--format", "json", "--config", "strict.toml"], app)
    assert findings(result) == [("app/client.py", 8, "RES102")]


def test_output_file_and_formats(cli, app):
    result = cli(["check", "app", "--format", "sarif", "--output-file", "out.sarif"], app)
    assert result.exit_code == 1 and result.stdout == ""
    sarif = json.loads((app / "out.sarif").read_text())
    jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text()))
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["RES101", "RES102"]

    github = cli(["check", "app", "--format", "github"], app).stdout.splitlines()
    assert github[0].startswith("::warning file=app/client.py,line=5,col=12,")
    assert "title=RES101" in github[0]


def test_text_output_has_frames_and_summary_without_colour(cli, app):
    result = cli(["check", "app"], app)
    assert "app/client.py:5:12: RES101" in result.stdout
    assert "return requests.get(u)" in result.stdout and "^^^^^^^^^^^^" in result.stdout
    assert "Found 2 findings" in result.stdout
    assert "\x1b[" not in result.stdout


def test_colour_is_forced_by_force_color_and_refused_by_no_color(cli, app, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    from click.testing import CliRunner

    from resilint.cli import main

    monkeypatch.chdir(app)
    assert "\x1b[" in CliRunner().invoke(main, ["check", "app"]).output
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in CliRunner().invoke(main, ["check", "app"]).output


def test_statistics(cli, app):
    # the fixes counted are those of the runtime target here (the project declares nothing)
    result = cli(["check", "app", "--statistics", "--fix-target", "runtime"], app)
    lines = result.stdout.splitlines()
    assert any("RES101" in line and "1" in line and "[*]" in line for line in lines)
    assert not any("return requests.get" in line for line in lines)
    document = json.loads(cli(["check", "app", "--statistics", "--format", "json", "--fix-target", "runtime"], app).stdout)
    assert document["statistics"] == [
        {"code": "RES101", "name": "missing-timeout", "count": 1, "fixable": 1},
        {"code": "RES102", "name": "unbounded-timeout", "count": 1, "fixable": 1},
    ]
    assert "findings" not in document
    refused = cli(["check", "app", "--statistics", "--format", "sarif"], app)
    assert refused.exit_code == 2 and "--statistics works with --format text or json" in refused.stderr


def test_version_rules_and_rule_docs(cli, app):
    assert cli(["--version"], app).stdout.strip() == f"resilint {__version__}"
    assert cli(["version"], app).stdout.strip() == f"resilint {__version__}"
    listing = cli(["rules"], app).stdout
    assert "RES101" in listing and "missing-timeout" in listing and "opt-in" in listing
    rules = json.loads(cli(["rules", "--format", "json"], app).stdout)
    assert {"code": "RES001", "default": False} .items() <= rules[1].items()
    doc = cli(["rule", "RES101"], app)
    assert doc.exit_code == 0 and "Why is this bad?" in doc.stdout and "Little's law" in doc.stdout
    assert cli(["rule", "missing-timeout"], app).exit_code == 0
    unknown = cli(["rule", "RES999"], app)
    assert unknown.exit_code == 2 and "unknown rule 'RES999'" in unknown.stderr


def test_examples_directory_yields_timeout_findings(cli):
    result = cli(["check", "examples", "--format", "json"], REPO)
    codes = {code for _, _, code in findings(result)}
    assert {"RES101", "RES102"} <= codes
    assert result.exit_code == 1


def test_examples_exercise_every_rule(cli):
    from resilint.lint.registry import all_rules

    result = cli(["check", "examples", "--select", "ALL", "--format", "json", "--no-cache"], REPO)
    fired = {code for _, _, code in findings(result)}
    assert set(all_rules()) - fired == set(), "examples/ should show every rule at least once"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--ignore", "RES000"], "resilint: error: --ignore: `RES000` cannot be ignored"),
        (["--ignore", "RES101,RES000"], "resilint: error: --ignore: `RES000` cannot be ignored"),
        (["--select", ""], "resilint: error: --select: empty rule selector"),
        (["--ignore", ""], "resilint: error: --ignore: empty rule selector"),
        (["--extend-select", "RES101,"], "resilint: error: --extend-select: empty rule selector"),
        (["--max-timeout", "nan"], "Invalid value for '--max-timeout': must be a positive number of seconds, got nan"),
        (["--max-timeout", "inf"], "Invalid value for '--max-timeout': must be a positive number of seconds, got inf"),
        (["--max-timeout", "0"], "Invalid value for '--max-timeout': must be a positive number of seconds, got 0.0"),
    ],
)
def test_options_that_would_not_do_what_they_say_are_refused(cli, app, args, expected):
    result = cli(["check", "app", *args], app)
    assert result.exit_code == 2
    assert expected in result.stderr


def test_a_named_prefix_that_covers_more_than_res000_can_be_ignored(cli, app):
    (app / "bad.py").write_text("def f(:\n")
    result = cli(["check", "app", "bad.py", "--ignore", "RES0", "--format", "json"], app)
    assert ("bad.py", 1, "RES000") in findings(result)


def run_resilint(*args, cwd, stdout=subprocess.PIPE):
    return subprocess.run(
        [sys.executable, "-m", "resilint", *args], cwd=cwd, stdout=stdout, stderr=subprocess.PIPE,
        text=True, timeout=120,
    )


@pytest.mark.slow
@pytest.mark.parametrize("args", [["check", "--no-cache", "app"], ["rules"], ["--version"]])
def test_a_full_disk_on_standard_output_is_one_line_and_exit_2(app, args):
    with open("/dev/full", "w") as full:
        proc = run_resilint(*args, cwd=app, stdout=full)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == ["resilint: error: cannot write to standard output: No space left on device"]


@pytest.mark.slow
def test_a_deleted_working_directory_is_one_line_and_exit_2(app, tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    # The shell starts in the directory and removes it before resilint starts there.
    proc = subprocess.run(
        ["sh", "-c", 'rmdir "$0" && exec "$1" -m resilint check "$2"', str(gone), sys.executable, str(app / "app")],
        cwd=gone, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == ["resilint: error: the working directory no longer exists; change to one that does"]
