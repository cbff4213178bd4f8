"""Retry scopes: the code that a retry policy runs again, and the policy that governs it.

Shared by the RES2xx rules (and, as plain data, by the cross-module pass). Built from the
semantic model without another parse: library policies are found among the model's call sites
and decorators, hand-written retry loops among the ``for``/``while`` nodes on the call stacks.

Two levels:

* a :class:`Policy` is one definition of *how* to retry (a ``tenacity.retry(...)`` call, a
  ``backoff.on_exception(...)`` call, a urllib3 ``Retry(...)``, a celery ``self.retry(...)``
  call, a hand-written loop). Findings about the policy itself (wait, limit, what it retries
  on) are reported at its definition, once, however many functions use it;
* a :class:`RetryScope` is a policy applied to code: the function it decorates, the loop it
  drives, the function handed to ``Retrying(...)(fn)``. Findings about the retried code
  (a POST without an idempotency key) are reported per scope.

``retry_scopes(model)`` is memoised per model, so every rule shares one computation.

Layout: ``model`` (policies, scopes, constants), ``names`` (qualified names), ``statements``
(loop-body readers), ``recogniser`` (the shared state and the driver), ``registry``
(which module handles which qualified name, by discovery), one module per library
(``tenacity``, ``backoff``, ``stamina``, ``retrying``, ``runtime``, ``urllib3``, ``httpx``,
``celery``, with ``transports`` shared by the clients that retry), and ``decorators``,
``applications``, ``loops``, ``delays`` for how policies meet code.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from resilint.libraries.retry_scopes.model import (
    LIBRARY_TRIGGERS,
    ON_ANY,
    ON_FAILED_RESULT,
    ON_RESULT,
    ON_SPECIFIC,
    ON_STATUS,
    UNKNOWN,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_JITTERED,
    WAIT_NONE,
    Limit,
    Policy,
    RetryScope,
    RetryScopes,
    Setting,
    describe,
)
from resilint.libraries.retry_scopes.names import normalise
from resilint.libraries.retry_scopes.recogniser import Recogniser
from resilint.lint.nodes import DEFINITIONS, code_of
from resilint.lint.semantic import CallSite, SemanticModel
from resilint.lint.traversal import iter_nodes

__all__ = [
    "LIBRARY_TRIGGERS", "ON_ANY", "ON_FAILED_RESULT", "ON_RESULT", "ON_SPECIFIC", "ON_STATUS", "UNKNOWN", "WAIT_EXPONENTIAL",
    "WAIT_FIXED", "WAIT_JITTERED", "WAIT_NONE", "Limit", "Policy", "RetryScope", "RetryScopes", "Setting",
    "calls_within", "code_of", "describe", "normalise", "retry_scopes",
]

def retry_scopes(model: SemanticModel) -> RetryScopes:
    """All retry policies and scopes of the file (computed once per model)."""
    return model.derived(retry_scopes, lambda: Recogniser(model).run())


def calls_within(model: SemanticModel, scope: RetryScope) -> Iterator[CallSite]:
    """The call sites executed by one attempt of the scope's code (not in nested defs)."""
    covers = scope.covers
    if covers is None:
        return
    for call in model.calls:
        stack = call.stack
        for index in range(len(stack) - 1, -1, -1):
            node = stack[index]
            if node is covers:
                # for a loop scope, the iterator expression is evaluated once, not per attempt
                if isinstance(covers, cst.For) and _inside(call.node, covers.iter):
                    break
                yield call
                break
            if node.__class__ in DEFINITIONS:
                break


def _inside(node: cst.CSTNode, container: cst.CSTNode) -> bool:
    return any(inner is node for inner in iter_nodes(container))
