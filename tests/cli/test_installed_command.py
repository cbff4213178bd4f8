"""The installed ``resilint`` console script, as a real subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow


def resilint_command():
    beside = Path(sys.executable).with_name("resilint")
    found = str(beside) if beside.exists() else shutil.which("resilint")
    assert found, "the `resilint` console script is not installed (pip install -e '.[test]')"
    return found


def test_installed_command_checks_examples_in_parallel():
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR",)}
    proc = subprocess.run(
        [resilint_command(), "check", "examples", "--format", "json", "--jobs", "2"],
        cwd=REPO, capture_output=True, text=True, timeout=120, env=env,
    )
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert {"RES101", "RES102"} <= {f["code"] for f in report["findings"]}
    assert all(not f["path"].startswith("/") for f in report["findings"])


def test_text_output_to_a_pipe_has_no_colour_and_python_m_works(tmp_path):
    (tmp_path / "a.py").write_text("import requests\nrequests.get(u)\n")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    proc = subprocess.run(
        [sys.executable, "-m", "resilint", "check", "a.py"], cwd=tmp_path, capture_output=True, text=True,
        timeout=120, env=env,
    )
    assert proc.returncode == 1
    assert proc.stdout.startswith("a.py:2:1: RES101")
    assert "\x1b[" not in proc.stdout
