"""RES105 excessive-timeout."""

from __future__ import annotations

from resilint.libraries.clients import TRIGGERS
from resilint.lint.config import is_test_code
from resilint.lint.project import ProjectContext
from resilint.lint.rule import Invalid, RuleContext
from resilint.rules.project_rule import ProjectRule
from resilint.libraries.timeout_verdicts import report_project_verdicts, report_verdicts


class ExcessiveTimeout(ProjectRule):
    """An outbound call may wait longer than `max-timeout` (30 s by default).

    ## What it does
    Flags an effective timeout above `max-timeout`, comparing the largest phase:

    - a literal or arithmetic of literals (`timeout=120`, `timeout=5 * 60`), the longer branch
      of a choice between them (`timeout=30 if fast else 60`), a module constant
      resolved by value (`TIMEOUT = 300` … `timeout=TIMEOUT`, also a constant another module
      defines: `from app.settings import HTTP_TIMEOUT` or `settings.HTTP_TIMEOUT`, a number, a
      `(connect, read)` tuple, an `httpx.Timeout(...)`, `timedelta(...).total_seconds()` or
      arithmetic on the module's constants, `BACKUP_TIMEOUT = SERVER_TIMEOUT * 30`, given
      to a client call (by keyword or by position), to a request on a session a project
      function returns, or to a project wrapper that passes it on; one assigned different
      values, or `None` on some path, is not one value and is not judged; Django's
      `django.conf.settings.HTTP_TIMEOUT` is what the settings modules give it, see RES102),
      an attribute its class sets once, to a number, a constant or a tuple of them
      (`self.timeout = 60` in `__init__`, then `timeout=self.timeout` in a method; with
      `self.timeout = timeout or (5, 60)`, the tuple is what every caller that gives no
      `timeout` gets, as `REQUEST_TIMEOUT` is in `float(configured) if configured else
      REQUEST_TIMEOUT` with `configured = config.get("request_timeout")` for every
      configuration without that key, also written as an `if configured:` / `else:` that sets
      the attribute on each path, or a local replaced by the setting when one is given
      (`timeout = 300`, then `if net_config is not None: timeout = net_config.get("rpc_timeout",
      timeout)`); or `HTTP_TIMEOUT = 40` in the class
      body (or `timeout = TIMEOUT`, a constant's), which no method sets, read as `self.HTTP_TIMEOUT`, or as `Config.HTTP_TIMEOUT`
      anywhere in the file: the value for that class's
      instances; not a field declared with its type, `timeout: int = 30`, which configuration
      fills in), a parameter default its `__init__`
      keeps there (`__init__(self, cfg, timeout=120)`, also `kwargs.get("timeout", 120)` of its
      own `**kwargs`, or a constant another module or a class defines,
      `timeout=DEFAULT_TIMEOUT`, `timeout=Transfer.DEFAULT_TIMEOUT`; also for the requests of a subclass in
      another module, made without a timeout: `LlamaCppClient(cfg)`; also when a method binds
      it on the session, `session.request = functools.partial(session.request,
      timeout=self.timeout)`, and when another class hands its own default on by position,
      `Loader.__init__(self, request_timeout=300.0)` making `Context(quiet, request_timeout)`,
      reported where `Loader()` is made; not where the object
      never leaves the function that makes it and nothing read or called on it there runs a
      method that sends, as for RES102), a default a wrapper fills
      into the `**kwargs` it hands a client (`kwargs["timeout"] = DEFAULT_TIMEOUT`,
      `kwargs.setdefault("timeout", ...)` or `kwargs.update(timeout=...)`, also into a copy
      of them, `req_kw = deepcopy(kwargs)`, reported where it is written), `timedelta(minutes=5)` and its
      `.total_seconds()` (and `.seconds`, its seconds part without the days);
    - the largest phase of a `(connect, read)` tuple, an `httpx.Timeout`, an
      `aiohttp.ClientTimeout`, a `urllib3.Timeout`, or a botocore `Config` (a phase it leaves
      unset counts at botocore's 60 s default);
    - library defaults, reported once where the client is built, not at each request:
      `aiohttp.ClientSession()` (and `aiohttp.request`) without a timeout waits 300 s in total;
      `boto3.client(...)`, `boto3.resource(...)`, `boto3.Session().client(...)`,
      `session.client(...)` and botocore's `create_client(...)` without
      `config=Config(connect_timeout=..., read_timeout=...)` (also given `config=None`, on every
      path or one, which selects botocore's default `Config`) wait 60 s to connect and 60 s per
      read; `psycopg.connect(...)` (psycopg 3) without `connect_timeout` (or with 0 or `None`)
      waits 130 s to connect; googleapiclient's `build(...)` (and `build_from_document`)
      without `http=` makes its `httplib2.Http` with `build_http()`, 60 s
      (`DEFAULT_HTTP_TIMEOUT_SEC`), or the default a `socket.setdefaulttimeout(N)` sets before
      it in the same function (a value the file cannot read leaves the call alone) or at the
      top level of the same module (one set in another module is not seen); pycurl's
      `CONNECTTIMEOUT` of 0 (or `None`) selects libcurl's 300 s.
    - the values of the clients RES101 lists: pycurl's `TIMEOUT_MS`/`CONNECTTIMEOUT_MS` are
      read in milliseconds, hvac's `Client(timeout=...)`, PyMySQL's and mysql-connector's
      `connect_timeout`, zeep's `operation_timeout`, requests-hardened's
      `Config(default_timeout=...)`.

    Bounded defaults that are not above the default `max-timeout`: httpx 5 s,
    `urllib3.request` 3 s, PyMySQL's `connect_timeout` 10 s, hvac's 30 s (RES101's table lists
    every client's default).

    A boto3 client that only signs URLs sends nothing: `generate_presigned_url`,
    `generate_presigned_post` and RDS's `generate_db_auth_token` compute a signature in the
    process, so its timeouts never apply
    and its construction is not reported. The client is followed by the value flow: a local,
    `self.attr`, a module global, a factory (`presign_client().generate_presigned_url(...)`),
    a parameter it is passed as, in any module; `resource.meta.client.generate_presigned_url`
    signs too. Nor does a client whose only use in its file is to read what botocore resolved
    in the process (`client.meta.endpoint_url`, `.meta.region_name`), with no call through it.
    A `client(...)` given a name no botocore service has (`session.client(
    "azure.keyvault.secrets.SecretClient")`, on a parameter that some callers fill with a boto3
    session) is another library's session building its own kind of client, and is not judged
    as boto3's.
    It is reported as usual when any call the project makes through it does
    something else (`put_object`, `get_paginator`, `meta.client.upload_file`), when it is passed
    to a library (`S3Transfer(client)`, `getattr(client, name)`), or when no use of it
    is seen at all. When only some files are checked (pre-commit), the calls of modules they
    do not import are not seen, as for every value the project pass follows: what the
    client's own file does with it decides.

    Likewise an `aiohttp.ClientSession()` (or an `httpx` client, when `max-timeout` is below its
    5 s) made without a timeout is not reported when every request the project sends through
    it gives its own bounded timeout (`session.get(u, timeout=aiohttp.ClientTimeout(connect=3,
    sock_read=10))`), which replaces the session's 300 s: it is followed the same way, in any
    module, and `close()` sends nothing. A request that gives `timeout=None` (no limit at all,
    RES102 at the request) or a value that cannot be read (the caller's `timeout` parameter)
    replaces the session's default too: whatever it waits, it is not the 300 s. The session is
    reported as usual when one request gives no timeout,
    when some other call is made through it (`ws_connect`), when it is passed to a library
    (a project function it is passed to is followed: the requests it makes on its parameter
    count, and so does where it passes it on), when a factory returning it is called by no
    code of the project, or when no request through it is seen at all. A `@property` that
    builds the session (and may cache it in `self.__dict__`) is read, not called: the requests
    sent through what it returns decide. A client made with a long default
    (`httpx.AsyncClient(timeout=60)`) is not reported either when every request the file sends
    through it gives its own timeout, which replaces that default (one of `None` is RES102 where
    it is given); when other modules may reach such a client (it is stored on `self`, returned
    or passed on), its default is judged as usual.

    Generic waits (`asyncio.wait_for`) are not judged: a long wait for your own work is a design
    choice, not a dependency's latency. An unbounded value is RES102, not RES105.

    Calls that never leave the process are not judged by any timeout rule: a boto3 client
    built while moto is active (`mock_aws()` or an older `mock_s3()` as a `with` block, a
    decorator on the test or its class, `.start()` in `setUp`, or `.__enter__()` there), a requests call under
    `responses` or `requests-mock` (also a client that sends with requests: hvac, slumber,
    zeep, jira, python-gitlab), httpx under `respx` or pytest-httpx (also openai-python's
    client, and zeep's `AsyncClient` and `AsyncTransport`), aiohttp under
    `aioresponses`, HTTP under `httpretty` or a vcrpy cassette (`vcr.use_cassette`,
    `@pytest.mark.vcr`), requests under a Betamax cassette (`Betamax(session).use_cassette(...)`,
    the `betamax_session` fixture), a redis client or pool given fakeredis's
    `connection_class` (its server lives in the process); and a client function, method or class replaced
    by `unittest.mock.patch` (or the `mock` backport), `patch.object`, `patch.multiple`,
    pytest-mock's `mocker.patch` (`.object`, `.multiple`) or pytest's `monkeypatch.setattr`,
    as a decorator on the test or its class, a `with` block, a patcher's `.start()`, or a call
    in the test or one of its fixtures. A patch replaces the object it names wherever it is
    called: `patch("app.http.requests.get")` and `patch.object(requests, "get")` answer
    `requests.get(...)` in the test; `patch("requests.Session")` every method of the class;
    `patch.object(requests.Session, "request")` (or `send`, `get_adapter`, or
    `HTTPAdapter.send`), which every requests call goes through, all of requests; `patch("socket.socket")`, which every
    pure-Python client connects through (not psycopg2's libpq), all of those. A patch of a name in a project module
    (`patch("app.http.get")`) replaces only that module's name, and leaves the test's own calls
    judged; a call the test makes through a project wrapper is answered when the patch replaces
    that wrapper (`patch("shop.vendors.metadata")`, `patch.object(httpclient.HTTPClient, "post")`) or the module's client it sends through
    (`patch("shop.vendors.async_session.get")` or `patch("shop.vendors.async_session")` for
    `async_session = httpx.AsyncClient()`), or the project function that makes the session the
    wrapper sends on (`monkeypatch.setattr(safe_requests, "create_safe_session", lambda:
    session)`), or a project class whose methods, or a
    subclass's, the wrapper runs (`patch("app.sync.GrafanaAPIClient")`). A `mocker.patch` counts for the whole test, also for calls before it. A pytest
    fixture of the same file that yields inside such a mock (or starts it) covers the tests
    and fixtures that request it by parameter, `@pytest.mark.usefixtures` or `autouse`; so do
    the plugins' own `requests_mock`, `respx_mock`, `httpx_mock` and pytest-vcr's
    `vcr_cassette` fixtures, and a helper of
    the file that is only called under the mock (`create_bucket()` from mocked tests) is
    covered too, as is a `with` of a helper of the file that yields inside a mock (a
    `@contextmanager` around `patch(...)`), and so does a class of any module of the project,
    named as a double, that keeps one on while it is active (`@HttpMocker()` or `with
    HttpMocker():` where `HttpMocker.__enter__` enters the `requests_mock.Mocker()` it made;
    one that keeps no such double on leaves the calls judged). So is a project object whose client the test, or
    the fixture of the file that gives it, replaces with a mock object (`client._session =
    mock.MagicMock()`, also `Mock`, `AsyncMock`, `create_autospec` or `mocker.MagicMock()`, set
    on an attribute named for a client: session, client, http, connection, transport, pool):
    its construction and its methods' requests there. A client (or project object) the test
    keeps in a local and uses only to call its methods, or its parts' (`client.service.Op()`),
    is covered where every one of those calls is, also when it is made before the mock (`client
    = zeep.Client(wsdl, transport=Transport())`, then `with requests_mock.mock(): ...`); an
    object it reads otherwise, passes or returns is not. A fixture of a `conftest.py` above the
    test, or of a pytest plugin (a module a `pytest_plugins` list names, or one the packaging
    registers as a `pytest11` entry point), that keeps such a double on covers the tests that
    request it, also through a fixture of their own file (`dogshell(capsys, dog)` with `dog`
    in `conftest.py`), and the `autouse` ones (also one a hook of that `conftest.py` adds to the
    tests it runs, `item.fixturenames.append("use_vcr")` in `pytest_runtest_setup`, maybe for
    a marker only): the project pass sees those, and takes back
    the findings their files made on the calls they answer.

    ## Why is this bad?
    By Little's law (in-flight = arrival rate × time in system), a worker pool of 50 serving
    100 requests/s has room for 0.5 s per call. With a 300 s timeout, a dependency that stops
    answering lets every call it receives hold a worker for up to 300 s: the whole pool is
    occupied in half a second, and pages that never touch that dependency fail with it. Few
    callers still want an answer after 30 s; past the caller's own deadline the work is wasted.

    ## Example
    ```python
    import aiohttp
    import requests

    TIMEOUT = 300

    def export():
        return requests.post("https://reports.example.com/export", timeout=TIMEOUT)

    async def crawl(urls):
        async with aiohttp.ClientSession() as session:  # 300 s total by default
            ...
    ```

    ## Use instead
    ```python
    import aiohttp
    import requests

    TIMEOUT = (1.0, 20)

    def export():
        return requests.post("https://reports.example.com/export", timeout=TIMEOUT)

    async def crawl(urls):
        timeout = aiohttp.ClientTimeout(total=20, sock_connect=1, sock_read=10)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            ...
    ```
    Long-running work (an export) belongs in a background job that the caller polls, not in a
    request that holds a connection for minutes.

    Test code is not checked (the `test-code` setting says which files are, as for RES103): a
    test that waits long bounds a call to a server the test run starts itself, often slowed on
    purpose, and serves no production traffic.

    ## Options
    - `max-timeout` (seconds, default 30; `--max-timeout` on the command line): the largest
      timeout that is not reported.
    - `test-code` (shared with RES103 and RES202): the files left alone.
    """

    code = "RES105"
    name = "excessive-timeout"
    message = "timeout above max-timeout"
    triggers = TRIGGERS
    VALID = [
        # the session a property builds and caches: every request sent through it gives its own
        # timeout (geopy's AioHTTPAdapter)
        """
        import aiohttp
        class AioHTTPAdapter:
            @property
            def session(self):
                session = self.__dict__.get("session")
                if session is None:
                    session = aiohttp.ClientSession(trust_env=False)
                    self.__dict__["session"] = session
                return session
            async def __aexit__(self, *exc):
                await self.session.close()
            def _request(self, url, *, timeout):
                return self.session.get(url, timeout=timeout)
        """,
        # the request's own timeout is set inside the ``try``, under a test of an attribute that
        # is always a ClientTimeout, so never false (okta-sdk-python's HTTPClient)
        """
        import aiohttp
        class HTTPClient:
            def __init__(self, config):
                self._timeout = aiohttp.ClientTimeout(total=config["requestTimeout"])
            async def send(self, request):
                try:
                    params = {"method": request["method"], "url": request["url"]}
                    if self._timeout:
                        params["timeout"] = self._timeout
                    async with aiohttp.ClientSession() as session:
                        async with session.request(**params) as response:
                            return await response.text()
                except aiohttp.ClientError:
                    return None
        """,
        # whether the http client is given is the callers' choice: they may always give one
        """
        from googleapiclient import discovery
        def service(credentials, name, version, http=None):
            kwargs = {"serviceName": name, "version": version}
            if http:
                kwargs["http"] = http
            else:
                kwargs["credentials"] = credentials
            return discovery.build(**kwargs)
        """,
        # a client built only to be wrapped in botocore's own test double: nothing is sent
        """
        import botocore.session
        from botocore.stub import Stubber
        def stubbed_glue():
            client = botocore.session.get_session().create_client("glue", region_name="mars-east-1")
            stubber = Stubber(client)
            stubber.add_response("get_databases", {"DatabaseList": []}, {})
            stubber.activate()
            return client
        """,
        # every request replaces the session's 300 s with the timeout its caller gives
        """
        from aiohttp import ClientSession
        async def token(url, headers, **kwargs):
            async with ClientSession(trust_env=True) as session:
                async with session.post(url, headers=headers, timeout=kwargs.get("timeout")) as resp:
                    return await resp.json()
        """,
        # every request replaces the client's 60 s default with its own
        """
        import httpx
        async def fetch(url, read_timeout):
            async with httpx.AsyncClient(timeout=60) as client:
                response = await client.get(url, timeout=read_timeout)
                return response.json()
        """,
        # build_http() takes the socket default the function sets just before (redash's
        # BigQuery runner), from a setting the file cannot read
        """
        import socket
        from googleapiclient.discovery import build
        from app import settings

        def bigquery(creds):
            socket.setdefaulttimeout(settings.BIGQUERY_HTTP_TIMEOUT)
            return build("bigquery", "v2", credentials=creds)
        """,
        # build_http() takes the socket default the module sets, within max-timeout
        """
        import socket
        from googleapiclient.discovery import build
        socket.setdefaulttimeout(20)

        def drive(creds):
            return build("drive", "v3", credentials=creds)
        """,
        """
        import requests
        requests.get("https://a.example", timeout=(3.05, 27))
        """,
        """
        import aiohttp

        async def fetch(url, timeout: float):
            s = aiohttp.ClientSession()
            try:
                return await s.get(url, timeout=aiohttp.ClientTimeout(total=timeout))
            finally:
                await s.close()
        """,
        """
        import aiohttp
        from app.settings import CONNECT_TIMEOUT, READ_TIMEOUT

        def make_client_session() -> aiohttp.ClientSession:
            return aiohttp.ClientSession(trust_env=False)

        class Transport:
            def __init__(self):
                self._client = None

            async def request(self, method, uri):
                if self._client is None:
                    self._client = make_client_session()
                timeout = aiohttp.ClientTimeout(connect=CONNECT_TIMEOUT, sock_read=READ_TIMEOUT)
                async with self._client.request(method, uri, timeout=timeout) as response:
                    return await response.text()
        """,
        """
        import aiohttp

        async def fetch(url):
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20)) as s:
                return await s.get(url)
        """,
        """
        import boto3
        from botocore.config import Config
        CONFIG = Config(connect_timeout=2, read_timeout=10, retries={"max_attempts": 3})
        s3 = boto3.client("s3", config=CONFIG)
        """,
        """
        import httpx
        httpx.get("https://a.example")
        """,
        """
        import asyncio

        async def main(job):
            return await asyncio.wait_for(job, 600)
        """,
        """
        import boto3

        def make(config):
            return boto3.client("s3", config=config)
        """,
        # a client that only signs URLs sends nothing
        """
        import boto3

        SIGNER = boto3.client("s3")

        def share_link(key):
            return SIGNER.generate_presigned_url("get_object", Params={"Bucket": "b", "Key": key})
        """,
        # a client made only to read the endpoint botocore resolves for a region
        """
        import boto3

        def bucket_endpoint(region):
            client = boto3.client("s3", region_name=region)
            return endpoint_host(client.meta.endpoint_url)
        """,
        # moto keeps the client in the process: no network, no timeout to judge
        """
        import boto3, pytest
        from moto import mock_aws

        @pytest.fixture
        def aws():
            with mock_aws():
                yield

        def test_upload(aws):
            boto3.client("s3").put_object(Bucket="b", Key="k", Body=b"")
        """,
    ]
    INVALID = [
        # a default a configuration may replace (``net_config.get("rpc_timeout", timeout)``):
        # every caller without one, or with one without the key, waits 300 s (chia's RPC client)
        Invalid(
            """
            import aiohttp

            async def create(url, net_config):
                timeout = 300
                if net_config is not None:
                    timeout = net_config.get("rpc_timeout", timeout)
                return aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout))
            """,
            line=7,
            message="may wait 300 s in the total phase",
        ),
        Invalid(
            # the timeout an FTP connection is opened with (luigi's FTP target)
            """
            import ftplib
            def open_ftp(host, port):
                ftp = ftplib.FTP()
                ftp.connect(host, port, 60)
                return ftp
            """,
            line=4,
            message="`ftplib.FTP.connect` may wait 60 s",
        ),
        # ``config=None`` is botocore's default ``Config``: 60 s, on this path too (scrapy's S3 feed storage)
        Invalid(
            """
            import boto3
            from botocore.config import Config
            def s3_client(max_pool_connections=None):
                return boto3.session.Session().client(
                    "s3", config=Config(max_pool_connections=max_pool_connections) if max_pool_connections else None,
                )
            """,
            line=5,
            message="may wait 60 s: botocore's default connect and read timeouts are 60 s each",
        ),
        # the timeout of the dict a method of the class returns (superdesk's feeding services)
        Invalid(
            """
            import requests
            class Feed:
                HTTP_TIMEOUT = 40
                def __init__(self):
                    self.session = requests.Session()
                def products(self, url):
                    return self.session.get(url, **self.request_kwargs())
                def request_kwargs(self):
                    kwargs = dict(timeout=self.HTTP_TIMEOUT, allow_redirects=True)
                    return kwargs
            """,
            line=9,
            message="may wait 40 s, above max-timeout (30 s)",
        ),
        # one request through the property's session sends with the 300 s default
        Invalid(
            """
            import aiohttp
            class Adapter:
                @property
                def session(self):
                    return aiohttp.ClientSession()
                async def fetch(self, url):
                    async with self.session.get(url) as response:
                        return await response.text()
            """,
            line=5,
        ),
        Invalid(
            # a number the class body sets, read through ``self`` (superdesk's AP media service)
            """
            import requests
            class APMediaFeedingService:
                HTTP_TIMEOUT = 40
                def __init__(self):
                    self.session = requests.Session()
                def products(self, url):
                    return self.session.get(url, timeout=self.HTTP_TIMEOUT)
            """,
            line=7,
            message="40 s",
        ),
        Invalid(
            # the request's timeout is set only when a flag says so: on the other path the
            # session's 300 s default applies
            """
            import aiohttp
            async def send(url, strict, timeout):
                params = {"method": "GET", "url": url}
                if strict:
                    params["timeout"] = aiohttp.ClientTimeout(total=timeout)
                async with aiohttp.ClientSession() as session:
                    async with session.request(**params) as response:
                        return await response.text()
            """,
            line=6,
        ),
        Invalid(
            # openai-python's own alias of OpenAI (crewAI's vector search tool)
            """
            from openai import Client
            def embed(text):
                return Client().embeddings.create(input=[text], model="text-embedding-3-small")
            """,
            line=3,
            message="`openai.OpenAI` is called without a timeout",
        ),
        Invalid(
            # a default the wrapper fills in for callers that pass none (unstructured's safe_get)
            """
            import requests
            DEFAULT_TIMEOUT = (10, 300)
            def safe_get(url, **kwargs):
                if kwargs.get("timeout") is None:
                    kwargs["timeout"] = DEFAULT_TIMEOUT
                return requests.Session().get(url, **kwargs)
            """,
            line=5,
            message="may wait 300 s in the read phase",
        ),
        Invalid(
            """
            from datetime import timedelta
            import urllib3
            timeout = timedelta(minutes=5).seconds
            http = urllib3.PoolManager(timeout=urllib3.Timeout(connect=timeout, read=timeout))
            """,
            line=4,
            message="may wait 300 s",
        ),
        # the attribute the class sets once, to a number, and passes to every request
        Invalid(
            """
            import requests
            class Tracker:
                def __init__(self):
                    self.session = requests.session()
                    self.timeout = 60
                def search(self, url):
                    return self.session.get(url, timeout=self.timeout)
            """,
            line=7,
            message="may wait 60 s",
        ),
        Invalid(
            # the longer branch of the choice counts
            """
            import requests
            def query(url, payload, include_ai, max_wait):
                return requests.post(url, json=payload, timeout=30 if not include_ai else 60)
            """,
            line=3,
            message="may wait 60 s",
        ),
        Invalid(
            # the client itself is handed on through its meta: used in a way the file hides
            """
            import boto3
            from boto3.s3.transfer import S3Transfer
            def uploader(region):
                client = boto3.client("s3", region_name=region)
                return S3Transfer(client.meta.client)
            """,
            line=4,
        ),
        Invalid(
            # the http_client that would bound it is given only behind a configured proxy
            """
            import httpx, openai
            from django.conf import settings
            def client(url, api_key):
                kwargs = {"base_url": url, "api_key": api_key}
                proxy = settings.GPT_PROXY
                if proxy:
                    kwargs["http_client"] = httpx.Client(proxy=proxy, timeout=20)
                return openai.OpenAI(**kwargs)
            """,
            line=8,
        ),
        Invalid(
            # both phases wait 600 s: the message names both
            """
            import aiohttp
            def make_session():
                timeout = aiohttp.ClientTimeout(total=None, sock_connect=600, sock_read=600)
                return aiohttp.ClientSession(timeout=timeout)
            """,
            line=4,
            message="600 s in the sock_read and sock_connect phases",
        ),
        Invalid(
            # this request waits by the client's default
            """
            import httpx
            async def fetch(url):
                async with httpx.AsyncClient(timeout=60) as client:
                    response = await client.get(url)
                    return response.json()
            """,
            line=3,
        ),
        Invalid(
            """
            import aiohttp

            async def fetch(url, timeout: float):
                async with aiohttp.ClientSession() as s:
                    await s.get(url, timeout=aiohttp.ClientTimeout(total=timeout))
                    return await s.get(url + "/more")
            """,
            line=4,
            message="`aiohttp.ClientSession` is called without a timeout",
        ),
        Invalid(
            """
            import aiohttp
            from app.settings import TIMEOUT
            from sse import SSEClient

            async def listen(url):
                session = aiohttp.ClientSession()
                await session.get(url, timeout=aiohttp.ClientTimeout(total=TIMEOUT))
                return SSEClient(url, session=session)
            """,
            line=6,
            message="`aiohttp.ClientSession` is called without a timeout",
        ),
        Invalid(
            """
            import requests
            TIMEOUT = 300

            def export():
                return requests.post("https://a.example", timeout=TIMEOUT)
            """,
            line=5,
            message="300 s",
        ),
        Invalid(
            """
            import aiohttp

            async def crawl(url):
                async with aiohttp.ClientSession() as session:
                    return await session.get(url)
            """,
            line=4,
            message="aiohttp's default total timeout is 300 s",
        ),
        Invalid(
            """
            import boto3
            session = boto3.Session()
            s3 = session.client("s3")
            """,
            line=3,
            message="botocore's default connect and read timeouts are 60 s",
        ),
        Invalid(
            """
            import boto3
            from botocore.config import Config
            s3 = boto3.Session().client("s3", config=Config(connect_timeout=5))
            """,
            message="read_timeout is not set",
        ),
        Invalid(
            """
            import psycopg
            conn = psycopg.connect("dbname=app")
            """,
            message="130 s",
        ),
        Invalid(
            """
            from datetime import timedelta
            import requests
            LIMIT = timedelta(minutes=5)
            requests.get("https://a.example", timeout=LIMIT.total_seconds())
            """,
            line=4,
        ),
        Invalid(
            """
            import httpx
            httpx.Client(timeout=httpx.Timeout(10, read=60))
            """,
            message="read phase",
        ),
        Invalid(
            """
            from googleapiclient.discovery import build

            def drive(creds):
                return build("drive", "v3", credentials=creds)
            """,
            line=4,
            message="60 s",
        ),
        Invalid(
            """
            import socket
            from googleapiclient.discovery import build
            TIMEOUT = 300
            socket.setdefaulttimeout(TIMEOUT)

            def drive(creds):
                return build("drive", "v3", credentials=creds)
            """,
            message="waits what this module's `socket.setdefaulttimeout` sets: 300 s",
            count=2,  # and the default itself, where it is set
        ),
        Invalid(
            """
            import socket
            from googleapiclient.discovery import build

            def drive(creds):
                socket.setdefaulttimeout(120)
                return build("drive", "v3", credentials=creds)
            """,
            message="waits what the function's `socket.setdefaulttimeout` sets: 120 s",
            count=2,  # and the default itself, where it is set
        ),
        Invalid(
            """
            import requests

            class Config:
                TIMEOUT = 90

            def fetch(url):
                return requests.get(url, timeout=Config.TIMEOUT)
            """,
            line=7,
            message="may wait 90 s",
        ),
        Invalid(
            """
            import requests

            class Transfer:
                DEFAULT_TIMEOUT = 60

            class FileDownload(Transfer):
                def __init__(self, source, timeout=Transfer.DEFAULT_TIMEOUT):
                    self.session = requests.Session()
                    self.source = source
                    self.timeout = timeout

                def run(self):
                    return self.session.get(self.source, timeout=self.timeout)

            def download(url):
                return FileDownload(url).run()
            """,
            line=16,
            message="the default `timeout=Transfer.DEFAULT_TIMEOUT` of `FileDownload`",
        ),
        Invalid(
            """
            import requests

            READ_TIMEOUT = 60

            class NetworkClient(requests.Session):
                def __init__(self, base_url, timeout=None):
                    super().__init__()
                    self.base_url = base_url
                    self.timeout = timeout or (5, READ_TIMEOUT)

                def request(self, method, path, **kwargs):
                    if "timeout" not in kwargs:
                        kwargs.update(timeout=self.timeout)
                    return super().request(method, self.base_url + path, **kwargs)
            """,
            line=13,
            message="may wait 60 s in the read phase",
        ),
        Invalid(
            """
            import requests

            class NetworkClient(requests.Session):
                def __init__(self):
                    super().__init__()
                    self.timeout = (5, 60)

                def request(self, method, url, **kwargs):
                    kwargs.setdefault("timeout", self.timeout)
                    return super().request(method, url, **kwargs)
            """,
            line=9,
            message="may wait 60 s in the read phase",
        ),
        Invalid(
            # a configuration without ``request_timeout`` falls back to 300 s (tap-freshdesk)
            """
            import requests

            REQUEST_TIMEOUT = 300

            class Client:
                def __init__(self, config):
                    self._session = requests.Session()
                    configured = config.get("request_timeout")
                    self.request_timeout = float(configured) if configured else REQUEST_TIMEOUT

                def get(self, url):
                    return self._session.get(url, timeout=self.request_timeout)
            """,
            line=12,
            message="may wait 300 s",
        ),
        Invalid(
            # the same fallback, as an ``if`` statement (tap-mailchimp)
            """
            import requests

            REQUEST_TIMEOUT = 300

            class Client:
                def __init__(self, config):
                    self._session = requests.Session()
                    configured = config.get("request_timeout")
                    if configured and float(configured):
                        self._timeout = float(configured)
                    else:
                        self._timeout = REQUEST_TIMEOUT

                def get(self, url):
                    return self._session.get(url, timeout=self._timeout)
            """,
            line=15,
            message="may wait 300 s",
        ),
        Invalid(
            # the class's default timeout, a module constant, filled into a copy of the
            # callers' keywords (pdpyras)
            """
            from copy import deepcopy
            from requests import Session

            TIMEOUT = 60

            class PDSession(Session):
                timeout = TIMEOUT

                def request(self, method, url, **kwargs):
                    req_kw = deepcopy(kwargs)
                    req_kw.update({"stream": False, "timeout": self.timeout})
                    return super().request(method, url, **req_kw)
            """,
            line=11,
            message="may wait 60 s",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        if not is_test_code(ctx.model.path, ctx.settings):
            report_verdicts(ctx, self.code)

    def check_project(self, ctx: ProjectContext) -> None:
        report_project_verdicts(ctx, self.code, skip=ctx.in_test_code)
