"""Baselines: record today's findings once, then report only new ones.

Findings are matched by fingerprint (rule, path and the text of the flagged line, not its
number), so code that moves within a file does not bring old findings back. Paths are taken
relative to the baseline file's directory, with symlinked directories resolved, so a run from
another working directory, or through a symlink, matches the same entries. Each recorded
fingerprint absorbs as many findings as it was recorded for: a second identical problem added
next to a baselined one is still reported. RES000 is never recorded nor hidden by a baseline.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import replace
from typing import Callable, Dict, List, Sequence

from resilint import __version__
from resilint.lint.config import ConfigError
from resilint.lint.files import write_file
from resilint.lint.finding import ANALYSIS_ERROR, Finding
from resilint.lint.source import SourceError, read_bytes

BASELINE_VERSION = 1


def _anchoring(baseline_path: str) -> Callable[[Finding], Finding]:
    """Findings with their paths relative to the baseline's directory. Directories are resolved
    (realpath): a baseline or a file named through a symlinked directory is the same baseline
    or file. A file's own name is kept: a symlinked file is reported under its own name."""
    resolved: Dict[str, str] = {}

    def real_directory(path: str) -> str:
        directory = os.path.dirname(os.path.abspath(path))
        if directory not in resolved:
            resolved[directory] = os.path.realpath(directory)
        return resolved[directory]

    base = real_directory(baseline_path)

    def anchored(finding: Finding) -> Finding:
        located = os.path.join(real_directory(finding.path), os.path.basename(finding.path))
        return replace(finding, path=os.path.relpath(located, base).replace(os.sep, "/"))

    return anchored


def write_baseline(path: str, findings: Sequence[Finding]) -> List[Finding]:
    """Record ``findings`` in ``path``; returns the ones never recorded, which stay reported:
    RES000 (a file that cannot be analysed must not stay hidden for good)."""
    recorded = [f for f in findings if f.code != ANALYSIS_ERROR]
    anchored = map(_anchoring(path), sorted(recorded, key=lambda f: f.sort_key))
    document = {
        "version": BASELINE_VERSION,
        "tool": f"resilint {__version__}",
        "findings": [
            {"fingerprint": f.fingerprint(), "code": f.code, "path": f.path, "line": f.line, "message": f.message}
            for f in anchored
        ],
    }
    write_file(path, (json.dumps(document, indent=2) + "\n").encode("utf-8"))
    return [f for f in findings if f.code == ANALYSIS_ERROR]


def read_baseline(path: str) -> Counter:
    try:
        document = json.loads(read_bytes(path).decode("utf-8"))
    except SourceError as exc:  # read_bytes: never opens a FIFO or a device, which could hang
        raise ConfigError(f"{path}: cannot read the baseline: {exc.reason}") from None
    except ValueError as exc:  # UnicodeDecodeError included
        raise ConfigError(f"{path}: the baseline is not valid JSON: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not a resilint baseline (its JSON is nested too deeply)") from None
    if not isinstance(document, dict) or document.get("version") != BASELINE_VERSION:
        raise ConfigError(f"{path}: not a resilint baseline (version {BASELINE_VERSION} expected)")
    try:
        # Entries for RES000 (written by older versions) are ignored: they would hide for good
        # a file that cannot be analysed.
        return Counter(
            entry["fingerprint"] for entry in document["findings"] if entry.get("code") != ANALYSIS_ERROR
        )
    except (KeyError, TypeError, AttributeError):
        raise ConfigError(f"{path}: a baseline entry has no fingerprint") from None


def new_findings(findings: Sequence[Finding], baseline: Counter, baseline_path: str) -> List[Finding]:
    remaining = Counter(baseline)
    anchored = _anchoring(baseline_path)
    kept = []
    for finding in findings:
        fingerprint = anchored(finding).fingerprint()
        if finding.code != ANALYSIS_ERROR and remaining[fingerprint] > 0:
            remaining[fingerprint] -= 1
        else:
            kept.append(finding)
    return kept
