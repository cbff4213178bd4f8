"""``primaryLocationLineHash`` exactly as GitHub's ``upload-sarif`` action computes it.

The action (github/codeql-action, ``src/fingerprints.ts``) fills in this fingerprint when a
result has none, and warns about every result whose value differs from its own; code scanning
uses it to recognise an alert across commits. Its algorithm, reproduced here:

- the file is read as UTF-8 (an invalid byte becomes U+FFFD) and taken one UTF-16 code unit
  at a time, as JavaScript's ``charCodeAt`` sees it;
- spaces and tabs are skipped; ``\\r\\n`` and a lone ``\\r`` count as ``\\n``; after the
  last character comes one end-of-file unit (0xFFFF), then zeros;
- each line's hash is a polynomial rolling hash, base 37 modulo 2^64, of the 100 units that
  begin with the line's first one (the ``\\n`` of following lines included), written in
  lower-case hexadecimal without leading zeros;
- ``:n`` numbers the lines with the same hash, in line order, from 1.

Lines are counted by ``\\n``, ``\\r\\n`` and ``\\r`` only, as Python counts them, so a
finding's line number is the line hashed here. tests/report/test_line_hash.py checks the
values the action's own tests expect.
"""

from __future__ import annotations

import re
import sys
from array import array
from itertools import accumulate, islice
from typing import Dict, List, Optional, Tuple

_BASE = 37
_WINDOW = 100
_MASK = (1 << 64) - 1
_FIRST = pow(_BASE, _WINDOW, 1 << 64)  # the weight a unit has once it leaves the window
_END_OF_FILE = 0xFFFF
_LINE_FEED = 0x0A
_NEWLINE = re.compile("\n")
_SKIPPED = {ord(" "): None, ord("\t"): None}


def _units(data: bytes) -> Tuple["array[int]", List[int]]:
    """The file's UTF-16 code units after the action's normalisation (line breaks to ``\\n``,
    no spaces or tabs), followed by the end-of-file unit; and where each line starts in them."""
    text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n").translate(_SKIPPED)
    units = array("H", text.encode("utf-16-le"))
    if sys.byteorder == "big":  # pragma: no cover - the machines we run on are little-endian
        units.byteswap()
    if len(units) == len(text):  # no character outside the BMP: one unit per character
        starts = [0, *(match.end() for match in _NEWLINE.finditer(text))]
    else:
        starts = [0, *(index + 1 for index, unit in enumerate(units) if unit == _LINE_FEED)]
    units.append(_END_OF_FILE)
    return units, starts


def _step(value: int, unit: int) -> int:
    return (value * _BASE + unit) & _MASK


def line_hashes(data: bytes, last_line: Optional[int] = None) -> List[str]:
    """The ``primaryLocationLineHash`` of each line of ``data`` (element 0 is line 1), up to
    ``last_line`` when given (the numbering of a line depends only on the lines above it)."""
    units, starts = _units(data)
    if last_line is not None:
        del starts[max(last_line, 0):]
    if not starts:
        return []
    # prefix[k] is the hash of units[:k] (the zeros after the end included); a window's hash
    # is the difference of two prefixes.
    units.extend([0] * _WINDOW)
    prefix = list(accumulate(islice(units, starts[-1] + _WINDOW), _step, initial=0))
    counts: Dict[str, int] = {}
    hashes = []
    for start in starts:
        hashed = format((prefix[start + _WINDOW] - prefix[start] * _FIRST) & _MASK, "x")
        counts[hashed] = counts.get(hashed, 0) + 1
        hashes.append(f"{hashed}:{counts[hashed]}")
    return hashes
