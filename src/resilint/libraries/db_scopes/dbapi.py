"""DB-API drivers: psycopg2, psycopg 3, sqlite3, PyMySQL/MySQLdb.

``with conn:`` (psycopg2, sqlite3: a transaction committed at the end of the block), ``with
psycopg.connect() as conn:`` (a connection for the block), ``with conn.transaction():``
(psycopg 3), and a cursor with work pending: from ``cur.execute(...)`` until the connection's
``commit()``/``rollback()``/``close()``.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Tuple, Union

import libcst as cst

from resilint.libraries.db_scopes.model import CONNECTION, TRANSACTION, Opening, Receiver, method_of, spelled
from resilint.lint.nodes import dotted_name, string_of

TRIGGERS = ("psycopg", "sqlite3", "pymysql", "MySQLdb", "cursor", "transaction(")
_DRIVERS = ("psycopg2.", "psycopg.", "sqlite3.", "pymysql.", "MySQLdb.")
# What ``with`` does with each connection class (``psycopg2.connect`` is what the model calls
# the object ``psycopg2.connect()`` returns).
_ENTERED = {
    "psycopg2.connect": TRANSACTION,
    "sqlite3.connect": TRANSACTION,
    "pymysql.connect": TRANSACTION,
    "MySQLdb.connect": TRANSACTION,
    "psycopg.Connection": CONNECTION,
    "psycopg.AsyncConnection": CONNECTION,
    "psycopg.connect": CONNECTION,
}
_CONNECTION_WORD = re.compile(r"^conn(ection)?$|_conn(ection)?$|^db$|database", re.I)
_CURSOR_WORD = re.compile(r"^cur(sor)?$|_cur(sor)?$|cursor", re.I)
_WORK = frozenset({"execute", "executemany", "callproc", "copy_expert", "copy_from", "copy_to"})
_ENDS = frozenset({"commit", "rollback", "close"})
WORK_METHODS = _WORK | _ENDS  # the only methods a cursor's transaction looks at


def _of(receiver: Receiver, packages: Union[str, Tuple[str, ...]]) -> bool:
    """The receiver's method or class is one of ``packages``' (``"sqlite3."``)."""
    return any(n is not None and n.startswith(packages) for n in (receiver.name, receiver.kind))


def is_driver(receiver: Receiver) -> bool:
    """The object is known to be a DB-API driver's (not only named like a cursor)."""
    return _of(receiver, _DRIVERS)


def opening(call: cst.Call, receiver: Receiver) -> Optional[Opening]:
    if receiver.name in _ENTERED:
        return Opening(spelled(call), _ENTERED[receiver.name])
    if method_of(call) == "transaction" and (is_driver(receiver) or _CONNECTION_WORD.search(receiver.last)):
        return Opening(spelled(call), TRANSACTION)
    return None


def entered(kind: Optional[str], spelling: str) -> Optional[Opening]:
    """``with conn:`` where ``conn`` is a connection of a known class."""
    holds = _ENTERED.get(kind or "")
    return Opening(f"`with {spelling}:`", holds) if holds is not None else None


# Drivers whose cursors run in autocommit mode unless told otherwise, so no transaction stays
# open: Django's raw cursors outside ``atomic()``, and the DB-API clients of query engines and
# warehouses (Trino, Presto, Snowflake, Databricks SQL, BigQuery, Athena, ClickHouse).
AUTOCOMMIT = (
    "django.", "trino.", "prestodb.", "pyhive.", "snowflake.connector.", "databricks.sql.",
    "google.cloud.bigquery.dbapi.", "pyathena.", "clickhouse_driver.", "clickhouse_connect.",
)


def sole_driver(imported: Iterable[str]) -> Optional[str]:
    """The DB-API driver a file imports when it imports only one (Django's aside), by package
    (``"trino."``): a cursor handed to the file's functions is that driver's."""
    drivers = {
        prefix for name in imported for prefix in _DRIVERS + AUTOCOMMIT
        if prefix != "django." and (name + ".").startswith(prefix)
    }
    return drivers.pop() if len(drivers) == 1 else None


def autocommit(receiver: Receiver) -> bool:
    return _of(receiver, AUTOCOMMIT)


def _told_to_open_transactions(connect: Optional[cst.Call]) -> bool:
    """``connect(..., autocommit=False)`` or an ``isolation_level`` other than autocommit."""
    for arg in connect.args if connect is not None else ():
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword == "autocommit" and isinstance(arg.value, cst.Name) and arg.value.value == "False":
            return True
        if keyword == "isolation_level" and "AUTOCOMMIT" not in (dotted_name(arg.value) or "").upper():
            return True
    return False


def starts_work(call: cst.Call, receiver: Receiver) -> bool:
    """SQL sent through a cursor (or the connection's shortcut): a transaction begins."""
    if autocommit(receiver) and not _told_to_open_transactions(receiver.made_by):
        return False
    if _sqlite_read(call, receiver):
        return False
    return method_of(call) in _WORK and (is_driver(receiver) or bool(_CURSOR_WORD.search(receiver.last)))


_SQLITE_WRITES = re.compile(r"\s*(insert|update|delete|replace)\b", re.IGNORECASE)


def _sqlite_read(call: cst.Call, receiver: Receiver) -> bool:
    """sqlite3 (in its default, legacy transaction control) begins a transaction only before
    an INSERT, UPDATE, DELETE or REPLACE: a ``SELECT`` or a ``CREATE TABLE`` written out holds
    none."""
    if not _of(receiver, "sqlite3."):
        return False
    if not call.args or call.args[0].keyword is not None or call.args[0].star:
        return False
    value = call.args[0].value
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Modulo):
        value = value.left  # ``'SELECT xml FROM %s' % table``
    text = string_of(value)
    return text is not None and not _SQLITE_WRITES.match(text)


def ends_work(call: cst.Call, receiver: Receiver) -> bool:
    return method_of(call) in _ENDS and (is_driver(receiver) or bool(_CONNECTION_WORD.search(receiver.last)))
