"""RES202 and test code, through the CLI on a tree on disk: the same fixed-wait retry loop is
reported in application code and left alone in test modules, fixtures and the helpers beside
them (one test process is the only client of what they wait for), unless ``test-code`` says
otherwise."""

from __future__ import annotations

import json

from tests.conftest import write_tree

RETRY_LOOP = """
    import time
    import requests

    def wait_until_up(url):
        for _ in range(20):
            try:
                return requests.get(url, timeout=3)
            except requests.ConnectionError:
                time.sleep(0.5)
"""
TENACITY_FIXED = """
    import tenacity

    @tenacity.retry(stop=tenacity.stop_after_attempt(5), wait=tenacity.wait_fixed(1))
    def create_project(client):
        return client.create()
"""
TREE = {
    "app/__init__.py": "",
    "app/poller.py": RETRY_LOOP,
    "tests/__init__.py": "",
    "tests/utils/server_manager.py": RETRY_LOOP,
    "tests/conftest.py": TENACITY_FIXED,
    "integration_tests/web/test_bulk.py": RETRY_LOOP,
    "src/pkg/test_client.py": TENACITY_FIXED,
    "scripts/conftest.py": RETRY_LOOP,
    # behave's acceptance tests: step modules and the environment hooks
    "features/steps/cluster.py": RETRY_LOOP,
    "acceptance/features/environment.py": TENACITY_FIXED,
}


def _reported(cli, root):
    result = cli(["check", "--select", "RES202", "--no-cache", "--format", "json", "."], root)
    assert result.exit_code in (0, 1), result.output
    return sorted(f["path"] for f in json.loads(result.stdout)["findings"])


def test_test_code_is_left_alone_and_application_code_reported(cli, tmp_path):
    write_tree(tmp_path, TREE)
    assert _reported(cli, tmp_path) == ["app/poller.py"]


def test_an_empty_test_code_setting_checks_tests_too(cli, tmp_path):
    write_tree(tmp_path, {**TREE, "pyproject.toml": "[tool.resilint]\ntest-code = []\n"})
    assert _reported(cli, tmp_path) == sorted(p for p in TREE if not p.endswith("__init__.py"))


def test_test_code_globs_are_the_projects_own(cli, tmp_path):
    write_tree(tmp_path, {**TREE, "pyproject.toml": '[tool.resilint]\ntest-code = ["scripts/*"]\n'})
    assert _reported(cli, tmp_path) == sorted(
        p for p in TREE if not p.endswith("__init__.py") and not p.startswith("scripts/")
    )


def test_checked_from_inside_the_tests_directory_it_is_still_test_code(cli, tmp_path):
    write_tree(tmp_path, {**TREE, "pyproject.toml": "[tool.resilint]\n"})
    result = cli(["check", "--select", "RES202", "--no-cache", "--format", "json", "."], tmp_path / "tests")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["findings"] == []


# A script the project's test tooling runs, waiting for a service the job started.
TOOLING_TREE = {
    "app/__init__.py": "",
    "app/poller.py": RETRY_LOOP,
    "make_local_user.py": RETRY_LOOP,
    "ci/wait_for_db.py": RETRY_LOOP,
    "serve.py": RETRY_LOOP,
    "tox.ini": "[testenv:ci]\ncommands =\n    {env_python} make_local_user.py\n    pytest tests\n",
    ".github/workflows/test.yml": (
        "jobs:\n  test:\n    steps:\n"
        "      - run: python -u ci/wait_for_db.py --timeout 60\n"
        "      - run: python serve.py & pytest\n"
    ),
}


def test_scripts_the_test_tooling_runs_are_test_code(cli, tmp_path):
    write_tree(tmp_path, TOOLING_TREE)
    # serve.py is started in the background: the server under test, production code
    assert _reported(cli, tmp_path) == ["app/poller.py", "serve.py"]


def test_a_test_code_setting_names_the_test_code_in_full(cli, tmp_path):
    write_tree(tmp_path, {**TOOLING_TREE, "pyproject.toml": '[tool.resilint]\ntest-code = ["tests/*"]\n'})
    assert _reported(cli, tmp_path) == ["app/poller.py", "ci/wait_for_db.py", "make_local_user.py", "serve.py"]
