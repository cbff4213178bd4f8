"""The meta-test over every codemod (as the rule registry has one): what it fixes exists, a
fixable rule has before/after pairs and documents the fix's applicability."""

from __future__ import annotations

import subprocess
import sys

import pytest

from resilint.codemods import all_codemods, codemods_for
from resilint.lint.registry import all_rules
from resilint.lint.rule import FIX_SECTION

from tests.codemods.cases import CASES

CODEMODS = list(all_codemods().items())
FIXABLE = [rule for rule in all_rules().values() if rule.fixable]


@pytest.mark.parametrize(("name", "codemod"), CODEMODS, ids=[name for name, _ in CODEMODS])
def test_a_codemod_fixes_real_rules_and_says_how(name, codemod):
    assert codemod.DESCRIPTION
    assert codemod.APPLICABILITY in ("safe", "unsafe")
    for code in codemod.CODES:
        assert code in all_rules(), f"{name} fixes {code}, which is no rule"


def test_fixable_follows_from_the_codemods():
    for code, rule in all_rules().items():
        found = codemods_for(code)
        assert rule.fixable == (found[0].APPLICABILITY if found else None), code
    assert {r.code for r in FIXABLE} >= {"RES101", "RES102", "RES103"}


@pytest.mark.parametrize("rule", FIXABLE, ids=lambda r: r.code)
def test_a_fixable_rule_has_before_after_pairs_and_documents_its_fix(rule):
    assert CASES.get(rule.code), f"{rule.code} is fixable but tests/codemods/cases.py has no pair for it"
    safety = rule.sections().get(FIX_SECTION, "")
    for codemod in codemods_for(rule.code):
        name = next(n for n, c in all_codemods().items() if c is codemod)
        assert f"`{name}`" in safety, f"{rule.code}'s {FIX_SECTION} does not name the codemod {name}"
        assert f"**{codemod.APPLICABILITY}**" in safety, f"{rule.code}'s {FIX_SECTION} does not say it is {codemod.APPLICABILITY}"


@pytest.mark.slow
def test_a_codemod_runs_standalone_with_libcst_tool(tmp_path):
    target = tmp_path / "client.py"
    target.write_text("import requests\n\n\ndef fetch(u, timeout):\n    return requests.get(u, timeout=None)\n")
    # -x: the command is a module.Class path, not one from a .libcst.codemod.yaml's modules
    module = "resilint.codemods.add_timeout.AddTimeout"
    done = subprocess.run(
        [sys.executable, "-m", "libcst.tool", "codemod", "-x", module, "--no-format", str(target)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # no project around it declares resilint-runtime: the native form, a named (connect, read)
    assert target.read_text() == (
        "import requests\n\nHTTP_TIMEOUT = (3.05, 10)\n\n\n"
        "def fetch(u, timeout):\n    return requests.get(u, timeout=HTTP_TIMEOUT)\n"
    )
