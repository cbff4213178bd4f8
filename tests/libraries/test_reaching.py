"""Which assignments of a name reach a statement (libraries/retry_scopes/reaching.py)."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from resilint.libraries.retry_scopes.reaching import reaching_definitions
from resilint.lint.traversal import iter_nodes


def reaching(source: str, name: str = "d"):
    """The source text of the definitions of ``name`` that reach the call ``target()``."""
    function = cst.parse_module(textwrap.dedent(source)).body[0]
    assert isinstance(function, cst.FunctionDef)
    target = next(
        n for n in iter_nodes(function)
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == "target"
    )
    found = reaching_definitions(function.body.body, name, target)
    if found is None:
        return None
    code = cst.Module([]).code_for_node
    return sorted(
        (code(base) if base is not None else "<entry>", tuple(sorted(code(a) for a in augs)))
        for base, augs in found
    )


def test_both_branches_replace_the_first_value():
    assert reaching(
        """
        def f(n):
            d = 2 ** n
            if n < 3:
                d = jitter(d)
            else:
                d = jitter(30)
            target(d)
        """
    ) == [("d = jitter(30)", ()), ("d = jitter(d)", ())]


def test_one_branch_lets_the_first_value_through():
    assert reaching(
        """
        def f(n):
            d = 2 ** n
            if n < 3:
                d = jitter(d)
            target(d)
        """
    ) == [("d = 2 ** n", ()), ("d = jitter(d)", ())]


def test_a_branch_that_leaves_does_not_reach():
    assert reaching(
        """
        def f(n):
            d = 2 ** n
            if n > 3:
                d = 30
                raise TimeoutError
            target(d)
        """
    ) == [("d = 2 ** n", ())]


def test_augmented_assignments_are_carried_around_the_loop():
    assert reaching(
        """
        def f():
            d = 1
            for _ in range(3):
                target(d)
                d *= 2
        """
    ) == [("d = 1", ()), ("d = 1", ("d *= 2",))]


def test_continue_and_break_flow_to_the_loop_head_and_exit():
    assert reaching(
        """
        def f():
            d = 1
            while True:
                if ok():
                    d = 5
                    break
                d = 2
                continue
            target(d)
        """
    ) == [("d = 5", ())]


def test_a_handler_sees_each_state_the_try_body_can_fail_in():
    assert reaching(
        """
        def f():
            d = 1
            try:
                d = 2
                call()
                d = 3
            except OSError:
                target(d)
        """
    ) == [("d = 1", ()), ("d = 2", ())]  # ``d = 3`` is the last statement: nothing fails after it


def test_a_parameter_reaches_as_the_entry_value():
    assert reaching("def f(d):\n    target(d)\n") == [("<entry>", ())]


@pytest.mark.parametrize(
    "source",
    [
        "def f(xs):\n    for d in xs:\n        target(d)\n",  # a loop target
        "def f():\n    with open() as d:\n        target(d)\n",
        "def f():\n    d, e = 1, 2\n    target(d)\n",
    ],
)
def test_bindings_it_does_not_follow_are_unknown(source):
    assert reaching(source) is None
