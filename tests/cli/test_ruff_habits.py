"""The command-line habits ruff users bring, with ruff's names and meanings: standard input
(``-``, ``--stdin-filename``), ``--exclude``/``--extend-exclude``, ``--quiet``/``--verbose``,
``check --fix``, ``--show-fixes``, ``--fixable``/``--unfixable``, why a finding was not fixed,
diff hunks that name their rules, and ``resilint rules`` in a pipe."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from resilint.cli import main
from resilint.codemods.add_timeout import AddTimeout
from resilint.codemods.split_timeout import SplitTimeout
from tests.cli.test_fix_cli import CLIENT as INDENTED_CLIENT
from tests.conftest import cli_runner, write_tree

CLIENT = textwrap.dedent(INDENTED_CLIENT).lstrip()  # a safe fix, an unsafe one, a case left alone
# every project here declares the runtime, so the fixes may use it (the runtime fix target)
DECLARED = {"requirements.txt": "requests>=2\nresilint-runtime>=0.1\n"}
CLEAN = "import requests\n\ndef fetch(u, timeout):\n    return requests.get(u, timeout=timeout)\n"


@pytest.fixture
def run(monkeypatch):
    """``resilint ARGS`` in-process from ``cwd``, with ``stdin`` as standard input."""

    def invoke(args, cwd, stdin=None):
        monkeypatch.chdir(cwd)
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.delenv("FORCE_COLOR", raising=False)
        return cli_runner().invoke(main, list(args), input=stdin, catch_exceptions=False)

    return invoke


# --- standard input ----------------------------------------------------------------------------


def test_stdin_is_checked_as_the_file_it_stands_for(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "app/client.py": CLEAN})
    result = run(["check", "-", "--stdin-filename", "app/client.py", "--no-cache"], root, CLIENT)
    assert result.exit_code == 1, result.output
    # the text read from stdin, not the file on disk (which is clean)
    assert "app/client.py:5:12: RES101" in result.stdout
    assert "5 |     return requests.get(u)" in result.stdout  # the code frame is stdin's
    assert (root / "app" / "client.py").read_text() == CLEAN


def test_stdin_without_a_file_name_is_reported_as_dash(run, tmp_path):
    result = run(["check", "-", "--no-cache", "--format", "concise"], tmp_path, CLIENT)
    assert result.exit_code == 1
    assert result.stdout.startswith("-:5:12: RES101")


def test_stdin_takes_the_configuration_and_per_file_ignores_of_its_path(run, tmp_path):
    project = write_tree(tmp_path / "project", {**DECLARED,
        "pyproject.toml": '[tool.resilint]\nignore = ["RES103"]\nper-file-ignores = { "legacy/*.py" = ["RES101"] }\n',
        "legacy/__init__.py": "",
        "new/__init__.py": "",
    })
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # Named from outside the project, and not on disk: its directory's configuration applies.
    legacy = run(["check", "-", "--stdin-filename", str(project / "legacy" / "old.py"), "--no-cache", "--format", "json"], elsewhere, CLIENT)
    new = run(["check", "-", "--stdin-filename", str(project / "new" / "x.py"), "--no-cache", "--format", "json"], elsewhere, CLIENT)
    codes = lambda result: sorted(f["code"] for f in json.loads(result.stdout)["findings"])  # noqa: E731
    assert codes(legacy) == []
    assert codes(new) == ["RES101", "RES101"]
    no_config = run(["check", "-", "--stdin-filename", "x.py", "--no-cache", "--format", "json"], elsewhere, CLIENT)
    assert codes(no_config) == ["RES101", "RES101", "RES103"]


def test_stdin_is_resolved_with_the_project_around_its_path(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED,
        "app/__init__.py": "",
        "app/helpers.py": "import requests\n\n\ndef fetch(url, **kwargs):\n    return requests.get(url, **kwargs)\n",
        "app/prices.py": "x = 1\n",
    })
    caller = "from app.helpers import fetch\n\n\ndef prices():\n    return fetch('https://prices.example.com')\n"
    result = run(["check", "-", "--stdin-filename", "app/prices.py", "--format", "concise"], root, caller)
    assert result.exit_code == 1, result.output
    assert "app/prices.py:5:12: RES101" in result.stdout  # through the wrapper in app/helpers.py, on disk
    assert "helpers.py" not in result.stdout.split("\n")[0]


def test_stdin_is_not_written_to_the_cache(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "other.py": "x = 1\n"})
    run(["check", "other.py"], root)
    cache = next((root / ".resilint_cache").rglob("*.json"))
    before = json.loads(cache.read_text())["entries"]
    run(["check", "-", "--stdin-filename", "app.py"], root, CLIENT)
    assert json.loads(cache.read_text())["entries"].keys() == before.keys()


def test_fix_of_stdin_prints_the_fixed_source_and_writes_nothing(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "app/client.py": CLEAN})
    result = run(["fix", "-", "--stdin-filename", "app/client.py", "--no-cache"], root, CLIENT)
    assert result.exit_code == 1  # findings remain
    # the file's imports are in no isort order: the new one joins its section (`requests`)
    assert result.stdout == CLIENT.replace(
        "import requests\nimport socket\n",
        "import requests\nfrom resilint.runtime import timeout\nimport socket\n\nHTTP_READ_TIMEOUT = 10\nHTTP_CONNECT_TIMEOUT = 3.05\n",
    ).replace("return requests.get(u)", "return requests.get(\n        u, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)\n    )")
    assert "app/client.py:14:48: RES103" in result.stderr  # what remains: on stderr, after the fix
    assert "not fixed: its fix is unsafe: apply it with --unsafe-fixes" in result.stderr
    assert (root / "app" / "client.py").read_text() == CLEAN
    nothing = run(["fix", "-", "--stdin-filename", "app/client.py", "--no-cache"], root, CLEAN)
    assert nothing.exit_code == 0 and nothing.stdout == CLEAN  # unchanged: printed as it came
    crlf = run(["check", "--fix", "-", "--no-cache", "-q"], root, CLIENT.replace("\n", "\r\n").encode())
    assert crlf.stdout_bytes.startswith(b"import requests\r\nfrom resilint.runtime import timeout\r\nimport socket\r\n")


def test_check_fix_of_stdin_prints_the_source_then_reports_on_stderr(run, tmp_path):
    result = run(["check", "--fix", "-", "--stdin-filename", "client.py", "--no-cache", "--format", "concise", "--fix-target", "runtime"], tmp_path, CLIENT)
    assert result.exit_code == 1
    assert "timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)" in result.stdout
    assert "client.py:14:48: RES103" in result.stderr and "RES103" not in result.stdout
    assert "Found 3 findings (1 fixed, 2 remaining)." in result.stderr


def test_diff_of_stdin(run, tmp_path):
    result = run(["fix", "--diff", "-", "--stdin-filename", "client.py", "--no-cache", "--fix-target", "runtime"], tmp_path, CLIENT)
    assert result.exit_code == 1
    assert result.stdout.startswith("--- a/client.py\n+++ b/client.py\n@@ -1,8 +1,14 @@ RES101 (missing-timeout)\n")


@pytest.mark.parametrize(
    "args, message",
    [
        (["check", "-", "other.py"], "'-' (standard input) must be the only path"),
        (["check", "other.py", "--stdin-filename", "x.py"], "--stdin-filename names standard input"),
        (["check", "-", "--add-noqa"], "edit files on disk, not standard input"),
        (["check", "--fix", "--add-noqa"], "--fix cannot be combined with --add-noqa"),
    ],
)
def test_standard_input_refuses_what_it_cannot_do(run, tmp_path, args, message):
    write_tree(tmp_path, {**DECLARED, "other.py": "x = 1\n"})
    result = run(args, tmp_path, CLIENT)
    assert result.exit_code == 2
    assert message in result.stderr


def test_stdin_through_the_installed_command(tmp_path):
    # a real pipe, as editors and pre-commit-style tools call linters
    proc = subprocess.run(
        [sys.executable, "-m", "resilint", "check", "-", "--stdin-filename", "client.py", "--format", "concise", "--no-cache"],
        input=CLIENT.encode(), cwd=tmp_path, capture_output=True,
    )
    assert proc.returncode == 1
    assert proc.stdout.decode().startswith("client.py:5:12: RES101")


# --- exclusion on the command line -------------------------------------------------------------


def test_extend_exclude_and_exclude_on_the_command_line(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED,
        "app/client.py": CLIENT,
        "generated/api.py": CLIENT,
        "build/out.py": CLIENT,
        "sub/gen/x.py": CLIENT,
        "sub/keep.py": CLIENT,
    })

    def paths(*args, cwd=root):
        result = run(["check", *args, "--no-cache", "--format", "json"], cwd)
        return sorted({f["path"] for f in json.loads(result.stdout)["findings"]})

    assert paths(".") == ["app/client.py", "generated/api.py", "sub/gen/x.py", "sub/keep.py"]  # build/ by default
    assert paths(".", "--extend-exclude", "generated,sub/gen") == ["app/client.py", "sub/keep.py"]
    # --exclude replaces the default list: build/ is checked now
    assert paths(".", "--exclude", "generated") == ["app/client.py", "build/out.py", "sub/gen/x.py", "sub/keep.py"]
    # a path is relative to the working directory, as the shell completes it
    assert paths(".", "--extend-exclude", "gen/x.py", cwd=root / "sub") == ["keep.py"]
    # a file named on the command line is always checked
    assert paths("generated/api.py", "--extend-exclude", "generated") == ["generated/api.py"]


# --- quiet and verbose -------------------------------------------------------------------------


def test_quiet_prints_the_findings_and_nothing_else(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "client.py": CLIENT, "clean.py": CLEAN})
    result = run(["check", "-q", "client.py", "--no-cache"], root)
    assert result.exit_code == 1
    assert "client.py:5:12: RES101" in result.stdout and "Found" not in result.stdout
    clean = run(["check", "--quiet", "clean.py", "--no-cache"], root)
    assert clean.exit_code == 0 and clean.stdout == "" and clean.stderr == ""
    fixing = run(["fix", "-q", "client.py", "--no-cache"], root)
    assert fixing.exit_code == 1
    assert "Fixed" not in fixing.stderr and "Left alone" not in fixing.stderr
    assert "client.py:14:48: RES103" in fixing.stdout


def test_verbose_says_what_it_reads_and_what_the_cache_answered(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "pyproject.toml": "[tool.resilint]\nignore = [\"RES103\"]\n", "client.py": CLIENT})
    first = run(["check", "-v", "client.py"], root)
    assert f"resilint: configuration: {root / 'pyproject.toml'}" in first.stderr
    assert "resilint: rules: RES000, RES101, RES102, RES104" not in first.stderr  # RES104 is opt-in
    assert "resilint: rules: RES000, RES101, RES102, RES105" in first.stderr
    assert "resilint: cache: " in first.stderr and ".resilint_cache" in first.stderr
    assert "resilint: checked client.py" in first.stderr
    assert "resilint: 1 file (0 from the cache) in " in first.stderr
    second = run(["check", "--verbose", "client.py"], root)
    assert "resilint: cached  client.py" in second.stderr
    assert "resilint: 1 file (1 from the cache) in " in second.stderr
    assert second.stdout == first.stdout


def test_quiet_and_verbose_together_are_refused(run, tmp_path):
    result = run(["check", "-q", "-v"], tmp_path)
    assert result.exit_code == 2 and "--quiet and --verbose cannot be used together" in result.stderr


# --- check --fix, --show-fixes, --fixable, --unfixable -------------------------------------------


def test_check_fix_fixes_then_reports_what_remains_and_why(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "app/client.py": CLIENT})
    result = run(["check", "--fix", "app", "--no-cache"], root)
    assert result.exit_code == 1
    text = (root / "app" / "client.py").read_text()
    assert "u, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)" in text
    assert "app/client.py:14:48: RES103" in result.stdout  # positions in the fixed file
    assert "= note: not fixed: its fix is unsafe: apply it with --unsafe-fixes" in result.stdout
    assert "= note: not fixed: left alone: add-timeout: `socket.create_connection` takes one number" in result.stdout
    assert "Found 3 findings (1 fixed, 2 remaining; 1 with `resilint fix --unsafe-fixes`)." in result.stdout
    again = run(["check", "--fix", "--unsafe-fixes", "app", "--no-cache"], root)
    assert "Found 2 findings (1 fixed, 1 remaining)." in again.stdout


def test_show_fixes_lists_each_fix_with_its_file_line_rule_and_change(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "app/client.py": CLIENT})
    result = run(["fix", "--show-fixes", "--unsafe-fixes", "app", "--no-cache"], root)
    listing = result.stderr[result.stderr.index("Fixed 2 findings:"):]
    # Lines are those of the file as checked, also for RES103's fix, made after RES101's had
    # added the import (which RES103's fix then needed no more).
    assert listing.splitlines()[:8] == [
        "Fixed 2 findings:",
        f"  app/client.py:5:12: RES101 (missing-timeout), safe fix: {AddTimeout.DESCRIPTION}; uses the resilint-runtime dependency (fix target: runtime)",
        # the import joins `requests` (the file's imports are in no isort order), the constants
        # go below the imports
        "      line 2: added `from resilint.runtime import timeout`",
        "      line 3: added `HTTP_READ_TIMEOUT = 10 HTTP_CONNECT_TIMEOUT = 3.05`",
        "      line 5: `return requests.get(u)` -> `return requests.get( u, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT) )`",
        f"  app/client.py:8:48: RES103 (hardcoded-timeout), unsafe fix: {SplitTimeout.DESCRIPTION}",
        # one constant per value: RES103's 20 s is not RES101's 10 s
        "      line 3: added `UPLOAD_READ_TIMEOUT = 20 UPLOAD_CONNECT_TIMEOUT = 3.05`",
        "      line 8: `return requests.post(u, json=body, timeout=20)` -> `return requests.post( u, json=body, "
        "timeout=timeout(read=UPLOAD_READ_TIMEOUT, connect=UPLOAD_CONNECT_TIMEOUT), )`",
    ]
    diffed = run(["check", "--fix", "--show-fixes", "app", "--no-cache"], write_tree(tmp_path / "b", {**DECLARED, "app/client.py": CLIENT}))
    assert "Fixed 1 finding:\n  app/client.py:5:12: RES101 (missing-timeout)" in diffed.stderr


def test_unfixable_keeps_the_finding_and_withholds_its_fix(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "app/client.py": CLIENT})
    report = json.loads(run(["check", "app", "--unfixable", "RES101", "--format", "json", "--no-cache"], root).stdout)
    by_code = {f["code"]: f for f in report["findings"]}
    assert by_code["RES101"]["fix"] is None and by_code["RES103"]["fix"] is not None
    result = run(["fix", "app", "--unfixable", "RES1", "--unsafe-fixes", "--no-cache"], root)
    assert (root / "app" / "client.py").read_text() == CLIENT
    assert result.exit_code == 1
    assert "app/client.py:5:12: RES101" in result.stdout
    assert "not fixed: RES101 is not fixable in this run" in result.stdout


def test_fixable_selects_the_rules_that_are_fixed(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "app/client.py": CLIENT})
    run(["fix", "app", "--fixable", "RES103", "--unsafe-fixes", "--no-cache"], root)
    text = (root / "app" / "client.py").read_text()
    assert "requests.get(u)\n" in text and "HTTP_READ_TIMEOUT = 20\n" in text


def test_fixable_and_unfixable_settings(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "pyproject.toml": "[tool.resilint]\nunfixable = [\"RES101\"]\n", "app/client.py": CLIENT})
    result = run(["fix", "app", "--no-cache"], root)
    assert (root / "app" / "client.py").read_text() == CLIENT
    assert "not fixed: RES101 is not fixable in this run" in result.stdout
    # --fixable replaces the setting's list, --unfixable adds to it: unfixable wins, as in ruff
    assert run(["fix", "app", "--fixable", "RES101", "--no-cache"], root).exit_code == 1
    assert (root / "app" / "client.py").read_text() == CLIENT
    write_tree(root, {**DECLARED, "pyproject.toml": "[tool.resilint]\nfixable = [\"RES9\"]\n"})
    bad = run(["check", "app"], root)
    assert bad.exit_code == 2 and "`fixable`: unknown rule selector `RES9`" in bad.stderr
    assert run(["check", "app", "--unfixable", "RES9"], root.parent).exit_code == 2


def test_a_finding_with_no_fix_says_so(run, tmp_path):
    root = write_tree(tmp_path, {**DECLARED, "app/client.py": "import requests\ns = requests.Session()\ns.get(u, timeout=500)\n"})
    result = run(["fix", "app", "--no-cache"], root)
    assert "RES105" in result.stdout and "not fixed: RES105 has no automatic fix" in result.stdout


def test_diff_hunks_name_the_rules_whose_fixes_they_hold(run, tmp_path):
    far = CLIENT + "\n" * 12 + "def later(u):\n    return requests.put(u)\n"
    root = write_tree(tmp_path, {**DECLARED, "app/client.py": far})
    result = run(["fix", "--diff", "--unsafe-fixes", "app", "--no-cache"], root)
    headers = [line for line in result.stdout.splitlines() if line.startswith("@@")]
    assert headers == [
        "@@ -1,11 +1,24 @@ RES101 (missing-timeout), RES103 (hardcoded-timeout)",
        "@@ -22,4 +35,6 @@ RES101 (missing-timeout)",
    ]
    # what patch tools read is untouched: the text after the second @@ is a comment for them
    patch = subprocess.run(["git", "apply", "--check", "-"], input=result.stdout, cwd=root, capture_output=True, text=True)
    assert patch.returncode == 0, patch.stdout + patch.stderr
    subprocess.run(["git", "apply", "-"], input=result.stdout, cwd=root, check=True, capture_output=True, text=True)
    assert run(["fix", "--diff", "--unsafe-fixes", "app", "--no-cache"], root).stdout == ""


# --- listings in a pipe ------------------------------------------------------------------------


def test_rules_and_codemods_print_whole_values_outside_a_terminal(run, tmp_path):
    rules = run(["rules"], tmp_path).stdout.splitlines()
    assert rules[0].split() == ["code", "name", "default", "fixable", "summary"]
    row = next(line for line in rules if line.startswith("RES201"))
    assert "retried-non-idempotent-call" in row
    assert row.endswith("A POST or PATCH is retried without an idempotency key that survives the retry.")
    assert all(line == line.rstrip() for line in rules)
    codemods = run(["codemods"], tmp_path).stdout
    assert "Send retried POST/PATCH requests with an Idempotency-Key that is stable across attempts (RES201)." in codemods
