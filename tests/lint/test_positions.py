"""Positions read from the ``ast`` tree must be LibCST's own, node for node."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

import resilint
from resilint.lint.positions import NodePositions
from resilint.lint.source import python_lines
from resilint.lint.traversal import iter_nodes

AWKWARD = '''\
import requests

@retry(stop=3)
@other
async def fetch(url, ｔｉｍｅ=1):
    é = "ünïcode"; requests.get(é, timeout=(3, 5), params={"q": "ä"})
    return await f(x for x in range(3))(*args, **kwargs)

def f(): return g(h(1), (2, 3))[0](4)
for a in b():
    while c(a):
        d(a).e(lambda: z())
x = [q(i) for i in r()] if s() else t()
def \\
  spaced(): pass
'''


def _compare(text: str) -> int:
    module = cst.parse_module(text)
    calls = [node for node in iter_nodes(module) if isinstance(node, cst.Call)]
    positions = NodePositions(module, ast.parse(text), python_lines(text), calls)
    if calls:
        positions[calls[0]]
    known = positions._known or {}
    real = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    nodes = {id(node): node for node in iter_nodes(module)}
    for key in list(known):
        found = positions[nodes[key]]
        assert found == real[nodes[key]], (type(nodes[key]).__name__, found, real[nodes[key]])
    return len(known)


def test_awkward_code():
    assert _compare(AWKWARD) > 30


@pytest.mark.slow
def test_resilint_s_own_engine_and_library_layer():
    package = Path(resilint.__file__).parent
    files = sorted([*(package / "lint").rglob("*.py"), *(package / "libraries").rglob("*.py")])
    assert sum(_compare(path.read_text(encoding="utf-8")) for path in files) > 5_000


def test_trees_that_do_not_line_up_fall_back_to_libcst():
    text = "f(1)\n"
    module = cst.parse_module(text)
    calls = [node for node in iter_nodes(module) if isinstance(node, cst.Call)]
    other = ast.parse("f(1)\ng(2)\n")  # not the same text: the calls do not pair up
    positions = NodePositions(module, other, python_lines(text), calls)
    assert positions[calls[0]] == MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)[calls[0]]
    assert positions._known == {}


@pytest.mark.parametrize("text", ["x = 1\n", ""])
def test_files_without_calls(text):
    assert _compare(text) >= 0
