"""RES103 hardcoded-timeout."""

from __future__ import annotations

from resilint.libraries.clients import TRIGGERS
from resilint.lint.config import is_test_code
from resilint.lint.project import ProjectContext
from resilint.lint.rule import Invalid, RuleContext
from resilint.rules.project_rule import ProjectRule
from resilint.libraries.timeout_verdicts import report_project_verdicts, report_verdicts


class HardcodedTimeout(ProjectRule):
    """A timeout is a number written at the call site, instead of a value that can be tuned.

    ## What it does
    Flags a numeric literal passed as the timeout of a client RES101 knows, of httpx or aiohttp,
    or of `socket.settimeout`: `timeout=30`, `timeout=(3, 27)`, `timeout=5 * 60`,
    `httpx.Timeout(10)`, `aiohttp.ClientTimeout(total=10)`, botocore
    `Config(connect_timeout=2, read_timeout=5)` written inline, also in a dict written out and
    unpacked into the call or into a project wrapper that passes its keywords on (`kwargs =
    {"timeout": 20}; send_query(q, **kwargs)`), unless the code replaces it on some path
    (`params["timeout"] = float(data["timeout"])`: a default, as in `data.get("timeout", 3.0)`).
    A name, an attribute or a call
    (`timeout=TIMEOUT`, `timeout=settings.http_timeout`, `timeout=cfg.timeout()`) is not flagged.

    Generic waits (`asyncio.wait_for`, `asyncio.timeout`) are not flagged: how long to wait for
    your own work is the caller's business. Nor is the timeout of a socket the program serves
    on (one the file binds or listens on and never connects or sends from): it bounds a wait
    for inbound traffic (`recv`, `accept`), not an outbound call, and no RES1xx rule judges it. A literal that is also too large is reported as
    RES105 and one that is unbounded as RES102, never twice. A client call that a test double
    answers in the process (moto, responses, requests-mock, respx, a `mock.patch`,
    `patch.object`, `mocker.patch` or `monkeypatch.setattr` of the client, …, see RES105) is
    not judged. Connection settings of the clients RES101 lists count too: pycurl's
    `setopt(pycurl.TIMEOUT, 30)`, `hvac.Client(timeout=10)`, `pymysql.connect(connect_timeout=5)`,
    requests-hardened's `Config(default_timeout=(2, 10))`.

    Test code is not checked (the `test-code` setting says which files are, as for RES202): a
    test's literal timeout bounds a call to the server or container the test itself runs, and
    belongs to the test, not to a configuration that production tunes.

    ## Why is this bad?
    A timeout is a business answer ("after how long is the answer worthless to the caller?")
    that should follow the dependency's healthy p99 latency (× ~1.3–1.5) and the caller's
    remaining deadline. A magic number copied to every call site cannot follow either: when the
    dependency's p99 moves from 200 ms to 2 s, a `timeout=1` at 40 call sites turns every call
    into an error, and a `timeout=30` inside a request that must answer within 5 s lets one slow
    call hold a worker 25 s after its caller has given up.

    ## Example
    ```python
    import requests

    def fetch_rates():
        return requests.get("https://rates.example.com/latest", timeout=30)
    ```

    ## Use instead
    Derive the timeout from configuration, and clamp it to the remaining deadline with the
    runtime's deadline-aware, split timeout:
    ```python
    import requests
    from resilint.runtime import timeout

    from myapp.settings import RATES_P99

    def fetch_rates():
        return requests.get(
            "https://rates.example.com/latest",
            timeout=timeout(connect=0.5, read=RATES_P99 * 1.4),
        )
    ```

    ## Fix safety
    The fix (codemod `split-timeout`) is **unsafe**: it changes what the number means. It
    never writes another literal at the call: the seconds are named once per value and file, by
    module constants after the imports that every call with that value uses (and that a later
    run reuses). On a requests or httpx call, `timeout=N` becomes
    `timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)` from
    `resilint.runtime` (`.as_httpx()` for httpx), with `HTTP_READ_TIMEOUT = N`: the user's
    number stays the read ceiling, but the connect phase gets its own, shorter bound (the
    `fix-timeout` setting's `connect`, at most `N`), and both are lowered to the caller's
    remaining deadline, so a call that waited `N` s to connect may now fail sooner. A literal
    pair `(c, r)` keeps both values. A second value in the file gets constants named after the
    enclosing function (`UPLOAD_READ_TIMEOUT`) or numbered. With the native fix target the
    constant is what the library takes: `HTTP_TIMEOUT = (C, N)` for requests,
    `HTTP_TIMEOUT = httpx.Timeout(N, connect=C)` for httpx. Other shapes (`5 * 60`, `httpx.Timeout(10)`, aiohttp,
    sockets, botocore) are left alone and listed by `resilint fix --unsafe-fixes`.

    Both fix targets (`fix-target`): the runtime target (a project that declares
    `resilint-runtime` or imports it) passes `resilint.runtime.timeout(...)`; the native target
    writes the constant as the library takes it and imports nothing new, so no fix adds an
    undeclared dependency.

    ## Options
    `test-code` (shared with RES202; by default `tests/*`, `*/tests/*`, `test_*.py`,
    `conftest.py` and the other patterns RES202 lists, with the scripts the project's test
    tooling runs while the setting is the default): the files this rule leaves alone.
    `test-code = []` checks them too.
    """

    code = "RES103"
    name = "hardcoded-timeout"
    message = "hard-coded timeout"
    triggers = TRIGGERS
    VALID = [
        # a request a mounted adapter of the file sends over a Unix-domain socket (certbot's
        # snapd client): a local daemon, not a network dependency
        """
        import socket
        from requests import Session
        from requests.adapters import HTTPAdapter
        from urllib3.connection import HTTPConnection
        from urllib3.connectionpool import HTTPConnectionPool

        def snap_connections():
            with Session() as session:
                session.mount("http://snapd/", SnapdAdapter())
                return session.get("http://snapd/v2/connections?snap=certbot", timeout=30.0).json()

        class SnapdConnection(HTTPConnection):
            def connect(self):
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect("/run/snapd.socket")

        class SnapdConnectionPool(HTTPConnectionPool):
            def _new_conn(self):
                return SnapdConnection("localhost")

        class SnapdAdapter(HTTPAdapter):
            def get_connection(self, url, proxies=None):
                return SnapdConnectionPool("localhost")
        """,
        # the written timeout is a default the caller's own value replaces
        """
        import requests
        def probe(data):
            params = {"method": "HEAD", "url": data["url"], "timeout": 3.0}
            if "timeout" in data:
                params["timeout"] = float(data["timeout"])
            return requests.request(**params).status_code
        """,
        # a socket the program serves on: the timeout only wakes its receive loop up
        """
        import socket
        def serve(stop, handle):
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sock.settimeout(3)
            sock.bind(("127.0.0.1", 8125))
            while not stop.is_set():
                try:
                    handle(sock.recv(65535))
                except socket.timeout:
                    continue
        """,
        """
        import requests
        from myapp import settings
        requests.get("https://a.example", timeout=settings.HTTP_TIMEOUT)
        """,
        """
        import requests
        from resilint.runtime import timeout
        requests.get("https://a.example", timeout=timeout(connect=0.5, read=2.0))
        """,
        """
        import requests
        TIMEOUT = (3.05, 10)

        def fetch():
            return requests.get("https://a.example", timeout=TIMEOUT)
        """,
        """
        import asyncio

        async def main(job):
            return await asyncio.wait_for(job, 10)
        """,
        """
        import requests
        requests.get("https://a.example", timeout=300)
        """,
    ]
    INVALID = [
        # the same adapter mounted for one host does not make another host's request local
        Invalid(
            """
            import socket
            from requests import Session
            from requests.adapters import HTTPAdapter

            def snap_and_store():
                with Session() as session:
                    session.mount("http://snapd/", SnapdAdapter())
                    return session.get("https://store.example.com/v2/snaps", timeout=30.0).json()

            class SnapdAdapter(HTTPAdapter):
                def get_connection(self, url, proxies=None):
                    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    return make_pool(sock)
            """,
            line=8,
        ),
        Invalid(
            # a dict written out, unpacked into a wrapper that passes its keywords on
            """
            from typing import Any
            import httpx
            CLIENT = httpx.Client()
            def send_query(query, **kwargs):
                return CLIENT.get("https://query.example/sparql", params={"query": query}, **kwargs)
            def init():
                kwargs: dict[str, Any] = {"timeout": 20}
                return send_query("SELECT 1", **kwargs)
            """,
            line=7,
            message="`httpx.Client.get` has a hard-coded timeout `20`: take it from configuration (passed through `send_query`)",
        ),
        Invalid(
            # one value two constructions share is one finding
            """
            import urllib3
            def pool(host, secure):
                pool_kwargs = {"timeout": urllib3.Timeout(connect=10, read=30)}
                if secure:
                    return urllib3.HTTPSConnectionPool(host, **pool_kwargs)
                return urllib3.HTTPConnectionPool(host, **pool_kwargs)
            """,
            line=3,
            count=1,
        ),
        Invalid(
            """
            import requests
            requests.get("https://a.example", timeout=10)
            """,
            line=2,
            message="has a hard-coded timeout `10`: take it from configuration",
        ),
        Invalid(
            """
            import requests
            s = requests.Session()
            s.post("https://a.example", timeout=(3, 27))
            """,
            line=3,
        ),
        Invalid(
            """
            import httpx
            client = httpx.Client(timeout=httpx.Timeout(10))
            """,
        ),
        Invalid(
            """
            import socket
            sock = socket.socket()
            sock.settimeout(5)
            """,
            line=3,
        ),
        Invalid(
            # bound to a local port, but it sends to another host: its timeout is an outbound one
            """
            import socket
            def ping(host):
                sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                sock.settimeout(3)
                sock.bind(("0.0.0.0", 5353))
                sock.sendto(b"ping", (host, 7))
                return sock.recv(64)
            """,
            line=4,
        ),
        Invalid(
            """
            import boto3
            from botocore.config import Config
            s3 = boto3.client("s3", config=Config(connect_timeout=2, read_timeout=5))
            """,
        ),
        Invalid(
            """
            import aiohttp

            async def fetch(url):
                async with aiohttp.ClientSession() as s:
                    return await s.get(url, timeout=aiohttp.ClientTimeout(total=10, sock_connect=2))
            """,
            line=5,
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        if not is_test_code(ctx.model.path, ctx.settings):
            report_verdicts(ctx, self.code)

    def check_project(self, ctx: ProjectContext) -> None:
        report_project_verdicts(ctx, self.code, skip=ctx.in_test_code)
