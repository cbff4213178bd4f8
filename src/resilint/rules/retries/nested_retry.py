"""RES204 nested-retry."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Dict, FrozenSet, Iterator, List, Optional, Set, Tuple

from resilint.libraries.retry_scopes import ON_ANY, ON_FAILED_RESULT, ON_RESULT, ON_SPECIFIC
from resilint.libraries.self_retrying import GIVES_UP_QUIETLY, for_method, not_raised_by, separate_failures
from resilint.lint.project import LayerRef, ProjectContext, ProjectGraph, Reached
from resilint.lint.rule import Invalid
from resilint.lint.summary import CALLED, Call, FunctionSummary, Layer, Place
from resilint.lint.value_flow import split_last
from resilint.rules.project_rule import ProjectRule
from resilint.rules.retries.near_misses import PAGE_ASSERTION_POLL


class NestedRetry(ProjectRule):
    """A retry layer reaches another retry layer, so the attempts multiply.

    ## What it does
    Flags a retry layer — a tenacity/backoff/stamina/retrying/resilint decorator or loop, a
    celery task that retries (also through a `Task` class given as `base=`), an RQ job enqueued
    with `retry=Retry(...)`, a hand-written retry loop, a function that retries by calling
    itself, a worker that re-queues failed items — whose retried code reaches another
    layer: a function that retries by itself, a retry loop below it, or a client that retries
    every request (the table below). Two retry decorators stacked on one function nest too
    (reported at the lower one). The other layer may be any number of calls away, in any
    module of the project; the client may be another module's object or what a factory
    returns (`retrying_session().get(...)`), and a layer may come from a policy kept in
    another module's variable (`@api_retry`, `for attempt in api_retrying:`,
    `api_retrying(fn, ...)`) or returned by a project function (`@utils.ratelimit_backoff(...)`
    of `def ratelimit_backoff(exceptions): return backoff.on_exception(...)`), or from a project decorator that wraps the function in a retry, a
    library's or a hand-written loop in its wrapper (`@with_retries(5)`: its attempts are the
    decorator's argument, also a class constant, or its default; a function the `decorator`
    package makes a decorator, `@decorator async def retry_request(func, retries=6, *args,
    **kwargs)` looping around `func(*args, **kwargs)`, is one too), or a wrapper that calls itself again with a count
    (`count = kwargs.pop("count", retries)` … `if count > 0: count -= 1; return
    wrapper(*args, **kwargs)`: `retries + 1` attempts, `@retrier(retries=0)` none to
    multiply; a count that starts from another module's constant is read there). Clients reach a layer however they travel: module
    objects, attributes set in a base class, parameters, lazy singletons, factories (see
    "Across functions and modules" in the README).

    The finding is reported at the call in the outer layer that leads inward, once per pair of
    layers; the message states the layers and the product of their attempts
    (`tenacity 3 attempts (api/client.py:12) x urllib3 Retry total=3 (api/session.py:8) = up to
    12 calls per operation`), and every layer and call on the way is a related location. A
    hand-written loop's attempts are read from its `range(...)`, or from the counter that ends
    it (`while attempt < 3`, `if retries > 0: retries -= 1; continue` then `raise`, with the
    start and bound numbers, constants, also through a local given one (`max_attempts =
    _MAX_ATTEMPTS`, or the larger of a choice, `_MAX_ATTEMPTS if task == "document" else 1`),
    class constants read off the object (`self.ATTEMPTS`)
    or parameter defaults), replayed pass by pass; a `range(startup_period)` of a parameter
    is counted by the number the calls on the way pass it (`wait_for_ready(url, 10)`), and a
    retry by recursion by the counter it calls itself with while below a limit (`if retry < 5:
    reconnect(url, retry + 1)` with `retry=0`: 6 attempts). A library's count given as another
    module's constant (`stop_max_attempt_number=ACME_ATTEMPTS`, `stop_after_attempt(TRIES)`,
    `max_tries=TRIES`, `attempts=TRIES`, imported) is read where that module defines it. A
    count that cannot be read from the code (an SDK client configured elsewhere) is stated as
    unknown, never guessed. A retry decorator's function that runs again inside its own
    attempt, calling itself (`authed_get` whose rate-limit path calls `self.authed_get(...)`)
    or through another function (`request` -> `get_base_url` -> `request`), nests that retry
    in itself: `backoff 6 attempts x backoff 6 attempts = up to 36 calls`. A helper that retries the function it is given
    (`def call_with_retries(fn, *args): for attempt in range(4): ... fn(*args)`) is a layer
    around every project function its callers hand it; the finding is at its call of the
    parameter and names what runs there (`through `fn` (`fetch_page`) -> `request``). So is
    an object whose `__call__` does that (patroni's `Retry`: `self._retry(func, conn, role)`,
    `self._retry.copy()(*args, **kwargs)` in a method that hands on its own `*args`), and
    what a caller passes after the function is what that function gets
    (`with_retry(tag, boto3.client("ec2"), role)`: `tag`'s client is that one, not what other
    callers hand the helper). A retry around a function that calls such a helper counts,
    below the helper's loop, what that path hands it, not what its other callers do (also
    when the retrying part is a function nested in the helper, `def call_with_retries(func):
    @backoff.on_exception(...) def attempt(): return func()`).
    Layers switched off (`Retry(0)`, `max_retries=0`, one attempt) are
    not layers.

    Clients that retry by themselves, as their libraries document them. A client's settings
    are read where it is built, and follow the object to every module it reaches (a request
    whose verb is chosen by name, `getattr(session, method.lower())(url)`, included); an object
    that may be one of several (`client if client is not None else httpx.Client(...)`, or made
    under `if client is None:`) retries as the first of them that does; a factory of the file
    that mounts `HTTPAdapter(max_retries=retries)` from its parameter gives each call's object
    what that call passes (`writes = make_session(0)` retries nothing, `reads =
    make_session(Retry(total=2))` retries twice, in any module that uses it); a request on a
    function's own parameter (`def send(method, url, session=None): session = session or
    writes`) goes to what the call that reaches it passes there, or, passing nothing, to the
    function's own fallback; one whose retry layer is the function itself (`@retry(...)` over
    `def make_call(client: WebClient, ...)`) goes to what every call of it passes, when each
    passes a client the project shows (else the annotation's client, retries unknown). A
    project class that extends one of the clients below is that client: read where it is made
    when no class on the way defines `__init__`, else at the one call of the base's `__init__`
    in its `__init__` (`super().__init__(host=conf["host"])`, in whatever module makes one);
    one that hands on its `**kwargs` is not judged:

    | client | calls per request | switched off by |
    |---|---|---|
    | requests session (or a project subclass of `requests.Session`) with `HTTPAdapter(max_retries=...)` mounted (or an `HTTPAdapter` subclass of the module that hands its keywords on, such as a `TimeoutHTTPAdapter` filling in a timeout) | the `Retry`'s total + 1 (requests' own default: no retry) | `max_retries=0`, `Retry(0)` |
    | httpx client on `HTTPTransport(retries=N)` | N + 1, failed connects only | `retries=0` |
    | urllib3 `PoolManager`, `ProxyManager`, `HTTPConnectionPool`, `urllib3.request()` | `retries=` + 1; 4 by default (`Retry.DEFAULT`); a request's own `retries=` replaces the pool's, also given in a `**mapping` written out (`kwargs = {"retries": 0}`); a request whose `**kwargs` may carry one (its file gives some request `retries`, `kwargs.update(retries=0)`) is not counted | `retries=False`, `retries=0`, `Retry(0)` |
    | botocore/boto3 client or resource (a resource's parts, `s3.Bucket(name).upload_file`, `s3.meta.client`, send through its client, in any module) | `Config(retries=...)`: `total_max_attempts`, else `max_attempts` + 1 (it counts retries); without them the retry mode's default (3 in standard mode, 5 in legacy mode) or `AWS_MAX_ATTEMPTS`: stated as unknown | `{"total_max_attempts": 1}`, `{"max_attempts": 0}` |
    | OpenAI (`OpenAI`, `AsyncOpenAI`, Azure) | `max_retries` + 1; 3 by default; `with_options(max_retries=...)` for some requests | `max_retries=0` |
    | Elasticsearch, OpenSearch | `max_retries` + 1; 4 by default (connection errors and 502/503/504, and 429 for Elasticsearch; OpenSearch retries a 429 only when `retry_on_status=` says so); `options(max_retries=...)` for some requests | `max_retries=0` |
    | redis-py `Redis`, `from_url` | `retry=Retry(backoff, N)`: N + 1 (N < 0: for ever); `retry_on_timeout=True` or `retry_on_error` with `retry=None`: 2; without `retry=`: unknown (1 retry before redis-py 6, the client's default `Retry` since) | `Retry(backoff, 0)`; a client with none of these is not counted: it retries by default only since redis-py 6 (3 times, 10 since redis-py 8), which the code does not show |
    | Stripe | `StripeClient(max_network_retries=N)`: N + 1; the module setting `stripe.max_network_retries = N` anywhere in the project, for `stripe.Charge.create` and the like: N + 1 | 0; a `StripeClient` without it; the module default (0 before stripe-python 12, 2 since) is not counted |
    | Minio | its `http_client`'s urllib3 retries; 6 without one (Minio's own `Retry(total=5)`) | an `http_client` with `retries=False` |
    | jira `JIRA` | `max_retries` + 1; 4 by default (connection errors, 429, 503) | `max_retries=0` |
    | aiohttp-retry `RetryClient` | `attempts` of its `retry_options` (every attempt, the first included); 3 by default (`ExponentialRetry()`) | `attempts=1` |
    | slack_sdk `WebClient`, `WebhookClient` and their async twins (since slack_sdk 3.9) | the largest `max_retry_count` of its `retry_handlers` + 1 (the handlers share one count); 2 by default (`default_retry_handlers()`: a failed connection retried once); a client built out of sight (a parameter annotated `WebClient`): unknown | `retry_handlers=[]` |
    | google-api-core `retry=Retry(...)` of a request (`blob.upload_from_filename(..., retry=...)`; also a `Retry` a function of the file returns, alone or in a tuple: `client, retry = make_client()`) | for up to its `timeout` (120 s by default): unknown | `retry=None`; a request without `retry=` (each method's own default) is not counted |
    | gRPC stub on a channel whose `grpc.service_config` has a `retryPolicy` for its service | `maxAttempts` (above 5 counts as 5) | `("grpc.enable_retries", 0)`; no `retryPolicy` |

    An inner layer behind an `if` that the call path rules out is not reached, read as RES301
    reads such tests (a parameter's value passed through any number of calls, an attribute of
    the object set by its construction): `self.order = order` (a parameter annotated `order:
    int`, never None) then `self.save()` does not run what `save` does only `if self.order is
    None`. An unknown value never removes a path. What a loop does once its attempts are spent
    is read the same way: `if not fatal: return None` before `raise HttpError(...)` gives up
    quietly for a call that passes `fatal=False`, and raises, for a layer around it to retry,
    for one that passes nothing.

    A loop that goes round on the statuses it tests (`if response.status_code == 429:
    continue`) repeats the failure of the call whose answer those tests read; another call in
    it (a token fetched first) runs again on the next pass, but its failures leave the loop, as
    a call outside the `try` of a loop that retries errors does, and its layers are not
    multiplied.

    A celery task that calls `self.retry()` outside any `except` to wait for something (a
    polled state, `if not available:`; a row of its own database not there yet) is a poll, not
    a retry layer; on a failure its code detected (`if not send_pubsub(topic, data):`, a
    helper that returns False once the client's own retries gave up, also when it catches every
    exception to say so; `if response.status == "failed":`, a state compared only with a word
    of failure) it is one, and multiplies the layers inside. A helper the task hands itself to
    that retries it with the task's own `retry_kwargs` (`task.retry(**task.retry_kwargs)`)
    counts the `max_retries` written there. A client's retry setting is also read from a
    dict written out that it is made with (`Elasticsearch(**defaults)` with `defaults =
    {"max_retries": 3, ...}`).

    A retry decorator on a generator (`@backoff.on_exception(...)` or a project decorator over
    a function that `yield`s) is no layer: calling the function only makes the generator, and
    the body's requests run later, as the caller iterates, outside the retry.

    A celery task called as a plain function (`inner(url)`, not `inner.delay(url)`) runs in its
    caller, where celery re-raises instead of retrying (`request.called_directly`): its own
    `autoretry_for` and `self.retry()` are not a layer there; what it calls still is.

    Layers that retry different failures do not multiply and are not reported: an inner
    library retry told no limit (tenacity without `stop=`, backoff without `max_tries` or
    `max_time`, retrying without `stop_max_attempt_number` or `stop_max_delay`) retries its
    failures for ever, so none of them reaches the outer layer (RES203 reports it; a
    decorator below it still may: `@retry(retry_on_exception=on_write_conflict)` over
    `@retry(retry_on_exception=on_connection_errors, stop_max_delay=...)` lets the lower
    one's connection errors out); an outer layer
    that retries on a condition of its own (a retry on the result such as tenacity's
    `retry_if_result` status poll, or
    `retry_if_exception_type(TryAgain)`, which retries only the `TryAgain` the code raises on
    purpose once it has read a complete answer (or an error that the module raises only on
    the state it read, `StatementNotFinished` on a RUNNING job), or retrying's `retry_on_exception` that
    retries only the code's own `AssertionError` on what it read; a layer (a poll included)
    around such a poll multiplies the layers inside the poll instead) around
    transport retries; an inner hand-written loop that retries statuses only (429) inside an
    outer layer that retries exceptions; an outer hand-written loop that goes round only when
    the server refused the request (403, 408, 418, 425, 429) around a urllib3 `Retry` that never
    retries those (`respect_retry_after_header=False`, none of them in `status_forcelist`), or
    around a loop whose first status test hands such an answer back at once (`if code < 500 and
    fatal is None: return response`), read with what the call on the way passes
    (`request(url, fatal=None)`, also through `**kwargs` handed on); an outer hand-written
    loop that goes round on an answer's status and catches nothing, around an inner layer that
    ends in an error once spent and never retries a refusal (an httpx transport's failed
    connects, or a urllib3 `Retry` around a POST or PATCH its `allowed_methods` leave out,
    which it repeats only when the connection failed; not a urllib3 `Retry` around a request it
    may repeat, which honours a 429's `Retry-After`): what the inner one gave up on leaves the
    outer loop;
    an inner layer whose last failure a function on the way catches by name and only logs
    (`except TemporaryError: logger.exception(...)` around a call of a retried function, when
    the outer layer retries errors; a project class the inner layer retries that nothing on the
    way raises, `RetryableOrderError` of a `@retrier` around a function raising only
    `TemporaryError`, is not among its last failures); an outer layer that does not retry what the inner one
    raises when it gives up (tenacity's `RetryError` unless `reraise=True`, a loop's `raise
    RuntimeError(...)` after its last attempt around an outer loop that goes round on database
    errors only, or a loop inside a `try` of its function whose handler turns every error into
    one class, `except Exception as e: raise SynapseError(502, ...) from e`, around an outer
    loop that retries only a subclass of it; also a loop that raises the last of the project
    classes it retries, `RequestSendFailed`, around one that retries only a project class
    nothing on the way raises in an `except` handler: a `try` inside one of its handlers, `try: worker.quit() except Exception:
    ...`, guards the handler's own work and retries nothing; an SDK client's own
    errors — `openai.*`, `botocore.*`, `redis.*`, `grpc.RpcError`... — when the outer layer
    retries only other libraries' exceptions, such as `requests.HTTPError`, or only built-in
    classes no client's error derives from, such as the `KeyError` of an answer read too soon
    (also when a project decorator factory is told them where it is applied, `@retry(KeyError)`
    over `def retry(exceptions)` whose loop has `except exceptions:`, or a helper that retries
    the function it is handed by the calls that hand it that function,
    `retries_with_backoff(fetch_teams, TypeError, 5)` over `@backoff.on_exception(expo,
    exception_type)`); the last error of an
    inner layer that retries named classes and raises the last one when spent, when the outer
    layer retries only other third-party libraries' classes, or project classes that no
    function on the way raises in an `except` handler (a Celery task retrying
    `IndexWriteError` and elastic_transport's errors around a loop retrying google-genai's;
    `except APIError as e: raise IndexWriteError(...)` on the way makes them one) (a backoff on botocore's
    `ClientError` around a Neo4j write retried on `neo4j.exceptions.TransientError`; a library
    and those it wraps, `requests` and `urllib3`, count as one); a urllib3 pool's
    `MaxRetryError` when the outer layer retries only classes it is not (`OSError`, urllib3's
    `SSLError`: not its `HTTPError`), and under Minio, which calls its pool unwrapped, when the outer layer
    retries only the SDK's answers, such as Minio's `S3Error` for a 500 (unless the `Retry`
    has `raise_on_status=False`, which hands the last answer back instead), and a requests
    session's mounted `Retry`, whose spent attempts end in requests' `ConnectionError` or
    `RetryError`, when the outer layer retries only an error the standard library's own
    client raises (`urllib.error.ContentTooShortError`, which the code raises itself on a short
    body) or another library's; slack_sdk's default handlers, which retry a failed connection
    and raise it as it came (`URLError`, a reset connection, aiohttp's `ServerConnectionError`),
    when the outer layer retries only Slack's answers or, around a sync client, a
    `TimeoutError` (which those handlers do not retry) (`SlackApiError`, `action_already_in_progress`; also as a
    tenacity `retry_if_exception(should_retry)` whose predicate answers yes only for the classes
    it tests, `isinstance(exc, SlackApiError)` or `case SlackApiError():`, and `return False`
    otherwise, or `return isinstance(exc, A) or isinstance(exc, B)`; such a predicate of
    another module handed to retrying's `retry_on_exception=` is read there too); an httpx transport's
    last `ConnectError`/`ConnectTimeout` when the outer layer retries only
    `httpx.HTTPStatusError`; a botocore client's errors when the outer layer retries only
    service errors botocore never retries — its retries cover connection errors and read
    timeouts, 5xx responses, throttling codes (`ThrottlingException`,
    `ProvisionedThroughputExceededException`...) and errors a service marks retryable, so
    `except client.exceptions.ResourceNotFoundException`, or a `ClientError` handler that
    re-raises every code but `ResourceNotFoundException`, waits for a table rather than
    repeating botocore's retries; `except ClientError` testing no code still overlaps them); a
    call outside the `try` statements a layer retries (a hand-written loop's handlers that go
    round, the `except` around celery's `self.retry()`): its failure leaves the layer at once,
    so a client that retries by itself there is not multiplied by it (a loop that calls OpenAI,
    then retries only the parsing of the answer); an inner hand-written loop whose handlers
    swallow the failure (no `raise`, and nothing raised right after the loop once its attempts
    are spent) inside an outer layer that retries exceptions, which never sees that failure;
    an inner layer reached through a call inside `try: ... except Exception: pass` (handlers
    that catch everything and raise nothing), where its last failure ends, or inside a `try`
    whose handlers catch everything and raise again only what they test (`except Exception as
    e: if isinstance(e, ApiError) and e.status == 403: raise`) when that last failure is none of
    those classes (a class of another library, or, at the client's own request, of the project); an inner loop that
    raises a project class of its own once spent (`raise RetriesExhausted()` right after it, or
    in its `else:`)
    under an outer layer that retries none of the classes it derives from.
    Between two such layers, the outer one still multiplies the layers inside the inner one
    whose last failure the inner one lets through: a backoff on transport errors around a
    listing loop that restarts only on an expired page token, around the same backoff inside,
    makes up to 3 x 3 calls. The classes a layer retries may be a parameter's default
    (`def call_with_retries(func, exception_types=TRANSIENT)`): they are what the calls that
    pass none retry; a call that passes others is not told apart.
    A loop that moves on to the next mirror, remote or replica is failover, not a retry; nor is
    a loop that, on a failed status, changes what its request sends before it goes round (`if
    page.status_code >= 500: next_url = f"{base}?page={n + 1}"; continue`): it skips to the next
    page. A changed timeout or attempt number (`timeout=timeout * 2`, `attempt=attempt_index + 1` to a
    helper that puts it in a header) still sends the same request.

    In test code (the `test-code` setting) a retry around another is not reported: a fixture
    that waits for the test's own cluster through a client that retries by itself loads
    nothing but what the test run started, and the test process is its only client.

    ## Why is this bad?
    Retries are extra traffic, sent exactly when the dependency has the least capacity. Each
    layer multiplies the attempts of the layers below it: 3 attempts at each of three layers is
    3 x 3 x 3 = 27 calls for one user action, and the caller waits for all of them. One layer
    should own retries (usually the outermost one, which knows the caller's deadline), with a
    retry budget that caps the extra load.

    ## Example
    ```python
    # app/session.py
    import requests
    from requests.adapters import HTTPAdapter
    from urllib3 import Retry

    session = requests.Session()
    session.mount("https://", HTTPAdapter(max_retries=Retry(total=3)))

    def fetch(url):
        return session.get(url, timeout=5)

    # app/sync.py
    from tenacity import retry, stop_after_attempt, wait_random_exponential
    from app.session import fetch

    @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=2))
    def sync(url):
        return fetch(url)  # RES204: tenacity 3 attempts x urllib3 Retry total=3 = up to 12 calls
    ```

    ## Use instead
    Keep one layer. Either drop the outer retry and let the session retry, or turn the
    transport's retries off and retry once, at the top, with a budget:
    ```python
    session.mount("https://", HTTPAdapter(max_retries=0))
    ```

    ## Options
    None. Checking a subset of files (pre-commit passes only the staged ones) still follows
    calls into the project's other modules.
    """

    code = "RES204"
    name = "nested-retry"
    precision = "medium"  # follows calls across modules; a layer may be configured elsewhere
    message = "a retry layer reaches another retry layer"
    VALID = [
        # the inner loop sits in a `try` that turns whatever leaves it into a 502 `SynapseError`;
        # the outer loop retries only its `PartialStateConflictError` subclass (synapse's
        # replication client under a membership update)
        """
        import random
        import time
        import requests

        class SynapseError(Exception):
            def __init__(self, code, msg):
                super().__init__(msg)
                self.code = code

        class PartialStateConflictError(SynapseError):
            pass

        class RequestTimedOutError(Exception):
            pass

        def post_json(session, url):
            try:
                return session.get(url, timeout=(3, 30))
            except requests.Timeout as e:
                raise RequestTimedOutError(url) from e

        def send_request(session, url):
            try:
                attempts = 0
                while True:
                    try:
                        return post_json(session, url)
                    except (requests.ConnectionError, RequestTimedOutError):
                        if attempts > 5:
                            raise
                        time.sleep(random.uniform(0, 2 ** attempts))
                        attempts += 1
            except Exception as e:
                raise SynapseError(502, "failed to talk to the main process") from e

        def update_membership(session, url):
            for i in range(5):
                try:
                    return send_request(session, url)
                except PartialStateConflictError:
                    time.sleep(random.uniform(0, 1))
        """,
        # the inner loop raises the last `RequestSendFailed` it retried; the outer loop retries
        # only a conflict that nothing on the way raises (synapse's federation client)
        """
        import random
        import time
        import requests

        class RequestSendFailed(Exception):
            pass

        class PartialStateConflictError(Exception):
            pass

        def transport(session, url):
            try:
                return session.get(url, timeout=(3, 30))
            except requests.RequestException as e:
                raise RequestSendFailed(url) from e

        def send_request(session, url):
            retries_left = 3
            while True:
                try:
                    return transport(session, url)
                except RequestSendFailed:
                    if not retries_left:
                        raise
                    retries_left -= 1
                    time.sleep(random.uniform(0, 2))

        def sign_event(session, url):
            for i in range(5):
                try:
                    return send_request(session, url)
                except PartialStateConflictError:
                    time.sleep(random.uniform(0, 1))
        """,
        # a heartbeat sent every interval, after a failure as after a success: a failure makes
        # no extra call for the session's retries to multiply (the Anthropic SDK's lease heartbeat)
        """
        import time
        import anyio
        import requests
        from requests.adapters import HTTPAdapter

        session = requests.Session()
        session.mount("https://", HTTPAdapter(max_retries=3))

        async def heartbeat_loop(url, stop, interval=30.0, ttl=90.0):
            last = "NONE"
            last_success = time.monotonic()
            while not stop.is_set():
                try:
                    resp = session.post(url, json={"expected_last_heartbeat": last}, timeout=(3, 10))
                except requests.RequestException:
                    if time.monotonic() - last_success > ttl:
                        stop.set()
                        return
                else:
                    data = resp.json()
                    last = data["last_heartbeat"]
                    last_success = time.monotonic()
                with anyio.move_on_after(interval):
                    await stop.wait()
        """,
        # a pool's spent retries end in urllib3's ``MaxRetryError``, which is no ``OSError``:
        # the loop retries only what the pool does not (trafilatura's SSL fallback)
        """
        import random
        import time
        import urllib3
        pool = urllib3.PoolManager(timeout=5, retries=urllib3.Retry(total=3, backoff_factor=0.5, backoff_jitter=0.5))
        def fetch(url):
            for attempt in range(3):
                try:
                    return pool.request("GET", url).data
                except OSError:
                    time.sleep(random.uniform(0, 2 ** attempt))
        """,
        # the sync client's default handlers retry a refused or reset connection only; a read
        # timeout leaves at once, so retrying ``TimeoutError`` repeats nothing they repeated
        # (dispatch's Slack plugin)
        """
        from requests import Timeout
        from slack_sdk.errors import SlackApiError
        from slack_sdk.web.client import WebClient
        from tenacity import retry, retry_if_exception, stop_after_attempt, wait_random_exponential
        def should_retry(exception):
            match exception:
                case SlackApiError():
                    return exception.response["error"] not in ("channel_not_found",)
                case TimeoutError() | Timeout():
                    return True
                case _:
                    return False
        @retry(stop=stop_after_attempt(5), retry=retry_if_exception(should_retry), wait=wait_random_exponential(max=60))
        def post(token, channel):
            return WebClient(token=token).api_call("chat.postMessage", json={"channel": channel})
        """,
        # the predicate retries only Slack's answers, which the client's default handlers
        # (failed connections) never raise (dispatch's Slack plugin)
        """
        from slack_sdk.errors import SlackApiError
        from slack_sdk.web.client import WebClient
        from tenacity import retry, retry_if_exception, stop_after_attempt, wait_random_exponential
        def should_retry(exception):
            if isinstance(exception, SlackApiError):
                return exception.response["error"] == "ratelimited"
            return False
        @retry(stop=stop_after_attempt(5), retry=retry_if_exception(should_retry), wait=wait_random_exponential(max=60))
        def post(token, channel):
            return WebClient(token=token).api_call("chat.postMessage", json={"channel": channel})
        """,
        # the loop goes round on an error only when it is a 429, which the OpenSearch client
        # never retries by itself (opensearch-py's ``streaming_bulk``)
        """
        import random
        import time
        from opensearchpy import OpenSearch, TransportError

        client = OpenSearch(hosts=["https://search.example.com"], timeout=10)

        def bulk_with_retries(body, max_retries=3):
            for attempt in range(max_retries + 1):
                try:
                    return client.bulk(body=body)
                except TransportError as e:
                    if attempt == max_retries or e.status_code != 429:
                        raise
                    time.sleep(random.uniform(0, 2 ** attempt))
        """,
        # the SDK client's settings are no request of it (``client.base_url.copy_with(...)``)
        """
        import random, time, openai
        client = openai.OpenAI(timeout=30)
        def ws_url():
            return client.base_url.copy_with(scheme="wss")
        def connect(connect_ws):
            for attempt in range(3):
                try:
                    return connect_ws(ws_url())
                except OSError:
                    time.sleep(random.uniform(0, 2 ** attempt))
        """,
        # the outer loop goes round on a 5xx answer and catches nothing; the client's httpx
        # transport retries failed connects only, and its last failure leaves the loop
        """
        import httpx
        CLIENT = httpx.Client(transport=httpx.HTTPTransport(retries=5), timeout=httpx.Timeout(20, connect=3))
        def upload(url, payload):
            tries = 0
            while tries < 5:
                resp = CLIENT.post(url, content=payload)
                if resp.status_code < 500:
                    return resp
                tries += 1
            return resp
        """,
        # slack_sdk's default handlers retry failed connections and raise the last one as it
        # came; the loop retries only an answer of Slack's (``SlackApiError``)
        """
        import asyncio
        from slack_sdk.errors import SlackApiError
        from slack_sdk.web.async_client import AsyncWebClient
        async def bulk_move(token, channel_ids):
            client = AsyncWebClient(token=token)
            while True:
                try:
                    return await client.admin_conversations_bulkMove(channel_ids=channel_ids)
                except SlackApiError as e:
                    if e.response.data.get("error") != "action_already_in_progress":
                        raise
                    await asyncio.sleep(3)
        """,
        # the loop retries only the short body the code reads and raises itself; the session's
        # urllib3 retries end in requests' ``ConnectionError``/``RetryError``
        """
        import random, time, urllib.error
        import requests
        from requests.adapters import HTTPAdapter
        from urllib3.util.retry import Retry
        def retrieve(url):
            http = requests.Session()
            http.mount("https://", HTTPAdapter(max_retries=Retry(total=2)))
            resp = http.get(url, timeout=(3, 20))
            if len(resp.content) < int(resp.headers.get("content-length", 0)):
                raise urllib.error.ContentTooShortError("incomplete", None)
            return resp.content
        def download(url):
            for attempt in range(3):
                try:
                    return retrieve(url)
                except urllib.error.ContentTooShortError:
                    time.sleep(1 + random.random())
        """,
        # the outer loop goes round on a database error only; the inner loop gives up with a
        # RuntimeError, and the ``except Exception`` in the handler guards only its own cleanup
        """
        import logging, random, time
        import psycopg, requests
        logger = logging.getLogger(__name__)
        def reload_config(url):
            for attempt in range(3):
                try:
                    return requests.get(url, timeout=5)
                except requests.ConnectionError:
                    time.sleep(random.uniform(0, 2**attempt))
            raise RuntimeError("reload failed")
        def consume(conn, workers, url):
            while True:
                try:
                    reload_config(url)
                    return conn.execute("LISTEN events")
                except psycopg.OperationalError:
                    for worker in workers:
                        try:
                            worker.quit()
                        except Exception:
                            logger.exception("could not stop %s", worker)
                    time.sleep(random.uniform(0, 5))
        """,
        # the inner retry gives up with the error it retried, and the helper on the way catches
        # that class and only logs it: the outer retry never sees it
        """
        import logging, requests
        from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random, reraise
        class TemporaryError(Exception):
            pass
        @retry(retry=retry_if_exception_type(TemporaryError), stop=stop_after_attempt(4), wait=wait_random(0, 1), reraise=True)
        def fetch_fees(base):
            try:
                return requests.get(base + "/fees", timeout=5).json()
            except requests.RequestException as exc:
                raise TemporaryError(str(exc)) from exc
        def reload_markets(base):
            try:
                fetch_fees(base)
            except TemporaryError:
                logging.exception("could not load markets")
        @retry(retry=retry_if_exception_type(TemporaryError), stop=stop_after_attempt(4), wait=wait_random(0, 1), reraise=True)
        def tickers(base):
            response = requests.get(base + "/tickers", timeout=5)
            if response.status_code == 400:
                reload_markets(base)
                raise TemporaryError("reloaded markets")
            return response.json()
        """,
        # the same with a project decorator that retries by recursion, and retries a class the
        # inner function never raises: its last failure is the one the helper catches and logs
        # (freqtrade's ``@retrier``)
        """
        import logging
        import time
        from functools import wraps
        import requests

        class ExchangeError(Exception):
            pass

        class TemporaryError(ExchangeError):
            pass

        class RetryableOrderError(ExchangeError):
            pass

        def retrier(f):
            @wraps(f)
            def wrapper(*args, **kwargs):
                count = kwargs.pop("count", 4)
                try:
                    return f(*args, **kwargs)
                except (TemporaryError, RetryableOrderError):
                    if count > 0:
                        kwargs.update({"count": count - 1})
                        time.sleep(1)
                        return wrapper(*args, **kwargs)
                    raise
            return wrapper

        @retrier
        def fetch_fees(base):
            try:
                return requests.get(base + "/fees", timeout=5).json()
            except requests.RequestException as exc:
                raise TemporaryError(str(exc)) from exc

        def reload_markets(base):
            try:
                fetch_fees(base)
            except TemporaryError:
                logging.exception("could not load markets")

        @retrier
        def tickers(base):
            response = requests.get(base + "/tickers", timeout=5)
            if response.status_code == 400:
                reload_markets(base)
                raise TemporaryError("reloaded markets")
            return response.json()
        """,
        # the inner layer, once spent, raises the last Neo4j error: the outer one retries only
        # botocore's
        """
        import backoff, botocore.exceptions, neo4j
        @backoff.on_exception(backoff.expo, neo4j.exceptions.TransientError, max_tries=5)
        def write(session, rows):
            session.run("UNWIND $rows AS r MERGE (n:X {id: r})", rows=rows)
        @backoff.on_exception(backoff.expo, botocore.exceptions.ClientError, max_tries=3)
        def sync(session, rows):
            write(session, rows)
        """,
        # the decorator retries only requests' errors, named through a tuple constant; the
        # botocore client's spent retries end in botocore's own errors
        """
        import boto3, requests, tenacity
        from botocore.config import Config
        NETWORK = (requests.ConnectionError, requests.Timeout)
        athena = boto3.client("athena", config=Config(retries={"total_max_attempts": 5}))
        @tenacity.retry(stop=tenacity.stop_after_attempt(5), wait=tenacity.wait_random(0, 2),
                        retry=tenacity.retry_if_exception_type(NETWORK))
        def run_query(sql):
            return athena.start_query_execution(QueryString=sql)
        """,
        # a poll inside a poll: neither repeats a failed call
        """
        import retrying, requests
        def only_assertions(exc):
            return isinstance(exc, AssertionError)
        @retrying.retry(retry_on_exception=only_assertions, wait_fixed=500, stop_max_delay=60000)
        def wait_for_state(url, states):
            state = requests.get(url, timeout=TIMEOUT).json()["status"]
            assert state in states
            return state
        @retrying.retry(retry_on_exception=only_assertions, wait_fixed=500, stop_max_delay=60000)
        def wait_for_task(url):
            assert wait_for_state(url, ["running", "done"]) == "done"
        """,
        # the loop goes round on a 429 (or Binance's 418 ban) only, which this urllib3 Retry never
        # retries: it ignores Retry-After and lists only 5xx statuses
        """
        import time, requests
        from requests.adapters import HTTPAdapter
        from urllib3.util import Retry
        session = requests.Session()
        session.mount("https://", HTTPAdapter(max_retries=Retry(
            connect=3, read=2, status_forcelist=[502, 503, 504], respect_retry_after_header=False,
        )))
        def query(url, tries=5):
            while True:
                response = session.get(url, timeout=(5, 30))
                if response.status_code not in {200, 418, 429}:
                    raise RuntimeError(response.status_code)
                if response.status_code in {418, 429}:
                    if tries >= 1:
                        time.sleep(10 / tries)
                        tries -= 1
                        continue
                    raise RuntimeError("rate limited")
                return response.json()
        """,        # the loop goes round on a 403 or a 429 only (KuCoin's rate limit), which this urllib3
        # Retry never retries: what it gives up on leaves the loop (rotki's KuCoin client)
        """
        import random
        import time
        from http import HTTPStatus
        import requests
        from requests.adapters import HTTPAdapter
        from urllib3.util.retry import Retry

        session = requests.Session()
        session.mount("https://", HTTPAdapter(max_retries=Retry(
            total=None, connect=3, read=2, status=1, status_forcelist=[502, 503, 504],
            respect_retry_after_header=False, raise_on_status=False,
        )))

        def api_query(url):
            retries_left = 2
            while retries_left >= 0:
                try:
                    response = session.get(url, timeout=(5, 30))
                except requests.RequestException as e:
                    raise RuntimeError(f"connection error: {e}") from e
                if response.status_code in (HTTPStatus.FORBIDDEN, HTTPStatus.TOO_MANY_REQUESTS):
                    if retries_left == 0:
                        return response
                    retries_left -= 1
                    time.sleep(1 + random.uniform(0, 1))
                    continue
                break
            return response
        """,

        # a POST is not among the Retry's methods: it repeats the upload only when the connection
        # failed, which raises out of the loop; the loop goes round on answers the Retry hands
        # back without retrying them (rotki's backup upload)
        """
        import requests
        from requests.adapters import HTTPAdapter
        from urllib3.util.retry import Retry

        session = requests.Session()
        session.mount("https://", HTTPAdapter(max_retries=Retry(
            total=None, connect=3, read=2, status=1, status_forcelist=[502, 503, 504],
            raise_on_status=False, allowed_methods={"DELETE", "GET", "HEAD", "OPTIONS", "PUT", "TRACE"},
        )))

        def upload(url, chunk, key):
            retry_count = 0
            while True:
                try:
                    response = session.post(url, data=chunk, headers={"Idempotency-Key": key}, timeout=(5, 30))
                except requests.RequestException as e:
                    raise RuntimeError(f"could not connect: {e}") from e
                if response.status_code != 206:
                    if response.status_code != 413 and retry_count < 3:
                        retry_count += 1
                        continue
                    raise RuntimeError(response.text)
                return response
        """,

        # a page that fails is skipped: the next pass asks for the next page
        """
        import random, time, requests
        def fetch(url):
            for attempt in range(5):
                response = requests.get(url, timeout=10)
                if response.status_code < 500:
                    return response
                time.sleep(random.uniform(0, 2 ** attempt))
            return response
        def pages(base):
            number = 1
            url = f"{base}?page={number}"
            while url:
                page = fetch(url)
                if page.status_code >= 500:
                    number += 1
                    url = f"{base}?page={number}"
                    continue
                yield from page.json()["results"]
                url = page.json()["next"]
        """,
        # the inner layer gives up with a class the outer one does not retry
        """
        import time, random, requests
        class TryAgain(Exception):
            pass
        class Exhausted(Exception):
            pass
        def with_retries(func):
            def wrapper(*args):
                for attempt in range(5):
                    try:
                        return func(*args)
                    except TryAgain:
                        time.sleep(random.uniform(0, 2 ** attempt))
                raise Exhausted()
            return wrapper
        @with_retries
        def token():
            return fetch("https://a/login")
        def fetch(url):
            r = requests.get(url, timeout=5)
            if r.status_code == 429:
                raise TryAgain()
            return r
        @with_retries
        def put(url):
            return requests.put(url, headers={"A": token().text}, timeout=5)
        """,
        # the client's last failure ends in ``except Exception: pass``: the loop never repeats it
        """
        import openai
        def setup(save):
            models = ["default"]
            try:
                models = [m.id for m in openai.OpenAI(api_key="k").models.list()]
            except Exception:
                pass
            save(models)
        def init(save):
            for attempt in range(5):
                try:
                    return setup(save)
                except Exception:
                    time.sleep(random.uniform(0, 2 ** attempt))
        """,
        # a task called as a plain function does not retry: only the outer task does
        """
        import requests
        from celery import Celery
        app = Celery("jobs")
        @app.task(bind=True, autoretry_for=(requests.ConnectionError,), max_retries=5, retry_backoff=True)
        def inner(self, url):
            return requests.get(url, timeout=5).text
        @app.task(bind=True, autoretry_for=(requests.ConnectionError,), max_retries=15, retry_backoff=True)
        def outer(self, url):
            return inner(url)
        """,
        # one layer only: the decorated function calls a session without retrying adapters
        """
        import requests, tenacity
        session = requests.Session()
        def fetch(url):
            return session.get(url, timeout=5)
        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
        def sync(url):
            return fetch(url)
        """,
        # retries switched off in the inner layer
        """
        import requests, tenacity
        from requests.adapters import HTTPAdapter
        session = requests.Session()
        session.mount("https://", HTTPAdapter(max_retries=0))
        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
        def sync(url):
            return session.get(url, timeout=5)
        """,
        # the retried function only enqueues work: nothing below retries
        """
        import tenacity
        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
        def notify(queue, item):
            queue.put(item)
        """,
        # Minio's pool gives up with urllib3's MaxRetryError; the loop retries only Minio's answers
        """
        import random, time
        from minio import Minio, S3Error
        from urllib3 import PoolManager, Retry
        client = Minio("s3.example.com", http_client=PoolManager(timeout=10, retries=Retry(total=1)))
        def put(key, data):
            for attempt in range(5):
                try:
                    return client.put_object("bucket", key, data, len(data))
                except S3Error as e:
                    if e.code != "InternalError" or attempt == 4:
                        raise
                    time.sleep(random.uniform(0, 2 ** attempt))
        """,
        # the outer loop does not retry what the inner layer raises when it gives up (RetryError)
        """
        import random, time, tenacity
        @tenacity.retry(stop=tenacity.stop_after_attempt(2), wait=tenacity.wait_random(0, 1))
        def inner(client):
            return client.fetch()
        def outer(client):
            for attempt in range(3):
                try:
                    return inner(client)
                except ConnectionError:
                    time.sleep(random.uniform(0, 2 ** attempt))
            raise RuntimeError("gave up")
        """,
        # split by failure class: the inner loop retries 429s only, the outer layer transport errors
        """
        import random, time, requests, tenacity
        def get(session, url):
            for attempt in range(3):
                response = session.get(url, timeout=(1, 5))
                if response.status_code != 429:
                    return response
                time.sleep(random.uniform(0, 2 ** attempt))
            return response
        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1),
                        retry=tenacity.retry_if_exception_type(requests.ConnectionError))
        def download(session, url):
            return get(session, url)
        """,
        # a task retried on a business condition; transport errors are retried below
        """
        import tenacity
        from celery import shared_task
        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
        def fetch_order(client, order_id):
            return client.get(order_id)
        @shared_task(bind=True, max_retries=5)
        def settle(self, client, order_id):
            order = fetch_order(client, order_id)
            if order["state"] == "pending":
                raise self.retry(countdown=60)
            return order
        """,
        # the client's own retries are off: OpenAI(max_retries=0), botocore total_max_attempts=1
        """
        import boto3, tenacity
        from botocore.config import Config
        from openai import OpenAI
        llm = OpenAI(timeout=10, max_retries=0)
        s3 = boto3.client("s3", config=Config(read_timeout=10, retries={"total_max_attempts": 1}))
        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
        def classify(text):
            return llm.chat.completions.create(model="m", messages=[{"role": "user", "content": text}])
        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
        def head(key):
            return s3.head_object(Bucket="b", Key=key)
        """,
        # a status poll retries on the result, not on the failures the client retries
        """
        import tenacity
        from openai import OpenAI
        llm = OpenAI(timeout=10)
        @tenacity.retry(retry=tenacity.retry_if_result(lambda job: job.status == "running"),
                        stop=tenacity.stop_after_delay(600), wait=tenacity.wait_random(5, 15))
        def wait_for(job_id):
            return llm.fine_tuning.jobs.retrieve(job_id)
        """,
        # tenacity.TryAgain raised on a pending job's answer: a poll on the result as well
        """
        import requests
        import tenacity
        from requests.adapters import HTTPAdapter
        from urllib3.util.retry import Retry
        session = requests.Session()
        session.mount("https://", HTTPAdapter(max_retries=Retry(total=5)))
        @tenacity.retry(retry=tenacity.retry_if_exception_type(tenacity.TryAgain),
                        stop=tenacity.stop_after_attempt(10), wait=tenacity.wait_random(5, 15))
        def query(job):
            answer = session.post("https://redash.example/api/jobs", json=job, timeout=10).json()
            if answer["status"] == "pending":
                raise tenacity.TryAgain
            return answer
        """,
        # waiting for a table: botocore never retries ResourceNotFoundException (a 400)
        """
        import time, boto3
        from botocore.exceptions import ClientError
        dynamodb = boto3.client("dynamodb")
        def wait_for_table(name):
            for _ in range(20):
                try:
                    return dynamodb.describe_table(TableName=name)
                except dynamodb.exceptions.ResourceNotFoundException:
                    time.sleep(0.5)
            raise TimeoutError(name)
        def wait_for_object(s3, key):
            for _ in range(20):
                try:
                    return s3.head_object(Bucket="b", Key=key)
                except ClientError as error:
                    if error.response["Error"]["Code"] != "404":
                        raise
                    time.sleep(0.5)
            raise TimeoutError(key)
        """,
        # failover to the next mirror around a retrying download
        """
        import tenacity
        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
        def download(client, url):
            return client.get(url)
        def fetch_from_mirrors(client, mirrors):
            for mirror in mirrors:
                try:
                    return download(client, mirror)
                except Exception:
                    continue
            raise RuntimeError("no mirror answered")
        """,
        PAGE_ASSERTION_POLL,
        # the loop retries only the parsing of the answer: a failed OpenAI call leaves it
        """
        import time
        from openai import OpenAI
        def solve(session, url):
            for attempt in range(3):
                text = OpenAI().audio.transcriptions.create(model="whisper-1", file=session.get(url, timeout=5).content)
                try:
                    return parse(text)
                except ValueError:
                    time.sleep(1)
            raise ValueError("no solution")
        """,
        # the inner loop swallows its parse failures: the task retries network errors only
        """
        import time, httpx
        from celery import Celery
        app = Celery("jobs")
        @app.task(bind=True, autoretry_for=(httpx.NetworkError,), max_retries=10, retry_backoff=True)
        def process(self, url):
            data = None
            for attempt in range(2):
                try:
                    data = httpx.get(url, timeout=TIMEOUT).json()["docket"]
                    break
                except ValueError:
                    time.sleep(60)
            if not data:
                return None
            return data
        """,
        # ``fatal=None`` makes the inner loop hand every answer below 500 back at once, a 429
        # included: the outer loop goes round on 429s the inner one never retried
        """
        import random, time, requests
        def request(session, url, fatal=True):
            tries = 1
            while True:
                try:
                    response = session.get(url, timeout=5)
                except requests.ConnectionError:
                    code = 0
                else:
                    code = response.status_code
                    if code < 400 or code < 500 and fatal is None:
                        return response
                    if code < 500 and code != 429:
                        break
                if tries > 4:
                    break
                time.sleep(random.uniform(0, 2 ** tries))
                tries += 1
            raise RuntimeError(url)
        def call(session, url):
            while True:
                response = request(session, url, fatal=None)
                if response.status_code == 429:
                    time.sleep(random.uniform(30, 60))
                    continue
                return response.json()
        """,
        # the outer loop goes round only on a 429 of the request whose status it tests (every
        # other status leaves); the token fetched before it is not what it retries
        """
        import random, time, requests
        from tenacity import retry, stop_after_attempt, wait_random_exponential
        @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=2))
        def token():
            return requests.post("https://auth.example.com/token", timeout=5).json()["token"]
        def call(url):
            while True:
                headers = {"Authorization": token()}
                response = requests.get(url, headers=headers, timeout=5)
                code = response.status_code
                if code < 400:
                    return response.json()
                if code == 404:
                    raise LookupError(url)
                if code == 429:
                    time.sleep(random.uniform(30, 60))
                    continue
                raise RuntimeError(code)
        """,
    ]
    INVALID = [
        Invalid(
            # two retry decorators stacked on one function: each tenacity attempt runs backoff's four
            """
            import backoff
            import requests
            import tenacity

            @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1),
                            retry=tenacity.retry_if_exception_type(requests.ConnectionError))
            @backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=4)
            def fetch(url):
                return requests.get(url, timeout=5)
            """,
            line=7,
            message="tenacity 3 attempts (example.py:5) x backoff 4 attempts (example.py:7) = up to 12 calls",
        ),
        Invalid(
            # a PUT is among the Retry's methods: a 503 is retried by the Retry, then by the loop
            """
            import requests
            from requests.adapters import HTTPAdapter
            from urllib3.util.retry import Retry

            session = requests.Session()
            session.mount("https://", HTTPAdapter(max_retries=Retry(
                total=2, status_forcelist=[502, 503, 504], raise_on_status=False,
                allowed_methods={"DELETE", "GET", "HEAD", "OPTIONS", "PUT", "TRACE"},
            )))

            def upload(url, chunk):
                retry_count = 0
                while True:
                    response = session.put(url, data=chunk, timeout=(5, 30))
                    if response.status_code != 206:
                        if response.status_code != 413 and retry_count < 3:
                            retry_count += 1
                            continue
                        raise RuntimeError(response.text)
                    return response
            """,
            line=14,
            message="a hand-written retry loop 4 attempts (example.py:13) x urllib3 Retry total=2 (example.py:6) = up to 12 calls",
        ),
        Invalid(
            # ``iter(range(5))`` counts as ``range(5)`` does (bazarr's BSPlayer API requests)
            """
            import random
            import time
            import requests
            from requests.adapters import HTTPAdapter
            def api_request(url, data):
                session = requests.Session()
                session.mount("http://", HTTPAdapter(max_retries=3))
                for i in iter(range(5)):
                    try:
                        return session.get(url, params=data, timeout=10)
                    except requests.RequestException:
                        time.sleep(random.uniform(0, 2))
            """,
            line=10,
            message="a hand-written retry loop 5 attempts (example.py:8) x urllib3 Retry total=3 (example.py:7) = up to 20 calls",
        ),
        Invalid(
            # ``OSError`` is what a refused or reset connection is, which the client's default
            # handlers retry and then raise
            """
            from slack_sdk.web.client import WebClient
            from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential
            @retry(stop=stop_after_attempt(5), retry=retry_if_exception_type(OSError), wait=wait_random_exponential(max=60))
            def post(token, channel):
                return WebClient(token=token).api_call("chat.postMessage", json={"channel": channel})
            """,
            line=5,
            message="tenacity 5 attempts (example.py:3) x slack_sdk default_retry_handlers()",
        ),
        Invalid(
            # the client's retries given in the dict it is made with (kitsune's ``es_client``)
            """
            import random
            import time
            from elasticsearch import Elasticsearch
            from elastic_transport import ConnectionError as EsConnectionError
            def es_client():
                defaults = {"request_timeout": 10, "retry_on_timeout": True, "max_retries": 3}
                return Elasticsearch(**defaults)
            def refresh():
                for attempt in range(5):
                    try:
                        return es_client().indices.refresh()
                    except EsConnectionError:
                        time.sleep(random.uniform(0, 2 ** attempt))
                raise RuntimeError("gave up")
            """,
            line=11,
            message="Elasticsearch client max_retries=3 (example.py:7) = up to 20 calls",
        ),
        Invalid(
            # the helper retries the task with the ``retry_kwargs`` it was declared with
            """
            from celery import shared_task
            import requests
            from requests.adapters import HTTPAdapter
            from urllib3 import Retry

            session = requests.Session()
            session.mount("https://", HTTPAdapter(max_retries=Retry(total=2, backoff_factor=0.5)))

            def retry_later(task):
                task.retry(countdown=10, **task.retry_kwargs)

            @shared_task(bind=True, retry_kwargs={"max_retries": 5})
            def deliver(self, url):
                response = session.get(url, timeout=5)
                if not response.ok:
                    retry_later(self)
            """,
            line=14,
            message="celery 6 attempts",
        ),
        Invalid(
            # a result whose state says the publish failed is retried; the client's retry comes
            # with it from a helper (saleor's Pub/Sub webhooks)
            """
            from celery import shared_task
            from google.api_core import retry as google_retry
            from google.cloud import pubsub_v1

            def client_and_retry():
                return pubsub_v1.PublisherClient(), google_retry.Retry(timeout=18)

            def publish(topic, message):
                client, retry = client_and_retry()
                try:
                    client.publish(topic, message, retry=retry, timeout=20).result(timeout=20)
                except Exception:
                    return "failed"
                return "sent"

            @shared_task(bind=True, max_retries=5)
            def deliver(self, topic, message):
                status = publish(topic, message)
                if status == "failed":
                    raise self.retry(countdown=10)
            """,
            line=18,
            message="google-api-core Retry (for up to 18 s)",
        ),
        Invalid(
            # the retried method runs again inside its own first attempt, through a helper (tap-mailchimp)
            """
            import backoff
            import requests

            class Client:
                def __init__(self):
                    self.session = requests.Session()
                    self.base_url = None

                def get_base_url(self):
                    self.base_url = self.request("GET", url="https://login.example.com/metadata")["api_endpoint"]

                @backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=6)
                def request(self, method, path=None, url=None):
                    if url is None and self.base_url is None:
                        self.get_base_url()
                    url = url or self.base_url + path
                    return self.session.request(method, url, timeout=20).json()
            """,
            line=15,
            message="backoff 6 attempts (example.py:12) x backoff 6 attempts (example.py:12) = up to 36 calls",
        ),
        Invalid(
            # the counts are in the code: the recursion's counter from 0 while below 5, and the
            # number the only caller passes the loop's ``range`` (weaviate's reconnect)
            """
            import random
            import time
            import httpx

            client = httpx.Client(timeout=5)

            class StartUpError(Exception):
                pass

            def wait_for_ready(url, startup_period):
                for _ in range(startup_period):
                    try:
                        client.get(url).raise_for_status()
                        return
                    except httpx.HTTPError:
                        time.sleep(random.uniform(0, 1))
                raise StartUpError(url)

            def reconnect(url, retry=0):
                try:
                    wait_for_ready(url, 10)
                except StartUpError:
                    if retry < 5:
                        time.sleep(random.uniform(0, 2 ** retry))
                        reconnect(url, retry + 1)
            """,
            line=21,
            message="6 attempts (example.py:25) x a hand-written retry loop 10 attempts (example.py:11) = up to 60 calls",
        ),
        Invalid(
            # each helper raises the last error it caught once its attempts are spent
            # (``raise err`` of ``err = e``), which the outer one retries again (s3fs)
            """
            import time
            import requests
            def outer_retry(func):
                err = None
                for i in range(5):
                    try:
                        return func()
                    except requests.ConnectionError as e:
                        err = e
                        time.sleep(1)
                raise err
            def inner_retry(func):
                last = None
                attempt = 0
                while attempt < 5:
                    attempt += 1
                    try:
                        return func()
                    except requests.ConnectionError as error:
                        last = error
                        time.sleep(2)
                raise last
            def fetch(url):
                return inner_retry(lambda: requests.get(url, timeout=3))
            def download(url):
                return outer_retry(lambda: fetch(url))
            """,
            line=7,
            message="5 attempts (example.py:5) x a hand-written retry loop 5 attempts (example.py:15) = up to 25 calls",
        ),
        Invalid(
            # the client is one of three: two made here with the SDK's default retries, one kept
            # by another module (khoj's image generation)
            """
            import openai
            from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential
            from app import state
            @retry(retry=retry_if_exception_type(openai.APIConnectionError), stop=stop_after_attempt(3),
                   wait=wait_random_exponential(max=10))
            def generate(prompt, config):
                if config.api_key:
                    client = openai.OpenAI(api_key=config.api_key, timeout=20)
                elif config.base_url:
                    client = openai.OpenAI(base_url=config.base_url, timeout=20)
                elif state.openai_client:
                    client = state.openai_client
                return client.images.generate(prompt=prompt)
            """,
            line=13,
            message="up to 9 calls per operation",
        ),
        Invalid(
            # aiohttp-retry's client retries each request by its options, under a tenacity retry
            """
            import aiohttp, tenacity
            from aiohttp_retry import ExponentialRetry, RetryClient
            CLIENT = RetryClient(retry_options=ExponentialRetry(attempts=4, methods={"GET"}))
            @tenacity.retry(
                stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential(max=5),
                retry=tenacity.retry_if_exception_type(aiohttp.ClientError),
            )
            async def fetch(url):
                async with CLIENT.get(url) as resp:
                    return await resp.json()
            """,
            line=9,
            message="tenacity 3 attempts (example.py:4) x aiohttp-retry 4 attempts",
        ),
        Invalid(
            # the attempts are class constants read off the object
            """
            import time, requests
            class Api:
                ATTEMPTS = 5
                max_attempts = 3
                def channel(self, url):
                    num = 1
                    while True:
                        try:
                            return requests.get(url, timeout=5).json()
                        except requests.ConnectionError:
                            if num >= self.ATTEMPTS:
                                raise
                            num = num + 1
                            time.sleep(1)
                def streams(self, url):
                    for attempt in range(1, self.max_attempts + 1):
                        try:
                            return self.channel(url)
                        except requests.ConnectionError:
                            time.sleep(attempt)
            """,
            line=18,
            message="a hand-written retry loop 3 attempts (example.py:16) x a hand-written retry loop 5 attempts",
        ),
        Invalid(
            # the helper's parameter runs a function that retries by itself: named in the message
            """
            import backoff, requests, tenacity
            def in_background(func, *args):
                @backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=3)
                def attempt():
                    return func(*args)
                return attempt()
            @tenacity.retry(stop=tenacity.stop_after_attempt(4), reraise=True)
            def fetch(url):
                return requests.get(url, timeout=5)
            def sync(url):
                return in_background(fetch, url)
            """,
            line=5,
            message="through `func` (`fetch`): backoff 3 attempts",
        ),
        Invalid(
            # the inner layer's last error is a RequestException the outer one retries
            """
            import backoff, requests
            @backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=5)
            def fetch(url):
                return requests.get(url, timeout=5)
            @backoff.on_exception(backoff.expo, requests.RequestException, max_tries=3)
            def sync(url):
                return fetch(url)
            """,
            line=7,
        ),
        Invalid(
            # the verb is chosen by name (``getattr``): the session's mounted retries still apply
            """
            import backoff, requests
            from requests.adapters import HTTPAdapter
            from urllib3.util.retry import Retry
            orch = requests.Session()
            orch.mount("https://", HTTPAdapter(max_retries=Retry(total=3, status_forcelist=(502, 503))))
            def api(method, path):
                return getattr(orch, method.lower())("https://orch.example" + path, timeout=5).json()
            @backoff.on_exception(backoff.expo, requests.RequestException, max_tries=3)
            def status(service):
                return api("GET", f"/services/{service}")
            """,
            line=10,
            message="backoff 3 attempts",
        ),
        # a task that retries when its helper says the send failed, which a retrying client
        # inside it decided: the celery retries multiply the client's
        Invalid(
            """
            import requests, tenacity
            from celery import shared_task
            @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
            def _post(url, data):
                return requests.post(url, data=data, timeout=5)
            def send(url, data):
                try:
                    _post(url, data)
                except tenacity.RetryError:
                    return False
                return True
            @shared_task(bind=True, max_retries=5)
            def deliver(self, url, data):
                if not send(url, data):
                    raise self.retry(countdown=10)
            """,
            line=14,
            message="6 attempts",
        ),
        Invalid(
            # a countdown loop's attempts are counted: 5 retries left, 6 attempts
            """
            import random, time, requests
            from requests.adapters import HTTPAdapter
            from urllib3 import Retry
            session = requests.Session()
            session.mount("https://", HTTPAdapter(max_retries=Retry(total=2, backoff_factor=0.5, backoff_jitter=0.5)))
            def fetch(url):
                retries = 5
                while True:
                    try:
                        return session.get(url, timeout=5)
                    except requests.ConnectionError:
                        if retries > 0:
                            retries -= 1
                            time.sleep(random.uniform(0, 2))
                            continue
                        raise
            """,
            line=10,
            message="6 attempts",
        ),
        Invalid(
            # spent on a 500, this pool hands the answer back: Minio raises S3Error, which the loop retries
            """
            import random, time
            from minio import Minio, S3Error
            from urllib3 import PoolManager, Retry
            retry = Retry(total=2, status_forcelist=[500], raise_on_status=False)
            client = Minio("s3.example.com", http_client=PoolManager(timeout=10, retries=retry))
            def put(key, data):
                for attempt in range(5):
                    try:
                        return client.put_object("bucket", key, data, len(data))
                    except S3Error:
                        if attempt == 4:
                            raise
                        time.sleep(random.uniform(0, 2 ** attempt))
            """,
            line=9,
            message="x urllib3 Retry total=2",
        ),
        Invalid(
            # urllib3 honours a 429's Retry-After by default, and, told not to raise once spent,
            # hands the last 429 back: both layers retry the same refusal
            """
            import time, requests
            from requests.adapters import HTTPAdapter
            from urllib3.util import Retry
            session = requests.Session()
            session.mount("https://", HTTPAdapter(max_retries=Retry(total=3, status_forcelist=[502, 503], raise_on_status=False)))
            def query(url):
                for attempt in range(4):
                    response = session.get(url, timeout=(5, 30))
                    if response.status_code == 429:
                        time.sleep(10)
                        continue
                    return response.json()
                raise RuntimeError("rate limited")
            """,
            line=8,
            message="a hand-written retry loop 4 attempts (example.py:7) x urllib3 Retry total=3",
        ),
        Invalid(
            # ... but does retry when that class derives from one it retries
            """
            import time, random, requests
            class TryAgain(Exception):
                pass
            class Exhausted(TryAgain):
                pass
            def with_retries(func):
                def wrapper(*args):
                    for attempt in range(5):
                        try:
                            return func(*args)
                        except TryAgain:
                            time.sleep(random.uniform(0, 2 ** attempt))
                    raise Exhausted()
                return wrapper
            @with_retries
            def token():
                return fetch("https://a/login")
            def fetch(url):
                r = requests.get(url, timeout=5)
                if r.status_code == 429:
                    raise TryAgain()
                return r
            @with_retries
            def put(url):
                return requests.put(url, headers={"A": token().text}, timeout=5)
            """,
            line=25,
            message="5 attempts (example.py:8) x a hand-written retry loop 5 attempts (example.py:8) = up to 25 calls",
        ),
        Invalid(
            # the OpenAI call is inside the ``try`` the loop retries
            """
            import time
            from openai import OpenAI
            def solve(session, url):
                for attempt in range(3):
                    try:
                        return OpenAI().audio.transcriptions.create(model="whisper-1", file=session.get(url, timeout=5).content)
                    except Exception:
                        time.sleep(1)
                raise ValueError("no solution")
            """,
            line=6,
            message="x OpenAI client max_retries=2 (the default)",
        ),
        Invalid(
            # the inner loop re-raises on its last attempt: the task retries what it gives up with
            """
            import time, httpx
            from celery import Celery
            app = Celery("jobs")
            @app.task(bind=True, autoretry_for=(httpx.NetworkError,), max_retries=10, retry_backoff=True)
            def process(self, url):
                for attempt in range(2):
                    try:
                        return httpx.get(url, timeout=TIMEOUT).json()["docket"]
                    except httpx.NetworkError:
                        if attempt == 1:
                            raise
                        time.sleep(60)
            """,
            line=8,
            message="celery 11 attempts",
        ),
        Invalid(
            # the inner loop's bound is a module constant: its count is known
            """
            import time, random, requests, tenacity
            MAX_ATTEMPTS = 3
            def fetch(url):
                for attempt in range(1, MAX_ATTEMPTS + 1):
                    try:
                        return requests.get(url, timeout=5)
                    except requests.ConnectionError:
                        time.sleep(random.uniform(0, attempt))
                raise RuntimeError(url)
            @tenacity.retry(stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_random_exponential(max=5))
            def sync(url):
                return fetch(url)
            """,
            message="= up to 12 calls per operation",
        ),
        Invalid(
            """
            import requests, tenacity
            from requests.adapters import HTTPAdapter
            from urllib3 import Retry
            session = requests.Session()
            session.mount("https://", HTTPAdapter(max_retries=Retry(total=3)))
            def fetch(url):
                return session.get(url, timeout=5)
            @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
            def sync(url):
                return fetch(url)
            """,
            line=10,
            message="tenacity 3 attempts (example.py:8) x urllib3 Retry total=3 (example.py:5) = up to 12 calls per operation",
        ),
        Invalid(
            """
            import time, random, boto3, tenacity
            s3 = boto3.client("s3")
            @tenacity.retry(stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_random(0, 1))
            def upload(key, body):
                s3.put_object(Bucket="b", Key=key, Body=body)
            """,
            line=5,
            message="an unknown number of calls",
        ),
        Invalid(
            """
            import boto3, tenacity
            from botocore.config import Config
            sqs = boto3.client("sqs", config=Config(read_timeout=10, retries={"max_attempts": 4}))
            @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
            def enqueue(url, body):
                sqs.send_message(QueueUrl=url, MessageBody=body)
            """,
            line=6,
            message="botocore client retries (max_attempts=4 retries) (example.py:3) = up to 15 calls",
        ),
        Invalid(
            """
            import random, time, tenacity
            @tenacity.retry(stop=tenacity.stop_after_attempt(2), wait=tenacity.wait_random(0, 1), reraise=True)
            def inner(client):
                return client.fetch()
            def outer(client):
                for attempt in range(3):
                    try:
                        return inner(client)
                    except ConnectionError:
                        time.sleep(random.uniform(0, 2 ** attempt))
                raise RuntimeError("gave up")
            """,
            line=8,
            message="a hand-written retry loop 3 attempts (example.py:6) x tenacity 2 attempts (example.py:2) = up to 6 calls",
        ),
        Invalid(
            # the poll on the result repeats no failure: the loop around it multiplies the
            # session's own retries
            """
            import random, time
            import requests
            import tenacity
            from requests.adapters import HTTPAdapter
            from urllib3.util.retry import Retry
            session = requests.Session()
            session.mount("https://", HTTPAdapter(max_retries=Retry(total=5)))
            @tenacity.retry(retry=tenacity.retry_if_exception_type(tenacity.TryAgain),
                            stop=tenacity.stop_after_attempt(10), wait=tenacity.wait_random(5, 15))
            def query(job):
                answer = session.post("https://redash.example/api/jobs", json=job, timeout=10).json()
                if answer["status"] == "pending":
                    raise tenacity.TryAgain
                return answer
            def report(job):
                for attempt in range(3):
                    try:
                        return query(job)
                    except requests.RequestException:
                        time.sleep(random.uniform(0, 2 ** attempt))
                raise RuntimeError("gave up")
            """,
            line=18,
            message="a hand-written retry loop 3 attempts (example.py:16) x urllib3 Retry total=5 (example.py:7) = up to 18 calls",
        ),
        Invalid(
            # throttling is what botocore retries: the loop repeats its retries
            """
            import time, boto3
            dynamodb = boto3.client("dynamodb")
            def read(key):
                for _ in range(5):
                    try:
                        return dynamodb.get_item(TableName="t", Key=key)
                    except dynamodb.exceptions.ProvisionedThroughputExceededException:
                        time.sleep(1)
                raise TimeoutError(key)
            """,
            line=6,
            message="a hand-written retry loop 5 attempts (example.py:4) x botocore client retries (example.py:2)",
        ),
        Invalid(
            # a ClientError of any code: throttling and 5xx included
            """
            import time, boto3
            from botocore.exceptions import ClientError
            dynamodb = boto3.client("dynamodb")
            def read(key):
                for _ in range(5):
                    try:
                        return dynamodb.get_item(TableName="t", Key=key)
                    except ClientError:
                        time.sleep(1)
                raise TimeoutError(key)
            """,
            line=7,
            message="a hand-written retry loop 5 attempts (example.py:5) x botocore client retries (example.py:3)",
        ),
        Invalid(
            # the route names the calls that lead to the inner loop, not the clock of its deadline
            """
            import random, time, requests
            def fetch(session, url, timeout=10):
                start = time.time()
                while time.time() - start < timeout:
                    try:
                        return session.get(url, timeout=3)
                    except requests.ConnectionError:
                        time.sleep(random.uniform(0, 1))
                raise TimeoutError(url)
            def sync(session, url):
                for attempt in range(3):
                    try:
                        return fetch(session, url)
                    except Exception:
                        time.sleep(random.uniform(0, 2 ** attempt))
                raise RuntimeError("gave up")
            """,
            line=13,
            message="nested retries through `fetch`: a hand-written retry loop 3 attempts (example.py:11) x a hand-written retry loop (attempts unknown) (example.py:4) =",
        ),
        Invalid(
            # called without ``fatal``, the inner loop raises once spent (the quiet return is
            # for ``fatal=False`` only), and the outer loop retries that error
            """
            import random, time, requests
            class HttpError(Exception):
                pass
            def request(session, url, fatal=True):
                for tries in range(5):
                    try:
                        return session.get(url, timeout=5)
                    except requests.ConnectionError:
                        time.sleep(random.uniform(0, 2 ** tries))
                if not fatal:
                    return None
                raise HttpError(url)
            def sync(session, url):
                while True:
                    try:
                        return request(session, url)
                    except HttpError:
                        time.sleep(random.uniform(30, 60))
            """,
            line=16,
            message="a hand-written retry loop with no attempt limit (example.py:14) x a hand-written retry loop 5 attempts (example.py:5)",
        ),
        Invalid(
            # a count-down loop started from a module constant: its attempts are read
            # through the local name (rotki's OpenSea client)
            """
            import time
            import requests
            from requests.adapters import HTTPAdapter
            from urllib3.util.retry import Retry

            RETRY_TIMES = 2
            session = requests.Session()
            session.mount("https://", HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.5, backoff_jitter=0.5)))

            def api_query(url):
                retries_left = RETRY_TIMES
                while retries_left >= 0:
                    try:
                        return session.get(url, timeout=(5, 30))
                    except requests.RequestException:
                        retries_left -= 1
                        time.sleep(1)
            """,
            line=14,
            message="a hand-written retry loop 3 attempts (example.py:12) x urllib3 Retry total=3 (example.py:8) = up to 12 calls",
        ),
        Invalid(
            # a project subclass of the client with no ``__init__``: made with the client's
            # arguments, it retries as the client does (elastalert's ``ElasticSearchClient``)
            """
            import time
            from elasticsearch import Elasticsearch
            from elasticsearch.exceptions import ConnectionError

            class SearchClient(Elasticsearch):
                def index_name(self, kind):
                    return f"app_{kind}"

            def wait_until_responsive(host, index):
                es = SearchClient(host, timeout=10)
                for _ in range(5):
                    try:
                        return es.indices.exists(index)
                    except ConnectionError:
                        time.sleep(1)
            """,
            line=13,
            message="5 attempts (example.py:11) x Elasticsearch client max_retries=3 (the default) (example.py:10) = up to 20 calls",
        ),
        Invalid(
            # an adapter subclass that only fills in a timeout hands ``max_retries`` on to requests'
            """
            import requests
            from requests.adapters import HTTPAdapter
            class TimeoutHTTPAdapter(HTTPAdapter):
                def __init__(self, *args, timeout=None, **kwargs):
                    self.timeout = timeout
                    super().__init__(*args, **kwargs)
                def send(self, *args, **kwargs):
                    kwargs["timeout"] = self.timeout
                    return super().send(*args, **kwargs)
            session = requests.Session()
            session.mount("https://", TimeoutHTTPAdapter(max_retries=2, timeout=5))
            def put(url, payload):
                for attempt in range(3):
                    try:
                        return session.put(url, json=payload)
                    except requests.Timeout:
                        continue
            """,
            line=15,
            message="a hand-written retry loop 3 attempts (example.py:13) x urllib3 Retry total=2 (example.py:11) = up to 9 calls",
        ),
    ]

    def check_project(self, ctx: ProjectContext) -> None:
        graph = ctx.graph
        chains: dict = {}
        first_layers: Dict[int, Set[Tuple[str, int]]] = {}  # function → the layers its calls first run into
        for outer in graph.all_layers():
            if not ctx.reports_in(outer.function.place.path) or ctx.in_test_code(outer.function.place.path):
                # nested retries are reported in the outer layer's function; in test code (a
                # fixture waiting for the test's cluster) the test process is the only client
                continue
            found = [
                reached for reached in _reached(graph, outer)
                if not separate_failures(
                    _told(graph, outer, reached, first_layers), _as_sent(reached), _converted_on(graph, reached), graph.ancestry,
                )
            ]
            for reached in _one_client_per_call(found):
                below = _chain(graph, reached.layer, chains, {outer.key}, _entry(reached))
                _report(ctx, outer, reached, below)


Chain = List[LayerRef]


def _told(graph: ProjectGraph, outer: LayerRef, reached: Reached, first_layers: Dict[int, Set[Tuple[str, int]]]) -> Layer:
    """The outer layer as the path to ``reached`` configures it: a helper that retries the
    function it is handed and the classes it is told (``retries_with_backoff(fetch, TypeError,
    5)``) retries, around ``fetch``, what the calls that hand it ``fetch`` tell it."""
    layer = outer.layer
    if not layer.caught_from or not reached.path:
        return layer
    first, call = reached.path[0]
    holder_name, slot = split_last(call.target)
    if not slot.startswith("(") or holder_name != split_last(layer.caught_from)[0]:
        return layer
    holder = graph.resolve(holder_name, first.place.path)
    if holder is None:
        return layer
    classes: List[str] = []
    for caller in graph.values.callers(holder):
        handed = [h.function for h in graph.values.argument(caller, holder, slot[1:-1]) if h.kind == "function" and h.function is not None]
        if not any(_runs_into(graph, function, reached.layer, first_layers) for function in handed):
            continue  # another call hands it a function that reaches another layer
        told = graph.values.argument(caller, holder, split_last(layer.caught_from)[1][1:-1])
        if not told or any(h.kind not in ("object", "class") for h in told):
            return layer
        classes.extend(h.name for h in told)
    return replace(layer, exceptions=tuple(dict.fromkeys(classes))) if classes else layer


def _runs_into(
    graph: ProjectGraph, function: FunctionSummary, layer: LayerRef, first_layers: Dict[int, Set[Tuple[str, int]]],
) -> bool:
    """Whether calling ``function`` runs into the retry layer ``layer`` (its own, or the first
    one of a function it calls); ``first_layers`` keeps what each function's calls run into."""
    if function is layer.function:
        return True
    if id(function) not in first_layers:
        first_layers[id(function)] = {reached.layer.key for reached in graph.layers_reached(function, function.calls)}
    return layer.key in first_layers[id(function)]


def _as_sent(reached: Reached) -> Layer:
    """The reached layer as it retries the request its path ends with (a POST that a urllib3
    ``Retry`` repeats only when its connection failed)."""
    layer = reached.layer.layer
    if not layer.client or not reached.path:
        return layer
    function, call = reached.path[-1]
    where = (call.place.path, call.place.line, call.place.column)
    method = next((r.method for r in function.requests if (r.place.path, r.place.line, r.place.column) == where), "")
    return for_method(layer, method)


def _one_client_per_call(found: List[Reached]) -> List[Reached]:
    """One client layer per call a layer covers: a request on an object that is both what its
    annotation names (``client: WebClient``, the library's retries in general) and what the
    callers pass (``WebClient(token=...)``, its own settings) reaches the client twice; the
    one whose count is known is kept."""
    best: Dict[Tuple[Place, str, str], Reached] = {}
    kept: List[Reached] = []
    for reached in found:
        layer = reached.layer.layer
        if not layer.client or not reached.path:
            kept.append(reached)
            continue
        key = (reached.path[0][1].place, split_last(reached.path[-1][1].target)[1], layer.library or layer.retrier.split(" ", 1)[0])
        known = best.get(key)
        if known is None:
            best[key] = reached
            kept.append(reached)
        elif known.layer.layer.calls is None and layer.calls is not None:
            kept[kept.index(known)] = best[key] = reached
    return kept


def _chain(
    graph: ProjectGraph, ref: LayerRef, memo: dict, seen: Set[Tuple[str, int]],
    entry: Tuple[Tuple[FunctionSummary, Call], ...] = (),
) -> Chain:
    """The layer and the deepest stack of layers below it (the largest product wins). Below a
    helper that retries the function it is handed (``Retry.__call__``) is what the call that
    ``entry`` ends with hands it, not what its other callers do."""
    handed = graph.calls_handed(ref.function)
    if not handed and ref.key in memo:
        return memo[ref.key]
    if ref.key in seen or ref.layer.client or (handed and not entry):
        return [ref]
    seen = seen | {ref.key}
    best: Chain = [ref]
    for reached in _reached(graph, ref, entry=entry if handed else ()):
        if separate_failures(ref.layer, _as_sent(reached), _converted_on(graph, reached), graph.ancestry):
            continue
        candidate = [ref] + _chain(graph, reached.layer, memo, seen, _entry(reached))
        if _weight(candidate) > _weight(best):
            best = candidate
    if not handed:
        memo[ref.key] = best
    return best


def _entry(reached: Reached) -> Tuple[Tuple[FunctionSummary, Call], ...]:
    """The calls that lead into the reached layer's function (a loop's path ends with the call
    inside it)."""
    path = reached.path
    return path[:-1] if path and path[-1][0] is reached.layer.function else path


def _reached(
    graph: ProjectGraph, ref: LayerRef, seen: FrozenSet[Tuple[str, int]] = frozenset(),
    entry: Tuple[Tuple[FunctionSummary, Call], ...] = (),
) -> Iterator[Reached]:
    """The layers the calls a layer covers reach, looking through a poll on the result (a
    tenacity ``retry_if_result`` or ``TryAgain``): the poll repeats no failed call, the layers
    inside it do (an outer loop around a status poll whose
    session retries by itself multiplies the session's retries)."""
    stacked = _decorator_below(ref)
    if stacked is not None:
        # ``@retry(...)`` over another ``@retry(...)``: every attempt of the upper one runs the lower one
        yield Reached(stacked, ())
        return
    after = None if ref.layer.whole_function else ref.index
    # a call whose failure leaves the layer (outside the ``try`` it retries) is not multiplied by it
    covered = [call for call in graph.covered_calls(ref) if ref.index not in call.escapes]
    for reached in graph.layers_reached(ref.function, covered, after, entry):
        # (a layer that retries on a failed result sees a swallowed failure as that result)
        swallowed = ref.layer.retries_on != ON_FAILED_RESULT and any(call.swallowed for _, call in reached.path)
        if swallowed or _spared(graph, reached) or (
            ref.layer.retries_on in (ON_SPECIFIC, ON_ANY) and _caught(graph, reached)
        ):
            continue  # the inner layer's last failure ends in an ``except Exception: pass`` on the way
        inner = reached.layer
        if inner.layer.retries_on == ON_RESULT:
            if inner.key not in seen:
                for deeper in _reached(graph, inner, seen | {inner.key}):
                    yield Reached(deeper.layer, reached.path + deeper.path)
            continue
        if inner.key not in seen and separate_failures(ref.layer, inner.layer, graph.is_project_name, graph.ancestry):
            # ``ref`` does not retry what ``inner`` gives up with, but a layer inside ``inner``
            # whose last failure ``inner`` lets through reaches ``ref`` with it
            into = _entry(reached)
            handed = into if graph.calls_handed(inner.function) else ()
            for deeper in _reached(graph, inner, seen | {inner.key}, handed):
                if separate_failures(inner.layer, deeper.layer.layer, _converted_on(graph, deeper), graph.ancestry):
                    yield Reached(deeper.layer, into + deeper.path)
        yield reached


def _decorator_below(ref: LayerRef) -> Optional[LayerRef]:
    """The retry decorator written right below ``ref``'s, on the same function."""
    layer, function = ref.layer, ref.function
    if not layer.whole_function or layer.place.path != function.place.path:
        return None
    below = [
        (other.place.line, index) for index, other in enumerate(function.layers)
        if other.whole_function and other.place.path == function.place.path
        and layer.place.line < other.place.line < function.place.line
    ]
    return LayerRef(function, min(below)[1]) if below else None


def _converted_on(graph: ProjectGraph, reached: Reached) -> Callable[[str], bool]:
    """``graph.is_project_name`` for the exception classes the inner layer's last error may
    become on its way out: a project class the project defines counts only when a function of
    the path raises it, or a class derived from it, in an ``except`` handler (``except
    APIError as e: raise IndexWriteError from e``), or the inner layer gives up with it. One
    nothing on the way raises so is another failure, as another library's is."""
    inner = reached.layer
    raised = {name for function, _ in reached.path for name, how in function.raises if how == "failure"}
    # (what a decorated function raises, it raises inside the decorator's attempts: a class the
    # decorator does not retry leaves it at once, unmultiplied; one it retries is its last failure)
    retried = set(inner.layer.exceptions) if inner.layer.whole_function else set()
    raised |= {name for name, how in inner.function.raises if how == "failure" and (not retried or name in retried)}
    raised |= set((reached.layer.layer.gives_up_with or "").split())
    widened = raised | {base for name in raised for base in graph.ancestry(name) or ()}

    def in_project(name: str) -> bool:
        return graph.is_project_name(name) and (graph.class_module(name) is None or graph.class_named(name) in widened)

    return in_project


def _spared(graph: ProjectGraph, reached: Reached) -> bool:
    """Whether the inner layer's last failure ends on the way, in a ``try`` that catches every
    exception and raises again only classes that failure is not (``except Exception as e: if
    isinstance(e, ApiException): raise`` around a pool's request)."""
    spent = reached.layer.layer.gives_up_with
    if not spent or spent == GIVES_UP_QUIETLY:
        return False
    last = len(reached.path) - 1
    return any(
        call.spared and all(
            not_raised_by(name, spent, graph.is_project_name, index == last and call.retrying is not None)
            for name in call.spared
        )
        for index, (_, call) in enumerate(reached.path)
    )


def _caught(graph: ProjectGraph, reached: Reached) -> bool:
    """Whether what the inner layer fails with once spent ends on the way, in a ``try`` whose
    handler names its class (or a project base of it) and raises nothing (``except
    TemporaryError: logger.exception(...)`` around a call of a ``@retrier`` function), for an
    outer layer that retries errors (one that retries a failed result, ``if not send(...)``,
    sees what such a handler returns instead)."""
    layer = reached.layer.layer
    failures = layer.gives_up_with.split() if layer.gives_up_with else list(layer.exceptions)
    if not layer.gives_up_with:
        # a project class the layer retries but nothing on the way raises is no last failure
        # here (``@retrier`` retries ``RetryableOrderError`` too; ``fetch_trading_fees`` raises
        # only ``TemporaryError``)
        raised = _converted_on(graph, reached)
        failures = [name for name in failures if not graph.is_project_name(name) or raised(name)]
    if not failures or any(name.endswith(".*") for name in failures):
        return False
    caught = [set(call.caught) for _, call in reached.path if call.caught]
    if not caught:
        return False
    return all(any({name, *(graph.ancestry(name) or ())} & names for names in caught) for name in failures)


def _weight(chain: Chain) -> Tuple[int, int]:
    product = 1
    for ref in chain:
        product *= ref.layer.calls or 1
    return len(chain), product


def _report(ctx: ProjectContext, outer: LayerRef, reached: Reached, below: Chain) -> None:
    layers = [outer] + below
    described = " x ".join(f"{ref.layer.description} ({ref.layer.place.short()})" for ref in layers)
    counts = [ref.layer.calls for ref in layers]
    if all(count is not None for count in counts):
        product = 1
        for count in counts:
            product *= count  # type: ignore[operator]
        total = f"up to {product} calls per operation"
    else:
        unknown = ", ".join(ref.layer.description for ref in layers if ref.layer.calls is None)
        total = f"an unknown number of calls per operation ({unknown}: the count is not in the code)"
    path = [call for _, call in reached.path]
    inner = reached.layer
    if (len(path) > 1 and reached.path[-1][0] is inner.function and not inner.layer.client
            and inner.index in path[-1].layers):
        # the call that entered the inner loop is inside it (the clock of ``while time.time() <
        # deadline`` as well as the retried request): the steps are the calls that lead there
        path = path[:-1]
    route = ""
    if len(path) > 1 or reached.layer.function is not outer.function:
        route = " through " + " -> ".join(_step_names(reached, path))
    message = (
        f"nested retries{route}: {described} = {total}; let one layer own the retries"
    )
    related: List[Tuple[Place, str]] = [(ref.layer.place, f"retry layer: {ref.layer.description}") for ref in layers]
    related.extend((call.place, f"calls `{call.target}`") for call in path[1:] if call.retrying is None)
    first = path[0] if path else None
    place: Optional[Place] = first.place if first is not None else reached.layer.layer.place
    ctx.report(place, message, related)


def _step_names(reached: Reached, path: List[Call]) -> List[str]:
    """How the message names each call on the way: the function it calls, or, for a call of a
    parameter (``fn(*args)``), the parameter and the function that runs there (``fn`` =
    ``fetch_page``)."""
    names = []
    for index, call in enumerate(path):
        name = call.target.rsplit(".", 1)[-1]
        if name == CALLED and index + 1 < len(reached.path):
            # an object called (``self._retry(f)``): the ``__call__`` that runs
            names.append(f"`{'.'.join(reached.path[index + 1][0].name.rsplit('.', 2)[-2:])}`")
        elif name.startswith("(") and (index + 1 < len(reached.path) or reached.path[-1][0] is not reached.layer.function):
            # the function that runs there: the next step's, or the decorated one the call reaches
            runs = (reached.path[index + 1][0] if index + 1 < len(reached.path) else reached.layer.function).name.rsplit(".", 1)[-1]
            names.append(f"`{name[1:-1]}` (`{runs}`)")
        else:
            names.append(f"`{name.strip('()')}`")
    return names
