"""Which calls take a timeout, where it goes, and what the library does without one.

Shared by the RES1xx rules. Names are canonical qualified names (lint/canonical.py); methods of
clients are ``<class>.<method>`` (``requests.Session.get``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, Optional, Tuple

import libcst as cst


@dataclass(frozen=True)
class TimeoutSpec:
    library: str
    keyword: str = "timeout"
    position: Optional[int] = None  # 0-based index among positional arguments, if it has one
    # What happens when no timeout is passed; None: a bounded default (no RES101).
    unbounded_default: Optional[str] = None


_REQUESTS_DEFAULT = "requests waits forever by default"
_REQUESTS_METHODS = ("get", "options", "head", "post", "put", "patch", "delete")
_HTTPX_METHODS = _REQUESTS_METHODS + ("request", "stream", "send")
_SOCKET_DEFAULT = (
    "it uses the global socket default, which is no timeout unless socket.setdefaulttimeout() was called"
)


def _requests() -> Dict[str, TimeoutSpec]:
    spec = TimeoutSpec("requests", unbounded_default=_REQUESTS_DEFAULT)
    table = {f"requests.{m}": spec for m in _REQUESTS_METHODS + ("request",)}
    table.update({f"requests.Session.{m}": spec for m in _REQUESTS_METHODS + ("send",)})
    # Session.request(method, url, params, data, headers, cookies, files, auth, timeout, ...)
    table["requests.Session.request"] = TimeoutSpec(
        "requests", position=8, unbounded_default=_REQUESTS_DEFAULT
    )
    return table


def _httpx() -> Dict[str, TimeoutSpec]:
    spec = TimeoutSpec("httpx")  # httpx defaults to 5 s: only an explicit None is a problem
    table = {f"httpx.{m}": spec for m in _HTTPX_METHODS}
    for client in ("httpx.Client", "httpx.AsyncClient"):
        table[client] = spec
        table.update({f"{client}.{m}": spec for m in _HTTPX_METHODS})
    return table


def _urllib() -> Dict[str, TimeoutSpec]:
    # urlopen(url, data=None, timeout=socket._GLOBAL_DEFAULT_TIMEOUT, ...)
    return {
        "urllib.request.urlopen": TimeoutSpec("urllib", position=2, unbounded_default=_SOCKET_DEFAULT),
    }


CLIENT_CALLS: Dict[str, TimeoutSpec] = {**_requests(), **_httpx(), **_urllib()}

# Names a file must mention for any of these calls to be in it (the prefilter).
TRIGGERS: Tuple[str, ...] = ("requests", "httpx", "urlopen", "urllib")


def spec_for(name: Optional[str], extend_clients: Iterable[str] = ()) -> Optional[TimeoutSpec]:
    if name is None:
        return None
    spec = CLIENT_CALLS.get(name)
    if spec is None and name in extend_clients:
        library = name.split(".", 1)[0]
        spec = TimeoutSpec(library, unbounded_default=f"{name} is configured in extend-clients as a call that needs a timeout")
    return spec


@dataclass(frozen=True)
class TimeoutArgument:
    """Where a call's timeout is: ``value`` is the expression, or None when it is not passed.

    ``unknown`` is true when ``*args``/``**kwargs`` of unknown content may carry it.
    """

    value: Optional[cst.BaseExpression]
    unknown: bool = False


def find_timeout(call: cst.Call, spec: TimeoutSpec) -> TimeoutArgument:
    positional = []
    unknown = False
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value == spec.keyword:
                return TimeoutArgument(arg.value)
        elif arg.star == "**":
            if isinstance(arg.value, cst.Dict):
                for element in arg.value.elements:
                    if isinstance(element, cst.StarredDictElement):
                        unknown = True
                    elif _string_value(element.key) == spec.keyword:
                        return TimeoutArgument(element.value)
            else:
                unknown = True
        elif arg.star == "*":
            if spec.position is not None:
                unknown = True
        else:
            positional.append(arg.value)
    if spec.position is not None and len(positional) > spec.position:
        return TimeoutArgument(positional[spec.position])
    return TimeoutArgument(None, unknown)


def _string_value(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None
