"""Django: ``transaction.atomic()`` as a context manager or a decorator (with or without
``using=``/``savepoint=``), ``select_for_update()`` row locks, and ``transaction.on_commit``.

``ATOMIC_REQUESTS`` (every view in a transaction) is configured in settings, not in the code
that runs, and is not modelled."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from resilint.libraries.db_scopes.model import TRANSACTION, Opening, Receiver, method_of, spelled

ATOMIC = "django.db.transaction.atomic"
ON_COMMIT = "django.db.transaction.on_commit"
# What ``atomic()`` returns: a project subclass of it (``class LockedAtomicTransaction(Atomic)``,
# which also locks a table) opens a transaction where a ``with`` enters it.
SCOPE_CLASSES = frozenset({"django.db.transaction.Atomic"})
TRIGGERS = ("atomic",)
_LOCKS = frozenset({"select_for_update"})


def opening(call: cst.Call, receiver: Receiver) -> Optional[Opening]:
    if receiver.name == ATOMIC:
        return Opening(spelled(call), TRANSACTION)
    return None


def decorator(name: Optional[str], spelling: str) -> Optional[Opening]:
    """``@transaction.atomic`` / ``@transaction.atomic(using="x")``."""
    return Opening(f"`@{spelling}`", TRANSACTION) if name == ATOMIC else None


def locks(call: cst.Call) -> bool:
    """A query that locks the rows it reads until the transaction ends."""
    return method_of(call) in _LOCKS
