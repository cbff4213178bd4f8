"""The pre-commit hook, run by the real pre-commit against this repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow


def git(*args, cwd):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


@pytest.fixture
def project(tmp_path):
    work = tmp_path / "project"
    work.mkdir()
    git("init", "-q", cwd=work)
    git("config", "user.email", "dev@example.com", cwd=work)
    git("config", "user.name", "Dev", cwd=work)
    (work / "client.py").write_text("import requests\n\n\ndef fetch(url):\n    return requests.get(url)\n")
    git("add", "client.py", cwd=work)
    return work


def pre_commit(project, home, hook="resilint"):
    if not (REPO / ".git").exists():
        pytest.fail("the pre-commit test needs this repository as a git checkout")
    executable = shutil.which("pre-commit") or os.path.join(os.path.dirname(sys.executable), "pre-commit")
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [executable, "try-repo", str(REPO), hook, "--files", "client.py"],
        cwd=project, capture_output=True, text=True, env=env, timeout=900,
    )


def test_hook_fails_on_the_finding_and_passes_once_fixed(project, tmp_path):
    home = tmp_path / "pre-commit-home"
    failing = pre_commit(project, home)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "client.py:5:12: RES101" in failing.stdout
    assert "requests waits forever by default" in failing.stdout

    (project / "client.py").write_text(
        "import requests\n\n\ndef fetch(url, timeout):\n    return requests.get(url, timeout=timeout)\n"
    )
    git("add", "client.py", cwd=project)
    passing = pre_commit(project, home)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout


def test_fix_hook_fixes_the_file_fails_once_and_passes_after(project, tmp_path):
    home = tmp_path / "pre-commit-home"
    fixing = pre_commit(project, home, "resilint-fix")
    assert fixing.returncode == 1, fixing.stdout + fixing.stderr
    assert "files were modified by this hook" in fixing.stdout
    assert "Fixed 1 finding in 1 file (RES101: 1); 0 findings remaining." in fixing.stdout
    assert (project / "client.py").read_text() == (
        "import requests\nfrom resilint.runtime import timeout\n\n\n"
        "def fetch(url):\n    return requests.get(url, timeout=timeout(read=10, connect=3.05))\n"
    )
    git("add", "client.py", cwd=project)
    passing = pre_commit(project, home, "resilint-fix")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout
