"""What every resilint codemod is: a LibCST ``VisitorBasedCodemodCommand`` that fixes the
findings of one or more rules, usable by ``resilint fix``, by ``resilint codemod NAME`` and by
``python -m libcst.tool codemod resilint.codemods.<module>.<Class>``.

``targets``: the spans of the findings to fix, as 1-based ``(line, column, end_line,
end_column)`` like ``Finding``; ``None`` (standalone use) fixes every case the codemod
recognises. Cases it recognises but will not rewrite (an option that does not translate
exactly, a ``**kwargs`` that may already hold the keyword) go to ``left_alone`` with the
reason, so that ``fix`` can list them.
"""

from __future__ import annotations

from typing import Callable, ClassVar, Collection, Dict, List, Optional, Tuple

import libcst as cst
from libcst.codemod import CodemodContext, VisitorBasedCodemodCommand
from libcst.metadata import PositionProvider

Span = Tuple[int, int, int, int]
Edit = Callable[[cst.CSTNode], cst.CSTNode]


class ResilintCodemod(VisitorBasedCodemodCommand):
    DESCRIPTION: ClassVar[str] = ""
    CODES: ClassVar[Tuple[str, ...]] = ()  # the rule codes whose findings it fixes
    APPLICABILITY: ClassVar[str] = "safe"  # "safe" | "unsafe", as in the rule's "Fix safety"
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, context: CodemodContext, targets: Optional[Collection[Span]] = None) -> None:
        super().__init__(context)
        self.targets = None if targets is None else frozenset(targets)
        self.left_alone: List[Tuple[int, str]] = []
        self._edits: Dict[int, List[Edit]] = {}

    def span(self, node: cst.CSTNode) -> Span:
        """The node's 1-based span, end column exclusive, as findings are reported."""
        where = self.get_metadata(PositionProvider, node)
        return (where.start.line, where.start.column + 1, where.end.line, where.end.column + 1)

    def is_target(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` is what one of the findings to fix was reported at (it starts where
        the finding starts), or any node when no targets were given."""
        if self.targets is None:
            return True
        line, column, _, _ = self.span(node)
        return any((t[0], t[1]) == (line, column) for t in self.targets)

    def leave_alone(self, node: cst.CSTNode, reason: str) -> None:
        self.left_alone.append((self.span(node)[0], reason))

    def plan(self, node: cst.CSTNode, edit: Edit) -> None:
        """Rewrite ``node`` (of the tree being visited) with ``edit(updated_node)`` when the
        transformer leaves it: a codemod can decide everything up front, from the semantic model
        of the whole module, and edit nested nodes without tracking them itself."""
        self._edits.setdefault(id(node), []).append(edit)

    def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def]
        updated = super().on_leave(original_node, updated_node)
        for edit in self._edits.get(id(original_node), ()):
            updated = edit(updated)
        return updated
