"""Baselines: only new findings are reported, and moving code does not resurface old ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from resilint.lint.finding import Finding


def test_write_then_report_only_new_findings(cli, tmp_path):
    app = tmp_path / "app.py"
    app.write_text("import requests\nrequests.get(u)\n")
    result = cli(["check", "app.py", "--baseline", "baseline.json", "--write-baseline"], tmp_path)
    assert result.exit_code == 0
    recorded = json.loads((tmp_path / "baseline.json").read_text())
    assert [e["code"] for e in recorded["findings"]] == ["RES101"]

    assert cli(["check", "app.py", "--baseline", "baseline.json"], tmp_path).exit_code == 0
    assert cli(["check", "app.py", "--baseline", "fresh.json", "--write-baseline"], tmp_path).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(tmp_path / "fresh.json").st_mode & 0o777 == 0o666 & ~umask  # not a temp file's 0600
    # Unrelated lines above move the finding: it stays baselined.
    app.write_text("import requests\n\n\ndef helper():\n    pass\n\nrequests.get(u)\n")
    assert cli(["check", "app.py", "--baseline", "baseline.json"], tmp_path).exit_code == 0
    assert cli(["check", "app.py", "--baseline", "fresh.json", "--write-baseline"], tmp_path).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(tmp_path / "fresh.json").st_mode & 0o777 == 0o666 & ~umask  # not a temp file's 0600
    # A second, identical problem is new even though its line text matches.
    app.write_text("import requests\nrequests.get(u)\nrequests.get(u)\nrequests.post(u)\n")
    result = cli(["check", "app.py", "--baseline", "baseline.json", "--format", "json"], tmp_path)
    assert result.exit_code == 1
    assert [(f["line"], f["code"]) for f in json.loads(result.stdout)["findings"]] == [(3, "RES101"), (4, "RES101")]


def test_bad_baseline_is_a_clear_error(cli, tmp_path):
    (tmp_path / "app.py").write_text("x = 1\n")
    missing = cli(["check", "app.py", "--baseline", "nope.json"], tmp_path)
    assert missing.exit_code == 2 and "nope.json: cannot read the baseline" in missing.stderr
    (tmp_path / "bad.json").write_text("[]")
    bad = cli(["check", "app.py", "--baseline", "bad.json"], tmp_path)
    assert bad.exit_code == 2 and "not a resilint baseline" in bad.stderr
    usage = cli(["check", "app.py", "--write-baseline"], tmp_path)
    assert usage.exit_code == 2 and "--write-baseline needs --baseline" in usage.stderr


def test_baseline_matches_from_another_working_directory(cli, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text("import requests\nrequests.get(u)\n")
    written = cli(["check", "app.py", "--baseline", "baseline.json", "--write-baseline"], project)
    assert "Recorded 1 finding in baseline.json." in written.stderr
    result = cli(["check", "project/app.py", "--baseline", "project/baseline.json"], tmp_path)
    assert result.exit_code == 0, result.stdout


def test_res000_is_never_recorded_and_never_hidden(cli, tmp_path):
    (tmp_path / "app.py").write_text("import requests\nrequests.get(u)\n")
    (tmp_path / "broken.py").write_text("def f(:\n")
    written = cli(["check", ".", "--baseline", "baseline.json", "--write-baseline", "--format", "concise"], tmp_path)
    assert written.exit_code == 1  # the file that cannot be analysed is reported, not recorded
    assert "broken.py:1:7: RES000" in written.stdout and "Recorded 1 finding in baseline.json." in written.stderr
    document = json.loads((tmp_path / "baseline.json").read_text())
    assert [e["code"] for e in document["findings"]] == ["RES101"]

    # A baseline written by an older version holds the RES000: it is ignored.
    # (a fingerprint is the code, the path and the text of the line)
    fingerprint = Finding("RES000", "analysis-error", "", "broken.py", 1, 7, 1, 8, line_text="def f(:").fingerprint()
    document["findings"].append({"fingerprint": fingerprint, "code": "RES000", "path": "broken.py", "line": 1})
    (tmp_path / "baseline.json").write_text(json.dumps(document))
    result = cli(["check", ".", "--baseline", "baseline.json", "--format", "concise"], tmp_path)
    assert result.exit_code == 1 and "broken.py:1:7: RES000" in result.stdout and "RES101" not in result.stdout


def test_a_deeply_nested_baseline_is_a_one_line_error(cli, tmp_path):
    (tmp_path / "app.py").write_text("x = 1\n")
    # 5,000 levels overflow json on 3.9-3.12; 3.13 takes them but not 100,000
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    result = cli(["check", "app.py", "--baseline", "deep.json"], tmp_path)
    assert result.exit_code == 2
    assert result.stderr == "resilint: error: deep.json: not a resilint baseline (its JSON is nested too deeply)\n"


@pytest.mark.slow
def test_a_fifo_as_baseline_is_an_error_not_a_hang(tmp_path):
    (tmp_path / "app.py").write_text("x = 1\n")
    os.mkfifo(tmp_path / "fifo.json")
    result = subprocess.run(
        [sys.executable, "-m", "resilint", "check", "app.py", "--baseline", "fifo.json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr == "resilint: error: fifo.json: cannot read the baseline: not a regular file (a pipe, socket or device)\n"


def test_a_baseline_named_through_a_symlinked_directory_matches(cli, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text("import requests\nrequests.get(u)\n")
    (tmp_path / "link").symlink_to("project")
    assert cli(["check", "app.py", "--baseline", "baseline.json", "--write-baseline"], project).exit_code == 0
    for app, baseline in (("project/app.py", "project/baseline.json"), ("project/app.py", "link/baseline.json"),
                          ("link/app.py", "project/baseline.json"), ("link/app.py", "link/baseline.json")):
        result = cli(["check", app, "--baseline", baseline], tmp_path)
        assert result.exit_code == 0, (app, baseline, result.stdout)


def test_a_baseline_is_written_through_a_symlink_and_with_the_usual_mode(cli, tmp_path):
    (tmp_path / "app.py").write_text("import requests\nrequests.get(u)\n")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "baseline.json").write_text("{}")
    os.chmod(tmp_path / "shared" / "baseline.json", 0o664)
    (tmp_path / "baseline.json").symlink_to("shared/baseline.json")
    assert cli(["check", "app.py", "--baseline", "baseline.json", "--write-baseline"], tmp_path).exit_code == 0
    assert os.readlink(tmp_path / "baseline.json") == "shared/baseline.json"
    assert os.stat(tmp_path / "shared" / "baseline.json").st_mode & 0o777 == 0o664
    assert cli(["check", "app.py", "--baseline", "baseline.json"], tmp_path).exit_code == 0
    assert cli(["check", "app.py", "--baseline", "fresh.json", "--write-baseline"], tmp_path).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(tmp_path / "fresh.json").st_mode & 0o777 == 0o666 & ~umask  # not a temp file's 0600
