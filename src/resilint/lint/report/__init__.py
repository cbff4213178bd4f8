"""Output formats. One module per format; each defines ``FORMAT`` and ``render``.

Formats are found by discovery (every module in this package with a ``FORMAT``), so adding a
format is adding a module.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable, Dict, Mapping, TextIO, Type

from resilint.lint.finding import RunResult
from resilint.lint.rule import Rule

Renderer = Callable[[RunResult, Mapping[str, Type[Rule]], TextIO, "ReportOptions"], None]


@dataclass(frozen=True)
class ReportOptions:
    color: bool = False  # decided by the CLI: a TTY, and NO_COLOR unset
    statistics: bool = False  # print per-rule counts (text) instead of / besides findings
    show_source: bool = True  # code frames in text output
    root: str = "."  # finding paths are relative to this directory (the working directory)
    progress: bool = False


def reporters() -> Dict[str, Renderer]:
    found: Dict[str, Renderer] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        fmt = getattr(module, "FORMAT", None)
        if fmt:
            found[fmt] = module.render
    return dict(sorted(found.items()))
