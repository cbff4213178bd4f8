"""GitHub code scanning's documented requirements and limits for an uploaded SARIF file.

From "SARIF support for code scanning" (docs.github.com, code-security/code-scanning/
integrating-with-code-scanning/sarif-support-for-code-scanning): the file is refused when a
maximum is exceeded, and properties marked "required" must be present and not empty.
"""

from __future__ import annotations

import gzip
import json
from typing import Any, Dict, List

MAX_GZIPPED_BYTES = 10 * 1024 * 1024
MAX_RUNS = 20
MAX_RESULTS_PER_RUN = 25_000
MAX_RULES_PER_RUN = 25_000
MAX_EXTENSIONS_PER_RUN = 100
MAX_LOCATIONS_PER_RESULT = 1_000  # only 100 are shown
MAX_PRIMARY_LOCATIONS = 10  # "locations[]: ... up to a maximum of 10"
MAX_TAGS_PER_RULE = 20  # only 10 are shown
SHOWN_TAGS_PER_RULE = 10
MAX_RULE_NAME = 255
MAX_DESCRIPTION = 1024
MAX_ID = 2**63 - 1
LEVELS = {"note", "warning", "error"}
PRECISIONS = {"very-high", "high", "medium", "low"}
PROBLEM_SEVERITIES = {"error", "warning", "recommendation"}


def _text(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def code_scanning_problems(log: Dict[str, Any], serialised: str) -> List[str]:
    """Every way ``log`` (serialised as ``serialised``) breaks GitHub's documented rules."""
    problems = []
    size = len(gzip.compress(serialised.encode("utf-8")))
    if size > MAX_GZIPPED_BYTES:
        problems.append(f"gzipped size {size} > {MAX_GZIPPED_BYTES}")
    if log.get("version") != "2.1.0" or not _text(log.get("$schema")):
        problems.append("version 2.1.0 and $schema are required")
    runs = log.get("runs") or []
    if not 1 <= len(runs) <= MAX_RUNS:
        problems.append(f"{len(runs)} runs")
    for run in runs:
        driver = run["tool"]["driver"]
        if not _text(driver.get("name")):
            problems.append("tool.driver.name is required")
        rules = driver.get("rules")
        if not isinstance(rules, list) or len(rules) > MAX_RULES_PER_RUN:
            problems.append("tool.driver.rules is required, at most 25,000")
            rules = []
        if len(run["tool"].get("extensions", [])) > MAX_EXTENSIONS_PER_RUN:
            problems.append("too many tool extensions")
        for rule in rules:
            where = f"rule {rule.get('id')}"
            if not _text(rule.get("id")):
                problems.append(f"{where}: id is required")
            if len(rule.get("name", "")) > MAX_RULE_NAME:
                problems.append(f"{where}: name longer than {MAX_RULE_NAME}")
            for key in ("shortDescription", "fullDescription"):
                text = rule.get(key, {}).get("text")
                if not _text(text) or len(text) > MAX_DESCRIPTION:
                    problems.append(f"{where}: {key}.text is required, at most {MAX_DESCRIPTION} characters")
            if not _text(rule.get("help", {}).get("text")):
                problems.append(f"{where}: help.text is required")
            level = rule.get("defaultConfiguration", {}).get("level", "warning")
            if level not in LEVELS:
                problems.append(f"{where}: defaultConfiguration.level {level!r}")
            properties = rule.get("properties", {})
            if len(properties.get("tags", [])) > SHOWN_TAGS_PER_RULE:
                problems.append(f"{where}: more tags than GitHub shows")
            if properties.get("precision", "high") not in PRECISIONS:
                problems.append(f"{where}: precision {properties.get('precision')!r}")
            if properties.get("problem.severity", "warning") not in PROBLEM_SEVERITIES:
                problems.append(f"{where}: problem.severity {properties.get('problem.severity')!r}")
        results = run.get("results")
        if not isinstance(results, list) or len(results) > MAX_RESULTS_PER_RUN:
            problems.append("results is required, at most 25,000 per run")
            results = []
        for number, result in enumerate(results):
            where = f"result {number}"
            if not _text(result.get("message", {}).get("text")):
                problems.append(f"{where}: message.text is required")
            index = result.get("ruleIndex", 0)
            if not 0 <= index <= MAX_ID or (rules and rules[index]["id"] != result.get("ruleId")):
                problems.append(f"{where}: ruleIndex does not point at its rule")
            locations = result.get("locations") or []
            related = result.get("relatedLocations", [])
            if not 1 <= len(locations) <= MAX_PRIMARY_LOCATIONS or len(locations) + len(related) > MAX_LOCATIONS_PER_RESULT:
                problems.append(f"{where}: {len(locations)} locations, {len(related)} related")
            for location in locations + related:
                physical = location.get("physicalLocation", {})
                if not _text(physical.get("artifactLocation", {}).get("uri")):
                    problems.append(f"{where}: artifactLocation.uri is required")
                region = physical.get("region", {})
                if not all(isinstance(region.get(key), int) for key in ("startLine", "startColumn", "endLine", "endColumn")):
                    problems.append(f"{where}: region needs startLine, startColumn, endLine and endColumn")
                if not 0 <= location.get("id", 0) <= MAX_ID:
                    problems.append(f"{where}: location id out of range")
            if not _text(result.get("partialFingerprints", {}).get("primaryLocationLineHash")):
                problems.append(f"{where}: partialFingerprints.primaryLocationLineHash is missing")
    return problems


def code_scanning_figures(log: Dict[str, Any], serialised: str) -> Dict[str, int]:
    """The figures GitHub limits, for a report."""
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    return {
        "gzipped_bytes": len(gzip.compress(serialised.encode("utf-8"))),
        "runs": len(log["runs"]),
        "results": len(run["results"]),
        "rules": len(rules),
        "longest_full_description": max(len(r["fullDescription"]["text"]) for r in rules),
        "longest_short_description": max(len(r["shortDescription"]["text"]) for r in rules),
        "most_tags": max(len(r.get("properties", {}).get("tags", [])) for r in rules),
        "most_locations": max((len(r["locations"]) + len(r.get("relatedLocations", [])) for r in run["results"]), default=0),
    }


if __name__ == "__main__":  # python -m tests.report.sarif_limits FILE.sarif
    import sys

    text = open(sys.argv[1], encoding="utf-8").read()
    document = json.loads(text)
    print(json.dumps(code_scanning_figures(document, text), indent=2))
    found = code_scanning_problems(document, text)
    print("\n".join(found) or "within GitHub's documented limits")
    sys.exit(1 if found else 0)
