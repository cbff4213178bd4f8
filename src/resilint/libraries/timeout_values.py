"""What a timeout argument means: ``TimeoutEvaluator.evaluate`` reads a timeout expression: a number (a literal, a module constant followed by
value, arithmetic of those, ``timedelta(...)``, ``.total_seconds()``), ``None``, infinity, a
``(connect, read)`` tuple, or a split-timeout object (``httpx.Timeout``,
``aiohttp.ClientTimeout``, ``urllib3.Timeout``, botocore ``Config``). Anything else (a
parameter, an attribute, a call we do not model) is unknown and never flagged.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, replace
from typing import Dict, List, Optional, Tuple, Union

import libcst as cst

from resilint.lint.nodes import code_of, is_none, number_of, string_of
from resilint.lint.semantic import Binding, CallSite, ClassInfo, Scope, SemanticModel
from resilint.lint.traversal import iter_nodes

_INFINITY_NAMES = frozenset({"math.inf", "numpy.inf", "cmath.inf"})
# The standard library's "no timeout given" marker: the socket module's default, which is none
# unless ``socket.setdefaulttimeout()`` set one (urllib3 2 refuses it outright).
SOCKET_DEFAULT = "socket._GLOBAL_DEFAULT_TIMEOUT"
_SOCKET_DEFAULT_UNBOUNDED = "socket._GLOBAL_DEFAULT_TIMEOUT (the socket default: no timeout unless `socket.setdefaulttimeout()` set one)"
HTTPX_PHASES = ("connect", "read", "write", "pool")
# The note of a phase given another module's constant, which the project pass reads by value.
CONSTANT_NOTE = "constant:"

_TIMEDELTA_UNITS = (
    ("days", 86400.0), ("seconds", 1.0), ("microseconds", 1e-6), ("milliseconds", 1e-3),
    ("minutes", 60.0), ("hours", 3600.0), ("weeks", 604800.0),
)
_BOTOCORE_DEFAULT = 60.0
HUGE_SECONDS = sys.float_info.max  # a finite number of seconds too large for a float


@dataclass(frozen=True)
class Phase:
    name: str  # "" for one value covering everything; "connect", "read", "total" …
    seconds: Optional[float]  # None: unknown
    unbounded: Optional[str] = None  # why this phase waits forever
    note: str = ""  # where the value came from when not written ("botocore's default")


# Why a phase given ``None`` waits forever (a client for which ``None`` selects its default
# reads the same phase as that default: ``timeout_verdicts``).
NONE_GIVEN = "None (no timeout at all)"


@dataclass(frozen=True)
class TimeoutValue:
    phases: Tuple[Phase, ...]
    literal: bool  # a number written at the call site (a magic number)
    scalar: bool  # one known value for every phase: not split into connect and read
    via: Optional[str] = None  # the module constant it was read from
    # One branch of a choice (``7 if proxies else None``): unbounded on that path only.
    chosen: bool = False

    @property
    def unbounded(self) -> Optional[str]:
        for phase in self.phases:
            if phase.unbounded:
                return phase.unbounded
        return None

    def largest(self) -> Optional[Phase]:
        known = [p for p in self.phases if p.seconds is not None and not p.unbounded]
        return max(known, key=lambda p: p.seconds) if known else None  # type: ignore[arg-type,return-value]


# The libraries' timeout objects, by their canonical names.
TIMEOUT_OBJECTS = frozenset({"aiohttp.ClientTimeout", "httpx.Timeout", "urllib3.Timeout"})


class TimeoutEvaluator:
    def __init__(self, model: SemanticModel, scope: Scope, order: int, site: Optional[CallSite] = None) -> None:
        self.model = model
        self.scope = scope
        self.order = order
        # the call the value is given to: a path that cannot reach it is no path of its value
        self.site = site

    def qualified(self, expr: cst.BaseExpression) -> Optional[str]:
        return self.model.qualified_name(expr, self.scope, self.order)

    def follow(self, expr: cst.BaseExpression) -> Optional[cst.BaseExpression]:
        """A constant's value: the expression assigned to a name bound exactly once in its scope,
        or, for one assigned more than once, the one assignment that reaches the read.

        A name that several assignments may reach (``timeout = None`` under an ``if``, a
        parameter reassigned under one) has no single value, so it is unknown.
        """
        scope, order, hops = self.scope, self.order, 0
        kept = self._instance_constant(expr) or self._class_constant(expr)
        if kept is not None:
            expr, scope, order = kept.expr, kept.scope, kept.order  # type: ignore[assignment]
            hops += 1
        while isinstance(expr, cst.Name) and expr.value not in ("None", "True", "False"):
            binding = self.model.lookup(expr.value, scope, order)
            if binding is None or binding.expr is None or hops > 20:
                return None
            if len(binding.scope.bindings.get(expr.value, ())) != 1:
                # assigned more than once: the one assignment that reaches here, if only one does
                # (``timeout = ClientTimeout(total=15)`` again before a second use)
                reaching = [b for b in self.model.reaching(expr.value, scope, order) if not _overrides_itself(b, expr.value)]
                if len(reaching) != 1 or reaching[0].expr is None:
                    return None
                binding = reaching[0]
            expr, scope, order = binding.expr, binding.scope, binding.order
            hops += 1
        return expr if hops else None

    def _instance_constant(self, expr: cst.BaseExpression) -> Optional[Binding]:
        """For ``self.timeout`` in a method: the one assignment of that attribute in the class
        (``self.timeout = 60`` in ``__init__``), when it assigns a number or a name and the class
        body sets no attribute of that name; or the class body's one number (or constant) for it
        when no method sets it (``HTTP_TIMEOUT = 40``, ``timeout = TIMEOUT``: the value for the
        instances of this class)."""
        function = self.scope.enclosing_function
        binding = function.own_attribute(expr) if function is not None else None
        if binding is None and function is not None and function.owner is not None and isinstance(expr, cst.Attribute) and function.on_self(expr):
            binding = self._set_unless_configured(function.owner.instance_attributes.get(expr.attr.value, []))
        if binding is None and function is not None and function.owner is not None and isinstance(expr, cst.Attribute):
            declared = function.owner.scope.bindings.get(expr.attr.value, [])
            # (not a field declared with its type, ``timeout: int = 30``: configuration fills those in)
            if (len(declared) == 1 and isinstance(declared[0].expr, (cst.Integer, cst.Float, cst.Name)) and declared[0].annotation is None
                    and expr.attr.value not in function.owner.instance_attributes
                    and function.on_self(expr)):
                return declared[0]
        if binding is None or function is None or function.owner is None or expr.attr.value in function.owner.scope.bindings:  # type: ignore[attr-defined]
            return None
        fallback = self._fallback(binding.expr, binding)
        if fallback is not None:
            binding = replace(binding, expr=fallback)
        if isinstance(binding.expr, cst.Call):  # ``self._timeout = aiohttp.ClientTimeout(...)``
            return binding if self.qualified(binding.expr.func) in TIMEOUT_OBJECTS else None
        if isinstance(binding.expr, (cst.IfExp, cst.BooleanOperation)):
            # ``self.timeout = timeout if timeout else None``: a choice, kept for every request
            return binding if any(is_none(node) for node in iter_nodes(binding.expr)) else None
        return binding if isinstance(binding.expr, (cst.Integer, cst.Float, cst.Name, cst.Tuple)) else None

    def _set_unless_configured(self, bindings: List[Binding]) -> Optional[Binding]:
        """Of an attribute set on two paths, ``self.timeout = float(configured)`` where a setting
        is given and ``self.timeout = REQUEST_TIMEOUT`` otherwise (``if configured and
        float(configured):`` / ``else:``): the assignment every configuration without the
        setting gets."""
        if len(bindings) != 2 or any(b.expr is None for b in bindings):
            return None
        reads = [
            {node.value for node in iter_nodes(b.expr) if isinstance(node, cst.Name)} for b in bindings  # type: ignore[arg-type]
        ]
        configured = [
            i for i, names in enumerate(reads)
            if any(self._unset_by_default(cst.Name(name), bindings[i]) for name in names)
        ]
        return bindings[1 - configured[0]] if len(configured) == 1 else None

    def _fallback(self, kept: Optional[cst.BaseExpression], where: Binding) -> Optional[cst.BaseExpression]:
        """The value a kept timeout falls back to when what it is given is unset: ``timeout or
        (5, 60)``, ``float(configured) if configured else REQUEST_TIMEOUT``: what every caller
        that gives none (or every configuration without the key) gets; None otherwise."""
        if isinstance(kept, cst.BooleanOperation) and isinstance(kept.operator, cst.Or) and self._unset_by_default(kept.left, where):
            return kept.right
        if isinstance(kept, cst.IfExp) and self._unset_by_default(kept.test, where) and any(
            isinstance(node, cst.Name) and isinstance(kept.test, cst.Name) and node.value == kept.test.value
            for node in iter_nodes(kept.body)
        ):
            return kept.orelse
        return None

    def _unset_by_default(self, expr: cst.BaseExpression, where: Binding, depth: int = 0) -> bool:
        """``expr`` is a parameter of the function ``where`` is in, defaulting to ``None``, or a
        setting read without a default (``config.get("request_timeout")``), also through the
        name it was assigned to."""
        if _read_without_default(expr):
            return True
        binding = self.model.lookup(expr.value, where.scope, where.order) if isinstance(expr, cst.Name) else None
        if binding is not None and binding.expr is not None and depth < 2:
            return self._unset_by_default(binding.expr, binding, depth + 1)
        param = binding.parameter if binding is not None else None
        node = param.function.node if param is not None else None
        if not isinstance(node, cst.FunctionDef):
            return False
        declared = (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
        return any(p.name.value == param.name and p.default is not None and is_none(p.default) for p in declared)  # type: ignore[union-attr]

    def _class_constant(self, expr: cst.BaseExpression) -> Optional[Binding]:
        """For ``Transfer.DEFAULT_TIMEOUT``, a class of the file named: the one assignment of
        that attribute in the class body."""
        if not isinstance(expr, cst.Attribute):
            return None
        owner = self.model.resolve(expr.value, self.scope, self.order)
        declared = owner.scope.bindings.get(expr.attr.value, []) if isinstance(owner, ClassInfo) else []
        return declared[0] if len(declared) == 1 and declared[0].expr is not None else None

    # --- numbers ---------------------------------------------------------------------------

    def number(self, expr: cst.BaseExpression, at_site: bool, depth: int = 0) -> Optional[Tuple[float, bool]]:
        """(seconds, written as a literal at the call site), or None when it is not a known number."""
        if depth > 10:
            return None
        if isinstance(expr, (cst.Integer, cst.Float)):
            seconds = _literal_seconds(expr)
            return (seconds, at_site) if seconds is not None else None
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
            inner = self.number(expr.expression, at_site, depth + 1)
            if inner is None:
                return None
            sign = -1.0 if isinstance(expr.operator, cst.Minus) else 1.0
            return sign * inner[0], inner[1]
        if isinstance(expr, cst.BinaryOperation):
            return self._arithmetic(expr, at_site, depth)
        if isinstance(expr, cst.Name) and expr.value not in ("None", "True", "False"):
            assigned = self.follow(expr)
            if assigned is None:
                return None
            found = self.number(assigned, False, depth + 1)
            return (found[0], False) if found else None
        if isinstance(expr, cst.Attribute):
            if self.qualified(expr) in _INFINITY_NAMES:
                return math.inf, False
            if expr.attr.value == "seconds" and isinstance(expr.value, cst.Call) and self.qualified(expr.value.func) == "datetime.timedelta":
                # ``timedelta(minutes=5).seconds``: the seconds part of the duration, days left out
                found = self.number(expr.value, at_site, depth + 1)
                return (float(int(found[0]) % 86400), found[1]) if found is not None else None
            assigned = self.follow(expr)  # ``self.timeout`` set once, to a constant
            found = self.number(assigned, False, depth + 1) if assigned is not None else None
            return (found[0], False) if found else None
        if isinstance(expr, cst.Call):
            return self._number_call(expr, at_site, depth)
        return None

    def _arithmetic(self, expr: cst.BinaryOperation, at_site: bool, depth: int) -> Optional[Tuple[float, bool]]:
        left = self.number(expr.left, at_site, depth + 1)
        right = self.number(expr.right, at_site, depth + 1)
        if left is None or right is None:
            return None
        a, b = left[0], right[0]
        op = expr.operator
        try:
            if isinstance(op, cst.Add):
                value = a + b
            elif isinstance(op, cst.Subtract):
                value = a - b
            elif isinstance(op, cst.Multiply):
                value = a * b
            elif isinstance(op, cst.Divide):
                value = a / b
            elif isinstance(op, cst.FloorDivide):
                value = a // b
            else:
                return None
        except (ZeroDivisionError, OverflowError):
            return None
        return value, left[1] and right[1]

    def _number_call(self, call: cst.Call, at_site: bool, depth: int) -> Optional[Tuple[float, bool]]:
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "total_seconds" and not call.args:
            return self.number(func.value, at_site, depth + 1)
        name = self.qualified(func)
        args = call.args
        if any(a.star for a in args):
            return None
        if name in ("builtins.float", "builtins.int") and len(args) == 1:
            text = string_of(args[0].value)
            if text is not None:
                if text.strip().lower().lstrip("+") in ("inf", "infinity"):
                    return math.inf, False
                try:
                    value = float(text)
                except ValueError:
                    return None
                # float("1e400") is infinite, as Python has it; int("9" * 400) is only huge.
                return (_finite(value, text) if name == "builtins.int" else value), at_site
            return self.number(args[0].value, at_site, depth + 1)
        if name == "datetime.timedelta":
            total, literal = 0.0, at_site
            for index, arg in enumerate(args):
                if arg.keyword is None:
                    if index >= len(_TIMEDELTA_UNITS):
                        return None
                    unit = _TIMEDELTA_UNITS[index][1]
                else:
                    units = dict(_TIMEDELTA_UNITS)
                    if arg.keyword.value not in units:
                        return None
                    unit = units[arg.keyword.value]
                found = self.number(arg.value, at_site, depth + 1)
                if found is None:
                    return None
                total += found[0] * unit
                literal = literal and found[1]
            return total, literal
        return None

    # --- timeout values --------------------------------------------------------------------

    def phase(self, name: str, expr: cst.BaseExpression, at_site: bool) -> Tuple[Phase, bool]:
        """One phase of a split timeout, and whether it is a literal at the call site."""
        if is_none(expr):
            return Phase(name, None, f"{name}=None" if name else "None"), False
        if isinstance(expr, cst.IfExp):  # ``total=t if t > 0 else None``
            for side, holds in ((expr.body, "true"), (expr.orelse, "false")):
                if is_none(side):
                    when = f"when `{code_of(expr.test, limit=40)}` is {holds}"
                    return Phase(name, None, f"{name}=None {when}" if name else f"None {when}"), False
        found = self.number(expr, at_site)
        if found is None:
            if isinstance(expr, (cst.Name, cst.Attribute)) and at_site:
                assigned = self.follow(expr)
                if assigned is not None and is_none(assigned):
                    return Phase(name, None, f"{name}={code_of(expr)}, which is None"), False
            return Phase(name, None, note=self._constant_of(expr)), False
        if math.isinf(found[0]):
            return Phase(name, None, f"{name} is infinite"), False
        return Phase(name, found[0]), found[1]

    def _constant_of(self, expr: cst.BaseExpression) -> str:
        """For a phase given a name the file cannot read (``total=config.EXPORT_TIMEOUT``), the
        note by which the project pass reads it: ``constant:`` and its qualified name."""
        if not isinstance(expr, (cst.Name, cst.Attribute)) or self.follow(expr) is not None:
            return ""
        name = self.qualified(expr)
        return f"{CONSTANT_NOTE}{name}" if name is not None and "." in name and "(" not in name else ""

    def evaluate(self, expr: cst.BaseExpression, at_site: bool = True, depth: int = 0) -> Optional[TimeoutValue]:
        if depth > 10:
            return None
        if is_none(expr):
            return TimeoutValue((Phase("", None, NONE_GIVEN),), literal=False, scalar=False)
        if isinstance(expr, (cst.Name, cst.Attribute)) and self.qualified(expr) == SOCKET_DEFAULT:
            return TimeoutValue((Phase("", None, _SOCKET_DEFAULT_UNBOUNDED),), literal=False, scalar=False)
        if isinstance(expr, cst.Name) and expr.value not in ("True", "False"):
            assigned = self.follow(expr)
            if assigned is None:
                return self._none_on_a_path(expr) if depth == 0 else None
            value = self.evaluate(assigned, False, depth + 1)
            if value is None:
                return None
            phases = tuple(
                Phase(p.name, p.seconds, f"{expr.value} is {p.unbounded}", p.note) if p.unbounded else p
                for p in value.phases
            )
            shown = code_of(assigned, limit=None)
            via = f"{expr.value} = {shown}" if len(shown) <= 40 else expr.value
            return TimeoutValue(phases, literal=False, scalar=value.scalar, via=via, chosen=value.chosen)
        if isinstance(expr, cst.Attribute):
            # ``self._timeout``, set once to a timeout object or a tuple: read where it is set
            kept = self._instance_constant(expr) or self._class_constant(expr)
            if kept is not None and isinstance(kept.expr, (cst.Call, cst.Tuple, cst.IfExp, cst.BooleanOperation)):
                return TimeoutEvaluator(self.model, kept.scope, kept.order).evaluate(kept.expr, False, depth + 1)
        if isinstance(expr, (cst.Tuple, cst.List)):
            return self._tuple(expr, at_site)
        if isinstance(expr, cst.IfExp):
            return self._either(expr, at_site, depth)
        if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or):
            return self._or_else(expr, at_site, depth)
        if isinstance(expr, cst.Call):
            name = self.qualified(expr.func)
            if name == "httpx.Timeout":
                return self._httpx(expr, at_site)
            if name == "aiohttp.ClientTimeout":
                return self._aiohttp(expr, at_site)
            if name == "urllib3.Timeout":
                return self._urllib3(expr, at_site)
            if name == "botocore.config.Config":
                return self._botocore(expr, at_site)
        found = self.number(expr, at_site)
        if found is None:
            return None
        if math.isinf(found[0]):
            reason = "float('inf')" if isinstance(expr, cst.Call) else "infinite"
            return TimeoutValue((Phase("", None, reason),), literal=False, scalar=False)
        return TimeoutValue((Phase("", found[0]),), literal=found[1], scalar=True)

    def _none_on_a_path(self, name: cst.Name) -> Optional[TimeoutValue]:
        """A local that an arm of an ``if``/``elif``/``else`` chain sets to ``None``, or that is
        ``None`` before a chain whose arms may all leave it (``timeout = None`` / ``if raw:
        timeout = int(raw)``): on that path it waits forever, as ``int(raw) if raw else None``."""
        reaching = self.model.reaching(name.value, self.scope, self.order)
        if len(reaching) < 2 or reaching[0].scope is not self.scope:
            return None
        nones = [binding for binding in reaching if is_none(binding.expr)]
        if not nones:
            return None
        reason = f"{name.value} is {NONE_GIVEN} on one of the paths that set it"
        return TimeoutValue((Phase("", None, reason),), literal=False, scalar=False, chosen=True)

    def _either(self, expr: cst.IfExp, at_site: bool, depth: int) -> Optional[TimeoutValue]:
        """``7 if proxies else None``: a branch that waits forever makes the value unbounded
        (on that path); two bounded ones, the longer wait (``30 if fast else 60``)."""
        sides = [self.evaluate(expr.body, at_site, depth + 1), self.evaluate(expr.orelse, at_site, depth + 1)]
        for side, holds in zip(sides, ("true", "false")):
            if side is not None and side.unbounded and self._site_excludes(expr.test, holds == "true"):
                continue  # ``None if client is not None`` given only where ``client is None``
            if side is not None and side.unbounded:
                when = f" when `{code_of(expr.test, limit=40)}` is {holds}"
                phases = tuple(replace(p, unbounded=f"{p.unbounded}{when}") if p.unbounded else p for p in side.phases)
                return replace(side, phases=phases, chosen=True)
        known = [side for side in sides if side is not None and side.largest() is not None]
        if len(known) != 2:
            return None
        longest = max(known, key=lambda side: side.largest().seconds)  # type: ignore[union-attr]
        return TimeoutValue(longest.phases, literal=all(side.literal for side in known), scalar=all(side.scalar for side in known))

    def _site_excludes(self, test: cst.BaseExpression, holds: bool) -> bool:
        """Whether the call the value is given to runs only where ``test`` is not ``holds``: a
        test of the same name against ``None`` on the way to it says the opposite
        (``httpx_client if httpx_client is not None else httpx.Client(timeout=t)`` with ``t``
        None only when ``httpx_client is None`` is false)."""
        tested = _none_test(test)
        if tested is None or self.site is None:
            return False
        name, none_when_true = tested
        none_on_path = none_when_true == holds
        for guard, guard_holds in _guards_at(self.site):
            other = _none_test(guard)
            if other is not None and other[0] == name and (other[1] == guard_holds) != none_on_path:
                return True
        return False

    def _or_else(self, expr: cst.BooleanOperation, at_site: bool, depth: int) -> Optional[TimeoutValue]:
        """``args.timeout or None``: the right side where the left is false (``0``, an option
        left unset); a right side that waits forever makes the value unbounded on that path.
        Anything else is the left side's, which this pass does not tell."""
        right = self.evaluate(expr.right, at_site, depth + 1)
        if right is None or not right.unbounded:
            return None
        when = f" when `{code_of(expr.left, limit=40)}` is false"
        phases = tuple(replace(p, unbounded=f"{p.unbounded}{when}") if p.unbounded else p for p in right.phases)
        return replace(right, phases=phases, chosen=True)

    def _tuple(self, expr: cst.BaseExpression, at_site: bool) -> Optional[TimeoutValue]:
        elements = expr.elements  # type: ignore[attr-defined]
        if any(isinstance(e, cst.StarredElement) for e in elements):
            return None
        names = {2: ("connect", "read"), 4: HTTPX_PHASES}.get(len(elements))
        phases, literal = [], False
        for index, element in enumerate(elements):
            name = names[index] if names else f"element {index}"
            phase, lit = self.phase(name, element.value, at_site)
            if phase.unbounded:
                phase = Phase(name, None, f"a tuple whose {name} timeout is None")
            phases.append(phase)
            literal = literal or lit
        return TimeoutValue(tuple(phases), literal=literal, scalar=False)

    def _arguments(
        self, call: cst.Call, positional_names: Tuple[str, ...]
    ) -> Optional[Dict[str, cst.BaseExpression]]:
        given: Dict[str, cst.BaseExpression] = {}
        index = 0
        for arg in call.args:
            if arg.star:
                return None
            if arg.keyword is None:
                if index >= len(positional_names):
                    return None
                given[positional_names[index]] = arg.value
                index += 1
            else:
                given[arg.keyword.value] = arg.value
        return given

    def _phases(self, given: Dict[str, cst.BaseExpression], names: Tuple[str, ...], at_site: bool) -> Tuple[List[Phase], bool]:
        phases, literal = [], False
        for name in names:
            if name in given:
                phase, lit = self.phase(name, given[name], at_site)
                phases.append(phase)
                literal = literal or lit
        return phases, literal

    def _httpx(self, call: cst.Call, at_site: bool) -> Optional[TimeoutValue]:
        # Timeout(timeout=DEFAULT, *, connect=UNSET, read=UNSET, write=UNSET, pool=UNSET)
        given = self._arguments(call, ("timeout",))
        if given is None:
            return None
        explicit, literal = self._phases(given, HTTPX_PHASES, at_site)
        for phase in explicit:
            if phase.unbounded:
                return TimeoutValue((Phase(phase.name, None, f"httpx.Timeout with {phase.name}=None"),), False, False)
        if "timeout" not in given:
            return TimeoutValue(tuple(explicit), literal=literal, scalar=False)
        default, lit = self.phase("", given["timeout"], at_site)
        literal = literal or lit
        missing = [p for p in HTTPX_PHASES if p not in given]
        if default.unbounded and missing:
            reason = f"httpx.Timeout(None), leaving {'/'.join(missing)} unbounded"
            return TimeoutValue((Phase("", None, reason),), False, False)
        phases = explicit + [Phase(p, default.seconds, note=default.note) for p in missing]
        scalar = not explicit and default.seconds is not None
        return TimeoutValue(tuple(phases), literal=literal, scalar=scalar)

    def _aiohttp(self, call: cst.Call, at_site: bool) -> Optional[TimeoutValue]:
        # ClientTimeout(total=None, connect=None, sock_read=None, sock_connect=None, ceil_threshold=5)
        names = ("total", "connect", "sock_read", "sock_connect")
        given = self._arguments(call, names + ("ceil_threshold",))
        if given is None:
            return None
        phases, literal = self._phases(given, names, at_site)
        # aiohttp checks no limit that is 0, as none that is None (``if timeout:``)
        phases = [replace(p, seconds=None, unbounded=f"{p.name}=0") if p.seconds == 0 else p for p in phases]
        by_name = {p.name: p for p in phases}
        total, sock_read = by_name.get("total"), by_name.get("sock_read")
        unset = lambda p: p is None or (p.unbounded is not None and p.seconds is None)  # noqa: E731
        if unset(total) and unset(sock_read):
            if (total is None or total.unbounded) and (sock_read is None or sock_read.unbounded):
                reason = "aiohttp.ClientTimeout with no total and no sock_read"
                if total is not None:
                    shown = total.unbounded if total.unbounded == "total=0" or " when " in str(total.unbounded) else "total=None"
                    reason = f"aiohttp.ClientTimeout({shown}) with no sock_read"
                return TimeoutValue((Phase("total", None, reason),), False, False)
        bounded = [p for p in phases if not p.unbounded]
        scalar = set(by_name) == {"total"} and bounded and bounded[0].seconds is not None
        return TimeoutValue(tuple(bounded), literal=literal, scalar=bool(scalar))

    def _urllib3(self, call: cst.Call, at_site: bool) -> Optional[TimeoutValue]:
        # Timeout(total=None, connect=DEFAULT, read=DEFAULT): DEFAULT is the socket default.
        names = ("total", "connect", "read")
        given = self._arguments(call, names)
        if given is None:
            return None
        phases, literal = self._phases(given, names, at_site)
        by_name = {p.name: p for p in phases}
        total, read = by_name.get("total"), by_name.get("read")
        if (total is None or total.unbounded) and (read is None or read.unbounded):
            why = "read=None" if read is not None else "no read timeout (the socket default: none)"
            return TimeoutValue((Phase("read", None, f"urllib3.Timeout with no total and {why}"),), False, False)
        bounded = [p for p in phases if not p.unbounded]
        scalar = set(by_name) == {"total"} and bounded[0].seconds is not None
        return TimeoutValue(tuple(bounded), literal=literal, scalar=scalar)

    def _botocore(self, call: cst.Call, at_site: bool) -> Optional[TimeoutValue]:
        given = self._arguments(call, ())
        if given is None:
            return None
        names = ("connect_timeout", "read_timeout")
        phases, literal = self._phases(given, names, at_site)
        for name in names:
            if name not in given:
                note = f"{name} is not set, so botocore's default of 60 s applies"
                phases.append(Phase(name, _BOTOCORE_DEFAULT, note=note))
        for phase in phases:
            if phase.unbounded:
                return TimeoutValue((Phase(phase.name, None, f"botocore Config with {phase.name}=None"),), False, False)
        return TimeoutValue(tuple(phases), literal=literal, scalar=False)


