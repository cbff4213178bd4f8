"""RES101 missing-timeout."""

from __future__ import annotations

from resilint.lint.rule import Invalid, Rule, RuleContext
from resilint.rules.timeouts.clients import TRIGGERS, find_timeout, spec_for


class MissingTimeout(Rule):
    """An outbound call passes no timeout, and the library's default is to wait forever.

    ## What it does
    Flags calls to clients whose default wait is unbounded when no timeout is given:
    `requests` functions and `Session` methods (however the session is bound: a local, a
    `with` block, `self.session` set in `__init__`, a property, a module global, or a project
    function that returns one), `urllib.request.urlopen` (the timeout is its third positional
    argument), and the qualified names listed in `extend-clients`.

    A call that passes `**kwargs` of unknown content is not flagged (the timeout may be in
    there), nor is a name that only looks like the library (`def f(requests): requests.get(u)`).
    httpx calls are not flagged: httpx applies a 5 s default.

    ## Why is this bad?
    A call that can wait forever holds a connection, a thread and a worker slot for as long as
    the other side stays silent. By Little's law (in-flight = arrival rate × time in system), a
    pool of 50 workers serving 100 requests/s can afford 0.5 s per call; one dependency that
    stops answering while each call waits without limit fills the whole pool within a second,
    and requests that never touch that dependency start failing too.

    ## Example
    ```python
    import requests

    def fetch_rates():
        return requests.get("https://rates.example.com/latest").json()
    ```

    ## Use instead
    Pass a timeout split into connect and read, derived from the dependency's healthy p99 and
    capped by the caller's remaining deadline:
    ```python
    import requests
    from resilint.runtime import timeout

    def fetch_rates():
        return requests.get("https://rates.example.com/latest", timeout=timeout(connect=0.5, read=2.0)).json()
    ```

    ## Options
    - `extend-clients`: more qualified names (`"myapp.http.get"`) to treat as calls that need a
      timeout.
    """

    code = "RES101"
    name = "missing-timeout"
    message = "call without a timeout"
    triggers = TRIGGERS
    VALID = [
        """
        import requests
        requests.get("https://a.example", timeout=(3.05, 27))
        """,
        """
        import requests
        def fetch(url, **kwargs):
            return requests.get(url, **kwargs)
        """,
        """
        def fetch(requests, url):
            return requests.get(url)
        """,
        """
        import httpx
        httpx.get("https://a.example")
        """,
        """
        import requests
        requests.post("https://a.example", **{"timeout": 5, "json": {}})
        """,
        """
        import os
        os.environ.get("HOME")
        {}.get("x")
        """,
        """
        import urllib.request
        urllib.request.urlopen("https://a.example", None, 10)
        """,
    ]
    INVALID = [
        Invalid(
            """
            import requests
            requests.get("https://a.example")
            """,
            line=2,
            message="requests waits forever",
        ),
        Invalid(
            """
            import requests as rq
            rq.api.post("https://a.example", json={})
            """,
            line=2,
        ),
        Invalid(
            """
            from requests import post as send
            send("https://a.example", json={})
            """,
            line=2,
        ),
        Invalid(
            """
            import requests
            with requests.Session() as s:
                s.get("https://a.example")
            """,
            line=3,
        ),
        Invalid(
            """
            import requests
            requests.Session().put("https://a.example")
            """,
        ),
        Invalid(
            """
            import requests

            class Client:
                def fetch(self):
                    return self.session.get("https://a.example")

                def __init__(self):
                    self.session = requests.Session()
            """,
            line=5,
        ),
        Invalid(
            """
            import functools
            import requests

            class Client:
                @functools.cached_property
                def session(self):
                    return requests.Session()

                def fetch(self):
                    return self.session.get("https://a.example")
            """,
            line=10,
        ),
        Invalid(
            """
            import requests
            SESSION = requests.session()

            def fetch():
                return SESSION.delete("https://a.example")
            """,
            line=5,
        ),
        Invalid(
            """
            import requests

            def make_session():
                return requests.Session()

            def fetch():
                s = make_session()
                return s.head("https://a.example")
            """,
            line=8,
        ),
        Invalid(
            """
            from urllib.request import urlopen
            urlopen("https://a.example", None)
            """,
            message="global socket default",
        ),
        Invalid(
            """
            import requests
            def fetch(url, **kwargs):
                return requests.get(url, **{"json": kwargs})
            """,
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        extend = ctx.settings.extend_clients
        for call, name in ctx.model.iter_calls():
            spec = spec_for(name, extend)
            if spec is None or spec.unbounded_default is None:
                continue
            argument = find_timeout(call.node, spec)
            if argument.value is None and not argument.unknown:
                ctx.report(
                    call.node.func,
                    f"`{name}` is called without a timeout: {spec.unbounded_default}",
                    anchor=call.node,
                )
