"""``try: ... except Exception: pass``: a failure inside never reaches the callers, so a retry
layer around them never repeats it (RES204 does not multiply a client's retries that end there)."""

from __future__ import annotations

from typing import Dict

import libcst as cst

from resilint.libraries.retry_scopes.names import ANY_EXCEPTION
from resilint.lint.semantic import CallSite, SemanticModel
from resilint.lint.traversal import iter_nodes

_OWN_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_SWALLOWING = object()  # ``derived`` key: id(try) → whether every handler catches all and raises nothing


def swallows(model: SemanticModel, node: cst.CSTNode, site: CallSite) -> bool:
    """Whether ``site`` is in the body of the ``try`` ``node`` and every one of its handlers
    catches everything and raises nothing."""
    assert isinstance(node, (cst.Try, cst.TryStar))
    known: Dict[int, bool] = model.derived(_SWALLOWING, dict)
    if id(node) not in known:
        known[id(node)] = bool(node.handlers) and all(
            (handler.type is None or model.qualified_name(handler.type, site.scope, site.order) in ANY_EXCEPTION)
            and not any(isinstance(n, cst.Raise) for n in iter_nodes(handler.body, stop_at=_OWN_SCOPES))
            for handler in node.handlers
        )
    if not known[id(node)]:
        return False
    after = site.stack[site.stack.index(node) + 1:]
    if any(isinstance(n, (cst.ExceptHandler, cst.ExceptStarHandler)) for n in after):
        return False  # in a handler
    return not any(
        inner is site.node for part in (node.orelse, node.finalbody) if part is not None
        for inner in iter_nodes(part, stop_at=_OWN_SCOPES)
    )
