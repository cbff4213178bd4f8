"""Work that a call hands to someone else instead of doing it: it does not run while the
caller's transaction is open (``transaction.on_commit``), or not in the caller's thread
(a task queue, an executor, a thread).

Such calls are not followed from a DB scope: what they are given is a function, not a call, so
the outbound call it makes happens after the commit or elsewhere.
"""

from __future__ import annotations

from typing import Callable, Iterator, List, Optional, Sequence, Set

import libcst as cst

from resilint.libraries.db_scopes.django import ON_COMMIT
from resilint.libraries.retry_scopes.statements import block, small_statements
from resilint.lint.nodes import DEFINITIONS, parameter_names
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
# Decorators whose function, called, is put on a queue for a worker (huey's: ``task.call_local``
# runs it in the caller).
_ENQUEUED_WHEN_CALLED = frozenset({
    "huey.contrib.djhuey.task", "huey.contrib.djhuey.db_task", "huey.contrib.djhuey.periodic_task",
    "huey.contrib.djhuey.db_periodic_task", "huey.contrib.djhuey.on_commit_task",
})


def enqueued_when_called(decorator: str) -> bool:
    """Whether calling a function decorated so puts it on a task queue instead of running it."""
    return decorator in _ENQUEUED_WHEN_CALLED


# Calls that take a coroutine and run it on the event loop while the caller goes on
# (``asyncio.create_task(notify(url))``, ``loop.create_task``, a task group's).
_SCHEDULES_COROUTINE = frozenset({"create_task", "ensure_future", "run_coroutine_threadsafe"})


def scheduled_coroutines(calls: Sequence[cst.Call]) -> Set[int]:
    """The calls (by id) written as the coroutine a scheduling call is given: the work they
    make runs later, on the event loop, not where they are written."""
    return {
        id(arg.value) for call in calls
        if isinstance(call.func, (cst.Attribute, cst.Name))
        and (call.func.attr.value if isinstance(call.func, cst.Attribute) else call.func.value) in _SCHEDULES_COROUTINE
        for arg in call.args[:1] if isinstance(arg.value, cst.Call)
    }


def defers(target: Optional[str]) -> bool:
    """Whether a call to ``target`` hands work over rather than doing it."""
    if target is None:
        return False
    return target in _DEFERRING or target.rsplit(".", 1)[-1] in _DEFERRING_METHODS


def defers_in_transaction(function: cst.FunctionDef) -> bool:
    """A helper that asks ``connection.in_atomic_block`` and then defers with ``on_commit``:
    inside a transaction its work runs after the commit (saleor's ``call_event``)."""
    asks = defers_work = False
    for node in iter_nodes(function.body, stop_at=DEFINITIONS):
        if isinstance(node, cst.Attribute) and node.attr.value == _IN_ATOMIC_BLOCK:
            asks = True
        elif isinstance(node, cst.Call) and isinstance(node.func, (cst.Attribute, cst.Name)):
            name = node.func.attr.value if isinstance(node.func, cst.Attribute) else node.func.value
            defers_work = defers_work or name == "on_commit"
    return asks and defers_work


# Methods that store a value in a container (a list, a deque, a queue, a set).
_STORING_METHODS = frozenset({"append", "appendleft", "put", "put_nowait", "add", "insert"})


def defers_when_it_can(function: cst.FunctionDef, hands_over: Callable[[cst.Call], bool]) -> bool:
    """A helper that stores the function it would call in a queue when there is one, and calls
    it only when there is none: ``if "email_queue" in g: g.email_queue.append((send, email))``
    ``else: send(email)`` (indico's ``send_email``: the emails of a request or task are queued
    and sent after its commit; only code outside both sends at once). Or that hands it to a
    thread, an executor or a task queue (``hands_over``) unless a setting says otherwise, and
    calls it only then: ``if settings.ENABLE_POSTPONE_DECORATOR: Thread(target=function).start()``
    ``else: return function()`` (flagsmith's ``@postpone``: the direct call is the tests'
    switch). A choice made on the helper's own parameters is its callers', and not read so."""
    parameters = set(parameter_names(function.params))
    for statement in _statements(function.body.body):
        if isinstance(statement, cst.If) and isinstance(statement.orelse, cst.Else):
            now, later = _smalls(statement.body), _smalls(statement.orelse.body)
            if _stored_callables(now) & _called_names(later) or _stored_callables(later) & _called_names(now):
                return True
            if _names_in(statement.test) & parameters:
                continue
            if _handed_names(now, hands_over) & _called_names(later) or _handed_names(later, hands_over) & _called_names(now):
                return True
    return False


def _names_in(node: cst.CSTNode) -> Set[str]:
    return {name.value for name in iter_nodes(node, stop_at=DEFINITIONS) if isinstance(name, cst.Name)}


def _handed_names(smalls: Sequence[cst.BaseSmallStatement], hands_over: Callable[[cst.Call], bool]) -> Set[str]:
    """The names these statements give to a call that hands work over (``Thread(target=f)``,
    ``executor.submit(f, x)``), as an argument of their own."""
    return {
        argument.value.value for small in smalls for call in iter_nodes(small, stop_at=DEFINITIONS)
        if isinstance(call, cst.Call) and hands_over(call)
        for argument in call.args if isinstance(argument.value, cst.Name)
    }


def _statements(block: Sequence[cst.BaseStatement]) -> Iterator[cst.BaseStatement]:
    """The statements of ``block`` and of the compound statements in it, not of nested
    functions or classes."""
    for statement in block:
        yield statement
        kind = statement.__class__  # most are simple lines: no slow ABC test for them
        if kind is not cst.SimpleStatementLine and kind not in DEFINITIONS and isinstance(statement, cst.BaseCompoundStatement):
            yield from _statements(_inner_statements(statement))


def _inner_statements(statement: cst.BaseCompoundStatement) -> List[cst.BaseStatement]:
    """The statements of a compound statement's blocks (an ``elif`` as one statement)."""
    inner: List[cst.BaseStatement] = []
    parts = (statement, getattr(statement, "orelse", None), getattr(statement, "finalbody", None), *getattr(statement, "handlers", ()))
    for part in parts:
        if isinstance(part, cst.If) and part is not statement:
            inner.append(part)
        elif isinstance(getattr(part, "body", None), cst.IndentedBlock):
            inner.extend(part.body.body)  # type: ignore[union-attr]
    return inner


def _smalls(suite: cst.BaseSuite) -> List[cst.BaseSmallStatement]:
    """The simple statements written directly in a block (``if q: q.append(x)`` included)."""
    return [small for line in block(suite) for small in small_statements(line)]


def _stored_callables(smalls: Sequence[cst.BaseSmallStatement]) -> Set[str]:
    """The names these statements store, alone or in a tuple or list, with ``x.append(...)`` and the like."""
    stored: Set[str] = set()
    for small in smalls:
        call = small.value if isinstance(small, cst.Expr) else None
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in _STORING_METHODS):
            continue
        for argument in call.args:
            value = argument.value
            items = [element.value for element in value.elements] if isinstance(value, (cst.Tuple, cst.List)) else [value]
            stored.update(item.value for item in items if isinstance(item, cst.Name))
    return stored


def _called_names(smalls: Sequence[cst.BaseSmallStatement]) -> Set[str]:
    """The names these statements call (``send(email)``, ``return send(email)``)."""
    called: Set[str] = set()
    for small in smalls:
        value = small.value if isinstance(small, (cst.Expr, cst.Return, cst.Assign)) else None
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            called.add(value.func.value)
    return called
