"""SARIF 2.1.0, for GitHub code scanning and other SARIF consumers.

One run. ``tool.driver.rules`` lists every known rule (not only those with findings), sorted by
code, so ``ruleIndex`` is stable for a given rule set. Each rule's ``fullDescription`` is the
start of its "What it does" section, within GitHub's 1,024 characters; its whole documentation
is in ``help``. ``properties`` carry ``precision`` and ``problem.severity``, which code
scanning sorts and filters alerts by.

Results point at files with URIs relative to ``%SRCROOT%``, the git work tree around the
working directory (else the working directory itself; ``run.originalUriBaseIds`` gives its
absolute ``file:`` URI): normalised, so ``../app/x.py`` checked from ``src/`` is ``app/x.py``,
the path code scanning matches against the repository. A file outside it gets an absolute
``file:`` URI.

``partialFingerprints.primaryLocationLineHash`` is computed from the file's text exactly as
GitHub's upload action computes it (``line_hash``), so code scanning tracks an alert across
commits and the action has nothing to correct; a file that cannot be read at report time gets
none, and the action computes it. Related locations are linked from the message text
(``[DB scope: `with conn:`](1)``), which is how GitHub shows them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, TextIO, Tuple, Type
from urllib.parse import quote

import resilint
from resilint.lint.finding import Finding, Related, RunResult
from resilint.lint.report import ReportOptions, SourcePaths, read_source
from resilint.lint.line_hash import line_hashes
from resilint.lint.rule import Rule, family_of
from resilint.lint.source import python_lines

FORMAT = "sarif"
SHOWS_FIX_EDITS = True  # results carry ``fixes`` with their replacements

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://github.com/resilint/resilint"
HELP_URI = "https://github.com/resilint/resilint/blob/main/docs/rules/{code}.md"
SRCROOT = "%SRCROOT%"
LEVELS = {"error": "error", "warning": "warning", "note": "note"}
# GitHub's ``problem.severity`` names for resilint's severities.
PROBLEM_SEVERITIES = {"error": "error", "warning": "warning", "note": "recommendation"}
DESCRIPTION_LIMIT = 1024  # GitHub truncates or refuses longer shortDescription/fullDescription

def _level(severity: str) -> str:
    return LEVELS.get(severity, "warning")


# --- locations -------------------------------------------------------------------------------


def _root_uri(root: str) -> str:
    uri = Path(root).resolve().as_uri()
    return uri if uri.endswith("/") else uri + "/"


def _artifact_location(path: str, paths: SourcePaths) -> Dict[str, Any]:
    """A URI relative to %SRCROOT% where possible, else an absolute ``file:`` URI."""
    relative = paths.relative(path)
    if relative is None:
        return {"uri": Path(paths.absolute(path)).as_uri()}
    # Percent-encode what a URI may not contain (spaces, '%', '#', '?', non-ASCII).
    # surrogateescape: a file name that is not valid UTF-8 gets its original bytes encoded.
    uri = quote(relative, safe="/-._~!$&'()*+,;=@", errors="surrogateescape")
    return {"uri": uri, "uriBaseId": SRCROOT}


def _region(line: int, column: int, end_line: int, end_column: int) -> Dict[str, int]:
    line = max(line, 1)
    column = max(column, 1)
    end_line = max(end_line, line)
    end_column = max(end_column, 1)
    if end_line == line and end_column < column:
        end_column = column
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}


def _physical(path: str, paths: SourcePaths, region: Dict[str, int]) -> Dict[str, Any]:
    return {"artifactLocation": _artifact_location(path, paths), "region": region}


# --- rules -----------------------------------------------------------------------------------


def _family(rule: Type[Rule]) -> Optional[str]:
    return family_of(rule)


def full_description(rule: Type[Rule]) -> str:
    """The rule's "What it does" section, within GitHub's 1,024 characters: its paragraphs
    while they fit, then of the next one the sentences or list items that fit, and an ellipsis.
    The whole documentation is in ``help``."""
    what = rule.sections().get("What it does") or rule.summary() or rule.message or rule.name
    kept = ""
    for paragraph in what.split("\n\n"):
        joined = f"{kept}\n\n{paragraph}" if kept else paragraph
        if len(joined) <= DESCRIPTION_LIMIT:
            kept = joined
            continue
        room = DESCRIPTION_LIMIT - len(kept) - (2 if kept else 0) - 1  # the ellipsis
        part = _cut(paragraph, room)
        if part:
            kept = f"{kept}\n\n{part}\u2026" if kept else f"{part}\u2026"
        elif not kept:
            kept = paragraph[:room].rstrip() + "\u2026"
        break
    return kept


def _cut(text: str, room: int) -> str:
    """The longest start of ``text`` within ``room`` characters that ends after a sentence or
    before a list item; empty when there is none."""
    ends = [match.end() - 1 for match in re.finditer(r"\.\s", text[: room + 1])]
    ends += [match.start() for match in re.finditer(r"\n- ", text[: room + 3]) if match.start() <= room]
    end = max((e for e in ends if e > 0), default=0)
    return text[:end].rstrip()


def _descriptor(rule: Type[Rule]) -> Dict[str, Any]:
    summary = rule.summary() or rule.message or rule.name
    documentation = rule.documentation() or summary
    tags = ["reliability"]
    family = _family(rule)
    if family:
        tags.append(family)
    fixable = getattr(rule, "fixable", None)
    properties: Dict[str, Any] = {
        "tags": tags,
        "precision": rule.precision,
        "problem.severity": PROBLEM_SEVERITIES.get(rule.severity, "warning"),
    }
    if fixable:
        properties["fixable"] = fixable
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": summary if len(summary) <= DESCRIPTION_LIMIT else _cut(summary, DESCRIPTION_LIMIT - 1) + "\u2026"},
        "fullDescription": {"text": full_description(rule)},
        "help": {"text": documentation, "markdown": documentation},
        "helpUri": HELP_URI.format(code=rule.code),
        "defaultConfiguration": {"level": _level(rule.severity)},
        "properties": properties,
    }


def _stub_descriptor(finding: Finding) -> Dict[str, Any]:
    """For a finding whose code is not a known rule (e.g. an engine-level code)."""
    text = finding.name or finding.code
    return {
        "id": finding.code,
        "name": finding.name,
        "shortDescription": {"text": text},
        "fullDescription": {"text": text},
        "help": {"text": text},
        "defaultConfiguration": {"level": _level(finding.severity)},
        "properties": {"tags": ["reliability"], "problem.severity": PROBLEM_SEVERITIES.get(finding.severity, "warning")},
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


def _fix(finding: Finding, paths: SourcePaths) -> Optional[Dict[str, Any]]:
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
            {"artifactLocation": _artifact_location(finding.path, paths), "replacements": replacements}
        ],
        "properties": {"applicability": fix.applicability},
    }


_LINK_TEXT_ESCAPES = re.compile(r"([\\\[\]])")


def _link(text: str, target: int) -> str:
    """An embedded link (SARIF 3.11.6): brackets and backslashes in its text escaped."""
    escaped = _LINK_TEXT_ESCAPES.sub(r"\\\1", text)
    return f"[{escaped}]({target})"


def linked_message(message: str, related: Tuple[Related, ...]) -> str:
    """The message with each related location linked from its text: where the message names
    the location (``path:line``), that mention becomes the link; the others are listed after
    it, each linked by its own description. Location ``n`` of ``related`` has id ``n``."""
    links: List[Tuple[int, int, int]] = []  # (start, end, id) of the mentions made links
    unmentioned = []
    for number, location in enumerate(related, start=1):
        mention = re.compile(rf"(?<![\w/.\\]){re.escape(f'{location.path}:{location.line}')}(?![\d:])")
        found = next(
            (m for m in mention.finditer(message) if all(m.end() <= a or b <= m.start() for a, b, _ in links)), None
        )
        if found is None:
            unmentioned.append(_link(location.message, number))
        else:
            links.append((found.start(), found.end(), number))
    pieces, done = [], 0
    for start, end, number in sorted(links):
        pieces += [message[done:start], _link(message[start:end], number)]
        done = end
    linked = "".join(pieces) + message[done:]
    if unmentioned:
        linked = linked.rstrip()
        linked += f"{'' if linked.endswith('.') else '.'} See {', '.join(unmentioned)}."
    return linked


class _Lines:
    """Each reported file's text, read once: its GitHub line hashes and its lines."""

    def __init__(self, options: ReportOptions, last_lines: Mapping[str, int]) -> None:
        self.options = options
        self.last_lines = last_lines
        self._hashes: Dict[str, Optional[List[str]]] = {}
        self._lines: Dict[str, Optional[List[str]]] = {}

    def line_hash(self, path: str, line: int) -> Optional[str]:
        if path not in self._hashes:
            data = read_source(path, self.options)
            self._hashes[path] = None if data is None else line_hashes(data, self.last_lines.get(path))
        hashes = self._hashes[path]
        return hashes[line - 1] if hashes is not None and 1 <= line <= len(hashes) else None

    def end_column(self, path: str, line: int, column: int) -> int:
        """Where the text of a related location's line ends (its region ends there)."""
        if path not in self._lines:
            data = read_source(path, self.options)
            self._lines[path] = None if data is None else python_lines(data.decode("utf-8", "replace"))
        lines = self._lines[path]
        if lines is None or not 1 <= line <= len(lines):
            return column + 1
        return max(len(lines[line - 1].rstrip()) + 1, column + 1)


