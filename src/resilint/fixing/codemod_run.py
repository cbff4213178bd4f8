"""One codemod over one file's bytes, in memory, and the checks a result must pass before it is
reported or written: it parses (LibCST), and compiles where the original compiled."""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass, field
from typing import Collection, Dict, List, Optional, Tuple, Type

import libcst as cst
from libcst.codemod import CodemodContext, SkipFile

from resilint.codemods.base import MEMO, SETTINGS, ResilintCodemod, Span, matchers_gathered_once
from resilint.codemods.wrapping import SOURCE
from resilint.lint.checker import parse_module
from resilint.lint.config import Settings
from resilint.lint.finding import Finding


def span_of(finding: Finding) -> Span:
    return (finding.line, finding.column, finding.end_line, finding.end_column)


@dataclass
class CodemodRun:
    """What one run gave: the cases it left alone, or the error that cost its fix, and the tree
    it made (``result``) from ``original``, with the codemod that ran (``command``), which
    ``attribution`` reads to tell each target's edits apart."""

    data: bytes = b""
    left_alone: List[Tuple[int, str]] = field(default_factory=list)
    error: Optional[str] = None
    command: Optional[ResilintCodemod] = None
    original: Optional[cst.Module] = None
    result: Optional[cst.Module] = None
    _generated: Optional[bytes] = None

    @property
    def changed(self) -> bool:
        """Whether it rewrote something (its result is a new tree)."""
        return self.result is not None and self.result is not self.original

    @property
    def updated(self) -> Optional[bytes]:
        """The file's new bytes (LibCST's code generation of the whole result, once); None when
        the codemod changed nothing."""
        if not self.changed:
            return None
        if self._generated is None:
            assert self.result is not None
            self._generated = self.result.bytes
        return self._generated if self._generated != self.data else None

    def set_updated(self, data: bytes) -> None:
        """The file's new bytes are ``data``: the result's changes carried over onto the
        file's own lines (``fixer._faithful``)."""
        self._generated = data


def run_codemod(
    codemod: Type[ResilintCodemod], data: bytes, path: str, settings: Settings, targets: Optional[Collection[Span]],
    memo: Optional[Dict[str, object]] = None,
) -> CodemodRun:
    """One codemod over one file's bytes, in memory. A codemod that raises costs its fix, never
    the run: the exception is the reason the fix is dropped. ``memo``: one dict shared by every
    run over the same ``data``, so that they share one parse, one position table and one
    semantic model (the trees are immutable; each run still gets its own context); ``check``
    puts there the tree, positions and semantic model it built (``fix_edits``)."""
    module = memo.get("module") if memo is not None else None
    if not isinstance(module, cst.Module):
        try:
            module = parse_module(data)
        except Exception as exc:  # noqa: BLE001 - LibCST raises more than ParserSyntaxError
            return CodemodRun(data, error=f"cannot be parsed: {exc}")
        if memo is not None:
            memo["module"] = module
    scratch: Dict[str, object] = {SETTINGS: settings, SOURCE: data}
    if memo is not None:
        scratch[MEMO] = memo
    with matchers_gathered_once():
        command = codemod(CodemodContext(filename=path, scratch=scratch), targets)
    try:
        with warnings.catch_warnings(), matchers_gathered_once():
            warnings.simplefilter("ignore")
            result = command.transform_module(module)
    except SkipFile:
        return CodemodRun(data, command.left_alone)
    except Exception as exc:  # noqa: BLE001
        return CodemodRun(data, command.left_alone, f"the codemod failed: {type(exc).__name__}: {exc}")
    # Nothing planned: the module itself comes back, and generating its code again (a tenth
    # of a second on a large file) would only give back ``data``.
    return CodemodRun(data, command.left_alone, command=command, original=module, result=result)


def unparseable(data: bytes, path: str, original: Optional[bytes] = None) -> Optional[str]:
    """Why ``data``, a fix of ``original``, is not valid Python for the parsers that read the
    original, or None: LibCST's always; CPython's compiler when it compiles the original."""
    try:
        parse_module(data)
    except Exception as exc:  # noqa: BLE001
        return f"the result would not parse: {getattr(exc, 'message', exc)}"
    error = _compile_error(data, path)
    if error is None or (original is not None and _compile_error(original, path) is not None):
        return None
    return f"the result would not compile: {error}"


def uncompilable(data: bytes, path: str, original: Optional[bytes] = None) -> Optional[str]:
    """Why CPython does not compile ``data``, a fix of ``original``, or None. The edits ``check``
    reports are checked this way only: LibCST generated them from a tree it parsed, and ``fix``
    parses the result with LibCST as well before it writes anything (``unparseable``). When this
    interpreter cannot compile the original either (syntax newer than it), LibCST read the
    file, and LibCST's parse of the result is the check instead."""
    error = _compile_error(data, path)
    if error is None:
        return None
    if original is not None and _compile_error(original, path) is not None:
        return unparseable(data, path, original)
    return f"the result would not compile: {error}"


def interpreter_limit(data: bytes, path: str) -> Optional[str]:
    """What this Python says of ``data`` when it cannot compile what LibCST reads, with the
    syntax newer than it when known (``Python 3.11 cannot compile it (line 3: invalid syntax;
    type parameters are Python 3.12 syntax)``); else None."""
    error = _compile_error(data, path)
    if error is None:
        return None
    try:
        module = parse_module(data)
    except Exception:  # noqa: BLE001 - LibCST cannot read it either: not the interpreter's limit
        return None
    from resilint.lint.syntax_versions import describe, newer_syntax

    said = f"line {error.lineno}: {error.msg}" if isinstance(error, SyntaxError) else str(error)
    newer = newer_syntax(module)
    if newer is not None:
        said += f"; {describe(newer)}"
    return f"Python {sys.version_info[0]}.{sys.version_info[1]} cannot compile it ({said})"


def _compile_error(data: bytes, path: str) -> Optional[Exception]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the file's own SyntaxWarnings are not ours to print
            compile(data, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return exc
    return None
