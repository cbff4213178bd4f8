"""Each finding's edits from one codemod run over all of a file's findings.

A codemod plans its rewrites node by node, each for the findings it fixes
(``ResilintCodemod.served``). A finding's edits are those of fixing it alone: the nodes planned
for it rewritten, the imports every fix shares added, nothing else; an edit that serves several
findings (a key hoisted above a loop for two requests in it) belongs to each.

The edits come from the text, not from running the codemod again per finding:

* the usual way, each planned node's new text is generated from what it became (LibCST's code
  generation of that node alone, once the node's own code is found to be the file's text where
  it stands) and the imports' change from the module's top-level statements, for the imports
  each finding's rewrite uses (the names it writes). A finding's edits are then the
  difference, around each of its changes, between the file and the file with only its own
  changes and its imports pasted in;
* otherwise (nested rewrites for different findings, imports removed, a rewrite that cannot
  be placed), the difference between the file and the run's result is split: an edit goes to
  the findings of the innermost planned node holding it, an edit outside all of them to every
  finding; an edit across the edge of a planned node is split character by character.

Either way the work is linear in the file and the number of findings.
"""

from __future__ import annotations

import difflib
import itertools
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState  # what Module.code_for_node writes with
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

from resilint.codemods.base import Span, docstring_or_strict as _docstring_or_strict, with_imports
from resilint.fixing.codemod_run import CodemodRun
from resilint.fixing.edits import line_edits, line_opcodes
from resilint.lint.checker import CheckedTree, parse_module
from resilint.lint.finding import Edit
from resilint.lint.positions import Unplaced
from resilint.lint.source import LINE_BREAK, python_lines
from resilint.lint.traversal import iter_nodes

Owners = FrozenSet[Span]
SHARED: Owners = frozenset()  # a change every finding's fix makes (the imports)


_MADE = itertools.count()


@dataclass(frozen=True)
class _Piece:
    """Replace ``text[start:end]`` (offsets in the file as checked) by ``new``. Two insertions
    at one place go in the order they were made (``made``): that of the statements they hold."""

    start: int
    end: int
    new: str
    owners: Owners
    made: int = field(default_factory=lambda: next(_MADE), compare=False)


def split_edits(run: CodemodRun, text: str, targets: Sequence[Span]) -> Tuple[Dict[Span, Tuple[Edit, ...]], str]:
    """Each target's edits (targets the run did not rewrite are left out), and the file's new
    text."""
    assert run.changed and run.command is not None and run.original is not None
    lines = _Lines(text)
    imports = _Imports(run.original, text, lines, path=_path_of(run))
    pieces = _pieces(run, text, lines, imports)
    by_target = _imports_by_target(run, targets, imports)
    if pieces is not None and by_target is not None:
        return _by_windows(pieces, by_target, text, lines, targets), _pasted(text, pieces)
    after = _decoded(run)
    return _by_splitting(run, text, after, lines, targets, by_target), after


def split_edits_of_built_tree(
    run: CodemodRun, text: str, targets: Sequence[Span], built: CheckedTree,
) -> Optional[Tuple[Dict[Span, Tuple[Edit, ...]], str]]:
    """``split_edits`` of a run over the tree ``check`` built from ``ast``, whose whitespace
    and comments are LibCST's defaults: a rewritten node's new text is taken from it only where
    its old code is the file's text there, and the imports' change from a parse of the lines
    before the first statement that is not an import. None where that does not hold: the run
    must be made over LibCST's own parse of the file."""
    assert run.changed and run.command is not None
    lines = _Lines(text)
    leading = _leading_lines_in_text(run.command, built, lines)
    if leading is None:
        return None
    imports = _Imports.of_header(built, text, _path_of(run))
    if imports is None:
        return None
    pieces = _pieces(run, text, lines, imports, leading)
    by_target = _imports_by_target(run, targets, imports)
    if pieces is None or by_target is None:
        return None
    return _by_windows(pieces, by_target, text, lines, targets), _pasted(text, pieces)


