"""The ``resilint`` command: check, fix, codemod, codemods, rules, rule, server, version."""

from __future__ import annotations

import functools
import io
import gc
import os
import stat
import sys
import tempfile
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Sequence, TextIO, Tuple

import click

from resilint import __version__
from resilint.lint.jobs import MAX_JOBS_PER_CORE, default_jobs
from resilint.lint.report import format_names
from resilint.lint.signals import Terminated, terminated_by_sigterm

# The commands that only print what resilint declares (--version, rules, rule, codemods)
# start in a tenth of the time when nothing imports LibCST: what checks code is imported by
# the commands that check (tests/cli/test_startup.py).
if TYPE_CHECKING:  # pragma: no cover
    from resilint.lint.config import Settings
    from resilint.lint.finding import Finding, RunResult
    from resilint.fixing.fixer import FixOutcome

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
# 128 + the signal's number, as shells report a process that a signal ended.
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143
PROGRESS_MIN_FILES = 200
STATISTICS_FORMATS = ("text", "json")


def _selectors(values: Sequence[str]) -> Tuple[str, ...]:
    """``--select RES1,RES2 --select RES301`` → (RES1, RES2, RES301); an empty part stays, so
    that ``--select ""`` is refused rather than taken for no option at all."""
    return tuple(part.strip().upper() for value in values for part in value.split(","))


def _seconds(ctx: click.Context, param: click.Parameter, value: Optional[float]) -> Optional[float]:
    """``--max-timeout``: click's FloatRange lets ``nan`` and ``inf`` through."""
    from resilint.lint.config import is_positive_seconds

    if value is not None and not is_positive_seconds(value):
        raise click.BadParameter(f"must be a positive number of seconds, got {value}")
    return value


def _fail(message: str) -> "click.exceptions.Exit":
    click.echo(f"resilint: error: {message}", err=True)
    return click.exceptions.Exit(EXIT_ERROR)


