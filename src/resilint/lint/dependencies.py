"""What a project declares it depends on, read from its own files, and the fix target that
follows from it (``fix-target = "auto"``).

A fix never adds a dependency the project does not declare: the *runtime* target (fixes that
import ``resilint.runtime``) is chosen by ``auto`` only when the project declares
``resilint-runtime`` or ``resilint`` (``[project]`` dependencies and optional dependencies,
poetry's dependencies, PEP 735 dependency groups, ``requirements*.txt``, ``setup.cfg``'s
``install_requires``/``extras_require``, a literal ``install_requires`` in ``setup.py``) or
already imports ``resilint.runtime`` in one of its files; the *native* target otherwise.

The project root is found as the configuration is: the directory of the ``pyproject.toml``
that configures resilint, else the nearest directory above the checked paths that holds a
``pyproject.toml``, ``setup.cfg``, ``setup.py`` or ``requirements*.txt``, stopping at the
repository's root.
"""

from __future__ import annotations

import ast
import configparser
import os
import re
from dataclasses import dataclass, field, replace
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from resilint.lint.config import ConfigError, Settings, _parse_toml, common_start
from resilint.lint.source import SourceError, read_bytes, tool_text

FIX_TARGETS = ("auto", "native", "runtime")
RUNTIME_DISTRIBUTIONS = ("resilint-runtime", "resilint")
_PROJECT_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
_NAME = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)")
_VERSION = re.compile(r"(~=|===|==|!=|<=|>=|<|>)\s*([0-9][^,;\s]*)")
# ``import resilint.runtime``, ``from resilint.runtime import x``, ``from resilint import runtime``
_RUNTIME_IMPORT = re.compile(rb"^[ \t]*(?:import[ \t]+resilint\.runtime|from[ \t]+resilint(?:\.runtime[ \t.]|[ \t]+import[^\n]*\bruntime\b))", re.M)


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Requirement:
    name: str  # normalised
    specifier: str  # "" when any version
    where: str  # the file that declares it
    own: bool = False  # the project itself, at the version it says it is

    def guarantees_at_least(self, major: int) -> bool:
        """Whether every version the specifier allows is ``major`` or later."""
        lowest = self.lowest_major()
        return lowest is not None and lowest >= major


    def lowest_major(self) -> Optional[int]:
        """The oldest major version the specifier allows, None when it sets no lower bound."""
        majors = [
            _major(version) for operator, version in _VERSION.findall(self.specifier)
            if operator in (">=", "==", "===", "~=", ">")
        ]
        known = [major for major in majors if major is not None]
        return max(known) if known else None


def _major(version: str) -> Optional[int]:
    match = re.match(r"(\d+)", version)
    return int(match.group(1)) if match else None


@dataclass
class ProjectDependencies:
    root: Optional[str]
    requirements: List[Requirement] = field(default_factory=list)

    def declared(self, name: str) -> List[Requirement]:
        wanted = normalise(name)
        return [r for r in self.requirements if r.name == wanted]

    def declares_runtime(self) -> Optional[Requirement]:
        return next((r for r in self.requirements if r.name in RUNTIME_DISTRIBUTIONS and not r.own), None)

    def at_least(self, name: str, major: int) -> Optional[bool]:
        """True: every declaration of ``name`` guarantees version ``major`` or later; False:
        one allows an older one; None: the project does not declare ``name``."""
        found = self.declared(name)
        if not found:
            return None
        return all(r.guarantees_at_least(major) for r in found)


    def lowest_majors(self) -> Dict[str, int]:
        """Per declared distribution, the oldest major version every declaration allows at
        least (a declaration without a lower bound leaves it out)."""
        found: Dict[str, Optional[int]] = {}
        for requirement in self.requirements:
            major = requirement.lowest_major()
            known = found.get(requirement.name, major)
            found[requirement.name] = None if major is None or known is None else min(major, known)
        return {name: major for name, major in found.items() if major is not None}


def with_declared_versions(settings: Settings, paths: Sequence[str] = ()) -> Settings:
    """``settings`` with the oldest versions the project's declared dependencies allow."""
    majors = dependencies_of(settings, paths).lowest_majors()
    return replace(settings, declared_versions=tuple(sorted(majors.items())))


def project_root(settings: Settings, paths: Sequence[str]) -> Optional[str]:
    """The directory whose files declare the project's dependencies."""
    if settings.config_path is not None:
        return os.path.dirname(os.path.abspath(settings.config_path))
    directory = os.path.abspath(common_start(paths))
    if not os.path.isdir(directory):
        directory = os.path.dirname(directory)
    while True:
        if _holds_project_file(directory):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory or os.path.exists(os.path.join(directory, ".git")):
            return None
        directory = parent


