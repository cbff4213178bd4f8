"""RES202: give a library retry policy a random term on top of its wait, in the library's own
terms, so that no wait gets shorter (safe):

* tenacity: ``wait_exponential(multiplier=m, ...)`` → ``wait_exponential(...) + wait_random(0, m)``
  (``m`` is 1 when not given, tenacity's default; the longest wait may exceed ``max`` by at most
  ``m``: tenacity has no cap over a sum); ``wait_fixed(x)`` → ``wait_fixed(x) + wait_random(0, x)``;
  ``wait_incrementing(..., increment=i)`` → ``... + wait_random(0, i)``; no wait at all (or
  ``wait_none()``) → ``wait_random_exponential(multiplier=0.1, max=5)``, the runtime's
  full-jitter schedule (it waited nothing: any wait is at least that);
* backoff: ``jitter=None`` → ``jitter=backoff.random_jitter`` (backoff's own jitter that adds
  0–1 s to each wait; its default, full jitter, would halve the mean wait);
* stamina: ``wait_jitter=0`` removed (stamina's default adds 0–1 s, within ``wait_max``).

Celery's jitter is full jitter (``celery-jitter``, unsafe). tenacity's ``wait_random_exponential``
replaces waits with shorter ones and is never written by this fix.

Left alone (listed): waits built by project functions, ``wait_chain`` and sums of waits,
``wait_fixed`` of an expression that would be evaluated twice, ``wait_incrementing`` without a
literal ``increment``, a ``wait_exponential`` whose multiplier is computed, the retrying library.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from resilint.codemods.arguments import add_argument, keyword, new_call, remove_argument, replace_argument_value
from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import sibling
from resilint.libraries.retry_scopes import WAIT_EXPONENTIAL, WAIT_FIXED, WAIT_NONE, Policy, normalise, retry_scopes
from resilint.lint.nodes import call_argument, number_of

# the runtime's backoff (base 0.1 s, cap 5 s) in tenacity's terms
DEFAULT_MULTIPLIER = "0.1"
DEFAULT_MAX = "5"


class AddJitter(ResilintCodemod):
    DESCRIPTION = "Add jitter on top of tenacity, backoff and stamina retry waits (RES202)."
    CODES = ("RES202",)
    APPLICABILITY = "safe"

    def visit_Module(self, node: cst.Module) -> None:
        self.model = self.semantic_model(node)
        for policy in retry_scopes(self.model).policies:
            wait = policy.wait
            if wait.inherited or wait.kind not in (WAIT_NONE, WAIT_FIXED, WAIT_EXPONENTIAL):
                continue
            target = wait.node if wait.node is not None else policy.node
            if not self.is_target(target):
                continue
            if policy.library == "tenacity":
                self._tenacity(policy, wait.node)
            elif policy.library == "backoff" and isinstance(policy.node, cst.Call) and wait.node is not None:
                jitter = sibling(self.context, self.model, policy.node.func, "backoff", "random_jitter")
                self._replace(policy.node, wait.node, jitter)
            elif policy.library == "stamina" and isinstance(policy.node, cst.Call) and wait.node is not None:
                self._drop(policy.node, wait.node)
            elif policy.library not in ("loop", "urllib3", "celery"):
                self.leave_alone(target, _why_not(policy))

    # --- tenacity ------------------------------------------------------------------------

    def _tenacity(self, policy: Policy, wait: Optional[cst.CSTNode]) -> None:
        if wait is None or (isinstance(wait, cst.Call) and self._name(policy, wait.func) == "tenacity.wait_none"):
            self._add_default_wait(policy, wait)
            return
        if not isinstance(wait, cst.Call):
            self.leave_alone(wait, "the wait is built elsewhere (a variable or a project function): add a random term there")
            return
        name = self._name(policy, wait.func)
        spread: Optional[cst.BaseExpression] = None
        if name == "tenacity.wait_exponential":
            argument = call_argument(wait, "multiplier", 0)
            spread = cst.Integer("1") if argument is None else argument.value if _cheap(argument.value) else None
        elif name == "tenacity.wait_fixed":
            argument = call_argument(wait, "wait", 0)
            spread = argument.value if argument is not None and _cheap(argument.value) else None
        elif name == "tenacity.wait_incrementing":
            argument = call_argument(wait, "increment", 1)
            spread = argument.value if argument is not None and number_of(argument.value) is not None else None
        if spread is None:
            self.leave_alone(wait, "a combined or computed tenacity wait: add a `wait_random(...)` term on top by hand")
            return
        jitter = new_call(
            sibling(self.context, self.model, wait.func, "tenacity", "wait_random"),
            [cst.Arg(cst.Integer("0")), cst.Arg(spread.deep_clone())],
        )
        self.plan(wait, lambda updated: cst.BinaryOperation(updated, cst.Add(), jitter))

    def _add_default_wait(self, policy: Policy, wait: Optional[cst.CSTNode]) -> None:
        decorator = policy.node.decorator if isinstance(policy.node, cst.Decorator) else policy.node
        like = decorator.func if isinstance(decorator, cst.Call) else decorator
        func = sibling(self.context, self.model, like, "tenacity", "wait_random_exponential")  # type: ignore[arg-type]
        value = new_call(func, [keyword("multiplier", cst.Float(DEFAULT_MULTIPLIER)), keyword("max", cst.Integer(DEFAULT_MAX))])
        if wait is not None:
            self.plan(wait, lambda _: value)
        elif isinstance(decorator, cst.Call):
            self.plan(decorator, lambda updated: add_argument(updated, keyword("wait", value)))
        else:  # a bare ``@retry``
            self.plan(decorator, lambda updated: cst.Call(updated, [keyword("wait", value)]))

    def _name(self, policy: Policy, expr: cst.BaseExpression) -> Optional[str]:
        return normalise(self.model.qualified_name(expr, policy.scope, policy.order)) if policy.scope else None

    # --- keyword edits -----------------------------------------------------------------------

    def _drop(self, call: cst.Call, value: cst.CSTNode) -> None:
        arg = _arg_with(call, value)
        if arg is not None:
            self.plan(call, lambda updated: remove_argument(updated, arg))

    def _replace(self, call: cst.CSTNode, value: Optional[cst.CSTNode], new: cst.BaseExpression) -> None:
        arg = _arg_with(call, value) if isinstance(call, cst.Call) else None
        if arg is not None:
            self.plan(call, lambda updated: replace_argument_value(updated, arg, new))


def _arg_with(call: cst.Call, value: Optional[cst.CSTNode]) -> Optional[cst.Arg]:
    return next((a for a in call.args if a.value is value), None)


def _cheap(expr: cst.BaseExpression) -> bool:
    """An expression that may be written twice: a number or a (dotted) name."""
    return number_of(expr) is not None or isinstance(expr, (cst.Name, cst.Attribute))


def _why_not(policy: Policy) -> str:
    return f"a {policy.library} wait that has no exact jittered equivalent"
