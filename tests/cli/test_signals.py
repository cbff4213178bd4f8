"""Ctrl-C and SIGTERM end the whole process tree, with no half-written report or cache; the
number of worker processes is bounded. Real processes and real signals, observed in /proc."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Set

import pytest

from resilint.lint.runner import MAX_JOBS_PER_CORE, default_jobs

pytestmark = pytest.mark.slow



def client(functions: int) -> str:
    return "import requests\n\n" + "".join(
        f"def fetch{index}(url):\n    return requests.get(url, timeout=None)\n\n" for index in range(functions)
    )


def _parents() -> Dict[int, int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # it ended meanwhile
            if fields[0] not in ("Z", "X"):  # a zombie has ended; only its exit status is left
                parents[int(entry)] = int(fields[1])
    return parents


def descendants(pid: int) -> Set[int]:
    parents = _parents()
    found: Set[int] = set()
    frontier = [pid]
    while frontier:
        current = frontier.pop()
        for child, parent in parents.items():
            if parent == current and child not in found:
                found.add(child)
                frontier.append(child)
    return found


def alive(pids: Set[int]) -> Set[int]:
    return pids & set(_parents())


def start(tmp_path: Path, *args: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "resilint", "check", "--format", "json", *args]
    # A session of its own: Ctrl-C in a terminal signals the whole foreground process group.
    # SIGINT as a terminal's foreground command has it: a shell starts a background job (the
    # suite run with `&`) with SIGINT ignored, and an ignored signal stays ignored in children.
    return subprocess.Popen(
        command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def workers_of(proc: subprocess.Popen, count: int) -> Set[int]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = descendants(proc.pid)
        if len(found) >= count:
            return found
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    raise AssertionError("the workers did not start")


@pytest.mark.parametrize(
    ("name", "send", "status", "message"),
    [
        ("SIGTERM", lambda pid: os.kill(pid, signal.SIGTERM), 143, "resilint: terminated\n"),
        ("Ctrl-C", lambda pid: os.killpg(pid, signal.SIGINT), 130, "resilint: interrupted\n"),
    ],
    ids=["sigterm", "ctrl-c"],
)
def test_a_signal_mid_run_ends_every_process_and_leaves_no_partial_file(tmp_path, name, send, status, message):
    """SIGTERM used to leave the workers blocked forever; Ctrl-C exited 1 after 7-12 s."""
    (tmp_path / "src").mkdir()
    for index in range(40):
        (tmp_path / "src" / f"client{index}.py").write_text(client(400))
    (tmp_path / "report.json").write_text("the previous report\n")
    proc = start(tmp_path, "--jobs", "2", "--cache-dir", "cache", "-o", "report.json", "src")
    workers = workers_of(proc, 2)
    time.sleep(0.5)  # mid-way: 40 files of 1,200 lines take several seconds
    sent = time.monotonic()
    send(proc.pid)
    _, stderr = proc.communicate(timeout=30)
    assert (proc.returncode, stderr) == (status, message), name
    assert time.monotonic() - sent < 5
    deadline = time.monotonic() + 5
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert alive(workers) == set()
    assert (tmp_path / "report.json").read_text() == "the previous report\n"
    leftovers: List[str] = [str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()]
    assert sorted(leftovers) == sorted([f"src/client{index}.py" for index in range(40)] + ["report.json"])


def test_jobs_is_capped(tmp_path):
    """`--jobs 100000` started a process per job; now at most 4 per core and one per file."""
    cap = MAX_JOBS_PER_CORE * default_jobs()
    for index in range(cap + 8):
        (tmp_path / f"client{index}.py").write_text(client(20))
    proc = start(tmp_path, "--no-cache", "--jobs", str(cap + 8), ".")
    most = 0
    while proc.poll() is None:
        most = max(most, len(descendants(proc.pid)))
        time.sleep(0.01)
    assert proc.returncode == 1, proc.communicate()
    assert 1 <= most <= cap


def test_the_report_is_replaced_through_a_symbolic_link(cli, tmp_path):
    """Written atomically beside its target: the link stays a link."""
    (tmp_path / "good.py").write_text("import requests\nrequests.get(u, timeout=5)\n")
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "resilint.json").write_text("old")
    (tmp_path / "latest.json").symlink_to(tmp_path / "reports" / "resilint.json")
    result = cli(["check", "--no-cache", "--select", "RES101", "--format", "json", "-o", "latest.json", "."], tmp_path)
    assert result.exit_code == 0
    assert (tmp_path / "latest.json").is_symlink()
    assert '"findings": []' in (tmp_path / "reports" / "resilint.json").read_text()
    assert sorted(p.name for p in (tmp_path / "reports").iterdir()) == ["resilint.json"]
