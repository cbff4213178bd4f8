"""HTTP requests as the retry rules see them: which calls send which method, where their
headers go, and what makes an idempotency key (the header, the generators of fresh values,
resilint's own key helper)."""

from __future__ import annotations

import re
from typing import Dict, Iterator, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.retry_scopes import RetryScope, code_of, normalise
from resilint.lint.nodes import is_none, kwargs_name, last_name, statements_in, string_of
from resilint.lint.semantic import CallSite, FunctionInfo, Scope, SemanticModel
from resilint.lint.traversal import children

UNSAFE = ("POST", "PATCH")
KEY_HEADER = "idempotency-key"
CLIENTS = (
    "requests", "requests.Session", "httpx", "httpx.Client", "httpx.AsyncClient", "aiohttp.ClientSession",
)
# method call → its HTTP method
METHOD_CALLS: Dict[str, str] = {
    f"{client}.{verb}": verb.upper() for client in CLIENTS for verb in ("post", "patch")
}
# calls whose first argument (or ``method=``) is the HTTP method → where ``headers`` is positional
REQUEST_CALLS: Dict[str, Optional[int]] = {
    **{f"{client}.request": None for client in CLIENTS},
    "urllib3.request": 4,
    **{f"urllib3.{pool}.{m}": (4 if m == "request" else 3)
       for pool in ("PoolManager", "ProxyManager", "HTTPConnectionPool", "HTTPSConnectionPool")
       for m in ("request", "urlopen")},
    "http.client.HTTPConnection.request": 3,
    "http.client.HTTPSConnection.request": 3,
}
CLIENT_WORD = re.compile(r"session|client|http", re.I)
RANDOM_KEYS = ("uuid.uuid1", "uuid.uuid4", "secrets.", "random.", "os.urandom", "time.time", "time.monotonic",
                "time.time_ns", "datetime.datetime.now", "datetime.datetime.utcnow", "ulid.", "nanoid.",
                "shortuuid.uuid", "shortuuid.ShortUUID.uuid")
RESILINT_KEYS = ("resilint.runtime.idempotency_key", "resilint.runtime.idempotency.idempotency_key")
# a decorator that makes each call of the function one operation (one key for all its attempts)
OPERATION_DECORATORS = ("resilint.runtime.idempotent_operation", "resilint.runtime.idempotency.idempotent_operation")
IDEMPOTENCY_HEADER_NAMES = ("resilint.runtime.IDEMPOTENCY_HEADER", "resilint.runtime.idempotency.IDEMPOTENCY_HEADER")


