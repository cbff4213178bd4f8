"""``--format text`` (the default): findings, code frames, errors, summary, statistics."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from resilint.lint.finding import AnalysisError, RunResult

from .support import render, retry_finding, timeout_finding

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch):
    # Colour is options.color's decision alone; make sure the environment can't interfere.
    for name in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")


def caret_line_under(out: str, source_line: str) -> str:
    lines = out.splitlines()
    index = next(i for i, line in enumerate(lines) if line.endswith(source_line))
    return lines[index + 1]


def test_no_ansi_without_color(project, result):
    out = render("text", result, project, color=False)
    assert "\x1b" not in out


def test_no_ansi_without_color_even_if_forced_by_env(project, result, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    out = render("text", result, project, color=False)
    assert "\x1b" not in out


def test_ansi_with_color(project, result):
    out = render("text", result, project, color=True)
    assert ANSI.search(out)
    # the text is the same once the escapes are gone
    assert ANSI.sub("", out) == render("text", result, project, color=False)


def test_header_line(project, result):
    out = render("text", result, project)
    assert "app/client.py:6:12: RES991 `requests.get` called without a timeout\n" in out
    assert "app/client.py:11:9: RES992 retry loop sleeps without jitter\n" in out
    assert out.index("RES991") < out.index("RES992")  # sorted by position


def test_frame_shows_context_and_carets_under_the_span(project):
    out = render("text", RunResult([timeout_finding()]), project)
    lines = out.splitlines()
    assert lines[0] == "app/client.py:6:12: RES991 `requests.get` called without a timeout"
    assert lines[1:6] == [
        "  |",
        "5 | def fetch(url):",  # the blank lines 3-4 above are not shown as leading context
        "6 |     return requests.get(url)",
        "  |            ^^^^^^^^^^^^^^^^^ RES991",
        "  |",
    ]
    source = "    return requests.get(url)"
    carets = caret_line_under(out, source)
    start = carets.index("^")
    # carets are exactly under columns 12..28 (1-based, end exclusive 29)
    prefix = len("6 | ")
    assert start - prefix == 11
    assert carets.count("^") == 29 - 12
    assert source[start - prefix : start - prefix + 17] == "requests.get(url)"


def numbered_lines(out: str):
    return [int(line.split("|")[0]) for line in out.splitlines() if re.match(r"^\s*\d+ \|", line)]


def test_context_is_at_most_three_lines(tmp_path):
    source = "".join(f"x{n} = {n}\n" for n in range(1, 11))
    (tmp_path / "c.py").write_text(source)
    finding = timeout_finding(path="c.py", line=8, column=1, end_column=3, source=source)
    assert numbered_lines(render("text", RunResult([finding]), tmp_path)) == [5, 6, 7, 8]
    first = timeout_finding(path="c.py", line=1, column=1, end_column=3, source=source)
    assert numbered_lines(render("text", RunResult([first]), tmp_path)) == [1]


def test_leading_blank_context_is_dropped(project):
    out = render("text", RunResult([retry_finding()]), project)  # line 11; line 8 is blank
    assert numbered_lines(out) == [9, 10, 11]


def test_long_lines_are_not_wrapped(tmp_path):
    source = "x = get(" + ", ".join(f"argument_{n}" for n in range(40)) + ")\n"
    (tmp_path / "w.py").write_text(source)
    finding = timeout_finding(
        path="w.py", line=1, column=5, end_column=len(source), source=source, message="m " * 80
    )
    out = render("text", RunResult([finding]), tmp_path)
    assert "1 | " + source.rstrip("\n") in out.splitlines()
    assert ("RES991 " + "m " * 80).rstrip() in out


def test_multiline_span_underlines_to_end_of_first_line(tmp_path):
    source = "x = call(\n    a,\n    b,\n)\n"
    (tmp_path / "m.py").write_text(source)
    finding = timeout_finding(path="m.py", line=1, column=5, end_line=4, end_column=2, source=source, fix=None)
    out = render("text", RunResult([finding]), tmp_path)
    lines = out.splitlines()
    assert lines[1:8] == [
        "  |",
        "1 | x = call(",
        "  |     ^^^^^ RES991",
        "2 |     a,",
        "3 |     b,",
        "4 | )",
        "  |",
    ]


def test_long_multiline_span_is_elided(tmp_path):
    source = "x = call(\n" + "".join(f"    a{n},\n" for n in range(20)) + ")\n"
    (tmp_path / "m.py").write_text(source)
    finding = timeout_finding(path="m.py", line=1, column=5, end_line=22, end_column=2, source=source, fix=None)
    out = render("text", RunResult([finding]), tmp_path)
    assert "a3," in out and "a4," not in out and "a19" not in out
    assert " : ..." in out


def test_tabs_and_wide_characters_keep_carets_aligned(tmp_path):
    source = "def f():\n\tx = '日本' + get(u)\n"
    (tmp_path / "t.py").write_text(source, encoding="utf-8")
    column = source.splitlines()[1].index("get") + 1
    finding = timeout_finding(path="t.py", line=2, column=column, end_column=column + 6, source=source, fix=None)
    out = render("text", RunResult([finding]), tmp_path)
    shown = "2 |     x = '日本' + get(u)"
    assert shown in out.splitlines()
    carets = caret_line_under(out, "x = '日本' + get(u)")
    # '日本' is two cells wide per character: the carets sit under "get(u)" on screen
    from rich.cells import cell_len

    assert cell_len(carets[: carets.index("^")]) == cell_len(shown[: shown.index("get")])
    assert carets.count("^") == 6


def test_zero_width_span_gets_one_caret(project):
    finding = timeout_finding(column=29, end_column=29)
    out = render("text", RunResult([finding]), project)
    assert caret_line_under(out, "return requests.get(url)").count("^") == 1


def test_help_line_for_fixes(project, result):
    out = render("text", result, project)
    assert "= help: Add `timeout=10` (safe fix)" in out
    assert "= help: Rewrite with `resilint.runtime.retry` (unsafe fix)" in out
    assert "help:" not in render("text", RunResult([timeout_finding(fix=None)]), project)


def test_missing_file_does_not_crash_the_frame(tmp_path):
    finding = timeout_finding(path="gone.py")
    out = render("text", RunResult([finding]), tmp_path)
    assert "gone.py:6:12: RES991" in out
    assert "^" not in out
    assert "Found 1 finding" in out


def test_line_past_end_of_file_and_directory_path(tmp_path):
    (tmp_path / "short.py").write_text("x = 1\n")
    (tmp_path / "pkg").mkdir()
    findings = [timeout_finding(path="short.py", line=40, line_text=""), timeout_finding(path="pkg", line=1)]
    out = render("text", RunResult(findings), tmp_path)
    assert "short.py:40:12" in out and "pkg:1:12" in out
    assert "^" not in out


def test_undecodable_file_is_shown_with_replacements(tmp_path):
    (tmp_path / "bad.py").write_bytes(b"x = '\xff\xfe'\ny = get(u)\n")
    finding = timeout_finding(path="bad.py", line=2, column=5, end_column=11, line_text="y = get(u)")
    out = render("text", RunResult([finding]), tmp_path)
    assert "2 | y = get(u)" in out
    assert "1 | x = '\ufffd\ufffd'" in out


def test_declared_encoding_is_honoured(tmp_path):
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\ns = '\xe9t\xe9'; get(u)\n")
    finding = timeout_finding(path="latin.py", line=2, column=12, end_column=18, line_text="", fix=None)
    out = render("text", RunResult([finding]), tmp_path)
    assert "2 | s = 'été'; get(u)" in out
    carets = caret_line_under(out, "s = 'été'; get(u)")
    assert carets.index("^") == len("2 | s = 'été'; ") and carets.count("^") == 6


def test_source_cannot_inject_escapes_or_markup(tmp_path):
    (tmp_path / "evil.py").write_text("x = '\x1b[31m[bold]red[/bold]'\n")
    finding = timeout_finding(
        path="evil.py", line=1, column=1, end_column=2, message="[red]not markup[/red]", line_text="x", fix=None
    )
    out = render("text", RunResult([finding]), tmp_path, color=False)
    assert "\x1b" not in out
    assert "[bold]red[/bold]" in out
    assert "RES991 [red]not markup[/red]" in out


def test_show_source_off(project, result):
    out = render("text", result, project, show_source=False)
    assert "|" not in out and "^" not in out
    assert out.splitlines()[:2] == [
        "app/client.py:6:12: RES991 `requests.get` called without a timeout",
        "  = help: Add `timeout=10` (safe fix)",
    ]


def test_errors_listed(project, result):
    out = render("text", result, project)
    assert "error: missing_dir: No such file or directory\n" in out


def test_summary_counts(project):
    findings = [
        timeout_finding(),
        timeout_finding(line=1, line_text="import requests"),
        retry_finding(),  # unsafe fix
        timeout_finding(line=2, fix=None, line_text="import time"),
    ]
    out = render("text", RunResult(findings, files_checked=1), project)
    assert out.splitlines()[-1] == (
        "Found 4 findings (2 fixable with `resilint fix`; 1 more with `resilint fix --unsafe-fixes`)."
    )


def test_summary_variants(project):
    def last(result):
        return render("text", result, project).splitlines()[-1]

    assert last(RunResult([timeout_finding()])) == "Found 1 finding (1 fixable with `resilint fix`)."
    assert last(RunResult([timeout_finding(fix=None)])) == "Found 1 finding."
    assert last(RunResult([retry_finding()])) == "Found 1 finding (1 with `resilint fix --unsafe-fixes`)."
    assert last(RunResult([], [AnalysisError("p", "m")])) == "Found 0 findings and 1 error."


def test_all_checks_passed(project):
    out = render("text", RunResult(files_checked=7), project)
    assert out == "All checks passed! (7 files checked)\n"
    assert render("text", RunResult(files_checked=1), project) == "All checks passed! (1 file checked)\n"


def test_statistics_table(project):
    findings = [
        timeout_finding(),
        timeout_finding(line=1, line_text="import requests"),
        timeout_finding(line=2, line_text="import time", fix=None),
        retry_finding(),
    ]
    out = render("text", RunResult(findings, [AnalysisError("p", "m")], 1), project, statistics=True)
    lines = out.splitlines()
    assert lines[:3] == [
        "3  RES991  [*] demo-call-without-timeout",  # most frequent first
        "1  RES992  [ ] demo-retry-without-jitter",  # an unsafe fix is not marked
        "error: p: m",
    ]
    assert "requests.get" not in out and "^" not in out  # no per-finding output
    assert "error: p: m" in out
    assert lines[-1].startswith("Found 4 findings and 1 error (2 fixable")


def test_statistics_uses_rule_names_and_falls_back_to_finding_names(project):
    finding = timeout_finding(code="RES777", name="unregistered-rule")
    out = render("text", RunResult([finding]), project, statistics=True)
    assert "RES777" in out and "unregistered-rule" in out


def test_statistics_with_color(project, result):
    out = render("text", result, project, statistics=True, color=True)
    assert ANSI.search(out)
    assert "demo-call-without-timeout" in ANSI.sub("", out)


@pytest.mark.slow
def test_a_fifo_named_like_a_module_is_never_opened_for_its_frame(tmp_path):
    """The default text report shows a frame for the FIFO's RES000: opening it would wait forever."""
    (tmp_path / "good.py").write_text("import requests\nrequests.get(u)\n")
    os.mkfifo(tmp_path / "pipe.py")
    proc = subprocess.run(
        [sys.executable, "-m", "resilint", "check", "--no-cache", "--jobs", "1", "."],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    assert "pipe.py:1:1: RES000 not a regular file" in proc.stdout
    assert "good.py:2:1: RES101" in proc.stdout and "2 | requests.get(u)" in proc.stdout
