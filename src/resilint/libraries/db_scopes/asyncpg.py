"""asyncpg, aiopg and databases: ``async with pool.acquire() as conn:`` (a pooled connection
for the block), ``async with conn.transaction():``, databases' ``database.connection()`` and
``database.transaction()``."""

from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from resilint.libraries.db_scopes.model import (
    CONNECTION,
    POOLED_CONNECTION,
    TRANSACTION,
    Opening,
    Receiver,
    method_of,
    spelled,
)

TRIGGERS = ("asyncpg", "aiopg", "databases", "acquire(")
_LIBRARIES = ("asyncpg.", "aiopg.", "databases.")
_POOL_WORD = re.compile(r"pool", re.I)
_DATABASE_WORD = re.compile(r"database|^db$", re.I)


def _library(receiver: Receiver) -> bool:
    return any(n is not None and n.startswith(_LIBRARIES) for n in (receiver.name, receiver.kind))


def opening(call: cst.Call, receiver: Receiver) -> Optional[Opening]:
    method = method_of(call)
    if method == "acquire" and (_library(receiver) or _POOL_WORD.search(receiver.last)):
        return Opening(spelled(call), POOLED_CONNECTION)
    if method == "transaction" and _library(receiver):
        return Opening(spelled(call), TRANSACTION)
    if method == "connection" and (_library(receiver) or _DATABASE_WORD.search(receiver.last)):
        return Opening(spelled(call), CONNECTION)
    return None
