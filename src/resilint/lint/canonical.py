"""Canonical qualified names: one spelling for each library object that has several.

``requests.api.get`` and ``requests.get`` are the same function; ``requests.session()``
returns a ``requests.Session``. Rules match canonical names only, so they list each object once.
"""

from __future__ import annotations

import re
from typing import Dict, FrozenSet, Optional, Tuple

# Module paths (or objects) that are re-exported under a shorter public name.
ALIASES: Dict[str, str] = {
    "requests.api": "requests",
    # defusedxml's hardened xmlrpc re-exports the standard library's client
    "defusedxml.xmlrpc.xmlrpc_client": "xmlrpc.client",
    "imap_tools.mailbox": "imap_tools",
    "django.core.mail.message.EmailMessage": "django.core.mail.EmailMessage",
    "django.core.mail.message.EmailMultiAlternatives": "django.core.mail.EmailMultiAlternatives",
    "requests.sessions.Session": "requests.Session",
    "requests.sessions.session": "requests.session",
    "requests.adapters.HTTPAdapter": "requests.adapters.HTTPAdapter",
    "httpx._client.Client": "httpx.Client",
    "httpx._client.AsyncClient": "httpx.AsyncClient",
    "httpx._api": "httpx",
    "httpx._config.Timeout": "httpx.Timeout",
    "aiohttp.client.ClientSession": "aiohttp.ClientSession",
    "aiohttp.client.ClientTimeout": "aiohttp.ClientTimeout",
    "urllib3.poolmanager.PoolManager": "urllib3.PoolManager",
    "urllib3.poolmanager.ProxyManager": "urllib3.ProxyManager",
    "urllib3.connectionpool.HTTPConnectionPool": "urllib3.HTTPConnectionPool",
    "urllib3.connectionpool.HTTPSConnectionPool": "urllib3.HTTPSConnectionPool",
    "urllib3.util.retry.Retry": "urllib3.Retry",
    "urllib3.util.Retry": "urllib3.Retry",
    "requests.adapters.Retry": "urllib3.Retry",  # requests re-exports urllib3's
    "requests.packages.urllib3": "urllib3",
    "redis.client.Redis": "redis.Redis",
    "redis.client.StrictRedis": "redis.Redis",
    "redis.StrictRedis": "redis.Redis",
    "redis.client.from_url": "redis.from_url",
    "redis.utils.from_url": "redis.from_url",
    "psycopg2._psycopg.connect": "psycopg2.connect",
    "socket.socket.settimeout": "socket.socket.settimeout",
    "asyncio.tasks.wait_for": "asyncio.wait_for",
    "asyncio.timeouts.timeout": "asyncio.timeout",
    "asyncio.timeouts.timeout_at": "asyncio.timeout_at",
    "aiohttp.client.request": "aiohttp.request",
    "urllib3.util.timeout.Timeout": "urllib3.Timeout",
    "urllib3.util.Timeout": "urllib3.Timeout",
    "redis.asyncio.client.Redis": "redis.asyncio.Redis",
    "redis.asyncio.client.StrictRedis": "redis.asyncio.Redis",
    "redis.asyncio.StrictRedis": "redis.asyncio.Redis",
    "redis.asyncio.utils.from_url": "redis.asyncio.from_url",
    "redis.connection.ConnectionPool": "redis.ConnectionPool",
    "redis.connection.BlockingConnectionPool": "redis.BlockingConnectionPool",
    "psycopg.connection.Connection": "psycopg.Connection",
    "psycopg.connection_async.AsyncConnection": "psycopg.AsyncConnection",
    "psycopg.Connection.connect": "psycopg.connect",
    "psycopg.connection.Connection.connect": "psycopg.connect",
    "socket.SocketType": "socket.socket",
    "boto3.session.Session": "boto3.Session",
    "botocore.client.Config": "botocore.config.Config",
    "boto3.session.Config": "botocore.config.Config",
    "elasticsearch.client.Elasticsearch": "elasticsearch.Elasticsearch",
    "elasticsearch._sync.client.Elasticsearch": "elasticsearch.Elasticsearch",
    "elasticsearch._async.client.AsyncElasticsearch": "elasticsearch.AsyncElasticsearch",
    "opensearchpy.client.OpenSearch": "opensearchpy.OpenSearch",
    "opensearchpy._async.client.AsyncOpenSearch": "opensearchpy.AsyncOpenSearch",
    "openai._client.OpenAI": "openai.OpenAI",
    "openai._client.AsyncOpenAI": "openai.AsyncOpenAI",
    # openai-python's own aliases (``Client = OpenAI``)
    "openai.Client": "openai.OpenAI",
    "openai.AsyncClient": "openai.AsyncOpenAI",
    "openai._client.Client": "openai.OpenAI",
    "openai._client.AsyncClient": "openai.AsyncOpenAI",
    "openai.lib.azure.AzureOpenAI": "openai.AzureOpenAI",
    "openai.lib.azure.AsyncAzureOpenAI": "openai.AsyncAzureOpenAI",
    "stripe._stripe_client.StripeClient": "stripe.StripeClient",
    "minio.api.Minio": "minio.Minio",
    "jira.client.JIRA": "jira.JIRA",
    # six's Python 2/3 names of the standard library's modules
    "six.moves.urllib.request": "urllib.request",
    "six.moves.urllib_request": "urllib.request",
    "six.moves.urllib.error": "urllib.error",
    "six.moves.urllib_error": "urllib.error",
    "six.moves.http_client": "http.client",
    "six.moves.xmlrpc_client": "xmlrpc.client",
    "six.moves.socketserver": "socketserver",
    "six.moves.queue": "queue",
    "six.moves.urllib.parse": "urllib.parse",
    "six.moves.urllib_parse": "urllib.parse",
    "slack_sdk.web.WebClient": "slack_sdk.WebClient",
    "slack_sdk.web.client.WebClient": "slack_sdk.WebClient",
    "slack_sdk.webhook.WebhookClient": "slack_sdk.WebhookClient",
    "slack_sdk.webhook.client.WebhookClient": "slack_sdk.WebhookClient",
    "slack_sdk.http_retry.builtin_handlers": "slack_sdk.http_retry",
    "websocket._core.create_connection": "websocket.create_connection",
    "google.api_core.retry.retry_unary.Retry": "google.api_core.retry.Retry",
    "google.api_core.retry.retry_unary_async.AsyncRetry": "google.api_core.retry.AsyncRetry",
    "google.api_core.retry_async.AsyncRetry": "google.api_core.retry.AsyncRetry",
    "requests_oauthlib.oauth2_session.OAuth2Session": "requests_oauthlib.OAuth2Session",
    "requests_cache.session.CachedSession": "requests_cache.CachedSession",
    "requests_futures.FuturesSession": "requests_futures.sessions.FuturesSession",
    "requests_oauthlib.oauth1_session.OAuth1Session": "requests_oauthlib.OAuth1Session",
    "requests_hardened.manager.Manager": "requests_hardened.Manager",
    "requests_hardened.config.Config": "requests_hardened.Config",
    "requests_hardened.client.HTTPSession": "requests_hardened.HTTPSession",
    "pymysql.connect": "pymysql.Connection",
    "pymysql.Connect": "pymysql.Connection",
    "pymysql.connections.Connection": "pymysql.Connection",
    "mysql.connector.connection.MySQLConnection": "mysql.connector.MySQLConnection",
    "mysql.connector.connection_cext.CMySQLConnection": "mysql.connector.CMySQLConnection",
    "mysql.connector.pooling.connect": "mysql.connector.connect",
    "mysql.connector.aio.connection.MySQLConnection": "mysql.connector.aio.MySQLConnection",
    "apiclient.discovery": "googleapiclient.discovery",
    "zeep.client.Client": "zeep.Client",
    "zeep.client.AsyncClient": "zeep.AsyncClient",
    "zeep.client.CachingClient": "zeep.CachingClient",
    "zeep.transports.Transport": "zeep.Transport",
    # valkey-py is redis-py renamed (a fork with the same API, defaults and retries)
    "valkey.Valkey": "redis.Redis",
    "valkey.StrictValkey": "redis.Redis",
    "valkey.client.Valkey": "redis.Redis",
    "valkey.client.StrictValkey": "redis.Redis",
    "valkey.asyncio.Valkey": "redis.asyncio.Redis",
    "valkey.asyncio.StrictValkey": "redis.asyncio.Redis",
    "valkey.asyncio.client.Valkey": "redis.asyncio.Redis",
    "valkey.from_url": "redis.from_url",
    "valkey.client.from_url": "redis.from_url",
    "valkey.utils.from_url": "redis.from_url",
    "valkey.asyncio.from_url": "redis.asyncio.from_url",
    "valkey.asyncio.utils.from_url": "redis.asyncio.from_url",
    "valkey.ConnectionPool": "redis.ConnectionPool",
    "valkey.BlockingConnectionPool": "redis.BlockingConnectionPool",
    "valkey.connection.ConnectionPool": "redis.ConnectionPool",
    "valkey.connection.BlockingConnectionPool": "redis.BlockingConnectionPool",
    "valkey.retry.Retry": "redis.retry.Retry",
    "valkey.asyncio.retry.Retry": "redis.asyncio.retry.Retry",
}

