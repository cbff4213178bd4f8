"""A file's pytest fixtures: the functions decorated ``@pytest.fixture`` (or
``pytest_asyncio.fixture``), by the name tests request them with (``name=`` when given), with
whether each is ``autouse``. Test doubles they keep on (``network_mocks.py``) and servers of
this machine they give (``server_sockets.py``) are read from them."""

from __future__ import annotations

from typing import Dict, List, Tuple

import libcst as cst

from resilint.lint.nodes import is_true, keyword_args, string_of
from resilint.lint.semantic import FunctionInfo, SemanticModel
from resilint.lint.summary import FIXTURE_DECORATORS


Fixtures = Dict[str, List[Tuple[FunctionInfo, bool]]]


def pytest_fixtures(model: SemanticModel) -> Fixtures:
    """Fixture name → the fixture functions of the file, each with whether it is autouse."""
    return model.derived(pytest_fixtures, lambda: _find(model))


def _find(model: SemanticModel) -> Fixtures:
    table: Fixtures = {}
    for function in model.functions:
        outer = function.scope.parent or function.scope
        for decorator in function.decorators:
            expr = decorator.decorator
            target = expr.func if isinstance(expr, cst.Call) else expr
            if model.qualified_name(target, outer, 1 << 62) not in FIXTURE_DECORATORS:
                continue
            name, autouse = function.name, False
            if isinstance(expr, cst.Call):
                keywords, _ = keyword_args(expr)
                if "name" in keywords:
                    name = string_of(keywords["name"].value) or name
                autouse = "autouse" in keywords and is_true(keywords["autouse"].value)
            table.setdefault(name, []).append((function, autouse))
    for name in _added_by_hooks(model):
        if name in table:
            table[name] = [(function, True) for function, _ in table[name]]
    return table


# Hooks with which a ``conftest.py`` adds fixtures to the tests it collects.
_ADDING_HOOKS = frozenset({"pytest_runtest_setup", "pytest_collection_modifyitems", "pytest_itemcollected"})


def _added_by_hooks(model: SemanticModel) -> List[str]:
    """The fixtures a hook of the file adds to tests (``item.fixturenames.append("use_vcr")``,
    maybe for a marker only): taken as autouse, since which tests get them is the run's to tell."""
    found = []
    for function in model.functions:
        if function.owner is not None or function.name not in _ADDING_HOOKS:
            continue
        for site in model.calls_in(function.scope):
            func = site.node.func
            if (isinstance(func, cst.Attribute) and func.attr.value in ("append", "insert")
                    and isinstance(func.value, cst.Attribute) and func.value.attr.value == "fixturenames"):
                found.extend(name for name in (string_of(arg.value) for arg in site.node.args) if name)
    return found


def pytest_plugins(model: SemanticModel) -> List[str]:
    """The modules ``pytest_plugins = ["app.testing.fixtures", ...]`` (a string, or a list or
    tuple of them, at module level) loads as pytest plugins."""
    found: List[str] = []
    for binding in model.module_scope.bindings.get("pytest_plugins", ()):
        value = binding.expr
        elements = [e.value for e in value.elements] if isinstance(value, (cst.List, cst.Tuple)) else [value]
        found.extend(name for name in (string_of(e) for e in elements if e is not None) if name)
    return list(dict.fromkeys(found))
