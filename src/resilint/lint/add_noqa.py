"""``--add-noqa``: a ``# noqa: CODE`` comment on each finding's line, merged with what is there.

The bytes are edited line by line in the file's own encoding, BOM and line endings; the result
must still parse and must not change any finding's line, or the file is left alone.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set

from resilint.lint.files import ChangedOnDisk, replace_file
from resilint.lint.finding import Finding
from resilint.lint.source import SourceError, decode, read_bytes

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:\s*[,\s]\s*[A-Z]+[0-9]+)*))?", re.IGNORECASE)
_UNSUPPRESSIBLE = {"RES000"}  # a file that does not parse cannot carry a working comment


@dataclass
class NoqaOutcome:
    added: int = 0
    files: int = 0
    skipped: List[str] = field(default_factory=list)  # "path: reason"


def _with_codes(line: str, codes: Set[str]) -> str:
    """``line`` (without its ending) with ``codes`` in its noqa comment."""
    match = _NOQA.search(line)
    if match is None:
        return f"{line.rstrip()}  # noqa: {', '.join(sorted(codes))}"
    if match.group("codes") is None:
        return line  # a bare noqa already covers every code
    present = [c.upper() for c in re.split(r"[,\s]+", match.group("codes").strip()) if c]
    missing = sorted(codes - set(present))
    if not missing:
        return line
    merged = ", ".join(present + missing)
    return f"{line[:match.start()]}# noqa: {merged}{line[match.end():]}"


def _landed(text: str) -> Optional[Set[int]]:
    """The lines that carry a real noqa comment, or None if the text no longer parses."""
    try:
        ast.parse(text)
        return {
            token.start[0]
            for token in tokenize.generate_tokens(io.StringIO(text).readline)
            if token.type == tokenize.COMMENT and _NOQA.search(token.string)
        }
    except (SyntaxError, tokenize.TokenError):
        return None


def add_noqa(findings: Sequence[Finding]) -> NoqaOutcome:
    outcome = NoqaOutcome()
    by_file: Dict[str, Dict[int, Set[str]]] = defaultdict(lambda: defaultdict(set))
    for finding in findings:
        if finding.code not in _UNSUPPRESSIBLE:
            by_file[finding.path][finding.line].add(finding.code)
    for path, lines in sorted(by_file.items()):
        try:
            original = read_bytes(path)
            source = decode(original)
        except SourceError as exc:
            outcome.skipped.append(f"{path}: {exc.reason}")
            continue
        had_bom = original.startswith(b"\xef\xbb\xbf")
        original_lines = source.text.splitlines(keepends=True)
        text_lines = list(original_lines)
        changed = 0
        edited: Set[int] = set()
        for number, codes in lines.items():
            if not 0 < number <= len(text_lines):
                continue
            raw = text_lines[number - 1]
            body = raw.rstrip("\r\n")
            updated = _with_codes(body, codes)
            if updated != body:
                text_lines[number - 1] = updated + raw[len(body):]
                changed += 1
                edited.add(number)
        if not changed:
            continue
        landed = _landed("".join(text_lines))
        stranded = sorted(edited - landed) if landed is not None else sorted(edited)
        for number in stranded:
            # The line ends inside a multi-line string (or a continuation): the comment would
            # become part of the string. Leave that line as it was, and say so.
            text_lines[number - 1] = original_lines[number - 1]
            outcome.skipped.append(f"{path}:{number}: the line ends inside a string; add the comment by hand")
            changed -= 1
        new_text = "".join(text_lines)
        if not changed or _landed(new_text) is None:
            continue
        data = new_text.encode(source.encoding)
        if had_bom and not data.startswith(b"\xef\xbb\xbf"):
            data = b"\xef\xbb\xbf" + data
        try:
            replace_file(path, original, data)
        except ChangedOnDisk:
            outcome.skipped.append(f"{path}: changed on disk while resilint ran; not modified")
            continue
        outcome.added += changed
        outcome.files += 1
    return outcome
