"""Django's cache on Redis without a socket timeout: the settings say so, not a call.

``CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", ...}}`` (django-redis) and
Django's own ``django.core.cache.backends.redis.RedisCache`` build their redis-py connection
pool from the entry: django-redis passes ``SOCKET_TIMEOUT`` (``OPTIONS``) on as
``socket_timeout`` only when it is given, Django passes ``OPTIONS`` to the pool as they are,
and a Redis URL may carry ``?socket_timeout=``. With none of them redis-py waits forever for a
reply (``socket_timeout=None``), so every ``cache.get`` in a request hangs on a Redis that
stops answering. The calls (``cache.get``) pass no timeout of their own: the finding goes to
the cache's entry in the settings.
"""

from __future__ import annotations

from typing import Dict, Iterable, Iterator, List, Optional, Tuple

import libcst as cst

from resilint.libraries.clients import REDIS_BOUNDED_SINCE, declares_since
from resilint.lint.nodes import code_of, dotted_strings, module_assignments, module_statements, string_keyed, string_of
from resilint.lint.traversal import iter_nodes

_REDIS_BACKENDS = frozenset({
    "django_redis.cache.RedisCache", "django.core.cache.backends.redis.RedisCache",
    # django-prometheus's instrumented subclasses of the two, which take the same OPTIONS
    "django_prometheus.cache.backends.redis.RedisCache",
    "django_prometheus.cache.backends.redis.NativeRedisCache",
})
# django-redis and its subclasses, which read ``OPTIONS["SOCKET_TIMEOUT"]``
_DJANGO_REDIS = frozenset({"django_redis.cache.RedisCache", "django_prometheus.cache.backends.redis.RedisCache"})
# Where an entry may bound its reads: django-redis's option, the pool's own keyword (Django's
# backend passes OPTIONS to the pool; django-redis's CONNECTION_POOL_KWARGS).
_TIMEOUT_OPTIONS = frozenset({"SOCKET_TIMEOUT", "socket_timeout"})
_POOL_KWARGS = "CONNECTION_POOL_KWARGS"


def message(alias: str, backend: str) -> str:
    option = "`OPTIONS['SOCKET_TIMEOUT']`" if backend in _DJANGO_REDIS else "`OPTIONS['socket_timeout']`"
    return (
        f"the `{alias}` cache ({backend}) sets no socket timeout: redis-py before 8 waits forever for a "
        f"reply by default (`socket_timeout=None`), so a Redis that stops answering blocks every request that "
        f"reads the cache; set {option}"
    )


def unbounded_redis_caches(
    module: cst.Module, url_timeouts: bool, declared_versions: Iterable[Tuple[str, int]] = (),
) -> Iterator[Tuple[cst.CSTNode, str]]:
    """The Redis entries of the module's ``CACHES`` that set no socket timeout, each with its
    message. ``url_timeouts``: a URL that is not a literal (read from the environment) is
    taken to carry one (the ``redis-url-timeouts`` setting). A module that sets a socket
    timeout into ``CACHES`` later (``CACHES["default"]["OPTIONS"]["SOCKET_TIMEOUT"] = 5``) is
    taken to bound every entry; so is every entry of a project whose declared redis-py bounds
    reads by default (8 and later)."""
    if declares_since(declared_versions, REDIS_BOUNDED_SINCE):
        return
    found: List[Tuple[cst.CSTNode, str]] = []
    entries = [entry for value in _caches(module) for entry in _entries(value)] + _assigned_entries(module)
    for alias, entry in entries:
        if not isinstance(entry, cst.Dict):
            continue
        fields = string_keyed(entry)
        backend = _redis_backend(fields["BACKEND"]) if fields is not None and "BACKEND" in fields else None
        if fields is None or backend is None or not _unbounded(fields, url_timeouts):
            continue
        found.append((entry, message(alias, backend)))  # type: ignore[arg-type]
    if found and not _set_later(module):
        yield from found


