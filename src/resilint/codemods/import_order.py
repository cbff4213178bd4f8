"""Where an import a fix adds goes: where isort or ruff's isort rules would put it
(``ProjectStyle``), so that an import-order gate still passes on the fixed file. A block of
imports that is not in their order already (the project runs neither) gets it next to the
imports of its section that sort before it, as its author would place it by hand.

The new import joins its section (FUTURE, STDLIB, THIRDPARTY, FIRSTPARTY, LOCALFOLDER) in the
module's first block of imports, in sorted position: plain imports before ``from`` imports
unless ``force-sort-within-sections``, modules case-insensitively. A section the block lacks is
opened between its neighbours, one blank line apart. A name imported from a module the block
already imports from joins that statement in order (``order-by-type``), unless it has an alias
(``combine-as-imports`` is off by default) or ``force-single-line`` is set.
"""

from __future__ import annotations

from dataclasses import replace
from typing import List, Optional, Sequence, Tuple

import libcst as cst

from resilint.codemods.style import ProjectStyle
from resilint.lint.traversal import iter_nodes


def import_sort_key(statement: cst.SimpleStatementLine, style: ProjectStyle) -> Optional[Tuple[int, object]]:
    """(section, order within it) of an import statement, None for anything else."""
    node = statement.body[0] if len(statement.body) == 1 else None
    if isinstance(node, cst.Import):
        module = _dotted(node.names[0].name)
        # ``import time, requests`` (which the tools would split) stands with its last section.
        section = max(style.section(_dotted(alias.name)) for alias in node.names)
        if style.force_sort_within_sections:
            return section, style.module_key(module) + ((-1, "", ""),)
        return section, (0,) + style.module_key(module)
    if isinstance(node, cst.ImportFrom):
        level = len(node.relative)
        module = _dotted(node.module) if node.module is not None else ""
        section = style.section(module, level)
        if style.force_sort_within_sections:
            return section, style.module_key("." * level + module) + (_first_name(node, style),)
        # isort/ruff: the fewer dots, the later a relative import comes (``from . import`` last)
        return section, (1, -level) + style.module_key(module) + (_first_name(node, style),)
    return None


def place(body: Sequence[cst.BaseStatement], start: int, new: cst.SimpleStatementLine, style: ProjectStyle) -> List[cst.BaseStatement]:
    """``body`` (a module's statements) with ``new`` inserted in the imports at its top (from
    ``start``, after a docstring), where the import-order tools would put it: in the block of
    imports that holds its section, when a ``try:`` import parts the imports in several."""
    body = list(body)
    start = _block_of_its_section(body, start, new, style)
    end = _block_end(body, start)
    key = import_sort_key(new, style)
    assert key is not None
    keys = [import_sort_key(s, style) for s in body[start:end]]  # type: ignore[arg-type]
    if end == start:
        # No import yet: the new one opens the block, parted from what follows.
        following = body[start:]
        if following and not _starts_with_blank(following[0]):
            following[0] = _with_leading(following[0], (cst.EmptyLine(),) + tuple(following[0].leading_lines))
        return body[:start] + [new.with_changes(leading_lines=())] + following
    if _inversions(keys):
        return _among_unordered(body, start, end, new, style)
    same = [i for i, k in enumerate(keys) if k is not None and k[0] == key[0]]
    if same:
        after = [i for i in same if keys[i][1] > key[1]]  # type: ignore[index, operator]
        if after:
            return _before(body, start + after[0], new)
        index = start + same[-1] + 1
        return body[:index] + [new.with_changes(leading_lines=())] + body[index:]
    later = [i for i, k in enumerate(keys) if k is not None and k[0] > key[0]]
    if later:
        index = start + later[0]
        successor = body[index]
        moved, kept = split_leading(successor.leading_lines)
        part = () if keys[later[0]][0] in style.no_lines_before else (cst.EmptyLine(),)  # type: ignore[index]
        return body[:index] + [new.with_changes(leading_lines=moved), _with_leading(successor, part + kept)] + body[index + 1:]
    part = () if key[0] in style.no_lines_before else (cst.EmptyLine(),)
    return body[:end] + [new.with_changes(leading_lines=part)] + body[end:]


def _block_of_its_section(
    body: Sequence[cst.BaseStatement], start: int, new: cst.SimpleStatementLine, style: ProjectStyle,
) -> int:
    """Where the block of imports begins that holds imports of ``new``'s section, among the
    blocks that import-only compound statements (``try: from functools import cache``) part at
    the top of a module; the first block when none does."""
    key = import_sort_key(new, style)
    assert key is not None
    index = start
    while True:
        end = _block_end(body, index)
        keys = [import_sort_key(s, style) for s in body[index:end]]  # type: ignore[arg-type]
        if any(k is not None and k[0] == key[0] for k in keys):
            return index
        following = end
        while following < len(body) and not _is_import_line(body[following]) and in_imports(body[following]):
            following += 1  # a ``try:``/``if`` of imports between two blocks
        if following == end or following >= len(body) or not _is_import_line(body[following]):
            return start
        index = following


def _block_end(body: Sequence[cst.BaseStatement], start: int) -> int:
    """Where the run of import lines that begins at ``start`` ends."""
    end = start
    while end < len(body) and _is_import_line(body[end]):
        end += 1
    return end


