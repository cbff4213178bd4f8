"""Process-wide, per-dependency registries shared by budgets, breakers, bulkheads and trackers."""

from __future__ import annotations

import threading
from typing import Any, ClassVar, Dict, Type, TypeVar

__all__ = ["PerDependency"]

R = TypeVar("R", bound="PerDependency")


class PerDependency:
    """Mixin: ``cls.for_dependency(name)`` returns the same instance of ``cls`` for each ``name``.

    Every class that lists this mixin among its *direct* bases gets its own registry and lock;
    subclasses of such a class share their parent's (as a plain class attribute would).
    """

    _registry: ClassVar[Dict[str, Any]]
    _registry_lock: ClassVar[Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if PerDependency in cls.__bases__:
            cls._registry = {}
            cls._registry_lock = threading.Lock()

    @classmethod
    def _create_for_dependency(cls: Type[R], name: str, kwargs: Dict[str, Any]) -> R:
        """Build the instance registered under ``name`` (override when ``name`` is not a parameter)."""
        return cls(name=name, **kwargs)  # type: ignore[call-arg]

    @classmethod
    def for_dependency(cls: Type[R], name: str, **kwargs: Any) -> R:
        """The process-wide instance for dependency ``name`` (created with ``kwargs`` on first
        use; later ``kwargs`` are ignored)."""
        with cls._registry_lock:
            instance = cls._registry.get(name)
            if instance is None:
                instance = cls._registry[name] = cls._create_for_dependency(name, kwargs)
            return instance

    @classmethod
    def reset_registry(cls) -> None:
        with cls._registry_lock:
            cls._registry.clear()
