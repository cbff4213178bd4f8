"""A LibCST tree built from the file's ``ast`` tree, instead of parsing the file again.

The checker parses every file with CPython's parser anyway (syntax errors, positions). LibCST's
own parser costs ten times as much, for a tree that the semantic model, the rules and the
summaries read only for its structure: which statements, calls, names and literals there are,
never its whitespace or comments. So the checker converts the ``ast`` tree to the LibCST nodes
the parser would have made, with the same node classes and code-holding fields, and with
whitespace and punctuation left at their defaults: about a third of the cost of LibCST's parse.
Positions are recorded as the nodes are made (``ConvertedPositions``), and the text of an
expression is read from the source (``ConvertedPositions.text_of``), so what findings quote is
the file's own code.

What is not converted raises :class:`Unconvertible`, and the checker parses that file with
LibCST as before: identifiers Python normalises, and syntax this converter does not know.
Syntax newer than the running interpreter never gets here (its ``ast`` refuses the file);
``match`` (3.10), ``except*`` (3.11), type parameters and ``type`` statements (3.12) are
converted wherever the interpreter reads them. A node whose position is asked for but unknown
makes the checker do the same (``Unplaced``). String literals are taken verbatim from the source;
f-strings and implicitly concatenated strings are parsed by LibCST on their own. Codemods
rewrite their own LibCST parse of the file; ``check`` hands them this tree's positions.

``tests/lint/test_cst_from_ast.py`` compares the converted tree with LibCST's parse of every
file in the test suite and in resilint itself, node class by node class and field by field.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import tokenize
import unicodedata
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import libcst as cst
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

from resilint.lint.positions import name_after_keyword
from resilint.lint.source import character_column, python_lines, python_tokens
from resilint.lint.suppressions import UNKNOWN_END

# A node's position: its range, the ast node it was made from, or (line, byte offset, end line,
# end byte offset) as ``ast`` counts them.
Position = Union[CodeRange, ast.AST, Tuple[int, int, int, int]]


class Unconvertible(Exception):
    """The file holds code this converter does not build (the checker parses it instead)."""


def _maker(cls: type, *given: str) -> Callable[..., Any]:
    """A constructor of LibCST's ``cls`` taking the fields ``given`` (by position or keyword),
    the others at their defaults: what its dataclass ``__init__`` does, less the class call's
    keyword handling and ``__post_init__``'s validation (the nodes come from a tree CPython
    parsed). For the node types a tree has most of, it makes building a tree a tenth faster.
    Generated as ``dataclasses`` generates ``__init__``, from the class's own fields, so a LibCST
    that adds a field gives it its default."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    if any(name not in fields for name in given):
        raise TypeError(f"{cls.__name__} has no field among {given}")
    scope: Dict[str, Any] = {"cls": cls, "new": object.__new__, "put": object.__setattr__}
    body = ["    node = new(cls)"]
    for name, field in fields.items():
        if name in given:
            body.append(f"    put(node, {name!r}, {name})")
        elif field.default is not dataclasses.MISSING:
            scope[f"default_{name}"] = field.default
            body.append(f"    put(node, {name!r}, default_{name})")
        else:
            scope[f"factory_{name}"] = field.default_factory
            body.append(f"    put(node, {name!r}, factory_{name}())")
    source = f"def make({', '.join(given)}):\n" + "\n".join(body) + "\n    return node\n"
    exec(source, scope)  # noqa: S102 - code made from the class's own field names
    return scope["make"]  # type: ignore[no-any-return]


_new_name = _maker(cst.Name, "value")
_new_simple_string = _maker(cst.SimpleString, "value", "lpar", "rpar")
_new_integer = _maker(cst.Integer, "value", "lpar", "rpar")
_new_attribute = _maker(cst.Attribute, "value", "attr", "dot", "lpar", "rpar")
_new_call = _maker(cst.Call, "func", "args", "lpar", "rpar", "whitespace_after_func", "whitespace_before_args")
_new_arg = _maker(
    cst.Arg, "value", "keyword", "equal", "comma", "star", "whitespace_after_star", "whitespace_after_arg"
)
_new_subscript = _maker(
    cst.Subscript, "value", "slice", "lbracket", "rbracket", "lpar", "rpar", "whitespace_after_value"
)
_new_subscript_element = _maker(cst.SubscriptElement, "slice", "comma")
_new_index = _maker(cst.Index, "value")
_new_element = _maker(cst.Element, "value", "comma")
_new_param = _maker(
    cst.Param, "name", "annotation", "equal", "default", "comma", "star", "whitespace_after_star",
    "whitespace_after_param",
)
_new_annotation = _maker(cst.Annotation, "annotation", "whitespace_before_indicator", "whitespace_after_indicator")
_new_expr = _maker(cst.Expr, "value", "semicolon")
_new_assign = _maker(cst.Assign, "targets", "value", "semicolon")
_new_assign_target = _maker(cst.AssignTarget, "target", "whitespace_before_equal", "whitespace_after_equal")
_new_simple_statement_line = _maker(cst.SimpleStatementLine, "body", "leading_lines", "trailing_whitespace")
_new_indented_block = _maker(cst.IndentedBlock, "body", "header", "indent", "footer")


_WS = cst.SimpleWhitespace("")
_SPACE = cst.SimpleWhitespace(" ")
_NO_PARENS: Tuple[()] = ()
_DEFAULT = cst.MaybeSentinel.DEFAULT
_TRAILING = cst.TrailingWhitespace()
# Punctuation holds only whitespace, so one instance of each serves every node (and is never a
# node anything is looked up by).
_DOT = cst.Dot(whitespace_before=_WS, whitespace_after=_WS)
_COLON = cst.Colon()
_EQUAL = cst.AssignEqual(whitespace_before=_WS, whitespace_after=_WS)
_ASYNC = cst.Asynchronous(whitespace_after=_SPACE)
_LBRACKET, _RBRACKET = cst.LeftSquareBracket(), cst.RightSquareBracket()
_LBRACE, _RBRACE = cst.LeftCurlyBrace(), cst.RightCurlyBrace()
_LPAR, _RPAR = (cst.LeftParen(),), (cst.RightParen(),)
_COMPOUND = frozenset(
    {cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.Match}
)
_STRING_PREFIX = re.compile(r"[rRbBuU]{0,2}")
_SINGLE_QUOTED = {
    '"': re.compile(r'"(?:[^"\\\n]|\\.|\\\n)*"', re.DOTALL),
    "'": re.compile(r"'(?:[^'\\\n]|\\.|\\\n)*'", re.DOTALL),
    '"""': re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""', re.DOTALL),
    "'''": re.compile(r"'''(?:[^'\\]|\\.|'(?!''))*'''", re.DOTALL),
}
_NON_ASCII_WORD = re.compile(r"\w*[^\W\x00-\x7f]\w*")
_FROM = re.compile(r"from\s+[.\s]*")

