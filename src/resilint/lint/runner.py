"""Running the checker over many files, in a process pool, with results identical to one process."""

from __future__ import annotations

import os
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from resilint.lint.cache import ResultCache, file_key
from resilint.lint.checker import Checker
from resilint.lint.config import Settings
from resilint.lint.discovery import discover
from resilint.lint.finding import AnalysisError, Finding, RunResult
from resilint.lint.source import SourceError, content_digest, read_bytes

# Below this many files a pool costs more to start than it saves.
_POOL_THRESHOLD = 16
_worker_checker: Optional[Checker] = None


def _init_worker(settings: Settings, codes: Sequence[str]) -> None:
    global _worker_checker
    _worker_checker = Checker(settings, codes)


Task = Tuple[str, Optional[bytes]]  # a path, and its bytes when the main process read them
Outcome = Tuple[List[Finding], Optional[AnalysisError]]


def _check_in_worker(task: Task) -> Outcome:
    assert _worker_checker is not None
    return _check(_worker_checker, task)


def _check(checker: Checker, task: Task) -> Outcome:
    """One file's findings; a bug in resilint on this file is an error of the run (exit 2),
    reported with the file's path, and the other files are still checked."""
    path, data = task
    try:
        return (checker.check_path(path) if data is None else checker.check_bytes(data, path)), None
    except Exception as exc:  # noqa: BLE001 - any bug, reported rather than fatal
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return [], AnalysisError(path, f"internal error while checking this file: {detail}")


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


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
    tasks, keys, cached = _consult_cache(files, cache, result.digests)
    result.findings = [f for batch in cached for f in batch]
    jobs = jobs or default_jobs()
    per_file: Iterable[Outcome]
    if jobs <= 1 or len(tasks) < _POOL_THRESHOLD:
        checker = Checker(settings, codes)
        per_file = (_check(checker, task) for task in tasks)
        fresh = _collect(per_file, len(files), len(cached), progress)
    else:
        try:
            with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(settings, codes)) as pool:
                chunksize = max(1, min(32, len(tasks) // (jobs * 8) or 1))
                per_file = pool.map(_check_in_worker, tasks, chunksize=chunksize)
                fresh = _collect(per_file, len(files), len(cached), progress)
        except BrokenProcessPool as exc:  # a worker died (killed, out of memory): say so
            result.errors.append(AnalysisError(".", f"a worker process died: {exc}"))
            fresh = []
    if cache is not None:
        for key, (batch, error) in zip(keys, fresh):
            if key is not None and error is None:
                cache.put(key, batch)
        cache.save()
    result.findings.extend(f for batch, _ in fresh for f in batch)
    result.errors.extend(error for _, error in fresh if error is not None)
    result.findings.sort(key=lambda f: f.sort_key)
    return result


def _consult_cache(
    files: Sequence[str], cache: Optional[ResultCache], digests: Dict[str, str]
) -> Tuple[List[Task], List[Optional[str]], List[List[Finding]]]:
    """Split files into cache hits (their findings) and tasks still to check, and record the
    digest of the bytes each file's findings come from (so they are read here, cache or not)."""
    tasks: List[Task] = []
    keys: List[Optional[str]] = []
    hits: List[List[Finding]] = []
    for path in files:
        try:
            data = read_bytes(path)
        except SourceError:
            tasks.append((path, None))  # the checker reports why; nothing to cache
            keys.append(None)
            continue
        digests[path] = content_digest(data)
        if cache is None:
            tasks.append((path, data))
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


def _collect(
    per_file: Iterable[Outcome], total: int, done: int, progress: Optional[Callable[[int, int], None]]
) -> List[Outcome]:
    batches: List[Outcome] = []
    for batch in per_file:
        batches.append(batch)
        if progress is not None:
            progress(done + len(batches), total)
    return batches
