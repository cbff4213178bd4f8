"""LibCST transformers: the fixes behind rules, and migrations to resilint.runtime.

Codemods are found by discovery, like rules: every ``ResilintCodemod`` subclass defined in a
module of this package.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import lru_cache
from typing import Dict, List, Optional, Type

from resilint.codemods.base import ResilintCodemod


@lru_cache(maxsize=None)
def all_codemods() -> Dict[str, Type[ResilintCodemod]]:
    """Name (the module's name, as ``resilint codemod NAME`` takes it) → codemod class."""
    found: Dict[str, Type[ResilintCodemod]] = {}
    for info in pkgutil.iter_modules(__path__, prefix=f"{__name__}."):
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, ResilintCodemod) and obj is not ResilintCodemod and obj.__module__ == module.__name__:
                found[info.name.rsplit(".", 1)[1].replace("_", "-")] = obj
    return dict(sorted(found.items()))


def codemods_for(code: str, target: Optional[str] = None) -> List[Type[ResilintCodemod]]:
    """The codemods that ``resilint fix`` may run for findings of rule ``code`` (writing for fix
    ``target`` when given: "native" or "runtime"), safe ones first."""
    return sorted(
        (
            c for c in all_codemods().values()
            if code in c.CODES and c.RUN_BY_FIX and (target is None or target in c.TARGETS)
        ),
        key=lambda c: c.APPLICABILITY != "safe",
    )
