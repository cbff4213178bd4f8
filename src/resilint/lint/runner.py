"""Running the checker over many files in worker processes, with results identical to one process."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Set, Tuple

from resilint.lint.cache import ResultCache, file_key
from resilint.lint.config import Settings
from resilint.lint.discovery import discover
from resilint.lint.finding import Finding, RunResult, Withdrawn, without_withdrawn
from resilint.lint.jobs import MAX_JOBS_PER_CORE, default_jobs
from resilint.lint.modules import ModuleFinder, module_names, project_roots
from resilint.lint.signals import deferred_signals
from resilint.lint.source import SourceError, content_digest, decode, line_text, python_lines, read_bytes
from resilint.lint.summary import ModuleSummary, PackedSummary, unpack_all

# What analyses files (the checker, its rules, LibCST) is imported only when a file must be
# analysed: a run the cache answers whole prints its findings without it.
if TYPE_CHECKING:  # pragma: no cover
    from resilint.lint.checker import FixEdits
    from resilint.lint.workers import Outcome, Task

_NO_OUTCOME: "Outcome" = ([], None, None, None)

# Below this many files a second worker costs more to start than it saves.
_POOL_THRESHOLD = 16

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
    keep_summaries: bool = False,
    contents: Optional[Mapping[str, bytes]] = None,
    fix_edits: Optional["FixEdits"] = None,
) -> RunResult:
    """Check ``paths``; ``keep_summaries``: the result also holds every module summary the
    project pass read (``resilint fix`` re-runs that pass with a file's new summary).

    ``fix_edits``: what computes the edits of the findings' fixes (``resilint.fixing``), for a
    report that shows them or a command that applies them; without it a fixable finding carries
    its rule's declared fix only (``Fix.edits`` None). A cached result whose fixes were only
    declared is not used when edits are asked for: the file is checked again (and its entry
    then holds the edits).

    ``contents``: files checked from the given bytes rather than from disk (standard input, as
    if it were the file of that path: its configuration, module name and project are those of
    the path); they are checked besides ``paths`` and never cached."""
    discovered = discover(paths, settings)
    given = {display_path(path): data for path, data in (contents or {}).items()}
    files = [display_path(p) for p in discovered.files if display_path(p) not in given] + list(given)
    result = RunResult(errors=list(discovered.errors), files_checked=len(files))
    roots = project_roots(settings)
    consulted = _consult_cache(files, cache, result.digests, roots, settings.max_file_size, given, fix_edits is not None)
    result.from_cache = [path for path, _, _ in consulted.hits]
    result.findings = [f for _, _, batch in consulted.hits for f in batch]
    project_rules = _has_project_rules(codes)
    meanwhile = None
    if cache is not None and project_rules and consulted.hits and consulted.tasks:
        # A file changed, so the project pass runs again: the cached summaries are decoded
        # while the workers check the changed files, not after.
        hit_keys = [key for _, key, _ in consulted.hits]
        meanwhile = lambda finished: cache.decode_summaries(hit_keys, finished)  # noqa: E731
    fresh = _check_all(consulted.tasks, settings, codes, jobs, progress, len(consulted.hits), len(files), meanwhile, fix_edits)
    for (path, _), (_, _, _, digest) in zip(consulted.tasks, fresh):
        if digest is not None:
            result.digests[path] = digest  # what the findings come from, even if it changed since
    packed = _store(cache, consulted.keys, fresh, consulted.digests)
    result.findings.extend(f for batch, _, _, _ in fresh for f in batch)
    result.errors.extend(error for _, error, _, _ in fresh if error is not None)
    del fresh  # its summaries are in ``packed``, which the project pass empties as it unpacks
    if project_rules:
        project, withdrawn = _project_findings(
            consulted, packed, settings, codes, cache, roots, files, result.digests, result, keep_summaries,
        )
        result.findings = without_withdrawn(result.findings, withdrawn) + project
    if cache is not None:
        with deferred_signals():  # a cache file is written whole or not at all
            cache.save()
    result.findings.sort(key=lambda f: f.sort_key)
    return result


def _has_project_rules(codes: Sequence[str]) -> bool:
    """Whether a project rule is among ``codes`` (a project rule reads ``ProjectRule``'s
    summaries: the catalog knows them by their base, without importing them)."""
    from resilint.lint.catalog import project_codes

    return any(code in project_codes() for code in codes)


def _project_findings(
    consulted: "_Consulted", packed: List[PackedSummary], settings: Settings,
    codes: Sequence[str], cache: Optional[ResultCache], roots: Sequence[str], files: Sequence[str],
    digests: Mapping[str, str], result: RunResult, keep_summaries: bool = False,
) -> Tuple[List[Finding], List[Withdrawn]]:
    """The project pass: from the cache when no file it read has changed, else from every
    file's summary (the cached ones, and fresh ones for files whose summary is missing);
    ``keep_summaries``: ``result`` holds those summaries (then the pass itself is never
    skipped), as it holds the errors of rules that crashed. Its findings carry no fix: the
    codemods rewrite what a file's own analysis sees. With them, the file findings it takes
    back (``Withdrawn``)."""
    checked = {path: key for path, key in consulted.keyed}
    every_file_keyed = cache is not None and len(checked) == len(files)
    if every_file_keyed and not keep_summaries:
        assert cache is not None

        names = _ModuleNames(roots)

        def unchanged(path: str, key: str) -> bool:
            keyed = _key_of(path, cache, roots, settings.max_file_size, names)
            return keyed is not None and keyed[0] == key

        # A file edited where its summary does not change (a comment, a docstring, a blank
        # line at its end) leaves the project pass's findings as they were, and one where it
        # only moves lines moves them: only their text of the line, read from the file, may
        # differ.
        edited: Set[str] = set()
        stored = cache.project_findings(checked, unchanged, edited)
        if stored is not None and edited:
            stored = (_with_line_texts(stored[0], edited), stored[1])
            cache.put_project(checked, cache.project_read() or {}, *stored)  # under the files' new keys
        if stored is not None:
            return stored
    from resilint.lint.checker import Checker  # the project pass runs: its rules are needed

    checker = Checker(settings, codes)  # only its project rules run here: no file is parsed
    summaries = unpack_all(packed) + _cached_summaries(consulted.hits, settings, codes, cache, digests)
    extra, read = _imported_summaries(summaries, settings, codes, cache, roots)
    findings = checker.project_findings(summaries + extra, set(files))
    result.errors.extend(checker.project_errors)
    if keep_summaries:
        result.summaries = summaries + extra
    if every_file_keyed and cache is not None and not checker.project_errors:
        cache.put_project(checked, read, findings, checker.project_withdrawn)
    return findings, checker.project_withdrawn


def _with_line_texts(findings: List[Finding], paths: Set[str]) -> List[Finding]:
    """The findings with the text of their line read again in the files ``paths``."""
    lines: Dict[str, List[str]] = {}
    refreshed = []
    for finding in findings:
        if finding.path in paths:
            if finding.path not in lines:
                try:
                    lines[finding.path] = python_lines(decode(read_bytes(finding.path)).text)
                except SourceError:
                    lines[finding.path] = []
            finding = replace(finding, line_text=line_text(lines[finding.path], finding.line))
        refreshed.append(finding)
    return refreshed


def _declared(finding: Finding) -> bool:
    """Whether the finding's fix is only declared (its edits not computed)."""
    return finding.fix is not None and finding.fix.edits is None


def _cached_summaries(
    hits: Sequence[Tuple[str, str, List[Finding]]], settings: Settings, codes: Sequence[str],
    cache: Optional[ResultCache], digests: Mapping[str, str],
) -> List[ModuleSummary]:
    """The summaries of the files whose findings came from the cache; a file whose summary is
    missing or damaged is analysed again for it."""
    found: List[ModuleSummary] = []
    again = _Consulted()
    for path, key, _ in hits:
        summary = cache.summary(key) if cache is not None else None
        if summary is not None:
            found.append(summary)
        else:
            again.add_task(path, key, digests.get(path))
    found.extend(unpack_all(_store(cache, again.keys, _check_all(again.tasks, settings, codes, None), again.digests)))
    return found


def _store(
    cache: Optional[ResultCache], keys: Sequence[Optional[str]], outcomes: Sequence["Outcome"],
    digests: Sequence[Optional[str]],
) -> List[PackedSummary]:
    """Put fresh outcomes in the cache, each under its key if the worker checked the bytes the
    key was made from (``digests``: theirs); their summaries."""
    summaries = []
    for key, (batch, error, summary, checked), digest in zip(keys, outcomes, digests):
        if cache is not None and key is not None and error is None and checked == digest:
            cache.put(key, batch, summary.unpack() if summary is not None else None)
        if summary is not None:
            summaries.append(summary)
    return summaries


def _check_all(
    tasks: Sequence["Task"], settings: Settings, codes: Sequence[str], jobs: Optional[int],
    progress: Optional[Callable[[int, int], None]] = None, done: int = 0, total: int = 0,
    meanwhile: Optional[Callable[[Callable[[], bool]], None]] = None, fix_edits: Optional["FixEdits"] = None,
) -> List["Outcome"]:
    """The outcome of each task, in order, from worker processes (a file that crashes one
    costs one RES000, never the run); ``meanwhile`` runs in this process as they start, until
    one has finished a file (a decoding of cached summaries the project pass may not need: a
    file edited in a comment leaves its findings as they were)."""
    fresh: List["Outcome"] = [_NO_OUTCOME] * len(tasks)
    if not tasks:
        return fresh
    from resilint.lint.workers import WorkerPool

    with WorkerPool(settings, codes, worker_count(jobs, len(tasks)), fix_edits) as pool:
        for index, outcome in pool.check(tasks, meanwhile):
            fresh[index] = outcome
            done += 1
            if progress is not None:
                progress(done, total)
    return fresh


def imported_summaries(
    summaries: List[ModuleSummary], settings: Settings, codes: Sequence[str], cache: Optional[ResultCache],
    project: Sequence[str],
) -> List[ModuleSummary]:
    """The summaries of the project modules that ``summaries`` reach (their calls and imports,
    transitively), from the cache where it has them: what a project pass over a few files
    (standard input, the language server's open documents) resolves their names through."""
    return _imported_summaries(summaries, settings, codes, cache, project)[0]


def _imported_summaries(
    summaries: List[ModuleSummary], settings: Settings, codes: Sequence[str], cache: Optional[ResultCache],
    project: Sequence[str],
) -> Tuple[List[ModuleSummary], Dict[str, str]]:
    """Summaries of the project modules that the checked files reach but that were not checked
    (pre-commit passes only the staged files), so that names resolve as in a full run, and
    the key of each such file. Their own findings are not reported."""
    known = {name for summary in summaries for name in (summary.module, *summary.aliases)}
    plain = _plain_modules(summaries)
    roots = list(project)
    for summary in summaries:
        root = _import_root(summary.path, summary.module)
        if root is not None and root not in roots:
            roots.append(root)
    finder = ModuleFinder(roots)
    extra: List[ModuleSummary] = []
    read: Dict[str, str] = {}
    frontier = list(summaries)
    while frontier:
        wanted = {module for summary in frontier for module in _referenced_modules(summary, plain)} - known
        if not wanted:
            break
        paths = sorted({display_path(path) for path in map(finder.find, wanted) if path is not None})
        known.update(wanted)
        digests: Dict[str, str] = {}
        consulted = _consult_cache(paths, cache, digests, project, settings.max_file_size)
        read.update(consulted.keyed)
        frontier = _cached_summaries(consulted.hits, settings, codes, cache, digests)
        checked = _check_all(consulted.tasks, settings, codes, None)
        frontier.extend(unpack_all(_store(cache, consulted.keys, checked, consulted.digests)))
        known.update(summary.module for summary in frontier)
        plain.update(_plain_modules(frontier))
        extra.extend(frontier)
    return extra, read


def _referenced_modules(summary: ModuleSummary, plain: Set[str]) -> Iterator[str]:
    """Every dotted prefix of the names a module calls or imports: the modules they may live in.
    A name inside a known module that is no package (``pkg.mod.Class.method``) lives in it."""
    names = set(summary.imports.values())
    names.update(call.target for function in summary.functions.values() for call in function.calls)
    for name in names:
        parts = name.split(".")
        for cut in range(1, len(parts) + 1):
            prefix = ".".join(parts[:cut])
            yield prefix
            if prefix in plain:
                break


def _plain_modules(summaries: Sequence[ModuleSummary]) -> Set[str]:
    """The names of the modules among ``summaries`` that are not packages."""
    return {
        name for summary in summaries if not os.path.basename(summary.path).startswith("__init__.")
        for name in (summary.module, *summary.aliases)
    }


def _import_root(path: str, module: str) -> Optional[str]:
    """The directory ``module`` is imported from (``src/`` for ``src/app/x.py`` = ``app.x``)."""
    directory = os.path.dirname(os.path.abspath(path))
    depth = module.count(".") + (1 if os.path.basename(path).startswith("__init__.") else 0)
    for _ in range(depth):
        directory = os.path.dirname(directory)
    return directory if module else None


def _key_of(
    path: str, cache: ResultCache, roots: Sequence[str], max_file_size: int, names: "_ModuleNames",
) -> Optional[Tuple[str, str]]:
    """The file's cache key and content digest: the ones the cache recorded when a ``stat`` of
    the file says it has not changed since (the usual warm run: one stat per file), else made
    from its bytes. None when it cannot be read."""
    try:
        info = os.stat(path)
    except OSError:
        info = None
    module = names.of(path)
    if info is not None:
        known = cache.known_key(path, info, module)
        if known is not None:
            return known
    try:
        data = read_bytes(path, max_file_size)
    except SourceError:
        return None
    digest = content_digest(data)
    key = file_key(path, data, roots, module)
    if info is not None:
        cache.record_key(path, info, module, key, digest)
    return key, digest


class _ModuleNames:
    """``module_names`` of the files of one run, the packages around each directory found once."""

    def __init__(self, roots: Sequence[str]) -> None:
        self.roots = roots
        self._packages: Dict[str, bool] = {}

    def of(self, path: str) -> List[str]:
        return module_names(path, self.roots, self._is_package)

    def _is_package(self, directory: str) -> bool:
        found = self._packages.get(directory)
        if found is None:
            found = self._packages[directory] = os.path.isfile(os.path.join(directory, "__init__.py"))
        return found


class _Consulted:
    """Files split into cache hits (path, key, findings) and tasks still to check (with their
    keys, None where there is nothing to cache, and the digests the keys were made from), and
    the key of every file that has one."""

    def __init__(self) -> None:
        self.hits: List[Tuple[str, str, List[Finding]]] = []
        self.tasks: List["Task"] = []
        self.keys: List[Optional[str]] = []
        self.digests: List[Optional[str]] = []
        self.keyed: List[Tuple[str, str]] = []

    def add_task(self, path: str, key: Optional[str] = None, digest: Optional[str] = None, data: Optional[bytes] = None) -> None:
        """``path`` to be checked by a worker (which reads it, unless ``data`` is given), its
        findings to be cached under ``key`` if the worker checks the bytes of ``digest``."""
        self.tasks.append((path, data))
        self.keys.append(key)
        self.digests.append(digest)


def _consult_cache(
    files: Sequence[str], cache: Optional[ResultCache], digests: Dict[str, str], roots: Sequence[str],
    max_file_size: int, given: Optional[Mapping[str, bytes]] = None, edits_wanted: bool = False,
) -> _Consulted:
    """Which files the cache answers, and the digest of the bytes each answer comes from.
    Without a cache no file is read here: the workers read them. The ``given`` files are
    checked from their bytes, never answered by the cache nor stored in it; with
    ``edits_wanted``, neither is a file whose cached fixes were only declared."""
    consulted = _Consulted()
    names = _ModuleNames(roots)
    for path in files:
        if given and path in given:
            digests[path] = content_digest(given[path])
            consulted.add_task(path, None, digests[path], given[path])
            continue
        if cache is None:
            consulted.add_task(path)
            continue
        keyed = _key_of(path, cache, roots, max_file_size, names)
        if keyed is None:
            consulted.add_task(path)  # the checker reports why it cannot be read; nothing to cache
            continue
        key, digests[path] = keyed
        consulted.keyed.append((path, key))
        found = cache.get(key)
        if found is not None and not (edits_wanted and any(_declared(f) for f in found)):
            consulted.hits.append((path, key, found))
        else:
            consulted.add_task(path, key, digests[path])
    return consulted
