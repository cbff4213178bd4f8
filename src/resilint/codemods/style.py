"""The project's own style, as its formatters are configured: the import order isort or ruff's
isort rules would give (sections, first-party packages, sorting options) and the line length
black or ruff format wrap at. A fix writes what those tools would leave as it is, so that a
project that gates on ``ruff check --select I``, ``isort --check`` or ``black --check`` still
passes after ``resilint fix``.

Read from the files those tools read, nearest to the fixed file first, up to the project's
root: ``ruff.toml``/``.ruff.toml``, ``pyproject.toml`` (``[tool.ruff]``, ``[tool.isort]``,
``[tool.black]``), ``.isort.cfg``, ``setup.cfg`` and ``tox.ini`` (``[isort]``). Their defaults
otherwise: black's 88 columns; sections FUTURE, STDLIB, THIRDPARTY, FIRSTPARTY, LOCALFOLDER,
plain imports before ``from`` imports in each, names ordered by type (CONSTANTS, Classes,
functions) and case-insensitively; a module is first-party when it is named in
``known-first-party`` or found in the project's source roots (the root and ``src/``, or the
configured ``src``/``src_paths``), as both tools decide.
"""

from __future__ import annotations

import configparser
import os
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Dict, FrozenSet, Iterable, Mapping, Optional, Tuple

from resilint.lint.config import tomllib
from resilint.lint.modules import STANDARD_LIBRARY

DEFAULT_LINE_LENGTH = 88  # black's and ruff's
_PEP8_LINE_LENGTH = 79  # flake8's and pycodestyle's

FUTURE, STDLIB, THIRDPARTY, FIRSTPARTY, LOCALFOLDER = range(5)
_SECTION_NAMES = {"FUTURE": FUTURE, "STDLIB": STDLIB, "THIRDPARTY": THIRDPARTY, "FIRSTPARTY": FIRSTPARTY, "LOCALFOLDER": LOCALFOLDER}



@dataclass(frozen=True)
class ProjectStyle:
    line_length: int = DEFAULT_LINE_LENGTH
    known_first_party: FrozenSet[str] = frozenset()
    known_third_party: FrozenSet[str] = frozenset()
    known_local_folder: FrozenSet[str] = frozenset()
    # Directories whose top-level packages and modules are first-party.
    source_roots: Tuple[str, ...] = ()
    force_sort_within_sections: bool = False
    force_single_line: bool = False
    order_by_type: bool = True
    combine_as_imports: bool = False
    case_sensitive: bool = False
    # How a section with no import yet is parted from its neighbours: one blank line, unless
    # the tool is told not to (``no_lines_before``/``no-lines-before``).
    no_lines_before: FrozenSet[int] = field(default_factory=frozenset)

    def section(self, module: str, level: int = 0) -> int:
        """The section isort/ruff put ``import module`` (``level`` dots for a relative one) in."""
        if level:
            return LOCALFOLDER
        if module == "__future__":
            return FUTURE
        for known, section in (
            (self.known_first_party, FIRSTPARTY), (self.known_third_party, THIRDPARTY),
            (self.known_local_folder, LOCALFOLDER),
        ):
            if _matches(module, known):
                return section
        top = module.split(".", 1)[0]
        if top in STANDARD_LIBRARY:
            return STDLIB
        for root in self.source_roots:
            if os.path.isdir(os.path.join(root, top)) or os.path.isfile(os.path.join(root, top + ".py")):
                return FIRSTPARTY
        return THIRDPARTY

    def module_key(self, module: str) -> Tuple[str, str]:
        return (module if self.case_sensitive else module.lower(), module)

    def name_key(self, name: str) -> Tuple[int, str, str]:
        """The order of a name in ``from m import a, B, C_D``: by type (CONSTANTS, Classes,
        functions) when ``order_by_type``, then case-insensitively."""
        kind = 0
        if self.order_by_type:
            if name.isupper() and len(name) > 1:
                kind = 0
            elif name[:1].isupper():
                kind = 1
            else:
                kind = 2
        return (kind, name if self.case_sensitive else name.lower(), name)


