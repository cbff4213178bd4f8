"""The rule base class: one class per rule, its docstring is its documentation.

As in Fixit, ``VALID`` and ``INVALID`` examples live on the class and are collected as
tests automatically (tests/rules/test_rule_examples.py). As in ruff, every rule has a stable
code, a kebab-case name, documentation in fixed sections, and every fix an applicability.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    ClassVar,
    Dict,
    List,
    Optional,
    Sequence,
    Tuple,
    Union,
)

if TYPE_CHECKING:  # pragma: no cover
    import libcst as cst

    from resilint.lint.config import Settings
    from resilint.lint.finding import Fix, Related
    from resilint.lint.project import ProjectContext
    from resilint.lint.semantic import SemanticModel

REQUIRED_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead")
FIX_SECTION = "Fix safety"
OPTIONS_SECTION = "Options"
_SECTION_RE = re.compile(r"^## (.+?)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Valid:
    code: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", _clean(self.code))


@dataclass(frozen=True)
class Invalid:
    """Code that must produce this rule's finding.

    ``line`` (1-based, in the dedented code) pins where; ``message`` is a substring the message
    must contain; ``count`` is how many findings of this rule the code yields in total.
    """

    code: str
    line: Optional[int] = None
    message: Optional[str] = None
    count: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", _clean(self.code))


def _clean(code: str) -> str:
    return textwrap.dedent(code).lstrip("\n")


@dataclass
class Report:
    """A finding before positions are known: the node to locate, and what to say."""

    code: str
    node: "cst.CSTNode"
    message: str
    fix: Optional["Fix"] = None
    related: Tuple["Related", ...] = ()
    # The node whose lines a suppression comment may stand on (a whole multi-line call).
    anchor: Optional["cst.CSTNode"] = None
    # False: the rule knows that its codemods leave this finding alone, so it is not reported
    # as fixable (a rule's findings carry its declared fix otherwise, ``catalog.declared_fixes``).
    fixable: bool = True
    # The codemods that may fix this finding, when the rule knows it is not any of its own
    # (urllib3's jitter, not a loop's): its declared fix names those, with their applicability.
    fixed_by: Tuple[str, ...] = ()


class RuleContext:
    """What a rule sees of one file: the semantic model, the settings, and a way to report."""

    def __init__(self, model: "SemanticModel", settings: "Settings") -> None:
        self.model = model
        self.settings = settings
        self.reports: List[Report] = []
        self._rule: Optional[Rule] = None

    def report(
        self,
        node: "cst.CSTNode",
        message: Optional[str] = None,
        *,
        fix: Optional["Fix"] = None,
        related: Sequence["Related"] = (),
        anchor: Optional["cst.CSTNode"] = None,
        fixable: bool = True,
        fixed_by: Tuple[str, ...] = (),
    ) -> None:
        assert self._rule is not None, "report() is only valid while a rule runs"
        self.reports.append(
            Report(self._rule.code, node, message or self._rule.message, fix, tuple(related), anchor, fixable, fixed_by)
        )

    def run(self, rule: "Rule") -> None:
        self._rule = rule
        try:
            rule.check(self)
        finally:
            self._rule = None


class Rule:
    """Base class. Subclasses set the class attributes below and implement ``check``."""

    code: ClassVar[str]
    name: ClassVar[str]
    message: ClassVar[str]
    default: ClassVar[bool] = True
    severity: ClassVar[str] = "warning"
    # How often a finding is a true problem, in GitHub code scanning's terms ("very-high",
    # "high", "medium", "low"): code scanning shows the most precise rules' alerts first.
    precision: ClassVar[str] = "high"
    fixable: ClassVar[Optional[str]] = None  # None, "safe" or "unsafe"
    # Substrings of the file's bytes without which the rule cannot match: a file containing
    # none of the enabled rules' triggers is not parsed. Empty means "always run".
    triggers: ClassVar[Tuple[str, ...]] = ()
    # Reported by the engine itself (unreadable files, unused suppressions), not by ``check``.
    engine: ClassVar[bool] = False
    # A project rule reads the summaries of every file (lint/project.py) in ``check_project``,
    # after the per-file pass; ``summarise(model, locate)`` makes a file's summary.
    project: ClassVar[bool] = False
    summarise: ClassVar[Optional[Callable[..., Any]]] = None
    # Cannot be turned off (``ignore``, ``per-file-ignores``): naming it there is an error.
    always_reported: ClassVar[bool] = False
    VALID: ClassVar[List[Union[str, Valid]]] = []
    INVALID: ClassVar[List[Union[str, Invalid]]] = []

    def check(self, ctx: RuleContext) -> None:
        """Per-file findings. A project rule that has none does not override it, and is then
        not run file by file (nor does it disable the byte prefilter)."""
        if not self.project:  # pragma: no cover - abstract
            raise NotImplementedError

    def check_project(self, ctx: "ProjectContext") -> None:  # pragma: no cover - only project rules
        raise NotImplementedError

    # --- documentation -------------------------------------------------------------------

    @classmethod
    def documentation(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def summary(cls) -> str:
        return summary_of(cls.documentation())

    @classmethod
    def sections(cls) -> Dict[str, str]:
        return sections_of(cls.documentation())

    @classmethod
    def valid_examples(cls) -> List[Valid]:
        return [v if isinstance(v, Valid) else Valid(v) for v in cls.VALID]

    @classmethod
    def invalid_examples(cls) -> List[Invalid]:
        return [i if isinstance(i, Invalid) else Invalid(i) for i in cls.INVALID]

    @classmethod
    def metadata(cls) -> Dict[str, Any]:
        return rule_metadata(cls)


def family_of(rule: Any) -> Optional[str]:
    """The family of a rule class or of its ``RuleInfo``: its subpackage of ``resilint.rules``."""
    if hasattr(rule, "family"):
        return rule.family  # type: ignore[no-any-return]
    parts = getattr(rule, "__module__", "").split(".")
    if len(parts) >= 3 and parts[0] == "resilint" and parts[1] == "rules":
        return parts[2]
    return None


def sections_of(documentation: str) -> Dict[str, str]:
    """A rule's documentation by section (``What it does``, ``Example``...)."""
    parts = _SECTION_RE.split(documentation)
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def summary_of(documentation: str) -> str:
    """The first line of a rule's documentation."""
    return documentation.split("\n", 1)[0].strip()


def rule_metadata(rule: Any) -> Dict[str, Any]:
    """What ``resilint rules --format json`` lists of a rule class (or of its ``RuleInfo``)."""
    return {
        "code": rule.code,
        "name": rule.name,
        "summary": rule.summary(),
        "default": rule.default,
        "fixable": rule.fixable,
        "severity": rule.severity,
        "precision": rule.precision,
    }
