"""A call a fix makes longer than the project's line length (black's/ruff's ``line-length``,
88 by default: ``ProjectStyle``) is laid out the way black lays it out, so that ``black
--check`` and ``ruff format --check`` still pass on the fixed file:

* the arguments on one indented line of their own, the closing parenthesis below (black's
  right-hand split), when that line fits and the call has no magic trailing comma;
* else one argument per line, each with its comma, the last one too (black's delimiter split).

Only a call that starts on its statement's first line outside any other bracket, whose line
opens no bracket after it (black split such a statement at that bracket already), and that
holds no other call a fix rewrites, is wrapped: black would split an enclosing bracket first, and the
inner call's fix must read the same whether the outer one is fixed or not. A call laid out one argument per line already
gets a new argument on a line of its own (``timeout_edits.add_keyword``); that argument's value
is wrapped when the line is still too long.
A call with ``*args`` or ``**kwargs`` is left long (whether black adds a trailing comma after
them depends on the Python versions it infers from the whole file).
"""

from __future__ import annotations

import io
import tokenize
from typing import Callable, FrozenSet, List, Optional

import libcst as cst

from resilint.codemods.base import ResilintCodemod
from resilint.codemods.style import style_of
from resilint.libraries.timeout_verdicts import model_verdicts
from resilint.lint.semantic import SemanticModel
from resilint.lint.traversal import iter_nodes

# ``context.scratch`` key of the file's text under ``resilint fix`` (``codemod_run``).
SOURCE = "resilint.source"
_OPENING, _CLOSING = "([{", ")]}"


class LineFit:
    """The lines of one file, and the edits that keep a rewritten call within its length."""

    def __init__(self, codemod: ResilintCodemod, tree: cst.Module, model: SemanticModel) -> None:
        self.codemod = codemod
        self.model = model
        self._fixable: Optional[FrozenSet[int]] = None
        given = codemod.context.scratch.get(SOURCE)
        text = given.decode(tree.encoding, errors="replace") if isinstance(given, bytes) else None
        self._text = text
        self._tree = tree
        self._lines: Optional[List[str]] = None
        self._starts: Optional[FrozenSet[int]] = None
        self.limit = style_of(codemod.context.filename).line_length

    def lines(self) -> List[str]:
        if self._lines is None:
            text = self._text if self._text is not None else self._tree.code
            self._text = text
            self._lines = text.splitlines()
        return self._lines

    def wrapper(self, call: cst.Call) -> Callable[[cst.CSTNode], cst.CSTNode]:
        """An edit to apply to ``call`` once rewritten: it wraps it if it no longer fits."""
        line, column, end_line, end_column = self.codemod.span(call)

        def wrap(updated: cst.CSTNode) -> cst.CSTNode:
            if not isinstance(updated, cst.Call):
                return updated
            lines = self.lines()
            text = lines[line - 1] if line <= len(lines) else ""
            prefix = text[: column - 1]
            suffix = lines[end_line - 1][end_column - 1:] if end_line <= len(lines) else ""
            indent = prefix[: len(prefix) - len(prefix.lstrip())]
            if "\t" in indent or _depth(prefix) != 0 or line not in self._logical_starts() or self._holds_a_fixed_call(call):
                return updated
            if _depth(suffix) > 0:
                return updated  # black split this statement at a later bracket: its layout is black's to redo
            self.codemod.at_statement_start.add(id(call))
            code = cst.Module([]).code_for_node(updated)
            if "\n" in code:
                if _hugged(updated) and "#" not in code and _longest_line(prefix, code, indent) > self.limit:
                    # black's one indented line of arguments, now too long: laid out again
                    return _wrapped(updated, prefix, indent, "", self.limit)
                return _last_argument_wrapped(updated, indent, self.limit)
            if len(prefix) + len(code) + len(suffix.rstrip()) <= self.limit or _splits_later(prefix + code, suffix, self.limit):
                self.codemod.spelled[id(updated)] = (updated, code)
                return updated
            return _wrapped(updated, prefix, indent, "", self.limit)

        return wrap

    def _holds_a_fixed_call(self, call: cst.Call) -> bool:
        """Whether a call inside ``call`` has a finding this codemod fixes: either finding may
        be fixed alone, and neither fix's edits may depend on whether the other is made."""
        if self._fixable is None:
            codes = set(self.codemod.CODES)
            self._fixable = frozenset(id(v.anchor) for v in model_verdicts(self.model, self.codemod.settings) if v.code in codes)
        return any(isinstance(node, cst.Call) and id(node) in self._fixable for node in iter_nodes(call) if node is not call)

    def _logical_starts(self) -> FrozenSet[int]:
        """The lines a statement starts on (outside brackets and continuation lines)."""
        if self._starts is None:
            starts = set()
            expecting = True
            try:
                for token in tokenize.generate_tokens(io.StringIO("\n".join(self.lines()) + "\n").readline):
                    if token.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                        expecting = True
                    elif token.type in (tokenize.NL, tokenize.COMMENT, tokenize.ENCODING):
                        continue
                    elif expecting:
                        starts.add(token.start[0])
                        expecting = False
            except (tokenize.TokenError, SyntaxError):
                pass  # what tokenize cannot read is not wrapped
            self._starts = frozenset(starts)
        return self._starts


