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

from bisect import bisect_left
from contextlib import contextmanager, nullcontext
from itertools import zip_longest
from dataclasses import replace
from types import MethodType
from typing import Callable, ClassVar, Collection, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Type, Union

import libcst as cst
import libcst.helpers
from libcst.codemod import Codemod, CodemodContext, VisitorBasedCodemodCommand
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_absolute_module_from_package_for_import
from libcst.matchers import MatcherDecoratableTransformer
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from resilint.codemods.import_order import import_sort_key, place, with_name
from resilint.codemods.style import ProjectStyle, style_of
from resilint.lint.checker import module_name, project_roots
from resilint.lint.modules import shadowing_modules
from resilint.lint.config import ConfigError, Settings, load_settings
from resilint.lint.positions import ConvertedPositions, Unplaced
from resilint.lint.semantic import SemanticModel
from resilint.lint.traversal import iter_nodes

Span = Tuple[int, int, int, int]
_UNDEFINED = object()
Edit = Callable[[cst.CSTNode], cst.CSTNode]
# ``context.scratch`` key under which ``resilint fix`` hands the run's settings to a codemod.
SETTINGS = "resilint.settings"
# ``context.scratch`` key of the fix target ("native" | "runtime") a codemod writes for, when
# given (tests, LibCST's tool); otherwise the run's settings say it (``fix_target``).
FIX_TARGET = "resilint.fix_target"
# ``context.scratch`` key of a dict shared by several runs over one parsed module (the fixer's
# ``run_codemod(memo=...)``): its position table and semantic model are computed once.
MEMO = "resilint.memo"


