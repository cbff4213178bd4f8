"""Which calls go out to another service over the network, and for how long they may wait:
asked by RES301 about what runs while a DB connection is held.

The knowledge is the client catalog's (``clients.py``) and the SDK clients of
``self_retrying.py``; this module only tells requests apart from the catalog's other entries
(clients built for later use, generic waits, databases).
"""

from __future__ import annotations

from typing import Iterable, Optional

from resilint.libraries.clients import spec_for
from resilint.libraries.self_retrying import sdk_request
from resilint.libraries.timeout_values import seconds_text as _seconds
from resilint.libraries.timeout_values import TimeoutValue, value_from_data
from resilint.lint.summary import Arguments

# Catalog entries that send nothing when called: a client or pool built for later requests
# (its methods are the requests), and timeouts of generic waits.
_CONSTRUCTIONS = frozenset({
    "httpx.Client", "httpx.AsyncClient", "aiohttp.ClientSession", "urllib3.PoolManager", "urllib3.ProxyManager",
    "urllib3.connection_from_url", "urllib3.HTTPConnectionPool", "urllib3.HTTPSConnectionPool",
    "http.client.HTTPConnection", "http.client.HTTPSConnection", "socket.socket.settimeout",
    "socket.setdefaulttimeout", "boto3.client", "boto3.resource", "boto3.Session.client", "boto3.Session.resource",
    "botocore.session.Session.create_client", "requests_hardened.Config", "httplib2.Http",
    "google_auth_httplib2.AuthorizedHttp", "zeep.Transport", "zeep.transports.AsyncTransport", "slumber.API",
    "hvac.Client", "jira.JIRA", "gitlab.Gitlab", "openai.OpenAI", "openai.AsyncOpenAI", "openai.AzureOpenAI",
    "openai.AsyncAzureOpenAI", "googleapiclient.discovery.build", "googleapiclient.discovery.build_from_document",
})
# Requests of clients the catalog judges elsewhere than at the call (pycurl by its options,
# slumber where its session is given).
_OTHER_REQUESTS = frozenset({
    "pycurl.Curl.perform", "pycurl.Curl.perform_rb", "pycurl.Curl.perform_rs",
    *(f"slumber.Resource.{verb}" for verb in ("get", "options", "head", "post", "patch", "put", "delete")),
})
# Django's mail, sent by the configured backend (an SMTP server, or an email service's HTTP API)
# with the timeout of the project's settings (``EMAIL_TIMEOUT``), which the call does not show.
_DJANGO_MAIL = frozenset({
    "django.core.mail.send_mail", "django.core.mail.send_mass_mail", "django.core.mail.mail_admins",
    "django.core.mail.mail_managers", "django.core.mail.EmailMessage.send",
    "django.core.mail.EmailMultiAlternatives.send",
    # a connection's ``send_messages(messages)``: what ``get_connection()`` opens, or a backend
    "django.core.mail.get_connection.send_messages", "django.core.mail.backends.smtp.EmailBackend.send_messages",
    "djmail.template_mail.TemplateMail.send",  # renders the template, then sends a Django message
})
# Libraries of the catalog that are not another service's API: generic waits, and databases
# (a Redis or second database call inside a transaction is not what RES301 is about).
_NOT_SERVICES = frozenset({
    "asyncio", "async_timeout", "anyio", "redis", "psycopg2", "psycopg", "mysql.connector", "pymysql",
})
_BUILD_ONLY = frozenset({"build_request"})


def sends_request(name: Optional[str], extend_clients: Iterable[str] = ()) -> bool:
    """Whether calling ``name`` (a canonical qualified name) makes a request to another service."""
    if name is None:
        return False
    if sdk_request(name) or name in _OTHER_REQUESTS or name in _DJANGO_MAIL:
        return True
    spec = spec_for(name, extend_clients)
    if spec is None or name in _CONSTRUCTIONS or spec.library in _NOT_SERVICES:
        return False
    return name.rsplit(".", 1)[-1] not in _BUILD_ONLY


def wait_in_words(value: TimeoutValue, text: str) -> Optional[str]:
    """How long a request given the timeout ``value`` (written ``text``) may wait, in words."""
    if value.unbounded:
        return f"with no limit ({text}: {value.unbounded})"
    phases = {p.name: p.seconds for p in value.phases if p.seconds is not None}
    if "connect" in phases and "read" in phases:
        total = phases["connect"] + phases["read"]  # type: ignore[operator]
        return f"up to {_seconds(total)} s per attempt (connect {_seconds(phases['connect'])} s + read {_seconds(phases['read'])} s, `{text}`)"
    largest = value.largest()
    if largest is None or largest.seconds is None:
        return None
    return f"up to {_seconds(largest.seconds)} s per attempt (`{text}`)"


def longest_wait(name: str, arguments: Optional[Arguments], extend_clients: Iterable[str] = ()) -> Optional[str]:
    """How long the request ``name`` may wait, from its recorded timeout argument or the
    library's default, in words (``up to 13 s (connect 3 s + read 10 s)``, ``with no limit:
    requests waits forever by default``); None when that cannot be told."""
    spec = spec_for(name, extend_clients)
    if spec is None or arguments is None or arguments.supplied:
        return None  # (an object that fills in its own timeout: the call does not say how long)
    keyword = spec.keyword or ""
    by_position = spec.position is not None and not arguments.star and arguments.positional > spec.position
    if keyword in arguments.keywords or (by_position and arguments.value(keyword) is not None):
        given = arguments.value(keyword)
        value = value_from_data(given.value) if given is not None and given.value is not None else None
        if value is None or given is None:
            return None
        return wait_in_words(value, given.text)
    if arguments.double_star or (spec.position is not None and (arguments.star or arguments.positional > spec.position)):
        return None
    if spec.unbounded_default is not None:
        return f"with no limit: {spec.unbounded_default}"
    if spec.default_seconds is not None:
        return f"up to {_seconds(spec.default_seconds)} s per attempt ({spec.default_message})"
    return None
