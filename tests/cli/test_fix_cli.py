"""``resilint fix``, ``resilint codemod`` and ``resilint codemods`` on real files, in-process."""

from __future__ import annotations

import json

from resilint.codemods.add_timeout import AddTimeout
from resilint.codemods.split_timeout import SplitTimeout
from tests.conftest import write_tree

CLIENT = """
    import requests
    import socket

    def fetch(u):
        return requests.get(u)

    def upload(u, body):
        return requests.post(u, json=body, timeout=20)

    def connect():
        return socket.create_connection(("db", 5432))
"""


def _project(tmp_path, pyproject=None):
    # the project declares the runtime, so fixes may use it (the runtime fix target)
    files = {"app/client.py": CLIENT, "requirements.txt": "requests>=2\nresilint-runtime>=0.1\n"}
    if pyproject is not None:
        files["pyproject.toml"] = pyproject
    return write_tree(tmp_path, files)


def test_fix_applies_the_safe_fixes_lists_what_remains_and_exits_1(cli, tmp_path):
    root = _project(tmp_path)
    result = cli(["fix", "--no-cache", "app"], root)
    text = (root / "app" / "client.py").read_text()
    assert "HTTP_READ_TIMEOUT = 10\nHTTP_CONNECT_TIMEOUT = 3.05\n" in text
    assert "return requests.get(\n        u, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)\n    )" in text
    assert "timeout=20" in text, "RES103's fix is unsafe"
    assert result.exit_code == 1
    assert "app/client.py:14:48: RES103" in result.stdout
    assert "app/client.py:17:12: RES101" in result.stdout
    assert "Fixed 1 finding in 1 file (RES101: 1); 2 findings remaining (1 fixable with --unsafe-fixes)" in result.stderr
    assert "Left alone: app/client.py:17: add-timeout: `socket.create_connection` takes one number of seconds" in result.stderr


def test_unsafe_fixes_and_the_fix_timeout_setting(cli, tmp_path):
    root = _project(tmp_path, "[tool.resilint]\nfix-timeout = { connect = 1, read = 5 }\n")
    result = cli(["fix", "--no-cache", "--unsafe-fixes", "app"], root)
    text = (root / "app" / "client.py").read_text()
    # one constant per value: the setting's seconds for RES101, the call's own 20 s for RES103
    assert "HTTP_READ_TIMEOUT = 5\nHTTP_CONNECT_TIMEOUT = 1\n" in text and "UPLOAD_READ_TIMEOUT = 20\nUPLOAD_CONNECT_TIMEOUT = 1\n" in text
    assert "u, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)" in text
    assert "timeout=timeout(read=UPLOAD_READ_TIMEOUT, connect=UPLOAD_CONNECT_TIMEOUT)," in text
    assert result.exit_code == 1  # the socket call remains
    assert "Fixed 2 findings in 1 file (RES101: 1, RES103: 1); 1 finding remaining" in result.stderr


def test_diff_prints_the_change_writes_nothing_and_exits_1(cli, tmp_path):
    root = _project(tmp_path)
    before = (root / "app" / "client.py").read_text()
    result = cli(["fix", "--no-cache", "--diff", "app"], root)
    assert (root / "app" / "client.py").read_text() == before
    assert result.exit_code == 1
    assert result.stdout.startswith("--- a/app/client.py\n+++ b/app/client.py\n")
    assert "-    return requests.get(u)\n+    return requests.get(\n+        u, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)\n+    )\n" in result.stdout
    assert "Would fix 1 finding in 1 file" in result.stderr
    clean = write_tree(tmp_path / "clean", {"a.py": "import requests\nrequests.get('u', timeout=T)\n"})
    nothing = cli(["fix", "--no-cache", "--diff", "."], clean)
    assert nothing.exit_code == 0 and nothing.stdout == ""


