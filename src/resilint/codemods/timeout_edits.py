"""What the timeout codemods share: which client calls to rewrite (the RES1xx verdicts
themselves, so a codemod never has a second opinion), and how to write
``resilint.runtime.timeout(read=..., connect=...)`` into a call without disturbing its layout.

Only clients whose timeout parameter takes what the runtime returns are rewritten: requests
(a ``(connect, read)`` tuple, which ``SplitTimeout`` is) and httpx (``.as_httpx()``). Any
other client recognised by a verdict is left alone with the reason.
"""

from __future__ import annotations

from typing import Dict, Iterator, Optional, Union

import libcst as cst

from resilint.codemods.base import ResilintCodemod
from resilint.lint.nodes import number_of
from resilint.lint.semantic import SemanticModel
from resilint.libraries.clients import SOCKET_CONNECT
from resilint.libraries.timeout_verdicts import RUNTIME_TIMEOUT_LIBRARIES, Verdict, model_verdicts, takes_runtime_timeout

# The suffix that converts the runtime's split timeout for each library whose timeout= takes it.
CONVERSIONS: Dict[str, str] = {"requests": "", "httpx": ".as_httpx()"}
assert set(CONVERSIONS) == set(RUNTIME_TIMEOUT_LIBRARIES)
_OTHER_LIBRARIES = {
    "aiohttp": "aiohttp takes an `aiohttp.ClientTimeout`: build it from configuration by hand",
    "redis": "a Redis connection setting belongs in configuration, not a per-call deadline",
    "psycopg2": "a database connect timeout belongs in the DSN or configuration",
    "psycopg": "a database connect timeout belongs in the DSN or configuration",
    "botocore": "botocore takes a `Config(connect_timeout=..., read_timeout=...)`",
    "mysql.connector": "a database connect timeout belongs in configuration",
    "pymysql": "a database connect timeout belongs in configuration",
    "httplib2": "an httplib2.Http lives longer than a call: its timeout belongs in configuration",
    "googleapiclient": "pass `http=` an httplib2.Http whose timeout comes from configuration",
    "zeep": "a zeep Transport lives longer than a call: its operation_timeout belongs in configuration",
    "slumber": "slumber takes no timeout per request: pass `session=` a session that sets one",
    "hvac": "an hvac Client lives longer than a call: its timeout belongs in configuration",
    "requests_hardened": "a requests-hardened Config lives longer than a call: its default_timeout belongs in configuration",
    "pycurl": "pycurl takes whole seconds (or milliseconds) through setopt: set them from configuration",
    "treq": "treq cancels a request after `timeout=` seconds: give it from configuration by hand",
    "xmlrpc": "xmlrpc takes no timeout: pass `transport=` a Transport whose `make_connection` sets one",
    # Generic waits: how long to wait for your own work is the caller's choice, not a client's.
    "asyncio": "a wait for your own work: choose its bound (or a deadline) by hand",
    "anyio": "a wait for your own work: choose its bound (or a deadline) by hand",
    "async_timeout": "a wait for your own work: choose its bound (or a deadline) by hand",
}
_SOCKET_CONNECT = "a socket's timeout is its own: call `settimeout(...)` with a configured value before `connect`"
_UNKNOWN_CLIENT = "`{client}` comes from `extend-clients`: resilint does not know what its timeout takes"
_APPLIED = "`{client}` is called by the function it is handed to: give the timeout among that call's arguments by hand"
_SCALAR_CLIENT = "`{client}` takes one number of seconds, not a split timeout: pass a configured value by hand"
# What the runtime target adds to a reason (a project that uses resilint.runtime).
_RUNTIME_WAYS = {
    "aiohttp": " (from `resilint.runtime.timeout(...)`, which the caller's deadline caps)",
    "": " (or `resilint.runtime.timeout(...).read`, which the caller's deadline caps)",
}


def verdicts_to_fix(codemod: ResilintCodemod, model: SemanticModel) -> Iterator[Verdict]:
    """The timeout verdicts of this module that ``codemod`` is asked to fix (its codes, its
    targets) and that are of a client it can rewrite; the others it recognises are left alone."""
    settings = codemod.settings
    for verdict in model_verdicts(model, settings):
        if verdict.code not in codemod.CODES or not codemod.is_target(verdict.node):
            continue
        library = verdict.spec.library if verdict.spec is not None else ""
        if verdict.applied:
            codemod.leave_alone(verdict.node, _APPLIED.format(client=verdict.client))
        elif takes_runtime_timeout(verdict):
            yield verdict
        elif verdict.client in settings.extend_clients:
            codemod.leave_alone(verdict.node, _UNKNOWN_CLIENT.format(client=verdict.client))
        elif verdict.spec is SOCKET_CONNECT:
            codemod.leave_alone(verdict.node, _SOCKET_CONNECT)
        else:
            reason = _OTHER_LIBRARIES.get(library)
            if reason is None:
                reason, library = _SCALAR_CLIENT.format(client=verdict.client), ""
            if codemod.fix_target == "runtime":
                reason += _RUNTIME_WAYS.get(library, "")
            codemod.leave_alone(verdict.node, reason)


