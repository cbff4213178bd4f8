"""GitLab Code Quality report (the Code Climate subset GitLab reads): a JSON array of issues.

Each issue has ``description``, ``check_name``, ``fingerprint``, ``severity`` and
``location: {path, lines: {begin, end}}``. GitLab keys issues on ``fingerprint`` (it shows one
issue per fingerprint and compares them between the base and head of a merge request), so every
fingerprint in a report is unique: the first finding with a given ``Finding.fingerprint()``
keeps it unchanged, and the n-th further finding with the same one (the same rule on an
identical line of the same file) gets a hash of that fingerprint and n. Since the fingerprint is
built from the rule, the path and the text of the line, not the line number, an issue keeps its
identity when lines above it are added or removed.

Paths are relative to the repository (the git work tree around the working directory, else the
working directory) and normalised: ``../app/x.py`` checked from ``src/`` is ``app/x.py``, as
GitLab matches it against the repository's files. A file outside it keeps its absolute path.

Analysis errors (a path that could not be checked) are reported as issues too, with
``check_name`` ``analysis-error`` and severity ``critical``, so they are not lost in CI.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Dict, List, Mapping, TextIO, Type

from resilint.lint.finding import RunResult
from resilint.lint.report import ReportOptions, SourcePaths, UniqueFingerprints
from resilint.lint.rule import Rule

FORMAT = "gitlab"

SEVERITIES = {"error": "critical", "warning": "major", "note": "info"}
ERROR_CHECK_NAME = "analysis-error"


def _error_fingerprint(path: str, message: str) -> str:
    digest = hashlib.sha256()
    for part in (ERROR_CHECK_NAME, path, message):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def render(
    result: RunResult, rules: Mapping[str, Type[Rule]], out: TextIO, options: ReportOptions
) -> None:
    paths = SourcePaths(options)
    unique = UniqueFingerprints()
    issues: List[Dict[str, Any]] = []
    for f in sorted(result.findings, key=lambda f: f.sort_key):
        issues.append(
            {
                "description": f"{f.code} {f.message}",
                "check_name": f.code,
                "fingerprint": unique(f.fingerprint()),
                "severity": SEVERITIES.get(f.severity, "major"),
                "location": {
                    "path": paths.in_repository(f.path),
                    "lines": {"begin": max(f.line, 1), "end": max(f.end_line, f.line, 1)},
                },
            }
        )
    for error in result.errors:
        path = paths.in_repository(error.path)
        issues.append(
            {
                "description": f"resilint could not check this path: {error.message}",
                "check_name": ERROR_CHECK_NAME,
                "fingerprint": unique(_error_fingerprint(path, error.message)),
                "severity": "critical",
                "location": {"path": path, "lines": {"begin": 1, "end": 1}},
            }
        )
    out.write(json.dumps(issues, indent=2, ensure_ascii=True))
    out.write("\n")
