"""Fixtures for the reporter tests (helpers live in ``support``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from resilint.lint.finding import AnalysisError, RunResult

from .support import SOURCE, retry_finding, timeout_finding


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "client.py").write_text(SOURCE, encoding="utf-8")
    return tmp_path


@pytest.fixture
def result() -> RunResult:
    return RunResult(
        findings=[retry_finding(), timeout_finding()],
        errors=[AnalysisError("missing_dir", "No such file or directory")],
        files_checked=1,
    )
