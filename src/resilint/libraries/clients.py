"""The client catalog: which calls take a timeout, where it goes, and what the library does
without one.

Shared by the RES1xx rules, the codemods and the project pass. Names are canonical qualified names (lint/canonical.py); methods of
clients are ``<class>.<method>`` (``requests.Session.get``). Positional indexes were checked
against the signatures of CPython 3.9, 3.11 and 3.12 and of the libraries' current releases.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.timeout_values import TIMEOUT_OBJECTS
from resilint.lint.canonical import ALIASES
from resilint.lint.nodes import keys_set_on, parameter_names, string_of
from resilint.lint.semantic import CallSite, FunctionInfo, Scope, SemanticModel
from resilint.lint.traversal import iter_nodes

ALL_CHECKS: FrozenSet[str] = frozenset({"RES101", "RES102", "RES103", "RES104", "RES105"})
# Generic waits (asyncio.wait_for …) only get RES102: their length is the caller's business.
GENERIC_WAIT: FrozenSet[str] = frozenset({"RES102"})


@dataclass(frozen=True)
class TimeoutSpec:
    library: str
    keyword: Optional[str] = "timeout"
    position: Optional[int] = None  # 0-based index among positional arguments, if it has one
    # What happens when no timeout is passed; None: a bounded default (no RES101).
    unbounded_default: Optional[str] = None
    # A bounded library default in seconds, reported by RES105 *here* (at the client's
    # construction or a standalone function), never at each method call that inherits it.
    default_seconds: Optional[float] = None
    default_message: Optional[str] = None
    none_means_default: bool = False  # ``timeout=None`` selects the default (aiohttp's session)
    # Who reads a timeout of 0 as no timeout at all ("libpq": connect_timeout=0 waits forever).
    zero_unbounded: str = ""
    zero_means_default: bool = False  # psycopg 3: connect_timeout=0 falls back to 130 s
    zero_is_mode: bool = False  # sock.settimeout(0) selects non-blocking mode, not a timeout
    # Its default is ``socket.getdefaulttimeout()`` when one is set (googleapiclient's build_http).
    socket_default: bool = False
    # How to split one value into connect and read (RES104); None: the client cannot.
    split_hint: Optional[str] = None
    checks: FrozenSet[str] = ALL_CHECKS
    # A connection string that may carry the timeout: (position, keyword).
    dsn: Optional[Tuple[int, str]] = None
    # Keywords whose presence means the timeout is configured elsewhere (a pool, old aliases).
    elsewhere: Tuple[str, ...] = ()
    # Values of an ``elsewhere`` keyword, by their last name, that leave the wait as it is
    # without the timeout (ldap3's ``client_strategy=SYNC``, which is its default): the call is
    # judged as if the keyword were not given (``configures_elsewhere``).
    elsewhere_unless: Tuple[str, ...] = ()
    # The value is a botocore ``Config`` (connect_timeout/read_timeout), not seconds.
    botocore_config: bool = False
    # A connection string we cannot read (``settings.REDIS_URL``) is taken to carry no timeout:
    # real projects almost never put one there (the ``redis-url-timeouts`` setting says they do).
    opaque_dsn_lacks_timeout: bool = False
    # Keywords that bound only one phase (``socket_connect_timeout``): named in the message,
    # which says what they bound (``partial_note``).
    partial: Tuple[str, ...] = ()
    partial_note: str = "the connect, not reads"
    # Other keywords that set the same timeout (mysql-connector's ``connect_timeout``).
    aliases: Tuple[str, ...] = ()
    # The distribution and major version from which the library bounds the wait by default
    # (redis-py 8: 5 s): a project whose declared dependencies allow no older version gets no
    # RES101 for a missing timeout (``for_project``).
    bounded_since: Optional[Tuple[str, int]] = None
    # The position of an argument that configures the timeout elsewhere (``transport=`` of
    # ``zeep.Client(wsdl, wsse, transport)``), like a keyword of ``elsewhere``.
    elsewhere_position: Optional[int] = None
    # A ``requests.Session`` passed here sends the requests (slumber): a plain session
    # leaves them without a timeout, one that fills one in bounds them. (position, keyword)
    session: Optional[Tuple[int, str]] = None
    # Keywords that, when true, make the library ignore the timeout (psycopg2's ``async_``),
    # and why, for the message.
    ignored_when: Tuple[str, ...] = ()
    ignored_note: str = ""
    # The keywords that name the server it connects to; given none of them and no positional
    # argument, it connects to this machine (redis-py's localhost:6379, or a unix socket's
    # path; jira's localhost:2990): in test code, the server the test run starts
    # (``local_by_default``).
    server_keywords: Tuple[str, ...] = ()

    # What the timeout is called where it is not a keyword (pycurl's ``TIMEOUT`` option).
    label: str = ""
    unit: float = 1.0  # seconds per unit of the value (0.001: milliseconds)

    @property
    def socket_global(self) -> bool:
        """Without a timeout it waits what ``socket.setdefaulttimeout`` set, forever if nothing did."""
        return self.unbounded_default == _SOCKET_DEFAULT

    @property
    def setting(self) -> str:
        """The timeout's name, for messages."""
        return self.keyword or self.label or "timeout"

    @property
    def keywords(self) -> Tuple[str, ...]:
        """Every keyword that carries this timeout."""
        return ((self.keyword,) if self.keyword is not None else ()) + self.aliases

    @property
    def settings(self) -> FrozenSet[str]:
        """Every keyword the spec reads: the timeout's, and those that set it or change its
        meaning elsewhere (a DSN, a session, ``config=``, ``async_=``)."""
        named = {*self.keywords, *self.elsewhere, *self.partial, *self.ignored_when}
        named.update(pair[1] for pair in (self.dsn, self.session) if pair is not None)
        if self.botocore_config:
            named.add("config")
        return frozenset(named)


_SOCKET_DEFAULT = (
    "it uses the global socket default, which is no timeout unless socket.setdefaulttimeout() was called"
)
# ``sock.connect(address)`` of a plain socket: its timeout is the socket's own (``settimeout``),
# judged by ``socket_connects`` where the file shows the socket made, never by arguments.
SOCKET_CONNECT = TimeoutSpec("socket", keyword=None, label="settimeout", unbounded_default=_SOCKET_DEFAULT)
_REQUESTS_DEFAULT = "requests waits forever by default"
_REQUESTS_SPLIT = "pass `timeout=(connect, read)`"
_HTTPX_SPLIT = "pass `httpx.Timeout(read, connect=...)`"
_AIOHTTP_SPLIT = "pass `aiohttp.ClientTimeout(total=..., sock_connect=..., sock_read=...)`"
_REQUESTS_METHODS = ("get", "options", "head", "post", "put", "patch", "delete")


def _requests() -> Dict[str, TimeoutSpec]:
    spec = TimeoutSpec("requests", unbounded_default=_REQUESTS_DEFAULT, split_hint=_REQUESTS_SPLIT)
    table = {f"requests.{m}": spec for m in _REQUESTS_METHODS + ("request",)}
    table.update({f"requests.Session.{m}": spec for m in _REQUESTS_METHODS + ("send",)})
    # Session.request(method, url, params, data, headers, cookies, files, auth, timeout, ...)
    table["requests.Session.request"] = TimeoutSpec(
        "requests", position=8, unbounded_default=_REQUESTS_DEFAULT, split_hint=_REQUESTS_SPLIT
    )
    # advocate (requests that refuse internal addresses) has requests' functions and Session.
    table.update({f"advocate.{name[len('requests.'):]}": spec for name, spec in table.items()})
    # txrequests.Session is a requests.Session whose requests run in Twisted's thread pool.
    table.update({name.replace("requests.Session.", "txrequests.Session.", 1): spec
                  for name, spec in table.items() if name.startswith("requests.Session.")})
    return table


