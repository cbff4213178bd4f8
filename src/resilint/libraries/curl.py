"""pycurl handles: a ``pycurl.Curl()`` is configured by ``setopt`` calls and sends with
``perform()``, so whether a transfer is bounded depends on which options the file sets on the
same handle before it performs.

libcurl's defaults (curl_easy_setopt(3)): ``CURLOPT_TIMEOUT`` 0, a transfer may take forever;
``CURLOPT_CONNECTTIMEOUT`` 300 s (0 selects that default); ``CURLOPT_LOW_SPEED_LIMIT`` and
``CURLOPT_LOW_SPEED_TIME`` 0, no stall detection (both must be set to abort a transfer slower
than the limit for that long). pycurl exposes each option on the module and on the handle
(``pycurl.TIMEOUT``, ``c.TIMEOUT``).

A handle is followed by the call that made it (``receiver_keys``), through locals,
``self.curl``, module globals and functions of the file that return it. A handle the file
passes to a call (``configure(c)``, ``multi.add_handle(c)``) or configures with an option it
cannot read (``c.setopt(opt, value)`` in a loop) may get a timeout elsewhere: its options are
unknown.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.sessions import object_key, receiver_keys
from resilint.lint.semantic import CallSite, Instance, QName, SemanticModel

CURL = "pycurl.Curl"
SETOPT = "pycurl.Curl.setopt"
PERFORMS: FrozenSet[str] = frozenset({"pycurl.Curl.perform", "pycurl.Curl.perform_rb", "pycurl.Curl.perform_rs"})
# The options that bound a transfer, or part of it.
TRANSFER = frozenset({"TIMEOUT", "TIMEOUT_MS"})
CONNECT = frozenset({"CONNECTTIMEOUT", "CONNECTTIMEOUT_MS"})
STALL = frozenset({"LOW_SPEED_LIMIT", "LOW_SPEED_TIME"})
_KNOWN = TRANSFER | CONNECT | STALL


def option_name(model: SemanticModel, expr: cst.BaseExpression, site: CallSite) -> Optional[str]:
    """``pycurl.TIMEOUT``, ``c.TIMEOUT`` → ``"TIMEOUT"``; another known pycurl option → its
    name; None when the expression is not one the file can read."""
    value = model.resolve(expr, site.scope, site.order)
    if not isinstance(value, QName):
        return None
    for prefix in ("pycurl.Curl.", "pycurl."):
        if value.name.startswith(prefix):
            rest = value.name[len(prefix):]
            return rest if rest and "." not in rest else None
    return None


def timeout_option(model: SemanticModel, site: CallSite) -> Optional[Tuple[str, cst.BaseExpression]]:
    """For ``c.setopt(pycurl.TIMEOUT, value)``: the option, when it is a timeout, and its value."""
    args = site.node.args
    if len(args) != 2 or any(a.star or a.keyword for a in args):
        return None
    option = option_name(model, args[0].value, site)
    if option in TRANSFER or option in CONNECT:
        return option, args[1].value
    return None


class Handles:
    """The timeout options set on each handle the file makes, memoised on the model."""

    @staticmethod
    def of(model: SemanticModel) -> "Handles":
        return model.derived(Handles, lambda: Handles(model))

    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self.options: Dict[object, Set[str]] = {}  # handle key → options set on it
        self.unknown: Set[object] = set()  # handle keys that may be configured elsewhere
        for site, name in model.iter_calls():
            if name == SETOPT and isinstance(site.node.func, cst.Attribute):
                self._setopt(site)
            else:
                self._passed(site)

    def _setopt(self, site: CallSite) -> None:
        args = site.node.args
        keys = receiver_keys(site.node.func.value, self.model, site.scope, site.order)  # type: ignore[attr-defined]
        option = option_name(self.model, args[0].value, site) if args and not args[0].star and args[0].keyword is None else None
        for key in keys:
            if option is None:
                self.unknown.add(key)
            elif option in _KNOWN:
                self.options.setdefault(key, set()).add(option)

    def _passed(self, site: CallSite) -> None:
        for arg in site.node.args:
            for value in self.model.resolve_all(arg.value, site.scope, site.order):
                if isinstance(value, Instance) and value.of == CURL and value.site is not None:
                    self.unknown.add(object_key(value))

    def set_on(self, site: CallSite) -> Optional[FrozenSet[str]]:
        """The timeout options set on the handle that ``c.perform()`` at ``site`` performs, or
        None when the file does not make that handle or cannot tell every option set on it."""
        func = site.node.func
        if not isinstance(func, cst.Attribute):
            return None
        model = self.model
        handles = [v for v in model.resolve_all(func.value, site.scope, site.order) if isinstance(v, Instance)]
        if not handles or any(h.of != CURL or h.site is None for h in handles):
            return None
        keys = receiver_keys(func.value, model, site.scope, site.order)
        if any(key in self.unknown for key in keys):
            return None
        found: Set[str] = set()
        for key in keys:
            found |= self.options.get(key, set())
        return frozenset(found)


def bounds(options: FrozenSet[str]) -> Tuple[bool, bool]:
    """(the transfer is bounded, the connect is): a total timeout, or stall detection with both
    of its settings, bounds the transfer."""
    transfer = bool(options & TRANSFER) or STALL <= options
    return transfer, transfer or bool(options & CONNECT)
