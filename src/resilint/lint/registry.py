"""Rule registry by discovery: every ``Rule`` subclass in a module under ``resilint.rules``;
whether a rule is fixable follows from the codemods' declarations, which the catalog reads
without importing them (the engine never imports the codemods)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import lru_cache
from typing import Dict, Type

from resilint.lint.catalog import rule_fixability
from resilint.lint.rule import Rule


@lru_cache(maxsize=None)
def all_rules() -> Dict[str, Type[Rule]]:
    """Code → rule class, sorted by code."""
    import resilint.rules as package

    found: Dict[str, Type[Rule]] = {}
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Rule) and obj is not Rule and obj.__module__ == module.__name__:
                if getattr(obj, "code", None) is None:
                    continue
                if obj.code in found and found[obj.code] is not obj:
                    raise RuntimeError(
                        f"rule code {obj.code} is defined twice: "
                        f"{found[obj.code].__module__} and {obj.__module__}"
                    )
                found[obj.code] = obj
    fixable = rule_fixability()
    for code, rule in found.items():
        rule.fixable = fixable.get(code)
    return dict(sorted(found.items()))