# Factories: calling the key returns an instance of the value.
_RETURNS: Dict[str, str] = {
    "requests.session": "requests.Session",
    # Cloudflare-solving sessions (requests sessions): ``cloudscraper.create_scraper(delay=15)``
    "cloudscraper.create_scraper": "cloudscraper.CloudScraper",
    "cloudscraper.session": "cloudscraper.CloudScraper",
    "cfscrape.create_scraper": "cfscrape.CloudflareScraper",
    "redis.from_url": "redis.Redis",
    "redis.Redis.from_url": "redis.Redis",
    "socket.create_connection": "socket.socket",
    "urllib3.connection_from_url": "urllib3.HTTPConnectionPool",
    "boto3.client": "botocore.client.BaseClient",
    "boto3.session.Session.client": "botocore.client.BaseClient",
    "boto3.Session.client": "botocore.client.BaseClient",
    # a session's resource is the one ``boto3.resource`` makes, on that session
    "boto3.session.Session.resource": "boto3.resource",
    "boto3.Session.resource": "boto3.resource",
    "botocore.session.get_session": "botocore.session.Session",
    "botocore.session.Session.create_client": "botocore.client.BaseClient",
    "redis.asyncio.from_url": "redis.asyncio.Redis",
    "redis.asyncio.Redis.from_url": "redis.asyncio.Redis",
    "psycopg.connect": "psycopg.Connection",
    "psycopg.AsyncConnection.connect": "psycopg.AsyncConnection",
    "urllib.request.build_opener": "urllib.request.OpenerDirector",
    "requests_hardened.Manager.get_session": "requests_hardened.HTTPSession",
    "mysql.connector.connect": "mysql.connector.MySQLConnection",
    # calling an instance: a session factory (``SessionLocal = sessionmaker(...)``; ``SessionLocal()``)
    "sqlalchemy.orm.sessionmaker.__call__": "sqlalchemy.orm.Session",
    "sqlalchemy.orm.session.sessionmaker.__call__": "sqlalchemy.orm.Session",
    "sqlalchemy.orm.scoped_session.__call__": "sqlalchemy.orm.Session",
    "sqlalchemy.ext.asyncio.async_sessionmaker.__call__": "sqlalchemy.ext.asyncio.AsyncSession",
    "sqlalchemy.ext.asyncio.async_scoped_session.__call__": "sqlalchemy.ext.asyncio.AsyncSession",
}

