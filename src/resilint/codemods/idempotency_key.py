"""RES201: send a retried POST/PATCH with an ``Idempotency-Key`` that stays the same on every
attempt of one operation and changes for the next operation.

* a loop (hand-written, or ``for attempt in Retrying(...)``/``retry_context(...)``): the key is
  created once, above the loop (``post_key = idempotency_key()``), and sent on the request;
  each request of the loop gets its own key;
* a function retried by a decorator (tenacity, backoff, stamina, retrying): the key cannot be
  created inside it (its body runs once per attempt), so ``@idempotent_operation`` is added
  directly above the retry decorator — one operation scope per call, outside the retries — and
  the request sends ``idempotency_key()``, the key of that scope; under resilint's own
  ``retry`` (which opens the scope itself) only the header is added.

The key travels as ``headers={"Idempotency-Key": ...}``, or as a new entry of a literal
``headers`` dict. Unsafe: the request changes (a new header), and only a server that
deduplicates on that header is protected.

Left alone (listed): headers given as a variable or positionally, a key made anew inside the
retried code (``uuid4()`` there: move it by hand), two or more keyless requests in one decorated
function (they would share one key, and a deduplicating server would drop the second), celery
tasks and ``Retrying(...)(fn)`` calls.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from resilint.codemods.arguments import add_argument, keyword
from resilint.codemods.base import ResilintCodemod
from resilint.codemods.imports import RUNTIME, name_node, stdlib_attribute
from resilint.libraries.http_requests import KEY_KEYWORD, URLOPENS, RequestFinder, keyword_keyed
from resilint.libraries.retry_scopes import RetryScope, calls_within, normalise, retry_scopes
from resilint.lint.nodes import is_none, keyword_args, positional_args
from resilint.lint.semantic import CallSite
from resilint.lint.traversal import iter_nodes

HEADER = "Idempotency-Key"
_DECORATED = ("tenacity", "backoff", "stamina", "retrying")


class AddIdempotencyKey(ResilintCodemod):
    DESCRIPTION = "Send retried POST/PATCH requests with an Idempotency-Key that is stable across attempts (RES201)."
    CODES = ("RES201",)
    APPLICABILITY = "unsafe"

    def visit_Module(self, node: cst.Module) -> None:
        self.model = self.semantic_model(node)
        finder = RequestFinder(self.model)
        self.taken: Dict[int, Set[str]] = {}
        # each request is fixed for the outermost retry that repeats it: a key created between
        # two nested retries would change on every attempt of the outer one
        outermost: Dict[int, Tuple[CallSite, RetryScope, Tuple[str, str, Optional[int]]]] = {}
        for scope in retry_scopes(self.model).covering():
            if scope.policy.guards_non_idempotent:
                continue
            for call in calls_within(self.model, scope):
                sent = finder.method(call)
                if sent is None or not self.is_target(call.node.func):
                    continue
                known = outermost.get(id(call.node))
                if known is None or _depth(call, scope) < _depth(call, known[1]):
                    outermost[id(call.node)] = (call, scope, sent)
        keyless: Dict[int, List[Tuple[CallSite, Optional[int]]]] = {}
        scopes: Dict[int, RetryScope] = {}
        for call, scope, sent in outermost.values():
            status, _ = finder.key_status(call, scope, sent[2])
            if status == "unstable":
                self.leave_alone(call.node, "the key is created inside the retried code: create it once, before the retry")
            elif status == "missing":
                keyless.setdefault(id(scope), []).append((call, sent[2]))
                scopes[id(scope)] = scope
        for key, calls in keyless.items():
            self._fix(scopes[key], calls)

    def _fix(self, scope: RetryScope, found: List[Tuple[CallSite, Optional[int]]]) -> None:
        calls = [call for call, _ in found]
        sendable = [call for call, position in found if self._headers_editable(call, position)]
        if isinstance(scope.covers, (cst.For, cst.While)):
            hoisted = []
            for call in sendable:
                function = call.scope.enclosing_function
                variable = self._free(f"{_verb(call)}_key", function.node if function is not None else self.model.module)
                hoisted.append(variable)
                self._send(call, cst.Name(variable))
            if hoisted:
                key = self._new_key()
                with self.serving(*(call.node.func for call in sendable)):
                    self.plan(scope.covers, lambda loop: _hoist(loop, hoisted, key))
            return
        if scope.kind != "decorator" or scope.library not in _DECORATED + ("resilint",) or not isinstance(scope.node, cst.Decorator):
            for call in sendable:
                self.leave_alone(call.node, f"retried by {scope.library} {scope.kind}: open an `idempotency_scope()` around the retry by hand")
            return
        if len(calls) > 1:
            for call in sendable:
                self.leave_alone(call.node, "several requests in one retried function would share one key: give each its own by hand")
            return
        if not sendable:
            return
        if self.fix_target == "native":
            for call in sendable:
                self.leave_alone(call.node, (
                    f"retried by a {scope.library} decorator: a key made once per operation, outside its retries, needs "
                    "resilint-runtime's `idempotent_operation`, which the native fix target does not use; set "
                    "fix-target = \"runtime\", or create the key in the caller and pass it in by hand"
                ))
            return
        make = name_node(self.context, self.model, RUNTIME, "idempotency_key")
        for call in sendable:
            self._send(call, cst.Call(make))
        if scope.library != "resilint":
            operation = name_node(self.context, self.model, RUNTIME, "idempotent_operation")
            with self.serving(*(call.node.func for call in sendable)):
                self.plan(scope.node, lambda decorator: _above(decorator, operation))

    def _new_key(self) -> cst.BaseExpression:
        """A new key: ``idempotency_key()`` for the runtime target, ``str(uuid.uuid4())``
        (the standard library) for the native one."""
        if self.fix_target == "native":
            return cst.Call(cst.Name("str"), [cst.Arg(cst.Call(stdlib_attribute(self.context, self.model, "uuid", "uuid4")))])
        return cst.Call(name_node(self.context, self.model, RUNTIME, "idempotency_key"))

    def _headers_editable(self, call: CallSite, position: Optional[int]) -> bool:
        if normalise(self.model.call_name(call)) in URLOPENS:
            self.leave_alone(call.node, "`urlopen` sends its `Request`'s headers: add the `Idempotency-Key` to that `Request` by hand")
            return False
        keywords, star = keyword_args(call.node)
        if keyword_keyed(normalise(self.model.call_name(call))):
            if star:
                self.leave_alone(call.node, f"the arguments are built elsewhere: add `{KEY_KEYWORD}=` there")
            return not star
        headers = keywords.get("headers")
        if star or (headers is not None and not isinstance(headers.value, cst.Dict) and not is_none(headers.value)):
            self.leave_alone(call.node, "the headers are built elsewhere: add the `Idempotency-Key` there")
            return False
        if headers is None and position is None and len(positional_args(call.node)) > 4:
            # ``session.request(method, url, params, data, headers)``: where headers go positionally
            # is known only for the calls that list it (key_status found none there)
            self.leave_alone(call.node, "headers may be passed positionally: add the `Idempotency-Key` by hand")
            return False
        return True

    def _send(self, call: CallSite, key: cst.BaseExpression) -> None:
        if keyword_keyed(normalise(self.model.call_name(call))):
            with self.serving(call.node.func):
                self.plan(call.node, lambda updated: add_argument(updated, keyword(KEY_KEYWORD, key)))
            return
        headers = keyword_args(call.node)[0].get("headers")
        entry = cst.DictElement(cst.SimpleString(f'"{HEADER}"'), key)
        with self.serving(call.node.func):
            if headers is not None and isinstance(headers.value, cst.Dict):
                self.plan(headers.value, lambda updated: _add_entry(updated, entry))
            else:
                value = cst.Dict([entry])
                if headers is not None:
                    self.plan(headers.value, lambda _: value)
                else:
                    self.plan(call.node, lambda updated: add_argument(updated, keyword("headers", value)))

    def _free(self, base: str, where: cst.CSTNode) -> str:
        """A name nothing in the enclosing function (or module) binds or reads."""
        taken = self.taken.setdefault(id(where), set(self.model.module_scope.bindings) | {
            n.value for n in iter_nodes(where) if isinstance(n, cst.Name)
        })
        name, n = base, 2
        while name in taken:
            name, n = f"{base}_{n}", n + 1
        taken.add(name)
        return name


def _depth(call: CallSite, scope: RetryScope) -> int:
    """How deep the scope's code sits on the call's stack (0: outermost)."""
    return next((i for i, node in enumerate(call.stack) if node is scope.covers), len(call.stack))


def _verb(call: CallSite) -> str:
    func = call.node.func
    attr = func.attr.value if isinstance(func, cst.Attribute) else ""
    return attr if attr in ("post", "patch") else "request"


def _hoist(loop: cst.CSTNode, names: List[str], key: cst.BaseExpression) -> cst.FlattenSentinel:
    assigns = [
        cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(n))], key.deep_clone())]) for n in names
    ]
    # the loop's comment lines stay above the lines that now start it
    assigns[0] = assigns[0].with_changes(leading_lines=loop.leading_lines)  # type: ignore[attr-defined]
    return cst.FlattenSentinel([*assigns, loop.with_changes(leading_lines=[])])


def _above(decorator: cst.Decorator, operation: cst.Name) -> cst.FlattenSentinel:
    return cst.FlattenSentinel([decorator.with_changes(decorator=operation), decorator])


def _add_entry(headers: cst.Dict, entry: cst.DictElement) -> cst.Dict:
    elements = list(headers.elements)
    if not elements:
        return headers.with_changes(elements=[entry])
    last = elements[-1]
    if len(elements) >= 2 and isinstance(elements[-2].comma, cst.Comma):
        between = elements[-2].comma.whitespace_after
    else:
        between = headers.lbrace.whitespace_after
    closing = headers.rbrace.whitespace_before
    if isinstance(between, cst.ParenthesizedWhitespace) and isinstance(closing, cst.ParenthesizedWhitespace):
        # one entry per line: the last entry keeps its comment, the new one goes below it
        comma = last.comma if isinstance(last.comma, cst.Comma) else cst.Comma()
        elements[-1] = last.with_changes(comma=comma.with_changes(whitespace_after=between.with_changes(first_line=closing.first_line, empty_lines=[])))
        elements.append(entry.with_changes(comma=cst.Comma() if isinstance(last.comma, cst.Comma) else cst.MaybeSentinel.DEFAULT))
        rbrace = headers.rbrace.with_changes(whitespace_before=closing.with_changes(first_line=cst.TrailingWhitespace()))
        return headers.with_changes(elements=elements, rbrace=rbrace)
    elements[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    elements.append(entry.with_changes(comma=last.comma))
    return headers.with_changes(elements=elements)
