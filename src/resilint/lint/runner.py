"""Running the checker over many files in worker processes, with results identical to one process."""

from __future__ import annotations

import os
from typing import Callable, List, Optional, Sequence, Tuple

from resilint.lint.cache import ResultCache, file_key
from resilint.lint.config import Settings
from resilint.lint.discovery import discover
from resilint.lint.finding import Finding, RunResult
from resilint.lint.signals import deferred_signals
from resilint.lint.source import SourceError, read_bytes
from resilint.lint.workers import Outcome, Task, WorkerPool

# Below this many files a second worker costs more to start than it saves.
_POOL_THRESHOLD = 16
# More workers than cores only add memory; a cap keeps `--jobs 100000` from forking 100,000.
MAX_JOBS_PER_CORE = 4


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def worker_count(jobs: Optional[int], files: int) -> int:
    """The workers for ``files`` files: ``jobs`` (default: the cores), capped at 4x the cores
    and at the number of files; one for a few files."""
    if files < _POOL_THRESHOLD:
        return 1
    cores = default_jobs()
    return max(1, min(jobs or cores, MAX_JOBS_PER_CORE * cores, files))


def display_path(path: str) -> str:
    """Paths as the user gave them, normalised; absolute ones under the cwd made relative."""
    if os.path.isabs(path):
        relative = os.path.relpath(path)
        if not relative.startswith(".."):
            return relative
        return path
    return os.path.normpath(path)


def run(
    paths: Sequence[str],
    settings: Settings,
    codes: Sequence[str],
    jobs: Optional[int] = None,
    progress: Optional[Callable[[int, int], None]] = None,
    cache: Optional[ResultCache] = None,
) -> RunResult:
    discovered = discover(paths, settings)
    files = [display_path(p) for p in discovered.files]
    result = RunResult(errors=list(discovered.errors), files_checked=len(files))
    tasks, keys, cached = _consult_cache(files, cache, settings.max_file_size)
    result.findings = [f for batch in cached for f in batch]
    fresh: List[Outcome] = [([], None)] * len(tasks)
    done = len(cached)
    if tasks:
        with WorkerPool(settings, codes, worker_count(jobs, len(tasks))) as pool:
            for index, outcome in pool.check(tasks):
                fresh[index] = outcome
                done += 1
                if progress is not None:
                    progress(done, len(files))
    if cache is not None:
        for key, (batch, error) in zip(keys, fresh):
            if key is not None and error is None:
                cache.put(key, batch)
        with deferred_signals():  # a cache file is written whole or not at all
            cache.save()
    result.findings.extend(f for batch, _ in fresh for f in batch)
    result.errors.extend(error for _, error in fresh if error is not None)
    result.findings.sort(key=lambda f: f.sort_key)
    return result


def _consult_cache(
    files: Sequence[str], cache: Optional[ResultCache], max_file_size: int
) -> Tuple[List[Task], List[Optional[str]], List[List[Finding]]]:
    """Split files into cache hits (their findings) and tasks still to check."""
    if cache is None:
        return [(path, None) for path in files], [None] * len(files), []
    tasks: List[Task] = []
    keys: List[Optional[str]] = []
    hits: List[List[Finding]] = []
    for path in files:
        try:
            data = read_bytes(path, max_file_size)
        except SourceError:
            tasks.append((path, None))  # the checker reports why; nothing to cache
            keys.append(None)
            continue
        key = file_key(path, data)
        found = cache.get(key)
        if found is not None:
            hits.append(found)
        else:
            tasks.append((path, data))
            keys.append(key)
    return tasks, keys, hits
