"""File discovery: recursion, suffixes, default excludes, .gitignore, explicit files."""

from __future__ import annotations

import os
import subprocess

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
