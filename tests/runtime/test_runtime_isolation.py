"""The runtime is an island: no linter stack, no third-party import at import time."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import resilint.runtime

RUNTIME = Path(resilint.runtime.__file__).parent
BANNED = ("libcst", "click", "rich", "resilint.lint", "resilint.rules", "resilint.codemods", "resilint.cli")


def imported_names(path: Path, package: str = ""):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = package or "resilint.runtime" + "".join(
        "." + p for p in path.relative_to(RUNTIME).parent.parts
    )
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            yield mod
            for alias in node.names:
                yield f"{mod}.{alias.name}"
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__"):
            for arg in node.args[:1]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield arg.value


def test_ast_scan_finds_no_banned_import():
    files = sorted(RUNTIME.rglob("*.py"))
    assert len(files) >= 15
    offenders = []
    for path in files:
        for name in imported_names(path):
            if any(name == b or name.startswith(b + ".") for b in BANNED):
                offenders.append(f"{path.relative_to(RUNTIME)}: {name}")
    assert offenders == []


def test_scan_would_catch_a_banned_import(tmp_path):
    # guard against a scanner that silently finds nothing
    assert "resilint.runtime.retry" in set(imported_names(RUNTIME / "adapters" / "_engine.py"))
    bad = tmp_path / "bad.py"
    bad.write_text("from ..lint import engine\nimport libcst as cst\nfrom resilint import cli\n")
    names = set(imported_names(bad, package="resilint.runtime.adapters"))
    assert {"resilint.runtime.lint", "libcst", "resilint.cli"} <= names
    bad.write_text("from .. import codemods\n")
    assert "resilint.codemods" in set(imported_names(bad, package="resilint.runtime"))


def test_import_in_subprocess_loads_only_stdlib():
    code = (
        "import sys, json\n"
        "before = set(sys.modules)\n"
        "import resilint.runtime, resilint.runtime.testing, resilint.runtime.adapters\n"
        "new = sorted(set(sys.modules) - before)\n"
        "installed = [m for m in new if any(d in (getattr(sys.modules[m], '__file__', None) or '')\n"
        "             for d in ('site-packages', 'dist-packages'))]\n"
        "print(json.dumps({'new': new, 'installed': installed}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    data = json.loads(out.stdout)
    new = data["new"]
    assert data["installed"] == []  # nothing loaded from site-packages
    stdlib = getattr(sys, "stdlib_module_names", None)
    if stdlib is not None:  # Python 3.10+
        third_party = [m for m in new if not m.startswith("resilint") and m.split(".")[0] not in stdlib]
        assert third_party == []
    for banned in ("requests", "httpx", "urllib3", "libcst", "click", "rich", "resilint.lint",
                   "resilint.rules", "resilint.codemods", "resilint.cli"):
        assert banned not in new


def test_adapters_load_lazily_on_attribute_access():
    code = (
        "import sys\n"
        "import resilint.runtime as r\n"
        "assert 'requests' not in sys.modules and 'httpx' not in sys.modules\n"
        "r.ResilientSession\n"
        "assert 'requests' in sys.modules and 'httpx' not in sys.modules\n"
        "r.AsyncResilientTransport\n"
        "assert 'httpx' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def type_checking_only_imports(path: Path):
    """Names imported at module level outside ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))

    def walk(nodes, guarded):
        for node in nodes:
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
                yield from walk(node.body, True)
                yield from walk(node.orelse, guarded)
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield alias.name, guarded
            elif isinstance(node, ast.ImportFrom) and not node.level:
                yield node.module or "", guarded
            for child in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, child, None)
                if isinstance(inner, list):
                    yield from walk(inner, guarded)

    yield from walk(tree.body, False)


def test_typing_extensions_is_for_type_checkers_only():
    # ParamSpec and Unpack come from typing_extensions on Python 3.9: only under TYPE_CHECKING
    found = [
        (path.name, guarded)
        for path in sorted(RUNTIME.rglob("*.py"))
        for name, guarded in type_checking_only_imports(path)
        if name.split(".")[0] == "typing_extensions"
    ]
    assert found and all(guarded for _, guarded in found), found