class ResilintCodemod(VisitorBasedCodemodCommand):
    DESCRIPTION: ClassVar[str] = ""
    CODES: ClassVar[Tuple[str, ...]] = ()  # the rule codes whose findings it fixes
    APPLICABILITY: ClassVar[str] = "safe"  # "safe" | "unsafe", as in the rule's "Fix safety"
    # The fix targets it writes for: "native" (only what the file or the standard library
    # already offers) and/or "runtime" (it imports ``resilint.runtime``, a dependency that only
    # the runtime target may use: ``resilint.lint.dependencies``).
    TARGETS: ClassVar[Tuple[str, ...]] = ("native", "runtime")
    # False: only ``resilint codemod NAME`` runs it, never ``resilint fix`` (a deliberate change
    # of behaviour that a user asks for by name, where ``fix`` has a safe fix of its own).
    RUN_BY_FIX: ClassVar[bool] = True
    # Names of which a file must hold one for ``resilint codemod NAME`` to look at it; None:
    # the trigger names of the rules it fixes (``Rule.triggers``).
    TRIGGERS: ClassVar[Optional[Tuple[str, ...]]] = None
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, context: CodemodContext, targets: Optional[Collection[Span]] = None) -> None:
        # ``ContextAwareTransformer.__init__``, with the matcher decorators gathered once per class.
        Codemod.__init__(self, context)
        _start_matchers(self)
        # No matcher decorators: every node is visited as a plain ``CSTTransformer`` visits it,
        # without the matchers' checks on each node and each of its attributes (a third of a
        # codemod's run over a module it rewrites throughout).
        self._undecorated = not (self._matchers or self._extra_visit_funcs or self._extra_leave_funcs)
        self.targets = None if targets is None else frozenset(targets)
        self._targets_by_start: Dict[Tuple[int, int], Tuple[Span, ...]] = {}
        for target in sorted(self.targets or ()):
            self._targets_by_start[target[:2]] = self._targets_by_start.get(target[:2], ()) + (target,)
        self.left_alone: List[Tuple[int, str]] = []
        self._edits: Dict[int, List[Edit]] = {}
        self._planned: List[Optional[Span]] = []
        self._planned_sorted: Optional[Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]] = None
        self._unplaced_plan = False
        self._applied: Set[int] = set()
        # What the run rewrote, for ``resilint.fixing`` to tell each finding's edits apart from
        # one run over all of them: each planned node (by id), what it became, and the targets
        # (finding spans) it was planned for.
        self.planned_nodes: Dict[int, cst.CSTNode] = {}
        # The span of each planned node, None: unplaced. A node's position leaves out its own
        # parentheses, which a replacement of it replaces too (``resilint.fixing`` finds them).
        self.planned_spans: Dict[int, Optional[Span]] = {}
        self.replaced: Dict[int, Union[cst.CSTNode, cst.FlattenSentinel, cst.RemovalSentinel]] = {}
        self.served: Dict[int, Set[Span]] = {}
        # Planned top-level statements whose edit only puts new statements above them (module
        # constants above the first statement after the imports), by id: for each statement
        # put above, the targets (finding spans) that use it.
        self.inserted_above: Dict[int, List[Set[Span]]] = {}
        # Planned nodes that start their statement's first line outside brackets, by id: lines
        # their rewrite adds are indented as that line is (``codemods.wrapping``).
        self.at_statement_start: Set[int] = set()
        # The one-line code of replacements, by id (with the node, kept alive so that its id is
        # not another's), where a plan already wrote it to measure it against the line length:
        # the same text is not generated again to tell the edit.
        self.spelled: Dict[int, Tuple[cst.CSTNode, str]] = {}
        self._serving: Tuple[Span, ...] = ()
        # A planned node the pruned visit missed was applied by a visit of the whole module.
        self.visited_everything = False
        self._positions: Optional[_PairedPositions] = None

    @contextmanager
    def _handle_metadata_reference(self, module: cst.Module) -> Iterator[cst.Module]:
        """LibCST's, without the deep copy of the module its ``MetadataWrapper`` makes by
        default: every caller (``resilint fix``, ``check``'s fix edits, ``libcst.tool``) hands
        a freshly parsed module that nothing else holds, and the copy cost more than the
        codemod itself."""
        previous = self.context.wrapper
        memo = self.context.scratch.get(MEMO)
        wrapper = memo.get("wrapper") if isinstance(memo, dict) else None
        if not isinstance(wrapper, MetadataWrapper) or wrapper.module is not module:
            wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
            if isinstance(memo, dict):
                memo["wrapper"] = wrapper  # it keeps what it resolved: positions are computed once
        self._positions = _known_positions(memo, wrapper) if self.get_inherited_dependencies() == {PositionProvider} else None
        with self.resolve(wrapper) if self._positions is None else nullcontext():
            self.context = replace(self.context, wrapper=wrapper)
            try:
                yield wrapper.module
            finally:
                self.context = replace(self.context, wrapper=previous)

    def get_metadata(self, key, node, default=_UNDEFINED):  # type: ignore[no-untyped-def, override]
        if key is PositionProvider and self._positions is not None:
            return self._positions.get(node, default)
        return super().get_metadata(key, node) if default is _UNDEFINED else super().get_metadata(key, node, default)

    def on_visit(self, node: cst.CSTNode) -> bool:
        proceed = cst.CSTTransformer.on_visit(self, node) if self._undecorated else super().on_visit(node)
        if isinstance(node, cst.Module):
            # It decided everything up front (``plan``) and found nothing to rewrite: visiting
            # the rest of the tree would only rebuild the same tree.
            return proceed and bool(self._edits or "visit_Module" not in type(self).__dict__)
        # Every rewrite is planned before the children of the module are visited, so only the
        # nodes around a planned one need visiting: a subtree left out comes back unchanged,
        # and LibCST's visit of a whole large module costs a second or more.
        return proceed and (not self._edits or self._may_hold_plan(node))

    def _may_hold_plan(self, node: cst.CSTNode) -> bool:
        where = self.get_metadata(PositionProvider, node, None)
        if where is None:
            return True
        line, column, end_line, end_column = _span(where)
        decorators = getattr(node, "decorators", ())
        if decorators:  # a definition's position leaves out its decorators
            first = self.get_metadata(PositionProvider, decorators[0], None)
            if first is None:
                return True
            line, column = _span(first)[:2]
        if self._unplaced_plan:
            return True  # a plan without a position may be anywhere
        starts, ends = self._planned_by_start()
        # Node spans nest or are disjoint: the first plan that starts inside the node ends there.
        index = bisect_left(starts, (line, column))
        while index < len(starts) and starts[index] <= (end_line, end_column):
            if ends[index] <= (end_line, end_column):
                return True
            index += 1
        return False

    def _planned_by_start(self) -> Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]:
        """The planned spans' starts, sorted, and their ends."""
        if self._planned_sorted is None:
            spans = sorted((s for s in self._planned if s is not None), key=lambda s: (s[0], s[1], -s[2], -s[3]))
            self._planned_sorted = ([(s[0], s[1]) for s in spans], [(s[2], s[3]) for s in spans])
        return self._planned_sorted

    def span(self, node: cst.CSTNode) -> Span:
        """The node's 1-based span, end column exclusive, as findings are reported."""
        return _span(self.get_metadata(PositionProvider, node))

    def is_target(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` is what one of the findings to fix was reported at (it starts where
        the finding starts), or any node when no targets were given."""
        if self.targets is None:
            return True
        found = self._targets_at(node)
        if found:
            self._serving = found  # what is planned next is for them
        return bool(found)

    def _targets_at(self, node: cst.CSTNode) -> Tuple[Span, ...]:
        line, column, _, _ = self.span(node)
        return self._targets_by_start.get((line, column), ())

    @contextmanager
    def serving(self, *findings: cst.CSTNode) -> Iterator[None]:
        """Plans made inside fix the findings reported at these nodes. Without it, a plan is for
        the targets of the latest ``is_target`` that said yes: enough for a codemod that plans
        each finding's fix right after recognising it; one that decides first and plans later
        (several findings served by one edit) says whom each plan is for."""
        previous = self._serving
        self._serving = tuple(t for node in findings for t in self._targets_at(node))
        try:
            yield
        finally:
            self._serving = previous

    def leave_alone(self, node: cst.CSTNode, reason: str) -> None:
        self.left_alone.append((self.span(node)[0], reason))

    def plan(self, node: cst.CSTNode, edit: Edit) -> None:
        """Rewrite ``node`` (of the tree being visited) with ``edit(updated_node)`` when the
        transformer leaves it: a codemod can decide everything up front, from the semantic model
        of the whole module, and edit nested nodes without tracking them itself."""
        if id(node) not in self._edits:
            where = self.get_metadata(PositionProvider, node, None)
            self._planned.append(None if where is None else _span(where))
            self._unplaced_plan = self._unplaced_plan or where is None
            self._planned_sorted = None
            self.planned_nodes[id(node)] = node
            self.planned_spans[id(node)] = None if where is None else _span(where)
        self._edits.setdefault(id(node), []).append(edit)
        if self.targets is not None:
            self.served.setdefault(id(node), set()).update(self._serving)

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if self._undecorated:
            cst.CSTTransformer.on_visit_attribute(self, node, attribute)
        else:
            super().on_visit_attribute(node, attribute)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        if self._undecorated:
            cst.CSTTransformer.on_leave_attribute(self, original_node, attribute)
        else:
            super().on_leave_attribute(original_node, attribute)

    def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def]
        if self._undecorated:
            updated = cst.CSTTransformer.on_leave(self, original_node, updated_node)
        else:
            updated = super().on_leave(original_node, updated_node)
        edits = self._edits.get(id(original_node), ())
        for edit in edits:
            updated = edit(updated)
        if edits:
            self._applied.add(id(original_node))
            self.replaced[id(original_node)] = updated
        if isinstance(original_node, cst.Module) and len(self._applied) < len(self._edits):
            # A position that does not contain its node's children left a planned node out:
            # the subtrees passed over are the original nodes, so a full visit still finds it.
            self.visited_everything = True
            updated = updated.visit(_Missed(self._edits, self._applied, self.replaced))
        return updated

    def _instantiate_and_run(self, transform: Type[Codemod], tree: cst.Module) -> cst.Module:
        if transform is AddImportsVisitor:
            transform = _ModuleLevelImports
        return super()._instantiate_and_run(transform, tree)

    def targets_at(self, finding: cst.CSTNode) -> Tuple[Span, ...]:
        """The targets (finding spans) reported at ``finding``; none when fixing everything."""
        return self._targets_at(finding) if self.targets is not None else ()

    def rewriting(self, finding: cst.CSTNode, replaced: cst.CSTNode) -> None:
        """Record that the finding reported at ``finding`` is fixed by replacing ``replaced``
        (planned), when the plan was not made right after ``is_target`` said yes for it."""
        if self.targets is not None and id(replaced) in self.planned_nodes:
            self.served.setdefault(id(replaced), set()).update(self._targets_at(finding))

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

    @classmethod
    def applicability_for(cls, settings: Settings) -> Tuple[str, str]:
        """(applicability, why) of its fixes in the project ``settings`` describe: a codemod
        whose safety depends on what the project declares (a library version) says so here;
        ``APPLICABILITY`` is what ``resilint codemods`` and the rule docs list."""
        return cls.APPLICABILITY, ""

    @property
    def fix_target(self) -> str:
        """"native" or "runtime": given in the context, else the run's resolved setting, else
        (a codemod run on its own) what the project around the file declares."""
        given = self.context.scratch.get(FIX_TARGET)
        if given in ("native", "runtime"):
            return given  # type: ignore[return-value]
        from resilint.lint.dependencies import fix_target_of

        wrapper = self.context.wrapper
        if self.settings.fix_target == "auto" and wrapper is not None and _imports_runtime(wrapper.module):
            found = "runtime"
        else:
            found = fix_target_of(self.settings, self.context.filename or "")
        self.context.scratch[FIX_TARGET] = found
        return found

    def semantic_model(self, tree: cst.Module) -> SemanticModel:
        """The file's semantic model, as the rules build it (its module name from the project
        roots, so relative imports resolve): the one model a codemod decides and names from."""
        memo = self.context.scratch.get(MEMO)
        if isinstance(memo, dict) and memo.get("model_of") is tree:
            return memo["model"]  # type: ignore[return-value]
        path = self.context.filename or ""
        roots = project_roots(self.settings)
        name = module_name(path, roots) if path else ""
        model = SemanticModel(tree, module_name=name, path=path, shadowed=shadowing_modules(path, roots))
        if isinstance(memo, dict):
            memo.update(model_of=tree, model=model)
        return model


def release_memo(memo: Dict[str, object]) -> None:
    """Free what runs over one file shared (``MEMO``) once they are done: its semantic model's
    cycles would keep the parsed module alive until the next full collection."""
    model = memo.get("model")
    if isinstance(model, SemanticModel):
        model.release()
    memo.clear()


_Functions = Dict[object, Tuple[Callable[..., object], ...]]  # matcher → functions it calls
_Matchers = Tuple[Tuple[object, ...], _Functions, _Functions]
_GATHERED: Dict[type, _Matchers] = {}


def _start_matchers(transformer: MatcherDecoratableTransformer) -> None:
    """``MatcherDecoratableTransformer.__init__``, whose search of every attribute for matcher
    decorators (about 7 ms, more than a small fix costs) is done once per class: the
    decorators are on the class's functions, so later instances only bind them."""
    gathered = _GATHERED.get(type(transformer))
    if gathered is None:
        MatcherDecoratableTransformer.__init__(transformer)
        _GATHERED[type(transformer)] = (
            tuple(transformer._matchers),
            {m: tuple(f.__func__ for f in funcs) for m, funcs in transformer._extra_visit_funcs.items()},
            {m: tuple(f.__func__ for f in funcs) for m, funcs in transformer._extra_leave_funcs.items()},
        )
        return
    cst.CSTTransformer.__init__(transformer)
    matchers, visits, leaves = gathered
    transformer._matchers = dict.fromkeys(matchers)
    transformer._extra_visit_funcs = {m: tuple(MethodType(f, transformer) for f in funcs) for m, funcs in visits.items()}
    transformer._extra_leave_funcs = {m: tuple(MethodType(f, transformer) for f in funcs) for m, funcs in leaves.items()}


class _PairedPositions:
    """Positions of a parsed module from the tree ``check`` built from the same file's ``ast``
    (``lint/cst_from_ast.py``), which has them already: the two trees are paired node by node.
    A node the built tree cannot place (a parenthesis) is placed by LibCST's PositionProvider,
    which generates the whole module's code only then, and only when the range is required."""

    def __init__(self, pairs: Optional[Dict[int, cst.CSTNode]], built: "ConvertedPositions", wrapper: MetadataWrapper) -> None:
        self._pairs = pairs  # None: the module is the built tree itself
        self._built = built
        self._wrapper = wrapper

    def get(self, node: cst.CSTNode, default: object = _UNDEFINED) -> object:
        """``node``'s range; for a node the built tree cannot place, ``default`` when one is
        given (LibCST's visit passes whitespace and punctuation too, which the pruned visit
        enters when it cannot tell), else LibCST's own range."""
        mirror = node if self._pairs is None else self._pairs.get(id(node))
        if mirror is not None:
            try:
                return self._built[mirror]
            except Unplaced:
                pass
        if default is not _UNDEFINED:
            return default
        return self._wrapper.resolve(PositionProvider)[node]


def _known_positions(memo: object, wrapper: MetadataWrapper) -> Optional[_PairedPositions]:
    """The positions ``check`` handed over (``memo["built"]``) for this parse of the file, or
    None when there are none or the trees do not pair up."""
    if not isinstance(memo, dict) or memo.get("built") is None:
        return None
    if memo.get("paired_with") is not wrapper and memo["built"].module is wrapper.module:
        memo["paired"] = _PairedPositions(None, memo["built"], wrapper)  # the built tree itself
        memo["paired_with"] = wrapper
    if memo.get("paired_with") is not wrapper:
        built = memo["built"]
        pairs: Optional[Dict[int, cst.CSTNode]] = {}
        for mine, theirs in zip_longest(iter_nodes(wrapper.module), iter_nodes(built.module)):
            if mine is None or theirs is None or mine.__class__ is not theirs.__class__:
                pairs = None
                break
            pairs[id(mine)] = theirs  # type: ignore[index]
        memo["paired"] = _PairedPositions(pairs, built, wrapper) if pairs is not None else None
        memo["paired_with"] = wrapper
    return memo["paired"]  # type: ignore[no-any-return]


def _span(where: CodeRange) -> Span:
    return (where.start.line, where.start.column + 1, where.end.line, where.end.column + 1)


class _Missed(cst.CSTTransformer):
    """The planned edits that the pruned visit did not reach, applied by a full visit."""

    def __init__(self, edits: Dict[int, List[Edit]], applied: Set[int], replaced: Dict[int, object]) -> None:
        super().__init__()
        self.edits = edits
        self.applied = applied
        self.replaced = replaced

    def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def]
        edits = self.edits.get(id(original_node), ())
        if edits and id(original_node) not in self.applied:
            for edit in edits:
                updated_node = edit(updated_node)
            self.applied.add(id(original_node))
            self.replaced[id(original_node)] = updated_node
        return updated_node


class _ModuleLevelImports(AddImportsVisitor):
    """LibCST's ``AddImportsVisitor`` over the module-level statements only, the import it adds
    going where LibCST puts it. LibCST's reads every import in the file, those in functions
    included, and copies the whole module first; on a large file that cost more than the fix.
    It uses no metadata, so nothing needs the copy; and an import inside a function neither
    makes a name available to the module nor should it receive a module-level one."""

    @contextmanager
    def _handle_metadata_reference(self, module: cst.Module) -> Iterator[cst.Module]:
        yield module

    def visit_Module(self, node: cst.Module) -> None:
        statements = [s for s in node.body if not isinstance(s, (cst.FunctionDef, cst.ClassDef))]
        # LibCST reads the imports before the first other statement (a docstring aside): a
        # visit of every statement after it would only cost.
        first = 1 if statements and docstring_or_strict(statements[0]) else 0
        while first < len(statements) and _is_import_line(statements[first]):
            first += 1
        super().visit_Module(node.with_changes(body=statements[:first]))

    def on_visit(self, node: cst.CSTNode) -> bool:
        super().on_visit(node)
        # Only imports are edited: every other statement stays the same object, which tells
        # ``resilint.fixing`` what did not change without comparing text.
        return isinstance(node, cst.Module) or _is_import_line(node)

    @property
    def style(self) -> ProjectStyle:
        found = getattr(self, "_style", None)
        if found is None:
            found = self._style = style_of(self.context.filename)
        return found

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom) -> cst.ImportFrom:
        """A name joins the top-level ``from`` import of its module in the order isort/ruff keep
        (an aliased one only where they combine them); LibCST's would put it first."""
        if isinstance(updated_node.names, cst.ImportStar) or original_node not in self.all_imports:
            return updated_node
        module = get_absolute_module_from_package_for_import(self.context.full_package_name, updated_node)
        if module is None or module not in self.module_mapping or self.style.force_single_line:
            return updated_node
        for name in sorted(self.module_mapping.pop(module)):
            updated_node = with_name(updated_node, name, self.style)
        return updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        """Each import still missing as a statement of its own, where isort/ruff put it."""
        config = updated_node.config_for_parsing
        style = self.style
        lines: List[str] = [f"import {module}" for module in sorted(self.module_imports)]
        lines += [f"import {module} as {alias}" for module, alias in sorted(self.module_aliases.items())]
        for module, names in sorted(self.module_mapping.items()):
            ordered = sorted(names, key=style.name_key)
            if style.force_single_line:
                lines += [f"from {module} import {name}" for name in ordered]
            else:
                lines.append(f"from {module} import {', '.join(ordered)}")
        for module, aliases in sorted(self.alias_mapping.items()):
            spelled = [f"{name} as {alias}" for name, alias in sorted(aliases, key=lambda a: style.name_key(a[0]))]
            if style.combine_as_imports and not style.force_single_line:
                lines.append(f"from {module} import {', '.join(spelled)}")
            else:
                lines += [f"from {module} import {each}" for each in spelled]
        if not lines:
            return updated_node
        body = list(updated_node.body)
        start = 1 if body and docstring_or_strict(body[0]) else 0
        statements = [cst.parse_statement(line, config=config) for line in lines]
        for statement in sorted(statements, key=lambda s: import_sort_key(s, style)):  # type: ignore[arg-type, return-value]
            assert isinstance(statement, cst.SimpleStatementLine)
            body = place(body, start, statement, style)
        end = start
        while end < len(body) and _is_import_line(body[end]):
            end += 1
        # Code right below the imports gets a blank line between, as LibCST's visitor gives it.
        return updated_node.with_changes(body=body[:end] + self._insert_empty_line(body[end:]))


def with_imports(module: cst.Module, items: Sequence[object], path: str = "") -> cst.Module:
    """``module`` with only these queued imports added (``AddImportsVisitor`` items), as a
    codemod run that queued them alone adds them: what one finding's fix imports."""
    context = CodemodContext(filename=path, scratch={AddImportsVisitor.CONTEXT_KEY: list(items)})
    with matchers_gathered_once():
        return _ModuleLevelImports(context).transform_module(module)


_GATHERED_BY_CLASS: Dict[Tuple[object, type], Dict[object, Tuple[object, ...]]] = {}


@contextmanager
def matchers_gathered_once() -> Iterator[None]:
    """LibCST's matcher-decoratable visitors search every attribute of each new instance for
    matcher decorators (several milliseconds), and the import visitors a codemod chains make
    new instances on every run: inside this block, the search is made once per class and its
    result bound to each instance, as ``_start_matchers`` does for the codemods themselves."""
    from libcst.matchers import _visitors as visitors

    names = ("_gather_constructed_visit_funcs", "_gather_constructed_leave_funcs", "_gather_matchers")
    originals = {name: getattr(visitors, name) for name in names}
    for name, gather in originals.items():
        setattr(visitors, name, _once_per_class(gather))
    try:
        yield
    finally:
        for name, gather in originals.items():
            setattr(visitors, name, gather)


def _once_per_class(gather: Callable[[object], Dict[object, object]]) -> Callable[[object], Dict[object, object]]:
    def gathered(obj: object) -> Dict[object, object]:
        key = (gather, type(obj))
        known = _GATHERED_BY_CLASS.get(key)
        if known is None:
            found = gather(obj)
            _GATHERED_BY_CLASS[key] = {
                matcher: tuple(getattr(f, "__func__", f) for f in funcs) if funcs is not None else None
                for matcher, funcs in found.items()
            }
            return found
        return {
            matcher: tuple(MethodType(f, obj) for f in funcs) if funcs is not None else None  # type: ignore[arg-type]
            for matcher, funcs in known.items()
        }

    return gathered


def _imports_runtime(module: cst.Module) -> bool:
    """Whether a module-level import of the file names ``resilint.runtime``."""
    for statement in module.body:
        if not _is_import_line(statement):
            continue
        for small in statement.body:  # type: ignore[attr-defined]
            if isinstance(small, cst.ImportFrom) and small.module is not None:
                name = cst.helpers.get_full_name_for_node(small.module) or ""
                names = () if isinstance(small.names, cst.ImportStar) else [a.name.value for a in small.names if isinstance(a.name, cst.Name)]
                if name.startswith("resilint.runtime") or (name == "resilint" and "runtime" in names):
                    return True
            elif isinstance(small, cst.Import):
                if any((cst.helpers.get_full_name_for_node(a.name) or "").startswith("resilint.runtime") for a in small.names):
                    return True
    return False


def _is_import_line(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.SimpleStatementLine) and any(isinstance(s, (cst.Import, cst.ImportFrom)) for s in node.body)


def docstring_or_strict(statement: cst.CSTNode) -> bool:
    """What LibCST's ``AddImportsVisitor`` never puts an import before (its ``_skip_first``)."""
    from libcst.codemod.visitors._add_imports import _skip_first

    return bool(_skip_first(cst.Module(body=[statement])))  # type: ignore[list-item]
