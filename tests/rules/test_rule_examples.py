"""Every rule's VALID and INVALID examples, collected from the rule classes (as in Fixit)."""

from __future__ import annotations

import pytest

from resilint.lint.checker import check_source
from resilint.lint.registry import all_rules

CASES = [
    pytest.param(rule, kind, index, example, id=f"{code}-{kind}-{index}")
    for code, rule in all_rules().items()
    for kind, examples in (("valid", rule.valid_examples()), ("invalid", rule.invalid_examples()))
    for index, example in enumerate(examples)
]


@pytest.mark.parametrize(("rule", "kind", "index", "example"), CASES)
def test_rule_example(rule, kind, index, example):
    findings = [f for f in check_source(example.code, [rule.code]) if f.code == rule.code]
    described = "\n".join(f"  {f.line}:{f.column} {f.message}" for f in findings)
    if kind == "valid":
        assert not findings, f"{rule.code} flagged valid example:\n{example.code}\n{described}"
        return
    assert len(findings) == example.count, (
        f"{rule.code} expected {example.count} finding(s), got {len(findings)}:\n{example.code}\n{described}"
    )
    if example.line is not None:
        # the finding the example is about (with ``count`` > 1, one of them) is on that line
        findings = [f for f in findings if f.line == example.line]
        assert findings, described
    if example.message is not None:
        assert any(example.message in f.message for f in findings), described
