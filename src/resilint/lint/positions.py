"""Where a module's LibCST nodes are, without LibCST's PositionProvider when possible.

LibCST computes positions by generating the code of the whole module (about as costly as
parsing it). The file's ``ast`` tree, which the checker builds anyway, already knows where
every call, function, loop and argument is: the nodes of both trees are matched in source
order, and each pair is checked (same callee name, same number of arguments). Any other node,
or a file whose trees do not line up (code newer than the running interpreter, which ``ast``
refused), falls back to the PositionProvider, resolved once for the whole file.
"""

from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional, Sequence, Union

import libcst as cst
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

from resilint.lint.source import SourceError
from resilint.lint.traversal import iter_nodes

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_PARENTHESIZED = (ast.Tuple, ast.GeneratorExp)
_DEF = re.compile(r"(?:async\s+)?def\s+")


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
        line = self._lines[mirror.lineno - 1] if mirror.lineno <= len(self._lines) else ""
        keyword = _DEF.match(line, self._column(mirror.lineno, mirror.col_offset))
        column = keyword.end() if keyword is not None else -1
        if column >= 0 and line.startswith(function.name.value, column):
            known[id(function.name)] = CodeRange(
                CodePosition(mirror.lineno, column), CodePosition(mirror.lineno, column + len(function.name.value))
            )
        for decorator, expr in zip(function.decorators, mirror.decorator_list):
            at = self._range(expr)
            known[id(decorator)] = CodeRange(CodePosition(at.start.line, max(at.start.column - 1, 0)), at.end)

    def _range(self, node: ast.AST) -> CodeRange:
        return CodeRange(
            CodePosition(node.lineno, self._column(node.lineno, node.col_offset)),  # type: ignore[attr-defined]
            CodePosition(node.end_lineno, self._column(node.end_lineno, node.end_col_offset)),  # type: ignore[attr-defined]
        )

    def _column(self, line: int, offset: int) -> int:
        """``ast`` counts UTF-8 bytes; LibCST, characters."""
        text = self._lines[line - 1] if 0 < line <= len(self._lines) else ""
        if text.isascii():
            return offset
        return len(text.encode("utf-8")[:offset].decode("utf-8", "ignore"))


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
