"""SARIF 2.1.0, for GitHub code scanning and other SARIF consumers.

One run. ``tool.driver.rules`` lists every known rule (not only those with findings), sorted by
code, so ``ruleIndex`` is stable for a given rule set. Results point at files with URIs relative
to ``%SRCROOT%`` (``run.originalUriBaseIds`` gives its absolute ``file:`` URI), as GitHub
requires for alerts to stay attached to the same file across runs.

``partialFingerprints.primaryLocationLineHash`` is ``Finding.fingerprint()``: a hash of the rule
code, the path and the whitespace-normalised text of the first flagged line — not its number —
so a result keeps its identity (and a dismissed alert stays dismissed) when unrelated lines above
it are inserted or removed. Two findings of one rule on identical lines of one file would share
that value; the second and later ones get a deterministic hash of it and their occurrence number
so every result in the run is distinct.
"""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath
from typing import Any, Dict, List, Mapping, Optional, TextIO, Tuple, Type
from urllib.parse import quote

import resilint
from resilint.lint.finding import Finding, RunResult
from resilint.lint.report import ReportOptions, UniqueFingerprints, posix_path
from resilint.lint.rule import Rule

FORMAT = "sarif"

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://github.com/resilint/resilint"
HELP_URI = "https://github.com/resilint/resilint/blob/main/docs/rules/{code}.md"
SRCROOT = "%SRCROOT%"
LEVELS = {"error": "error", "warning": "warning", "note": "note"}

def _level(severity: str) -> str:
    return LEVELS.get(severity, "warning")


# --- locations -------------------------------------------------------------------------------


def _root_uri(root: str) -> str:
    uri = Path(root).resolve().as_uri()
    return uri if uri.endswith("/") else uri + "/"


def _artifact_location(path: str, root: str) -> Dict[str, Any]:
    """A URI relative to %SRCROOT% where possible, else an absolute ``file:`` URI."""
    native = path
    posix = posix_path(path)
    if os.path.isabs(native):
        try:
            relative = os.path.relpath(native, os.path.abspath(root))
        except ValueError:  # another drive on Windows
            relative = None
        if relative is None or relative == ".." or relative.startswith(".." + os.sep):
            return {"uri": Path(native).as_uri()}
        posix = posix_path(relative)
    posix = str(PurePosixPath(posix)) if posix else "."
    # Percent-encode what a URI may not contain (spaces, '%', '#', '?', non-ASCII).
    # surrogateescape: a file name that is not valid UTF-8 gets its original bytes encoded.
    uri = quote(posix, safe="/-._~!$&'()*+,;=@", errors="surrogateescape")
    return {"uri": uri, "uriBaseId": SRCROOT}


def _region(line: int, column: int, end_line: int, end_column: int) -> Dict[str, int]:
    line = max(line, 1)
    column = max(column, 1)
    end_line = max(end_line, line)
    end_column = max(end_column, 1)
    if end_line == line and end_column < column:
        end_column = column
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}


def _physical(path: str, root: str, region: Dict[str, int]) -> Dict[str, Any]:
    return {"artifactLocation": _artifact_location(path, root), "region": region}


# --- rules -----------------------------------------------------------------------------------


def _family(rule: Type[Rule]) -> Optional[str]:
    parts = getattr(rule, "__module__", "").split(".")
    if len(parts) >= 3 and parts[0] == "resilint" and parts[1] == "rules":
        return parts[2]
    return None


def _descriptor(rule: Type[Rule]) -> Dict[str, Any]:
    summary = rule.summary() or rule.message or rule.name
    sections = rule.sections()
    full = sections.get("What it does") or summary
    documentation = rule.documentation() or summary
    tags = ["reliability"]
    family = _family(rule)
    if family:
        tags.append(family)
    fixable = getattr(rule, "fixable", None)
    properties: Dict[str, Any] = {"tags": tags}
    if fixable:
        properties["fixable"] = fixable
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": full},
        "help": {"text": documentation, "markdown": documentation},
        "helpUri": HELP_URI.format(code=rule.code),
        "defaultConfiguration": {"level": _level(rule.severity)},
        "properties": properties,
    }


