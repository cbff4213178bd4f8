"""Fixture files per rule code, with the expected findings marked inline (as in ruff).

Every ``tests/rules/fixtures/<CODE>*.py`` (``RES101.py``, ``RES101_sessions.py`` …) is checked
by the real checker with ``<CODE>`` enabled, plus every code named in its ``# expect:`` comments.
A line that must yield findings ends with ``# expect: RES101`` (several: ``# expect: RES101,
RES105``; the same code twice means two findings; a message text: ``# expect: RES202 "grows
linearly"``, see ``expectations.py``); every other line must yield none of the enabled codes. A ``# config: {...}`` line holds ``[tool.resilint]`` settings as JSON
(``# config: {"max-timeout": 10}``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import List

import pytest

from resilint.lint.checker import check_source
from resilint.lint.config import settings_from_table
from resilint.lint.registry import all_rules
from tests.rules.expectations import line_expectations

FIXTURES = Path(__file__).parent / "fixtures"
_FILE = re.compile(r"^(RES\d{3})(?:[_-].*)?\.py$")
_CONFIG = re.compile(r"^#\s*config:\s*(\{.*\})\s*$")


def _fixtures() -> List[Path]:
    return sorted(p for p in FIXTURES.glob("RES*.py") if _FILE.match(p.name))


def _config(text: str) -> dict:
    config: dict = {}
    for line in text.splitlines():
        config_match = _CONFIG.match(line.strip())
        if config_match:
            config.update(json.loads(config_match.group(1)))
    return config


def test_fixture_directory_is_not_empty():
    assert _fixtures(), f"no fixtures in {FIXTURES}"


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: p.name)
def test_fixture(path: Path):
    code = _FILE.match(path.name).group(1)  # type: ignore[union-attr]
    assert code in all_rules(), f"{path.name}: unknown rule code {code}"
    text = path.read_text(encoding="utf-8")
    expected, texts = line_expectations(text)
    config = _config(text)
    codes = sorted({code} | {c for _, c in expected})
    settings = settings_from_table(config, str(path), str(path.parent))
    findings = check_source(text, codes, settings=settings, path=str(path))
    actual = Counter((f.line, f.code) for f in findings if f.code in codes)
    lines = text.splitlines()

    def describe(items):
        return "\n".join(f"  {line}: {c}  | {lines[line - 1].strip()}" for (line, c) in sorted(items))

    missing = expected - actual
    unexpected = actual - expected
    messages = {(f.line, f.code): f.message for f in findings}
    for key, wanted in texts.items():
        found = [f.message for f in findings if (f.line, f.code) == key]
        for text_part in wanted:
            assert any(text_part in m for m in found), f"{path.name}:{key[0]} {key[1]}: {text_part!r} not in {found}"
    assert not missing and not unexpected, (
        f"{path.name} (codes {', '.join(codes)}):\n"
        f"missing:\n{describe(missing.elements())}\n"
        f"unexpected:\n{describe(unexpected.elements())}\n"
        + "\n".join(f"  {k[0]}: {k[1]} {messages[k]}" for k in sorted(unexpected))
    )
