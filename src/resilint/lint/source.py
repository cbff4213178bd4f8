"""Reading a file's bytes and decoding them as Python source, with a reason when that fails."""

from __future__ import annotations

import codecs
import errno
import hashlib
import io
import os
import re
import stat
import tokenize
from dataclasses import dataclass
from typing import Iterator, List, Optional, Sequence

# A physical line as Python's tokenizer counts them: ended by \n, \r\n or \r, and nothing else.
# str.splitlines() also breaks at \f, \v, \x1c-\x1e, \x85 and U+2028/U+2029, which Python keeps
# inside a line (in comments and strings), so its line numbers drift from the parser's.
_PYTHON_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# Capturing: ``LINE_BREAK.split(text)`` alternates lines and the breaks that end them.
LINE_BREAK = re.compile(r"(\r\n|\r|\n)")


class SourceError(Exception):
    """A file that cannot be analysed; ``line`` when the problem has a place."""

    def __init__(self, reason: str, line: Optional[int] = None, column: Optional[int] = None):
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Source:
    data: bytes
    text: str
    encoding: str


def read_bytes(path: str, max_size: Optional[int] = None) -> bytes:
    """The file's bytes; beyond ``max_size`` bytes the file is refused without being read."""
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(info.st_mode):
            # Opening a FIFO or a device could block forever or never end.
            raise SourceError("not a regular file (a pipe, socket or device)")
        if max_size is not None and info.st_size > max_size:
            raise too_large(info.st_size, max_size)
        with open(path, "rb") as handle:
            # A file that grows after the stat is still bounded.
            data = handle.read() if max_size is None else handle.read(max_size + 1)
        if max_size is not None and len(data) > max_size:
            raise too_large(len(data), max_size)
        return data
    except IsADirectoryError:
        raise SourceError("is a directory, not a file") from None
    except PermissionError:
        raise SourceError("permission denied") from None
    except FileNotFoundError:
        raise SourceError("no such file (a broken symlink?)") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SourceError("symbolic link loop") from None
        raise SourceError(f"cannot be read: {exc.strerror or exc}") from None


def tool_text(path: str, max_size: Optional[int] = None) -> Optional[str]:
    """The text of a file another tool reads (a requirements list, a CI configuration), its
    undecodable bytes replaced; None when it is not there or cannot be read: such a file is no
    source of resilint's, and what it cannot tell is left out."""
    try:
        return read_bytes(path, max_size).decode("utf-8", errors="replace")
    except SourceError:
        return None


def too_large(size: int, max_size: int) -> SourceError:
    return SourceError(
        f"too large to analyse: {_megabytes(size)}, over max-file-size ({_megabytes(max_size)}); "
        "exclude it or raise max-file-size"
    )


def _megabytes(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB" if size >= 1 << 20 else f"{size:,} bytes"


def content_digest(data: bytes) -> str:
    """The identity of the bytes a file's findings were computed from."""
    return hashlib.sha256(data).hexdigest()


def python_lines(text: str, keepends: bool = False) -> List[str]:
    """``text`` split into Python's physical lines (see ``_PYTHON_LINE``), not ``str.splitlines()``'s."""
    if not keepends and "\r" not in text:  # only \n ends lines: str.split, four times faster
        lines = text.split("\n")
        if lines[-1] == "":  # after the last line break (or an empty text): no line
            lines.pop()
        return lines
    lines = _PYTHON_LINE.findall(text)
    return lines if keepends else [line.rstrip("\r\n") for line in lines]


def character_column(line: str, offset: int) -> int:
    """The character column of UTF-8 byte ``offset`` in ``line``: ``ast`` counts bytes, LibCST
    characters."""
    if line.isascii():
        return offset
    return len(line.encode("utf-8")[:offset].decode("utf-8", "ignore"))


def line_text(lines: Sequence[str], number: int) -> str:
    """The stripped text of 1-based line ``number`` of ``lines``; empty past either end."""
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def python_tokens(text: str) -> Iterator[tokenize.TokenInfo]:
    """Python's tokens of ``text``, with its line numbers for any line endings: CR-only files
    included, which ``io.StringIO(text)`` would hand to the tokenizer as one single line."""
    return tokenize.generate_tokens(io.StringIO(text, newline=None).readline)


def _line_at(data: bytes, offset: int) -> int:
    """The 1-based Python line of byte ``offset``."""
    before = data[:offset]
    return before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1


def encode_like(text: str, original: bytes) -> bytes:
    """``text`` encoded as ``original`` is (its encoding, its byte order mark)."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(original).readline)
    return text.encode(encoding, "surrogateescape" if encoding.startswith("utf") else "strict")


def decode(data: bytes) -> Source:
    """Decode per PEP 263 (BOM, coding cookie, else UTF-8); refuse NUL bytes as CPython does."""
    nul = data.find(b"\0")
    if nul != -1:
        raise SourceError("source contains a NUL byte", line=_line_at(data, nul))
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if "invalid or missing encoding declaration" in str(exc):
            encoding = "utf-8"  # no usable cookie: the first lines are not UTF-8; say where
        else:
            raise SourceError(f"bad encoding declaration: {exc}") from None
    try:
        codecs.lookup(encoding)
        text = data.decode(encoding)
    except LookupError:
        raise SourceError(f"unknown encoding {encoding!r}") from None
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"cannot be decoded as {encoding}: invalid byte {data[exc.start:exc.start + 1]!r}",
            line=_line_at(data, exc.start),
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return Source(data, text, encoding)
