"""How deeply a file nests once LibCST has built its tree, measured before LibCST parses it.

LibCST's native parser recurses once per level of the tree it builds. Far beyond anything
written by hand it becomes slow (some chains cost quadratic time) and then overflows the C
stack, which kills the process instead of raising. The checker measures the nesting first
and refuses such a file with one RES000.

Two measures, one per situation:

* ``check_tree``: from CPython's ``ast``, the normal case (``ast`` parses ten times faster
  than LibCST). ``ast`` keeps ``a or b or c`` flat where LibCST nests it, so boolean chains
  are counted the way LibCST builds them.
* ``check_tokens``: when ``ast`` refuses the file, typically syntax newer than the running
  interpreter (``type X = int`` on 3.11), which LibCST may still accept. A token scan bounds
  the depth from above: brackets, chains of operators, attribute, call and subscript chains,
  ``lambda``, ``elif`` chains and indentation.
"""

from __future__ import annotations

import ast
import io
import keyword
import tokenize
from typing import List, Optional, Tuple

from resilint.lint.source import SourceError

# LibCST takes about a second at this depth for the costliest shapes (call and ternary chains);
# hand-written code stays far below it, generated code rarely comes near.
MAX_DEPTH = 1000
# CPython's own limits, syntax errors in every version; LibCST has neither.
MAX_PARENTHESES = 200
MAX_INDENTATION = 100
TOO_MANY_PARENTHESES = "too many nested parentheses"
TOO_MANY_INDENTS = "too many levels of indentation"

_CHAIN_OPERATORS = frozenset("+ - * / // % @ ** << >> & | ^ ~ . :=".split())
_CHAIN_KEYWORDS = frozenset({"and", "or", "not", "if", "else", "lambda", "await"})
_SEPARATORS = frozenset(
    ", ; : = -> += -= *= /= //= %= @= **= <<= >>= &= |= ^=".split()
)
_OPENING, _CLOSING = "([{", ")]}"
# Tokens after which `(` or `[` is a call or a subscript (3.12 splits f-strings into parts).
_OPERAND_ENDS = frozenset(
    {tokenize.NAME, tokenize.NUMBER, tokenize.STRING, getattr(tokenize, "FSTRING_END", tokenize.STRING)}
)


def too_deep(line: Optional[int] = None) -> SourceError:
    return SourceError(f"too deeply nested to analyse (over {MAX_DEPTH} levels)", line)


def check_tree(tree: ast.Module) -> None:
    """Refuse a tree that LibCST would build deeper than ``MAX_DEPTH``.

    Every level of nesting takes at least one character, so a node written on one line in
    fewer characters than the depth still allowed cannot break the limit and is not entered.
    """
    stack: List[Tuple[ast.AST, int, int]] = [(tree, 0, 1)]  # node, depth, line (or its parent's)
    pop, push, children = stack.pop, stack.append, ast.iter_child_nodes
    while stack:
        node, depth, line = pop()
        line = getattr(node, "lineno", line)
        if depth > MAX_DEPTH:
            raise too_deep(line)
        end_line = getattr(node, "end_lineno", None)
        if end_line is not None and end_line == line:
            if depth + (node.end_col_offset - node.col_offset) <= MAX_DEPTH:  # type: ignore[attr-defined]
                continue
        if isinstance(node, ast.BoolOp):
            # LibCST nests `a or b or c` as `(a or b) or c`: the first operands are the deepest.
            count = len(node.values)
            for index, value in enumerate(node.values):
                push((value, depth + count - max(index, 1), line))
            continue
        for child in children(node):
            push((child, depth + 1, line))


def check_tokens(text: str) -> None:
    """Refuse source whose tokens could nest deeper than ``MAX_DEPTH`` in LibCST's tree.

    An upper bound: every operator, keyword or trailer of a chain counts one level until a
    separator (a comma, a colon, an assignment, the end of the logical line) ends the chain.
    Comparisons and implicit string concatenation are not counted: LibCST keeps the first
    flat and limits the second itself.
    """
    chains: List[List[int]] = [[0, 0]]  # per open bracket: [chain length, lambdas awaiting ':']
    chained = 0  # the sum of the chain lengths
    indents: List[int] = [0]  # per indentation level: the length of its elif chain
    elifs = 0  # the sum of the elif chains
    statement_start = True
    operand_end = False  # the previous token ends an operand: `(` or `[` after it is a trailer
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            kind, string = token.type, token.string
            if kind in (tokenize.COMMENT, tokenize.NL):
                continue
            if kind == tokenize.INDENT:
                indents.append(0)
                if len(indents) > MAX_INDENTATION + 1:
                    raise SourceError(f"syntax error: {TOO_MANY_INDENTS}", token.start[0])
                continue
            if kind == tokenize.DEDENT:
                if len(indents) > 1:
                    elifs -= indents.pop()
                continue
            if kind in (tokenize.NEWLINE, tokenize.ENDMARKER):
                chains, chained, statement_start, operand_end = [[0, 0]], 0, True, False
                continue
            if statement_start:
                statement_start = False
                if string == "elif":
                    indents[-1] += 1  # each `elif` is the `orelse` of the one before
                    elifs += 1
                elif string != "else":
                    elifs -= indents[-1]
                    indents[-1] = 0
            chain = chains[-1]
            if kind == tokenize.OP and string in _OPENING:
                if operand_end:  # a call or subscript: one more link of the chain
                    chain[0] += 1
                    chained += 1
                chains.append([0, 0])
                if len(chains) > MAX_PARENTHESES + 1:
                    raise SourceError(f"syntax error: {TOO_MANY_PARENTHESES}", token.start[0])
            elif kind == tokenize.OP and string in _CLOSING:
                if len(chains) > 1:
                    chained -= chains.pop()[0]
            elif kind == tokenize.OP and string == ":" and chain[1]:
                chain[1] -= 1  # the colon of a lambda: its body nests inside it
            elif kind == tokenize.OP and string in _SEPARATORS:
                if not chain[1]:  # commas and defaults between a lambda's parameters do not end it
                    chained -= chain[0]
                    chain[0] = 0
            elif (kind == tokenize.OP and string in _CHAIN_OPERATORS) or (
                kind == tokenize.NAME and string in _CHAIN_KEYWORDS
            ):
                chain[0] += 1
                chained += 1
                if string == "lambda":
                    chain[1] += 1
            operand_end = (kind in _OPERAND_ENDS and not keyword.iskeyword(string)) or string in _CLOSING
            depth = chained + elifs + len(chains) + len(indents) - 2
            if depth > MAX_DEPTH:
                raise too_deep(token.start[0])
    except (tokenize.TokenError, SyntaxError) as exc:
        # From Python 3.12 ``tokenize`` is CPython's own tokenizer, which applies these two
        # limits itself, before the counts above reach them.
        message, line = _tokenizer_error(exc)
        if message in (TOO_MANY_PARENTHESES, TOO_MANY_INDENTS):
            raise SourceError(f"syntax error: {message}", line) from None
        return  # the end of what can be tokenized; LibCST reports the syntax error


def _tokenizer_error(exc: Exception) -> Tuple[str, Optional[int]]:
    """The message and line of a tokenizer's error: ``TokenError(message, (line, column))``
    or a ``SyntaxError``."""
    if isinstance(exc, SyntaxError):
        return exc.msg, exc.lineno
    message, where = (exc.args + (None, None))[:2]
    line = where[0] if isinstance(where, tuple) and where else None
    return str(message), line
