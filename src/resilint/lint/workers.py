"""Worker processes that check files, so that a file which crashes the parser costs one RES000
instead of the run.

LibCST's parser is native code: on a pathological file it can overflow the C stack or run out
of memory, which kills the process instead of raising. So files are always checked in worker
processes (one with ``--jobs 1``), never in the main process, and a worker holds one file at
a time. When a worker dies, the file it held is checked once more, alone, in a fresh process:
if that one dies too, the file is one RES000 saying how; if not (the worker was killed from
outside), its result counts. A replacement worker carries on with the other files.

Each worker also

* checks files on a thread with a large stack and a high recursion limit (``deep_stack``, the
  fixer's budget too), so that deep but real code (hundreds of concatenated strings, long
  ``elif`` chains) is analysed instead of stopping at Python's default limit of 1,000 frames;
* bounds its address space (``RLIMIT_AS``, where the platform enforces it) to what it started
  with plus ``MEMORY_LIMIT``: a file that needs more fails with MemoryError, a RES000;
* ignores SIGINT, which Ctrl-C sends to the whole process group: the main process decides,
  and stops the workers itself; and it exits on its own once the main process is gone.
"""

from __future__ import annotations

import faulthandler
import gc
import multiprocessing
import os
import signal
import sys
import tempfile
import traceback
from collections import deque
from multiprocessing.connection import wait
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, Sequence, Tuple

from resilint.lint.checker import Checker, FixEdits, analysis_error
from resilint.lint.config import Settings
from resilint.lint.deep_stack import call_with_deep_stack
from resilint.lint.finding import AnalysisError, Finding
from resilint.lint.source import SourceError, content_digest, read_bytes
from resilint.lint.summary import PackedSummary

MEMORY_LIMIT = 2 << 30
# A worker that holds no file wakes up this often to see whether the main process is gone.
_PARENT_CHECK_SECONDS = 1.0
# Workers that die before they are given a file: the platform cannot run them; stop trying.
_MAX_FAILED_STARTS = 3

Task = Tuple[str, Optional[bytes]]  # a path, and its bytes if the caller has them
# A file's findings, the error of the run it caused, its summary for the project pass, and the
# ``content_digest`` of the bytes checked (None: unreadable).
Outcome = Tuple[List[Finding], Optional[AnalysisError], Optional[PackedSummary], Optional[str]]
NOTHING: Outcome = ([], None, None, None)


def check_task(checker: Checker, task: Task) -> Outcome:
    """One file's findings; a bug in resilint on this file is an error of the run (exit 2),
    reported with the file's path, and the other files are still checked.

    The file is read here, not by the main process: a main process holding the whole tree's
    source would also lend it to every worker it forks (their resident size counts it again)."""
    path, data = task
    if data is None:
        try:
            data = read_bytes(path, checker.settings.max_file_size)
        except SourceError:
            pass  # ``check_file`` reads it again and reports why it cannot
    digest = content_digest(data) if data is not None else None
    try:
        result = checker.check_file(data, path)
        return result.findings, None, PackedSummary.pack(result.summary) if result.summary is not None else None, digest
    except Exception as exc:  # noqa: BLE001 - any bug, reported rather than fatal
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return [], AnalysisError(path, f"internal error while checking this file: {detail}"), None, None


# --- inside a worker ------------------------------------------------------------------------


