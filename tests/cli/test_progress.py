"""The progress bar: on a terminal's stderr for long runs, never in redirected output."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def run_with_terminal_stderr(cwd, count):
    for index in range(count):
        (cwd / f"m{index:04}.py").write_text("import requests\nrequests.get(u)\n")
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(COLUMNS="100", TERM="xterm")
    proc = subprocess.Popen(
        [sys.executable, "-m", "resilint", "check", "--format", "concise", "--no-cache", "."],
        cwd=cwd, stdout=subprocess.PIPE, stderr=slave, env=env,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    stdout = proc.stdout.read().decode()
    proc.wait(timeout=120)
    os.close(master)
    return stdout, b"".join(chunks).decode(errors="replace")


def test_progress_bar_on_terminal_for_many_files(tmp_path):
    stdout, terminal = run_with_terminal_stderr(tmp_path, 250)
    assert "checking" in terminal and "/250" in terminal
    assert "checking" not in stdout and stdout.count("RES101") == 250


def test_no_progress_bar_for_a_few_files(tmp_path):
    _, terminal = run_with_terminal_stderr(tmp_path, 5)
    assert "checking" not in terminal