def _treq() -> Dict[str, TimeoutSpec]:
    # treq.get(url, headers=None, **kwargs): ``timeout=`` (seconds) cancels a request that has
    # no response by then; without it nothing does (the agent's endpoint bounds the connect).
    spec = TimeoutSpec("treq", unbounded_default="treq never gives up on a response without `timeout=`")
    methods = _REQUESTS_METHODS + ("request",)
    table = {f"treq.{m}": spec for m in methods}
    table.update({f"treq.client.HTTPClient.{m}": spec for m in methods})
    return table


def _httpx() -> Dict[str, TimeoutSpec]:
    # httpx defaults to 5 s: only an explicit None is a problem (or a max-timeout below 5 s).
    default = TimeoutSpec(
        "httpx", default_seconds=5.0, default_message="httpx's default timeout is 5 s",
        split_hint=_HTTPX_SPLIT,
    )
    inherits = TimeoutSpec("httpx", split_hint=_HTTPX_SPLIT)  # a client's method: the client's timeout
    functions = _REQUESTS_METHODS + ("request", "stream")
    table = {f"httpx.{m}": default for m in functions}
    for client in ("httpx.Client", "httpx.AsyncClient"):
        table[client] = default
        table.update({f"{client}.{m}": inherits for m in functions + ("build_request",)})
    return table


def _aiohttp() -> Dict[str, TimeoutSpec]:
    message = "aiohttp's default total timeout is 300 s"
    construction = TimeoutSpec(
        "aiohttp", default_seconds=300.0, default_message=message, none_means_default=True,
        split_hint=_AIOHTTP_SPLIT, elsewhere=("read_timeout", "conn_timeout"),
    )
    # A method's timeout=None becomes ClientTimeout(total=None): no limit at all; so does a
    # number of 0 or less (``ClientTimeout(total=0)``, which aiohttp reads as no timeout).
    method = TimeoutSpec("aiohttp", split_hint=_AIOHTTP_SPLIT, zero_unbounded="aiohttp")
    table = {"aiohttp.ClientSession": construction, "aiohttp.request": construction}
    table.update(
        {f"aiohttp.ClientSession.{m}": method for m in _REQUESTS_METHODS + ("request",)}
    )
    return table


def _stdlib() -> Dict[str, TimeoutSpec]:
    def socket_client(library: str, position: Optional[int]) -> TimeoutSpec:
        return TimeoutSpec(library, position=position, unbounded_default=_SOCKET_DEFAULT)

    xmlrpc_proxy = TimeoutSpec(
        "xmlrpc", keyword=None, elsewhere=("transport",), elsewhere_position=1, unbounded_default=_SOCKET_DEFAULT,
    )
    # Positions before 3.12 (3.12 made the timeout of the *_SSL/HTTPS variants keyword-only).
    return {
        # urlopen(url, data=None, timeout=...); OpenerDirector.open(fullurl, data=None, timeout=...)
        "urllib.request.urlopen": socket_client("urllib", 2),
        "urllib.request.OpenerDirector.open": socket_client("urllib", 2),
        # HTTPConnection(host, port=None, timeout=...)
        "http.client.HTTPConnection": socket_client("http.client", 2),
        # HTTPSConnection(host, port=None, key_file=None, cert_file=None, timeout=...)
        "http.client.HTTPSConnection": socket_client("http.client", 4),
        # create_connection(address, timeout=..., source_address=None)
        "socket.create_connection": socket_client("socket", 1),
        # SMTP(host='', port=0, local_hostname=None, timeout=...)
        "smtplib.SMTP": socket_client("smtplib", 3),
        # SMTP_SSL(host='', port=0, local_hostname=None, keyfile=None, certfile=None, timeout=...)
        "smtplib.SMTP_SSL": socket_client("smtplib", 5),
        # LMTP(host='', port=2003, local_hostname=None, source_address=None, timeout=...)
        "smtplib.LMTP": socket_client("smtplib", 4),
        # FTP(host='', user='', passwd='', acct='', timeout=...)
        "ftplib.FTP": socket_client("ftplib", 4),
        # FTP_TLS(host='', user='', passwd='', acct='', keyfile=None, certfile=None, context=None, timeout=...)
        "ftplib.FTP_TLS": socket_client("ftplib", 7),
        # connect(host='', port=0, timeout=-999): left out, the timeout the object was made with,
        # so only a value given here is judged
        "ftplib.FTP.connect": TimeoutSpec("ftplib", position=2),
        "ftplib.FTP_TLS.connect": TimeoutSpec("ftplib", position=2),
        # POP3(host, port=110, timeout=...)
        "poplib.POP3": socket_client("poplib", 2),
        # POP3_SSL(host, port=995, keyfile=None, certfile=None, timeout=...)
        "poplib.POP3_SSL": socket_client("poplib", 4),
        # IMAP4(host='', port=143, timeout=None) — the timeout parameter exists since 3.9
        "imaplib.IMAP4": socket_client("imaplib", 2),
        # IMAP4_SSL(host='', port=993, keyfile=None, certfile=None, ssl_context=None, timeout=None)
        "imaplib.IMAP4_SSL": socket_client("imaplib", 5),
        # imap_tools' MailBox(host='', port=993, timeout=None, ...), MailBoxUnencrypted and
        # MailBoxStartTls(host='', port=143, timeout=None, ...): imaplib's clients, connected
        # when made, given that timeout
        **{f"imap_tools.{cls}": socket_client("imap_tools", 2) for cls in ("MailBox", "MailBoxUnencrypted", "MailBoxStartTls")},
        # ServerProxy(uri, transport=None, ...): the default Transport connects with
        # http.client.HTTP(S)Connection(host), no timeout; only a transport of one's own sets one.
        "xmlrpc.client.ServerProxy": xmlrpc_proxy,
        "xmlrpc.client.Server": xmlrpc_proxy,
        # urlretrieve(url, filename=None, reporthook=None, data=None) takes no timeout at all:
        # its urlopen waits the socket default
        "urllib.request.urlretrieve": TimeoutSpec("urllib", keyword=None, unbounded_default=_SOCKET_DEFAULT),
        # sock.settimeout(value): the argument is required, so only its value is judged.
        "socket.socket.settimeout": TimeoutSpec("socket", keyword=None, position=0, zero_is_mode=True),
        # A process-wide default: unbounded or excessive values matter, a literal is configuration.
        "socket.setdefaulttimeout": TimeoutSpec(
            "socket", keyword=None, position=0, checks=frozenset({"RES102", "RES105"})
        ),
        # Generic waits: only an explicit None is flagged.
        "asyncio.wait_for": TimeoutSpec("asyncio", position=1, checks=GENERIC_WAIT),
        "asyncio.timeout": TimeoutSpec("asyncio", keyword="delay", position=0, checks=GENERIC_WAIT),
        "asyncio.timeout_at": TimeoutSpec("asyncio", keyword="when", position=0, checks=GENERIC_WAIT),
    }


def _other_waits() -> Dict[str, TimeoutSpec]:
    return {
        "async_timeout.timeout": TimeoutSpec("async_timeout", keyword="delay", position=0, checks=GENERIC_WAIT),
        "anyio.fail_after": TimeoutSpec("anyio", keyword="delay", position=0, checks=GENERIC_WAIT),
        "anyio.move_on_after": TimeoutSpec("anyio", keyword="delay", position=0, checks=GENERIC_WAIT),
    }


