"""RES201 retried-non-idempotent-call."""

from __future__ import annotations

from typing import Optional, Set

from resilint.libraries.http_requests import (
    METHOD_CALLS,
    RequestFinder,
)
from resilint.libraries.retry_scopes import (
    LIBRARY_TRIGGERS,
    RetryScope,
    RetryScopes,
    calls_within,
    describe,
    normalise,
    retry_scopes,
)
from resilint.lint.project import ProjectContext
from resilint.lint.rule import Invalid, RuleContext
from resilint.lint.semantic import CallSite
from resilint.lint.summary import Call
from resilint.rules.project_rule import ProjectRule
from resilint.rules.retries.near_misses import PAGINATION, QUEUE_WORKER


class RetriedNonIdempotentCall(ProjectRule):
    """A POST or PATCH is retried without an idempotency key that survives the retry.

    ## What it does
    Flags POST and PATCH requests (`requests`, `httpx`, `aiohttp`, urllib3 and `http.client`,
    as `.post()`/`.patch()` or `request("POST", ...)`) executed inside a retry scope — a
    tenacity/backoff/stamina/retrying/resilint decorator, a `Retrying` loop, a celery task that
    retries, a hand-written retry loop — directly or through project functions at any depth and in any module,
    unless they send an `Idempotency-Key` header whose value is created outside the retried
    code. A key generated inside it (`uuid.uuid4()` in the decorated function or loop body)
    changes on every attempt and is flagged too; resilint's `idempotency_key()` is stable inside
    resilint's own `retry`/`retrying`, and inside a function whose retry decorator has
    `@resilint.runtime.idempotent_operation` above it (one key per call). Headers of unknown content (a parameter,
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

    from myapp.settings import PAYMENTS_TIMEOUT, PAYMENTS_URL

    @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=2))
    def charge(order):
        return requests.post(PAYMENTS_URL, json=order.payload(), timeout=PAYMENTS_TIMEOUT)
    ```

    ## Use instead
    Create the key once per logical operation, outside the retried code, and send it on every
    attempt:
    ```python
    import uuid
    import requests
    from tenacity import retry, stop_after_attempt, wait_random_exponential

    from myapp.settings import PAYMENTS_TIMEOUT, PAYMENTS_URL

    @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=2))
    def _charge(order, key):
        return requests.post(PAYMENTS_URL, json=order.payload(), timeout=PAYMENTS_TIMEOUT,
                             headers={"Idempotency-Key": key})

    def charge(order):
        return _charge(order, str(uuid.uuid4()))
    ```
    `resilint.runtime.idempotency_key()` returns the same key on every attempt of a
    `resilint.runtime.retry`/`retrying` scope, and of another library's retry decorator when
    `@resilint.runtime.idempotent_operation` is applied outside (above) it.

    ## Fix safety
    **unsafe** (`idempotency-key`): the request changes (it gains a header), and only a server that
    deduplicates on `Idempotency-Key` is protected by it. In a loop (hand-written, or `for
    attempt in Retrying(...)`), `post_key = resilint.runtime.idempotency_key()` is created once
    above the loop and sent as `headers={"Idempotency-Key": post_key}` (or as a new entry of a
    literal `headers` dict); each request of the loop gets its own key. A function retried by a
    tenacity, backoff, stamina or retrying decorator runs its body once per attempt, so the key
    cannot be made there: `@resilint.runtime.idempotent_operation` is added directly above the
    retry decorator (one operation per call, outside the retries) and the request sends
    `idempotency_key()`, the same on every attempt of a call and new on the next call. Under
    resilint's own `retry` only the header is added. Left alone and listed: headers given as a
    variable or positionally, a key made inside the retried code, two or more keyless requests
    in one retried function (they would share a key), celery tasks and `Retrying(...)(fn)`
    calls; `Retry(allowed_methods=...)` findings have no fix.
    """

    code = "RES201"
    fixable = "unsafe"
    name = "retried-non-idempotent-call"
    precision = "medium"  # judges hand-written loops and paths through project functions
    message = "non-idempotent request retried without an idempotency key"
    triggers = LIBRARY_TRIGGERS + ("post", "patch", "POST", "PATCH")
    VALID = [
        # one operation scope per call, outside tenacity's attempts
        """
        import requests, tenacity
        from resilint.runtime import idempotency_key, idempotent_operation
        @idempotent_operation
        @tenacity.retry(stop=tenacity.stop_after_attempt(3))
        def charge(payload):
            return requests.post("https://pay.example", json=payload, timeout=5,
                                 headers={"Idempotency-Key": idempotency_key()})
        """,
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
        # the operation scope inside the retry: opened anew by every attempt
        Invalid(
            """
            import requests, tenacity
            from resilint.runtime import idempotency_key, idempotent_operation
            @tenacity.retry(stop=tenacity.stop_after_attempt(3))
            @idempotent_operation
            def charge(payload):
                return requests.post("https://pay.example", json=payload, timeout=5,
                                     headers={"Idempotency-Key": idempotency_key()})
            """,
            line=6,
            message="changes on every attempt",
        ),
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
        finder = RequestFinder(model)
        for scope in found.covering():
            if scope.policy.guards_non_idempotent:
                continue
            for call in calls_within(model, scope):
                if id(call.node) in reported:
                    continue
                problem = _direct_problem(finder, call, scope)
                if problem is None:
                    continue
                reported.add(id(call.node))
                ctx.report(call.node.func, problem, anchor=call.node)
        self._passed_callables(ctx, found, finder)

    def check_project(self, ctx: ProjectContext) -> None:
        _check_project(ctx)

    @staticmethod
    def _passed_callables(ctx: RuleContext, found: "RetryScopes", finder: RequestFinder) -> None:
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


def _check_project(ctx: ProjectContext) -> None:
    """POSTs any number of calls below a retry, in any module."""
    graph = ctx.graph
    for ref in graph.all_layers():
        layer = ref.layer
        if layer.guards_non_idempotent:
            continue
        for call in graph.covered_calls(ref):
            callee = graph.resolve(call.target, ref.function.place.path)
            if callee is None:
                continue
            for function, path in graph.reachable(callee):
                entry = path[-1] if path else call  # the call into the function that sends
                requests = [r for r in function.requests if r.status != "forwarded" or _passes_no_headers(entry)]
                if not requests:
                    continue
                request = requests[0]
                sent = f"a {request.method} (`{request.name}`)"
                if path:
                    sent += " through " + " -> ".join(f"`{_short(step.target)}`" for step in path)
                why = (
                    f"with an `Idempotency-Key` created on each call ({request.detail})" if request.status == "unstable"
                    else "without an `Idempotency-Key` header"
                )
                related = [
                    (request.place, f"the {request.method} without a stable idempotency key"),
                    (layer.place, f"the retry: {layer.description}"),
                ]
                related.extend((step.place, f"calls `{_short(step.target)}`") for step in path)
                ctx.report(
                    call.place,
                    f"`{_short(callee.name)}` sends {sent} {why} and is retried here by {layer.retrier}: if an "
                    "attempt reached the server and only the response was lost, the retry repeats the effect",
                    related,
                )
                break


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _passes_no_headers(call: Call) -> bool:
    """A call into a function that forwards its ``**kwargs`` to a POST: no headers reach it."""
    args = call.arguments
    return args is not None and "headers" not in args.keywords and not args.double_star


def _direct_problem(finder: RequestFinder, call: CallSite, scope: RetryScope) -> Optional[str]:
    """What is wrong with a POST/PATCH made directly inside the retried code."""
    sent = finder.method(call)
    if sent is None:
        return None
    verb, name, position = sent
    status, detail = finder.key_status(call, scope, position)
    what = describe(scope)
    if status == "missing":
        return _missing_key(name, verb, what)
    if status == "unstable":
        return (
            f"`{name}` ({verb}) is retried by {what}, but its `Idempotency-Key` ({detail}) is created "
            "inside the retried code, so it changes on every attempt and protects nothing: create it "
            "once, before the retry"
        )
    return None


def _missing_key(name: str, verb: str, what: str) -> str:
    return (
        f"`{name}` ({verb}) is retried by {what} without an `Idempotency-Key` header: if an "
        "attempt reached the server and only the response was lost, the retry repeats the effect"
    )