def _matches(module: str, known: Iterable[str]) -> bool:
    return any(module == k or module.startswith(k + ".") for k in known)


def style_of(path: Optional[str]) -> ProjectStyle:
    """The style of the project that holds ``path`` (a file; relative to the working
    directory). No path (a codemod run on text alone): the tools' defaults, nothing
    first-party."""
    if not path:
        return ProjectStyle()
    return _style_of_directory(os.path.dirname(os.path.abspath(path)))


@lru_cache(maxsize=256)
def _style_of_directory(directory: str) -> ProjectStyle:
    found: Dict[str, Any] = {}
    root: Optional[str] = None
    current = directory
    while True:
        _read_directory(current, found)
        if root is None and any(
            os.path.exists(os.path.join(current, marker)) for marker in ("pyproject.toml", "setup.py", "setup.cfg", ".git")
        ):
            root = current
        if os.path.exists(os.path.join(current, ".git")) or os.path.isfile(os.path.join(current, "pyproject.toml")):
            break
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    root = found.get("config_dir") or root or directory
    return _style(found, root)


def _style(found: Mapping[str, Any], root: str) -> ProjectStyle:
    ruff = found.get("ruff_isort")  # ruff's isort settings win where a project configures both
    isort = found.get("isort")
    options: Dict[str, Any] = {}
    if isort is not None:
        options.update(_from_isort(isort, found.get("isort_dir") or root))
    if ruff is not None:
        options.update(_from_ruff(ruff, found.get("ruff_src"), found.get("ruff_dir") or root))
    if "source_roots" not in options:
        options["source_roots"] = (root, os.path.join(root, "src"))
    length = (found.get("ruff_line_length") or found.get("black_line_length") or found.get("flake8_line_length")
              or found.get("isort_line_length"))
    if isinstance(length, int) and length > 0:
        options["line_length"] = length
    return replace(ProjectStyle(), **options)


def _read_directory(directory: str, found: Dict[str, Any]) -> None:
    """What the tools' configuration files in ``directory`` say, where nothing nearer said it."""
    for name in ("ruff.toml", ".ruff.toml"):
        table = _toml(os.path.join(directory, name))
        if table is not None:
            _take_ruff(table, directory, found)
    pyproject = _toml(os.path.join(directory, "pyproject.toml"))
    if pyproject is not None:
        tools = pyproject.get("tool", {}) if isinstance(pyproject.get("tool"), dict) else {}
        if isinstance(tools.get("ruff"), dict):
            _take_ruff(tools["ruff"], directory, found)
        if isinstance(tools.get("isort"), dict):
            _take_isort(tools["isort"], directory, found)
        black = tools.get("black")
        if isinstance(black, dict) and "black_line_length" not in found:
            found["black_line_length"] = black.get("line-length", black.get("line_length", DEFAULT_LINE_LENGTH))
    for name, sections in ((".isort.cfg", ("settings", "isort")), ("setup.cfg", ("isort", "tool:isort")), ("tox.ini", ("isort", "tool:isort"))):
        parser = _ini(os.path.join(directory, name))
        for section in sections:
            if parser is not None and parser.has_section(section):
                _take_isort({key.replace("-", "_"): value for key, value in parser.items(section)}, directory, found)
    for name in (".flake8", "setup.cfg", "tox.ini"):
        parser = _ini(os.path.join(directory, name))
        for section in ("flake8", "pycodestyle"):
            if parser is not None and parser.has_section(section) and "flake8_line_length" not in found:
                # a project that runs flake8 (or pycodestyle) holds its lines to 79 unless it says
                options = {key.replace("-", "_"): value for key, value in parser.items(section)}
                found["flake8_line_length"] = _integer(options.get("max_line_length")) or _PEP8_LINE_LENGTH