def _stub_descriptor(finding: Finding) -> Dict[str, Any]:
    """For a finding whose code is not a known rule (e.g. an engine-level code)."""
    return {
        "id": finding.code,
        "name": finding.name,
        "shortDescription": {"text": finding.name or finding.code},
        "defaultConfiguration": {"level": _level(finding.severity)},
        "properties": {"tags": ["reliability"]},
    }


def _rule_table(
    rules: Mapping[str, Type[Rule]], findings: List[Finding]
) -> Tuple[List[Dict[str, Any]], Dict[str, int]]:
    descriptors: Dict[str, Dict[str, Any]] = {code: _descriptor(rule) for code, rule in rules.items()}
    for f in findings:
        if f.code not in descriptors:
            descriptors[f.code] = _stub_descriptor(f)
    ordered = [descriptors[code] for code in sorted(descriptors)]
    return ordered, {d["id"]: i for i, d in enumerate(ordered)}


# --- results ---------------------------------------------------------------------------------


def _fix(finding: Finding, root: str) -> Optional[Dict[str, Any]]:
    fix = finding.fix
    if fix is None or not fix.edits:
        return None  # a fix without concrete edits cannot be expressed as a SARIF fix
    replacements = [
        {
            "deletedRegion": _region(e.line, e.column, e.end_line, e.end_column),
            "insertedContent": {"text": e.content},
        }
        for e in fix.edits
    ]
    return {
        "description": {"text": f"{fix.description} ({fix.applicability} fix)"},
        "artifactChanges": [
            {"artifactLocation": _artifact_location(finding.path, root), "replacements": replacements}
        ],
        "properties": {"applicability": fix.applicability},
    }


def _result(finding: Finding, rule_index: int, fingerprint: str, root: str) -> Dict[str, Any]:
    region = _region(finding.line, finding.column, finding.end_line, finding.end_column)
    result: Dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _level(finding.severity),
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": _physical(finding.path, root, region)}],
        "partialFingerprints": {"primaryLocationLineHash": fingerprint},
    }
    if finding.related:
        result["relatedLocations"] = [
            {
                "id": index,
                "physicalLocation": _physical(
                    r.path, root, {"startLine": max(r.line, 1), "startColumn": max(r.column, 1)}
                ),
                "message": {"text": r.message},
            }
            for index, r in enumerate(finding.related, start=1)
        ]
    fix = _fix(finding, root)
    if fix is not None:
        result["fixes"] = [fix]
    return result


def build(result: RunResult, rules: Mapping[str, Type[Rule]], options: ReportOptions) -> Dict[str, Any]:
    """The SARIF log as a dict (``render`` serialises it)."""
    root = options.root
    findings = sorted(result.findings, key=lambda f: f.sort_key)
    descriptors, index = _rule_table(rules, findings)
    unique = UniqueFingerprints()
    results = [_result(f, index[f.code], unique(f.fingerprint()), root) for f in findings]

    notifications = []
    for error in result.errors:
        notification: Dict[str, Any] = {"level": "error", "message": {"text": error.message}}
        if error.path:
            notification["locations"] = [
                {"physicalLocation": {"artifactLocation": _artifact_location(error.path, root)}}
            ]
        notifications.append(notification)
    invocation: Dict[str, Any] = {"executionSuccessful": not result.errors}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications

    run: Dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "resilint",
                "informationUri": INFORMATION_URI,
                "version": resilint.__version__,
                "rules": descriptors,
            }
        },
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": _root_uri(root)}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def render(
    result: RunResult, rules: Mapping[str, Type[Rule]], out: TextIO, options: ReportOptions
) -> None:
    out.write(json.dumps(build(result, rules, options), indent=2, ensure_ascii=True))
    out.write("\n")