def _use_color(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


@contextmanager
def _stdout() -> Iterator[TextIO]:
    """Standard output for a command's output. A write that fails (a full disk, an I/O error)
    is one line on stderr and exit status 2, not a traceback; a closed pipe (``| head``) is
    left to click, which exits quietly."""
    # What click.get_text_stream("stdout") gave (deprecated in click 8.5): sys.stdout, with a
    # usable encoding whatever the locale; in a wrapper that closing leaves open.
    stream = click.open_file("-", "w")
    try:
        yield stream
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        _discard_unwritten(stream)
        raise _fail(f"cannot write to standard output: {exc.strerror or exc}") from None


def _discard_unwritten(stream: TextIO) -> None:
    """Point standard output at the null device, so that the interpreter's own flush of what
    could not be written, at exit, fails no more (it would print a traceback and exit 120)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass  # not a real file descriptor (a test's in-memory stream): nothing flushes it at exit


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    with _stdout() as out:
        out.write(f"resilint {__version__}\n")
    ctx.exit()


def _ends_on_signals(command: Callable[..., None]) -> Callable[..., None]:
    """Ctrl-C exits 130 and SIGTERM 143, after the workers are stopped; without this click
    would turn Ctrl-C into "Aborted!" and exit 1, and SIGTERM would leave the workers behind."""

    @functools.wraps(command)
    def ending(*args: Any, **kwargs: Any) -> None:
        try:
            with terminated_by_sigterm():
                command(*args, **kwargs)
        except KeyboardInterrupt:
            click.echo("resilint: interrupted", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
        except Terminated:
            click.echo("resilint: terminated", err=True)
            raise click.exceptions.Exit(EXIT_TERMINATED) from None

    return ending


_GC_THRESHOLDS = (100_000, 50, 50)


def entry() -> None:
    """The ``resilint`` command: ``main``, then an exit that skips the interpreter's teardown.
    Freeing every summary and finding of a large project one object at a time took a tenth of
    a run whose answers come from the cache; the output is flushed and every file was written
    and closed before, so nothing is lost (mypy exits the same way)."""
    # Checking a file allocates millions of short-lived objects and the project pass hundreds
    # of thousands of long-lived ones: at CPython's default thresholds the collector scanned
    # them over and over (half the time of reading the cached summaries, a tenth of a cold
    # check). Forked workers inherit this; the cycles of a file's semantic model are still
    # collected, less often (and at once when a worker grows, lint/workers.py).
    gc.set_threshold(*_GC_THRESHOLDS)
    try:
        main()
    except SystemExit as exit:
        code = exit.code
    else:
        code = 0
    if code is not None and not isinstance(code, int):
        click.echo(str(code), err=True)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (``| head``): nothing more to say
            pass
    os._exit(code or 0)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", "-V", is_flag=True, expose_value=False, is_eager=True, callback=_print_version, help="Show the version and exit.")
def main() -> None:
    """Find the outbound-call mistakes that turn a slow dependency into an outage."""


def _run_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options of every command that checks files (``check``, ``fix``, ``codemod``):
    selection, configuration, exclusion, standard input, cache, jobs and verbosity, declared
    once."""
    options = [
        click.argument("paths", nargs=-1, type=click.Path()),
        click.option("--select", multiple=True, help="Rule codes or prefixes to enable (replaces the default set); ALL for every rule."),
        click.option("--ignore", multiple=True, help="Rule codes or prefixes to disable."),
        click.option("--extend-select", multiple=True, help="Rule codes or prefixes to enable on top of the selection."),
        click.option("--exclude", multiple=True, help="Files and directories to leave out, replacing the `exclude` setting: names or globs, paths relative to the working directory (comma-separated or repeated)."),
        click.option("--extend-exclude", multiple=True, help="Files and directories to leave out besides those of `exclude`."),
        click.option("--stdin-filename", default=None, help="Read the file from standard input ('-') as if it were PATH: PATH's configuration, per-file-ignores and project apply."),
        click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help=f"Worker processes (default: all cores, {default_jobs()} here; at most {MAX_JOBS_PER_CORE} per core and one per file)."),
        click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None, help="Use this pyproject.toml instead of the nearest one."),
        click.option("--max-timeout", type=float, callback=_seconds, default=None, help="Largest acceptable timeout in seconds (RES105)."),
        click.option("--no-cache", is_flag=True, help="Neither read nor write the result cache."),
        click.option("--cache-dir", type=click.Path(file_okay=False), envvar="RESILINT_CACHE_DIR", default=None, help="Where to keep the result cache (default: .resilint_cache beside the configuration)."),
        click.option("--quiet", "-q", is_flag=True, help="Print the findings and errors only: no summary, no notes."),
        click.option("--verbose", "-v", is_flag=True, help="Also say on stderr which configuration and cache are used, each file checked or answered by the cache, and the time taken."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _fix_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options of the commands that fix (``fix``, ``check --fix``), as in ruff."""
    options = [
        click.option("--unsafe-fixes", is_flag=True, help="Also apply the unsafe fixes (each rule's `Fix safety` says which are)."),
        click.option("--show-fixes", is_flag=True, help="List each fix applied on stderr: file, line, rule and what it changed."),
        click.option("--fixable", multiple=True, help="Rule codes or prefixes whose fixes may be applied (default ALL; replaces the `fixable` setting). Other findings are still reported."),
        click.option("--unfixable", multiple=True, help="Rule codes or prefixes whose fixes are never applied (added to the `unfixable` setting). Their findings are still reported."),
        click.option("--fix-target", type=click.Choice(["auto", "native", "runtime"]), default=None, help="What fixes write for: `native` (what the project already uses), `runtime` (resilint.runtime), `auto` (runtime when the project declares or imports it; replaces the `fix-target` setting)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


class _RunOptions:
    """The values of ``_run_options``."""

    def __init__(
        self, paths: Tuple[str, ...], select: Tuple[str, ...], ignore: Tuple[str, ...], extend_select: Tuple[str, ...],
        exclude: Tuple[str, ...], extend_exclude: Tuple[str, ...], stdin_filename: Optional[str], jobs: Optional[int],
        config_path: Optional[str], max_timeout: Optional[float], no_cache: bool, cache_dir: Optional[str],
        quiet: bool, verbose: bool,
    ) -> None:
        if quiet and verbose:
            raise click.UsageError("--quiet and --verbose cannot be used together")
        self.paths, self.select, self.ignore, self.extend_select = paths, select, ignore, extend_select
        self.exclude, self.extend_exclude, self.stdin_filename = exclude, extend_exclude, stdin_filename
        self.jobs, self.config_path, self.max_timeout = jobs, config_path, max_timeout
        self.no_cache, self.cache_dir, self.quiet, self.verbose = no_cache, cache_dir, quiet, verbose

    def log(self, message: str) -> None:
        """One line on stderr with ``--verbose``."""
        if self.verbose:
            click.echo(f"resilint: {message}", err=True)

    def note(self, message: str) -> None:
        """One line on stderr unless ``--quiet``: a summary or a note, not a finding."""
        if not self.quiet:
            click.echo(message, err=True)


Source = Tuple[str, bytes]  # a file read from standard input: the path it stands for, its bytes


def _stdin_source(options: _RunOptions) -> Optional[Source]:
    """The file to check from standard input, as ruff reads one: ``-`` as the only path, or no
    path and ``--stdin-filename``; None when the paths are files on disk."""
    reads = options.paths == ("-",) or (not options.paths and options.stdin_filename is not None)
    if not reads:
        if "-" in options.paths:
            raise click.UsageError("'-' (standard input) must be the only path")
        if options.stdin_filename is not None:
            raise click.UsageError("--stdin-filename names standard input: give '-' as the only path")
        return None
    return options.stdin_filename or "-", sys.stdin.buffer.read()


def _contents(stdin: Optional[Source]) -> Dict[str, bytes]:
    from resilint.lint.runner import display_path

    return {display_path(stdin[0]): stdin[1]} if stdin is not None else {}


def _prepare(
    options: _RunOptions, stdin: Optional[Source] = None, fix_target: Optional[str] = None,
) -> Tuple[Tuple[str, ...], Settings, List[str]]:
    """The paths (default ``.``; none for standard input, whose file is in ``stdin``), the
    settings and the enabled codes of a command that checks. Standard input's configuration is
    the one its ``--stdin-filename`` would have, found from the file or its directory."""
    from resilint.lint.config import ConfigError, enabled_codes
    from resilint.lint.catalog import rule_catalog as all_rules  # the declarations: no rule is imported

    try:
        os.getcwd()
    except FileNotFoundError:
        raise _fail("the working directory no longer exists; change to one that does") from None
    if stdin is not None:
        name = stdin[0]
        paths: Tuple[str, ...] = ()
        found_from: Sequence[str] = (name if os.path.exists(name) else os.path.dirname(name) or ".",)
    else:
        paths = found_from = options.paths or (".",)
    try:
        settings = _settings(found_from, options)
    except ConfigError as exc:
        raise _fail(str(exc)) from None
    # Resolved for every run, so that the fixes a report declares, computes (and caches) and
    # applies are those of one target, whatever the command and the format.
    settings = _with_fix_target(settings, paths, stdin, fix_target, options)
    codes = enabled_codes(settings, all_rules())
    options.log(f"configuration: {settings.config_path or 'none found, the defaults'} (paths relative to {settings.root})")
    options.log(f"rules: {', '.join(codes)}")
    return paths, settings, codes


def _with_fix_target(
    settings: Settings, paths: Tuple[str, ...], stdin: Optional[Source], option: Optional[str], options: _RunOptions,
) -> Settings:
    """``settings`` with the fix target resolved ("native" or "runtime"): ``--fix-target``, else
    the setting; ``auto`` from what the project declares or imports."""
    from resilint.lint.dependencies import with_fix_target

    if option is not None:
        settings = settings.with_overrides(fix_target=option)
    if stdin is not None:
        name = stdin[0]
        start: Tuple[str, ...] = (name if os.path.exists(name) else os.path.dirname(name) or ".",)
    else:
        start = paths or (".",)
    settings, chosen = with_fix_target(settings, start)
    options.log(f"fix target: {chosen.name} ({chosen.why})")
    return settings


def _settings(paths: Sequence[str], options: _RunOptions) -> Settings:
    from resilint.lint.config import load_settings, validate_selectors, validate_settings
    from resilint.lint.catalog import rule_catalog as all_rules  # the declarations: no rule is imported
    from resilint.lint.dependencies import with_declared_versions

    settings = with_declared_versions(load_settings(paths, options.config_path), paths)
    rules = all_rules()
    validate_settings(settings, rules)
    for option, values in (("--select", options.select), ("--ignore", options.ignore), ("--extend-select", options.extend_select)):
        validate_selectors(_selectors(values), rules, option, ignoring=option == "--ignore")
    exclude = _patterns(options.exclude, settings.root)
    return settings.with_overrides(
        select=_selectors(options.select) or None,
        ignore=settings.ignore + _selectors(options.ignore),
        extend_select=settings.extend_select + _selectors(options.extend_select),
        max_timeout=options.max_timeout,
        exclude=exclude or None,
        extend_exclude=settings.extend_exclude + _patterns(options.extend_exclude, settings.root),
    )


def _patterns(values: Sequence[str], root: str) -> Tuple[str, ...]:
    """``--exclude a,b --exclude c`` as the settings' patterns: a name or glob as given, a path
    (with a ``/``) relative to the working directory made relative to the configuration's
    directory, where the settings' patterns start."""
    patterns = []
    for part in (part.strip() for value in values for part in value.split(",")):
        if not part:
            continue
        if "/" in part.rstrip("/") or os.sep in part.rstrip(os.sep):
            part = os.path.relpath(os.path.abspath(part), root).replace(os.sep, "/") + ("/" if part.endswith("/") else "")
        patterns.append(part)
    return tuple(patterns)


def _fixable_codes(settings: Settings, fixable: Sequence[str], unfixable: Sequence[str]) -> List[str]:
    """The codes whose fixes may be applied, ``--fixable`` replacing and ``--unfixable`` adding
    to the settings."""
    from resilint.lint.config import ConfigError, validate_selectors
    from resilint.lint.catalog import rule_catalog as all_rules  # the declarations: no rule is imported

    from resilint.lint.config import fixable_codes

    rules = all_rules()
    try:
        validate_selectors(_selectors(fixable), rules, "--fixable")
        validate_selectors(_selectors(unfixable), rules, "--unfixable")
    except ConfigError as exc:
        raise _fail(str(exc)) from None
    chosen = settings.with_overrides(
        fixable=_selectors(fixable) or None, unfixable=settings.unfixable + _selectors(unfixable),
    )
    return fixable_codes(chosen, rules)


def _without_unfixable_fixes(findings: List[Finding], fixable: Sequence[str]) -> List[Finding]:
    """As in ruff, a finding of a rule that is not fixable is reported without its fix."""
    from dataclasses import replace

    allowed = set(fixable)
    return [replace(f, fix=None) if f.fix is not None and f.code not in allowed else f for f in findings]


def _fix_edits(*args: Any) -> List[Finding]:
    """The fixing layer's ``with_fixes``, imported (with the codemods and LibCST's codemod
    machinery) only when a file has a fix to compute."""
    from resilint.fixing.fix_edits import with_fixes

    return with_fixes(*args)


def _run(
    options: _RunOptions, paths: Tuple[str, ...], settings: Settings, codes: List[str], stdin: Optional[Source],
    keep_summaries: bool = False, fix_edits: bool = False,
) -> RunResult:
    """The run a command starts from; ``keep_summaries``: with every module summary (the fixer
    re-runs the project pass); ``fix_edits``: the findings' fixes with their edits (for a
    report that shows them, or to fix), which the fixing layer computes."""
    from resilint.lint.cache import ResultCache
    from resilint.lint.runner import run

    computing = _fix_edits if fix_edits else None

    import time

    started = time.monotonic()
    with _progress_bar() as report_progress:
        cache = None if options.no_cache else ResultCache(settings, codes, options.cache_dir)
        options.log(f"cache: {cache.path if cache is not None else 'off (--no-cache)'}")
        result = run(
            paths, settings, codes, jobs=options.jobs, progress=report_progress, cache=cache,
            keep_summaries=keep_summaries, contents=_contents(stdin), fix_edits=computing,
        )
    if options.verbose:
        cached = set(result.from_cache)
        checked = sorted({f.path for f in result.findings} | set(result.digests) | cached)
        for path in checked:
            options.log(f"{'cached ' if path in cached else 'checked'} {path}")
        options.log(
            f"{_count(result.files_checked, 'file')} ({len(cached)} from the cache) in {time.monotonic() - started:.2f} s"
        )
    return result


@main.command()
@_run_options
@click.option("--format", "output_format", default="text", show_default=True, help="Output format: " + ", ".join(format_names()) + ".")
@click.option("--output-file", "-o", type=click.Path(dir_okay=False, writable=True), help="Write the report to this file instead of stdout.")
@click.option("--statistics", is_flag=True, help="Show the number of findings per rule instead of each finding.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings (errors still exit 2).")
@click.option("--no-show-source", is_flag=True, help="Text format: no code frames.")
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False), default=None, help="Report only findings not recorded in this baseline file.")
@click.option("--write-baseline", is_flag=True, help="Record the current findings in the --baseline file (RES000 is never recorded: it is still reported).")
@click.option("--add-noqa", is_flag=True, help="Add `# noqa: CODE` comments to the lines of the current findings; what cannot be suppressed is still reported.")
@click.option("--fix", "apply_fixes", is_flag=True, help="Apply the fixes first (safe ones unless --unsafe-fixes), then report the findings that remain, each with why it was not fixed.")
@_fix_options
@_ends_on_signals
def check(
    output_format: str,
    output_file: Optional[str],
    statistics: bool,
    exit_zero: bool,
    no_show_source: bool,
    baseline_path: Optional[str],
    write_baseline: bool,
    add_noqa: bool,
    apply_fixes: bool,
    unsafe_fixes: bool,
    show_fixes: bool,
    fixable: Tuple[str, ...],
    unfixable: Tuple[str, ...],
    fix_target: Optional[str],
    **options: Any,
) -> None:
    """Check PATHS (files or directories; default: the current directory; '-': standard input)."""
    from resilint.lint.baseline import new_findings, read_baseline
    from resilint.lint.catalog import rule_catalog as all_rules  # the declarations: no rule is imported
    from resilint.lint.config import ConfigError
    from resilint.lint.report import ReportOptions, reporter, shows_fix_edits

    run_options = _RunOptions(**options)
    if output_format not in format_names():
        raise click.BadParameter(
            f"unknown format {output_format!r}; choose from {', '.join(format_names())}", param_hint="--format",
        )
    if statistics and output_format not in STATISTICS_FORMATS:
        raise click.UsageError(f"--statistics works with --format {' or '.join(STATISTICS_FORMATS)}, not {output_format}")
    if write_baseline and baseline_path is None:
        raise click.UsageError("--write-baseline needs --baseline FILE")
    if apply_fixes and (add_noqa or write_baseline):
        raise click.UsageError("--fix cannot be combined with --add-noqa or --write-baseline")
    stdin = _stdin_source(run_options)
    if stdin is not None and (add_noqa or write_baseline):
        raise click.UsageError("--add-noqa and --write-baseline edit files on disk, not standard input")
    paths, settings, codes = _prepare(run_options, stdin, fix_target)
    fixable_codes = _fixable_codes(settings, fixable, unfixable)
    try:
        recorded = read_baseline(baseline_path) if baseline_path and not write_baseline else None
    except ConfigError as exc:
        raise _fail(str(exc)) from None

    result = _run(
        run_options, paths, settings, codes, stdin, keep_summaries=apply_fixes,
        fix_edits=apply_fixes or shows_fix_edits(output_format),
    )
    contents = _contents(stdin)
    outcome = None
    if apply_fixes:
        from resilint.fixing.fixer import Fixer

        fixer = Fixer(settings, codes, result, unsafe=unsafe_fixes, fixable=fixable_codes, contents=contents)
        outcome = fixer.fix(write=stdin is None)
        result.findings = outcome.remaining
        contents = {path: outcome.changes.get(path, (data, data))[1] for path, data in contents.items()}
    result.findings = _without_unfixable_fixes(result.findings, fixable_codes)
    noqa_failed = False
    if write_baseline:
        assert baseline_path is not None
        result.findings = _write_baseline(baseline_path, result, run_options)
    elif recorded is not None:
        assert baseline_path is not None
        result.findings = new_findings(result.findings, recorded, baseline_path)
    if add_noqa:
        noqa_failed = _add_noqa(result, run_options)

    # As ruff does with standard input: the fixed source on standard output, the report on
    # standard error.
    fixed_stdin = outcome is not None and stdin is not None
    if fixed_stdin:
        [source] = contents.values()
        _write_source(source)
    with _output(output_file, err=fixed_stdin) as (out, is_file):
        color = not is_file and _use_color(sys.stderr if fixed_stdin else sys.stdout)
        report_options = ReportOptions(
            color=color, statistics=statistics, show_source=not no_show_source, contents=contents,
            quiet=run_options.quiet, fixed=sum(outcome.fixed.values()) if outcome is not None else None,
            unfixed=outcome.unfixed if outcome is not None else {},
        )
        reporter(output_format)(result, all_rules(), out, report_options)
    if outcome is not None:
        _fix_notes(outcome, run_options, show_fixes, diff=False)

    if result.errors or noqa_failed or (outcome is not None and outcome.not_written):
        raise click.exceptions.Exit(EXIT_ERROR)
    if result.findings and not exit_zero:
        raise click.exceptions.Exit(EXIT_FINDINGS)
    raise click.exceptions.Exit(EXIT_CLEAN)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _write_baseline(path: str, result: RunResult, options: _RunOptions) -> List[Finding]:
    """Record the findings; returns those a baseline never holds (RES000), still to report."""
    from resilint.lint.baseline import write_baseline
    from resilint.lint.files import NotWritten

    try:
        unrecorded = write_baseline(path, result.findings)
    except NotWritten as exc:
        raise _fail(f"{path}: cannot write the baseline: {exc.reason}") from None
    recorded = len(result.findings) - len(unrecorded)
    options.note(f"Recorded {_count(recorded, 'finding')} in {path}.")
    return unrecorded


