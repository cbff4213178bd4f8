"""SQLAlchemy and Flask-SQLAlchemy.

Blocks: ``with session.begin():``, ``with engine.begin() as conn:`` (a transaction for the whole
block); ``with Session(engine) as s:``, ``with sessionmaker()() as s:``, ``with
engine.connect() as conn:`` (a connection is checked out at the first query through ``s`` or
``conn``, and held until ``commit()``/``rollback()``/``close()`` or the end of the block).

Implicit transactions: a query through a session (``db.session.query(...)``,
``db.session.execute(...)``, ``self.session.scalars(...)``) or a Flask-SQLAlchemy model's
``.query`` begins a transaction that stays open, with its pooled connection, until the session's
``commit()``/``rollback()``/``close()``/``remove()``. Sessions usually live in another module
(``from app import db``), so they are known by how they are spelled: a receiver whose last name
says ``session``; ``Model.query`` is a capitalised name followed by ``.query``.
"""

from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from resilint.libraries.db_scopes.model import (
    CONNECTION,
    SESSION,
    TRANSACTION,
    Opening,
    Receiver,
    method_of,
    spelled,
)
from resilint.lint.nodes import last_name

TRIGGERS = ("sqlalchemy", "session", "Session", ".query", "begin(", "connect(")
_LIBRARY = ("sqlalchemy.", "flask_sqlalchemy.")
# Clients whose ``Session`` is an HTTP session, not a database one.
_HTTP = ("requests.", "httpx.", "aiohttp.", "urllib3.", "boto3.", "botocore.")
_SESSION_WORD = re.compile(r"session", re.I)
_ENGINE_WORD = re.compile(r"engine|^conn(ection)?$|_conn(ection)?$", re.I)
_SESSION_MAKERS = frozenset({
    "sqlalchemy.orm.sessionmaker", "sqlalchemy.orm.session.sessionmaker", "sqlalchemy.orm.scoped_session",
    "sqlalchemy.ext.asyncio.async_sessionmaker", "sqlalchemy.ext.asyncio.async_scoped_session",
})
# Session methods that run SQL (and so check a connection out); ``add`` only records an object.
QUERIES = frozenset({
    "query", "execute", "scalars", "scalar", "flush", "merge", "refresh", "get_one", "stream", "stream_scalars",
    "connection",
})
# What ``Model.query`` chains start with: each builds or runs a SELECT in the session's transaction.
_MODEL_QUERIES = frozenset({
    "filter", "filter_by", "get", "get_or_404", "first_or_404", "one_or_404", "all", "first", "one", "one_or_none",
    "order_by", "count", "paginate", "join", "options", "limit", "with_for_update", "with_entities",
    "add_columns", "add_entity", "outerjoin", "distinct", "group_by", "having", "offset", "exists", "scalar",
})
ENDS = frozenset({"commit", "rollback", "close", "remove"})
IMPLICIT_METHODS = QUERIES | _MODEL_QUERIES | ENDS  # the only methods an implicit transaction looks at
_LOCKS = frozenset({"with_for_update"})


def _http(receiver: Receiver) -> bool:
    return bool(receiver.name and receiver.name.startswith(_HTTP)) or bool(receiver.kind and receiver.kind.startswith(_HTTP))


def _library(receiver: Receiver) -> bool:
    return bool(receiver.name and receiver.name.startswith(_LIBRARY))


def _session_spelled(receiver: Receiver) -> bool:
    """Named as a session, or made by a call so named (``db = SessionLocal()`` of another
    module's ``sessionmaker``)."""
    return bool(_SESSION_WORD.search(receiver.last) or _SESSION_WORD.search(receiver.maker))


def opening(call: cst.Call, receiver: Receiver) -> Optional[Opening]:
    if _http(receiver):
        return None
    method = method_of(call)
    if method in ("begin", "begin_nested") and (
        _library(receiver) or _session_spelled(receiver) or _ENGINE_WORD.search(receiver.last)
    ):
        return Opening(spelled(call), TRANSACTION)
    if method == "connect" and (_library(receiver) or re.search("engine", receiver.last, re.I)):
        return Opening(spelled(call), CONNECTION, until_first_use=True)
    callee = last_name(call.func)
    if receiver.kind in _SESSION_MAKERS or (not method and _SESSION_WORD.search(callee)):
        return Opening(spelled(call), SESSION, until_first_use=True)
    return None


def starts_implicit(call: cst.Call, receiver: Receiver) -> bool:
    """A query that begins the session's implicit transaction."""
    if _http(receiver):
        return False
    method = method_of(call)
    if (method in QUERIES or (method == "get" and _by_primary_key(call))) and (
        _library(receiver) or _session_spelled(receiver)
    ):
        return True
    if method in _MODEL_QUERIES and receiver.last == "query":
        owner = receiver.text.rsplit(".", 2)
        return len(owner) >= 2 and owner[-2][:1].isupper()
    return False


def model_query_owner(call: cst.Call) -> Optional[str]:
    """``model.query.filter(...)``: the name whose ``.query`` the call queries through, when it
    is a plain lower-case name (a capitalised one is a model class, which ``starts_implicit``
    reads); whether that name holds a model is for its callers to tell."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in _MODEL_QUERIES):
        return None
    owner = func.value
    if not (isinstance(owner, cst.Attribute) and owner.attr.value == "query" and isinstance(owner.value, cst.Name)):
        return None
    name = owner.value.value
    return name if name[:1].islower() and name != "self" else None


def _by_primary_key(call: cst.Call) -> bool:
    """``session.get(User, user_id)``: a model class and its key (an HTTP session's ``get`` takes
    a URL)."""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    return len(positional) >= 2 and last_name(positional[0])[:1].isupper()


def ends_implicit(call: cst.Call, receiver: Receiver) -> bool:
    if method_of(call) not in ENDS or _http(receiver):
        return False
    return _library(receiver) or _session_spelled(receiver)


def ending_method(name: str) -> bool:
    """Whether the object the project pass found a name holds is a SQLAlchemy session's method
    that ends its transaction (``self.commit = session.commit``, then ``repo.commit()``)."""
    return name.startswith("sqlalchemy.") and name.rsplit(".", 1)[-1] in ENDS


def locks(call: cst.Call) -> bool:
    return method_of(call) in _LOCKS
