"""Rule registry by discovery: every ``Rule`` subclass in a module under ``resilint.rules``;
whether a rule is fixable follows from the codemods' declarations, which the catalog reads
without importing them (the engine never imports the codemods)."""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, Type

from resilint.lint.catalog import discover_rule_classes, rule_fixability
from resilint.lint.rule import Rule


@lru_cache(maxsize=None)
def all_rules() -> Dict[str, Type[Rule]]:
    """Code → rule class, sorted by code."""
    found = discover_rule_classes()
    fixable = rule_fixability()
    for code, rule in found.items():
        rule.fixable = fixable.get(code)
    return found
