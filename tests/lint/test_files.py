"""Rewriting source files (``--add-noqa`` now, ``fix`` later): what a rename would break is
kept or refused, and a file is only written if it is still what was checked."""

from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import sys

import pytest

from resilint.lint.add_noqa import add_noqa
from resilint.lint.cache import ResultCache
from resilint.lint.config import Settings
from resilint.lint.runner import run

SOURCE = "import requests\nrequests.get(u)\n"
SUPPRESSED = "import requests\nrequests.get(u)  # noqa: RES101\n"


def test_a_symlink_is_followed_and_stays_a_symlink(cli, tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "app.py"
    target.write_text(SOURCE)
    (tmp_path / "link.py").symlink_to("real/app.py")
    result = cli(["check", "link.py", "--add-noqa"], tmp_path)
    assert result.exit_code == 0, result.stderr
    assert os.readlink(tmp_path / "link.py") == "real/app.py"
    assert target.read_text() == SUPPRESSED


def test_hard_links_are_refused_and_the_others_are_done(cli, tmp_path):
    first = tmp_path / "first.py"
    first.write_text(SOURCE)
    os.link(first, tmp_path / "second.py")
    (tmp_path / "other.py").write_text(SOURCE)
    result = cli(["check", "first.py", "other.py", "--add-noqa", "--format", "concise"], tmp_path)
    assert result.exit_code == 2
    assert "resilint: not changed: first.py: has 2 hard links" in result.stderr
    assert "first.py:2:1: RES101" in result.stdout  # still reported: nothing suppresses it
    assert first.read_text() == SOURCE and os.stat(first).st_nlink == 2
    assert (tmp_path / "other.py").read_text() == SUPPRESSED


def test_a_read_only_file_is_refused(cli, tmp_path):
    (tmp_path / "app.py").write_text(SOURCE)
    os.chmod(tmp_path / "app.py", 0o444)  # refused even when root, who could write it
    result = cli(["check", "app.py", "--add-noqa", "--format", "concise"], tmp_path)
    assert (result.exit_code, result.stderr) == (
        2, "resilint: not changed: app.py: is read-only\nAdded 0 noqa directives to 0 files.\n"
    )
    assert (tmp_path / "app.py").read_text() == SOURCE
    assert os.stat(tmp_path / "app.py").st_mode & 0o777 == 0o444


def test_owner_group_and_mode_are_kept(cli, tmp_path):
    path = tmp_path / "app.py"
    path.write_text(SOURCE)
    if os.geteuid() == 0:  # only root can hand a file to someone else, and must give it back
        os.chown(path, 4321, 4322)
    os.chmod(path, 0o640)
    before = os.stat(path)
    assert cli(["check", "app.py", "--add-noqa"], tmp_path).exit_code == 0
    after = os.stat(path)
    assert path.read_text() == SUPPRESSED and after.st_ino != before.st_ino  # a new file...
    assert (after.st_uid, after.st_gid, after.st_mode) == (before.st_uid, before.st_gid, before.st_mode)


def _without_root_powers() -> None:
    """Root writes into a read-only directory anyway: drop the capabilities that bypass file
    permissions (DAC_OVERRIDE, DAC_READ_SEARCH, FOWNER) from the bounding set before exec."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2, 3):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@pytest.mark.slow
def test_a_read_only_directory_is_a_message_and_exit_2(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "app.py").write_text(SOURCE)
    (tmp_path / "other.py").write_text(SOURCE)
    os.chmod(locked, 0o555)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "resilint", "check", "--no-cache", "--add-noqa", "locked/app.py", "other.py"],
            cwd=tmp_path, capture_output=True, text=True, timeout=60,
            preexec_fn=_without_root_powers if os.geteuid() == 0 else None,
        )
    finally:
        os.chmod(locked, 0o755)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"resilint: not changed: locked/app.py: cannot create a temporary file in {locked}" in result.stderr
    assert (locked / "app.py").read_text() == SOURCE
    assert (tmp_path / "other.py").read_text() == SUPPRESSED


def test_a_file_edited_after_it_was_checked_is_not_written(tmp_path, monkeypatch):
    # The line numbers were computed from the old bytes: applied to the new ones they would
    # land on the wrong lines. Re-reading the file at write time cannot notice that.
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "app.py"
    path.write_text(SOURCE)
    result = run(["app.py"], Settings(root=str(tmp_path)), ["RES101"], jobs=1)
    edited = "import requests\n\nx = 1  # a line above moves the finding down\nrequests.get(u)\n"
    path.write_text(edited)
    outcome = add_noqa(result.findings, result.digests)
    assert path.read_text() == edited
    assert outcome.skipped == ["app.py: changed on disk since it was checked"]
    assert [f.line for f in outcome.remaining] == [2]


def test_cached_results_carry_the_digest_of_what_they_were_computed_from(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_text(SOURCE)
    settings = Settings(root=str(tmp_path))
    expected = {"app.py": hashlib.sha256(SOURCE.encode()).hexdigest()}
    for _ in range(2):  # the second run is served from the cache
        cache = ResultCache(settings, ["RES101"], str(tmp_path / "cache"))
        result = run(["app.py"], settings, ["RES101"], jobs=1, cache=cache)
        assert len(result.findings) == 1 and result.digests == expected
