"""Reading a file's bytes and decoding them as Python source, with a reason when that fails."""

from __future__ import annotations

import codecs
import errno
import io
import os
import stat
import tokenize
from dataclasses import dataclass
from typing import Optional


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


def read_bytes(path: str) -> bytes:
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(mode):
            # Opening a FIFO or a device could block forever or never end.
            raise SourceError("not a regular file (a pipe, socket or device)")
        with open(path, "rb") as handle:
            return handle.read()
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


def decode(data: bytes) -> Source:
    """Decode per PEP 263 (BOM, coding cookie, else UTF-8); refuse NUL bytes as CPython does."""
    nul = data.find(b"\0")
    if nul != -1:
        line = data.count(b"\n", 0, nul) + 1
        raise SourceError("source contains a NUL byte", line=line)
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
        line = data.count(b"\n", 0, exc.start) + 1
        raise SourceError(
            f"cannot be decoded as {encoding}: invalid byte {data[exc.start:exc.start + 1]!r}",
            line=line,
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return Source(data, text, encoding)