class _Imports:
    """The change adding some queued imports makes to the file, as pieces: LibCST's
    ``AddImportsVisitor`` over ``module``, a parse of the file or of its first lines (``text``
    is then those lines, the pieces' offsets being the same in the file)."""

    def __init__(
        self, module: cst.Module, text: str, lines: "_Lines", below: FrozenSet[str] = frozenset(), path: str = "",
    ) -> None:
        self.module, self.text, self.lines = module, text, lines
        self.path = path  # the file's, whose project's import order places them
        self.below = below  # the modules of ``from ... import`` statements after ``text``
        self._made: Dict[FrozenSet[object], Optional[List[_Piece]]] = {}

    @classmethod
    def of_header(cls, built: CheckedTree, text: str, path: str = "") -> Optional["_Imports"]:
        """From a LibCST parse of the lines before the module's first statement that is not an
        import (and a ``pass`` standing for that statement, which LibCST may give a blank line
        before); None when imports further down could be extended too, or a position is unknown."""
        body = list(built.module.body)
        first = 1 if body and _docstring_or_strict(body[0]) else 0
        while first < len(body) and _is_import(body[first]):
            first += 1
        # LibCST also extends a ``from M import`` of the same module lower down (``pieces``).
        below = frozenset(_from_module(s) for s in body[first:] if _is_import(s))
        if first == len(body):
            header = text
        else:
            statement = body[first]
            decorators = getattr(statement, "decorators", ())
            try:
                where = built.positions[decorators[0] if decorators else statement]
            except Unplaced:
                return None
            lines = _Lines(text)
            header = text[: lines.offset(where.start.line, 1)] + "pass\n"
        try:
            module = parse_module(header)
        except Exception:  # noqa: BLE001 - LibCST refuses what the whole file's parse would too
            return None
        return cls(module, header, _Lines(header), below, path)

    def pieces(self, items: Sequence[object]) -> Optional[List[_Piece]]:
        """The pieces of adding ``items`` (None: they cannot be told from the text)."""
        if any(_item_key(item)[0] in self.below for item in items):
            return None
        key = frozenset(map(_item_key, items))
        if key not in self._made:
            self._made[key] = _import_pieces(self.module, with_imports(self.module, items, self.path), self.text, self.lines) if items else []
        return self._made[key]


def _path_of(run: CodemodRun) -> str:
    return (run.command.context.filename if run.command is not None else None) or ""


def _item_key(item: object) -> Tuple[object, ...]:
    return (item.module_name, item.obj_name, item.alias) if hasattr(item, "module_name") else tuple(item)[:3]  # type: ignore[attr-defined]


def _imports_by_target(run: CodemodRun, targets: Sequence[Span], imports: _Imports) -> Optional[Dict[Span, List[_Piece]]]:
    """What each target's fix adds to the imports, as the run would add it for that target
    alone: the queued imports whose names its rewritten nodes use (a codemod queues an import
    for a name it writes, under a name the file does not use yet). None: cannot be told."""
    command = run.command
    assert command is not None
    queued = list(command.context.scratch.get(AddImportsVisitor.CONTEXT_KEY, ()))
    if not queued:
        return {}
    bound = {_bound_name(item): item for item in queued}
    names: Dict[Span, set] = {}
    for key, replacement in command.replaced.items():
        used = _names_in(replacement) & set(bound)
        for owner in command.served.get(key, ()):
            names.setdefault(owner, set()).update(used)
    found: Dict[Span, List[_Piece]] = {}
    for target in targets:
        wanted = names.get(target, ())
        pieces = imports.pieces([item for item in queued if _bound_name(item) in wanted])
        if pieces is None:
            return None
        found[target] = pieces
    return found


