"""Which syntax of a file the running interpreter is too old for, named for messages.

LibCST reads the syntax of every Python from 3.0 to 3.14 whatever Python resilint runs on;
CPython's own parser and compiler read only their version's. When a file LibCST read does not
compile here, the messages say so with the construct and the Python that introduced it,
instead of an error that blames the file (or a fix).
"""

from __future__ import annotations

import sys
from typing import Optional, Tuple

import libcst as cst

from resilint.lint.traversal import iter_nodes

Version = Tuple[int, int]


def newer_syntax(module: cst.Module, version: Version = sys.version_info[:2]) -> Optional[Tuple[str, Version]]:
    """The first construct of ``module`` (in source order) that Python ``version`` cannot read,
    named for a sentence ("type parameters are"), and the version that introduced it; None
    when there is none this knows of."""
    for node in iter_nodes(module):
        found = _construct(node, module)
        if found is not None and found[1] > version:
            return found
    return None


def describe(found: Tuple[str, Version]) -> str:
    """``type parameters are Python 3.12 syntax``."""
    construct, (major, minor) = found
    return f"{construct} Python {major}.{minor} syntax"


def _construct(node: cst.CSTNode, module: cst.Module) -> Optional[Tuple[str, Version]]:
    if isinstance(node, cst.Match):
        return "`match` is", (3, 10)
    if isinstance(node, cst.TryStar):
        return "`except*` is", (3, 11)
    if isinstance(node, cst.TypeAlias):
        return "a `type` statement is", (3, 12)
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.type_parameters is not None:
        return "type parameters are", (3, 12)
    if isinstance(node, cst.TypeParam) and node.default is not None:
        return "a type parameter's default is", (3, 13)
    if isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)):
        if isinstance(node.type, cst.Tuple) and not node.type.lpar:
            return "`except A, B:` without parentheses is", (3, 14)
    if isinstance(node, cst.TemplatedString):
        return "a t-string is", (3, 14)
    if isinstance(node, cst.FormattedString) and _pep_701(node, module):
        return "an f-string with its own quotes, a backslash or a comment inside its braces is", (3, 12)
    return None


def _pep_701(node: cst.FormattedString, module: cst.Module) -> bool:
    """An f-string only Python 3.12 reads (PEP 701): inside its braces, the quote that
    delimits it, a backslash or a comment."""
    quote = node.start.lstrip("fFrRbB")
    for part in node.parts:
        if isinstance(part, cst.FormattedStringExpression):
            code = module.code_for_node(part.expression)
            if quote in code or "\\" in code or "#" in code:
                return True
    return False
