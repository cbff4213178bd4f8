"""Which calls of a function run, given how it was called: the project pass's reading of the
guards the summaries record (``Call.guards``, made by ``libraries/call_guards.py``).

A walk down the call graph (``ProjectGraph.reachable``) carries a *context* per function it
enters: the constants the function's guarded parameters hold on that path, from what the call
passed (``establish_basket(user)`` leaves ``no_delay`` at its default ``False``), from the
context of the caller when the call passes the caller's own parameter on
(``mark_status(fq, "IN_PROGRESS")`` then ``send_webhooks(fq)`` after ``fq.status = status``), or
from module and class constants (``Status.FAILED = 3``). A call whose guard those constants
rule out is not followed. Anything unknown keeps the call: a guard only ever removes a path
when every value the subject may hold fails it.
"""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Protocol, Tuple

from resilint.lint.summary import Call, FunctionSummary, Ref

Constant = Tuple[str, str]  # ("str", "FAILED"), ("int", "3"), ("bool", "True"), ("none", "")
Context = Dict[str, FrozenSet[Constant]]  # a guarded subject → the constants it may hold
_CONSTANT_KINDS = frozenset({"str", "int", "bool", "none"})


class Values(Protocol):
    """What the project's value flow (``lint/value_flow.py``) answers that this needs."""

    def callees(self, call: Call, near: str) -> List[Tuple[FunctionSummary, int]]: ...

    def of(self, name: str, near: str) -> Iterable[Any]: ...


class CallConditions:
    def __init__(self, values: Values) -> None:
        self.values = values
        self._subjects: Dict[int, FrozenSet[str]] = {}

    def subjects(self, function: FunctionSummary) -> FrozenSet[str]:
        """The parameters (and parameters' attributes) the guards of ``function``'s calls test,
        and those it passes on to a callee, at any depth, whose guards test what they become."""
        key = id(function)
        found = self._subjects.get(key)
        if found is not None:
            return found
        tested = {guard[0] for call in function.calls for guard in call.guards}
        self._subjects[key] = frozenset(tested)  # while the callees are asked: a cycle adds nothing
        prefix = function.name + ".("
        for call in function.calls:
            passed_on = [
                (slot, ref[1][len(prefix):-1]) for slot, ref in call.passed
                if ref[0] == "ref" and ref[1].startswith(prefix) and ref[1].endswith(")")
            ]
            if not passed_on:
                continue
            for callee, offset in self.values.callees(call, function.place.path):
                wanted = self.subjects(callee)
                tested.update(
                    parameter for slot, parameter in passed_on
                    if wanted and _parameter_at(callee, slot, offset) in wanted
                )
        found = self._subjects[key] = frozenset(tested)
        return found

    def enter(self, caller: FunctionSummary, call: Call, callee: FunctionSummary, context: Context) -> Context:
        """What ``callee``'s guarded subjects hold when ``caller`` (in ``context``) calls it
        through ``call``."""
        subjects = self.subjects(callee)
        if not subjects:
            return {}
        offset = next((o for f, o in self.values.callees(call, caller.place.path) if f is callee), 0)
        found: Context = {}
        for subject in subjects:
            held = self._passed(caller, call, callee, offset, subject, context)
            if held is not None:
                found[subject] = held
        return found

    def runs(self, call: Call, function: FunctionSummary, context: Context) -> bool:
        """Whether ``call`` may run when ``function`` runs in ``context``."""
        if not call.guards or not context:
            return True
        for subject, test, values in call.guards:
            held = context.get(subject)
            if not held:
                continue
            if test in ("true", "false"):
                if all(_truthy(c) != (test == "true") for c in held):
                    return False
                continue
            compared = self._constants(values, function.place.path, None, None)
            if compared is None or not _comparable(held, compared):
                continue
            if test == "in" and not (held & compared):
                return False
            if test == "not in" and held <= compared:
                return False
        return True

    # --- what a call passes -------------------------------------------------------------------

    def _passed(
        self, caller: FunctionSummary, call: Call, callee: FunctionSummary, offset: int, subject: str,
        context: Context,
    ) -> Optional[FrozenSet[Constant]]:
        parameter, _, attribute = subject.partition(".")
        slots: List[object] = [parameter]
        if parameter in callee.parameters and callee.parameters.index(parameter) - offset >= 0:
            slots.append(callee.parameters.index(parameter) - offset)
        if attribute:
            slots = [f"{slot}.{attribute}" for slot in slots]
        refs = [ref for slot, ref in call.passed if slot in slots]
        if refs:
            return self._constants(refs, caller.place.path, caller, context)
        if attribute or not self._left_out(call, callee, offset, parameter):
            return None
        default = callee.defaults.get(parameter)
        return self._constants([default], callee.place.path, None, None) if default is not None else None

    @staticmethod
    def _left_out(call: Call, callee: FunctionSummary, offset: int, parameter: str) -> bool:
        """The call certainly passes nothing as ``parameter``: it takes its default."""
        args = call.arguments
        if args is None or args.star or args.double_star or parameter in args.keywords:
            return False
        if parameter in callee.parameters:
            return callee.parameters.index(parameter) - offset >= args.positional
        return True  # keyword-only

    def _constants(
        self, refs: Iterable[Ref], near: str, caller: Optional[FunctionSummary], context: Optional[Context],
    ) -> Optional[FrozenSet[Constant]]:
        """The constants ``refs`` stand for, or None when any is not a known constant. A caller's
        parameter (``("ref", "pkg.f.(status)")``) holds what ``context`` says it does."""
        found = set()
        for ref in refs:
            kind = ref[0]
            if kind in _CONSTANT_KINDS:
                found.add((kind, str(ref[1]) if len(ref) > 1 else ""))
                continue
            if kind != "ref":
                return None
            name = ref[1]
            owner, _, last = name.rpartition(".")
            if last.startswith("(") and caller is not None and context is not None and owner == caller.name:
                held = context.get(last[1:-1])
                if held is None:
                    return None
                found.update(held)
                continue
            values = list(self.values.of(name, near))
            if not values or any(h.kind not in _CONSTANT_KINDS for h in values):
                return None
            found.update((h.kind, h.name) for h in values)
        return frozenset(found)


def _parameter_at(callee: FunctionSummary, slot: object, offset: int) -> Optional[str]:
    """The callee's parameter (or parameter's attribute, for "0.status") a call's slot fills."""
    attribute = ""
    if isinstance(slot, str) and "." in slot:
        slot, attribute = slot.split(".", 1)
        slot = int(slot) if slot.isdigit() else slot
    if isinstance(slot, int):
        index = slot + offset
        if not 0 <= index < len(callee.parameters):
            return None
        slot = callee.parameters[index]
    return f"{slot}.{attribute}" if attribute else str(slot)


def _truthy(constant: Constant) -> bool:
    kind, value = constant
    if kind == "bool":
        return value == "True"
    if kind == "int":
        return value != "0"
    if kind == "str":
        return value != ""
    return False  # None


def _comparable(held: FrozenSet[Constant], compared: FrozenSet[Constant]) -> bool:
    """Constants of one kind each side (``True == 1`` in Python: bools and ints are not told
    apart here, so a mix decides nothing)."""
    kinds = {kind for kind, _ in held | compared}
    return not ({"bool", "int"} <= kinds)
