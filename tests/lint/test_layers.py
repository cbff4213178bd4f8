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
    "lint": ("resilint.libraries", "resilint.rules", "resilint.codemods", "resilint.fixing", "resilint.runtime", "resilint.server", "resilint.cli"),
    "libraries": ("resilint.rules", "resilint.codemods", "resilint.fixing", "resilint.runtime", "resilint.server", "resilint.cli"),
    "rules": ("resilint.codemods", "resilint.fixing", "resilint.runtime", "resilint.server", "resilint.cli"),
    "codemods": ("resilint.rules", "resilint.fixing", "resilint.runtime", "resilint.server", "resilint.cli"),
    "fixing": ("resilint.rules", "resilint.runtime", "resilint.server", "resilint.cli"),
    # the language server sits beside the CLI: it reaches rules and codemods through the engine
    # and the fixing layer, as the CLI does
    "server": ("resilint.rules", "resilint.codemods", "resilint.runtime", "resilint.cli"),
    "defaults": ("resilint.",),
}
# The catalog finds rules by discovery: it walks the ``resilint.rules`` package and names no rule.
# It reads the codemods' declarations from their source; only where the sources are not
# installed does it import them to read the same declarations.
DISCOVERY = {
    ("lint/catalog.py", "resilint.codemods"),
    ("lint/catalog.py", "resilint.rules"),
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
        ("lint", "from resilint.server.engine import Project\n"),
        ("server", "from resilint.cli import main\n"),
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


def test_the_engine_has_no_import_cycle():
    """Not even one that only type checking follows: checker → fixer → codemods → checker and
    project ↔ rule were such cycles."""
    graph = {}
    for path in (PACKAGE / "lint").rglob("*.py"):
        name = "resilint." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        graph[name.replace(".__init__", "")] = {dep for dep in _imports(path) if dep.startswith("resilint.lint")}
    cycles = []

    def visit(module, trail):
        for dependency in sorted(graph.get(module, ())):
            if dependency in trail:
                cycles.append(trail[trail.index(dependency):] + [dependency])
            elif dependency in graph and dependency not in done:
                visit(dependency, trail + [dependency])
        done.add(module)

    done = set()
    for module in sorted(graph):
        if module not in done:
            visit(module, [module])
    assert [c for c in cycles if "resilint.lint.value_flow" not in c] == []  # value_flow ↔ project: issue 24's