def _urllib3() -> Dict[str, TimeoutSpec]:
    pool = TimeoutSpec("urllib3", unbounded_default=_SOCKET_DEFAULT)
    # HTTP(S)ConnectionPool(host, port=None, timeout=...) in urllib3 2 (1.x had ``strict`` there).
    positional_pool = TimeoutSpec("urllib3", position=2, unbounded_default=_SOCKET_DEFAULT)
    method = TimeoutSpec("urllib3")  # a pool's request: the pool's timeout applies when absent
    table = {
        "urllib3.PoolManager": pool,
        "urllib3.ProxyManager": pool,
        "urllib3.connection_from_url": pool,
        "urllib3.HTTPConnectionPool": positional_pool,
        "urllib3.HTTPSConnectionPool": positional_pool,
        # urllib3.request(method, url, *, ..., timeout=3): a bounded 3 s default.
        "urllib3.request": TimeoutSpec(
            "urllib3", default_seconds=3.0, default_message="urllib3.request's default timeout is 3 s"
        ),
    }
    for cls in ("urllib3.PoolManager", "urllib3.ProxyManager", "urllib3.HTTPConnectionPool",
                "urllib3.HTTPSConnectionPool"):
        for m in ("request", "urlopen", "request_encode_body", "request_encode_url"):
            table[f"{cls}.{m}"] = method
    return table


# redis-py 8 waits at most 5 s for a connect and for a reply by default (``DEFAULT_SOCKET_TIMEOUT``).
REDIS_BOUNDED_SINCE = ("redis", 8)


def _databases() -> Dict[str, TimeoutSpec]:
    redis_default = (
        "redis-py before 8 waits forever on a socket read by default (socket_timeout=None), so one stalled "
        "server blocks the caller indefinitely"
    )
    connect_only = ("socket_connect_timeout",)
    redis = TimeoutSpec(
        "redis", keyword="socket_timeout", position=4, unbounded_default=redis_default,
        elsewhere=("connection_pool",), partial=connect_only, bounded_since=REDIS_BOUNDED_SINCE,
        server_keywords=("host", "connection_pool", "url"),
    )
    redis_url = TimeoutSpec(
        "redis", keyword="socket_timeout",
        unbounded_default=f"{redis_default}; pass `socket_timeout=` (a `socket_timeout` parameter in the URL would also do)",
        dsn=(0, "url"), elsewhere=("connection_pool",), opaque_dsn_lacks_timeout=True, partial=connect_only,
        bounded_since=REDIS_BOUNDED_SINCE,
    )
    redis_pool = TimeoutSpec(
        "redis", keyword="socket_timeout", unbounded_default=redis_default, partial=connect_only,
        bounded_since=REDIS_BOUNDED_SINCE, server_keywords=("host", "url"),
    )
    libpq = (
        "libpq waits forever to connect by default (connect_timeout unset, unless PGCONNECT_TIMEOUT "
        "is set in the environment)"
    )
    asynchronous = (
        "libpq ignores connect_timeout when it connects asynchronously (PQconnectPoll): the connect "
        "waits as long as the code that polls the connection lets it"
    )
    psycopg2 = TimeoutSpec(
        "psycopg2", keyword="connect_timeout", unbounded_default=libpq, dsn=(0, "dsn"),
        zero_unbounded="libpq", ignored_when=("async_", "async"), ignored_note=asynchronous,
    )
    psycopg2_pool = TimeoutSpec(
        "psycopg2", keyword="connect_timeout", unbounded_default=libpq, dsn=(2, "dsn"),
        zero_unbounded="libpq",
    )
    psycopg = TimeoutSpec(
        "psycopg", keyword="connect_timeout", dsn=(0, "conninfo"), default_seconds=130.0,
        default_message="psycopg 3 waits up to 130 s to connect by default",
        none_means_default=True, zero_means_default=True,
    )
    return {
        "redis.Redis": redis,
        "redis.asyncio.Redis": redis,
        "redis.from_url": redis_url,
        "redis.Redis.from_url": redis_url,
        "redis.asyncio.from_url": redis_url,
        "redis.asyncio.Redis.from_url": redis_url,
        "redis.ConnectionPool": redis_pool,
        "redis.BlockingConnectionPool": redis_pool,
        "redis.ConnectionPool.from_url": redis_url,
        "psycopg2.connect": psycopg2,
        "psycopg2.pool.SimpleConnectionPool": psycopg2_pool,
        "psycopg2.pool.ThreadedConnectionPool": psycopg2_pool,
        "psycopg.connect": psycopg,
        "psycopg.AsyncConnection.connect": psycopg,
        **_mysql(),
    }


def _mysql() -> Dict[str, TimeoutSpec]:
    # mysql-connector-python: connection_timeout (alias connect_timeout) defaults to None
    # (constants.DEFAULT_CONFIGURATION) and bounds the connect and handshake only; reads are
    # bounded by read_timeout since 9.2 (default None). The C extension passes ``or 0`` to
    # libmysqlclient, which reads 0 as no timeout. An option file may carry the setting.
    connector = TimeoutSpec(
        "mysql.connector", keyword="connection_timeout", aliases=("connect_timeout",),
        unbounded_default=(
            "mysql-connector-python waits for the connection with no timeout by default "
            "(connection_timeout=None)"
        ),
        elsewhere=("option_files",), zero_unbounded="libmysqlclient",
    )
    # PyMySQL: keyword-only connect_timeout=10 (connect only), read_timeout=None.
    pymysql = TimeoutSpec(
        "pymysql", keyword="connect_timeout", default_seconds=10.0,
        default_message="PyMySQL waits up to 10 s to connect by default",
    )
    table = {name: connector for name in (
        "mysql.connector.connect", "mysql.connector.MySQLConnection", "mysql.connector.CMySQLConnection",
        "mysql.connector.aio.connect", "mysql.connector.aio.MySQLConnection",
        "mysql.connector.pooling.MySQLConnectionPool",
    )}
    table["pymysql.Connection"] = pymysql
    return table


def _aws() -> Dict[str, TimeoutSpec]:
    # boto3.client(service_name, region_name, api_version, use_ssl, verify, endpoint_url,
    #              aws_access_key_id, aws_secret_access_key, aws_session_token, config)
    spec = TimeoutSpec(
        "botocore", keyword="config", position=9, default_seconds=60.0,
        default_message="botocore's default connect and read timeouts are 60 s each",
        botocore_config=True, none_means_default=True,  # ``config=None``: botocore's default ``Config``
    )
    names = (
        "boto3.client", "boto3.resource", "boto3.Session.client", "boto3.Session.resource",
        "botocore.session.Session.create_client",
    )
    return {name: spec for name in names}


# zeep's clients: their first argument is the WSDL, which describes a service and its address.
ZEEP_CLIENTS = ("zeep.Client", "zeep.CachingClient", "zeep.AsyncClient")
ZEEP_TRANSPORTS = ("zeep.Transport", "zeep.transports.AsyncTransport")