def _bound_name(item: object) -> str:
    """The name an ``AddImportsVisitor`` item binds (``import a.b`` binds ``a``)."""
    module, obj, alias = (
        (item.module_name, item.obj_name, item.alias) if hasattr(item, "module_name") else tuple(item)[:3]  # type: ignore[attr-defined]
    )
    return alias or obj or module.split(".", 1)[0]


def _names_in(node: object) -> set:
    """The variables a rewritten node reads (not attribute or keyword names)."""
    found = set()
    for each in node.nodes if isinstance(node, cst.FlattenSentinel) else (node,):
        if not isinstance(each, cst.CSTNode):
            continue
        nodes = list(iter_nodes(each))
        labels = {id(n.attr) for n in nodes if isinstance(n, cst.Attribute)}
        labels.update(id(n.keyword) for n in nodes if isinstance(n, cst.Arg) and n.keyword is not None)
        found.update(n.value for n in nodes if isinstance(n, cst.Name) and id(n) not in labels)
    return found


# --- pieces: the run's result as changes pasted into the file --------------------------------


def _leading_lines_in_text(command: object, built: CheckedTree, lines: "_Lines") -> Optional[Dict[int, int]]:
    """For each top-level statement a run put statements above (module constants after the
    imports), how many blank and comment lines the file has above it: the built tree has none
    of them, and the constants go above those lines as they do in a parse of the file. Told
    only right after an import statement, whose lines between are all the statement's (not a
    block's trailing comments); None otherwise."""
    found: Dict[int, int] = {}
    body = list(built.module.body)
    for key in command.inserted_above:  # type: ignore[attr-defined]
        node = command.planned_nodes.get(key)  # type: ignore[attr-defined]
        index = next((i for i, statement in enumerate(body) if statement is node), None)
        if index is None or index == 0 or not _is_import(body[index - 1]) or getattr(node, "decorators", ()):
            return None
        try:
            after = built.positions[body[index - 1]].end.line
            line = built.positions[node].start.line
        except Unplaced:
            return None
        between = range(after + 1, line)
        for number in between:
            content = lines.line(number).strip()
            if content and (not content.startswith("#") or lines.indentation(number)):
                return None  # code, or an indented comment, which LibCST may give to another node
        found[key] = len(between)
    return found


def _pieces(
    run: CodemodRun, text: str, lines: "_Lines", imports: _Imports, leading: Optional[Mapping[int, int]] = None,
) -> Optional[List[_Piece]]:
    """The run's changes as pieces of the file's text. ``leading``: the blank and comment lines
    above each statement given statements above it, where the tree has none (``ast``'s)."""
    command, original, result = run.command, run.original, run.result
    assert command is not None
    if original is None or result is None or command.visited_everything or command.context.scratch.get(
        RemoveImportsVisitor.CONTEXT_KEY
    ):
        return None
    pieces: List[_Piece] = []
    for key, replacement in command.replaced.items():
        span = command.planned_spans.get(key)
        owners = frozenset(command.served.get(key, ()))
        if span is None or not owners:
            return None
        if key in command.inserted_above:
            above = _inserted_above(
                command.planned_nodes[key], replacement, span, command.inserted_above[key], original, text, lines,
                leading.get(key) if leading is not None else None,
            )
            if above is None:
                return None
            pieces.extend(above)
            continue
        else:
            # A node on its statement's first line, outside brackets: the lines it is given
            # (a call wrapped as black wraps it) are indented like that line.
            block = lines.indentation(span[0]) if key in command.at_statement_start else None
            piece = _rewritten(
                command.planned_nodes[key], replacement, span, owners, original, text, lines, block, command.spelled,
            )
        if piece is None:
            return None
        pieces.append(piece)
    # Outer rewrites before the ones they hold; an insertion where a rewrite begins (a constant
    # above a statement whose call is rewritten) is not inside it: it goes first.
    pieces.sort(key=lambda p: (p.start, p.end != p.start, -p.end))
    outermost: List[_Piece] = []
    for piece in pieces:
        if outermost and piece.start < outermost[-1].end:
            if piece.end > outermost[-1].end or piece.owners != outermost[-1].owners:
                return None  # nested rewrites for different findings: split the other way
            continue  # inside a rewrite for the same findings, whose new text holds it
        outermost.append(piece)
    shared = imports.pieces(command.context.scratch.get(AddImportsVisitor.CONTEXT_KEY, ()))
    if shared is None:
        return None
    found = sorted(outermost + shared, key=_place)
    if any(b.start < a.end for a, b in zip(found, found[1:])):
        return None
    return found