def _related_location(number: int, related: Related, paths: SourcePaths, lines: _Lines) -> Dict[str, Any]:
    line, column = max(related.line, 1), max(related.column, 1)
    region = {"startLine": line, "startColumn": column, "endLine": line, "endColumn": lines.end_column(related.path, line, column)}
    return {"id": number, "physicalLocation": _physical(related.path, paths, region), "message": {"text": related.message}}


def _result(finding: Finding, rule_index: int, paths: SourcePaths, lines: _Lines) -> Dict[str, Any]:
    region = _region(finding.line, finding.column, finding.end_line, finding.end_column)
    result: Dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _level(finding.severity),
        "message": {"text": linked_message(finding.message, finding.related)},
        "locations": [{"physicalLocation": _physical(finding.path, paths, region)}],
    }
    line_hash = lines.line_hash(finding.path, region["startLine"])
    if line_hash is not None:
        result["partialFingerprints"] = {"primaryLocationLineHash": line_hash}
    if finding.related:
        result["relatedLocations"] = [
            _related_location(number, related, paths, lines) for number, related in enumerate(finding.related, start=1)
        ]
    fix = _fix(finding, paths)
    if fix is not None:
        result["fixes"] = [fix]
    return result


def build(result: RunResult, rules: Mapping[str, Type[Rule]], options: ReportOptions) -> Dict[str, Any]:
    """The SARIF log as a dict (``render`` serialises it)."""
    paths = SourcePaths(options)
    findings = sorted(result.findings, key=lambda f: f.sort_key)
    descriptors, index = _rule_table(rules, findings)
    last_lines: Dict[str, int] = {}
    for finding in findings:
        last_lines[finding.path] = max(last_lines.get(finding.path, 0), finding.line)
    lines = _Lines(options, last_lines)
    results = [_result(f, index[f.code], paths, lines) for f in findings]

    notifications = []
    for error in result.errors:
        notification: Dict[str, Any] = {"level": "error", "message": {"text": error.message}}
        if error.path:
            notification["locations"] = [
                {"physicalLocation": {"artifactLocation": _artifact_location(error.path, paths)}}
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
        "originalUriBaseIds": {SRCROOT: {"uri": _root_uri(paths.base)}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def render(
    result: RunResult, rules: Mapping[str, Type[Rule]], out: TextIO, options: ReportOptions
) -> None:
    out.write(json.dumps(build(result, rules, options), indent=2, ensure_ascii=True))
    out.write("\n")