def _sdk_http() -> Dict[str, TimeoutSpec]:
    """HTTP stacks that libraries build on: requests subclasses and wrappers, httplib2, and the
    SDKs whose client is built on one of them (zeep, slumber, hvac, googleapiclient)."""
    oauth_fetch = {
        # fetch_token(token_url, code, authorization_response, body, auth, username, password,
        #             method, force_querystring, timeout, ...); refresh_token(token_url,
        #             refresh_token, body, auth, timeout, ...): both default to timeout=None.
        "requests_oauthlib.OAuth2Session.fetch_token": 9,
        "requests_oauthlib.OAuth2Session.refresh_token": 4,
        "requests_oauthlib.OAuth2Session.request": None,  # request(method, url, data, headers, ...)
        "requests_oauthlib.OAuth1Session.fetch_request_token": None,
        "requests_oauthlib.OAuth1Session.fetch_access_token": None,
    }
    table = {
        name: TimeoutSpec("requests", position=position, unbounded_default=_REQUESTS_DEFAULT, split_hint=_REQUESTS_SPLIT)
        for name, position in oauth_fetch.items()
    }
    # requests-hardened: every request gets Config.default_timeout (a required field) when it
    # passes none or None, so only the Config's value is judged; a call's own value still is.
    hardened_call = TimeoutSpec("requests", none_means_default=True, split_hint=_REQUESTS_SPLIT)
    table["requests_hardened.Manager.send_request"] = hardened_call
    table.update({f"requests_hardened.HTTPSession.{m}": hardened_call for m in _REQUESTS_METHODS + ("request", "send")})
    # Config(ip_filter_enable, ip_filter_allow_loopback_ips, never_redirect, default_timeout, ...)
    table["requests_hardened.Config"] = TimeoutSpec(
        "requests_hardened", keyword="default_timeout", position=3, split_hint=_REQUESTS_SPLIT,
    )
    # httplib2.Http(cache=None, timeout=None, ...): None is the socket default.
    table["httplib2.Http"] = TimeoutSpec("httplib2", position=1, unbounded_default=_SOCKET_DEFAULT)
    # AuthorizedHttp(credentials, http=None, ...) makes a httplib2.Http() without a timeout.
    table["google_auth_httplib2.AuthorizedHttp"] = TimeoutSpec(
        "httplib2", keyword=None, elsewhere=("http",), elsewhere_position=1,
        unbounded_default="without `http=` it makes a `httplib2.Http()` with no timeout (the socket default)",
    )
    # build(serviceName, version, http=None, ...): without http, googleapiclient.http.build_http()
    # makes httplib2.Http(timeout=DEFAULT_HTTP_TIMEOUT_SEC), 60 s, unless socket.getdefaulttimeout() is set.
    discovery = TimeoutSpec(
        "googleapiclient", keyword=None, elsewhere=("http",), elsewhere_position=2, default_seconds=60.0,
        default_message="without `http=`, googleapiclient's build_http() waits up to 60 s (DEFAULT_HTTP_TIMEOUT_SEC)",
        socket_default=True,
    )
    table["googleapiclient.discovery.build"] = discovery
    table["googleapiclient.discovery.build_from_document"] = discovery
    # zeep: Transport(cache=None, timeout=300, operation_timeout=None, session=None); timeout
    # bounds loading the WSDL and XSDs only. Client(wsdl, wsse=None, transport=None, ...) makes
    # a default Transport (AsyncClient an AsyncTransport, whose httpx client gets
    # timeout=operation_timeout=None).
    zeep_operations = "zeep waits forever for an operation by default (the Transport's operation_timeout=None)"
    zeep_client = TimeoutSpec(
        "zeep", keyword=None, elsewhere=("transport",), elsewhere_position=2,
        unbounded_default=f"{zeep_operations}; pass `transport=Transport(operation_timeout=...)`",
    )
    table.update({name: zeep_client for name in ZEEP_CLIENTS})
    table[ZEEP_TRANSPORTS[0]] = TimeoutSpec(
        "zeep", keyword="operation_timeout", position=2, unbounded_default=zeep_operations,
        partial=("timeout",), partial_note="loading the WSDL, not operations",
    )
    # AsyncTransport(client=None, wsdl_client=None, cache=None, timeout=300, operation_timeout=None, ...)
    table[ZEEP_TRANSPORTS[1]] = TimeoutSpec(
        "zeep", keyword="operation_timeout", position=4, unbounded_default=zeep_operations,
        elsewhere=("client",), elsewhere_position=0, partial=("timeout",),
        partial_note="loading the WSDL, not operations",
    )
    # slumber.API(base_url, auth, format, append_slash, session, ...) sends every request with
    # session.request(...) and no timeout; the keywords of its resource methods are query
    # parameters, so only a session that fills in a timeout bounds them.
    table["slumber.API"] = TimeoutSpec(
        "slumber", keyword=None, session=(4, "session"),
        unbounded_default=(
            "slumber sends every request through a requests.Session without a timeout, and its resource "
            "methods take none; pass `session=` a session that sets one"
        ),
    )
    # hvac.Client(url, token, cert, verify, timeout=30, ...): a bounded default.
    table["hvac.Client"] = TimeoutSpec(
        "hvac", position=4, default_seconds=30.0, default_message="hvac's default timeout is 30 s",
        split_hint=_REQUESTS_SPLIT,
    )
    # jira.JIRA(server, options, ..., max_retries=3, proxies=None, timeout=None, ...): every
    # request of the client (the server-info request the constructor sends too) goes through
    # a ResilientSession with that timeout; the position moved between releases.
    table["jira.JIRA"] = TimeoutSpec(
        "jira", unbounded_default="the jira client sends every request with `timeout=None` by default",
        split_hint=_REQUESTS_SPLIT, server_keywords=("server", "options"),
    )
    # python-gitlab: Gitlab(url, private_token, oauth_token, job_token, ssl_verify,
    # http_username, http_password, timeout=None, ...): every request of the client sends that
    # timeout, None by default; a session of the caller's (``session=``) may fill one in.
    table["gitlab.Gitlab"] = TimeoutSpec(
        "gitlab", position=7, elsewhere=("session",),
        unbounded_default="python-gitlab sends every request with `timeout=None` by default",
        split_hint=_REQUESTS_SPLIT,
    )
    # OpenAI(*, api_key, ..., timeout=NOT_GIVEN, max_retries=2, ..., http_client=None): without
    # a timeout, openai's DEFAULT_TIMEOUT (600 s, 5 s to connect), or a given http_client's own
    # when it set one; timeout=None is no timeout at all.
    openai = TimeoutSpec(
        "openai", default_seconds=600.0, elsewhere=("http_client",),
        default_message="openai-python waits up to 600 s for a response by default (5 s to connect)",
    )
    table.update({name: openai for name in (
        "openai.OpenAI", "openai.AsyncOpenAI", "openai.AzureOpenAI", "openai.AsyncAzureOpenAI",
    )})
    # websocket-client: create_connection(url, timeout=None, ...) falls back to
    # websocket.getdefaulttimeout(), None unless the process sets one.
    table["websocket.create_connection"] = TimeoutSpec(
        "websocket", position=1,
        unbounded_default="websocket-client waits forever by default (`websocket.getdefaulttimeout()` is None)",
    )
    return table


def _directories() -> Dict[str, TimeoutSpec]:
    """LDAP clients."""
    # ldap3: Connection(server, user=None, ..., receive_timeout=None, ...): a synchronous
    # connection (the default strategy) waits for every answer, the bind's too, as long as the
    # server takes. Another strategy does its own I/O (MOCK_SYNC in tests answers from memory).
    connection = TimeoutSpec(
        "ldap3", keyword="receive_timeout", elsewhere=("client_strategy",),
        elsewhere_unless=("SYNC", "SAFE_SYNC", "RESTARTABLE", "SAFE_RESTARTABLE"),
        unbounded_default="ldap3 waits for every answer forever without `receive_timeout=`",
    )
    return {name: connection for name in ("ldap3.Connection", "ldap3.core.connection.Connection")}


CLIENT_CALLS: Dict[str, TimeoutSpec] = {
    **_requests(), **_httpx(), **_aiohttp(), **_stdlib(), **_other_waits(), **_urllib3(),
    **_databases(), **_aws(), **_sdk_http(), **_treq(), **_directories(),
}

