"""A finding's advice names `resilint.runtime` only to a project whose fixes may use it (the
fix target): a project that has not adopted the runtime is told what its own code can do."""

from __future__ import annotations

import json

from tests.conftest import write_tree

CLIENT = """
    import time

    import requests

    def fetch(url):
        for attempt in range(3):
            try:
                return requests.get(url, timeout=10)
            except requests.ConnectionError:
                time.sleep(2)
"""


def _messages(cli, root, *extra):
    result = cli(["check", "--no-cache", "--format", "json", "--select", "RES1,RES2", *extra, "."], root)
    return {f["code"]: f["message"] for f in json.loads(result.stdout)["findings"]}


def test_native_target_messages_do_not_name_the_runtime(cli, tmp_path):
    write_tree(tmp_path, {"app.py": CLIENT})
    messages = _messages(cli, tmp_path)
    assert messages["RES103"] == "`requests.get` has a hard-coded timeout `10`: take it from configuration"
    assert "runtime" not in " ".join(messages.values())
    assert messages["RES202"].endswith("add a random term to each delay")


def test_runtime_target_messages_name_the_deadline_aware_timeout(cli, tmp_path):
    write_tree(tmp_path, {"app.py": CLIENT, "requirements.txt": "requests\nresilint-runtime>=0.1\n"})
    declared = _messages(cli, tmp_path)
    assert "take it from configuration, or pass the deadline-aware `resilint.runtime.timeout(" in declared["RES103"]
    chosen = _messages(cli, write_tree(tmp_path / "chosen", {"app.py": CLIENT}), "--fix-target", "runtime")
    assert chosen["RES103"] == declared["RES103"]
