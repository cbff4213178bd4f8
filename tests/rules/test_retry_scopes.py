"""The retry-scope recogniser shared by the RES2xx rules (lint/retry_scopes/)."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from resilint.libraries.retry_scopes import (
    ON_ANY, ON_SPECIFIC, ON_STATUS, UNKNOWN, WAIT_EXPONENTIAL, WAIT_FIXED, WAIT_JITTERED, WAIT_NONE,
    calls_within, normalise, retry_scopes,
)
from resilint.lint.semantic import SemanticModel


def scopes_of(code: str):
    model = SemanticModel(cst.parse_module(textwrap.dedent(code)))
    return model, retry_scopes(model)


def only_policy(code: str):
    _, found = scopes_of(code)
    assert len(found.policies) == 1, [p.library for p in found.policies]
    return found.policies[0]


def test_memoised_per_model():
    model, found = scopes_of("import tenacity\n@tenacity.retry\ndef f(): ...\n")
    assert retry_scopes(model) is found


def test_normalise_folds_library_internals():
    assert normalise("tenacity.wait.wait_fixed") == "tenacity.wait_fixed"
    assert normalise("tenacity.retry.retry_if_exception_type") == "tenacity.retry_if_exception_type"
    assert normalise("tenacity.retry") == "tenacity.retry"
    assert normalise("backoff._decorator.on_exception") == "backoff.on_exception"
    assert normalise("requests.packages.urllib3.util.retry.Retry") == "urllib3.Retry"


def test_tenacity_defaults():
    policy = only_policy("import tenacity\n@tenacity.retry\ndef f(): ...\n")
    assert policy.library == "tenacity"
    assert policy.max_attempts is None and policy.time_limit is None and policy.unbounded
    assert policy.wait.kind == WAIT_NONE
    assert policy.retry_on.kind == ON_ANY


def test_tenacity_settings_and_aliases():
    policy = only_policy(
        """
        from tenacity import retry as again, stop_after_attempt as tries, stop_after_delay
        from tenacity.wait import wait_exponential, wait_random
        from tenacity.retry import retry_if_exception_type
        @again(stop=tries(4) | stop_after_delay(10), wait=wait_exponential() + wait_random(0, 1),
               retry=retry_if_exception_type(OSError))
        def f(): ...
        """
    )
    assert (policy.max_attempts, policy.time_limit) == (4, 10)
    assert policy.wait.kind == WAIT_JITTERED
    assert policy.retry_on.kind == ON_SPECIFIC


def test_kwargs_make_settings_unknown():
    policy = only_policy("import tenacity\ndef make(**kw):\n    return tenacity.retry(**kw)\n")
    assert policy.attempts.kind == UNKNOWN and policy.wait.kind == UNKNOWN and policy.retry_on.kind == UNKNOWN


def test_shared_policy_is_one_policy_with_two_scopes():
    _, found = scopes_of(
        """
        import tenacity
        api_retry = tenacity.retry(wait=tenacity.wait_fixed(1))
        @api_retry
        def a(): ...
        @api_retry
        def b(): ...
        """
    )
    assert len(found.policies) == 1
    assert sorted(s.function.name for s in found.covering()) == ["a", "b"]


def test_retrying_loop_object_call_and_retry_with():
    _, found = scopes_of(
        """
        from tenacity import Retrying, AsyncRetrying, retry, stop_after_attempt
        @retry(stop=stop_after_attempt(2))
        def g(): ...
        def f():
            for attempt in Retrying(stop=stop_after_attempt(3)):
                with attempt:
                    g()
            r = Retrying()
            r(g)
            g.retry_with(stop=stop_after_attempt(5))()
        """
    )
    kinds = sorted(s.kind for s in found.scopes)
    assert kinds == ["call", "call", "decorator", "iterator"]
    derived = [p for p in found.policies if p.max_attempts == 5][0]
    assert derived.wait.inherited and not derived.attempts.inherited


def test_backoff_and_stamina_and_retrying():
    _, found = scopes_of(
        """
        import backoff, stamina, retrying
        @backoff.on_exception(backoff.expo, Exception, max_tries=3)
        def a(): ...
        @backoff.on_exception(backoff.constant, OSError, jitter=None)
        def b(): ...
        @stamina.retry(on=OSError, wait_jitter=0)
        def c(): ...
        @retrying.retry(stop_max_attempt_number=3, wait_fixed=100)
        def d(): ...
        """
    )
    a, b, c, d = found.policies
    assert (a.max_attempts, a.wait.kind, a.retry_on.kind) == (3, WAIT_JITTERED, ON_ANY)
    assert (b.unbounded, b.wait.kind) == (True, WAIT_FIXED)
    assert (c.max_attempts, c.time_limit, c.wait.kind) == (10, 45.0, WAIT_EXPONENTIAL)
    assert (d.max_attempts, d.wait.kind, d.retry_on.kind) == (3, WAIT_FIXED, ON_ANY)


def test_celery_autoretry_and_self_retry():
    _, found = scopes_of(
        """
        from celery import Celery
        app = Celery()
        @app.task(autoretry_for=(OSError,), max_retries=None)
        def a(): ...
        @app.task(bind=True)
        def b(self):
            try:
                work()
            except Exception as exc:
                raise self.retry(exc=exc)
        """
    )
    auto, manual = found.policies
    assert auto.unbounded and auto.wait.kind == WAIT_FIXED and "180 s" in auto.wait.detail
    assert manual.kind == "task-retry" and manual.max_attempts == 4 and manual.retry_on.kind == ON_ANY
    assert manual.handlers


def test_urllib3_and_httpx_transports():
    _, found = scopes_of(
        """
        import httpx, requests, urllib3
        from requests.adapters import HTTPAdapter
        s = requests.Session()
        s.mount("https://", HTTPAdapter(max_retries=urllib3.Retry(3, backoff_factor=1, allowed_methods=None)))
        t = httpx.HTTPTransport(retries=2)
        p = urllib3.PoolManager()
        """
    )
    kinds = {(s.library, s.kind) for s in found.scopes}
    assert kinds == {("urllib3", "adapter"), ("httpx", "transport"), ("urllib3", "pool")}
    retry = [p for p in found.policies if p.kind == "urllib3-retry"][0]
    assert retry.wait.kind == WAIT_EXPONENTIAL and retry.unsafe_methods is not None
    httpx_policy = [p for p in found.policies if p.library == "httpx"][0]
    assert httpx_policy.max_attempts == 2 and httpx_policy.guards_non_idempotent


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (  # catches and goes round, leaves on success
            """
            for attempt in range(3):
                try:
                    result = call()
                    break
                except OSError:
                    time.sleep(2 ** attempt)
            """,
            (3, WAIT_EXPONENTIAL, ON_SPECIFIC),
        ),
        (  # status check
            """
            while True:
                r = call()
                if r.status_code == 200:
                    break
                time.sleep(random.random())
            """,
            (None, WAIT_JITTERED, ON_STATUS),
        ),
        (  # continue, then an unconditional break
            """
            for attempt in range(5):
                try:
                    r = call()
                except Exception:
                    time.sleep(1)
                    continue
                break
            """,
            (5, WAIT_FIXED, ON_ANY),
        ),
        (  # the attempt number only counts, waits and logs: still the same call
            """
            for attempt in range(4):
                try:
                    result = call(url, timeout=2 * (attempt + 1))
                    break
                except OSError:
                    log.warning("attempt %d failed", attempt)
                    delay = 2 ** attempt
                    time.sleep(random.uniform(0, delay))
            """,
            (4, WAIT_JITTERED, ON_SPECIFIC),
        ),
        (  # failover by index with a pause counts like ``for host in hosts`` with a pause
            """
            for i in range(len(hosts)):
                try:
                    result = call(hosts[i])
                    break
                except OSError:
                    time.sleep(1)
            """,
            (UNKNOWN, WAIT_FIXED, ON_SPECIFIC),
        ),
        (  # ``while url``: a bad status goes round on the same url, the condition is the way out
            """
            while url:
                r = call(url)
                if r.status_code != 200:
                    time.sleep(1)
                    continue
                url = r.json().get("next")
            """,
            (UNKNOWN, WAIT_FIXED, ON_STATUS),
        ),
        (  # a fresh connection per attempt: the same request again
            """
            while True:
                conn = pool.get()
                try:
                    result = conn.send(request)
                    break
                except OSError:
                    time.sleep(random.random())
            """,
            (None, WAIT_JITTERED, ON_SPECIFIC),
        ),
    ],
)
def test_hand_written_loops(code, expected):
    policy = only_policy("import time, random\n" + textwrap.dedent(code))
    assert (policy.max_attempts, policy.wait.kind, policy.retry_on.kind) == expected


@pytest.mark.parametrize(
    "code",
    [
        # polling: no failure handled
        "while True:\n    if call().done:\n        break\n    time.sleep(1)\n",
        # failover without a pause
        "for host in hosts:\n    try:\n        return_value = call(host)\n        break\n    except OSError:\n        continue\n",
        # a worker: success does not leave
        "while True:\n    try:\n        call()\n    except Exception:\n        pass\n",
        # control-flow exceptions
        "while True:\n    try:\n        x = next(it)\n        break\n    except StopIteration:\n        pass\n",
        # only builtins in the try (input validation)
        "while True:\n    try:\n        n = int(input())\n        break\n    except ValueError:\n        print('again')\n",
        # a queue consumer with a conditional exit after the try
        "while True:\n    try:\n        v = get(0.5)\n    except TimeoutError:\n        continue\n    if v is None:\n        break\n    use(v)\n",
        # a queue worker whose sentinel break is inside the try: each pass takes new work
        """
        while True:
            try:
                job = q.get()
                if job is None:
                    break
                post(url, json=job)
            except Exception:
                time.sleep(1)
        """,
        # pagination: the loop number feeds the call (through a local), a failed page is skipped
        """
        for page in range(1, 50):
            try:
                body = {"page": page}
                items = post(url, json=body).json()
                if not items:
                    break
            except OSError:
                log.warning("page %s failed", page)
            time.sleep(0.5)
        """,
        # failover by index, no pause: like ``for host in hosts``
        """
        for i in range(len(hosts)):
            try:
                result = post(hosts[i], json=payload)
                break
            except OSError:
                continue
        """,
    ],
)
def test_not_retry_loops(code):
    _, found = scopes_of("import time\n" + textwrap.dedent(code))
    assert not found.policies


def test_calls_within_skip_nested_defs_and_loop_iterables():
    model, found = scopes_of(
        """
        import time
        def f():
            for attempt in range(make_range()):
                try:
                    inner = lambda: post()
                    return send()
                except OSError:
                    time.sleep(1)
        """
    )
    (scope,) = found.covering()
    names = sorted(c.node.func.value for c in calls_within(model, scope) if isinstance(c.node.func, cst.Name))
    assert names == ["send"]


@pytest.mark.parametrize("code, attempts, counted_from", [
    # freqtrade's ``retrier``: a count taken from the keywords, counted down while above 0
    ("""
     import time
     RETRIES = 4
     class TemporaryError(Exception): ...
     def wrapper(*args, **kwargs):
         count = kwargs.pop("count", RETRIES)
         try:
             return send(*args, **kwargs)
         except TemporaryError:
             if count > 0:
                 count -= 1
                 kwargs["count"] = count
                 time.sleep(1)
                 return wrapper(*args, **kwargs)
             raise
     """, 5, None),
    # a parameter counted down, left when spent
    ("""
     import time, requests
     def fetch(url, retries=2):
         try:
             return requests.get(url, timeout=5)
         except requests.ConnectionError:
             if retries <= 0:
                 raise
             time.sleep(1)
             return fetch(url, retries - 1)
     """, 3, None),
    # the count starts from a decorator factory's parameter: the project pass reads it
    ("""
     import time, requests
     def retrier(*, retries=3):
         def decorator(f):
             def wrapper(*args, **kwargs):
                 count = kwargs.pop("count", retries)
                 try:
                     return f(*args, **kwargs)
                 except requests.ConnectionError:
                     if count > 0:
                         kwargs["count"] = count - 1
                         count -= 1
                         time.sleep(1)
                         return wrapper(*args, **kwargs)
                     raise
             return wrapper
         return decorator
     """, UNKNOWN, "retries"),
])
def test_recursion_counted_down(code, attempts, counted_from):
    policy = only_policy(code)
    assert policy.library == "recursion" and policy.attempts.kind == "bounded"
    assert policy.max_attempts == attempts
    counted = policy.counted_from
    assert (counted[0].value, counted[1]) == (counted_from, 1) if counted_from else counted is None


def test_recursion_once_flag():
    policy = only_policy(
        """
        import time, requests
        class Throttled(Exception): ...
        def checked(fn, raise_api_limit=False):
            try:
                return fn()
            except Throttled:
                if not raise_api_limit:
                    time.sleep(12)
                    return checked(fn, raise_api_limit=True)
                raise
        """
    )
    assert policy.library == "recursion" and policy.attempts.kind == "bounded" and policy.max_attempts == 2


@pytest.mark.parametrize("code, attempts", [
    # a countdown that goes round while retries are left: 10 retries, 11 attempts
    ("""
     import time
     class S3Error(Exception): ...
     def put(client, key, data):
         retries = 10
         while True:
             try:
                 client.put_object(key, data)
                 break
             except S3Error as e:
                 if e.code == "InternalError" and retries > 0:
                     retries -= 1
                     time.sleep(1)
                     continue
                 raise
     """, 11),
    # counted down before the test that leaves; another reason to leave does not count
    ("""
     import time
     class TransportError(Exception): ...
     def send(transport, text):
         tries_left = 2
         while True:
             try:
                 return transport.send(text)
             except TransportError as e:
                 tries_left -= 1
                 if e.permanent or tries_left == 0:
                     raise
                 time.sleep(1)
     """, 2),
    # the loop's condition, with the bound a parameter's default, counted on a status
    ("""
     import time
     def upload(session, package, max_redirects: int = 5):
         redirects = 0
         while redirects < max_redirects:
             resp = session.post(package)
             if resp.status_code == 200:
                 return resp
             if 500 <= resp.status_code < 600:
                 redirects += 1
                 time.sleep(1)
             else:
                 return resp
         return resp
     """, 5),
    # counted at the top of the pass, the bound a module constant
    ("""
     import time, requests
     MAX_ATTEMPTS = 3
     def fetch(url):
         attempt = 0
         while attempt < MAX_ATTEMPTS:
             attempt += 1
             try:
                 return requests.get(url, timeout=3)
             except requests.ConnectionError:
                 time.sleep(1)
     """, 3),
    # tested before it is counted: one attempt more
    ("""
     import time, requests
     def fetch(url):
         attempt = 0
         while True:
             try:
                 return requests.get(url, timeout=3)
             except requests.ConnectionError:
                 if attempt >= 4:
                     raise
                 attempt += 1
                 time.sleep(1)
     """, 5),
    # a start the function does not know: bounded, count unknown
    ("""
     import time, requests
     def fetch(url, tries):
         while tries > 0:
             try:
                 return requests.get(url, timeout=3)
             except requests.ConnectionError:
                 tries -= 1
                 time.sleep(1)
     """, UNKNOWN),
    # counted in a branch that decides nothing: not read
    ("""
     import time, requests
     def fetch(url, log):
         attempt = 0
         while attempt < 3:
             try:
                 return requests.get(url, timeout=3)
             except requests.ConnectionError:
                 if log:
                     attempt += 1
                 time.sleep(1)
     """, UNKNOWN),
])
def test_while_loops_counted(code, attempts):
    policy = only_policy(code)
    assert policy.library == "loop" and policy.attempts.kind == "bounded"
    assert policy.max_attempts == attempts
