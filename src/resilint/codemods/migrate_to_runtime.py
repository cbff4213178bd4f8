"""Migration: simple tenacity and backoff retry decorators → ``resilint.runtime.retry``, and
simple hand-written retry loops → ``resilint.runtime.retrying``.

Rewritten only when every option has an exact runtime counterpart:

* tenacity ``@retry(stop=stop_after_attempt(N), wait=wait_random_exponential(multiplier=m,
  max=c), retry=retry_if_exception_type(E), reraise=True)`` → ``@retry(attempts=N, base=m,
  cap=c, retry_on=(E,))``. ``wait_exponential(multiplier=m, max=c)`` maps to the same
  ``base``/``cap``: the ceiling of every pause is the same, the pause becomes a full-jitter draw
  below it (the RES202 fix). ``reraise=True`` is required: without it tenacity raises
  ``RetryError`` when the attempts run out, the runtime re-raises the last error;
* backoff ``@on_exception(backoff.expo, E, max_tries=N, max_value=c[, factor=m])`` with its
  default full jitter → ``@retry(attempts=N, base=m (1 by default), cap=c, retry_on=(E,))``.

* a hand-written loop ``for attempt in range(N)`` (or ``range(0, N)``) whose body is one
  ``try`` ending in ``return`` or ``break``, with one handler of specific exception types that
  re-raises on the last attempt (``if attempt == N - 1: raise``, ``attempt >= N - 1``,
  ``attempt + 1 == N``) and then ``time.sleep`` (``await asyncio.sleep`` in an ``async for``)
  ``min(c, m * 2 ** attempt)``, jittered by ``full_jitter``, by ``+ random.uniform(0, m * 2 **
  attempt)`` (``loop-jitter``'s fix) or not (as for ``wait_exponential``)
  → ``for attempt in retrying(attempts=N, base=m, cap=c, retry_on=(E,)): with attempt: <try
  body>``. Each attempt, each pause's ceiling and the last error are the same; the handler's
  pause after the last attempt, which that re-raise skips, is what the runtime skips too.

Unsafe, always: the runtime adds what it is for — a retry budget per decorated function,
no pause past the caller's deadline, no retry of a POST/PATCH without an idempotency key when
``method=`` says so — and it also retries what it classifies as transient (connect errors,
timeouts, 408/429/5xx responses) besides ``E``.

Left alone (listed with the reason): any other option or argument (``before_sleep``,
``giveup``, ``on_backoff``, ``max_time``, ``jitter``, ``min``/``exp_base``, a ``stop``
combination...), a missing ``stop``/``max_tries`` or ``max``/``max_value`` (no limit or cap to
carry over), values that are not literals or names, policies stored in a variable, stamina
(its waits add a bounded random term rather than drawing below a ceiling); and loops of any
other shape: a ``while`` loop, a ``for ... else``, more than one handler or a catch-all one,
a ``try`` with ``else``/``finally``, other statements in the loop or the handler, the loop
variable used elsewhere, a constant pause or one with no cap, and a handler that does not
re-raise on the last attempt (the loop then pauses once more and falls through to what follows
it — ``raise SomeError``, ``return None`` — where ``retrying`` re-raises the last error).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple, Union

import libcst as cst

from resilint.codemods.arguments import keyword, new_call
from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import RUNTIME, forget, name_node
from resilint.libraries.retry_scopes import LIBRARY_TRIGGERS, ON_ANY, ON_SPECIFIC, Policy, RetryScope, normalise, retry_scopes
from resilint.libraries.retry_scopes.loops import handler_kind
from resilint.libraries.retry_scopes.recogniser import Recogniser
from resilint.libraries.retry_scopes.statements import block, has_continue, small_statements
from resilint.lint.nodes import code_of, keyword_args, number_of, positional_args
from resilint.lint.traversal import iter_nodes

Options = List[Tuple[str, cst.BaseExpression]]
_NOT_MIGRATED = {
    "stamina": "stamina adds a bounded random term to its pauses; the runtime draws below a ceiling: no exact counterpart",
}
# Modules whose imports the removed code may leave unused.
_MODULES = ("tenacity", "backoff", "time", "asyncio", "random", RUNTIME)


class MigrateToRuntime(ResilintCodemod):
    DESCRIPTION = "Rewrite simple tenacity/backoff retry decorators and retry loops to resilint.runtime (unsafe)."
    CODES = ("RES202", "RES203")
    APPLICABILITY = "unsafe"
    TARGETS = ("runtime",)
    # a retry library's decorator, or a loop that sleeps between attempts
    TRIGGERS = LIBRARY_TRIGGERS + ("sleep",)

    def transform_module(self, tree: cst.Module) -> cst.Module:
        updated = super().transform_module(tree)
        # An import dropped from the top (``import time`` above a blank line) leaves that blank
        # line opening the file.
        if updated.body and tree.body and not _opens_blank(tree) and _opens_blank(updated):
            first = updated.body[0]
            kept = list(first.leading_lines)
            while kept and kept[0].comment is None:
                kept.pop(0)
            updated = updated.with_changes(body=[first.with_changes(leading_lines=kept), *updated.body[1:]])
        return updated

    def visit_Module(self, node: cst.Module) -> None:
        self.model = self.semantic_model(node)
        found = retry_scopes(self.model)
        for scope in found.scopes + found.local:
            policy = scope.policy
            reported = [n for n in (policy.node, policy.wait.node, policy.limit_anchor) if n is not None]
            if policy.library not in ("tenacity", "backoff", "stamina", "loop") or not any([self.is_target(n) for n in reported]):
                continue
            with self.serving(*reported):  # one migration fixes every finding of the policy
                self._migrate(scope, policy, reported)

    def _migrate(self, scope: RetryScope, policy: Policy, reported: List[cst.CSTNode]) -> None:
        if policy.library == "loop":
            why = self._loop(scope)
            if why:
                self.leave_alone(reported[0], why)
            return
        if policy.library == "stamina" or scope.kind != "decorator":
            self.leave_alone(reported[0], _NOT_MIGRATED.get(policy.library, "a retry loop of a library: migrate it by hand"))
            return
        decorator = scope.node
        if not isinstance(decorator, cst.Decorator) or decorator.decorator is not policy.node or not isinstance(policy.node, cst.Call):
            self.leave_alone(policy.node, "the policy is stored in a variable or applied without a call: migrate it by hand")
            return
        options, why = (self._tenacity if policy.library == "tenacity" else self._backoff)(policy, policy.node)
        if options is None:
            self.leave_alone(policy.node, why)
            return
        rewritten = new_call(name_node(self.context, self.model, RUNTIME, "retry"), [keyword(k, v) for k, v in options])
        self.plan(decorator, lambda updated, r=rewritten: updated.with_changes(decorator=r))
        self._forget_imports(policy, policy.node)

    def _forget_imports(self, policy: Policy, removed: cst.CSTNode) -> None:
        """Drop the imports only the removed code used (``retry``, ``stop_after_attempt``,
        ``time``, ``full_jitter``...): they are removed only if nothing else uses them."""
        for name in _bare_names(removed):
            qualified = normalise(self.model.qualified_name(name, policy.scope, policy.order)) if policy.scope else None
            if qualified in _MODULES:
                forget(self.context, qualified, None, name.value)
            elif qualified and qualified.startswith(tuple(m + "." for m in _MODULES)):
                module, obj = qualified.rsplit(".", 1)
                forget(self.context, module, obj, name.value)

    def _loop(self, scope: RetryScope) -> str:
        """Plan the rewrite of a hand-written loop to ``retrying``; the reason it is left alone
        otherwise ("" when planned)."""
        policy, loop = scope.policy, scope.policy.node
        if isinstance(loop, cst.While):
            return self._while_loop(scope, loop)
        if not isinstance(loop, cst.For):
            return "only `for attempt in range(N)` and `while` loops with an attempt counter carry their attempt count over exactly"
        iterator = loop.iter
        if not (isinstance(loop.target, cst.Name) and isinstance(iterator, cst.Call) and policy.attempts.node is iterator
                and self._name(policy, iterator.func) == "builtins.range" and not any(a.keyword or a.star for a in iterator.args)
                and (len(iterator.args) == 1 or (len(iterator.args) == 2 and number_of(iterator.args[0].value) == 0))
                and _literal(iterator.args[-1].value)):
            return "only `for attempt in range(N)` (N a literal or a name) carries its attempt count over exactly"
        attempt, attempts = loop.target.value, iterator.args[-1].value
        handler, why = self._one_try(policy, loop)
        if handler is None:
            return why
        pause = block(handler.body)
        if len(pause) == 1:
            return (f"after the last attempt the loop pauses and falls through to what follows it; `retrying` re-raises the "
                    f"last error: add `if {attempt} == {code_of(attempts)} - 1: raise` before the pause to migrate it")
        reraise = pause[0]
        if len(pause) != 2 or not _reraises_last(reraise, attempt, attempts):
            return "the handler does more than re-raise on the last attempt and `time.sleep`/`await asyncio.sleep`"
        call, asynchronous = self._sleep(policy, pause[1])
        if call is None:
            return "the handler does more than re-raise on the last attempt and `time.sleep`/`await asyncio.sleep`"
        delay = self._exponential(policy, call.args[0].value, attempt)
        if delay is None:
            return (f"the pause is not `min(cap, base * 2 ** {attempt})` (or its `full_jitter`): no exact counterpart "
                    "(the runtime draws below `min(cap, base·2ⁿ)`)")
        loop_names = sum(1 for n in iter_nodes(loop) if isinstance(n, cst.Name) and n.value == attempt)
        function = scope.function.node if scope.function is not None else self.model.module
        if loop_names != 1 + _uses(reraise, attempt) + _uses(call, attempt) or _uses(function, attempt) != loop_names:
            return f"the loop variable `{attempt}` is used besides the pause and the last-attempt test"
        base, cap = delay
        options: Options = [("attempts", attempts), ("base", base), ("cap", cap), ("retry_on", _tuple(handler.type))]
        retrying = new_call(name_node(self.context, self.model, RUNTIME, "retrying"), [keyword(k, v) for k, v in options])
        self.plan(loop, lambda updated, r=retrying, a=asynchronous: _under_retrying(updated, r, a))
        self._forget_imports(policy, handler)
        return ""

    def _sleep(self, policy: Policy, statement: cst.BaseStatement) -> Tuple[Optional[cst.Call], bool]:
        """The ``time.sleep(d)`` (``await asyncio.sleep(d)``) call the statement is, and whether it
        is awaited; (None, False) for any other statement."""
        sleep = _awaited(statement)
        asynchronous = isinstance(sleep, cst.Await)
        call = sleep.expression if isinstance(sleep, cst.Await) else sleep
        expected = "asyncio.sleep" if asynchronous else "time.sleep"
        if not isinstance(call, cst.Call) or self._name(policy, call.func) != expected or len(call.args) != 1 or call.args[0].keyword:
            return None, False
        return call, asynchronous

    def _one_try(self, policy: Policy, loop: Union[cst.For, cst.While]) -> Tuple[Optional[cst.ExceptHandler], str]:
        """The loop's one ``try`` handler of specific errors, after a body that ends the loop on
        success; else (None, why not)."""
        if loop.orelse is not None:
            return None, "a `for ... else` (or `while ... else`) runs when the attempts run out; `retrying` re-raises the last error instead"
        body = block(loop.body)
        if len(body) != 1 or not isinstance(body[0], cst.Try):
            return None, "the loop does more than one `try` statement: `retrying` repeats only the body of `with attempt:`"
        attempt_try = body[0]
        if attempt_try.orelse is not None or attempt_try.finalbody is not None:
            return None, "a `try` with `else`/`finally`: it runs on every attempt, `with attempt:` has no counterpart"
        if len(attempt_try.handlers) != 1:
            return None, "more than one `except` handler: each may decide differently whether to retry"
        handler = attempt_try.handlers[0]
        kind = ON_ANY if handler.type is None else handler_kind(Recogniser(self.model), handler, policy.scope, policy.order)  # type: ignore[arg-type]
        if kind == ON_ANY:
            return None, "the handler catches every error (RES205): the runtime never retries programming errors"
        if kind != ON_SPECIFIC:
            return None, "the handler's exception types are not known here: `retry_on=` needs them"
        work = block(attempt_try.body)
        last = small_statements(work[-1])
        if not last or not isinstance(last[-1], (cst.Return, cst.Break)) or has_continue(work):
            return None, "the `try` body does not end in `return`/`break` (or it `continue`s): it goes round after a success, `retrying` stops"
        return handler, ""

    def _while_loop(self, scope: RetryScope, loop: cst.While) -> str:
        """Plan the rewrite of ``counter = 0`` / ``while counter < N:`` (or ``while True:``) /
        ``try: ... except E: counter += 1; if counter >= N: raise; time.sleep(...)``; the
        reason it is left alone otherwise ("" when planned)."""
        policy = scope.policy
        test = loop.test
        counted = _counted_test(test)
        if counted is None and _counts_down(test):
            return (f"the loop counts down (`{code_of(test)}`): only a counter that counts up from 0 to N "
                    "(`while n < N`, or `while True` with `if n >= N: raise`) is migrated")
        if counted is None and not (isinstance(test, cst.Name) and test.value == "True"):
            return (f"the loop's condition `{code_of(test)}` is not `counter < N` or `True`: `retrying` stops only "
                    "when its attempts run out")
        handler, why = self._one_try(policy, loop)
        if handler is None:
            return why
        pause = block(handler.body)
        increment = _increment(pause[0]) if pause else None
        if increment is None:
            return "the handler does not start with `counter += 1`: the attempts are not counted where they fail"
        if counted is not None and counted[0] != increment:
            return f"the loop tests `{counted[0]}` but the handler counts `{increment}`"
        attempts = _reraises_at(pause[1], increment) if len(pause) > 1 else None
        if attempts is None and len(pause) <= 2:
            return (f"the handler does not re-raise when the attempts run out (`if {increment} >= N: raise`): the loop "
                    "then falls through to what follows it, where `retrying` re-raises the last error")
        if attempts is None or len(pause) != 3:
            return "the handler does more than count the attempt, re-raise on the last one and `time.sleep`/`await asyncio.sleep`"
        if counted is not None and code_of(counted[1]) != code_of(attempts):
            return f"the loop runs while `{increment} < {code_of(counted[1])}` but re-raises at {code_of(attempts)}"
        call, asynchronous = self._sleep(policy, pause[2])
        if call is None:
            return "the handler does more than count the attempt, re-raise on the last one and `time.sleep`/`await asyncio.sleep`"
        delay = self._exponential(policy, call.args[0].value, increment)
        if delay is None:
            return (f"the pause is not `min(cap, base * 2 ** {increment})` (or its jittered form): no exact counterpart "
                    "(the runtime draws below `min(cap, base·2ⁿ)`)")
        start = self._counter_start(scope, loop, increment)
        if start is None:
            return f"`{increment} = 0` does not come right before the loop: the attempt count does not start there"
        function = scope.function.node if scope.function is not None else self.model.module
        expected_uses = 1 + (1 if counted is not None else 0) + 1 + _uses(pause[1], increment) + _uses(call, increment)
        if _uses(function, increment) != expected_uses:
            return f"the counter `{increment}` is used besides the loop's test, its count, the last-attempt test and the pause"
        base, cap = delay
        # the pause after the k-th failure is base·2^k here, base·2^(k-1) in the runtime
        given = number_of(base)
        runtime_base: cst.BaseExpression = (
            cst.BinaryOperation(cst.Integer("2"), cst.Multiply(), base) if given is None
            else cst.Integer(str(given * 2)) if isinstance(given, int) else cst.Float(repr(given * 2))
        )
        options: Options = [("attempts", attempts), ("base", runtime_base), ("cap", cap), ("retry_on", _tuple(handler.type))]
        retrying = new_call(name_node(self.context, self.model, RUNTIME, "retrying"), [keyword(k, v) for k, v in options])
        self.plan(start, lambda updated: cst.RemoveFromParent())
        self.plan(loop, lambda updated, r=retrying, a=asynchronous, c=increment: _while_under_retrying(updated, r, a, c))
        self._forget_imports(policy, handler)
        return ""

    def _counter_start(self, scope: RetryScope, loop: cst.While, counter: str) -> Optional[cst.SimpleStatementLine]:
        """The ``counter = 0`` statement right before the loop in its block."""
        holder = scope.function.node if scope.function is not None else self.model.module
        for node in iter_nodes(holder):
            statements = getattr(node, "body", None)
            if isinstance(node, cst.IndentedBlock) or isinstance(node, cst.Module):
                statements = list(node.body)
            else:
                continue
            for index, statement in enumerate(statements):
                if statement is loop and index > 0:
                    before = statements[index - 1]
                    smalls = small_statements(before)
                    if (len(smalls) == 1 and isinstance(smalls[0], cst.Assign) and len(smalls[0].targets) == 1
                            and isinstance(smalls[0].targets[0].target, cst.Name) and smalls[0].targets[0].target.value == counter
                            and number_of(smalls[0].value) == 0):
                        return before  # type: ignore[return-value]
                    return None
        return None

    def _exponential(self, policy: Policy, delay: cst.BaseExpression, attempt: str) -> Optional[Tuple[cst.BaseExpression, cst.BaseExpression]]:
        """(base, cap) of ``min(cap, base * 2 ** attempt)``, also written ``min(base * 2 ** attempt, cap)``,
        ``2 ** attempt * base``, ``2 ** attempt`` (base 1) and wrapped in ``full_jitter``: without
        it the ceiling of every pause is the same, the pause becomes a full-jitter draw below it."""
        if isinstance(delay, cst.Call) and self._name(policy, delay.func) == f"{RUNTIME}.full_jitter" and len(delay.args) == 1:
            delay = delay.args[0].value
        if not (isinstance(delay, cst.Call) and self._name(policy, delay.func) == "builtins.min" and len(delay.args) == 2
                and not any(a.keyword or a.star for a in delay.args)):
            return None
        for growing, cap in ((delay.args[0].value, delay.args[1].value), (delay.args[1].value, delay.args[0].value)):
            base = _base_of(self._without_added_jitter(policy, growing), attempt)
            if base is not None and _literal(cap):
                return base, cap
        return None

    def _without_added_jitter(self, policy: Policy, expr: cst.BaseExpression) -> cst.BaseExpression:
        """``d`` of ``d + random.uniform(0, d)``, the jitter ``loop-jitter`` adds on top (whose
        ceiling the runtime's draw replaces, as it replaces ``full_jitter``); else ``expr``."""
        if not (isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add)):
            return expr
        draw = expr.right
        if (isinstance(draw, cst.Call) and self._name(policy, draw.func) == "random.uniform" and len(draw.args) == 2
                and number_of(draw.args[0].value) == 0 and draw.args[1].value.deep_equals(expr.left)):
            return expr.left
        return expr

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


