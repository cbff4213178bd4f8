"""httpx: transports built with ``retries=`` (connect retries only)."""

from __future__ import annotations

from functools import partial

from resilint.libraries.retry_scopes.transports import client_policy

TRANSPORTS = frozenset({"httpx.HTTPTransport", "httpx.AsyncHTTPTransport"})


# declarations collected by the registry
CLIENTS = dict.fromkeys(
    TRANSPORTS, partial(client_policy, library="httpx", kind="transport", keyword="retries", position=None)
)
