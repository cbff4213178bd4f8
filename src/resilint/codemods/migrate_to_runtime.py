"""Migration: simple tenacity and backoff retry decorators → ``resilint.runtime.retry``.

Rewritten only when every option has an exact runtime counterpart:

* tenacity ``@retry(stop=stop_after_attempt(N), wait=wait_random_exponential(multiplier=m,
  max=c), retry=retry_if_exception_type(E), reraise=True)`` → ``@retry(attempts=N, base=m,
  cap=c, retry_on=(E,))``. ``wait_exponential(multiplier=m, max=c)`` maps to the same
  ``base``/``cap``: the ceiling of every pause is the same, the pause becomes a full-jitter draw
  below it (the RES202 fix). ``reraise=True`` is required: without it tenacity raises
  ``RetryError`` when the attempts run out, the runtime re-raises the last error;
* backoff ``@on_exception(backoff.expo, E, max_tries=N, max_value=c[, factor=m])`` with its
  default full jitter → ``@retry(attempts=N, base=m (1 by default), cap=c, retry_on=(E,))``.

Unsafe, always: the runtime adds what it is for — a retry budget per decorated function,
no pause past the caller's deadline, no retry of a POST/PATCH without an idempotency key when
``method=`` says so — and it also retries what it classifies as transient (connect errors,
timeouts, 408/429/5xx responses) besides ``E``.

Left alone (listed with the reason): any other option or argument (``before_sleep``,
``giveup``, ``on_backoff``, ``max_time``, ``jitter``, ``min``/``exp_base``, a ``stop``
combination...), a missing ``stop``/``max_tries`` or ``max``/``max_value`` (no limit or cap to
carry over), values that are not literals or names, policies stored in a variable, stamina
(its waits add a bounded random term rather than drawing below a ceiling) and hand-written
loops (moving their body under ``retrying`` restructures control flow).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from resilint.codemods.arguments import keyword, new_call
from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import RUNTIME, forget, name_node
from resilint.libraries.retry_scopes import Policy, normalise, retry_scopes
from resilint.lint.nodes import keyword_args, number_of, positional_args

Options = List[Tuple[str, cst.BaseExpression]]
_NOT_MIGRATED = {
    "stamina": "stamina adds a bounded random term to its pauses; the runtime draws below a ceiling: no exact counterpart",
    "loop": "a hand-written retry loop: moving its body under `retrying()` restructures control flow; rewrite it by hand",
}


class MigrateToRuntime(ResilintCodemod):
    DESCRIPTION = "Rewrite simple tenacity/backoff retry decorators to resilint.runtime.retry (unsafe)."
    CODES = ("RES202", "RES203")
    APPLICABILITY = "unsafe"

    def visit_Module(self, node: cst.Module) -> None:
        self.model = self.semantic_model(node)
        for scope in retry_scopes(self.model).scopes:
            policy = scope.policy
            reported = [n for n in (policy.node, policy.wait.node, policy.limit_anchor) if n is not None]
            if policy.library not in ("tenacity", "backoff", "stamina", "loop") or not any(self.is_target(n) for n in reported):
                continue
            if policy.library in ("stamina", "loop") or scope.kind != "decorator":
                self.leave_alone(reported[0], _NOT_MIGRATED.get(policy.library, "a retry loop of a library: migrate it by hand"))
                continue
            decorator = scope.node
            if not isinstance(decorator, cst.Decorator) or decorator.decorator is not policy.node or not isinstance(policy.node, cst.Call):
                self.leave_alone(policy.node, "the policy is stored in a variable or applied without a call: migrate it by hand")
                continue
            options, why = (self._tenacity if policy.library == "tenacity" else self._backoff)(policy, policy.node)
            if options is None:
                self.leave_alone(policy.node, why)
                continue
            rewritten = new_call(name_node(self.context, self.model, RUNTIME, "retry"), [keyword(k, v) for k, v in options])
            self.plan(decorator, lambda updated, r=rewritten: updated.with_changes(decorator=r))
            for name in _bare_names(policy.node):
                qualified = normalise(self.model.qualified_name(name, policy.scope, policy.order)) if policy.scope else None
                if qualified in ("tenacity", "backoff"):
                    forget(self.context, qualified, None, name.value)
                elif qualified and qualified.startswith(("tenacity.", "backoff.")):
                    module, obj = qualified.rsplit(".", 1)
                    forget(self.context, module, obj, name.value)

    def _name(self, policy: Policy, expr: cst.BaseExpression) -> Optional[str]:
        return normalise(self.model.qualified_name(expr, policy.scope, policy.order)) if policy.scope else None

    def _tenacity(self, policy: Policy, call: cst.Call) -> Tuple[Optional[Options], str]:
        keywords, star = keyword_args(call)
        if star or positional_args(call) or set(keywords) - {"stop", "wait", "retry", "reraise"}:
            return None, "options with no runtime counterpart (or `**kwargs`)"
        reraise = keywords.get("reraise")
        if reraise is None or not (isinstance(reraise.value, cst.Name) and reraise.value.value == "True"):
            return None, "without `reraise=True` tenacity raises `RetryError` at the end, the runtime the last error"
        options: Options = []
        stop = keywords.get("stop")
        if stop is None or not (isinstance(stop.value, cst.Call) and self._name(policy, stop.value.func) == "tenacity.stop_after_attempt"
                                and len(stop.value.args) == 1 and _literal(stop.value.args[0].value)):
            return None, "no `stop=stop_after_attempt(N)` to carry over"
        options.append(("attempts", stop.value.args[0].value))
        wait = keywords.get("wait")
        name = self._name(policy, wait.value.func) if wait is not None and isinstance(wait.value, cst.Call) else None
        if name not in ("tenacity.wait_random_exponential", "tenacity.wait_exponential"):
            return None, "a wait with no runtime counterpart (the runtime draws below `min(cap, base·2ⁿ)`)"
        wait_args = _keywords_only(wait.value, {"multiplier", "max"})  # type: ignore[union-attr]
        if wait_args is None or "max" not in wait_args:
            return None, "the wait needs literal `multiplier=`/`max=` only (`max` becomes the runtime's `cap`)"
        options.append(("base", wait_args.get("multiplier", cst.Integer("1"))))
        options.append(("cap", wait_args["max"]))
        retry_on = keywords.get("retry")
        if retry_on is None or not (isinstance(retry_on.value, cst.Call)
                                    and self._name(policy, retry_on.value.func) == "tenacity.retry_if_exception_type"
                                    and len(retry_on.value.args) == 1 and not retry_on.value.args[0].keyword):
            return None, "retries every exception (or a predicate): the runtime never retries programming errors"
        options.append(("retry_on", _tuple(retry_on.value.args[0].value)))
        return options, ""

    def _backoff(self, policy: Policy, call: cst.Call) -> Tuple[Optional[Options], str]:
        keywords, star = keyword_args(call)
        positional = positional_args(call)
        if star or len(positional) != 2 or set(keywords) - {"max_tries", "max_value", "factor"}:
            return None, "options with no runtime counterpart (or `**kwargs`)"
        if self._name(policy, call.func) != "backoff.on_exception":
            return None, "`on_predicate` retries on results: no runtime counterpart"
        if self._name(policy, positional[0].value) != "backoff.expo":
            return None, "a wait generator other than `backoff.expo`"
        if "max_tries" not in keywords or "max_value" not in keywords or not all(_literal(a.value) for a in keywords.values()):
            return None, "needs literal `max_tries=` and `max_value=` (the runtime's `attempts` and `cap`)"
        options: Options = [("attempts", keywords["max_tries"].value)]
        options.append(("base", keywords["factor"].value if "factor" in keywords else cst.Integer("1")))
        options.append(("cap", keywords["max_value"].value))
        options.append(("retry_on", _tuple(positional[1].value)))
        return options, ""


def _literal(expr: cst.BaseExpression) -> bool:
    return number_of(expr) is not None or isinstance(expr, (cst.Name, cst.Attribute))


def _keywords_only(call: cst.Call, allowed: set) -> Optional[Dict[str, cst.BaseExpression]]:
    keywords, star = keyword_args(call)
    if star or positional_args(call) or set(keywords) - allowed or not all(_literal(a.value) for a in keywords.values()):
        return None
    return {k: a.value for k, a in keywords.items()}


def _tuple(expr: cst.BaseExpression) -> cst.BaseExpression:
    """``retry_on=`` takes a tuple of exception types."""
    if isinstance(expr, cst.Tuple):
        return expr
    return cst.Tuple([cst.Element(expr, comma=cst.Comma())])


def _bare_names(call: cst.Call) -> List[cst.Name]:
    """The bare names the decorator used (``retry``, ``stop_after_attempt``...), whose imports
    may be left unused by the rewrite."""
    found: List[cst.Name] = []
    stack: List[cst.CSTNode] = [call]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            found.append(node)
        if isinstance(node, cst.Arg) and node.keyword is not None:
            stack.append(node.value)
            continue
        stack.extend(node.children)
    return found
