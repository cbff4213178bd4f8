"""Work that a call hands to someone else instead of doing it: it does not run while the
caller's transaction is open (``transaction.on_commit``), or not in the caller's thread
(a task queue, an executor, a thread).

Such calls are not followed from a DB scope: what they are given is a function, not a call, so
the outbound call it makes happens after the commit or elsewhere.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from resilint.libraries.db_scopes.django import ON_COMMIT
from resilint.lint.traversal import iter_nodes

# Methods that enqueue or schedule (celery, rq, dramatiq, huey, executors, asyncio, anyio).
_DEFERRING_METHODS = frozenset({
    "delay", "apply_async", "enqueue", "enqueue_call", "enqueue_at", "enqueue_in", "send_task",
    "submit", "run_in_executor", "create_task", "ensure_future", "start_soon", "on_commit", "add_done_callback",
    "add_task",
})
_DEFERRING = frozenset({
    ON_COMMIT, "threading.Thread", "threading.Timer", "multiprocessing.Process", "asyncio.create_task",
    "asyncio.ensure_future", "asyncio.to_thread",
})
_IN_ATOMIC_BLOCK = "in_atomic_block"
_FUNCTION_BODIES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


def defers(target: Optional[str]) -> bool:
    """Whether a call to ``target`` hands work over rather than doing it."""
    if target is None:
        return False
    return target in _DEFERRING or target.rsplit(".", 1)[-1] in _DEFERRING_METHODS


def defers_in_transaction(function: cst.FunctionDef) -> bool:
    """A helper that asks ``connection.in_atomic_block`` and then defers with ``on_commit``:
    inside a transaction its work runs after the commit (saleor's ``call_event``)."""
    asks = defers_work = False
    for node in iter_nodes(function.body, stop_at=_FUNCTION_BODIES):
        if isinstance(node, cst.Attribute) and node.attr.value == _IN_ATOMIC_BLOCK:
            asks = True
        elif isinstance(node, cst.Call) and isinstance(node.func, (cst.Attribute, cst.Name)):
            name = node.func.attr.value if isinstance(node.func, cst.Attribute) else node.func.value
            defers_work = defers_work or name == "on_commit"
    return asks and defers_work
