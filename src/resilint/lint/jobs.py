"""How many worker processes a run may have: read by the runner, and by the CLI's help
without importing the runner (which imports LibCST)."""

from __future__ import annotations

import os

# More workers than cores only add memory; a cap keeps `--jobs 100000` from forking 100,000.
MAX_JOBS_PER_CORE = 4


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1
