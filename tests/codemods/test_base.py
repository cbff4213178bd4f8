"""What every codemod gets from the base: a visit that enters only the subtrees holding a
planned rewrite (with the full visit as a safety net), and imports added at module level."""

from __future__ import annotations

import textwrap

import libcst as cst

from resilint.codemods.add_timeout import AddTimeout
from resilint.lint.config import Settings
from resilint.fixing.codemod_run import run_codemod

_MANY_FUNCTIONS = "".join(f"def f{i}(u):\n    return helper(u, {i})\n\n\n" for i in range(200))
_SOURCE = "import requests\n\n\n" + _MANY_FUNCTIONS + "def fetch(u):\n    return requests.get(u)\n"
_FIXED = "requests.get(\n        u, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)\n    )"


class _Counting(AddTimeout):
    visited = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        type(self).visited += 1
        return super().on_visit(node)


class _PositionsMisleading(AddTimeout):
    """As if a node's position did not contain the node planned below it."""

    def _may_hold_plan(self, node: cst.CSTNode) -> bool:
        return False


def _fixed(codemod, source: str = _SOURCE) -> str:
    run = run_codemod(codemod, source.encode(), "example.py", Settings(fix_target="runtime"), None)
    assert run.error is None and run.updated is not None
    return run.updated.decode()


def test_only_the_subtrees_around_a_planned_rewrite_are_visited():
    fixed = _fixed(_Counting)
    assert _FIXED in fixed
    nodes = sum(1 for _ in _walk(cst.parse_module(_SOURCE)))
    assert _Counting.visited < nodes / 10  # 200 untouched functions are each one visit, not a subtree


def test_a_planned_rewrite_the_pruned_visit_misses_is_still_made():
    assert _fixed(_PositionsMisleading) == _fixed(AddTimeout)
    assert _FIXED in _fixed(_PositionsMisleading)


def test_an_import_inside_a_function_neither_counts_as_the_modules_nor_receives_the_new_name():
    source = textwrap.dedent(
        """\
        import requests


        def local():
            from resilint.runtime import budget
            return budget


        def fetch(u):
            return requests.get(u)
        """
    )
    fixed = _fixed(AddTimeout, source)
    assert "from resilint.runtime import timeout\n" in fixed.split("def local")[0]
    assert "    from resilint.runtime import budget\n" in fixed
    compile(fixed, "example.py", "exec")


def _walk(node: cst.CSTNode):
    yield node
    for child in node.children:
        yield from _walk(child)


def test_matcher_decorators_of_a_codemod_work_in_every_instance():
    """The matcher decorators are gathered once per class; each instance calls its own."""
    import libcst.matchers as m
    from libcst.codemod import CodemodContext

    class _Watching(AddTimeout):
        @m.visit(m.Call(func=m.Attribute(attr=m.Name("get"))))
        def saw_a_get(self, node: cst.Call) -> None:
            self.gets = getattr(self, "gets", 0) + 1

    runs = []
    for _ in range(2):
        command = _Watching(CodemodContext(filename="example.py"))
        command.transform_module(cst.parse_module("import requests\nrequests.get(u)\nrequests.get(v)\n"))
        runs.append(command.gets)
    assert runs == [2, 2]
