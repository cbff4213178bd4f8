"""Scripts the project's test tooling runs: what ``tox.ini`` (or ``setup.cfg``'s and
``pyproject.toml``'s tox configuration), ``noxfile.py`` and the CI configurations (GitHub
Actions, GitLab CI, CircleCI, Azure Pipelines) run as ``python SCRIPT.py``.

Such a script serves one test or CI process, as test code does: a loop in it that waits for a
service the job started (a container becoming ready) is the only client of what it waits for,
so there is no herd for jitter to spread, and a literal timeout bounds a call to what the job
runs. With the default ``test-code`` they count as test code (``config.with_test_scripts``);
a project that sets ``test-code`` itself names its test code in full. A script the job starts
in the background (``python app.py &``) is a server under test, production code: not counted.
So are the project's pytest plugins, the modules its packaging registers as ``pytest11`` entry
points (``pyproject.toml``, ``setup.cfg``, ``setup.py``): fixtures and helpers of its test runs.

Read once per run from the files at the project root, so they are part of the effective
configuration (and of the cache key, ``lint.cache``). A file that cannot be read is passed
over: it configures another tool, and resilint reports nothing about it.
"""

from __future__ import annotations

import configparser
import glob
import os
import re
import shlex
from typing import Iterable, Iterator, List, Optional, Set

from resilint.lint.source import tool_text

# Where the test tooling's commands are written, relative to the project root.
_INI_FILES = ("tox.ini", "setup.cfg")
_COMMAND_FILES = (
    "noxfile.py", ".gitlab-ci.yml", ".circleci/config.yml", "azure-pipelines.yml",
    ".github/workflows/*.yml", ".github/workflows/*.yaml",
)
# An interpreter word: ``python``, ``python3.12``, ``pypy3``, tox's ``{envpython}``, a path to one.
_INTERPRETER = re.compile(r"(?:.*/)?(?:python[\d.]*|pypy[\d.]*|py|\{env_?python\})")
# Options of the interpreter that take a value (``-X dev``, ``-W error``).
_OPTION_WITH_VALUE = {"-X", "-W"}
# Runners whose next word is a script: ``coverage run x.py``.
_SCRIPT_RUNNERS = {("coverage", "run")}
# The project root as the tools spell it: tox's ``{toxinidir}``, GitHub Actions'
# ``${GITHUB_WORKSPACE}`` (or ``$GITHUB_WORKSPACE``; ``${{ github.workspace }}``, whose spaces
# would split the word, is taken out of the line first).
_TOX_SUBSTITUTIONS = re.compile(r"^(?:\{(?:toxinidir|tox_root)\}|\$\{?GITHUB_WORKSPACE\}?)/")
_WORKSPACE_EXPRESSION = re.compile(r"\$\{\{\s*github\.workspace\s*\}\}/")
_MAX_BYTES = 1 << 20  # a configuration file larger than this is no tooling file


# What marks the top of a project: where its tooling's files are.
_PROJECT_MARKERS = (".git", "pyproject.toml", "setup.cfg", "setup.py", "tox.ini", "noxfile.py", ".github", ".gitlab-ci.yml")


def tooling_root(start: str) -> Optional[str]:
    """The nearest directory at or above ``start`` that holds a project's files (its
    repository, its packaging or its test tooling); None when none does."""
    directory = os.path.abspath(start)
    if not os.path.isdir(directory):
        directory = os.path.dirname(directory)
    while True:
        if any(os.path.exists(os.path.join(directory, marker)) for marker in _PROJECT_MARKERS):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def tooling_scripts(root: str) -> List[str]:
    """The project's scripts (paths relative to ``root``, ``/``-separated, files that exist)
    that its test tooling runs, and its pytest plugins."""
    found: Set[str] = set(_pytest_plugins(root))
    for line in _command_lines(root):
        for word in _scripts_of(line):
            relative = os.path.normpath(_TOX_SUBSTITUTIONS.sub("", word)).replace(os.sep, "/")
            if relative.startswith("../") or os.path.isabs(relative):
                continue
            if os.path.isfile(os.path.join(root, relative)):
                found.add(relative)
    return sorted(found)