def _place(piece: _Piece) -> Tuple[int, int, bool, int]:
    # At one place, the imports' change first: whatever else a fix inserts there comes below them.
    return piece.start, piece.end, piece.owners != SHARED, piece.made


def _inserted_above(
    node: cst.CSTNode, replacement: object, span: Span, users: Sequence[Iterable[Span]], module: cst.Module, text: str,
    lines: "_Lines", leading: Optional[int] = None,
) -> Optional[List[_Piece]]:
    """The statements a planned top-level statement was given above it (``FlattenSentinel``
    whose last node is the statement, its own rewrites being other plans' pieces), each an
    insertion for the targets that use it (``users``), where the statement's leading lines
    begin; and a blank line it was given before it, for all of them. ``leading``: how many
    leading lines the statement has in the file, when its node has none (a tree built from
    ``ast``; the codemod then gave it the blank line it gives a statement without any)."""
    if not isinstance(replacement, cst.FlattenSentinel) or not isinstance(node, cst.BaseStatement) or span[1] != 1:
        return None
    *above, statement = replacement.nodes
    if not isinstance(statement, cst.BaseStatement) or len(above) != len(users):
        return None
    old_leading, new_leading = tuple(node.leading_lines), tuple(statement.leading_lines)
    kept = new_leading[len(new_leading) - len(old_leading):]
    if len(kept) != len(old_leading) or not all(a.deep_equals(b) for a, b in zip(kept, old_leading)):
        return None  # its own leading lines changed, not only preceded by new ones
    given = new_leading[: len(new_leading) - len(old_leading)]
    if leading is not None:
        if old_leading:
            return None
        given = given if leading == 0 else ()  # the file's own lines stand between, as in its parse
    first = lines.offset(span[0] - (len(old_leading) if leading is None else leading), 1)
    pieces = [_Piece(first, first, _code(module, each, ""), frozenset(owners)) for each, owners in zip(above, users)]
    blank = "".join(_code(module, line, "") for line in given)
    if blank:
        pieces.append(_Piece(first, first, blank, frozenset(o for owners in users for o in owners)))
    return pieces


def _decoded(run: CodemodRun) -> str:
    assert run.result is not None
    return run.result.code


def _rewritten(
    node: cst.CSTNode, replacement: object, span: Span, owners: Owners, module: cst.Module, text: str, lines: "_Lines",
    block: Optional[str] = None, spelled: Mapping[int, Tuple[cst.CSTNode, str]] = {},
) -> Optional[_Piece]:
    """The change replacing ``node`` by ``replacement`` makes to the file, or None when its text
    cannot be told from the node alone. ``spelled``: the one-line code of replacements already
    written (the same at any indentation)."""
    start, end = _with_parentheses(node, lines.offset(span[0], span[1]), lines.offset(span[2], span[3]), text)
    if isinstance(node, (cst.BaseStatement, cst.Decorator)):
        # A statement's code holds its leading lines, indentation and line break: its whole lines.
        indent = lines.indentation(span[0])
        old = _code(module, node, indent)
        leading = len(getattr(node, "leading_lines", ()))
        first = lines.offset(span[0] - leading, 1)
        if text[first:first + len(old)] != old:
            return None
        return _Piece(first, first + len(old), _code(module, replacement, indent), owners)
    old = text[start:end]
    indent = _continuation_indent(module, node, old)
    if indent is None:
        return None
    written = spelled.get(id(replacement))
    new = written[1] if written is not None and written[0] is replacement else _code(module, replacement, indent)
    if not indent and LINE_BREAK.search(new) and not LINE_BREAK.search(old):
        if block is None:
            return None  # lines after the first whose indentation the original does not tell
        new = _code(module, replacement, block)
    return _Piece(start, end, new, owners)


