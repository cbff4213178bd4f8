"""One meta-test over the whole registry (as in refurb/pyupgrade)."""

from __future__ import annotations

import re

import pytest

from resilint.lint.registry import all_rules
from resilint.lint.rule import FIX_SECTION, REQUIRED_SECTIONS
from resilint.lint.rule_docs import render_all, with_rules_table

from tests.conftest import REPO

RULES = list(all_rules().values())


def test_registry_finds_rules_in_every_family():
    codes = set(all_rules())
    assert {"RES000", "RES001", "RES101", "RES102"} <= codes


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_metadata(rule):
    assert re.fullmatch(r"RES\d{3}", rule.code)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.name)
    assert rule.severity in ("error", "warning", "note")
    assert rule.fixable in (None, "safe", "unsafe")
    assert rule.summary().endswith("."), "the first docstring line is a one-sentence summary"
    sections = rule.sections()
    for section in REQUIRED_SECTIONS:
        assert sections.get(section), f"{rule.code} lacks a '## {section}' section"
    if rule.fixable:
        assert sections.get(FIX_SECTION), f"{rule.code} is fixable but has no '## {FIX_SECTION}'"
    assert rule.valid_examples(), f"{rule.code} has no VALID examples"
    assert rule.invalid_examples(), f"{rule.code} has no INVALID examples"


@pytest.mark.parametrize("rule", [r for r in RULES if r.triggers], ids=lambda r: r.code)
def test_prefilter_triggers_cover_every_invalid_example(rule):
    """A file the prefilter skips is never parsed: no true positive may lack a trigger."""
    for example in rule.invalid_examples():
        assert any(t in example.code for t in rule.triggers), example.code


def test_codes_and_names_are_unique():
    names = [r.name for r in RULES]
    assert len(names) == len(set(names))


def test_rule_docs_are_fresh():
    expected = render_all()
    docs = REPO / "docs" / "rules"
    stale = [
        name for name, text in expected.items()
        if not (docs / name).is_file() or (docs / name).read_text(encoding="utf-8") != text
    ]
    extra = sorted(p.name for p in docs.glob("*.md") if p.name not in expected)
    assert not stale and not extra, (
        f"docs/rules is stale ({stale or extra}); run `python -m resilint.lint.rule_docs docs/rules`"
    )


def test_readme_rules_table_is_fresh():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert with_rules_table(readme) == readme, "run `python -m resilint.lint.rule_docs docs/rules`"