def _curl() -> Dict[str, TimeoutSpec]:
    """pycurl's timeout options, by name, judged where ``setopt`` sets them (``curl.py``)."""
    def option(label: str, unit: float, connect: bool) -> TimeoutSpec:
        if connect:  # 0 (or None) selects libcurl's built-in 300 s
            return TimeoutSpec(
                "pycurl", keyword=None, position=1, label=label, unit=unit, default_seconds=300.0,
                default_message="libcurl waits up to 300 s to connect by default", none_means_default=True,
                zero_means_default=True,
            )
        return TimeoutSpec("pycurl", keyword=None, position=1, label=label, unit=unit, zero_unbounded="libcurl")

    return {
        "TIMEOUT": option("TIMEOUT", 1.0, False),
        "TIMEOUT_MS": option("TIMEOUT_MS", 0.001, False),
        "CONNECTTIMEOUT": option("CONNECTTIMEOUT", 1.0, True),
        "CONNECTTIMEOUT_MS": option("CONNECTTIMEOUT_MS", 0.001, True),
    }


# pycurl options that carry a timeout, by option name (not calls: see ``curl.py``).
CURL_OPTIONS: Dict[str, TimeoutSpec] = _curl()
CURL_DEFAULT = (
    "libcurl waits forever for a transfer by default (CURLOPT_TIMEOUT 0) and up to 300 s to connect"
)

# Names a file must mention for any of these calls to be in it (the prefilter).
# ``http.client`` is reached as ``http.client.X``, ``from http.client import X`` or
# ``from http import client`` … ``client.X``: every spelling names one of its two classes.
TRIGGERS: Tuple[str, ...] = (
    "requests", "httpx", "aiohttp", "urllib", "HTTPConnection", "HTTPSConnection", "socket",
    "smtplib", "ftplib", "poplib", "imaplib", "redis", "valkey", "psycopg", "boto", "asyncio",
    "async_timeout", "anyio", "mysql", "pymysql", "httplib2", "googleapiclient", "zeep", "slumber", "hvac",
    "jira", "openai", "websocket", "pycurl", "treq", "xmlrpc", "imap_tools", "ldap3", "gitlab", "scrape",
)


# The keywords that carry a timeout in some client: what a summary records of every call, so
# that a call resolved to a client in another module can still be judged.
TIMEOUT_KEYWORDS: FrozenSet[str] = frozenset(
    keyword for spec in CLIENT_CALLS.values() for keyword in spec.keywords
)


def client_method_names(extend_clients: Iterable[str] = ()) -> FrozenSet[str]:
    """The last parts of the names of every call that needs a timeout, however a call target
    may spell them (``get``, ``urlopen``, ``from_url``): a call whose name ends otherwise is no
    client call, whatever object it is made on."""
    names = set(CLIENT_CALLS) | set(extend_clients) | {alias for alias, name in ALIASES.items() if name in CLIENT_CALLS}
    return frozenset(name.rsplit(".", 1)[-1] for name in names)


def for_project(spec: TimeoutSpec, declared_versions: Iterable[Tuple[str, int]]) -> TimeoutSpec:
    """``spec`` as the versions the project declares make it: a library that bounds the wait
    by default from the oldest version the project allows has no unbounded default."""
    if spec.bounded_since is None or spec.unbounded_default is None:
        return spec
    return replace(spec, unbounded_default=None) if declares_since(declared_versions, spec.bounded_since) else spec


def declares_since(declared_versions: Iterable[Tuple[str, int]], since: Tuple[str, int]) -> bool:
    """Whether the oldest version of the distribution the project allows is ``since``'s major
    or later (``("redis", 8)``)."""
    distribution, major = since
    return dict(declared_versions).get(distribution, 0) >= major


def spec_for(name: Optional[str], extend_clients: Iterable[str] = ()) -> Optional[TimeoutSpec]:
    if name is None:
        return None
    spec = CLIENT_CALLS.get(name)
    if spec is None and name in extend_clients:
        library = name.split(".", 1)[0]
        spec = TimeoutSpec(
            library,
            unbounded_default=f"{name} is configured in extend-clients as a call that needs a timeout",
        )
    return spec


# --- where the timeout is in a call ---------------------------------------------------------


@dataclass(frozen=True)
class TimeoutArgument:
    """Where a call's timeout is: ``value`` is the expression, or None when it is not passed.

    ``unknown`` is true when ``*args``/``**kwargs`` of unknown content may carry it, or the
    spec says the timeout is configured elsewhere (``connection_pool=``).
    """

    value: Optional[cst.BaseExpression]
    unknown: bool = False
    read_in: Optional[Scope] = None  # the scope its names belong to, when not the call's


@dataclass(frozen=True)
class ReadIn:
    """A value given in another function of the file (the dict a helper returns), with the
    scope its names belong to."""

    value: cst.BaseExpression
    scope: Scope


def find_timeout(
    call: cst.Call,
    spec: TimeoutSpec,
    model: Optional[SemanticModel] = None,
    scope: Optional[Scope] = None,
    order: int = 0,
) -> TimeoutArgument:
    positional = []
    unknown = False
    keywords = spec.keywords
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value in keywords:
                return TimeoutArgument(arg.value)
            if configures_elsewhere(arg, spec):
                unknown = True
        elif arg.star == "**":
            found = unpacked_keyword(arg.value, spec.keywords, spec.settings, model, scope, order, spec.elsewhere, read_elsewhere=True)
            if found is UNKNOWN_VALUE:
                unknown = True
            elif isinstance(found, ReadIn):
                return TimeoutArgument(found.value, read_in=found.scope)
            elif found is not None:
                return TimeoutArgument(found)  # type: ignore[arg-type]
        elif arg.star == "*":
            if spec.position is not None or spec.elsewhere_position is not None:
                unknown = True
        else:
            positional.append(arg.value)
    if spec.position is not None and len(positional) > spec.position:
        return TimeoutArgument(positional[spec.position])
    if spec.elsewhere_position is not None and len(positional) > spec.elsewhere_position:
        unknown = True
    return TimeoutArgument(None, unknown)


def configures_elsewhere(arg: cst.Arg, spec: TimeoutSpec) -> bool:
    """Whether a keyword argument sets the client's timeout another way (``spec.elsewhere``),
    unless its value is one that leaves the wait as it is (``spec.elsewhere_unless``)."""
    if arg.keyword is None or arg.keyword.value not in spec.elsewhere:
        return False
    value = arg.value
    last = value.attr.value if isinstance(value, cst.Attribute) else value.value if isinstance(value, cst.Name) else string_of(value)
    return last not in spec.elsewhere_unless


UNKNOWN_VALUE = object()  # what a mapping of unknown content may give


