"""Configuration: ``[tool.resilint]`` in the nearest ``pyproject.toml``, validated strictly.

A wrong key or type is a ``ConfigError`` naming the key and the file; the CLI turns it into a
one-line message and exit code 2.
"""

from __future__ import annotations

import difflib
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.9/3.10
    import tomli as tomllib

DEFAULT_EXCLUDES: Tuple[str, ...] = (
    ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", ".mypy_cache", ".pytest_cache",
    ".ruff_cache", "__pycache__", "build", "dist", "node_modules", "site-packages",
    "__pypackages__", ".eggs", ".direnv",
)
DEFAULT_MAX_TIMEOUT = 30.0
# Larger files are generated data rather than code; parsing one costs about a gigabyte per MiB.
DEFAULT_MAX_FILE_SIZE = 1 << 20


class ConfigError(Exception):
    """A configuration problem; the message names the file and the key."""


@dataclass(frozen=True)
class Settings:
    select: Optional[Tuple[str, ...]] = None  # None: the default rules
    ignore: Tuple[str, ...] = ()
    extend_select: Tuple[str, ...] = ()
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    exclude: Tuple[str, ...] = DEFAULT_EXCLUDES
    extend_exclude: Tuple[str, ...] = ()
    max_timeout: float = DEFAULT_MAX_TIMEOUT
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    extend_clients: Tuple[str, ...] = ()
    respect_gitignore: bool = True
    # Where the configuration came from; relative patterns are relative to ``root``.
    config_path: Optional[str] = None
    root: str = field(default_factory=os.getcwd)

    def with_overrides(self, **changes: Any) -> "Settings":
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _string_list(value: Any, key: str, where: str) -> Tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: `{key}` must be a list of strings, got {_describe(value)}")
    return tuple(value)


def _qualified_names(value: Any, key: str, where: str) -> Tuple[str, ...]:
    names = _string_list(value, key, where)
    for name in names:
        if not all(part.isidentifier() for part in name.split(".")) or "." not in name:
            raise ConfigError(
                f"{where}: `{key}` takes qualified names such as \"myapp.http.get\", got {name!r}"
            )
    return names


def _number(value: Any, key: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ConfigError(f"{where}: `{key}` must be a positive number of seconds, got {_describe(value)}")
    return float(value)


def _byte_count(value: Any, key: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{where}: `{key}` must be a positive number of bytes, got {_describe(value)}")
    return value


def _boolean(value: Any, key: str, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: `{key}` must be true or false, got {_describe(value)}")
    return value


def _per_file_ignores(value: Any, key: str, where: str) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: `{key}` must be a table of glob = [codes], got {_describe(value)}")
    return tuple((glob, _string_list(codes, f"{key}.{glob}", where)) for glob, codes in value.items())


def _describe(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


_KEYS: Dict[str, Tuple[str, Callable[[Any, str, str], Any]]] = {
    "select": ("select", _string_list),
    "ignore": ("ignore", _string_list),
    "extend-select": ("extend_select", _string_list),
    "per-file-ignores": ("per_file_ignores", _per_file_ignores),
    "exclude": ("exclude", _string_list),
    "extend-exclude": ("extend_exclude", _string_list),
    "max-timeout": ("max_timeout", _number),
    "max-file-size": ("max_file_size", _byte_count),
    "extend-clients": ("extend_clients", _qualified_names),
    "respect-gitignore": ("respect_gitignore", _boolean),
}


def settings_from_table(table: Mapping[str, Any], where: str, root: str) -> Settings:
    values: Dict[str, Any] = {}
    for key, value in table.items():
        if key not in _KEYS:
            hint = difflib.get_close_matches(key, list(_KEYS), n=1)
            suggestion = f" (did you mean `{hint[0]}`?)" if hint else ""
            raise ConfigError(f"{where}: unknown key `{key}` in [tool.resilint]{suggestion}")
        attribute, convert = _KEYS[key]
        values[attribute] = convert(value, key, where)
    return Settings(config_path=where, root=root, **values)


def load_pyproject(path: str) -> Optional[Settings]:
    """Settings from one pyproject.toml, or None when it has no [tool.resilint] table."""
    try:
        with open(path, "rb") as handle:
            document = tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    tool = document.get("tool", {})
    if not isinstance(tool, dict) or "resilint" not in tool:
        return None
    table = tool["resilint"]
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.resilint] must be a table")
    return settings_from_table(table, path, str(Path(path).resolve().parent))


def find_config(start: str) -> Optional[str]:
    """The nearest pyproject.toml with a [tool.resilint] table, from ``start`` upward."""
    directory = Path(start).resolve()
    if not directory.is_dir():
        directory = directory.parent
    for candidate in (directory, *directory.parents):
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            try:
                if b"[tool.resilint" in pyproject.read_bytes():
                    return str(pyproject)
            except OSError:
                continue
    return None


def common_start(paths: Sequence[str]) -> str:
    existing = [os.path.abspath(p) for p in paths if os.path.exists(p)]
    if not existing:
        return os.getcwd()
    try:
        return os.path.commonpath(existing)
    except ValueError:  # different drives
        return os.getcwd()


def load_settings(paths: Sequence[str], config: Optional[str] = None) -> Settings:
    """Explicit ``--config`` file, else the nearest pyproject.toml above the paths, else defaults."""
    if config is not None:
        if not os.path.isfile(config):
            raise ConfigError(f"{config}: configuration file not found")
        settings = load_pyproject(config)
        if settings is None:
            raise ConfigError(f"{config}: has no [tool.resilint] table")
        return settings
    found = find_config(common_start(paths))
    if found is not None:
        settings = load_pyproject(found)
        if settings is not None:
            return settings
    return Settings()


def validate_selectors(selectors: Iterable[str], known_codes: Iterable[str], where: str) -> None:
    codes = list(known_codes)
    for selector in selectors:
        if selector == "ALL":
            continue
        if not any(code.startswith(selector) for code in codes):
            raise ConfigError(f"{where}: unknown rule selector `{selector}`")


def enabled_codes(settings: Settings, rules: Mapping[str, Any]) -> List[str]:
    """Resolve select/extend-select/ignore, most specific selector winning (as in ruff).

    Selecting a code or prefix explicitly enables the opt-in rules it covers.
    """
    def best(code: str, selectors: Iterable[str]) -> int:
        lengths = [len(s) if s != "ALL" else 0 for s in selectors if s == "ALL" or code.startswith(s)]
        return max(lengths) if lengths else -1

    enabled = []
    for code, rule in rules.items():
        chosen = best(code, (settings.select or ()) + settings.extend_select)
        ignored = best(code, settings.ignore)
        if chosen < 0 and settings.select is None and rule.default:
            chosen = 0
        if chosen >= 0 and chosen > ignored:
            enabled.append(code)
    return enabled