def _holds_project_file(directory: str) -> bool:
    try:
        names = os.listdir(directory)
    except OSError:
        return False
    return any(n in _PROJECT_FILES or _is_requirements(n) for n in names)


def _is_requirements(name: str) -> bool:
    return name.startswith("requirements") and name.endswith(".txt")


def read_dependencies(root: Optional[str]) -> ProjectDependencies:
    """Every dependency the files of ``root`` declare (a file that cannot be read or parsed
    declares nothing: the target then stays native, which adds no dependency)."""
    found = ProjectDependencies(root)
    if root is None:
        return found
    readers = (("pyproject.toml", _from_pyproject), ("setup.cfg", _from_setup_cfg), ("setup.py", _from_setup_py))
    for name, reader in readers:
        path = os.path.join(root, name)
        text = tool_text(path)
        if text is not None:
            found.requirements.extend(_requirements(reader(text, path), path))
        if text is not None and name == "pyproject.toml":
            own = _own_version(text, path)
            found.requirements.extend(replace(r, own=True) for r in _requirements([own] if own else [], path))
    for directory in (root, os.path.join(root, "requirements")):
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            continue
        for name in names:
            if (_is_requirements(name) or directory != root and name.endswith(".txt")):
                path = os.path.join(directory, name)
                text = tool_text(path)
                if text is not None:
                    found.requirements.extend(_requirements(_from_requirements_txt(text), path))
    return found


_READ: Dict[Tuple[str, Tuple[Tuple[str, int, int], ...]], ProjectDependencies] = {}


def dependencies_of(settings: Settings, paths: Sequence[str] = ()) -> ProjectDependencies:
    """``read_dependencies`` of the project the settings (and paths) belong to, read again only
    when one of its files changed."""
    root = project_root(settings, paths or [settings.root])
    stamp: Tuple[Tuple[str, int, int], ...] = ()
    if root is not None:
        try:
            names = sorted(n for n in os.listdir(root) if n in _PROJECT_FILES or _is_requirements(n))
            stamp = tuple((n, st.st_mtime_ns, st.st_size) for n in names for st in [os.stat(os.path.join(root, n))])
        except OSError:
            stamp = ()
    key = (root or "", stamp)
    if key not in _READ:
        _READ[key] = read_dependencies(root)
    return _READ[key]


def _requirements(lines: Iterable[str], where: str) -> List[Requirement]:
    found = []
    for line in lines:
        match = _NAME.match(line)
        if match is None:
            continue
        specifier = match.group(3).split(";", 1)[0].strip()
        if specifier.startswith("@"):  # a direct reference: no version known
            specifier = ""
        found.append(Requirement(normalise(match.group(1)), specifier, where))
    return found


def _from_pyproject(text: str, path: str) -> List[str]:
    try:
        document = _parse_toml(text.encode("utf-8"), path)
    except ConfigError:
        return []
    lines: List[str] = []
    project = document.get("project")
    if isinstance(project, dict):
        lines += _strings(project.get("dependencies"))
        optional = project.get("optional-dependencies")
        if isinstance(optional, dict):
            for group in optional.values():
                lines += _strings(group)
    groups = document.get("dependency-groups")
    if isinstance(groups, dict):
        for group in groups.values():
            lines += _strings(group)
    poetry = _table(_table(document, "tool"), "poetry")
    tables = [_table(poetry, "dependencies"), _table(poetry, "dev-dependencies")]
    tables += [_table(g, "dependencies") for g in _table(poetry, "group").values() if isinstance(g, dict)]
    for table in tables:
        for name, spec in table.items():
            if name.lower() != "python":
                lines.append(f"{name} {_poetry_specifier(spec)}")
    return lines


_DUNDER_VERSION = re.compile(r"""^__version__\s*(?::\s*str\s*)?=\s*["']([0-9][^"']*)["']""", re.M)


def _own_version(text: str, path: str) -> Optional[str]:
    """The project itself as a requirement, ``name==version``, when it says its version: its
    own modules import it at that version (redis-py's tree is redis 8). A static
    ``version``, or a dynamic one read from a file's ``__version__`` (hatch's
    ``[tool.hatch.version] path``, setuptools' ``version = {attr = "pkg.__version__"}``)."""
    try:
        document = _parse_toml(text.encode("utf-8"), path)
    except ConfigError:
        return None
    project = _table(document, "project")
    name = project.get("name")
    if not isinstance(name, str):
        return None
    root = os.path.dirname(path)
    version = project.get("version")
    if not isinstance(version, str):
        source = _table(_table(_table(document, "tool"), "hatch"), "version").get("path")
        attr = _table(_table(_table(_table(document, "tool"), "setuptools"), "dynamic"), "version").get("attr")
        if not isinstance(source, str) and isinstance(attr, str) and attr.endswith(".__version__"):
            source = attr[: -len(".__version__")].replace(".", "/") + "/__init__.py"
        text = tool_text(os.path.join(root, source)) if isinstance(source, str) else None
        match = _DUNDER_VERSION.search(text) if text is not None else None
        version = match.group(1) if match is not None else None
    return f"{name}=={version}" if isinstance(version, str) else None


