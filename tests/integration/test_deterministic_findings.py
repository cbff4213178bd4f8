"""The same tree gives the same findings whatever Python's string hashing is: the project pass
must not depend on the order of a set or on which question its caches were asked first (the
callers of a ``__call__`` once made a finding on a real application come and go with the
hash seed)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECTS = Path(__file__).resolve().parents[1] / "rules" / "projects"


def findings(tree: Path, seed: str) -> list:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    proc = subprocess.run(
        [sys.executable, "-m", "resilint", "check", "--select", "ALL", "--no-cache", "--format", "json", "."],
        cwd=tree, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return sorted(
        (f["path"], f["line"], f["column"], f["code"], f["message"]) for f in json.loads(proc.stdout)["findings"]
    )


@pytest.mark.slow
def test_findings_do_not_depend_on_the_hash_seed(tmp_path):
    # every fixture project in one tree: many modules, names and classes for the caches to meet
    tree = tmp_path / "projects"
    shutil.copytree(PROJECTS, tree)
    first = findings(tree, "1")
    assert len(first) > 100
    for seed in ("2", "3"):
        assert findings(tree, seed) == first
