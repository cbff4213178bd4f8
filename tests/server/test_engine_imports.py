"""The language server starts without the fixing layer: the codemods (and LibCST's codemod
and matcher modules, half a second of imports) load at the first code action, not before the
first diagnostics."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO

# Checks one file as the server does on ``didOpen``, then (with an argument) asks for its
# fixes as a code action does; says which modules were imported.
_CHECK_AND_LIST_MODULES = """
import json, sys
import resilint.server.server
from resilint.server.engine import ClientSettings, Project, settings_for
path = sys.argv[1]
with open(path, "rb") as handle:
    data = handle.read()
project = Project(settings_for(path, None, ClientSettings()))
findings = project.check({path: data})[path]
if len(sys.argv) > 2:
    project.with_fix_edits(findings, data, path)
print(json.dumps({"findings": len(findings), "modules": sorted(sys.modules)}))
"""
_FIXING = ("resilint.codemods", "resilint.fixing.fix_edits", "resilint.fixing.fixer", "libcst.codemod", "libcst.matchers")


def _imported(tmp_path, *extra: str) -> dict:
    path = tmp_path / "app.py"
    path.write_text("import requests\n\nrequests.get('https://a.example')\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", _CHECK_AND_LIST_MODULES, str(path), *extra],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _fixing(modules) -> list:
    return [m for m in modules if m.startswith(_FIXING)]


def test_checking_an_open_document_imports_no_codemod(tmp_path):
    report = _imported(tmp_path)
    assert report["findings"] == 1
    assert _fixing(report["modules"]) == []


def test_a_code_action_loads_the_codemods(tmp_path):
    """The same measure when a fix is asked for: the test above can fail."""
    assert _fixing(_imported(tmp_path, "--fix")["modules"])
