"""RES102 unbounded-timeout."""

from __future__ import annotations

from resilint.lint.rule import Invalid, Rule, RuleContext
from resilint.rules.timeouts.clients import TRIGGERS
from resilint.rules.timeouts.values import report_verdicts


class UnboundedTimeout(Rule):
    """A timeout is given explicitly, but its value waits forever.

    ## What it does
    Flags a timeout argument whose value is unbounded: `timeout=None`, a `(connect, read)`
    tuple with `None` in it, `float("inf")`, `math.inf`, `httpx.Timeout(None)` or an
    `httpx.Timeout` with any phase set to `None` (`httpx.Timeout(5, read=None)`). It applies to
    every client that takes a timeout, including httpx, whose 5 s default an explicit `None`
    switches off, and to module constants that hold such a value (`TIMEOUT = None`).

    ## Why is this bad?
    `None` reads like "use the default", but for these libraries it means "no limit at all". A
    read phase without a limit lets a server that accepted the connection and then stalled
    hold the caller's connection and worker indefinitely, which is how one slow dependency
    drains a shared pool (see RES101 for the Little's law arithmetic).

    ## Example
    ```python
    import httpx
    import requests

    client = httpx.Client(timeout=None)
    requests.get(url, timeout=(3.05, None))
    ```

    ## Use instead
    ```python
    import httpx
    import requests

    client = httpx.Client(timeout=httpx.Timeout(10.0, connect=1.0))
    requests.get(url, timeout=(3.05, 10))
    ```
    """

    code = "RES102"
    name = "unbounded-timeout"
    message = "unbounded timeout"
    triggers = TRIGGERS
    VALID = [
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
    ]
    INVALID = [
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
    ]

    def check(self, ctx: RuleContext) -> None:
        report_verdicts(ctx, self.code)
