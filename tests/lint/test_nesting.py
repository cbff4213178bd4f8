"""The nesting guard measures what LibCST will build, with ``ast`` or, when ``ast`` refuses the
file (syntax newer than the interpreter), with tokens; real code passes, pathological chains
are refused before LibCST sees them."""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from resilint.lint.nesting import MAX_DEPTH, check_tokens, check_tree
from resilint.lint.source import SourceError

N = MAX_DEPTH + 100
CHAINS = {
    "or": "x = " + " or ".join(["a"] * N) + "\n",
    "and": "x = " + " and ".join(["a"] * N) + "\n",
    "plus": "x = " + " + ".join(["a"] * N) + "\n",
    "attributes": "x = a" + ".b" * N + "\n",
    "calls": "x = f" + "()" * N + "\n",
    "subscripts": "x = a" + "[0]" * N + "\n",
    "not": "x = " + "not " * N + "a\n",
    "lambdas": "x = " + "lambda a, b=1: " * N + "a\n",
    "elif": "if a:\n    pass\n" + "elif a:\n    pass\n" * N,
}
FLAT = {
    "comparisons": "x = " + " < ".join(["a"] * 2 * N) + "\n",
    "concatenation": "x = " + " ".join(["'a'"] * 2 * N) + "\n",
    "list": "x = [" + ", ".join(["a + b"] * 2 * N) + "]\n",
    "dict": "x = {" + ", ".join(f"'k{i}': a or b" for i in range(2 * N)) + "}\n",
    "statements": "x = a or b\n" * 2 * N,
}


def both(code):
    """The token measure, and the tree measure when this interpreter's ast takes the code."""
    yield check_tokens
    yield lambda text: check_tree(ast.parse(text))


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_chains_that_libcst_nests_are_refused(name):
    for check in both(CHAINS[name]):
        with pytest.raises(SourceError, match=f"over {MAX_DEPTH} levels"):
            check(CHAINS[name])


@pytest.mark.parametrize("name", sorted(FLAT))
def test_long_but_flat_code_passes(name):
    for check in both(FLAT[name]):
        check(FLAT[name])


def test_the_tree_counts_boolean_operands_as_levels():
    # `ast` keeps the chain flat (one BoolOp); LibCST nests it one level per operand.
    check_tree(ast.parse("x = " + " or ".join(["a"] * (MAX_DEPTH - 10)) + "\n"))
    with pytest.raises(SourceError) as raised:
        check_tree(ast.parse("import os\n\nx = " + " or ".join(["a"] * (MAX_DEPTH + 10)) + "\n"))
    assert raised.value.line == 3


def test_tokens_bound_syntax_that_ast_of_this_interpreter_refuses():
    """A PEP 695 file with an 8,000-term sum: refused quickly, whatever the interpreter."""
    text = "type X = int\n\ndef f[T](x: T) -> T:\n    return x\n\ny = 1" + " + 1" * 8000 + "\n"
    started = time.perf_counter()
    with pytest.raises(SourceError) as raised:
        check_tokens(text)
    assert time.perf_counter() - started < 5
    assert raised.value.line == 6


@pytest.mark.parametrize(
    ("text", "message"),
    [("x = " + "(" * 201 + "1" + ")" * 201 + "\n", "too many nested parentheses"),
     ("".join(" " * i + "if a:\n" for i in range(102)) + " " * 102 + "pass\n", "too many levels of indentation")],
    ids=["parentheses", "indentation"],
)
def test_tokens_apply_cpythons_own_limits(text, message):
    with pytest.raises(SourceError, match=message):
        check_tokens(text)


@pytest.mark.slow
def test_tokens_accept_resilints_own_sources():
    """No real code is refused: the token measure over every module of resilint."""
    for path in Path(__file__).resolve().parents[2].joinpath("src").rglob("*.py"):
        check_tokens(path.read_text(encoding="utf-8"))
