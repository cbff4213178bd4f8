"""A user program keeps its type checking through resilint.runtime (issue 28, item 14): mypy
--strict reports the mistakes of tests/runtime/typing_programs/program_with_errors.py (each line
marked ``# error: [code]``) and nothing in correct_program.py, against the sources and against
the standalone ``resilint-runtime`` wheel (which must ship ``py.typed``)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.conftest import REPO

pytest.importorskip("mypy")
pytestmark = pytest.mark.slow

PROGRAMS = Path(__file__).parent / "typing_programs"
MARK = re.compile(r"#\s*error:\s*\[([a-z-]+)\]")
REPORTED = re.compile(r"^[^:]+:(\d+): error: .*\[([a-z-]+)\]$")


def mypy(program: Path, cwd: Path, python: str = sys.executable) -> subprocess.CompletedProcess:
    """``mypy --strict`` on ``program`` copied into ``cwd`` (no configuration of ours applies),
    resolving imports as ``python`` would."""
    target = cwd / program.name
    shutil.copyfile(program, target)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(cwd / ".mypy_cache"),
         "--python-executable", python, target.name],
        cwd=cwd, capture_output=True, text=True, timeout=300,
    )


def expected_errors(program: Path):
    return {
        (number, match.group(1))
        for number, line in enumerate(program.read_text(encoding="utf-8").splitlines(), start=1)
        for match in [MARK.search(line)]
        if match
    }


def reported_errors(output: str):
    return {(int(m.group(1)), m.group(2)) for m in map(REPORTED.match, output.splitlines()) if m}


def test_every_mistake_in_a_user_program_is_reported(tmp_path):
    program = PROGRAMS / "program_with_errors.py"
    expected = expected_errors(program)
    assert len(expected) == 10
    result = mypy(program, tmp_path)
    missing = expected - reported_errors(result.stdout)
    assert not missing, result.stdout  # was: @retry untyped, the adapters Any


def test_a_correct_user_program_type_checks(tmp_path):
    result = mypy(PROGRAMS / "correct_program.py", tmp_path)
    assert result.returncode == 0, result.stdout
    assert "Success: no issues found" in result.stdout


def test_the_standalone_wheel_is_typed(tmp_path):
    # built from a copy, so that the build leaves nothing in the repository
    source = tmp_path / "source"
    for package in ("runtime", "defaults"):  # what the runtime-only distribution holds
        shutil.copytree(REPO / "src" / "resilint" / package, source / "src" / "resilint" / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "packaging" / "resilint-runtime", source / "packaging" / "resilint-runtime",
                    ignore=shutil.ignore_patterns("build", "*.egg-info"))
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
         str(source / "packaging" / "resilint-runtime"), "-w", str(wheels)],
        capture_output=True, text=True, timeout=300,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("resilint_runtime-*.whl")
    env = tmp_path / "app"
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )
    assert install.returncode == 0, install.stderr
    program = tmp_path / "uses_runtime.py"
    program.write_text(
        "from resilint.runtime import retry\n\n\n"
        "@retry(attempts=2)\n"
        "def rates(currency: str) -> float:\n"
        "    return 1.0\n\n\n"
        "wrong: str = rates(1)\n",
        encoding="utf-8",
    )
    checked = tmp_path / "checked"
    checked.mkdir()
    result = mypy(program, checked, python=str(python))
    # was: "module is installed, but missing library stubs or py.typed marker"
    assert "py.typed" not in result.stdout
    assert reported_errors(result.stdout) == {(9, "assignment"), (9, "arg-type")}, result.stdout


def test_the_runtime_itself_is_strict_clean(tmp_path):
    # what a user's mypy reads when it follows an import into resilint.runtime
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / ".mypy_cache"),
         "-p", "resilint.runtime"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout
