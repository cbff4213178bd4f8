"""Machine-readable output: ``{"version": 1, "findings": [...], "errors": [...]}``; with
``--statistics``, ``"statistics": [{"code", "name", "count", "fixable"}, ...]`` replaces
``"findings"`` (most frequent first).

The shape of each finding is ``Finding.to_json()`` (DESIGN.md §4); ``version`` changes only when
that shape changes incompatibly.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Dict, Mapping, TextIO, Type

from resilint.lint.finding import RunResult
from resilint.lint.report import ReportOptions
from resilint.lint.rule import Rule

FORMAT = "json"
VERSION = 1
SHOWS_FIX_EDITS = True  # each fix with its edits: check computes them for this format


def render(
    result: RunResult, rules: Mapping[str, Type[Rule]], out: TextIO, options: ReportOptions
) -> None:
    document: Dict[str, Any] = {"version": VERSION}
    if options.statistics:
        counts = Counter(f.code for f in result.findings)
        document["statistics"] = [
            {"code": code, "name": rules[code].name if code in rules else "", "count": count,
             "fixable": sum(1 for f in result.findings if f.code == code and f.fix is not None)}
            for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        ]
    else:
        document["findings"] = [f.to_json() for f in sorted(result.findings, key=lambda f: f.sort_key)]
    document["errors"] = [e.to_json() for e in result.errors]
    # ensure_ascii keeps the output writable to any stream encoding (a Windows console, a
    # file opened with the locale's encoding) and represents undecodable file names losslessly.
    out.write(json.dumps(document, indent=2, ensure_ascii=True))
    out.write("\n")