def _entries(caches: cst.Dict) -> List[Tuple[str, cst.BaseExpression]]:
    """The entries of ``CACHES`` with their aliases as written: a string, or a name
    (``GENERATED_MODEL_CACHE_NAME: {...}``); none when a ``**`` spreads another mapping in,
    which may replace any of them."""
    if any(isinstance(element, cst.StarredDictElement) for element in caches.elements):
        return []
    return [
        (string_of(element.key) or code_of(element.key), element.value)
        for element in caches.elements if isinstance(element, cst.DictElement)
    ]


def _assigned_entries(module: cst.Module) -> List[Tuple[str, cst.BaseExpression]]:
    """The entries set one by one at module level (``CACHES["default"] = {...}``, also under an
    ``if``, and under a name, ``CACHES[CACHALOT_CACHE]``), with their aliases."""
    found = []
    for statement, _ in module_statements(module.body, False):
        for node in statement.body:
            if not (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Subscript)):
                continue
            target = node.targets[0].target
            index = target.slice[0].slice if len(target.slice) == 1 else None
            # (an alias as written, a string or a name: ``CACHES[CACHALOT_CACHE] = {...}``)
            alias = (string_of(index.value) or code_of(index.value)) if isinstance(index, cst.Index) else None
            if isinstance(target.value, cst.Name) and target.value.value == "CACHES" and alias is not None:
                found.append((alias, node.value))
    return found


def _redis_backend(value: cst.BaseExpression) -> Optional[str]:
    """The Redis backend ``BACKEND`` names: a string, or every backend a read from the
    environment may default to or a condition may choose (``os.getenv("CACHE_BACKEND",
    "django_redis.cache.RedisCache")``); None when one of them is not a Redis backend."""
    named = dotted_strings(value)
    if not named or any(backend not in _REDIS_BACKENDS for backend in named):
        return None
    return named[-1]


def _caches(module: cst.Module) -> List[cst.Dict]:
    """The dict literals assigned to ``CACHES`` at module level (also in its ``if``/``else``,
    ``try`` and ``with`` blocks)."""
    return [value for name, value, _, _ in module_assignments(module) if name == "CACHES" and isinstance(value, cst.Dict)]


def _set_later(module: cst.Module) -> bool:
    """``CACHES[...]...["SOCKET_TIMEOUT"] = value`` anywhere in the module."""
    for node in iter_nodes(module):
        if not isinstance(node, cst.AssignTarget) or not isinstance(node.target, cst.Subscript):
            continue
        target: cst.BaseExpression = node.target
        keys = []
        while isinstance(target, cst.Subscript):
            index = target.slice[0].slice if len(target.slice) == 1 else None
            keys.append(string_of(index.value) if isinstance(index, cst.Index) else None)
            target = target.value
        if isinstance(target, cst.Name) and target.value == "CACHES" and keys and keys[0] in _TIMEOUT_OPTIONS:
            return True
    return False


def _unbounded(fields: Dict[str, cst.BaseExpression], url_timeouts: bool) -> bool:
    """Whether the entry leaves redis-py's reads without a timeout: a readable ``OPTIONS``
    without one, and a location that carries none."""
    options = fields.get("OPTIONS")
    if options is not None:
        if not isinstance(options, cst.Dict):
            return False  # built elsewhere: unknown
        keyed = string_keyed(options)
        if keyed is None or _TIMEOUT_OPTIONS & set(keyed):
            return False
        pool = keyed.get(_POOL_KWARGS)
        pool_keys = string_keyed(pool) if isinstance(pool, cst.Dict) else None
        if pool is not None and (pool_keys is None or {"socket_timeout", "connection_class"} & set(pool_keys)):
            return False  # a connection class of the project's (fakeredis' in tests) may do anything
    location = fields.get("LOCATION")
    locations = location.elements if isinstance(location, (cst.List, cst.Tuple)) else [location]
    for item in locations:
        expr = item.value if isinstance(item, cst.Element) else item
        text = string_of(expr) if expr is not None else None
        if text is None and expr is not None and url_timeouts:
            return False
        if text is not None and "socket_timeout=" in text:
            return False
    return True
