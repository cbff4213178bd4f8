"""Rule documentation: Markdown from the rule's docstring, shared by ``resilint rule`` and
``docs/rules/``. Regenerate the files with ``python -m resilint.lint.rule_docs docs/rules``."""

from __future__ import annotations

import os
import sys
from typing import Dict, Type

from resilint.lint.registry import all_rules
from resilint.lint.rule import Rule

GENERATED_NOTE = "<!-- Generated from the rule's docstring by `python -m resilint.lint.rule_docs docs/rules`; do not edit. -->"


def render_markdown(rule: Type[Rule]) -> str:
    doc = rule.documentation()
    summary, _, body = doc.partition("\n")
    default = "on by default" if rule.default else f"opt-in (`--extend-select {rule.code}`)"
    fix = {None: "no automatic fix", "safe": "has a safe fix", "unsafe": "has an unsafe fix"}[rule.fixable]
    return (
        f"# {rule.code}: {rule.name}\n\n"
        f"*{default}; {fix}; severity {rule.severity}.*\n\n"
        f"{summary.strip()}\n\n{body.strip()}\n"
    )


def render_all() -> Dict[str, str]:
    return {f"{code}.md": f"{GENERATED_NOTE}\n\n{render_markdown(rule)}" for code, rule in all_rules().items()}


def write_all(directory: str) -> None:
    os.makedirs(directory, exist_ok=True)
    for name, text in render_all().items():
        with open(os.path.join(directory, name), "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)


if __name__ == "__main__":  # pragma: no cover
    write_all(sys.argv[1] if len(sys.argv) > 1 else "docs/rules")