def unpacked_keyword(
    value: cst.BaseExpression, keywords: Tuple[str, ...], settings: Iterable[str], model: Optional[SemanticModel],
    scope: Optional[Scope], order: int, elsewhere: Tuple[str, ...] = (), read_elsewhere: bool = False,
) -> object:
    """``f(**mapping)``: the value the mapping gives one of ``keywords``, when it is a dict
    written out (or a local only ever assigned such dicts and only unpacked); None when it
    surely sets none of ``settings``; else ``UNKNOWN_VALUE``. With ``read_elsewhere``, a value
    given in the dict a function of the file returns, read in that function, as a ``ReadIn``.

    A name is followed to a literal dict only to *find* the key: a dict without it may still
    get one later (``params["timeout"] = 5``), so that stays unknown.
    """
    followed = False
    settings = frozenset(settings)
    if isinstance(value, cst.Name) and model is not None and scope is not None:
        where = mapping_scope(value.value, model, scope, order)
        keys = local_mapping_keys(value.value, model, where)
        if keys is not None and not keys & settings:
            return None  # every dict the name may hold is written out, and none sets it
        if keys is not None and where is scope and isinstance(scope.node, cst.FunctionDef):
            for keyword in keywords:
                set_later = set_on_every_path(value.value, keyword, model, scope)
                if set_later is not None:
                    return set_later  # ``kwargs["timeout"] = ...`` on every path of the function
            written, later = _mapping_keys(value.value, model, scope)  # type: ignore[misc]
            if not (written | later) & set(keywords) and not written & settings and all(
                _set_on_every_path(value.value, key, scope.node.body.body) is None for key in later & settings
            ) and not _set_as_callers_say(value.value, later & settings, scope.node):
                return None  # what configures it is added on some paths only (``if proxy:``): not on the others
            if later & set(keywords):
                # ``params = {"timeout": 3.0}`` then, on some path, ``params["timeout"] =
                # float(data["timeout"])``: what is written is a default the code may replace
                return UNKNOWN_VALUE
        assigned = model.assigned_expression(value, scope, order)
        if assigned is not None and assigned is not value:
            # a local only ever unpacked, given no key after it is assigned what a call returns
            # (``kw = make_send_kwargs(args)``), holds just that
            settled = keys is not None and where is scope and isinstance(assigned, cst.Call) and not _mapping_keys(value.value, model, scope)[1]  # type: ignore[index]
            value, followed = assigned, not settled
    if isinstance(value, cst.Call) and model is not None and scope is not None and not followed:
        for keyword in keywords:
            given = returned_value(value, keyword, model, scope, order)
            if given is not None and given[1] is scope:
                return given[0]  # ``**self.get_request_kwargs()`` returning ``dict(timeout=self.HTTP_TIMEOUT)``
            if given is not None:
                return ReadIn(*given) if read_elsewhere else UNKNOWN_VALUE
    if isinstance(value, cst.Call) and model is not None and scope is not None:
        keys = _written_keys(value, model, scope, order)  # ``**self._connection_kwargs()``
        # (a local assigned it may have had keys added since: ``kw.update(kwargs)``)
        return None if keys is not None and not keys & settings and not followed else UNKNOWN_VALUE
    if not isinstance(value, cst.Dict):
        return UNKNOWN_VALUE
    result: object = None
    for element in value.elements:
        if isinstance(element, cst.StarredDictElement):
            result = UNKNOWN_VALUE
        elif string_of(element.key) in keywords:
            return element.value
        elif string_of(element.key) in elsewhere:
            result = UNKNOWN_VALUE
    return UNKNOWN_VALUE if followed else result


def called_mapping(
    call: cst.Call, model: SemanticModel, scope: Scope, order: int,
) -> Optional[Dict[str, Optional[Tuple[cst.BaseExpression, Scope]]]]:
    """What ``**method()`` passes, when every dict the file's function returns is written out:
    each key, with its value and the scope to read it in where ``returned_value`` reads it
    (None otherwise)."""
    keys = _written_keys(call, model, scope, order)
    if keys is None:
        return None
    return {key: returned_value(call, key, model, scope, order) for key in sorted(keys)}


def assigned_mapping(name: str, model: SemanticModel, scope: Scope) -> Optional[Dict[str, Optional[Tuple[cst.BaseExpression, Scope]]]]:
    """What ``**kw`` passes, as ``called_mapping`` reads it, when the local is assigned once what
    a function of the file returns (``kw = make_send_kwargs(args)``) and given no key later."""
    held = _mapping_keys(name, model, scope)
    bindings = scope.bindings.get(name) if held is not None and not held[1] else None
    if not bindings or len(bindings) != 1 or not isinstance(bindings[0].expr, cst.Call):
        return None
    return called_mapping(bindings[0].expr, model, scope, bindings[0].order)


def returned_value(
    call: cst.Call, keyword: str, model: SemanticModel, scope: Scope, order: int,
) -> Optional[Tuple[cst.BaseExpression, Scope]]:
    """The value the function ``call`` runs gives ``keyword`` in the one dict it returns,
    written out (``return {"timeout": args.timeout or None}``, ``dict(...)``, or a local so
    written and returned, given no key later), and the scope it is read in: the caller's when it
    reads only names of the module (and ``self``, for a method of the caller's own class), the
    function's own otherwise. None when it is one of the function's parameters (its callers
    decide it) or not written out."""
    method = model.resolve(call.func, scope, order)
    caller = scope.enclosing_function
    if not (isinstance(method, FunctionInfo) and len(method.returns) == 1 and caller is not None):
        return None
    returned = method.returns[0]
    if isinstance(returned, cst.Name):
        held = _mapping_keys(returned.value, model, method.scope)
        if held is None or keyword in held[1]:
            return None  # the key may be set (again) after the dict is written
        returned = model.followed(returned, method.scope, 1 << 62)
    if isinstance(returned, cst.Dict):
        given = [e.value for e in returned.elements if isinstance(e, cst.DictElement) and string_of(e.key) == keyword]
    elif isinstance(returned, cst.Call) and model.qualified_name(returned.func, method.scope, 1 << 62) == "builtins.dict":
        given = [a.value for a in returned.args if a.keyword is not None and a.keyword.value == keyword]
    else:
        return None
    if len(given) != 1:
        return None
    same_class = method.owner is not None and method.owner is caller.owner
    bindings = [
        (name, model.lookup(name, method.scope, 1 << 62)) for name in (node.value for node in iter_nodes(given[0]) if isinstance(node, cst.Name))
    ]
    if all((name == "self" and same_class) or binding is None or binding.scope is model.module_scope for name, binding in bindings):
        return given[0], scope
    if isinstance(given[0], cst.Name) and bindings[0][1] is not None and bindings[0][1].expr is None:
        return None  # a parameter (or a name bound without a value)
    return given[0], method.scope


def set_on_every_path(name: str, key: str, model: SemanticModel, scope: Scope) -> Optional[cst.BaseExpression]:
    """The value a function (``scope``) gives ``name[key]`` on every path through its body."""
    if not isinstance(scope.node, cst.FunctionDef):
        return None
    return _set_on_every_path(name, key, scope.node.body.body, _holds_always(model, scope))


def _set_on_every_path(
    name: str, key: str, stmts: Sequence[cst.BaseStatement],
    holds: Callable[[cst.BaseExpression], bool] = lambda test: False,
) -> Optional[cst.BaseExpression]:
    """The value ``name[key] = value`` gives, when a statement of the block sets it on every
    path through it (itself, each branch of an ``if``/``else``, an ``if`` whose test ``holds``
    always, or the body of a ``with`` or of a ``try`` that the calls after it share): the first
    such value."""
    for stmt in stmts:
        if isinstance(stmt, (cst.Try, cst.With)) or (isinstance(stmt, cst.If) and stmt.orelse is None and holds(stmt.test)):
            found = _set_on_every_path(name, key, stmt.body.body, holds)
            if found is not None:
                return found
            continue
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if (isinstance(small, cst.Assign) and len(small.targets) == 1
                        and isinstance(small.targets[0].target, cst.Subscript)):
                    target = small.targets[0].target
                    if (isinstance(target.value, cst.Name) and target.value.value == name and len(target.slice) == 1
                            and isinstance(target.slice[0].slice, cst.Index)
                            and string_of(target.slice[0].slice.value) == key):
                        return small.value
        elif isinstance(stmt, cst.If) and stmt.orelse is not None:
            found = _set_on_every_path(name, key, stmt.body.body, holds)
            otherwise = (
                _set_on_every_path(name, key, [stmt.orelse], holds) if isinstance(stmt.orelse, cst.If)
                else _set_on_every_path(name, key, stmt.orelse.body.body, holds)
            )
            if found is not None and otherwise is not None:
                return found
    return None


