"""Edits that only move lines, checked on a real project: the cached run, which may move the
last project pass's findings (``lint/line_shift.py``), against a run without the cache.

    python bench/line_moves.py PROJECT [--trials 12] [--seed 1] [--resilint resilint]

Copies PROJECT to a temporary directory, checks it once with a result cache, then for each
trial inserts one to three lines (blank, ``# note`` or an indented ``# note``) at random places
of one file (most often one the project pass reports in), checks the copy with the cache and
without it (``--select ALL --format json``), and compares the two reports. Prints one line per
trial with both times; exits 1 when any trial differs. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional

# The codes only the project pass reports: a file that has them is where moved findings matter.
PROJECT_CODES = ("RES001", "RES102", "RES201", "RES202", "RES203", "RES204", "RES301")


def _check(resilint: str, root: Path, *extra: str) -> dict:
    done = subprocess.run(
        [resilint, "check", ".", "--select", "ALL", "--exit-zero", "--format", "json", *extra],
        cwd=root, capture_output=True, text=True, check=True,
    )
    return json.loads(done.stdout)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--trials", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resilint", default="resilint", help="the resilint command to run")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary) / args.project.name
        shutil.copytree(args.project, root)
        cache = ("--cache-dir", str(Path(temporary) / "cache"))
        first = _check(args.resilint, root, *cache)
        files = sorted(root.rglob("*.py"))
        reported = sorted({f["path"] for f in first["findings"] if f["code"] in PROJECT_CODES})
        different = 0
        for trial in range(args.trials):
            path = root / rng.choice(reported) if reported and rng.random() < 0.7 else rng.choice(files)
            lines = path.read_text(encoding="utf-8", errors="surrogateescape").split("\n")
            for _ in range(rng.randint(1, 3)):
                lines.insert(rng.randrange(len(lines) + 1), rng.choice(["", "# note", "    # note"]))
            path.write_text("\n".join(lines), encoding="utf-8", errors="surrogateescape")
            started = time.perf_counter()
            cached = _check(args.resilint, root, *cache)
            middle = time.perf_counter()
            fresh = _check(args.resilint, root, "--no-cache")
            ended = time.perf_counter()
            same = cached["findings"] == fresh["findings"]
            different += not same
            print(f"{trial} {path.relative_to(root)}: {'same' if same else 'DIFFERENT'}, "
                  f"cached {middle - started:.1f} s, no cache {ended - middle:.1f} s", flush=True)
        print(f"{different} of {args.trials} trials differ")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