# Library classes that extend another library class: calling a method they inherit is calling
# the base's (``OAuth2Session(...).get`` is ``requests.Session.get``); their own methods, and
# overrides with another signature, keep the class's name.
_SUBCLASSES: Dict[str, Tuple[str, FrozenSet[str]]] = {
    # djmail's template mail that inlines its CSS sends as the plain one does
    "djmail.template_mail.InlineCSSTemplateMail": ("djmail.template_mail.TemplateMail", frozenset()),
    "requests_oauthlib.OAuth2Session": ("requests.Session", frozenset({
        "request", "fetch_token", "refresh_token", "token_from_fragment", "authorization_url", "new_state",
        "register_compliance_hook", "scope", "client_id", "token", "access_token", "authorized",
    })),
    # requests-cache: a cache miss is sent as ``requests.Session`` sends it, no timeout added
    "requests_cache.CachedSession": ("requests.Session", frozenset({
        "cache", "settings", "cache_disabled", "remove_expired_responses", "expired", "wrap",
    })),
    # their ``request`` hands its arguments to ``requests.Session.request``, no timeout added
    "cloudscraper.CloudScraper": ("requests.Session", frozenset({
        "solve_challenge", "is_challenge_request", "get_tokens", "get_cookie_string", "create_scraper",
    })),
    "cfscrape.CloudflareScraper": ("requests.Session", frozenset({
        "solve_challenge", "is_cloudflare_iuam_challenge", "get_tokens", "get_cookie_string", "create_scraper",
    })),
    # anymail: a Django message with an email service's extras, sent through the configured backend
    "anymail.message.AnymailMessage": ("django.core.mail.EmailMultiAlternatives", frozenset({
        "attach_inline_image", "attach_inline_image_file",
    })),
    # requests-futures: ``request`` hands ``super().request`` to a thread pool, no timeout added
    "requests_futures.sessions.FuturesSession": ("requests.Session", frozenset({"executor", "close"})),
    "requests_oauthlib.OAuth1Session": ("requests.Session", frozenset({
        "fetch_request_token", "fetch_access_token", "authorization_url", "parse_authorization_response",
        "rebuild_auth", "token", "authorized",
    })),
}
# Objects whose attributes are made up on access (``api.customers(7).get()`` in slumber): any
# attribute that is not one of the class's own methods is another object of the given class.
_DYNAMIC: Dict[str, Tuple[str, FrozenSet[str]]] = {
    "slumber.API": ("slumber.Resource", frozenset()),
    "slumber.Resource": ("slumber.Resource", frozenset({
        "get", "options", "head", "post", "patch", "put", "delete", "url", "as_raw",
    })),
    # djmail: ``mail_builder.registered_user(user, context)`` builds the template's Django
    # message (what the naming of call results calls the attribute itself)
    "djmail.template_mail.MagicMailBuilder": ("django.core.mail.EmailMultiAlternatives", frozenset()),
}


