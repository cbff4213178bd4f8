"""The line length fixed code is held to comes from the tools the project configures: ruff,
black, flake8/pycodestyle (79 unless they say), isort."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from resilint.codemods.style import style_of

# 79 characters: within 79 before the fix; once the timeout is added, wrapped at 88 its
# arguments would still take 83
LONG_CALL = '''\
import requests


def deregister(address, service):
    return requests.put(address + "/deregister/" + service, data="x" * 1000)
'''


def _project(tmp_path: Path, files: dict) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    package = tmp_path / "consul"
    package.mkdir()
    (package / "__init__.py").write_text("")
    return package / "std.py"


@pytest.mark.parametrize(
    ("files", "length"),
    [
        ({"tox.ini": "[tox]\nenvlist = flake8\n\n[flake8]\nignore = E226\n"}, 79),
        ({"setup.cfg": "[flake8]\nmax-line-length = 120\n"}, 120),
        ({".flake8": "[flake8]\nmax_line_length = 100\n"}, 100),
        ({"setup.cfg": "[pycodestyle]\nmax-line-length = 99\n"}, 99),
        ({"pyproject.toml": "[tool.black]\n", "tox.ini": "[flake8]\nextend-ignore = E203\n"}, 88),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 110\n", "tox.ini": "[flake8]\n"}, 110),
        ({"setup.py": ""}, 88),
    ],
)
def test_the_line_length_comes_from_the_tools_the_project_configures(tmp_path, files, length):
    module = _project(tmp_path, files)
    module.write_text("")
    assert style_of(str(module)).line_length == length


def test_a_fix_in_a_project_that_runs_flake8_keeps_its_lines_within_79(tmp_path):
    module = _project(tmp_path, {"tox.ini": "[flake8]\nignore = F811\n", "setup.py": ""})
    module.write_text(LONG_CALL)
    assert max(len(line) for line in LONG_CALL.splitlines()) <= 79
    result = subprocess.run(
        [sys.executable, "-m", "resilint", "fix", str(module), "--select", "RES101", "--no-cache"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    fixed = module.read_text()
    assert "timeout=" in fixed, result.stdout + result.stderr
    assert max(len(line) for line in fixed.splitlines()) <= 79, fixed
    compile(fixed, str(module), "exec")