def _serve(
    connection: Any, settings: Settings, codes: Sequence[str], parent: int, stderr: Optional[str],
    fix_edits: Optional[FixEdits] = None,
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the main process's handler, inherited by fork
    faulthandler.disable()  # a crash here is reported as a RES000, not as a dump of Python stacks
    if stderr is not None:  # a re-check: what native code says as it dies explains the crash
        with open(stderr, "wb") as handle:
            os.dup2(handle.fileno(), 2)
    call_with_deep_stack(_answer, connection, Checker(settings, codes, fix_edits=fix_edits), parent)


def _answer(connection: Any, checker: Checker, parent: int) -> None:
    # Bounded from here, on the thread with the deep stack: what the process holds now
    # includes that stack, however it came (glibc reuses the cached stack of a thread that
    # exited in the parent before the fork, such as the fixer's); bounding before the thread
    # existed and adding its size allowed that much more whenever the stack was reused.
    _limit_memory()
    while True:
        if not connection.poll(_PARENT_CHECK_SECONDS):
            if os.getppid() != parent:
                return  # orphaned: the main process was killed
            continue
        try:
            message = connection.recv()
        except EOFError:
            return
        if message is None:
            return
        index, task = message
        del message
        outcome = check_task(checker, task)
        del task  # the file's bytes, text and trees are garbage from here on
        _release_freed_memory()
        connection.send((index, outcome))
        del outcome


def _release_freed_memory() -> None:
    """Give back the memory of the file just checked. Its semantic model is full of reference
    cycles (scopes and their parents, memoised facts), so it is freed only when Python's
    cyclic collector next runs a full pass; and glibc keeps freed heap (LibCST's native parser
    allocates with ``malloc``) mapped. So every worker rested at the size of the largest file
    it had met (a 12k-line file peaks at about 200 MB). Collecting and trimming after every
    file costs about 5 % of the CPU, so it is done once the worker holds ``_TRIM_ABOVE``
    more than after its first file."""
    global _resting
    resident = _resident()
    if resident is None:
        return
    if _resting is None:
        _resting = resident
    elif resident > _resting + _TRIM_ABOVE:
        gc.collect()
        if _TRIM is not None:
            _TRIM(0)
        # What a worker keeps after trimming (fragmented heap) is its new floor: else a worker
        # resting just above the bar would collect after every file.
        _resting = max(_resting, _resident() or 0)


def _malloc_trim() -> Optional[Callable[[int], int]]:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim  # type: ignore[no-any-return]
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None


_TRIM = _malloc_trim()
_TRIM_ABOVE = 48 << 20
_resting: Optional[int] = None  # the worker's resident size after its first file


def _limit_memory() -> None:
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    used = _address_space()
    if used is None:  # pragma: no cover - no /proc: the limit could not be relative
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = used + MEMORY_LIMIT
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft != resource.RLIM_INFINITY and soft <= limit:
        return  # already bounded more tightly by the user
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):  # pragma: no cover
        pass


def _address_space() -> Optional[int]:
    return _statm(0)


def _resident() -> Optional[int]:
    return _statm(1)


