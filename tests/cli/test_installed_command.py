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


WARNED_COMMANDS = [
    (["--version"], 0), (["rules"], 0), (["rule", "RES101"], 0), (["codemods"], 0),
    (["check", "."], 1), (["check", "."], 1),  # the second run reads the cache the first wrote
    (["check", "--format", "json", "--no-cache", "."], 1), (["check", "--format", "sarif", "--no-cache", "."], 1),
    (["check", "--statistics", "--no-cache", "--jobs", "2", "."], 1),
    (["fix", "--diff", "--no-cache", "."], 1), (["fix", "--no-cache", "."], 0),
]


def test_warnings_turned_into_errors_change_nothing(tmp_path):
    """``PYTHONWARNINGS=error`` (a CI's setting, or ``python -W error``) turns every warning
    resilint or its dependencies raise into an exception: every command still ends normally.
    The project has more files than a run checks alone, so worker processes start too."""
    for index in range(20):
        (tmp_path / f"m{index}.py").write_text(
            f"import re\nimport requests\n\nPATTERN = re.compile('\\d+')  # an invalid escape: the file's, not ours\n\n"
            f"def f{index}(u):\n    return requests.get(u)\n"
        )
    (tmp_path / "requirements.txt").write_text("requests\nresilint-runtime\n")  # its fixes may use the runtime
    env = {**{k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PYTHONWARNINGS")}, "PYTHONWARNINGS": "error"}
    for args, expected in WARNED_COMMANDS:
        proc = subprocess.run(
            [resilint_command(), *args], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env,
        )
        assert "Traceback" not in proc.stderr and "Warning" not in proc.stderr, (args, proc.stderr)
        assert proc.returncode == expected, (args, proc.stderr)
        assert proc.stdout or args[0] == "fix", args
    assert "timeout=" in (tmp_path / "m0.py").read_text()