def _holds_always(model: SemanticModel, scope: Scope) -> Callable[[cst.BaseExpression], bool]:
    """A test of a name or attribute that always holds: it can only be a library timeout
    object (``if self._timeout:`` where ``__init__`` sets ``aiohttp.ClientTimeout(...)``),
    which defines neither ``__bool__`` nor ``__len__``, so is never false."""
    def holds(test: cst.BaseExpression) -> bool:
        function = scope.function
        if isinstance(test, cst.Attribute) and function is not None:
            binding = function.own_attribute(test)
            bindings = [binding] if binding is not None else []
        elif isinstance(test, cst.Name):
            bindings = list(model.reaching(test.value, scope, 1 << 62))
        else:
            return False
        # set to such an object on every path (a parameter or an annotation may be None)
        return bool(bindings) and all(
            isinstance(b.expr, cst.Call) and model.qualified_name(b.expr.func, b.scope, b.order) in TIMEOUT_OBJECTS
            for b in bindings
        )
    return holds


def _set_as_callers_say(name: str, keys: Set[str], function: cst.FunctionDef) -> bool:
    """Whether an ``if`` that sets one of ``keys`` of the dict ``name`` tests a parameter
    (``if http: kwargs["http"] = http``): whether it is set is the callers' choice, which
    they may always make."""
    parameters = parameter_names(function.params)
    for node in iter_nodes(function.body):
        if isinstance(node, cst.If) and any(
            isinstance(n, cst.Name) and n.value in parameters for n in iter_nodes(node.test)
        ) and any(_item_of(target.target, name) in keys for statement in iter_nodes(node.body)
                  if isinstance(statement, cst.Assign) for target in statement.targets):
            return True
    return False


def _rebound_before_use(name: str, stmts: Sequence[cst.BaseStatement]) -> bool:
    """Whether the block assigns ``name`` on every path (a statement of its own, or every
    branch of an ``if``/``else``) before anything reads it."""
    for stmt in stmts:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if _reads(small, name):
                    return False
                if isinstance(small, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets
                ):
                    return True
        elif isinstance(stmt, cst.If) and isinstance(stmt.orelse, (cst.Else, cst.If)):
            if _reads(stmt.test, name):
                return False
            otherwise = [stmt.orelse] if isinstance(stmt.orelse, cst.If) else stmt.orelse.body.body
            if _rebound_before_use(name, stmt.body.body) and _rebound_before_use(name, otherwise):
                return True
            return False
        elif _reads(stmt, name):
            return False
    return False


def _reads(node: cst.CSTNode, name: str) -> bool:
    """Whether ``name`` appears in ``node`` other than as the whole target of an assignment."""
    targets = set()
    if isinstance(node, cst.Assign):
        targets = {id(t.target) for t in node.targets}
    return any(isinstance(n, cst.Name) and n.value == name and id(n) not in targets for n in iter_nodes(node))


_COPIERS = frozenset({"copy.deepcopy", "copy.copy", "builtins.dict"})


def copies_kwargs(model: SemanticModel, name: str, kwargs: str, site: CallSite) -> bool:
    """Whether the local ``name`` holds a copy of the function's own ``**kwargs``
    (``req_kw = deepcopy(kwargs)``, ``dict(kwargs)``, ``kwargs.copy()``), the keys set on it
    after (``req_kw.update({"timeout": self.timeout})``) aside."""
    bindings = site.scope.bindings.get(name, [])
    value = bindings[0].expr if len(bindings) == 1 else None
    if not isinstance(value, cst.Call):
        return False
    if isinstance(value.func, cst.Attribute) and value.func.attr.value == "copy" and not value.args:
        copied = value.func.value
    elif len(value.args) == 1 and not value.args[0].keyword and not value.args[0].star and model.qualified_name(
        value.func, site.scope, site.order,
    ) in _COPIERS:
        copied = value.args[0].value
    else:
        return False
    return isinstance(copied, cst.Name) and copied.value == kwargs


def keys_filled_in(model: SemanticModel, function: FunctionInfo, mapping: str) -> List[Tuple[str, cst.BaseExpression]]:
    """``keys_set_on`` of a function of the file (``kwargs.setdefault("timeout", ...)``), read
    once per function and mapping: the summaries and the timeout verdicts both ask it per call."""
    return model.derived((keys_set_on, id(function.node), mapping), lambda: list(keys_set_on(function.node, mapping)))


def mapping_scope(name: str, model: SemanticModel, scope: Scope, order: int) -> Scope:
    """Where the name a call unpacks (``**kwargs``) is bound: ``scope`` (its function), or its
    module for a module's dict (``_CONNECTION_KWARGS = {}`` then
    ``_CONNECTION_KWARGS["retry"] = ...``)."""
    binding = model.lookup(name, scope, order)
    return binding.scope if binding is not None and binding.scope.kind == "module" else scope


def local_mapping_keys(name: str, model: SemanticModel, scope: Scope) -> Optional[Set[str]]:
    """Every key of such a local (``_mapping_keys``), written or set later, or None."""
    found = _mapping_keys(name, model, scope)
    return found[0] | found[1] if found is not None else None


def _mapping_keys(name: str, model: SemanticModel, scope: Scope) -> Optional[Tuple[Set[str], Set[str]]]:
    """The keys of a local of a function that is only ever assigned dicts written out (``{"json":
    payload}``, ``dict(data=payload)``) and only read by unpacking (``**kwargs``): nothing can
    add a key the code does not show: the keys its dicts write, and those set on it later
    (``q["auth"] = (user, password)``). None when the name is used any other way."""
    every: Dict[Tuple[str, int], Optional[Tuple[Set[str], Set[str]]]] = model.derived(_mapping_keys, dict)
    key = (name, id(scope))
    if key not in every:
        every[key] = None  # a cycle (a function returning what it returns) reads no keys
        every[key] = _read_mapping_keys(name, model, scope)
    return every[key]


def _read_mapping_keys(name: str, model: SemanticModel, scope: Scope) -> Optional[Tuple[Set[str], Set[str]]]:
    bindings = scope.bindings.get(name) if scope.kind in ("function", "module") else None
    if not bindings:
        return None
    keys: Set[str] = set()
    later: Set[str] = set()
    if (bindings[0].expr is None and isinstance(scope.node, cst.FunctionDef)
            and _rebound_before_use(name, scope.node.body.body)):
        bindings = bindings[1:]  # ``**kwargs`` replaced on every path before it is read
    for binding in bindings:
        written = _written_keys(binding.expr, model, scope, binding.order) if binding.expr is not None else None
        if written is None:
            return None
        keys |= written
    allowed, mentions = 0, 0
    if len(bindings) < len(scope.bindings[name]):
        allowed += 1  # the parameter's own name in the signature
    for node in iter_nodes(scope.node):
        kind = node.__class__  # (class tests: LibCST's node classes are slow ABCs)
        if kind is cst.Name and node.value == name:
            mentions += 1
        elif (kind in (cst.AssignTarget, cst.AnnAssign) and isinstance(node.target, cst.Name)
              and node.target.value == name):
            allowed += 1  # ``kwargs = {...}``, ``kwargs: dict[str, Any] = {...}``
        elif kind is cst.Arg and node.star == "**" and isinstance(node.value, cst.Name) and node.value.value == name:
            allowed += 1
        elif kind is cst.Return and isinstance(node.value, cst.Name) and node.value.value == name:
            allowed += 1  # ``return config``: handed out with the keys it has
        elif (kind is cst.Attribute and node.attr.value == name) or (
            kind is cst.Arg and node.keyword is not None and node.keyword.value == name
        ):
            allowed += 1  # ``self.kwargs``, ``f(kwargs=…)``: only spelled the same, not the local
        elif _item_of(node, name) is not None:
            allowed += 1  # ``q["headers"]``, ``q["headers"]["Authorization"] = …``: no key added
        elif kind is cst.AssignTarget and _item_of(node.target, name) is not None:
            later.add(_item_of(node.target, name))  # type: ignore[arg-type]  # ``q["auth"] = (user, password)``
        elif kind is cst.Call:
            added = _keys_added(node, name, model, scope)
            if added is not None:
                allowed += 1
                later |= added  # ``params.update({"context": ctx})``, ``params.setdefault("timeout", 5)``
    return (keys, later) if mentions == allowed else None


