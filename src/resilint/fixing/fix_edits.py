"""The edits of the findings' fixes, for the reports that show them (JSON, SARIF) and for
``fix``: the engine's ``Checker`` and runner call ``with_fixes`` when the command asks for
edits (``resilint.lint.checker.FixEdits``); they never import this layer themselves."""

from __future__ import annotations

from dataclasses import replace
from typing import Dict, List, Optional, Sequence

from resilint.codemods import codemods_for
from resilint.codemods.base import release_memo
from resilint.fixing.attribution import split_edits, split_edits_of_built_tree
from resilint.fixing.codemod_run import run_codemod, span_of, uncompilable
from resilint.lint.checker import CheckedTree
from resilint.lint.config import Settings
from resilint.lint.finding import Finding, Fix
from resilint.lint.source import SourceError, decode, encode_like


def with_fixes(
    findings: Sequence[Finding], data: bytes, path: str, settings: Settings, tree: Optional[CheckedTree] = None,
) -> List[Finding]:
    """``findings`` of one file, each whose fix is only declared (``Fix.edits`` None) with the
    concrete edits of fixing it alone, the imports included, or without a fix when no codemod
    rewrites it; nothing is run for other findings.

    Each codemod runs once over all its findings (safe ones first; a finding takes the first
    codemod that fixes it), and its result is split between them (``attribution``).

    ``tree``: what ``check`` built for ``data``. The codemods then run over that tree and its
    semantic model wherever a rewrite's text can be told from it, else over LibCST's parse of
    the file placed by its positions (instead of generating the module's code again)."""
    wanted = [f for f in findings if f.fix is not None and f.fix.edits is None]
    if not wanted:
        return list(findings)
    try:
        text = decode(data).text
    except SourceError:
        return [replace(f, fix=None) if f.fix is not None and f.fix.edits is None else f for f in findings]
    fixes: Dict[int, Optional[Fix]] = {id(f): None for f in wanted}
    # The codemods first run over the tree check built from ``ast`` with its semantic model (no
    # parse, no analysis again); where that tree cannot give a rewrite's text (whitespace and
    # comments are not in it), over LibCST's own parse, placed by check's positions.
    built: Dict[str, object] = (
        {"module": tree.module, "built": tree.positions, "model_of": tree.module, "model": tree.model}
        if tree is not None else {}
    )
    parsed: Dict[str, object] = {"built": tree.positions if tree is not None else None}
    # "auto" is resolved by the commands that fix; a caller that did not gets the native target,
    # which adds no dependency
    target = settings.fix_target if settings.fix_target in ("native", "runtime") else "native"
    codemods = sorted({c for f in wanted for c in codemods_for(f.code, target)}, key=lambda c: (c.applicability_for(settings)[0] != "safe", c.__name__))
    try:
        for codemod in codemods:
            mine = [f for f in wanted if f.code in codemod.CODES and fixes[id(f)] is None]
            if not mine:
                continue
            spans = [span_of(f) for f in mine]
            found = None
            if tree is not None:
                run = run_codemod(codemod, data, path, settings, spans, built)
                if not run.changed:
                    continue  # it fixes none of them (a client it leaves alone, a finding through a wrapper)
                found = split_edits_of_built_tree(run, text, spans, tree)
            if found is None:
                run = run_codemod(codemod, data, path, settings, spans, parsed)
                if not run.changed:
                    continue
                found = split_edits(run, text, spans)
            split, after = found
            if after == text or uncompilable(encode_like(after, data), path, data) is not None:
                continue
            for finding in mine:
                edits = split.get(span_of(finding))
                if edits:
                    fixes[id(finding)] = Fix(codemod.applicability_for(settings)[0], codemod.DESCRIPTION, edits)
    finally:
        release_memo(parsed)  # the built tree's model is check's, which releases it
        built.clear()
    return [replace(f, fix=fixes[id(f)]) if id(f) in fixes else f for f in findings]