# Operators hold only whitespace too: one instance of each.
_BINARY = {
    ast.Add: cst.Add(), ast.Sub: cst.Subtract(), ast.Mult: cst.Multiply(), ast.MatMult: cst.MatrixMultiply(),
    ast.Div: cst.Divide(), ast.FloorDiv: cst.FloorDivide(), ast.Mod: cst.Modulo(), ast.Pow: cst.Power(),
    ast.LShift: cst.LeftShift(), ast.RShift: cst.RightShift(), ast.BitOr: cst.BitOr(), ast.BitXor: cst.BitXor(),
    ast.BitAnd: cst.BitAnd(),
}
_AUGMENTED = {
    ast.Add: cst.AddAssign(), ast.Sub: cst.SubtractAssign(), ast.Mult: cst.MultiplyAssign(),
    ast.MatMult: cst.MatrixMultiplyAssign(), ast.Div: cst.DivideAssign(), ast.FloorDiv: cst.FloorDivideAssign(),
    ast.Mod: cst.ModuloAssign(), ast.Pow: cst.PowerAssign(), ast.LShift: cst.LeftShiftAssign(),
    ast.RShift: cst.RightShiftAssign(), ast.BitOr: cst.BitOrAssign(), ast.BitXor: cst.BitXorAssign(),
    ast.BitAnd: cst.BitAndAssign(),
}
_UNARY = {ast.UAdd: cst.Plus(), ast.USub: cst.Minus(), ast.Invert: cst.BitInvert(), ast.Not: cst.Not()}
_BOOLEAN = {ast.And: cst.And(), ast.Or: cst.Or()}
_COMPARE = {
    ast.Eq: cst.Equal(), ast.NotEq: cst.NotEqual(), ast.Lt: cst.LessThan(), ast.LtE: cst.LessThanEqual(),
    ast.Gt: cst.GreaterThan(), ast.GtE: cst.GreaterThanEqual(), ast.Is: cst.Is(), ast.IsNot: cst.IsNot(),
    ast.In: cst.In(), ast.NotIn: cst.NotIn(),
}


class ConvertedTree:
    """A LibCST module made from an ``ast`` tree, with the position of its nodes."""

    def __init__(
        self, module: cst.Module, known: Dict[int, Position], multiline_strings: List[Tuple[int, int, int]]
    ) -> None:
        self.module = module
        # id of a LibCST node → its range, the ast node it was made from, or (line, byte offset,
        # end line, end byte offset)
        self.known = known
        # (first line, last line, UTF-8 offset of its end on the last line, or UNKNOWN_END) of each
        # string literal, or implicit concatenation, on several lines: for suppression comments
        self.multiline_strings = multiline_strings


def convert(tree: ast.Module, text: str, lines: Sequence[str]) -> ConvertedTree:
    """The LibCST module of ``text``, whose ``ast`` is ``tree``."""
    if not text.isascii() and not unicodedata.is_normalized("NFKC", text) and _normalised_identifiers(tree, text):
        raise Unconvertible("characters that Python normalises in identifiers")
    converter = _Converter(text, lines)
    module = converter.module(tree)
    return ConvertedTree(module, converter.known, converter.multiline_strings)


