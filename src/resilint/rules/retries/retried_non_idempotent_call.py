"""RES201 retried-non-idempotent-call."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.http_requests import (
    CLIENT_CLASSES,
    KEY_HEADER,
    METHOD_CALLS,
    REQUEST_CALLS,
    UNSAFE,
    RequestFinder,
    key_name,
    key_spelling,
)
from resilint.libraries.network_mocks import answered
from resilint.libraries.raised_errors import (
    ANSWERED, REFUSED, SUCCEEDED, file_classes, other_library_errors, quietly_caught, raised_errors,
    raised_on_answer_above, repeats_lost_response,
)
from resilint.libraries.retry_scopes import (
    LIBRARY_TRIGGERS,
    ON_ANY,
    ON_RESULT,
    ON_SPECIFIC,
    RetryScope,
    RetryScopes,
    calls_within,
    describe,
    normalise,
    retry_scopes,
)
from resilint.libraries.retry_scopes.model import Policy
from resilint.libraries.retry_scopes.recursion import repeat_skips
from resilint.libraries.retry_scopes.swallowing import failing_out
from resilint.libraries.self_retrying import GIVES_UP_QUIETLY, retried_exceptions
from resilint.lint.call_conditions import Context
from resilint.lint.project import ProjectContext, ProjectGraph
from resilint.lint.rule import Invalid, RuleContext
from resilint.lint.semantic import CallSite, FunctionInfo, SemanticModel
from resilint.lint.traversal import iter_nodes
from resilint.lint.summary import PER_CALL, Call, FunctionSummary, Layer, ModuleSummary, Place, Ref, Request
from resilint.lint.value_flow import Caller, Held, omits, own_parameter, passed_at, split_last
from resilint.rules.project_rule import ProjectRule
from resilint.rules.retries.near_misses import PAGINATION, QUEUE_WORKER


class RetriedNonIdempotentCall(ProjectRule):
    """A POST or PATCH is retried without an idempotency key that survives the retry.

    ## What it does
    Flags POST and PATCH requests (`requests` and its sessions, requests-oauthlib's
    `OAuth2Session`/`OAuth1Session`, requests-hardened's `Manager.send_request("POST", ...)` and
    sessions, slumber resources' `.post()`/`.patch()`, `httpx`, `aiohttp`, urllib3,
    `http.client` and `urllib.request.urlopen` (a POST when it or its `Request` carries `data`,
    given as `data=` or set as `req.data = ...`, or its `Request` says `method="POST"`; also a
    `Request` a function of the file makes and returns; its key is a header of that `Request`, given as
    `headers=` or with `add_header`), as `.post()`/`.patch()` or `request("POST", ...)` (also a choice written
    out that may be POST, `request("GET" if use_get else "POST", ...)`), also on a client object
    another module makes: `HTTPClient.send_request("POST", url)` with `HTTPClient =
    requests_hardened.Manager(...)` imported), and Stripe's `create` calls
    (`stripe.Charge.create(...)`, `stripe.checkout.Session.create(...)`, and the `create_*`
    methods of nested resources such as `stripe.Transfer.create_reversal(...)`: a POST whose key is
    the `idempotency_key=` keyword, and the fix adds it there; Stripe's own network retries
    reuse one key, a retry around the call does not) executed inside a retry scope — a
    tenacity/backoff/stamina/retrying/resilint decorator, a `Retrying` loop, a celery task that
    retries (also by handing itself to a helper that calls its `retry()`, in an `except` or
    under an `if`: `if not send_webhook(url, data): handle_webhook_retry(self)`), an RQ job enqueued with `retry=Retry(...)`, a hand-written retry loop, a function
    that calls itself again after a failure (also once, at once, behind a flag its test reads:
    `if not retried and r.status_code == 500: return send(url, data, retried=True)`, or
    pyicloud's `kwargs["retried"] = True` before `return self.request(method, url, **kwargs)`),
    a celery task that queues itself again after one
    with a counted argument (`call_webhook.apply_async(args=(url, data, try_count + 1),
    countdown=2 ** try_count)`; one queued again uncounted reschedules work), a
    worker that puts a failed item back on its queue — directly or through project functions at any depth and in any module (a
    function or a lambda handed to a retry helper, `with_retries(lambda: requests.post(...))`,
    a client's own method handed with its keywords, `request_with_retry(session.post, url,
    json=body)` into a helper that calls `func(*args, **kwargs)` again (reported where it is
    handed), or to a method of a bound task's `base=` class, `self.handle_api_call(service.update, data)`,
    included), unless they send an `Idempotency-Key` header whose value is created outside the retried
    code. The method, the headers and the key may come from anywhere the project shows: a
    method passed as a string (`client.request("POST", ...)` into `session.request(method, ...)`,
    `getattr(session, verb.lower())`; `session.post(url)` on a project `requests.Session`
    subclass whose own `request` retries, which `post` runs as `request("POST", url)`, as
    jira's `ResilientSession` does), a dispatch dict entry, headers built by a helper or merged
    (a `dict(...)` or requests' `CaseInsensitiveDict(...)` is read as the mapping it is given)
    from a default dict of another module, a helper that merges the mapping its caller passes
    on top of its own headers (`partner_headers(extra=None)` with `headers.update(extra)`:
    called without one, or with one that lacks the key, it sends none; a mapping made only
    when there is a key, `extra = {"Idempotency-Key": key} if key else None`, sends none when
    the caller leaves `key=None`), a client method that
    merges the headers its caller passes into its own (`merged = self._auth();
    merged.update(headers)`) called with a helper's headers (`headers=idem_headers(key)`: the
    key is the one the caller makes, stable or, made inside the retry, new on each attempt), a wrapper that sends
    the headers its caller passes (`headers = headers or {}`, a cookie added) called with a
    dict written out without the key, the headers an object keeps (`headers=self.headers`: what
    every assignment of the attribute in its class holds, unless a method writes into the
    dict, or what the class's property of that name returns), a key set on the
    session's own headers, a key passed down as a parameter (stable) or made by a caller inside
    the retry (`key=str(uuid4())`, or `key = str(uuid4())` a line before in the retried task
    body, unstable), headers passed on through `**kwargs` (also beside `*args`, which cannot
    carry them when the method takes headers by keyword only: `requests.post(url, *args,
    **kwargs)`). A wrapper whose own loop retries when its
    caller says so (`send("POST", url, retry=True)`), or whose loop retries a POST with the
    headers its caller passes (`post(url, headers=None)` called with none), is reported at that
    call; so is a function whose own retry decorator (`@retried()`, `@tenacity.retry`, from
    any module) repeats a request whose method its callers pass (`request(method, path, *,
    headers=None)` called as `request("POST", ...)`). When the method
    (or the headers, or the key, through `**kwargs`) is handed down through several wrappers
    (`post()` → `request("post", ...)` → a retry loop or decorator around
    `client.request(method, ...)`), it is reported at the call that decides it, also when the
    loop calls a helper that sends it (`_retrying_request(method,
    **kwargs)` looping over `self._request(method, **kwargs)`, whose headers merge the client's
    own, which lack a key, with the `headers` its callers pass through `**kwargs`). A key made
    by the call into such a wrapper is made once for all the wrapper's attempts (stable); a
    key the function makes before its own retry loop is stable for that loop, and new on every
    attempt of a retry around the whole function. A urllib3 pool of another module
    (`index_pool.request("POST", ...)` with `index_pool = urllib3.PoolManager(...)` there) is
    a client like one of the file. A POST in a branch no caller in the project takes is not
    reported: `def send_query(q, method="GET"): if method == "GET": ... else: post(...)` when
    every call of `send_query` leaves `method` at `"GET"` (also when the test reads it in one
    case: `method.lower() == "post"`, or after `method = method.lower()`); nor one behind an
    optional collaborator the object was made without (`RESTAssistant(session)` leaving
    `auth=None`, whose `_authenticate` runs `if self._auth is not None: await
    self._auth.rest_authenticate(request)`, a login POST of one `AuthBase` subclass), also when its headers come from its
    callers' `**kwargs` and the finding would go to them (a function nothing in the project
    calls may be called from outside, and is judged as written); nor one that a retry by
    recursion does not send again, its call of itself leaving the flag of that branch unset
    (`if use_post: post(...)` with `self.get_json(path, _attempt=_attempt + 1)`, `use_post`
    defaulting to `False`). A key
    generated inside it (`uuid.uuid4()` in the decorated function or loop body, or a helper of
    any module that returns a new one, `new_key()`) changes on every attempt and is flagged too; resilint's `idempotency_key()` is stable inside
    resilint's own `retry`/`retrying`, and inside a function whose retry decorator has
    `@resilint.runtime.idempotent_operation` above it (one key per call). Headers the project
    cannot read (a parameter no caller shows, `**kwargs` of unknown content, a dict built by code
    it cannot follow) are not flagged (a local dict written out and only unpacked,
    `session.post(**request_args)`, has the keys it shows; headers unpacked from the tuple a
    helper of the file returns, `params, headers = params_and_headers(params)`, are that
    element of each tuple it returns; also a key held in a local only ever
    assigned strings, `{kwarg: body}` with `kwarg = "params" if get else "data"`: without `headers`, no key, and with
    `headers` written in it and not set again, those headers: `kwargs = {"headers":
    self.headers}`), nor is a POST a hand-written loop makes outside the `try`
    it retries, when that `try` does not read its answer (`reset = session.post(...)`, then
    `try: check(transcribe(...)) except BadAnswer: continue`): if its response is lost, the
    error leaves the loop. A `try` that reads it (`r = session.post(...)`, then `try: r.json()`)
    retries the POST on a failed answer, and is reported. Nor is a POST whose failures end, on
    the way from the retry to it, in a `try` that catches every exception and raises none
    (`except Exception as exc: logger.error(...)` in a function the retried code calls), or
    that become a project error (`except requests.RequestException: raise FailedToSendSMS()`)
    which a function on the way catches and raises nothing for (`except FailedToSendSMS:
    return False, "NOT_SENT"`), or that the sender catches by the client library's class and
    returns (`except requests.RequestException: return {}`), when the retry goes round on errors: a lost response never reaches it (RES204 reads such a path
    the same way), unless a function above raises an error the retry retries on what it gets
    back (`if not response: raise TaxError` under `autoretry_for=(TaxError,)`), which hands the
    lost response to the retry; a retry on a status (`if res["code"] == "500":`) still repeats the POST. Nor
    is an OAuth token request (a form or JSON body with `grant_type`, also set on the body's
    name, `data["grant_type"] = "refresh_token"`, and sent as its JSON text, `json.dumps(data)`;
    a form written as text, `data="grant_type=client_credentials&..."`, also handed to the
    request through project wrappers, by keyword or by position and through their
    `**kwargs`: `post(TOKEN_URL, body)` into `def post(url, data=None, **kw)`): it mints a
    token, and sent again mints another; nor, for the same reason, is a sign-in form (a body
    with a password field, `{"email": username, "password": password}` or `dict(email=...,
    password=...)`, sent by a function or
    to a URL that names a sign-in: `_login_impl`, `/login_int.php`, `auth`, `session`). Nor is a POST made while reading a stream that a loop
    connects to again after it drops (`while live: try: await self.connect()`, `connect`
    reading `session.ws_connect(url)` to its end): the reconnect opens the stream again, and
    what a message made the code send is not sent again. Nor is a POST sent again only after
    the server refused it without acting: a loop (or a function that calls itself again) that
    goes round only on a 429 (or 403, 408, 425, 418) status, also read off the error it catches
    (`except ApiError as e: if e.error_code == 429: sleep(...) else: raise`), or on a 401 (or
    407) after logging in again, or a loop without a `try` whose exits leave it on every status but some 4xx ones
    (`if r.status_code in (200, 204): return`; `if r.status_code != 400 or late: raise`, or a
    chain `if r.status_code == 400: pass` ... `else: raise`: it goes round only on the 400 with
    which the server refused it), a project decorator's layer that retries only other errors than those the
    decorated function turns every failure of the call into (`except Exception as e: raise
    ServiceUnavailable(e)` under a layer that retries `RequestException`: its exceptions must
    be written in the decorator, not passed to it), a layer that retries only errors a client
    raises before it writes anything (`except aiohttp.ClientConnectorError:`,
    `httpx.ConnectError`, `ConnectionRefusedError`, `socket.gaierror`), or a layer that retries only the project's own errors when no code on the way to
    the POST turns its failure into one of them (`except ClientError: raise TryAgain() from
    exc`, also in the `request` of a `requests.Session` subclass that its `post` runs, and
    through the local the error is kept in, `err = exception(...)` with `exception = exception
    or PluginError`; `raise err from error`) and neither the function that sends it nor a helper it calls on the response raises
    one on an answer other than a refusal (`if r.status == 429: raise RateLimited()` is a
    refusal, also from a helper in another module and against a constant named for it,
    `elif r.status_code == RATE_LIMIT_RESPONSE_CODE: raise RateLimitError(r)`, whether the
    POST's method is the function's own or its callers'; `if r.status >= 500: raise
    TryAgain()` is not: a 5xx may come after the server
    acted; one raised after every failed status has left, `if not r.ok: raise ...` or
    `r.raise_for_status()` first, is raised on a success). A lost response then raises the library's own error, which leaves the layer; a POST
    that succeeded and is sent again because a later call failed (a fresh login after a 401)
    repeats no lost attempt. Nor does an outer layer repeat a POST that an inner retry on the
    way retries first, when that retry retries every error the outer one does and, once spent,
    raises a class the outer one does not retry (tenacity's `RetryError` without
    `reraise=True` under a celery task's `autoretry_for=(RequestException,)`): the inner retry
    is reported on its own. Nor does a layer that retries only another client library's errors
    (`except smtplib.SMTPException` around code that also POSTs with aiohttp) repeat a POST
    whose response was lost: that failure raises the sending library's own error, which leaves
    the layer, unless code on the way turns it into one the layer retries. Nor does tenacity's
    `retry_if_exception_type(TryAgain)` where the code raises `TryAgain` only on the state a
    complete answer holds (`if "query_result" not in result: raise TryAgain`, as RES204 reads
    it): a lost response raises another error, which leaves the retry (a `retry_if_result`
    predicate may test a 5xx, which may follow the server's effect, and is judged as a retry).
    A client library's own error raised so (`raise requests.RequestException(...)` on a failed
    job) is no such case: the library raises it when a response is lost too.

    Also flags urllib3 `Retry(allowed_methods=None)` (also a parameter that defaults to None and
    is passed on as it is), `allowed_methods` that include POST or PATCH, and the legacy
    `method_whitelist=False`: urllib3 then retries those requests after read errors. So does
    aiohttp-retry, on 5xx answers, where its options (`ExponentialRetry(...)` and the other
    option classes, or the default `ExponentialRetry()` a `RetryClient()` makes without
    `retry_options=`) give no `methods=`, or `methods` with POST or PATCH in it. Keywords
    unpacked from a dict the function writes out (`Retry(**retry_args)`) are read as if
    written at the call. So does a `Retry` subclass whose `__init__` adds them for the instances made
    without `allowed_methods=` (`kwargs.setdefault("allowed_methods", ...)`, or
    `kwargs["allowed_methods"] = kwargs.get("allowed_methods", ...)`), reported in the class
    wherever its instances are made, and a class of another module made with `allowed_methods`
    naming them and with another keyword of `Retry`'s own (`total=`, `backoff_factor=`...: a
    `Retry` subclass that hands its keywords on; a CORS rule's `allowed_methods` is none). So does a `Retry` whose `allowed_methods` is set after it
    was made to a list with POST or PATCH, written out or added to the set it is made from
    (`methods.add("POST")`, then `adapter.max_retries.allowed_methods = frozenset(methods)`).

    A POST a test double answers is not sent anywhere (the test doubles RES105 lists), also one
    sent through a project object whose client the test or its fixture replaced with a mock
    object (`client._session = mock.MagicMock()`, then `client.request(method="POST", ...)`).
    Nor is one a web framework's test client sends to the application under test (sanic_testing's
    `ReusableClient` and `SanicTestClient`, Starlette's and FastAPI's `TestClient`, Flask's and
    Werkzeug's, Django's and Django REST framework's test clients, aiohttp's `TestClient`).

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
    deduplicates on `Idempotency-Key` is protected by it. Nothing else changes: the retries,
    their waits and what they retry stay. In a loop (hand-written, or `for attempt in
    Retrying(...)`), a key is created once above the loop and sent as
    `headers={"Idempotency-Key": post_key}` (or as a new entry of a literal `headers` dict);
    each request of the loop gets its own key. With the native fix target the key is
    `post_key = str(uuid.uuid4())` (the standard library; `import uuid` added when absent), with
    the runtime target `post_key = resilint.runtime.idempotency_key()`. A function retried by a
    tenacity, backoff, stamina or retrying decorator runs its body once per attempt, so the key
    cannot be made there: with the runtime target, `@resilint.runtime.idempotent_operation` is
    added directly above the retry decorator (one operation per call, outside the retries) and
    the request sends `idempotency_key()`, the same on every attempt of a call and new on the
    next call; with the native target it is left alone, with the reason (the key belongs in the
    caller). Under resilint's own `retry` only the header is added. Left alone and listed:
    headers given as a variable or positionally, a key made inside the retried code, two or more
    keyless requests in one retried function (they would share a key), celery tasks and
    `Retrying(...)(fn)` calls; `Retry(allowed_methods=...)` findings have no fix, and neither
    has the `post` of an object that is not a client the rule knows (an SDK's `post(path,
    **body)` may send `headers=` as a field of the body).
    """

    code = "RES201"
    fixable = "unsafe"
    name = "retried-non-idempotent-call"
    precision = "medium"  # judges hand-written loops and paths through project functions
    message = "non-idempotent request retried without an idempotency key"
    triggers = LIBRARY_TRIGGERS + ("post", "patch", "POST", "PATCH", "stripe")
    VALID = [
        # it calls itself again only on a 401 read off the error, once, after dropping the
        # stored token (open-event-server's Rocket.Chat client)
        """
        import requests

        class ChatError(Exception):
            def __init__(self, message, response=None):
                super().__init__(message)
                self.response = response

        class Chat:
            def sign(self, user):
                res = requests.post("https://chat.example/api/v1/users.register", json={"email": user.email}, timeout=10)
                if res.status_code == 200:
                    return res.json()["data"]["authToken"]
                raise ChatError("sign-up failed", response=res)

            def get_token(self, user, retried=False):
                try:
                    return self.sign(user)
                except ChatError as rce:
                    if not retried and rce.response is not None and rce.response.status_code == 401:
                        user.token = None
                        return self.get_token(user, retried=True)
                    raise
        """,
        # the body is a sign-in form written with `dict(...)`: sent again, it mints another session
        """
        import requests

        def login(user, retried=False):
            res = requests.post("https://chat.example/api/v1/login",
                                json=dict(email=user.email, password=user.password), timeout=10)
            if res.status_code != 200 and not retried:
                return login(user, retried=True)
            return res.json()
        """,
        # goes round only when the connection could not be opened: nothing was sent (chia's
        # simulator waiting for its node's RPC)
        """
        import asyncio
        import aiohttp

        async def height(session, url):
            while True:
                try:
                    async with session.post(url, json={}, timeout=aiohttp.ClientTimeout(total=10)) as resp:
                        return await resp.json()
                except aiohttp.ClientConnectorError:
                    await asyncio.sleep(0.25)
        """,
        # a web framework's test client posts to the application under test, not to a dependency
        """
        from sanic_testing.reusable import ReusableClient

        def test_context(app, port):
            attempts = 0
            while True:
                try:
                    client = ReusableClient(app, port=port)
                    with client:
                        client.post("/ctx", headers={"Connection": "keep-alive"})
                except OSError:
                    attempts += 1
                    if attempts > 15:
                        raise
                    continue
                else:
                    break
        """,
        # a sign-in form filled key by key and posted second, by ``login`` (bazarr's LegendasDivx)
        """
        import random
        import time
        import requests
        class LegendasDivx:
            def __init__(self, username, password):
                self.session = requests.Session()
                self.username, self.password = username, password
            def login(self):
                data = {}
                data["username"] = self.username
                data["password"] = self.password
                for attempt in range(3):
                    try:
                        return self.session.post("https://www.legendasdivx.pt/forum/ucp.php?mode=login", data, timeout=10)
                    except requests.ConnectionError:
                        time.sleep(random.uniform(0, 2 ** attempt))
        """,
        # the standard library's request carries a key made once, before the retry; the other
        # sends no body, a GET
        """
        import random
        import time
        import urllib.error
        import urllib.request
        import uuid

        def submit(url, body):
            request = urllib.request.Request(url, data=body)
            request.add_header("Idempotency-Key", str(uuid.uuid4()))
            for attempt in range(3):
                try:
                    return urllib.request.urlopen(request, timeout=10).read()
                except urllib.error.URLError:
                    time.sleep(random.uniform(0, 2 ** attempt))

        def fetch(url):
            for attempt in range(3):
                try:
                    return urllib.request.urlopen(urllib.request.Request(url), timeout=10).read()
                except urllib.error.URLError:
                    time.sleep(random.uniform(0, 2 ** attempt))
        """,
        # the token body's name is given the answer afterwards (gallery-dl's OAuth helper), also
        # a body assigned on each branch (its MangaDex sign-in: a refresh token when one is
        # cached, else a password grant)
        """
        import random
        import time
        import requests
        class OAuth:
            def __init__(self):
                self.session = requests.Session()
            def request_json(self, url, method="GET", **kwargs):
                for tries in range(4):
                    try:
                        return self.session.request(method, url, timeout=30, **kwargs).json()
                    except requests.ConnectionError:
                        time.sleep(random.uniform(0, 2 ** tries))
                raise RuntimeError(url)
            def token(self, token_url, code):
                data = {"grant_type": "authorization_code", "code": code}
                data = self.request_json(token_url, method="POST", data=data)
                return data["access_token"]
            def sign_in(self, token_url, refresh_token, username, password):
                if refresh_token:
                    data = {"grant_type": "refresh_token", "refresh_token": refresh_token}
                else:
                    data = {"grant_type": "password", "username": username, "password": password}
                data = self.request_json(token_url, method="POST", data=data)
                return data["access_token"]
        """,
        # a sign-in form posted by a wrapper that retries: sent again, it signs in again
        # (gallery-dl's extractors)
        """
        import random
        import time
        import requests
        class Extractor:
            def __init__(self):
                self.session = requests.Session()
            def request(self, url, method="GET", **kwargs):
                for tries in range(4):
                    try:
                        return self.session.request(method, url, timeout=30, **kwargs)
                    except requests.ConnectionError:
                        time.sleep(random.uniform(0, 2 ** tries))
                raise RuntimeError(url)
            def _login_impl(self, username, password):
                data = {"email": username, "password": password, "save": "on"}
                return self.request("https://nijie.info/login_int.php", method="POST", data=data)
        """,
        # the retry by recursion leaves ``use_post`` at its default: it sends the GET, never the
        # POST again (instaloader's ``get_json``)
        """
        import requests
        class Context:
            def __init__(self):
                self._session = requests.Session()
            def get_json(self, path, params, _attempt=1, use_post=False):
                try:
                    if use_post:
                        resp = self._session.post("https://www.example.com/" + path, data=params, timeout=10)
                    else:
                        resp = self._session.get("https://www.example.com/" + path, params=params, timeout=10)
                    return resp.json()
                except requests.RequestException:
                    if _attempt == 3:
                        raise
                    return self.get_json(path=path, params=params, _attempt=_attempt + 1)
        """,
        # an OAuth token request: ``grant_type`` set on the body's name, sent as JSON text by a
        # wrapper that retries (sickchill's Trakt client)
        """
        import json
        import time
        import requests
        class TraktAPI:
            def token(self, refresh):
                data = {"client_id": "id", "client_secret": "secret"}
                if refresh:
                    data["grant_type"] = "refresh_token"
                else:
                    data["grant_type"] = "authorization_code"
                return self.request("oauth/token", data=data, method="POST")
            def request(self, path, data=None, method="GET", count=0):
                try:
                    return requests.request(method, "https://api.trakt.tv/" + path, timeout=10,
                                            data=json.dumps(data) if data else [])
                except requests.ConnectionError:
                    if count < 3:
                        time.sleep(2)
                        return self.request(path, data, method, count + 1)
                    raise
        """,
        # a reconnect to a websocket opens the stream again; the POST a message made is not sent
        # again (opsdroid's Twitch connector)
        """
        import asyncio
        import aiohttp
        class Chat:
            def __init__(self, url):
                self.url = url
                self.live = True
            async def connect(self):
                async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(sock_connect=5, sock_read=60)) as session:
                    self.session = session
                    async with session.ws_connect(self.url) as ws:
                        self.ws = ws
                        await self.read_messages()
            async def read_messages(self):
                async for message in self.ws:
                    await self.session.post("https://api.example.com/log", json={"text": message.data})
            async def listen(self):
                while self.live:
                    try:
                        await self.connect()
                    except ConnectionError:
                        await asyncio.sleep(5)
        """,
        # a CORS rule's ``allowed_methods``: no ``Retry`` (minio's example)
        """
        from minio.commonconfig import CORSConfig

        rule = CORSConfig.CORSRule(allowed_methods=["PUT", "POST"], allowed_origins=["https://example.com"])
        """,
        # the loop goes round only when the API error carries a 429: the server refused the
        # request, and a lost response raises requests' own error (pyTelegramBotAPI's antiflood)
        """
        import time, requests
        class ApiException(Exception):
            def __init__(self, result):
                super().__init__(result["description"])
                self.error_code = result["error_code"]
        def send_message(chat_id, text):
            result = requests.post("https://api.example/sendMessage", data={"chat_id": chat_id, "text": text}, timeout=5).json()
            if not result["ok"]:
                raise ApiException(result)
            return result
        def antiflood(chat_id, text):
            for _ in range(4):
                try:
                    return send_message(chat_id, text)
                except ApiException as ex:
                    if ex.error_code == 429:
                        time.sleep(1)
                    else:
                        raise
        """,
        # the POST branch tests the method in one case, and no retried caller takes it
        # (shodan-python's ``_request``)
        """
        import time, requests
        SESSION = requests.Session()
        def _request(path, params, method="get"):
            method = method.lower()
            if method == "post":
                return SESSION.post(path, params, timeout=5).json()
            return SESSION.get(path, params=params, timeout=5).json()
        def search(query):
            for attempt in range(3):
                try:
                    return _request("/search", {"q": query})
                except requests.RequestException:
                    time.sleep(attempt)
        def create_alert(name):
            return _request("/alert", {"name": name}, method="POST")
        """,
        # a parameter whose default names only idempotent methods
        """
        from urllib3.util.retry import Retry
        def retry_strategy(total=5, allowed_methods=frozenset({"GET", "PUT"})):
            return Retry(total=total, allowed_methods=allowed_methods)
        """,
        # aiohttp-retry options that name only idempotent methods
        """
        from aiohttp_retry import JitterRetry, RetryClient
        CLIENT = RetryClient(retry_options=JitterRetry(attempts=3, methods={"GET", "PUT"}))
        """,
        # an unpacked dict that names no method: urllib3's defaults leave POST out
        """
        import urllib3
        def make_retry(limit):
            retry_args = {"total": limit, "status_forcelist": (502, 503)}
            return urllib3.Retry(**retry_args)
        """,
        # an OAuth token request whose form is written as text
        """
        import backoff, requests
        @backoff.on_exception(backoff.expo, OSError, max_tries=3)
        def token(server, timeout):
            return requests.post(server + "/token", data="grant_type=client_credentials&scope=x", timeout=timeout)
        """,
        # tenacity retries only the ``TryAgain`` raised on a complete answer (a job not done):
        # a lost response raises another error, which leaves the retry
        """
        import requests, tenacity
        SESSION = requests.Session()
        @tenacity.retry(
            retry=tenacity.retry_if_exception_type(tenacity.TryAgain),
            wait=tenacity.wait_random_exponential(multiplier=2, max=60),
            stop=tenacity.stop_after_delay(1800),
            reraise=True,
        )
        def query(query_id, parameters):
            r = SESSION.post(f"https://redash.example/api/queries/{query_id}/results", json={"parameters": parameters}, timeout=(3, 30))
            if not r.ok:
                raise Exception(f"query error: {r.text}")
            result = r.json()
            if "query_result" not in result:
                raise tenacity.TryAgain
            return result["query_result"]["data"]["rows"]
        """,
        # the project error the loop retries is raised only once every failed status has left
        """
        import random, time
        import requests
        class NotReady(Exception):
            pass
        def submit(url, payload):
            r = requests.post(url, json=payload, timeout=(3, 30))
            if not r.ok:
                raise RuntimeError(r.text)
            body = r.json()
            if body.get("rows") is None:
                raise NotReady()
            return body["rows"]
        def run(url, payload):
            for attempt in range(5):
                try:
                    return submit(url, payload)
                except NotReady:
                    time.sleep(random.uniform(1, 2))
        """,
        # an OAuth token request mints a token: sent again, it mints another
        """
        import time
        import requests
        def access_token(refresh_token):
            for attempt in range(3):
                try:
                    r = requests.post(TOKEN_URL, data={"grant_type": "refresh_token", "refresh_token": refresh_token}, timeout=5)
                    return r.json()["access_token"]
                except requests.ConnectionError:
                    time.sleep(2 ** attempt)
        """,
        # a lost response becomes `FailedToSendSMS`, which `_send_sms` catches and answers with
        # an error code: the task's retry never sees it
        """
        import requests
        from celery import shared_task
        class FailedToSendSMS(Exception):
            pass
        class PhoneBackend:
            def notify_by_sms(self, user, message):
                ok, error_code = self._send_sms(user, message)
                if not ok:
                    log_failure(user, error_code)
            def _send_sms(self, user, message):
                try:
                    self._post_sms(user, message)
                except FailedToSendSMS:
                    return False, "NOT_ABLE_TO_SEND_SMS"
                return True, None
            def _post_sms(self, user, message):
                try:
                    response = requests.post(SMS_URL, data={"to": user, "text": message}, timeout=5)
                except requests.exceptions.RequestException:
                    raise FailedToSendSMS()
                if response.status_code != 200:
                    raise FailedToSendSMS()
        @shared_task(autoretry_for=(Exception,), retry_backoff=True, max_retries=3)
        def perform_notification(user, message):
            PhoneBackend().notify_by_sms(user, message)
        """,
        # every status but a 429 leaves the loop (the last statement raises): it goes round
        # only when the server refused the POST
        """
        import random, time, requests
        def create(url, body):
            while True:
                response = requests.post(url, json=body, timeout=5)
                code = response.status_code
                if code < 400:
                    return response.json()
                if code == 409:
                    raise LookupError(url)
                if code == 429:
                    time.sleep(random.uniform(1, 5))
                    continue
                raise RuntimeError(code)
        """,
        # an ``if``/``elif`` chain whose ``else`` raises: only the refusal (400, still pending)
        # goes round
        """
        import time, requests
        def poll_token(data, end_time):
            while time.time() < end_time:
                time.sleep(5)
                r = requests.post("https://auth.example/token", data=data, timeout=10)
                if r.status_code == 200:
                    return r.json()
                if r.status_code == 400:
                    pass
                elif r.status_code == 409:
                    raise RuntimeError("already approved")
                else:
                    raise RuntimeError(r.status_code)
        """,
        # the key is the order's, the same on every attempt of the task
        """
        import stripe
        from celery import shared_task

        @shared_task(autoretry_for=(stripe.error.APIConnectionError,), max_retries=3)
        def charge(order_id, amount, customer):
            stripe.Charge.create(amount=amount, currency="usd", customer=customer, idempotency_key=f"charge-{order_id}")
        """,
        # the loop retries only smtplib's errors: a lost response of the POST raises requests'
        """
        import smtplib, time, requests
        def deliver(message):
            for attempt in range(3):
                try:
                    requests.post("https://hooks.example", json=message, timeout=5)
                    with smtplib.SMTP("mail.example", timeout=5) as smtp:
                        return smtp.send_message(message)
                except smtplib.SMTPException:
                    time.sleep(5)
        """,
        # called again by recursion only on a 429 (named), which the server sends without acting
        """
        import time, requests
        def send(url, payload, rate_limit=3):
            r = requests.post(url, json=payload, timeout=(3.05, 10))
            if r.status_code not in (requests.codes.ok, requests.codes.no_content):
                if r.status_code == requests.codes.too_many_requests and rate_limit > 0:
                    time.sleep(float(r.headers.get("Retry-After", 1)))
                    return send(url, payload, rate_limit - 1)
                return False
            return True
        """,
        # the token POST runs before the ``try`` the loop retries, inside the headers it builds: a
        # lost response leaves the loop, and the ``try`` reads only the headers made of its token
        """
        import random, time, requests
        def mint(api):
            r = requests.post(f"{api}/access_tokens", timeout=5)
            r.raise_for_status()
            return r.json()["token"]
        def call(api, url):
            for attempt in range(5):
                headers = {"Authorization": f"Bearer {mint(api)}"}
                try:
                    return requests.get(url, headers=headers, timeout=5).json()
                except requests.ConnectionError:
                    time.sleep(random.uniform(0, 2 ** attempt))
        """,
        # the object's headers get their key from a method: what they hold is not the constructor's
        """
        import uuid, requests, tenacity
        class Controller:
            def __init__(self, host):
                self.url = f"https://{host}/network"
                self.headers = {"Accept": "application/json"}
            def begin(self):
                self.headers["Idempotency-Key"] = str(uuid.uuid4())
            @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
            def update(self, config):
                return requests.post(self.url, json=config, headers=self.headers, timeout=5)
        """,
        # its exits leave on every status but 400, with which the server refused the POST; a
        # lost response raises, out of the loop
        """
        import time, requests
        def enable_engine(session, url, deadline):
            while True:
                response = session.post(url, json={"max_versions": 20}, timeout=10)
                if response.status_code in (200, 204):
                    return
                if response.status_code != 400 or time.monotonic() >= deadline:
                    raise RuntimeError(response.text)
                time.sleep(0.2)
        """,
        # every failure falls through to the ``return`` after the ``try``: the POST goes round
        # only on a 429, with which the server refused it
        """
        import requests
        def post(url, payload, retry):
            wait = None
            status_code = -1
            while 1:
                throttle(wait=wait)
                try:
                    r = requests.post(url, data=payload, timeout=TIMEOUT)
                    status_code = r.status_code
                    if status_code == requests.codes.ok:
                        return status_code
                    if status_code == requests.codes.too_many_requests and retry:
                        retry = retry - 1
                        if retry > 0:
                            wait = 5
                            continue
                except requests.RequestException:
                    pass
                return status_code
        """,
        # the POST goes round only on a 401, after logging in again: the server acted on nothing
        """
        import requests
        def send(session, payload):
            for attempt in range(2):
                r = session.post(ORDERS_URL, json=payload, timeout=TIMEOUT)
                if r.status_code == 401:
                    login(session)
                    continue
                return r
            return None
        """,
        # the same with the status read on the response: a failed status other than 429 falls
        # through to the ``return`` at the end of the body
        """
        import requests
        def post(url, payload, retries):
            while True:
                r = requests.post(url, data=payload, timeout=TIMEOUT)
                if r.status_code == 200:
                    return r
                if r.status_code == 429 and retries:
                    retries -= 1
                    continue
                return r
        """,
        # the login POST runs in the handler after a 401: if it fails, its error leaves the
        # function, and a successful login is not repeated for a lost response of its own
        """
        import requests
        def fetch(url, attempt=0):
            try:
                response = requests.get(url, timeout=TIMEOUT)
                response.raise_for_status()
                return response.json()
            except requests.HTTPError as exc:
                if exc.response.status_code == 401 and attempt < 3:
                    requests.post(LOGIN_URL, data=CREDENTIALS, timeout=TIMEOUT)
                    return fetch(url, attempt + 1)
                raise
        """,
        # the POST is outside the ``try`` the loop retries, which does not read its answer:
        # a lost response leaves the loop
        """
        import time, requests
        def solve(session, base):
            for attempt in range(3):
                reset = session.post(f"{base}/captcha/reset", timeout=10)
                reset.raise_for_status()
                text = transcribe(session.get(f"{base}/captcha/{reset.json()['id']}", timeout=10).content)
                try:
                    return check(text)
                except ValueError:
                    time.sleep(1)
            raise RuntimeError("no solution")
        """,
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
        # sent again only after a 429: the server did not act, and a lost response raises out
        """
        import random, time, requests
        def notify(url, payload):
            for attempt in range(5):
                response = requests.post(url, json=payload, timeout=5)
                if response.status_code != 429:
                    return response
                time.sleep(random.uniform(0, 2 ** attempt))
        """,
        # the loop retries only the project's own error, raised on a 429
        """
        import random, time, requests
        class RateLimited(Exception):
            pass
        def notify(url, payload):
            for attempt in range(5):
                try:
                    response = requests.post(url, json=payload, timeout=5)
                    if response.status_code == 429:
                        raise RateLimited()
                    return response
                except RateLimited:
                    time.sleep(random.uniform(0, 2 ** attempt))
        """,
    ]
    INVALID = [
        Invalid(
            # the wrapper's loop sends the keywords its callers hand it; this one hands no
            # headers (buildbot's Telegram bot)
            """
            import random
            import time
            import requests
            class Bot:
                def post(self, path, **kwargs):
                    while True:
                        try:
                            return requests.post("https://api.telegram.org/bot" + path, timeout=5, **kwargs).json()
                        except requests.RequestException:
                            time.sleep(random.uniform(0, 30))
                def send_message(self, chat, text):
                    return self.post("/sendMessage", json={"chat_id": chat, "text": text})
            """,
            line=12,
            message="`post` sends a POST (`requests.post`) with the keywords handed here without an `Idempotency-Key`",
        ),
        Invalid(
            # a JSON body posted with the standard library, retried on timeouts and 5xx (pgAdmin's
            # LLM client)
            """
            import json
            import random
            import time
            import urllib.error
            import urllib.request

            def chat(url, payload, timeout):
                request = urllib.request.Request(
                    url, data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}, method="POST",
                )
                for attempt in range(3):
                    try:
                        with urllib.request.urlopen(request, timeout=timeout) as response:
                            return json.loads(response.read())
                    except urllib.error.URLError:
                        time.sleep(random.uniform(0, 2 ** attempt))
            """,
            line=13,
            message="`urllib.request.urlopen` (POST) is retried by a hand-written retry loop without an `Idempotency-Key`",
        ),
        Invalid(
            # the status a success must have is one of two the loop chooses: any other, 5xx
            # included, sends the chunk again (rotki's backup upload)
            """
            from http import HTTPStatus
            import requests

            def upload_chunk(session, url, chunk, last):
                retry_count = 0
                while True:
                    response = session.post(url, files={"chunk_data": chunk}, timeout=(3, 25))
                    expected_status = HTTPStatus.OK if last else HTTPStatus.PARTIAL_CONTENT
                    if response.status_code != expected_status:
                        if retry_count < 3:
                            retry_count += 1
                            continue
                        raise RuntimeError(response.text)
                    break
            """,
            line=7,
            message="is retried by a hand-written retry loop without an `Idempotency-Key`",
        ),
        Invalid(
            # the body set on a ``Request`` a method of the class makes, retried by a tenacity
            # ``Retrying`` called with the fetch (luigi's scheduler RPC)
            """
            from urllib.parse import urlencode
            from urllib.request import Request, urlopen
            from tenacity import Retrying, stop_after_attempt, wait_random_exponential

            class Fetcher:
                def _create_request(self, url, body=None):
                    req = Request(url)
                    if body:
                        req.data = urlencode(body).encode("utf-8")
                    return req

                def fetch(self, url, body, timeout):
                    req = self._create_request(url, body=body)
                    return urlopen(req, timeout=timeout).read()

            def add_task(url, task_id):
                fetcher = Fetcher()
                retrying = Retrying(wait=wait_random_exponential(max=30), stop=stop_after_attempt(3))
                return retrying(fetcher.fetch, url, {"data": task_id}, 10)
            """,
            line=14,
            message="`urllib.request.urlopen` (POST) is retried by a tenacity retry without an `Idempotency-Key`",
        ),
        Invalid(
            # the headers are one element of the tuple a helper of the file returns (tap-hubspot)
            """
            import backoff
            import requests

            def params_and_headers(params, token):
                params = params or {}
                headers = {"Authorization": f"Bearer {token}"}
                return params, headers

            @backoff.on_exception(backoff.expo, requests.RequestException, max_tries=5)
            def post_search(url, data, token, params=None):
                params, headers = params_and_headers(params, token)
                headers["content-type"] = "application/json"
                return requests.post(url, json=data, params=params, headers=headers, timeout=30)
            """,
            line=13,
            message="without an `Idempotency-Key` header",
        ),
        Invalid(
            # a ``Retry`` subclass of another module, made listing POST (influxdb's ``WritesRetry``)
            """
            from app.write.retry import WritesRetry

            def to_retry_strategy(options):
                return WritesRetry(total=options.max_retries, allowed_methods=["POST"])
            """,
            line=4,
            message="`allowed_methods` includes POST",
        ),
        Invalid(
            # the ``**kwargs`` key is one of two strings, neither of them ``headers`` (zulip's client)
            """
            import random
            import time
            import requests

            def query(method, url, request):
                for attempt in range(3):
                    kwarg = "params" if method == "GET" else "data"
                    kwargs = {kwarg: request}
                    try:
                        return requests.request(method, url, timeout=15, **kwargs)
                    except requests.ConnectionError:
                        time.sleep(random.uniform(0, 2))

            def send(data):
                return query("POST", "https://chat.example.com/api/v1/messages", data)
            """,
            line=15,
            message="`query` sends a POST",
        ),
        Invalid(
            # the method is picked by an ``if`` that rebinds it, on a session the caller may
            # give, and the function calls itself again on a 5xx (googlemaps' Client._request)
            """
            import requests
            class Client:
                def __init__(self, requests_session=None):
                    self.session = requests_session or requests.Session()
                def _request(self, url, post_json=None, retry_counter=0):
                    requests_method = self.session.get
                    if post_json is not None:
                        requests_method = self.session.post
                    response = requests_method(url, json=post_json, headers={"User-Agent": "gm"}, timeout=5)
                    if response.status_code in (500, 503, 504) and retry_counter < 3:
                        return self._request(url, post_json, retry_counter + 1)
                    return response.json()
            """,
            line=9,
        ),
        Invalid(
            # the retried caller asks for the POST, in capitals, of a method tested in lower case
            """
            import time, requests
            SESSION = requests.Session()
            def _request(path, params, method="get"):
                if method.lower() == "post":
                    return SESSION.post(path, params, timeout=5).json()
                return SESSION.get(path, params=params, timeout=5).json()
            def create_alert(name):
                for attempt in range(3):
                    try:
                        return _request("/alert", {"name": name}, method="POST")
                    except requests.RequestException:
                        time.sleep(attempt)
            """,
            line=10,
        ),
        Invalid(
            # the method a choice written out, POST unless the caller asks for GET (pywikibot)
            """
            import random, time, requests
            class Request:
                def __init__(self, uri, use_get=False):
                    self.uri, self.use_get = uri, use_get
                    self.session = requests.Session()
                def submit(self, data):
                    for attempt in range(5):
                        try:
                            return self.session.request("GET" if self.use_get else "POST", self.uri, data=data,
                                                        timeout=(6.05, 25))
                        except requests.Timeout:
                            time.sleep(random.uniform(0, 2 ** attempt))
            """,
            line=9,
            message="(POST) is retried by a hand-written retry loop",
        ),
        Invalid(
            # the code raises requests' own error on a failed job, but a lost response raises
            # it too (khoj's Replicate image generation)
            """
            import time, requests
            from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential
            @retry(retry=retry_if_exception_type(requests.RequestException), stop=stop_after_attempt(3),
                   wait=wait_random_exponential(max=10))
            def generate(url, api_key, body):
                headers = {"Authorization": f"Bearer {api_key}"}
                created = requests.post(url, headers=headers, json=body, timeout=(3, 10)).json()
                status = created["status"]
                while status not in ("succeeded", "failed"):
                    time.sleep(2)
                    status = requests.get(created["urls"]["get"], headers=headers, timeout=(3, 10)).json()["status"]
                if status != "succeeded":
                    raise requests.RequestException(f"generation failed: {status}")
                return created
            """,
            line=7,
            message="is retried by a tenacity retry",
        ),
        Invalid(
            # POST added to the adapter's Retry after it was made (python-keycloak)
            """
            import requests
            from requests.adapters import HTTPAdapter
            def session(max_retries=1):
                s = requests.Session()
                adapter = HTTPAdapter(max_retries=max_retries)
                allowed_methods = set(adapter.max_retries.allowed_methods or ())
                allowed_methods.add("POST")
                adapter.max_retries.allowed_methods = frozenset(allowed_methods)
                s.mount("https://", adapter)
                return s
            """,
            line=8,
            message="`allowed_methods` includes POST",
        ),
        Invalid(
            # the keyword arguments come from a dict written out, without headers
            """
            import time, requests
            def send(session, url, body):
                request_args = {"url": url, "timeout": 10, "json": body}
                for attempt in range(4):
                    try:
                        return session.post(**request_args)
                    except requests.ConnectionError:
                        time.sleep(2 ** attempt)
            """,
            line=6,
        ),
        # the headers a property returns, written out without a key
        Invalid(
            """
            import requests
            from celery import shared_task
            class ProxyClient:
                def __init__(self, token):
                    self.token = token
                @property
                def _headers(self):
                    return {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
                def link_team(self, team_id):
                    return requests.post(LINK_URL, json={"team": team_id}, headers=self._headers, timeout=5)
            @shared_task(autoretry_for=(requests.RequestException,), retry_backoff=True, max_retries=100)
            def link_team_async(team_id, token):
                ProxyClient(token).link_team(team_id)
            """,
            line=13,
        ),
        # a wrapper that hands on `*args` and `**kwargs`: `requests.post` takes headers by
        # keyword only, so they are the caller's
        Invalid(
            """
            import requests
            from celery import shared_task
            class IncidentClient:
                def _make_request(self, url, *args, **kwargs):
                    return requests.post(url, *args, **kwargs)
                def create_incident(self, title):
                    return self._make_request(INCIDENT_URL, json={"title": title}, headers={"User-Agent": "oncall"}, timeout=5)
            @shared_task(autoretry_for=(requests.RequestException,), retry_backoff=True, max_retries=10)
            def declare_incident(title):
                return IncidentClient().create_incident(title)
            """,
            line=10,
        ),
        # the lost response's `FailedToSendSMS` is not what `_send_sms` catches: the retry sees it
        Invalid(
            """
            import requests
            from celery import shared_task
            class FailedToSendSMS(Exception):
                pass
            class PhoneBackend:
                def _send_sms(self, user, message):
                    try:
                        self._post_sms(user, message)
                    except KeyError:
                        return False
                    return True
                def _post_sms(self, user, message):
                    try:
                        requests.post(SMS_URL, data={"to": user, "text": message}, timeout=5)
                    except requests.exceptions.RequestException:
                        raise FailedToSendSMS()
            @shared_task(autoretry_for=(Exception,), retry_backoff=True, max_retries=3)
            def perform_notification(user, message):
                PhoneBackend()._send_sms(user, message)
            """,
            line=19,
        ),
        Invalid(
            # the tenacity policy a method returns, applied to the function that posts
            """
            import requests
            from tenacity import Retrying, stop_after_attempt, wait_random_exponential
            class RemoteScheduler:
                def __init__(self, url):
                    self.url = url
                    self.session = requests.Session()
                def _get_retryer(self):
                    return Retrying(wait=wait_random_exponential(max=5), stop=stop_after_attempt(3), reraise=True)
                def _post(self, body):
                    return self.session.post(self.url, data=body, timeout=10)
                def fetch(self, body):
                    retry = self._get_retryer()
                    return retry(self._post, body)
            """,
            line=10,
        ),
        Invalid(
            # the status tested is the answer to the POST sent on the same connection
            """
            import http.client, time
            def pay(host, body):
                for attempt in range(3):
                    conn = http.client.HTTPConnection(host, timeout=5)
                    conn.request("POST", "/pay", body)
                    response = conn.getresponse()
                    if response.status == 200:
                        return response.status
                    time.sleep(0.01 * 2 ** attempt)
            """,
            line=5,
            message="is retried by a hand-written retry loop",
        ),
        Invalid(
            # the method goes down two wrappers, the second through its ``**kwargs``
            """
            import time, requests
            class Client:
                session = requests.Session()
                def request(self, url, method="GET", **kwargs):
                    for attempt in range(4):
                        try:
                            return self.session.request(method, url, timeout=10, **kwargs)
                        except requests.ConnectionError:
                            time.sleep(attempt + random.random())
                def request_json(self, url, **kwargs):
                    return self.request(url, **kwargs).json()
                def request_api(self, endpoint, method="GET"):
                    return self.request_json("https://api.example" + endpoint, method=method)
                def create_account(self):
                    return self.request_api("/accounts", method="POST")
            """,
            line=15,
        ),
        Invalid(
            # a case-insensitive mapping of requests is read like a dict: no key in it
            """
            import requests
            from requests.structures import CaseInsensitiveDict
            def submit(url, body):
                headers = CaseInsensitiveDict({"Content-Type": "application/json"})
                for _ in range(3):
                    try:
                        return requests.post(url, data=body, headers=headers, timeout=10)
                    except requests.ConnectionError:
                        continue
            """,
            line=7,
        ),
        Invalid(
            # the handler's ``timeout`` is the wait before the next pass, not the request's
            # ``timeout=`` keyword: the same POST goes again
            """
            import time, requests
            TIMEOUT = (3, 10)
            def notify(url, message):
                for _ in range(3):
                    try:
                        r = requests.post(url, json=message, timeout=TIMEOUT)
                        r.raise_for_status()
                    except requests.ReadTimeout:
                        continue
                    except requests.HTTPError as e:
                        if e.response.status_code == 429:
                            timeout = int(e.response.headers.get("retry-after", 3))
                            time.sleep(timeout)
                            continue
                        raise
                    else:
                        break
            """,
            line=6,
        ),
        Invalid(
            # the headers the object set in its constructor, which carry no key
            """
            import requests, tenacity
            class Controller:
                def __init__(self, host, token):
                    self.url = f"https://{host}/network"
                    self.headers = {"X-Auth": token, "Accept": "application/json"}
                @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
                def update(self, config):
                    return requests.post(self.url, json=config, headers=self.headers, timeout=5)
            """,
            line=8,
        ),
        Invalid(
            """
            import stripe
            from celery import shared_task

            @shared_task(autoretry_for=(stripe.error.APIConnectionError,), max_retries=3)
            def charge(order_id, amount, customer):
                stripe.Charge.create(amount=amount, currency="usd", customer=customer)
            """,
            line=6,
            message="without `idempotency_key=`",
        ),
        Invalid(
            # a nested resource's create (tap-stripe's test utilities)
            """
            import backoff
            import stripe
            @backoff.on_exception(backoff.expo, stripe.error.APIError, max_tries=2)
            def reverse(transfer_id):
                return stripe.Transfer.create_reversal(transfer_id, amount=1)
            """,
            line=5,
            message="`stripe.Transfer.create_reversal` (POST) is retried by a backoff retry without `idempotency_key=`",
        ),
        Invalid(
            # the session a decorator's wrapper sets on the object, as the attribute's annotation
            # says (matrix-nio's @client_session)
            """
            from typing import Optional
            from aiohttp import ClientConnectionError, ClientSession
            def client_session(func):
                async def wrapper(self, *args, **kwargs):
                    if not self.client_session:
                        self.client_session = ClientSession()
                    return await func(self, *args, **kwargs)
                return wrapper
            class AsyncClient:
                def __init__(self, homeserver):
                    self.homeserver = homeserver
                    self.client_session: Optional[ClientSession] = None
                @client_session
                async def send(self, method, path, data=None):
                    return await self.client_session.request(method, self.homeserver + path, data=data, timeout=10)
                async def _send(self, method, path, data=None):
                    for attempt in range(3):
                        try:
                            return await self.send(method, path, data)
                        except ClientConnectionError:
                            continue
                async def room_create(self):
                    return await self._send("POST", "/createRoom", "{}")
            """,
            line=23,
            message="sends a POST (`aiohttp.ClientSession.request`) through `send`",
        ),
        Invalid(
            # a copy of the headers the object keeps, without a key (tap-hubspot's test client)
            """
            import backoff
            import requests
            class Client:
                def __init__(self, token):
                    self.HEADERS = {"Authorization": f"Bearer {token}"}
                @backoff.on_exception(backoff.expo, requests.exceptions.RequestException, max_tries=5)
                def post(self, url, data):
                    headers = dict(self.HEADERS)
                    headers["content-type"] = "application/json"
                    return requests.post(url, json=data, headers=headers, timeout=self.timeout)
            """,
            line=10,
            message="`requests.post` (POST) is retried by a backoff retry without an `Idempotency-Key` header",
        ),
        Invalid(
            # a retry by recursion whose count is stepped in a statement of its own (okta's
            # RequestExecutor.fire_request_helper)
            """
            import requests
            class Executor:
                def __init__(self, max_retries):
                    self._max_retries = max_retries
                def fire(self, url, body, attempts=0):
                    res = requests.post(url, json=body, timeout=self.timeout)
                    if attempts < self._max_retries and res.status_code in (429, 503, 504):
                        attempts += 1
                        return self.fire(url, body, attempts)
                    return res
            """,
            line=6,
            message="is retried by a retry by recursion without an `Idempotency-Key` header",
        ),
        Invalid(
            # a retried function that calls itself for another object: the inner call's POST is
            # repeated by the outer retry too (tap-stripe's test utilities)
            """
            import backoff
            import stripe
            @backoff.on_exception(backoff.expo, stripe.error.APIError, max_tries=2)
            def create_object(stream):
                if stream == "invoices":
                    return stripe.Invoice.create(customer="cus_1")
                invoice = create_object("invoices")
                return invoice["lines"]
            """,
            line=7,
            message="`create_object` sends a POST (`stripe.Invoice.create`)",
            count=2,
        ),
        Invalid(
            # a resource taken from a dict of resources is the resource, not plain data
            """
            import backoff
            import stripe
            RESOURCES = {"coupons": stripe.Coupon, "transfers": stripe.Transfer}
            @backoff.on_exception(backoff.expo, stripe.error.APIError, max_tries=2)
            def create_object(stream):
                return RESOURCES[stream].create(amount=1, currency="usd")
            """,
            line=6,
            message="(POST) is retried by a backoff retry without `idempotency_key=`",
        ),
        Invalid(
            # a celery task that queues itself again after a failure: a retry by re-queueing
            """
            import requests
            from celery import shared_task
            @shared_task
            def call_webhook(url, data, try_count=1):
                try:
                    return requests.post(url, json=data, timeout=10).status_code
                except requests.RequestException:
                    if try_count < 3:
                        call_webhook.apply_async(args=(url, data, try_count + 1), countdown=2 ** try_count)
            """,
            line=6,
            message="a task that queues itself again",
        ),
        Invalid(
            # a helper that merges the caller's own headers on top of its own, which mint a key
            """
            import uuid, requests, tenacity
            def partner_headers(extra=None):
                headers = {"Idempotency-Key": str(uuid.uuid4())}
                if extra:
                    headers.update(extra)
                return headers
            @tenacity.retry(stop=tenacity.stop_after_attempt(3))
            def publish(url):
                return requests.post(url, headers=partner_headers(), timeout=5)
            """,
            line=9,
            message="changes on every attempt",
        ),
        # the wrapper's loop retries the POST; its caller that passes no headers sends no key
        Invalid(
            """
            import random, time, requests
            def post(url, headers=None):
                for attempt in range(3):
                    try:
                        return requests.post(url, headers=headers, timeout=5)
                    except requests.ConnectionError:
                        time.sleep(random.uniform(0, 2 ** attempt))
            def create(url):
                return post(url)
            def create_keyed(url, key):
                return post(url, headers={"Idempotency-Key": key})
            """,
            line=9,
            message="is retried in `post` by a hand-written retry loop",
            count=1,
        ),
        Invalid(
            # the success is tested by name (``requests.codes.OK`` is 200): a 5xx goes round
            """
            import requests
            def upload(session, url, data, max_tries=5):
                tries = 0
                while tries < max_tries:
                    resp = session.post(url, data=data, timeout=(5, 25))
                    if resp.status_code == requests.codes.OK:
                        return resp
                    if 500 <= resp.status_code < 600:
                        tries += 1
                    else:
                        return resp
                return resp
            """,
            line=5,
        ),
        Invalid(
            # retrying's policy object applied with ``.call``
            """
            import retrying, requests
            def charge(url):
                return requests.post(url, timeout=TIMEOUT)
            def run(url):
                return retrying.Retrying(stop_max_attempt_number=3).call(charge, url)
            """,
            line=3,
        ),
        Invalid(
            # a 502 may come after the server acted
            """
            import random, time, requests
            class Unavailable(Exception):
                pass
            def notify(url, payload):
                for attempt in range(5):
                    try:
                        response = requests.post(url, json=payload, timeout=5)
                        if response.status_code in (502, 503):
                            raise Unavailable()
                        return response
                    except Unavailable:
                        time.sleep(random.uniform(0, 2 ** attempt))
            """,
            line=7,
        ),
        Invalid(
            # the lost response becomes the error the loop retries
            """
            import random, time, requests
            class Unavailable(Exception):
                pass
            def notify(url, payload):
                for attempt in range(5):
                    try:
                        try:
                            return requests.post(url, json=payload, timeout=5)
                        except requests.ConnectionError as exc:
                            raise Unavailable() from exc
                    except Unavailable:
                        time.sleep(random.uniform(0, 2 ** attempt))
            """,
            line=8,
        ),
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
            # the policy the class makes on one branch, the caller's on the other, applied by a call
            """
            import requests
            from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential

            class Session:
                def __init__(self, url, retry_execute=True):
                    self.url = url
                    if retry_execute is True:
                        self.retry_execute = retry(
                            retry=retry_if_exception_type(requests.ConnectionError),
                            stop=stop_after_attempt(5), wait=wait_random_exponential(max=10),
                        )
                    else:
                        self.retry_execute = retry_execute
                    self._send_with_retries = self.retry_execute(self._send_once)

                def _send_once(self, doc):
                    return requests.post(self.url, json={"query": doc}, timeout=(3, 10))
            """,
            line=17,
        ),
        Invalid(
            # a retry by recursion on the statuses of a named set
            """
            import requests
            RETRY_STATUSES = {500, 502, 503, 504}
            class Session:
                def __init__(self):
                    self._http = requests.Session()
                def _request_with_retries(self, method, url, data, retries=2):
                    response = self._http.request(method, url, data=data, timeout=(3, 10))
                    if response.status_code in RETRY_STATUSES and retries > 0:
                        return self._request_with_retries(method, url, data, retries - 1)
                    return response.json()
            def submit(title):
                return Session()._request_with_retries("POST", "https://x.example.com/api/submit", {"title": title})
            """,
            line=12,
            message="`_request_with_retries` sends a POST (`requests.Session.request`) without",
        ),
        Invalid(
            # aiohttp-retry retries every method by default
            """
            from aiohttp_retry import RetryClient
            async def send(url, payload):
                async with RetryClient() as client:
                    async with client.post(url, json=payload) as resp:
                        return await resp.json()
            """,
            line=3,
            message="aiohttp-retry retries every method",
        ),
        Invalid(
            """
            from urllib3.util.retry import Retry

            def retry_strategy(total=5, allowed_methods=None):
                return Retry(total=total, allowed_methods=allowed_methods)
            """,
            line=4,
            message="passes a parameter that defaults to None",
        ),
        Invalid(
            """
            import urllib3

            def make_retry(limit):
                if hasattr(urllib3.util.Retry.DEFAULT, "allowed_methods"):
                    methods_arg = "allowed_methods"
                else:
                    methods_arg = "method_whitelist"
                retry_args = {"total": limit, methods_arg: {"POST"}}
                return urllib3.Retry(**retry_args)
            """,
            line=8,
            message="includes POST",
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
            # every instance made without `allowed_methods=` retries POST, in any module
            """
            from urllib3 import Retry

            class ApiRetry(Retry):
                def __init__(self, **kwargs):
                    kwargs["allowed_methods"] = kwargs.get("allowed_methods", Retry.DEFAULT_ALLOWED_METHODS | {"POST"})
                    super().__init__(**kwargs)
            """,
            line=5,
            message="includes POST",
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
        unsafe = [(p.unsafe_methods, p.node, p.library) for p in found.policies if p.unsafe_methods is not None]
        for setting, node, library in unsafe + [(setting, setting.node, "urllib3") for setting in found.unsafe_defaults]:
            node = setting.node or node
            if id(node) not in reported:
                reported.add(id(node))
                ctx.report(
                    node,
                    f"{setting.detail}: a request the server applied before {_LOST_BY.get(library, _LOST_BY['urllib3'])} is sent again",
                    anchor=node,
                    fixable=False,  # no key can be added to what the library retries
                )
        finder = RequestFinder(model)
        raised = {id(function): raises for function, raises in raised_errors(model)}
        is_project_class, ancestry = file_classes(model)
        for scope in found.covering():
            if scope.policy.guards_non_idempotent or _retries_raised_poll(model, scope.policy):
                continue
            covered = list(calls_within(model, scope))
            unread = {id(call.node) for call, read in failing_out(scope.policy, covered) if not read}
            caught = retried_exceptions(model, scope.policy)
            # what the file's functions the loop calls raise on an answer (``check(response)``)
            helpers = [
                (name, ANSWERED) for site in covered if caught
                for value in model.resolve_all(site.node.func, site.scope, site.order) if isinstance(value, FunctionInfo)
                for name, _ in raised.get(id(value), [])
            ]
            again = scope.node if scope.kind == "recursion" and isinstance(scope.node, cst.Call) else None
            for call in covered:
                if id(call.node) in reported or id(call.node) in unread:
                    continue  # outside the ``try`` it retries, a lost response leaves the loop
                if again is not None and scope.function is not None and repeat_skips(scope.function, again, call):
                    continue  # the call again leaves the flag that takes this branch unset
                chain = [[*raised.get(id(call.scope.enclosing_function), []), *helpers]]
                if caught and not repeats_lost_response(caught, chain, is_project_class, ancestry):
                    continue  # it retries only project errors, and none comes of a lost response
                if caught and other_library_errors(caught, model.qualified_name(call.node.func, call.scope, call.order) or "", chain):
                    continue
                problem = _direct_problem(finder, call, scope)
                if problem is None:
                    continue
                reported.add(id(call.node))
                # a header is added only to a client this rule knows takes ``headers=`` (another
                # object's ``post``, an SDK's, may read the keyword as a field of the body)
                sent = finder.method(call)
                known = sent is not None and (sent[1] in METHOD_CALLS or sent[1] in REQUEST_CALLS)
                ctx.report(call.node.func, problem, anchor=call.node, fixable=known)
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


def _converted_on_the_way(judge: "_Judge", layer: Layer, function: FunctionSummary, request: Request) -> bool:
    """A request its file left alone because the layer retries only project errors, sent
    through a ``requests.Session`` subclass of another module whose ``request`` turns its
    failures into one of them (streamlink's ``HTTPSession`` raising ``PluginError``)."""
    if layer.retries_on != ON_SPECIFIC or not all(judge.graph.class_module(name) is not None for name in layer.exceptions):
        return False  # (a retry of a library's errors the file judged itself)
    call = judge.call_at(function, request.place)
    dispatched = judge.graph.callee(call, function.place.path) if call is not None else None
    return dispatched is not None and judge.repeats_lost(layer, (function, dispatched))


def _report_forwarding_callers(
    ctx: ProjectContext, judge: "_Judge", function: FunctionSummary, request: Request, layer: Layer, reported: Set[Place],
) -> None:
    """``def post(self, path, **kwargs)`` whose own loop retries ``session.post(url, **kwargs)``:
    each caller decides the headers, and one that passes none is reported at its call
    (``self.post("/sendMessage", json=params)``)."""
    if request.receiver is not None and not judge.is_client(request.receiver, function.place.path):
        return
    for caller in judge.graph.values.callers(function):
        given = caller.call.arguments
        if given is None or given.double_star or caller.call.place in reported or not ctx.reports_in(caller.function.place.path):
            continue
        problem = judge.forwarded(request.method, ((caller.function, caller.call),))
        if problem is None:
            continue
        reported.add(caller.call.place)
        ctx.report(caller.call.place, _message(
            f"`{_short(function.name)}`", problem, " with the keywords handed here", layer, request,
            where=f"in `{_short(function.name)}`",
        ), [(layer.place, f"the retry: {layer.description}"), (request.place, f"the {problem.method} it sends")])


def _failures_reach_the_caller(call: Call, callee: FunctionSummary) -> bool:
    return not call.swallowed


def _check_project(ctx: ProjectContext) -> None:
    """POSTs any number of calls below a retry, in any module; a retry another module's policy
    adds to a function that posts; a wrapper whose own loop retries the POST its caller asks
    for (``send("POST", url, retry=True)``)."""
    graph = ctx.graph
    judge = _Judge(graph)
    reported: Set[Place] = set()
    for ref in graph.all_layers():
        layer = ref.layer
        function = ref.function
        if layer.guards_non_idempotent:
            continue
        # outside the ``try`` a loop retries, a lost response leaves the loop: not repeated
        covered = [call for call in graph.covered_calls(ref) if ref.index not in call.escapes or ref.index in call.answered]
        # (what callers hand the retry is reported where they hand it)
        for call in covered:
            for caller, problem in judge.handed_posts(function, call):
                if caller.call.place in reported or not ctx.reports_in(caller.function.place.path):
                    continue
                reported.add(caller.call.place)
                ctx.report(caller.call.place, _message(
                    f"`{problem.detail}` handed to `{_short(function.name)}`", replace(problem, detail=""), "", layer,
                    where=f"in `{_short(function.name)}`",
                ), [(layer.place, f"the retry: {layer.description}"), (call.place, "calls what it is handed")])
        if not ctx.reports_in(function.place.path):
            continue  # a retry's findings are placed in its own function
        decorated = (function.name, ref.index) in graph.decorated
        places = {call.place for call in covered}
        posts = set()  # the requests judged here, or by the file itself
        for request in function.requests:
            if request.place not in places:
                continue
            if not (decorated or _pending(request)) or (request.status == PER_CALL and not layer.whole_function):
                posts.add(request.place)  # unless the retry comes from another module
                if request.status == "forwarded" and judge.repeats_lost(layer, (function,)):
                    _report_forwarding_callers(ctx, judge, function, request, layer, reported)
                    continue  # (the file leaves it to the callers' keywords)
                if not _converted_on_the_way(judge, layer, function, request):
                    continue
                problem = judge.problem(request, function, ())
                if problem is not None:
                    reported.add(request.place)
                    ctx.report(request.place, _message(f"`{request.name}`", problem, "", layer), [
                        (layer.place, f"the retry: {layer.description}"),
                    ])
                continue
            problem = judge.problem(request, function, ()) if judge.repeats_lost(layer, (function,)) else None
            if problem is not None and judge.never_runs(function, judge.call_at(function, request.place)):
                posts.add(request.place)
                continue
            if problem is not None:
                posts.add(request.place)
                reported.add(request.place)
                ctx.report(request.place, _message(f"`{request.name}`", problem, "", layer), [
                    (layer.place, f"the retry: {layer.description}"),
                ])
        # a retry on errors never sees a lost response that ends in an ``except Exception: log``
        # on the way; one on a status or a result reads the answer that does come back
        on_errors = layer.retries_on in (ON_ANY, ON_SPECIFIC)
        follow = _failures_reach_the_caller if on_errors else None
        # per call, the shortest way found to a POST: the project may read one call as two (an
        # abstract method reached through its override, and the override itself)
        shortest: Dict[Place, Tuple[int, str, List[Tuple[Place, str]]]] = {}
        for call in covered:
            if call.place in posts:
                continue
            near = function.place.path
            library_post = judge.library_post(call, near)
            # (a session subclass's ``request`` the verb runs is on the way: ``post`` calls it)
            dispatched = graph.callee(call, near) if library_post is not None else None
            if library_post is not None and judge.repeats_lost(layer, (function, dispatched) if dispatched else (function,)):
                reported.add(call.place)
                ctx.report(call.place, _message(f"`{_short(call.target)}`", library_post, "", layer), [
                    (layer.place, f"the retry: {layer.description}"),
                ])
                continue
            callee = graph.callee(call, near)
            if callee is None or (callee is function and layer.library == "recursion") or (call.swallowed and on_errors):
                continue  # a retry by recursion calls its own function: judged with it
            for reached, path, running in graph.reachable(callee, follow, (function, call)):
                steps = judge.steps(function, call, path)
                chain = [caller for caller, _ in steps] + [reached]
                repeated = judge.repeats_lost(layer, chain)
                answered_above = on_errors and raised_on_answer_above(
                    [graph.class_named(name) for name in layer.exceptions], layer.retries_on == ON_ANY,
                    [f.raises for f in chain], graph.ancestry,
                )
                if not repeated and not answered_above:
                    continue
                ruled_out = {c.place for c in reached.calls} - {c.place for c in running} if running is not reached.calls else ()
                for request in reached.requests:
                    sent = judge.call_at(reached, request.place)
                    quiet = sent is not None and on_errors and (
                        sent.swallowed or judge.ends_on_the_way(sent, steps) or quietly_caught(sent.caught)
                    )
                    if not (answered_above if quiet else repeated):
                        continue  # a lost response raises nothing the layer retries
                    if _mocked_on_the_way(request, steps):
                        continue
                    if request.place in ruled_out or (layer.retries_on == ON_SPECIFIC and other_library_errors(
                        layer.exceptions, request.name, [caller.raises for caller, _ in steps],
                    )):
                        continue
                    problem = judge.problem(request, reached, steps)
                    if problem is None:
                        continue
                    through = " through " + " -> ".join(f"`{_short(step.target)}`" for step in path) if path else ""
                    related = [
                        (request.place, f"the {problem.method} without a stable idempotency key"),
                        (layer.place, f"the retry: {layer.description}"),
                    ]
                    related.extend((step.place, f"calls `{_short(step.target)}`") for step in path)
                    if call.place not in shortest or len(path) < shortest[call.place][0]:
                        shortest[call.place] = (len(path), _message(f"`{_short(callee.name)}`", problem, through, layer, request), related)
                    break
                else:
                    continue
                break
        for place, (_, message, related) in shortest.items():
            reported.add(place)
            ctx.report(place, message, related)
    _guarded_wrappers(ctx, judge, reported)


def _guarded_wrappers(ctx: ProjectContext, judge: "_Judge", already: Set[Place]) -> None:
    """A wrapper whose own retry loop (or retry decorator) repeats a request whose method (or
    whether it retries at all) its caller decides: reported at each call that makes it a
    retried POST, unless a retry around that call was reported there already."""
    graph = ctx.graph
    for function in graph.functions:
        loops = {i for i, layer in enumerate(function.layers) if not layer.client and not layer.guards_non_idempotent}
        if not loops:
            continue
        # a request ``function`` decides itself is reported there, with its retry
        covered = [
            (request, index, sender, inner) for request, index, sender, inner in _covered_requests(graph, function, loops)
            if judge.problem(request, sender, inner) is None
            and judge.repeats_lost(function.layers[index], [function] if sender is function else [function, sender])
        ]
        if not covered:
            continue
        for caller in [*graph.values.callers(function), *judge.verb_callers(function)]:
            for request, index, sender, inner in covered:
                step = ((caller.function, caller.call),) + inner
                if _mocked_on_the_way(request, step):
                    continue
                layer = function.layers[index]
                if not graph.guard_holds(layer, function, caller.function, caller.call):
                    continue
                reported = False
                for steps in judge.method_chains(sender, request, step):
                    problem = judge.problem(request, sender, steps)
                    if problem is None:
                        continue
                    top = steps[0][1]
                    if problem.status == "unstable" and any(ref[0] == "fresh" for _, ref in top.passed):
                        continue  # made by the call into the retry, once for all its attempts
                    if judge.never_taken(steps, (sender, request)):
                        continue
                    if top.place in already:
                        reported = True  # by the retry around the call: one finding per call
                        break
                    # (a recursion's calls of itself named once)
                    called = _short(judge.written_target(top))
                    targets = [top.target] + [c.target for _, c in steps[1:]]
                    names = [_short(t) for i, t in enumerate(targets) if i and t != targets[i - 1]]
                    through = " through " + " -> ".join(f"`{name}`" for name in names) if names else ""
                    related = [
                        (request.place, f"the {problem.method} without a stable idempotency key"),
                        (layer.place, f"the retry: {layer.description}"),
                    ]
                    related.extend((c.place, f"calls `{_short(c.target)}`") for _, c in steps[1:])
                    ctx.report(top.place, _message(
                        f"`{called}`", problem, through, layer, request,
                        where=f"in `{_short(function.name)}`",
                    ), related)
                    already.add(top.place)
                    reported = True
                if reported:
                    break


# A ``requests.Session`` method that sends its request through ``self.request(VERB, url, ...)``:
# a project subclass that overrides ``request`` (jira's ``ResilientSession``, which retries it)
# runs that override for every ``session.post(url)``.
_SESSION_VERBS = {"post": "POST", "patch": "PATCH"}


def _mocked_on_the_way(request: Request, steps: Sequence[Tuple[FunctionSummary, Call]]) -> bool:
    """Whether a test double answers the request at a call on the way to it (a test's
    ``client.request("POST", ...)`` on an object whose session its fixture replaced with a
    ``MagicMock``): no response of it can be lost."""
    library = request.name.split(".", 1)[0]
    return any(answered(call.mocked, library, request.name) for _, call in steps)


def _covered_requests(
    graph: ProjectGraph, function: FunctionSummary, loops: Set[int],
) -> List[Tuple[Request, int, FunctionSummary, Tuple[Tuple[FunctionSummary, Call], ...]]]:
    """The requests whose method (or key) the callers decide that a loop of ``function``
    repeats: its own, and those of the project functions it calls in the loop (``_request(method,
    ...)`` from ``_retrying_request``), each with the loop, the function that sends it and the
    call into that function."""
    # a decorator's retry repeats every call of its function (and is on none's list)
    whole = tuple(index for index in sorted(loops) if function.layers[index].whole_function)
    found: List[Tuple[Request, int, FunctionSummary, Tuple[Tuple[FunctionSummary, Call], ...]]] = [
        (r, index, function, ()) for r in function.requests if _decided_by_callers(r)
        for index in whole + _loops_over(function, r) if index in loops
    ]
    near = function.place.path
    for call in function.calls:
        indexes = [index for index in whole + call.layers if index in loops]
        callee = graph.callee(call, near) if indexes else None
        if callee is None or callee is function:
            continue
        found.extend((r, indexes[0], callee, ((function, call),)) for r in callee.requests if _decided_by_callers(r))
    return found


def _gives_up_otherwise(inner: Layer, outer: Layer) -> bool:
    """``inner`` retries every error ``outer`` retries and, once spent, raises a class ``outer``
    does not retry (tenacity's ``RetryError`` without ``reraise=True``): ``outer`` never sees
    the failure of a request inside it."""
    raised = inner.gives_up_with
    if not raised or raised == GIVES_UP_QUIETLY or raised.endswith(".*") or " " in raised or raised in outer.exceptions:
        return False
    return inner.retries_on == ON_ANY or (inner.retries_on == ON_SPECIFIC and set(outer.exceptions) <= set(inner.exceptions))


def _decided_by_callers(request: Request) -> bool:
    return bool(request.method_from) or request.status in ("param", "via")


def _pending(request: Request) -> bool:
    """A request the file could not judge alone: its method, its receiver or its key is the
    project's to tell."""
    return bool(request.method_from or request.receiver or request.status in ("param", "via"))


def _loops_over(function: FunctionSummary, request: Request) -> Tuple[int, ...]:
    for call in function.calls:
        if call.place == request.place:
            return call.layers
    return ()


@dataclass(frozen=True)
class _Problem:
    method: str
    status: str  # "missing" | "unstable"
    detail: str = ""


class _Judge:
    """Whether a request, reached along a path of calls from a retry, is a POST or PATCH whose
    key does not survive the retry: what its callers pass as the method, the key or the
    headers is read along that path, nearest caller first."""

    def __init__(self, graph: ProjectGraph) -> None:
        self.graph = graph
        self._session_heirs: Optional[Set[str]] = None
        # the calls ``verb_callers`` reads as ``request(VERB, ...)``, kept for the whole pass:
        # the value flow keeps what it found of a call by the call's identity
        self._as_request: Dict[int, Call] = {}
        self._written: Dict[int, str] = {}  # id(a call so read) → its target as written

    def verb_callers(self, function: FunctionSummary) -> List[Caller]:
        """For the ``request`` method of a project ``requests.Session`` subclass: the project's
        ``session.post(url, ...)`` calls that run it, each read as the ``session.request("POST",
        url, ...)`` that ``requests.Session.post`` makes."""
        cls, name = split_last(function.name)
        if name != "request":
            return []
        if self._session_heirs is None:
            self._session_heirs = self.graph.values.library_heirs(("requests.Session",))
        if cls not in self._session_heirs:
            return []
        found: List[Caller] = []
        for verb, method in _SESSION_VERBS.items():
            for caller, call in self.graph.values.named(verb):
                if call.arguments is None:
                    continue
                shifted = self._as_request.get(id(call))
                if shifted is None:
                    passed = ((0, ("str", method)),) + tuple((1, ref) for at, ref in call.passed if at == 0) + tuple(
                        (at, ref) for at, ref in call.passed if not isinstance(at, int)
                    )
                    # (in the subclass's own module the verb is named as the library's, on an
                    # object made there: ``self.session = PyiCloudSession(self)``)
                    owner = self._made_class(caller, call) if call.target == f"requests.Session.{verb}" else None
                    shifted = self._as_request[id(call)] = replace(
                        call, target=f"{owner or split_last(call.target)[0]}.request", passed=passed,
                        arguments=replace(call.arguments, positional=min(call.arguments.positional, 1) + 1),
                    )
                    self._written[id(shifted)] = call.target
                offset = self.graph.values.offset(shifted, function, caller.place.path)
                if offset is not None:
                    found.append(Caller(caller, shifted, offset))
        return found

    def _made_class(self, caller: FunctionSummary, call: Call) -> Optional[str]:
        """The project class whose construction in the caller's module made the object ``call``
        is sent on (its receiver, the place of that construction), if any."""
        if not call.receiver:
            return None
        module = self.graph.module_of(caller)
        for function in module.functions.values() if module is not None else ():
            for made in function.calls:
                if made.place.key == call.receiver and self.graph.class_module(made.target) is not None:
                    return made.target
        return None

    def written_target(self, call: Call) -> str:
        """The name a call is written with (``post`` for one ``verb_callers`` reads as ``request``)."""
        return self._written.get(id(call), call.target)

    def steps(self, start: FunctionSummary, call: Call, path: Tuple[Call, ...]) -> Tuple[Tuple[FunctionSummary, Call], ...]:
        """The (caller, call) pairs from the retried function down to the last callee."""
        steps = [(start, call)]
        owner = self.graph.callee(call, start.place.path)
        for step in path:
            if owner is None:
                break
            steps.append((owner, step))
            owner = self.graph.callee(step, owner.place.path)
        return tuple(steps)

    def ends_on_the_way(self, sent: Call, steps: Sequence[Tuple[FunctionSummary, Call]]) -> bool:
        """Whether a lost response of the request ``sent`` becomes a project error
        (``Call.lost_as``) that a call on the way catches and raises nothing for (``_send_sms``
        catching ``FailedToSendSMS`` and returning an error code): a retry above never sees it."""
        if not sent.lost_as:
            return False
        classes = self.graph.ancestry(sent.lost_as) or {sent.lost_as}
        return any(classes & set(call.caught) for _, call in steps)

    def repeats_lost(self, layer: Layer, chain: Sequence[FunctionSummary]) -> bool:
        """Whether ``layer`` sends a request of the last function of ``chain`` again after its
        response was lost (``libraries/raised_errors.py``)."""
        if layer.retries_on != ON_SPECIFIC:
            return True
        if any(_gives_up_otherwise(own, layer) for function in chain[1:] for own in function.layers if own.whole_function):
            return False  # a retry on the way turns the request's failures into what the layer does not retry
        graph = self.graph
        sender = chain[-1]
        # what the sender's helpers raise on the answer (``check(response)``) is the sender's: on
        # a refusal (``if r.status_code == 429: raise RateLimited``) as the helper says, else on
        # an answer that may follow the server's effect
        helpers = (graph.callee(call, sender.place.path) for call in sender.calls)
        answers = [
            *sender.raises,
            *((name, how if how in (REFUSED, SUCCEEDED) else ANSWERED)
              for helper in helpers if helper is not None for name, how in self.escaping(helper)),
        ]
        return repeats_lost_response(
            [graph.class_named(name) for name in layer.exceptions], [*(f.raises for f in chain[:-1]), answers],
            lambda name: graph.class_module(name) is not None,
            graph.ancestry,
        )

    def escaping(self, helper: FunctionSummary) -> Iterator[Tuple[str, str]]:
        """The project errors ``helper`` raises that leave it, with how it raises them: one that
        a retry of its own retries leaves as what that retry gives up with
        (``RetriesExhausted``), if anything, once its attempts are spent."""
        for name, how in helper.raises:
            bases = self.graph.ancestry(name) or {name}
            own = next((layer for layer in helper.layers if layer.whole_function and bases & set(layer.exceptions)), None)
            if own is None or own.gives_up_with is None:
                yield name, how
            elif own.gives_up_with != GIVES_UP_QUIETLY and not own.gives_up_with.endswith(".*"):
                yield own.gives_up_with, ANSWERED

    def problem(self, request: Request, function: FunctionSummary, steps: Tuple[Tuple[FunctionSummary, Call], ...]) -> Optional[_Problem]:
        method = request.method
        if not method and request.method_from:
            method = next((h.name.upper() for h in self.passed(function, request.method_from, steps) if h.kind == "str"), "")
        if method not in UNSAFE:
            return None
        if request.receiver is not None and not self.is_client(request.receiver, function.place.path):
            return None
        if request.receiver is None and self.project_method_at(function, request.place):
            # ``self._client.request("POST", ..., idempotency_key=key)`` runs the project's own
            # method, which may make the key a header: followed there
            return None
        sent = self.call_at(function, request.place)
        if steps and sent is not None and _sends_token_body(tuple(steps) + ((function, sent),)):
            return None  # an OAuth token request's body the callers hand it (``body=login_body``)
        status = "unstable" if request.status == PER_CALL else request.status
        if status in ("missing", "unstable"):
            return _Problem(method, status, request.detail)
        if status == "forwarded":
            return self.forwarded(method, steps)
        return self.key(method, function, status, request.key_from, request.place, steps)

    def key(
        self, method: str, function: FunctionSummary, status: str, source: Optional[str], place: Place,
        steps: Tuple[Tuple[FunctionSummary, Call], ...],
    ) -> Optional[_Problem]:
        """The key of headers ``function`` sends at ``place``: "param" (its parameter ``source``
        holds the key or the headers) or "via" (they come from the helper or mapping ``source``)."""
        if status == "param" and source:
            return self.key_parameter(method, function, source, steps)
        if status == "via" and source:
            helper = self.graph.resolve(source, function.place.path)
            headers = helper.headers if helper is not None else self.mapping_headers(source, function)
            if headers in ("missing", "unstable"):
                return _Problem(method, headers, f"`{source.rsplit('.', 1)[-1]}()`" if helper is not None else "")
            if headers is not None and headers.startswith("param:") and helper is not None:
                return self.helper_key(method, function, source, place, helper, headers[6:], steps)
            if headers is not None and headers.startswith("merge:") and helper is not None:
                return self.merged_key(method, function, source, place, helper, headers[6:], steps)
        return None

    def forwarded(self, method: str, steps: Tuple[Tuple[FunctionSummary, Call], ...]) -> Optional[_Problem]:
        """The request sends the ``**kwargs`` of its function: the headers (if any) the call
        into it passes decide."""
        if not steps:
            return None
        if _sends_token_body(steps):
            return None  # an OAuth token request sent through the wrappers: it only mints a token
        caller, entry = steps[-1]
        while entry.arguments is not None and entry.arguments.forwards_kwargs and "headers" not in entry.arguments.keywords \
                and len(steps) > 1:
            steps = steps[:-1]  # its own ``**kwargs``, from the call before
            caller, entry = steps[-1]
        if _passes_no_headers(entry):
            return _Problem(method, "missing")
        passed = next((ref for slot, ref in entry.passed if slot == "headers" and ref[0] == "headers"), None)
        if passed is None:
            return None
        status, source = passed[1], passed[2]
        if status in ("missing", "unstable"):
            return _Problem(method, status)
        return self.key(method, caller, status, source, entry.place, steps[:-1])

    def helper_key(
        self, method: str, function: FunctionSummary, name: str, place: Place, helper: FunctionSummary,
        parameter: str, steps: Tuple[Tuple[FunctionSummary, Call], ...],
    ) -> Optional[_Problem]:
        """The helper puts its parameter in the headers: what ``function`` passes it."""
        for call in function.calls:
            if call.target != name or not (place.line <= call.place.line <= place.end_line):
                continue
            for slot, ref in call.passed:
                if slot == parameter or (isinstance(slot, int) and parameter in helper.parameters
                                         and helper.parameters.index(parameter) == slot):
                    if ref[0] == "fresh":
                        return _Problem(method, "unstable", f"`{ref[1].strip('`')}`")
                    own = own_parameter(function.name, ref)
                    if own is not None:
                        return self.key_parameter(method, function, own, steps)
        return None

    def merged_key(
        self, method: str, function: FunctionSummary, name: str, place: Place, helper: FunctionSummary,
        parameter: str, steps: Tuple[Tuple[FunctionSummary, Call], ...],
    ) -> Optional[_Problem]:
        """The helper's own headers lack the key and it merges in the mapping its parameter
        holds (``partner_headers(extra=None)``): the mapping ``function`` passes it decides;
        none at all leaves the key out."""
        for call in _helper_calls(function, name, place):
            offset = self.graph.values.offset(call, helper, function.place.path) or 0
            passed = passed_at(call, helper, parameter, offset)
            if not passed:
                if omits(call, helper, parameter, offset):
                    return _Problem(method, "missing", f"`{name.rsplit('.', 1)[-1]}()`")
                continue
            mapping = next((ref for ref in passed if ref[0] == "headers"), None)
            if mapping is None:
                continue
            status, source = mapping[1], mapping[2]
            if status in ("missing", "unstable"):
                return _Problem(method, status, f"`{name.rsplit('.', 1)[-1]}()`")
            return self.key(method, function, status, source, call.place, steps)
        return None

    def key_parameter(
        self, method: str, function: FunctionSummary, parameter: str, steps: Tuple[Tuple[FunctionSummary, Call], ...],
    ) -> Optional[_Problem]:
        """The key is ``function``'s parameter: unstable when a caller inside the retried code
        makes it anew for each call; stable when it comes from outside."""
        refs = self.passed_refs(function, parameter, steps)
        fresh = next((ref for ref, _ in refs if ref[0] == "fresh"), None)
        if fresh is not None:
            return _Problem(method, "unstable", f"`{str(fresh[1]).strip('`')}`")
        built = next((ref for ref, _ in refs if ref[0] == "headers" and ref[1] in ("via", "param")), None)
        if built is not None and steps and not function.layers:
            # headers the call into ``function`` builds (``headers=idem_headers(key)``), when
            # the retry is not ``function``'s own (a key made by its caller would be stable)
            caller, entry = steps[-1]
            problem = self.key(method, caller, built[1], built[2], entry.place, steps[:-1])
            if problem is not None:
                return problem
        if refs and all(ref[0] == "none" or ref[:2] == ("headers", "missing") for ref, _ in refs):
            # the call leaves ``headers=None`` (no headers at all), or passes a mapping the
            # file reads in full, without the key
            return _Problem(method, "missing")
        return None

    def method_chains(
        self, function: FunctionSummary, request: Request, steps: Tuple[Tuple[FunctionSummary, Call], ...], depth: int = 0,
    ) -> Iterator[Tuple[Tuple[FunctionSummary, Call], ...]]:
        """The paths of calls that decide a request's method: the call into ``function`` when
        it passes the method itself, else, when it hands down a parameter of its own
        (``request(method, ...)`` called by ``post`` as ``request("post", ...)``), the paths
        from each caller of that function that passes one, up to a few calls up."""
        handed = self.handed_down(function, request.method_from, steps) if request.method_from else None
        carrier = "headers" if request.status == "forwarded" else request.key_from if request.status == "param" else None
        if handed is None and carrier:
            top, call = steps[0]
            args = call.arguments
            if args is not None and args.forwards_kwargs and carrier not in args.keywords:
                handed = top  # the headers (or the key) are its callers' ``**kwargs``
        if handed is None or depth >= _MAX_METHOD_HOPS:
            yield steps
            return
        for caller in self.graph.values.callers(handed):
            yield from self.method_chains(function, request, ((caller.function, caller.call),) + steps, depth + 1)

    def handed_down(self, function: FunctionSummary, parameter: str, steps: Tuple[Tuple[FunctionSummary, Call], ...]) -> Optional[FunctionSummary]:
        """The outermost function of ``steps`` when every call of the path passes ``parameter``
        on from a parameter of its own: its callers decide it."""
        graph = self.graph
        for caller, call in reversed(steps):
            offset = graph.values.offset(call, function, caller.place.path)
            refs = passed_at(call, function, parameter, offset) if offset is not None else []
            if not refs and offset is not None and call.arguments is not None and call.arguments.forwards_kwargs \
                    and parameter not in caller.parameters:
                function = caller  # ``self.request(url, **kwargs)``: its callers pass it by keyword
                continue
            own = own_parameter(caller.name, refs[0]) if len(refs) == 1 else None
            if own is None:
                return None
            function, parameter = caller, own
        return function

    def passed(self, function: FunctionSummary, parameter: str, steps: Tuple[Tuple[FunctionSummary, Call], ...]) -> List[Held]:
        found: List[Held] = []
        for ref, module in self.passed_refs(function, parameter, steps):
            found.extend(self.graph.values.ref(ref, module))
        return found

    def passed_refs(
        self, function: FunctionSummary, parameter: str, steps: Tuple[Tuple[FunctionSummary, Call], ...],
    ) -> List[Tuple[Ref, ModuleSummary]]:
        """What the path passes as ``parameter`` of ``function``: the last call's argument, or,
        when that is its caller's own parameter, what the call before passes, and so on."""
        graph = self.graph
        default = function.defaults.get(parameter)
        defaulted = [(default, graph.module_of(function))] if default is not None else []
        for index in range(len(steps) - 1, -1, -1):
            caller, call = steps[index]
            offset = graph.values.offset(call, function, caller.place.path)
            if offset is None:
                return []
            refs = passed_at(call, function, parameter, offset)
            if not refs and call.arguments is not None and call.arguments.forwards_kwargs and parameter not in caller.parameters:
                function = caller  # ``f(method, **kwargs)``: the caller's callers may pass it by keyword
                continue
            if not refs:
                default = function.defaults.get(parameter)
                return [(default, graph.module_of(function))] if default is not None else defaulted
            # (an annotated parameter is also handed on as an object of its class: the path's
            # own value says more)
            own = [name for name in (own_parameter(caller.name, ref) for ref in refs) if name is not None]
            if len(own) == 1 and len(refs) - 1 <= sum(ref[0] == "new" for ref in refs):
                function, parameter = caller, own[0]  # handed down from the caller's caller
                defaulted = [(caller.defaults[parameter], graph.module_of(caller))] if parameter in caller.defaults else []
                continue
            return [(ref, graph.module_of(caller)) for ref in refs]
        return []

    def mapping_headers(self, name: str, function: FunctionSummary) -> Optional[str]:
        """"missing" when ``name`` is a mapping of another module that lacks the key (default
        headers merged into the request's own), "stable" when it has it; None when unknown."""
        mappings = [h for h in self.graph.values.of(name, function.place.path) if h.kind == "dict"]
        if not mappings:
            return None
        if any(key.lower() == KEY_HEADER for h in mappings for key, _ in h.entries):
            return "stable"
        return "missing"

    def library_post(self, call: Call, near: str) -> Optional[_Problem]:
        """A call the project resolves to a library's POST or PATCH (an entry of a dispatch
        dict, a ``partial``, a session another module's factory makes) that passes no headers
        and is no OAuth token request."""
        graph = self.graph
        if not graph.is_project_name(call.target) or graph.resolve(call.target, near) is not None:
            return None
        args = call.arguments
        headers = next((ref for slot, ref in call.passed if slot == "headers"), None)
        if ("headers" in args.keywords if args is not None else True) and (headers is None or headers[:2] != ("headers", "missing")):
            return None  # headers that may carry a key (a mapping written without one is read)
        if args is None or args.double_star or _passes_token_body(call, {"data", "json"}):
            return None
        for held in graph.values.of(call.target, near):
            if held.kind in ("object", "partial"):
                verb = METHOD_CALLS.get(normalise(held.name) or "")
                if verb is not None and "headers" not in held.keywords and not self.keyed_session(call, near):
                    return _Problem(verb, "missing", held.name)
        return None

    def handed_posts(self, function: FunctionSummary, call: Call) -> Iterator[Tuple[Caller, _Problem]]:
        """``request_with_retry(self._client.post, url, json=...)`` into ``def
        request_with_retry(func, *args, **kwargs)`` whose loop calls ``func(*args, **kwargs)``:
        each caller that hands the function a library's POST or PATCH and its keywords, none of
        them headers, with the name of what it hands (``Problem.detail``)."""
        parameter = own_parameter(function.name, ("ref", call.target))
        args = call.arguments
        if parameter is None or args is None or not args.forwards_kwargs:
            return
        for caller in self.graph.values.callers(function):
            given = caller.call.arguments
            if given is None or given.double_star or "headers" in given.keywords or _passes_token_body(caller.call, {"data", "json"}):
                continue
            module = self.graph.module_of(caller.function)
            for ref in passed_at(caller.call, function, parameter, caller.offset):
                for held in self.graph.values.ref(ref, module):
                    verb = METHOD_CALLS.get(normalise(held.name) or "") if held.kind == "object" else None
                    if verb is not None and not self.keyed_session(replace(caller.call, target=held.name), caller.function.place.path):
                        yield caller, _Problem(verb, "missing", held.name)
                        break

    def keyed_session(self, call: Call, near: str) -> bool:
        """The call's object is a session whose own headers carry an idempotency key."""
        receiver = split_last(call.target)[0]
        return any(h.facts is not None and h.facts.key for h in self.graph.instances(receiver, near))

    def never_runs(self, function: FunctionSummary, call: Optional[Call]) -> bool:
        """Whether no call of ``function`` in the project runs ``call``: every caller leaves the
        parameter its guard tests at a value that rules it out (``send_query(q)`` with ``method``
        at its default ``"GET"`` never takes the ``else:`` that POSTs). A function no project
        code calls may be called from outside: it runs."""
        if call is None or not call.guards:
            return False
        conditions = self.graph.conditions
        callers = self.graph.values.callers(function)
        return bool(callers) and not any(
            conditions.runs(call, function, conditions.enter(caller.function, caller.call, function, {}))
            for caller in callers
        )

    def never_taken(self, steps: Sequence[Tuple[FunctionSummary, Call]], sent: Optional[Tuple[FunctionSummary, Request]] = None) -> bool:
        """Whether a chain of calls never gets to its last one (or to the request ``sent`` at its
        end): no caller of the first function runs the first call (``never_runs``), or a call
        on the way is under a guard that the calls before it rule out (``send_query(q)`` leaves
        ``method`` at ``"GET"``, and the wrapper's ``else:`` POSTs with the headers its caller
        passes in ``**kwargs``; ``_make_request('GET', url)`` never runs its ``elif
        http_method == "POST":``)."""
        if self.never_runs(steps[0][0], steps[0][1]):
            return True
        conditions = self.graph.conditions
        context: Context = {}
        chain = list(steps)
        if sent is not None:
            request_call = self.call_at(sent[0], sent[1].place)
            if request_call is not None:
                chain.append((sent[0], request_call))
        for (caller, into), (function, call) in zip(chain, chain[1:]):
            context = conditions.enter(caller, into, function, context)
            if not conditions.runs(call, function, context):
                return True
        return False

    @staticmethod
    def call_at(function: FunctionSummary, place: Place) -> Optional[Call]:
        return next((call for call in function.calls if call.place == place), None)

    def project_method_at(self, function: FunctionSummary, place: Place) -> bool:
        """The call at ``place``, which its file took for a client's request by the receiver's
        name alone (``self._client.request``), runs a method of the project, and hands it
        something that may become the key (``idempotency_key=key``, ``**kwargs``): what the
        method does with it decides. Headers written out without a key stay missing."""
        call = self.call_at(function, place)
        return (call is not None and self.graph.is_project_name(call.target) and _may_pass_key(call)
                and self.graph.callee(call, function.place.path) is not None)

    def is_client(self, receiver: str, near: str) -> bool:
        """The object is an HTTP client of a library the rule knows."""
        for held in self.graph.instances(receiver, near):
            cls = held.name
            if self.graph.class_module(cls) is not None:
                cls = self.graph.values.library_base(cls) or cls
            if normalise(cls) in CLIENT_CLASSES:
                return True
        return False


_MAX_METHOD_HOPS = 4  # calls that may hand a request's method down
_KEY_ARGUMENT = re.compile(r"idempot|key", re.I)


def _may_pass_key(call: Call) -> bool:
    """The call passes an argument named for a key (``idempotency_key=``) or ``**kwargs``."""
    args = call.arguments
    if args is None:
        return any(isinstance(slot, str) and _KEY_ARGUMENT.search(slot) for slot, _ in call.passed)
    return args.double_star or any(_KEY_ARGUMENT.search(keyword) for keyword in args.keywords)


def _helper_calls(function: FunctionSummary, name: str, place: Place) -> List[Call]:
    """The calls of the helper ``name`` that built the headers of the request at ``place``:
    those written in it, else the helper's only call in ``function`` (``headers = helper(...)``
    a line before)."""
    calls = [call for call in function.calls if call.target == name]
    within = [call for call in calls if place.line <= call.place.line <= place.end_line]
    return within or (calls if len(calls) == 1 else [])


def _message(
    what: str, problem: _Problem, through: str, layer: Layer, request: Optional[Request] = None, where: str = "here",
) -> str:
    sent = f"a {problem.method}"
    if request is not None:
        sent += f" (`{request.name}`)"
    name = request.name if request is not None else what.strip("`")
    why = (
        f"with an {key_name(name)} created on each call{f' ({problem.detail})' if problem.detail else ''}" if problem.status == "unstable"
        else f"without {key_spelling(name)}"
    )
    return (
        f"{what} sends {sent}{through} {why} and is retried {where} by {layer.retrier}: if an attempt reached the "
        "server and only the response was lost, the retry repeats the effect"
    )


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _retries_raised_poll(model: SemanticModel, policy: Policy) -> bool:
    """tenacity's ``retry_if_exception_type(TryAgain)`` (or an error of the module's own) where
    the code raises it only on the state a complete answer holds (``polls_result``): a lost
    response raises another error, which leaves the retry. (A ``retry_if_result`` predicate may
    test a 5xx, which may follow the server's effect.)"""
    node = policy.retry_on.node
    if policy.retry_on.kind != ON_RESULT or not policy.polls_result or node is None:
        return False
    scope, order = policy.scope or model.module_scope, policy.order
    called = {model.qualified_name(n.func, scope, order) for n in iter_nodes(node) if isinstance(n, cst.Call)}
    return "tenacity.retry_if_exception_type" in called and not called & _RESULT_PREDICATES


_RESULT_PREDICATES = frozenset({"tenacity.retry_if_result", "tenacity.retry_if_not_result"})


def _sends_token_body(steps: Tuple[Tuple[FunctionSummary, Call], ...]) -> bool:
    """Whether the body the calls on the way hand to the request's ``data``/``json`` is an OAuth
    token request's (``data={"grant_type": ...}``), passed on from wrapper to wrapper by keyword
    or by position (``post(url, body)`` into ``def post(url, data=None, **kw)``)."""
    wanted: Set[Any] = {"data", "json"}
    for caller, call in reversed(steps):  # from the request's function out
        if _passes_token_body(call, wanted):
            return True
        refs = [ref for slot, ref in call.passed if slot in wanted]
        # what the wrapper's caller hands it there: its parameters passed on, by keyword or by
        # position, and the keywords of its own ``**kwargs`` passed on whole
        own = {ref[1][len(caller.name) + 2:-1] for ref in refs if ref[0] == "ref" and ref[1].startswith(f"{caller.name}.(")}
        offset = 1 if caller.bound else 0
        wanted = own | {caller.parameters.index(p) - offset for p in own if p in caller.parameters}
        if ("**", ("ref", f"{caller.name}.(**)")) in call.passed:
            wanted |= {"data", "json"}
        if not wanted:
            return False
    return False


def _passes_token_body(call: Call, slots: Set[Any]) -> bool:
    """Whether ``call`` passes an OAuth token request's body in one of ``slots``."""
    return any(ref == ("token",) for slot, ref in call.passed if slot in slots)


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
            f"`{name}` ({verb}) is retried by {what}, but its {key_name(name)} ({detail}) is created "
            "inside the retried code, so it changes on every attempt and protects nothing: create it "
            "once, before the retry"
        )
    return None


# What a library's retry of a non-idempotent request follows: urllib3 retries after a read
# error, aiohttp-retry after a 5xx answer (or an error it is told to retry).
_LOST_BY = {"urllib3": "the connection broke", "aiohttp-retry": "it answered with a 5xx"}


def _missing_key(name: str, verb: str, what: str) -> str:
    return (
        f"`{name}` ({verb}) is retried by {what} without {key_spelling(name)}: if an "
        "attempt reached the server and only the response was lost, the retry repeats the effect"
    )
