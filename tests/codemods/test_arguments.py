"""Adding and removing arguments keeps the call's layout and its comments in place."""

from __future__ import annotations

import libcst as cst
import pytest

from resilint.codemods.arguments import add_argument, keyword, remove_argument
from tests.codemods.support import dedent


def _added(source: str) -> str:
    module = cst.parse_module(dedent(source))
    call = module.body[0].body[0].value  # type: ignore[attr-defined]
    return module.code_for_node(add_argument(call, keyword("stop", cst.Integer("5"))))


@pytest.mark.parametrize("source, expected", [
    ("f(a=1)\n", "f(a=1, stop=5)"),
    ("f()\n", "f(stop=5)"),
    ("f(a=1, )\n", "f(a=1, stop=5, )"),
    ("f(\n    a=1\n)\n", "f(\n    a=1,\n    stop=5\n)"),
    ("f(\n    a=1,\n)\n", "f(\n    a=1,\n    stop=5,\n)"),
    ("f(\n    a=1,  # one\n    b=2  # two\n)\n", "f(\n    a=1,  # one\n    b=2,  # two\n    stop=5\n)"),
    ("f(\n    a=1,  # one\n    b=2,  # two\n)\n", "f(\n    a=1,  # one\n    b=2,  # two\n    stop=5,\n)"),
    ("f(x,\n  y)\n", "f(x,\n  y,\n  stop=5)"),
], ids=["one-line", "empty", "one-line-trailing-comma", "multi-line", "multi-line-trailing-comma",
        "comment-without-trailing-comma", "comment-with-trailing-comma", "hanging-indent"])
def test_add_argument_keeps_layout_and_comments(source, expected):
    assert _added(source) == expected


@pytest.mark.parametrize("source, expected", [
    ("f(a, jitter=None)\n", "f(a)"),
    ("f(a, jitter=None, b=2)\n", "f(a, b=2)"),
    ("f(\n    a,  # first\n    jitter=None,\n)\n", "f(\n    a,  # first\n)"),
    ("f(\n    a,\n    jitter=None\n)\n", "f(\n    a\n)"),
], ids=["last", "middle", "last-multi-line-trailing-comma", "last-multi-line"])
def test_remove_argument_keeps_layout_and_comments(source, expected):
    module = cst.parse_module(source)
    call = module.body[0].body[0].value  # type: ignore[attr-defined]
    jitter = next(a for a in call.args if a.keyword is not None and a.keyword.value == "jitter")
    assert module.code_for_node(remove_argument(call, jitter)) == expected
