"""Bad input never crashes the run: each bad file is one RES000, the others are still checked."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from resilint.lint.checker import check_source


GOOD = "import requests\nrequests.get('https://a.example')\n"


def run_json(cli, tmp_path, *paths):
    result = cli(["check", "--format", "json", "--jobs", "1", *paths], tmp_path)
    return result.exit_code, json.loads(result.stdout)


def analysis_errors(report):
    return {f["path"]: f for f in report["findings"] if f["code"] == "RES000"}


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"def f(:\n    pass\n", "syntax error"),
        (b"x = '\xff\xfe\xfa'\n", "cannot be decoded as utf-8"),
        (b"# -*- coding: latin-1 -*-\nx = '\xff'\nimport requests\nrequests.get(u)\n", None),
        (b"# -*- coding: klingon -*-\nx = 1\n", "unknown encoding"),
        (b"x = 1\x00\n", "NUL byte"),
        (("x = " + "(" * 10000 + "1" + ")" * 10000 + "\n").encode(), "nested"),
        (("x = " + "[" * 10000 + "1" + "]" * 10000 + "\n").encode(), "nested"),
        (("x = " + "[1, " * 10000 + "1" + "]" * 10000 + "\n").encode(), "nested"),
        (("import requests\nx = a" + ".b" * 10000 + "\n").encode(), "nested"),
        (("import requests\nx = f" + "()" * 10000 + "\n").encode(), "nested"),
        (("import requests\nx = a" + "[0]" * 10000 + "\n").encode(), "nested"),
        (("import requests\nx = 1" + " + 1" * 1500 + "\n").encode(), "nested"),
    ],
    ids=["syntax", "undecodable", "latin-1-ok", "unknown-encoding", "nul", "parens", "lists",
         "list-items", "attributes", "calls", "subscripts", "long-binop"],
)
def test_each_bad_file_is_one_finding_and_the_rest_is_checked(cli, tmp_path, content, reason):
    (tmp_path / "bad.py").write_bytes(content)
    (tmp_path / "good.py").write_text(GOOD)
    code, report = run_json(cli, tmp_path, ".")
    codes_by_path = {(f["path"], f["code"]) for f in report["findings"]}
    assert ("good.py", "RES101") in codes_by_path
    errors = analysis_errors(report)
    if reason is None:
        assert "bad.py" not in errors and ("bad.py", "RES101") in codes_by_path
    else:
        assert reason in errors["bad.py"]["message"]
        assert errors["bad.py"]["severity"] == "error"
    assert code == 1


def test_syntax_error_location(cli, tmp_path):
    (tmp_path / "bad.py").write_text("x = 1\ny = (\n")
    _, report = run_json(cli, tmp_path, "bad.py")
    assert analysis_errors(report)["bad.py"]["line"] == 2


def test_newer_syntax_than_the_interpreter_is_still_parsed(cli, tmp_path):
    # `match` is not Python 3.9 syntax; LibCST decides when ast cannot.
    (tmp_path / "m.py").write_text("import requests\nmatch x:\n    case 1:\n        requests.get(u)\n")
    _, report = run_json(cli, tmp_path, "m.py")
    assert [f["code"] for f in report["findings"]] == ["RES101"]


def test_missing_path_is_an_error_and_exit_2_but_others_are_checked(cli, tmp_path):
    (tmp_path / "good.py").write_text(GOOD)
    code, report = run_json(cli, tmp_path, "missing.py", "good.py")
    assert code == 2
    assert report["errors"] == [{"path": "missing.py", "message": "no such file or directory"}]
    assert [f["code"] for f in report["findings"]] == ["RES101"]


def test_broken_symlink_and_fifo_inside_a_tree(cli, tmp_path):
    (tmp_path / "good.py").write_text(GOOD)
    os.symlink(tmp_path / "nowhere.py", tmp_path / "dangling.py")
    os.mkfifo(tmp_path / "pipe.py")
    code, report = run_json(cli, tmp_path, ".")
    errors = analysis_errors(report)
    assert "broken symlink" in errors["dangling.py"]["message"]
    assert "not a regular file" in errors["pipe.py"]["message"]
    assert code == 1


def test_unreadable_file(tmp_path):
    """Root reads any file, so as root the check runs without the capabilities that allow it."""
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "secret.py").write_text(GOOD)
    os.chmod(tmp_path / "secret.py", 0)
    command = [sys.executable, "-m", "resilint", "check", "--format", "json", "--jobs", "1", "."]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without util-linux's setpriv: cannot make a file unreadable")
        command = [setpriv, "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search", *command]
    try:
        proc = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    finally:
        os.chmod(tmp_path / "secret.py", 0o644)
    report = json.loads(proc.stdout)
    assert analysis_errors(report)["secret.py"]["message"] == "permission denied"
    assert ("good.py", "RES101") in {(f["path"], f["code"]) for f in report["findings"]}
    assert proc.returncode == 1


def test_bom_and_crlf_sources_are_checked(cli, tmp_path):
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbfimport requests\r\nrequests.get(u)\r\n")
    _, report = run_json(cli, tmp_path, "bom.py")
    assert [(f["code"], f["line"]) for f in report["findings"]] == [("RES101", 2)]


def run_process(tmp_path, *args, timeout=120):
    """resilint in a real process: a crash of the process itself shows in its exit status."""
    command = [sys.executable, "-m", "resilint", "check", "--no-cache", "--format", "json", *args]
    return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_or_chain_that_crashed_libcst_is_one_finding_and_every_other_file_is_reported(tmp_path, jobs):
    """10,000 terms overflowed the C stack of LibCST's native parser: exit 139 with one process,
    and with a pool not one of the 20 other files' findings was reported."""
    (tmp_path / "chain.py").write_text("import requests\nx = " + " or ".join(["a"] * 10_000) + "\nrequests.get(u)\n")
    for index in range(20):
        (tmp_path / f"good{index}.py").write_text(GOOD)
    proc = run_process(tmp_path, "--jobs", jobs, ".")
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert sorted(f["path"] for f in report["findings"] if f["code"] == "RES101") == sorted(
        f"good{index}.py" for index in range(20)
    )
    assert analysis_errors(report)["chain.py"]["message"] == "too deeply nested to analyse (over 1000 levels)"