# --- connection strings --------------------------------------------------------------------


def dsn_value(
    dsn: cst.BaseExpression, keyword: str, evaluator: TimeoutEvaluator
) -> Tuple[str, Optional[float]]:
    """("absent", None) | ("found", seconds or None if not a number) | ("unknown", None) for a
    string we cannot read (an environment variable, a setting): like ``**kwargs`` of unknown
    content, it may carry the timeout (``postgresql://…?connect_timeout=5``)."""
    text: Optional[str] = None
    expr: Optional[cst.BaseExpression] = dsn
    if isinstance(expr, cst.Name):
        expr = evaluator.follow(expr)
    if expr is not None:
        text = string_of(expr)
        if text is None and isinstance(expr, cst.FormattedString):
            text = "".join(p.value for p in expr.parts if isinstance(p, cst.FormattedStringText))
    if text is None:
        return "unknown", None
    if keyword not in text:
        return "absent", None
    match = re.search(rf"\b{re.escape(keyword)}\s*=\s*'?\s*(-?\d+(?:\.\d+)?)", text)
    return "found", (_finite(float(match.group(1)), match.group(1)) if match else None)


def _literal_seconds(literal: Union[cst.Integer, cst.Float]) -> Optional[float]:
    """The value of a number literal, never an exception: an integer too large for a float
    (``0x`` and 300 digits) or for CPython's int-to-str limit (5,000 decimal digits) is
    ``HUGE_SECONDS``; a float literal that overflows (``1e400``) is infinite, as in Python."""
    if isinstance(literal, cst.Float):
        return float(literal.value.replace("_", ""))
    value = number_of(literal)
    if value is None:  # only a decimal literal beyond the int-to-str limit
        return HUGE_SECONDS
    try:
        return float(value)
    except OverflowError:
        return HUGE_SECONDS


