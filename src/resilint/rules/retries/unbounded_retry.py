"""RES203 unbounded-retry."""

from __future__ import annotations

from typing import Set


from resilint.libraries.retry_scopes import LIBRARY_TRIGGERS, retry_scopes
from resilint.lint.rule import Invalid, Rule, RuleContext
from resilint.rules.retries.near_misses import ASK_AGAIN, ASK_THROUGH_WRAPPER, QUEUE_WORKER, WATCH_JOB, WATCH_VALUE


# The libraries whose stop the add-bound fix sets (``codemods/add_bound.py``); a hand-written
# loop, a recursion or a re-queued job is bounded by hand, so its finding is not offered as fixable.
_BOUNDED_BY_FIX = frozenset({"tenacity", "backoff", "retrying", "stamina", "celery"})


class UnboundedRetry(Rule):
    """A retry with no attempt limit and no deadline keeps going for as long as the failure lasts.

    ## What it does
    Flags retry scopes with neither an attempt limit nor a time limit: tenacity without `stop=`
    (or with `stop=stop_never`), backoff without `max_tries`/`max_time`, retrying without
    `stop_max_attempt_number`/`stop_max_delay`, stamina with `attempts=None, timeout=None`,
    celery with `max_retries=None` (also a task that hands itself to a helper that retries it,
    in an `except` or under an `if`;
    also `max_retries=1 if settings.DEBUG else None`, unbounded where the test fails; also given
    to a project's own task decorator, a name ending in `task` passed options only celery reads,
    `autoretry_for`, `retry_backoff`, `retry_jitter`, `retry_backoff_max`),
    a `while errors <= max_retries` loop whose handler of a failure goes round without
    counting `errors` (its `try` counts only failed statuses), a
    `while retry_count < limit` loop whose body never changes `retry_count` (nor anything else
    its test reads: `retry_count + 1` throws the sum away), a
    hand-written `while True` (or `while not done`, also spelled `while done == False` or
    `while done is not True`, or `while keep_trying` that the body sets to `False`, `while not succeeded and url`, `while not
    self._lease` whose `try` calls a method of the object that sets it, at any depth,
    `while not connection.started` whose `try` calls `connection.start()`, a library object's
    own method, `for _ in itertools.count()`) retry loops that leave only on success, a function that calls
    itself again after a failure with no attempt parameter it counts (`return log(event)` in its
    `except`, after a pause; or at once, when the failure path does nothing else and passes its
    own arguments unchanged: `elif resp.status_code == 401: return self.send(msg,
    api_key=api_key)`, or a flag as a constant that no test in the function reads, `except SSLError:
    return send(url, True)` for `no_ssl`, unchanged once it is set; one that leaves a parameter to its default, `except KeyError: return
    self.get_columns(event)` without `form`, asks for something else: a fallback), and a worker that puts a failed item back on its queue with no test
    of a counter around the `put`. A tenacity `stop=` may be a project function: one that returns `False`, or a
    factory that returns `stop_never`, never stops.

    A limit that is infinity (`float("inf")`, `math.inf`, also through a name, an attribute or
    the default of a configuration `.get()`: `conf.get("max_retries", float("inf"))`) bounds
    nothing: `while True` with `if retries < MAX_RETRIES: ... else: raise` is reported.

    A loop is bounded when it leaves on an attempt counter (`if attempt >= 5: raise`, also
    `if attempt < 5: continue` before a `raise`, or in an `elif`; a list of delays used up one
    per pass, `delays = delays[1:]` or `delays.pop(0)`, with `if not delays: raise`, or in the
    `while` condition, `while not called and stack:` with `stack.pop()`) or a deadline/elapsed-time check
    (`if time.monotonic() > deadline: raise`, also through a function of the file that tests
    one or returns what is left of one, `if time_remaining() <= 0: raise`; or `sys.exit(...)`, or a call that always raises,
    `flask.abort(502)`, `frappe.throw(...)`, `pytest.fail(...)`, or a test's `assert
    time.monotonic() < deadline`), when its condition counts
    (`while count < max_count and not succeeded`), when a `while not done` flag is also set on
    the failure path (one retry at most), when the handler's test reads what the branch that
    goes round sets and its other branch raises (`if not reconnected: reconnect();
    reconnected = exc` … `else: raise`, one reconnect), when it hands the error it caught to
    a call that may raise it again on a deadline or a count of its own (`retry.ensure_deadline(0.5,
    exc)` on another module's object; a function of the file counts only if it raises; logging
    it does not), or, for a function that calls itself
    again, when it does so only while a flag parameter is unset and sets it (`if not
    retried: return fetch(url, retried=True)`, or `if is_retry: raise` … `else: return
    self.fetch(url, is_retry=True)`, one retry), or when the handler adds to a count
    that it passes on as the same parameter and the function leaves at its start once that
    count is high (`elif safechk > 4: return` … `safechk += 1; fetch(url, safechk)`), or when it runs inside a deadline scope: a
    `with`/`async with` of `anyio.fail_after`/`move_on_after`, `asyncio.timeout`/`timeout_at`,
    `async_timeout.timeout`, trio's `fail_after`/`move_on_after`/`fail_at`/`move_on_at` or a
    `CancelScope(deadline=...)`, or resilint's own `resilint.runtime.deadline(...)` (whose
    timeouts and retries inside stop at the deadline); or in a function whose coroutine every
    call in the file bounds with `asyncio.wait_for(..., timeout)`. A scope whose limit is
    `None` bounds nothing, and neither does an exit on anything but a counter or the time: a
    handler that re-raises some errors (`if exc.response.status_code != 409: raise`, or
    `retry = retry_import(e)` / `if not retry: raise` with a function of the file that only
    classifies the error: its name, the error classes it tests, `Timeout` among them, and the
    status codes it looks up are not limits) retries the
    others forever, a switch that says whether to wait out a rate limit (`if
    self.wait_on_rate_limit: sleep(...); continue` / `else: raise`, or `if
    self.config.mqtt_autostart: sleep(...)` / `else: break`, `if not cls.RETRY_ON_TIMEOUT:
    raise`, whatever words it is named with) retries forever while it is on, and a counter tested in only some handlers bounds only their failures:
    `except ConnectError: if attempts > 5: raise` beside `except TimeoutError: sleep(1)`
    retries timeouts forever (the message names the handler); nor does a counter in the loop's
    condition that the body counts only at its end, after a `continue` that goes round without
    counting (`while retry < 3:` ... `if r.status_code == 404: continue` ... `retry += 1`); a
    `try` that counts before anything in it can fail (`try: attempts_left -= 1; return await
    fetch()`) counts every failure its handlers catch. An exit decided by a method of the file counts when that method tests a
    counter or the time, or catches the error a backoff object raises once its budget is spent
    (`if self._gave_up(): raise`, where `_gave_up` returns True on
    `BackoffTimeoutExceededError`). A limit we cannot read (a `stop=` passed in `**kwargs`) is not flagged.

    Not retries, so not flagged: a retry decorator written on a function of the file that
    does only local work (a task that only sleeps); a long-running loop whose only ways out
    are stop flags checked before the work of the pass (`if self._shut_down: return`, `if not
    self._refreshing_enabled: return`): it never leaves because the work succeeded, it runs
    until it is stopped (one checked after the work, once a stream of events ended, leaves a
    pass that worked: a reconnect loop); a loop that asks for new input each pass, and sends that
    (`name = click.prompt(...)` … `create_user(name)` … `except AlreadyExists`) or asks again
    after an answer it could not read (`int(input(...))` … `except ValueError`), a worker that
    takes the next item each pass (`while job := queue.next_job():`, or in its body, `await
    queue.get()`, `queue.get_nowait()`, `pending.pop(0)`, `pending.remove(item)`, putting none
    back: a failed item is dropped; also a generator that polls for work and hands out each
    item it gets, `yield item`, stopping on `if item is None:`, however it takes a failed
    poll), a loop that sends on a fixed pace whatever the answer (a heartbeat whose pass after
    a failure waits what a pass after a success waits: a failure costs no extra call), a loop that follows
    redirects by hand (a 3xx status is no failure; so is an error that names one, Telegram's
    `PhoneMigrate` caught to send the request to the data center it names), a tenacity poll on the result only (also `retry_if_exception_type` of an error the module
    raises only on the state it read, never in an `except` handler), and a watch
    or monitor loop that leaves when a polled state says so (`if job.status == "done":
    return`, `if result == "success": return` beside `if result in ("busted", "testfailed"):
    return False`, `if result.response.flags & dns.flags.AD: break`, `if result.get("validated"): return`, `if profit <= limit: break`, `if newsum ==
    checksum: return`) and tolerates
    failed reads meanwhile, a loop that goes round only on a success status saying the answer
    is not ready (`elif r.status_code == 204: sleep(...)`) while every other status leaves or
    raises (`else: r.raise_for_status()`), and a loop that waits out local state (a lock file,
    `FileExistsError`, an `IndexError` while reading rows, a child process that has not ended
    (`subprocess.TimeoutExpired`), an answer a schema of this process refused (voluptuous's
    `Invalid`: a prompt asked again), a unix socket, the `accept()` of a
    socket the program listens on, a server that binds its own port and is started again after
    an error (a `try` that calls `bind` or `listen`, also by recursion), the start of its own aiohttp site (`TCPSite(...).start()`),
    a readiness probe of a loopback URL (`http://127.0.0.1:{port}/health`, also kept in a local
    or built by a method of the file, `self.url("/ping")`, its answer or its status read) in a function that starts its own server (`uvicorn.Server(...)`,
    `make_server(...)`, a Flask app's `run` handed to a thread, `Thread(target=app.run)`) or a program in a process of its own (`subprocess.Popen([binary])`), or
    in a pytest fixture or test (the server is one the test run starts),
    a `graphlib` sort that drops a cycle and sorts again (`except CycleError`), its own child processes (also a
    handler that goes round only on an interrupted call, `if e.errno != errno.EINTR: raise`, also
    written `if e.errno == errno.EINTR: continue` then `raise`, or asked of a helper named
    for it, `if _is_resumable(error): continue`), a
    handler that goes round only when a file of the name exists (`if e.errno != errno.EEXIST:
    raise`, the next pass tries another name), a device read through
    pyudev, pyserial, pyusb or evdev, a key of this terminal read with curses, psutil, regular expressions, a free port of this
    machine probed with portend, an in-process queue or event
    (`asyncio.wait_for(queue.get(), timeout=1)`; a handler whose only wait is an untimed one on
    an event or condition of this process, `self.filtering_done.wait()`, whatever the `try`
    failed with; a timed one, `stop.wait(5)`, is a pause), a future of this process not done yet
    (`future.result(timeout=0.5)` … `except concurrent.futures.TimeoutError`), a browser that
    Selenium or Playwright drives on this machine (also an element or page object the file
    cannot type, in a module that imports one of them: `field.click()`,
    `page.find_by_xpath(...)`), computing in the process (drawing a random name, hashing,
    decompressing, decoding, joining text, Django's validators, Faker), a function of the file that does only such
    things (also one that calls itself again, an interpreter's loop, and makes the errors it
    raises, `raise ExtractorError("...")`, with a class of any module)): it retries nothing
    another service does. Nor is a read loop on an open connection
    that catches only the timeout of its receive (`msg = await ws.receive(55)`, then `except
    TimeoutError: await ws.ping()`; also bounded by `asyncio.wait_for(...)`, the next item of an
    object named for a queue, `self._queue.get()`, and with what the message is used for in
    the `try`'s `else:`), or a non-blocking socket's "no data yet"
    (`BlockingIOError`, `ssl.SSLWantReadError`): nothing arrived, nothing is sent again. Nor is
    a loop whose handlers fall through to a statement after the `try` that leaves the loop
    (`except RequestException: pass` then `return status`). Nor is a loop whose
    handlers catch only an answer that refuses the input (an `IntegrityError` or
    `UniqueViolation`, a `ValidationError`, or a project error named for a name that is taken:
    `SlugExistsError`, `AlreadyExists`, `DuplicateName`) and change that input (the next free name, the
    table's turn after the tables that reference it): a dependency that is down raises another
    error, which leaves the loop; the same goes for a broad error that the handler tells by its
    text (`if "Conflict" in str(exc): name = next_name()` … `else: raise`, or a server asking
    for less: `if "select a smaller result" in str(exc): step //= 2; continue` … `raise`, or a
    compiler naming duplicates, each renamed in a loop of the handler's own: `if "duplicated
    identifier" in e.args[0]: for item in ...: rules = rules.replace(...)` … `else:
    sys.exit(...)`). The same save
    retried after an `IntegrityError` (a race with another writer) is a retry. A prompt read through a wrapper of the
    file that only asks (`def obtain_input(text): return input(text)`) asks again like
    `input()` itself, as does an async prompt (`ainput`), also into an attribute that the
    handler clears so that the next pass asks (`if not self.phone: self.phone = await
    ainput(...)` … `except BadRequest: self.phone = None`), and a callback parameter
    (`value = code_callback()`) when every callable the file hands it, by its calls or as its
    default, asks a person (`lambda: getpass.getpass(...)`, a `def` returning `input(...)`,
    also handed on from the caller's own parameter); and so does any function given a question first (a literal text ending
    in `?`: `something("What server would you like to connect to?")`). Nor is a failover that moves to the next mirror on each failure
    (`if url := next(urls, None): continue`) and stops when none is left, or takes the next item off the list it
    loops on (`while urls: url = urls.pop(0)`) and puts nothing back, or keeps the ones it
    tried and stops at one tried already (`tried.add(url)`, `if url in tried: break`), or whose handler moves
    the cursor on (`while i < len(rows): row = rows[i]` … `except: i += 1; continue`) or
    derives anew, from its old value, what the call is passed (`modname, name =
    modname.rsplit(".", 1)` after `import_module(modname)` failed; not `client = None` to
    connect again) and pauses nowhere (after a pause, fewer hosts for the
    same request is a retry); nor a loop whose handler takes
    what to send next from the error it caught (a fresh page token from a 410's body) or drops
    what the error names (`ids.remove(failed_id(e))`, `del indices[indices.index(missing)]`); such a handler follows the answer, and
    another handler of the same `try` that waits before it goes round (`except MovedError as
    e: host = e.host` beside `except TryAgainError: time.sleep(0.05)`) still retries. A `while` whose condition is the failed
    status of the answer its body asks for again (`while response.status_code == 429:
    sleep(1); response = send()`, or `while "retry-after" in response.headers:`) is a retry
    on that status, and its condition is no limit (a count joined to it, `and tries < 5`,
    is). A loop that leaves once the call returns something
    (`if row is not None: return row`) or reports success (`if r["status"] == "ok"`, `if res ==
    "OK": break`, `if con.recv(2) == b"Ok": break`: a reply compared with a word of success, in
    a loop that pauses before it asks again; or goes round while it reports failure, `if "error"
    in res["result"]: sleep(1)` / `else: return ...`) is a retry; one that reads until a line says `OK`,
    with no pause, reads on.
    A failed status is read on a response (`r.status_code == 429`) and on the mapping a
    project's own fetch wrapper returns (`res = self.sf.fetch_url(url)` … `if res["code"] ==
    "429":`, the status kept as text or as a number), and on a name the status was unpacked
    into (`_, status_code = es.get(path)` … `if status_code == 200: break`); a name such as
    `exit_code` compared with 0 is no HTTP status.

    ## Why is this bad?
    Retries are extra traffic sent exactly when the dependency has least capacity. With a
    limit, a failure costs a bounded amount: 3 retries turn one request into at most 4. Without
    one, every caller that hits the outage stays in the loop until it ends, holding its thread,
    worker or connection, and the dependency has to recover under the full original load plus
    every retry still in flight. Callers upstream have long given up, so the work is wasted, and
    a worker pool stuck in such loops stops serving anything else.

    ## Example
    ```python
    import tenacity

    @tenacity.retry(wait=tenacity.wait_random_exponential(max=10))
    def publish(event):
        ...
    ```

    ## Use instead
    ```python
    import tenacity

    @tenacity.retry(
        wait=tenacity.wait_random_exponential(max=10),
        stop=tenacity.stop_after_attempt(4) | tenacity.stop_after_delay(30),
    )
    def publish(event):
        ...
    ```

    ## Fix safety
    **safe** (`add-bound`): the retry gets an attempt limit and nothing else changes: tenacity
    `stop=stop_after_attempt(N)` (added, or replacing `stop_never`), backoff `max_tries=N`,
    retrying `stop_max_attempt_number=N`, stamina `attempts=None` → `attempts=N`, celery
    `max_retries=None` → `max_retries=N - 1` (celery counts retries). N is 5 total attempts
    unless given (`--attempts` on LibCST's command line): above the runtime's default of 3,
    because code written to retry forever usually expects persistence, and low enough that a
    dependency that stays down sees at most 5 calls per operation. Left alone and listed:
    hand-written `while True` retry loops (a bound restructures their control flow; rewrite
    them with `resilint.runtime.retrying`), and stop conditions built elsewhere or combined.
    The same fix for both fix targets (`fix-target`): it uses the retry library the code
    already imports and adds no dependency; waits and what is retried stay as they were.
    **unsafe** (`migrate-to-runtime`, runtime target): simple tenacity and backoff decorators with a limit move
    to `resilint.runtime.retry`, as described under RES202's "Fix safety" (the loops it migrates
    are bounded `for ... in range(N)` loops, which this rule does not report).
    """

    code = "RES203"
    fixable = "safe"
    name = "unbounded-retry"
    precision = "medium"  # judges what bounds a hand-written loop
    message = "retry without an attempt or time limit"
    # loops, retries by recursion (also at once, from a handler or a bad status) and by re-queueing
    triggers = LIBRARY_TRIGGERS + ("while", "sleep", "apply_async", "except", "status")
    VALID = [
        # each failure writes a default into the settings the next pass validates: another input
        # each time, not the same call again (bazarr's configuration)
        """
        import logging
        from jsonschema import ValidationError

        def validate(client, settings):
            while True:
                try:
                    client.validate_all(settings)
                    break
                except ValidationError as e:
                    logging.warning("resetting %s", e.path[0])
                    settings[e.path[0]] = e.schema.get("default")
        """,
        # a failed page empties the page, which ends the loop as the last page does (atlassian's
        # weekly report)
        """
        import requests

        def fetch_all(session, url):
            found, step, done = [], 0, False
            while not done:
                try:
                    values = session.get(url, params={"start": step * 10}, timeout=5).json()["issues"]
                except ValueError:
                    values = []
                if values:
                    step += 1
                    found.extend(values)
                else:
                    done = True
            return found
        """,
        # a generator that hands out each work item it claims: a worker, which polls on after a
        # failed poll as after a claimed item (the Anthropic SDK's environment poller)
        """
        import random
        import time
        import httpx

        def iter_work(client, environment_id, drain=False):
            attempt = 0
            while True:
                try:
                    item = client.get(f"/v1/environments/{environment_id}/work/poll").json()
                except httpx.HTTPError:
                    attempt += 1
                    time.sleep(min(60.0, 2.0 ** attempt) + random.uniform(0, 1))
                    continue
                attempt = 0
                if item is None:
                    if drain:
                        return
                    time.sleep(random.uniform(1, 3))
                    continue
                yield item
        """,
        # each failure drops the index the error names and searches the rest (socorro's SuperSearch)
        """
        from elasticsearch import NotFoundError

        def search_all(search, indices):
            while True:
                try:
                    return list(search.execute())
                except NotFoundError as e:
                    missing = e.body["error"]["index"]
                    if missing not in indices:
                        raise
                    del indices[indices.index(missing)]
                    if not indices:
                        return []
                    search = search.index().index(*indices)
        """,
        # a consumer restarted around a method that lets no failure out: it logs and returns,
        # and re-raises only a cancellation (hummingbot's log server client)
        """
        import asyncio
        import logging
        import random
        import aiohttp

        class LogServerClient:
            def __init__(self):
                self.queue = asyncio.Queue()

            async def consume_queue(self, session):
                while True:
                    try:
                        item = await self.queue.get()
                        await session.post(item["url"], json=item, timeout=aiohttp.ClientTimeout(total=10))
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        logging.warning("could not send logs")
                        return

            async def request_loop(self):
                while True:
                    try:
                        async with aiohttp.ClientSession() as session:
                            await self.consume_queue(session)
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        logging.warning("logging task failed")
                        await asyncio.sleep(random.uniform(0, 5))
        """,
        # a worker relaying what it takes off a queue: a failed item is logged and dropped
        # (chia's address relay)
        """
        import asyncio
        import logging

        class Relay:
            def __init__(self, server):
                self.server = server
                self.is_closed = False
                self.queue = asyncio.Queue()

            async def address_relay(self):
                while not self.is_closed:
                    try:
                        try:
                            peer, count = await self.queue.get()
                        except asyncio.CancelledError:
                            return None
                        for connection in self.server.get_connections()[:count]:
                            await connection.send_message(("respond_peers", [peer]))
                    except Exception as e:
                        logging.error(e)
        """,
        # a free port of this machine, found by binding a socket ``closing`` wraps (chia's
        # simulator)
        """
        import socket
        from contextlib import closing

        def find_available_listen_port(recent_ports):
            while True:
                with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as s:
                    try:
                        s.bind(("", 0))
                        port = s.getsockname()[1]
                    except OSError:
                        continue
                if port in recent_ports:
                    continue
                recent_ports.add(port)
                return port
        """,
        # a periodic job that waits first, then probes a fresh sample of peers; its only way
        # out is a stop flag, so nothing leaves on success: no retry (chia's introducer)
        """
        import asyncio
        import logging

        class Introducer:
            def __init__(self, peers):
                self._shut_down = False
                self.peers = peers

            async def vetting_loop(self):
                while True:
                    if self._shut_down:
                        return None
                    try:
                        for _ in range(60):
                            if self._shut_down:
                                return None
                            await asyncio.sleep(1)
                        for peer in self.peers.get_peers(100):
                            reader, writer = await asyncio.wait_for(asyncio.open_connection(peer.host, peer.port), timeout=3)
                            writer.close()
                    except Exception as e:
                        logging.error(e)
        """,
        # a terminal relayed over an open channel: a read timeout is no data yet, what came is
        # decoded and written out (paramiko's interactive demo)
        """
        import select
        import socket
        import sys
        from paramiko.py3compat import u
        def posix_shell(chan):
            chan.settimeout(0.0)
            while True:
                r, w, e = select.select([chan, sys.stdin], [], [])
                if chan in r:
                    try:
                        x = u(chan.recv(1024))
                        if len(x) == 0:
                            break
                        sys.stdout.write(x)
                    except socket.timeout:
                        pass
                if sys.stdin in r:
                    x = sys.stdin.read(1)
                    if len(x) == 0:
                        break
                    chan.send(x)
        """,
        # the attempt parameter counted by an assignment, then tested (docker-py's NpipeSocket)
        """
        import time
        import requests
        MAXIMUM_RETRY_COUNT = 10
        class Pinger:
            def connect(self, address, retry_count=0):
                try:
                    return requests.get(address, timeout=(1, 5))
                except requests.ConnectionError as e:
                    retry_count = retry_count + 1
                    if retry_count < MAXIMUM_RETRY_COUNT:
                        time.sleep(1)
                        return self.connect(address, retry_count)
                    raise e
        """,
        # resumed after a signal only, told by a helper or by EINTR tested the other way round (pika)
        """
        import errno
        import select
        def _is_resumable(exc):
            return getattr(exc, "errno", None) == errno.EINTR
        def poll(fds):
            while True:
                try:
                    return select.select(fds, [], [], 1.0)
                except OSError as error:
                    if _is_resumable(error):
                        continue
                    raise
        def recv(sock, size):
            while True:
                try:
                    return sock.recv(size)
                except OSError as error:
                    if error.errno == errno.EINTR:
                        continue
                    raise
        """,
        # the code is asked of a callback the caller hands in: the file's own default asks a person
        """
        import requests
        class Client:
            def start(self, phone, code_callback=None):
                if code_callback is None:
                    def code_callback():
                        return input("Please enter the code you received: ")
                return self._start(phone, code_callback)

            def _start(self, phone, code_callback):
                while True:
                    value = code_callback()
                    try:
                        return requests.post("https://auth.example/sign_in", data={"code": value}, timeout=10)
                    except requests.HTTPError:
                        print("Invalid code. Please try again.")
        """,
        # the server's redirect, an error: the request goes to the data center it names
        """
        from pyro.errors import NetworkMigrate, PhoneMigrate
        class SendCode:
            async def send_code(self, phone_number):
                while True:
                    try:
                        return await self.invoke(("SendCode", phone_number))
                    except (PhoneMigrate, NetworkMigrate) as e:
                        await self.session.stop()
                        self.session = self.make_session(e.value)
                        await self.session.start()
        """,
        # an async prompt (``ainput``, aioconsole's or a project's ``input()`` in an executor),
        # asked again when the handler cleared the attribute it fills
        """
        from pyro.utils import ainput
        class Client:
            async def authorize(self):
                while True:
                    try:
                        if not self.phone_number:
                            self.phone_number = await ainput("Enter phone number: ")
                        return await self.send_code(self.phone_number)
                    except BadRequest as e:
                        print(e.MESSAGE)
                        self.phone_number = None
        """,
        # an optimistic lock's conflict goes round at once; the loop's other exits are no retry
        # of a lost call (dramatiq's redis rate limiter)
        """
        import redis
        def incr(client, key, amount, maximum):
            with client.pipeline() as pipe:
                while True:
                    try:
                        pipe.watch(key)
                        value = int(pipe.get(key) or b"0")
                        value += amount
                        if value > maximum:
                            return False
                        pipe.multi()
                        pipe.set(key, value)
                        pipe.execute()
                        return True
                    except redis.WatchError:
                        continue
        """,
        # each pass uses up one more operand of the stack the loop tests (Limnoria's RPN math)
        """
        from app.env import SAFE_ENV
        def apply(name, stack):
            f = SAFE_ENV[name]
            arguments = []
            called = False
            while not called and stack:
                arguments.append(stack.pop())
                try:
                    stack.append(f(*arguments))
                    called = True
                except TypeError:
                    pass
            return called
        """,
        # the deadline is read through a nested helper that returns what is left of it (wandb)
        """
        import time
        import requests
        def wait_for_health(url, timeout=30):
            start = time.monotonic()
            def time_remaining():
                return timeout - (time.monotonic() - start)
            while True:
                try:
                    if requests.get(url, timeout=max(1, time_remaining())).status_code == 200:
                        return
                except requests.ConnectionError:
                    pass
                if time_remaining() <= 0:
                    raise TimeoutError
                time.sleep(1)
        """,
        # a readiness probe of the Flask server the method starts in a thread (wandb's relay)
        """
        import threading
        import flask
        import requests
        class Relay:
            def __init__(self, port):
                self.port = port
                self.running = False
                self.app = flask.Flask(__name__)
            def start(self):
                threading.Thread(target=self.app.run, kwargs={"port": self.port}, daemon=True).start()
                while not self.running:
                    try:
                        requests.get(f"http://127.0.0.1:{self.port}/ping/", timeout=1)
                        self.running = True
                    except requests.ConnectionError:
                        continue
        """,
        # the branch that goes round tests the count, and what the pass runs after the ``try``
        # leaves (apprise)
        """
        import time
        import requests
        def send(url, payload, retry=3):
            while True:
                try:
                    r = requests.post(url, json=payload, timeout=10)
                    if r.status_code == 429 and retry > 1:
                        retry -= 1
                        time.sleep(5)
                        continue
                except requests.RequestException:
                    pass
                return r.ok
        """,
        # the handler waits, untimed, for this process's own event: the buffer a writer thread
        # fills (streamlink's filtered stream reader)
        """
        import threading
        from app.stream import StreamReader
        class FilteredReader(StreamReader):
            def __init__(self):
                super().__init__()
                self.filtering_done = threading.Event()
            def read(self, size):
                while True:
                    try:
                        return super().read(size)
                    except OSError:
                        self.filtering_done.wait()
                        if self.buffer.length > 0:
                            continue
                        raise
        """,
        # every pass tests the count before it reads the status, so the rate limit is counted too
        """
        import time, requests
        def fetch(url):
            attempts = 0
            while True:
                attempts += 1
                if attempts > 5:
                    raise RuntimeError("gave up")
                try:
                    response = requests.get(url, timeout=10)
                except requests.RequestException:
                    time.sleep(2)
                    continue
                if response.status_code == 429:
                    time.sleep(2)
                    continue
                return response
        """,
        # the helper that says whether to go round is handed the count: it may stop on it
        """
        import random
        import time
        import requests

        def should_retry(e, attempt):
            return attempt < 5 and isinstance(e, requests.ConnectionError)

        def download(url):
            attempt = 0
            while True:
                try:
                    return requests.get(url, timeout=10)
                except Exception as e:
                    attempt += 1
                    retry = should_retry(e, attempt)
                    if not retry:
                        raise
                    time.sleep(random.uniform(0, 30))
        """,
        # a value drawn until Django's validator accepts it: nothing leaves the process (shuup)
        """
        from django.core.validators import ValidationError, validate_email
        def random_email(fake):
            while True:
                email = fake.email()
                try:
                    validate_email(email)
                except ValidationError:
                    pass
                else:
                    break
            return email
        """,
        # the error refuses the input, and the handler renames what it names, in a loop of its
        # own, before trying the changed text again (PyMISP's YARA export)
        """
        import re, sys, yara
        def compile_rules(rules):
            while True:
                try:
                    return yara.compile(source=rules)
                except yara.SyntaxError as e:
                    if "duplicated identifier" in e.args[0]:
                        for item in re.findall('duplicated identifier "(.*)"', e.args[0]):
                            rules = rules.replace(f"rule {item}", f"rule duplicate_{item}", 1)
                        continue
                    else:
                        sys.exit(f"ERROR SyntaxError in rules: {e.args}")
        """,
        # a pytest fixture waiting for the metrics server the test run started on this machine
        """
        import httpx, pytest
        from app.services import start_client_metrics_server
        @pytest.fixture
        def metrics_server_url(unused_tcp_port):
            start_client_metrics_server(unused_tcp_port)
            url = f"http://localhost:{unused_tcp_port}/metrics"
            while True:
                try:
                    httpx.get(url, timeout=(1, 5))
                except httpx.ConnectError:
                    pass
                else:
                    break
            yield url
        """,
        # the next item of a queue a base class of another module makes, waited for in turns
        """
        import asyncio, logging
        from pkg.base import ReconnectingWebsocket
        class KeepAliveWebsocket(ReconnectingWebsocket):
            async def recv(self):
                res = None
                while not res:
                    try:
                        res = await asyncio.wait_for(self._queue.get(), timeout=self.TIMEOUT)
                    except asyncio.TimeoutError:
                        logging.debug("no message in %s seconds", self.TIMEOUT)
                return res
        """,
        # the next message of an open socket, handled in the ``try``'s ``else:``
        """
        import asyncio
        class DepthCache:
            async def recv(self):
                dc = None
                while not dc:
                    try:
                        res = await asyncio.wait_for(self._socket.recv(), timeout=60)
                    except asyncio.TimeoutError:
                        pass
                    else:
                        dc = await self._depth_event(res)
                return dc
            async def _depth_event(self, msg):
                return msg or None
        """,
        # a key of this terminal read again until one is pressed (curses)
        """
        import curses
        def wait_for_key():
            win = curses.initscr()
            win.nodelay(True)
            while 1:
                try:
                    return win.getkey().upper()
                except Exception:
                    pass
        """,
        # a prompt asked again until the answer passes a schema of this process (voluptuous)
        """
        import voluptuous as vol
        from esphome.util import safe_input, safe_print
        def ask_port(validate_port):
            while True:
                port = safe_input("(port): ")
                try:
                    return validate_port(port)
                except vol.Invalid as err:
                    safe_print(f"Invalid port: {err}")
        """,
        # the ``try`` counts before anything in it can fail: every failure is counted
        """
        import httpx
        async def run_job(client: httpx.AsyncClient, url, attempts_left=2):
            while attempts_left > 0:
                try:
                    attempts_left -= 1
                    return (await client.get(url, timeout=(3, 10))).json()
                except httpx.TransportError:
                    pass
        """,
        # accepting the connections that wait on the program's own listening socket
        """
        import errno, socket
        class Server:
            def __init__(self, port):
                self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                self.listener.setblocking(False)
                self.listener.bind(("0.0.0.0", port))
                self.listener.listen()
                self.count = 0
            def accept_all(self, limit):
                while self.count < limit:
                    try:
                        sock, addr = self.listener.accept()
                        sock.setblocking(False)
                    except OSError as error:
                        if error.errno == errno.EWOULDBLOCK:
                            break
                        continue
                    self.count += 1
        """,
        # a module imported by name, then its parent's: a new name each pass, no retry
        """
        from app.util import import_module
        def import_object(modname, objpath):
            module = None
            while module is None:
                try:
                    module = import_module(modname, try_reload=True)
                except ImportError:
                    if "." not in modname:
                        raise
                    modname, _, name = modname.rpartition(".")
                    objpath.insert(0, name)
            return module
        """,
        # dates turned into text and back: local work, whatever fails
        """
        import datetime, email.utils, time
        from wsgiref.handlers import format_date_time
        def stamps(first, second):
            i = 0
            found = {}
            while i <= 1:
                day = datetime.datetime.strptime(first if i == 0 else second, "%Y-%m-%d")
                before = day + datetime.timedelta(days=-1)
                try:
                    text = format_date_time(time.mktime(before.timetuple()))
                except OverflowError:
                    time.sleep(1)
                    continue
                found[i] = email.utils.parsedate_tz(text)
                i += 1
            return found
        """,
        # a start-up gate that waits until the resolver's answer carries the DNSSEC flag: a
        # polled state of the answer, read as a bit of its flags
        """
        import logging, time
        import dns.flags, dns.resolver
        def wait_for_dnssec(resolver):
            while True:
                try:
                    result = resolver.resolve("example.org", "A", lifetime=10)
                except Exception as exc:
                    logging.critical("resolver not working (%s)", exc)
                else:
                    if result.response.flags & dns.flags.AD:
                        break
                time.sleep(5)
        """,
        # a read loop: it reads until the peer's line says OK, it sends nothing again
        """
        def read_reply(sock):
            lines = []
            while True:
                line = sock.recv(1024)
                if line == b"OK":
                    break
                lines.append(line)
            return lines
        """,
        # a poll: it goes round only on a 204 (the search has no results yet); every failed
        # status raises
        """
        import time, requests
        def results(session, url, interval):
            ready = False
            while not ready:
                response = session.get(url, timeout=10)
                if response.status_code == 200:
                    ready = True
                elif response.status_code == 204:
                    time.sleep(interval)
                else:
                    response.raise_for_status()
            return response.json()
        """,
        # the error names the item that failed, which the next pass no longer sends
        """
        from botocore.exceptions import ClientError
        def start(client, ids):
            while ids:
                try:
                    client.start_instances(InstanceIds=ids)
                    break
                except ClientError as e:
                    if e.response["Error"]["Code"] != "IncorrectInstanceState":
                        raise
                    ids.remove(str(e).split("'")[1])
        """,
        # an expired page token: the error's answer carries the token to go on from
        """
        import json
        from kubernetes.client.rest import ApiException
        def templates(api, namespace):
            token = None
            while True:
                try:
                    params = {"limit": 100}
                    if token:
                        params["_continue"] = token
                    page = api.list_namespaced_custom_object("argoproj.io", "v1alpha1", namespace, "workflowtemplates", **params)
                    yield from page["items"]
                    token = page["metadata"].get("continue")
                    if not token:
                        break
                except ApiException as e:
                    body = json.loads(e.body) if e.body else {}
                    if e.status == 404:
                        return None
                    elif e.status == 410 and body.get("reason") == "Expired":
                        new_token = body.get("metadata", {}).get("continue")
                        if new_token:
                            token = new_token
                            continue
                    raise RuntimeError(body.get("message", e.reason))
        """,
        # it goes round only when a signal interrupts the wait for its own child (EINTR)
        """
        import errno
        from rq.worker import Worker

        class HardLimitingWorker(Worker):
            def monitor_work_horse(self, job, queue):
                while True:
                    try:
                        retpid, ret_val, rusage = self.wait_for_horse()
                        break
                    except OSError as e:
                        if e.errno != errno.EINTR:
                            raise
                        self.heartbeat()
        """,
        # it goes round only when a file of that name exists: the next pass tries another name
        """
        import errno
        from myproject.compat import os
        from myproject.compat import filesystem
        def unique_file(path, pattern, count=0):
            while True:
                current = os.path.join(path, pattern % count)
                try:
                    return filesystem.open(current, os.O_CREAT | os.O_EXCL | os.O_RDWR), current
                except OSError as err:
                    if err.errno != errno.EEXIST:
                        raise
                count += 1
        """,
        # the failure path turns the query's parsing off before it calls itself again: a
        # fallback that runs once
        """
        from elasticsearch import RequestError
        class Search:
            parse_query = True
            def run(self, search, key):
                try:
                    result = search.execute()
                except RequestError:
                    if self.parse_query:
                        self.parse_query = False
                        return self.run(search, key)
                    raise
                return result
        """,
        # the caught error is handed to another module's object, which raises it once its
        # deadline has passed: the bound is there, not in this loop
        """
        from app.utils import Retry
        class InvalidAuthToken(Exception):
            pass
        def handle_auth_errors(client, func, retry: Retry):
            while True:
                try:
                    return func(retry=retry)
                except InvalidAuthToken as e:
                    client.authenticate()
                    retry.ensure_deadline(0.5, e)
        """,
        # a task queued again with no count, after a lock conflict: rescheduled work, no retry layer
        """
        import random, requests
        from celery import shared_task
        from myproject.errors import ConcurrentUpdateError
        @shared_task
        def create_alert(pk, data):
            try:
                requests.post("https://example.com/alerts", json=data, timeout=10)
            except ConcurrentUpdateError:
                create_alert.apply_async((pk, data), countdown=random.randint(1, 10))
        """,
        # the flag is set on the call again, and the branch that calls again runs while it is unset
        """
        import time

        import requests


        class Provider:
            def checked(self, fn, is_retry=False):
                response = None
                try:
                    try:
                        response = fn()
                    except requests.ConnectionError:
                        raise RuntimeError("unavailable")
                    else:
                        status_code = response.status_code
                except Exception:
                    status_code = None
                else:
                    if status_code == 401:
                        self.reset_token()
                        if is_retry:
                            raise RuntimeError("Login failed")
                        else:
                            time.sleep(1)
                            self.login(is_retry=True)
                            self.checked(fn, is_retry=True)
                return response
        """,
        # a local listener started again after an error: a server restarting, not a retry
        """
        import socket, time
        class Proxy:
            def serve(self):
                try:
                    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as dock:
                        dock.bind((self.ip, self.port))
                        dock.listen()
                        while True:
                            client, _ = dock.accept()
                            backend = socket.create_connection(self.backend, timeout=5)
                            self.forward(client, backend)
                except socket.error:
                    time.sleep(240)
                    return self.serve()
        """,
        # the uncounted pass is taken once: the branch sets the flag it tests
        """
        import httpx
        async def call(client, url, retries=2):
            reconnected = False
            while retries >= 0:
                try:
                    return await client.get(url)
                except httpx.RemoteProtocolError:
                    if not reconnected:
                        reconnected = True
                        continue
                    if retries <= 0:
                        raise
                retries -= 1
        """,
        # SQLite's "database is locked": another writer of this machine's file
        """
        from contextlib import contextmanager
        from sqlite3 import OperationalError
        from django.db import transaction
        @contextmanager
        def db_lock():
            while True:
                try:
                    with transaction.atomic():
                        yield
                    break
                except OperationalError as e:
                    if "database is locked" not in str(e):
                        raise
        """,
        # a new random boundary drawn when the last one occurs in the data: local work only
        """
        import random
        def _encode(data, boundary):
            out = b""
            for key, value in data.items():
                if boundary.encode() in value:
                    raise ValueError("boundary occurs in the data")
                out += b"--" + boundary.encode() + b"\\r\\n" + value
            return out
        def multipart(data):
            while True:
                boundary = "----" + str(random.randrange(0x0FFFFFFF, 0xFFFFFFFF))
                try:
                    return _encode(data, boundary)
                except ValueError:
                    pass
        """,
        # the decorated task only sleeps: the retry repeats no call out
        """
        import time, backoff
        @backoff.on_exception(backoff.expo, BaseException)
        def stubborn_task(interval):
            time.sleep(interval)
        """,
        # each pass asks a person again, through a helper of another module given the question
        """
        import socket
        from app.questions import something
        def configure():
            ip = None
            while not ip:
                server = something("What server would you like to connect to?")
                try:
                    ip = socket.gethostbyname(server)
                except OSError:
                    print("Sorry, I couldn't find that server.")
            return ip
        """,
        # the exit is decided by a method that catches the error its backoff object raises once
        # the total wait is spent
        """
        from backoff_engine import BackoffEngine, BackoffTimeoutExceededError
        class Worker:
            def __init__(self):
                self.backoff = BackoffEngine(max_wait_seconds=3600)
            def _gave_up(self):
                try:
                    self.backoff.wait_on_failure()
                except BackoffTimeoutExceededError:
                    return True
                return False
            def connect(self, open_connection):
                while True:
                    try:
                        return open_connection()
                    except Exception:
                        if self._gave_up():
                            raise
        """,
        # the store turns a unique-key conflict into its own error; the loop takes the next name
        """
        from store import SlugExistsError, add_row
        def add_log(table, name):
            slug = name
            while True:
                try:
                    return add_row(table, slug)
                except SlugExistsError:
                    slug = slug + "_"
        """,
        # a child process given a few seconds to end, then killed: waiting on this machine
        """
        import subprocess
        class Runner:
            def stop(self, process, **wait_args):
                while True:
                    try:
                        return process.wait(**wait_args)
                    except subprocess.TimeoutExpired:
                        process.kill()
        """,
        # a unique name drawn until a directory of that name can be made: local work, and each
        # pass tries another name
        """
        import os, secrets, string
        def make_log_dir(parent, stamp):
            created = False
            name = stamp
            while not created:
                try:
                    name += "".join(secrets.choice(string.digits) for _ in range(2))
                    path = os.path.join(parent, name)
                    if not os.path.exists(path):
                        os.makedirs(path, 0o700)
                        created = True
                except OSError as error:
                    if error.errno != 17:
                        raise
            return path
        """,
        # a dependency graph sorted again without the cycle: nothing leaves the process
        """
        from graphlib import CycleError, TopologicalSorter
        def activation_order(graph):
            while True:
                sorter = TopologicalSorter(graph)
                try:
                    return list(sorter.static_order())
                except CycleError as error:
                    for name in error.args[1]:
                        graph.pop(name, None)
        """,
        # a prompt: each pass waits for a person's answer
        """
        import requests
        def choose(items):
            while True:
                try:
                    index = int(input("Which one? "))
                    if index == 0:
                        return None
                    if 1 <= index <= len(items):
                        return items[index - 1]
                    requests.post(LOG_URL, json={"event": "bad choice"}, timeout=TIMEOUT)
                except ValueError:
                    requests.post(LOG_URL, json={"event": "not a number"}, timeout=TIMEOUT)
        """,
        # a future this process submitted, not done yet: nothing is sent again
        """
        from concurrent import futures
        def wait_result(future, writer):
            while not writer.closed:
                try:
                    return writer.handle(future.result(timeout=0.5))
                except futures.TimeoutError:
                    continue
        """,
        # a non-blocking socket with no data yet
        """
        import ssl
        class SocketLost(Exception):
            pass
        def read(sock, readable):
            while True:
                try:
                    data = sock.recv(4096)
                    if data == b"":
                        raise SocketLost("connection lost during read")
                    return data
                except (ssl.SSLWantReadError, BlockingIOError):
                    if not readable(sock):
                        return b""
        """,
        # the count passed on is tested where the function starts
        """
        import time, requests
        def get_info(url, attempt=None):
            if attempt is None:
                attempt = 1
            elif attempt > 4:
                return None
            try:
                return requests.get(url, timeout=TIMEOUT).json()
            except requests.ConnectionError:
                time.sleep(10)
                attempt += 1
                return get_info(url, attempt)
        """,
        # waiting for a connection on a socket the function serves on: nothing is sent again
        """
        import socket
        def receive_callback(host, port):
            server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            server.bind((host, port))
            server.listen(1)
            server.settimeout(1.0)
            while True:
                try:
                    client = server.accept()[0]
                    break
                except socket.timeout:
                    pass
            return client.recv(1024)
        """,
        # a test's poll bounded by an ``assert`` on the clock, which fails once the time is up
        """
        import time, requests
        def test_backend_starts():
            deadline = time.monotonic() + 10
            while True:
                assert time.monotonic() < deadline, "the API did not answer in time"
                try:
                    response = requests.get("http://127.0.0.1:4242/info", timeout=TIMEOUT)
                except requests.RequestException:
                    time.sleep(0.1)
                    continue
                if response.status_code == 200:
                    break
                time.sleep(0.1)
        """,
        # the server says the range is too large: each pass asks for half as much, and the
        # handler gives up once the step is small
        """
        import requests
        class RemoteError(Exception): ...
        def query_logs(indexer, start_block, until_block):
            blocks_step = 300000
            while True:
                end_block = min(start_block + blocks_step, until_block)
                try:
                    return indexer.get_logs(start_block, end_block)
                except RemoteError as e:
                    if "Please select a smaller result dataset" in str(e):
                        blocks_step //= 2
                        if blocks_step < 100:
                            raise
                        continue
                    raise
        """,
        # following redirects by hand: each pass requests another URL
        """
        import requests
        def ping(url):
            done = False
            while not done:
                response = requests.get(url, timeout=TIMEOUT, allow_redirects=False)
                if response.status_code in (301, 302):
                    url = response.headers.get("Location")
                else:
                    done = True
            return response
        """,
        # the deadline check ends the process
        """
        import sys, time, requests
        def wait_for_api(url, wait_for):
            start = time.monotonic()
            while True:
                if time.monotonic() - start > wait_for:
                    sys.exit("the API did not answer in time")
                try:
                    return requests.get(url, timeout=5)
                except requests.ConnectionError:
                    time.sleep(0.25)
        """,
        # the handler calls a function that always raises: the first failure ends the loop
        """
        import frappe, requests
        def sync_contacts(url):
            page = {}
            while True:
                try:
                    page = requests.get(url, params={"token": page.get("next")}, timeout=5).json()
                except requests.RequestException as err:
                    frappe.throw(f"Could not sync contacts: {err}")
                if not page.get("next"):
                    return page
        """,
        # the delays run out: at most one attempt more than there are delays
        """
        import time, requests
        def fetch(url):
            delays = [1, 3, 6]
            while True:
                try:
                    return requests.get(url, timeout=5)
                except requests.ConnectionError:
                    if not delays:
                        raise
                    time.sleep(delays[0])
                    delays = delays[1:]
        """,
        """
        import tenacity
        @tenacity.retry(stop=tenacity.stop_after_attempt(3))
        def f(): ...
        """,
        """
        from tenacity import retry, stop_after_delay, stop_never
        @retry(stop=stop_never | stop_after_delay(30))
        def f(): ...
        """,
        """
        import tenacity
        def make(**options):
            return tenacity.retry(**options)
        """,
        """
        import backoff
        @backoff.on_exception(backoff.expo, OSError, max_time=60)
        def f(): ...
        """,
        """
        import stamina
        @stamina.retry(on=OSError)
        def f(): ...
        """,
        # while True bounded by a counter
        """
        import time, requests
        def f():
            attempt = 0
            while True:
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    attempt += 1
                    if attempt >= 5:
                        raise
                    time.sleep(1)
        """,
        # while True bounded by a deadline
        """
        import time, requests
        def f():
            deadline = time.monotonic() + 30
            while True:
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(1)
        """,
        # a while condition on a counter
        """
        import requests
        def f():
            tries = 0
            while tries < 3:
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    tries += 1
        """,
        # a worker loop: success does not leave, so it is not a retry loop
        """
        import logging
        def serve(queue):
            while True:
                try:
                    handle(queue.get())
                except Exception:
                    logging.exception("failed")
        """,
        # input validation: only builtins in the try
        """
        def ask():
            while True:
                try:
                    return int(input("n? "))
                except ValueError:
                    print("again")
        """,
        # celery: the default max_retries is 3
        """
        from celery import shared_task
        @shared_task(autoretry_for=(OSError,), retry_backoff=True)
        def f(): ...
        """,
        QUEUE_WORKER,
        ASK_AGAIN,
        ASK_THROUGH_WRAPPER,
        WATCH_JOB,
        WATCH_VALUE,
        # bounded by the deadline scope around it
        """
        import anyio, httpx, random
        async def fetch(client):
            with anyio.move_on_after(20):
                while True:
                    try:
                        return await client.get("https://a.example")
                    except httpx.TransportError:
                        await anyio.sleep(random.random())
        """,
        """
        import random, time, requests
        from resilint.runtime import deadline, timeout
        def fetch():
            with deadline(20):
                while True:
                    try:
                        return requests.get("https://a.example", timeout=timeout(connect=0.5, read=2))
                    except requests.ConnectionError:
                        time.sleep(random.random())
        """,
        # the flag is set on the failure path too: one retry at most
        """
        import random, time
        def wait_for_db(db):
            retried = False
            while not retried:
                try:
                    return db.execute("SELECT 1")
                except OSError:
                    time.sleep(random.random())
                retried = True
        """,
        # a table still referenced fails with an IntegrityError and waits its turn; a database
        # that is down raises OperationalError, which leaves the loop
        """
        from psycopg2 import IntegrityError
        def clear_tables(db, tables):
            while tables:
                table = tables.pop()
                try:
                    db.run("DELETE FROM %s" % table)
                except IntegrityError:
                    tables.insert(0, table)
        """,
        # a websocket's read loop: a receive timeout is silence, answered by a keep-alive ping
        """
        import aiohttp
        async def listen(session: aiohttp.ClientSession, url, handle):
            client = await session.ws_connect(url)
            while not client.closed:
                try:
                    message = await client.receive(55)
                except TimeoutError:
                    await client.ping()
                    continue
                handle(message)
        """,
        # a TLS handshake between two in-memory connections: WantReadError asks for the peer's bytes
        """
        from OpenSSL import SSL
        def pump(client: SSL.Connection, server: SSL.Connection):
            while True:
                try:
                    client.do_handshake()
                except SSL.WantReadError:
                    server.bio_write(client.bio_read(2 ** 16))
                else:
                    break
        """,
        # a name conflict, told by the error's text: the next free name; anything else leaves
        """
        import docker
        def create(client: docker.DockerClient, name):
            index, container, original = 0, None, name
            while not container:
                try:
                    container = client.containers.create(name=name)
                except docker.errors.APIError as exc:
                    if "Conflict" in str(exc):
                        index += 1
                        name = f"{original}-{index}"
                    else:
                        raise
            return container
        """,
        # one reconnect: the handler sets what it tests, so a second failure raises
        """
        import smtplib
        def send(server, host, message):
            reconnected = None
            while True:
                try:
                    server.sendmail("a@example.com", ["b@example.com"], message)
                    break
                except smtplib.SMTPServerDisconnected as exc:
                    if not reconnected:
                        server = smtplib.SMTP(host, 25, timeout=10)
                        reconnected = exc
                    else:
                        raise
        """,
        # a worker that waits for the next item of an in-process queue; a failed send leaves
        """
        import asyncio
        async def serve(websocket, queue: asyncio.Queue):
            while True:
                try:
                    item = await asyncio.wait_for(queue.get(), timeout=1)
                except asyncio.TimeoutError:
                    continue
                try:
                    await websocket.send_json(item)
                except ConnectionError:
                    return
        """,
        # a generated name that is taken: the next one
        """
        from django.core.exceptions import ValidationError
        from app.models import Host
        def make_host():
            saved, index = False, 1
            while not saved:
                try:
                    host = Host(name=f"host-{index}")
                    host.validate_unique()
                    host.save()
                    saved = True
                except ValidationError:
                    index += 1
        """,
    ]
    INVALID = [
        # a switch of the class (`if not cls.RETRY_ON_TIMEOUT: raise`) leaves on every timeout or
        # on none: while it is on, timeouts go round forever (synapse's replication client)
        Invalid(
            """
            import random
            import time
            import requests

            class Endpoint:
                RETRY_ON_TIMEOUT = True
                RETRY_ON_CONNECT_ERROR_ATTEMPTS = 5

                @classmethod
                def send(cls, session, url):
                    attempts = 0
                    while True:
                        try:
                            return session.get(url, timeout=(3, 30))
                        except requests.Timeout:
                            if not cls.RETRY_ON_TIMEOUT:
                                raise
                            time.sleep(random.uniform(0, 1))
                        except requests.ConnectionError:
                            if attempts > cls.RETRY_ON_CONNECT_ERROR_ATTEMPTS:
                                raise
                            time.sleep(random.uniform(0, 2 ** attempts))
                            attempts += 1
            """,
            line=12,
            message="`except requests.Timeout` goes round with no attempt counter or deadline",
        ),
        # the flag is cleared only after a 200: a server that stays down is asked forever
        # (socorro's reprocess script)
        Invalid(
            """
            import random
            import time
            import requests

            def reprocess(session, url, group):
                keep_trying = True
                while keep_trying:
                    try:
                        resp = session.post(url, data={"crash_ids": group}, timeout=30)
                    except (requests.ConnectionError, requests.ReadTimeout):
                        time.sleep(random.uniform(5, 15))
                        continue
                    if resp.status_code == 200:
                        keep_trying = False
            """,
            line=7,
            message="this `while keep_trying` retry loop has no attempt counter or deadline",
        ),
        # the only way out on a failure is a switch of the configuration: while it is on, a
        # broker that stays down is retried forever (hummingbot's MQTT bridge)
        Invalid(
            """
            import asyncio
            from app.mqtt import Gateway

            class MQTTCommand:
                async def start_mqtt(self):
                    while True:
                        try:
                            self._mqtt = Gateway(self)
                            self._mqtt.start()
                            break
                        except Exception:
                            if self.config.mqtt_bridge.mqtt_autostart:
                                await asyncio.sleep(10)
                            else:
                                break
            """,
            line=6,
            message="`while True` retry loop",
        ),
        Invalid(
            # ``no_ssl=True`` on the way back in, tested nowhere: once it is True the call
            # repeats itself unchanged (trafilatura's SSL fallback)
            """
            import logging
            import urllib3
            def send(url, no_ssl, pool_for):
                try:
                    return pool_for(no_ssl).request("GET", url, preload_content=False).read()
                except urllib3.exceptions.SSLError:
                    logging.warning("retrying after SSLError: %s", url)
                    return send(url, True, pool_for)
            """,
            line=8,
            message="`send` calls itself again after a failure with no attempt counter or limit",
        ),
        Invalid(
            # the answer's name reset before each attempt is no input the pass prepares
            """
            import requests
            def fetch(url, timeout):
                while True:
                    data = None
                    try:
                        data = requests.get(url, timeout=timeout).json()
                    except requests.RequestException:
                        pass
                    if data is not None:
                        return data
            """,
            line=3,
            message="`while True` retry loop has no attempt counter or deadline",
        ),
        Invalid(
            # ``retry_count + 1`` throws the sum away: the condition never changes (bazarr's
            # Jimaku provider)
            """
            import time
            import requests
            def jimaku_request(session, url, limit=3):
                retry_count = 0
                while retry_count < limit:
                    response = session.get(url, timeout=10)
                    if response.status_code == 429:
                        retry_count + 1
                        time.sleep(5)
                        continue
                    response.raise_for_status()
                    return response.json()
            """,
            line=5,
            message="never changes `retry_count`",
        ),
        Invalid(
            # it waits for the connection to say it started, which its own ``start()`` sets
            # (bazarr's SignalR client)
            """
            import time
            from requests.exceptions import ConnectionError
            from signalr import Connection
            def listen(session):
                connection = Connection("http://sonarr:8989/signalr", session)
                while not connection.started:
                    try:
                        connection.start()
                    except ConnectionError:
                        time.sleep(5)
            """,
            line=6,
            message="`while not connection.started` retry loop has no attempt counter or deadline",
        ),
        # the callback reads a token, it asks nobody: the same request goes round
        Invalid(
            """
            import os
            import requests
            def sign_in(url, token=lambda: os.environ["TOKEN"]):
                while True:
                    value = token()
                    try:
                        return requests.post(url, data={"token": value}, timeout=10)
                    except requests.ConnectionError:
                        print("retrying")
            """,
            line=4,
        ),
        Invalid(
            # the helper's test of the wait holds forever, since the wait is capped at that very
            # maximum (gspread's ``BackOffHTTPClient.request``)
            """
            import time, requests
            class Client:
                MAX_BACKOFF = 128
                backoffs = 0
                def request(self, url):
                    def should_retry(code, wait):
                        return code >= 500 and wait <= self.MAX_BACKOFF
                    try:
                        return requests.get(url, timeout=10)
                    except requests.HTTPError as err:
                        self.backoffs += 1
                        wait = min(2 ** self.backoffs, self.MAX_BACKOFF)
                        if should_retry(err.response.status_code, wait):
                            time.sleep(wait)
                            return self.request(url)
                        raise
            """,
            line=15,
        ),
        Invalid(
            # the 5xx answers are counted; a timeout of a long poll goes straight round (zulip)
            """
            import time
            import requests
            def query(session, url, longpolling, failures=0):
                while True:
                    try:
                        res = session.get(url, timeout=90)
                        if res.status_code >= 500 and failures < 10:
                            failures += 1
                            time.sleep(1)
                            continue
                    except requests.Timeout:
                        if longpolling:
                            continue
                        raise
                    return res.json()
            """,
            line=4,
            message="`except requests.Timeout` goes round with no attempt counter or deadline",
        ),
        Invalid(
            # the flag the loop waits for is set by unpacking what the call returns (streamlink)
            """
            import requests
            def open_stream(url):
                response = requests.get(url, timeout=10, stream=True)
                return response.raw, response.headers.get("content-length")
            def play(url):
                stream = None
                while not stream:
                    try:
                        stream, size = open_stream(url)
                    except requests.RequestException:
                        continue
                return stream
            """,
            line=7,
            message="has no attempt counter or deadline",
        ),
        Invalid(
            # the network errors are counted, the rate limit is waited out forever (pdpyras's
            # ``PDSession.request``)
            """
            import time, requests
            def fetch(url):
                attempts = 0
                while True:
                    try:
                        response = requests.get(url, timeout=10)
                    except requests.RequestException:
                        attempts += 1
                        if attempts > 3:
                            raise
                        time.sleep(2)
                        continue
                    if response.status_code == 429:
                        time.sleep(2)
                        continue
                    return response
            """,
            line=4,
            message="when `response.status_code == 429` it goes round with no attempt counter or deadline",
        ),
        Invalid(
            # statuses tested with ``or`` are a failure check, not a polled state (matrix-nio's
            # AsyncClient._send)
            """
            import asyncio
            from aiohttp import ClientConnectionError
            async def fetch(session, url):
                while True:
                    try:
                        r = await session.get(url, timeout=5)
                        if r.status == 429 or r.status == 503:
                            await asyncio.sleep(5)
                        else:
                            break
                    except ClientConnectionError:
                        await asyncio.sleep(1)
                return r
            """,
            line=4,
        ),
        Invalid(
            # a switch that says whether to wait out a rate limit is no attempt limit
            # (webexteamssdk's ``wait_on_rate_limit``)
            """
            import time, requests
            class RestSession:
                def __init__(self, wait_on_rate_limit=True):
                    self.wait_on_rate_limit = wait_on_rate_limit
                    self.session = requests.Session()
                def request(self, method, url):
                    while True:
                        try:
                            response = self.session.request(method, url, timeout=(3, 15))
                            response.raise_for_status()
                        except requests.HTTPError:
                            if self.wait_on_rate_limit:
                                time.sleep(15)
                                continue
                            else:
                                raise
                        else:
                            return response
            """,
            line=7,
            message="no attempt counter or deadline",
        ),
        Invalid(
            # an attempt limit that defaults to infinity
            """
            import random, time, redis
            class Backend:
                def __init__(self, conf):
                    self.max_retries = conf.get("result_backend_max_retries", float("inf"))
                def ensure(self, func):
                    retries = 0
                    while True:
                        try:
                            return func()
                        except redis.ConnectionError:
                            if retries < self.max_retries:
                                retries += 1
                                time.sleep(random.uniform(0, 2 ** retries))
                            else:
                                raise
            """,
            line=7,
            message="compares with infinity",
        ),
        Invalid(
            """
            import math, random, time, requests
            MAX_TRIES = math.inf
            def fetch(url):
                tries = 0
                while tries < MAX_TRIES:
                    try:
                        return requests.get(url, timeout=(3, 10))
                    except requests.ConnectionError:
                        tries += 1
                        time.sleep(random.uniform(0, 1))
            """,
            line=5,
            message="compares with infinity",
        ),
        # the counter counts failed statuses only: a connection error goes round uncounted
        Invalid(
            """
            import time, requests
            def stream(session, url, handle, max_retries):
                errors = 0
                while errors <= max_retries:
                    try:
                        with session.get(url, timeout=(3, 90), stream=True) as resp:
                            if resp.status_code == 200:
                                errors = 0
                                for line in resp.iter_lines():
                                    handle(line)
                            else:
                                errors += 1
                                time.sleep(5)
                    except requests.ConnectionError:
                        time.sleep(1)
            """,
            line=4,
            message="does not count `errors` when it catches `requests.ConnectionError`",
        ),
        # a fresh connection for the same task: a retry, whatever the argument is called
        Invalid(
            """
            def process(task, connect, send):
                client = None
                while True:
                    try:
                        if client is None:
                            client = connect()
                        return send(task, client)
                    except ConnectionError:
                        client = None
            """,
            line=3,
        ),
        # fewer hosts each pass, after a pause: the same request tried again, a retry
        Invalid(
            """
            import time
            class ConnectionFailed(Exception):
                pass
            def api_execute(send, machines, path):
                while True:
                    try:
                        return send(machines, path)
                    except ConnectionFailed:
                        machines = machines[1:] or machines
                        time.sleep(2)
            """,
            line=5,
        ),
        # the flag compared with `False`, as `while not sent` reads it
        Invalid(
            """
            import time, requests
            def upload(session, url, data):
                sent = False
                while sent == False:
                    try:
                        session.put(url, data=data, timeout=(3, 30))
                        sent = True
                    except requests.ConnectionError:
                        time.sleep(5)
            """,
            line=4,
        ),
        Invalid(
            # the request's own timeout in the exit test bounds the request, not the loop
            """
            import time, requests
            def wait_for_admin(url, timeout):
                while True:
                    time.sleep(1)
                    try:
                        if requests.get(url, timeout=timeout).ok:
                            break
                    except requests.RequestException:
                        pass
            """,
            line=3,
        ),
        Invalid(
            # the message is sent again until the peer acknowledges it, with no limit
            """
            import socket, struct, time
            def send(con, data):
                while True:
                    con.sendall(struct.pack(">I", len(data)) + data)
                    if con.recv(2) == b"Ok":
                        break
                    time.sleep(1)
            """,
            line=3,
        ),
        Invalid(
            # the error goes into a message (``str.format``), which ends nothing
            """
            import logging, time, redis
            logger = logging.getLogger(__name__)
            def resubscribe(client, channel):
                times = 0
                while True:
                    try:
                        client.pubsub().subscribe(channel)
                        break
                    except redis.ConnectionError as e:
                        logger.error("retry #{} {}: {}".format(times, channel, e))
                        times += 1
                        time.sleep(times * 2)
            """,
            line=5,
        ),
        Invalid(
            # a refused request sent again at once with the same arguments: forever, no pause
            """
            import requests
            DEFAULT_KEY = "app-key"
            class Notifier:
                def send(self, msg, user_key=None, api_key=None):
                    if api_key is None:
                        api_key = DEFAULT_KEY  # filled in once; the call again passes the same
                    resp = requests.post("https://api.example/messages", data={"m": msg, "t": api_key}, timeout=10)
                    if resp.status_code == 200:
                        return True
                    elif resp.status_code == 401:
                        return self.send(msg, user_key=user_key, api_key=api_key)
                    return False
            """,
            line=11,
            message="calls itself again after a failure",
        ),
        Invalid(
            # the caught error goes to a function of the file that only records it
            """
            import time, requests
            failures = []
            def note(error):
                failures.append(error)
            def fetch(url):
                while True:
                    try:
                        return requests.get(url, timeout=5)
                    except requests.ConnectionError as e:
                        note(e)
                        time.sleep(2)
            """,
            line=6,
            message="`while True` retry loop",
        ),
        Invalid(
            # a reconnect loop around another module's client, read as a streamed response
            """
            import asyncio, httpx
            from feed.http import get_client
            async def follow(handle, url):
                while True:
                    try:
                        async with get_client().stream("GET", url) as r:
                            async for line in r.aiter_lines():
                                await handle(line)
                    except httpx.HTTPError:
                        await asyncio.sleep(5)
            """,
            line=4,
            message="`while True` retry loop",
        ),
        Invalid(
            # unbounded wherever DEBUG is off: in production
            """
            from celery import shared_task
            from django.conf import settings
            @shared_task(autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=1 if settings.DEBUG else None)
            def ingest(alert): ...
            """,
            line=3,
            message="is None on one branch",
        ),
        Invalid(
            # a 404 goes round before the counter is counted: forever, with no pause
            """
            import time, requests
            def lookup(url):
                retry = 0
                while retry < 3:
                    r = requests.get(url, timeout=5)
                    if r.status_code == 200:
                        return r.json()
                    if r.status_code == 404:
                        continue
                    time.sleep(2)
                    retry += 1
            """,
            line=4,
            message="has a `continue` before `retry` is counted",
        ),
        Invalid(
            # the error is raised on a partial answer (items a throttled table left unwritten):
            # a table that stays throttled is written to forever
            """
            from tenacity import AsyncRetrying, retry_if_exception_type, wait_exponential
            class UnprocessedItems(Exception):
                pass
            async def write_all(client, table, items):
                retries = AsyncRetrying(retry=retry_if_exception_type(UnprocessedItems), wait=wait_exponential(max=4))
                async for attempt in retries:
                    with attempt:
                        response = await client.batch_write_item(RequestItems={table: items})
                        items = response["UnprocessedItems"].get(table, [])
                        if items:
                            raise UnprocessedItems()
            """,
            line=5,
        ),
        Invalid(
            # the counter bounds connect errors only: a request that keeps timing out goes round
            # forever
            """
            import asyncio
            async def send(client, uri, data):
                attempts = 0
                while True:
                    try:
                        return await client.post_json(uri, data)
                    except TimeoutError:
                        await asyncio.sleep(1)
                    except ConnectionError:
                        if attempts > 5:
                            raise
                        await asyncio.sleep(2 ** attempts)
                        attempts += 1
            """,
            line=4,
            message="`except TimeoutError` goes round with no attempt counter or deadline",
        ),
        Invalid(
            # the method that decides the exit reads only the kind of error: the others go round
            # forever
            """
            import time
            class Worker:
                def _fatal(self, error):
                    return isinstance(error, KeyError)
                def connect(self, open_connection):
                    while True:
                        try:
                            return open_connection()
                        except Exception as error:
                            if self._fatal(error):
                                raise
                            time.sleep(5)
            """,
            line=6,
        ),
        Invalid(
            # the same save again after a conflict: a retry, which a lasting conflict never ends
            """
            import time
            from django.db import IntegrityError
            def save(docket):
                while True:
                    try:
                        docket.save()
                        break
                    except IntegrityError:
                        time.sleep(1)
            """,
            line=4,
        ),
        Invalid(
            # a closed websocket is a failure: the reconnect after it retries forever
            """
            import asyncio
            import websockets
            async def next_message(url):
                ws = await websockets.connect(url)
                while True:
                    try:
                        return await ws.recv()
                    except websockets.ConnectionClosed:
                        await asyncio.sleep(5)
                        ws = await websockets.connect(url)
            """,
            line=5,
        ),
        Invalid(
            # the "wrapper" of input() also calls a service: a failure of that call is retried
            """
            import requests
            from models import InvalidName, check_name
            def obtain_input(text):
                requests.get("https://audit.example/prompted", timeout=3)
                return input(text)
            def get_username():
                while True:
                    username = obtain_input("Username: ")
                    try:
                        check_name(username)
                    except InvalidName:
                        print("invalid")
                    else:
                        return username
            """,
            line=7,
        ),
        Invalid(
            """
            import tenacity
            @tenacity.retry(wait=tenacity.wait_random(0, 2))
            def f(): ...
            """,
            line=2,
            message="tenacity never stops retrying unless given `stop=`",
        ),
        Invalid(
            """
            from tenacity import Retrying, stop_never, wait_random
            def f():
                for attempt in Retrying(stop=stop_never, wait=wait_random(0, 1)):
                    with attempt:
                        call()
            """,
            line=3,
            message="never stops",
        ),
        Invalid(
            """
            import backoff
            @backoff.on_exception(backoff.expo, OSError)
            def f(): ...
            """,
            message="`max_tries` or `max_time`",
        ),
        Invalid(
            """
            import time, requests
            def f():
                while True:
                    try:
                        return requests.get("https://a.example", timeout=3)
                    except requests.ConnectionError:
                        time.sleep(1)
            """,
            line=3,
            message="no attempt counter or deadline",
        ),
        Invalid(
            """
            import random, time, requests
            def f():
                done = False
                while not done:
                    try:
                        requests.post("https://a.example", timeout=3)
                        done = True
                    except requests.RequestException:
                        time.sleep(random.random())
            """,
            line=4,
        ),
        Invalid(
            """
            import time, requests
            def f():
                while True:
                    r = requests.get("https://a.example", timeout=3)
                    if r.ok:
                        return r
                    time.sleep(1)
            """,
            line=3,
        ),
        Invalid(
            """
            from celery import shared_task
            @shared_task(bind=True, max_retries=None)
            def f(self):
                try:
                    push()
                except OSError as exc:
                    raise self.retry(exc=exc)
            """,
            line=2,
            message="`max_retries=None`",
        ),
        Invalid(
            """
            import stamina
            @stamina.retry(on=OSError, attempts=None, timeout=None)
            def f(): ...
            """,
        ),
        Invalid(
            """
            import retrying
            @retrying.retry(wait_random_min=100, wait_random_max=2000)
            def f(): ...
            """,
            message="stop_max_attempt_number",
        ),
        Invalid(
            """
            import asyncio, httpx, random
            async def fetch(client):
                async with asyncio.timeout(None):
                    while True:
                        try:
                            return await client.get("https://a.example")
                        except httpx.TransportError:
                            await asyncio.sleep(random.random())
            """,
            line=4,
        ),
        Invalid(
            """
            import random, time, requests
            def publish(url, metrics):
                succeeded = False
                while not succeeded and url:
                    metrics.incr("publish.attempt")
                    try:
                        requests.put(url, timeout=3)
                        succeeded = True
                    except requests.ConnectionError:
                        time.sleep(random.random())
            """,
            line=4,
        ),
        Invalid(
            """
            import tenacity
            def never(retry_state):
                return False
            @tenacity.retry(wait=tenacity.wait_random(0, 1), stop=never)
            def f(): ...
            """,
            line=4,
            message="`stop=never` never stops",
        ),
        Invalid(
            """
            import random
            import time
            import requests
            from requests.exceptions import ConnectionError, HTTPError, Timeout

            RETRY_STATUS_CODES = {502, 503, 504}

            def retry_import(e):
                if isinstance(e, (ConnectionError, Timeout)) or (
                    isinstance(e, HTTPError) and e.response.status_code in RETRY_STATUS_CODES
                ):
                    return True
                return False

            def download(url):
                succeeded = False
                while not succeeded:
                    try:
                        requests.get(url, timeout=10).raise_for_status()
                        succeeded = True
                    except Exception as e:
                        retry = retry_import(e)
                        if not retry:
                            raise
                        time.sleep(random.uniform(0, 30))
            """,
            line=17,
            message="no attempt counter or deadline",
        ),
        Invalid(
            # it goes round while the answer says "error", and leaves with the first other one (zulip)
            """
            import random
            import time
            import requests

            def register(url, event_types):
                return requests.post(url, json={"event_types": event_types}, timeout=10).json()

            def do_register(url, event_types):
                while True:
                    res = register(url, event_types)
                    if "error" in res["result"]:
                        time.sleep(random.uniform(0, 2))
                    else:
                        return res["queue_id"]
            """,
            line=9,
            message="`while True` retry loop has no attempt counter or deadline",
        ),
        Invalid(
            # it asks again while the answer is a 429, as long as that lasts
            """
            import random
            import time
            import requests

            def fetch(url):
                response = requests.get(url, timeout=10)
                while response.status_code == 429:
                    time.sleep(random.uniform(1, 3))
                    response = requests.get(url, timeout=10)
                return response
            """,
            line=7,
            message="`while response.status_code == 429` retry loop has no attempt counter or deadline",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        reported: Set[int] = set()
        for policy in retry_scopes(ctx.model).policies:
            limit = policy.attempts
            if limit.inherited or limit.kind != "unbounded" or policy.polls_result:
                continue
            node = policy.limit_anchor
            if id(node) in reported:
                continue
            reported.add(id(node))
            detail = limit.detail or f"{policy.library} retries without an attempt or time limit"
            ctx.report(
                node, f"{detail}: a dependency that stays down keeps every caller retrying, and adding load, until it recovers",
                anchor=node, fixable=policy.library in _BOUNDED_BY_FIX,
            )
