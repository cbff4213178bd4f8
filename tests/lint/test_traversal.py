"""The fast walk meets the nodes that matter in the same order as LibCST's own visitor."""

from __future__ import annotations

import textwrap

import libcst as cst

from resilint.lint.traversal import children, iter_nodes, walk

SOURCE = textwrap.dedent(
    '''
    import a.b as c
    from .x import (y as z, w)

    @decorate(arg=f())
    class K(Base, metaclass=Meta):
        attr: int = g()

        @property
        async def m(self, p=h(), *args, k: "T" = None, **kw) -> R:
            async with x() as (u, v), y():
                async for i in aiter():
                    try:
                        await call(lambda q: q.r(), *s, **t)[0].u
                    except (E, F) as err:
                        raise G() from err
                    else:
                        return [j(k) for k in l if m(k)]
                    finally:
                        del n[o():p()]
            while (w := nxt()) is not None:
                yield {kk: vv() for kk, vv in w}
            match cmd:
                case Point(x=0) if guard():
                    pass
    print(f"{fmt(1)!r:>{width()}}", sep="", **opts)
    '''
)
KINDS = (
    cst.Call, cst.Name, cst.Attribute, cst.FunctionDef, cst.ClassDef, cst.Assign, cst.AnnAssign,
    cst.For, cst.With, cst.Try, cst.ExceptHandler, cst.Return, cst.Lambda, cst.ListComp,
    cst.DictComp, cst.Import, cst.ImportFrom, cst.Decorator, cst.Arg, cst.Param, cst.While,
    cst.NamedExpr, cst.Await, cst.Subscript, cst.FormattedStringExpression, cst.Match,
)


class _Recorder(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.seen = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, KINDS):
            self.seen.append(node)
        return True


def test_iter_nodes_matches_libcst_order():
    module = cst.parse_module(SOURCE)
    recorder = _Recorder()
    module.visit(recorder)
    ours = [node for node in iter_nodes(module) if isinstance(node, KINDS)]
    assert [type(n).__name__ for n in ours] == [type(n).__name__ for n in recorder.seen]
    assert all(a is b for a, b in zip(ours, recorder.seen))
    assert len(ours) > 80


def test_walk_calls_visit_and_leave_and_can_skip_children():
    events = []

    class Visitor:
        def visit_FunctionDef(self, node):
            events.append(("visit", node.name.value))

        def leave_FunctionDef(self, node):
            events.append(("leave", node.name.value))

        def visit_ClassDef(self, node):
            events.append(("class", node.name.value))
            return node.name.value != "Skipped"

        def visit_Call(self, node):
            events.append(("call", cst.Module([]).code_for_node(node.func)))

    walk(cst.parse_module("def a():\n    def b():\n        f()\nclass Skipped:\n    g()\nh()\n"), Visitor())
    assert events == [
        ("visit", "a"), ("visit", "b"), ("call", "f"), ("leave", "b"), ("leave", "a"),
        ("class", "Skipped"), ("call", "h"),
    ]


def test_children_are_in_source_order_and_miss_no_code_on_real_files():
    """Over resilint's own sources: our children are LibCST's, minus punctuation, same order."""
    from tests.conftest import REPO

    code_bearing = (cst.BaseExpression, cst.BaseStatement, cst.BaseSmallStatement, cst.BaseSuite)
    for path in sorted((REPO / "src").rglob("*.py")):
        for node in iter_nodes(cst.parse_module(path.read_text(encoding="utf-8"))):
            ours = [id(c) for c in children(node)]
            theirs = [id(c) for c in node.children if id(c) in set(ours)]
            assert ours == theirs, f"{path}: {type(node).__name__}"
            missing = [c for c in node.children if isinstance(c, code_bearing) and id(c) not in set(ours)]
            assert not missing, f"{path}: {type(node).__name__} loses {missing[:1]}"
