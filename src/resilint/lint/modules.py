"""Which module a file is, for the import system: its dotted names, and the project roots they
start from. Read from the directories around the file (``__init__.py``), without parsing it."""

from __future__ import annotations

import os
from typing import Callable, List, Sequence

from resilint.lint.config import Settings


def _is_package(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "__init__.py"))


def module_name(path: str, roots: Sequence[str] = ()) -> str:
    """The dotted module name of a file: from the packages (``__init__.py``) around it, or, for
    a file in no package (namespace packages, scripts), from the project root it lies under."""
    return module_names(path, roots)[0]


def module_names(path: str, roots: Sequence[str] = (), is_package: Callable[[str], bool] = _is_package) -> List[str]:
    """Every name the file may be imported by, the one its own code resolves with first.

    A package without ``__init__.py`` (PEP 420) may be imported from the project root
    (``app.services.x``) or from a directory on ``sys.path`` below it (``services.x``): both
    are names of the same module."""
    absolute = os.path.abspath(path)
    directory, filename = os.path.split(absolute)
    stem = filename.rsplit(".", 1)[0]
    parts = [] if stem == "__init__" else [stem]
    while is_package(directory):
        directory, package = os.path.split(directory)
        parts.append(package)
        if not package:
            break
    packaged = ".".join(reversed(parts))
    names = [packaged] if packaged else []
    for root in roots:
        relative = os.path.relpath(absolute, root)
        if relative.startswith(".."):
            continue
        pieces = relative.split(os.sep)
        pieces[-1] = pieces[-1].rsplit(".", 1)[0]
        if pieces[-1] == "__init__":
            pieces.pop()
        if pieces and all(piece.isidentifier() for piece in pieces):
            name = ".".join(pieces)
            if name not in names:
                names.append(name)
    if len(parts) == 1 and len(names) > 1:
        names.append(names.pop(0))  # in no package: the root-relative name is the module's own
    return names or [stem]


def project_roots(settings: Settings) -> List[str]:
    """Where the project's imports start: ``src/`` in a src layout, and the project root."""
    source = os.path.join(settings.root, "src")
    return [source, settings.root] if os.path.isdir(source) else [settings.root]
