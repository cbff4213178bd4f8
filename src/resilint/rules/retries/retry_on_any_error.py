"""RES205 retry-on-any-error (opt-in)."""

from __future__ import annotations

import re
from typing import List, Set

import libcst as cst

from resilint.libraries.retry_scopes import (
    LIBRARY_TRIGGERS,
    ON_ANY,
    code_of,
    retry_scopes,
)
from resilint.libraries.retry_scopes.conditions import stops_on_status
from resilint.libraries.retry_scopes.statements import block, small_statements
from resilint.lint.rule import Invalid, Rule, RuleContext
from resilint.lint.traversal import iter_nodes
from resilint.rules.retries.near_misses import ASK_AGAIN, LOCAL_BROWSER_START, QUEUE_WORKER, WATCH_JOB

# Not "4xx responses": a client that returns them (requests without ``raise_for_status``) retries
# none of them, and a retry that tests statuses is told apart below.
_WHY = "errors another attempt cannot fix (a refused request, bad input, bugs) are retried too"
# When the retry gives up on the failed statuses it checks (backoff's ``giveup=``, a loop that
# returns a response whose status it tested), 4xx responses are not retried: the rest still is.
_WHY_STATUS = "{who} on the failed statuses it checks, but every other error, bugs included, is retried"


# What ``except Exception`` never catches anyway (``BaseException`` only): no deny-list to name.
_NOT_EXCEPTIONS = re.compile(r"^\(?(asyncio\.)?(CancelledError|KeyboardInterrupt|SystemExit|GeneratorExit)\)?$")


def _reraised_before(module: cst.Module, handler: cst.ExceptHandler) -> List[str]:
    """The classes the handlers before ``handler`` in its ``try`` only re-raise (``except
    self.NON_RETRYABLE_EXCEPTIONS: raise``), as written: those are not retried."""
    for node in iter_nodes(module):
        if isinstance(node, (cst.Try, cst.TryStar)) and any(h is handler for h in node.handlers):
            before = node.handlers[:[id(h) for h in node.handlers].index(id(handler))]
            return [
                f"`{code_of(h.type)}`" for h in before
                if h.type is not None and all(isinstance(s, cst.Raise) and s.exc is None for stmt in block(h.body) for s in small_statements(stmt))
                and not _NOT_EXCEPTIONS.search(code_of(h.type))
            ]
    return []


