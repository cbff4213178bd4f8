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


def test_summaries_unpacked_together_share_equal_values_and_keep_their_own(tmp_path):
    """The main process holds every summary until the project pass: a value two files pass is
    held once, and each summary still reads back exactly as its file made it."""
    from resilint.lint.summary import PackedSummary, unpack_all

    checker = Checker(Settings(root=str(tmp_path)), list(all_rules()))
    made = []
    for name in ("billing.py", "orders.py"):
        path = tmp_path / name
        path.write_text(
            "import requests\n"
            "from shared import send\n\n"
            "def submit(url, retry=True, attempts=1):\n"
            '    send("POST", url)\n'
            "    return requests.post(url, timeout=5)\n",
            encoding="utf-8",
        )
        made.append(checker.check_file(None, str(path)).summary)
    billing, orders = unpack_all([PackedSummary.pack(summary) for summary in made])
    assert [billing, orders] == made
    calls = [next(c for c in s.functions[f"{s.module}.submit"].calls if c.target == "shared.send") for s in (billing, orders)]
    assert calls[0].passed[0] == (0, ("str", "POST"))
    assert calls[0].passed[0][1] is calls[1].passed[0][1]
    assert calls[0].arguments is calls[1].arguments  # the same shape: two positional arguments
    defaults = billing.functions["billing.submit"].defaults
    assert defaults == {"retry": ("bool", True), "attempts": ("int", 1)}
    assert type(defaults["retry"][1]) is bool and type(defaults["attempts"][1]) is int


def test_a_choice_guard_survives_the_cache(tmp_path):
    path = tmp_path / "choice.py"
    path.write_text(
        "import requests\n\n"
        "def refresh(workout, is_creation=False, elevation=True, mode=None):\n"
        "    if is_creation or (elevation and mode in ('gpx', 'fit')):\n"
        "        requests.post('https://elevation.example', json={}, timeout=5)\n",
        encoding="utf-8",
    )
    checker = Checker(Settings(root=str(tmp_path)), list(all_rules()))
    summary = checker.check_file(None, str(path)).summary
    guards = [guard for function in summary.functions.values() for call in function.calls for guard in call.guards]
    assert [guard[1] for guard in guards] == ["any"]
    stored = json.loads(json.dumps(summary.to_json()))
    assert ModuleSummary.from_json(stored) == summary