def _keys_added(call: cst.Call, name: str, model: SemanticModel, scope: Scope) -> Optional[Set[str]]:
    """The keys ``name.update({...})`` / ``name.update(key=...)`` / ``name.setdefault("key", ...)``
    adds to the local, when the call writes them out; None for any other call."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name):
        return None
    if func.attr.value == "setdefault" and call.args and call.args[0].keyword is None:
        key = string_of(call.args[0].value)
        return {key} if key is not None else None
    if func.attr.value != "update" or any(arg.star for arg in call.args):
        return None
    found: Set[str] = set()
    for arg in call.args:
        if arg.keyword is not None:
            found.add(arg.keyword.value)
            continue
        written = _written_keys(arg.value, model, scope, 1 << 62)
        if written is None:
            return None
        found |= written
    return found


def _item_of(node: cst.CSTNode, name: str) -> Optional[str]:
    """The key of ``name["key"]``, a subscript of the local by a string written out."""
    if not (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == name):
        return None
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    return string_of(node.slice[0].slice.value)


def written_mapping(name: str, model: SemanticModel, scope: Scope) -> Optional[Tuple[cst.Dict, Set[str]]]:
    """The one dict written out (``kwargs = {"timeout": 20}``) that a local of a function holds
    when it is assigned nothing else and only ever unpacked (``send(query, **kwargs)``): what
    each call that unpacks it passes, keyword by keyword; with the keys set on it later, on
    some path (``kwargs["json"] = payload``), whose values it does not give. None otherwise."""
    found = _mapping_keys(name, model, scope)
    bindings = scope.bindings.get(name) if found is not None else None
    if found is None or not bindings or len(bindings) != 1 or not isinstance(bindings[0].expr, cst.Dict):
        return None
    if any(isinstance(element, cst.DictElement) and string_of(element.key) is None for element in bindings[0].expr.elements):
        return None  # a key chosen at run time (``{kwarg: body}``): which keyword gets the value is not known
    return bindings[0].expr, found[1]


def _written_keys(expr: cst.BaseExpression, model: SemanticModel, scope: Scope, order: int, depth: int = 0) -> Optional[Set[str]]:
    """The keys of a dict written out, or of what a function of the file returns when each of
    its returns is one (``return {"verify": verify, "cert": cert}``), or of a local only ever
    assigned one and given keys the code writes out; None otherwise."""
    if isinstance(expr, cst.Dict):
        found_keys: Set[str] = set()
        for element in expr.elements:
            key = _key_strings(element.key, model, scope) if isinstance(element, cst.DictElement) else None
            if key is None:
                return None
            found_keys |= key
        return found_keys
    elif isinstance(expr, cst.Call) and model.qualified_name(expr.func, scope, order) == "builtins.dict":
        keys = [a.keyword.value if a.keyword is not None and not a.star else None for a in expr.args]
    elif isinstance(expr, cst.Call) and depth < 2:
        helper = model.resolve(expr.func, scope, order)
        return returned_keys(model, helper, depth + 1) if isinstance(helper, FunctionInfo) else None
    elif isinstance(expr, cst.Name) and depth < 2 and scope.kind == "function":
        # a local built up before it is returned (``config = {...}``, then ``config["x"] = ...``)
        held = _mapping_keys(expr.value, model, scope)
        return held[0] | held[1] if held is not None else None
    elif choices := _choices(expr):
        # ``{} if plain else {"context": ctx}``, ``({"context": ctx}, {})[plain]``: either one
        found: Set[str] = set()
        for choice in choices:
            written = _written_keys(choice, model, scope, order, depth)
            if written is None:
                return None
            found |= written
        return found
    else:
        return None
    return None if any(key is None for key in keys) else set(keys)  # type: ignore[arg-type]


def _key_strings(key: cst.BaseExpression, model: SemanticModel, scope: Scope) -> Optional[Set[str]]:
    """The strings a dict's key may be: one written out, or a local of the function only ever
    assigned strings written out, a choice between them included (``kwarg = "params" if get
    else "data"``)."""
    text = string_of(key)
    if text is not None:
        return {text}
    bindings = scope.bindings.get(key.value) if isinstance(key, cst.Name) and scope.kind == "function" else None
    found: Set[str] = set()
    for binding in bindings or ():
        if binding.expr is None:
            return None
        for choice in _choices(binding.expr) or [binding.expr]:
            written = string_of(choice)
            if written is None:
                return None
            found.add(written)
    return found or None


def _choices(expr: cst.BaseExpression) -> List[cst.BaseExpression]:
    """The values a conditional expression, or a tuple or list written out and indexed by a
    condition (``(a, b)[flag]``), chooses between."""
    if isinstance(expr, cst.IfExp):
        return [expr.body, expr.orelse]
    if (isinstance(expr, cst.Subscript) and isinstance(expr.value, (cst.Tuple, cst.List)) and len(expr.slice) == 1
            and isinstance(expr.slice[0].slice, cst.Index)):
        elements = expr.value.elements
        if elements and all(isinstance(e, cst.Element) for e in elements):
            return [e.value for e in elements]
    return []


def returned_keys(model: SemanticModel, function: FunctionInfo, depth: int = 0) -> Optional[Set[str]]:
    """The keys of what ``function`` returns when each of its returns is a dict written out
    (``return {"verify": verify}``, ``dict(...)``, what another such function of the file
    returns); None otherwise."""
    if not function.returns:
        return None
    found: Set[str] = set()
    for returned in function.returns:
        written = _written_keys(returned, model, function.scope, 1 << 62, depth)
        if written is None:
            return None
        found |= written
    return found


def find_dsn(call: cst.Call, spec: TimeoutSpec) -> Optional[cst.BaseExpression]:
    """The connection string argument of a database client, if the spec has one."""
    if spec.dsn is None:
        return None
    position, keyword = spec.dsn
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    return positional[position] if len(positional) > position else None


def local_by_default(spec: TimeoutSpec, node: cst.Call, model: Optional[SemanticModel] = None, scope: Optional[Scope] = None) -> bool:
    """Whether a call of a client that connects to this machine unless told otherwise
    (``redis.Redis()``) names no server: no positional argument, none of its
    ``server_keywords``, and no ``**`` mapping but a local of the function whose keys the file
    shows (``Redis(**{"db": n})``)."""
    if not spec.server_keywords:
        return False
    for arg in node.args:
        if arg.star == "**" and isinstance(arg.value, cst.Name) and model is not None and scope is not None:
            keys = local_mapping_keys(arg.value.value, model, scope)
            if keys is None or keys & set(spec.server_keywords):
                return False
        elif arg.keyword is None or arg.star or arg.keyword.value in spec.server_keywords:
            return False
    return True
