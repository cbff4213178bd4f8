"""Configuration: ``[tool.resilint]`` in the nearest ``pyproject.toml``, validated strictly.

A wrong key or type, or a file that is not valid TOML, is a ``ConfigError`` naming the key and
the file; the CLI turns it into a one-line message and exit code 2.
"""

from __future__ import annotations

import difflib
import fnmatch
import math
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from resilint.defaults import DEFAULT_CONNECT, DEFAULT_READ
from resilint.lint.source import SourceError, read_bytes
from resilint.lint.tooling_scripts import tooling_root, tooling_scripts

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
# Test modules, fixtures and the helpers beside them, as pytest, Django and behave lay them
# out (per-file-ignores' glob semantics: a pattern matches the path relative to the root, or the
# file name).
DEFAULT_TEST_CODE = (
    "tests/*", "*/tests/*", "test/*", "*/test/*", "testing/*", "*/testing/*", "*_tests/*",
    "test_*.py", "*_test.py", "conftest.py", "tests.py", "test.py",
    "features/steps/*", "*/features/steps/*", "features/environment.py", "*/features/environment.py",
)
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
    redis_url_timeouts: bool = False  # Redis URLs read from configuration carry socket_timeout
    # Globs of test code: a retry there serves one test process, so RES202 leaves its waits alone.
    test_code: Tuple[str, ...] = DEFAULT_TEST_CODE
    # Scripts (paths relative to ``root``) that the project's test tooling runs, test code as
    # well while ``test_code`` is the default (``with_test_scripts``).
    test_scripts: Tuple[str, ...] = ()
    # The oldest major version the project's declared dependencies allow, per distribution
    # (those with a lower bound): a library's default that changed with a version (redis-py 8
    # bounds reads) is read as the project installs it (``with_declared_versions``).
    declared_versions: Tuple[Tuple[str, int], ...] = ()
    # (connect, read) seconds that the timeout codemods write where no timeout was given.
    fix_timeout: Tuple[float, float] = (DEFAULT_CONNECT, DEFAULT_READ)
    # Which rules' fixes may be applied (ruff's ``fixable``/``unfixable``): a rule whose code a
    # ``fixable`` selector covers and no ``unfixable`` one does. Findings are reported either way.
    fixable: Tuple[str, ...] = ("ALL",)
    unfixable: Tuple[str, ...] = ()
    # What fixes write for: "native" (what the project already uses), "runtime"
    # (``resilint.runtime``), or "auto" (runtime when the project declares or imports it;
    # ``resilint.lint.dependencies``). The commands that fix resolve "auto" before they run.
    fix_target: str = "auto"
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


def is_positive_seconds(value: Any) -> bool:
    """A usable duration: a finite number above zero (TOML has ``nan`` and ``inf``)."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value) and value > 0


def _number(value: Any, key: str, where: str) -> float:
    if not is_positive_seconds(value):
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


def _split_seconds(value: Any, key: str, where: str) -> Tuple[float, float]:
    """``{ connect = 3.05, read = 10 }``: either may be left out (the runtime's default)."""
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: `{key}` must be a table such as {{ connect = 3.05, read = 10 }}, got {_describe(value)}")
    unknown = sorted(set(value) - {"connect", "read"})
    if unknown:
        raise ConfigError(f"{where}: unknown key `{key}.{unknown[0]}`; `{key}` takes `connect` and `read`")
    connect = _number(value["connect"], f"{key}.connect", where) if "connect" in value else DEFAULT_CONNECT
    read = _number(value["read"], f"{key}.read", where) if "read" in value else DEFAULT_READ
    return connect, read


def _fix_target(value: Any, key: str, where: str) -> str:
    choices = ("auto", "native", "runtime")
    if value not in choices:
        raise ConfigError(f"{where}: `{key}` must be one of {', '.join(repr(c) for c in choices)}, got {_describe(value)}")
    return str(value)


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
    "redis-url-timeouts": ("redis_url_timeouts", _boolean),
    "test-code": ("test_code", _string_list),
    "fix-timeout": ("fix_timeout", _split_seconds),
    "fixable": ("fixable", _string_list),
    "unfixable": ("unfixable", _string_list),
    "fix-target": ("fix_target", _fix_target),
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


def _read_toml(path: str) -> Dict[str, Any]:
    try:
        data = read_bytes(path)  # never a FIFO or a device: they could block forever
    except SourceError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.reason}") from None
    return _parse_toml(data, path)


_PARSED: Dict[bytes, Dict[str, Any]] = {}  # a document read by the configuration and again for the dependencies


def _parse_toml(data: bytes, path: str) -> Dict[str, Any]:
    """The parsed document (callers only read it); a ``ConfigError`` naming the file for
    anything that is not TOML."""
    if data in _PARSED:
        return _PARSED[data]
    try:
        if len(_PARSED) > 64:
            _PARSED.clear()
        _PARSED[data] = tomllib.loads(data.decode("utf-8"))
        return _PARSED[data]
    except UnicodeDecodeError as exc:  # TOML is UTF-8
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{path}: invalid TOML: byte {data[exc.start:exc.start + 1]!r} on line {line} is not UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply to read") from None


def _resilint_table(document: Mapping[str, Any], path: str) -> Optional[Mapping[str, Any]]:
    tool = document.get("tool")
    if not isinstance(tool, dict) or "resilint" not in tool:
        return None
    table = tool["resilint"]
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.resilint] must be a table")
    return table


