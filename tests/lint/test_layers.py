"""The layers import downwards only: engine (lint) ← library knowledge (libraries) ← rules,
codemods ← the fixing pipeline (fixing) ← cli. The runtime is an island of its own
(tests/runtime/test_runtime_isolation.py); what it shares with the linter lives in ``defaults``,
which imports nothing of resilint."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import resilint

PACKAGE = Path(resilint.__file__).parent
ABOVE = {
    "lint": ("resilint.libraries", "resilint.rules", "resilint.codemods", "resilint.fixing", "resilint.runtime", "resilint.cli"),
    "libraries": ("resilint.rules", "resilint.codemods", "resilint.fixing", "resilint.runtime", "resilint.cli"),
    "rules": ("resilint.codemods", "resilint.fixing", "resilint.runtime", "resilint.cli"),
    "codemods": ("resilint.rules", "resilint.fixing", "resilint.runtime", "resilint.cli"),
    "fixing": ("resilint.rules", "resilint.runtime", "resilint.cli"),
    "defaults": ("resilint.",),
}
# The registry finds rules by discovery: it walks the ``resilint.rules`` package and names no rule.
# The catalog reads the codemods' declarations from their source; only where the sources are not
# installed does it import them to read the same declarations.
DISCOVERY = {
    ("lint/catalog.py", "resilint.codemods"),
    ("lint/registry.py", "resilint.rules"),
}


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


def _offenders(layer: str, files):
    def where(path: Path) -> str:
        return str(path.relative_to(PACKAGE)) if PACKAGE in path.parents else path.name

    return [
        f"{where(path)}: {name}"
        for path in files
        for name in _imports(path)
        if any(name == banned or name.startswith(banned if banned.endswith(".") else banned + ".") for banned in ABOVE[layer])
        and (where(path), name) not in DISCOVERY
    ]


@pytest.mark.parametrize("layer", sorted(ABOVE))
def test_a_layer_imports_nothing_above_it(layer):
    files = sorted((PACKAGE / layer).rglob("*.py"))
    assert files
    assert _offenders(layer, files) == []


@pytest.mark.parametrize(
    ("layer", "source"),
    [
        ("lint", "from resilint.codemods.add_timeout import AddTimeout\n"),
        ("lint", "import resilint.runtime.timeouts\n"),
        ("lint", "from resilint.fixing.fixer import Fixer\n"),
        ("codemods", "from resilint.rules.timeouts.missing_timeout import MissingTimeout\n"),
        ("libraries", "from resilint.runtime import timeout\n"),
    ],
)
def test_the_guard_fails_on_an_import_from_above(tmp_path, layer, source):
    """The same check on a module that crosses: the test above can fail."""
    module = tmp_path / "crossing.py"
    module.write_text(source, encoding="utf-8")
    assert len(_offenders(layer, [module])) == 1


def test_no_relative_imports_hide_a_layer_crossing():
    relative = [
        str(path.relative_to(PACKAGE))
        for layer in ABOVE
        for path in (PACKAGE / layer).rglob("*.py")
        if any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    ]
    assert relative == []
