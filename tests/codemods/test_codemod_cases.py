"""Every before/after pair of tests/codemods/cases.py, through ``resilint fix`` on a real file."""

from __future__ import annotations

import json

import pytest

from tests.codemods.cases import CASES, UNCHANGED

PAIRS = [pytest.param(code, case, id=f"{code}-{case.name}") for code, cases in CASES.items() for case in cases]


def _fix(cli, root, *options):
    return cli(["fix", "--no-cache", *options, "."], root)


@pytest.mark.parametrize(("code", "case"), PAIRS)
def test_fix_turns_before_into_after(cli, tmp_path, code, case):
    target = tmp_path / "example.py"
    target.write_bytes(case.before.encode())
    found = json.loads(cli(["check", "--no-cache", "--format", "json", "."], tmp_path).stdout)["findings"]
    assert code in {f["code"] for f in found}
    chosen = ("--fix-target", case.target)
    if case.unsafe:
        assert _fix(cli, tmp_path, *chosen).exit_code == 1
        assert target.read_bytes() == case.before.encode(), "an unsafe fix needs --unsafe-fixes"
    result = _fix(cli, tmp_path, "--unsafe-fixes", *chosen)
    assert target.read_bytes().decode() == case.after
    assert result.exit_code == 0, result.stderr
    compile(case.after, "example.py", "exec")
    again = _fix(cli, tmp_path, "--unsafe-fixes", *chosen)
    assert again.exit_code == 0 and target.read_bytes().decode() == case.after
    assert "Fixed 0 findings in 0 files" in again.stderr


@pytest.mark.parametrize(("name", "source"), UNCHANGED, ids=[name for name, _ in UNCHANGED])
def test_cases_a_codemod_does_not_rewrite_are_left_as_they_are(cli, tmp_path, name, source):
    target = tmp_path / "example.py"
    target.write_text(source)
    result = _fix(cli, tmp_path, "--unsafe-fixes")
    assert target.read_text() == source
    if not name.endswith("may-hold-the-timeout"):  # not even a finding
        assert result.exit_code == 1