def _opens_blank(module: cst.Module) -> bool:
    lines = module.body[0].leading_lines
    return not module.header and bool(lines) and lines[0].comment is None


def _base_of(growing: cst.BaseExpression, attempt: str) -> Optional[cst.BaseExpression]:
    """``base`` of ``base * 2 ** attempt`` / ``2 ** attempt * base``; 1 for ``2 ** attempt``."""
    def doubling(expr: cst.BaseExpression) -> bool:
        return (isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Power) and number_of(expr.left) == 2
                and isinstance(expr.right, cst.Name) and expr.right.value == attempt)

    if doubling(growing):
        return cst.Integer("1")
    if isinstance(growing, cst.BinaryOperation) and isinstance(growing.operator, cst.Multiply):
        for factor, power in ((growing.left, growing.right), (growing.right, growing.left)):
            if doubling(power) and _literal(factor):
                return factor
    return None


def _reraises_last(stmt: cst.BaseStatement, attempt: str, attempts: cst.BaseExpression) -> bool:
    """``if attempt == N - 1: raise`` (or ``>=``, or ``attempt + 1 == N``): the last error
    propagates, with no pause after the last attempt, as under ``retrying``."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None:
        return False
    raises = block(stmt.body)
    smalls = small_statements(raises[0]) if len(raises) == 1 else ()
    if len(smalls) != 1 or not isinstance(smalls[0], cst.Raise) or smalls[0].exc is not None:
        return False
    test = stmt.test
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, (cst.Equal, cst.GreaterThanEqual))):
        return False
    left, right, limit = test.left, test.comparisons[0].comparator, code_of(attempts, None)
    if isinstance(left, cst.Name) and left.value == attempt:
        if number_of(attempts) is not None:
            return number_of(right) == number_of(attempts) - 1  # type: ignore[operator]
        return code_of(right, None).replace(" ", "") == f"{limit}-1"
    return code_of(left, None).replace(" ", "") == f"{attempt}+1" and code_of(right, None) == limit


def _counted_test(test: cst.BaseExpression) -> Optional[Tuple[str, cst.BaseExpression]]:
    """(counter, N) of ``counter < N`` with N a literal or a name."""
    if (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.LessThan)
            and isinstance(test.left, cst.Name) and _literal(test.comparisons[0].comparator)):
        return test.left.value, test.comparisons[0].comparator
    return None


def _counts_down(test: cst.BaseExpression) -> bool:
    """``left > 0`` or ``left >= 1``, alone or as a term of an ``and``."""
    if isinstance(test, cst.BooleanOperation):
        return _counts_down(test.left) or _counts_down(test.right)
    return (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name)
            and (isinstance(test.comparisons[0].operator, cst.GreaterThan) and number_of(test.comparisons[0].comparator) == 0
                 or isinstance(test.comparisons[0].operator, cst.GreaterThanEqual) and number_of(test.comparisons[0].comparator) == 1))


def _increment(stmt: cst.BaseStatement) -> Optional[str]:
    """The counter of ``counter += 1``."""
    smalls = small_statements(stmt)
    if (len(smalls) == 1 and isinstance(smalls[0], cst.AugAssign) and isinstance(smalls[0].operator, cst.AddAssign)
            and isinstance(smalls[0].target, cst.Name) and number_of(smalls[0].value) == 1):
        return smalls[0].target.value
    return None


def _reraises_at(stmt: cst.BaseStatement, counter: str) -> Optional[cst.BaseExpression]:
    """N of ``if counter >= N: raise`` (or ``==``), N a literal or a name."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None:
        return None
    body = block(stmt.body)
    smalls = small_statements(body[0]) if len(body) == 1 else []
    if len(smalls) != 1 or not isinstance(smalls[0], cst.Raise) or smalls[0].exc is not None:
        return None
    test = stmt.test
    if (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, (cst.Equal, cst.GreaterThanEqual))
            and isinstance(test.left, cst.Name) and test.left.value == counter and _literal(test.comparisons[0].comparator)):
        return test.comparisons[0].comparator
    return None