def test_fix_takes_the_selection_options_of_check(cli, tmp_path):
    root = _project(tmp_path)
    result = cli(["fix", "--no-cache", "--unsafe-fixes", "--select", "RES103", "app"], root)
    text = (root / "app" / "client.py").read_text()
    assert "return requests.get(u)\n" in text
    assert "HTTP_READ_TIMEOUT = 20\n" in text and "timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)" in text
    assert result.exit_code == 0
    assert cli(["fix", "--select", "RES9", "app"], root).exit_code == 2


def test_codemod_runs_one_codemod_safe_or_not_and_codemods_lists_them(cli, tmp_path):
    root = _project(tmp_path)
    result = cli(["codemod", "split-timeout", "--no-cache", "app"], root)
    text = (root / "app" / "client.py").read_text()
    assert "HTTP_READ_TIMEOUT = 20\n" in text and "return requests.get(u)\n" in text
    assert result.exit_code == 0 and "Changed 1 file." in result.stderr
    again = cli(["codemod", "split-timeout", "--no-cache", "--diff", "app"], root)
    assert again.exit_code == 0 and again.stdout == ""
    unknown = cli(["codemod", "nope", "app"], root)
    assert unknown.exit_code == 2 and "unknown codemod 'nope'" in unknown.stderr
    listing = cli(["codemods"], root).stdout
    assert "add-timeout" in listing and "RES101, RES102" in listing and "split-timeout" in listing and "unsafe" in listing
    rows = {line.split()[0]: line for line in listing.splitlines()}
    assert " runtime " in rows["add-timeout"] and " native, runtime " in rows["loop-jitter"]


def test_check_marks_fixable_findings(cli, tmp_path):
    """The text report says which findings are fixable from what the rules declare (no codemod
    runs); the socket call, which the timeout codemod leaves alone, is not counted."""
    root = _project(tmp_path)
    result = cli(["check", "--no-cache", "app"], root)
    assert "= help: may be fixed by add-timeout (safe fix)" in result.stdout
    assert "= help: may be fixed by split-timeout (unsafe fix)" in result.stdout
    assert "(1 fixable with `resilint fix`; 1 more with `resilint fix --unsafe-fixes`)" in result.stdout
    shown = json.loads(cli(["check", "--no-cache", "--format", "json", "app"], root).stdout)
    fixes = [f["fix"] for f in shown["findings"]]
    assert [fix["description"] if fix else None for fix in fixes] == [
        AddTimeout.DESCRIPTION,
        SplitTimeout.DESCRIPTION,
        None,
    ]
    assert all(fix is None or fix["edits"] for fix in fixes)