def _with_parentheses(node: cst.CSTNode, start: int, end: int, text: str) -> Tuple[int, int]:
    """``[start, end)``, a node's span without its own parentheses, widened to hold them (and
    the whitespace inside them); as it was when the file's text there is not that."""
    # A class's ``lpar`` is the parenthesis of its bases (a sentinel when it has none).
    if isinstance(node, cst.BaseStatement):
        return start, end
    opening, closing = len(getattr(node, "lpar", ())), len(getattr(node, "rpar", ()))
    first, last = start, end
    for _ in range(opening):
        while first > 0 and text[first - 1] in " \t\r\n\\":
            first -= 1
        if first == 0 or text[first - 1] != "(":
            return start, end
        first -= 1
    for _ in range(closing):
        while last < len(text) and text[last] in " \t\r\n\\":
            last += 1
        if last == len(text) or text[last] != ")":
            return start, end
        last += 1
    return first, last


def _continuation_indent(module: cst.Module, node: cst.CSTNode, old: str) -> Optional[str]:
    """The indentation the lines after an expression's first take from its statement: what
    LibCST writes before them where the source breaks a line inside parentheses; None when the
    node's code is not the file's text there."""
    alone = _code(module, node, "")
    if alone == old:
        return ""
    first, *rest = python_lines(alone, keepends=True)
    theirs = python_lines(old, keepends=True)
    if len(theirs) != len(rest) + 1 or theirs[0] != first:
        return None
    for mine, line in zip(rest, theirs[1:]):
        if line.endswith(mine) and line != mine:
            indent = line[: len(line) - len(mine)]
            return indent if _code(module, node, indent) == old else None
    return None


def _code(module: cst.Module, node: object, indent: str) -> str:
    """LibCST's code for ``node`` (or what a replacement gave: several statements, none) as it
    is written in ``module`` at ``indent``."""
    if isinstance(node, cst.RemovalSentinel):
        return ""
    nodes = node.nodes if isinstance(node, cst.FlattenSentinel) else (node,)
    state = CodegenState(default_indent=module.default_indent, default_newline=module.default_newline)
    if indent:
        state.indent_tokens.append(indent)
    for each in nodes:
        each._codegen(state)  # type: ignore[union-attr]
    return "".join(state.tokens)


