"""Where a module's LibCST nodes are, without LibCST's PositionProvider when possible.

LibCST computes positions by generating the code of the whole module (about as costly as
parsing it). The file's ``ast`` tree, which the checker builds anyway, already knows where
every call, function, loop and argument is: the nodes of both trees are matched in source
order, and each pair is checked (same callee name, same number of arguments). Any other node,
or a file whose trees do not line up (code newer than the running interpreter, which ``ast``
refused), falls back to the PositionProvider, resolved once for the whole file.

A tree built from the ``ast`` tree (``cst_from_ast``) has its positions recorded as it was
built: ``ConvertedPositions``.
"""

from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional, Sequence, Tuple, Union

import libcst as cst
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

from resilint.lint.source import SourceError, character_column
from resilint.lint.traversal import children, iter_nodes

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_PARENTHESIZED = (ast.Tuple, ast.GeneratorExp)
_DEF_OR_CLASS = re.compile(r"(?:async\s+)?(?:def|class)\s*")


class NodePositions:
    def __init__(
        self, module: cst.Module, tree: Optional[ast.Module], lines: Sequence[str],
        calls: Sequence[cst.Call] = (), functions: Optional[Sequence[cst.FunctionDef]] = None,
        loops: Optional[Sequence[cst.CSTNode]] = None,
    ) -> None:
        """``calls``, ``functions`` and ``loops``: the module's nodes of those kinds in source
        order, when the caller has them (the semantic model does); else they are looked up."""
        self.module = module
        self._tree = tree
        self._lines = lines
        self._calls = calls
        self._functions = functions
        self._loops = loops
        # id of a LibCST node → its range, or the ast node it pairs with until first asked
        self._known: Optional[Dict[int, Union[CodeRange, ast.AST]]] = None
        self._provider: Optional[object] = None

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        if isinstance(node, cst.Module):
            return CodeRange(CodePosition(1, 0), CodePosition(1, 0))
        if self._known is None:
            self._known = self._match() if self._tree is not None else {}
        found = self._known.get(id(node))
        if found is None:
            return self._resolved()[node]
        if found.__class__ is CodeRange:
            return found
        where = self._range(found)  # an ast node: its range is made on first use
        self._known[id(node)] = where
        return where

    # --- LibCST's own, for everything else ---------------------------------------------

    def _resolved(self):  # type: ignore[no-untyped-def]
        if self._provider is None:
            try:
                self._provider = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
            except RecursionError:
                raise SourceError("too deeply nested to analyse (recursion limit)") from None
        return self._provider

    # --- from the ast tree -------------------------------------------------------------

    def _match(self) -> Dict[int, Union[CodeRange, ast.AST]]:
        assert self._tree is not None
        known: Dict[int, Union[CodeRange, ast.AST]] = {}
        ast_calls: List[ast.Call] = []
        ast_functions: List[Union[ast.FunctionDef, ast.AsyncFunctionDef]] = []
        ast_loops: List[ast.stmt] = []
        for node in ast.walk(self._tree):
            if isinstance(node, ast.Call):
                ast_calls.append(node)
            elif isinstance(node, _FUNCTIONS):
                ast_functions.append(node)
            elif isinstance(node, _LOOPS):
                ast_loops.append(node)
        by_position = lambda n: (n.lineno, n.col_offset, -n.end_lineno, -n.end_col_offset)  # noqa: E731
        ast_calls.sort(key=by_position)
        ast_functions.sort(key=by_position)
        ast_loops.sort(key=by_position)
        if self._functions is None or self._loops is None:
            found = list(iter_nodes(self.module))
            self._functions = [n for n in found if isinstance(n, cst.FunctionDef)]
            self._loops = [n for n in found if isinstance(n, (cst.For, cst.While))]
        cst_functions, cst_loops = self._functions, self._loops
        if not self._pair_calls(known, self._calls, ast_calls):
            return {}
        if len(cst_functions) == len(ast_functions):
            for function, mirror in zip(cst_functions, ast_functions):
                if function.name.value != mirror.name or len(function.decorators) != len(mirror.decorator_list):
                    break
                self._function(known, function, mirror)
        if len(cst_loops) == len(ast_loops) and all(
            isinstance(loop, cst.While) == isinstance(mirror, ast.While) for loop, mirror in zip(cst_loops, ast_loops)
        ):
            for loop, mirror in zip(cst_loops, ast_loops):
                known[id(loop)] = mirror
        return known

    def _pair_calls(
        self, known: Dict[int, Union[CodeRange, ast.AST]], calls: Sequence[cst.Call], mirrors: Sequence[ast.Call],
    ) -> bool:
        if len(calls) != len(mirrors):
            return False
        for call, mirror in zip(calls, mirrors):
            positional = [a for a in call.args if a.keyword is None and a.star != "**"]
            keywords = [a for a in call.args if a.keyword is not None or a.star == "**"]
            if (_last_name(call.func) != _ast_last_name(mirror.func) or len(positional) != len(mirror.args)
                    or len(keywords) != len(mirror.keywords)):
                return False
            known[id(call)] = mirror
            known[id(call.func)] = mirror.func
            for arg, value in zip(positional, mirror.args):
                self._argument(known, arg.value, value.value if isinstance(value, ast.Starred) else value)
            for arg, keyword in zip(keywords, mirror.keywords):
                name = arg.keyword.value if arg.keyword is not None else None
                if name != keyword.arg:
                    return False
                self._argument(known, arg.value, keyword.value)
        return True

    def _argument(self, known: Dict[int, Union[CodeRange, ast.AST]], value: cst.BaseExpression, mirror: ast.expr) -> None:
        # ``ast`` counts a tuple's or a generator's own parentheses in its span, LibCST does not.
        if not isinstance(mirror, _PARENTHESIZED):
            known[id(value)] = mirror

    def _function(
        self, known: Dict[int, Union[CodeRange, ast.AST]], function: cst.FunctionDef,
        mirror: Union[ast.FunctionDef, ast.AsyncFunctionDef],
    ) -> None:
        where = name_after_keyword(self._lines, mirror.lineno, mirror.col_offset, function.name.value)
        if where is not None:
            known[id(function.name)] = where
        for decorator, expr in zip(function.decorators, mirror.decorator_list):
            at = self._range(expr)
            known[id(decorator)] = CodeRange(CodePosition(at.start.line, max(at.start.column - 1, 0)), at.end)

    def _range(self, node: Union[ast.AST, Tuple[int, int, int, int]]) -> CodeRange:
        if node.__class__ is tuple:  # (line, byte offset, end line, end byte offset)
            line, offset, end_line, end_offset = node  # type: ignore[misc]
            return CodeRange(
                CodePosition(line, self._column(line, offset)), CodePosition(end_line, self._column(end_line, end_offset))
            )
        return CodeRange(
            CodePosition(node.lineno, self._column(node.lineno, node.col_offset)),  # type: ignore[attr-defined]
            CodePosition(node.end_lineno, self._column(node.end_lineno, node.end_col_offset)),  # type: ignore[attr-defined]
        )

    def _column(self, line: int, offset: int) -> int:
        return character_column(self._lines[line - 1] if 0 < line <= len(self._lines) else "", offset)


