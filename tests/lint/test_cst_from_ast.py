"""The LibCST tree made from the ``ast`` tree must be the one LibCST's parser makes: the same
node classes and code-holding fields, node for node, with LibCST's positions and source text
for the nodes findings are reported at."""

from __future__ import annotations

import ast
import dataclasses
import sys
import textwrap
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

import resilint
from resilint.lint import checker as checker_module
from resilint.codemods import codemods_for
from resilint.fixing.fix_edits import with_fixes
from resilint.lint.checker import Checker, parse_module, _unvalidated, check_source
from resilint.lint.config import Settings
from resilint.lint.cst_from_ast import ConvertedTree, Unconvertible, convert
from resilint.lint.positions import ConvertedPositions, Unplaced
from resilint.lint.registry import all_rules
from resilint.lint.source import decode, python_lines
from resilint.lint.traversal import iter_nodes

# Fields that hold only whitespace, punctuation or formatting: a converted tree leaves them at
# their defaults, and nothing resilint reads depends on them.
_FORMATTING = {
    "lpar", "rpar", "leading_lines", "lines_after_decorators", "header", "footer", "comma", "semicolon", "equal",
    "dot", "colon", "first_colon", "lbracket", "rbracket", "lbrace", "rbrace", "indent", "trailing_whitespace",
    "leading_whitespace", "encoding", "default_indent", "default_newline", "has_trailing_newline", "walrus", "arrow",
    "annotation_indicator", "separator", "trailing_comma",
}

AWKWARD = '''\
"""Docstring."""
from __future__ import annotations
import os.path as p, sys
from . import sibling
from ..pkg.mod import (a as b, c)
from x import *

@retry(stop=3)
@other
async def fetch(url, /, tïme: int = 1, *args, key=None, **kwargs) -> "Resp":
    é = "ünïcode"; requests.get(é, timeout=(3, 5), params={"q": "ä", **extra})
    async with s.get(u) as r, lock:
        return await f(x for x in range(3))(*args, **kwargs)
    any(
        x for x in (y)  # a comment before the call's parenthesis
    ) and all(y for y in g(z)  # another
              )
    async for item in stream():
        yield item
    yield from other()

def f(a, *, b): return g(h(1), (2, 3))[0](4)
class C(Base, metaclass=M):
    x: int = 1
    y: str
    def m(self): pass
for a, *rest in b():
    while c(a):
        d(a).e(lambda q, *r, s=1, **t: z())
    else:
        break
if x: pass
elif y: pass
else: pass
if x:
    pass
else:
    if y:
        pass
try:
    pass
except (A, B) as e:
    raise C() from e
except:
    raise
else:
    pass
finally:
    del a, b[1], c.d
x = [q(i) for i in r() if i if not i for j in i] if s() else t()
y = {k: v for k, v in z.items()}, {i for i in z}, {1, 2}, {**a, 'b': 2}
z = a[1:2, ::3], a[:], a[1::], a["x:":], a[(1, 2)], a[(1), 2], a[...]
w = -1 + 2 * 3 ** 4 // 5 % 6 @ m - (7 << 8 >> 9) & 10 | 11 ^ ~12
v = a < b <= c == d != e > f >= g is h is not i in j not in k
u = a and b and c or d or not e
t = 1j, 1.5, 0x1F, 1_000, b"bytes", rb"raw", "implicit" "concat", f"f{x!r:>{w}}" "tail", u"u"
s = (n := 5), f(n := 6)
global gg
x += 1; x -= 1; x *= 2; x /= 2; x //= 2; x %= 2; x **= 2; x <<= 1; x >>= 1; x &= 1; x |= 1; x ^= 1; x @= m
assert x, "message"
def \\
  spaced(): pass
def one_line(): return 1; pass
with (open(a)) as f: pass
print(f"{len(x)} and {y.z(1)}")
'''


def _files() -> List[Path]:
    package = Path(resilint.__file__).parent
    tests = Path(__file__).parent.parent
    return sorted([*package.rglob("*.py"), *tests.rglob("*.py")])