def _import_pieces(original: cst.Module, result: cst.Module, text: str, lines: "_Lines") -> Optional[List[_Piece]]:
    """The imports' change to the module's top-level statements: imports added or extended,
    and blank lines before the first statement after them. Every other top-level statement is
    the same object in both trees, or holds rewritten nodes (their own pieces)."""
    old, new = list(original.body), list(result.body)
    if len(old) == len(new) and all(
        a is b or (not _is_import(a) and not _is_import(b) and a.leading_lines == b.leading_lines) for a, b in zip(old, new)
    ):
        return []
    pieces: List[_Piece] = []
    starts = _StatementStarts(original)
    matcher = difflib.SequenceMatcher(None, [id(s) for s in old], [id(s) for s in new], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        old_imports, old_others = _imports_first(old[i1:i2])
        new_imports, new_others = _imports_first(new[j1:j2])
        if old_imports is None or new_imports is None or len(old_others) != len(new_others):
            return None
        if old_imports or new_imports:
            at = starts.of(i1)
            before = "".join(_code(original, s, "") for s in old_imports)
            if text[at:at + len(before)] != before:
                return None
            pieces.append(_Piece(at, at + len(before), "".join(_code(result, s, "") for s in new_imports), SHARED))
        for index, (a, b) in enumerate(zip(old_others, new_others), start=i1 + len(old_imports)):
            if type(a) is not type(b):
                return None
            if a.leading_lines != b.leading_lines:
                at = starts.of(index)
                before = "".join(_code(original, line, "") for line in a.leading_lines)
                if text[at:at + len(before)] != before:
                    return None
                after = "".join(_code(result, line, "") for line in b.leading_lines)
                pieces.append(_Piece(at, at + len(before), after, SHARED))
    return pieces


def _imports_first(statements: Sequence[cst.CSTNode]) -> Tuple[Optional[List[cst.CSTNode]], List[cst.CSTNode]]:
    """The import statements of a run of top-level statements and the others, when the imports
    all come first (None: they do not)."""
    count = 0
    while count < len(statements) and _is_import(statements[count]):
        count += 1
    others = list(statements[count:])
    if any(_is_import(s) for s in others):
        return None, others
    return list(statements[:count]), others


def _from_module(statement: cst.CSTNode) -> str:
    """The module of a top-level ``from M import ...`` line ("" for ``import M`` or a relative one)."""
    first = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and statement.body else None
    if isinstance(first, cst.ImportFrom) and first.module is not None and not first.relative:
        return _dotted(first.module)
    return ""


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return node.value if isinstance(node, cst.Name) else ""


def _is_import(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and any(isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body)


class _StatementStarts:
    """Where each top-level statement's code starts, leading lines included: the header's code
    and that of the statements before it added up, only as far as asked (the imports are first)."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self.offsets = [len("".join(_code(module, line, "") for line in module.header))]

    def of(self, index: int) -> int:
        while len(self.offsets) <= index:
            self.offsets.append(self.offsets[-1] + len(_code(self.module, self.module.body[len(self.offsets) - 1], "")))
        return self.offsets[index]


def _pasted(text: str, pieces: Iterable[_Piece]) -> str:
    out: List[str] = []
    at = 0
    for piece in pieces:
        out.append(text[at:piece.start])
        out.append(piece.new)
        at = piece.end
    out.append(text[at:])
    return "".join(out)


# --- a finding's edits around each of its changes --------------------------------------------


def _by_windows(
    pieces: Sequence[_Piece], imports: Mapping[Span, List[_Piece]], text: str, lines: "_Lines", targets: Sequence[Span],
) -> Dict[Span, Tuple[Edit, ...]]:
    own: Dict[Span, List[_Piece]] = {}
    for piece in pieces:
        for owner in piece.owners:
            own.setdefault(owner, []).append(piece)
    found: Dict[Span, Tuple[Edit, ...]] = {}
    for target in targets:
        mine = own.get(target)
        if not mine:
            continue
        chosen = sorted(set(mine) | set(imports.get(target, ())), key=_place)
        edits = _edits_of(chosen, text, lines)
        if edits:
            found[target] = tuple(edits)
    return found


def _edits_of(pieces: Sequence[_Piece], text: str, lines: "_Lines") -> List[Edit]:
    """The line-wise edits of pasting these pieces (sorted, apart) into the file, found around
    each group of them: what a diff of the whole file gives, at the cost of their lines."""
    edits: List[Edit] = []
    for window in _windows(pieces, lines):
        first, last = window[0], window[-1]
        start, end = lines.line_start(first.start), lines.line_end(max(last.end, last.start))
        old = text[start:end]
        new = _pasted_within(text, window, start, end)
        edits.extend(line_edits(python_lines(old, keepends=True), python_lines(new, keepends=True), lines.line_of(start)))
    return edits


def _windows(pieces: Sequence[_Piece], lines: "_Lines") -> List[List[_Piece]]:
    """The pieces grouped by the whole lines they change; pieces on lines that meet (one ends
    where the other's line starts) go together, as a diff of the whole file would join them."""
    windows: List[List[_Piece]] = []
    end = -1
    for piece in pieces:
        start = lines.line_start(piece.start)
        if windows and start <= end:
            windows[-1].append(piece)
        else:
            windows.append([piece])
        end = max(end, lines.line_end(max(piece.end, piece.start)) if piece.end > piece.start else start)
    return windows


def _pasted_within(text: str, pieces: Sequence[_Piece], start: int, end: int) -> str:
    out: List[str] = []
    at = start
    for piece in pieces:
        out.append(text[at:piece.start])
        out.append(piece.new)
        at = piece.end
    out.append(text[at:end])
    return "".join(out)


class _Lines:
    """Line starts of a text (Python's line breaks), for offsets and 1-based positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in LINE_BREAK.finditer(text)]

    def offset(self, line: int, column: int) -> int:
        """The offset of a 1-based (line, column)."""
        return self.starts[min(max(line, 1), len(self.starts)) - 1] + column - 1

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset)

    def line_start(self, offset: int) -> int:
        return self.starts[self.line_of(offset) - 1]

    def line_end(self, offset: int) -> int:
        """The offset after the line break of the line holding the character before ``offset``
        (``offset`` itself when it starts a line)."""
        if offset in (0, len(self.text)) or self.starts[self.line_of(offset) - 1] == offset:
            return offset
        line = self.line_of(offset)
        return self.starts[line] if line < len(self.starts) else len(self.text)

    def line(self, number: int) -> str:
        """The text of a 1-based line, its line break included."""
        stop = self.starts[number] if number < len(self.starts) else len(self.text)
        return self.text[self.starts[number - 1]:stop]

    def indentation(self, line: int) -> str:
        content = self.line(line)
        return content[: len(content) - len(content.lstrip(" \t\f"))]


# --- otherwise: the run's edits split between the findings ------------------------------------


def _by_splitting(
    run: CodemodRun, text: str, after: str, lines: _Lines, targets: Sequence[Span],
    imports: Optional[Mapping[Span, List[_Piece]]],
) -> Dict[Span, Tuple[Edit, ...]]:
    command = run.command
    assert command is not None
    regions: List[Tuple[int, int, Owners]] = []
    for key, span in command.planned_spans.items():
        owners = frozenset(command.served.get(key, ()))
        if span is not None and owners:
            node = command.planned_nodes[key]
            regions.append((*_with_parentheses(node, lines.offset(span[0], span[1]), lines.offset(span[2], span[3]), text), owners))
    regions.sort(key=lambda r: (r[0], -r[1]))
    old_lines, new_lines = python_lines(text, keepends=True), python_lines(after, keepends=True)
    own: Dict[Span, List[Edit]] = {}
    shared: List[Edit] = []
    for tag, i1, i2, j1, j2 in line_opcodes(old_lines, new_lines):
        if tag == "equal":
            continue
        pairs = [(i1 + k, i1 + k + 1, j1 + k, j1 + k + 1) for k in range(i2 - i1)] if i2 - i1 == j2 - j1 else [(i1, i2, j1, j2)]
        for a1, a2, b1, b2 in pairs:
            old_chunk, new_chunk = "".join(old_lines[a1:a2]), "".join(new_lines[b1:b2])
            start = lines.starts[a1] if a1 < len(lines.starts) else len(text)
            for owners, version in _versions(old_chunk, new_chunk, start, regions):
                edits = line_edits(python_lines(old_chunk, keepends=True), python_lines(version, keepends=True), a1 + 1)
                if owners is SHARED:
                    shared.extend(edits)
                for owner in owners:
                    own.setdefault(owner, []).extend(edits)
    removers = _removing(command)
    # Statements put above a planned statement (module constants after the imports) sit outside
    # every region: they go with the imports of the findings they serve.
    above: List[_Piece] = []
    for key, users in command.inserted_above.items():
        if key in command.replaced and command.planned_spans.get(key) is not None and run.original is not None:
            above.extend(_inserted_above(
                command.planned_nodes[key], command.replaced[key], command.planned_spans[key],  # type: ignore[arg-type]
                users, run.original, text, lines,
            ) or ())
    found: Dict[Span, Tuple[Edit, ...]] = {}
    for target in targets:
        if own.get(target):
            # The imports this target's fix adds, when they are known and it removes none (the
            # name a rewrite stops using: its import goes); else every change the run made
            # outside the rewritten nodes.
            removing = target in removers
            mine = [p for p in above if target in p.owners]
            added = shared if imports is None or removing else _edits_of(sorted(imports.get(target, []) + mine, key=_place), text, lines)
            found[target] = tuple(sorted(added + own[target], key=lambda e: (e.line, e.column)))
    return found


def _removing(command: object) -> FrozenSet[Span]:
    """The targets whose rewrite alone removes an import the run removes: it stops using the
    name (the nodes it replaced held it, their replacements do not), and no other target's
    rewritten nodes held it (they still would, fixed alone)."""
    queued = command.context.scratch.get(RemoveImportsVisitor.CONTEXT_KEY) or ()  # type: ignore[attr-defined]
    names = {_bound_name(item) for item in queued}
    if not names:
        return frozenset()
    users: Dict[str, set] = {}
    for key, replacement in command.replaced.items():  # type: ignore[attr-defined]
        for name in _names_in(command.planned_nodes[key]) & names:  # type: ignore[attr-defined]
            users.setdefault(name, set()).update(command.served.get(key, ()))  # type: ignore[attr-defined]
    return frozenset(owner for owners in users.values() if len(owners) == 1 for owner in owners)


def _versions(old: str, new: str, start: int, regions: Sequence[Tuple[int, int, Owners]]) -> List[Tuple[Owners, str]]:
    """The owners of a changed chunk of lines (``old`` at offset ``start`` becoming ``new``),
    each with the chunk as only their changes leave it: the whole change for the owners of the
    innermost planned node holding it (or every finding's, outside all of them), else the
    change split character by character between the planned nodes."""
    holders = _innermost(regions, start, start + len(old))
    if holders is not None:
        return [(holders, new)]
    changes: Dict[Owners, List[Tuple[int, int, str]]] = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        owners = _innermost(regions, start + i1, start + i2)
        if owners is None:
            return [(frozenset(o for r in _touching(regions, start, start + len(old)) for o in r[2]), new)]
        changes.setdefault(owners, []).append((i1, i2, new[j1:j2]))
    versions = []
    for owners, made in changes.items():
        out, at = [], 0
        for i1, i2, content in made:
            out.append(old[at:i1])
            out.append(content)
            at = i2
        out.append(old[at:])
        versions.append((owners, "".join(out)))
    return versions


def _innermost(regions: Sequence[Tuple[int, int, Owners]], start: int, end: int) -> Optional[Owners]:
    """The owners of the smallest planned node holding ``[start, end)``; SHARED when none
    touches it; None when one crosses its edge."""
    holding = [r for r in _touching(regions, start, end) if r[0] <= start and end <= r[1]]
    crossing = [r for r in _touching(regions, start, end) if not (r[0] <= start and end <= r[1])]
    if crossing:
        return None
    if not holding:
        return SHARED
    return min(holding, key=lambda r: r[1] - r[0])[2]


def _touching(regions: Sequence[Tuple[int, int, Owners]], start: int, end: int) -> List[Tuple[int, int, Owners]]:
    """The regions that overlap ``[start, end)`` (an insertion: that hold its position)."""
    found = []
    for region in regions:
        if region[0] > end:
            break
        if (region[0] < end and start < region[1]) or (start == end and region[0] <= start <= region[1]):
            found.append(region)
    return found
