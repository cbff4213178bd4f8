"""asyncpg, aiopg and databases: ``async with pool.acquire() as conn:`` (a pooled connection
for the block), ``async with conn.transaction():``, databases' ``database.connection()`` and
``database.transaction()``; and a connection checked out by hand, ``conn = await
pool.acquire()`` (psycopg2 pools: ``pool.getconn()``), held until ``pool.release(conn)``,
``pool.putconn(conn)`` or ``conn.close()``."""

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
# Pools named for what else they hold: a broker's producers (kombu's ``producer_pool``), threads,
# processes, workers, channels, HTTP connections: none is a database's.
_OTHER_POOL = re.compile(r"(producer|consumer|thread|process|worker|executor|channel|http|greenlet|task)s?_?pool", re.I)
_DATABASE_WORD = re.compile(r"database|^db$", re.I)
_CHECKOUTS = frozenset({"acquire", "getconn"})
_CHECKINS = frozenset({"release", "putconn", "close"})
CHECKOUT_METHODS = _CHECKOUTS | _CHECKINS  # the only methods a checkout by hand looks at


def _library(receiver: Receiver) -> bool:
    return any(n is not None and n.startswith(_LIBRARIES) for n in (receiver.name, receiver.kind))


def opening(call: cst.Call, receiver: Receiver) -> Optional[Opening]:
    method = method_of(call)
    if method == "acquire" and (_library(receiver) or (_POOL_WORD.search(receiver.last) and not _OTHER_POOL.search(receiver.last))):
        return Opening(spelled(call), POOLED_CONNECTION)
    if method == "transaction" and _library(receiver):
        return Opening(spelled(call), TRANSACTION)
    if method == "connection" and (_library(receiver) or _DATABASE_WORD.search(receiver.last)):
        return Opening(spelled(call), CONNECTION)
    return None


def checks_out(call: cst.Call, receiver: Receiver) -> bool:
    """``pool.acquire()`` / ``pool.getconn()`` outside a ``with``: held until checked in."""
    return method_of(call) in _CHECKOUTS and (_library(receiver) or bool(_POOL_WORD.search(receiver.last)))


def checks_in(call: cst.Call, receiver: Receiver) -> bool:
    method = method_of(call)
    if method == "close":
        return not _POOL_WORD.search(receiver.last)  # ``conn.close()``; closing the pool is not it
    return method in _CHECKINS and (_library(receiver) or bool(_POOL_WORD.search(receiver.last)))