def _converted(text: str) -> ConvertedTree:
    with _unvalidated():
        return convert(ast.parse(text), text, python_lines(text))


def _difference(made: object, parsed: object, where: str = "module") -> Optional[str]:
    """Where the two trees differ in anything but formatting, or None."""
    if isinstance(made, (list, tuple)) and isinstance(parsed, (list, tuple)):
        if len(made) != len(parsed):
            return f"{where}: {len(made)} items, LibCST {len(parsed)}"
        for index, (a, b) in enumerate(zip(made, parsed)):
            found = _difference(a, b, f"{where}[{index}]")
            if found:
                return found
        return None
    if type(made) is not type(parsed):
        return f"{where}: {type(made).__name__}, LibCST {type(parsed).__name__}"
    if isinstance(made, cst.CSTNode):
        for field in dataclasses.fields(made):
            if field.name in _FORMATTING or "whitespace" in field.name:
                continue
            found = _difference(getattr(made, field.name), getattr(parsed, field.name), f"{where}.{field.name}")
            if found:
                return found
        return None
    return None if made == parsed else f"{where}: {made!r}, LibCST {parsed!r}"


def _pairs(text: str) -> Iterator[Tuple[cst.CSTNode, cst.CSTNode, ConvertedPositions, object]]:
    """Each node of the converted tree with LibCST's, its positions, and LibCST's positions."""
    made = _converted(text)
    parsed = parse_module(text)
    theirs = MetadataWrapper(parsed, unsafe_skip_copy=True).resolve(PositionProvider)
    ours = ConvertedPositions(made.module, made.known, python_lines(text))
    for a, b in zip(iter_nodes(made.module), iter_nodes(parsed)):
        yield a, b, ours, theirs[b] if not isinstance(b, cst.Module) else None


def test_awkward_code_converts_as_libcst_parses_it():
    assert _difference(_converted(AWKWARD).module, parse_module(AWKWARD)) is None


# The checks over resilint's own files (and its tests') are split into shards that the test
# workers share: each takes a minute or more whole.
_SHARDS = 6


@pytest.mark.parametrize("shard", range(_SHARDS))
def test_every_file_of_resilint_and_its_tests_converts_as_libcst_parses_it(shard):
    differences = []
    for path in _files()[shard::_SHARDS]:
        text = decode(path.read_bytes()).text
        try:
            made = _converted(text)
        except Unconvertible:
            continue
        found = _difference(made.module, parse_module(text))
        if found:
            differences.append(f"{path}: {found}")
    assert not differences


def _located(node: cst.CSTNode, parent: Optional[cst.CSTNode]) -> bool:
    """The kinds of node rules and summaries report at; an argument in parentheses of its own
    (``f((a or b))``) is not one of them (its range leaves them out, see below)."""
    if isinstance(node, (cst.Call, cst.FunctionDef, cst.ClassDef, cst.Decorator, cst.For, cst.While, cst.With,
                         cst.Try, cst.Tuple, cst.GeneratorExp, cst.Integer, cst.Float)):
        return True
    if isinstance(node, cst.Arg):
        return not node.value.lpar or isinstance(node.value, (cst.Tuple, cst.GeneratorExp))
    if isinstance(node, cst.Name) and isinstance(parent, (cst.Arg, cst.FunctionDef, cst.ClassDef, cst.Call)):
        return True
    return isinstance(node, cst.Attribute) and isinstance(parent, cst.Call)