def runtime_timeout(
    function: str, library: str, read: cst.BaseExpression, connect: cst.BaseExpression
) -> cst.BaseExpression:
    """``timeout(read=..., connect=...)``, converted for ``library``."""
    call: cst.BaseExpression = cst.Call(
        func=cst.Name(function),
        args=[_keyword("read", read, last=False), _keyword("connect", connect, last=True)],
    )
    if CONVERSIONS[library]:
        call = cst.Call(func=cst.Attribute(value=call, attr=cst.Name("as_httpx")))
    return call


def seconds(value: float) -> cst.BaseExpression:
    """A number of seconds as a literal: ``10`` rather than ``10.0``."""
    if float(value).is_integer():
        return cst.Integer(str(int(value)))
    return cst.Float(repr(float(value)))


def positive_number(node: cst.BaseExpression) -> Optional[Union[int, float]]:
    """The value of a numeric literal above zero (the runtime refuses anything else)."""
    value = number_of(node)
    if value is None or isinstance(value, bool) or not value > 0:
        return None
    return value


def bare(node: cst.BaseExpression) -> cst.BaseExpression:
    """``node`` without parentheses around it, to sit as a keyword argument's value."""
    return node.with_changes(lpar=(), rpar=()) if getattr(node, "lpar", ()) else node


def add_keyword(call: cst.Call, keyword: str, value: cst.BaseExpression) -> cst.Call:
    """``call`` with ``keyword=value`` appended as its last argument, laid out like the others:
    on a line of its own in a call with one argument per line (its trailing comma kept), else
    after ``, ``; comments stay on the lines they were on."""
    new = cst.Arg(
        keyword=cst.Name(keyword), value=value,
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )
    args = list(call.args)
    if not args:
        return call.with_changes(args=[new])
    last = args[-1]
    comma = last.comma
    if isinstance(comma, cst.Comma) and isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace):
        # One argument per line with a trailing comma: the new argument takes its own line,
        # indented like the last one, and the closing parenthesis stays where it was.
        indent = _argument_indent(call, len(args) - 1)
        after = comma.whitespace_after
        moved = after.with_changes(empty_lines=(), last_line=cst.SimpleWhitespace(indent))
        closing = cst.ParenthesizedWhitespace(
            first_line=cst.TrailingWhitespace(), empty_lines=after.empty_lines, indent=after.indent,
            last_line=after.last_line,
        )
        args[-1] = last.with_changes(comma=comma.with_changes(whitespace_after=moved))
        args.append(new.with_changes(comma=cst.Comma(whitespace_after=closing)))
    elif isinstance(comma, cst.Comma):
        # A trailing comma on one line (``f(a, )``): the new argument goes after it.
        args[-1] = last.with_changes(comma=comma.with_changes(whitespace_after=cst.SimpleWhitespace(" ")))
        args.append(new.with_changes(comma=comma.with_changes(whitespace_after=comma.whitespace_after)))
    else:
        # What followed the last argument (spaces, a line break) now follows the new one; in a
        # call with one argument per line the new one takes a line of its own, and a comment
        # stays on the line of the argument it annotates.
        closing = last.whitespace_after_arg
        separator = _line_break_between(call)
        if separator is not None and isinstance(closing, cst.ParenthesizedWhitespace):
            separator = separator.with_changes(first_line=closing.first_line)
            closing = closing.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])
        args[-1] = last.with_changes(
            comma=cst.Comma(whitespace_after=separator or cst.SimpleWhitespace(" ")),
            whitespace_after_arg=cst.SimpleWhitespace(""),
        )
        args.append(new.with_changes(whitespace_after_arg=closing))
    return call.with_changes(args=args)


def _line_break_between(call: cst.Call) -> Optional[cst.ParenthesizedWhitespace]:
    """The line break (and indentation) that separates the call's arguments when it has one
    argument per line and no trailing comma; None when they share a line, and for a lone
    argument on a line of its own (black's right-hand split: a new argument joins its line,
    and the call is laid out again if that line grows too long, ``wrapping``)."""
    args = call.args
    if len(args) < 2:
        return None
    comma = args[-2].comma
    before = comma.whitespace_after if isinstance(comma, cst.Comma) else None
    if isinstance(before, cst.ParenthesizedWhitespace):
        return before.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=())
    return None


def _argument_indent(call: cst.Call, index: int) -> str:
    """The extra indentation of argument ``index``'s line: what follows the line break before it."""
    before = call.whitespace_before_args if index == 0 else call.args[index - 1].comma
    if isinstance(before, cst.Comma):
        before = before.whitespace_after
    if isinstance(before, cst.ParenthesizedWhitespace):
        return before.last_line.value
    return "    "


def _keyword(name: str, value: cst.BaseExpression, last: bool) -> cst.Arg:
    return cst.Arg(
        keyword=cst.Name(name), value=bare(value),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
        comma=cst.MaybeSentinel.DEFAULT if last else cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")),
    )