def _finite(value: float, text: str) -> float:
    """A number written out in full that a float cannot hold (``"9" * 400``) is huge, not infinite."""
    if math.isinf(value) and "inf" not in text.lower():
        return math.copysign(HUGE_SECONDS, value)
    return value


def seconds_text(value: float) -> str:
    """Seconds for messages: ``5``, ``3.05``, and no float overflow spelled out."""
    if value >= HUGE_SECONDS:
        return "more than 1e+308"
    if float(value).is_integer() and abs(value) < 1e16:
        return str(int(value))
    return f"{value:g}"


# --- as plain data (the project pass carries values between files) --------------------------


def value_to_data(value: TimeoutValue) -> Dict[str, object]:
    return {
        "phases": [[p.name, p.seconds, p.unbounded, p.note] for p in value.phases],
        "literal": value.literal, "scalar": value.scalar, "via": value.via,
    }


def value_from_data(data: Dict[str, object]) -> Optional[TimeoutValue]:
    try:
        phases = tuple(Phase(str(n), s, u, str(note)) for n, s, u, note in data["phases"])  # type: ignore[union-attr,misc]
        return TimeoutValue(phases, bool(data["literal"]), bool(data["scalar"]), data["via"])  # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError):
        return None


def _read_without_default(expr: cst.BaseExpression) -> bool:
    """``config.get("request_timeout")``, ``os.environ.get("TIMEOUT")``: a key that may be absent."""
    return (
        isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in ("get", "getenv")
        and len(expr.args) == 1 and not expr.args[0].keyword and not expr.args[0].star
    )