def _add_noqa(result: RunResult, options: _RunOptions) -> bool:
    """Suppress the findings in their files; what is left is reported as usual. True when a
    file or a line could not be done (exit 2)."""
    from resilint.lint.add_noqa import add_noqa as add_noqa_comments

    outcome = add_noqa_comments(result.findings, result.digests)
    for problem in outcome.skipped:
        click.echo(f"resilint: not changed: {problem}", err=True)
    summary = f"Added {_count(outcome.added, 'noqa directive')} to {_count(outcome.files, 'file')}."
    if outcome.removed:
        summary += f" Removed {_count(outcome.removed, 'unused suppression')}."
    options.note(summary)
    result.findings = outcome.remaining
    return bool(outcome.skipped)


@contextmanager
def _output(path: Optional[str], err: bool = False) -> Iterator[Tuple[TextIO, bool]]:
    """Where the report goes: ``path``, else standard output (standard error with ``err``);
    and whether it is a file."""
    if path is None and err:
        yield sys.stderr, False
        return
    if path is None:
        with _stdout() as out:
            yield out, False
        return
    buffer = io.StringIO()
    yield buffer, True
    # Written only once the report is complete, so a failed run leaves no half file behind.
    try:
        _write_whole(path, buffer.getvalue().encode("utf-8"))
    except OSError as exc:
        raise _fail(f"{path}: cannot write the report: {exc.strerror or exc}") from None


