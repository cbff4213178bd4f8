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

from collections import Counter
from typing import ClassVar, Collection, Dict, List, Optional, Set, Tuple

import libcst as cst
from libcst.codemod import CodemodContext, VisitorBasedCodemodCommand
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import PositionProvider

from resilint.lint.config import ConfigError, Settings, load_settings
from resilint.lint.nodes import dotted_name

Span = Tuple[int, int, int, int]
# ``context.scratch`` key under which ``resilint fix`` hands the run's settings to a codemod.
SETTINGS = "resilint.settings"


class ResilintCodemod(VisitorBasedCodemodCommand):
    DESCRIPTION: ClassVar[str] = ""
    CODES: ClassVar[Tuple[str, ...]] = ()  # the rule codes whose findings it fixes
    APPLICABILITY: ClassVar[str] = "safe"  # "safe" | "unsafe", as in the rule's "Fix safety"
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, context: CodemodContext, targets: Optional[Collection[Span]] = None) -> None:
        super().__init__(context)
        self.targets = None if targets is None else frozenset(targets)
        self.left_alone: List[Tuple[int, str]] = []
        # The span of each finding fixed → the span of the node replaced to fix it (``rewriting``).
        self.rewritten: Dict[Span, Span] = {}

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

    def rewriting(self, finding: cst.CSTNode, replaced: cst.CSTNode) -> None:
        """Record that the finding reported at ``finding`` is fixed by replacing ``replaced``
        (and by the imports). Optional: it lets ``resilint check`` split one run's edits
        between the findings instead of running the codemod once per finding."""
        line, column, end_line, end_column = self.span(replaced)
        # A node's position leaves out its parentheses, which a replacement replaces too.
        lpar, rpar = getattr(replaced, "lpar", ()), getattr(replaced, "rpar", ())
        if lpar and rpar:
            line, column = self.span(lpar[0])[:2]
            end_line, end_column = self.span(rpar[-1])[2:]
        self.rewritten[self.span(finding)] = (line, column, end_line, end_column)

    @property
    def settings(self) -> Settings:
        """The run's settings under ``resilint fix``; standalone (``libcst.tool``), those of the
        nearest ``pyproject.toml`` above the file, as ``resilint check`` would read them."""
        given = self.context.scratch.get(SETTINGS)
        if isinstance(given, Settings):
            return given
        try:
            found = load_settings([self.context.filename or "."])
        except ConfigError:
            found = Settings()
        self.context.scratch[SETTINGS] = found
        return found

    def import_unshadowed(self, tree: cst.Module, module: str, name: str) -> str:
        """Queue ``from module import name`` (once, ``AddImportsVisitor``) and return the name
        to call it by: ``name`` itself unless the module already uses that name for anything
        else (a parameter or a local called ``timeout`` is common), else ``runtime_<name>``,
        ``resilint_<name>``... imported under that alias. Conservative: a name used anywhere
        in the module, in any scope, is taken as bound."""
        names = _Names(module)
        tree.visit(names)
        existing = sorted(local for local in names.imported if names.reusable(local, name))
        for candidate in (*existing, name, f"runtime_{name}", f"resilint_{name}", *(f"resilint_{name}_{n}" for n in range(2, 100))):
            if candidate in names.seen and not names.reusable(candidate, name):
                continue
            AddImportsVisitor.add_needed_import(
                self.context, module, name, asname=None if candidate == name else candidate
            )
            return candidate
        raise RuntimeError(f"no free name to import {module}.{name} under")  # pragma: no cover


class _Names(cst.CSTVisitor):
    """Every identifier of a module that may name a variable (not keyword argument names nor
    attributes), how often each is only called, and what top-level imports bind from ``module``."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.seen: Set[str] = set()
        self.other_uses: Counter = Counter()  # uses that are not a plain call ``name(...)``
        self.imported: Dict[str, List[str]] = {}  # local name -> what it imports from ``module``
        self._depth = 0

    def _bind(self, local: str, what: Optional[str] = None) -> None:
        self.seen.add(local)
        if what is not None and self._depth == 0:
            self.imported.setdefault(local, []).append(what)
        else:
            self.other_uses[local] += 1

    def reusable(self, local: str, name: str) -> bool:
        """``local`` is bound only by one top-level ``from module import name [as local]`` and
        only called elsewhere: calling it is calling ``module.name``."""
        return self.imported.get(local) == [name] and self.other_uses[local] == 0

    def visit_Name(self, node: cst.Name) -> None:
        self._bind(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        if isinstance(node.func, cst.Name):
            self.seen.add(node.func.value)
        else:
            node.func.visit(self)
        for arg in node.args:
            arg.visit(self)
        return False

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            local = alias.evaluated_alias or alias.evaluated_name.split(".", 1)[0]
            self._bind(local)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        source = None if node.relative else dotted_name(node.module)
        if isinstance(node.names, cst.ImportStar):
            return False
        for alias in node.names:
            local = alias.evaluated_alias or alias.evaluated_name
            self._bind(local, alias.evaluated_name if source == self.module else None)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._depth += 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._depth -= 1

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._depth += 1

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._depth -= 1
