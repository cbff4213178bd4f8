"""Human output (the default): findings with code frames, errors, and a summary.

::

    app/client.py:12:12: RES101 `requests.get` called without a timeout
       |
    10 | def fetch(url):
    11 |     # the upstream is usually fast
    12 |     return requests.get(url)
       |            ^^^^^^^^^^^^^^^^^ RES101
       |
       = help: Add `timeout=` (safe fix)

    Found 1 finding (1 fixable with `resilint fix`).

With ``--statistics`` the findings are replaced by one line per rule: count, code, a ``[*]``
marker when some of them have a safe fix, and the rule's name. Colour is used only when
``options.color`` is set (the CLI decides: a TTY and ``NO_COLOR`` unset); source text is always
printed literally, never interpreted as markup or terminal control sequences.

Lines are written as strings, with the terminal's colour codes where asked: a console library's
per-line layout cost about a millisecond per finding, more than checking the file.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from typing import Dict, List, Mapping, Optional, TextIO, Tuple, Type

from rich.cells import cell_len

from resilint.lint.finding import Finding, RunResult
from resilint.lint.report import ReportOptions, printable, read_source, replace_surrogates
from resilint.lint.rule import Rule

FORMAT = "text"

CONTEXT_BEFORE = 3  # lines of source shown above the flagged line
MAX_SPAN_LINES = 5  # lines of a multi-line span shown before eliding the rest
TAB_SIZE = 4

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # Python's own line breaks (not str.splitlines()'s)
# C0 controls except TAB, DEL and C1 controls: shown as U+FFFD so a source file can't emit
# terminal escape sequences. One character in, one out, so columns still line up.
_CONTROLS = {c: "\ufffd" for c in list(range(0x00, 0x09)) + list(range(0x0A, 0x20)) + list(range(0x7F, 0xA0))}

STYLE_PATH = "bold"
STYLE_PUNCT = "cyan"
STYLE_GUTTER = "bold blue"
STYLE_HELP = "bold cyan"
STYLE_ERROR = "bold red"
STYLE_CODE = {"error": "bold red", "warning": "bold red", "note": "bold cyan"}


def _clean(text: str) -> str:
    return replace_surrogates(text.translate(_CONTROLS))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# SGR codes of the styles used (bold first, then the colour, as terminals and rich write them).
_SGR = {"bold": "1", "cyan": "36", "bold blue": "1;34", "bold cyan": "1;36", "bold red": "1;31"}
TAB_STOPS = 8  # of a tab in a message or path, as a terminal shows it


class Text:
    """One output line: pieces of text, each with a style or none."""

    __slots__ = ("pieces",)

    def __init__(self, text: str = "") -> None:
        self.pieces: List[Tuple[str, str]] = [(text, "")] if text else []

    def append(self, text: str, style: str = "") -> None:
        self.pieces.append((text, style))

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.pieces)

    def render(self, color: bool) -> str:
        out = []
        column = 0
        for text, style in self.pieces:
            if "\t" in text:  # expanded from the line's own column, as the terminal would
                text = (" " * column + text).expandtabs(TAB_STOPS)[column:]
            column += len(text)
            out.append(f"\x1b[{_SGR[style]}m{text}\x1b[0m" if color and style and text else text)
        return "".join(out)


class _Output:
    """Lines written to ``out``, in colour when ``color``."""

    def __init__(self, out: TextIO, color: bool) -> None:
        self.out = out
        self.color = color

    def print(self, line: Optional[Text] = None) -> None:
        self.out.write((line.render(self.color) if line is not None else "") + "\n")


# --- source ----------------------------------------------------------------------------------


class _Sources:
    """Reads each file once (standard input's text from ``options.contents``); ``None`` when it
    can't be read (deleted, a directory, no access). Only regular files are opened
    (``read_source``): opening a FIFO named ``*.py`` would wait for a writer forever.
    """

    def __init__(self, options: ReportOptions) -> None:
        self.options = options
        self.cache: Dict[str, Optional[List[str]]] = {}

    def lines(self, path: str) -> Optional[List[str]]:
        if path not in self.cache:
            data = read_source(path, self.options)
            self.cache[path] = None if data is None else self._decode(data)
        return self.cache[path]

    @staticmethod
    def _decode(data: bytes) -> List[str]:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except (SyntaxError, LookupError):
            encoding = "utf-8"
        try:
            text = data.decode(encoding, errors="replace")
        except LookupError:
            text = data.decode("utf-8", errors="replace")
        return _LINE_BREAK.split(text)


def _caret_span(text: str, column: int, end_column: Optional[int]) -> Tuple[int, int]:
    """Display offset and width of the underline, for 1-based ``column``..``end_column``
    (exclusive; ``None`` means to the end of the line) on ``text`` before tab expansion."""
    start = min(max(column, 1) - 1, len(text))
    end = len(text) if end_column is None else min(max(end_column - 1, start), len(text))
    offset = cell_len(text[:start].expandtabs(TAB_SIZE))
    width = cell_len(text[:end].expandtabs(TAB_SIZE)) - offset
    return offset, max(width, 1)


def _frame(finding: Finding, lines: List[str]) -> List[Text]:
    if not 1 <= finding.line <= len(lines):
        return []  # the file changed since it was checked
    first = finding.line
    span_end = min(max(finding.end_line, first), len(lines))
    shown_end = min(span_end, first + MAX_SPAN_LINES - 1)
    start = max(1, first - CONTEXT_BEFORE)
    while start < first and not lines[start - 1].strip():
        start += 1  # no leading blank context
    width = len(str(shown_end))
    code_style = STYLE_CODE.get(finding.severity, "bold red")

    def gutter(number: str = "") -> Text:
        text = Text()
        text.append(f"{number:>{width}} |", style=STYLE_GUTTER)
        return text

    frame = [gutter()]
    for number in range(start, shown_end + 1):
        source = _clean(lines[number - 1])
        row = gutter(str(number))
        if source:
            row.append(" " + source.expandtabs(TAB_SIZE))
        frame.append(row)
        if number == first:
            end_column = finding.end_column if span_end == first else None
            offset, carets = _caret_span(source, finding.column, end_column)
            underline = gutter()
            underline.append(" " + " " * offset)
            underline.append("^" * carets + " " + finding.code, style=code_style)
            frame.append(underline)
    if span_end > shown_end:
        elided = Text()
        elided.append(f"{'':>{width}} :", style=STYLE_GUTTER)
        elided.append(" ...")
        frame.append(elided)
    frame.append(gutter())
    return frame


# --- pieces ----------------------------------------------------------------------------------


def _header(finding: Finding) -> Text:
    text = Text()
    text.append(printable(finding.path), style=STYLE_PATH)
    text.append(":", style=STYLE_PUNCT)
    text.append(str(finding.line))
    text.append(":", style=STYLE_PUNCT)
    text.append(str(finding.column))
    text.append(":", style=STYLE_PUNCT)
    text.append(" ")
    text.append(finding.code, style=STYLE_CODE.get(finding.severity, "bold red"))
    text.append(" " + _clean(finding.message))
    return text


def _help(finding: Finding, indent: str) -> Optional[Text]:
    if finding.fix is None:
        return None
    text = Text(indent)
    text.append("= help", style=STYLE_HELP)
    text.append(f": {_clean(finding.fix.description)} ({finding.fix.applicability} fix)")
    return text


def _not_fixed(finding: Finding, indent: str, options: ReportOptions) -> Optional[Text]:
    """In a run that fixed: why this finding was not."""
    why = options.unfixed.get(finding)
    if why is None:
        return None
    text = Text(indent)
    text.append("= note", style=STYLE_HELP)
    text.append(f": not fixed: {_clean(why)}")
    return text


def _fix_counts(findings: List[Finding]) -> Tuple[int, int]:
    safe = sum(1 for f in findings if f.fix is not None and f.fix.applicability == "safe")
    unsafe = sum(1 for f in findings if f.fix is not None and f.fix.applicability == "unsafe")
    return safe, unsafe


def _summary(result: RunResult, findings: List[Finding], fixed: Optional[int] = None) -> Text:
    if not findings and not result.errors and not fixed:
        return Text(f"All checks passed! ({_plural(result.files_checked, 'file')} checked)")
    details = []
    if fixed is not None:  # as ruff: everything found, then how much was fixed
        text = f"Found {_plural(len(findings) + fixed, 'finding')}"
        details.append(f"{fixed} fixed, {len(findings)} remaining")
    else:
        text = f"Found {_plural(len(findings), 'finding')}"
    if result.errors:
        text += f" and {_plural(len(result.errors), 'error')}"
    safe, unsafe = _fix_counts(findings)
    if safe:
        details.append(f"{safe} fixable with `resilint fix`")
    if unsafe:
        details.append(f"{unsafe} {'more ' if safe else ''}with `resilint fix --unsafe-fixes`")
    if details:
        text += " (" + "; ".join(details) + ")"
    return Text(text + ".")


def _statistics(findings: List[Finding], rules: Mapping[str, Type[Rule]]) -> List[Text]:
    counts = Counter(f.code for f in findings)
    fixable = Counter(
        f.code for f in findings if f.fix is not None and f.fix.applicability == "safe"
    )
    names = {f.code: f.name for f in findings}
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if not rows:
        return []
    count_width = max(len(str(n)) for _, n in rows)
    code_width = max(len(code) for code, _ in rows)
    severities = {f.code: f.severity for f in findings}
    lines = []
    for code, count in rows:
        name = rules[code].name if code in rules else names[code]
        line = Text(f"{count:>{count_width}}  ")
        line.append(f"{code:<{code_width}}", style=STYLE_CODE.get(severities[code], "bold red"))
        line.append("  ")
        line.append("[*]" if fixable[code] else "[ ]", style=STYLE_HELP if fixable[code] else "")
        line.append(" " + name)
        lines.append(line)
    return lines


def render(
    result: RunResult, rules: Mapping[str, Type[Rule]], out: TextIO, options: ReportOptions
) -> None:
    console = _Output(out, options.color)
    findings = sorted(result.findings, key=lambda f: f.sort_key)
    sources = _Sources(options)

    pending_blank = False  # a blank line separates the body from the summary
    if options.statistics:
        for line in _statistics(findings, rules):
            console.print(line)
            pending_blank = True
    else:
        for finding in findings:
            console.print(_header(finding))
            pending_blank = True
            indent = "  "
            if options.show_source:
                lines = sources.lines(finding.path)
                frame = _frame(finding, lines) if lines is not None else []
                for row in frame:
                    console.print(row)
                if frame:
                    indent = " " * (len(frame[0].plain) - 1)
            for note in (_help(finding, indent), _not_fixed(finding, indent, options)):
                if note is not None:
                    console.print(note)
            if options.show_source:
                console.print()
                pending_blank = False

    for error in result.errors:
        line = Text()
        line.append("error", style=STYLE_ERROR)
        line.append(f": {printable(error.path)}: {_clean(error.message)}")
        console.print(line)
        pending_blank = True

    if options.quiet:
        return
    if pending_blank:
        console.print()
    console.print(_summary(result, findings, options.fixed))