class _Converter:
    def __init__(self, text: str, lines: Sequence[str]) -> None:
        self.text = text
        self.lines = lines
        self.known: Dict[int, Position] = {}
        self._ended: Optional[List[str]] = None  # the lines with their line breaks, once needed
        self.multiline_strings: List[Tuple[int, int, int]] = []

    # --- positions ------------------------------------------------------------------------

    def _at(self, node: cst.CSTNode, source: Position) -> Any:
        self.known[id(node)] = source
        return node

    def _segment(self, node: ast.AST) -> str:
        return self._text(node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def _text(self, line: int, start: int, end_line: int, end: int) -> str:
        """The source between two positions, in ``ast``'s line numbers and byte columns."""
        if line == end_line:
            return _bytes_slice(self.lines[line - 1], start, end)
        if self._ended is None:
            self._ended = python_lines(self.text, keepends=True)
        pieces = [_bytes_slice(self._ended[line - 1], start, None)]
        pieces.extend(self._ended[line:end_line - 1])
        pieces.append(_bytes_slice(self._ended[end_line - 1], 0, end))
        return "".join(pieces)

    def _name_after_keyword(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef]) -> cst.Name:
        name = _new_name(node.name)
        where = name_after_keyword(self.lines, node.lineno, node.col_offset, node.name)
        if where is not None:
            self.known[id(name)] = where
        return name

    # --- module and blocks ----------------------------------------------------------------

    def module(self, tree: ast.Module) -> cst.Module:
        return cst.Module(
            body=self._statements_of(tree.body), header=(), footer=(), encoding="utf-8",
            default_indent="    ", default_newline="\n", has_trailing_newline=True,
        )

    def _statements_of(self, body: Sequence[ast.stmt]) -> Tuple[cst.CSTNode, ...]:
        """Statements grouped as LibCST groups them: simple statements sharing a line (``a; b``)
        form one ``SimpleStatementLine``."""
        result: List[cst.CSTNode] = []
        line: List[cst.BaseSmallStatement] = []
        first: Optional[ast.stmt] = None
        last: Optional[ast.stmt] = None
        for statement in body:
            convert = _STATEMENTS.get(statement.__class__)
            if convert is None:
                raise Unconvertible(f"no conversion for {statement.__class__.__name__}")
            node = convert(self, statement)
            if node.__class__ in _COMPOUND:
                if line:
                    result.append(self._simple_line(line, first, last))  # type: ignore[arg-type]
                    line = []
                result.append(node)
                continue
            if line and last is not None and statement.lineno != last.end_lineno:  # type: ignore[attr-defined]
                result.append(self._simple_line(line, first, last))  # type: ignore[arg-type]
                line = []
            if not line:
                first = statement
            line.append(node)  # type: ignore[arg-type]
            last = statement
        if line:
            result.append(self._simple_line(line, first, last))  # type: ignore[arg-type]
        return tuple(result)

    def _simple_line(self, body: List[cst.BaseSmallStatement], first: ast.stmt, last: ast.stmt) -> cst.SimpleStatementLine:
        node = _new_simple_statement_line(body=tuple(body), leading_lines=(), trailing_whitespace=_TRAILING)
        return self._at(node, _span(first, last))

    def _block(self, body: Sequence[ast.stmt]) -> cst.BaseSuite:
        """An indented block, or the statements that follow the colon on its line."""
        first = body[0]
        statements = self._statements_of(body)
        if _bytes_slice(self.lines[first.lineno - 1], 0, first.col_offset).strip():
            if len(statements) != 1 or not isinstance(statements[0], cst.SimpleStatementLine):
                raise Unconvertible("a compound statement after a colon")
            suite = cst.SimpleStatementSuite(body=statements[0].body, leading_whitespace=_SPACE,
                                             trailing_whitespace=_TRAILING)
            return self._at(suite, _span(first, body[-1]))
        block = _new_indented_block(body=statements, header=_TRAILING, indent=None, footer=())
        return self._at(block, _span(first, body[-1]))

    def _else(self, body: Sequence[ast.stmt]) -> Optional[cst.Else]:
        if not body:
            return None
        node = cst.Else(body=self._block(body), leading_lines=(), whitespace_before_colon=_WS)
        return self._at(node, _span(body[0], body[-1]))

    # --- statements -------------------------------------------------------------------------

    def _expr_statement(self, node: ast.Expr) -> cst.Expr:
        return self._at(_new_expr(value=self.expression(node.value), semicolon=_DEFAULT), node)

    def _assign(self, node: ast.Assign) -> cst.Assign:
        targets = tuple(
            self._at(_new_assign_target(target=self.expression(t), whitespace_before_equal=_SPACE, whitespace_after_equal=_SPACE), t)
            for t in node.targets
        )
        return self._at(_new_assign(targets=targets, value=self.expression(node.value), semicolon=_DEFAULT), node)

    def _aug_assign(self, node: ast.AugAssign) -> cst.AugAssign:
        operator = _AUGMENTED[node.op.__class__]
        return self._at(
            cst.AugAssign(target=self.expression(node.target), operator=operator, value=self.expression(node.value),
                          semicolon=_DEFAULT),
            node,
        )

    def _ann_assign(self, node: ast.AnnAssign) -> cst.AnnAssign:
        value = self.expression(node.value) if node.value is not None else None
        return self._at(
            cst.AnnAssign(target=self.expression(node.target), annotation=self._annotation(node.annotation),
                          value=value, equal=_DEFAULT, semicolon=_DEFAULT),
            node,
        )

    def _annotation(self, expr: ast.expr) -> cst.Annotation:
        return self._at(_new_annotation(annotation=self.expression(expr), whitespace_before_indicator=_DEFAULT,
                                       whitespace_after_indicator=_SPACE), expr)

    def _return(self, node: ast.Return) -> cst.Return:
        value = self.expression(node.value) if node.value is not None else None
        return self._at(cst.Return(value=value, whitespace_after_return=_DEFAULT, semicolon=_DEFAULT), node)

    def _pass(self, node: ast.Pass) -> cst.Pass:
        return self._at(cst.Pass(semicolon=_DEFAULT), node)

    def _break(self, node: ast.Break) -> cst.Break:
        return self._at(cst.Break(semicolon=_DEFAULT), node)

    def _continue(self, node: ast.Continue) -> cst.Continue:
        return self._at(cst.Continue(semicolon=_DEFAULT), node)

    def _raise(self, node: ast.Raise) -> cst.Raise:
        exc = self.expression(node.exc) if node.exc is not None else None
        cause = None
        if node.cause is not None:
            cause = cst.From(item=self.expression(node.cause), whitespace_before_from=_DEFAULT, whitespace_after_from=_SPACE)
        return self._at(cst.Raise(exc=exc, cause=cause, whitespace_after_raise=_DEFAULT, semicolon=_DEFAULT), node)

    def _assert(self, node: ast.Assert) -> cst.Assert:
        msg = self.expression(node.msg) if node.msg is not None else None
        return self._at(
            cst.Assert(test=self.expression(node.test), msg=msg, comma=_DEFAULT, whitespace_after_assert=_SPACE,
                       semicolon=_DEFAULT),
            node,
        )

    def _delete(self, node: ast.Delete) -> cst.Del:
        if len(node.targets) == 1:
            target = self.expression(node.targets[0])
        else:
            elements = tuple(self._element(t) for t in node.targets)
            target = self._at(cst.Tuple(elements=elements, lpar=_NO_PARENS, rpar=_NO_PARENS),
                              _span(node.targets[0], node.targets[-1]))
        return self._at(cst.Del(target=target, whitespace_after_del=_SPACE, semicolon=_DEFAULT), node)

    def _dotted(self, dotted: str, at: Optional[Tuple[int, int]]) -> Union[cst.Name, cst.Attribute]:
        """``a.b.c`` as names and attributes, placed when ``at`` (line, byte offset) is where the
        name is written without spaces."""
        parts = dotted.split(".")
        node: Union[cst.Name, cst.Attribute] = _new_name(parts[0])
        for part in parts[1:]:
            node = _new_attribute(value=node, attr=_new_name(part), dot=_DOT,
                                 lpar=_NO_PARENS, rpar=_NO_PARENS)
        if at is not None and _bytes_slice(self.lines[at[0] - 1], at[1], None).startswith(dotted):
            line, start = at
            end = start + len(dotted.encode("utf-8"))
            piece: cst.BaseExpression = node
            while isinstance(piece, cst.Attribute):
                self.known[id(piece)] = (line, start, line, end)
                self.known[id(piece.attr)] = (line, end - len(piece.attr.value.encode("utf-8")), line, end)
                end -= len(piece.attr.value.encode("utf-8")) + 1
                piece = piece.value
            self.known[id(piece)] = (line, start, line, end)
        return node

    def _alias(self, alias: ast.alias) -> cst.ImportAlias:
        asname = None
        if alias.asname is not None:
            asname = cst.AsName(name=_new_name(alias.asname),
                                whitespace_before_as=_SPACE, whitespace_after_as=_SPACE)
        # (an ``import`` alias has a position from Python 3.10)
        at = (alias.lineno, alias.col_offset) if hasattr(alias, "lineno") else None
        node = cst.ImportAlias(name=self._dotted(alias.name, at), asname=asname, comma=_DEFAULT)
        if at is not None:
            self.known[id(node)] = alias
        return node

    def _import(self, node: ast.Import) -> cst.Import:
        names = tuple(self._alias(a) for a in node.names)
        return self._at(cst.Import(names=names, semicolon=_DEFAULT, whitespace_after_import=_SPACE), node)

    def _import_from(self, node: ast.ImportFrom) -> cst.ImportFrom:
        module = None
        if node.module:
            line = self.lines[node.lineno - 1]
            keyword = _FROM.match(line, character_column(line, node.col_offset))
            start = _ast_offset(line, keyword.end()) if keyword is not None else -1
            module = self._dotted(node.module, (node.lineno, start) if start >= 0 else None)
        names: Union[cst.ImportStar, Tuple[cst.ImportAlias, ...]]
        if len(node.names) == 1 and node.names[0].name == "*":
            names = cst.ImportStar()
        else:
            names = tuple(self._alias(a) for a in node.names)
        relative = tuple(_DOT for _ in range(node.level or 0))
        return self._at(
            cst.ImportFrom(module=module, names=names, relative=relative, lpar=None, rpar=None, semicolon=_DEFAULT,
                           whitespace_after_from=_SPACE, whitespace_before_import=_SPACE,
                           whitespace_after_import=_SPACE),
            node,
        )

    def _names(self, node: Union[ast.Global, ast.Nonlocal]) -> Tuple[cst.NameItem, ...]:
        return tuple(cst.NameItem(name=_new_name(n), comma=_DEFAULT) for n in node.names)

    def _global(self, node: ast.Global) -> cst.Global:
        return self._at(cst.Global(names=self._names(node), whitespace_after_global=_SPACE, semicolon=_DEFAULT), node)

    def _nonlocal(self, node: ast.Nonlocal) -> cst.Nonlocal:
        return self._at(cst.Nonlocal(names=self._names(node), whitespace_after_nonlocal=_SPACE, semicolon=_DEFAULT), node)

    def _decorators(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef]) -> Tuple[cst.Decorator, ...]:
        found = []
        for expr in node.decorator_list:
            decorator = cst.Decorator(decorator=self.expression(expr), leading_lines=(), whitespace_after_at=_WS,
                                      trailing_whitespace=_TRAILING)
            line = self.lines[expr.lineno - 1]
            start = character_column(line, expr.col_offset)
            at = line.rfind("@", 0, start)
            if at < 0 or line[at + 1:start].strip():
                raise Unconvertible("a decorator whose '@' is not on its line")
            self.known[id(decorator)] = CodeRange(
                CodePosition(expr.lineno, at),
                CodePosition(expr.end_lineno, character_column(self.lines[expr.end_lineno - 1], expr.end_col_offset)),  # type: ignore[arg-type]
            )
            found.append(decorator)
        return tuple(found)

    def _function(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> cst.FunctionDef:
        decorators = self._decorators(node)
        name = self._name_after_keyword(node)
        type_parameters = self._type_parameters(node)
        params = self._parameters(node.args)
        returns = self._annotation(node.returns) if node.returns is not None else None
        body = self._block(node.body)
        asynchronous = _ASYNC if isinstance(node, ast.AsyncFunctionDef) else None
        return self._at(
            cst.FunctionDef(name=name, params=params, body=body, decorators=decorators, returns=returns,
                            asynchronous=asynchronous, type_parameters=type_parameters, leading_lines=(),
                            lines_after_decorators=(), whitespace_after_def=_SPACE, whitespace_after_name=_WS, whitespace_before_params=_WS,
                            whitespace_before_colon=_WS),
            node,
        )

    def _class(self, node: ast.ClassDef) -> cst.ClassDef:
        decorators = self._decorators(node)
        name = self._name_after_keyword(node)
        type_parameters = self._type_parameters(node)
        arguments = self._arguments(node.bases, node.keywords)
        bases = tuple(a for a in arguments if a.keyword is None and a.star != "**")
        keywords = tuple(a for a in arguments if a.keyword is not None or a.star == "**")
        body = self._block(node.body)
        return self._at(
            cst.ClassDef(name=name, body=body, bases=bases, keywords=keywords, decorators=decorators, lpar=_DEFAULT,
                         rpar=_DEFAULT, type_parameters=type_parameters, leading_lines=(), lines_after_decorators=(),
                         whitespace_after_class=_SPACE, whitespace_after_name=_WS, whitespace_before_colon=_WS),
            node,
        )

    def _if(self, node: ast.If) -> cst.If:
        body = self._block(node.body)
        orelse: Union[cst.If, cst.Else, None] = None
        if node.orelse:
            first = node.orelse[0]
            if len(node.orelse) == 1 and isinstance(first, ast.If) and self._starts_with(first, "elif"):
                orelse = self._if(first)
            else:
                orelse = self._else(node.orelse)
        return self._at(
            cst.If(test=self.expression(node.test), body=body, orelse=orelse, leading_lines=(),
                   whitespace_before_test=_SPACE, whitespace_after_test=_WS),
            node,
        )

    def _starts_with(self, node: ast.AST, keyword: str) -> bool:
        line = self.lines[node.lineno - 1]  # type: ignore[attr-defined]
        return _bytes_slice(line, node.col_offset, None).startswith(keyword)  # type: ignore[attr-defined]

    def _for(self, node: Union[ast.For, ast.AsyncFor]) -> cst.For:
        asynchronous = _ASYNC if isinstance(node, ast.AsyncFor) else None
        return self._at(
            cst.For(target=self.expression(node.target), iter=self.expression(node.iter),
                    body=self._block(node.body),
                    orelse=self._else(node.orelse), asynchronous=asynchronous, leading_lines=(),
                    whitespace_after_for=_SPACE, whitespace_before_in=_SPACE, whitespace_after_in=_SPACE,
                    whitespace_before_colon=_WS),
            node,
        )

    def _while(self, node: ast.While) -> cst.While:
        return self._at(
            cst.While(test=self.expression(node.test),
                      body=self._block(node.body),
                      orelse=self._else(node.orelse), leading_lines=(), whitespace_after_while=_SPACE,
                      whitespace_before_colon=_WS),
            node,
        )

    def _with(self, node: Union[ast.With, ast.AsyncWith]) -> cst.With:
        items = []
        for item in node.items:
            asname = None
            if item.optional_vars is not None:
                asname = cst.AsName(name=self.expression(item.optional_vars), whitespace_before_as=_SPACE,
                                    whitespace_after_as=_SPACE)
            with_item = cst.WithItem(item=self.expression(item.context_expr), asname=asname, comma=_DEFAULT)
            self.known[id(with_item)] = _span(item.context_expr, item.optional_vars or item.context_expr)
            items.append(with_item)
        asynchronous = _ASYNC if isinstance(node, ast.AsyncWith) else None
        body = self._block(node.body)
        return self._at(
            cst.With(items=tuple(items), body=body, asynchronous=asynchronous, leading_lines=(), lpar=_DEFAULT,
                     rpar=_DEFAULT, whitespace_after_with=_SPACE, whitespace_before_colon=_WS),
            node,
        )

    def _try(self, node: ast.Try) -> Union[cst.Try, cst.TryStar]:
        """``try`` and ``try: ... except* E:`` (Python 3.11, ``ast.TryStar``)."""
        star = node.__class__ is not ast.Try
        body = self._block(node.body)
        handlers = tuple(self._handler(h, cst.ExceptStarHandler if star else cst.ExceptHandler) for h in node.handlers)
        orelse, finalbody = self._else(node.orelse), self._finally(node.finalbody)
        kind = cst.TryStar if star else cst.Try
        return self._at(
            kind(body=body, handlers=handlers, orelse=orelse, finalbody=finalbody, leading_lines=(),  # type: ignore[arg-type]
                 whitespace_before_colon=_WS),
            node,
        )

    def _handler(self, handler: ast.ExceptHandler, kind: Any) -> Any:
        name = None
        if handler.name is not None:
            name = cst.AsName(name=_new_name(handler.name), whitespace_before_as=_SPACE, whitespace_after_as=_SPACE)
        # (``except A, B:`` from Python 3.14: a tuple without parentheses, as LibCST has it)
        exception = self.expression(handler.type) if handler.type is not None else None
        return self._at(
            kind(body=self._block(handler.body), type=exception, name=name, leading_lines=(),
                 whitespace_after_except=_SPACE, whitespace_before_colon=_WS),
            handler,
        )

    def _finally(self, body: Sequence[ast.stmt]) -> Optional[cst.Finally]:
        if not body:
            return None
        node = cst.Finally(body=self._block(body), leading_lines=(), whitespace_before_colon=_WS)
        return self._at(node, _span(body[0], body[-1]))

    # --- type parameters and ``type`` (Python 3.12) ------------------------------------------

    def _type_parameters(self, node: Any) -> Optional[cst.TypeParameters]:
        params = getattr(node, "type_params", None)
        if not params:
            return None
        return cst.TypeParameters(params=tuple(self._type_param(p) for p in params))

    def _type_param(self, param: Any) -> cst.TypeParam:
        name = _new_name(param.name)
        kind = param.__class__.__name__
        if kind == "TypeVar":
            bound = self.expression(param.bound) if param.bound is not None else None
            declared: Union[cst.TypeVar, cst.TypeVarTuple, cst.ParamSpec] = cst.TypeVar(name=name, bound=bound)
        elif kind == "TypeVarTuple":
            declared = cst.TypeVarTuple(name=name)
        elif kind == "ParamSpec":
            declared = cst.ParamSpec(name=name)
        else:
            raise Unconvertible(f"a type parameter of kind {kind}")
        default = getattr(param, "default_value", None)  # PEP 696, Python 3.13
        star = ""
        if default is not None and default.__class__ is ast.Starred:  # ``*Ts = *tuple[int]``
            star, default = "*", default.value  # type: ignore[attr-defined]
        converted = cst.TypeParam(
            param=declared, default=self.expression(default) if default is not None else None,
            equal=_EQUAL if default is not None else _DEFAULT, star=star,
        )
        return self._at(converted, param)

    def _type_alias(self, node: Any) -> cst.TypeAlias:
        """``type X[T] = ...`` (Python 3.12, ``ast.TypeAlias``)."""
        return self._at(
            cst.TypeAlias(name=self.expression(node.name), value=self.expression(node.value),
                          type_parameters=self._type_parameters(node), semicolon=_DEFAULT),
            node,
        )

    # --- match (Python 3.10) ------------------------------------------------------------------

    def _match(self, node: Any) -> cst.Match:
        cases = tuple(
            cst.MatchCase(pattern=self._pattern(case.pattern), body=self._block(case.body),
                          guard=self.expression(case.guard) if case.guard is not None else None)
            for case in node.cases
        )
        return self._at(cst.Match(subject=self.expression(node.subject), cases=cases), node)

    def _pattern(self, pattern: Any) -> cst.MatchPattern:
        convert = _PATTERNS.get(pattern.__class__.__name__)
        if convert is None:
            raise Unconvertible(f"no conversion for {pattern.__class__.__name__}")
        return self._at(convert(self, pattern), pattern)

    def _match_value(self, pattern: Any) -> cst.MatchValue:
        return cst.MatchValue(value=self.expression(pattern.value))

    def _match_singleton(self, pattern: Any) -> cst.MatchSingleton:
        return cst.MatchSingleton(value=cst.Name(str(pattern.value)))

    def _match_sequence(self, pattern: Any) -> cst.MatchSequence:
        elements = tuple(
            self._at(cst.MatchStar(name=_new_name(p.name) if p.name is not None else None), p)
            if p.__class__.__name__ == "MatchStar"
            else cst.MatchSequenceElement(value=self._pattern(p))
            for p in pattern.patterns
        )
        opening = _bytes_slice(self.lines[pattern.lineno - 1], pattern.col_offset, pattern.col_offset + 1)
        if opening == "[" and self._enclosed(pattern):
            return cst.MatchList(patterns=elements, lbracket=_LBRACKET, rbracket=_RBRACKET)
        if opening == "(" and self._enclosed(pattern):
            return cst.MatchTuple(patterns=elements, lpar=_LPAR, rpar=_RPAR)
        return cst.MatchList(patterns=elements)  # ``case a, b:``, as LibCST has it

    def _match_mapping(self, pattern: Any) -> cst.MatchMapping:
        elements = tuple(
            cst.MatchMappingElement(key=self.expression(key), pattern=self._pattern(value))
            for key, value in zip(pattern.keys, pattern.patterns)
        )
        rest = _new_name(pattern.rest) if pattern.rest is not None else None
        return cst.MatchMapping(elements=elements, rest=rest)

    def _match_class(self, pattern: Any) -> cst.MatchClass:
        positional = tuple(cst.MatchSequenceElement(value=self._pattern(p)) for p in pattern.patterns)
        keywords = tuple(
            cst.MatchKeywordElement(key=_new_name(name), pattern=self._pattern(value))
            for name, value in zip(pattern.kwd_attrs, pattern.kwd_patterns)
        )
        return cst.MatchClass(cls=self.expression(pattern.cls), patterns=positional, kwds=keywords)

    def _match_as(self, pattern: Any) -> cst.MatchAs:
        inner = self._pattern(pattern.pattern) if pattern.pattern is not None else None
        name = _new_name(pattern.name) if pattern.name is not None else None
        return cst.MatchAs(pattern=inner, name=name)

    def _match_or(self, pattern: Any) -> cst.MatchOr:
        return cst.MatchOr(patterns=tuple(cst.MatchOrElement(pattern=self._pattern(p)) for p in pattern.patterns))

    # --- parameters and arguments ---------------------------------------------------------

    def _param(self, arg: ast.arg, default: Optional[ast.expr], star: str) -> cst.Param:
        annotation = self._annotation(arg.annotation) if arg.annotation is not None else None
        param = _new_param(
            name=_new_name(arg.arg), annotation=annotation, equal=_DEFAULT,
            default=self.expression(default) if default is not None else None, comma=_DEFAULT, star=star,
            whitespace_after_star=_WS, whitespace_after_param=_WS,
        )
        start, width = arg.col_offset, len(arg.arg.encode("utf-8"))
        self.known[id(param)] = (arg.lineno, start - len(star), arg.lineno, start + width)
        self.known[id(param.name)] = (arg.lineno, start, arg.lineno, start + width)
        return param

    def _parameters(self, args: ast.arguments) -> cst.Parameters:
        positional = [*args.posonlyargs, *args.args]
        defaults: List[Optional[ast.expr]] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        converted = [self._param(a, d, "") for a, d in zip(positional, defaults)]
        posonly = tuple(converted[:len(args.posonlyargs)])
        star_arg: Union[cst.Param, cst.ParamStar, cst.MaybeSentinel] = _DEFAULT
        if args.vararg is not None:
            star_arg = self._param(args.vararg, None, "*")
        elif args.kwonlyargs:
            star_arg = cst.ParamStar(comma=cst.Comma(whitespace_before=_WS, whitespace_after=_SPACE))
        kwonly = tuple(self._param(a, d, "") for a, d in zip(args.kwonlyargs, args.kw_defaults))
        star_kwarg = self._param(args.kwarg, None, "**") if args.kwarg is not None else None
        return cst.Parameters(
            params=tuple(converted[len(args.posonlyargs):]), star_arg=star_arg, kwonly_params=kwonly,
            star_kwarg=star_kwarg, posonly_params=posonly,
            posonly_ind=cst.ParamSlash(comma=_DEFAULT) if posonly else _DEFAULT,
        )

    def _arguments(
        self, args: Sequence[ast.expr], keywords: Sequence[ast.keyword], call: Optional[ast.Call] = None
    ) -> Tuple[cst.Arg, ...]:
        found: List[Tuple[Tuple[int, int], cst.Arg]] = []
        for arg in args:
            star = ""
            # the argument's own span: a parenthesized tuple's parentheses are the argument's
            where: Position = (arg.lineno, arg.col_offset, arg.end_lineno, arg.end_col_offset)  # type: ignore[assignment]
            if arg.__class__ is ast.Starred:
                star, value = "*", self.expression(arg.value)  # type: ignore[attr-defined]
            elif arg.__class__ is ast.GeneratorExp and call is not None and _end(arg) == _end(call):
                # ``f(x for x in y)``: the parentheses are the call's, not the generator's
                generator = self.expression(arg)
                value = generator.with_changes(lpar=(), rpar=())
                self.known[id(value)] = self.known.pop(id(generator))
                where = arg  # placed as the generator is, inside the parentheses
            else:
                value = self.expression(arg)
            node = _new_arg(value=value, keyword=None, equal=_DEFAULT, comma=_DEFAULT, star=star,
                           whitespace_after_star=_WS, whitespace_after_arg=_WS)
            self.known[id(node)] = where
            found.append(((arg.lineno, arg.col_offset), node))
        for keyword in keywords:
            value = self.expression(keyword.value)
            if keyword.arg is None:
                node = _new_arg(value=value, keyword=None, equal=_DEFAULT, comma=_DEFAULT, star="**",
                               whitespace_after_star=_WS, whitespace_after_arg=_WS)
            else:
                name = _new_name(keyword.arg)
                start = keyword.col_offset
                self.known[id(name)] = (keyword.lineno, start, keyword.lineno, start + len(keyword.arg.encode("utf-8")))
                node = _new_arg(value=value, keyword=name,
                               equal=_EQUAL, comma=_DEFAULT,
                               star="", whitespace_after_star=_WS, whitespace_after_arg=_WS)
            self.known[id(node)] = keyword
            found.append(((keyword.lineno, keyword.col_offset), node))
        if keywords and args:
            found.sort(key=lambda pair: pair[0])
        return tuple(node for _, node in found)

    # --- expressions ----------------------------------------------------------------------

    def expression(self, node: ast.expr) -> cst.BaseExpression:
        convert = _EXPRESSIONS.get(node.__class__)
        if convert is None:
            raise Unconvertible(f"no conversion for {node.__class__.__name__}")
        result = convert(self, node)
        self.known[id(result)] = node
        return result

    def _unsupported(self, node: ast.expr) -> cst.BaseExpression:
        raise Unconvertible(f"{node.__class__.__name__} where it cannot be")

    def _name(self, node: ast.Name) -> cst.Name:
        return _new_name(node.id)

    def _constant(self, node: ast.Constant) -> cst.BaseExpression:
        value = node.value
        kind = value.__class__
        if kind is str or kind is bytes:
            text = self._segment(node)
            if not _single_string(text):
                return self._parsed_alone(node)
            if node.end_lineno != node.lineno:
                self.multiline_strings.append((node.lineno, node.end_lineno, node.end_col_offset))  # type: ignore[arg-type]
            return _new_simple_string(text, lpar=_NO_PARENS, rpar=_NO_PARENS)
        if value is None or kind is bool:
            return cst.Name(str(value), lpar=_NO_PARENS, rpar=_NO_PARENS)
        if value is Ellipsis:
            return cst.Ellipsis(lpar=_NO_PARENS, rpar=_NO_PARENS)
        text = self._segment(node)
        if kind is int:
            return _new_integer(text, lpar=_NO_PARENS, rpar=_NO_PARENS)
        if kind is float:
            return cst.Float(text, lpar=_NO_PARENS, rpar=_NO_PARENS)
        if kind is complex:
            return cst.Imaginary(text, lpar=_NO_PARENS, rpar=_NO_PARENS)
        raise Unconvertible(f"a constant of type {kind.__name__}")

    def _parsed_alone(self, node: ast.expr) -> cst.BaseExpression:
        """LibCST's own parse of this expression (f-strings, concatenated strings), with the
        positions of the calls inside it."""
        text = self._segment(node)
        try:
            parsed = cst.parse_expression("(" + text + ")")
        except cst.ParserSyntaxError:
            raise Unconvertible("an expression LibCST reads differently on its own") from None
        parsed = parsed.with_changes(lpar=(), rpar=())
        if node.end_lineno != node.lineno:
            # Pieces of a concatenation may have comments between them, and from Python 3.12 an
            # f-string's braces may hold one: where its comments are is left unknown.
            one_string = "#" not in text and not isinstance(parsed, cst.ConcatenatedString)
            end = node.end_col_offset if one_string else UNKNOWN_END
            self.multiline_strings.append((node.lineno, node.end_lineno, end))  # type: ignore[arg-type]
        if any(isinstance(inner, ast.Call) for inner in ast.walk(node)):
            self._place_inner(parsed, text, node)
        return parsed

    def _place_inner(self, parsed: cst.BaseExpression, text: str, node: ast.expr) -> None:
        wrapper = MetadataWrapper(cst.Module(body=[cst.SimpleStatementLine([cst.Expr(parsed)])]), unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
        line = self.lines[node.lineno - 1]
        column = character_column(line, node.col_offset)
        for inner, where in positions.items():
            if inner is parsed or isinstance(inner, (cst.Module, cst.SimpleStatementLine, cst.Expr)):
                continue
            start, end = where.start, where.end
            self.known[id(inner)] = CodeRange(
                CodePosition(node.lineno + start.line - 1, start.column + column if start.line == 1 else start.column),
                CodePosition(node.lineno + end.line - 1, end.column + column if end.line == 1 else end.column),
            )

    def _attribute(self, node: ast.Attribute) -> cst.Attribute:
        value = self.expression(node.value)
        attr = _new_name(node.attr)
        end_line, end = node.end_lineno, node.end_col_offset
        self.known[id(attr)] = (end_line, end - len(node.attr.encode("utf-8")), end_line, end)  # type: ignore[operator]
        return _new_attribute(value=value, attr=attr, dot=_DOT,
                             lpar=_NO_PARENS, rpar=_NO_PARENS)

    def _call(self, node: ast.Call) -> cst.Call:
        return _new_call(func=self.expression(node.func), args=self._arguments(node.args, node.keywords, node),
                        lpar=_NO_PARENS, rpar=_NO_PARENS, whitespace_after_func=_WS, whitespace_before_args=_WS)

    def _binary(self, node: ast.BinOp) -> cst.BinaryOperation:
        return cst.BinaryOperation(left=self.expression(node.left), operator=_BINARY[node.op.__class__],  # type: ignore[arg-type]
                                   right=self.expression(node.right), lpar=_NO_PARENS, rpar=_NO_PARENS)

    def _unary(self, node: ast.UnaryOp) -> cst.UnaryOperation:
        return cst.UnaryOperation(operator=_UNARY[node.op.__class__], expression=self.expression(node.operand),  # type: ignore[arg-type]
                                  lpar=_NO_PARENS, rpar=_NO_PARENS)

    def _boolean(self, node: ast.BoolOp) -> cst.BooleanOperation:
        operator = _BOOLEAN[node.op.__class__]
        result = self.expression(node.values[0])
        for value in node.values[1:]:
            result = cst.BooleanOperation(left=result, operator=operator, right=self.expression(value),  # type: ignore[arg-type]
                                          lpar=_NO_PARENS, rpar=_NO_PARENS)
            self.known[id(result)] = _span(node.values[0], value)
        return result

    def _compare(self, node: ast.Compare) -> cst.Comparison:
        targets = tuple(
            cst.ComparisonTarget(operator=_COMPARE[op.__class__], comparator=self.expression(comparator))  # type: ignore[arg-type]
            for op, comparator in zip(node.ops, node.comparators)
        )
        return cst.Comparison(left=self.expression(node.left), comparisons=targets, lpar=_NO_PARENS, rpar=_NO_PARENS)

    def _subscript(self, node: ast.Subscript) -> cst.Subscript:
        index = node.slice
        parts: Sequence[ast.expr] = [index]
        if index.__class__ is ast.Tuple and not self._parenthesized_tuple(index):  # type: ignore[arg-type]
            parts = index.elts  # type: ignore[attr-defined]
        elements = tuple(self._subscript_element(part) for part in parts)
        return _new_subscript(value=self.expression(node.value), slice=elements, lbracket=_LBRACKET,
                             rbracket=_RBRACKET, lpar=_NO_PARENS, rpar=_NO_PARENS,
                             whitespace_after_value=_WS)

    def _parenthesized_tuple(self, node: ast.Tuple) -> bool:
        """``a[(1, 2)]`` rather than ``a[1, 2]``: the parenthesis that opens the tuple's span
        closes at its end (in ``a[(x), 2]`` it closes after ``x``)."""
        if not node.elts:
            return True
        first = node.elts[0]
        if (first.lineno, first.col_offset) == (node.lineno, node.col_offset):
            return False
        return self._enclosed(node)

    def _enclosed(self, node: ast.AST) -> bool:
        """The bracket that opens ``node``'s span closes at its end."""
        depth = 0
        text = self._segment(node)
        for token in python_tokens(text):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
                if depth == 0:
                    return token.end == _end_of(text)
        return False

    def _two_colons(self, part: ast.Slice) -> bool:
        """``a[1::]``: a second colon with no step after it."""
        text = self._segment(part)
        before = part.upper or part.lower
        if before is not None:
            # the slice's own text after the last bound (which may hold colons of its own)
            text = self._text(before.end_lineno, before.end_col_offset, part.end_lineno, part.end_col_offset)  # type: ignore[arg-type]
        return text.count(":") > (0 if part.upper is not None else 1)

    def _subscript_element(self, part: ast.expr) -> cst.SubscriptElement:
        inner: cst.BaseSlice
        if part.__class__ is ast.Slice:
            lower = self.expression(part.lower) if part.lower is not None else None  # type: ignore[attr-defined]
            upper = self.expression(part.upper) if part.upper is not None else None  # type: ignore[attr-defined]
            step = self.expression(part.step) if part.step is not None else None  # type: ignore[attr-defined]
            second = _COLON if step is not None or self._two_colons(part) else _DEFAULT  # type: ignore[arg-type]
            inner = self._at(cst.Slice(lower=lower, upper=upper, step=step, first_colon=_COLON,
                                       second_colon=second), part)
        elif part.__class__ is ast.Starred:
            raise Unconvertible("a starred subscript")
        else:
            inner = self._at(_new_index(value=self.expression(part)), part)
        return self._at(_new_subscript_element(slice=inner, comma=_DEFAULT), part)

    def _element(self, node: ast.expr) -> cst.BaseElement:
        if node.__class__ is ast.Starred:
            element: cst.BaseElement = cst.StarredElement(
                value=self.expression(node.value), comma=_DEFAULT, lpar=_NO_PARENS, rpar=_NO_PARENS,  # type: ignore[attr-defined]
                whitespace_before_value=_WS,
            )
        else:
            element = _new_element(value=self.expression(node), comma=_DEFAULT)
        self.known[id(element)] = node
        return element

    def _tuple(self, node: ast.Tuple) -> cst.Tuple:
        elements = tuple(self._element(e) for e in node.elts)
        if self._opens_with_parenthesis(node) and self._parenthesized_tuple(node):
            return cst.Tuple(elements=elements, lpar=_LPAR, rpar=_RPAR)
        return cst.Tuple(elements=elements, lpar=_NO_PARENS, rpar=_NO_PARENS)

    def _opens_with_parenthesis(self, node: ast.expr) -> bool:
        line = self.lines[node.lineno - 1]
        return _bytes_slice(line, node.col_offset, node.col_offset + 1) == "("

    def _list(self, node: ast.List) -> cst.List:
        return cst.List(elements=tuple(self._element(e) for e in node.elts), lbracket=_LBRACKET,
                        rbracket=_RBRACKET, lpar=_NO_PARENS, rpar=_NO_PARENS)

    def _set(self, node: ast.Set) -> cst.Set:
        return cst.Set(elements=tuple(self._element(e) for e in node.elts), lbrace=_LBRACE,
                       rbrace=_RBRACE, lpar=_NO_PARENS, rpar=_NO_PARENS)

    def _dict(self, node: ast.Dict) -> cst.Dict:
        elements: List[cst.BaseDictElement] = []
        for key, value in zip(node.keys, node.values):
            if key is None:
                element: cst.BaseDictElement = cst.StarredDictElement(
                    value=self.expression(value), comma=_DEFAULT, whitespace_before_value=_WS
                )
                self.known[id(element)] = value
            else:
                element = cst.DictElement(key=self.expression(key), value=self.expression(value), comma=_DEFAULT,
                                          whitespace_before_colon=_WS, whitespace_after_colon=_SPACE)
                self.known[id(element)] = _span(key, value)
            elements.append(element)
        return cst.Dict(elements=tuple(elements), lbrace=_LBRACE, rbrace=_RBRACE,
                        lpar=_NO_PARENS, rpar=_NO_PARENS)

    def _comprehension(self, generators: Sequence[ast.comprehension]) -> cst.CompFor:
        inner: Optional[cst.CompFor] = None
        for generator in reversed(generators):
            ifs = tuple(cst.CompIf(test=self.expression(test), whitespace_before=_SPACE, whitespace_before_test=_SPACE)
                        for test in generator.ifs)
            inner = cst.CompFor(
                target=self.expression(generator.target), iter=self.expression(generator.iter), ifs=ifs,
                inner_for_in=inner, asynchronous=_ASYNC if generator.is_async else None,
                whitespace_before=_SPACE, whitespace_after_for=_SPACE, whitespace_before_in=_SPACE,
                whitespace_after_in=_SPACE,
            )
            self.known[id(inner)] = _span(generator.target, generator.ifs[-1] if generator.ifs else generator.iter)
        assert inner is not None
        return inner

    def _list_comp(self, node: ast.ListComp) -> cst.ListComp:
        return cst.ListComp(elt=self.expression(node.elt), for_in=self._comprehension(node.generators),
                            lbracket=_LBRACKET, rbracket=_RBRACKET, lpar=_NO_PARENS,
                            rpar=_NO_PARENS)

    def _set_comp(self, node: ast.SetComp) -> cst.SetComp:
        return cst.SetComp(elt=self.expression(node.elt), for_in=self._comprehension(node.generators),
                           lbrace=_LBRACE, rbrace=_RBRACE, lpar=_NO_PARENS, rpar=_NO_PARENS)

    def _generator(self, node: ast.GeneratorExp) -> cst.GeneratorExp:
        return cst.GeneratorExp(elt=self.expression(node.elt), for_in=self._comprehension(node.generators),
                                lpar=_LPAR, rpar=_RPAR)

    def _dict_comp(self, node: ast.DictComp) -> cst.DictComp:
        return cst.DictComp(key=self.expression(node.key), value=self.expression(node.value),
                            for_in=self._comprehension(node.generators), lbrace=_LBRACE,
                            rbrace=_RBRACE, lpar=_NO_PARENS, rpar=_NO_PARENS,
                            whitespace_before_colon=_WS, whitespace_after_colon=_SPACE)

    def _lambda(self, node: ast.Lambda) -> cst.Lambda:
        return cst.Lambda(params=self._parameters(node.args), body=self.expression(node.body), colon=_COLON,
                          lpar=_NO_PARENS, rpar=_NO_PARENS, whitespace_after_lambda=_DEFAULT)

    def _if_exp(self, node: ast.IfExp) -> cst.IfExp:
        return cst.IfExp(test=self.expression(node.test), body=self.expression(node.body),
                         orelse=self.expression(node.orelse), lpar=_NO_PARENS, rpar=_NO_PARENS,
                         whitespace_before_if=_SPACE, whitespace_after_if=_SPACE, whitespace_before_else=_SPACE,
                         whitespace_after_else=_SPACE)

    def _await(self, node: ast.Await) -> cst.Await:
        return cst.Await(expression=self.expression(node.value), lpar=_NO_PARENS, rpar=_NO_PARENS,
                         whitespace_after_await=_SPACE)

    def _yield(self, node: ast.Yield) -> cst.Yield:
        value = self.expression(node.value) if node.value is not None else None
        return cst.Yield(value=value, lpar=_NO_PARENS, rpar=_NO_PARENS, whitespace_after_yield=_DEFAULT)

    def _yield_from(self, node: ast.YieldFrom) -> cst.Yield:
        source = cst.From(item=self.expression(node.value), whitespace_before_from=_DEFAULT, whitespace_after_from=_SPACE)
        return cst.Yield(value=source, lpar=_NO_PARENS, rpar=_NO_PARENS, whitespace_after_yield=_DEFAULT)

    def _named(self, node: ast.NamedExpr) -> cst.NamedExpr:
        return cst.NamedExpr(target=self.expression(node.target), value=self.expression(node.value), lpar=_NO_PARENS,
                             rpar=_NO_PARENS, whitespace_before_walrus=_SPACE, whitespace_after_walrus=_SPACE)


# What converts each kind of node: plain functions, not methods bound to a converter, so that a
# converter holds no reference cycle and is freed as soon as its tree is made.
_EXPRESSIONS: Dict[type, Callable[[_Converter, Any], cst.BaseExpression]] = {
    ast.Name: _Converter._name, ast.Constant: _Converter._constant, ast.Attribute: _Converter._attribute,
    ast.Call: _Converter._call, ast.BinOp: _Converter._binary, ast.UnaryOp: _Converter._unary,
    ast.BoolOp: _Converter._boolean, ast.Compare: _Converter._compare, ast.Subscript: _Converter._subscript,
    ast.Tuple: _Converter._tuple, ast.List: _Converter._list, ast.Set: _Converter._set, ast.Dict: _Converter._dict,
    ast.ListComp: _Converter._list_comp, ast.SetComp: _Converter._set_comp, ast.GeneratorExp: _Converter._generator,
    ast.DictComp: _Converter._dict_comp, ast.Lambda: _Converter._lambda, ast.IfExp: _Converter._if_exp,
    ast.Await: _Converter._await, ast.Yield: _Converter._yield, ast.YieldFrom: _Converter._yield_from,
    ast.NamedExpr: _Converter._named, ast.JoinedStr: _Converter._parsed_alone, ast.Starred: _Converter._unsupported,
    ast.Slice: _Converter._unsupported,
}
_STATEMENTS: Dict[type, Callable[[_Converter, Any], cst.CSTNode]] = {
    ast.Expr: _Converter._expr_statement, ast.Assign: _Converter._assign, ast.AugAssign: _Converter._aug_assign,
    ast.AnnAssign: _Converter._ann_assign, ast.Return: _Converter._return, ast.Pass: _Converter._pass,
    ast.Break: _Converter._break, ast.Continue: _Converter._continue, ast.Raise: _Converter._raise,
    ast.Assert: _Converter._assert, ast.Delete: _Converter._delete, ast.Import: _Converter._import,
    ast.ImportFrom: _Converter._import_from, ast.Global: _Converter._global, ast.Nonlocal: _Converter._nonlocal,
    ast.FunctionDef: _Converter._function, ast.AsyncFunctionDef: _Converter._function, ast.ClassDef: _Converter._class,
    ast.If: _Converter._if, ast.For: _Converter._for, ast.AsyncFor: _Converter._for, ast.While: _Converter._while,
    ast.With: _Converter._with, ast.AsyncWith: _Converter._with, ast.Try: _Converter._try,
}
# Syntax of later Pythons than the oldest supported, where this interpreter's ``ast`` has it.
for _name, _convert in (
    ("Match", _Converter._match), ("TryStar", _Converter._try), ("TypeAlias", _Converter._type_alias),
):
    if hasattr(ast, _name):
        _STATEMENTS[getattr(ast, _name)] = _convert
if hasattr(ast, "TemplateStr"):  # t-strings, Python 3.14: parsed alone, as f-strings are
    _EXPRESSIONS[ast.TemplateStr] = _Converter._parsed_alone
_PATTERNS: Dict[str, Callable[[_Converter, Any], cst.MatchPattern]] = {
    "MatchValue": _Converter._match_value, "MatchSingleton": _Converter._match_singleton,
    "MatchSequence": _Converter._match_sequence, "MatchMapping": _Converter._match_mapping,
    "MatchClass": _Converter._match_class, "MatchAs": _Converter._match_as, "MatchOr": _Converter._match_or,
}


def _span(first: ast.AST, last: ast.AST) -> Tuple[int, int, int, int]:
    """From the start of ``first`` to the end of ``last``, in ``ast``'s UTF-8 byte columns
    (``NodePositions`` turns them into characters when the position is asked for)."""
    return (first.lineno, first.col_offset, last.end_lineno, last.end_col_offset)  # type: ignore[attr-defined]


def _ast_offset(line: str, column: int) -> int:
    """The UTF-8 byte offset of character ``column`` of ``line``."""
    return column if line.isascii() else len(line[:column].encode("utf-8"))


def _normalised_identifiers(tree: ast.Module, text: str) -> bool:
    """The file may spell an identifier in a form Python normalises: ``ast`` says ``time`` where
    the code says ``ｔｉｍｅ``, and LibCST, like messages, must say what the code says. (A word
    of a string or a comment that normalises to one of the file's identifiers counts too.)"""
    words = {
        unicodedata.normalize("NFKC", w) for w in _NON_ASCII_WORD.findall(text) if not unicodedata.is_normalized("NFKC", w)
    }
    words = {w for w in words if w.isidentifier()}
    if not words:
        return False
    for node in ast.walk(tree):
        for field in ("id", "attr", "arg", "name", "asname", "module"):
            value = getattr(node, field, None)
            if isinstance(value, str) and (value in words or any(part in words for part in value.split("."))):
                return True
        if isinstance(node, (ast.Global, ast.Nonlocal)) and words.intersection(node.names):
            return True
    return False


def _end_of(text: str) -> Tuple[int, int]:
    """The (line, column) where ``text`` ends, as the tokenizer counts them."""
    lines = python_lines(text)
    return (len(lines), len(lines[-1]))


def _end(node: ast.AST) -> Tuple[int, int]:
    return (node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]


def _single_string(text: str) -> bool:
    """``text`` is one string literal token (not implicitly concatenated ones)."""
    quote = text[-1]
    if text[0] == quote and text.count(quote) == 2 and "\n" not in text:
        return True  # the common case: 'abc', with no other quote of its kind to end it early
    prefix = _STRING_PREFIX.match(text)
    start = prefix.end() if prefix is not None else 0
    if "f" in text[:start].lower():
        return False
    quote = text[start:start + 3]
    if quote not in ('"""', "'''"):
        quote = text[start:start + 1]
    pattern = _SINGLE_QUOTED.get(quote)
    return pattern is not None and pattern.fullmatch(text, start) is not None


def _bytes_slice(line: str, start: int, end: Optional[int]) -> str:
    """A slice of ``line`` by ``ast``'s UTF-8 byte offsets."""
    if line.isascii():
        return line[start:end]
    return line.encode("utf-8")[start:end].decode("utf-8", "replace")

