"""Baselines: record today's findings once, then report only new ones.

Findings are matched by fingerprint (rule, path and the text of the flagged line, not its
number), so code that moves within a file does not bring old findings back. Paths are taken
relative to the baseline file's directory, so a run from another working directory matches
the same entries. Each recorded
fingerprint absorbs as many findings as it was recorded for: a second identical problem added
next to a baselined one is still reported.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from dataclasses import replace
from typing import List, Sequence

from resilint import __version__
from resilint.lint.config import ConfigError
from resilint.lint.finding import Finding

BASELINE_VERSION = 1


def _anchored(finding: Finding, baseline_path: str) -> Finding:
    base = os.path.dirname(os.path.abspath(baseline_path))
    relative = os.path.relpath(os.path.abspath(finding.path), base).replace(os.sep, "/")
    return replace(finding, path=relative)


def write_baseline(path: str, findings: Sequence[Finding]) -> None:
    anchored = [_anchored(f, path) for f in sorted(findings, key=lambda f: f.sort_key)]
    document = {
        "version": BASELINE_VERSION,
        "tool": f"resilint {__version__}",
        "findings": [
            {"fingerprint": f.fingerprint(), "code": f.code, "path": f.path, "line": f.line, "message": f.message}
            for f in anchored
        ],
    }
    directory = os.path.dirname(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(document, handle, indent=2)
        handle.write("\n")
    os.replace(temporary, path)


def read_baseline(path: str) -> Counter:
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the baseline: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ConfigError(f"{path}: the baseline is not valid JSON: {exc}") from None
    if not isinstance(document, dict) or document.get("version") != BASELINE_VERSION:
        raise ConfigError(f"{path}: not a resilint baseline (version {BASELINE_VERSION} expected)")
    try:
        return Counter(entry["fingerprint"] for entry in document["findings"])
    except (KeyError, TypeError):
        raise ConfigError(f"{path}: a baseline entry has no fingerprint") from None


def new_findings(findings: Sequence[Finding], baseline: Counter, baseline_path: str) -> List[Finding]:
    remaining = Counter(baseline)
    kept = []
    for finding in findings:
        fingerprint = _anchored(finding, baseline_path).fingerprint()
        if remaining[fingerprint] > 0:
            remaining[fingerprint] -= 1
        else:
            kept.append(finding)
    return kept
