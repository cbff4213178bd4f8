"""The conditions on parameters under which a call runs (libraries/call_guards.py): the project
fixture ``guarded_calls`` shows what RES301 makes of them, these the guards each form leaves."""

from __future__ import annotations

import textwrap
from typing import Dict, List, Tuple

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from resilint.libraries.call_guards import attributes_passed, call_guards
from resilint.lint.semantic import SemanticModel
from resilint.lint.summary import Place


def _model(source: str) -> SemanticModel:
    text = textwrap.dedent(source).lstrip("\n")
    return SemanticModel(cst.parse_module(text), module_name="app.m", path="app/m.py", text=text)


def guards(source: str) -> Dict[str, Tuple]:
    """The guards of each call to a function named ``call_*``, by that name."""
    model = _model(source)
    positions = MetadataWrapper(model.module, unsafe_skip_copy=True).resolve(PositionProvider)

    def locate(node: cst.CSTNode) -> Place:
        where = positions[node]
        return Place("app/m.py", where.start.line, where.start.column + 1, where.end.line, where.end.column + 1)

    return {
        site.node.func.value: call_guards(model, site, locate)
        for site in model.calls
        if isinstance(site.node.func, cst.Name) and site.node.func.value.startswith("call_")
    }


def test_if_elif_else_and_negation():
    assert guards(
        """
        def f(flag, kind=None):
            if flag:
                call_a()
            elif not kind:
                call_b()
            else:
                call_c()
            call_d()
        """
    ) == {
        "call_a": (("flag", "true", ()),),
        "call_b": (("flag", "false", ()), ("kind", "false", ())),
        "call_c": (("flag", "false", ()), ("kind", "true", ())),
        "call_d": (),
    }


def test_comparisons_with_literals_and_constants():
    found = guards(
        """
        from app.models import Status
        FINAL = (Status.DONE, "failed")
        def f(job, mode):
            if job.status in FINAL:
                call_a()
            if mode != 3:
                call_b()
            if mode is None:
                call_c()
            if mode in pick():
                call_d()
        """
    )
    assert found["call_a"] == (("job.status", "in", (("ref", "app.models.Status.DONE"), ("str", "failed"))),)
    assert found["call_b"] == (("mode", "not in", (("int", 3),)),)
    assert found["call_c"] == (("mode", "in", (("none",),)),)
    assert found["call_d"] == ()  # what pick() returns is not a constant the file shows


def test_and_holds_in_the_body_or_fails_in_the_else():
    found = guards(
        """
        def f(a, b):
            if a and b == "x":
                call_a()
            else:
                call_b()
            if a or b:
                call_c()
            else:
                call_d()
        """
    )
    assert found["call_a"] == (("a", "true", ()), ("b", "in", (("str", "x"),)))
    # one of the two failed, one of the two holds: a choice between the parts' guards
    assert found["call_b"] == (("", "any", (("all", ("a", "false", ())), ("all", ("b", "not in", (("str", "x"),))))),)
    assert found["call_c"] == (("", "any", (("all", ("a", "true", ())), ("all", ("b", "true", ())))),)
    assert found["call_d"] == (("a", "false", ()), ("b", "false", ()))


def test_a_choice_whose_part_the_file_cannot_read_is_no_guard():
    found = guards(
        """
        def f(a, b, items):
            if a or (b and len(items) > 2):
                call_a()
            if a or len(items) > 2:
                call_b()
            if (a or b):
                call_c()
            if not ((a and b) and (b == "x")):
                call_d()
        """
    )
    # parenthesised, or nested in parentheses: one choice between every part
    assert found["call_c"] == (("", "any", (("all", ("a", "true", ())), ("all", ("b", "true", ())))),)
    assert found["call_d"] == (("", "any", (
        ("all", ("a", "false", ())), ("all", ("b", "false", ())), ("all", ("b", "not in", (("str", "x"),))),
    )),)
    assert found["call_a"] == (("", "any", (("all", ("a", "true", ())), ("all", ("b", "true", ())))),)
    assert found["call_b"] == ()  # the unreadable part may be the one that holds


def test_an_if_that_leaves_the_block_guards_what_follows():
    found = guards(
        """
        def f(dry_run, items):
            if dry_run:
                return None
            call_a()
            for item in items:
                if item:
                    continue
                call_b()
        """
    )
    assert found["call_a"] == (("dry_run", "false", ()),)
    assert found["call_b"] == (("dry_run", "false", ()),)  # ``item`` is no parameter


def test_values_the_function_changes_are_no_guards():
    found = guards(
        """
        def f(flag, job):
            flag = flag or settings.FLAG
            job.status = compute()
            if flag:
                call_a()
            if job.status == "done":
                call_b()
            def inner():
                call_c()
            g = lambda: call_d() if flag else None
        """
    )
    assert found == {"call_a": (), "call_b": (), "call_c": (), "call_d": ()}


def test_attributes_set_before_a_call_that_passes_the_object():
    model = _model(
        """
        def mark(fq, msg, status):
            fq.message = msg
            fq.status = status
            if status == 2:
                fq.done = True
            fq.save()
            send(fq)
            send(item=fq)
        """
    )
    found: List[List[Tuple[str, str]]] = [
        [(slot, cst.Module([]).code_for_node(expr)) for slot, expr in attributes_passed(model, site)]
        for site in model.calls if isinstance(site.node.func, cst.Name) and site.node.func.value == "send"
    ]
    assert found == [
        [("0.message", "msg"), ("0.status", "status")],
        [("item.message", "msg"), ("item.status", "status")],
    ]


def test_one_line_ifs_handlers_and_nested_blocks():
    found = guards(
        """
        def f(flag, mode):
            if flag: call_a()
            else: call_b()
            try:
                if mode == "x":
                    return
                call_c()
            except ValueError:
                if not flag:
                    raise
                call_d()
            with lock:
                if call_e(flag) and mode:
                    call_f()
        """
    )
    assert found["call_a"] == (("flag", "true", ()),)
    assert found["call_b"] == (("flag", "false", ()),)
    assert found["call_c"] == (("mode", "not in", (("str", "x"),)),)
    assert found["call_d"] == (("flag", "true", ()),)  # the handler's own early exit
    assert found["call_e"] == ()  # in the test: it runs whatever the test says
    assert found["call_f"] == (("mode", "true", ()),)  # ``call_e(flag)`` is no parameter test