@pytest.mark.slow
def test_newer_syntax_with_a_pathological_chain_is_refused_without_ast(tmp_path):
    """``ast`` of 3.11 refuses PEP 695; the nesting is then bounded from the tokens. This took
    minutes in LibCST."""
    (tmp_path / "new.py").write_text(
        "import requests\ntype X = int\ndef f[T](x: T) -> T:\n    return x\ny = 1" + " + 1" * 8000 + "\n"
    )
    (tmp_path / "good.py").write_text(GOOD)
    proc = run_process(tmp_path, "--jobs", "1", ".", timeout=60)
    report = json.loads(proc.stdout)
    assert analysis_errors(report)["new.py"]["message"].startswith("too deeply nested to analyse")
    assert analysis_errors(report)["new.py"]["line"] == 5
    assert ("good.py", "RES101") in {(f["path"], f["code"]) for f in report["findings"]}


@pytest.mark.parametrize(
    "code",
    [
        "import requests\n(x): int = 1\n(obj.attr): int = requests.get(u)\n",
        "import requests\nx = " + " ".join(["'a'"] * 350) + "\nresponse = requests.get(u)\n",
    ],
    ids=["parenthesized-annotation-target", "implicit-concatenation"],
)
def test_valid_code_that_libcst_finds_hard_is_analysed(cli, tmp_path, code):
    """LibCST's native parser refuses ``(x): int`` (valid Python); 350 concatenated strings
    nest 350 levels deep in LibCST's tree, past Python's default recursion limit."""
    (tmp_path / "m.py").write_text(code)
    exit_code, report = run_json(cli, tmp_path, "m.py")
    column = code.rindex("requests.get") - code.rindex("\n", 0, -1)
    assert [(f["code"], f["line"], f["column"]) for f in report["findings"]] == [("RES101", 3, column)]
    assert exit_code == 1


@pytest.mark.parametrize(
    ("timeout", "message"),
    [
        ("9" * 5000, "may wait more than 1e+308 s, above"),
        ("0x" + "f" * 300, "may wait more than 1e+308 s, above"),
        ("1e308", "may wait 1e+308 s, above"),
        ("int('" + "9" * 5000 + "')", "may wait more than 1e+308 s, above"),
    ],
    ids=["5000-digits", "300-hex-digits", "1e308", "int-of-5000-digits"],
)
def test_huge_timeout_literals_are_huge(cli, tmp_path, timeout, message):
    """5,000 digits crashed (CPython's int-to-str limit: internal error, exit 2), 300 hex digits
    overflowed float() and lost the finding, 1e308 printed all of its 309 digits."""
    (tmp_path / "m.py").write_text(f"import requests\nrequests.get(u, timeout={timeout})\n")
    exit_code, report = run_json(cli, tmp_path, "m.py")
    [finding] = report["findings"]
    assert finding["code"] == "RES105" and message in finding["message"]
    assert (exit_code, report["errors"]) == (1, [])


