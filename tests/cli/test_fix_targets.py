"""``fix-target`` through the CLI, on real projects in temporary directories: a fix never adds
a dependency the project does not declare, and says when it uses the one it declares."""

from __future__ import annotations

import json

import pytest

CLIENT = "import requests\n\n\ndef fetch(url):\n    return requests.get(url)\n"
RUNTIME_FIXED = (
    "import requests\nfrom resilint.runtime import timeout\n\n"
    "HTTP_READ_TIMEOUT = 10\nHTTP_CONNECT_TIMEOUT = 3.05\n\n\n"
    "def fetch(url):\n    return requests.get(\n"
    "        url, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)\n    )\n"
)
NATIVE_FIXED = (
    "import requests\n\nHTTP_TIMEOUT = (3.05, 10)\n\n\n"
    "def fetch(url):\n    return requests.get(url, timeout=HTTP_TIMEOUT)\n"
)
URLLIB3 = "from urllib3.util import Retry\n\nRETRY = Retry(total=3, backoff_factor=0.5)\n"


def _project(tmp_path, requirements=None, pyproject=None, client=CLIENT):
    (tmp_path / "client.py").write_text(client)
    if requirements is not None:
        (tmp_path / "requirements.txt").write_text(requirements)
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(pyproject)
    return tmp_path / "client.py"


def test_native_target_writes_what_the_project_already_has(cli, tmp_path):
    client = _project(tmp_path, requirements="requests>=2\n")
    result = cli(["fix", "--no-cache", "--show-fixes", "."], tmp_path)
    assert result.exit_code == 0, result.stderr
    assert client.read_text() == NATIVE_FIXED  # a named (connect, read) pair: no new dependency
    assert "resilint-runtime" not in result.stderr


def test_a_declared_runtime_gets_the_runtime_fix_and_the_report_says_the_dependency_is_used(cli, tmp_path):
    client = _project(tmp_path, requirements="requests>=2\nresilint-runtime>=0.1\n")
    result = cli(["fix", "--no-cache", "--show-fixes", "-v", "."], tmp_path)
    assert result.exit_code == 0, result.stderr
    assert client.read_text() == RUNTIME_FIXED
    assert "fix target: runtime (requirements.txt declares resilint-runtime)" in result.stderr
    assert "uses the resilint-runtime dependency (fix target: runtime)" in result.stderr


@pytest.mark.parametrize(("option", "setting", "fixed"), [
    ("runtime", None, True),
    (None, "runtime", True),
    ("native", "runtime", False),  # the option replaces the setting
])
def test_the_option_and_the_setting_choose_the_target(cli, tmp_path, option, setting, fixed):
    pyproject = f'[tool.resilint]\nfix-target = "{setting}"\n' if setting else None
    client = _project(tmp_path, pyproject=pyproject)
    args = ["fix", "--no-cache", *(("--fix-target", option) if option else ()), "."]
    cli(args, tmp_path)
    assert client.read_text() == (RUNTIME_FIXED if fixed else NATIVE_FIXED)


def test_a_declared_runtime_with_the_native_setting_gets_the_native_fix(cli, tmp_path):
    client = _project(tmp_path, requirements="resilint-runtime\n", pyproject='[tool.resilint]\nfix-target = "native"\n')
    result = cli(["fix", "--no-cache", "-v", "."], tmp_path)
    assert client.read_text() == NATIVE_FIXED
    assert "fix target: native" in result.stderr


def test_a_decorated_retry_gets_no_native_key_and_says_why(cli, tmp_path):
    client = _project(tmp_path, client=(
        "import requests\nimport tenacity\n\n\n@tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))\n"
        "def pay(body):\n    return requests.post('https://pay.example', json=body, timeout=TIMEOUT)\n"
    ))
    before = client.read_text()
    result = cli(["fix", "--no-cache", "--unsafe-fixes", "--select", "RES201", "."], tmp_path)
    assert client.read_text() == before
    assert "needs resilint-runtime's `idempotent_operation`, which the native fix target does not use" in result.stderr


def test_check_reports_the_fix_of_the_target_it_would_apply(cli, tmp_path):
    _project(tmp_path)

    def fix_of(*options):
        out = cli(["check", "--no-cache", "--format", "json", *options, "."], tmp_path).stdout
        [finding] = [f for f in json.loads(out)["findings"] if f["code"] == "RES101"]
        return finding["fix"]

    native, runtime = fix_of(), fix_of("--fix-target", "runtime")
    assert native["applicability"] == runtime["applicability"] == "safe"
    assert not any("resilint.runtime" in edit["content"] for edit in native["edits"])
    assert any("from resilint.runtime import timeout" in edit["content"] for edit in runtime["edits"])


def test_a_wrong_fix_target_setting_exits_2_naming_the_key(cli, tmp_path):
    _project(tmp_path, pyproject='[tool.resilint]\nfix-target = "both"\n')
    result = cli(["fix", "--no-cache", "."], tmp_path)
    assert result.exit_code == 2
    assert "`fix-target` must be one of 'auto', 'native', 'runtime'" in result.stderr


@pytest.mark.parametrize(("requirements", "safe", "reason"), [
    ("urllib3>=2.0\n", True, ""),
    ("urllib3>=1.26\n", False, "`backoff_jitter` needs urllib3 >= 2; requirements.txt allows `urllib3>=1.26`"),
    ("requests>=2.31\n", False, "the project does not declare urllib3 (requests allows urllib3 1.x)"),
])
def test_urllib3_backoff_jitter_is_safe_only_where_urllib3_2_is_guaranteed(cli, tmp_path, requirements, safe, reason):
    client = _project(tmp_path, requirements=requirements, client=URLLIB3)
    result = cli(["fix", "--no-cache", "."], tmp_path)
    if safe:
        assert result.exit_code == 0, result.stdout + result.stderr
        assert "Retry(total=3, backoff_factor=0.5, backoff_jitter=0.5)" in client.read_text()
    else:
        assert client.read_text() == URLLIB3
        assert reason in result.stdout
        assert "apply it with --unsafe-fixes" in result.stdout
