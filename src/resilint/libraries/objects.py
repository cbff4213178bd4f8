"""What every request on one object gets from the object itself, judged where the file makes
it: retries (an SDK client, a retrying adapter or transport), a timeout (a ``Session`` subclass
or an adapter that fills one in), an idempotency key in the session's own headers, a boto3
client the file only signs URLs with. The summary
keeps these facts with the object, so that they reach every module the object travels to."""

from __future__ import annotations

from typing import Optional, Tuple

from resilint.libraries.http_requests import session_has_key
from resilint.libraries.client_retries import ClientLayer
from resilint.libraries.presign import is_client, signs_only, uses_of
from resilint.libraries.request_timeouts import requests_fact
from resilint.libraries.self_retrying import instance_layer, shares_layer_with_attributes
from resilint.libraries.sessions import object_sets_timeout
from resilint.lint.semantic import Instance, SemanticModel

ObjectFacts = Tuple[Optional[ClientLayer], bool, str, bool, str, str]


def object_facts(model: SemanticModel, value: Instance) -> Optional[ObjectFacts]:
    """(its retry layer, whether it sets a timeout, "stable" when its headers carry an
    idempotency key, whether its attributes share its retries (``client.chat.completions``),
    what the file does with a boto3 client other modules may also use: "signs" when it only
    signs URLs with it, "escapes" when it makes no call through it; for a client made without a
    default timeout, "timed" when each request it sends through it gives its own,
    "escapes" when it sends none), or None when the file shows none of them."""
    layer = instance_layer(model, value)
    sets_timeout = object_sets_timeout(model, value, project_reads_adapters=True)
    key = "stable" if session_has_key(model, value) else ""
    presign = ""
    if value.site is not None and is_client(model, value) and signs_only(model, value.site) is None:
        presign = "signs" if uses_of(model, value.site).signs else "escapes"
    requests = requests_fact(model, value)
    if layer is None and not sets_timeout and not key and not presign and not requests:
        return None
    return layer, sets_timeout, key, shares_layer_with_attributes(model, value), presign, requests
