"""Summaries round-trip through the cache's JSON exactly, whatever the library layer put in."""

from __future__ import annotations

import json

import pytest

from resilint.lint.checker import Checker
from resilint.lint.config import Settings
from resilint.lint.registry import all_rules
from resilint.lint.summary import ModuleSummary

_EXAMPLES = [
    (rule.code, index, example.code)
    for rule in all_rules().values()
    for index, example in enumerate(rule.valid_examples() + rule.invalid_examples())
]


@pytest.mark.parametrize(("code", "index", "source"), _EXAMPLES, ids=[f"{c}-{i}" for c, i, _ in _EXAMPLES])
def test_every_rule_example_summary_survives_the_cache(code, index, source, tmp_path):
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    checker = Checker(Settings(root=str(tmp_path)), list(all_rules()))
    summary = checker.check_file(None, str(path)).summary
    if summary is None:
        assert code == "RES000"  # its examples are files that cannot be analysed
        return
    stored = json.loads(json.dumps(summary.to_json()))
    assert ModuleSummary.from_json(stored) == summary


@pytest.mark.parametrize("stored", [None, {}, [], [1], "text", {"version": 1, "functions": {}}, [2, "m", "p", [["f"]]]])
def test_anything_else_is_not_a_summary(stored):
    assert ModuleSummary.from_json(stored) is None
