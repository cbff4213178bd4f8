"""RES103 and RES105 and test code, through the CLI on a tree on disk: a literal timeout (RES103)
or a long one (RES105) is reported in application code and left alone in tests (it bounds a
call to what the test itself runs, often slowed on purpose), also when another module's
wrapper passes it to the client, unless ``test-code`` says otherwise."""

from __future__ import annotations

import json

import pytest

from tests.conftest import write_tree


def _tree(application_timeout: str, test_timeout: str):
    return {
        "app/__init__.py": "",
        "app/client.py": (
            "import requests\n\nEXPORT_TIMEOUT = 120\n\n\n"
            "def fetch(url, **kwargs):\n    return requests.get(url, **kwargs)\n\n\n"
            f"def export(url):\n    return requests.get(url, timeout={application_timeout})\n"
        ),
        "tests/__init__.py": "",
        "tests/test_server.py": (
            "import requests\n\nfrom app.client import fetch\n\nSLOW = 120\n\n\n"
            f"def test_up(live_server):\n    assert requests.get(live_server.url, timeout={test_timeout})\n\n\n"
            f"def test_through_the_wrapper(live_server):\n    assert fetch(live_server.url, timeout={test_timeout})\n"
        ),
    }


# the rule, the application's timeout and the test's (a literal for RES103, a long one for RES105)
CASES = [("RES103", "3", "2"), ("RES105", "EXPORT_TIMEOUT", "SLOW")]


def _reported(cli, root, code):
    result = cli(["check", "--select", code, "--no-cache", "--format", "json", "."], root)
    assert result.exit_code in (0, 1), result.output
    return sorted((f["path"], f["line"]) for f in json.loads(result.stdout)["findings"])


@pytest.mark.parametrize("code,application_timeout,test_timeout", CASES)
def test_test_code_is_left_alone_and_application_code_reported(cli, tmp_path, code, application_timeout, test_timeout):
    write_tree(tmp_path, _tree(application_timeout, test_timeout))
    assert _reported(cli, tmp_path, code) == [("app/client.py", 11)]


@pytest.mark.parametrize("code,application_timeout,test_timeout", CASES)
def test_an_empty_test_code_setting_checks_tests_too(cli, tmp_path, code, application_timeout, test_timeout):
    write_tree(tmp_path, {**_tree(application_timeout, test_timeout), "pyproject.toml": "[tool.resilint]\ntest-code = []\n"})
    assert _reported(cli, tmp_path, code) == [("app/client.py", 11), ("tests/test_server.py", 9), ("tests/test_server.py", 13)]