def _take_ruff(table: Mapping[str, Any], directory: str, found: Dict[str, Any]) -> None:
    if "ruff_dir" in found:
        return
    found["ruff_dir"] = directory
    found.setdefault("config_dir", directory)
    found["ruff_line_length"] = table.get("line-length")
    found["ruff_src"] = table.get("src")
    lint = table.get("lint") if isinstance(table.get("lint"), dict) else {}
    isort = lint.get("isort", table.get("isort"))
    found["ruff_isort"] = isort if isinstance(isort, dict) else {}


def _take_isort(table: Mapping[str, Any], directory: str, found: Dict[str, Any]) -> None:
    if "isort" in found:
        return
    found["isort"] = dict(table)
    found["isort_dir"] = directory
    found.setdefault("config_dir", directory)
    found["isort_line_length"] = _integer(table.get("line_length"))


_PROFILES: Dict[str, Dict[str, Any]] = {
    # What the profiles set that decides where one import goes (isort/profiles.py).
    "google": {"force_single_line": True, "force_sort_within_sections": True, "order_by_type": False},
    "open_stack": {"force_single_line": True, "force_sort_within_sections": True},
    "plone": {"force_single_line": True, "force_sort_within_sections": True},
    "black": {}, "django": {}, "pycharm": {}, "attrs": {}, "hug": {},
    "wemake": {}, "appnexus": {},
}


def _from_isort(table: Mapping[str, Any], directory: str) -> Dict[str, Any]:
    options: Dict[str, Any] = {}
    profile = _PROFILES.get(str(table.get("profile", "")), {})
    for key, value in profile.items():
        options[key] = value
    for key in ("force_sort_within_sections", "force_single_line", "order_by_type", "combine_as_imports", "case_sensitive"):
        if key in table:
            options[key] = _boolean(table[key])
    for key in ("known_first_party", "known_third_party", "known_local_folder"):
        if key in table:
            options[key] = frozenset(_names(table[key]))
    if "src_paths" in table:
        options["source_roots"] = tuple(os.path.join(directory, p) for p in _names(table["src_paths"]))
    if "no_lines_before" in table:
        options["no_lines_before"] = frozenset(_SECTION_NAMES[s.upper()] for s in _names(table["no_lines_before"]) if s.upper() in _SECTION_NAMES)
    return options


def _from_ruff(table: Mapping[str, Any], src: Any, directory: str) -> Dict[str, Any]:
    options: Dict[str, Any] = {}
    for key in ("force-sort-within-sections", "force-single-line", "order-by-type", "combine-as-imports", "case-sensitive"):
        if key in table:
            options[key.replace("-", "_")] = bool(table[key])
    for key in ("known-first-party", "known-third-party", "known-local-folder"):
        if key in table:
            options[key.replace("-", "_")] = frozenset(_names(table[key]))
    if isinstance(src, list):
        options["source_roots"] = tuple(os.path.normpath(os.path.join(directory, p)) for p in src)
    else:
        options["source_roots"] = (directory, os.path.join(directory, "src"))
    if "no-lines-before" in table:
        options["no_lines_before"] = frozenset(
            _SECTION_NAMES[s.replace("-", "").upper()] for s in _names(table["no-lines-before"])
            if s.replace("-", "").upper() in _SECTION_NAMES
        )
    return options


def _names(value: Any) -> Tuple[str, ...]:
    if isinstance(value, str):
        return tuple(n.strip() for n in re.split(r"[,\s]+", value) if n.strip())
    if isinstance(value, (list, tuple)):
        return tuple(str(n).strip() for n in value if str(n).strip())
    return ()


def _boolean(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)


def _integer(value: Any) -> Optional[int]:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _toml(path: str) -> Optional[Dict[str, Any]]:
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as handle:
            return tomllib.loads(handle.read().decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None  # a file the tools cannot read either: their defaults


def _ini(path: str) -> Optional[configparser.ConfigParser]:
    if not os.path.isfile(path):
        return None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (OSError, configparser.Error, UnicodeDecodeError):
        return None
    return parser
