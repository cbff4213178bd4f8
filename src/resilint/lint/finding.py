"""The one Finding model that every reporter renders."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

if TYPE_CHECKING:  # pragma: no cover
    from resilint.lint.summary import ModuleSummary

ANALYSIS_ERROR = "RES000"  # a file that could not be analysed
UNUSED_SUPPRESSION = "RES001"


@dataclass(frozen=True)
class Edit:
    """Replace the text between two 1-based (line, column) positions with ``content``."""

    line: int
    column: int
    end_line: int
    end_column: int
    content: str


@dataclass(frozen=True)
class Fix:
    """What fixes a finding. ``edits`` None: not computed, only declared (the finding's rule has
    a codemod of this applicability, which may fix it): the text formats need no more, and the
    edits are computed only for what shows them (JSON, SARIF, ``fix``, ``--diff``)."""

    applicability: str  # "safe" or "unsafe"
    description: str
    edits: Optional[Tuple[Edit, ...]] = ()

    def __post_init__(self) -> None:
        if self.applicability not in ("safe", "unsafe"):
            raise ValueError(f"fix applicability must be 'safe' or 'unsafe', not {self.applicability!r}")


@dataclass(frozen=True)
class Related:
    path: str
    line: int
    column: int
    message: str


@dataclass(frozen=True)
class Finding:
    """One problem at one place. Lines and columns are 1-based; ``end_column`` is exclusive."""

    code: str
    name: str
    message: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str = "warning"  # "error" | "warning" | "note"
    fix: Optional[Fix] = None
    related: Tuple[Related, ...] = ()
    # The stripped source text of the first reported line: fingerprints use it so that a
    # finding keeps its identity when unrelated lines above it move.
    line_text: str = field(default="", compare=False)

    @property
    def sort_key(self) -> Tuple[str, int, int, str, str]:
        return (self.path, self.line, self.column, self.code, self.message)

    def fingerprint(self) -> str:
        """A location-independent identity: code, path and the text of the flagged line."""
        digest = hashlib.sha256()
        for part in (self.code, self.path.replace("\\", "/"), " ".join(self.line_text.split())):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\0")
        return digest.hexdigest()[:32]

    def to_json(self) -> Dict[str, Any]:
        data = {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "severity": self.severity,
            "fix": None,
            "related": [asdict(r) for r in self.related],
        }
        if self.fix is not None:
            data["fix"] = {
                "applicability": self.fix.applicability,
                "description": self.fix.description,
                "edits": None if self.fix.edits is None else [asdict(e) for e in self.fix.edits],
            }
        return data


@dataclass(frozen=True, order=True)
class Withdrawn:
    """A file finding of ``code`` within a span that the project pass takes back: what the
    file's own analysis could not see answers it (``ProjectContext.withdraw``)."""

    code: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    def covers(self, finding: Finding) -> bool:
        return (
            finding.code == self.code and finding.path == self.path
            and (self.line, self.column) <= (finding.line, finding.column) < (self.end_line, self.end_column)
        )

    def to_json(self) -> List[Any]:
        return [self.code, self.path, self.line, self.column, self.end_line, self.end_column]


def without_withdrawn(findings: List[Finding], withdrawn: List[Withdrawn]) -> List[Finding]:
    """``findings`` less those the project pass took back."""
    if not withdrawn:
        return findings
    by_path: Dict[str, List[Withdrawn]] = {}
    for taken in withdrawn:
        by_path.setdefault(taken.path, []).append(taken)
    return [f for f in findings if not any(taken.covers(f) for taken in by_path.get(f.path, ()))]


@dataclass(frozen=True)
class AnalysisError:
    """A problem that stopped a path from being checked at all (missing path, unreadable dir)."""

    path: str
    message: str

    def to_json(self) -> Dict[str, Any]:
        return {"path": self.path, "message": self.message}


@dataclass
class RunResult:
    findings: List[Finding] = field(default_factory=list)
    errors: List[AnalysisError] = field(default_factory=list)
    files_checked: int = 0
    # Per path, the digest of the bytes its findings were computed from (``source.content_digest``,
    # cached results included): what is edited later (``--add-noqa``) must still be those bytes.
    digests: Dict[str, str] = field(default_factory=dict)
    # Every module summary the project pass read, when asked for (``run(keep_summaries=True)``).
    summaries: List["ModuleSummary"] = field(default_factory=list)
    # The files whose findings came from the result cache (``--verbose``).
    from_cache: List[str] = field(default_factory=list)
