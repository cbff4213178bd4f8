"""The layers import downwards only: engine (lint) ← library knowledge (libraries) ← rules,
codemods ← cli. The runtime is an island of its own (tests/runtime/test_runtime_isolation.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import resilint

PACKAGE = Path(resilint.__file__).parent
ABOVE = {
    "lint": ("resilint.libraries", "resilint.rules", "resilint.codemods", "resilint.cli"),
    "libraries": ("resilint.rules", "resilint.codemods", "resilint.cli"),
    "rules": ("resilint.codemods", "resilint.cli"),
}
# The registry finds rules by discovery: it walks the ``resilint.rules`` package and names no rule;
# it and the fixer find codemods the same way (``resilint.codemods`` and its base, no codemod),
# and so does the catalog when the codemods' sources are not there to read.
DISCOVERY = {
    ("lint/catalog.py", "resilint.codemods"),
    ("lint/registry.py", "resilint.rules"),
    ("lint/registry.py", "resilint.codemods"),
    ("lint/fixer.py", "resilint.codemods"),
    ("lint/fixer.py", "resilint.codemods.base"),
}


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


@pytest.mark.parametrize("layer", sorted(ABOVE))
def test_a_layer_imports_nothing_above_it(layer):
    files = sorted((PACKAGE / layer).rglob("*.py"))
    assert files
    offenders = [
        f"{path.relative_to(PACKAGE)}: {name}"
        for path in files
        for name in _imports(path)
        if any(name == banned or name.startswith(banned + ".") for banned in ABOVE[layer])
        and (str(path.relative_to(PACKAGE)), name) not in DISCOVERY
    ]
    assert offenders == []


def test_no_relative_imports_hide_a_layer_crossing():
    relative = [
        str(path.relative_to(PACKAGE))
        for layer in ABOVE
        for path in (PACKAGE / layer).rglob("*.py")
        if any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    ]
    assert relative == []
