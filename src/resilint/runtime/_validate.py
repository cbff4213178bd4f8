"""Settings checked where they are written: a clear ``TypeError`` naming the setting, instead
of a comparison error at the first call (``deadline("5")``, ``attempts="3"``)."""

from __future__ import annotations

from typing import Any

__all__ = ["require_int", "require_number"]


def require_number(name: str, value: Any, *, optional: bool = False, what: str = "a number of seconds") -> None:
    """``value`` must be an int or a float (not a bool); ``None`` too when ``optional``."""
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be {what}{' or None' if optional else ''}, got {value!r}")


def require_int(name: str, value: Any) -> None:
    """``value`` must be an int (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {value!r}")
