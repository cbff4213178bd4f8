"""Adding and removing call arguments without disturbing the call's layout: a multi-line call
stays one argument per line at its indentation, a trailing comma stays, a comment stays on the
line of the argument it annotates."""

from __future__ import annotations

from typing import List, Union

import libcst as cst

Whitespace = Union[cst.SimpleWhitespace, cst.ParenthesizedWhitespace]
_TIGHT = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def keyword(name: str, value: cst.BaseExpression) -> cst.Arg:
    return cst.Arg(keyword=cst.Name(name), value=value, equal=_TIGHT)


def new_call(func: cst.BaseExpression, args: List[cst.Arg]) -> cst.Call:
    """``func(a, b=c)``: a new call, its arguments separated by ``, ``."""
    spaced = [a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for a in args[:-1]]
    return cst.Call(func, spaced + args[-1:])


def add_argument(call: cst.Call, arg: cst.Arg) -> cst.Call:
    """``call`` with ``arg`` appended after its last argument."""
    args: List[cst.Arg] = list(call.args)
    if not args:
        return call.with_changes(args=[arg])
    last = args[-1]
    between = _between(call)
    if not isinstance(last.comma, cst.Comma):
        # no trailing comma: the space before ")" is the last argument's, it moves to the new one
        closing = last.whitespace_after_arg
        if isinstance(closing, cst.ParenthesizedWhitespace) and isinstance(between, cst.ParenthesizedWhitespace):
            # except its comment, which stays on the line of the argument it annotates
            between = between.with_changes(first_line=closing.first_line)
            closing = closing.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])
        args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=between), whitespace_after_arg=cst.SimpleWhitespace(""))
        args.append(arg.with_changes(whitespace_after_arg=closing))
    else:
        after = last.comma.whitespace_after
        if isinstance(after, cst.ParenthesizedWhitespace):
            # one argument per line: the last keeps its comment, the new one goes below it
            kept = after.with_changes(last_line=between.last_line) if isinstance(between, cst.ParenthesizedWhitespace) else after
            args[-1] = last.with_changes(comma=last.comma.with_changes(whitespace_after=kept))
            args.append(arg.with_changes(comma=cst.Comma(whitespace_after=after.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[]))))
        else:
            args[-1] = last.with_changes(comma=last.comma.with_changes(whitespace_after=cst.SimpleWhitespace(" ")))
            args.append(arg.with_changes(comma=cst.Comma(whitespace_after=after)))
    return call.with_changes(args=args)


def remove_argument(call: cst.Call, arg: cst.Arg) -> cst.Call:
    """``call`` without ``arg`` (matched by identity, or equal spelling after other edits)."""
    args: List[cst.Arg] = list(call.args)
    index = next((i for i, a in enumerate(args) if a is arg or a.deep_equals(arg)), None)
    if index is None:
        return call
    removed = args.pop(index)
    if index == len(args) and index > 0:
        # it was the last: the one before it takes over its trailing comma (or none) and the space before ")"
        previous = args[-1]
        comma = removed.comma
        if isinstance(comma, cst.Comma) and isinstance(previous.comma, cst.Comma):
            before, after = previous.comma.whitespace_after, comma.whitespace_after
            if isinstance(before, cst.ParenthesizedWhitespace) and isinstance(after, cst.ParenthesizedWhitespace):
                comma = comma.with_changes(whitespace_after=after.with_changes(first_line=before.first_line))
        args[-1] = previous.with_changes(comma=comma, whitespace_after_arg=removed.whitespace_after_arg)
    return call.with_changes(args=args)


def replace_argument_value(call: cst.Call, arg: cst.Arg, value: cst.BaseExpression) -> cst.Call:
    return call.with_changes(args=[a.with_changes(value=value) if a is arg or a.deep_equals(arg) else a for a in call.args])


def _between(call: cst.Call) -> Whitespace:
    """The whitespace that separates two arguments of this call (without any comment)."""
    args = call.args
    if len(args) >= 2 and isinstance(args[-2].comma, cst.Comma):
        return _plain(args[-2].comma.whitespace_after)
    opening = call.whitespace_before_args
    if isinstance(opening, cst.ParenthesizedWhitespace):
        return _plain(opening)
    return cst.SimpleWhitespace(" ")


def _plain(whitespace: cst.BaseParenthesizableWhitespace) -> Whitespace:
    if isinstance(whitespace, cst.ParenthesizedWhitespace):
        return whitespace.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])
    if isinstance(whitespace, cst.SimpleWhitespace):
        return whitespace
    return cst.SimpleWhitespace(" ")