# A copy of a client library vendored in the project (``from lib import requests``,
# ``pip._vendor.requests``): the library itself, under the directory it was copied to. (Not
# redis: ``lib/redis.py`` is often a project's own helper module.)
_VENDORED = re.compile(
    r"^(?:[\w.]*\.)?(?:lib|libs|vendor|_vendor|vendored|thirdparty|third_party|extern|externals)\."
    r"(?=(?:requests|urllib3|httpx|aiohttp|httplib2|six|websocket|requests_oauthlib|tenacity|backoff|retrying)(?:\.|$))"
)


def canonical_name(name: str) -> str:
    """Rewrite the longest aliased prefix of a dotted name to its canonical spelling; a method
    a library subclass inherits is its base's, and a made-up attribute of a dynamic object is
    the object it makes. A vendored copy of a client library is that library."""
    if ".lib" in name or "vendor" in name or "third" in name or "extern" in name or name.startswith("lib"):
        name = _VENDORED.sub("", name, count=1)
    if name in ALIASES:
        name = ALIASES[name]
    else:
        end = name.rfind(".")
        while end > 0:
            replacement = ALIASES.get(name[:end])
            if replacement is not None:
                name = replacement + name[end:]
                break
            end = name.rfind(".", 0, end)
    if name.startswith(_REWRITTEN):
        owner, _, attribute = name.rpartition(".")
        if not attribute.startswith("_"):
            inherited = _SUBCLASSES.get(owner)
            if inherited is not None and attribute not in inherited[1]:
                return f"{inherited[0]}.{attribute}"
            dynamic = _DYNAMIC.get(owner)
            if dynamic is not None and attribute not in dynamic[1]:
                return dynamic[0]
    return name