def in_imports(node: cst.CSTNode) -> bool:
    """An import line, or a block of imports (``try: import x`` / ``except ImportError:``, ``if
    TYPE_CHECKING:``) that holds nothing but imports and fallback assignments."""
    if isinstance(node, cst.SimpleStatementLine):
        return any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in node.body)
    if not isinstance(node, (cst.Try, cst.If)):
        return False
    lines = [n for n in iter_nodes(node) if isinstance(n, cst.SimpleStatementLine)]
    return any(in_imports(line) for line in lines) and all(
        isinstance(small, (cst.Import, cst.ImportFrom, cst.Pass, cst.Assign)) for line in lines for small in line.body
    )


def _inversions(keys: Sequence[Optional[Tuple[int, object]]]) -> int:
    return sum(1 for a, b in zip(keys, keys[1:]) if a is None or b is None or b < a)  # type: ignore[operator]


def _among_unordered(
    body: List[cst.BaseStatement], start: int, end: int, new: cst.SimpleStatementLine, style: ProjectStyle,
) -> List[cst.BaseStatement]:
    """``new`` in a block of imports that the tools would reorder (the project runs neither):
    by hand, as its author would, next to the imports of its section that sort before it (in
    the way of sorting the block is closest to: with or without ``from`` imports apart), or
    else above the first of them; last when the block has no import of its section."""
    lines = body[start:end]
    variant = replace(style, force_sort_within_sections=not style.force_sort_within_sections)
    if _inversions([import_sort_key(s, variant) for s in lines]) < _inversions([import_sort_key(s, style) for s in lines]):  # type: ignore[arg-type]
        style = variant
    keys = [import_sort_key(s, style) for s in lines]  # type: ignore[arg-type]
    key = import_sort_key(new, style)
    assert key is not None
    same = [i for i, k in enumerate(keys) if k is not None and k[0] == key[0]]
    if not same:
        return body[:end] + [new.with_changes(leading_lines=())] + body[end:]
    smaller = [i for i in same if keys[i][1] < key[1]]  # type: ignore[index, operator]
    if not smaller:
        return _before(body, start + same[0], new)
    index = start + smaller[-1] + 1
    return body[:index] + [new.with_changes(leading_lines=())] + body[index:]


def with_name(node: cst.ImportFrom, name: str, style: ProjectStyle) -> cst.ImportFrom:
    """``from m import ...`` with ``name`` among its names, in the order the tools keep them,
    laid out like its neighbours (one per line in a parenthesised list)."""
    names = list(node.names)  # type: ignore[arg-type]
    key = style.name_key(name)
    index = next((i for i, alias in enumerate(names) if style.name_key(_dotted(alias.name)) > key), len(names))
    added = cst.ImportAlias(name=cst.Name(name))
    if index < len(names):
        # Before a neighbour: the new name takes the comma of the one before it (or a plain one).
        template = names[index - 1].comma if index > 0 and isinstance(names[index - 1].comma, cst.Comma) else None
        comma = template if template is not None else _comma_like(names, index)
        names.insert(index, added.with_changes(comma=comma))
    else:
        last = names[-1]
        if isinstance(last.comma, cst.Comma):
            # A trailing comma (a parenthesised list): the new name goes after it, the last
            # line's layout moving down with it.
            separator = names[-2].comma if len(names) > 1 and isinstance(names[-2].comma, cst.Comma) else cst.Comma(
                whitespace_after=cst.SimpleWhitespace(" ")
            )
            names[-1] = last.with_changes(comma=separator)
            names.append(added.with_changes(comma=last.comma))
        else:
            names[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            names.append(added)
    return node.with_changes(names=names)


def _comma_like(names: Sequence[cst.ImportAlias], index: int) -> cst.Comma:
    for alias in names:
        if isinstance(alias.comma, cst.Comma) and not _is_trailing(alias, names):
            return alias.comma
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def _is_trailing(alias: cst.ImportAlias, names: Sequence[cst.ImportAlias]) -> bool:
    return alias is names[-1]


def _before(body: List[cst.BaseStatement], index: int, new: cst.SimpleStatementLine) -> List[cst.BaseStatement]:
    """``new`` just above ``body[index]``, taking the blank lines above it (its comments stay
    with it)."""
    successor = body[index]
    moved, kept = split_leading(successor.leading_lines)
    return body[:index] + [new.with_changes(leading_lines=moved), _with_leading(successor, kept)] + body[index + 1:]


def split_leading(lines: Sequence[cst.EmptyLine]) -> Tuple[Tuple[cst.EmptyLine, ...], Tuple[cst.EmptyLine, ...]]:
    """The blank lines before the first comment, and the rest."""
    count = 0
    while count < len(lines) and lines[count].comment is None:
        count += 1
    return tuple(lines[:count]), tuple(lines[count:])


def _with_leading(statement: cst.BaseStatement, lines: Sequence[cst.EmptyLine]) -> cst.BaseStatement:
    return statement.with_changes(leading_lines=tuple(lines))


def _starts_with_blank(statement: cst.BaseStatement) -> bool:
    return bool(statement.leading_lines) and statement.leading_lines[0].comment is None


def _is_import_line(node: cst.CSTNode) -> bool:
    return (
        isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1
        and isinstance(node.body[0], (cst.Import, cst.ImportFrom))
    )


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _first_name(node: cst.ImportFrom, style: ProjectStyle) -> Tuple[int, str, str]:
    """The order of one module's ``from`` imports (several when they are kept one per line):
    that of their first names."""
    if isinstance(node.names, cst.ImportStar):
        return (-1, "*", "*")
    return style.name_key(_dotted(node.names[0].name))
