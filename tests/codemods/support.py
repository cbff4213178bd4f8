"""Drive one codemod over a source text the way ``resilint fix`` (with the rule's finding
spans as targets) and LibCST's tool (no targets) do, and hold every rewrite to the guarantees:
both ways agree, the result parses and compiles, and a second run changes nothing."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import List, Optional, Sequence, Tuple, Type

import libcst as cst
from libcst.codemod import CodemodContext

from resilint.codemods.base import FIX_TARGET, ResilintCodemod, Span
from resilint.lint.checker import check_source


def run(
    codemod: Type[ResilintCodemod], source: str, targets: Optional[List[Span]] = None, fix_target: Optional[str] = None, **options,
) -> Tuple[str, List[Tuple[int, str]]]:
    """``fix_target``: "native" or "runtime"; None: what the project around the working
    directory declares (resilint's own declares neither resilint-runtime nor imports it)."""
    scratch = {} if fix_target is None else {FIX_TARGET: fix_target}
    command = codemod(CodemodContext(scratch=scratch), targets, **options)
    return command.transform_module(cst.parse_module(source)).code, command.left_alone


def spans(source: str, codes: Sequence[str]) -> List[Span]:
    return [(f.line, f.column, f.end_line, f.end_column) for f in check_source(source, list(codes)) if f.code in codes]


def rewrite(codemod: Type[ResilintCodemod], source: str, migration: bool = False, **options) -> Tuple[str, List[Tuple[int, str]]]:
    """(rewritten code, lines and reasons left alone) of ``source`` (dedented). A fix gives the
    same result for the rule's findings as standalone; a ``migration`` also rewrites what no
    finding points at, so its standalone run is the one checked."""
    source = textwrap.dedent(source).lstrip("\n")
    code, left = run(codemod, source, None if migration else spans(source, codemod.CODES), **options)
    standalone, _ = run(codemod, source, None, **options)
    assert standalone == code, "fixing the rule's findings and fixing everything disagree"
    cst.parse_module(code)
    compile(code, "<fixed>", "exec")
    again, _ = run(codemod, code, None, **options)
    assert again == code, "a second run changed the code again"
    return code, left


def remaining(code: str, rule: str) -> List[int]:
    """Lines where ``rule`` still reports in ``code``."""
    return [f.line for f in check_source(code, [rule]) if f.code == rule]


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def load_module(tmp_path: Path, name: str, code: str) -> ModuleType:
    """Import ``code`` as module ``name`` from a real file, to run what a codemod wrote."""
    path = tmp_path / f"{name}.py"
    path.write_text(code, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[name] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module
