"""Project functions that sleep what their callers give them (``cancellable_sleep(seconds)``,
a ``self._pause(delay)`` method, a Twisted clock's ``sleep(seconds)`` that fires a Deferred
from ``reactor.callLater(seconds, d.callback)``): a retry loop that waits through one waits
that argument, so its backoff is judged as if it called ``time.sleep`` itself."""

from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.names import LIBRARY_SLEEPERS, SCHEDULING_METHODS, SLEEPS, normalise
from resilint.lint.nodes import call_argument
from resilint.lint.semantic import CallSite, FunctionInfo, SemanticModel

# The parameter a function sleeps: its position among the arguments a caller passes (a
# method's ``self`` not counted) and its name, for callers that pass it by keyword.
Slept = Tuple[int, str]


def slept_parameter(model: SemanticModel, function: FunctionInfo) -> Optional[Slept]:
    """The parameter ``function`` hands unchanged to a library sleep on some path (the other
    path may wait on a cancellation event instead), None when it sleeps none of them."""
    node = function.node
    if not isinstance(node, cst.FunctionDef):
        return None
    names = [param.name.value for param in (*node.params.posonly_params, *node.params.params)]
    first = function.scope.bindings.get(names[0], ()) if names else ()
    # the model binds a method's first parameter to its instance or class: no caller passes it
    bound = 1 if first and (first[0].self_of is not None or first[0].class_of is not None) else 0
    for call in model.calls_in(function.scope):
        argument = _slept_argument(model, call)
        if argument is None or not isinstance(argument.value, cst.Name):
            continue
        name = argument.value.value
        if name in names[bound:] and len(function.scope.bindings.get(name, ())) == 1:
            return names.index(name) - bound, name  # never reassigned: what the caller passed
    return None


def _slept_argument(model: SemanticModel, call: CallSite) -> Optional[cst.Arg]:
    """The delay a library sleep waits: ``time.sleep(seconds)``, ``deferLater(reactor, delay)``,
    or a Twisted ``callLater(delay, d.callback)`` on whatever reactor or clock."""
    name = normalise(model.call_name(call))
    if name in SLEEPS:
        return call_argument(call.node, "seconds", 0) or call_argument(call.node, "delay", 0)
    if name in LIBRARY_SLEEPERS:
        position, keyword = LIBRARY_SLEEPERS[name]
        return call_argument(call.node, keyword, position)
    func = call.node.func
    if isinstance(func, cst.Attribute) and func.attr.value in SCHEDULING_METHODS:
        return call_argument(call.node, "delay", 0)
    return None


def slept_argument(call: cst.Call, slept: Slept) -> Optional[cst.Arg]:
    """The argument of ``call`` that its callee sleeps."""
    position, name = slept
    return call_argument(call, name, position)