def _settings_from_file(path: str, table: Mapping[str, Any]) -> Settings:
    return settings_from_table(table, path, str(Path(path).resolve().parent))


def load_pyproject(path: str) -> Optional[Settings]:
    """Settings from one pyproject.toml, or None when it has no [tool.resilint] table."""
    table = _resilint_table(_read_toml(path), path)
    return None if table is None else _settings_from_file(path, table)


def find_config(start: str) -> Optional[Settings]:
    """Settings from the nearest pyproject.toml with a [tool.resilint] table, from ``start``
    upward. Each candidate is parsed (``[ tool.resilint ]`` and ``tool.resilint.x = ...`` are
    the same table), once. One that is not valid TOML is an error, as in ruff: it may be the
    one meant to configure resilint. One that cannot be read is passed over."""
    directory = Path(start).resolve()
    if not directory.is_dir():
        directory = directory.parent
    for candidate in (directory, *directory.parents):
        pyproject = candidate / "pyproject.toml"
        if not pyproject.is_file():
            continue
        try:
            data = read_bytes(str(pyproject))
        except SourceError:
            continue
        table = _resilint_table(_parse_toml(data, str(pyproject)), str(pyproject))
        if table is not None:
            return _settings_from_file(str(pyproject), table)
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
        if not os.path.exists(config):
            raise ConfigError(f"{config}: configuration file not found")
        settings = load_pyproject(config)
        if settings is None:
            raise ConfigError(f"{config}: has no [tool.resilint] table")
        return with_test_scripts(settings)
    start = common_start(paths)
    return with_test_scripts(find_config(start) or Settings(), start)


def with_test_scripts(settings: Settings, start: Optional[str] = None) -> Settings:
    """``settings`` with the scripts its project's test tooling runs (``tooling_scripts``) as test
    code, unless the configuration names its test code itself (``test-code``). Without a
    configuration file, the tooling is the one of the project around ``start`` (the checked
    paths), wherever resilint runs from; the scripts are kept relative to ``root``."""
    if settings.test_code != DEFAULT_TEST_CODE:
        return settings
    tooling = settings.root
    if settings.config_path is None and start is not None:
        tooling = tooling_root(start) or settings.root
    scripts = tooling_scripts(tooling)
    if os.path.abspath(tooling) != os.path.abspath(settings.root):
        scripts = [_relative(os.path.join(tooling, script), settings.root) for script in scripts]
    return replace(settings, test_scripts=tuple(scripts))


def validate_selectors(
    selectors: Iterable[str], rules: Mapping[str, Any], where: str, *, ignoring: bool = False
) -> None:
    """Every selector names a code or a prefix of one. An empty one would be a prefix of every
    code; an ``ignore`` that covers only rules that are always reported (RES000) would do
    nothing: both are refused rather than silently doing something else than asked."""
    for selector in selectors:
        if selector == "ALL":
            continue
        if not selector:
            raise ConfigError(f"{where}: empty rule selector; name codes or prefixes such as `RES1`, or `ALL`")
        covered = [rule for code, rule in rules.items() if code.startswith(selector)]
        if not covered:
            raise ConfigError(f"{where}: unknown rule selector `{selector}`")
        if ignoring and all(getattr(rule, "always_reported", False) for rule in covered):
            raise ConfigError(
                f"{where}: `{selector}` cannot be ignored: a file that cannot be analysed is always "
                "reported (RES000); exclude the file (`extend-exclude`) if it should not be checked"
            )


def validate_settings(settings: Settings, rules: Mapping[str, Any]) -> None:
    """The configuration's selectors, each error naming the file and the key."""
    where = settings.config_path or "configuration"
    validate_selectors(settings.select or (), rules, f"{where}: `select`")
    validate_selectors(settings.extend_select, rules, f"{where}: `extend-select`")
    validate_selectors(settings.ignore, rules, f"{where}: `ignore`", ignoring=True)
    for glob, codes in settings.per_file_ignores:
        validate_selectors(codes, rules, f'{where}: `per-file-ignores` "{glob}"', ignoring=True)
    validate_selectors(settings.fixable, rules, f"{where}: `fixable`")
    validate_selectors(settings.unfixable, rules, f"{where}: `unfixable`")


def path_matches(path: str, patterns: Iterable[str], root: str) -> bool:
    """Whether one of the globs matches ``path`` relative to ``root``, or its file name (the
    semantics of ``per-file-ignores``)."""
    relative = _relative(path, root)
    name = os.path.basename(path)
    return any(fnmatch.fnmatchcase(relative, p) or fnmatch.fnmatchcase(name, p) for p in patterns)


def _relative(path: str, root: str) -> str:
    return os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")


def is_test_code(path: str, settings: Settings) -> bool:
    return is_test_script(path, settings) or path_matches(path, settings.test_code, settings.root)


def is_test_script(path: str, settings: Settings) -> bool:
    """A script the project's test tooling runs, or one of its pytest plugins (``tooling_scripts``)."""
    return bool(settings.test_scripts) and _relative(path, settings.root) in settings.test_scripts


def fixable_codes(settings: Settings, rules: Mapping[str, Any]) -> List[str]:
    """The codes whose fixes may be applied: covered by a ``fixable`` selector and by no
    ``unfixable`` one (as in ruff, ``unfixable`` wins)."""

    def covered(code: str, selectors: Iterable[str]) -> bool:
        return any(s == "ALL" or code.startswith(s) for s in selectors)

    return [code for code in rules if covered(code, settings.fixable) and not covered(code, settings.unfixable)]


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