def _poetry_specifier(spec: Any) -> str:
    """Poetry's ``^2.0``/``~2.1``/``2.*`` in the comparison operators of PEP 440."""
    if isinstance(spec, dict):
        spec = spec.get("version", "")
    if not isinstance(spec, str):
        return ""
    spec = spec.strip()
    if spec.startswith(("^", "~")) and not spec.startswith("~="):
        return f">={spec[1:].strip()}"
    if spec and spec[0].isdigit():
        return f"=={spec}"
    return spec


def _from_setup_cfg(text: str, path: str) -> List[str]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text, source=path)
    except configparser.Error:
        return []
    lines: List[str] = []
    if parser.has_option("options", "install_requires"):
        lines += _from_requirements_txt(parser.get("options", "install_requires"))
    if parser.has_section("options.extras_require"):
        for _, value in parser.items("options.extras_require"):
            lines += _from_requirements_txt(value)
    return lines


def _from_setup_py(text: str, path: str) -> List[str]:
    """The literal ``install_requires``/``extras_require`` of a ``setup(...)`` call."""
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError):
        return []
    lines: List[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg not in ("install_requires", "extras_require"):
                continue
            try:
                value = ast.literal_eval(keyword.value)
            except (ValueError, SyntaxError, RecursionError):
                continue
            groups = value.values() if isinstance(value, dict) else [value]
            for group in groups:
                lines += _strings(group)
    return lines


def _from_requirements_txt(text: str) -> List[str]:
    lines = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith(("#", "-")):
            lines.append(line)
    return lines


def _strings(value: Any) -> List[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, (list, tuple)) else []


def _table(value: Any, key: str) -> Dict[str, Any]:
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, dict) else {}


def imports_runtime(files: Iterable[str]) -> Optional[str]:
    """The first of ``files`` that imports ``resilint.runtime``, by a byte scan."""
    for path in files:
        try:
            data = read_bytes(path)
        except SourceError:
            continue
        if b"resilint" in data and _RUNTIME_IMPORT.search(data):
            return path
    return None


@dataclass(frozen=True)
class FixTarget:
    """The target a run's fixes write for, and why (for ``--verbose`` and the docs)."""

    name: str  # "native" | "runtime"
    why: str


def choose_fix_target(
    settings: Settings, paths: Sequence[str], files: Optional[Iterable[str]] = None,
    dependencies: Optional[ProjectDependencies] = None,
) -> FixTarget:
    """``settings.fix_target`` when it names one; for ``auto``, the runtime target when the
    project declares the runtime or one of ``files`` (default: the Python files of ``paths``,
    the files the run checks) imports it, else native."""
    if settings.fix_target in ("native", "runtime"):
        return FixTarget(settings.fix_target, "set by fix-target")
    if dependencies is None:
        dependencies = read_dependencies(project_root(settings, paths))
    declared = dependencies.declares_runtime()
    if declared is not None:
        return FixTarget("runtime", f"{os.path.relpath(declared.where)} declares {declared.name}")
    if files is None:
        # the files the run checks, not every file of the project: a pre-commit run over one
        # file must not read a whole monorepo
        files = _python_files(paths, settings)
    importing = imports_runtime(files)
    if importing is not None:
        return FixTarget("runtime", f"{os.path.relpath(importing)} imports resilint.runtime")
    return FixTarget("native", "the project neither declares resilint-runtime nor imports it")


def _python_files(paths: Sequence[str], settings: Settings) -> List[str]:
    from resilint.lint.discovery import discover  # discovery imports this module's siblings only

    return discover([p for p in paths if os.path.exists(p)], settings).files


def with_fix_target(settings: Settings, paths: Sequence[str], files: Optional[Iterable[str]] = None) -> Tuple[Settings, FixTarget]:
    """``settings`` with ``fix_target`` resolved to "native" or "runtime"."""
    chosen = choose_fix_target(settings, paths, files)
    return settings.with_overrides(fix_target=chosen.name), chosen


def fix_target_of(settings: Settings, path: str) -> str:
    """The target for one file fixed on its own (a codemod run by LibCST's tool or a test):
    the setting, else what the project declares (the caller looks at the file's imports)."""
    if settings.fix_target in ("native", "runtime"):
        return settings.fix_target
    return choose_fix_target(settings, [path or "."], files=()).name
