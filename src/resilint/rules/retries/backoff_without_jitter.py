"""RES202 backoff-without-jitter."""

from __future__ import annotations

from typing import Any, Dict, Set

import libcst as cst

from resilint.libraries.retry_scopes import (
    LIBRARY_TRIGGERS,
    WAIT_EXPONENTIAL,
    WAIT_FIXED,
    WAIT_NONE,
    Policy,
    retry_scopes,
)
from resilint.lint.config import is_test_code
from resilint.lint.nodes import number_of
from resilint.lint.semantic import SemanticModel
from resilint.lint.project import ProjectContext
from resilint.lint.summary import Wait
from resilint.lint.rule import Invalid, RuleContext
from resilint.rules.project_rule import ProjectRule
from resilint.rules.retries.near_misses import (
    ASK_AGAIN,
    LOCAL_BROWSER_START,
    PAGE_ASSERTION_POLL,
    PAGINATION,
    QUEUE_WORKER,
    WATCH_JOB,
    WATCH_VALUE,
)

_HERD = "clients that failed together retry together"


class BackoffWithoutJitter(ProjectRule):
    """A retry waits the same computed interval in every client, so failures come back in waves.

    ## What it does
    Flags retry scopes whose wait between attempts has no random component:

    - tenacity without `wait=` (it waits nothing), or with `wait_fixed`, `wait_exponential`,
      `wait_incrementing` or `wait_chain` and no `wait_random*`/`wait_*_jitter` term, also
      when a project function given as `wait=` returns one applied to the retry state
      (`return wait_exponential(...)(retry_state)`) or computes a delay with no random term
      (a function that returns the server's `Retry-After` when it sends one is judged on what
      it returns otherwise),
      when the wait is a class of the module that extends one of these and draws nothing
      random itself (`class wait_retry_after(wait_exponential)`), and when one of several
      classes the code may pick (`(wait_retry_after if respect else wait_exponential)(...)`)
      has no random term;
    - backoff with `jitter=None`;
    - aiohttp-retry's `ExponentialRetry`, `FibonacciRetry` and `ListRetry` options (also the
      default `ExponentialRetry()` of a `RetryClient()` given no `retry_options=`);
      `RandomRetry` and `JitterRetry` add a random term;
    - urllib3 `Retry(backoff_factor=...)` (a positive factor) without `backoff_jitter`, also
      a `Retry` subclass of the module whose `__init__` fills the factor in
      (`kwargs.setdefault("backoff_factor", 1.0)`; reported there), and the factor unpacked
      from a dict the function writes out (`Retry(**retry_args)`; a dict written into later
      may add the jitter, and is not judged);
    - celery tasks with `autoretry_for` but no `retry_backoff` (a fixed `default_retry_delay`,
      180 s unless changed), with `retry_jitter=False` (also set as class attributes of a `Task`
      subclass that tasks use through `base=`, reported at the class), and `self.retry()` with a
      constant or growing `countdown` or none at all, also in a helper that receives the task
      (`raise task.retry(countdown=30 * (task.request.retries + 1))`) and with the keywords of a
      dict (`self.retry(exc=exc, **RETRY_KWARGS)`, in this module or another; a `countdown`
      written at the call is the one waited, whatever else `**` unpacks);
    - RQ `Retry(max=..., interval=...)` (a constant, a list of intervals or a value from
      configuration: RQ adds no random term to any; `interval` defaults to 0);
    - stamina with `wait_jitter=0`;
    - retrying with `wait_fixed`/`wait_exponential_multiplier` and no `wait_jitter_max`, or no
      wait at all;
    - hand-written retry loops whose `time.sleep`/`asyncio.sleep` argument is a constant or a
      pure exponential (`2 ** attempt`, `delay *= 2`, `RETRY_BASE * 2 ** attempt` whether
      `RETRY_BASE` is defined here or imported). A sleep whose argument involves `random`,
      `secrets` or a jitter helper counts as jittered; one computed by code we cannot see (a
      server's `Retry-After`, a helper in another module) is not flagged. A variable is judged
      by every assignment that can reach the sleep: `delay = 2 ** n` replaced by a jittered
      value on both branches of an `if` is jittered, on one branch only it is not; a setting
      read off an object (`self.retry_delay`, `getattr(server, "wait", 0.0)`), or a keyword
      taken from the function's `**kwargs` (`kwargs.pop("watch_delay", None)`), is a constant; a
      `for` loop's target taken from numbers written out (`for seconds in (1, 2, 4, 8, 16):`,
      also a name or a parameter's default bound to them) waits that schedule, and the message
      says how it grows. A
      loop that tests success after its `try` (`result = server.notify()` there, `if result:
      break` after it) is a retry loop too. A
      hand-written loop that reconnects to a stream it reads until it ends (`while running:
      try: async with client.stream(...) as r: async for line in r.aiter_lines(): ... except
      httpx.HTTPError: await asyncio.sleep(5)`) is a retry loop too, though it never leaves on
      success: subscribers that lost the server together reconnect together; also on another
      module's client (`get_client().stream(...)`), whose response it reads as a streamed
      response (`r.aiter_lines()`, `r.iter_lines()`), and on a websocket opened in a `with`
      nested in another, read in a method of the file, or in a method the loop calls (`while
      self.live: try: await self.connect()`, `connect` opening `session.ws_connect(url)` and
      awaiting `self.read_messages()`, which iterates it), on a websocket opened without `with`
      (`ws = create_connection(url)`, then `while True: ws.recv()`; also kept in an attribute,
      `self.websocket = await session.ws_connect(url)`, and read by a method of the file called
      after it, `await self.connection(self.websocket)`), and on one a handler opens
      again (`except WebSocketConnectionClosedException: time.sleep(5); ws = create_connection(url)`,
      the loop then reading it as before), also when the read is in a `with` of the project's
      nested in the connection's (`async with create_channel(ws) as channel:`) or in a
      coroutine of the file handed on to be run (`await channel.run_tasks(self.receive(channel))`),
      and a broker's event stream consumed
      by a library call until it ends (Celery's `EventReceiver(conn, ...).capture(limit=None)`,
      kombu's `ConsumerMixin.run()`). A
      hand-written loop that retries at once, with no sleep at all, is not flagged either: that
      shape is mostly local conflict handling (an optimistic-lock or serialization retry),
      where a wait would only add latency. Nor is a readiness probe (see RES203): a loopback
      URL asked in a function that starts its own server or program, or in a pytest fixture or
      test. A wait built from a number of attempts that comes from
      a setting (`times = settings.get_query_retry_limit()`, then `10 * (retries - times + 1)`)
      is judged as the same wait from a number written out. A server's `Retry-After` (or its
      rate limit's reset, `RateLimit-Reset`, `X-RateLimit-Reset`, also kept on the object,
      `self.ratelimit_reset`, or an attribute every assignment of which, but the number it
      starts from, is the server's wait from now, `self.backoff_until = time.time() +
      float(duration)` in a method each call of the file hands `parse_backoff(resp.headers)`,
      and capped, `to_next = min(to_next, 300)`; or what a handler reads off the error it
      caught when that error says to wait, Telegram's `except FloodWait as e: await
      asyncio.sleep(e.value)`, a `RateLimitError`'s or a `SlowModeWaitError`'s seconds) is the server's; the code's
      own fallback when it sends none (`headers.get("Retry-After", 5)`, also written as text,
      `int(headers.get("Retry-After", "30"))`, `retry_after or 5`,
      a handler's own delay beside one that waits `exc.retry_after.total_seconds()`, a
      helper's `return 60` after it (also after a header read with an empty default,
      `retry_after = headers.get("retry-after", "")`, then `if retry_after: return
      float(retry_after)`; a header name may be a constant named for it, `RETRY_AFTER_HEADER`
      or aiohttp's `hdrs.RETRY_AFTER`), or `wait = 2 ** n` that an `if "Retry-After" in
      r.headers:` assigns over) is judged, and a loop's other pauses are judged as if
      that one were not there (a 429 path that waits `Retry-After` beside a 5xx path that waits
      `2 ** attempt`); so is a pause on a branch of its own (`if code == 429: sleep(helper(n))
      else: sleep(n)`, or in an `except` handler of its own, or as the last call of the `try`
      beside a handler's, or in the `try` followed at once by `continue`, or after a way out on
      a 200, `if response.status_code == 200 and "id" in reply: break`), whatever the other
      branch waits,
      and each such path without a random term is a finding of its own (a loop whose three
      handlers each wait `RETRY_DELAY` has three; pauses one after the other on one path are one). A pause taken in slices by a loop of
      its own that only sleeps (`for _ in range(10): if self.should_stop: return;
      time.sleep(0.1)`, also with a check of the file that raises to stop,
      `self.cancel_check()`, between the slices, or `while remaining > 0 and not self.closed: time.sleep(0.5);
      remaining -= 0.5`) is the loop's pause. A loop that pauses through a project function which hands its parameter
      unchanged to `time.sleep` (or another library sleep) on some path (`cancellable_sleep(
      seconds)`, a `self._wait(delay)` method, by position or by a keyword named for the pause,
      `self.throttle(wait=wait)` at the top of the loop) is judged by what it hands that function, in this
      module or another; a failed status tested with what allows the retry (`if r.status_code
      == 429 and retry:`) goes round as one tested alone. Twisted's sleeps count: `deferLater(reactor, delay)`, and a clock's
      `sleep(seconds)` that waits for a Deferred fired by `reactor.callLater(seconds,
      d.callback)` (no fix is offered for them). A pause in the `try` after its first call out runs after a success
      (pacing pages), and is not the retry's wait; nor is one there under a success check
      (`if result.status == 200: time.sleep(0.01)`) or under an `if` the `try` returns right
      after, unless in its `else`. In a loop whose every handler goes straight round (its last statement
      is `continue`), a pause after the `try` follows a success only, and is not the retry's
      wait. The same goes for a retry by recursion (a function that calls itself again from an
      `except` after a `sleep`, or under an `if` on a bad status, a bound on its attempts joined
      by `and` included: `if res["code"] == "503" and attempt < 3:`, or after a `try` that
      returns when its call works and whose handler only logs, so that only a failure gets
      there), a celery task that queues
      itself again after a failure, whose wait is the `countdown=` it passes
      (`call_webhook.apply_async(args=(url, try_count + 1), countdown=2 ** try_count)`), and a worker that puts a failed item back on its queue. A
      loop goes round on a failed status read on a response (`r.status_code == 429`) or on the
      mapping a project's own fetch wrapper returns (`if res["code"] == "429": sleep(2)`) or
      on a status it unpacked into a name (`_, status_code = api.get(path)`), and
      leaves on a success check joined with a key the answer must carry (`if r.status_code ==
      200 and "id" in reply: break`); joined with a state it waits for (`and r.json()["state"]
      == "done"`), or followed by a test of one (`if r.status_code == 204:` … `if version in
      versions: break`, a value the code holds looked for in what it fetched), it is a poll; so
      is a loop that waits for a value read from the answer to reach one it names (`while
      percentage != 100:`), which no counter is, one that looks for a value it holds in a
      listing it fetched (`if name not in client.list().names(): return`), and one whose way
      out is a check its caller hands in, of what it fetched (`def poll_until(query_fn,
      check_fn)`, `if check_fn(result): return result`: that check may read a state; a helper
      that returns what the function it is handed returns, `return fn()`, or leaves once that
      function says so, `if send(): return True`, retries it).

    The message says how the wait grows (also through a name it was assigned to: `delay = 60 *
    attempt; sleep(delay)`): a constant interval, linearly (`60 * attempt`),
    polynomially (`attempt ** 2`) or exponentially (`2 ** attempt`).

    A policy stored in a variable (`api_retry = tenacity.retry(...)`) is reported once, where it
    is defined. Test code is not checked (the `test-code` setting says which files are: test
    modules, `conftest.py`, whatever lies in a `tests/` directory, and the scripts the project's
    test tooling runs as `python SCRIPT.py` in `tox.ini`, `noxfile.py` or a CI configuration,
    by default): a test's fixture that waits for its own server, or a CI script that polls the
    container its job started, is the only client of what it waits for, so there is no crowd
    for jitter to spread, and a random term would only make the test slower and its timing
    harder to reproduce. A `while not retried:` loop that sets `retried = True` after its `try`
    makes one attempt: its pause is followed by none, and so does a retry set to one attempt
    (`stop_after_attempt(1)`, `max_tries=1`, celery's `max_retries=0`). Polling loops that handle no failure are not retry loops and are not checked
    (a tenacity policy whose only `retry=` is `retry_if_result`/`retry_if_not_result` is such a
    poll: an attempt that raises is not repeated; so is one that retries only `TryAgain` or an
    error that the module raises only on the state it read, never in an `except` handler: `if
    desc["Status"] in ("SUBMITTED", "STARTED"): raise StatementNotFinished`, also as a celery
    task's `autoretry_for` or backoff's `on_exception`, and also when it is handed to celery's
    `self.retry(exc=...)` instead of raised (`if concurrency_limit_reached:
    self.retry(exc=BuildMaxConcurrencyError(...))`: a limit reached is a state the task waits
    to change); an error raised on
    a partial answer, `if unprocessed: raise`, is a retry; so is a celery `self.retry()` outside
    any `except` under a test of a polled state (a bound on the attempts joined to it by `and`,
    `if not success and retries < 8:`, is not one), `if not available:`, `if not_found:`, or of what the task read
    from its own database, `delivery = Delivery.objects.filter(pk=pk).first()` … `if delivery
    is None:`, a row the request that enqueued it has not committed yet, whichever `if`
    around it tests it (`if result.remaining_count > 0:` then `if settings.RETRY_AFTER:`);
    also when the task
    retries only the model's `DoesNotExist`, `autoretry_for=(Post.DoesNotExist,)` or `except
    Post.DoesNotExist: raise self.retry()`), nor are decorators that repeat nothing
    (a tenacity, backoff, retrying or stamina decorator on a generator, sync or `async def`, or a
    project decorator built on one: its call only makes the generator, whose body runs later,
    outside the retry; a
    retry around a function that asks the user for new input on each call; a retry decorator
    written on a function of the file that does only local work, such as a task that only
    sleeps, or a celery task whose `raise self.retry(...)` fakes a failure and that calls
    nothing else; nor a tenacity retry of only an input refused as taken, `DuplicateEntryError`, on a
    function that draws a new random name each attempt, `secrets.token_hex(5)`),
    and neither are loops whose passes do different work: a worker that takes a new job each
    time, a loop over pages whose number goes into the request (not a call in the `try`'s
    `else:` or `finally:`, after the attempt, `LAUNCH_TIME.labels(retries=i)`; but a `while next_url:` loop
    whose failures go round before it moves on asks for the same page again: a retry, and so
    does a long poll whose failures go round before it advances what it asks from,
    `last_event_id`, and a periodic job whose failures choose a pause of their own,
    `refresh_time = 1` in the `except`, the token's lifetime otherwise: that pause is
    judged), a failover over hosts that does
    not wait, a loop that asks for new input after a failure, or a watch loop that leaves when
    a polled state says so (`if job.status == "done": return`, or `if r.status_code == 200:
    break` after `r.raise_for_status()`, which every failed status leaves by; and then also on other tests
    of the object it polls: `if not cluster.failover: return 503`) or a polled value reaches one the
    code holds (`if newsum == checksum: return`, also an item or a `get` of them: `if
    slot1[0] == slot2[0]: return`, `if mapping.get(port) == role: return`; also written as an
    assertion before the exit, `assert received == expected` then `return`), nor loops that wait out local state (a lock
    file: `filelock`, `portalocker`, `zc.lockfile`, `flufl.lock`, `fasteners`; a file copied and logged through the project's own logger wrapper (`log =
    BraceAdapter(logging.getLogger(__name__))`), a config file read and matched with a
    regular expression, a unix socket, a Windows named pipe opened through pywin32 until an
    instance is free, a device
    read through pyudev, a serial port opened again after pyserial's `SerialException`, the port its own aiohttp site binds, a server that binds its own port
    (a socket's `bind` or `listen`, tornado's `HTTPServer.listen`) and is started again after
    an error, a loopback URL probed until the server the function
    started, `uvicorn.Server(...)` or a program run with `subprocess.Popen`, listens) or catch only an answer that refuses the input (an `IntegrityError`,
    a `ValidationError`: the next pass sends another input), nor loops whose only call is a
    function of the file that lets no exception out (one whose `finally` returns, or whose
    handler catches everything and raises nothing, also as the whole body of a `while True:`
    that re-raises only a cancellation, `except asyncio.CancelledError: raise`; a client made
    for it, `async with aiohttp.ClientSession() as session:`, sends nothing): nothing fails
    there to be retried. Hand-written retry loops are
    recognised with statements before the `try` (a log line, a metrics call), a read loop
    inside it, a `continue` after the sleep in the handler, and a success flag in the
    condition (`while count < max_count and not succeeded`).

    ## Why is this bad?
    When a dependency fails, every client sees the failure at about the same moment. If each
    then waits exactly 1 s, or exactly 0.1·2ⁿ s, they all return at the same moment too: the
    burst that tipped the dependency over is rescheduled rather than spread. With 1 000 clients
    and `wait_exponential`, the dependency gets 1 000 requests at t+0.1 s, 1 000 at t+0.3 s and so
    on — each wave the same size as the one that failed. Full jitter, a uniform draw in
    `[0, min(cap, base·2ⁿ)]`, turns each wave into a trickle of about 1 000/window requests per
    second and, in published simulations, roughly halves the total number of calls needed.

    ## Example
    ```python
    from tenacity import retry, stop_after_attempt, wait_exponential

    @retry(stop=stop_after_attempt(3), wait=wait_exponential(multiplier=0.1, max=5))
    def fetch_quote(symbol):
        ...
    ```

    ## Use instead
    ```python
    from tenacity import retry, stop_after_attempt, wait_random_exponential

    @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(multiplier=0.1, max=5))
    def fetch_quote(symbol):
        ...
    ```
    or `resilint.runtime.retry`, which always uses full jitter.

    ## Fix safety
    A safe jitter fix keeps every wait at or above its current value: the random term is added
    on top (and kept under the cap where the code has one). A fix that can shorten any wait is
    unsafe: full jitter halves the mean wait, which breaks a documented minimum wait (HTTP 429)
    and halves the window of a loop bounded by its attempts. Both fix targets (`fix-target`)
    use the same library-native fixes; none of them adds a dependency.

    **safe** (`add-jitter`, in the library's own terms): tenacity `wait_exponential(...)` keeps
    its schedule and gets `+ wait_random(0, m)` (`m` its multiplier, 1 when not given; tenacity
    has no cap over a sum, so the longest wait may exceed `max` by at most `m`), `wait_fixed(x)`
    gets `+ wait_random(0, x)` and `wait_incrementing(..., increment=i)` `+ wait_random(0, i)`;
    a tenacity retry with no wait (it waited nothing) gets
    `wait=wait_random_exponential(multiplier=0.1, max=5)`; backoff's `jitter=None` becomes
    `jitter=backoff.random_jitter` (0–1 s added to each wait; backoff's default, full jitter,
    would shorten them); stamina's `wait_jitter=0` is removed (stamina adds 0–1 s, within
    `wait_max`). Changed: each wait is longer by a random amount within that bound.

    **safe** (`loop-jitter`, both targets, standard library only): the reported sleep of a
    hand-written retry loop gets a draw on top of its delay, `time.sleep(d)` →
    `time.sleep(d + random.uniform(0, d))`, and where the loop caps its delay
    (`min(2 ** n, 30)`, or `delay = min(delay * 2, 60)` in the loop) the sum stays under that
    cap: `min(2 ** n + random.uniform(0, 2 ** n), 30)`; a cap applied on some paths only
    (`if status != 420: wait = min(wait, wait_max)`) bounds the sum by `max(wait, wait_max)`, so
    a wait the loop lets grow past it is never cut. `import random` is added only when the
    file does not import it. Only the sleep the finding points at is edited; a delay computed
    by a call is left alone and listed. Changed: each wait is up to twice as long (never past
    the cap).

    **unsafe** (`loop-full-jitter`, runtime target, by `resilint codemod loop-full-jitter`):
    the reported sleep becomes `time.sleep(resilint.runtime.full_jitter(d))`, a uniform draw
    below `d`: shorter waits on average. `fix` never runs it (also not with `--unsafe-fixes`):
    it applies the safe `loop-jitter`, and a delay computed by a call stays the user's to change.

    **unsafe** (`celery-jitter`): celery's `retry_jitter=False` becomes `True`; celery's jitter
    is full jitter (shorter countdowns). Tasks without `retry_backoff` and
    `self.retry(countdown=...)` are left alone and listed.

    **safe** or **unsafe** (`urllib3-jitter`): `Retry(backoff_factor=f)` gets
    `backoff_jitter=f` (0–f s on top of each sleep), which exists only in urllib3 2.0 and later
    (urllib3 1.x raises `TypeError`): safe where every declaration of urllib3 in the project
    guarantees 2.0 or later, unsafe otherwise, with the reason (an older urllib3 allowed, or no
    urllib3 declared: requests allows 1.x). Computed factors are left alone.

    Left alone and listed: waits built in variables or project functions, `wait_chain` and sums
    of waits, `wait_fixed` of a computed expression, the retrying library.

    **unsafe** (`migrate-to-runtime`, runtime target): a tenacity or backoff decorator whose
    every option has an exact runtime counterpart (`stop_after_attempt(N)`/`max_tries` →
    `attempts`, `multiplier`/`factor` → `base`, `max`/`max_value` → `cap`, the exception types →
    `retry_on`, tenacity's `reraise=True`) becomes `resilint.runtime.retry(...)`, and a
    hand-written `for attempt in range(N)` loop whose body is one `try` ending in `return` or
    `break`, with one handler of specific exceptions that re-raises on the last attempt
    (`if attempt == N - 1: raise`) and sleeps `min(cap, base * 2 ** attempt)` (jittered or not),
    becomes `for attempt in retrying(attempts=N, base=..., cap=..., retry_on=(...)): with attempt:`.
    The runtime adds a retry budget, deadline checks, full jitter and its own classification of
    transient errors. Anything else (other options, a policy in a variable, stamina, a `while`
    loop, a loop that falls through to `raise`/`return` after its last attempt...) is left alone
    and listed. `resilint fix --unsafe-fixes` applies the safe fixes first, which fix a loop's
    finding, so loops are migrated by `resilint codemod migrate-to-runtime`.

    ## Options
    `test-code` (globs with the semantics of `per-file-ignores`; by default `tests/*`,
    `*/tests/*`, `test/*`, `*/test/*`, `testing/*`, `*/testing/*`, `*_tests/*`, `test_*.py`,
    `*_test.py`, `conftest.py`, `tests.py`, `test.py`): the files whose waits this rule leaves alone.
    While it is the default, the scripts the project's test tooling runs count too: the `.py`
    file after `python` (or `{envpython}`, `coverage run`; a path under `{toxinidir}/` or
    GitHub Actions' `${GITHUB_WORKSPACE}/` too) in the `commands` of `tox.ini`
    (`setup.cfg`, `pyproject.toml`'s `legacy_tox_ini`), in `noxfile.py`, and in GitHub Actions,
    GitLab CI, CircleCI and Azure Pipelines files at the project root; not one started in the
    background (`python app.py &`: the server under test); and the project's pytest plugins,
    the modules its packaging registers as `pytest11` entry points (`pyproject.toml`,
    `setup.cfg`, `setup.py`). Setting `test-code` names the test code in full;
    `test-code = []` checks everything.
    """

    code = "RES202"
    fixable = "safe"
    name = "backoff-without-jitter"
    message = "retry backoff without jitter"
    triggers = LIBRARY_TRIGGERS + ("sleep", "deferLater", "countdown")  # a task queued again after a countdown
    VALID = [
        # a worker taking the next item off a list each pass; the pause is its idle wait
        # (chia's timelord)
        """
        import asyncio
        import logging

        class Timelord:
            def __init__(self, server):
                self.server = server
                self._shut_down = False
                self.pending = []

            async def sanitizer(self, pool):
                while not self._shut_down:
                    picked = None
                    if self.pending:
                        picked = self.pending[0]
                        self.pending.remove(picked)
                    if picked is not None:
                        try:
                            proof = await asyncio.get_running_loop().run_in_executor(pool, str, picked)
                            if len(proof) == 0:
                                return
                            await self.server.send_to_all([proof])
                        except Exception as e:
                            logging.error(e)
                    await asyncio.sleep(0.1)
        """,
        # a refresh thread that waits for its interval and stops when it is switched off: the
        # pause is the interval a success waits too (chia's plot manager)
        """
        import logging
        import time

        class PlotManager:
            def __init__(self, root, callback, interval=120):
                self.root, self.callback, self.interval = root, callback, interval
                self.last_refresh = 0.0
                self._refreshing_enabled = True

            def needs_refresh(self):
                return time.time() - self.last_refresh > self.interval

            def refresh_task(self, sleep_ms):
                while self._refreshing_enabled:
                    try:
                        while not self.needs_refresh() and self._refreshing_enabled:
                            time.sleep(sleep_ms / 1000.0)
                        if not self._refreshing_enabled:
                            return
                        self.callback(len(list(self.root.glob("*.plot"))))
                        self.last_refresh = time.time()
                    except Exception:
                        logging.exception("refresh failed")
                        self.last_refresh = time.time()
        """,
        # a lock file of this machine taken again until its holder lets go (dvc's repo lock)
        """
        import time
        import zc.lockfile

        class LockError(Exception):
            pass

        class Lock:
            def __init__(self, lockfile):
                self._lockfile = lockfile

            def _do_lock(self):
                try:
                    self._lock = zc.lockfile.LockFile(self._lockfile)
                except zc.lockfile.LockError:
                    raise LockError("Unable to acquire lock")

            def lock(self, retries=6, delay=0.5):
                attempts = 0
                while True:
                    try:
                        self._do_lock()
                        return
                    except LockError:
                        attempts += 1
                        if attempts > retries:
                            raise
                        time.sleep(delay)
        """,
        # ``asyncio.sleep(0)`` gives the event loop a turn: no pause, and each pass reads the
        # next message (faust's stream iterator)
        """
        import asyncio
        from app.exceptions import Skip
        class Stream:
            async def _py_aiter(self):
                chan_errors = self.channel.queue._errors
                while not self.should_stop:
                    event = None
                    value = None
                    while value is None and event is None:
                        await asyncio.sleep(0)
                        if chan_errors:
                            raise chan_errors.popleft()
                        channel_value = await self.channel.__anext__()
                        if isinstance(channel_value, self.event_cls):
                            event = channel_value
                            value = event.value
                        else:
                            value = channel_value
                        try:
                            value = await self.on_merge(value)
                        except Skip:
                            value = self._skipped_value
                    yield value
        """,
        # the wait a flood-wait error carries is the server's (pyrogram, Telethon); the other
        # handler's `e` is another error
        """
        import asyncio
        from pyro.errors import FloodWait, InternalServerError
        class Session:
            async def invoke(self, query):
                while True:
                    try:
                        return await self.send(query)
                    except FloodWait as e:
                        amount = e.value
                        if amount > 10:
                            raise
                        await asyncio.sleep(amount)
                    except InternalServerError as e:
                        raise RuntimeError(query) from e
        """,
        # a read loop on an open socket that counts its failures to pause longer: its failures
        # choose no pause of their own, it reads on (slack-sdk's socket mode)
        """
        import asyncio

        async def receive_messages(self, session):
            consecutive_error_count = 0
            while not self.closed:
                try:
                    message = await session.receive()
                    await self.enqueue_message(message.data)
                    consecutive_error_count = 0
                except Exception:
                    consecutive_error_count += 1
                    await asyncio.sleep(consecutive_error_count)
        """,
        # a failed status raises out of the loop: it goes round on a pending one only, a poll (cortex-analyzers)
        """
        import time
        import requests

        def wait_for_result(session, base_url, response):
            while response.status_code != 200:
                time.sleep(3)
                response = session.get(base_url + response.json()["result_url"], timeout=10)
                response.raise_for_status()
            return response.json()
        """,
        # it waits while the report is being made (202): a poll, nothing failed
        """
        import time
        import requests

        def wait_for_report(url):
            response = requests.get(url, timeout=10)
            while response.status_code == 202:
                time.sleep(5)
                response = requests.get(url, timeout=10)
            return response
        """,
        # the wait until the moment the server's Backoff header named, kept on the object (pyzotero)
        """
        import time
        import httpx

        class Zotero:
            def __init__(self):
                self.client = httpx.Client(timeout=httpx.Timeout(30, connect=3))
                self.backoff_until = 0.0

            def _set_backoff(self, duration):
                self.backoff_until = time.time() + float(duration)

            def _check_backoff(self):
                remainder = self.backoff_until - time.time()
                if remainder > 0.0:
                    time.sleep(remainder)

            def retrieve(self, url):
                for _ in range(3):
                    self._check_backoff()
                    resp = self.client.get(url)
                    backoff = parse_backoff(resp.headers)
                    if backoff:
                        self._set_backoff(backoff)
                    if resp.status_code != 429:
                        return resp
        """,
        # backoff waits out another bulk operation: the error is raised only on what the answer
        # says, never for a failure (tap-shopify)
        """
        import backoff
        import requests

        class BulkOperationInProgressError(Exception):
            pass

        @backoff.on_exception(backoff.expo, BulkOperationInProgressError, max_tries=7, factor=10, jitter=None)
        def submit_bulk_query(query):
            answer = requests.post("https://shop.example/graphql.json", json={"query": query}, timeout=(2, 20)).json()
            for error in answer["data"]["bulkOperationRunQuery"]["userErrors"]:
                if "already in progress" in error["message"]:
                    raise BulkOperationInProgressError(error["message"])
            return answer["data"]["bulkOperationRunQuery"]["bulkOperation"]["id"]
        """,
        # a watch helper: the caller's check of what was fetched decides when the state is
        # reached (pinecone's tests)
        """
        import time

        def poll_until(query_fn, check_fn, timeout=60, interval=3):
            start = time.time()
            while time.time() - start < timeout:
                try:
                    result = query_fn()
                    if check_fn(result):
                        return result
                except Exception:
                    pass
                time.sleep(interval)
            raise TimeoutError("not satisfied")
        """,
        # it waits until the name it holds is gone from the listing it fetches
        """
        import time

        def wait_for_deletion(client, name, timeout=300):
            start = time.monotonic()
            while time.monotonic() - start < timeout:
                try:
                    if name not in client.list().names():
                        return
                except Exception as exc:
                    print(f"listing failed: {exc}")
                time.sleep(5)
        """,
        # the task runs again for the next batch while users are left: nothing failed (baserow)
        """
        from celery import shared_task
        from django.conf import settings
        from app.notifications import send_batch

        @shared_task(bind=True)
        def send_summaries(self, now=None):
            result = send_batch(now)
            if result.remaining_users_to_notify_count > 0:
                if settings.AUTO_RETRY_AFTER:
                    raise self.retry(args=[now], countdown=settings.AUTO_RETRY_AFTER)
        """,
        # a Windows named pipe to the local engine, opened again while every instance is busy
        # (docker-py's NpipeSocket)
        """
        import time
        import win32file
        import win32pipe
        def connect(address, retry_count=0):
            try:
                return win32file.CreateFile(address, win32file.GENERIC_READ, 0, None, win32file.OPEN_EXISTING, 0, 0)
            except win32pipe.error as e:
                if e.winerror == 0xE7:
                    retry_count += 1
                    if retry_count < 10:
                        time.sleep(1)
                        return connect(address, retry_count)
                raise e
        """,
        # a unix socket's connect waited out until the local agent listens; the helper only reads
        # and sets the socket's buffer size (datadogpy)
        """
        import socket
        import time

        def ensure_buffer(sock, size=32768):
            if sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) <= size:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)

        def connect(path):
            for _ in range(10):
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                try:
                    ensure_buffer(sock)
                    sock.connect(path)
                    return sock
                except OSError:
                    sock.close()
                    time.sleep(0.1)
        """,
        # the wait is the server's reset, bounded: capping it does not make it the code's own
        # (Mastodon.py's rate-limit wait)
        """
        import time
        import requests
        def fetch(session, url, pace):
            to_next = pace / 2
            time.sleep(to_next)
            while True:
                response = session.get(url, timeout=10)
                if response.status_code != 429:
                    return response
                reset = int(response.headers["X-RateLimit-Reset"])
                to_next = reset - time.time()
                if to_next > 0:
                    to_next = min(to_next, 5 * 60)
                    time.sleep(to_next)
        """,
        # a wait for a lock another session holds: the loop catches only the error its module
        # raises when the state it read says so (napalm's EOS driver)
        """
        import time
        class SessionLockedException(Exception):
            pass
        class Driver:
            def _lock(self):
                sessions = self.device.run_commands(["show configuration sessions"])[0]["sessions"]
                if [name for name, s in sessions.items() if s["state"] == "pending"]:
                    raise SessionLockedException("Session is already in use")
            def obtain_lock(self, wait_time):
                start = time.time()
                while time.time() - start < wait_time:
                    try:
                        return self._lock()
                    except SessionLockedException:
                        time.sleep(1)
        """,
        # aiohttp-retry options with a random term
        """
        from aiohttp_retry import JitterRetry, RetryClient
        CLIENT = RetryClient(retry_options=JitterRetry(attempts=4, methods={"GET"}))
        """,
        # urllib3 jitter given in an unpacked dict
        """
        import urllib3
        def make_retry(limit):
            retry_args = {"total": limit, "backoff_factor": 0.25, "backoff_jitter": 0.5}
            return urllib3.Retry(**retry_args)
        """,
        # a dict written into later may add the jitter: unknown
        """
        import urllib3
        def make_retry(limit, extra):
            retry_args = {"total": limit, "backoff_factor": 0.25}
            retry_args.update(extra)
            return urllib3.Retry(**retry_args)
        """,
        # the server's rate-limit reset, kept on the object and capped: the server's wait
        """
        import time, requests
        class Client:
            def __init__(self, session):
                self.session = session
                self.ratelimit_reset = time.time()
            def request(self, url):
                while True:
                    r = self.session.get(url, timeout=(3, 10))
                    if "X-RateLimit-Reset" in r.headers:
                        self.ratelimit_reset = int(r.headers["X-RateLimit-Reset"])
                    if r.status_code == 429:
                        to_next = self.ratelimit_reset - time.time()
                        if to_next > 0:
                            to_next = min(to_next, 5 * 60)
                            time.sleep(to_next)
                            continue
                    r.raise_for_status()
                    return r.json()
        """,
        # a demo task that fakes a failure and calls nothing: no call out is retried
        """
        from celery import Celery
        app = Celery("example")
        @app.task(bind=True, max_retries=3)
        def send_notification(self, user_id, message):
            if self.request.retries < 2:
                raise self.retry(exc=ConnectionError("unavailable"), countdown=120)
            return None
        """,
        # its own tornado server started again while the port is still taken
        """
        import time
        from tornado.httpserver import HTTPServer
        from tornado.ioloop import IOLoop
        def run(application, port, tries=5):
            server = HTTPServer(application)
            while tries:
                try:
                    server.listen(port)
                    IOLoop.current().start()
                    return
                except OSError:
                    tries -= 1
                    time.sleep(1)
        """,
        # one attempt: no second one to spread out
        """
        import requests
        from celery import shared_task
        @shared_task(autoretry_for=(requests.RequestException,), max_retries=0)
        def start_cleanup():
            requests.get(CLEANUP_URL, timeout=5).raise_for_status()
        @shared_task(bind=True, max_retries=0)
        def notify(self):
            try:
                requests.post(HOOK_URL, timeout=5)
            except requests.RequestException as exc:
                raise self.retry(exc=exc, countdown=5)
        """,
        # a status check of the backend the function started, at a URL a method builds
        """
        import subprocess, time
        import requests
        class BackendRunner:
            def __init__(self, port):
                self.port = port
                self.session = requests.Session()
            def url(self, path):
                return f"http://127.0.0.1:{self.port}/api/1{path}"
            def start(self):
                self.process = subprocess.Popen(["python", "launch_backend.py", str(self.port)])
                while True:
                    try:
                        if self.session.get(self.url("/ping"), timeout=2).status_code == 200:
                            return
                    except requests.RequestException:
                        time.sleep(0.05)
        """,
        # each attempt draws a new random name: a name already taken is no failure to outlast
        """
        import secrets
        from tenacity import retry, retry_if_exception_type, stop_after_attempt
        from myapp.exceptions import DuplicateEntryError
        def insert_row(db, name, user):
            if db.exists(name):
                raise DuplicateEntryError(name)
            db.insert(name, user)
        @retry(stop=stop_after_attempt(3), retry=retry_if_exception_type(DuplicateEntryError), reraise=True)
        def make_access_log(db, user):
            name = secrets.token_hex(5)
            insert_row(db, name, user)
        """,
        # a poll of a job's state, read deep in the answer ("success" is where the refresh is)
        """
        import time
        def check_result(client, check_id, interval):
            for _ in range(10):
                time.sleep(interval)
                response = client.describe_trusted_advisor_check_refresh_statuses(checkIds=[check_id])
                if response["statuses"][0]["status"] == "success":
                    break
        """,
        # the flag set after the failed attempt ends the loop: the pause is followed by no
        # second attempt (redash's `_wait_for_db_connection`)
        """
        import time
        from sqlalchemy.exc import DatabaseError

        def wait_for_db(db):
            retried = False
            while not retried:
                try:
                    db.engine.execute("SELECT 1;")
                    return
                except DatabaseError:
                    time.sleep(30)
                retried = True
        """,
        # a file read until it ends and opened again: no connection, local work
        """
        import time
        def follow(path, handle):
            while True:
                try:
                    with open(path) as f:
                        for line in f:
                            handle(line)
                except OSError:
                    time.sleep(1)
        """,
        # the same wait, on the model's DoesNotExist: as `autoretry_for` and in an `except`
        """
        from celery import shared_task
        from forum.models import Post
        @shared_task(autoretry_for=(Post.DoesNotExist,), default_retry_delay=10)
        def upgrade_post_content(post_id):
            Post.objects.get(id=post_id).save()
        @shared_task(bind=True, default_retry_delay=10)
        def notify_post(self, post_id):
            try:
                post = Post.objects.get(id=post_id)
            except Post.DoesNotExist:
                raise self.retry()
            post.notify()
        """,
        # the loop waits for the progress the server reports to reach 100: a poll
        """
        import json, time, requests
        def check_file(url, polling):
            percentage = 0
            while percentage != 100:
                time.sleep(polling)
                r = requests.get(url, timeout=(3, 10))
                if r.status_code == 200:
                    percentage = json.loads(r.text).get("progress_percentage", -1)
            return r.json()
        """,
        # a success status, then the state it waits for: a poll
        """
        import time, requests
        def activate(session, url, version, versions_of):
            for _ in range(5):
                response = session.patch(url, json={"active": True}, timeout=(3, 10))
                if response.status_code == 204:
                    versions = versions_of()
                    if version in versions:
                        break
                time.sleep(30)
        """,
        # every failed status raises first: only "202 in progress" goes round, a poll
        """
        import time, requests
        def poll(session, url, tries):
            for _ in range(tries):
                response = session.get(url, timeout=(3, 10))
                response.raise_for_status()
                if response.status_code == 200:
                    return response.json()
                time.sleep(5)
        """,
        # a job's result read until it is one of its final states, success among them: a poll
        """
        import time, requests
        def job_result(push_id):
            try:
                return requests.get("https://ci.example/jobs", params={"push": push_id}, timeout=(3, 10)).json()["result"]
            except Exception:
                return None
        def wait_for(push_id, interval):
            while True:
                result = job_result(push_id)
                if result == "success":
                    return True
                if result in ("busted", "testfailed"):
                    return False
                time.sleep(interval)
        """,
        # the only error celery retries is raised while the polled job is still running
        """
        from celery import shared_task
        from jobs.models import Item

        class StillRunning(Exception):
            pass

        @shared_task(bind=True, autoretry_for=(StillRunning,), retry_backoff=5, max_retries=480, retry_jitter=False)
        def poll(self, item_id):
            status = Item.objects.get(pk=item_id).refresh_status()
            if status == "in_progress":
                raise StillRunning(item_id)
            return status
        """,
        # the error is only ever handed to `self.retry()` when the API says the concurrency
        # limit is reached: the task waits for a build slot (readthedocs' build task)
        """
        import logging
        from celery import Task
        from django.conf import settings

        class BuildMaxConcurrencyError(Exception):
            pass

        class UpdateDocsTask(Task):
            autoretry_for = (BuildMaxConcurrencyError,)
            default_retry_delay = settings.RTD_BUILDS_RETRY_DELAY
            retry_backoff = False

            def _check_concurrency_limit(self):
                try:
                    response = self.api_client.build.concurrent.get(project__slug=self.slug)
                    concurrency_limit_reached = response.get("limit_reached", False)
                except Exception:
                    logging.exception("concurrency check failed")
                    concurrency_limit_reached = False
                if concurrency_limit_reached:
                    self.retry(exc=BuildMaxConcurrencyError("limit reached"))

            def before_start(self, task_id, args, kwargs):
                self.slug = args[0]
                self._check_concurrency_limit()
        """,
        # a celery task that waits for the row its enqueuing request commits: a poll
        """
        from celery import shared_task
        from shop.models import Delivery
        @shared_task(bind=True, max_retries=5)
        def deliver(self, delivery_id):
            delivery = Delivery.objects.filter(pk=delivery_id).first()
            if delivery is None:
                raise self.retry(countdown=1)
            delivery.process()
        """,
        """
        from celery import shared_task
        from shop.deliveries import get_delivery
        @shared_task(bind=True, max_retries=5)
        def deliver(self, delivery_id):
            delivery, not_found = get_delivery(delivery_id)
            if not delivery:
                if not_found:
                    raise self.retry(countdown=1)
                return
            delivery.process()
        """,
        # a success joined with the state it waits for: a poll, not a retry
        """
        import time, requests
        def wait_done(url):
            while True:
                r = requests.get(url, timeout=(3.05, 10))
                if r.status_code == 200 and r.json()["state"] == "done":
                    return r.json()
                time.sleep(5)
        """,
        # the helper that pauses adds a random term to the next delay
        """
        import random, time
        class Backend:
            def serve_forever(self):
                while True:
                    try:
                        self.serve_once()
                    except ConnectionError:
                        self._delay_reconnect()
            def _delay_reconnect(self):
                time.sleep(self.delay)
                self.delay = min(self.delay * 2, 300) + random.uniform(0, 3)
        """,
        # trying the next executable: the helper's sleep polls its own process
        """
        import sarge, time
        def _execute(command):
            process = sarge.run(command, async_=True)
            while not process.commands:
                time.sleep(0.01)
            return process.returncode
        def git(args, executables=("git", "git.exe")):
            for executable in executables:
                try:
                    return _execute([executable, *args])
                except OSError:
                    continue
        """,
        # only the server's Retry-After is waited (none sent: `0`, and the helper gives up)
        """
        import time, requests
        class Session(requests.Session):
            def request(self, method, url, *args, **kwargs):
                try:
                    return super().request(method, url, *args, **kwargs)
                except requests.HTTPError as error:
                    if error.response.status_code == 429:
                        self._wait(error.response)
                        return self.request(method, url, *args, **kwargs)
                    raise
            def _wait(self, response):
                remaining = int(response.headers.get("Retry-After", 0))
                if remaining <= 0:
                    raise RuntimeError("rate limited without Retry-After")
                time.sleep(remaining)
        """,
        # the retry sits in a handler an earlier `except Exception` shadows: it never runs
        """
        import requests, time
        from celery import shared_task
        from django.db import OperationalError
        @shared_task(bind=True)
        def publish(self, url):
            try:
                requests.post(url, timeout=5)
            except Exception:
                raise
            except OperationalError as exc:
                raise self.retry(exc=exc)
        def fetch(url):
            for attempt in range(3):
                try:
                    return requests.get(url, timeout=5)
                except BaseException:
                    raise
                except requests.ConnectionError:
                    time.sleep(2)
        """,
        # a poll: the module raises its own error only while the job it reads is still running
        """
        from tenacity import retry, retry_if_exception_type, stop_after_delay, wait_fixed
        class StatementNotFinished(Exception):
            pass
        @retry(wait=wait_fixed(5), stop=stop_after_delay(600), retry=retry_if_exception_type(StatementNotFinished))
        def wait_for_execution(client, execution_id):
            state = client.get_query_execution(QueryExecutionId=execution_id)["Status"]["State"]
            if state in ("QUEUED", "RUNNING"):
                raise StatementNotFinished
        """,
        # a click retried on an element passed in, in a module that drives a browser here
        """
        import time
        from selenium.webdriver.common.keys import Keys
        def fill_input(field, text):
            for attempt in range(3):
                try:
                    field.click()
                    break
                except Exception as error:
                    time.sleep(0.2)
                    if attempt == 2:
                        raise error
            field.send_keys(text + Keys.ENTER)
        """,
        # retrying only the code's own assertion on what it read: a poll
        """
        import retrying, requests
        def only_assertions(exc):
            return isinstance(exc, AssertionError)
        @retrying.retry(retry_on_exception=only_assertions, wait_fixed=500, stop_max_delay=60000)
        def wait_for_state(url, states):
            state = requests.get(url, timeout=TIMEOUT).json()["status"]
            assert state in states
            return state
        """,
        # binding this program's own port until it is free: no other service is retried
        """
        import asyncio
        from aiohttp import web
        async def serve(runner, port):
            for _ in range(100):
                try:
                    site = web.TCPSite(runner, port=port)
                    await site.start()
                    return site
                except OSError:
                    await asyncio.sleep(0.1)
        """,
        # every failure goes straight round: the pause after the ``try`` follows a success only
        """
        import time, requests
        def drain(url, batches):
            while True:
                try:
                    sent = requests.post(url, json=next(batches), timeout=3)
                except requests.ConnectionError:
                    continue
                if sent.status_code == 204:
                    break
                time.sleep(0.01)
        """,
        # the pause helper draws a random wait below what it is given
        """
        import random, time, requests
        def pause(seconds):
            time.sleep(random.uniform(0, seconds))
        def f():
            for attempt in range(5):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    pause(2 ** attempt)
        """,
        # waiting for this process's own children at exit: nothing goes over the network
        """
        import errno, os, time
        def kill_workers(children):
            start_time = time.time()
            for child_pid in children[:]:
                while time.time() < start_time + 3:
                    try:
                        os.waitpid(child_pid, os.WNOHANG)
                        children.remove(child_pid)
                    except OSError as e:
                        if e.errno == errno.EINTR:
                            time.sleep(0.1)
                    else:
                        break
        """,
        # a poll that leaves on either state of the object it reads (the leader changed, the
        # failover key gone), and reads again after a failed read
        """
        import logging, time
        log = logging.getLogger(__name__)
        def poll_failover_result(dcs, leader, timeout):
            for _ in range(timeout * 2):
                time.sleep(1)
                try:
                    cluster = dcs.get_cluster()
                    if not cluster.is_unlocked() and cluster.leader.name != leader:
                        return 200
                    if not cluster.failover:
                        return 503
                except Exception as e:
                    log.debug("polling failed: %s", e)
            return 503
        """,
        # the pause runs after a successful watch, which then returns: no wait between attempts
        """
        import time, urllib3
        pool = urllib3.PoolManager(timeout=urllib3.Timeout(connect=1, read=5), retries=0)
        class EtcdError(Exception):
            pass
        def watch(url, timeout):
            end = time.time() + timeout
            while timeout >= 1:
                try:
                    result = pool.request("GET", url, timeout=timeout + 0.5)
                    if result.status == 200 and b"compareAndSwap" in result.data:
                        time.sleep(0.01)
                    return True
                except EtcdError:
                    pass
                timeout = end - time.time()
            return False
        """,
        # the pause runs under an ``if`` the ``try`` returns right after: no wait between attempts
        """
        import time
        class EtcdError(Exception):
            pass
        def watch(client, path, timeout):
            end = time.time() + timeout
            while timeout >= 1:
                try:
                    result = client.watch(path, timeout=timeout + 0.5)
                    if result.action == "compareAndSwap":
                        time.sleep(0.01)
                    return True
                except EtcdError:
                    pass
                timeout = end - time.time()
            return False
        """,
        # a watch loop that waits until two nodes report the same position: a poll
        """
        import time
        def slots_in_sync(cluster, query, limit):
            deadline = time.time() + limit
            while time.time() < deadline:
                try:
                    first = cluster.query("node1", query).fetchone()
                    second = cluster.query("node2", query).fetchone()
                    if first[0] == second[0]:
                        return
                except Exception:
                    pass
                time.sleep(1)
            raise AssertionError("not in sync")
        """,
        # a retry of a local file copy that logs through the project's own ``LoggerAdapter``
        """
        import logging, os, shutil, time
        from app.logs import BraceAdapter
        log = BraceAdapter(logging.getLogger(__name__))
        def backup(old_file, new_file):
            tries = 0
            while not os.path.isfile(new_file):
                try:
                    log.debug("copying {old}", {"old": old_file})
                    shutil.copy(old_file, new_file)
                    break
                except OSError as error:
                    log.warning("copy failed: {error!r}", {"error": error})
                    tries += 1
                    time.sleep(1)
                if tries >= 10:
                    return False
            return True
        """,
        # a retry of local file work: reading a config file and matching it with a regex
        """
        import os, re, shutil, time
        VERSION = re.compile(r"version: (\\d+)")
        def check_version(path, n=0):
            try:
                if not os.path.exists(path):
                    shutil.copy("default.cfg", path)
                with open(path, encoding="utf-8") as fp:
                    found = VERSION.search(fp.read())
                if found is None:
                    shutil.copy("default.cfg", path)
            except Exception:
                if n < 3:
                    time.sleep(1)
                    check_version(path, n + 1)
                else:
                    raise
        """,
        # the loop's call lets no exception out (its ``finally`` returns): nothing is retried
        """
        import time, requests
        class Hosters:
            def _grab(self):
                self.hosters = []
                try:
                    self.hosters = requests.get("https://api.example/hosts", timeout=TIMEOUT).json()
                except Exception as exc:
                    print("cannot load hosters", exc)
                finally:
                    return self.hosters
            def get(self):
                for _ in range(5):
                    try:
                        return set(self._grab())
                    except Exception:
                        time.sleep(60)
                return set()
        """,
        # tenacity polling a state: a failed attempt is not retried
        """
        from tenacity import retry, retry_if_result, stop_after_attempt, wait_fixed
        @retry(retry=retry_if_result(lambda status: status != "Available"), wait=wait_fixed(60), stop=stop_after_attempt(10))
        def wait_for_image(image):
            return image.sync()
        """,
        # tenacity takes an async generator for a plain function: it never retries it
        """
        from tenacity import retry, stop_after_attempt, wait_exponential
        @retry(wait=wait_exponential(min=4, max=10), stop=stop_after_attempt(3))
        async def stream_chat(client, messages):
            async for chunk in await client.chat.completions.create(model="m", messages=messages, stream=True):
                yield chunk
        """,
        # each attempt asks the user again: another request, not the same one repeated
        """
        import click, requests
        from tenacity import retry, stop_after_attempt
        @retry(stop=stop_after_attempt(3))
        def login():
            username = click.prompt("Username")
            return requests.post("https://x/login", data={"usr": username}, timeout=TIMEOUT)
        """,
        # jittered tenacity waits
        """
        from tenacity import retry, stop_after_attempt, wait_random_exponential
        @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=5))
        def f(): ...
        """,
        """
        import tenacity
        @tenacity.retry(stop=tenacity.stop_after_attempt(3),
                        wait=tenacity.wait_exponential(max=5) + tenacity.wait_random(0, 1))
        def f(): ...
        """,
        # the wait is passed in **kwargs: unknown
        """
        import tenacity
        def make(**kw):
            return tenacity.retry(stop=tenacity.stop_after_attempt(3), **kw)
        """,
        # backoff jitters by default
        """
        import backoff, requests
        @backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=4)
        def f(): ...
        """,
        # sleep with a random term
        """
        import random, time, requests
        def f():
            for attempt in range(3):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(random.uniform(0, 0.1 * 2 ** attempt))
        """,
        # the delay comes from the server (Retry-After): unknown
        """
        import time, requests
        def f():
            for attempt in range(3):
                r = requests.get("https://a.example", timeout=3)
                if r.status_code != 429:
                    return r
                time.sleep(int(r.headers["Retry-After"]))
        """,
        # a polling loop that handles no failure
        """
        import time, requests
        def wait_for_job(url):
            while True:
                job = requests.get(url, timeout=3).json()
                if job["state"] == "done":
                    return job
                time.sleep(5)
        """,
        # relaunching a local child process; the helper only works on text
        """
        import subprocess, sys, time
        def without_reloader(argv):
            return argv[:-1] if argv[-1].startswith("--reloader=") else argv
        def launch(retry=0):
            try:
                return subprocess.Popen(without_reloader(sys.argv))
            except OSError:
                time.sleep((retry + 1) * 0.5)
                return launch(retry + 1)
        """,
        # waiting for udev (local sysfs) to initialise a device: no service, no crowd of clients
        """
        import asyncio
        import pyudev
        async def wait_for_device(context, sys_path):
            device = None
            for _ in range(3):
                await asyncio.sleep(2)
                try:
                    device = pyudev.Devices.from_sys_path(context, sys_path)
                except pyudev.DeviceNotFoundAtPathError:
                    continue
                if device.is_initialized:
                    break
            return device
        """,
        # a failover loop with no sleep is not a retry loop; no sleep is not RES202 anyway
        """
        import requests
        def f(hosts):
            for host in hosts:
                try:
                    return requests.get(host, timeout=3)
                except requests.ConnectionError:
                    continue
        """,
        # urllib3 Retry with backoff_jitter
        """
        from urllib3.util import Retry
        r = Retry(total=3, backoff_factor=0.5, backoff_jitter=0.5)
        """,
        # celery with retry_backoff (jittered by default)
        """
        from celery import shared_task
        @shared_task(autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
        def f(): ...
        """,
        # a jitter helper of this module
        """
        import random, time, requests
        def _jittered(n):
            return random.random() * min(5, 0.1 * 2 ** n)
        def f():
            for n in range(3):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.Timeout:
                    time.sleep(_jittered(n))
        """,
        # stamina jitters by default
        """
        import stamina, httpx
        @stamina.retry(on=httpx.HTTPError, attempts=3)
        def f(): ...
        """,
        QUEUE_WORKER,
        PAGINATION,
        ASK_AGAIN,
        WATCH_JOB,
        WATCH_VALUE,
        LOCAL_BROWSER_START,
        PAGE_ASSERTION_POLL,
        # jittered on every path to the sleep
        """
        import random, time, requests
        def f():
            for n in range(5):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    delay = 2 ** n
                    if n < 3:
                        delay = random.uniform(0, delay)
                    else:
                        delay = random.uniform(0, 30)
                    time.sleep(delay)
        """,
    ]
    INVALID = [
        # a redirect followed at once beside a failure waited out: the wait is a retry's (redis-py's cluster)
        Invalid(
            """
            import time

            class MovedError(Exception):
                host = ""

            class TryAgainError(Exception):
                pass

            def execute(send, host, args, ttl=16):
                while ttl > 0:
                    ttl -= 1
                    try:
                        return send(host, args)
                    except MovedError as e:
                        host = e.host
                    except TryAgainError:
                        time.sleep(0.05)
                raise RuntimeError("TTL exhausted")
            """,
            line=17,
        ),
        # the delay popped from the caller's keywords is theirs, constant as a keyword parameter (redis-py)
        Invalid(
            """
            import time

            class WatchError(Exception):
                pass

            def transaction(pipe, func, **kwargs):
                watch_delay = kwargs.pop("watch_delay", None)
                while True:
                    try:
                        func(pipe)
                        return pipe.execute()
                    except WatchError:
                        if watch_delay is not None and watch_delay > 0:
                            time.sleep(watch_delay)
                        continue
            """,
            line=14,
        ),
        Invalid(
            # the cursor is copied to a local at the top of each pass: a failure asks with the
            # same one again (mautrix's /sync long poll)
            """
            import asyncio
            import logging
            async def sync_forever(client, store):
                fail_sleep = 5
                next_batch = await store.get_next_batch()
                while True:
                    current_batch = next_batch
                    try:
                        data = await client.sync(since=current_batch, timeout=30000)
                    except asyncio.CancelledError:
                        raise
                    except Exception as e:
                        logging.warning("sync failed: %s", e)
                        await asyncio.sleep(fail_sleep)
                        if fail_sleep < 320:
                            fail_sleep *= 2
                        continue
                    fail_sleep = 5
                    next_batch = data.get("next_batch")
                    await store.put_next_batch(next_batch)
            """,
            line=14,
            message="grows exponentially but has no random term",
        ),
        Invalid(
            # it consumes Celery's event stream until it ends and connects again after each
            # failure (flower's event capture thread)
            """
            import logging
            import time
            from celery.events import EventReceiver
            def capture_events(app, on_event):
                try_interval = 1
                while True:
                    try:
                        try_interval *= 2
                        with app.connection() as conn:
                            recv = EventReceiver(conn, handlers={"*": on_event}, app=app)
                            try_interval = 1
                            recv.capture(limit=None, timeout=None, wakeup=True)
                    except Exception as e:
                        logging.error("failed to capture events: %s", e)
                        time.sleep(try_interval)
            """,
            line=15,
            message="grows exponentially but has no random term",
        ),
        Invalid(
            # the offset moves on only in the ``try``'s ``else:``: a failure asks for the same
            # updates again (buildbot's Telegram long poll)
            """
            import time
            import requests
            def do_polling(retry_delay, handle):
                offset = 0
                while True:
                    try:
                        updates = requests.get("https://api.telegram.org/bot/getUpdates", params={"offset": offset}, timeout=(3, 30)).json()
                    except Exception as err:
                        print(err)
                        time.sleep(retry_delay)
                    else:
                        if updates:
                            offset = max(u["update_id"] for u in updates) + 1
                            for update in updates:
                                handle(update)
            """,
            line=10,
            message="`time.sleep(retry_delay)` waits a constant interval",
        ),
        Invalid(
            # the give-up arm reports the error under the name the ``try`` uses for its result:
            # that is no answer the next pass sends on (pgAdmin's report pipeline)
            """
            import time
            from app.client import LLMClientError
            def analyze(client, section, prompt, max_retries=3, base_delay=5.0):
                for attempt in range(max_retries):
                    try:
                        response = client.chat(messages=[prompt])
                        result = {"section": section, "summary": response.content}
                        yield result
                        return
                    except LLMClientError as e:
                        if e.retryable and attempt < max_retries - 1:
                            time.sleep(int(base_delay * (2 ** attempt)))
                        else:
                            result = {"section": section, "error": str(e)}
                            yield result
                            return
            """,
            line=12,
            message="grows exponentially but has no random term",
        ),
        Invalid(
            # the attempt's number recorded after a success (``else:``) is no work of its own
            # (binderhub's launch loop)
            """
            import asyncio
            from prometheus_client import Histogram
            LAUNCH_TIME = Histogram("launch_time_seconds", "launch time", ["status", "retries"])
            async def launch(launcher, image):
                retry_delay = 4
                for i in range(launcher.retries):
                    try:
                        server_info = await launcher.launch(image=image)
                    except OSError:
                        if i + 1 == launcher.retries:
                            raise
                        await asyncio.sleep(retry_delay)
                        retry_delay *= 2
                        continue
                    else:
                        LAUNCH_TIME.labels(status="success", retries=i).observe(1.0)
                        break
                return server_info
            """,
            line=12,
        ),
        Invalid(
            # counting down the attempts left (ckan's start-up wait for its database)
            """
            from time import sleep
            import psycopg2
            RETRIES = 10
            def connect(dsn):
                for left in reversed(range(RETRIES)):
                    try:
                        return psycopg2.connect(dsn, connect_timeout=5)
                    except psycopg2.OperationalError:
                        if not left:
                            raise
                        sleep(RETRIES - left)
            """,
            line=11,
            message="grows linearly",
        ),
        Invalid(
            # a websocket read in methods of the class, connected again after each drop (opsdroid)
            """
            import asyncio
            import aiohttp
            class Chat:
                def __init__(self, url):
                    self.url = url
                    self.live = True
                    self.reconnections = 0
                async def connect(self):
                    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(sock_connect=5, sock_read=60)) as session:
                        async with session.ws_connect(self.url) as ws:
                            self.ws = ws
                            await self.read_messages()
                async def read_messages(self):
                    async for message in self.ws:
                        if message.type == aiohttp.WSMsgType.CLOSED:
                            raise ConnectionError("dropped")
                async def listen(self):
                    while self.live:
                        try:
                            await self.connect()
                        except ConnectionError:
                            await asyncio.sleep(2 ** self.reconnections)
                            self.reconnections += 1
            """,
            line=22,
            message="grows exponentially",
        ),
        Invalid(
            # a rate limit retried while a count allows, the count tested in the branch (apprise)
            """
            import time
            import requests
            def send(url, payload, retry=3):
                while True:
                    r = requests.post(url, json=payload, timeout=10)
                    if r.status_code == 429 and retry:
                        retry -= 1
                        if retry > 0:
                            time.sleep(5)
                            continue
                    return r.ok
            """,
            line=9,
        ),
        Invalid(
            # the handler goes round before the rate limit is read: each path has its own pause
            """
            import time, requests
            def fetch(url):
                while True:
                    try:
                        response = requests.get(url, timeout=10)
                    except requests.ConnectionError:
                        time.sleep(2)
                        continue
                    if response.status_code == 429:
                        time.sleep(2)
                        continue
                    return response
            """,
            count=2,
        ),
        Invalid(
            # it asks again while the answer is a 503, a second apart each time
            """
            import time
            import requests

            def fetch(url, attempts=5):
                response = requests.get(url, timeout=10)
                tries = 1
                while response.status_code == 503 and tries < attempts:
                    time.sleep(1)
                    response = requests.get(url, timeout=10)
                    tries += 1
                return response
            """,
            line=8,
            message="waits a constant interval",
        ),
        Invalid(
            # the delay a method returns grows with the attempt it is handed: exponentially (notion-sdk's shape)
            """
            import math
            import time
            import httpx

            class Client:
                def __init__(self):
                    self.client = httpx.Client()

                def _delay(self, attempt):
                    base_delay = 1000 * math.pow(2, attempt)
                    return min(base_delay * 1.0 + base_delay / 2, 60000) / 1000.0

                def request(self, method, path):
                    attempt = 0
                    while True:
                        try:
                            return self.client.send(self.client.build_request(method, path))
                        except httpx.HTTPStatusError:
                            if attempt >= 2:
                                raise
                            time.sleep(self._delay(attempt))
                            attempt += 1
            """,
            line=21,
            message="grows exponentially",
        ),
        Invalid(
            # a token refresher that never leaves: a failed refresh is sent again after the
            # constant second its handler chooses (weaviate)
            """
            import time
            import httpx

            def periodic_refresh(client, stop, token_url):
                refresh_time = 60
                while not stop.is_set():
                    time.sleep(max(refresh_time, 1))
                    try:
                        r = client.post(token_url, data={"grant_type": "refresh_token"}, timeout=10)
                        r.raise_for_status()
                        refresh_time = r.json()["expires_in"] - 30
                    except httpx.HTTPError:
                        refresh_time = 1
            """,
            line=7,
            message="waits a constant interval",
        ),
        Invalid(
            # a retry by recursion whose requests are made in a comprehension of the ``try`` (weaviate)
            """
            import time
            import requests

            class Batch:
                def is_ready(self, shards, attempt=0):
                    try:
                        states = [requests.get(f"https://db.example.com/shards/{s}", timeout=5).json() for s in shards]
                        return all(states)
                    except requests.RequestException:
                        if attempt >= 5:
                            raise
                        time.sleep(2 ** attempt)
                        return self.is_ready(shards, attempt + 1)
            """,
            line=12,
            message="grows exponentially",
        ),
        Invalid(
            # a long poll that never leaves: a failed request goes round and asks for the same
            # events again, after the same pause for every client (zulip's event loop)
            """
            import time
            import requests

            def follow_events(url, handle):
                last_event_id = -1
                while True:
                    try:
                        res = requests.get(url, params={"last_event_id": last_event_id}, timeout=90).json()
                    except requests.ConnectionError:
                        time.sleep(1)
                        continue
                    for event in res["events"]:
                        last_event_id = max(last_event_id, event["id"])
                        handle(event)
            """,
            line=10,
        ),
        Invalid(
            # the body is an S3 stream, or an empty local buffer for an empty range: reading it
            # is not only local work (smart_open's _SeekableRawReader)
            """
            import io
            import time
            import botocore.exceptions
            class Reader:
                def __init__(self, client, bucket, key):
                    self._client, self._bucket, self._key = client, bucket, key
                    self._body = None
                def _open_body(self, empty):
                    if empty:
                        self._body = io.BytesIO()
                    else:
                        self._body = self._client.get_object(Bucket=self._bucket, Key=self._key)["Body"]
                def read(self, empty=False):
                    for seconds in (1, 2, 4, 8):
                        self._open_body(empty)
                        body = self._body
                        try:
                            return body.read()
                        except botocore.exceptions.BotoCoreError:
                            time.sleep(seconds)
            """,
            line=20,
            message="grows exponentially",
        ),
        Invalid(
            # a failed read of the stream is read again, after an exponential pause; the
            # progress callback after a read is no next job (s3fs's _get_file)
            """
            import asyncio
            from botocore.exceptions import HTTPClientError
            async def download(s3, bucket, key, out, callback):
                body = (await s3.get_object(Bucket=bucket, Key=key))["Body"]
                failed_reads = 0
                while True:
                    try:
                        chunk = await body.read(2**16)
                    except HTTPClientError:
                        failed_reads += 1
                        if failed_reads >= 5:
                            raise
                        await asyncio.sleep(min(1.7**failed_reads * 0.1, 15))
                        body = (await s3.get_object(Bucket=bucket, Key=key))["Body"]
                        continue
                    if not chunk:
                        break
                    callback.relative_update(out.write(chunk))
            """,
            line=13,
            message="grows exponentially",
        ),
        Invalid(
            # the waits a parameter's default schedule gives (smart_open's retry_read)
            """
            import time
            import botocore.exceptions
            def read(client, bucket, key):
                def retry_read(attempts=(1, 2, 4, 8, 16)):
                    for seconds in attempts:
                        try:
                            return client.get_object(Bucket=bucket, Key=key)["Body"].read()
                        except botocore.exceptions.BotoCoreError:
                            time.sleep(seconds)
                    raise OSError("failed to read")
                return retry_read()
            """,
            line=9,
            message="grows exponentially",
        ),
        Invalid(
            """
            import time
            import requests
            def fetch(url):
                for pause in [5, 10, 15]:
                    try:
                        return requests.get(url, timeout=10)
                    except requests.ConnectionError:
                        time.sleep(pause)
            """,
            line=8,
            message="`time.sleep(pause)` grows linearly",
        ),
        Invalid(
            # the wait an awaited helper of the class computes, capped twice (matrix-nio)
            """
            import asyncio
            from aiohttp import ClientConnectionError
            class AsyncClient:
                async def wait_time(self, n):
                    return min(self.factor * (2 ** (min(n, 1000) - 1)), 60)
                async def send(self, session, url):
                    n = 0
                    while True:
                        try:
                            return await session.get(url, timeout=self.timeout)
                        except ClientConnectionError:
                            n += 1
                            if n > 5:
                                raise
                            wait = await self.wait_time(n)
                            await asyncio.sleep(wait)
            """,
            line=16,
            message="grows exponentially",
        ),
        Invalid(
            # the decision in the ``try``'s ``else:``: leave on a good status or once spent
            """
            import time, requests
            def fetch(session, url):
                attempt = 0
                while True:
                    try:
                        resp = session.get(url, timeout=(3, 15))
                    except requests.ConnectionError:
                        if attempt >= 5:
                            raise
                    else:
                        if resp.status_code not in (429, 503) or attempt >= 5:
                            return resp
                    attempt += 1
                    time.sleep(2 ** attempt)
            """,
            line=14,
            message="grows exponentially",
        ),
        Invalid(
            # the server's Retry-After where it sends one (read with an empty default), else the
            # helper's own linear delay
            """
            import time, requests
            class Client:
                def __init__(self):
                    self._session = requests.Session()
                def request(self, url):
                    attempt = 0
                    resp = None
                    while True:
                        is_last_attempt = attempt >= 5
                        try:
                            resp = self._session.get(url, timeout=(3, 15))
                        except requests.ConnectionError:
                            if is_last_attempt:
                                raise
                        else:
                            if resp.status_code not in (429, 503) or is_last_attempt:
                                return resp
                        if not is_last_attempt:
                            attempt += 1
                            delay = self._backoff(resp, attempt)
                            time.sleep(delay)
                            continue
                def _backoff(self, response, attempt):
                    if response is not None:
                        retry_after = response.headers.get("retry-after", "")
                        if retry_after:
                            return float(retry_after)
                    return 0.5 * attempt
            """,
            line=21,
            message="when the server sends no `Retry-After`",
        ),
        Invalid(
            # a header named by a constant of another module (poetry's authenticator; aiohttp's
            # ``hdrs.RETRY_AFTER`` alike): the server's delay where it sends one, else 0.5 s more
            # for each attempt
            """
            import time, requests
            from .constants import RETRY_AFTER_HEADER
            def fetch(session, url):
                for attempt in range(1, 6):
                    resp = session.get(url, timeout=(3, 15))
                    if resp.status_code != 503:
                        return resp
                    time.sleep(float(resp.headers.get(RETRY_AFTER_HEADER, "") or 0.5 * attempt))
            """,
            line=8,
            message="when the server sends no `Retry-After`",
        ),
        Invalid(
            """
            from aiohttp_retry import ExponentialRetry, RetryClient
            CLIENT = RetryClient(retry_options=ExponentialRetry(attempts=4, methods={"GET"}))
            """,
            line=2,
            message="aiohttp-retry `ExponentialRetry` sleeps exactly",
        ),
        Invalid(
            # urllib3's backoff given in an unpacked dict written out in the function
            """
            import urllib3
            def make_retry(limit):
                retry_args = {"total": limit, "backoff_factor": 0.25}
                return urllib3.Retry(**retry_args)
            """,
            line=3,
            message="without `backoff_jitter`",
        ),
        Invalid(
            # a cap on the code's own exponential delay leaves it the code's
            """
            import time, requests
            def fetch(session, url):
                for attempt in range(5):
                    try:
                        return session.get(url, timeout=(3, 10))
                    except requests.ConnectionError:
                        delay = 2 ** attempt
                        delay = min(delay, 30)
                        time.sleep(delay)
            """,
            line=9,
            message="grows exponentially",
        ),
        Invalid(
            # a reconnect pause taken in slices by a loop that counts down what is left
            """
            import time, requests
            def connect(session, url, state):
                for attempt in range(10):
                    try:
                        return session.get(url, stream=True, timeout=(3, 30))
                    except requests.RequestException:
                        remaining = 5
                        while remaining > 0 and not state.closed:
                            time.sleep(0.5)
                            remaining -= 0.5
            """,
            line=9,
        ),
        Invalid(
            # a pause on a failed status that goes straight round, and one in the handler of a
            # reset connection: two paths, two findings
            """
            import asyncio
            async def request(session, method, url):
                for tries in range(5):
                    try:
                        async with session.request(method, url) as response:
                            if response.status < 300:
                                return await response.json()
                            if response.status in {500, 502, 504}:
                                await asyncio.sleep(1 + tries * 2)
                                continue
                            raise RuntimeError(response.status)
                    except OSError:
                        if tries < 4:
                            await asyncio.sleep(1 + tries * 2)
                            continue
                        raise
            """,
            count=2,
        ),
        Invalid(
            # the delay a helper of the file computes: exponential, as it reads
            """
            import time, requests
            def _retry_delay(failed_attempt):
                return 0.3 * (2 ** failed_attempt)
            def flags(url, max_retries=3):
                failed_attempt = 0
                while True:
                    try:
                        return requests.get(url, timeout=(1, 5)).json()
                    except requests.ConnectionError:
                        if failed_attempt >= max_retries:
                            raise
                    time.sleep(_retry_delay(failed_attempt))
                    failed_attempt += 1
            """,
            line=12,
            message="grows exponentially",
        ),
        Invalid(
            # the attempt's number handed to the request (a header) leaves it the same request
            """
            import time, requests
            def post_batch(url, body, attempt):
                return requests.post(url, json=body, headers={"X-Attempt": str(attempt)}, timeout=(3, 10))
            def send(url, body, retries=3):
                for attempt_index in range(retries + 1):
                    try:
                        return post_batch(url, body, attempt=attempt_index + 1)
                    except requests.RequestException:
                        time.sleep(2 ** attempt_index)
            """,
            line=9,
        ),
        Invalid(
            """
            import time
            from slack_sdk.errors import SlackApiError
            def open_connection(client, token):
                try:
                    return client.apps_connections_open(app_token=token)["url"]
                except SlackApiError as e:
                    if e.response["error"] != "ratelimited":
                        raise
                    time.sleep(int(e.response.headers.get("Retry-After", "30")))
                    return open_connection(client, token)
            """,
            line=9,
            message="when the server sends no `Retry-After`",
        ),
        # one handler waits the server's flood-control delay, another the code's own growing one
        Invalid(
            """
            import asyncio
            class RetryAfter(Exception):
                retry_after = None
            class NetworkError(Exception):
                pass
            async def network_loop(action, interval):
                current = interval
                while True:
                    try:
                        await action()
                        break
                    except RetryAfter as exc:
                        current = 0.5 + exc.retry_after.total_seconds()
                    except NetworkError:
                        current = 1 if current == 0 else min(30, 1.5 * current)
                    await asyncio.sleep(current)
            """,
            message="grows exponentially but has no random term when the server sends no `Retry-After`",
        ),
        # the wait after a failed status (the `try`'s last call) and the handler's wait after a
        # connection error are two failure paths: two findings
        Invalid(
            """
            import time, requests
            def stream(session, url, handle, max_retries):
                errors = 0
                http_wait, network_wait = 5, 0
                while errors <= max_retries:
                    try:
                        with session.get(url, timeout=(3, 90), stream=True) as resp:
                            if resp.status_code == 200:
                                errors = 0
                                for line in resp.iter_lines():
                                    handle(line)
                            else:
                                errors += 1
                                time.sleep(http_wait)
                                http_wait *= 2
                    except requests.ConnectionError:
                        time.sleep(network_wait)
                        network_wait += 0.25
            """,
            count=2,
        ),
        # a wait until the rate limit resets is the server's; the loop's own fallback is judged
        Invalid(
            """
            import time
            def request(session, url, retry_count, retry_delay):
                reset_time = None
                for _ in range(retry_count):
                    if reset_time is not None:
                        time.sleep(max(reset_time - int(time.time()), 0) + 1)
                    resp = session.get(url, timeout=(3, 10))
                    if resp.ok:
                        return resp
                    reset_time = resp.headers.get("x-rate-limit-reset")
                    if reset_time is not None:
                        reset_time = int(reset_time)
                    time.sleep(retry_delay)
            """,
            line=13,
            message="waits a constant interval",
        ),
        # each failure path waits its own constant: each is a finding
        Invalid(
            """
            import time, requests
            RETRY_DELAY = 2
            def download(url):
                for attempt in range(3):
                    try:
                        return requests.get(url, timeout=(3, 30))
                    except requests.ConnectionError:
                        time.sleep(RETRY_DELAY)
                    except requests.HTTPError:
                        time.sleep(RETRY_DELAY)
            """,
            count=2,
        ),
        # the code's own exponential wait, replaced by the server's only when it sends one
        Invalid(
            """
            import time
            def get(session, url, max_retries=10):
                tries = 0
                while True:
                    r = session.get(url, timeout=(3, 10))
                    if r.status_code in (500, 502, 503) and tries < max_retries:
                        wait_time = 2 ** tries * 0.1
                        if "Retry-After" in r.headers:
                            wait_time = int(r.headers["Retry-After"])
                        tries += 1
                        time.sleep(wait_time)
                        continue
                    return r
            """,
            message="grows exponentially but has no random term when the server sends no `Retry-After`",
        ),
        # the server's delay, bounded below, when it sends one; the code's own constant otherwise
        Invalid(
            """
            import time, requests
            DEFAULT_WAIT = 30
            def retry_after(response):
                header = response.headers.get("Retry-After")
                if header:
                    return max(0, int(header))
                reset = response.headers.get("X-RateLimit-Reset")
                if reset:
                    return max(0, int(reset))
                return DEFAULT_WAIT
            def call(session, url, payload):
                for attempt in range(5):
                    response = session.post(url, json=payload, timeout=(3, 10))
                    if response.status_code != 429:
                        return response
                    time.sleep(retry_after(response))
            """,
            line=16,
            message="waits a constant interval with no random term when the server sends no `Retry-After`",
        ),
        # the attempts come from a setting; the wait grows with them, the same in every client
        Invalid(
            """
            import time, requests
            from myapp.settings import CachedSettings
            def query(session, url):
                times = (settings := CachedSettings()).get_query_retry_limit()
                retries = times
                while True:
                    response = session.get(url, timeout=(3, 10))
                    if response.status_code == 429:
                        if times == 0:
                            raise RuntimeError("rate limited")
                        wait = 10 * (retries - times + 1)
                        times -= 1
                        time.sleep(wait)
                        continue
                    return response
            """,
            line=13,
            message="grows linearly",
        ),
        # ``pow(2, n)`` grows as ``2 ** n`` does; a rate limit's reset header is the server's
        # delay, and the code's own is judged where the server sends none
        Invalid(
            """
            import time, requests
            def query(session, url, limit=5):
                for attempt in range(limit):
                    response = session.get(url, timeout=(3, 10))
                    if response.status_code != 429:
                        return response
                    reset = response.headers.get("RateLimit-Reset")
                    time.sleep(int(reset) if reset else 0.2 * pow(2, attempt))
            """,
            line=8,
            message="grows exponentially",
        ),
        # the wait changes with the attempts left, by the same schedule in every client
        Invalid(
            """
            import time, requests
            def query(session, url):
                tries = 5
                while True:
                    response = session.get(url, timeout=(3, 10))
                    if response.status_code == 429:
                        if tries >= 1:
                            time.sleep(10 / tries)
                            tries -= 1
                            continue
                        raise RuntimeError("rate limited")
                    return response
            """,
            line=8,
            message="changes with the attempt",
        ),
        Invalid(
            # a one-second pause taken in slices, to notice a stop request on the way
            """
            import time
            import psycopg
            class Consumer:
                def run(self, dsn):
                    while True:
                        try:
                            with psycopg.connect(dsn, connect_timeout=5) as conn:
                                return conn.execute("LISTEN events")
                        except psycopg.OperationalError:
                            for _ in range(10):
                                if self.should_stop:
                                    return
                                time.sleep(0.1)
            """,
            line=13,
        ),
        Invalid(
            # the retry decorator's 30 s pause taken in one-second slices, each after a check
            # that raises when the user cancels (kolibri's download)
            """
            import time
            import requests

            class FileDownload:
                def __init__(self, url, cancel_check=None, retry_wait=30):
                    self.url = url
                    self.retry_wait = retry_wait
                    self._cancel_check = cancel_check

                def cancel_check(self):
                    if self._cancel_check and self._cancel_check():
                        raise RuntimeError("canceled")

                def _retry(func):
                    def inner(self):
                        while True:
                            try:
                                return func(self)
                            except requests.ConnectionError:
                                for _ in range(self.retry_wait):
                                    self.cancel_check()
                                    time.sleep(1)
                    return inner

                @_retry
                def run(self):
                    return requests.get(self.url, timeout=10)
            """,
            line=22,
        ),
        Invalid(
            # ``pending`` is the batch the loop itself narrowed, no polled state: a failed
            # request sends the same batch again after an exponential pause
            """
            import asyncio
            async def translate_all(client, data, attempts=3):
                done, pending = {}, dict(data)
                for attempt in range(1, attempts + 1):
                    items = list(pending.items())
                    try:
                        answers = await client.translate([text for _, text in items])
                    except Exception:
                        pass
                    else:
                        left = {}
                        for (key, text), answer in zip(items, answers):
                            if answer:
                                done[key] = answer
                            else:
                                left[key] = text
                        pending = left
                        if not pending:
                            return done
                    await asyncio.sleep(2 ** (attempt - 1))
                raise RuntimeError("untranslated")
            """,
            line=20,
        ),
        Invalid(
            # the report is sent again until the API answers OK, a constant 5 s apart
            """
            import time, requests
            def report(api_url, captcha_id, timeout):
                for _ in range(3):
                    res = requests.get(api_url, params={"id": captcha_id, "correct": 1}, timeout=timeout).text
                    if res == "OK":
                        break
                    time.sleep(5)
            """,
            line=7,
        ),
        Invalid(
            # the success test after the ``try`` (``if result: break``); the wait a server setting
            """
            import logging, time
            def notify_all(servers):
                for server in servers:
                    retry = getattr(server, "retry", 0)
                    wait = getattr(server, "wait", 0.0)
                    result = False
                    for attempt in range(retry + 1):
                        try:
                            result = server.notify()
                        except Exception:
                            logging.exception("notification failed")
                            result = False
                        if result:
                            break
                        if attempt < retry and wait > 0:
                            time.sleep(wait)
            """,
            line=16,
        ),
        Invalid(
            # the 429 branch waits what a helper says; the other branch's wait is its whole wait
            """
            import time, requests
            def download(session, url, backoff, retries=4):
                tries, code = 0, 0
                while True:
                    if tries:
                        if tries > retries:
                            return None
                        if code == 429:
                            time.sleep(backoff(tries))
                        else:
                            time.sleep(tries)
                    tries += 1
                    try:
                        response = session.get(url, timeout=30)
                    except requests.ConnectionError:
                        continue
                    code = response.status_code
                    if code == 200:
                        return response
            """,
            line=11,
        ),
        Invalid(
            # the handler only logs; what follows the ``try`` runs on a failure only: it pauses
            # and calls the function again
            """
            import time, logging, requests
            log = logging.getLogger(__name__)
            def status(url, retries=10):
                try:
                    return requests.get(url, timeout=5).json()
                except requests.ConnectionError as err:
                    log.error("%s", err)
                if retries <= 0:
                    raise RuntimeError("giving up")
                time.sleep(5)
                return status(url, retries - 1)
            """,
            line=10,
        ),
        Invalid(
            # the message says the constant is the code's own, waited when the server sends none
            """
            import time, requests
            def fetch(url, attempt=0):
                try:
                    response = requests.get(url, timeout=10)
                    response.raise_for_status()
                    return response.json()
                except requests.HTTPError as e:
                    if e.response.status_code == 429 and attempt < 3:
                        time.sleep(int(e.response.headers.get("Retry-After", 5)) + 1)
                        return fetch(url, attempt + 1)
                    raise
            """,
            line=9,
            message="waits a constant interval with no random term when the server sends no `Retry-After`",
        ),
        Invalid(
            # a Retry subclass of the file fills in its factor, and no jitter
            """
            import requests
            from requests.adapters import HTTPAdapter
            from urllib3 import Retry
            class LoggingRetry(Retry):
                def __init__(self, **kwargs):
                    kwargs.setdefault("total", 5)
                    kwargs.setdefault("backoff_factor", 1.0)
                    super().__init__(**kwargs)
            def make_session():
                session = requests.Session()
                session.mount("https://", HTTPAdapter(max_retries=LoggingRetry()))
                return session
            """,
            line=7,
        ),
        Invalid(
            # pages follow one another, but a failed page is asked for again after 2 ** n s
            """
            import time, requests
            def all_pages(url, retries=5):
                results, retry = [], 0
                while url:
                    try:
                        response = requests.get(url, timeout=10)
                        response.raise_for_status()
                        retry = 0
                    except requests.ConnectionError as err:
                        retry += 1
                        if retry >= retries:
                            raise
                    if retry > 0:
                        time.sleep(2 ** retry)
                        continue
                    results.extend(response.json())
                    url = response.links.get("next", {}).get("url")
                return results
            """,
            line=14,
            message="grows exponentially",
        ),
        Invalid(
            # the 429 path waits the server's Retry-After; the 5xx path waits 2 ** n of its own
            """
            import time, requests
            def fetch(url, retries=5):
                for attempt in range(retries):
                    response = requests.get(url, timeout=10)
                    if response.status_code == 429:
                        time.sleep(int(response.headers["Retry-After"]))
                        continue
                    if response.status_code >= 500:
                        time.sleep(2 ** attempt)
                        continue
                    return response
            """,
            line=9,
            message="grows exponentially",
        ),
        Invalid(
            # the error's body kept for a log line: the next pass sends the same upload again
            """
            import time
            from app.plugins import BadHeader, Plugin
            class Captcha(Plugin):
                def upload(self, data):
                    for _ in range(5):
                        try:
                            res = self.load("https://captcha.example/upload", post=data)
                        except BadHeader as exc:
                            res = exc.content
                            time.sleep(3)
                        else:
                            return res
            """,
            line=10,
        ),
        Invalid(
            # a log line before the request is no call out: the wait after a 503 is the retry's
            """
            import time
            from app.plugins import BadHeader, Plugin
            class Mirror(Plugin):
                def fetch(self, url):
                    for attempt in range(2):
                        try:
                            self.log_debug("download attempt", attempt)
                            self.download(url)
                        except BadHeader as e:
                            if e.code not in (500, 503):
                                raise
                        if self.code in (500, 503):
                            time.sleep(5)
                        else:
                            return True
            """,
            line=13,
        ),
        Invalid(
            # a failed status while the attempts last; the server's Retry-After when it sends one,
            # the code's own constant otherwise
            """
            import time, requests
            from app import constants
            def get(url, max_retries=3):
                attempt = 0
                while True:
                    response = requests.get(url, timeout=5)
                    if response.status_code in (429, 503) and attempt < max_retries:
                        retry_after = response.headers.get("retry-after")
                        if retry_after and retry_after.isdigit():
                            delay = int(retry_after)
                        else:
                            delay = constants.DEFAULT_RETRY_AFTER
                        time.sleep(delay)
                        attempt += 1
                        continue
                    return response
            """,
            line=13,
        ),
        Invalid(
            # success read as the statuses below 300
            """
            import time, requests
            def version(url):
                for i in range(5):
                    resp = requests.get(url, timeout=3)
                    if resp.status_code < 300:
                        return resp.json()
                    time.sleep(2 ** i)
            """,
            line=7,
        ),
        Invalid(
            # success read as the range 200 to 299
            """
            import time, requests
            def health(url):
                for i in range(5):
                    resp = requests.get(url, timeout=3)
                    if 200 <= resp.status_code <= 299:
                        return resp
                    time.sleep(2 ** i)
            """,
            line=7,
        ),
        Invalid(
            # the method the loop calls sets what it waits for, on success
            """
            import logging, time, urllib3
            log = logging.getLogger(__name__)
            class Etcd:
                def __init__(self, url):
                    self.url = url
                    self.http = urllib3.PoolManager(timeout=urllib3.Timeout(connect=1, read=5), retries=0)
                    self._lease = None
                def _grant(self):
                    self._lease = self.http.request("POST", self.url + "/v3/lease/grant").data
                def create_lease(self):
                    while not self._lease:
                        try:
                            self._grant()
                        except urllib3.exceptions.HTTPError:
                            log.info("waiting on etcd")
                            time.sleep(5)
            """,
            line=16,
            message="constant interval",
        ),
        Invalid(
            # a reconnect: the stream is read until it ends, and opened again after a failure
            """
            import asyncio, httpx
            async def paid_invoices(client: httpx.AsyncClient, running):
                while running.is_set():
                    try:
                        async with client.stream("GET", "/invoices/subscribe", timeout=30) as r:
                            async for line in r.aiter_lines():
                                yield line
                    except httpx.HTTPError:
                        await asyncio.sleep(5)
            """,
            line=9,
        ),
        Invalid(
            # a success joined with a key the answer must carry: anything else goes round
            """
            import time, requests
            def add_cover(url, params):
                for _ in range(10):
                    response = requests.post(url, data=params, timeout=(3.05, 20))
                    if response.status_code == 200 and "id" in response.json():
                        return response.json()["id"]
                    time.sleep(2)
            """,
            line=7,
            message="`time.sleep(2)` waits a constant interval",
        ),
        Invalid(
            # two answers that each pause and go round: a pass that pauses on the first goes
            # round before the second, so each is a failure path's wait (hummingbot's XRPL
            # transaction pool)
            """
            import asyncio

            async def submit(client, blob, retries=5):
                attempt = 0
                while attempt < retries:
                    try:
                        result = await client.submit(blob)
                        if result == "tesSUCCESS":
                            return result
                        if result in ("tefPAST_SEQ", "terPRE_SEQ"):
                            attempt += 1
                            await asyncio.sleep(5)
                            continue
                        if result == "telCAN_NOT_QUEUE":
                            attempt += 1
                            await asyncio.sleep(7)
                            continue
                        return result
                    except ConnectionError:
                        attempt += 1
                        await asyncio.sleep(3)
            """,
            line=16,
            message="`asyncio.sleep(7)` waits a constant interval",
            count=3,
        ),
        Invalid(
            # a worker that puts a failed item back on its queue after a pause that doubles with
            # the item's count, kept in a mapping (chia's wallet sync)
            """
            import asyncio
            import logging

            class FullNode:
                def __init__(self, server):
                    self.server = server
                    self.queue = asyncio.Queue()

                async def sync_wallets(self):
                    attempts = {}
                    while True:
                        update = await self.queue.get()
                        try:
                            for connection in self.server.get_connections():
                                await connection.send_message(("coin_state_update", update))
                        except Exception:
                            current_attempt = attempts.get(update.key, 0) + 1
                            if current_attempt < 3:
                                attempts[update.key] = current_attempt
                                await asyncio.sleep(0.1 * (2 ** (current_attempt - 1)))
                                await self.queue.put(update)
                            else:
                                logging.error("giving up on %s", update.key)
            """,
            line=20,
            message="grows exponentially",
        ),
        Invalid(
            # a stop flag checked once the stream of events ended: the pass worked, and a
            # failure of the bus goes round after a constant pause (AWX's dispatcher)
            """
            import logging
            import time
            import psycopg
            from app.bus import bus_conn

            class Consumer:
                should_stop = False

                def run(self):
                    while True:
                        try:
                            with bus_conn(new_connection=True) as conn:
                                conn.listen("tasks")
                                for event in conn.events(yield_timeouts=True):
                                    logging.info(event)
                                if self.should_stop:
                                    return
                        except psycopg.OperationalError:
                            logging.exception("message bus down")
                            time.sleep(1)
            """,
            line=20,
            message="`time.sleep(1)` waits a constant interval",
        ),
        Invalid(
            # the pause after the answer's checks runs only when no success left the loop: a
            # failure path of its own beside the handler's (Open Library's cover upload)
            """
            from time import sleep
            import requests

            def add_cover(upload_url, params):
                reply = None
                for _ in range(10):
                    try:
                        response = requests.post(upload_url, data=params, timeout=(3, 10))
                    except requests.HTTPError:
                        sleep(2)
                        continue
                    if response.text not in ["", "None"]:
                        reply = response.json()
                        if response.status_code == 200 and "id" in reply:
                            break
                    sleep(3)
                return reply
            """,
            line=16,
            message="`time.sleep(3)` waits a constant interval",
            count=2,
        ),
        Invalid(
            # a retry by recursion whose helper squares the count: the words say how it grows
            # (freqtrade's ``retrier``)
            """
            import time
            from functools import wraps

            class TemporaryError(Exception):
                pass

            def calculate_backoff(retrycount, max_retries):
                return (max_retries - retrycount) ** 2 + 1

            def retrier(f, retries=4):
                @wraps(f)
                def wrapper(*args, **kwargs):
                    count = kwargs.pop("count", retries)
                    try:
                        return f(*args, **kwargs)
                    except TemporaryError:
                        if count > 0:
                            count -= 1
                            kwargs.update({"count": count})
                            time.sleep(calculate_backoff(count + 1, retries))
                            return wrapper(*args, **kwargs)
                        raise
                return wrapper
            """,
            line=20,
            message="`time.sleep(calculate_backoff(count + 1, retries))` grows polynomially but has no random term",
        ),
        Invalid(
            # the websocket read through a channel of the project's own, in a ``with`` nested in
            # the connection's, by a coroutine handed to the channel to run (freqtrade's
            # external message consumer)
            """
            import asyncio
            from contextlib import asynccontextmanager
            import websockets

            class Channel:
                def __init__(self, ws):
                    self._ws = ws

                async def recv(self):
                    return await self._ws.recv()

                async def run_tasks(self, *tasks):
                    return await asyncio.gather(*tasks)

            @asynccontextmanager
            async def create_channel(ws):
                yield Channel(ws)

            class Consumer:
                def __init__(self, sleep_time):
                    self.sleep_time = sleep_time
                    self.running = True

                async def connect(self, url):
                    while self.running:
                        try:
                            async with websockets.connect(url) as ws:
                                async with create_channel(ws) as channel:
                                    await channel.run_tasks(self.receive(channel))
                        except websockets.exceptions.ConnectionClosedError:
                            await asyncio.sleep(self.sleep_time)

                async def receive(self, channel):
                    while self.running:
                        print(await channel.recv())
            """,
            line=31,
            message="`asyncio.sleep(self.sleep_time)` waits a constant interval",
        ),
        Invalid(
            # a websocket kept in an attribute and read by a method of the class, connected
            # again two seconds after it closes or fails (chia's RPC server to its daemon)
            """
            import asyncio
            import logging
            from aiohttp import ClientConnectorError, ClientSession, WSMsgType

            class RpcServer:
                def __init__(self):
                    self.shut_down = False
                    self.websocket = None

                async def connection(self, ws):
                    while True:
                        msg = await ws.receive()
                        if msg.type != WSMsgType.TEXT:
                            break
                        logging.info(msg.data)

                async def connect_to_daemon(self, url, timeout):
                    while not self.shut_down:
                        try:
                            session = ClientSession(timeout=timeout)
                            self.websocket = await session.ws_connect(url)
                            await self.connection(self.websocket)
                        except ClientConnectorError:
                            logging.warning("cannot connect to the daemon")
                        await asyncio.sleep(2)
            """,
            line=25,
            message="`asyncio.sleep(2)` waits a constant interval",
        ),
        Invalid(
            # websocket-client's connection opened without ``with`` and read until it closes
            """
            import time
            from websocket import WebSocketConnectionClosedException, create_connection

            def listen(url, handle, running):
                while running():
                    try:
                        ws = create_connection(url, timeout=10)
                        while True:
                            handle(ws.recv())
                    except WebSocketConnectionClosedException:
                        time.sleep(5)
            """,
            line=11,
            message="`time.sleep(5)` waits a constant interval",
        ),
        Invalid(
            # the handler of a closed connection opens it again and the loop reads on (Tautulli's
            # Plex notifications)
            """
            import time
            import websocket

            def run(uri, settings, process):
                ws = websocket.create_connection(uri, timeout=settings.timeout)
                reconnects = 0
                while True:
                    try:
                        process(ws.recv_frame())
                        reconnects = 0
                    except websocket.WebSocketConnectionClosedException:
                        if reconnects >= settings.attempts:
                            break
                        reconnects += 1
                        time.sleep(settings.reconnect_delay)
                        try:
                            ws = websocket.create_connection(uri, timeout=settings.timeout)
                        except Exception as e:
                            print(e)
            """,
            line=15,
            message="`time.sleep(settings.reconnect_delay)` waits a constant interval",
        ),
        Invalid(
            # requests re-exports urllib3's Retry
            """
            import requests
            from requests.adapters import HTTPAdapter, Retry
            session = requests.Session()
            session.mount("https://", HTTPAdapter(max_retries=Retry(total=5, backoff_factor=0.1)))
            """,
            line=4,
            message="without `backoff_jitter`",
        ),
        Invalid(
            # the status of the mapping the project's fetch wrapper returns, kept as text
            """
            import time
            def lookup(fetcher, ip):
                retry = 0
                while retry < 3:
                    res = fetcher.fetch_url("https://api.example/ip/" + ip, timeout=10)
                    if res["code"] == "200":
                        return res["content"]
                    if res["code"] == "429":
                        time.sleep(2)
                    retry += 1
            """,
            line=9,
            message="`time.sleep(2)` waits a constant interval",
        ),
        Invalid(
            # the server's Retry-After when it sends one; a timeout never does, and waits 1, 2, 4 s
            """
            from tenacity import retry, stop_after_attempt, wait_exponential
            def wait_time(retry_state):
                error = retry_state.outcome.exception()
                if "Retry-After" in error.response.headers:
                    return int(error.response.headers["Retry-After"])
                return wait_exponential(multiplier=1, max=60)(retry_state)
            @retry(stop=stop_after_attempt(5), wait=wait_time)
            def call(client):
                return client.api_call("chat.postMessage")
            """,
            line=7,
            message="`wait_time` returns `wait_exponential` without a random term",
        ),
        Invalid(
            # the loop's pause is in a helper that counts and sleeps before saying go round
            """
            import time, requests
            def query(session, url):
                failures = []
                def may_retry():
                    if len(failures) >= 10:
                        return False
                    time.sleep(1)
                    failures.append(1)
                    return True
                while True:
                    try:
                        return session.get(url, timeout=5).json()
                    except requests.ConnectionError:
                        if may_retry():
                            continue
                        raise
            """,
            line=7,
            message="constant interval",
        ),
        Invalid(
            # RQ waits the configured interval exactly
            """
            from django.conf import settings
            from rq import Retry
            def webhook_retry():
                return Retry(max=settings.RQ_RETRY_MAX, interval=settings.RQ_RETRY_INTERVAL)
            """,
            message="RQ adds none",
        ),
        Invalid(
            # retry by recursion, after a helper of the file has slept (and counted)
            """
            import asyncio
            class Client:
                def __init__(self, http):
                    self.http, self.retries = http, 0
                async def fetch(self, url):
                    try:
                        return await self.http.fetch(url)
                    except ConnectionError:
                        if not await self._may_retry():
                            raise
                        return await self.fetch(url)
                async def _may_retry(self):
                    if self.retries >= 3:
                        return False
                    await asyncio.sleep(0.1 * 2 ** self.retries)
                    self.retries += 1
                    return True
            """,
            line=15,
            message="grows exponentially",
        ),
        Invalid(
            # the countdown written at the call is what it waits, whatever `**` adds
            """
            import requests
            from celery import shared_task
            @shared_task(bind=True, retry_kwargs={"max_retries": 5})
            def fetch(self, url):
                try:
                    return requests.get(url, timeout=5).content
                except requests.ConnectionError as exc:
                    raise self.retry(exc=exc, countdown=30 * 2 ** self.request.retries, **self.retry_kwargs)
            """,
            line=8,
            message="grows exponentially",
        ),
        Invalid(
            # the module's error also passes a failed call on: that failure is retried
            """
            import requests
            from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_fixed
            class Unavailable(Exception):
                pass
            @retry(wait=wait_fixed(5), stop=stop_after_attempt(3), retry=retry_if_exception_type(Unavailable))
            def fetch(url):
                try:
                    return requests.get(url, timeout=3)
                except requests.ConnectionError as error:
                    raise Unavailable(url) from error
            """,
            line=5,
            message="`wait_fixed`",
        ),
        Invalid(
            """
            from twisted.internet import defer, reactor
            from twisted.internet.task import deferLater
            @defer.inlineCallbacks
            def fetch(agent, uri):
                for attempt in range(5):
                    try:
                        result = yield agent.request(b"GET", uri)
                        return result
                    except ConnectionError:
                        yield deferLater(reactor, 5, lambda: None)
            """,
            line=10,
            message="`deferLater(reactor, 5)` waits a constant interval",
        ),
        Invalid(
            # a clock whose sleep waits for a Deferred that the reactor fires later
            """
            from twisted.internet import defer
            class Clock:
                def __init__(self, reactor):
                    self._reactor = reactor
                async def sleep(self, seconds):
                    d = defer.Deferred()
                    self._reactor.callLater(seconds, d.callback, seconds)
                    await d
            async def send(client, clock: Clock, uri):
                for attempt in range(5):
                    try:
                        return await client.post_json(uri)
                    except ConnectionError:
                        await clock.sleep(2 ** attempt)
            """,
            line=14,
            message="grows exponentially",
        ),
        Invalid(
            # the same loop in a module that drives no browser: the object may be a client
            """
            import time
            def submit(form):
                for attempt in range(3):
                    try:
                        form.click()
                        break
                    except Exception:
                        time.sleep(0.2)
            """,
            line=8,
        ),
        Invalid(
            # the growth of a delay kept in a name
            """
            import time
            def perform(flush):
                for retries in range(3):
                    try:
                        return flush()
                    except OSError:
                        delay = 60 * retries
                        time.sleep(delay)
            """,
            line=8,
            message="grows linearly",
        ),
        Invalid(
            # a delay the loop adds to after each pause grows, whatever it starts at
            """
            import time, requests
            INTERVAL = 15
            STEP = 5
            def connect(url, tries=3):
                interval = INTERVAL
                conn = None
                while not conn:
                    try:
                        conn = requests.get(url, timeout=5)
                    except requests.ConnectionError:
                        tries -= 1
                        if not tries:
                            raise
                        time.sleep(interval)
                        interval += STEP
                return conn
            """,
            line=14,
            message="grows linearly",
        ),
        Invalid(
            # ``TryAgain`` raised from a failure: a retry, not a poll
            """
            from tenacity import TryAgain, retry, retry_if_exception_type, stop_after_attempt, wait_exponential
            @retry(stop=stop_after_attempt(3), retry=retry_if_exception_type(TryAgain), wait=wait_exponential(min=2, max=5))
            def make_call(client, func):
                try:
                    return getattr(client, func)().execute()
                except HttpError:
                    raise TryAgain from None
            """,
            line=2,
            message="`wait_exponential` without a random term",
        ),
        Invalid(
            # an abstract probe stands for what its subclasses do: a call out, retried at a fixed pace
            """
            import asyncio
            from abc import ABC, abstractmethod
            class HealthCheck(ABC):
                @abstractmethod
                async def check_health(self, database) -> bool: ...
            async def probe(health_check: HealthCheck, database, probes=3):
                for attempt in range(probes):
                    try:
                        if await health_check.check_health(database):
                            return True
                    except Exception:
                        pass
                    await asyncio.sleep(1)
                return False
            """,
            line=13,
        ),
        Invalid(
            """
            import time, requests
            def pages(url):
                while url:
                    r = requests.get(url, timeout=3)
                    if r.status_code != 200:
                        time.sleep(1)
                        continue
                    url = r.json().get("next")
            """,
            line=6,
            message="waits a constant interval",
        ),
        Invalid(
            """
            from tenacity import retry, stop_after_attempt, wait_exponential
            @retry(stop=stop_after_attempt(3), wait=wait_exponential(multiplier=0.1))
            def f(): ...
            """,
            line=2,
            message="`wait_exponential` without a random term",
        ),
        Invalid(
            """
            import tenacity
            @tenacity.retry(stop=tenacity.stop_after_attempt(3))
            def f(): ...
            """,
            message="tenacity waits nothing between attempts by default",
        ),
        Invalid(
            """
            import tenacity
            api_retry = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_fixed(2))

            @api_retry
            def a(): ...

            @api_retry
            def b(): ...
            """,
            line=2,
            count=1,
            message="`wait_fixed`",
        ),
        Invalid(
            """
            import backoff
            @backoff.on_exception(backoff.expo, OSError, max_tries=3, jitter=None)
            def f(): ...
            """,
            message="`jitter=None`",
        ),
        Invalid(
            """
            import time, requests
            def f():
                for attempt in range(5):
                    try:
                        return requests.get("https://a.example", timeout=3)
                    except requests.ConnectionError:
                        time.sleep(2 ** attempt)
            """,
            line=7,
            message="no random term",
        ),
        Invalid(
            """
            import asyncio, aiohttp
            async def f(session):
                delay = 0.5
                for _ in range(4):
                    try:
                        async with session.get("https://a.example") as r:
                            return await r.json()
                    except aiohttp.ClientError:
                        await asyncio.sleep(delay)
                        delay *= 2
            """,
            line=9,
        ),
        Invalid(
            """
            from requests.adapters import HTTPAdapter
            from urllib3.util.retry import Retry
            adapter = HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.3))
            """,
            message="backoff_jitter",
        ),
        Invalid(
            """
            from celery import Celery
            app = Celery("jobs")
            @app.task(autoretry_for=(ConnectionError,), max_retries=5)
            def sync(): ...
            """,
            message="default_retry_delay",
        ),
        Invalid(
            """
            from celery import shared_task
            from django.conf import settings
            @shared_task(autoretry_for=(ConnectionError,), default_retry_delay=settings.RETRY_DELAY)
            def sync(): ...
            """,
            message="waits a fixed `default_retry_delay` (`settings.RETRY_DELAY`) between attempts",
        ),
        Invalid(
            """
            from myproject.celery import app
            @app.task(bind=True, max_retries=3)
            def sync(self):
                try:
                    push()
                except ConnectionError as exc:
                    raise self.retry(exc=exc, countdown=60)
            """,
            line=7,
            message="countdown=60",
        ),
        Invalid(
            """
            import requests
            from celery import shared_task
            @shared_task(bind=True, max_retries=5)
            def push(self, url):
                resp = requests.get(url, timeout=5)
                if resp.status_code >= 500:
                    raise self.retry(countdown=10)
                return resp.json()
            """,
            line=7,
            message="countdown=10",
        ),
        Invalid(
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
            line=9,
            message="`countdown=2 ** try_count` grows exponentially",
        ),
        Invalid(
            """
            from celery import shared_task
            from myproject.webhooks import deliver
            @shared_task(bind=True, max_retries=8)
            def call_webhook(self, webhook_id, retries=0):
                success = deliver(webhook_id)
                # the counter bounds the retry: the test is of the failed delivery
                if not success and retries < 8:
                    self.retry(countdown=2 ** retries, kwargs={"retries": retries + 1})
            """,
            line=8,
            message="`countdown=2 ** retries`",
        ),
        Invalid(
            """
            from myproject.celery import app
            DELAYS = [30, 60, 120, 300]
            @app.task(bind=True, max_retries=4)
            def send(self):
                try:
                    push()
                except ConnectionError as exc:
                    delay = ([*DELAYS, 0])[self.request.retries]
                    raise self.retry(exc=exc, countdown=delay)
            """,
            line=9,
            message="countdown=delay",
        ),
        Invalid(
            """
            import stamina
            @stamina.retry(on=ConnectionError, wait_jitter=0)
            def f(): ...
            """,
        ),
        Invalid(
            """
            from retrying import retry
            @retry(stop_max_attempt_number=3, wait_exponential_multiplier=100)
            def f(): ...
            """,
            message="wait_jitter_max",
        ),
        Invalid(
            """
            import random, time, requests
            def f():
                for n in range(5):
                    try:
                        return requests.get("https://a.example", timeout=3)
                    except requests.ConnectionError:
                        delay = 2 ** n
                        if n < 3:
                            delay = random.uniform(0, delay)
                        time.sleep(delay)
            """,
            line=10,
            message="grows exponentially",
        ),
        Invalid(
            """
            import time, requests
            from myapp.settings import RETRY_BASE
            def f(metrics):
                for attempt in range(5):
                    metrics.incr("fetch.attempt", tags={"attempt": attempt})
                    try:
                        return requests.get("https://a.example", timeout=3)
                    except requests.ConnectionError:
                        time.sleep(RETRY_BASE * 2 ** attempt)
            """,
            line=9,
        ),
        Invalid(
            """
            import tenacity
            def wait_strategy(retry_state):
                return tenacity.wait_exponential(multiplier=1, max=10)(retry_state)
            @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=wait_strategy)
            def f(): ...
            """,
            line=4,
            message="`wait_strategy` returns `wait_exponential`",
        ),
        Invalid(
            # the pause after the page paces pages; the wait after a 429 is the handler's
            """
            import random, time, requests
            def pages(session, url):
                retries = 5
                while retries:
                    try:
                        page = session.get(url, timeout=TIMEOUT).json()
                        url = page.get("next")
                        if not url:
                            break
                        time.sleep(1 + random.random())
                    except requests.HTTPError:
                        time.sleep(30)
                        retries -= 1
            """,
            line=12,
            message="`time.sleep(30)`",
        ),
        Invalid(
            """
            import time, requests
            def pause(seconds):
                time.sleep(seconds)
            def f():
                for attempt in range(5):
                    try:
                        return requests.get("https://a.example", timeout=3)
                    except requests.ConnectionError:
                        pause(2 ** attempt)
            """,
            line=9,
            message="`pause(2 ** attempt)` grows exponentially",
        ),
        Invalid(
            """
            import time, requests
            RETRY_DELAY = 2
            def f():
                while True:
                    r = requests.get("https://a.example", timeout=3)
                    if r.status_code == 200:
                        return r
                    time.sleep(RETRY_DELAY)
            """,
            line=8,
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        if is_test_code(ctx.model.path, ctx.settings):
            return
        reported: Set[int] = set()
        for policy in retry_scopes(ctx.model).policies:
            wait = policy.wait
            if wait.inherited or wait.kind not in (WAIT_NONE, WAIT_FIXED, WAIT_EXPONENTIAL) or policy.polls_result:
                continue
            if wait.kind == WAIT_NONE and policy.library not in ("tenacity", "retrying"):
                # urllib3/httpx without backoff retry mostly failed connects; a hand-written
                # loop without any sleep is outside what this rule can judge reliably.
                continue
            for pause in (wait, *policy.more_waits):
                node = pause.node if pause.node is not None else policy.node
                if id(node) in reported:
                    continue
                reported.add(id(node))
                ctx.report(node, _message(policy.library, pause.kind, pause.detail), anchor=node, **_fixed_by(ctx.model, policy, node))

    def check_project(self, ctx: ProjectContext) -> None:
        """Waits computed by a function of another module, judged from what it returns."""
        for module in ctx.graph.summaries:
            if ctx.in_test_code(module.path):
                continue
            for wait in module.waits:
                helper = ctx.graph.resolve(wait.via, wait.place.path)
                if helper is None:
                    _keyword_countdown(ctx, wait)
                    continue
                if wait.slept:
                    slot = helper.parameters.index(wait.slept_as) - helper.bound if wait.slept_as in helper.parameters else 0
                    if helper.sleeps == slot and (not wait.slept_as or wait.slept_as in helper.parameters):
                        short = wait.via.rsplit(".", 1)[-1]
                        detail = f"{wait.text} (`{short}` sleeps its argument)"
                        ctx.report(wait.place, _message(wait.library, wait.slept, detail), [(helper.place, f"`{short}` sleeps the delay it is given")])
                    continue
                if helper.delay not in (WAIT_FIXED, WAIT_EXPONENTIAL):
                    continue
                short = wait.via.rsplit(".", 1)[-1]
                grows = "grows exponentially but has no random term" if helper.delay == WAIT_EXPONENTIAL else (
                    "is a constant interval with no random term"
                )
                detail = f"{wait.text} waits what `{short}` ({helper.place.short()}) returns, which {grows}"
                ctx.report(wait.place, _message(wait.library, helper.delay, detail), [(helper.place, f"`{short}` computes the delay")])


def _keyword_countdown(ctx: ProjectContext, wait: Wait) -> None:
    """``self.retry(exc=exc, **RETRY_KWARGS)`` with another module's ``RETRY_KWARGS =
    {"countdown": 60, ...}``: a fixed countdown."""
    for held in ctx.graph.values.of(wait.via, wait.place.path):
        if held.kind != "dict" or held.module is None:
            continue
        for key, ref in held.entries:
            if key == "countdown" and ref[0] == "int":
                short = wait.via.rsplit(".", 1)[-1]
                detail = f"`countdown={ref[1]}` (from `{short}`) is a constant interval with no random term"
                ctx.report(wait.place, _message(wait.library, WAIT_FIXED, detail), [])
                return


def _fixed_by(model: SemanticModel, policy: Policy, node: cst.CSTNode) -> Dict[str, Any]:
    """What may fix a urllib3 ``Retry``'s backoff: only its own codemod, and only a factor the
    call itself gives as a number (a computed one, or one in an unpacked dict, is left alone)."""
    if policy.library != "urllib3":
        return {}
    if not isinstance(policy.node, cst.Call) or not any(arg.value is node for arg in policy.node.args):
        return {"fixable": False}
    factor = model.followed(node, policy.scope, policy.order) if isinstance(node, cst.BaseExpression) and policy.scope else None
    if factor is None or policy.scope is None or number_of(factor) is None:
        return {"fixable": False}
    return {"fixed_by": ("urllib3-jitter",)}


def _message(library: str, kind: str, detail: str) -> str:
    if kind == WAIT_NONE:
        base = detail or f"{library} waits nothing between attempts"
        return f"{base}: {_HERD}, immediately; add a jittered wait (e.g. `wait_random_exponential`)"
    if library in ("loop", "recursion"):
        return f"{detail}: {_HERD}; add a random term to each delay"
    if library == "celery" and detail.startswith("`countdown=") and " grows " not in detail:
        return f"{detail} is the same for every task that failed together: {_HERD}; add a random term"
    if detail:
        said = ("without", "jitter", "no random term")
        what = "" if any(words in detail for words in said) else "without a random term"
        return f"{detail} {what}: {_HERD}".replace("  ", " ").replace(" :", ":")
    return f"{library} backoff has no random term: {_HERD}"