def _while_under_retrying(loop: cst.While, retrying: cst.Call, asynchronous: bool, counter: str) -> cst.For:
    """``for counter in retrying(...): with counter: <the try body>``, in the ``while``'s place."""
    attempt_try = block(loop.body)[0]
    assert isinstance(attempt_try, cst.Try)
    guarded = cst.With(items=[cst.WithItem(cst.Name(counter))], body=attempt_try.body, leading_lines=attempt_try.leading_lines)
    return cst.For(
        target=cst.Name(counter), iter=retrying, body=loop.body.with_changes(body=[guarded]),
        leading_lines=loop.leading_lines, asynchronous=cst.Asynchronous() if asynchronous else None,
    )


def _awaited(stmt: cst.BaseStatement) -> Optional[cst.BaseExpression]:
    """The expression of a one-expression statement line (``time.sleep(...)``)."""
    smalls = small_statements(stmt)
    return smalls[0].value if len(smalls) == 1 and isinstance(smalls[0], cst.Expr) else None


def _uses(node: cst.CSTNode, name: str) -> int:
    return sum(1 for n in iter_nodes(node) if isinstance(n, cst.Name) and n.value == name)


def _under_retrying(loop: cst.For, retrying: cst.Call, asynchronous: bool) -> cst.For:
    """``for attempt in retrying(...): with attempt: <the try body>``: comments above the ``try``
    and in its body stay; the handler goes (``retrying`` pauses and re-raises)."""
    attempt_try = block(loop.body)[0]
    assert isinstance(attempt_try, cst.Try)
    guarded = cst.With(
        items=[cst.WithItem(loop.target)], body=attempt_try.body, leading_lines=attempt_try.leading_lines,
    )
    return loop.with_changes(
        iter=retrying, body=loop.body.with_changes(body=[guarded]),
        asynchronous=cst.Asynchronous() if asynchronous else None,
    )


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
