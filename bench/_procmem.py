"""Peak memory of a process tree, sampled from /proc (Linux), and a timed subprocess runner.

Why sampling: ``wait4``/``getrusage(RUSAGE_CHILDREN)`` report ``ru_maxrss`` as the peak of the
single largest process, not of the tree. resilint runs a process pool, so its real footprint is
the main process plus every live worker at the same instant. A thread therefore walks /proc every
20 ms, finds every descendant of the launched process (by ``PPid``), and sums:

* RSS (``/proc/PID/statm`` resident pages): the headline figure; an upper bound, because pages
  shared between a forked parent and its workers are counted once per process;
* PSS (``Pss:`` in ``/proc/PID/smaps_rollup``): shared pages divided among their sharers, so the
  sum is the tree's actual share of physical memory.

The peak of each sum over the run is kept. The tree is re-walked every ~100 ms (and whenever a
member exits); between walks only the known members' statm/smaps_rollup are read, which keeps the
sampler's own cost near 2 % of one core. A process that lives less than that can be missed;
the per-process ``ru_maxrss`` from ``wait4`` is reported beside it as a lower bound.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, IO, List, Mapping, Optional, Sequence, Set, Union

PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
PROC = Path("/proc")


def parse_ppid(stat_text: str) -> Optional[int]:
    """The parent pid from a /proc/PID/stat line (the command name may contain spaces/parens)."""
    end = stat_text.rfind(")")
    if end < 0:
        return None
    fields = stat_text[end + 2:].split()
    if len(fields) < 2:
        return None
    try:
        return int(fields[1])
    except ValueError:
        return None


def descendants(root: int, parents: Mapping[int, int]) -> Set[int]:
    """root and every pid whose parent chain reaches root."""
    children: Dict[int, List[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    out = {root}
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in out:
                out.add(child)
                stack.append(child)
    return out


def parse_pss_kb(smaps_rollup: str) -> int:
    for line in smaps_rollup.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def _read(path: Path) -> Optional[str]:
    try:
        with open(path, "rb") as fh:
            return fh.read().decode("ascii", "replace")
    except (OSError, ValueError):
        return None


def _parent_map() -> Dict[int, int]:
    parents: Dict[int, int] = {}
    for entry in os.scandir(PROC):
        if not entry.name.isdigit():
            continue
        text = _read(PROC / entry.name / "stat")
        if text is None:
            continue
        ppid = parse_ppid(text)
        if ppid is not None:
            parents[int(entry.name)] = ppid
    return parents


class TreeMemorySampler:
    """Samples the summed RSS/PSS of ``pid``'s process tree until stop()."""

    def __init__(self, pid: int, interval: float = 0.02, pss: bool = True) -> None:
        self.pid = pid
        self.interval = interval
        self.want_pss = pss
        self.peak_rss = 0  # bytes
        self.peak_pss = 0  # bytes
        self.peak_procs = 0
        self.samples = 0
        self.rescan_every = max(1, int(round(0.1 / interval)))  # re-walk /proc every ~100 ms
        self._pids: Optional[Set[int]] = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"memsample-{pid}", daemon=True)

    def start(self) -> "TreeMemorySampler":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def sample_once(self) -> None:
        # Walking all of /proc costs ~1.5 ms; reading a known pid's statm ~0.02 ms. Rescan the
        # tree on the first samples, every `rescan_every` samples, and whenever a pid vanished.
        if self._pids is None or self.samples < 5 or self.samples % self.rescan_every == 0:
            self._pids = descendants(self.pid, _parent_map())
        pids = self._pids
        rss = pss = 0
        alive = 0
        for pid in pids:
            statm = _read(PROC / str(pid) / "statm")
            if statm is None:
                self._pids = None
                continue
            alive += 1
            parts = statm.split()
            if len(parts) > 1:
                rss += int(parts[1]) * PAGE_SIZE
            if self.want_pss:
                rollup = _read(PROC / str(pid) / "smaps_rollup")
                if rollup is not None:
                    pss += parse_pss_kb(rollup) * 1024
        self.samples += 1
        self.peak_rss = max(self.peak_rss, rss)
        self.peak_pss = max(self.peak_pss, pss)
        self.peak_procs = max(self.peak_procs, alive)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.sample_once()
            except Exception:  # a vanished process mid-scan must not kill the sampler
                pass
            self._stop.wait(self.interval)


@dataclass
class RunResult:
    argv: List[str]
    returncode: int
    wall: float  # seconds
    cpu: float  # user + sys seconds of the child and every descendant it reaped
    peak_rss_mb: float  # summed over the tree, sampled
    peak_pss_mb: float
    max_single_rss_mb: float  # ru_maxrss from wait4: the largest single process
    peak_procs: int
    samples: int


def run_measured(
    argv: Sequence[str],
    cwd: Optional[Union[str, Path]] = None,
    stdout: Union[int, IO[bytes], None] = subprocess.DEVNULL,
    stderr: Union[int, IO[bytes], None] = subprocess.DEVNULL,
    env: Optional[Mapping[str, str]] = None,
    interval: float = 0.02,
    timeout: Optional[float] = None,
) -> RunResult:
    """Run argv once: wall time, CPU time and peak tree memory."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(list(argv), cwd=cwd, stdout=stdout, stderr=stderr,
                            env=dict(env) if env is not None else None)
    sampler = TreeMemorySampler(proc.pid, interval=interval).start()
    killer: Optional[threading.Timer] = None
    if timeout is not None:
        killer = threading.Timer(timeout, proc.kill)
        killer.start()
    try:
        _pid, status, usage = os.wait4(proc.pid, 0)
    finally:
        wall = time.perf_counter() - t0
        sampler.stop()
        if killer is not None:
            killer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return RunResult(
        argv=list(argv),
        returncode=proc.returncode,
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        peak_rss_mb=sampler.peak_rss / 2**20,
        peak_pss_mb=sampler.peak_pss / 2**20,
        max_single_rss_mb=usage.ru_maxrss / 1024,  # Linux reports KiB
        peak_procs=sampler.peak_procs,
        samples=sampler.samples,
    )


__all__ = [
    "RunResult", "TreeMemorySampler", "descendants", "parse_ppid", "parse_pss_kb", "run_measured",
]
