"""HTTP requests as the retry rules see them: which calls send which method, where their
headers go, and what makes an idempotency key (the header, the generators of fresh values,
resilint's own key helper)."""

from __future__ import annotations

import re
from typing import Dict, Optional

import libcst as cst

from resilint.lint.nodes import string_of

UNSAFE = ("POST", "PATCH")
KEY_HEADER = "idempotency-key"
CLIENTS = (
    "requests", "requests.Session", "httpx", "httpx.Client", "httpx.AsyncClient", "aiohttp.ClientSession",
)
# method call → its HTTP method
METHOD_CALLS: Dict[str, str] = {
    f"{client}.{verb}": verb.upper() for client in CLIENTS for verb in ("post", "patch")
}
# calls whose first argument (or ``method=``) is the HTTP method → where ``headers`` is positional
REQUEST_CALLS: Dict[str, Optional[int]] = {
    **{f"{client}.request": None for client in CLIENTS},
    "urllib3.request": 4,
    **{f"urllib3.{pool}.{m}": (4 if m == "request" else 3)
       for pool in ("PoolManager", "ProxyManager", "HTTPConnectionPool", "HTTPSConnectionPool")
       for m in ("request", "urlopen")},
    "http.client.HTTPConnection.request": 3,
    "http.client.HTTPSConnection.request": 3,
}
CLIENT_WORD = re.compile(r"session|client|http", re.I)
RANDOM_KEYS = ("uuid.uuid1", "uuid.uuid4", "secrets.", "random.", "os.urandom", "time.time", "time.monotonic",
                "time.time_ns", "datetime.datetime.now", "datetime.datetime.utcnow", "ulid.", "nanoid.",
                "shortuuid.uuid", "shortuuid.ShortUUID.uuid")
RESILINT_KEYS = ("resilint.runtime.idempotency_key", "resilint.runtime.idempotency.idempotency_key")
IDEMPOTENCY_HEADER_NAMES = ("resilint.runtime.IDEMPOTENCY_HEADER", "resilint.runtime.idempotency.IDEMPOTENCY_HEADER")


def literal_method(call: cst.Call) -> Optional[str]:
    """The HTTP method of ``request("POST", ...)`` / ``request(method="post", ...)``, upper-cased."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "method":
            text = string_of(arg.value)
            return text.upper() if text else None
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        text = string_of(call.args[0].value)
        return text.upper() if text else None
    return None