def test_check_names_the_codemod_a_urllib3_retry_finding_may_get(cli, tmp_path):
    """A urllib3 `Retry`'s backoff may get only urllib3's own jitter, which is unsafe where the
    project allows urllib3 1.x, not the safe jitter of tenacity or of loops; a computed factor,
    and the methods urllib3 retries (no key can be added), get no fix at all."""
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/retries.py": """
            from urllib3.util.retry import Retry

            FIXED = Retry(total=3, backoff_factor=0.5)

            def configured(factor):
                return Retry(total=3, backoff_factor=factor, allowed_methods=None)
        """,
    })
    text = cli(["check", "--no-cache", "--select", "RES201,RES202", "app"], tmp_path).stdout
    assert text.count("= help:") == 1 and "= help: may be fixed by urllib3-jitter (unsafe fix)" in text, text
    assert "Found 3 findings (1 with `resilint fix --unsafe-fixes`)." in text, text
    shown = json.loads(cli(["check", "--no-cache", "--format", "json", "--select", "RES201,RES202", "app"], tmp_path).stdout)
    by_line = {(f["code"], f["line"]): f["fix"] for f in shown["findings"]}
    assert set(by_line) == {("RES202", 3), ("RES202", 6), ("RES201", 6)}, sorted(by_line)
    assert by_line[("RES202", 3)]["applicability"] == "unsafe" and by_line[("RES202", 3)]["edits"]
    assert by_line[("RES202", 6)] is None and by_line[("RES201", 6)] is None


def test_check_calls_fixable_only_what_fix_fixes(cli, tmp_path):
    """A hand-written `while True` retry loop (RES203), a wrapper's `timeout=None` default seen
    by the project pass (RES102) and a delay computed by another module's helper (RES202) are
    bounded or jittered by hand: `check` does not promise a fix for them, and `fix` then fixes
    exactly what `check` counted (the tenacity retry with no stop)."""
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/http.py": """
            import requests

            def get(url, timeout=None):
                return requests.get(url, timeout=timeout)
        """,
        "app/delays.py": """
            def backoff_delay(attempt):
                return 2 ** attempt
        """,
        "app/jobs.py": """
            import time

            import requests
            import tenacity

            from app.delays import backoff_delay
            from app.http import get

            def poll(url):
                while True:
                    try:
                        return requests.get(url, timeout=5)
                    except requests.ConnectionError:
                        time.sleep(2 + 1)

            def fetch(url):
                for attempt in range(5):
                    try:
                        return requests.get(url, timeout=5)
                    except requests.ConnectionError:
                        time.sleep(backoff_delay(attempt))

            def status(url):
                return get(url)

            @tenacity.retry(wait=tenacity.wait_random(0, 1))
            def refresh(url):
                return requests.get(url, timeout=5)
        """,
    })
    shown = json.loads(cli(["check", "--no-cache", "--format", "json", "--select", "RES102,RES202,RES203", "app"], tmp_path).stdout)
    by_line = {(f["code"], f["line"]): f["fix"] for f in shown["findings"]}
    assert set(by_line) >= {("RES203", 10), ("RES202", 21), ("RES102", 24), ("RES203", 26)}, sorted(by_line)
    fixable = sorted(key for key, fix in by_line.items() if fix is not None)
    text = cli(["check", "--no-cache", "--select", "RES102,RES202,RES203", "app"], tmp_path).stdout
    assert f"({len(fixable)} fixable with `resilint fix`" in text
    assert ("RES203", 10) not in fixable and ("RES202", 21) not in fixable and ("RES102", 24) not in fixable
    fixed = cli(["fix", "--no-cache", "--select", "RES102,RES202,RES203", "app"], tmp_path)
    assert f"Fixed {len(fixable)} finding" in fixed.stdout + fixed.stderr, fixed.stdout + fixed.stderr


def _apply(text: str, edits) -> str:
    """Apply JSON edits (1-based, end column exclusive) from the last to the first."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def offset(line: int, column: int) -> int:
        return offsets[line - 1] + column - 1

    for edit in sorted(edits, key=lambda e: (e["line"], e["column"]), reverse=True):
        start, end = offset(edit["line"], edit["column"]), offset(edit["end_line"], edit["end_column"])
        text = text[:start] + edit["content"] + text[end:]
    return text


def test_json_and_sarif_carry_the_concrete_edits_of_each_fix(cli, tmp_path):
    import json

    import jsonschema

    from tests.conftest import SARIF_SCHEMA

    root = _project(tmp_path)
    source = (root / "app" / "client.py").read_text()
    document = json.loads(cli(["check", "--no-cache", "--format", "json", "app"], root).stdout)
    by_line = {f["line"]: f for f in document["findings"]}
    assert (by_line[5]["code"], by_line[5]["fix"]["applicability"]) == ("RES101", "safe")
    assert (by_line[8]["code"], by_line[8]["fix"]["applicability"]) == ("RES103", "unsafe")
    assert (by_line[11]["code"], by_line[11]["fix"]) == ("RES101", None)  # the socket: left alone
    fixed = _apply(source, by_line[5]["fix"]["edits"])
    assert "from resilint.runtime import timeout\n" in fixed
    assert "return requests.get(\n        u, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)\n    )" in fixed
    assert "timeout=20" in fixed, "one finding's fix touches only that finding"

    sarif = json.loads(cli(["check", "--no-cache", "--format", "sarif", "app"], root).stdout)
    jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text()))
    fixes = [r["fixes"] for r in sarif["runs"][0]["results"] if "fixes" in r]
    assert len(fixes) == 2
    replacements = fixes[0][0]["artifactChanges"][0]["replacements"]
    assert any("timeout(read=" in r["insertedContent"]["text"] for r in replacements)