@pytest.mark.parametrize("name", ["awkward", *(f"resilint-{shard}" for shard in range(_SHARDS))])
def test_positions_are_libcsts_for_the_nodes_findings_are_reported_at(name):
    if name == "awkward":
        texts = [AWKWARD]
    else:
        texts = [decode(p.read_bytes()).text for p in _files()[int(name.split("-")[1])::_SHARDS]]
    texts = [text for text in texts if _convertible(text)]
    wrong, checked = [], 0
    for text in texts:
        parents = {}
        for ours, theirs, positions, expected in _pairs(text):
            for child in _children(theirs):
                parents[id(child)] = theirs
            if not _located(theirs, parents.get(id(theirs))) or _inside_f_string(theirs, parents):
                continue
            checked += 1
            if positions[ours] != expected:
                wrong.append((type(ours).__name__, positions[ours], expected))
    assert checked > (50 if name == "awkward" else 10_000 // _SHARDS)
    assert not wrong[:10]


def _convertible(text: str) -> bool:
    try:
        _converted(text)
    except Unconvertible:
        return False
    return True


def _children(node: cst.CSTNode) -> List[cst.CSTNode]:
    from resilint.lint.traversal import children

    return children(node)


def _inside_f_string(node: cst.CSTNode, parents: dict) -> bool:
    while node is not None:
        if isinstance(node, cst.FormattedString):
            return not isinstance(node, cst.Call)
        node = parents.get(id(node))
    return False


def test_calls_inside_f_strings_are_placed():
    text = 'print(f"{len(x)} and {y.z(1)}")\n'
    calls = [(positions[a], expected) for a, b, positions, expected in _pairs(text) if isinstance(b, cst.Call)]
    assert len(calls) == 3
    assert [ours for ours, _ in calls] == [expected for _, expected in calls]


def test_the_text_of_an_expression_is_its_source():
    text = textwrap.dedent("""\
        requests.get(url, timeout=(3.05,
                                   27))
        f(x for x in y)
        f((x for x in y), 1)
        g(a  +  b, [1,2], "s" 'concat')
        """)
    made = _converted(text)
    positions = ConvertedPositions(made.module, made.known, python_lines(text))
    parsed = parse_module(text)
    texts = []
    for ours, theirs in zip(iter_nodes(made.module), iter_nodes(parsed)):
        if isinstance(ours, cst.Arg):
            texts.append((positions.text_of(ours.value), parsed.code_for_node(theirs.value)))
    assert [" ".join(t.split()) for t, _ in texts] == [" ".join(t.split()) for _, t in texts]
    assert texts[1][0].split() == ["(3.05,", "27)"]


def test_an_expression_in_parentheses_of_its_own_is_placed_without_them():
    """LibCST counts ``(a or b)``'s parentheses as the expression's; ``ast`` does not, and the
    converter knows where they are only for tuples and generators."""
    text = "f((a or b))\n"
    pairs = list(_pairs(text))
    value = next(ours for ours, theirs, _, _ in pairs if isinstance(theirs, cst.BooleanOperation))
    positions = pairs[0][2]
    assert positions.text_of(value) == "a or b"
    assert (positions[value].start.column, positions[value].end.column) == (3, 9)


# Syntax of later Pythons, converted where this interpreter's ``ast`` reads it (``since``).
NEWER = [
    pytest.param((3, 10), """\
        import requests
        match command.split():
            case [action]: requests.get(action)
            case [action, obj] if obj: pass
            case ["go", *rest] | ("stop", *_) | []: pass
            case 1, 2: pass
            case (): pass
            case (1 | 2) as pair: pass
            case {"k": v, 1: _, **kw}: pass
            case {}: pass
            case Point(x=0, y=yy) | Point(1, 2) | a.b.C(): pass
            case -1 | 1+2j | None | True | "s" "t" | b"x" | a.b: pass
            case (a,): pass
            case _:
                requests.post(command, timeout=(3, 5))
        """, id="match"),
    pytest.param((3, 11), """\
        import requests
        try:
            requests.get(u)
        except* (ValueError, TypeError) as group:
            requests.post(u)
        except* OSError:
            pass
        else:
            pass
        finally:
            requests.put(u)
        """, id="except-star"),
    pytest.param((3, 12), """\
        import requests
        type Url = str
        type Pair[T: (int, str), *Ts, **P] = tuple[T, T]
        def fetch[T: object, U](url: Url, kind: type[T]) -> T:
            return requests.get(url)
        class Client[T](Base, metaclass=M):
            def get[S](self, s: S): return requests.get(s)
        print(f"{'nested ' + "quotes"!r:>{w}} {x["key"]}")
        """, id="type-parameters"),
    pytest.param((3, 13), """\
        def f[T = int, *Ts = *tuple[int, ...], **P = [int, str]](): pass
        class C[T: int = bool]: pass
        """, id="type-parameter-defaults"),
]


@pytest.mark.parametrize(("since", "code"), NEWER)
def test_newer_syntax_converts_as_libcst_parses_it_where_ast_reads_it(since, code):
    text = textwrap.dedent(code)
    if sys.version_info < since:  # ``ast`` refuses the file: LibCST alone reads it (checker)
        with pytest.raises(SyntaxError):
            ast.parse(text)
        return
    assert _difference(_converted(text).module, parse_module(text)) is None


@pytest.mark.parametrize(("since", "code"), NEWER[:3])
def test_newer_syntax_finds_the_same_and_places_calls_as_libcst(since, code, monkeypatch):
    text = textwrap.dedent(code)
    found = check_source(text, ["RES101", "RES103"])
    assert found and all(f.code in ("RES101", "RES103") for f in found)
    if sys.version_info >= since:
        calls = [(positions[a], expected) for a, b, positions, expected in _pairs(text) if isinstance(b, cst.Call)]
        assert calls and [ours for ours, _ in calls] == [expected for _, expected in calls]
    monkeypatch.setattr(checker_module, "_converted", lambda tree, text, lines: None)
    assert check_source(text, ["RES101", "RES103"]) == found


def test_identifiers_python_normalises_are_left_to_libcst():
    """``ast`` spells ``ｔｉｍｅ`` as ``time``; LibCST, and messages, as written."""
    text = "import requests\nｔｉｍｅ = 1\nrequests.get(ｔｉｍｅ)\n"
    with pytest.raises(Unconvertible):
        _converted(text)
    [finding] = check_source(text, ["RES101"])
    assert (finding.line, finding.column, finding.end_column) == (3, 1, 13)


def test_a_node_made_from_no_ast_node_spans_its_placed_children_or_is_unplaced():
    text = "from x import *\nfor a in b:\n    pass\nelse:\n    c()\n"
    made = _converted(text)
    positions = ConvertedPositions(made.module, made.known, python_lines(text))
    star = made.module.body[0].body[0].names
    with pytest.raises(Unplaced):
        positions[star]
    orelse = made.module.body[1].orelse
    assert (positions[orelse].start.line, positions[orelse].end.line) == (5, 5)


EXAMPLES = [
    pytest.param(example.code, rule.code, id=f"{code}-{kind}-{index}")
    for code, rule in all_rules().items()
    for kind, examples in (("valid", rule.valid_examples()), ("invalid", rule.invalid_examples()))
    for index, example in enumerate(examples)
]


@pytest.mark.parametrize(("code", "rule"), EXAMPLES)
def test_rule_examples_find_the_same_with_either_tree(code, rule, monkeypatch):
    converted = check_source(code, [rule])
    monkeypatch.setattr(checker_module, "_converted", lambda tree, text, lines: None)
    assert check_source(code, [rule]) == converted


FIXABLE = [
    pytest.param(example.code, rule.code, id=f"{code}-{index}")
    for code, rule in all_rules().items()
    if codemods_for(code)
    for index, example in enumerate(rule.invalid_examples())
]


@pytest.mark.parametrize(("code", "rule"), FIXABLE)
def test_fix_edits_are_the_same_with_positions_from_the_built_tree(code, rule, monkeypatch, tmp_path):
    """``check`` hands the codemods the positions of the tree it built; they must find the
    same edits as with LibCST's PositionProvider over their own parse."""
    path = tmp_path / "example.py"
    path.write_text(code)
    settings = Settings(root=str(tmp_path))

    def findings() -> list:
        return Checker(settings, [rule], fix_edits=with_fixes).check_file(code.encode(), str(path)).findings

    built = findings()
    monkeypatch.setattr(checker_module, "_converted", lambda tree, text, lines: None)
    assert findings() == built