def _write_whole(path: str, data: bytes) -> None:
    """Replace the file atomically (a temporary file beside it, then a rename), so that an
    interrupted run leaves the old report or the new one, never half of one. A symbolic link
    keeps pointing at the report; what is not a regular file (``/dev/stdout``, a pipe) is
    simply written to."""
    try:
        existing: Optional[os.stat_result] = os.stat(path)
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with open(path, "wb") as handle:
            handle.write(data)
        return
    target = os.path.realpath(path)
    descriptor, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".resilint-", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.chmod(temporary, stat.S_IMODE(existing.st_mode) if existing is not None else 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class _NoProgress:
    def __enter__(self) -> Optional[Callable[[int, int], None]]:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _progress_bar():  # type: ignore[no-untyped-def]
    """A progress bar on stderr for long runs, only on a terminal."""
    if not sys.stderr.isatty():
        return _NoProgress()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    class _Bar:
        def __enter__(self) -> Callable[[int, int], None]:
            self.progress: Optional[Progress] = None
            self.task = None

            def update(done: int, total: int) -> None:
                if total < PROGRESS_MIN_FILES:
                    return
                if self.progress is None:
                    from rich.console import Console

                    self.progress = Progress(
                        TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=Console(stderr=True), transient=True,
                    )
                    self.progress.start()
                    self.task = self.progress.add_task("check", total=total)
                self.progress.update(self.task, completed=done)

            return update

        def __exit__(self, *exc: object) -> None:
            if self.progress is not None:
                self.progress.stop()

    return _Bar()


def _write_source(data: bytes) -> None:
    """A file's bytes on standard output, as they are (its encoding and line endings kept)."""
    with _stdout() as out:
        out.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()


@main.command()
@_run_options
@_fix_options
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff and write nothing; exit 1 if there is something to fix.")
@_ends_on_signals
def fix(
    unsafe_fixes: bool, show_fixes: bool, fixable: Tuple[str, ...], unfixable: Tuple[str, ...], fix_target: Optional[str],
    diff: bool, **options: Any,
) -> None:
    """Fix the findings in PATHS that have a fix (safe ones unless --unsafe-fixes). With '-',
    standard input: the fixed source is printed."""
    from resilint.fixing.fixer import Fixer

    run_options = _RunOptions(**options)
    stdin = _stdin_source(run_options)
    paths, settings, codes = _prepare(run_options, stdin, fix_target)
    fixable_codes = _fixable_codes(settings, fixable, unfixable)
    result = _run(run_options, paths, settings, codes, stdin, keep_summaries=True, fix_edits=True)
    fixer = Fixer(settings, codes, result, unsafe=unsafe_fixes, fixable=fixable_codes, contents=_contents(stdin))
    outcome = fixer.fix(write=not diff and stdin is None)
    outcome.remaining = _without_unfixable_fixes(outcome.remaining, fixable_codes)
    _finish_fixing(outcome, result, diff, run_options, stdin, show_fixes, report_remaining=True)


@main.command("codemod")
@click.argument("name")
@_run_options
@click.option("--diff", is_flag=True, help="Print the changes as a unified diff and write nothing; exit 1 if there is something to change.")
@_ends_on_signals
def codemod_command(name: str, diff: bool, **options: Any) -> None:
    """Run the codemod NAME (`resilint codemods` lists them) over every case it recognises in
    PATHS, safe or not; a change is kept only if it parses, adds no finding of the selected
    rules and a second run would not change it again."""
    from resilint.lint.catalog import codemod_catalog
    from resilint.fixing.fixer import Fixer

    if name not in codemod_catalog():
        raise _fail(f"unknown codemod {name!r}; `resilint codemods` lists them")
    run_options = _RunOptions(**options)
    stdin = _stdin_source(run_options)
    paths, settings, codes = _prepare(run_options, stdin)
    result = _run(run_options, paths, settings, codes, stdin, keep_summaries=True)
    fixer = Fixer(settings, codes, result, unsafe=True, contents=_contents(stdin))
    outcome = fixer.apply(name, result.digests, write=not diff and stdin is None)
    _finish_fixing(outcome, result, diff, run_options, stdin, show_fixes=False, report_remaining=False)


def _finish_fixing(
    outcome: FixOutcome, result: RunResult, diff: bool, options: _RunOptions, stdin: Optional[Source],
    show_fixes: bool, report_remaining: bool,
) -> None:
    """The diff (``--diff``), the fixed source (standard input) or the remaining findings on
    stdout, the rest on stderr, and the exit status: 2 for errors and files not written, 1 for
    a diff that is not empty or (``fix``) findings that remain, else 0. Each remaining finding
    says why it was not fixed; standard input's remaining findings go to stderr, after its
    source."""
    from resilint.lint.finding import RunResult
    from resilint.fixing.report import fix_summary, unified_diff
    from resilint.lint.catalog import rule_catalog as all_rules  # the declarations: no rule is imported
    from resilint.lint.report import ReportOptions, reporter

    remaining = RunResult(findings=outcome.remaining, files_checked=result.files_checked)
    remaining_options = ReportOptions(color=_use_color(sys.stdout), quiet=True, unfixed=outcome.unfixed)
    if stdin is not None:
        [(path, before)] = _contents(stdin).items()
        after = outcome.changes.get(path, (before, before))[1]
        if diff:
            with _stdout() as out:
                out.write(unified_diff(path, before, after, outcome.applied))
        else:
            _write_source(after)
        if report_remaining and outcome.remaining:
            remaining_options = ReportOptions(color=_use_color(sys.stderr), quiet=True, unfixed=outcome.unfixed)
            reporter("concise")(remaining, all_rules(), sys.stderr, remaining_options)
    else:
        with _stdout() as out:
            if diff:
                for changed, (before, after) in sorted(outcome.changes.items()):
                    out.write(unified_diff(changed, before, after, outcome.applied))
            elif report_remaining and outcome.remaining:
                reporter("concise")(remaining, all_rules(), out, remaining_options)
    for error in result.errors:
        click.echo(f"resilint: error: {error.path}: {error.message}", err=True)
    _fix_notes(outcome, options, show_fixes, diff)
    options.note(fix_summary(outcome, diff, report_remaining))
    if result.errors or outcome.not_written:
        raise click.exceptions.Exit(EXIT_ERROR)
    if (diff and outcome.changes) or (report_remaining and outcome.remaining):
        raise click.exceptions.Exit(EXIT_FINDINGS)
    raise click.exceptions.Exit(EXIT_CLEAN)


def _fix_notes(outcome: FixOutcome, options: _RunOptions, show_fixes: bool, diff: bool) -> None:
    """On stderr: the files not written (always), the fixes dropped and the cases left alone
    (unless ``--quiet``), and with ``--show-fixes`` each fix applied."""
    from resilint.fixing.report import applied_fixes

    for note in outcome.not_written:
        click.echo(f"resilint: not written: {note}", err=True)
    for note in outcome.dropped:
        options.note(f"Dropped fix: {note}")
    for note in outcome.left_alone:
        options.note(f"Left alone: {note}")
    for note in outcome.parsed_only:
        options.note(f"Not compiled: {note}")
    if show_fixes:
        listing = applied_fixes(outcome.applied, diff)
        click.echo(listing or f"{'Would fix' if diff else 'Fixed'} no finding.", err=True, nl=not listing)


@main.command("codemods")
def codemods_command() -> None:
    """List the codemods: name, the rules whose findings they fix, applicability, the fix targets
    they write for."""
    from resilint.lint.catalog import codemod_catalog

    rows = [
        (name, ", ".join(codemod.codes) or "-", codemod.applicability, ", ".join(codemod.targets), codemod.description)
        for name, codemod in codemod_catalog().items()
    ]
    _print_table(("name", "fixes", "applicability", "targets", "what it does"), rows)


def _print_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A table on standard output: fitted to a terminal by rich; elsewhere (a pipe, a file)
    every value whole, in columns two spaces apart, without trailing spaces."""
    with _stdout() as out:
        if not (hasattr(out, "isatty") and out.isatty()):
            widths = [max(len(str(value)) for value in column) for column in zip(columns, *rows)]
            for row in (columns, *rows):
                out.write("  ".join(f"{value:<{width}}" for value, width in zip(row, widths)).rstrip() + "\n")
            return
        from rich.console import Console
        from rich.table import Table

        table = Table(box=None, header_style="bold")
        for column in columns:
            table.add_column(column)
        for row in rows:
            table.add_row(*row)
        Console(file=out, no_color=not _use_color(sys.stdout), soft_wrap=True).print(table)


@main.command("rules")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules_command(output_format: str) -> None:
    """List every rule: code, name, default or opt-in, fixable."""
    from resilint.lint.catalog import rule_catalog

    registry = rule_catalog()
    if output_format == "json":
        import json

        with _stdout() as out:
            out.write(json.dumps([rule.metadata() for rule in registry.values()], indent=2) + "\n")
        return
    rows = [
        (code, rule.name, "on" if rule.default else "opt-in", rule.fixable or "-", rule.summary())
        for code, rule in registry.items()
    ]
    _print_table(("code", "name", "default", "fixable", "summary"), rows)


@main.command("rule")
@click.argument("code")
def rule_command(code: str) -> None:
    """Show the documentation of rule CODE (e.g. RES101)."""
    from resilint.lint.catalog import rule_catalog

    registry = rule_catalog()
    rule = registry.get(code.upper())
    if rule is None:
        by_name = {r.name: r for r in registry.values()}
        rule = by_name.get(code.lower())
    if rule is None:
        raise _fail(f"unknown rule {code!r}; `resilint rules` lists them")
    from rich.console import Console
    from rich.markdown import Markdown

    from resilint.lint.rule_docs import render_markdown

    with _stdout() as out:
        Console(file=out, no_color=not _use_color(sys.stdout), soft_wrap=False).print(Markdown(render_markdown(rule)))


@main.command("server")
def server_command() -> None:
    """Run the language server on standard input and output, for editors: findings as you
    type and fixes from code actions (needs the server extra: pip install 'resilint[server]')."""
    try:
        from resilint.server.server import serve
    except ImportError as exc:
        if exc.name is None or exc.name.split(".")[0] not in ("pygls", "lsprotocol", "cattrs", "attrs"):
            raise
        raise _fail(f"resilint server needs pygls and lsprotocol, which are not installed ({exc}): pip install 'resilint[server]'") from None
    serve()


@main.command("version")
def version_command() -> None:
    """Print resilint's version."""
    with _stdout() as out:
        out.write(f"resilint {__version__}\n")


if __name__ == "__main__":  # pragma: no cover
    main()