def test_a_file_over_max_file_size_is_one_finding_and_is_not_parsed(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.resilint]\nmax-file-size = 4096\n")
    (tmp_path / "client.py").write_text("import requests\n" + "requests.get(u)\n" * 300)
    (tmp_path / "data.py").write_text("x = 1\n" * 1000)  # no trigger: not even ast.parse
    (tmp_path / "good.py").write_text(GOOD)
    exit_code, report = run_json(cli, tmp_path, ".")
    errors = analysis_errors(report)
    assert errors["client.py"]["message"] == (
        "too large to analyse: 4,816 bytes, over max-file-size (4,096 bytes); exclude it or raise max-file-size"
    )
    assert errors["data.py"]["message"].startswith("too large to analyse: 6,000 bytes")
    assert [(f["path"], f["code"]) for f in report["findings"] if f["code"] != "RES000"] == [("good.py", "RES101")]
    assert exit_code == 1


def test_the_default_size_bound(cli, tmp_path):
    """A 50 MB file took 24 s and 3.4 GB in ``ast.parse``; beyond 1 MiB a file is not read."""
    (tmp_path / "generated.py").write_bytes(b"x = 1\n" * 200_000)
    _, report = run_json(cli, tmp_path, ".")
    assert "1.1 MiB, over max-file-size (1.0 MiB)" in analysis_errors(report)["generated.py"]["message"]


def test_max_file_size_must_be_a_positive_number_of_bytes(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.resilint]\nmax-file-size = "1MB"\n')
    (tmp_path / "good.py").write_text(GOOD)
    result = cli(["check", "."], tmp_path)
    assert result.exit_code == 2
    assert "`max-file-size` must be a positive number of bytes, got str '1MB'" in result.stderr


@pytest.mark.slow
def test_the_checked_codes_own_warnings_are_not_printed(tmp_path):
    """CPython's parser warns about `0x1for`, `1if` and invalid escapes in the code it reads:
    those warnings belong to the checked code, not to resilint's output."""
    (tmp_path / "w.py").write_text(
        'import requests\nx = [0x1for x in y]\ny = "\\d"\nz = 1if x else 2\nrequests.get(u)\n'
    )
    proc = run_process(tmp_path, "--jobs", "1", ".")
    assert proc.returncode == 1
    assert [f["code"] for f in json.loads(proc.stdout)["findings"]] == ["RES101"]
    assert proc.stderr == ""


@pytest.mark.parametrize("separator", ["\f", "\x1c", "\x85", "\u2028"], ids=["form-feed", "fs", "nel", "u2028"])
def test_the_flagged_line_is_pythons_line(separator):
    """str.splitlines() also breaks at these; Python does not. The text of the flagged line
    (the fingerprint of baselines and SARIF) was the line above it."""
    code = f"# page{separator}break\nimport requests\nrequests.get(u)\n"
    [finding] = check_source(code, ["RES101"])
    assert (finding.line, finding.line_text) == (3, "requests.get(u)")


@pytest.mark.parametrize("content", [GOOD, "x = (\n", "(x): int = 1\nrequests.get(u)\n"])
def test_libcst_validates_the_nodes_it_is_given_again_after_a_file_is_parsed(content):
    """Files are parsed with LibCST's node validation off (the parser builds valid nodes);
    the nodes a fix builds must still be validated, whatever the parse did."""
    import libcst as cst

    check_source(content, ["RES101"])
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


def test_a_method_returning_its_own_result_kept_in_a_local_is_analysed(cli, tmp_path):
    """pywikibot's ``timestripper`` keeps its own call's result in a local and returns it: the
    keys of what it returns are what it returns, a question the summaries must not ask forever."""
    code = (
        "import datetime\nimport requests\n\n\nclass TimeStripper:\n"
        "    def timestripper(self, line):\n        most_recent = []\n        for comment in line.split():\n"
        "            timestamp = self.timestripper(comment[1:])\n            most_recent.append(timestamp)\n"
        "        timestamp = max((ts for ts in most_recent if ts), default=None)\n        return timestamp\n\n\n"
        "response = requests.get(u)\n"
    )
    (tmp_path / "m.py").write_text(code)
    exit_code, report = run_json(cli, tmp_path, "m.py")
    assert [(f["code"], f["line"]) for f in report["findings"]] == [("RES101", 15)]
    assert exit_code == 1
