"""RES104 unsplit-timeout."""

from __future__ import annotations

from resilint.libraries.clients import TRIGGERS
from resilint.lint.project import ProjectContext
from resilint.lint.rule import Invalid, RuleContext
from resilint.rules.project_rule import ProjectRule
from resilint.libraries.timeout_verdicts import report_project_verdicts, report_verdicts


class UnsplitTimeout(ProjectRule):
    """One timeout value covers both connecting and reading, where the client can split them.

    ## What it does
    Flags a single scalar timeout passed to requests, httpx or aiohttp, which all accept
    separate connect and read limits: a number, a module constant resolved by value
    (`TIMEOUT = 10` … `timeout=TIMEOUT`, in this module or imported from another, or a Django
    setting `settings.TIMEOUT`, read as RES102 describes), a number the class body sets once
    and no method sets, read through `self` (`timeout = 30` … `timeout=self.timeout`, as RES105
    reads it), `httpx.Timeout(TIMEOUT)` with no phase set, or
    `aiohttp.ClientTimeout(total=TIMEOUT)` alone; also in a local name, read from the one
    assignment that reaches the call (`timeout = ClientTimeout(total=15)` written again before a
    second use counts for each). A value of unknown shape (a parameter, any
    other attribute, a call) is not flagged, since it may already be a split timeout. A value passed
    to a project wrapper that hands its `**kwargs` on to the client (also beside `*args`, for a
    client that takes its timeout only by keyword: `requests.post(url, *args, **kwargs)`) is
    judged where it is passed.

    A literal at the call site is reported as RES103 instead (whose fix, the runtime's
    `timeout(connect=..., read=...)`, splits it too), and a value above `max-timeout` as
    RES105: one argument gets at most one timeout finding. A client call that a test double
    answers in the process (moto, responses, requests-mock, respx, …, see RES105) is not
    judged.

    ## Why is this bad?
    Connecting and reading fail for different reasons and deserve different limits. A connect
    that does not complete within ~1 s (a few round trips) almost always means a dead or
    overloaded instance, and the right move is to try another one quickly. A read waits for work
    the server has accepted, and may legitimately take the dependency's p99. With one value of
    10 s for both, a dead instance costs 10 s per attempt instead of 1 s: with 3 attempts, 30 s
    of a worker for a call that could have failed over within 3 s.

    ## Example
    ```python
    import requests

    TIMEOUT = 10

    def fetch_rates():
        return requests.get("https://rates.example.com/latest", timeout=TIMEOUT)
    ```

    ## Use instead
    ```python
    import requests

    CONNECT_TIMEOUT, READ_TIMEOUT = 1.0, 10

    def fetch_rates():
        return requests.get("https://rates.example.com/latest", timeout=(CONNECT_TIMEOUT, READ_TIMEOUT))
    ```
    """

    code = "RES104"
    name = "unsplit-timeout"
    message = "one timeout for connect and read"
    default = False
    triggers = TRIGGERS
    VALID = [
        """
        import requests
        TIMEOUT = (1.0, 10)

        def fetch():
            return requests.get("https://a.example", timeout=TIMEOUT)
        """,
        """
        import requests

        def fetch(timeout):
            return requests.get("https://a.example", timeout=timeout)
        """,
        """
        import httpx
        READ = 10
        httpx.Client(timeout=httpx.Timeout(READ, connect=1.0))
        """,
        """
        import socket
        TIMEOUT = 10
        socket.create_connection(("db", 5432), TIMEOUT)
        """,
    ]
    INVALID = [
        # the local assigned again before its second use: each use reads the assignment that
        # reaches it (chia's public-address lookup and its fallback)
        Invalid(
            """
            from aiohttp import ClientSession, ClientTimeout

            async def peer_ip():
                try:
                    timeout = ClientTimeout(total=15)
                    async with ClientSession(timeout=timeout) as session:
                        async with session.get("https://ip.example.net/") as resp:
                            return await resp.text()
                except Exception:
                    timeout = ClientTimeout(total=15)
                    async with ClientSession(timeout=timeout) as session:
                        async with session.get("https://checkip.example.com/") as resp:
                            return await resp.text()
            """,
            line=6,
            message="one timeout of 15 s",
            count=2,
        ),
        Invalid(
            # a number the class body sets, read through ``self`` (bazarr's Titulky provider)
            """
            from requests import Session
            class TitulkyProvider:
                timeout = 30
                def __init__(self):
                    self.session = Session()
                def fetch_page(self, url):
                    return self.session.get(url, timeout=self.timeout).text
            """,
            line=7,
            message="one timeout of 30 s",
        ),
        Invalid(
            # through a wrapper that hands ``*args`` and ``**kwargs`` on
            """
            import requests
            TIMEOUT = 5
            def make_request(url, *args, **kwargs):
                return requests.post(url, *args, **kwargs)
            def create_incident(url, title):
                return make_request(url, json={"title": title}, timeout=TIMEOUT)
            """,
            line=6,
            message="one timeout of 5 s",
        ),
        Invalid(
            """
            import requests
            TIMEOUT = 10

            def fetch():
                return requests.get("https://a.example", timeout=TIMEOUT)
            """,
            line=5,
            message="timeout=(connect, read)",
        ),
        Invalid(
            """
            import httpx
            TIMEOUT = 10
            client = httpx.AsyncClient(timeout=httpx.Timeout(TIMEOUT))
            """,
            message="httpx.Timeout(read, connect=...)",
        ),
        Invalid(
            """
            import aiohttp
            TOTAL = 20

            async def fetch(url):
                async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TOTAL)) as s:
                    return await s.get(url)
            """,
            line=5,
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        report_verdicts(ctx, self.code)

    def check_project(self, ctx: ProjectContext) -> None:
        report_project_verdicts(ctx, self.code)
