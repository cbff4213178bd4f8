"""RES102 unbounded-timeout."""

from __future__ import annotations

from resilint.libraries.clients import TRIGGERS
from resilint.lint.project import ProjectContext
from resilint.lint.rule import Invalid, RuleContext
from resilint.rules.project_rule import ProjectRule
from resilint.libraries.timeout_verdicts import report_project_verdicts, report_verdicts


class UnboundedTimeout(ProjectRule):
    """A timeout is given explicitly, but its value waits forever.

    ## What it does
    Flags a timeout argument whose value is unbounded, for every client RES101 knows, httpx
    and aiohttp, and generic waits:

    - `timeout=None` on a client function, session or client method (httpx's 5 s default and
      aiohttp's per-request limit are switched off by an explicit `None`), a `(connect, read)`
      tuple with `None` in it, `float("inf")`, `math.inf`, and `socket._GLOBAL_DEFAULT_TIMEOUT`
      (the standard library's "none given" marker: the socket default, which is no timeout
      unless `socket.setdefaulttimeout()` set one; urllib3 2 refuses it);
    - `httpx.Timeout(None)` and an `httpx.Timeout` with any phase `None`
      (`httpx.Timeout(5, read=None)`); `aiohttp.ClientTimeout(total=None)` (or no total, or
      `total=0`: aiohttp checks no limit that is 0) with no `sock_read`, and a request's
      `timeout=0` (`session.get(url, timeout=0)`, which aiohttp makes `ClientTimeout(total=0)`);
      `urllib3.Timeout` with neither `total` nor `read`; botocore
      `Config(read_timeout=None)`;
    - `sock.settimeout(None)` on a `socket.socket` (including one from
      `socket.create_connection`), `socket.setdefaulttimeout(None)`;
    - `redis.Redis(socket_timeout=None)`, `psycopg2.connect(connect_timeout=0)` (libpq reads 0
      as "wait forever"), `mysql.connector.connect(connection_timeout=0)` (so does
      libmysqlclient), `hvac.Client(timeout=None)`, zeep's `Transport(operation_timeout=None)`,
      requests-hardened's `Config(default_timeout=None)` (every request of its `Manager` that
      passes no timeout then waits forever), pycurl's `setopt(pycurl.TIMEOUT, 0)`;
    - generic waits: `asyncio.wait_for(x, None)`, `asyncio.timeout(None)`,
      `asyncio.timeout_at(None)`, `async_timeout.timeout(None)`, `anyio.fail_after(None)`.

    A choice with a `None` branch (`timeout = 7 if proxies else None`, or `args.timeout or
    None`, None whenever the option is 0 or unset; also for a phase,
    `aiohttp.ClientTimeout(total=t if t > 0 else None)`, and in a timeout object a method's
    class sets once on `self` and passes as `timeout=self._timeout`, and in such a choice kept
    on `self`, `self.timeout = timeout if timeout else None`, and in the dict a function
    of the file returns, read in that function: `**make_send_kwargs(args)` or `kw =
    make_send_kwargs(args)` then `**kw`, returning `{"timeout": args.timeout or None}`; also written as statements: a local set
    to `None` in one arm of an `if`/`elif`/`else` chain, or set to `None` before an `if` that
    may leave it so, `if timeout == 0: timeout = None`) waits forever on that
    path, and the message says when (or that one of the paths sets it to `None`), unless the
    call runs only where that path is not taken (`None if client is not None`, given to a
    client made only in the arm where `client is None`); a `None`
    that every arm of an `if`/`else` replaces, or that `if timeout is None: timeout = 30`
    replaces, is not; for a generic wait it is the program's own choice (no
    deadline unless one is configured) and is not flagged, nor is a call of a project wrapper
    whose `timeout=None` default reaches a generic wait (`def wait_for_task_run(run_id,
    timeout=None): with anyio.move_on_after(timeout): ...`: it waits for the work to finish
    unless its caller asks for a deadline). Module constants are followed by value (`TIMEOUT = None` … `timeout=TIMEOUT`), also those of
    another module (`timeout=settings.FRAUD_TIMEOUT` where `FRAUD_TIMEOUT = None`, or an
    `httpx.Timeout(5, read=None)` there), given to a client call (by keyword, or by position:
    `sock.settimeout(settings.IDLE_TIMEOUT)`), to a request on a session a project function
    returns, or to a project wrapper that passes it on, under any name it gives the
    parameter (`raw_request(path, _timeout=None)` calling `session.get(url, timeout=_timeout)`)
    and through wrappers that hand their own parameter on to it (`execute_query(q,
    _timeout=None)` calling `raw_request(q, _timeout=_timeout)`; a `None` default handed on by
    position, `Consumer(url, request_timeout)`, too), or to a class that keeps it
    for its requests (`def __init__(self, url, timeout=None): self.timeout = timeout`, or
    `self.timeout = kwargs.get("timeout")` of its own `**kwargs`, then
    `session.get(url, timeout=self.timeout)` in a method, or `kwargs.setdefault("timeout",
    self.timeout)` before `session.request(method, url, **kwargs)`; a `None` a wrapper fills in
    itself, `kwargs.setdefault("timeout", None)`, is reported where it is written; also a method of a subclass in any
    module that keeps that `__init__`: a construction that gives no
    timeout keeps the `None`, and is reported, unless the object never leaves the function
    that makes it and nothing that function reads or calls on it runs the method that sends:
    `SpotifyOAuth(...)` used only for `get_authorize_url()`, or made and thrown away at once,
    `with pytest.raises(ValueError): Client(None)`), by keyword or by position (`fetch(url,
    None)`; a timeout object written out or in a name, `build_session(headers,
    aiohttp.ClientTimeout(total=None))`, under any parameter name, also where the wrapper puts
    it in a dict it unpacks into the client), also called through a library
    wrapper that calls it with the same arguments (`execute_query_sync =
    async_to_sync(execute_query)`; `sync_to_async`, `database_sync_to_async`, `functools.cache`). A constant that another module sets to
    what a project function returns (`settings.SOCKET_TIMEOUT = read_int(config, ...)` at
    start-up, over a `None` placeholder) is unknown, and not reported. Django's `django.conf.settings.NAME` is
    what the project's settings give `NAME`: the module `DJANGO_SETTINGS_MODULE` names where
    the project sets it (`os.environ.setdefault(...)` in `manage.py` or `wsgi.py`), else every
    module of a `settings` module or package that defines `NAME`; several values are not one
    and are not judged. Where
    `None` selects the library default rather than no limit (`aiohttp.ClientSession(timeout=None)`,
    `psycopg.connect(connect_timeout=None)`, a requests-hardened request's `timeout=None`,
    pycurl's `CONNECTTIMEOUT` of 0), RES105 judges the default instead. A client call
    that a test double answers in the process (moto, responses, requests-mock, respx, …, see
    RES105) is not judged, nor, in test code, a call of a project wrapper given a URL of this
    machine or of a pytest fixture that serves it (`session.request("get", httpbin.url +
    "/get")` on a `requests.Session` subclass whose `request` defaults `timeout=None`), as
    RES101 describes: that wait is the test run's own.

    ## Why is this bad?
    `None` reads like "use the default", but for these libraries it means "no limit at all". A
    read phase without a limit lets a server that accepted the connection and then stalled
    hold the caller's connection and worker indefinitely, which is how one slow dependency
    drains a shared pool. Nothing ever gives such a connection back: a pool of 10 connections
    that meets one stalled response per minute is exhausted after 10 minutes and stays
    exhausted until the process restarts, while a 10 s read timeout would have returned each
    connection within 10 s.

    ## Example
    ```python
    import httpx
    import requests

    client = httpx.Client(timeout=None)
    requests.get(url, timeout=(3.05, None))
    ```

    ## Use instead
    Bound them, with values taken from configuration (RES103 reports numbers written at the
    call):
    ```python
    import httpx
    import requests

    from myapp.settings import CONNECT_TIMEOUT, READ_TIMEOUT

    client = httpx.Client(timeout=httpx.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT))
    requests.get(url, timeout=(CONNECT_TIMEOUT, READ_TIMEOUT))
    ```

    ## Fix safety
    The fix (codemod `add-timeout`) is **safe**: it bounds what was unbounded and changes
    nothing else. A literal `timeout=None` on a requests or httpx call gets the scope's own
    bound (a `timeout` parameter with a bounded default, `self.timeout`, a module `*TIMEOUT*`
    constant), else module constants named once per value and file (`HTTP_READ_TIMEOUT = R`,
    `HTTP_CONNECT_TIMEOUT = C`, from the `fix-timeout` setting) passed through
    `resilint.runtime.timeout(read=..., connect=...)` (`.as_httpx()` for httpx); a literal
    `(c, None)` keeps the user's connect timeout as the constant's connect value. See RES101
    for the native target, import placement and line wrapping. Other shapes (`httpx.Timeout(None)`, a name bound to
    `None`, aiohttp, sockets) are left alone and listed by `resilint fix`.

    Both fix targets (`fix-target`): the runtime target (a project that declares
    `resilint-runtime` or imports it) passes `resilint.runtime.timeout(...)`; the native target
    writes the constant as the library takes it and imports nothing new, so no fix adds an
    undeclared dependency.
    """

    code = "RES102"
    name = "unbounded-timeout"
    precision = "very-high"  # an explicit `None` or infinity reaching the client
    message = "unbounded timeout"
    triggers = TRIGGERS
    VALID = [
        # the helper's timeout is its caller's argument: judged where the caller gives it
        """
        import requests
        def make_kwargs(timeout):
            return {"timeout": timeout}
        def fetch(url, timeout=5):
            return requests.get(url, **make_kwargs(timeout))
        """,
        # the None is chosen only when the caller hands its own client, and the client is made
        # only when it does not (Fern-generated SDK base clients)
        """
        import httpx
        class Base:
            def __init__(self, *, timeout=None, httpx_client=None):
                _defaulted_timeout = timeout if timeout is not None else 60 if httpx_client is None else None
                self._client = (
                    httpx_client if httpx_client is not None else httpx.Client(timeout=_defaulted_timeout)
                )
        """,
        # the method's timeout given by position: the default is not kept
        """
        import requests
        class Api:
            def fetch(self, url, timeout=None):
                return requests.get(url, timeout=timeout)
        def main(url, settings):
            return Api().fetch(url, settings.TIMEOUT)
        """,
        # a generic wait without a deadline when none is configured: the program's own choice
        """
        import asyncio
        async def run(coro, limit=None):
            deadline = None if limit is None else asyncio.get_running_loop().time() + limit
            async with asyncio.timeout_at(deadline):
                return await coro
        """,
        """
        import httpx
        httpx.Client(timeout=httpx.Timeout(10.0, connect=1.0))
        """,
        """
        import requests
        requests.get("https://a.example", timeout=(3.05, 27))
        """,
        """
        import httpx
        httpx.Timeout(None, connect=1, read=5, write=5, pool=1)
        httpx.get("https://a.example", timeout=httpx.Timeout(None, connect=1, read=5, write=5, pool=1))
        """,
        """
        def get(url, timeout=None):
            return url
        get("x", timeout=None)
        """,
        """
        import aiohttp
        aiohttp.ClientTimeout(total=None, sock_connect=5, sock_read=10)
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, sock_read=10))
        """,
        """
        import asyncio

        async def main(job, budget):
            return await asyncio.wait_for(job, budget)
        """,
    ]
    INVALID = [
        Invalid(
            # a choice with a ``None`` branch kept on ``self`` for every request (sickchill's Trakt API)
            """
            import requests
            class TraktAPI:
                def __init__(self, ssl_verify=True, timeout=30):
                    self.verify = ssl_verify
                    self.timeout = timeout if timeout else None
                def request(self, path, method="GET"):
                    return requests.request(method, "https://api.trakt.tv/" + path, timeout=self.timeout, verify=self.verify)
            """,
            line=7,
            message="None (no timeout at all) when `timeout` is false",
        ),
        Invalid(
            # the timeout of the dict a helper returns, read in the helper (httpie's client)
            """
            import requests
            def make_send_kwargs(args):
                return {"timeout": args.timeout or None, "allow_redirects": False}
            def collect_messages(session: requests.Session, args, request):
                send_kwargs = make_send_kwargs(args)
                return session.send(request, **send_kwargs)
            """,
            line=3,
            message="None (no timeout at all) when `args.timeout` is false",
        ),
        Invalid(
            # the pool is one of two classes: the message names both (hubspot-api-python's
            # generated RESTClientObject)
            """
            import urllib3
            class RESTClientObject:
                def __init__(self, configuration):
                    if configuration.proxy:
                        self.pool_manager = urllib3.ProxyManager(proxy_url=configuration.proxy)
                    else:
                        self.pool_manager = urllib3.PoolManager()
                def request(self, method, url, _request_timeout=None):
                    timeout = None
                    if _request_timeout:
                        timeout = urllib3.Timeout(total=_request_timeout)
                    return self.pool_manager.request(method, url, timeout=timeout)
            """,
            line=12,
            message="`urllib3.PoolManager.request` or `urllib3.ProxyManager.request` is given an unbounded timeout",
        ),
        Invalid(
            # the class keeps a ClientTimeout whose total is None unless configured above 0
            # (okta-sdk-python's HTTPClient: the SDK's default requestTimeout is 0)
            """
            import aiohttp
            class HTTPClient:
                def __init__(self, config):
                    timeout = config["requestTimeout"]
                    self._timeout = aiohttp.ClientTimeout(total=timeout if timeout > 0 else None)
                async def send(self, url):
                    async with aiohttp.ClientSession() as session:
                        async with session.get(url, timeout=self._timeout) as response:
                            return await response.text()
            """,
            line=8,
            message="total=None when `timeout > 0` is false",
        ),
        Invalid(
            # a default the wrapper fills in for callers that pass none
            """
            import requests
            def fetch(url, **kwargs):
                kwargs.setdefault("timeout", None)
                return requests.get(url, **kwargs)
            """,
            line=3,
            message="unbounded timeout",
        ),
        Invalid(
            """
            import aiohttp
            async def fetch(session: aiohttp.ClientSession, url):
                async with session.get(url, timeout=0) as r:
                    return await r.text()
            """,
            line=3,
            message="which aiohttp reads as no timeout",
        ),
        # `None` handed to the wrapper by position
        Invalid(
            """
            import requests
            def fetch(url, timeout):
                return requests.get(url, timeout=timeout)
            def main(url):
                return fetch(url, None)
            """,
            line=5,
            message="(passed through `fetch`)",
        ),
        Invalid(
            # `--timeout` defaults to 0: `0 or None` is None, no limit at all
            """
            import requests
            def get(args, url):
                return requests.get(url, timeout=args.timeout or None)
            """,
            line=3,
            message="when `args.timeout` is false",
        ),
        Invalid(
            # without a proxy (the default) the request waits forever
            """
            import requests
            def fetch(url, proxies=None):
                timeout = 7 if proxies else None
                return requests.get(url, proxies=proxies, timeout=timeout)
            """,
            line=4,
            message="timeout is None (no timeout at all) when `proxies` is false",
        ),
        Invalid(
            """
            import requests
            requests.get("https://a.example", timeout=None)
            """,
            line=2,
            message="None",
        ),
        Invalid(
            """
            import requests
            s = requests.Session()
            s.post("https://a.example", timeout=(3.05, None))
            """,
            message="read timeout is None",
        ),
        Invalid(
            """
            import httpx
            httpx.Client(timeout=None)
            """,
        ),
        Invalid(
            """
            import httpx
            with httpx.Client() as client:
                client.get("https://a.example", timeout=httpx.Timeout(5, read=None))
            """,
            message="read=None",
        ),
        Invalid(
            """
            import httpx
            httpx.post("https://a.example", timeout=httpx.Timeout(None))
            """,
        ),
        Invalid(
            """
            import requests
            requests.get("https://a.example", timeout=float("inf"))
            """,
        ),
        Invalid(
            """
            import socket
            import requests

            class Jenkins:
                def __init__(self, url, timeout=socket._GLOBAL_DEFAULT_TIMEOUT):
                    self.url = url
                    self.timeout = timeout
                    self.session = requests.Session()

                def info(self):
                    return self.session.get(self.url + "api/json", timeout=self.timeout).json()

            Jenkins("https://ci.example/").info()
            """,
            line=13,
            message="socket._GLOBAL_DEFAULT_TIMEOUT (the socket default",
        ),
        Invalid(
            """
            import socket, urllib.request
            urllib.request.urlopen("https://a.example", timeout=socket._GLOBAL_DEFAULT_TIMEOUT)
            """,
        ),
        Invalid(
            """
            import math
            import urllib.request
            urllib.request.urlopen("https://a.example", None, math.inf)
            """,
        ),
        Invalid(
            """
            import requests
            TIMEOUT = None

            def fetch():
                return requests.get("https://a.example", timeout=TIMEOUT)
            """,
            line=5,
            message="TIMEOUT is None",
        ),
        Invalid(
            """
            import requests
            requests.get("https://a.example", **{"timeout": None})
            """,
        ),
        Invalid(
            """
            import aiohttp

            async def fetch(url):
                timeout = aiohttp.ClientTimeout(total=None)
                async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as s:
                    return await s.get(url)
            """,
            line=5,
            message="no sock_read",
        ),
        Invalid(
            # aiohttp sets no limit that is 0
            """
            import aiohttp

            async def fetch(url):
                async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=0)) as s:
                    return await s.get(url)
            """,
            line=4,
            message="total=0",
        ),
        Invalid(
            """
            import socket
            sock = socket.create_connection(("db", 5432), timeout=3)
            sock.settimeout(None)
            """,
            line=3,
        ),
        Invalid(
            """
            import socket
            socket.setdefaulttimeout(None)
            """,
        ),
        Invalid(
            """
            import asyncio

            async def main(job):
                await asyncio.wait_for(job, None)
                async with asyncio.timeout(None):
                    await job
            """,
            count=2,
        ),
        Invalid(
            """
            import aiohttp

            async def fetch(session: aiohttp.ClientSession, url):
                async with aiohttp.ClientSession() as s:
                    return await s.post(url, timeout=None)
            """,
            line=5,
        ),
        Invalid(
            """
            import psycopg2
            psycopg2.connect(host="db", connect_timeout=0)
            """,
            message="libpq",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        report_verdicts(ctx, self.code)

    def check_project(self, ctx: ProjectContext) -> None:
        report_project_verdicts(ctx, self.code)
