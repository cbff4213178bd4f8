"""The result cache gives what a fresh run gives, and never a stale answer."""

from __future__ import annotations

import json
import os

from resilint.lint.cache import CACHE_DIRECTORY, ResultCache
from resilint.lint.config import Settings, enabled_codes
from resilint.lint.registry import all_rules
from resilint.lint.runner import run

from tests.conftest import write_tree


def check(root, **settings):
    settings = Settings(root=str(root), **settings)
    codes = enabled_codes(settings, all_rules())
    cache = ResultCache(settings, codes)
    return run([str(root / "src")], settings, codes, jobs=1, cache=cache), cache


def test_warm_run_matches_cold_run_and_parses_nothing(tmp_path, monkeypatch):
    write_tree(tmp_path, {"src/a.py": "import requests\nrequests.get(u)  # a\n", "src/b.py": "def f(:\n"})
    cold, cache = check(tmp_path)
    assert os.path.isfile(cache.path)
    with open(os.path.join(tmp_path, CACHE_DIRECTORY, ".gitignore")) as handle:
        assert "*" in handle.read()

    import resilint.lint.checker as checker

    def fail(*args, **kwargs):
        raise AssertionError("a warm run must not parse")

    monkeypatch.setattr(checker.cst, "parse_module", fail)
    monkeypatch.setattr(checker.ast, "parse", fail)
    warm, _ = check(tmp_path)
    assert warm.findings == cold.findings
    assert [f.line_text for f in warm.findings] == [f.line_text for f in cold.findings]


def test_changed_file_or_settings_are_checked_again(tmp_path):
    write_tree(tmp_path, {"src/a.py": "import requests\nrequests.get(u)\n"})
    first, _ = check(tmp_path)
    assert [f.code for f in first.findings] == ["RES101"]
    (tmp_path / "src" / "a.py").write_text("import requests\nrequests.get(u, timeout=None)\n")
    second, _ = check(tmp_path)
    assert [f.code for f in second.findings] == ["RES102"]
    third, _ = check(tmp_path, ignore=("RES102",))
    assert third.findings == []


def test_corrupt_cache_is_ignored_and_replaced(tmp_path):
    write_tree(tmp_path, {"src/a.py": "import requests\nrequests.get(u)\n"})
    _, cache = check(tmp_path)
    with open(cache.path, "w") as handle:
        handle.write("{not json")
    again, cache = check(tmp_path)
    assert [f.code for f in again.findings] == ["RES101"]
    with open(cache.path) as handle:
        assert json.load(handle)


def test_no_cache_flag_writes_nothing(cli, tmp_path):
    write_tree(tmp_path, {"a.py": "import requests\nrequests.get(u)\n"})
    assert cli(["check", "--no-cache", "a.py"], tmp_path).exit_code == 1
    assert not (tmp_path / CACHE_DIRECTORY).exists()
    assert cli(["check", "a.py"], tmp_path).exit_code == 1
    assert (tmp_path / CACHE_DIRECTORY).is_dir()
