"""Baselines: only new findings are reported, and moving code does not resurface old ones."""

from __future__ import annotations

import json


def test_write_then_report_only_new_findings(cli, tmp_path):
    app = tmp_path / "app.py"
    app.write_text("import requests\nrequests.get(u)\n")
    result = cli(["check", "app.py", "--baseline", "baseline.json", "--write-baseline"], tmp_path)
    assert result.exit_code == 0
    recorded = json.loads((tmp_path / "baseline.json").read_text())
    assert [e["code"] for e in recorded["findings"]] == ["RES101"]

    assert cli(["check", "app.py", "--baseline", "baseline.json"], tmp_path).exit_code == 0
    # Unrelated lines above move the finding: it stays baselined.
    app.write_text("import requests\n\n\ndef helper():\n    pass\n\nrequests.get(u)\n")
    assert cli(["check", "app.py", "--baseline", "baseline.json"], tmp_path).exit_code == 0
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
