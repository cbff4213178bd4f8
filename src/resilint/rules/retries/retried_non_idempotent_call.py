"""RES201 retried-non-idempotent-call."""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Set, Tuple

import libcst as cst

from resilint.libraries.http_requests import (
    CLIENT_WORD,
    IDEMPOTENCY_HEADER_NAMES,
    KEY_HEADER,
    METHOD_CALLS,
    RANDOM_KEYS,
    REQUEST_CALLS,
    RESILINT_KEYS,
    UNSAFE,
    literal_method,
)
from resilint.libraries.retry_scopes import (
    LIBRARY_TRIGGERS,
    RetryScope,
    RetryScopes,
    calls_within,
    code_of,
    describe,
    normalise,
    retry_scopes,
)
from resilint.lint.nodes import is_none, last_name, statements_in, string_of
from resilint.lint.rule import Invalid, Rule, RuleContext
from resilint.lint.semantic import CallSite, FunctionInfo, Scope, SemanticModel
from resilint.lint.traversal import children
from resilint.rules.retries.near_misses import PAGINATION, QUEUE_WORKER


class RetriedNonIdempotentCall(Rule):
    """A POST or PATCH is retried without an idempotency key that survives the retry.

    ## What it does
    Flags POST and PATCH requests (`requests`, `httpx`, `aiohttp`, urllib3 and `http.client`,
    as `.post()`/`.patch()` or `request("POST", ...)`) executed inside a retry scope — a
    tenacity/backoff/stamina/retrying/resilint decorator, a `Retrying` loop, a celery task that
    retries, a hand-written retry loop — directly or through a function of the same file,
    unless they send an `Idempotency-Key` header whose value is created outside the retried
    code. A key generated inside it (`uuid.uuid4()` in the decorated function or loop body)
    changes on every attempt and is flagged too. Headers of unknown content (a parameter,
    `**kwargs`, a dict built elsewhere) are not flagged.

    Also flags urllib3 `Retry(allowed_methods=None)`, `allowed_methods` that include POST or
    PATCH, and the legacy `method_whitelist=False`: urllib3 then retries those requests after
    read errors.

    ## Why is this bad?
    A timeout or a reset connection does not tell the client whether the server acted: often it
    did, and only the response was lost. Repeating a GET is harmless; repeating
    `POST /payments` charges the card again. With 3 attempts, a dependency that commits and then
    times out 5 % of the time creates roughly 5 duplicate orders per 100 when it degrades. An
    `Idempotency-Key` lets the server recognise the repeat and replay its first answer, but only
    if every attempt sends the *same* key: a key minted per attempt protects nothing.

    ## Example
    ```python
    import requests
    from tenacity import retry, stop_after_attempt, wait_random_exponential

    @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=2))
    def charge(order):
        return requests.post(PAYMENTS_URL, json=order.payload(), timeout=5)
    ```

    ## Use instead
    Create the key once per logical operation, outside the retried code, and send it on every
    attempt:
    ```python
    import uuid
    import requests
    from tenacity import retry, stop_after_attempt, wait_random_exponential

    @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=2))
    def _charge(order, key):
        return requests.post(PAYMENTS_URL, json=order.payload(), timeout=5,
                             headers={"Idempotency-Key": key})

    def charge(order):
        return _charge(order, str(uuid.uuid4()))
    ```
    `resilint.runtime.idempotency_key()` returns the same key on every attempt of a
    `resilint.runtime.retry`/`retrying` scope.
    """

    code = "RES201"
    name = "retried-non-idempotent-call"
    message = "non-idempotent request retried without an idempotency key"
    triggers = LIBRARY_TRIGGERS + ("post", "patch", "POST", "PATCH")
    VALID = [
        # key from a parameter: the same on every attempt
        """
        import requests, tenacity
        @tenacity.retry(stop=tenacity.stop_after_attempt(3))
        def charge(payload, key):
            return requests.post("https://pay.example", json=payload, timeout=5,
                                 headers={"Idempotency-Key": key})
        """,
        # key created before the loop
        """
        import time, uuid, requests
        def charge(payload):
            key = str(uuid.uuid4())
            headers = {"Content-Type": "application/json", "idempotency-key": key}
            for attempt in range(3):
                try:
                    return requests.post("https://pay.example", json=payload, headers=headers, timeout=5)
                except requests.ConnectionError:
                    time.sleep(1)
        """,
        # merged headers with a literal key
        """
        import requests, tenacity
        BASE = {"User-Agent": "x"}
        @tenacity.retry(stop=tenacity.stop_after_attempt(3))
        def charge(payload, key):
            return requests.post("https://pay.example", json=payload, timeout=5,
                                 headers={**BASE, "Idempotency-Key": key})
        """,
        # headers of unknown content
        """
        import requests, tenacity
        @tenacity.retry(stop=tenacity.stop_after_attempt(3))
        def send(payload, headers):
            return requests.post("https://a.example", json=payload, headers=headers, timeout=5)
        """,
        # GET and PUT are idempotent
        """
        import requests, tenacity
        @tenacity.retry(stop=tenacity.stop_after_attempt(3))
        def f():
            requests.get("https://a.example", timeout=5)
            requests.put("https://a.example", json={}, timeout=5)
        """,
        # not retried
        """
        import requests
        def f():
            return requests.post("https://a.example", json={}, timeout=5)
        """,
        # a POST in a nested function is not executed by the retried code
        """
        import requests, tenacity
        @tenacity.retry(stop=tenacity.stop_after_attempt(3))
        def f():
            def later():
                return requests.post("https://a.example", timeout=5)
            return later
        """,
        # httpx transport retries only failed connects: safe for POST
        """
        import httpx
        client = httpx.Client(transport=httpx.HTTPTransport(retries=3))
        client.post("https://a.example", json={})
        """,
        # urllib3 Retry with its default allowed methods
        """
        from urllib3.util.retry import Retry
        r = Retry(total=3, allowed_methods=frozenset({"GET", "PUT", "DELETE"}))
        """,
        # resilint's retry keeps the key the same on every attempt
        """
        import requests
        from resilint.runtime import idempotency_key, retry
        @retry(attempts=3)
        def charge(payload):
            return requests.post("https://pay.example", json=payload, timeout=5,
                                 headers={"Idempotency-Key": idempotency_key()})
        """,
        QUEUE_WORKER,
        PAGINATION,
        # failover by index without a pause: the next host, not the same call again
        """
        import requests
        def send(hosts, payload):
            for i in range(len(hosts)):
                try:
                    return requests.post(hosts[i], json=payload, timeout=5)
                except requests.ConnectionError:
                    continue
            raise RuntimeError("all hosts down")
        """,
        """
        import requests
        from tenacity import Retrying, stop_after_attempt, wait_random_exponential
        r = Retrying(stop=stop_after_attempt(3), wait=wait_random_exponential())
        def charge(url, timeouts, key):
            r(requests.post, url, json={}, timeout=timeouts.payments, headers={"Idempotency-Key": key})
            return r(requests.get, url, timeout=timeouts.payments)
        """,
    ]
    INVALID = [
        Invalid(
            """
            import requests
            from tenacity import retry, stop_after_attempt
            @retry(stop=stop_after_attempt(3))
            def charge(payload):
                return requests.post("https://pay.example", json=payload, timeout=5)
            """,
            line=5,
            message="without an `Idempotency-Key` header",
        ),
        Invalid(
            """
            import uuid, requests, tenacity
            @tenacity.retry(stop=tenacity.stop_after_attempt(3))
            def charge(payload):
                key = str(uuid.uuid4())
                return requests.post("https://pay.example", json=payload, timeout=5,
                                     headers={"Idempotency-Key": key})
            """,
            line=5,
            message="changes on every attempt",
        ),
        Invalid(
            """
            import time, uuid, requests
            def charge(session, payload):
                for attempt in range(3):
                    try:
                        return session.request("POST", "https://pay.example", json=payload, timeout=5,
                                               headers={"Idempotency-Key": uuid.uuid4().hex})
                    except ConnectionError:
                        time.sleep(1)
            """,
            line=5,
            message="changes on every attempt",
        ),
        Invalid(
            """
            import backoff, httpx
            @backoff.on_exception(backoff.expo, httpx.TransportError, max_tries=3)
            async def update(client: httpx.AsyncClient, payload):
                async with httpx.AsyncClient() as client:
                    return await client.patch("https://a.example/1", json=payload)
            """,
            line=5,
        ),
        Invalid(
            """
            import requests, tenacity
            def _send(payload):
                return requests.post("https://a.example", json=payload, timeout=5)

            @tenacity.retry(stop=tenacity.stop_after_attempt(3))
            def submit(payload):
                return _send(payload)
            """,
            line=7,
            message="`_send`",
        ),
        Invalid(
            """
            from urllib3.util.retry import Retry
            r = Retry(total=3, allowed_methods=None)
            """,
            message="`allowed_methods=None`",
        ),
        Invalid(
            """
            from requests.adapters import HTTPAdapter
            from urllib3 import Retry
            adapter = HTTPAdapter(max_retries=Retry(3, allowed_methods=Retry.DEFAULT_ALLOWED_METHODS | {"POST"}))
            """,
            message="includes POST",
        ),
        Invalid(
            """
            import urllib3
            pool = urllib3.PoolManager(retries=urllib3.Retry(3, method_whitelist=False))
            """,
        ),
        Invalid(
            """
            import requests
            from celery import shared_task
            @shared_task(autoretry_for=(requests.ConnectionError,), retry_backoff=True)
            def notify(payload):
                headers = {"Content-Type": "application/json"}
                requests.post("https://hooks.example", json=payload, headers=headers, timeout=5)
            """,
            line=6,
        ),
        Invalid(
            """
            import aiohttp, stamina
            @stamina.retry(on=aiohttp.ClientError)
            async def create(payload):
                async with aiohttp.ClientSession() as session:
                    async with session.post("https://a.example", json=payload) as r:
                        return await r.json()
            """,
            line=5,
        ),
        Invalid(
            """
            import requests
            from tenacity import Retrying, stop_after_attempt, wait_random_exponential
            r = Retrying(stop=stop_after_attempt(3), wait=wait_random_exponential())
            def charge(url, timeouts):
                return r(requests.post, url, json={}, timeout=timeouts.payments)
            """,
            line=5,
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        found = retry_scopes(model)
        reported: Set[int] = set()
        for policy in found.policies:
            if policy.unsafe_methods is not None:
                node = policy.unsafe_methods.node or policy.node
                if id(node) not in reported:
                    reported.add(id(node))
                    ctx.report(
                        node,
                        f"{policy.unsafe_methods.detail}: a request the server applied before the "
                        "connection broke is sent again",
                        anchor=node,
                    )
        finder = _Finder(model)
        for scope in found.covering():
            if scope.policy.guards_non_idempotent:
                continue
            for call in calls_within(model, scope):
                if id(call.node) in reported:
                    continue
                problem = finder.problem(call, scope)
                if problem is None:
                    continue
                reported.add(id(call.node))
                ctx.report(call.node.func, problem, anchor=call.node)
        self._passed_callables(ctx, found, finder)

    @staticmethod
    def _passed_callables(ctx: RuleContext, found: "RetryScopes", finder: "_Finder") -> None:
        """``Retrying(...)(requests.post, url, …)``: the library function is what is retried,
        and its arguments, headers included, are the application call's own."""
        sites = {id(call.node): call for call in ctx.model.calls}
        for scope in found.scopes:
            site = sites.get(id(scope.node))
            if scope.kind != "call" or scope.covers is not None or site is None:
                continue
            if scope.policy.guards_non_idempotent or not site.node.args or site.node.args[0].keyword:
                continue
            passed = site.node.args[0].value
            name = normalise(ctx.model.qualified_name(passed, site.scope, site.order))
            verb = METHOD_CALLS.get(name or "")
            if verb is None or finder.key_status(site, None, None)[0] != "missing":
                continue
            ctx.report(passed, _missing_key(name, verb, describe(scope)), anchor=site.node)


def _missing_key(name: str, verb: str, what: str) -> str:
    return (
        f"`{name}` ({verb}) is retried by {what} without an `Idempotency-Key` header: if an "
        "attempt reached the server and only the response was lost, the retry repeats the effect"
    )


class _Finder:
    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self.helper_cache: Dict[int, Optional[Tuple[str, str]]] = {}

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

    def problem(self, call: CallSite, scope: RetryScope, depth: int = 0) -> Optional[str]:
        what = describe(scope)
        sent = self.method(call)
        if sent is not None:
            verb, name, position = sent
            status, detail = self.key_status(call, scope, position)
            if status == "missing":
                return _missing_key(name, verb, what)
            if status == "unstable":
                return (
                    f"`{name}` ({verb}) is retried by {what}, but its `Idempotency-Key` ({detail}) is created "
                    "inside the retried code, so it changes on every attempt and protects nothing: create it "
                    "once, before the retry"
                )
            return None
        # through a function of this file
        target = self.model.resolve(call.node.func, call.scope, call.order)
        if isinstance(target, FunctionInfo) and depth < 3:
            inner = self.helper(target, scope, depth + 1)
            if inner is not None:
                verb_name, why = inner
                return (
                    f"`{target.name}` sends {verb_name} {why} and is retried here by {what}: if an attempt "
                    "reached the server and only the response was lost, the retry repeats the effect"
                )
        return None

    def helper(self, function: FunctionInfo, scope: RetryScope, depth: int) -> Optional[Tuple[str, str]]:
        key = id(function)
        if key in self.helper_cache:
            return self.helper_cache[key]
        self.helper_cache[key] = None  # cycles
        result = None
        for call in self.model.calls:
            if call.scope is not function.scope:
                continue
            sent = self.method(call)
            if sent is not None:
                status, detail = self.key_status(call, None, sent[2], function)
                if status == "missing":
                    result = (f"a {sent[0]} (`{sent[1]}`)", "without an `Idempotency-Key` header")
                elif status == "unstable":
                    result = (f"a {sent[0]} (`{sent[1]}`)", f"with an `Idempotency-Key` created on each call ({detail})")
                if result:
                    break
                continue
            target = self.model.resolve(call.node.func, call.scope, call.order)
            if isinstance(target, FunctionInfo) and depth < 3 and target is not function:
                inner = self.helper(target, scope, depth + 1)
                if inner is not None:
                    result = (f"{inner[0]} through `{target.name}`", inner[1])
                    break
        self.helper_cache[key] = result
        return result

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
        for other in self.model.calls:
            if other.scope is not call.scope:
                continue
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
        resilint_scope = scope is not None and scope.library == "resilint"
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
