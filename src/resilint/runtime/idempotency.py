"""Idempotency: which requests may be repeated, and one key per logical operation.

A transport failure is ambiguous: the server may have done the work and lost only the reply.
Repeating a GET is harmless; repeating a POST that charges a card is not, unless every attempt
carries the *same* ``Idempotency-Key`` and the server deduplicates on it.

:func:`idempotency_key` returns the key of the current operation scope. A retry scope
(``retry``/``retrying``) opens one when none is open, so every attempt inside it sees the same
key; outside any scope each call is its own operation and gets a fresh key.

The HTTP adapters' ``auto_idempotency_key`` is per *request*: each request gets its own key
(:func:`request_key`), the same on all of its attempts, because two different POSTs sharing a
key would make a deduplicating server drop the second. Only a scope the user opened with
:func:`idempotency_scope` makes requests share its key: that is asking for it.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import uuid
from typing import Any, Callable, Iterator, Mapping, Optional, TypeVar
from contextlib import contextmanager

F = TypeVar("F", bound=Callable[..., Any])

__all__ = [
    "IDEMPOTENCY_HEADER",
    "IDEMPOTENT_METHODS",
    "idempotency_key",
    "idempotency_scope",
    "idempotent_operation",
    "is_idempotent",
    "request_key",
    "OperationScope",
]

IDEMPOTENCY_HEADER = "Idempotency-Key"
#: RFC 9110 §9.2.2: safe methods plus PUT and DELETE.
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})


class OperationScope:
    """One logical operation. Its key is created on first use and then never changes.
    ``explicit``: opened by :func:`idempotency_scope` (not implicitly by a retry scope)."""

    __slots__ = ("_key", "explicit")

    def __init__(self, key: Optional[str] = None, *, explicit: bool = False) -> None:
        self._key = key
        self.explicit = explicit

    @property
    def key(self) -> str:
        if self._key is None:
            self._key = uuid.uuid4().hex
        return self._key

    @property
    def key_issued(self) -> bool:
        """True once somebody asked for the key (so it was presumably sent)."""
        return self._key is not None


_scope: contextvars.ContextVar[Optional[OperationScope]] = contextvars.ContextVar(
    "resilint_operation", default=None
)


def current_scope() -> Optional[OperationScope]:
    return _scope.get()


def idempotency_key() -> str:
    """The key of the current logical operation (the same on every attempt of a retry scope).

    Outside any scope, a new key is returned on each call.
    """
    scope = _scope.get()
    if scope is None:
        return uuid.uuid4().hex
    return scope.key


def request_key() -> str:
    """The key for one request that asked for an automatic key: the key of an enclosing
    :func:`idempotency_scope`, else a new one (never the implicit key of a retry scope)."""
    scope = _scope.get()
    if scope is not None and scope.explicit:
        return scope.key
    return uuid.uuid4().hex


@contextmanager
def idempotency_scope(key: Optional[str] = None, *, new: bool = True) -> Iterator[OperationScope]:
    """Open an operation scope explicitly (e.g. around several retried calls that must share a
    key, or to give a loop's iterations distinct keys). ``new=False`` reuses an open scope.
    Requests sent with the adapters' ``auto_idempotency_key`` inside it all carry its key."""
    existing = _scope.get()
    if existing is not None and not new and key is None:
        yield existing
        return
    scope = OperationScope(key, explicit=True)
    token = _scope.set(scope)
    try:
        yield scope
    finally:
        _scope.reset(token)


def idempotent_operation(fn: F) -> F:
    """Decorator: each call of ``fn`` is one logical operation with its own key.

    Put it *outside* a retry decorator of another library (tenacity, backoff, stamina)::

        @idempotent_operation
        @tenacity.retry(stop=tenacity.stop_after_attempt(3))
        def charge(order):
            return requests.post(URL, json=order, headers={"Idempotency-Key": idempotency_key()})

    Those libraries call ``charge``'s body once per attempt; :func:`idempotency_key` inside it
    then returns the key of the scope this decorator opened, the same on every attempt, and a
    new one on the next call. (``retry``/``retrying`` of this runtime open that scope
    themselves.) Works on ``async def`` functions too.
    """
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            with idempotency_scope():
                return await fn(*args, **kwargs)

        return async_wrapper  # type: ignore[return-value]

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with idempotency_scope():
            return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def is_idempotent(method: Optional[str], headers: Optional[Mapping[str, Any]] = None) -> bool:
    """True if repeating the request is safe: an idempotent method, or a key in ``headers``."""
    if method is None or method.upper() in IDEMPOTENT_METHODS:
        return True
    if headers:
        lowered = IDEMPOTENCY_HEADER.lower()
        try:
            return any(str(k).lower() == lowered for k in headers.keys())
        except AttributeError:
            return False
    return False
