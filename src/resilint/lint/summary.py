"""What one file tells the project pass: plain data, with positions, and no syntax tree.

A :class:`ModuleSummary` is made per file by the library layer (``resilint.libraries.summaries``)
while the file's semantic model exists, cached with the file's findings, and read by the project
pass in the main process (``lint/project.py``) to follow calls across functions and modules.
Everything here round-trips through JSON (``to_json``/``from_json``) unchanged.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Tuple

SUMMARY_VERSION = 1


@dataclass(frozen=True)
class Place:
    """A span in a file: 1-based lines and columns, ``end_column`` exclusive, and the stripped
    text of the first line (for fingerprints of findings reported there)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    line_text: str = ""

    def short(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Layer:
    """A retry layer: code that runs an operation again when it fails.

    ``calls`` is the most calls it makes per operation (attempts, first one included), or None
    when the count is unknown; ``description`` names it for messages ("tenacity 3 attempts").
    ``whole_function``: it repeats the whole function (a decorator), so every caller of the
    function reaches it; otherwise it repeats part of the body (a loop) or a client's requests.
    """

    description: str
    calls: Optional[int]
    place: Place
    whole_function: bool = False
    client: bool = False  # a client that retries by itself (a mounted adapter, an SDK client)


@dataclass(frozen=True)
class Call:
    """A call made by a function: ``target`` is the callee's qualified name as far as the file
    can tell (a project function, a method ``pkg.mod.Class.method``, or a library object).
    ``layers`` are indexes into the function's loop layers that repeat this call, outermost
    first (a decorator repeats every call of its function and is not listed); ``retrying`` is the
    index of the layer that the call itself is (a request to a client that retries by itself)."""

    target: str
    place: Place
    layers: Tuple[int, ...] = ()
    retrying: Optional[int] = None


@dataclass
class FunctionSummary:
    name: str  # qualified: package.module.Class.method
    place: Place
    layers: List[Layer] = field(default_factory=list)
    calls: List[Call] = field(default_factory=list)


@dataclass
class ModuleSummary:
    module: str
    path: str
    functions: Dict[str, FunctionSummary] = field(default_factory=dict)
    # Names bound by imports at module level: local name → qualified name (re-exports).
    imports: Dict[str, str] = field(default_factory=dict)
    # Suppression comments: line → the codes they name (None: every code).
    suppressions: Dict[int, Optional[List[str]]] = field(default_factory=dict)

    def suppressed(self, code: str, place: Place) -> bool:
        for line in range(place.line, place.end_line + 1):
            if line in self.suppressions:
                codes = self.suppressions[line]
                if codes is None or code in codes:
                    return True
        return False

    def to_json(self) -> Dict[str, Any]:
        data = asdict(self)
        data["version"] = SUMMARY_VERSION
        return data

    @classmethod
    def from_json(cls, data: Any) -> Optional["ModuleSummary"]:
        """The summary stored in ``data``, or None when it is not one of this version."""
        try:
            if data.get("version") != SUMMARY_VERSION:
                return None
            functions = {
                name: FunctionSummary(
                    f["name"], Place(**f["place"]),
                    [Layer(l["description"], l["calls"], Place(**l["place"]), l["whole_function"], l["client"])
                     for l in f["layers"]],
                    [Call(c["target"], Place(**c["place"]), tuple(c["layers"]), c["retrying"]) for c in f["calls"]],
                )
                for name, f in data["functions"].items()
            }
            suppressions = {
                int(line): (None if codes is None else [str(c) for c in codes])
                for line, codes in data["suppressions"].items()
            }
            return cls(str(data["module"]), str(data["path"]), functions, dict(data["imports"]), suppressions)
        except (AttributeError, KeyError, TypeError, ValueError):
            return None