# Objects of a dynamic class, which its made-up attributes and calls give again
# (``api.customers(7).orders``: a slumber Resource at each step).
DYNAMIC_OBJECTS: FrozenSet[str] = frozenset(made for made, _ in _DYNAMIC.values())


# The packages whose names ``canonical_name`` rewrites beyond aliases (a cheap first test).
_REWRITTEN = tuple(sorted({f"{name.split('.', 1)[0]}." for name in (*_SUBCLASSES, *_DYNAMIC)}))


def library_class(name: Optional[str]) -> Optional[str]:
    """The library class whose behaviour an instance of ``name`` has: the base of a library
    subclass (``requests_oauthlib.OAuth2Session`` is a ``requests.Session``), else ``name``."""
    if name is None:
        return None
    inherited = _SUBCLASSES.get(name)
    return inherited[0] if inherited is not None else name


def returned_type(callee: str) -> str:
    """The class of what calling ``callee`` returns: itself for a class, else a known factory's."""
    return _RETURNS.get(callee, callee)


def called_instance_type(cls: str) -> Optional[str]:
    """The class of what calling an instance of the library class ``cls`` returns, when known
    (a ``sessionmaker``'s session)."""
    return _RETURNS.get(f"{cls}.__call__")


# Calls that return the module their first argument names: ``importlib.import_module("redis")``,
# ``psycopg2 = pytest.importorskip("psycopg2")``, and project helpers by these names
# (``boto3 = lazy_import("boto3")``), which exist to defer or soften an import.
_MODULE_LOADERS = frozenset({
    "importlib.import_module", "pytest.importorskip", "builtins.__import__", "lazy_loader.load",
    "lazy_import.lazy_module",
})
_MODULE_LOADER_NAMES = frozenset({
    "lazy_import", "lazy_module", "import_module", "importorskip", "optional_import", "import_optional_dependency",
})


# Library calls that hand back the object they were given, changed in place: the caching
# wrapper mounts its adapter on the session and returns that session (keyword, position).
# Or a callable that calls the function given with the arguments it gets, in another thread
# or event loop, or through a cache (``async_to_sync(fetch)("url")`` runs ``fetch("url")``).
# requests' transport adapters: they send a request with the timeout it was given, or none.
ADAPTERS_WITHOUT_TIMEOUT: FrozenSet[str] = frozenset({"requests.adapters.HTTPAdapter", "requests.adapters.BaseAdapter"})

RETURNS_ITS_ARGUMENT: Dict[str, Tuple[str, int]] = {
    "cachecontrol.CacheControl": ("sess", 0),
    "cachecontrol.wrapper.CacheControl": ("sess", 0),
    "asgiref.sync.async_to_sync": ("awaitable", 0),
    "asgiref.sync.sync_to_async": ("func", 0),
    "channels.db.database_sync_to_async": ("func", 0),
    "functools.cache": ("user_function", 0),
    "functools.lru_cache": ("maxsize", 0),  # ``lru_cache(fetch)``: the function in the place of the size
}


def loaded_module(callee: Optional[str], argument: Optional[str]) -> Optional[str]:
    """The canonical name of the module a loader call returns, or None when it is not one."""
    if callee is None or not argument or argument.startswith(".") or not all(
        part.isidentifier() for part in argument.split(".")
    ):
        return None
    if callee not in _MODULE_LOADERS and callee.rsplit(".", 1)[-1] not in _MODULE_LOADER_NAMES:
        return None
    if callee == "builtins.__import__":
        argument = argument.split(".", 1)[0]  # ``__import__("a.b")`` returns the package ``a``
    return canonical_name(argument)