class RetryOnAnyError(Rule):
    """A retry that repeats every exception, not just the ones a second attempt can fix.

    ## What it does
    Flags retry scopes that retry every exception: tenacity without `retry=` (its default
    retries any exception), `retry_if_exception_type()` with no argument or with `Exception`/
    `BaseException`, `retry_always`, backoff `on_exception(..., Exception)`, stamina
    `on=Exception`, retrying without `retry_on_exception`, celery `autoretry_for=(Exception,)`
    (also given to a project's own task decorator, a name ending in `task` that is passed
    options only celery reads: `@shared_dedicated_queue_retry_task(autoretry_for=(Exception,))`;
    also written out in a dict the decorator unpacks, `@shared_task(**_RETRY)`, one that spreads
    another such dict in included, `{**_RETRY, "autoretry_for": (...)}`),
    an RQ job enqueued with `retry=Retry(...)` (RQ retries a job on whatever it raises),
    and `except Exception:` or a bare `except:` in a hand-written retry loop or around a celery
    `self.retry()` (reported on the `except` line); a handler that sets what the loop waits on
    (`reference = recent.reference if recent else ""` in `while reference is None:`, a value
    that is no call's result) ends the loop, so it retries nothing. A project function given as tenacity's
    `retry=` is read when it has one `return`: `retry_state.outcome.failed`, `True` or
    `retry_if_exception_type(Exception)(retry_state)` retry every exception, an `isinstance`
    of specific types does not. A handler that hands the error to a function decides itself
    what is retried (that function may raise), unless the function prints or logs it
    (`print(e)`, `logger.warning(e)`, `sentry_sdk.capture_exception(e)`, a parameter whose
    default does: `printfn(e)` with `printfn=print`, or a function of the file that only logs,
    prints and sleeps, raising and answering nothing), and so does one that leaves on a condition
    other than its attempt count, also as a side of an `or` (`if error not in RETRYABLE_ERRORS
    or attempt == 4: break`), or that tests the error's type and spends the attempt counter on
    every other type (`if isinstance(e, socket.error): ... else: retries_left = 0`). Loops that ask for new input, take the next item of a queue or
    of the list they loop on (`while hosts: host = hosts.pop(0)`, failover; `i += 1; continue`
    in the handler of a loop that works on `rows[i]`) or watch a polled
    state are not retry loops (see RES203), nor is a `while` loop whose body ends by leaving on
    a part of the loop's own test (`while not got_result and tries < 3: ...; if not got_result:
    raise RequestTimeout(...)`): it makes one attempt, nor is a retried function, celery task or RQ job
    that only computes (`1 / 0` in a test of the retries: no call, no attribute read) or only
    makes an object of the file whose construction does only local work, nor a
    retry of one attempt (`stop_after_attempt(1)`, `max_tries=1`, celery's `max_retries=0`:
    it retries nothing), and neither is a `try` that does local work only
    (reading a parsed XML document with `getElementsByTagName`, string and list methods,
    the objects a parser of text returns, `BeautifulSoup(data).find("table")` and the rows
    a loop walks in it, the methods of a literal a class keeps (`self.counts.get(path)`) and
    of a class of the file that nothing extends when they do such work only,
    `asyncio.open_unix_connection` to a local process, a
    file copy beside the project logger's `logger.debug(...)`, its texts translated by the `_()`
    that `gettext` installs, a pause before the next page,
    functions of the file that catch every exception and answer a value), even under a bare
    `except:`. When the retry visibly gives up on failed HTTP statuses (backoff's
    `giveup=` reading the error's status, a loop that returns a response whose status it
    tested), the message says so: 4xx responses are not retried there, but every other error,
    bugs included, still is. A deny-list re-raised by a handler before the catch-all (`except
    NON_RETRYABLE: raise`) is named in the message too: what it lists is not retried, every
    other error still is.

    This rule is opt-in: a catch-all retry is sometimes a deliberate choice for a small,
    well-understood call.

    An RQ `Retry(...)` made in a function that neither passes it as `retry=` nor returns it
    (built to read its attributes) retries no job, and is not reported.

    ## Why is this bad?
    Only transient failures get better with time: a refused connection, a timeout, a 503 or a
    429. A 400, a 401, a `KeyError` in the response parsing or a `TypeError` in our own code
    fails the same way on every attempt, so a catch-all retry turns each of them into N calls,
    N times the latency before the error surfaces, and N log entries that hide the first one.
    With 4 attempts and an exponential wait of 1, 2 and 4 s, a typo in a payload takes 7 s to
    report and sends the dependency four bad requests instead of one.

    ## Example
    ```python
    import backoff

    @backoff.on_exception(backoff.expo, Exception, max_tries=4)
    def create_invoice(payload):
        ...
    ```

    ## Use instead
    ```python
    import backoff
    import requests

    @backoff.on_exception(
        backoff.expo, (requests.ConnectionError, requests.Timeout), max_tries=4
    )
    def create_invoice(payload):
        ...
    ```
    """

    code = "RES205"
    name = "retry-on-any-error"
    precision = "medium"  # whether retrying every error is wrong depends on the call
    message = "retry on every exception"
    default = False
    triggers = LIBRARY_TRIGGERS + ("except",)
    VALID = [
        # a failover over nodes: each pass takes one it has not tried, with no pause, and
        # stops once all were tried (hummingbot's XRPL order book source)
        """
        import asyncio

        async def subscribe(pool, next_url):
            tried = set()
            while len(tried) < len(pool.urls):
                url = next_url()
                if url is None or url in tried:
                    break
                tried.add(url)
                try:
                    return await asyncio.wait_for(pool.open(url), timeout=10)
                except Exception:
                    pool.mark_bad(url)
            return None
        """,
        # a failure moves on to the next host at once: failover (bazarr's BSPlayer sub-domains)
        """
        import random
        import time
        import requests
        def find_api(session, domains):
            for domain in domains[:8]:
                url = "http://{}.api.bsplayer-subtitles.com".format(domain)
                try:
                    res = session.get(url, timeout=5)
                except:
                    continue
                else:
                    if res.status_code == 200:
                        return url
                    time.sleep(1 + random.random())
        """,
        # the page fetch answers a value on any failure; the other call works out the pause
        # (theHarvester's GitHub code search)
        """
        import asyncio
        import logging
        import aiohttp
        from harvester.constants import get_delay
        async def do_search(session, page):
            try:
                async with session.get(f"https://api.github.com/search/code?page={page}") as resp:
                    return await resp.json(), resp.status
            except Exception:
                return {}, 500
        async def process(limit):
            page, results = 1, []
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
                while len(results) < limit and page:
                    try:
                        answer, status = await do_search(session, page)
                        if status != 200:
                            break
                        results += answer["items"]
                        page = answer["next_page"]
                        await asyncio.sleep(get_delay())
                    except Exception as e:
                        logging.info("error processing page: %s", e)
                        await asyncio.sleep(get_delay())
            return results
        """,
        # a file copy retried, its log texts translated by the ``_`` gettext installs (sickchill)
        """
        import logging
        import shutil
        import time
        logger = logging.getLogger(__name__)
        def backup(old_file, new_file):
            for _attempt in range(10):
                try:
                    logger.debug(_("Trying to back up {old}").format(old=old_file))
                    shutil.copy(old_file, new_file)
                    return True
                except Exception as error:
                    logger.warning(_("Backup failed: {error}").format(error=error))
                    time.sleep(1)
            return False
        """,
        # the body ends by raising whenever the loop would go round: one attempt
        # (pyTelegramBotAPI's asyncio helper)
        """
        import aiohttp
        async def process(session, url, retries=3):
            got_result = False
            current_try = 0
            while not got_result and current_try < retries:
                current_try += 1
                try:
                    async with session.get(url, timeout=aiohttp.ClientTimeout(total=20)) as resp:
                        got_result = True
                        return await resp.json()
                except Exception as e:
                    print(e)
                if not got_result:
                    raise TimeoutError(url)
        """,
        # the handler tests the error's type and spends the counter on every other type, which
        # then leaves at once (pyvmomi's SessionOrientedStub)
        """
        import socket, time
        from http.client import HTTPException
        def invoke(stub, retry_count=4):
            retries_left = retry_count
            while True:
                try:
                    return stub.call()
                except Exception as e:
                    if isinstance(e, (socket.error, HTTPException)):
                        time.sleep(0.1)
                    else:
                        retries_left = 0
                    if retries_left > 0:
                        retries_left -= 1
                        continue
                    raise e
        """,
        # a wait for a count the process itself keeps, until an assertion holds (bolt-python's
        # mock server helper): a poll, not a retry
        """
        import time
        def assert_received_request_count(test, path, min_count, timeout=1):
            start_time = time.time()
            error = None
            while time.time() - start_time < timeout:
                try:
                    received_count = test.received_requests.get(path, 0)
                    assert received_count == min_count, f"expected {min_count}, got {received_count}"
                    return
                except Exception as e:
                    error = e
                    time.sleep(0.05)
            if error is not None:
                raise error
        """,
        # an RQ ``Retry`` no job is enqueued with (built to read its attributes)
        """
        from rq import Retry
        def describe_policy():
            retry = Retry(max=3, interval=[5, 10])
            return retry.max, retry.intervals
        """,
        # waiting for a local process's unix socket: no other machine is asked
        """
        import asyncio
        async def connect(path):
            while True:
                try:
                    return await asyncio.open_unix_connection(path)
                except Exception:
                    await asyncio.sleep(0.25)
        """,
        # the retried method only makes an object that keeps its argument; its property,
        # which sends, runs later, outside the retry
        """
        import requests, tenacity
        class Patch:
            def __init__(self, diff_id):
                assert diff_id, "diff_id required"
                self.diff_id = diff_id
            @property
            def raw(self):
                return requests.get(f"https://phab.example/D{self.diff_id}.diff", timeout=(3, 10)).text
        class Reviews:
            @tenacity.retry(stop=tenacity.stop_after_attempt(7), wait=tenacity.wait_random_exponential(max=60))
            def patch(self, diff_id):
                return Patch(diff_id)
        """,
        # the handler skips to the next row of a page already read: the failed one is not tried again
        """
        import urllib.request
        def annuals(url, parse):
            rows = parse(urllib.request.urlopen(url, None, 10)).findAll("tr")
            found = []
            i = 1
            while i < len(rows):
                link = rows[i].find("a")
                try:
                    title = link.findNext(text=True)
                except Exception:
                    i += 1
                    continue
                found.append(title)
                i += 1
            return found
        """,
        # one attempt retries nothing: celery's ``max_retries=0`` re-raises at once
        """
        import requests
        import tenacity
        from celery import shared_task
        @shared_task(autoretry_for=(Exception,), retry_backoff=True, max_retries=0)
        def sync_organizations():
            requests.get(SYNC_URL, timeout=5).raise_for_status()
        @tenacity.retry(stop=tenacity.stop_after_attempt(1))
        def fetch():
            return requests.get(SYNC_URL, timeout=5)
        """,
        # the handler sets what the loop waits on: the loop ends after that pass
        """
        def generate_reference(cls, pattern, ctx):
            reference = None
            while reference is None:
                try:
                    ref = pattern.format(**ctx)
                    if cls.objects.filter(reference=ref).exists():
                        ctx["ref"] = increment(ctx["ref"])
                    else:
                        reference = ref
                except Exception:
                    recent = cls.objects.order_by("-pk").first()
                    reference = recent.reference if recent else ""
            return reference
        """,
        # a test of celery's retries: the task only raises
        """
        from celery import shared_task
        def test_retry_task_logs_stack_trace():
            @shared_task(autoretry_for=(Exception,), retry_backoff=False, max_retries=1)
            def my_task():
                raise ValueError("my exception")
            my_task.apply().get()
        """,
        # a test of the retry machinery: the jobs only compute, and fail on purpose
        """
        import rq
        import tenacity
        from fakeredis import FakeStrictRedis
        def crashing_job(foo, b=1):
            1 / 0
        @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential())
        def crashing_call():
            return 1 / 0
        def test_job_with_retries():
            queue = rq.Queue(connection=FakeStrictRedis())
            queue.enqueue(crashing_job, foo=42, retry=rq.Retry(max=1))
        """,
        # the catch-all goes round only when the answer's error text is a known transient one
        """
        import random, time
        import requests
        RETRYABLE_ERRORS = {"Something went wrong"}
        def values(url):
            last = None
            for attempt in range(1, 5):
                last = requests.get(url, timeout=(3, 10))
                try:
                    return last.json()["results"][0]["values"]
                except Exception:
                    error = last.json().get("error")
                    if error not in RETRYABLE_ERRORS or attempt == 4:
                        break
                    time.sleep(random.uniform(0, 2))
        """,
        # each pass asks for another suffix of the host: a search, not a retry
        """
        import logging
        def find_zone(cf, host):
            parts = host.split(".")
            n, zone = 1, []
            while n < 5:
                n = n + 1
                domain = ".".join(parts[-n:])
                try:
                    zone = cf.zones.get(params={"name": domain})
                except Exception as e:
                    logging.error("API error: %s", e)
                if len(zone) == 1:
                    break
            return zone
        """,
        # making an object of the file that only holds in-process locks and events calls out to
        # nothing, whatever it raises
        """
        import threading, time
        class Buffer:
            def __init__(self, size):
                self.lock = threading.Lock()
                self.ready = threading.Event()
                self.data = bytearray(size)
        def allocate(size):
            for attempt in range(3):
                try:
                    return Buffer(size)
                except Exception:
                    time.sleep(1)
        """,
        # a failed window is logged and the loop moves on to the previous one: no retry
        """
        import logging, requests
        WEEK = 7 * 24 * 3600
        def updated_since(last_update, now):
            found, current = [], now
            while current >= last_update:
                try:
                    r = requests.get("https://api.example/updates", params={"from": current - WEEK, "to": current}, timeout=10)
                    found.extend(r.json())
                except Exception as error:
                    logging.info(error)
                current -= WEEK - 1
            return found
        """,
        # a local file copy retried; the project's logger module logs here
        """
        import shutil, time
        from app import logger
        def backup(old, new):
            tries = 0
            while True:
                try:
                    shutil.copy(old, new)
                    logger.debug("backup done")
                    return True
                except Exception as error:
                    logger.warning("backup failed: %s", error)
                    tries += 1
                    time.sleep(1)
                if tries >= 10:
                    return False
        """,
        # the handler retries one error code and raises every other error
        """
        import time
        from clickhouse_driver import Client
        def run_ddl(client: Client, sql):
            for i in range(30, -1, -1):
                try:
                    return client.execute(sql)
                except Exception as e:
                    if i and e.code == 517:
                        time.sleep(1 + i % 3)
                    else:
                        raise
        """,
        # each pass asks the local zone database about a shorter path
        """
        import dateutil.tz
        def zone_name(path):
            start = path.find("/") + 1
            while start != 0:
                path = path[start:]
                try:
                    if dateutil.tz.gettz(path):
                        return path
                except Exception:
                    pass
                start = path.find("/") + 1
        """,
        # a test waiting for its in-process mock server to record a request: the queue and the
        # dict it reads are this process's, through a method of a class nothing extends
        """
        import time
        from queue import Queue
        class ReceivedRequests:
            def __init__(self, queue: Queue):
                self.queue = queue
                self.counts = {}
            def get(self, path, default=None):
                while not self.queue.empty():
                    seen = self.queue.get()
                    self.counts[seen] = self.counts.get(seen, 0) + 1
                return self.counts.get(path, default)
        def assert_received(received: ReceivedRequests, path, count, timeout=1):
            start = time.time()
            while time.time() - start < timeout:
                try:
                    assert received.get(path, 0) == count
                    return
                except Exception:
                    time.sleep(0.05)
        """,
        # pages fetched one after another, and a bare ``except:`` around parsing the page
        # already read: the objects the parser returns are read in this process
        """
        import logging, requests
        from bs4 import BeautifulSoup
        def search(title, results):
            page = 0
            while page < 3:
                url = "https://example.org/browse?search=%s&page=%s" % (title, page)
                page += 1
                data = requests.get(url, timeout=(3, 10)).text
                try:
                    table = BeautifulSoup(data).find("table")
                    if not table:
                        return
                    for row in table.find_all("tr"):
                        results.append(row.find("a")["title"])
                except:
                    logging.error("cannot parse page %s", page)
        """,
        # decompressing and decoding what was already read: local work, whatever it raises
        """
        import time, zlib
        def unpack(blob):
            for attempt in range(3):
                try:
                    return zlib.decompress(blob, 16 + zlib.MAX_WBITS).decode("utf-8")
                except Exception:
                    time.sleep(1)
        """,
        # the same parsed document is read again: nothing another service does is retried
        """
        import time
        def comic_url(dom, tries=0):
            try:
                return dom.getElementsByTagName("site_detail_url")[0].firstChild.wholeText
            except:
                time.sleep(10)
                return comic_url(dom, tries + 1)
        """,
        # looking for a free port of this machine, five further on each time
        """
        import portend
        def find_free_port(host, port):
            tries = 0
            while tries < 10:
                try:
                    portend.free(host, port, timeout=0.025)
                    return port
                except Exception:
                    port += 5
                    tries += 1
            return 0
        """,
        # failover: each pass takes the next candidate off the list, until none is left
        """
        import logging, requests
        def detect(candidates):
            while candidates:
                host = candidates.pop(0)
                try:
                    requests.get(f"http://{host}/hello", timeout=TIMEOUT).raise_for_status()
                    return host
                except Exception:
                    logging.exception("candidate %s failed", host)
            return None
        """,
        # a worker taking the next queued message each pass
        """
        def send_queued():
            while message := Message.get_one_queued():
                try:
                    message.send()
                    return
                except Exception:
                    pass
        """,
        """
        import tenacity, requests
        @tenacity.retry(stop=tenacity.stop_after_attempt(3),
                        retry=tenacity.retry_if_exception_type(requests.ConnectionError))
        def f(): ...
        """,
        """
        import backoff, requests
        @backoff.on_exception(backoff.expo, (requests.Timeout, requests.ConnectionError), max_tries=3)
        def f(): ...
        """,
        # a worker loop, not a retry loop
        """
        def serve(queue):
            while True:
                try:
                    handle(queue.get())
                except Exception:
                    pass
        """,
        # the handler leaves the loop: nothing is retried on Exception
        """
        import time, requests
        def f():
            for attempt in range(3):
                try:
                    return requests.get("https://a.example", timeout=3)
                except requests.ConnectionError:
                    time.sleep(1)
                except Exception:
                    raise
        """,
        """
        import backoff
        @backoff.on_predicate(backoff.fibo, lambda r: r is None, max_tries=5)
        def f(): ...
        """,
        QUEUE_WORKER,
        ASK_AGAIN,
        WATCH_JOB,
        LOCAL_BROWSER_START,
        # a class made with type() is its own: only what raises it is retried
        """
        import backoff, botocore.exceptions
        Throttled = type("Throttled", (Exception,), {})
        def call(func):
            try:
                return func()
            except botocore.exceptions.ClientError as exc:
                if exc.response["Error"]["Code"] == "Throttling":
                    raise Throttled from exc
                raise
        retried = backoff.on_exception(backoff.expo, Throttled, max_tries=5)(call)
        """,
        # a fixture waits for the server it started in a thread to listen: a readiness probe
        """
        import threading, time
        import requests, uvicorn
        def local_server(app, port):
            server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port))
            threading.Thread(target=server.run, daemon=True).start()
            for _ in range(100):
                try:
                    requests.get(f"http://127.0.0.1:{port}/health", timeout=0.1)
                    break
                except Exception:
                    time.sleep(0.05)
            return server
        """,
        # the helpers catch everything and answer a value; the ``try`` also pauses before the
        # next page: no failed call reaches the handler
        """
        import asyncio
        import random
        from typing import NamedTuple
        import aiohttp
        TIMEOUT = aiohttp.ClientTimeout(total=20, sock_connect=3, sock_read=10)
        class RetryResult(NamedTuple):
            time: float
        class SuccessResult(NamedTuple):
            items: list
        class ErrorResult(NamedTuple):
            status_code: int
        class SearchGithubCode:
            def __init__(self, limit):
                self.limit = limit
                self.counter = 0
                self.page = 1
                self.retry_count = 0
                self.max_retries = 3
            async def do_search(self, page, session):
                try:
                    async with session.get(f"https://api.github.com/search/code?page={page}") as resp:
                        return await resp.json(), resp.status
                except Exception as e:
                    print(f"Error performing search: {e}")
                    return {}, 500
            async def handle_response(self, response):
                try:
                    data, status = response
                    if status == 200:
                        return SuccessResult(data.get("items", []))
                    if status in (429, 403):
                        return RetryResult(60)
                    return ErrorResult(status)
                except Exception as e:
                    print(f"Error handling response: {e}")
                    return ErrorResult(500)
            async def process(self):
                async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
                    while self.counter < self.limit and self.page != 0:
                        try:
                            api_response = await self.do_search(self.page, session)
                            result = await self.handle_response(api_response)
                            if isinstance(result, SuccessResult):
                                self.retry_count = 0
                                self.counter += len(result.items)
                                self.page += 1
                            elif isinstance(result, RetryResult):
                                self.retry_count += 1
                                if self.retry_count > self.max_retries:
                                    self.page = 0
                                    break
                                await asyncio.sleep(random.uniform(0, 1) + result.time)
                            else:
                                self.page = 0
                                break
                        except Exception as e:
                            print(f"Error processing page: {e}")
                            await asyncio.sleep(random.uniform(0.5, 2.5))
        """,
        # a smoke test waits for the server binary it started to answer on loopback (the URL
        # kept in a local, the answer read)
        """
        import subprocess, time, urllib.request
        def smoke_test(binary):
            proc = subprocess.Popen([binary, "--port", "8080"])
            base_url = "http://127.0.0.1:8080/"
            for _ in range(30):
                try:
                    urllib.request.urlopen(base_url, timeout=1).read()
                    break
                except Exception:
                    time.sleep(1)
            urllib.request.urlopen(base_url + "shutdown", timeout=10)
            proc.wait()
        """,
    ]
    INVALID = [
        Invalid(
            # a deny-list re-raised first: everything else is still retried, and the message says
            # what is spared (treeherder's `retryable_task`)
            """
            import random
            import time
            import requests

            def fetch(url):
                for attempt in range(3):
                    try:
                        return requests.get(url, timeout=5).json()
                    except (KeyError, ValueError):
                        raise
                    except Exception:
                        time.sleep(random.uniform(0, 1))
            """,
            line=11,
            message="`except Exception` makes this retry loop retry every exception but `(KeyError, ValueError)` (re-raised above)",
        ),
        Invalid(
            # a cancellation re-raised first is no deny-list: `except Exception` never catches it
            """
            import asyncio
            import random

            async def listen(client):
                while True:
                    try:
                        return await client.subscribe()
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        await asyncio.sleep(random.uniform(1, 5))
            """,
            line=10,
            message="`except Exception` makes this retry loop retry every exception: errors another attempt",
        ),
        Invalid(
            # Celery options spread from another dict written out (kitsune's retrieval tasks)
            """
            from celery import shared_task
            import requests
            _RETRY = {"autoretry_for": (Exception,), "retry_backoff": True, "max_retries": 5}
            _SINGLE_RETRY = {**_RETRY, "retry_backoff_max": 60}
            @shared_task(**_SINGLE_RETRY)
            def sync(url):
                requests.get(url, timeout=5)
            """,
            line=3,
        ),
        Invalid(
            # building the error the loop gives up with decides nothing about what is retried
            """
            import time
            from random import random
            import pika
            from pika.exceptions import AMQPConnectionError
            def connect(parameters):
                tries = 0
                while True:
                    try:
                        return pika.BlockingConnection(parameters)
                    except (AMQPConnectionError, Exception) as e:
                        time.sleep(random() * 5)
                        tries += 1
                        if tries == 20:
                            raise AMQPConnectionError(e)
            """,
            line=10,
        ),
        Invalid(
            # the attempt's number handed to the request builder leaves the request the same
            """
            import time
            from random import random
            import httpx
            class Client:
                def __init__(self, timeout):
                    self._client = httpx.Client(timeout=timeout)
                def _build_request(self, method, url, *, retries_taken=0):
                    headers = {"x-retry-count": str(retries_taken)} if retries_taken else {}
                    return self._client.build_request(method, url, headers=headers)
                def request(self, method, url, max_retries=2):
                    for retries_taken in range(max_retries + 1):
                        request = self._build_request(method, url, retries_taken=retries_taken)
                        try:
                            return self._client.send(request)
                        except Exception:
                            if retries_taken < max_retries:
                                time.sleep(random())
                                continue
                            raise
            """,
            line=15,
        ),
        Invalid(
            # a session subclass retrying its base's request: ``super()`` is no local object
            """
            import time
            import requests
            class HTTPSession(requests.Session):
                def request(self, method, url, retries=2, **kwargs):
                    attempt = 0
                    while True:
                        try:
                            res = super().request(method, url, timeout=(3, 20), **kwargs)
                            res.raise_for_status()
                            return res
                        except Exception:
                            if attempt >= retries:
                                raise
                            attempt += 1
                            time.sleep(2 ** attempt)
            """,
            line=11,
        ),
        # every error, whatever the task raises on a test of what it holds
        Invalid(
            """
            import requests
            from celery import shared_task

            @shared_task(autoretry_for=(Exception,), retry_backoff=True, max_retries=3)
            def send_event(url, kind, kinds):
                if kind not in kinds:
                    raise Exception(f"unknown kind {kind}")
                requests.post(url, json={"kind": kind}, timeout=(3, 10))
            """,
            line=4,
        ),
        # the handler hands the error to a function of the file that only logs it and pauses
        Invalid(
            """
            import logging, random, time
            logger = logging.getLogger(__name__)
            def _log_retry(attempt, error):
                logger.warning("attempt %s failed: %s", attempt, error)
                time.sleep(5 + random.uniform(0, 5))
            def call_llm(client, model, messages):
                for attempt in range(1, 4):
                    try:
                        return client.chat.completions.create(model=model, messages=messages)
                    except Exception as e:
                        _log_retry(attempt, e)
            """,
            line=10,
        ),
        Invalid(
            # a decorator that makes each function a task and retries it from its wrapper
            """
            import random
            from functools import wraps
            from celery import shared_task
            class retryable_task:
                def __init__(self, **options):
                    self.options = options
                def __call__(self, f):
                    @wraps(f)
                    def inner(*args, **kwargs):
                        try:
                            return f(*args, **kwargs)
                        except Exception as e:
                            countdown = 10 * random.uniform(1.9, 2.1) ** task_func.request.retries
                            raise task_func.retry(exc=e, countdown=countdown)
                    task_func = shared_task(**self.options)(inner)
                    return task_func
            """,
            line=12,
        ),
        Invalid(
            # the success test after the ``try``: ``if result: break`` on what the ``try`` assigned
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
            line=10,
        ),
        Invalid(
            # a probe of a local port the function did not start a server on waits for another program
            """
            import time
            import requests
            def wait_for_api(port):
                for _ in range(100):
                    try:
                        return requests.get(f"http://127.0.0.1:{port}/health", timeout=0.1)
                    except Exception:
                        time.sleep(0.05)
            """,
            line=7,
        ),
        Invalid(
            # the error handed to a parameter that prints by default decides nothing
            """
            import time
            def with_retries(fn, attempts=3, printfn=print):
                for attempt in range(attempts):
                    try:
                        return fn()
                    except Exception as e:
                        printfn(e)
                        time.sleep(2 ** attempt)
                raise RuntimeError("gave up")
            """,
            line=6,
        ),
        Invalid(
            # the error made text for the message decides nothing
            """
            import time, six, paramiko
            def wait_for_ssh(hostname, retries=10):
                client = paramiko.SSHClient()
                for _ in range(retries):
                    try:
                        client.connect(hostname, timeout=TIMEOUT)
                        return True
                    except Exception as e:
                        print("Attempt failed (%s)" % six.text_type(e))
                        time.sleep(5)
            """,
            line=8,
        ),
        Invalid(
            """
            import tenacity
            @tenacity.retry(stop=tenacity.stop_after_attempt(3))
            def f(): ...
            """,
            message="tenacity retries every exception by default",
        ),
        Invalid(
            """
            from tenacity import retry, retry_if_exception_type, stop_after_attempt
            @retry(stop=stop_after_attempt(3), retry=retry_if_exception_type())
            def f(): ...
            """,
            message="without a type",
        ),
        Invalid(
            """
            import backoff
            @backoff.on_exception(backoff.expo, Exception, max_tries=3)
            def f(): ...
            """,
        ),
        Invalid(
            """
            import stamina
            @stamina.retry(on=Exception)
            def f(): ...
            """,
        ),
        Invalid(
            """
            import time, requests
            def f():
                for attempt in range(3):
                    try:
                        return requests.get("https://a.example", timeout=3)
                    except Exception:
                        time.sleep(1)
            """,
            line=6,
            message="`except Exception`",
        ),
        Invalid(
            """
            import time, requests
            def f():
                for attempt in range(3):
                    try:
                        return requests.get("https://a.example", timeout=3)
                    except:
                        time.sleep(1)
            """,
            line=6,
            message="bare `except:`",
        ),
        Invalid(
            """
            from celery import shared_task
            @shared_task(autoretry_for=(Exception,), retry_backoff=True)
            def f(): ...
            """,
        ),
        Invalid(
            # the options written out in a module dict the decorator unpacks
            """
            from celery import shared_task
            _RETRY = {"autoretry_for": (Exception,), "retry_backoff": True, "max_retries": 5}
            @shared_task(ignore_result=True, **_RETRY)
            def f(): ...
            """,
            line=2,
        ),
        Invalid(
            # an error tracker is told of the error, which is then retried whatever it was
            """
            import sentry_sdk
            from celery import shared_task
            @shared_task(bind=True, max_retries=3, retry_backoff=True)
            def send_email(task, recipient):
                try:
                    deliver(recipient)
                except Exception as exc:
                    sentry_sdk.capture_exception(exc)
                    task.retry(exc=exc)
            """,
            line=7,
        ),
        Invalid(
            # the project's own task decorator hands celery's options on
            """
            from celery import Task, shared_task
            class QueuedRetryTask(Task):
                pass
            def shared_queued_retry_task(*args, **kwargs):
                return shared_task(*args, base=QueuedRetryTask, **kwargs)
            @shared_queued_retry_task(autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
            def f(): ...
            """,
            line=6,
        ),
        Invalid(
            """
            import tenacity
            def any_failure(retry_state):
                return retry_state.outcome.failed
            @tenacity.retry(stop=tenacity.stop_after_attempt(3), retry=any_failure)
            def f(): ...
            """,
            line=4,
            message="`any_failure` returns `retry_state.outcome.failed`",
        ),
        Invalid(
            # 4xx statuses give up; a KeyError or a TypeError is still retried
            """
            import backoff
            def fatal(exc):
                return 400 <= exc.status < 500 and exc.status != 429
            @backoff.on_exception(backoff.expo, Exception, max_tries=3, giveup=fatal)
            def send(batch): ...
            """,
            line=4,
            message="its `giveup` stops on the failed statuses it checks, but every other error, bugs included, is retried",
        ),
        Invalid(
            """
            import time
            def post(http, body):
                for attempt in range(2):
                    try:
                        r = http.request("POST", "https://events.example", body=body, retries=0)
                        if r.status < 300:
                            return r
                        recoverable = is_recoverable(r.status)
                        if not recoverable:
                            return r
                    except Exception:
                        time.sleep(1)
            """,
            line=11,
            message="it stops on the failed statuses it checks, but every other error, bugs included, is retried",
        ),
        Invalid(
            # a Selenium test that retries a call to the service under test: that call goes out
            """
            import time, requests
            from selenium import webdriver
            def f(url):
                driver = webdriver.Firefox()
                for attempt in range(3):
                    try:
                        driver.get(url)
                        return requests.get(url + "/api/health", timeout=3)
                    except Exception:
                        time.sleep(5)
            """,
            line=9,
            message="`except Exception`",
        ),
        Invalid(
            # a browser on a Selenium grid is another machine
            """
            import time
            from selenium import webdriver
            def f(options):
                for attempt in range(3):
                    try:
                        return webdriver.Remote(command_executor="http://grid:4444", options=options)
                    except Exception:
                        time.sleep(5)
            """,
            line=7,
            message="`except Exception`",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        reported: Set[int] = set()
        for policy in retry_scopes(ctx.model).policies:
            on = policy.retry_on
            if on.inherited or on.kind != ON_ANY:
                continue
            why = _WHY
            if stops_on_status(ctx.model, policy):
                who = "its `giveup` stops" if policy.library == "backoff" else "it stops"
                why = _WHY_STATUS.format(who=who)
            if policy.handlers:
                for handler in policy.handlers:
                    if id(handler) in reported:
                        continue
                    reported.add(id(handler))
                    what = "a bare `except:`" if handler.type is None else f"`except {code_of(handler.type)}`"
                    where = "this retry loop"
                    if policy.library == "celery":
                        func = policy.node.func if isinstance(policy.node, cst.Call) else None
                        where = f"celery's `{code_of(func) if func is not None else 'self.retry'}()`"
                    spared = _reraised_before(ctx.model.module, handler)
                    every = "every exception" if not spared else f"every exception but {' and '.join(spared)} (re-raised above)"
                    reason = why if not spared else why.replace("errors another attempt cannot fix", "other errors another attempt cannot fix")
                    ctx.report(
                        handler.type if handler.type is not None else handler,
                        f"{what} makes {where} retry {every}: {reason}",
                        anchor=handler,
                    )
                continue
            node = on.node if on.node is not None else policy.node
            if id(node) in reported:
                continue
            reported.add(id(node))
            detail = on.detail or f"{policy.library} retries every exception"
            ctx.report(node, f"{detail}: {why}; list the transient errors", anchor=node)