def _longest_line(prefix: str, code: str, indent: str) -> int:
    """The longest line of ``code`` written after ``prefix``: its continuation lines are
    rendered without the block's indentation (``indent``), which the file gives them."""
    first, *rest = code.split("\n")
    return max([len(prefix + first)] + [len(indent + line) for line in rest])


def _depth(text: str) -> int:
    """Brackets opened and not closed in ``text`` (strings are not read: an unbalanced bracket
    in one only stops a wrap)."""
    depth = 0
    for char in text:
        if char in _OPENING:
            depth += 1
        elif char in _CLOSING:
            depth -= 1
    return depth


def _last_argument_wrapped(call: cst.Call, indent: str, limit: int) -> cst.Call:
    """``call``, laid out over several lines, with its last argument's value wrapped when the
    line it has to itself is too long (``timeout=timeout(read=..., connect=...),``)."""
    args = list(call.args)
    before = call.whitespace_before_args if len(args) == 1 else args[-2].comma
    if isinstance(before, cst.Comma):
        before = before.whitespace_after
    last = args[-1]
    if not isinstance(before, cst.ParenthesizedWhitespace) or not before.indent:
        return call
    if not isinstance(last.value, cst.Call) and _operators(last.value) is None:
        return call
    extra = before.last_line.value
    spelled = cst.Module([]).code_for_node
    line = indent + extra + spelled(last.with_changes(whitespace_after_arg=cst.SimpleWhitespace(""))).split("\n", 1)[0]
    if "\n" in spelled(last.value) or len(line.rstrip()) <= limit:
        return call
    keyword = spelled(last.keyword) + "=" if last.keyword is not None else ""
    comma = "," if isinstance(last.comma, cst.Comma) else ""
    value = _split(last.value, indent + extra + keyword, indent + extra, extra, limit, comma)
    args[-1] = last.with_changes(value=value)
    return call.with_changes(args=args)


def _wrapped(call: cst.Call, prefix: str, line_indent: str, extra: str, limit: int) -> cst.Call:
    """``call``, starting after ``prefix`` on a line indented by ``line_indent`` (``extra``
    beyond its block's indentation), split as black splits it."""
    args = list(call.args)
    if not args or any(arg.star for arg in args):
        return call
    spelled = cst.Module([]).code_for_node
    head = prefix + spelled(call.func) + "("
    if len(head) > limit:
        return call  # black would look for another split
    inner = line_indent + "    "
    magic = isinstance(args[-1].comma, cst.Comma)
    bare = [arg.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=cst.SimpleWhitespace("")) for arg in args]
    body = ", ".join(spelled(arg) for arg in bare)

    def line_break(more: str) -> cst.ParenthesizedWhitespace:
        # ``indent=True``: the block's indentation, then what the line has beyond it.
        return cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), indent=True, last_line=cst.SimpleWhitespace(extra + more))

    if not magic and "\n" not in body and len(inner) + len(body) <= limit:
        hugged = [arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for arg in bare[:-1]]
        hugged.append(bare[-1].with_changes(whitespace_after_arg=line_break("")))
        return call.with_changes(whitespace_before_args=line_break("    "), args=hugged)
    if len(bare) == 1 and not magic:
        # A lone argument gets no trailing comma: black splits the argument itself instead.
        lone = bare[0]
        keyword = spelled(lone.keyword) + "=" if lone.keyword is not None else ""
        value = _split(lone.value, inner + keyword, inner, extra + "    ", limit, "")
        return call.with_changes(
            whitespace_before_args=line_break("    "), args=[lone.with_changes(value=value, whitespace_after_arg=line_break(""))]
        )
    exploded = [arg.with_changes(comma=cst.Comma(whitespace_after=line_break("    "))) for arg in bare[:-1]]
    exploded.append(bare[-1].with_changes(comma=cst.Comma(whitespace_after=line_break(""))))
    for index, arg in enumerate(exploded):
        # An argument still too long on its own line is split in turn.
        keyword = spelled(arg.keyword) + "=" if arg.keyword is not None else ""
        exploded[index] = arg.with_changes(value=_split(arg.value, inner + keyword, inner, extra + "    ", limit, ","))
    return call.with_changes(whitespace_before_args=line_break("    "), args=exploded)


