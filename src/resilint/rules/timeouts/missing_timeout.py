"""RES101 missing-timeout."""

from __future__ import annotations

from resilint.libraries.clients import TRIGGERS
from resilint.libraries.django_cache import unbounded_redis_caches
from resilint.libraries.django_mail import unbounded_smtp_settings
from resilint.libraries.timeout_verdicts import report_project_verdicts, report_verdicts, test_server_calls
from resilint.lint.config import is_test_code
from resilint.lint.project import ProjectContext
from resilint.lint.rule import Invalid, RuleContext
from resilint.rules.project_rule import ProjectRule


class MissingTimeout(ProjectRule):
    """An outbound call passes no timeout, and the library's default is to wait forever.

    ## What it does
    Flags calls to clients whose default wait is unbounded when no timeout is given, at the
    call (the timeout belongs there):

    - `requests` functions and `Session` methods (`get/options/head/post/put/patch/delete/
      request/send`), however the session is bound: `requests.Session().get`, a local, a
      `with` block, `self.session` set in `__init__` (also from a mapping of keywords the
      constructor or a base unpacks, `Api(dict(session=s))` with `super().__init__(**config)`),
      a property (`@property`, a
      `cached_property` of functools, Django or werkzeug, pyramid's `reify`), a module global, or a project
      function that returns one;
    - `urllib.request.urlopen` and `OpenerDirector.open` (the timeout is the third positional
      argument), `urllib.request.urlretrieve` (which takes no timeout: it waits the socket
      default), `http.client.HTTPConnection` (third) and `HTTPSConnection`, also under six's
      names (`six.moves.urllib.request`, `six.moves.http_client`, `six.moves.xmlrpc_client`);
    - `urllib3.PoolManager`, `ProxyManager`, `HTTPConnectionPool`, `HTTPSConnectionPool` built
      without a timeout (requests made on them then use the socket default), and a subclass
      of one defined in the same file that has no `__init__` or one that passes `*args,
      **kwargs` on and sets nothing about timeouts (patroni's `PatroniPoolManager`, which only
      swaps its pool classes after);
    - `socket.create_connection` (timeout is the second argument), `smtplib.SMTP/SMTP_SSL/LMTP`,
      `ftplib.FTP/FTP_TLS`, `poplib.POP3/POP3_SSL`, `imaplib.IMAP4/IMAP4_SSL` (its timeout
      parameter exists since Python 3.9), and a subclass of one of these (or of
      `http.client`'s connections) defined in the same file that has no `__init__` or one that
      passes `*args, **kwargs` on and sets nothing about timeouts (`class Email(Progress,
      smtplib.SMTP)`), for RES101 to RES105;
    - `sock.connect(address)` (and `connect_ex`) of a plain stream socket the same function
      makes (`sock = socket.socket(...)`, `with socket.socket() as sock`,
      `self.sock = socket.socket()`, or a function of the file that only makes and returns
      it, `self.sock = self.create_socket()`), or a TLS socket wrapping one (`wrap_socket(sock)`,
      which takes its timeout), when nothing sets its timeout before the connect
      (`settimeout`, `setblocking`) or hands the socket to other code that might; a datagram
      (`SOCK_DGRAM`, also joined with flags: `SOCK_DGRAM | SOCK_NONBLOCK`) or Unix-domain
      socket is not a network wait, nor is a connect to the address another socket of the
      process is bound to (`csock.connect(lsock.getsockname())`, also through `addr, port =
      lsock.getsockname()[:2]`, or this machine at the port it took, `("127.0.0.1",
      lsock.getsockname()[1])`: an emulated `socketpair`), a socket made elsewhere is judged by what
      made it, and a module that calls `socket.setdefaulttimeout` anywhere is left alone (a
      default set in another module is not seen for these sockets);
    - `redis.Redis`/`StrictRedis`/`from_url`/`ConnectionPool` without `socket_timeout` (unless a
      `connection_pool=` carries it, or the function sets it on the client's pool afterwards,
      `client.connection_pool.connection_kwargs["socket_timeout"] = 3`, which every connection
      the pool opens later uses), also when only `socket_connect_timeout` is given (it
      bounds the connect, not reads), and a subclass of `redis.Redis` (also the asyncio one)
      defined in the same file that has no `__init__`, or one that hands its `**kwargs` on to
      the base's and names no timeout setting (`class JobRedis(Redis)` with
      `super().__init__(**kwargs)`; OpenAI's clients likewise). A `from_url` URL read from configuration
      (`redis.from_url(settings.REDIS_URL)`) is taken to carry no `socket_timeout`, since
      real projects almost never put one there; the message says a URL parameter would also
      do, and the `redis-url-timeouts` setting turns this off. redis-py 8 waits at most 5 s
      by default: a project whose declared dependencies (`requirements*.txt`,
      `pyproject.toml`, `setup.cfg`, `setup.py`) allow no version of `redis` older than 8
      (`redis==8.0.0`, `redis>=8`) is not reported, for its clients (also one another module's
      factory makes) nor for its Django caches; nor is redis-py's own tree (a project named `redis` whose `pyproject.toml`
      gives version 8 or later, also through the `__version__` its build reads). valkey-py (`valkey.Valkey`,
      `StrictValkey`, `from_url`, `ConnectionPool`, `valkey.asyncio`) is redis-py's fork with
      the same API and defaults, judged the same (its messages name redis-py's classes);
    - `psycopg2.connect` without `connect_timeout`, as a keyword or inside a literal DSN string
      (`"host=db connect_timeout=5"`, `"postgresql://db/app?connect_timeout=5"`), and any
      `psycopg2.connect(..., async_=True)`: libpq ignores `connect_timeout` when it connects
      asynchronously (`PQconnectPoll`), so the connect waits as long as the code that polls the
      connection lets it;
    - `mysql.connector.connect` (and `MySQLConnection`, `CMySQLConnection`, the `aio` ones,
      `MySQLConnectionPool`) without `connection_timeout` or its alias `connect_timeout`, unless
      `option_files=` may carry it;
    - the sessions of requests-oauthlib (`OAuth2Session`, `OAuth1Session` are
      `requests.Session`s: every rule judges them as sessions), and their token calls
      (`fetch_token`, `refresh_token`, `fetch_request_token`, `fetch_access_token`), whose
      timeout defaults to `None`;
    - the Cloudflare-solving sessions of cloudscraper and cfscrape (`create_scraper()`,
      `cloudscraper.session()`), requests-cache's `CachedSession` and requests-futures'
      `FuturesSession`: `requests.Session`s that add no timeout (a cache miss is sent as a
      plain session sends it; a future's request, in a thread, too, unless the
      `FuturesSession` is given the `session=` that sends it, which decides);
    - a pycurl handle's `perform()` (`perform_rb`, `perform_rs`) when the options the file sets
      on that handle (`curl.setopt(pycurl.TIMEOUT, ...)`, or `c.TIMEOUT`) include neither
      `TIMEOUT`/`TIMEOUT_MS` nor both `LOW_SPEED_LIMIT` and `LOW_SPEED_TIME` (stall detection);
      `CONNECTTIMEOUT` alone bounds only the connect. A handle the file passes to a call
      (`configure(c)`), configures with an option it cannot read, or did not make, is not judged;
    - `httplib2.Http()` without `timeout` (its `None` is the socket default), and
      `google_auth_httplib2.AuthorizedHttp(creds)` without `http=` (it makes such an `Http()`);
    - `zeep.Client`/`CachingClient`/`AsyncClient` without `transport=` (the default transport's
      `operation_timeout` is `None`), and a zeep `Transport`/`AsyncTransport` without
      `operation_timeout` (its `timeout=` bounds only loading the WSDL); a timeout set later
      (`client.transport.operation_timeout = 10`, `with transport.settings(timeout=10):`) is
      not seen;
    - `xmlrpc.client.ServerProxy` without `transport=` (also as defusedxml re-exports it,
      `defusedxml.xmlrpc.xmlrpc_client.ServerProxy`): its default transport connects with
      `http.client` and no timeout, and it takes none itself (a `Transport` subclass whose
      `make_connection` sets one bounds it);
    - `slumber.API` without `session=`, or given a plain `requests.Session()`: slumber sends
      every request with `session.request(...)` and no timeout, and the keywords of its resource
      methods are query parameters, so only a session that fills in a timeout (a mounted
      adapter, a subclass) bounds them;
    - advocate's functions and `Session` (requests that refuse internal addresses: the same
      API, the same missing default);
    - imap_tools' `MailBox`, `MailBoxUnencrypted` and `MailBoxStartTls` (imaplib's clients,
      connected when made; the timeout is their third argument);
    - txrequests' `Session` (a `requests.Session` that sends from Twisted's thread pool), and
      treq's functions and `HTTPClient` methods, which cancel a request only when given
      `timeout=`;
    - the qualified names listed in `extend-clients`.

    Django sends mail (`send_mail`, `EmailMessage.send`, password resets, `mail_admins`)
    through its SMTP backend by default, whose timeout is the `EMAIL_TIMEOUT` setting, `None`
    unless set. The calls take no timeout, so the finding is reported once, in the settings:
    at each `EMAIL_HOST` assignment (of the settings modules not named for another
    environment, when one sets it) of a Django project (one that sets `INSTALLED_APPS` or
    names one of Django's backends in `EMAIL_BACKEND`) when no module of the project sets
    `EMAIL_TIMEOUT` (split settings count together; settings in test code count neither way;
    a repository with several Django projects, each settings module under the directory of
    its own `manage.py`, has each judged on its own: a demo site's console backend does not
    bound the standalone site's SMTP),
    unless every `EMAIL_BACKEND` the settings set on all paths names a backend that is not SMTP
    (a console or an API backend; one read from the environment with the SMTP backend as its
    default counts as SMTP; django-celery-email's `CeleryEmailBackend` counts as the backend
    its task sends through, `CELERY_EMAIL_BACKEND` where it is set on all paths, else SMTP);
    a backend set in a settings module named for another environment
    (`settings/test.py`, `dev.py`, `local_settings.py`) does not say what production uses. An `EmailBackend(...)` the code builds itself is not judged. Nor
    is a project that sends mail only through connections it builds with a timeout: every
    `send_mail`/`send_mass_mail`/`mail_admins`/`mail_managers` passes `connection=`, every
    `get_connection(...)` passes `timeout=`, no message is sent with `.send()`, the settings
    set no `ADMINS` or `MANAGERS` (Django mails them itself; an empty one, `ADMINS = ()`,
    `MANAGERS = ADMINS`, is not set) and nothing imports Django's
    password-reset views or form (a `path(..., include("django.contrib.auth.urls"))` is not
    seen). A project whose settings name no `EMAIL_HOST` (the host comes from its database or
    the environment at each send) gets the finding at each `get_connection(...)` that passes
    neither `timeout=` nor another `backend=`: that call opens the SMTP backend with the
    settings' missing timeout.

    Django's cache on Redis is configured in the settings too: an entry of `CACHES` (a dict
    literal at module level, also under an `if`; its alias a string or a name; or set on its
    own, `CACHES["default"] = {...}`, `CACHES[CACHALOT_CACHE] = {...}`) whose `BACKEND` is django-redis's
    `RedisCache` or Django's own `django.core.cache.backends.redis.RedisCache` (or
    django-prometheus's instrumented subclass of either; a backend read from the environment
    counts as the default it falls back to, a conditional as its branches when each is one of
    these) is reported when it sets no socket timeout: no `SOCKET_TIMEOUT`/`socket_timeout` in its `OPTIONS`,
    none in `CONNECTION_POOL_KWARGS` (nor a `connection_class` there: fakeredis' in-process
    server in test settings, or a class of the project's), and no `socket_timeout=` in a literal `LOCATION` URL (a
    URL read from the environment carries none, unless `redis-url-timeouts` says it does).
    `OPTIONS` built elsewhere are not judged, nor is a module that sets a socket timeout into
    `CACHES` later (`CACHES["default"]["OPTIONS"]["SOCKET_TIMEOUT"] = 5`), nor settings in test
    code.

    A client reached through a project module that only imports it is that client, in every
    module that uses it: `from app.compat import urlopen` where `app/compat.py` has `try: from
    urllib.request import urlopen` / `except ImportError: ...`, or `compat.http.get(url)` after
    `import requests as http` there; a name imported on several paths (`if`/`else`) is each of
    them. A method of an instance of a class imported so (`compat.Session().get`) is not
    judged for its timeout: adapters mounted on it may fill one in where this pass cannot see;
    nor is a client whose verdict depends on what is done with it (a boto3 client, a urllib3
    pool).

    Library defaults, and what RES101 makes of them (a bounded default is judged by RES105
    against `max-timeout` instead; an explicit value by RES102–RES105):

    | client | without a timeout | verdict |
    |---|---|---|
    | requests, advocate, txrequests and requests-oauthlib sessions, token calls | waits forever | RES101 |
    | treq (functions and `HTTPClient`) | never cancels a request (the connect is bounded) | RES101 |
    | requests-hardened `Manager`/`HTTPSession` | the `Config`'s required `default_timeout` (also for `timeout=None`) | judged at the `Config`: `None` is RES102 |
    | httpx | 5 s | bounded (RES105 if `max-timeout` < 5) |
    | aiohttp `ClientSession` | 300 s total | RES105 |
    | urllib, `http.client`, xmlrpc, urllib3 pools, sockets, SMTP/FTP/POP/IMAP, httplib2 | the socket default: none, unless set at import | RES101 |
    | `urllib3.request` | 3 s | bounded |
    | redis-py before 8 | reads wait forever (`socket_timeout=None`) | RES101 |
    | redis-py 8 and later | 5 s | bounded |
    | psycopg2 (libpq) | connects wait forever; `async_=True` ignores `connect_timeout` | RES101 |
    | psycopg 3 | 130 s to connect | RES105 |
    | mysql-connector-python | `connection_timeout=None`: no limit to connect | RES101 |
    | PyMySQL | `connect_timeout=10` (`read_timeout=None`) | bounded |
    | botocore / boto3 | 60 s to connect, 60 s per read | RES105 |
    | googleapiclient `build()` without `http=` | `build_http()`: 60 s | RES105 |
    | zeep | `operation_timeout=None`: operations wait forever (`timeout=300` loads the WSDL) | RES101 |
    | slumber | its session's: a plain session waits forever | RES101 |
    | hvac `Client` | 30 s | bounded (RES105 if `max-timeout` < 30) |
    | jira `JIRA` | `timeout=None`: every request (the constructor's server-info request too) waits forever | RES101 |
    | python-gitlab `Gitlab` | `timeout=None`: every request waits forever (a `session=` of the caller's may set one) | RES101 |
    | OpenAI (`OpenAI`, `AsyncOpenAI`, their aliases `Client` and `AsyncClient`, Azure) without `timeout=` or an `http_client` | 600 s (5 s to connect) | RES105 |
    | websocket-client `create_connection` | `websocket.getdefaulttimeout()`: none unless set | RES101 |
    | pycurl | `TIMEOUT` 0: a transfer waits forever; connects 300 s | RES101 |
    | ldap3 `Connection` (synchronous strategies: the default, or `client_strategy=SYNC`, `SAFE_SYNC`, `RESTARTABLE`, `SAFE_RESTARTABLE`) | `receive_timeout=None`: every answer, the bind's too, waits forever | RES101 |

    A database's *reads* are not required to be bounded: how long a query may run is the
    server's business (`statement_timeout`, `max_execution_time`), and a client read timeout
    would cut long queries; what RES101 requires of a database client is a bound on reaching a
    server that does not answer. PyMySQL's `read_timeout` and mysql-connector's (9.2 and later)
    default to `None`.

    A copy of a client library vendored in the project is that library (`from lib import
    requests`, `sickgear.lib.urllib3`, `pip._vendor.requests`: requests, urllib3, httpx,
    aiohttp, httplib2, six, websocket-client, requests-oauthlib, tenacity, backoff or retrying
    under a `lib`, `libs`, `vendor`, `_vendor`, `vendored`, `thirdparty`, `third_party`,
    `extern` or `externals` directory), for every rule.

    The client may come from another module of the project: a name a star import brings
    (`from tests.testhelper import *`, where that module imports `requests`), a factory (`get_session().get(u)`,
    also one returning the session through a caching wrapper that hands it back,
    `CacheControl(sess=session)`), a module-level session imported under any name, `self.session` of a class defined
    elsewhere, a property returning one, a subclass of `requests.Session` that does not fill
    in the timeout (its `request` override only passing on its own `timeout=None` parameter,
    `super().request(method, url, timeout=timeout)`, fills in nothing), also `self.post(u)`
    in a mixin that such a subclass mixes in (`class APIClient(requests.Session,
    ContainerApiMixin)`), or a parameter or attribute annotated `requests.Session`/`httpx.Client`,
    or an attribute the project adds to every request of its web framework (Pyramid's
    `config.add_request_method(make_session, name="http", reify=True)`: `request.http.get(u)`).
    Project wrappers count too: a function that passes its `**kwargs` on to a client without
    setting a timeout (`def fetch(url, **kw): return session.get(url, **kw)`) makes each call of
    it that passes no timeout a finding, in any module, with the forwarding call as a related
    location; a wrapper that fills one in (`kw.setdefault("timeout", 10)`, also through a
    helper of the file that fills it in and returns the mapping, `**self._set_request_timeout(kw)`)
    does not, and a mixin's `self._post(u)` is judged through the one method of that name the
    classes mixing it in define. A wrapper
    that also hands its `*args` on (`def request(self, method, url, *args, **kwargs): return
    self._session.request(method, url, *args, **kwargs)`) is judged so at the calls that pass
    no more positional arguments than it names, or too few more to reach the client's
    timeout position (`url_socket_retry(urlopen, request)` into `def url_socket_retry(func,
    *args, **kw): return func(*args, **kw)`), through any number of such wrappers; a call
    that passes more may give the timeout there. A wrapper
    whose own `timeout=None` default reaches the client is RES102 at the calls that keep it,
    and so is a class whose `__init__` keeps its `timeout=None` parameter on the object for
    the requests of its methods, at the constructions that keep it.
    A wrapper handed the client function by its caller (`def call_api(self, endpoint,
    http_method, **kwargs): http_method(url, **kwargs)`, called as `self.call_api(endpoint,
    requests.get, **kwargs)`) sends with whatever each caller passes, through any number of
    wrappers (also `func(*args, **kwargs)`, the URL handed on in `*args`, a client class
    handed in, `redis_class(host=..., **CONNECTION_KWARGS)`, and a wrapper that
    passes no timeout of its own, `def send(http_method, url): return http_method(url)`,
    reported at each caller that hands it a client); a parameter annotated with a protocol class of the file (`http_method:
    HttpMethod`) still holds what the callers pass.
    A wrapper that picks its client by a parameter (`request = requests.post if method ==
    "POST" else requests.get`) is judged, at each call, on the client that call's arguments
    pick (RES102 and RES103 too: a test that replaces `requests.get` and calls the wrapper with
    its default `method="GET"` sends nothing). A verb the code reads from a variable
    (`getattr(self.session, method.lower())(url)`) is the client's `request`. In `session or
    build_session()`, the annotated parameter (`session: Optional[requests.Session] = None`) is
    what its callers pass, not an object of its own: when none passes one, the session is the
    one `build_session()` makes (a `Session` subclass that fills in a timeout bounds it). An
    attribute declared in the class body without a value (`session: requests.Session`) holds
    what the methods assign to it (a factory's session with a timeout adapter mounted); the
    declaration counts alone only where they assign what a caller passes.

    A client made only to reach a class method (`redis.StrictRedis().from_url(url)`) is not
    judged apart from what that method makes. A pool a requests `HTTPAdapter` subclass makes in `init_poolmanager` (or
    `proxy_manager_for`) is not judged: the adapter's `send` gives it each request's timeout.
    A pool made without a default timeout (`urllib3.PoolManager()`, `ProxyManager`,
    `HTTP(S)ConnectionPool`) is not reported when every request the project sends through it
    gives its own bounded timeout (`pool.request("GET", u, timeout=urllib3.Timeout(connect=3,
    read=10))`): the default it lacks is never used. The pool is followed as a boto3 client
    that only signs URLs is (RES105): a local, `self.attr`, a module global, a factory, in any
    module, and into a project function it is passed to; `clear()` and `close()` send nothing.
    A request that gives `timeout=None` (RES102 there) or a value that cannot be read replaces
    the default too. The pool is reported as usual when one request gives no timeout, when
    some other call is made through it, when it is passed to a library (`SSEClient(pool=pool)`),
    when a factory returning it is called by no code of the project (its callers cannot be
    read), or when no request through it is seen at all.

    A request whose URL is written with a scheme answered in the process (`file://`,
    `data:`, requests-mock's `mock://`, at the call or in the name it passes) opens no socket
    and is not judged, nor is one whose URL starts with a prefix naming a host (`http://snapd/`)
    that the file mounts an adapter of its own on that picks its own connection pool
    (`get_connection`), in a file that opens `AF_UNIX` sockets: it talks to a local daemon
    over a Unix-domain socket (certbot's snapd client). Every rule judging timeouts reads
    these as RES101 does (a zeep
    client's WSDL is no request: `zeep.Client("file:///srv/app/service.wsdl")` still sends
    its operations to the address the WSDL gives, and is judged). Nor is
    an `ftplib.FTP()` made without a host (it connects nowhere) whose every `connect()` in its
    file gives a timeout (`ftp.connect(host, 21, 10)`); the timeout such a `connect()` gives is
    judged by RES102, RES103 and RES105 as a client's is. In test code (the `test-code` setting),
    a call whose URL or host is one of this machine's (`requests.get(BASE + "modules")` with
    `BASE = "http://127.0.0.1:6666/"`, or `"http://0.0.0.0:4443"` where a container the run
    starts is published, also after a user and password, `"http://user:pw@localhost:8080"` or
    `f"http://{auth}localhost:{port}"`, `self.url` set in `setUp`, a template filled with
    `.format()` or `%`, also one kept in a name (`url.format("login")` with `url =
    "http://localhost:8000/api/{}"`), one that starts with such a base, `f"{BASE}/health"` or
    `"{}/health".format(BASE)`, `"%s?_since=%s" % (collection_url, etag)`, also through
    several names each derived from the last (`bucket_url = urljoin(self.server_url, ...)`,
    `collection_url = "{}/records".format(bucket_url)`) and edited (`re.sub("/records$", "",
    collection_url)`), `redis.Redis(host="localhost")`, an `ldap3.Connection` of an
    `ldap3.Server("localhost")`, a client that connects to this machine when given no server
    and is given none (`redis.Redis()` goes to localhost:6379, jira's `JIRA()` to
    localhost:2990; also through a project class that hands its keywords on to one,
    `RedisBroker()`, or a factory that returns the class), a property of a class of the file that returns such a URL,
    `server.url`, a helper's parameter that every call of the helper in the file
    hands such a URL (or leaves at a default that is one, `def connected(host="localhost")`):
    `_is_up(base_url=_local_url(name))` with `_local_url` returning
    `f"http://localhost:{port}"`; a path, `client.get("/ultra_fast")`, on an object of the
    project in a file that names a host of this machine, where the object was made with that
    base: `HttpSession(base_url="http://127.0.0.1:%i" % self.port)`; a URL the file cannot
    read, handed to a project client, in a file whose every URL written out names this
    machine, or an entry of a dict, `PyMISP(params["url"], key)`, whose key every dict of the
    file gives such a URL: `{"url": "https://localhost:8643", ...}`), the server the test run
    starts, is not flagged: that wait is the test run's own, also for a client that waits the
    socket default (`smtplib.SMTP("localhost")`, `ftplib.FTP("127.0.0.1")`, a project subclass
    of one), and for a socket address (`sock.connect(("localhost", port))`,
    `socket.create_connection(("127.0.0.1", port))`, or the address of a socket the test bound,
    `socket.create_connection(listener.getsockname())`), and for a URL of one of the
    application's own routes (`requests.put(url_for("v1.tags"))`, Django's `reverse(...)`, or
    a project helper, in any module, that returns one: `api_url_for(server, "tags")` returning
    `url_for(...)` in an app context whose `SERVER_NAME` is the test server; also named as it is
    passed, `requests.get(url := api_url_for(...))`, and handed to a thread pool with the
    request, `executor.submit(session.post, url)`, when the file shows the route), and for a URL
    read from a pytest fixture that gives the test a server of this machine: a plugin's
    (`live_server.url` of pytest-django, `aiohttp_client`, `aiohttp_server`, `httpserver` and its
    `url_for(...)`, pytest-httpbin's `httpbin`, pytest-docker's `docker_ip`, the host of the
    containers the test run starts: `f"http://{docker_ip}:{port}"`), also for a client that waits the socket
    default (`urlopen(httpbin + "/robots.txt")`), or
    one of the file, of a `conftest.py` above it or of a pytest plugin (a module a
    `pytest_plugins` list names) that returns or yields a URL of this machine,
    an object made with one (`Servers(base_url=f"http://127.0.0.1:{port}")`) or with a host of
    it (`HTTPServer(("localhost", 0), Handler)`, read back as `server.server_address[0]`; a
    `(host, port)` pair with `host = "localhost"`, filled into `"http://%s:%s/" % host_port`),
    or a plugin's server (`return live_server`), also as the host parsed out of it (`url =
    urlsplit(base_url)`, `socket.create_connection((url.hostname, url.port))`), also handed on
    as it is by a fixture of the file (`def host_port(primary_host_port): return
    primary_host_port`), or an object of a project class whose address attribute defaults to
    this machine (a `conftest.py` fixture yielding `MockHub.instance()`, where `MockHub` sets
    `bind_url` to `http://127.0.0.1:…` by a class attribute or a traitlets `@default("bind_url")`;
    read directly or through a helper given it, `public_url(app) + "hub/login"`, also joined
    onto by a URL joiner, `urljoin(base, path)`, `url_path_join(base_url, "hub")`, and in that
    class's own methods, `public_url(self)`); and for Django's `self.live_server_url` in a
    `LiveServerTestCase`; also through a project wrapper that passes the URL on
    (`session.request("get", httpbin.url)` on a `requests.Session` subclass, whose second
    argument is the URL), and for a client made there and kept in a name of one function
    whose only uses are such requests (`with urllib3.PoolManager() as http:
    http.request("GET", "http://127.0.0.1:9090/all")`); and for a zeep client made from a
    WSDL of the test's own (a path, a `file://` URL, `os.path.join(...)`, an `io.StringIO`),
    whose service is the test's. A call to any other host from test code still is.

    A project subclass of an `http.client` connection (or of `smtplib.SMTP`, `ftplib.FTP` …)
    is judged as its base when it only adds to it, also when its `__init__` takes parameters
    of its own, none of them a timeout, and makes the base with them once, in a class that
    sets no timeout (`HTTPSConnection.__init__(self, host=host, context=context)` after
    keeping a certificate's thumbprint: whatever its makers pass, it waits the socket
    default); one that defines its own `send` or
    `connect` without calling the base's (a test's connection answered from a socket pair)
    opens its connection its own way, and the calls it makes there are judged instead.

    Modules bound by a call are recognised too: `boto3 = lazy_import("boto3")`,
    `psycopg2 = pytest.importorskip("psycopg2")`, `importlib.import_module("redis")`.

    Not flagged: a database connection string that is not a literal
    (`os.environ["DATABASE_URL"]`), which may carry `connect_timeout`, also one passed on
    through a project wrapper's `*args, **kwargs` (`connect(dsn=dsn)` into `def connect(*args,
    **kwargs): return psycopg2.connect(*args, **kwargs)`, or any positional argument there); a call answered in the
    process by a test double (responses, requests-mock, httpretty, `mock.patch` …, see RES105); a call that passes `**kwargs` of unknown
    content (the timeout may be in there; a literal dict unpacked with a `timeout` key counts as a timeout; a local
    (or a module's name, `CONNECTION_KWARGS`) that
    is only ever assigned dicts written out, `{"json": payload}` or `dict(data=payload)` (or a
    choice between them, `{} if plain else {"context": ctx}`, `({"context": ctx}, {})[plain]`:
    the keys of either), and only unpacked, has the
    keys they show and those its items are set under (`q["auth"] = creds`; `kwargs["timeout"] = t`
    on every path through the function gives the request that timeout, also in the body of a
    `with` or a `try`, or under a test that is always true: `if self._timeout:` where the class
    sets it to an `aiohttp.ClientTimeout`, an `httpx.Timeout` or a `urllib3.Timeout`) or that `q.update({...})`,
    `q.update(key=...)` and `q.setdefault("key", ...)` write, so one without `timeout` is flagged, and so
    has what a function returns when each of its returns is such a dict (or a local built up
    that way and returned: `config = {...}`, `config["profile_name"] = ...`, `return config`),
    `**self._kwargs()` (whose timeout, when a method of the caller's own class gives it as
    a value of `self` or of the module, `dict(timeout=self.HTTP_TIMEOUT)`, is the call's, also
    for a session of another module; a function of the file gives it as its own names read it,
    `{"timeout": args.timeout or None}`), also a function of another module, `**make_hook_kwargs()` (or its
    result kept in a local used only there, `kw = make(); f(**kw)`), or a property of another
    module's class (`Redis(**config.REDIS_KWARGS)`) (both reported by the project pass);
    such a local unpacked into a project wrapper passes the wrapper the same keys, one assigned
    a different dict on each branch included); a name that only looks like
    the library (`def f(requests): requests.get(u)`); `.get` on anything that is not a client
    (`dict.get`, `os.environ.get`); a session on which the project mounts an adapter whose
    `send` sets the timeout (`s.mount("https://", TimeoutAdapter())`; one mounted on another
    scheme's prefix, `s.mount("ftp://", FTPAdapter())`, serves no HTTP request; also for the callers of a
    wrapper that hands its `**kwargs` on to such a session), or a `requests.Session`
    subclass whose `request`/`send` sets it (also one that fills in its own `timeout` parameter
    and hands it on by position, `super().request(method, url, ..., timeout, ...)`, and one
    whose `__init__` mounts such an adapter on itself, `self.mount("https://",
    Adapter(timeout=20))`, for its methods' `super().request(...)` too; an adapter class of
    another module is read there, also for the requests of another module that get such a
    session from a factory, and one whose `send` hands its arguments on unchanged sets
    nothing, as requests' own `HTTPAdapter` does; one derived from another library's adapter
    may set one), or a session whose `request` the project replaced
    with a partial that binds one (`session.request = functools.partial(session.request,
    timeout=T)`, as django-allauth's `get_requests_session()` does; its verb methods call
    `self.request`); a requests-hardened `Manager`'s requests (its
    `Config` gives every one a timeout). Clients with a bounded default (the table above) are
    not RES101.

    The clients that wait the socket default are not reported in a module whose import sets a
    process-wide default first: a module it imports (or a package above it, or a module those
    import, transitively) calls `socket.setdefaulttimeout(N)` at its top level. They then wait
    that default, which RES105 judges where it is set. A default set in a function (a start-up
    routine, a script's `main`) holds only for the processes that run it, which the code does
    not tell, so it changes nothing here, except for the calls that function makes after it,
    in a block around them (`socket.setdefaulttimeout(5)`, then `ServerProxy(url).version()`).
    A client that connects at its first request (an XML-RPC `ServerProxy`, an `http.client`
    connection) waits the default set before that request, wherever it was made
    (`proxy = ServerProxy(url)`, `socket.setdefaulttimeout(5)`, `proxy.status()`), and an
    `http.client` connection whose `timeout` attribute the function sets before it calls
    anything on it (`connection.timeout = settings.TIMEOUT`) connects with that.

    A client request handed to a function that calls it in a thread (`asyncio.to_thread(
    requests.get, url)`, an executor's `submit`, `loop.run_in_executor(None, requests.get,
    url)`, starlette's `run_in_threadpool`, a FastAPI/Starlette background task's `add_task`,
    anyio's `to_thread.run_sync`) is judged as the call
    made there, with the arguments that follow it; such a finding has no fix (not every one of
    these passes keywords on).

    A name a module imports is the library's, whatever another module later assigns over it:
    `mod.Session = TimeoutSession`, run from outside the module (bazarr's provider registry,
    which does it for each module it imports by a computed name), is not followed. Where a
    project patches its modules so, suppress the findings in those modules (`per-file-ignores`)
    or import the patched class by name.

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

    ## Fix safety
    The fix (codemod `add-timeout`) is **safe**: it bounds a wait that had no bound and changes
    nothing else. It writes a name, never a literal: the scope's own bound when it has one (a
    `timeout` parameter of the enclosing function or a `self.timeout` its class sets, whose
    default is a number within `max-timeout`; else a module constant named like `TIMEOUT`,
    `HTTP_TIMEOUT`, `DEFAULT_TIMEOUT`), else one module constant per value and file, after the
    imports. A timeout the user sets on the object and may leave `None` is kept, with
    the bound after it: `self.timeout or HTTP_TIMEOUT` where the class sets `self.timeout` from
    a constructor parameter without a default or with `None`, and
    `self._session.timeout or HTTP_TIMEOUT` where the instance holds one object (the one the
    call already reads from, if any) of a project class that sets its `timeout` so (a session
    subclass that applies it to its own requests): the call then honours the setting the
    object's other requests use, and is bounded where it is unset. The constant holds `R` and
    `C` from the `fix-timeout` setting (default `{ connect = 3.05, read = 10 }`, the runtime's
    own defaults): `HTTP_READ_TIMEOUT = R`, `HTTP_CONNECT_TIMEOUT =
    C`, passed as `timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)` from
    `resilint.runtime` (`.as_httpx()` for httpx), which lowers both to the caller's remaining
    deadline when there is one. (With the native fix target the constant holds what the library
    takes, `HTTP_TIMEOUT = (C, R)` or `httpx.Timeout(R, connect=C)`, and imports no runtime.)
    The import is added once, where isort/ruff put it, under another name (`runtime_timeout`)
    when `timeout` is already a name in the module (a parameter called `timeout` is common); a
    call made longer than the line length is wrapped as black wraps it. Calls that pass `**kwargs`
    are never given the keyword (they are not findings). Left alone, and listed by `resilint
    fix`: clients whose timeout is not a per-call split timeout (aiohttp's `ClientTimeout`,
    urllib, `http.client`, urllib3, sockets, mail and FTP clients, Redis, psycopg2, botocore,
    MySQL drivers, httplib2, googleapiclient, zeep, slumber, hvac, jira, python-gitlab, OpenAI, websocket-client,
    pycurl, ldap3, `extend-clients`
    names).

    Both fix targets (`fix-target`): the runtime target (a project that declares
    `resilint-runtime` or imports it) passes `resilint.runtime.timeout(...)`; the native target
    writes the constant as the library takes it and imports nothing new, so no fix adds an
    undeclared dependency.

    ## Options
    - `extend-clients`: more qualified names (`"myapp.http.get"`) to treat as calls that need a
      timeout.
    - `redis-url-timeouts` (default `false`): your Redis URLs carry `socket_timeout`
      (`redis://cache:6379/0?socket_timeout=2`), so a `from_url` whose URL is read from
      configuration is not reported. A literal URL is still read.
    """

    code = "RES101"
    name = "missing-timeout"
    message = "call without a timeout"
    triggers = TRIGGERS + ("EMAIL_HOST",)  # Django settings: SMTP without EMAIL_TIMEOUT
    VALID = [
        # requests-mock's adapter answers the ``mock://`` URLs in the process
        """
        import requests
        import requests_mock

        SESSION = requests.Session()
        ADAPTER = requests_mock.Adapter()
        SESSION.mount("mock://", ADAPTER)

        def fetch_repos():
            url = "mock://github.com/orgs/test-org/repos"
            ADAPTER.register_uri("GET", url, text="[]")
            return SESSION.get(url)
        """,
        # this machine at the port its listener took: an emulated socketpair (paramiko's pipe)
        """
        import socket
        def windows_pipe():
            serv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            serv.bind(("127.0.0.1", 0))
            serv.listen(1)
            rsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            rsock.connect(("127.0.0.1", serv.getsockname()[1]))
            wsock, addr = serv.accept()
            return rsock, wsock
        """,
        # an emulated socketpair: the connect goes to the listener this function just bound (pika)
        """
        import socket
        def nonblocking_socketpair():
            lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            lsock.bind(("127.0.0.1", 0))
            lsock.listen(1)
            addr, port = lsock.getsockname()[:2]
            csock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            csock.connect((addr, port))
            ssock, _ = lsock.accept()
            return ssock, csock
        """,
        # the session subclass mounts an adapter that fills in a timeout on itself (pyodk)
        """
        from requests import Session as RequestsSession
        from requests.adapters import HTTPAdapter

        class Adapter(HTTPAdapter):
            def __init__(self, *args, timeout=None, **kwargs):
                self.timeout = timeout
                super().__init__(*args, **kwargs)

            def send(self, request, **kwargs):
                if kwargs.get("timeout") is None:
                    kwargs["timeout"] = self.timeout
                return super().send(request, **kwargs)

        class Session(RequestsSession):
            def __init__(self, base_url):
                super().__init__()
                self.base_url = base_url
                self.mount("https://", Adapter(timeout=20))

            def request(self, method, url, *args, **kwargs):
                return super().request(method, self.base_url + url, *args, **kwargs)

        class CommentService:
            def __init__(self, session: Session):
                self.session = session

            def list(self, pid):
                return self.session.request("GET", f"projects/{pid}/comments").json()
        """,
        # pytest-vcr's fixture replays the test's requests from its cassette
        """
        import requests

        def test_screenboard(vcr_cassette):
            assert requests.get("https://api.example.com/v1/screen/1").ok
        """,
        # the dict a method returns gets the callers' keys and a default timeout before it is
        # unpacked (superdesk's HTTP feeding services)
        """
        import requests
        class FeedingService:
            HTTP_TIMEOUT = 30
            def __init__(self):
                self.session = requests.Session()
            def get_request_kwargs(self):
                return {}
            def get_url(self, url, **kwargs):
                request_kwargs = self.get_request_kwargs()
                request_kwargs.update(kwargs)
                request_kwargs.setdefault("timeout", self.HTTP_TIMEOUT)
                return self.session.get(url, **request_kwargs)
        """,
        # requests-futures sends through the session it is given, which decides the timeout
        """
        from requests_futures.sessions import FuturesSession
        from app.session import ResilientSession
        def fetch_all(urls):
            session = FuturesSession(session=ResilientSession(), max_workers=4)
            return [session.get(url) for url in urls]
        """,
        # only a type checker reads it: it never runs
        """
        from typing import TYPE_CHECKING
        import requests
        if TYPE_CHECKING:
            requests.get("https://api.example.org/whoami")
        """,
        # a wrapper hands its callers' keywords to a session whose mounted adapter fills in the
        # timeout: a caller passing none is bounded by it
        """
        import requests
        class TimeoutHTTPAdapter(requests.adapters.HTTPAdapter):
            def __init__(self, *args, timeout=None, **kwargs):
                self.timeout = timeout
                super().__init__(*args, **kwargs)
            def send(self, *args, **kwargs):
                kwargs["timeout"] = self.timeout
                return super().send(*args, **kwargs)
        class HttpMixin:
            http_timeout_sec = 30
            def setup(self):
                self._session = requests.Session()
                adapter = TimeoutHTTPAdapter(max_retries=2, timeout=self.http_timeout_sec)
                self._session.mount("https://", adapter)
            def http_get(self, url, **kwargs):
                self.setup()
                return self._session.get(url, **kwargs)
        class LookupBot(HttpMixin):
            def process(self):
                return self.http_get(url="https://www.example.org/teams.json")
        """,
        # a module's dict that sets the socket timeout, unpacked in a function
        """
        import redis
        CLIENT_KWARGS = dict(decode_responses=True, socket_connect_timeout=2, socket_timeout=2)
        def client(url):
            return redis.Redis.from_url(url, **CLIENT_KWARGS)
        """,
        # a socket a method of the file makes and gives a timeout
        """
        import socket
        class Peer:
            def create_socket(self):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.settimeout(10)
                return sock
            def open(self, address):
                self.sock = self.create_socket()
                self.sock.connect(address)
        """,
        # a socket given its timeout before it connects; a UDP socket's connect sends nothing
        """
        import socket
        def ping(host, port, timeout):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.settimeout(timeout)
            sock.connect((host, port))
            return sock.recv(64)
        def notify(host, port):
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((host, port))
                sock.send(b"up")
        """,
        # a socket made elsewhere: what made it may have set its timeout
        """
        import socket
        def greet(sock, address):
            sock.connect(address)
        """,
        # the timeout handed on by position, in the retry helper's `*args`
        """
        from urllib.request import urlopen
        def url_socket_retry(func, *args, **kw):
            for _ in range(3):
                try:
                    return func(*args, **kw)
                except OSError:
                    pass
        def head(request):
            return url_socket_retry(urlopen, request, None, 5)
        """,
        # a datagram socket, whatever flags its kind is joined with: connecting sends nothing
        """
        import socket
        def source_ip():
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM | socket.SOCK_NONBLOCK)
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        """,
        # the proxy connects at its first request, after the default is set
        """
        import socket, xmlrpc.client
        def status(url):
            proxy = xmlrpc.client.ServerProxy(url)
            socket.setdefaulttimeout(5)
            return proxy.status()
        """,
        # the module sets the default every socket of the process starts with
        """
        import socket
        def main(address):
            socket.setdefaulttimeout(10)
            sock = socket.socket()
            sock.connect(address)
        """,
        # Django settings that bound the SMTP backend
        """
        INSTALLED_APPS = ["django.contrib.auth"]
        EMAIL_HOST = "smtp.example.com"
        EMAIL_TIMEOUT = 10
        """,
        # the connection opens its socket at the first request, with the timeout set by then
        # (graphite-web's remote rendering)
        """
        import http.client
        def render(server, body, settings):
            connection = http.client.HTTPConnection(server)
            connection.timeout = settings.REMOTE_RENDER_CONNECT_TIMEOUT
            connection.request("POST", "/render/local/", body)
            return connection.getresponse().read()
        """,
        # a transport of its own, which may set a timeout
        """
        import xmlrpc.client
        class TimeoutTransport(xmlrpc.client.Transport):
            def make_connection(self, host):
                connection = super().make_connection(host)
                connection.timeout = 10
                return connection
        proxy = xmlrpc.client.ServerProxy("https://rpc.example", TimeoutTransport())
        """,
        # made without a host, ftplib connects nowhere: `connect` opens it, with a timeout
        """
        import ftplib
        class FTPAdapter:
            def send(self, host, path):
                self.conn = ftplib.FTP()
                self.conn.connect(host, 21, 10)
                return self.conn.nlst(path)
        """,
        # answered in the process: urllib's FileHandler and DataHandler, a mounted file adapter
        """
        import os, requests
        from urllib.request import urlopen
        def read(path, session: requests.Session):
            url = "file://" + os.path.abspath(path)
            return session.get(url).content, urlopen(f"data:text/plain,{path}").read()
        """,
        # the timeout is added by update() before the dict is unpacked
        """
        import smtplib
        def connect(host, secure, context):
            params = {}
            params.update({"timeout": 10})
            if secure:
                params.update(context=context)
            return smtplib.SMTP_SSL(host, **params)
        """,
        # the timeout is set under the dict's item before it is unpacked
        """
        import requests
        def lookup(url, search):
            q = {"params": search}
            q["timeout"] = TIMEOUT
            return requests.get(url, **q).json()
        """,
        # the pool a requests adapter makes: its ``send`` passes each request's timeout on
        """
        from requests import Session
        from requests.adapters import HTTPAdapter
        from urllib3 import poolmanager
        class LegacyTLSAdapter(HTTPAdapter):
            def init_poolmanager(self, connections, maxsize, block=False):
                self.poolmanager = poolmanager.PoolManager(num_pools=connections, maxsize=maxsize, block=block)
        """,
        # ``super(Client, self).__init__(session=...)`` hands the base class a session that
        # fills in its timeout, so its ``session or requests.Session()`` keeps that one
        """
        import requests
        class TimeoutSession(requests.Session):
            def request(self, method, url, *args, **kwargs):
                kwargs.setdefault("timeout", 10)
                return super().request(method, url, *args, **kwargs)
        class Client(object):
            def __init__(self, session=None):
                self.session = session or requests.Session()
        class PatchedClient(Client):
            def __init__(self, session=None):
                if not session:
                    session = TimeoutSession()
                super(PatchedClient, self).__init__(session=session)
            def get(self, url):
                return self.session.get(url)
        """,
        # the pool's connection settings get the timeout before any connection is made
        """
        from redis import StrictRedis
        def check(uri):
            client = StrictRedis.from_url(uri)
            client.connection_pool.connection_kwargs["socket_timeout"] = 3
            return client.ping()
        """,
        # the wrapper's own ``**options`` are rebound to a dict that fills in the timeout
        """
        from redis.asyncio import Redis
        def redis_from_settings(settings, **options):
            options = {"socket_timeout": settings.socket_timeout, **options}
            return Redis(host=settings.host, **options)
        def client(settings):
            return redis_from_settings(settings)
        """,
        # a key added after the dict is written: the timeout may be there
        """
        import requests
        def send(url, payload, timeout):
            kwargs = {"json": payload}
            kwargs["timeout"] = timeout
            return requests.post(url, **kwargs)
        """,
        # the session's own request binds a timeout: its get/post call it
        """
        import functools
        import requests

        def requests_session():
            session = requests.Session()
            session.request = functools.partial(session.request, timeout=10)
            return session

        def fetch(url):
            with requests_session() as session:
                return session.get(url)
        """,
        """
        import requests
        requests.get("https://a.example", timeout=(3.05, 27))
        """,
        """
        import urllib3
        from app.settings import CONNECT_TIMEOUT, READ_TIMEOUT

        class FeatureRequester:
            def __init__(self):
                self._http = urllib3.PoolManager(num_pools=1)

            def get_all(self, uri):
                timeout = urllib3.Timeout(connect=CONNECT_TIMEOUT, read=READ_TIMEOUT)
                return self._http.request("GET", uri, timeout=timeout, retries=1)

            def close(self):
                self._http.clear()
        """,
        # ``Check.http``: an attribute of an imported class, not the pool kept in ``self.http``
        """
        import urllib3
        from consul import Check

        class HTTPClient:
            def __init__(self):
                self.http = urllib3.PoolManager(num_pools=10)

            def get(self, uri):
                return self.http.request("GET", uri, timeout=10)

        def register(url):
            return Check.http(url, "10s")
        """,
        """
        import requests
        from requests.adapters import HTTPAdapter

        class TimeoutAdapter(HTTPAdapter):
            def send(self, request, **kwargs):
                kwargs.setdefault("timeout", 5)
                return super().send(request, **kwargs)

        session = requests.Session()
        session.mount("https://", TimeoutAdapter())
        session.get("https://a.example")
        """,
        """
        import smtplib
        import psycopg2
        import redis
        smtplib.SMTP("mail.example", 25, timeout=10)
        psycopg2.connect("host=db dbname=app connect_timeout=5")
        redis.Redis(host="cache", socket_timeout=2)
        """,
        """
        import aiohttp

        async def fetch(url):
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as s:
                return await s.get(url)
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
        # requests-hardened fills in its Config's default_timeout
        """
        from requests_hardened import Config, Manager
        from myapp import settings

        HTTP = Manager(Config(True, False, True, settings.HTTP_TIMEOUT))
        HTTP.send_request("GET", "https://a.example")
        """,
        """
        import pycurl
        from myapp import settings

        c = pycurl.Curl()
        c.setopt(pycurl.TIMEOUT, settings.CURL_TIMEOUT)
        c.perform()
        """,
        # answered by responses in the process: no network, no timeout to judge
        """
        import requests, responses

        @responses.activate
        def test_fetch():
            responses.get("https://a.example", json={})
            requests.get("https://a.example")
        """,
    ]
    INVALID = [
        # an adapter that fills in a timeout, mounted only on ``ftp://``: no HTTP request goes through it
        Invalid(
            """
            import requests
            from requests.adapters import BaseAdapter, HTTPAdapter

            class FTPAdapter(BaseAdapter):
                def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
                    timeout = timeout or 10
                    return self._fetch(request.url, timeout)

            class CondaSession(requests.Session):
                def __init__(self):
                    super().__init__()
                    self.mount("https://", HTTPAdapter())
                    self.mount("ftp://", FTPAdapter())

            def check(url):
                return CondaSession().get(url)
            """,
            line=16,
        ),
        Invalid(
            # the client module is a parameter's default, which no call of the project replaces (py-trello)
            """
            import requests

            class TrelloClient:
                def __init__(self, api_key, http_service=requests):
                    self.api_key = api_key
                    self.http_service = http_service

                def fetch_json(self, path):
                    return self.http_service.get("https://api.trello.com/1/" + path, params={"key": self.api_key}).json()
            """,
            line=9,
            message="`requests.get` is called without a timeout",
        ),
        Invalid(
            # the object's session is the one it is given, or that one's own (github3's models)
            """
            import requests

            class GitHubCore:
                def __init__(self, json, session):
                    self.session = getattr(session, "session", session)

                def refresh(self):
                    return self.session.get("https://api.github.com/user")

            def me():
                return GitHubCore({}, requests.Session()).refresh()
            """,
            line=8,
            message="without a timeout",
        ),
        Invalid(
            # a WSDL read from disk describes a service elsewhere: its operations go there
            """
            import zeep
            def soap(path):
                return zeep.Client("file://" + path).service.Ping()
            """,
            line=3,
        ),
        Invalid(
            # a subclass of the client that hands its keywords on (arq's ArqRedis, simplified)
            """
            from redis.asyncio import Redis
            class JobRedis(Redis):
                def __init__(self, job_serializer=None, **kwargs):
                    self.job_serializer = job_serializer
                    super().__init__(**kwargs)
            def pool(host):
                return JobRedis(host=host, socket_connect_timeout=1)
            """,
            line=7,
            message="is given only `socket_connect_timeout`",
        ),
        Invalid(
            # defusedxml's hardened xmlrpc is the standard library's client
            """
            from defusedxml import xmlrpc
            xmlrpc.monkey_patch()
            def status(uri):
                return xmlrpc.xmlrpc_client.ServerProxy(uri).status()
            """,
            line=4,
            message="`xmlrpc.client.ServerProxy` is called without a timeout",
        ),
        Invalid(
            # the body of an overloaded method is its last definition, not a stub's
            """
            import urllib.request
            from typing import Literal, overload
            class UrllibClient:
                @overload
                def request(self, url: str, stream: Literal[True]) -> object: ...
                @overload
                def request(self, url: str, stream: Literal[False]) -> bytes: ...
                def request(self, url, stream):
                    response = urllib.request.urlopen(urllib.request.Request(url))
                    return response if stream else response.read()
            """,
            line=9,
        ),
        Invalid(
            # keyword arguments chosen between two dicts written out, neither with a timeout
            """
            import ssl
            from urllib.request import urlopen
            def notify(url):
                param = ({"context": ssl._create_unverified_context()}, {})[url.startswith("http:")]
                return urlopen(url, **param).read()
            """,
            line=5,
        ),
        Invalid(
            # a copy of requests vendored in the project's ``lib/`` directory
            """
            from lib import requests
            def status(url):
                return requests.get(url).status_code
            """,
            line=3,
        ),
        Invalid(
            """
            import requests
            class CachingSession(requests.Session):
                def request(self, method, url, params=None, timeout=None):
                    return super().request(method, url, params=params, timeout=timeout)
            def fetch(url):
                return CachingSession().get(url)
            """,
            line=6,
        ),
        # the method the inner wrapper is given by the outer one picks the branch that sends
        Invalid(
            """
            import requests

            class VT:
                def _post(self, uri, **kwargs):
                    return self._request(uri, method="POST", **kwargs)

                def _request(self, uri, method, **kwargs):
                    if method == "GET":
                        return requests.get(uri, **kwargs)
                    return requests.post(uri, **kwargs)

                def scan(self, files):
                    return self._post("https://vt.example/files", files=files)
            """,
            line=13,
            message="`requests.post` is called through `VT._post`",
        ),
        # a session kept by Django's `cached_property`, as by functools'
        Invalid(
            """
            import requests
            from django.utils.functional import cached_property

            class IntelX:
                @cached_property
                def session(self):
                    return requests.Session()

                def search(self, term):
                    return self.session.post("https://2.intelx.io/phonebook/search", json={"term": term})
            """,
            line=10,
        ),
        # `*args` stays empty for callers that pass only what the wrappers name
        Invalid(
            """
            import requests

            class Client:
                def __init__(self):
                    self._session = requests.session()

                def request(self, method, url, *args, **kwargs):
                    return self._session.request(method, url, *args, **kwargs)

                def _do_request(self, method, *args, **kwargs):
                    kwargs.setdefault("headers", {"Accept": "application/json"})
                    return self.request(method, *args, **kwargs).json()

                def user(self, user_id):
                    return self._do_request("get", f"https://api.example/users/{user_id}")

                def raw(self, url):
                    # more positional arguments than `request` names: its `*args` carries the timeout
                    return self.request("get", url, None, None, None, None, None, None, 10)
            """,
            line=15,
            message="called through `Client._do_request`",
        ),
        Invalid(
            # a client class picked from nested dict literals, then called
            """
            import imaplib, poplib
            def connect(box):
                defaults = {
                    "pop3": {"ssl": {"init": poplib.POP3_SSL}, "insecure": {"init": poplib.POP3}},
                    "imap": {"ssl": {"init": imaplib.IMAP4_SSL}, "insecure": {"init": imaplib.IMAP4}},
                }
                encryption = "ssl" if box.ssl else "insecure"
                return defaults[box.kind][encryption]["init"](box.host, box.port)
            """,
            line=8,
        ),
        Invalid(
            # a module's dict whose every key the file shows: none of them is a timeout
            """
            import redis
            from django.conf import settings
            CONNECTION_KWARGS = {"decode_responses": True}
            if settings.REDIS_RETRY:
                CONNECTION_KWARGS["retry_on_timeout"] = True
            def connection():
                return redis.Redis.from_url(settings.REDIS_URL, **CONNECTION_KWARGS)
            """,
            line=7,
        ),
        Invalid(
            # the client class handed in by the caller, with that module dict
            """
            import redis
            from django.conf import settings
            CONNECTION_KWARGS = {}
            def _from_class(redis_class):
                return redis_class(host=settings.REDIS_HOST, **CONNECTION_KWARGS)
            def connection():
                return _from_class(redis.Redis)
            """,
            line=7,
        ),
        Invalid(
            # a timing wrapper handed the client function, its URL through ``*args``
            """
            import time
            import requests
            def measureit(func, *args, **kwargs):
                before = time.perf_counter()
                return func(*args, **kwargs), time.perf_counter() - before
            def download(url):
                return measureit(requests.get, url)
            """,
            line=7,
        ),
        Invalid(
            # a wrapper handed the client function, which passes it no timeout of its own
            """
            import requests
            def send(http_method, url):
                return http_method(url)
            def fetch(url):
                return send(requests.get, url)
            """,
            line=5,
        ),
        Invalid(
            # the caching wrapper hands back the session it was given
            """
            import requests
            from cachecontrol import CacheControl
            def fetch(url):
                session = CacheControl(sess=requests.Session(), cache_etags=True)
                return session.get(url)
            """,
            line=5,
        ),
        Invalid(
            # the socket a method of the file makes, connected with no timeout
            """
            import socket
            class Peer:
                def create_socket(self):
                    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                    return sock
                def open(self, address):
                    self.sock = self.create_socket()
                    self.sock.connect(address)
            """,
            line=8,
        ),
        Invalid(
            # the function's **kwargs replaced with a dict written out on every path
            """
            import requests
            def send(url, payload, method, **kwargs):
                if method == "post":
                    kwargs = {"json": payload}
                else:
                    kwargs = {"params": payload}
                return requests.request(method, url, **kwargs)
            """,
            line=7,
        ),
        Invalid(
            # made and connected in one function, its timeout never set
            """
            import socket
            def ping(host, port):
                with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                    sock.connect((host, port))
                    return sock.recv(64)
            """,
            line=4,
            message="`socket.socket.connect` connects a socket given no timeout",
        ),
        Invalid(
            # a different dict on each branch, neither with a timeout, through the project's wrapper
            """
            import requests
            def make_request(url, method="POST", **kwargs):
                return requests.request(method, url, **kwargs)
            def notify(url, body, as_json):
                if as_json:
                    data = {"json": body}
                else:
                    data = {"data": body}
                return make_request(url, headers={}, **data)
            """,
            line=9,
            message="called through `make_request` without a timeout",
        ),
        Invalid(
            # every key of the unpacked dict is written out, none a timeout
            """
            import smtplib
            def connect(host, secure, context):
                params = {}
                if secure:
                    params.update({"context": context})
                return smtplib.SMTP_SSL(host, **params)
            """,
            line=6,
            message="`smtplib.SMTP_SSL` is called without a timeout",
        ),
        # Django's SMTP backend, configured with no `EMAIL_TIMEOUT`: reported at the host
        Invalid(
            """
            INSTALLED_APPS = ["django.contrib.auth"]
            EMAIL_HOST = "smtp.example.com"
            """,
            line=2,
        ),
        # keywords from a method whose every return is a dict written out, without a timeout
        Invalid(
            """
            import requests
            class Prometheus:
                def _kwargs(self):
                    return {"verify": self.verify, "cert": self.cert}
                def query(self, url):
                    return requests.get(url, **self._kwargs())
            """,
            line=6,
        ),
        Invalid(
            """
            import treq
            def notify(url, payload):
                return treq.post(url, json=payload)
            """,
            line=3,
            message="treq never gives up on a response without `timeout=`",
        ),
        Invalid(
            """
            from txrequests import Session
            def fetch(url):
                with Session() as session:
                    return session.get(url)
            """,
            line=4,
            message="`txrequests.Session.get` is called without a timeout",
        ),
        Invalid(
            """
            from imap_tools import MailBox
            def unseen(host, user, password):
                with MailBox(host).login(user, password) as box:
                    return [m.uid for m in box.fetch("UNSEEN")]
            """,
            line=3,
            message="`imap_tools.MailBox` is called without a timeout",
        ),
        Invalid(
            # the request runs after the response is sent, with the arguments given here
            """
            import requests
            from fastapi import BackgroundTasks
            def notify(url: str, payload: dict, tasks: BackgroundTasks):
                tasks.add_task(requests.post, url, json=payload)
            """,
            line=4,
            message="`requests.post` is called without a timeout",
        ),
        Invalid(
            # the keys the dict shows, and the one set under its item: no timeout among them
            """
            import requests
            def lookup(url, search, user, password):
                q = {"params": search}
                if user:
                    q["auth"] = (user, password)
                return requests.get(url, **q).json()
            """,
            line=6,
        ),
        Invalid(
            # the request the thread makes has no timeout
            """
            import asyncio, requests
            async def streams():
                return await asyncio.to_thread(requests.get, "http://127.0.0.1:1984/api/streams")
            """,
            line=3,
        ),
        Invalid(
            # the first client only reaches the class method: one finding, at ``from_url``
            """
            import redis
            store = redis.StrictRedis().from_url(SESSION_STORAGE_URL)
            """,
            line=2,
            count=1,
            message="`redis.Redis.from_url` is called without a timeout",
        ),
        Invalid(
            # every dict ``kwargs`` may hold is written out here, and none has a timeout
            """
            import requests
            def send(url, payload, encode_json=False):
                if encode_json:
                    kwargs = dict(data=payload)
                else:
                    kwargs = {"json": payload}
                return requests.post(url, **kwargs)
            """,
            line=7,
        ),
        Invalid(
            # a partial that binds no timeout bounds nothing
            """
            import functools
            import requests

            def requests_session():
                session = requests.Session()
                session.request = functools.partial(session.request, verify=False)
                return session

            def fetch(url):
                return requests_session().get(url)
            """,
            line=10,
        ),
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
            import urllib3

            def fetch(uri, timeout):
                http = urllib3.PoolManager(num_pools=1)
                http.request("GET", uri, timeout=urllib3.Timeout(connect=3, read=10))
                return http.request("GET", uri + "/more")
            """,
            line=4,
            message="`urllib3.PoolManager` is called without a timeout",
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
        Invalid(
            """
            import http.client
            conn = http.client.HTTPSConnection("api.example")
            """,
            message="global socket default",
        ),
        Invalid(
            """
            import socket
            sock = socket.create_connection(("db", 5432))
            """,
        ),
        Invalid(
            """
            import psycopg2
            conn = psycopg2.connect("host=db dbname=app")
            """,
            message="libpq waits forever",
        ),
        Invalid(
            """
            from redis import StrictRedis
            cache = StrictRedis.from_url("redis://cache:6379/0")
            """,
            message="socket_timeout",
        ),
        Invalid(
            """
            import redis
            from django.conf import settings
            cache = redis.from_url(settings.REDIS_URL, socket_connect_timeout=1)
            """,
            line=3,
            message="is given only `socket_connect_timeout`",
        ),
        Invalid(
            """
            from myapp.imports import lazy_import
            requests = lazy_import("requests")
            requests.get("https://a.example")
            """,
            line=3,
        ),
        Invalid(
            """
            import urllib3
            http = urllib3.PoolManager(num_pools=4)
            """,
        ),
        Invalid(
            """
            import pycurl

            def fetch(url):
                c = pycurl.Curl()
                c.setopt(pycurl.URL, url)
                c.perform()
            """,
            line=6,
            message="libcurl waits forever",
        ),
        Invalid(
            """
            from requests_futures.sessions import FuturesSession
            session = FuturesSession(max_workers=10)
            future = session.get("https://api.example.com/users")
            """,
            line=3,
        ),
        Invalid(
            """
            from requests_cache import CachedSession

            def exists(url):
                return CachedSession("plex_ids").head(url).ok
            """,
            line=4,
        ),
        Invalid(
            """
            from requests_oauthlib import OAuth2Session

            def orders(token):
                return OAuth2Session("client", token=token).get("https://a.example/orders")
            """,
            line=4,
        ),
        Invalid(
            # a requests session on one branch, a Cloudflare-solving one on the other
            """
            import cfscrape
            import requests

            class Tracker:
                def __init__(self, login):
                    self.session = cfscrape.create_scraper(delay=15) if login else requests.Session()

                def feed(self, url):
                    return self.session.get(url)
            """,
            line=9,
        ),
        Invalid(
            # the class picked by name from the library; `self.kwargs` is not the local
            """
            import imaplib
            class Mailbox:
                def __init__(self, **kwargs):
                    self.kwargs = kwargs
                def open(self):
                    name = "IMAP4_SSL" if self.kwargs["ssl"] else "IMAP4"
                    kwargs = {"host": self.kwargs["host"], "port": self.kwargs["port"]}
                    return getattr(imaplib, name)(**kwargs)
            """,
            line=8,
        ),
        Invalid(
            # an optional import: the module, unless it is missing
            """
            def load(url):
                try:
                    import requests
                except ImportError:
                    requests = None
                if requests is None:
                    raise RuntimeError("requests is needed for URLs")
                return requests.get(url).text
            """,
            line=8,
        ),
        Invalid(
            """
            from xmlrpc.client import ServerProxy
            def login(url, user, password):
                with ServerProxy(url) as proxy:
                    return proxy.auth.login(user, password)
            """,
            line=3,
            message="global socket default",
        ),
        Invalid(
            """
            import ftplib
            def listing(host):
                ftp = ftplib.FTP()
                ftp.connect(host, 21)
                return ftp.nlst()
            """,
            line=3,
        ),
        Invalid(
            """
            import imaplib
            import poplib
            import ftplib
            imaplib.IMAP4_SSL("imap.example")
            poplib.POP3("pop.example", 110)
            ftplib.FTP("ftp.example", "user", "pw")
            """,
            count=3,
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        tests = is_test_code(ctx.model.path, ctx.settings)
        report_verdicts(ctx, self.code, test_server_calls(ctx.model) if tests else frozenset())
        if not tests:
            for entry, message in unbounded_redis_caches(ctx.model.module, ctx.settings.redis_url_timeouts, ctx.settings.declared_versions):
                ctx.report(entry, message, fixable=False)

    def check_project(self, ctx: ProjectContext) -> None:
        report_project_verdicts(ctx, self.code)
        for place, message in unbounded_smtp_settings(ctx.graph.summaries, ctx.in_test_code, ctx.reports_in):
            ctx.report(place, message)
