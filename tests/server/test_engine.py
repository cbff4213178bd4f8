"""What the language server checks with (``server/engine.py``), in-process on real files and a
real result cache: a document opened as it is on disk is answered by the last ``resilint
check``; its first edit is analysed in full."""

from __future__ import annotations

from typing import List

from resilint.server.engine import ClientSettings, Project, settings_for
from tests.conftest import write_tree

PROJECT = {
    "app/__init__.py": "",
    "app/client.py": """
        import requests


        def fetch(url, timeout=None):
            return requests.get(url, timeout=timeout)
    """,
    "app/views.py": """
        import requests

        from app.client import fetch


        def load():
            requests.get("https://a.example")
            return fetch("https://b.example")
    """,
}
VIEWS = "app/views.py"


def _project(root) -> Project:
    return Project(settings_for(VIEWS, str(root), ClientSettings()))


def _seen(findings) -> List[tuple]:
    return [(f.code, f.line, f.column, f.message) for f in findings]


def _counting_checks(project: Project) -> List[str]:
    """The paths the project's checker analyses from now on (it still analyses them)."""
    analysed: List[str] = []
    check_file = project.checker.check_file

    def counted(data, path, reusable=False):
        analysed.append(path)
        return check_file(data, path, reusable)

    project.checker.check_file = counted  # type: ignore[method-assign]
    return analysed


def test_a_document_opened_as_on_disk_is_answered_by_the_last_run(tmp_path, monkeypatch, cli):
    root = write_tree(tmp_path / "project", PROJECT)
    monkeypatch.setenv("RESILINT_CACHE_DIR", str(tmp_path / "cache"))
    data = (root / VIEWS).read_bytes()
    cold = _project(root)  # before any run: the cache is empty
    expected = _seen(cold.check({VIEWS: data})[VIEWS])
    assert [code for code, *_ in expected] == ["RES101", "RES102"]  # the second through `fetch`

    assert cli(["check", "--exit-zero", "."], root).exit_code == 0  # the run that warms the cache
    warm = _project(root)
    analysed = _counting_checks(warm)
    assert _seen(warm.check({VIEWS: data})[VIEWS]) == expected
    assert analysed == []

    edited = data.replace(b"def load():", b"def load():\n    pass")  # code: nothing to reuse
    assert [line for _, line, *_ in _seen(warm.check({VIEWS: edited})[VIEWS])] == [8, 9]
    assert analysed == [VIEWS]


def test_a_buffer_that_differs_from_the_file_is_analysed(tmp_path, monkeypatch, cli):
    root = write_tree(tmp_path / "project", PROJECT)
    monkeypatch.setenv("RESILINT_CACHE_DIR", str(tmp_path / "cache"))
    assert cli(["check", "--exit-zero", "."], root).exit_code == 0
    project = _project(root)
    analysed = _counting_checks(project)
    unsaved = (root / VIEWS).read_bytes().replace(b'requests.get("https://a.example")', b'requests.get("https://a.example", timeout=5)')
    assert [code for code, *_ in _seen(project.check({VIEWS: unsaved})[VIEWS])] == ["RES103", "RES102"]
    assert analysed == [VIEWS]


def _counting_passes(project: Project) -> List[int]:
    """One entry per project pass the project's checker runs from now on (it still runs them)."""
    passes: List[int] = []
    project_findings = project.checker.project_findings

    def counted(summaries, reported_paths=None):
        passes.append(1)
        return project_findings(summaries, reported_paths)

    project.checker.project_findings = counted  # type: ignore[method-assign]
    return passes


def test_an_edit_that_only_moves_lines_moves_the_last_project_pass_findings(tmp_path, monkeypatch, cli):
    root = write_tree(tmp_path / "project", PROJECT)
    monkeypatch.setenv("RESILINT_CACHE_DIR", str(tmp_path / "cache"))
    assert cli(["check", "--exit-zero", "."], root).exit_code == 0  # the modules the document calls into: cached
    project = _project(root)
    data = (root / VIEWS).read_bytes()
    assert [(code, line) for code, line, *_ in _seen(project.check({VIEWS: data})[VIEWS])] == [("RES101", 7), ("RES102", 8)]
    passes = _counting_passes(project)
    moved = b"# views\n\n" + data.replace(b"def load():", b"\ndef load():")
    seen = _seen(project.check({VIEWS: moved})[VIEWS])
    assert passes == []
    assert [(code, line) for code, line, *_ in seen] == [("RES101", 10), ("RES102", 11)]
    assert seen == _seen(_project(root).check({VIEWS: moved})[VIEWS])  # as a pass over the edited text gives
    called = moved.replace(b"    return fetch(", b"    fetch('https://c.example')\n    return fetch(")
    assert [(code, line) for code, line, *_ in _seen(project.check({VIEWS: called})[VIEWS])] == [
        ("RES101", 10), ("RES102", 11), ("RES102", 12),
    ]
    assert passes == [1]