def _none_test(test: cst.BaseExpression) -> Optional[Tuple[str, bool]]:
    """``x is None`` → (x, True), ``x is not None`` → (x, False); None for any other test."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and is_none(test.comparisons[0].comparator)):
        return None
    operator = test.comparisons[0].operator
    name = code_of(test.left, limit=None)
    if isinstance(operator, cst.Is):
        return name, True
    if isinstance(operator, cst.IsNot):
        return name, False
    return None


def _guards_at(site: CallSite) -> List[Tuple[cst.BaseExpression, bool]]:
    """The tests the call runs under, each with the value it has there: the ``if`` statements
    around it, and the conditional expressions it is an arm of."""
    found: List[Tuple[cst.BaseExpression, bool]] = []
    for statement in site.stack:
        if isinstance(statement, cst.If):
            inside = any(node is site.node for node in iter_nodes(statement.body))
            found.append((statement.test, inside))
    root = site.stack[-1] if site.stack else None
    for node in iter_nodes(root) if root is not None else ():
        if isinstance(node, cst.IfExp):
            if any(inner is site.node for inner in iter_nodes(node.body)):
                found.append((node.test, True))
            elif any(inner is site.node for inner in iter_nodes(node.orelse)):
                found.append((node.test, False))
    return found


def _overrides_itself(binding: Binding, name: str) -> bool:
    """``timeout = net_config.get("rpc_timeout", timeout)``: a setting that replaces the value the
    name held, which every configuration without the key keeps (judged as that value)."""
    value = binding.expr
    if not (isinstance(value, cst.Call) and len(value.args) == 2 and not any(a.star or a.keyword for a in value.args)):
        return False
    fallback = value.args[1].value
    return (isinstance(value.func, cst.Attribute) and value.func.attr.value == "get"
            and isinstance(fallback, cst.Name) and fallback.value == name)
