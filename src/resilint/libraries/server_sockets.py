"""Sockets a program serves on: bound to an address of its own (``bind``, ``listen``) and never
connected to another's. Their timeout (``sock.settimeout(3)`` before ``recv``/``accept``)
bounds a wait for inbound traffic, often only so that a loop can notice it should stop: it is
no outbound call's timeout.
"""

from __future__ import annotations

from typing import FrozenSet, List, Set, Tuple

import libcst as cst

from resilint.libraries.sessions import receiver_keys
from resilint.lint.semantic import CallSite, SemanticModel

SETTIMEOUT = "socket.socket.settimeout"
SERVES: FrozenSet[str] = frozenset({"socket.socket.bind", "socket.socket.listen"})
_CALLS_OUT: FrozenSet[str] = frozenset({"socket.socket.connect", "socket.socket.connect_ex", "socket.socket.sendto"})


def serves_only(model: SemanticModel, site: CallSite) -> bool:
    """Whether the socket ``site`` calls a method of (``sock.settimeout(...)``) is, as far as the
    file shows, bound to an address and connected nowhere. A socket the file cannot follow is
    not."""
    func = site.node.func
    if not isinstance(func, cst.Attribute):
        return False
    keys = set(receiver_keys(func.value, model, site.scope, site.order))
    if not keys:
        return False
    served, called_out = _uses(model)
    return any(key in served for key in keys) and not any(key in called_out for key in keys)


def _uses(model: SemanticModel) -> Tuple[Set[Tuple[object, ...]], Set[Tuple[object, ...]]]:
    """The identities of the sockets the file binds or listens on, and of those it connects."""
    return model.derived(_uses, lambda: _find_uses(model))


def _find_uses(model: SemanticModel) -> Tuple[Set[Tuple[object, ...]], Set[Tuple[object, ...]]]:
    served: Set[Tuple[object, ...]] = set()
    called_out: Set[Tuple[object, ...]] = set()
    for site, name in model.iter_calls():
        if name not in SERVES and name not in _CALLS_OUT:
            continue
        func = site.node.func
        if not isinstance(func, cst.Attribute):
            continue
        keys: List[Tuple[object, ...]] = receiver_keys(func.value, model, site.scope, site.order)
        (served if name in SERVES else called_out).update(keys)
    return served, called_out
