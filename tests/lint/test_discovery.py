"""File discovery: recursion, suffixes, default excludes, .gitignore, explicit files."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from resilint.lint.config import Settings
from resilint.lint.discovery import discover

from tests.conftest import write_tree


def found(tmp_path, paths=None, **settings):
    result = discover([str(p) for p in (paths or [tmp_path])], Settings(root=str(tmp_path), **settings))
    return sorted(os.path.relpath(f, tmp_path) for f in result.files), result.errors


def test_recurses_into_python_files_and_skips_default_excludes(tmp_path):
    write_tree(tmp_path, {
        "app/a.py": "", "app/b.pyi": "", "app/c.txt": "", "app/nested/d.py": "",
        ".venv/lib/x.py": "", "build/y.py": "", "node_modules/z.py": "", "app/__pycache__/w.py": "",
    })
    files, errors = found(tmp_path)
    assert files == ["app/a.py", "app/b.pyi", "app/nested/d.py"]
    assert errors == []


def test_exclude_and_extend_exclude(tmp_path):
    write_tree(tmp_path, {"keep.py": "", "gen/skip.py": "", "migrations/0001.py": "", "build/ok.py": ""})
    files, _ = found(tmp_path, exclude=("migrations",), extend_exclude=("gen/",))
    assert files == ["build/ok.py", "keep.py"]  # `exclude` replaced the defaults


def test_the_test_targets_of_semgrep_rules_are_not_checked_unless_named(tmp_path):
    rule = "rules:\n  - id: no-requests\n    pattern: requests.get(...)\n    languages: [python]\n"
    write_tree(tmp_path, {
        ".semgrep/no-requests.yaml": rule, ".semgrep/no-requests.py": "# ruleid: no-requests\n",
        ".semgrep/no-requests.fixed.py": "", "lint/other.yml": rule, "lint/other.py": "",
        "app/settings.yaml": "debug: true\nrules: later\n", "app/settings.py": "",
        "app/rules.py": "",
    })
    files, _ = found(tmp_path)
    assert files == ["app/rules.py", "app/settings.py"]
    files, _ = found(tmp_path, [tmp_path / ".semgrep" / "no-requests.py"])
    assert files == [".semgrep/no-requests.py"]


def test_gitignore_is_honoured_in_a_git_repository(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write_tree(tmp_path, {
        ".gitignore": "generated/\n*_pb2.py\n",
        "src/a.py": "", "src/api_pb2.py": "", "generated/b.py": "",
        "src/.gitignore": "!api_pb2.py\nlocal.py\n", "src/local.py": "",
    })
    files, _ = found(tmp_path)
    assert files == ["src/a.py", "src/api_pb2.py"]  # the deeper .gitignore re-includes api_pb2.py
    files, _ = found(tmp_path, respect_gitignore=False)
    assert "generated/b.py" in files


def test_explicit_files_are_always_checked(tmp_path):
    write_tree(tmp_path, {"build/script": "", "venv/tool.py": ""})
    files, _ = found(tmp_path, [tmp_path / "build" / "script", tmp_path / "venv" / "tool.py"])
    assert files == ["build/script", "venv/tool.py"]


def test_missing_paths_and_broken_links_are_errors_that_do_not_stop_the_rest(tmp_path):
    write_tree(tmp_path, {"a.py": ""})
    os.symlink(tmp_path / "gone.py", tmp_path / "link.py")
    files, errors = found(tmp_path, [tmp_path / "nope", tmp_path / "link.py", tmp_path / "a.py"])
    assert files == ["a.py"]
    assert [(os.path.basename(e.path), e.message) for e in errors] == [
        ("nope", "no such file or directory"), ("link.py", "broken symbolic link"),
    ]


def test_a_directory_named_like_a_module_is_walked_not_read(tmp_path):
    write_tree(tmp_path, {"weird.py/inner.py": ""})
    files, errors = found(tmp_path)
    assert files == ["weird.py/inner.py"] and errors == []
    files, errors = found(tmp_path, [tmp_path / "weird.py"])
    assert files == ["weird.py/inner.py"] and errors == []


@pytest.mark.slow
def test_a_named_directory_is_checked_even_when_ignored_and_what_is_below_it_by_its_own_name(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write_tree(tmp_path, {
        ".gitignore": "generated/\n*_pb2.py\n",
        "generated/a.py": "", "generated/api_pb2.py": "", "generated/sub/b.py": "", "src/c.py": "",
    })
    files, _ = found(tmp_path)
    assert files == ["src/c.py"]
    files, _ = found(tmp_path, [tmp_path / "generated"])
    assert files == ["generated/a.py", "generated/sub/b.py"]  # api_pb2.py is ignored by its own name
    files, _ = found(tmp_path, [tmp_path / "generated" / "sub"])
    assert files == ["generated/sub/b.py"]


def test_a_named_directory_is_checked_even_when_excluded(tmp_path):
    write_tree(tmp_path, {"gen/a.py": "", "src/gen/b.py": "", "venv/c.py": "", "src/d.py": ""})
    settings = {"extend_exclude": ("gen/", "src/gen")}
    assert found(tmp_path, **settings)[0] == ["src/d.py"]
    files, _ = found(tmp_path, [tmp_path / "gen", tmp_path / "src" / "gen", tmp_path / "venv"], **settings)
    assert files == ["gen/a.py", "src/gen/b.py", "venv/c.py"]


def test_a_symbolic_link_loop_is_called_so(cli, tmp_path):
    os.symlink("loop.py", tmp_path / "loop.py")
    files, errors = found(tmp_path, [tmp_path / "loop.py"])
    assert files == [] and [e.message for e in errors] == ["symbolic link loop"]
    result = cli(["check", "--format", "concise", "--no-cache", "."], tmp_path)  # met in a walk
    assert "loop.py:1:1: RES000 symbolic link loop" in result.stdout


@pytest.mark.slow
def test_a_fifo_named_gitignore_is_not_opened(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write_tree(tmp_path, {"src/a.py": "import requests\nrequests.get(u)\n"})
    os.mkfifo(tmp_path / "src" / ".gitignore")
    proc = subprocess.run(
        [sys.executable, "-m", "resilint", "check", "--no-cache", "--format", "concise", "."],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 1 and "src/a.py:2:1: RES101" in proc.stdout, proc.stderr
