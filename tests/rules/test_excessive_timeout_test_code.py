"""RES105 and test code, through the CLI on a tree on disk: a long timeout is reported in
application code and left alone in tests (a test waits for a server its own run starts, often
slowed on purpose), also when another module's wrapper passes it to the client, unless
``test-code`` says otherwise."""

from __future__ import annotations

import json

from tests.conftest import write_tree

TREE = {
    "app/__init__.py": "",
    "app/client.py": (
        "import requests\n\nEXPORT_TIMEOUT = 120\n\n\n"
        "def fetch(url, **kwargs):\n    return requests.get(url, **kwargs)\n\n\n"
        "def export(url):\n    return requests.get(url, timeout=EXPORT_TIMEOUT)\n"
    ),
    "tests/__init__.py": "",
    "tests/test_dedupe.py": (
        "import requests\n\nfrom app.client import fetch\n\nSLOW = 120\n\n\n"
        "def test_import(live_server):\n    assert requests.post(live_server.url, timeout=SLOW)\n\n\n"
        "def test_through_the_wrapper(live_server):\n    assert fetch(live_server.url, timeout=SLOW)\n"
    ),
}


def _reported(cli, root):
    result = cli(["check", "--select", "RES105", "--no-cache", "--format", "json", "."], root)
    assert result.exit_code in (0, 1), result.output
    return sorted((f["path"], f["line"]) for f in json.loads(result.stdout)["findings"])


def test_test_code_is_left_alone_and_application_code_reported(cli, tmp_path):
    write_tree(tmp_path, TREE)
    assert _reported(cli, tmp_path) == [("app/client.py", 11)]


def test_an_empty_test_code_setting_checks_tests_too(cli, tmp_path):
    write_tree(tmp_path, {**TREE, "pyproject.toml": "[tool.resilint]\ntest-code = []\n"})
    assert _reported(cli, tmp_path) == [("app/client.py", 11), ("tests/test_dedupe.py", 9), ("tests/test_dedupe.py", 13)]