def _statm(field: int) -> Optional[int]:
    """Bytes of this process from ``/proc/self/statm``: 0 its address space, 1 resident."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[field]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        return None


# --- in the main process --------------------------------------------------------------------


class _Worker:
    def __init__(
        self, context: Any, settings: Settings, codes: Sequence[str], alone: Optional[int], fix_edits: Optional[FixEdits],
    ) -> None:
        # A re-check of one file after a worker died on it: if this one dies too, the file is why.
        self.alone = alone
        self.stderr: Optional[str] = None
        if alone is not None:
            descriptor, self.stderr = tempfile.mkstemp(prefix="resilint-", suffix=".stderr")
            os.close(descriptor)
        ours, theirs = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(theirs, settings, codes, os.getpid(), self.stderr, fix_edits),
            name="resilint-worker", daemon=True,
        )
        try:
            self.process.start()
        except OSError:
            ours.close()
            self.discard()
            raise
        finally:
            theirs.close()
        self.connection = ours
        self.held: Optional[int] = None  # the index of the task being checked

    def last_words(self) -> str:
        """The last line the process wrote to its standard error (a re-check's only)."""
        if self.stderr is None:
            return ""
        try:
            with open(self.stderr, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                handle.seek(max(0, handle.tell() - 4096))
                lines = handle.read().decode("utf-8", "replace").strip().splitlines()
        except OSError:
            return ""
        return lines[-1].strip()[:200] if lines else ""

    def discard(self) -> None:
        if hasattr(self, "connection"):
            self.connection.close()
        if self.stderr is not None:
            try:
                os.unlink(self.stderr)
            except OSError:
                pass


class WorkerPool:
    """``size`` worker processes; ``check`` yields ``(index, outcome)`` as files finish.

    Use it as a context manager: leaving it, normally or by an exception (Ctrl-C, SIGTERM),
    ends every worker.
    """

    def __init__(self, settings: Settings, codes: Sequence[str], size: int, fix_edits: Optional[FixEdits] = None) -> None:
        self.settings = settings
        self.codes = codes
        self.size = size
        self.fix_edits = fix_edits  # the findings' fixes get their edits (``Checker``)
        self.context = multiprocessing.get_context()
        self.workers: List[_Worker] = []
        self.failed_starts = 0

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, kind: Any, *_: Any) -> None:
        self.close(abort=kind is not None)

    def check(
        self, tasks: Sequence[Task], meanwhile: Optional[Callable[[Callable[[], bool]], None]] = None,
    ) -> Iterator[Tuple[int, Outcome]]:
        """``meanwhile``: work for the main process while the workers check their first files,
        given a test of whether one has finished (it may stop then, and go on later)."""
        waiting: Deque[int] = deque(range(len(tasks)))
        for _ in range(min(self.size, len(tasks))):
            self._start()
        while self.workers:
            for worker in self.workers:
                if worker.held is None:
                    self._give(worker, waiting, tasks)
            if meanwhile is not None:
                meanwhile(self._finished)
                meanwhile = None
            busy = [worker for worker in self.workers if worker.held is not None]
            if not busy:
                break
            by_end: Dict[Any, _Worker] = {}
            for worker in busy:
                by_end[worker.connection] = by_end[worker.process.sentinel] = worker
            ready = {id(by_end[end]): by_end[end] for end in wait(list(by_end))}
            for worker in ready.values():
                yield from self._collect(worker, waiting, tasks)
        for index in waiting:  # left only when workers keep dying before they get a file
            path = tasks[index][0]
            yield index, ([], AnalysisError(path, "not checked: worker processes could not be started"))

    def _finished(self) -> bool:
        """Whether a busy worker has sent its outcome, or ended."""
        ends = [end for worker in self.workers if worker.held is not None for end in (worker.connection, worker.process.sentinel)]
        return bool(ends) and bool(wait(ends, timeout=0))

    def close(self, abort: bool = False) -> None:
        workers, self.workers = self.workers, []
        for worker in workers:
            if abort or worker.held is not None:
                worker.process.terminate()
            else:
                self._stop(worker)
        for worker in workers:
            worker.process.join(1.0 if abort else 5.0)
            if worker.process.is_alive():  # pragma: no cover - did not stop in time
                worker.process.kill()
                worker.process.join()
            worker.discard()

    # --- steps ---------------------------------------------------------------------------

    def _start(self, alone: Optional[int] = None) -> None:
        try:
            self.workers.append(_Worker(self.context, self.settings, self.codes, alone, self.fix_edits))
        except OSError:  # no more processes allowed (EAGAIN): the files wait for the others
            self.failed_starts += 1

    def _give(self, worker: _Worker, waiting: Deque[int], tasks: Sequence[Task]) -> None:
        index = worker.alone
        if index is None:
            if not waiting:
                return
            index = waiting.popleft()
        try:
            worker.connection.send((index, tasks[index]))
        except OSError:  # it died already; its sentinel tells, and the file is given again
            if worker.alone is None:
                waiting.appendleft(index)
            return
        worker.held = index

    def _collect(self, worker: _Worker, waiting: Deque[int], tasks: Sequence[Task]) -> Iterator[Tuple[int, Outcome]]:
        try:
            if worker.connection.poll():
                index, outcome = worker.connection.recv()
                worker.held = None
                _release_bytes(tasks, index)
                if worker.alone is not None:  # the re-check passed: the death was not this file's
                    self._stop(worker)
                    self._retire(worker)
                yield index, outcome
                return
        except (EOFError, OSError):
            pass  # it died; the pipe is closed
        if not worker.process.is_alive():
            yield from self._died(worker, waiting, tasks)

    def _died(self, worker: _Worker, waiting: Deque[int], tasks: Sequence[Task]) -> Iterator[Tuple[int, Outcome]]:
        said = worker.last_words()
        self._retire(worker)
        if worker.held is None:
            self.failed_starts += 1  # it died before it was given a file
        suspect = worker.held if worker.held is not None else worker.alone
        if worker.alone is not None and worker.held is not None:
            cause = _cause(worker.process.exitcode) + (f": {said}" if said else "")
            crashed = SourceError(f"the parser crashed on this file ({cause})")
            yield worker.held, ([analysis_error(tasks[worker.held][0], crashed)], None, None, None)
        elif suspect is not None:
            if self.failed_starts > _MAX_FAILED_STARTS:
                waiting.appendleft(suspect)
            else:
                self._start(alone=suspect)  # check it alone: is it the file, or was it killed?
        if worker.alone is None and waiting and self.failed_starts <= _MAX_FAILED_STARTS:
            self._start()

    def _stop(self, worker: _Worker) -> None:
        try:
            worker.connection.send(None)
        except OSError:
            worker.process.terminate()

    def _retire(self, worker: _Worker) -> None:
        self.workers.remove(worker)
        worker.process.join()
        worker.discard()


def _release_bytes(tasks: Sequence[Task], index: int) -> None:
    """A finished file's bytes are not needed again: the main process read every file up front
    (for its digest), and would otherwise hold the whole tree's source until the end."""
    if isinstance(tasks, list) and tasks[index][1] is not None:
        tasks[index] = (tasks[index][0], None)


def _cause(exitcode: Optional[int]) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"its process was killed by {name}"
    return f"its process exited with status {exitcode}"
