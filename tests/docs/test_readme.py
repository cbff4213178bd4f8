"""The README says what is true: its first paragraph, its quick start (run for real in a fresh
virtual environment), the LibCST commands it shows (run for real), every option of the
commands and every setting documented."""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import List

import click
import pytest

from resilint.cli import main
from resilint.lint.config import _KEYS
from tests.conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end != -1 else len(README)]


def console_blocks(text: str) -> List[str]:
    return [block.strip() for block in re.findall(r"```console\n(.*?)```", text, re.S)]


def test_the_first_paragraph_describes_what_exists():
    first = README.split("\n\n")[1]
    assert "planned" not in first
    assert "RES301" in first


QUICK_START = [
    "python3 -m venv .venv && . .venv/bin/activate",
    "python3 -m pip install . && python3 -m resilint check examples/",
    "python3 -m pip install -e '.[test]' && python3 -m pytest -n auto",
]


def test_the_quick_start_makes_a_virtual_environment_and_keeps_its_two_commands():
    assert console_blocks(section("Quick start")) == QUICK_START
    assert "virtual environment" in section("Quick start")


def repository_copy(target: Path) -> Path:
    """The repository's tracked files, as a fresh checkout has them."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout.split(b"\0")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name in filter(None, names):
            path = REPO / name.decode()
            if path.exists():
                archive.add(path, arcname=name.decode(), recursive=False)
    buffer.seek(0)
    with tarfile.open(fileobj=buffer) as archive:
        archive.extractall(target)
    return target


@pytest.mark.slow
def test_the_quick_start_runs_in_a_fresh_virtual_environment(tmp_path):
    checkout = repository_copy(tmp_path / "resilint")
    script = " && ".join([QUICK_START[0], f"{QUICK_START[1]} > check.out; echo $? > check.status"])
    ran = subprocess.run(["bash", "-c", script], cwd=checkout, capture_output=True, text=True, timeout=900)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert (checkout / "check.status").read_text().strip() == "1"  # findings: status 1, as the README says
    shown = re.search(r"```text\n(.*?)\n```", section("Quick start"), re.S).group(1)
    assert shown in (checkout / "check.out").read_text().splitlines()


SAMPLES = {
    # no pyproject.toml around it declares resilint-runtime: the native form
    "AddTimeout": ('import requests\nrequests.get("https://a.example")\n', "HTTP_TIMEOUT = (3.05, 10)\n"),
    "AddBound": (
        "import backoff\n\n@backoff.on_exception(backoff.expo, OSError)\ndef sync(): ...\n",
        "@backoff.on_exception(backoff.expo, OSError, max_tries=5)",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("command", [line for line in README.splitlines() if line.startswith("python3 -m libcst.tool")])
def test_each_libcst_command_the_readme_shows_works_as_shown(tmp_path, command):
    words = shlex.split(command)
    assert words[:4] == ["python3", "-m", "libcst.tool", "codemod"] and words[-1] == "src/"
    codemod = next(word for word in words if word.startswith("resilint.codemods.")).rsplit(".", 1)[1]
    source, expected = SAMPLES[codemod]
    (tmp_path / "src").mkdir()
    target = tmp_path / "src" / "module.py"
    target.write_text(source, encoding="utf-8")
    ran = subprocess.run([sys.executable, *words[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "Failed to codemod 0 files" in ran.stderr
    assert expected in target.read_text(encoding="utf-8")


def documented_options(text: str) -> set:
    return set(re.findall(r"`(--[a-z][a-z-]*)", text))


def long_options(command: click.Command) -> set:
    return {name for param in command.params for name in param.opts if name.startswith("--")} - {"--help"}


def test_every_option_of_check_fix_and_codemod_is_in_the_readme():
    usage = section("Usage")
    check_table = usage[usage.index("`resilint check` options"):]
    assert long_options(main.commands["check"]) <= documented_options(check_table)
    fixes = section("Fixes and codemods")
    fix_only = long_options(main.commands["fix"]) - long_options(main.commands["check"])
    assert fix_only <= documented_options(fixes)
    assert long_options(main.commands["codemod"]) <= documented_options(check_table) | documented_options(fixes)


def test_every_setting_is_in_the_configuration_table():
    table = section("Configuration")
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", table, re.M))
    assert set(_KEYS) <= documented
