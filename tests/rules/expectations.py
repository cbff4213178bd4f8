"""The inline expectations of fixture files and fixture projects: a line that must yield
findings ends with ``# expect: RES101`` (several: ``# expect: RES101, RES105``; the same code
twice means two findings), and a finding's message may be required to contain a text:
``# expect: RES204 "4 x 3 = up to 12"``."""

from __future__ import annotations

import re
from collections import Counter
from typing import Counter as CounterType
from typing import Dict, List, Tuple

_EXPECT = re.compile(r'#\s*expect:\s*((?:RES\d{3}(?:\s*"[^"]*")?\s*,?\s*)+)$')
_ONE = re.compile(r'(RES\d{3})(?:\s*"([^"]*)")?')

Expected = CounterType[Tuple[int, str]]


def line_expectations(text: str) -> Tuple[Expected, Dict[Tuple[int, str], List[str]]]:
    """(line, code) → how many findings, and (line, code) → texts their messages must contain."""
    expected: Expected = Counter()
    texts: Dict[Tuple[int, str], List[str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _EXPECT.search(line)
        if match:
            for code, wanted in _ONE.findall(match.group(1)):
                expected[(number, code)] += 1
                if wanted:
                    texts.setdefault((number, code), []).append(wanted)
    return expected, texts