def _split(value: cst.BaseExpression, prefix: str, line_indent: str, extra: str, limit: int, suffix: str) -> cst.BaseExpression:
    """``value`` on a line of its own after ``prefix`` (and before ``suffix``), split as black
    splits it when it does not fit: a call at its brackets, a sum before each ``+``/``-``, a
    boolean operation before each ``or``/``and``."""
    spelled = cst.Module([]).code_for_node
    if len(prefix + spelled(value) + suffix) <= limit:
        return value
    if isinstance(value, cst.Call):
        return _wrapped(value, prefix, line_indent, extra, limit)
    if _operators(value) is not None:
        return _operator_split(value, prefix, line_indent, extra, limit, suffix)  # type: ignore[arg-type]
    return value


def _operators(value: cst.BaseExpression) -> Optional[str]:
    """Which operators black splits ``value`` before (not in parentheses): "logic" for
    ``a or b``/``a and b``, "sum" for ``a + b``/``a - b``; None for any other expression."""
    if isinstance(value, cst.BooleanOperation) and not value.lpar:
        return "logic"
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract)) and not value.lpar:
        return "sum"
    return None


def _operator_split(
    value: "cst.BinaryOperation | cst.BooleanOperation", prefix: str, line_indent: str, extra: str, limit: int, suffix: str,
) -> cst.BaseExpression:
    """``a + b - c`` (``a or b``) over lines, each operator starting one (black's delimiter
    split at the loosest operators), each operand split in turn when its line is still too long."""
    spelled = cst.Module([]).code_for_node
    left = value.left
    if _operators(left) == _operators(value):
        left = _operator_split(left, prefix, line_indent, extra, limit, "")  # type: ignore[arg-type]
    else:
        left = _split(left, prefix, line_indent, extra, limit, "")
    operator = value.operator
    sign = spelled(operator).strip() + " "
    line_break = cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), indent=True, last_line=cst.SimpleWhitespace(extra))
    operator = operator.with_changes(whitespace_before=line_break, whitespace_after=cst.SimpleWhitespace(" "))
    right = _split(value.right, line_indent + sign, line_indent, extra, limit, suffix)
    return value.with_changes(left=left, operator=operator, right=right)


def _splits_later(head: str, suffix: str, limit: int) -> bool:
    """Whether black splits the line at a bracket after the call (``.json()["level"]``): it
    tries the last non-empty bracket pair first, and takes it when the line up to it fits."""
    depth, end = 0, None
    for index in range(len(suffix) - 1, -1, -1):
        char = suffix[index]
        if char in _CLOSING:
            if depth == 0:
                end = index
            depth += 1
        elif char in _OPENING:
            depth -= 1
            if depth == 0 and end is not None:
                if suffix[index + 1:end].strip():
                    return len(head + suffix[: index + 1]) <= limit
                end = None  # black cannot split an empty pair: it tries the one before
    return False


def _hugged(call: cst.Call) -> bool:
    """Whether ``call`` is laid out as black's right-hand split: its arguments on one line of
    their own between the parentheses' lines."""
    args = call.args
    if not args or not isinstance(call.whitespace_before_args, cst.ParenthesizedWhitespace):
        return False
    if any(isinstance(arg.comma, cst.Comma) and not isinstance(arg.comma.whitespace_after, cst.SimpleWhitespace) for arg in args):
        return False
    return not isinstance(args[-1].comma, cst.Comma) and isinstance(args[-1].whitespace_after_arg, cst.ParenthesizedWhitespace)
