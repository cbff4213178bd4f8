"""Shared helpers: real files on disk, the CLI through click's runner."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Dict, Sequence

import pytest
from click.testing import CliRunner

from resilint.cli import main

REPO = Path(__file__).resolve().parents[1]
# pytest-lsp, the client that drives the language server end to end, needs Python 3.10; the
# test extra installs it from there (``pyproject.toml``), and the server's tests run there.
collect_ignore = ["server"] if sys.version_info < (3, 10) else []
# The official schema, copied into the repository (tests/data/README.md says from where).
SARIF_SCHEMA = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"


def write_tree(root: Path, files: Dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


def cli_runner() -> CliRunner:
    """A runner that keeps standard error apart from standard output on every Click release."""
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()  # click >= 8.2 keeps stderr apart by default


@pytest.fixture
def cli(monkeypatch):
    """Run ``resilint ARGS`` in-process from a given working directory."""

    def invoke(args: Sequence[str], cwd: Path):
        monkeypatch.chdir(cwd)
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.delenv("FORCE_COLOR", raising=False)
        return cli_runner().invoke(main, list(args), catch_exceptions=False)

    return invoke
