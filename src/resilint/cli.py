"""The ``resilint`` command: check, fix, codemod, codemods, rules, rule, version."""

from __future__ import annotations

import functools
import io
import gc
import os
import stat
import sys
import tempfile
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Sequence, TextIO, Tuple

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
    from resilint.lint.fixer import FixOutcome

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
    selection, configuration, exclusion, cache and jobs, declared once."""
    options = [
        click.argument("paths", nargs=-1, type=click.Path()),
        click.option("--select", multiple=True, help="Rule codes or prefixes to enable (replaces the default set); ALL for every rule."),
        click.option("--ignore", multiple=True, help="Rule codes or prefixes to disable."),
        click.option("--extend-select", multiple=True, help="Rule codes or prefixes to enable on top of the selection."),
        click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help=f"Worker processes (default: all cores, {default_jobs()} here; at most {MAX_JOBS_PER_CORE} per core and one per file)."),
        click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None, help="Use this pyproject.toml instead of the nearest one."),
        click.option("--max-timeout", type=float, callback=_seconds, default=None, help="Largest acceptable timeout in seconds (RES105)."),
        click.option("--no-cache", is_flag=True, help="Neither read nor write the result cache."),
        click.option("--cache-dir", type=click.Path(file_okay=False), envvar="RESILINT_CACHE_DIR", default=None, help="Where to keep the result cache (default: .resilint_cache beside the configuration)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


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
@_ends_on_signals
def check(
    paths: Tuple[str, ...],
    select: Tuple[str, ...],
    ignore: Tuple[str, ...],
    extend_select: Tuple[str, ...],
    output_format: str,
    output_file: Optional[str],
    statistics: bool,
    exit_zero: bool,
    jobs: Optional[int],
    config_path: Optional[str],
    max_timeout: Optional[float],
    no_show_source: bool,
    no_cache: bool,
    cache_dir: Optional[str],
    baseline_path: Optional[str],
    write_baseline: bool,
    add_noqa: bool,
) -> None:
    """Check PATHS (files or directories; default: the current directory)."""
    from resilint.lint.baseline import new_findings, read_baseline
    from resilint.lint.cache import ResultCache
    from resilint.lint.config import ConfigError
    from resilint.lint.registry import all_rules
    from resilint.lint.report import ReportOptions, reporters
    from resilint.lint.runner import run

    formats = reporters()
    if output_format not in formats:
        raise click.BadParameter(f"unknown format {output_format!r}; choose from {', '.join(formats)}", param_hint="--format")
    if statistics and output_format not in STATISTICS_FORMATS:
        raise click.UsageError(f"--statistics works with --format {' or '.join(STATISTICS_FORMATS)}, not {output_format}")
    paths, settings, codes = _prepare(paths, config_path, select, ignore, extend_select, max_timeout)
    if write_baseline and baseline_path is None:
        raise click.UsageError("--write-baseline needs --baseline FILE")
    try:
        recorded = read_baseline(baseline_path) if baseline_path and not write_baseline else None
    except ConfigError as exc:
        raise _fail(str(exc)) from None

    with _progress_bar() as report_progress:
        cache = None if no_cache else ResultCache(settings, codes, cache_dir)
        result = run(paths, settings, codes, jobs=jobs, progress=report_progress, cache=cache)
    noqa_failed = False
    if write_baseline:
        assert baseline_path is not None
        result.findings = _write_baseline(baseline_path, result)
    elif recorded is not None:
        assert baseline_path is not None
        result.findings = new_findings(result.findings, recorded, baseline_path)
    if add_noqa:
        noqa_failed = _add_noqa(result)

    with _output(output_file) as (out, is_file):
        color = not is_file and _use_color(sys.stdout)
        options = ReportOptions(color=color, statistics=statistics, show_source=not no_show_source)
        formats[output_format](result, all_rules(), out, options)

    if result.errors or noqa_failed:
        raise click.exceptions.Exit(EXIT_ERROR)
    if result.findings and not exit_zero:
        raise click.exceptions.Exit(EXIT_FINDINGS)
    raise click.exceptions.Exit(EXIT_CLEAN)


def _prepare(
    paths: Tuple[str, ...], config_path: Optional[str], select: Sequence[str], ignore: Sequence[str],
    extend_select: Sequence[str], max_timeout: Optional[float],
) -> Tuple[Tuple[str, ...], Settings, List[str]]:
    """The paths (default ``.``), the settings and the enabled codes of a command that checks."""
    from resilint.lint.config import ConfigError, enabled_codes
    from resilint.lint.registry import all_rules

    try:
        os.getcwd()
    except FileNotFoundError:
        raise _fail("the working directory no longer exists; change to one that does") from None
    paths = paths or (".",)
    try:
        settings = _settings(paths, config_path, select, ignore, extend_select, max_timeout)
    except ConfigError as exc:
        raise _fail(str(exc)) from None
    return paths, settings, enabled_codes(settings, all_rules())


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _write_baseline(path: str, result: RunResult) -> List[Finding]:
    """Record the findings; returns those a baseline never holds (RES000), still to report."""
    from resilint.lint.baseline import write_baseline
    from resilint.lint.files import NotWritten

    try:
        unrecorded = write_baseline(path, result.findings)
    except NotWritten as exc:
        raise _fail(f"{path}: cannot write the baseline: {exc.reason}") from None
    recorded = len(result.findings) - len(unrecorded)
    click.echo(f"Recorded {_count(recorded, 'finding')} in {path}.", err=True)
    return unrecorded


def _add_noqa(result: RunResult) -> bool:
    """Suppress the findings in their files; what is left is reported as usual. True when a
    file or a line could not be done (exit 2)."""
    from resilint.lint.add_noqa import add_noqa as add_noqa_comments

    outcome = add_noqa_comments(result.findings, result.digests)
    for problem in outcome.skipped:
        click.echo(f"resilint: not changed: {problem}", err=True)
    summary = f"Added {_count(outcome.added, 'noqa directive')} to {_count(outcome.files, 'file')}."
    if outcome.removed:
        summary += f" Removed {_count(outcome.removed, 'unused suppression')}."
    click.echo(summary, err=True)
    result.findings = outcome.remaining
    return bool(outcome.skipped)


def _settings(
    paths: Sequence[str],
    config_path: Optional[str],
    select: Sequence[str],
    ignore: Sequence[str],
    extend_select: Sequence[str],
    max_timeout: Optional[float],
) -> Settings:
    from resilint.lint.config import load_settings, validate_selectors, validate_settings
    from resilint.lint.registry import all_rules

    settings = load_settings(paths, config_path)
    rules = all_rules()
    validate_settings(settings, rules)
    for option, values in (("--select", select), ("--ignore", ignore), ("--extend-select", extend_select)):
        validate_selectors(_selectors(values), rules, option, ignoring=option == "--ignore")
    return settings.with_overrides(
        select=_selectors(select) or None,
        ignore=settings.ignore + _selectors(ignore),
        extend_select=settings.extend_select + _selectors(extend_select),
        max_timeout=max_timeout,
    )


@contextmanager
def _output(path: Optional[str]) -> Iterator[Tuple[TextIO, bool]]:
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


def _checked(
    paths: Tuple[str, ...], select: Tuple[str, ...], ignore: Tuple[str, ...], extend_select: Tuple[str, ...],
    jobs: Optional[int], config_path: Optional[str], max_timeout: Optional[float], no_cache: bool,
    cache_dir: Optional[str],
) -> Tuple[RunResult, Settings, List[str]]:
    """The run a fix starts from (the ``_run_options``), with every module summary: the fixer
    re-runs the project pass. Also the settings and the enabled codes."""
    from resilint.lint.cache import ResultCache
    from resilint.lint.runner import run

    paths, settings, codes = _prepare(paths, config_path, select, ignore, extend_select, max_timeout)
    with _progress_bar() as report_progress:
        cache = None if no_cache else ResultCache(settings, codes, cache_dir)
        result = run(paths, settings, codes, jobs=jobs, progress=report_progress, cache=cache, keep_summaries=True)
    return result, settings, codes


@main.command()
@_run_options
@click.option("--unsafe-fixes", is_flag=True, help="Also apply the unsafe fixes (each rule's `Fix safety` says which are).")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff and write nothing; exit 1 if there is something to fix.")
@_ends_on_signals
def fix(unsafe_fixes: bool, diff: bool, **options: Any) -> None:
    """Fix the findings in PATHS that have a fix (safe ones unless --unsafe-fixes)."""
    from resilint.lint.fixer import Fixer

    result, settings, codes = _checked(**options)
    outcome = Fixer(settings, codes, result, unsafe=unsafe_fixes).fix(write=not diff)
    _finish_fixing(outcome, result, diff, report_remaining=True)


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
    from resilint.lint.fixer import Fixer

    if name not in codemod_catalog():
        raise _fail(f"unknown codemod {name!r}; `resilint codemods` lists them")
    result, settings, codes = _checked(**options)
    outcome = Fixer(settings, codes, result, unsafe=True).apply(name, result.digests, write=not diff)
    _finish_fixing(outcome, result, diff, report_remaining=False)


def _finish_fixing(outcome: FixOutcome, result: RunResult, diff: bool, report_remaining: bool) -> None:
    """The diff (``--diff``) or the remaining findings on stdout, the summary on stderr, and
    the exit status: 2 for errors and files not written, 1 for a diff that is not empty or
    (``fix``) findings that remain, else 0."""
    from resilint.lint.finding import RunResult
    from resilint.lint.fix_report import fix_summary, unified_diff
    from resilint.lint.registry import all_rules
    from resilint.lint.report import ReportOptions, reporters

    with _stdout() as out:
        if diff:
            for path, (before, after) in sorted(outcome.changes.items()):
                out.write(unified_diff(path, before, after))
        elif report_remaining and outcome.remaining:
            shown = RunResult(findings=outcome.remaining, files_checked=result.files_checked)
            reporters()["concise"](shown, all_rules(), out, ReportOptions(color=_use_color(sys.stdout)))
    for error in result.errors:
        click.echo(f"resilint: error: {error.path}: {error.message}", err=True)
    for note in outcome.not_written:
        click.echo(f"resilint: not written: {note}", err=True)
    for note in outcome.dropped:
        click.echo(f"Dropped fix: {note}", err=True)
    for note in outcome.left_alone:
        click.echo(f"Left alone: {note}", err=True)
    for note in outcome.parsed_only:
        click.echo(f"Not compiled: {note}", err=True)
    click.echo(fix_summary(outcome, diff, report_remaining), err=True)
    if result.errors or outcome.not_written:
        raise click.exceptions.Exit(EXIT_ERROR)
    if (diff and outcome.changes) or (report_remaining and outcome.remaining):
        raise click.exceptions.Exit(EXIT_FINDINGS)
    raise click.exceptions.Exit(EXIT_CLEAN)


@main.command("codemods")
def codemods_command() -> None:
    """List the codemods: name, the rules whose findings they fix, applicability."""
    from rich.console import Console
    from rich.table import Table

    from resilint.lint.catalog import codemod_catalog

    table = Table(box=None, header_style="bold")
    for column in ("name", "fixes", "applicability", "what it does"):
        table.add_column(column)
    for name, codemod in codemod_catalog().items():
        table.add_row(name, ", ".join(codemod.codes) or "-", codemod.applicability, codemod.description)
    with _stdout() as out:
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
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, header_style="bold")
    for column in ("code", "name", "default", "fixable", "summary"):
        table.add_column(column)
    for code, rule in registry.items():
        table.add_row(code, rule.name, "on" if rule.default else "opt-in", rule.fixable or "-", rule.summary())
    with _stdout() as out:
        Console(file=out, no_color=not _use_color(sys.stdout), soft_wrap=True).print(table)


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


@main.command("version")
def version_command() -> None:
    """Print resilint's version."""
    with _stdout() as out:
        out.write(f"resilint {__version__}\n")


if __name__ == "__main__":  # pragma: no cover
    main()