def literal_method(call: cst.Call) -> Optional[str]:
    """The HTTP method of ``request("POST", ...)`` / ``request(method="post", ...)``, upper-cased."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "method":
            text = string_of(arg.value)
            return text.upper() if text else None
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        text = string_of(call.args[0].value)
        return text.upper() if text else None
    return None


class RequestFinder:
    """What a file's POST/PATCH calls send: their method, and whether their idempotency key is
    missing, stable, or made anew on every attempt (``uuid4()`` inside the retried code)."""

    def __init__(self, model: SemanticModel) -> None:
        self.model = model

    # --- what the call sends ---------------------------------------------------------------

    def method(self, call: CallSite) -> Optional[Tuple[str, str, Optional[int]]]:
        """(HTTP method, display name, positional index of headers) of a POST/PATCH call."""
        node = call.node
        name = normalise(self.model.call_name(call))
        func = node.func
        if name in METHOD_CALLS:
            return METHOD_CALLS[name], name, None
        if name in REQUEST_CALLS:
            verb = literal_method(node)
            return (verb, name, REQUEST_CALLS[name]) if verb in UNSAFE else None
        if not isinstance(func, cst.Attribute):
            return None
        attr = func.attr.value
        receiver = func.value
        receiver_text = last_name(receiver)
        resolved = self.model.resolve(receiver, call.scope, call.order)
        if resolved is not None and name is not None and not name.startswith(self.model.module_name or "\0"):
            # a known object of another library: only the tables above count, unless the name
            # itself looks like an HTTP client of a project (myapp.http.client.post)
            if not CLIENT_WORD.search(name.rsplit(".", 2)[-2] if name.count(".") else ""):
                return None
        elif resolved is not None:
            return None
        if not receiver_text or not CLIENT_WORD.search(receiver_text):
            return None
        if attr in ("post", "patch"):
            return attr.upper(), f"{code_of(func, 40)}", None
        if attr == "request":
            verb = literal_method(node)
            return (verb, code_of(func, 40), None) if verb in UNSAFE else None
        return None

    def unsafe_requests(self, function: FunctionInfo) -> Iterator[Tuple[CallSite, str, str, str, str]]:
        """The POST/PATCH calls made directly by ``function`` that a retry of the function would
        repeat unsafely: (call, method, display name, "missing" | "unstable" | "forwarded",
        detail); "forwarded" when only the function's own ``**kwargs`` could carry the headers."""
        for call in self.model.calls_in(function.scope):
            sent = self.method(call)
            if sent is None:
                continue
            status, detail = self.key_status(call, None, sent[2], function)
            if status == "unknown" and _forwards_own_kwargs(call, function):
                status = "forwarded"  # the caller's keyword arguments decide: judged where it is called
            if status in ("missing", "unstable", "forwarded"):
                yield call, sent[0], sent[1], status, detail

    # --- the idempotency key -----------------------------------------------------------------

    def key_status(
        self, call: CallSite, scope: Optional[RetryScope], position: Optional[int],
        helper: Optional[FunctionInfo] = None,
    ) -> Tuple[str, str]:
        """("ok" | "missing" | "unstable" | "unknown", detail)."""
        node = call.node
        headers: Optional[cst.BaseExpression] = None
        star = False
        positional = 0
        for arg in node.args:
            if arg.star == "**":
                star = True
            elif arg.star == "*":
                star = True
            elif arg.keyword is not None:
                if arg.keyword.value == "headers":
                    headers = arg.value
            else:
                if position is not None and positional == position:
                    headers = arg.value
                positional += 1
        if headers is None:
            return ("unknown", "") if star else ("missing", "")
        found = self.find_key(headers, call.scope, call.order, call)
        if found is None:
            return "unknown", ""
        if found is False:
            return "missing", ""
        return self.stability(found, call, scope, helper)

    def find_key(self, expr: cst.BaseExpression, scope: Scope, order: int, call: CallSite, depth: int = 0):
        """The key's value expression, False when the headers surely lack it, None if unknown."""
        if depth > 5:
            return None
        if is_none(expr):
            return False
        if isinstance(expr, cst.Dict):
            unknown = False
            for element in expr.elements:
                if isinstance(element, cst.StarredDictElement):
                    inner = self.find_key(element.value, scope, order, call, depth + 1)
                    if inner is None:
                        unknown = True
                    elif inner is not False:
                        return inner
                    continue
                header = self.header_name(element.key, scope, order)
                if header is None:
                    unknown = True
                elif header.lower() == KEY_HEADER:
                    return element.value
            return None if unknown else False
        if isinstance(expr, cst.Call):
            name = self.model.qualified_name(expr.func, scope, order)
            if name == "builtins.dict" and not any(a.star for a in expr.args):
                positional = [a.value for a in expr.args if a.keyword is None]
                results = [self.find_key(p, scope, order, call, depth + 1) for p in positional]
                if any(r not in (None, False) for r in results):
                    return next(r for r in results if r not in (None, False))
                return None if None in results else False
            return None
        if isinstance(expr, cst.Name):
            binding = self.model.lookup(expr.value, scope, order)
            if binding is None or binding.expr is None:
                return None
            # later writes to the same dict in the function: headers["Idempotency-Key"] = key
            mutated = self.mutations(expr.value, call)
            if mutated is not None:
                return mutated
            return self.find_key(binding.expr, binding.scope, binding.order, call, depth + 1)
        return None

    def header_name(self, key: cst.BaseExpression, scope: Scope, order: int) -> Optional[str]:
        text = string_of(key)
        if text is not None:
            return text
        name = self.model.qualified_name(key, scope, order)
        if name in IDEMPOTENCY_HEADER_NAMES:
            return "Idempotency-Key"
        assigned = self.model.assigned_expression(key, scope, order) if isinstance(key, cst.Name) else None
        return string_of(assigned) if assigned is not None else None

    def mutations(self, name: str, call: CallSite):
        """A key written into the dict after it was built: subscript assignment, update, setdefault."""
        for other in self.model.calls_in(call.scope):
            func = other.node.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name:
                if func.attr.value == "update" and other.node.args:
                    found = self.find_key(other.node.args[0].value, other.scope, other.order, other, 4)
                    if found not in (None, False):
                        return found
                    if found is None:
                        return None
                if func.attr.value == "setdefault" and len(other.node.args) >= 2:
                    header = self.header_name(other.node.args[0].value, other.scope, other.order)
                    if header is not None and header.lower() == KEY_HEADER:
                        return other.node.args[1].value
        body = call.scope.node
        for target, value in _subscript_assignments(body, name):
            header = self.header_name(target, call.scope, call.order)
            if header is None:
                return None
            if header.lower() == KEY_HEADER:
                return value
        return None

    def stability(
        self, value: cst.BaseExpression, call: CallSite, scope: Optional[RetryScope], helper: Optional[FunctionInfo]
    ) -> Tuple[str, str]:
        resilint_scope = scope is not None and (scope.library == "resilint" or self.operation_outside(scope))
        generator = self.generator(value, call.scope, call.order, resilint_scope)
        if generator is not None:
            return "unstable", generator  # evaluated by every attempt
        if isinstance(value, cst.Name):
            binding = self.model.lookup(value.value, call.scope, call.order)
            if binding is None or binding.expr is None:
                return "ok", ""
            inside = False
            if helper is not None:
                inside = binding.scope is helper.scope
            elif scope is not None and isinstance(scope.covers, (cst.FunctionDef,)):
                inside = binding.scope is self.model.scope_of.get(scope.covers)
            elif scope is not None and isinstance(scope.covers, (cst.For, cst.While)):
                inside = value.value in _names_assigned_in(scope.covers)
            if inside:
                generator = self.generator(binding.expr, binding.scope, binding.order, resilint_scope)
                if generator is not None:
                    return "unstable", f"`{value.value} = {generator.strip('`')}`"
        return "ok", ""

    def operation_outside(self, scope: RetryScope) -> bool:
        """The retried function is decorated with ``idempotent_operation`` outside (above) the
        retry decorator: resilint's ``idempotency_key()`` in it is one key per call, the same on
        every attempt."""
        function = scope.function
        if scope.kind != "decorator" or function is None or not isinstance(scope.node, cst.Decorator):
            return False
        outer = function.scope.parent or function.scope
        for decorator in function.decorators:
            if decorator is scope.node:
                return False
            name = normalise(self.model.qualified_name(decorator.decorator, outer, 1 << 62))
            if name in OPERATION_DECORATORS:
                return True
        return False

    def generator(self, expr: cst.BaseExpression, scope: Scope, order: int, resilint_scope: bool) -> Optional[str]:
        """The random-key call in ``expr`` (``uuid.uuid4()``), if any."""
        stack: List[cst.CSTNode] = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Call):
                name = normalise(self.model.qualified_name(node.func, scope, order)) or ""
                if name.startswith(RANDOM_KEYS) or (name in RESILINT_KEYS and not resilint_scope):
                    return f"`{code_of(node, 40)}`"
            if isinstance(node, cst.Lambda):
                continue
            stack.extend(children(node))
        return None


def _subscript_assignments(body: cst.CSTNode, name: str) -> Iterator[Tuple[cst.BaseExpression, cst.BaseExpression]]:
    for node in statements_in(body):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                t = target.target
                if (isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and t.value.value == name
                        and len(t.slice) == 1 and isinstance(t.slice[0].slice, cst.Index)):
                    yield t.slice[0].slice.value, node.value


def _names_assigned_in(loop: cst.CSTNode) -> Set[str]:
    names: Set[str] = set()
    for node in statements_in(loop):
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for target in targets:
                if isinstance(target, cst.Name):
                    names.add(target.value)
    return names


def _forwards_own_kwargs(call: CallSite, function: FunctionInfo) -> bool:
    """``session.post(url, **kwargs)`` where ``kwargs`` is the function's own ``**`` parameter
    and nothing else could carry headers."""
    kwargs = kwargs_name(function.node)
    if kwargs is None:
        return False
    unpacked = [a for a in call.node.args if a.star]
    keywords = {a.keyword.value for a in call.node.args if a.keyword is not None}
    return (
        "headers" not in keywords and len(unpacked) == 1 and unpacked[0].star == "**"
        and isinstance(unpacked[0].value, cst.Name) and unpacked[0].value.value == kwargs
    )
