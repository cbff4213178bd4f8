"""``python bench/_in_process.py check ...``: ``resilint check`` with every file checked in this
one process instead of worker processes, for cProfile.

The worker pool exists so that a crash of LibCST's native parser costs one file; it also means
that a profile of the command sees only the main process waiting on its workers. Here the
runner's ``_check_all`` checks each task on the spot (the same ``check_task`` a worker runs),
and everything else (discovery, settings, the project pass, the report) is the real command's.
"""

from __future__ import annotations

import gc
import sys
from typing import Any, List

from resilint.cli import _GC_THRESHOLDS, main
from resilint.lint import runner, workers
from resilint.lint.checker import Checker


def _check_here(
    tasks: Any, settings: Any, codes: Any, jobs: Any, progress: Any = None, done: int = 0, total: int = 0,
    meanwhile: Any = None, fix_edits: Any = None,
) -> List[Any]:
    checker = Checker(settings, codes, fix_edits=fix_edits)  # as a worker's
    if meanwhile is not None:
        meanwhile(lambda: False)
    return [workers.check_task(checker, task) for task in tasks]


if __name__ == "__main__":
    gc.set_threshold(*_GC_THRESHOLDS)  # as the ``resilint`` command sets them
    runner._check_all = _check_here  # type: ignore[assignment]
    sys.argv[0] = "resilint"
    main()
