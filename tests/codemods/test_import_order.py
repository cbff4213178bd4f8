"""Imports a fix adds go where isort and ruff's isort rules put them: each case is a project
on disk with its own configuration, a file those tools accept as it is, and the same tools run
for real on the file with the import added (``ruff check --select I``, ``isort --check``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Dict, Sequence, Tuple

import libcst as cst
import pytest
from libcst.codemod.visitors import ImportItem

from resilint.codemods.base import with_imports
from resilint.codemods.style import FIRSTPARTY, LOCALFOLDER, STDLIB, THIRDPARTY, style_of

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent

STDLIB_FILE = '''\
"""A client."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import requests
from tenacity import retry, stop_after_attempt

from mypkg import settings
from mypkg.util import helper

from . import models

log = logging.getLogger(__name__)


def fetch(url):
    return requests.get(url, timeout=settings.TIMEOUT), os, Path, helper, models, retry, stop_after_attempt
'''

# Each import a fix may add: the runtime's, the standard library's, a third-party one, a name
# joining an existing ``from`` import.
ADDED: Dict[str, Tuple[ImportItem, ...]] = {
    "runtime": (ImportItem("resilint.runtime", "timeout", None),),
    "runtime-aliased": (ImportItem("resilint.runtime", "timeout", "runtime_timeout"),),
    "random": (ImportItem("random", None, None),),
    "uuid-and-time": (ImportItem("uuid", None, None), ImportItem("time", "monotonic", None)),
    "tenacity-name": (ImportItem("tenacity", "wait_random", None),),
    "tenacity-constant-and-class": (ImportItem("tenacity", "RetryError", None), ImportItem("tenacity", "STOP", None)),
    "a-new-package": (ImportItem("backoff", None, None), ImportItem("zeep", "Client", None)),
}

# (name, file the configuration is in, its text) for each tool.
RUFF_CONFIGS = [
    ("defaults", "pyproject.toml", "[tool.ruff]\n"),
    ("force-sort-within-sections", "pyproject.toml", "[tool.ruff.lint.isort]\nforce-sort-within-sections = true\n"),
    ("runtime-first-party", "ruff.toml", '[lint.isort]\nknown-first-party = ["mypkg", "resilint"]\n'),
    ("single-line", "pyproject.toml", "[tool.ruff.lint.isort]\nforce-single-line = true\nforce-sort-within-sections = true\n"),
    ("legacy-table", "pyproject.toml", '[tool.ruff.isort]\nknown-first-party = ["resilint"]\norder-by-type = false\n'),
    ("src-elsewhere", "pyproject.toml", '[tool.ruff]\nsrc = ["lib"]\n'),
]
ISORT_CONFIGS = [
    ("defaults", "pyproject.toml", "[tool.isort]\n"),
    ("black-profile", "pyproject.toml", '[tool.isort]\nprofile = "black"\n'),
    ("google-profile", ".isort.cfg", "[settings]\nprofile = google\n"),
    ("force-sort-within-sections", "setup.cfg", "[isort]\nforce_sort_within_sections = true\nknown_first_party = resilint\n"),
    ("runtime-first-party", "pyproject.toml", '[tool.isort]\nprofile = "black"\nknown_first_party = ["mypkg", "resilint"]\n'),
]


def _project(tmp_path: Path, config: str, text: str, layout: str = "src") -> Path:
    """A project with its package under ``src/`` (or ``lib/``), configured; the client module's path."""
    (tmp_path / config).write_text(text)
    package = tmp_path / layout / "mypkg"
    package.mkdir(parents=True)
    for name in ("__init__.py", "settings.py", "util.py", "models.py"):
        (package / name).write_text("")
    return package / "client.py"


def _sorted_by(tool: str, path: Path, source: str) -> str:
    """``source`` as the tool sorts it in that project (its configuration found from there)."""
    path.write_text(source)
    if tool == "ruff":
        command = [str(BIN / "ruff"), "check", "--select", "I", "--fix", "--no-cache", "--quiet", str(path)]
    else:
        command = [sys.executable, "-m", "isort", "--quiet", str(path)]
    subprocess.run(command, cwd=path.parents[2], capture_output=True, text=True, timeout=120)
    return path.read_text()


def _clean_for(tool: str, path: Path, source: str) -> str:
    """A version of ``source`` the tool accepts in this project (its own sort of it)."""
    return _sorted_by(tool, path, source)


def _added(path: Path, source: str, items: Sequence[ImportItem]) -> str:
    return with_imports(cst.parse_module(source), list(items), str(path)).code


@pytest.mark.parametrize("items", ADDED.values(), ids=list(ADDED))
@pytest.mark.parametrize(("name", "config", "text"), RUFF_CONFIGS, ids=[c[0] for c in RUFF_CONFIGS])
def test_ruff_accepts_the_import_order_after_the_import_is_added(tmp_path, name, config, text, items):
    path = _project(tmp_path, config, text, layout="lib" if name == "src-elsewhere" else "src")
    original = _clean_for("ruff", path, STDLIB_FILE)
    assert _sorted_by("ruff", path, original) == original  # what the project has passes its gate
    fixed = _added(path, original, items)
    assert fixed != original
    assert _sorted_by("ruff", path, fixed) == fixed


@pytest.mark.parametrize("items", ADDED.values(), ids=list(ADDED))
@pytest.mark.parametrize(("name", "config", "text"), ISORT_CONFIGS, ids=[c[0] for c in ISORT_CONFIGS])
def test_isort_accepts_the_import_order_after_the_import_is_added(tmp_path, name, config, text, items):
    path = _project(tmp_path, config, text)
    original = _clean_for("isort", path, STDLIB_FILE)
    assert _sorted_by("isort", path, original) == original
    fixed = _added(path, original, items)
    assert fixed != original
    assert _sorted_by("isort", path, fixed) == fixed


def test_a_section_the_file_lacks_is_opened_between_its_neighbours(tmp_path):
    path = _project(tmp_path, "pyproject.toml", '[tool.ruff.lint.isort]\nknown-first-party = ["resilint"]\n')
    source = "import os\n\nimport requests\n\nfrom . import models\n\nrequests.get(os.sep, models)\n"
    fixed = _added(path, source, ADDED["runtime"])
    assert fixed == (
        "import os\n\nimport requests\n\nfrom resilint.runtime import timeout\n\nfrom . import models\n\n"
        "requests.get(os.sep, models)\n"
    )
    assert _sorted_by("ruff", path, fixed) == fixed


def test_a_name_joins_a_parenthesised_import_one_per_line(tmp_path):
    path = _project(tmp_path, "pyproject.toml", "[tool.ruff]\n")
    source = "from tenacity import (\n    retry,\n    stop_after_attempt,\n)\n\nretry(stop_after_attempt)\n"
    fixed = _added(path, source, ADDED["tenacity-name"])
    assert fixed == "from tenacity import (\n    retry,\n    stop_after_attempt,\n    wait_random,\n)\n\nretry(stop_after_attempt)\n"
    assert _sorted_by("ruff", path, fixed) == fixed
    fixed = _added(path, source, (ImportItem("tenacity", "Retrying", None),))
    assert fixed == "from tenacity import (\n    Retrying,\n    retry,\n    stop_after_attempt,\n)\n\nretry(stop_after_attempt)\n"
    assert _sorted_by("ruff", path, fixed) == fixed


def test_imports_in_no_order_the_tools_keep_get_the_new_one_beside_its_section(tmp_path):
    path = _project(tmp_path, "pyproject.toml", "[tool.ruff]\n")
    source = "import requests\nimport os\n\nrequests.get(os.sep)\n"
    assert _added(path, source, ADDED["random"]) == "import requests\nimport os\nimport random\n\nrequests.get(os.sep)\n"
    # A block sorted by hand with `from` imports among the plain ones (one slip: traceback
    # before threading), then third-party and first-party sections (tweepy's streaming.py).
    by_hand = (
        "from collections import namedtuple\nimport json\nimport logging\nfrom math import inf\n"
        "from platform import python_version\nimport ssl\nimport traceback\nfrom threading import Thread\n"
        "from time import sleep\n\nimport requests\n\nimport mypkg\nfrom mypkg.client import Client\n\n"
        "sleep(1)\n"
    )
    assert _added(path, by_hand, ADDED["random"]) == by_hand.replace(
        "from platform import python_version\n", "from platform import python_version\nimport random\n"
    )
    # Sections mixed up (hvac's test harness): next to the standard library imports before it.
    mixed = (
        "import logging\nimport os\nimport subprocess\nimport time\nimport requests\nimport typing as t\n\n"
        "import shutil\nfrom mypkg import settings\n\ntime.sleep(1)\n"
    )
    assert _added(path, mixed, ADDED["random"]) == mixed.replace("import os\n", "import os\nimport random\n")
    # Nothing of its section sorts before it: above the first import of its section.
    assert _added(path, "import requests\nimport time\nimport os\n\ntime.sleep(1)\n", (ImportItem("abc", None, None),)) == (
        "import requests\nimport abc\nimport time\nimport os\n\ntime.sleep(1)\n"
    )


def test_a_try_import_parts_the_imports_and_the_new_one_joins_the_block_of_its_section(tmp_path):
    """tweepy's client.py: the stdlib imports, a `try:` import, then the rest of the imports; a
    third-party import goes beside `requests`, not into the first block (ruff sorts each block
    on its own and accepts both, a reader would not)."""
    path = _project(tmp_path, "pyproject.toml", '[tool.ruff.lint.isort]\nknown-first-party = ["mypkg"]\n')
    source = (
        "import datetime\n\ntry:\n    from functools import cache\nexcept ImportError:\n    cache = None\n\n"
        "import logging\n\nimport requests\n\nfrom mypkg import settings\n\nrequests.get(settings.URL)\n"
    )
    fixed = _added(path, source, ADDED["runtime"])
    assert fixed == source.replace("import requests\n", "import requests\nfrom resilint.runtime import timeout\n")
    assert _sorted_by("ruff", path, fixed) == fixed
    # a standard-library import stays in the first block, which holds that section
    assert _added(path, source, ADDED["random"]) == source.replace("import datetime\n", "import datetime\nimport random\n")


def test_sections_come_from_the_project_on_disk(tmp_path):
    path = _project(tmp_path, "pyproject.toml", '[tool.isort]\nknown_third_party = ["mypkg"]\nknown_local_folder = ["helpers"]\n')
    style = style_of(str(path))
    assert style.section("os.path") == STDLIB
    assert style.section("mypkg.util") == THIRDPARTY  # known_third_party wins over the source root
    assert style.section("helpers") == LOCALFOLDER
    assert style.section("x", level=1) == LOCALFOLDER
    other = tmp_path / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text("[project]\nname = 'other'\n")
    (other / "src" / "mypkg").mkdir(parents=True)
    assert style_of(str(other / "src" / "mypkg" / "a.py")).section("mypkg") == FIRSTPARTY  # src layout, no configuration
    assert style_of(None).section("mypkg") == THIRDPARTY  # no file: nothing is first-party