def _last_name(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


def _ast_last_name(node: ast.expr) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class Unplaced(Exception):
    """A node of a converted tree whose position is not known (the file is parsed instead)."""


class ConvertedPositions(NodePositions):
    """The positions of a tree that ``cst_from_ast`` built: it recorded where each node it made
    came from, so nothing is matched or resolved. A node it made from no ``ast`` node (an
    ``Else``, a comprehension's ``CompIf``) spans its first to its last placed descendant."""

    def __init__(self, module: cst.Module, known: Dict[int, object], lines: Sequence[str]) -> None:
        super().__init__(module, None, lines)
        self._sources = known  # id of a node → its range, the ast node it was made from, or offsets

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        found = self._sources.get(id(node))
        if found is None:
            if isinstance(node, cst.Module):
                return super().__getitem__(node)
            return self._elsewhere(node)
        if found.__class__ is CodeRange:
            return found  # type: ignore[return-value]
        where = self._range(found)  # type: ignore[arg-type]
        # A generator's parentheses are never in LibCST's range (``f(x for x in y)`` included),
        # a tuple's when it has its own (``(a), b`` starts with its first element's).
        if isinstance(found, _PARENTHESIZED) and self._opens(where) and (
            not isinstance(node, cst.Tuple) or node.lpar
        ):
            return self._within_parentheses(found, where)  # type: ignore[arg-type]
        return where

    def _opens(self, where: CodeRange) -> bool:
        line = self._lines[where.start.line - 1] if where.start.line <= len(self._lines) else ""
        return line[where.start.column:where.start.column + 1] == "("

    def _within_parentheses(self, node: Union[ast.Tuple, ast.GeneratorExp], where: CodeRange) -> CodeRange:
        """``ast`` counts a tuple's or a generator's own parentheses in its span; LibCST's range
        starts at the code after the opening one and ends after the last element (and its
        trailing comma)."""
        start = self._skip_blanks(where.start.line, where.start.column + 1)
        if isinstance(node, ast.Tuple):
            if not node.elts:
                return CodeRange(start, start)
            end = self._range(node.elts[-1]).end
            after = self._skip_blanks(end.line, end.column)
            if self._lines[after.line - 1][after.column:after.column + 1] == ",":
                end = CodePosition(after.line, after.column + 1)
        else:
            end = self._before_blanks(where.end.line, where.end.column - 1)
            end = self._before_comment(node, end)
        return CodeRange(start, end)

    def _before_comment(self, node: ast.GeneratorExp, end: CodePosition) -> CodePosition:
        """A comment between the generator's last clause and the closing parenthesis is not
        the generator's: its end is the clause's (with the clause's own closing parentheses)."""
        last = node.generators[-1]
        clause = self._range(last.ifs[-1] if last.ifs else last.iter).end
        if (end.line, end.column) <= (clause.line, clause.column):
            return end
        text = self._lines[clause.line - 1]
        between = text[clause.column:end.column] if end.line == clause.line else text[clause.column:]
        comment = between.find("#")
        if comment < 0 or between[:comment].strip(" \t)"):
            return end
        # after the clause, only its own closing parentheses before the comment
        return CodePosition(clause.line, clause.column + len(between[:comment].rstrip(" \t")))

    def _before_blanks(self, line: int, column: int) -> CodePosition:
        """The end of the code before (line, column), over whitespace and line breaks."""
        while line >= 1:
            text = self._lines[line - 1][:column].rstrip(" \t\f\\")
            if text:
                return CodePosition(line, len(text))
            line -= 1
            column = len(self._lines[line - 1]) if line >= 1 else 0
        return CodePosition(1, 0)

    def _skip_blanks(self, line: int, column: int) -> CodePosition:
        """The first position at or after (line, column) that holds code, not whitespace or a comment."""
        while line <= len(self._lines):
            text = self._lines[line - 1]
            rest = text[column:].lstrip(" \t\f\\")
            if rest and not rest.startswith("#"):
                return CodePosition(line, len(text) - len(rest))
            line, column = line + 1, 0
        return CodePosition(line, column)

    def _elsewhere(self, node: cst.CSTNode) -> CodeRange:
        placed = [self._placed(child) for child in children(node)]
        placed = [where for where in placed if where is not None]
        if not placed:
            raise Unplaced(type(node).__name__)
        return CodeRange(placed[0].start, placed[-1].end)

    def _placed(self, node: cst.CSTNode) -> Optional[CodeRange]:
        try:
            return self[node]
        except Unplaced:
            return None

    def text_of(self, node: cst.CSTNode) -> Optional[str]:
        """The source of an expression the converter placed (a tuple with its parentheses),
        else None."""
        found = self._sources.get(id(node))
        if found is None or not isinstance(node, cst.BaseExpression):
            return None
        if isinstance(node, cst.GeneratorExp) and not node.lpar:
            where = self[node]  # ``f(x for x in y)``: the parentheses are the call's
        else:
            where = found if found.__class__ is CodeRange else self._range(found)  # type: ignore[arg-type]
        lines = self._lines
        start, end = where.start, where.end  # type: ignore[union-attr]
        if start.line == end.line:
            return lines[start.line - 1][start.column:end.column]
        pieces = [lines[start.line - 1][start.column:]]
        pieces.extend(lines[start.line:end.line - 1])
        pieces.append(lines[end.line - 1][:end.column])
        return "\n".join(pieces)


def name_after_keyword(lines: Sequence[str], number: int, offset: int, name: str) -> Optional[CodeRange]:
    """Where the ``name`` of the ``def`` or ``class`` at line ``number``, UTF-8 ``offset``, is
    written: after its keyword, or at the start of a later line after a backslash (``def \\``).
    None when it is not found there."""
    line = lines[number - 1] if number <= len(lines) else ""
    keyword = _DEF_OR_CLASS.match(line, character_column(line, offset))
    start = keyword.end() if keyword is not None else -1
    while start >= 0 and line[start:].strip() == "\\" and number < len(lines):
        number += 1
        line = lines[number - 1]
        start = len(line) - len(line.lstrip(" \t\f"))
    if start < 0 or not line.startswith(name, start):
        return None
    return CodeRange(CodePosition(number, start), CodePosition(number, start + len(name)))