def _command_lines(root: str) -> Iterator[str]:
    for name in _INI_FILES:
        yield from _tox_commands(_read(os.path.join(root, name)))
    pyproject = _read(os.path.join(root, "pyproject.toml"))
    if "legacy_tox_ini" in pyproject:
        yield from _tox_commands(pyproject)
    for pattern in _COMMAND_FILES:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            text = _read(path)
            if path.endswith(".py"):
                # nox: ``session.run("python", "x.py")``, the words as string literals
                yield from (" ".join(re.findall(r"[\"']([^\"'\n]+)[\"']", line)) for line in text.splitlines())
            else:
                # a shell command continued over lines (``python \`` / ``-u tools/x.py \``)
                yield from re.sub(r"\\\n[ \t]*", " ", text).splitlines()


def _tox_commands(text: str) -> Iterator[str]:
    """The ``commands`` (and ``commands_pre``/``commands_post``) lines of every section."""
    if "commands" not in text:
        return
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        # ``legacy_tox_ini`` sits in a TOML string: its lines are read one by one instead
        yield from (line for line in text.splitlines() if "python" in line)
        return
    for section in parser.sections():
        for key, value in parser.items(section):
            if key in ("commands", "commands_pre", "commands_post"):
                yield from value.splitlines()


def _scripts_of(line: str) -> Iterable[str]:
    """The scripts ``line`` runs: the first word after an interpreter (and its options), or
    after ``coverage run``, when it names a ``.py`` file."""
    if ".py" not in line:
        return []  # most lines of a CI configuration: no script to split them for
    line = _WORKSPACE_EXPRESSION.sub("", line)
    try:
        words = shlex.split(line, comments=False)
    except ValueError:  # an unbalanced quote: the plain words will do
        words = line.split()
    scripts = []
    for index, word in enumerate(words):
        if _INTERPRETER.fullmatch(word) or tuple(words[index - 1:index + 1]) in _SCRIPT_RUNNERS:
            script = _first_argument(words[index + 1:])
            if script is not None and not _in_background(line, script):
                scripts.append(script)
    return scripts


def _in_background(line: str, script: str) -> bool:
    """``python app.py &``: a server the job starts for its tests, production code itself."""
    return re.search(re.escape(script) + r"[^;|&]*&(?!&)", line) is not None


def _first_argument(words: List[str]) -> Optional[str]:
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in _OPTION_WITH_VALUE:
            skip = True
        elif word in ("-m", "-c", "-"):  # a module or a program text: no script
            return None
        elif word.startswith("-"):
            continue
        else:
            return word if word.endswith(".py") else None
    return None


# ``[project.entry-points."pytest11"]`` (or Poetry's ``[tool.poetry.plugins."pytest11"]``) and
# the entries under it, up to the next table.
_PYPROJECT_PLUGINS = re.compile(
    r"^\[\s*(?:project\.entry-points|tool\.poetry\.plugins)\.[\"']?pytest11[\"']?\s*\]\s*$(.*?)(?=^\s*\[|\Z)",
    re.M | re.S,
)
# ``entry_points={"pytest11": ["name = module", ...]}`` in ``setup.py``.
_SETUP_PY_PLUGINS = re.compile(r"[\"']pytest11[\"']\s*:\s*\[([^\]]*)\]")


def _pytest_plugins(root: str) -> Iterator[str]:
    """The files of the modules the packaging registers as pytest plugins."""
    modules: List[str] = []
    for entries in _PYPROJECT_PLUGINS.findall(_read(os.path.join(root, "pyproject.toml"))):
        modules.extend(re.findall(r"^\s*[\w.\"'-]+\s*=\s*[\"']([\w.]+)", entries, re.M))
    for entries in _SETUP_PY_PLUGINS.findall(_read(os.path.join(root, "setup.py"))):
        modules.extend(re.findall(r"[\"'][^\"'=]*=\s*([\w.]+)", entries))
    setup_cfg = _read(os.path.join(root, "setup.cfg"))
    if "pytest11" in setup_cfg:
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read_string(setup_cfg)
            lines = parser.get("options.entry_points", "pytest11", fallback="")
        except configparser.Error:
            lines = ""
        modules.extend(re.findall(r"=\s*([\w.]+)", lines))
    for module in modules:
        path = module.replace(".", "/")
        for candidate in (f"{path}.py", f"{path}/__init__.py", f"src/{path}.py", f"src/{path}/__init__.py"):
            if os.path.isfile(os.path.join(root, candidate)):
                yield candidate
                break


def _read(path: str) -> str:
    return tool_text(path, _MAX_BYTES) or ""
