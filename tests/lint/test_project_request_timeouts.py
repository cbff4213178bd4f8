"""RES101/RES105 on a client made without a default timeout (``aiohttp.ClientSession()``,
``urllib3.PoolManager()``) whose every request gives its own: not reported when the project
shows every use of the object and each request gives a bounded timeout; reported as before
when one does not, or the object goes where its uses cannot be read."""

from __future__ import annotations

import json

from tests.conftest import write_tree

FACTORIES = {
    "app/__init__.py": "",
    "app/http.py": """
        import aiohttp
        import urllib3

        def make_session():
            return aiohttp.ClientSession(trust_env=False)

        def make_pool():
            return urllib3.PoolManager(num_pools=1)
    """,
}

SESSION_FACTORY = {
    "app/__init__.py": "",
    "app/http.py": """
        import aiohttp

        def make_session():
            return aiohttp.ClientSession(trust_env=False)
    """,
}


def _findings(cli, root, *paths):
    result = cli(["check", "--select", "RES101,RES105", "--format", "json", "--no-cache", *paths], root)
    assert result.exit_code in (0, 1), result.output + result.stderr
    return [(f["path"], f["line"], f["code"]) for f in json.loads(result.output)["findings"]]


def test_every_request_in_another_module_gives_a_timeout(cli, tmp_path):
    write_tree(tmp_path, {**FACTORIES, "app/transport.py": """
        import aiohttp
        import urllib3
        from app.http import make_pool, make_session

        CONNECT, READ = 3, 10

        class Transport:
            def __init__(self):
                self._client = None
                self._http = make_pool()

            async def request(self, method, uri):
                if self._client is None:
                    self._client = make_session()
                timeout = aiohttp.ClientTimeout(connect=CONNECT, sock_read=READ)
                async with self._client.request(method, uri, timeout=timeout) as response:
                    return await response.text()

            async def close(self):
                await self._client.close()

            def get(self, uri):
                response = self._http.request("GET", uri, timeout=urllib3.Timeout(connect=CONNECT, read=READ))
                return response.data.decode()
    """})
    assert _findings(cli, tmp_path, "app") == []


def test_one_request_without_a_timeout_keeps_the_construction_reported(cli, tmp_path):
    write_tree(tmp_path, {**FACTORIES, "app/transport.py": """
        import aiohttp
        import urllib3
        from app.http import make_pool, make_session

        class Transport:
            def __init__(self, timeout: aiohttp.ClientTimeout):
                self._client = make_session()
                self._http = make_pool()
                self._timeout = timeout

            async def fetch(self, uri):
                return await self._client.get(uri, timeout=aiohttp.ClientTimeout(total=5))

            async def fetch_slowly(self, uri):
                return await self._client.get(uri)

            def get(self, uri):
                return self._http.request("GET", uri)
    """})
    assert _findings(cli, tmp_path, "app") == [("app/http.py", 5, "RES105"), ("app/http.py", 8, "RES101")]


def test_a_client_handed_on_is_reported(cli, tmp_path):
    write_tree(tmp_path, {**FACTORIES, "app/stream.py": """
        import urllib3
        from sseclient import SSEClient
        from app.http import make_pool, make_session

        def poll(uri):
            return make_pool().request("GET", uri, timeout=urllib3.Timeout(connect=1, read=5))

        def stream(uri):
            return SSEClient(uri, pool=make_pool())

        class Store:
            def __init__(self, session):
                self.session = session

        def keep():
            return Store(make_session())
    """})
    assert _findings(cli, tmp_path, "app") == [("app/http.py", 5, "RES105"), ("app/http.py", 8, "RES101")]


def test_a_session_handed_to_a_project_function_is_followed_into_it(cli, tmp_path):
    # The requests made on the parameter are the session's: each gives a timeout the callers
    # hand in (in a dict unpacked into the request), which replaces the 300 s default.
    write_tree(tmp_path, {**SESSION_FACTORY, "app/checker.py": """
        from app.http import make_session

        class Checker:
            def __init__(self, url, timeout):
                self.url, self.timeout = url, timeout

            async def _request(self, session, url, timeout, payload=None):
                send = session.post if payload else session.get
                arguments = {"url": url, "timeout": timeout}
                if payload:
                    arguments["json"] = payload  # a key set later: the timeout stays
                async with send(**arguments) as response:
                    return await response.text()

            async def check(self):
                async with make_session() as session:
                    return await self._request(session, self.url, self.timeout)
    """})
    assert _findings(cli, tmp_path, "app/http.py", "app/checker.py") == []


def test_a_session_a_project_function_hands_to_a_library_is_reported(cli, tmp_path):
    write_tree(tmp_path, {**SESSION_FACTORY, "app/checker.py": """
        from sseclient import SSEClient
        from app.http import make_session

        async def _listen(session, url):
            await session.get(url, timeout=5)
            return SSEClient(url, session=session)

        async def listen(url):
            async with make_session() as session:
                return await _listen(session, url)
    """})
    assert _findings(cli, tmp_path, "app/http.py", "app/checker.py") == [("app/http.py", 4, "RES105")]


def test_a_factory_nobody_in_the_project_calls_is_reported(cli, tmp_path):
    write_tree(tmp_path, {"app/__init__.py": "", "app/http.py": """
        import aiohttp

        def make_session():
            return aiohttp.ClientSession()

        class Api:
            def __init__(self):
                self.session = aiohttp.ClientSession()

            async def get(self, url):
                return await self.session.get(url, timeout=aiohttp.ClientTimeout(total=5))
    """})
    assert _findings(cli, tmp_path, "app") == [("app/http.py", 4, "RES105")]


def test_in_one_file_a_session_kept_where_its_uses_cannot_be_read_is_reported(cli, tmp_path):
    write_tree(tmp_path, {"app/__init__.py": "", "app/jobs.py": """
        import aiohttp

        T = aiohttp.ClientTimeout(total=5)
        REGISTRY = {}

        async def in_a_tuple(u):
            s = aiohttp.ClientSession()
            await s.get(u, timeout=T)
            return s, 1

        async def yielded(u):
            s = aiohttp.ClientSession()
            await s.get(u, timeout=T)
            yield s

        async def in_a_dict(u):
            s = aiohttp.ClientSession()
            await s.get(u, timeout=T)
            REGISTRY["s"] = s

        async def in_a_list(u, sessions):
            s = aiohttp.ClientSession()
            await s.get(u, timeout=T)
            sessions.append(s)

        async def in_a_lambda(u):
            s = aiohttp.ClientSession()
            await s.get(u, timeout=T)
            return lambda: s

        async def in_a_global(u):
            global G
            s = aiohttp.ClientSession()
            await s.get(u, timeout=T)
            G = s

        async def websocket(u):
            s = aiohttp.ClientSession()
            await s.get(u, timeout=T)
            return await s.ws_connect(u)

        async def closed(u):
            s = aiohttp.ClientSession()
            try:
                return await s.get(u, timeout=T)
            finally:
                await s.close()

        async def entered(u):
            async with aiohttp.ClientSession() as s:
                return await s.get(u, timeout=T)
    """})
    assert [line for _, line, _ in _findings(cli, tmp_path, "app")] == [7, 12, 17, 22, 27, 33, 38]
