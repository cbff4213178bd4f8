"""Bad input never crashes the run: each bad file is one RES000, the others are still checked."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import write_tree

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
