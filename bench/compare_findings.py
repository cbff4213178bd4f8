"""Findings before and after a change to resilint: the JSON of ``--select ALL`` must be identical.

Usage::

    python bench/compare_findings.py --base REV [--jobs N] DIR [DIR ...]

REV is a git revision of this repository (e.g. the branch point): its ``src/`` is exported to a
temporary directory and run with ``PYTHONPATH``; the working tree's ``src/`` is the "after".
Each DIR (the bench corpus, the tests' fixtures, any project) is checked by both, cold
(``--no-cache``), with the project pass, and the reports are compared finding by finding
(every field: code, message, positions, related locations, fix) and their ``errors``.
Prints one line per DIR and, for a difference, the findings only one side has. Exits 1 when
any DIR differs. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from typing import Any, Dict, List, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def _export(rev: str, into: str) -> str:
    """``src/`` of ``rev``, unpacked under ``into``."""
    archive = os.path.join(into, "base.tar")
    with open(archive, "wb") as out:
        subprocess.run(["git", "-C", REPO, "archive", "--format=tar", rev, "src"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into)  # our own repository's files
    return os.path.join(into, "src")


def _check(src: str, target: str, jobs: int, workdir: str) -> Tuple[Dict[str, Any], float]:
    report = os.path.join(workdir, "report.json")
    env = dict(os.environ, PYTHONPATH=src)
    command = [
        sys.executable, "-m", "resilint", "check", "--select", "ALL", "--format", "json", "--no-cache",
        "--exit-zero", "--jobs", str(jobs), "-o", report, target,
    ]
    start = time.perf_counter()
    result = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if not os.path.exists(report):
        raise SystemExit(f"resilint ({src}) failed on {target} (exit {result.returncode}):\n{result.stderr[-2000:]}")
    with open(report, encoding="utf-8") as handle:
        data = json.load(handle)
    os.remove(report)
    return data, elapsed


def _findings(data: Any) -> List[str]:
    """Every finding as one canonical JSON string (sorted keys), sorted."""
    items = data["findings"] if isinstance(data, dict) else data
    return sorted(json.dumps(item, sort_keys=True) for item in items)


def _errors(data: Any) -> List[str]:
    return sorted(json.dumps(e, sort_keys=True) for e in data.get("errors", [])) if isinstance(data, dict) else []


def compare(base_src: str, new_src: str, targets: Sequence[str], jobs: int) -> bool:
    same = True
    with tempfile.TemporaryDirectory(prefix="resilint-compare-") as workdir:
        for target in targets:
            target = os.path.abspath(target)
            before, base_time = _check(base_src, target, jobs, workdir)
            after, new_time = _check(new_src, target, jobs, workdir)
            old, new = _findings(before), _findings(after)
            identical = old == new and _errors(before) == _errors(after)
            same = same and identical
            print(
                f"{'identical' if identical else 'DIFFERENT'}: {target}: {len(old)} findings before, {len(new)} after;"
                f" {base_time:.1f} s before, {new_time:.1f} s after (wall, --jobs {jobs})"
            )
            if not identical:
                lost, gained = sorted(set(old) - set(new)), sorted(set(new) - set(old))
                for line in lost[:20]:
                    print(f"  only before: {line}")
                for line in gained[:20]:
                    print(f"  only after:  {line}")
                if _errors(before) != _errors(after):
                    print(f"  errors before: {_errors(before)}\n  errors after:  {_errors(after)}")
    return same


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="git revision to compare against")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("targets", nargs="+")
    args = parser.parse_args(list(argv) or None)
    with tempfile.TemporaryDirectory(prefix="resilint-base-") as exported:
        base_src = _export(args.base, exported)
        # A copy of the working tree's src/, so that editing it while the comparison runs
        # changes neither side.
        new_src = os.path.join(exported, "working-tree", "src")
        shutil.copytree(os.path.join(REPO, "src"), new_src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        print(f"base {args.base} vs working tree {REPO}/src (copied at the start)")
        return 0 if compare(base_src, new_src, args.targets, args.jobs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
