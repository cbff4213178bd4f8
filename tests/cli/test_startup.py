"""Commands that only print what resilint declares start without importing LibCST (about a
second of CPU): the version, the rule list, a rule's documentation, the codemod list, help."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

# Runs one command as the ``resilint`` script does, then says which modules it imported.
_RUN_AND_LIST_MODULES = """
import json, sys
from resilint.cli import main
status = main(sys.argv[1:], standalone_mode=False)
sys.stdout.flush()
print(json.dumps({"status": status or 0, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def imported_by(*args: str) -> list:
    proc = subprocess.run(
        [sys.executable, "-c", _RUN_AND_LIST_MODULES, *args], cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report["status"] == 0, proc.stderr
    assert proc.stdout.strip()
    return report["modules"]


@pytest.mark.parametrize(
    "args",
    [["--version"], ["version"], ["rules"], ["rules", "--format", "json"], ["rule", "RES101"],
     ["rule", "missing-timeout"], ["codemods"], ["--help"], ["check", "--help"]],
    ids=lambda args: " ".join(args),
)
def test_commands_that_analyse_no_code_do_not_import_libcst(args):
    modules = imported_by(*args)
    assert not [m for m in modules if m == "libcst" or m.startswith("libcst.")]
    # nor the language server and its protocol libraries (``resilint server`` imports them)
    assert not [m for m in modules if m.split(".")[0] in ("pygls", "lsprotocol") or m.startswith("resilint.server")]


def test_the_guard_sees_libcst_when_a_command_imports_it():
    """The same measure on ``check``, which must import LibCST: the test above can fail."""
    proc_args = ["check", "--no-cache", "--exit-zero", "examples"]
    assert "libcst" in imported_by(*proc_args)


def test_a_run_answered_by_the_cache_imports_nothing_that_analyses_code(tmp_path):
    """A warm check prints what the cache holds: no LibCST, no rule, no codemod, no fixing
    layer is imported (the same command cold imports them, as the guard above shows)."""
    (tmp_path / "app.py").write_text("import requests\nrequests.get('https://a.example')\n")
    (tmp_path / "requirements.txt").write_text("resilint-runtime\n")  # RES101's fix is the runtime's: edits to compute
    cache = str(tmp_path / "cache")
    for output in ("text", "json"):
        args = ["check", "--exit-zero", "--cache-dir", cache, "--format", output, str(tmp_path / "app.py")]
        cold = imported_by(*args)
        warm = imported_by(*args)
        assert "libcst" in cold
        assert not [m for m in warm if m.split(".")[0] == "libcst" or m.startswith(("resilint.rules", "resilint.codemods", "resilint.fixing"))], output
