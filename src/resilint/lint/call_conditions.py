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

from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Protocol, Sequence, Tuple

from resilint.lint.summary import ANY, Call, FunctionSummary, Guard, Ref, subjects_of
from resilint.lint.value_flow import made_at, omits, own_parameter, passed_at, split_last

# ("str", "FAILED"), ("int", "3"), ("bool", "True"), ("none", ""); ("some", "int"): a value of
# that type, unknown but never None (a parameter annotated ``order: int``)
Constant = Tuple[str, str]
Context = Dict[str, FrozenSet[Constant]]  # a guarded subject → the constants it may hold
_CONSTANT_KINDS = frozenset({"str", "int", "bool", "none"})


class Values(Protocol):
    """What the project's value flow (``lint/value_flow.py``) answers that this needs."""

    def callees(self, call: Call, near: str) -> List[Tuple[FunctionSummary, int]]: ...

    def offset(self, call: Call, function: FunctionSummary, near: str) -> Optional[int]: ...

    def of(self, name: str, near: str) -> Iterable[Any]: ...

    def attribute_source(self, lineage: List[str], attribute: str) -> Optional[Tuple[str, Any, Ref]]: ...

    def lineage(self, cls: str) -> List[str]: ...

    def super_chain(self, init: FunctionSummary, target: str, lineage: List[str]) -> Optional[List[Tuple[Any, FunctionSummary]]]: ...

    def attribute_from(self, cls: str, name: str) -> Optional[str]: ...


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
        tested = {subject for call in function.calls for guard in call.guards for subject in subjects_of(guard)}
        self._subjects[key] = frozenset(tested)  # while the callees are asked: a cycle adds nothing
        for call in function.calls:
            owns = ((slot, own_parameter(function.name, ref)) for slot, ref in call.passed)
            passed_on = [(slot, own) for slot, own in owns if own is not None]
            if not passed_on:
                continue
            for callee, offset in self.values.callees(call, function.place.path):
                wanted = self.subjects(callee)
                tested.update(
                    parameter for slot, parameter in passed_on
                    if wanted and _parameter_at(callee, slot, offset) in wanted
                )
        for call in function.calls:
            # ``self._authenticate(request)`` whose guard tests ``self._auth``: the same object's
            # attribute, which this method's callers decide as well
            if call.receiver or not function.parameters or split_last(call.target)[0] != split_last(function.name)[0]:
                continue
            for callee, _ in self.values.callees(call, function.place.path):
                if callee.bound != 1 or not callee.parameters or callee is function:
                    continue
                for wanted in self.subjects(callee):
                    parameter, _, attribute = wanted.partition(".")
                    if attribute and parameter == callee.parameters[0]:
                        tested.add(f"{function.parameters[0]}.{attribute}")
        for call in function.calls:
            # ``FileService(w, get_weather=self.update_weather).process_workout()`` where
            # ``process_workout`` tests ``self.get_weather``: this method's ``self.update_weather``
            for callee, offset in self.values.callees(call, function.place.path) if call.receiver else ():
                for wanted in self.subjects(callee):
                    attribute = _self_attribute(callee, wanted)
                    if attribute and callee.bound == 1:
                        tested.update(self._construction_subjects(function, call, callee, attribute))
        found = self._subjects[key] = frozenset(tested)
        return found

    def enter(self, caller: FunctionSummary, call: Call, callee: FunctionSummary, context: Context) -> Context:
        """What ``callee``'s guarded subjects hold when ``caller`` (in ``context``) calls it
        through ``call``."""
        subjects = self.subjects(callee)
        if not subjects:
            return {}
        offset = self.values.offset(call, callee, caller.place.path) or 0
        found: Context = {}
        for subject in subjects:
            held = self._passed(caller, call, callee, offset, subject, context)
            if held is not None:
                found[subject] = held
        return found

    def running(self, function: FunctionSummary, context: Context) -> List[Call]:
        """The calls of ``function`` that may run in ``context``."""
        return [call for call in function.calls if self.runs(call, function, context)] if context else function.calls

    def runs(self, call: Call, function: FunctionSummary, context: Context) -> bool:
        """Whether ``call`` may run when ``function`` runs in ``context``."""
        if not call.guards or not context:
            return True
        return all(self._possible(guard, function, context) for guard in call.guards)

    def _possible(self, guard: Guard, function: FunctionSummary, context: Context) -> bool:
        """Whether ``guard`` may hold in ``context`` (False: what the subjects hold rules it out)."""
        subject, test, values = guard
        if test == ANY:
            return any(all(self._possible(inner, function, context) for inner in alternative[1:]) for alternative in values)
        held = context.get(subject)
        if not held:
            return True
        if any(kind == "some" for kind, _ in held):
            # only ``is None`` is decided for a value known by its type alone
            return not (test == "in" and self._constants(values, function.place.path, None, None) == {("none", "")})
        if test in ("true", "false"):
            return not all(_truthy(c) != (test == "true") for c in held)
        compared = self._constants(values, function.place.path, None, None)
        if compared is None or not _comparable(held, compared):
            return True
        if test == "in":
            return bool(held & compared)
        return not (test == "not in" and held <= compared)

    def passed(
        self, path: Sequence[Tuple[FunctionSummary, Call]], callee: FunctionSummary, parameter: str,
    ) -> Optional[FrozenSet[Constant]]:
        """The constants the last call of ``path`` may pass as ``parameter`` of ``callee`` (its
        default when it passes nothing there), following the keyword up the path through
        functions that hand their ``**kwargs`` on (``request_json(url)`` → ``self.request(url,
        **kwargs)``); None when it is not known."""
        caller, call = path[-1]
        offset = self.values.offset(call, callee, caller.place.path) or 0
        held = self._passed(caller, call, callee, offset, parameter, {})
        for index in range(len(path) - 1, 0, -1):
            if held is not None:
                return held
            caller, call = path[index]
            handed_on = ("**", ("ref", f"{caller.name}.(**)")) in call.passed
            if not handed_on or parameter in caller.parameters or any(slot == parameter for slot, _ in call.passed):
                return None
            outer, into = path[index - 1]
            refs = [ref for slot, ref in into.passed if slot == parameter]
            if refs:
                return self._constants(refs, outer.place.path, outer, {})
            arguments = into.arguments
            if arguments is None or arguments.double_star or parameter in arguments.keywords:
                continue  # handed on again, or passed as a value the file could not read
            default = callee.defaults.get(parameter)
            return self._constants([default], callee.place.path, None, None) if default is not None else None
        return held

    # --- what a call passes -------------------------------------------------------------------

    def _passed(
        self, caller: FunctionSummary, call: Call, callee: FunctionSummary, offset: int, subject: str,
        context: Context,
    ) -> Optional[FrozenSet[Constant]]:
        parameter, _, attribute = subject.partition(".")
        if attribute and callee.bound == 1 and callee.parameters and callee.parameters[0] == parameter:
            if not call.receiver and split_last(call.target)[0] == split_last(caller.name)[0]:
                # ``self.save()``: the same object, with what the caller set just before
                # (``self.order = order``) or else what it held when the caller was entered
                refs = [ref for slot, ref in call.passed if slot == f"self.{attribute}"]
                return self._constants(refs, caller.place.path, caller, context) if refs else context.get(subject)
            return self._constructed(caller, call, callee, attribute, context)
        slots: List[object] = [parameter]
        if parameter in callee.parameters and callee.parameters.index(parameter) - offset >= 0:
            slots.append(callee.parameters.index(parameter) - offset)
        if attribute:
            slots = [f"{slot}.{attribute}" for slot in slots]
        refs = [ref for slot, ref in call.passed if slot in slots]
        if refs:
            return self._constants(refs, caller.place.path, caller, context)
        if attribute or not omits(call, callee, parameter, offset):
            return None
        default = callee.defaults.get(parameter)
        return self._constants([default], callee.place.path, None, None) if default is not None else None

    def _constructed(
        self, caller: FunctionSummary, call: Call, callee: FunctionSummary, attribute: str, context: Context,
    ) -> Optional[FrozenSet[Constant]]:
        """What ``self.<attribute>`` holds in a method called on an object the caller made
        (``FileService(w, get_weather=False).process_workout()``): what the construction passed
        as the constructor parameter the attribute is set from (``self.get_weather = get_weather``)."""
        found = self._construction(caller, call, callee, attribute)
        if found is None:
            return None
        made, init, offset, parameter = found
        return self._passed(caller, made, init, offset, parameter, context)

    def _construction(
        self, caller: FunctionSummary, call: Call, callee: FunctionSummary, attribute: str,
    ) -> Optional[Tuple[Call, FunctionSummary, int, str]]:
        """The call in ``caller`` that made the object ``call`` is sent to, the constructor it
        runs, and that constructor's parameter ``self.<attribute>`` is set from."""
        made = made_at(caller, call)
        if made is None:
            return None
        for init, offset in self.values.callees(made, caller.place.path):
            lineage = self.values.lineage(split_last(init.name)[0])
            if not init.name.endswith(".__init__") or split_last(callee.name)[0] not in lineage:
                continue
            source = self.values.attribute_source(lineage, attribute)
            if source is None:
                return None
            target = f"{source[0]}.__init__"
            stored = own_parameter(target, source[2])
            if stored is None:
                return None
            parameter = self._through_super(init, target, stored, lineage)
            return (made, init, offset, parameter) if parameter is not None else None
        return None

    def _through_super(self, init: FunctionSummary, target: str, parameter: str, lineage: List[str]) -> Optional[str]:
        """The parameter of ``init`` that reaches ``parameter`` of the constructor ``target`` it
        runs through ``super().__init__(...)`` calls, each passing its own parameter on."""
        chain = self.values.super_chain(init, target, lineage)
        if chain is None:
            return None
        for step, callee in reversed(chain):
            refs = passed_at(step.call, callee, parameter, step.offset)
            own = own_parameter(step.function.name, refs[0]) if len(refs) == 1 else None
            if own is None:
                return None
            parameter = own
        return parameter

    def _construction_subjects(self, function: FunctionSummary, call: Call, callee: FunctionSummary, attribute: str) -> List[str]:
        """The subjects of ``function`` that decide what the construction of ``call``'s object
        passes for ``self.<attribute>``: its own parameter, or its own ``self.<name>``."""
        found = self._construction(function, call, callee, attribute)
        if found is None:
            return []
        made, init, offset, parameter = found
        subjects = (self._own_subject(function, str(ref[1])) for ref in passed_at(made, init, parameter, offset) if ref[0] == "ref")
        return [subject for subject in subjects if subject is not None]

    def _own_subject(self, function: FunctionSummary, name: str) -> Optional[str]:
        """The subject of ``function`` a name it passes stands for: a parameter of its own
        (``pkg.f.(flag)``), or, in a method, an attribute of ``self`` set from a constructor
        parameter (``pkg.Refresh.__init__.(update_weather)`` or ``pkg.Refresh.update_weather``)."""
        own = own_parameter(function.name, ("ref", name))
        if own is not None:
            return own
        owner, _, last = name.rpartition(".")
        cls = split_last(function.name)[0]
        if not function.parameters or not cls:
            return None
        if owner == cls:
            return f"{function.parameters[0]}.{last}"
        if owner == f"{cls}.__init__" and last.startswith("("):
            attribute = self.values.attribute_from(cls, name)
            return f"{function.parameters[0]}.{attribute}" if attribute else None
        return None

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
            own = self._own_subject(caller, name) if caller is not None and context is not None else None
            if own is not None and context is not None and (own in context or "." not in own):
                held = context.get(own)
                if held is None and caller is not None and own in caller.scalars:
                    held = frozenset({("some", caller.scalars[own])})
                if held is None:
                    return None
                found.update(held)
                continue
            values = list(self.values.of(name, near))
            if not values or any(h.kind not in _CONSTANT_KINDS for h in values):
                return None
            found.update((h.kind, h.name) for h in values)
        return frozenset(found)


def _self_attribute(callee: FunctionSummary, subject: str) -> str:
    """``get_weather`` of the subject ``self.get_weather`` of a method."""
    parameter, _, attribute = subject.partition(".")
    return attribute if attribute and callee.parameters and callee.parameters[0] == parameter else ""


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
