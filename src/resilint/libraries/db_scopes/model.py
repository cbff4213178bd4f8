"""What the recognisers of each database library say about a piece of code, as plain values."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

import libcst as cst

from resilint.lint.nodes import code_of, dotted_name, last_name

# What a scope holds, as messages say it.
TRANSACTION = "a transaction and its DB connection"
CONNECTION = "a DB connection"
POOLED_CONNECTION = "a pooled DB connection"
SESSION = "a session's transaction and its DB connection"


@dataclass(frozen=True)
class Opening:
    """What entering a ``with`` item (or calling a decorated function) holds.

    ``until_first_use``: the object holds nothing until work runs through the name it is bound
    to (a SQLAlchemy ``Session`` or ``engine.connect()`` check a connection out at the first
    query), so the scope starts there.
    """

    description: str  # how the code spells it, for messages: "`transaction.atomic()`"
    holds: str  # TRANSACTION, CONNECTION, ...
    until_first_use: bool = False


@dataclass(frozen=True)
class Receiver:
    """The object a method is called on: its qualified name or class when the file knows it,
    and how it is spelled (``db.session``), for the libraries whose objects live elsewhere."""

    name: Optional[str]  # the qualified name of the called method (``sqlalchemy.orm.Session.begin``)
    kind: Optional[str]  # the class of the receiver, when known
    text: str  # the receiver as written: ``db.session``, ``self.pool``, ``""`` when not a name
    last: str  # its last name: ``session``, ``pool``
    # The call that made the connection (``connect(..., isolation_level=...)``), when the file
    # shows it and its settings matter (an autocommit driver told to open transactions).
    made_by: Optional[cst.Call] = None
    # The last name of the call a local receiver holds the result of (``db = SessionLocal()``):
    # another module's factory spells what it makes as an attribute's name does.
    maker: str = ""


def receiver_of(
    call: cst.Call, name: Optional[str], kind: Optional[str], made_by: Optional[cst.Call] = None, maker: str = "",
) -> Receiver:
    func = call.func
    base = func.value if isinstance(func, cst.Attribute) else None
    text = (dotted_name(base) or "") if base is not None else ""
    return Receiver(name, kind, text, last_name(base) if base is not None else "", made_by, maker)


def method_of(call: cst.Call) -> str:
    return call.func.attr.value if call.func.__class__ is cst.Attribute else ""  # type: ignore[attr-defined]


def named_like(word: str, pattern: "re.Pattern[str]") -> bool:
    return bool(pattern.search(word))


def spelled(call: cst.Call) -> str:
    """``transaction.atomic()`` as written (without arguments), for messages."""
    return f"`{dotted_name(call.func) or code_of(call.func, limit=40)}()`"
