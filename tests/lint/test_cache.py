"""The result cache gives what a fresh run gives, and never a stale answer."""

from __future__ import annotations

import json
import os
import time
import subprocess
import sys

import pytest

from resilint import __version__
from resilint.lint.cache import CACHE_DIRECTORY, CACHE_FORMAT, ResultCache
from resilint.lint.config import Settings, enabled_codes
from resilint.lint.registry import all_rules
from resilint.lint.runner import run

from tests.conftest import write_tree


def check(root, fix_edits=None, **settings):
    settings = Settings(root=str(root), **settings)
    codes = enabled_codes(settings, all_rules())
    cache = ResultCache(settings, codes)
    return run([str(root / "src")], settings, codes, jobs=1, cache=cache, fix_edits=fix_edits), cache


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


def replace_every_entry(cache_path, value):
    """Overwrite each entry of the cache file with ``value``, whatever the file's layout."""
    with open(cache_path) as handle:
        document = json.load(handle)
    entries = document["entries"] if "entries" in document else document
    for key in entries:
        entries[key] = value
    with open(cache_path, "w") as handle:
        json.dump(document, handle)


@pytest.mark.parametrize(
    "damaged",
    [
        [[1, 2]],
        "text",
        {"findings": [{"code": "RES101", "line": True}]},
        {"findings": [[]]},
        {"findings": [{"code": "RES101", "name": "x", "message": "m", "path": "src/a.py", "line": 2,
                       "column": 1, "end_line": 2, "end_column": 2, "severity": "warning",
                       "fix": {"applicability": "maybe", "description": "d", "edits": []},
                       "related": [], "line_text": ""}]},
    ],
    ids=["list", "string", "bool-line", "list-finding", "bad-fix"],
)
def test_an_entry_of_the_wrong_shape_is_ignored_and_rewritten(tmp_path, damaged):
    write_tree(tmp_path, {"src/a.py": "import requests\nrequests.get(u)\n"})
    cold, cache = check(tmp_path)
    replace_every_entry(cache.path, damaged)
    again, cache = check(tmp_path)
    assert again.findings == cold.findings and again.errors == []
    warm, _ = check(tmp_path)  # rewritten: a well-formed entry again
    assert warm.findings == cold.findings
    with open(cache.path) as handle:
        assert damaged not in json.load(handle)["entries"].values()


@pytest.mark.parametrize(
    "content",
    [
        b'{"k": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",  # too deep for the JSON decoder
        b"[1, 2]",
        b'{"format": 1, "entries": []}',
        b'{"3d66": [{"code": "RES101"}]}',  # the layout before entries were versioned
        b"\xff\xfe not UTF-8",
        b"",
    ],
    ids=["deeply-nested", "list", "other-format", "old-layout", "undecodable", "empty"],
)
def test_a_damaged_or_foreign_cache_file_is_ignored_and_replaced(tmp_path, content):
    write_tree(tmp_path, {"src/a.py": "import requests\nrequests.get(u)\n"})
    cold, cache = check(tmp_path)
    with open(cache.path, "wb") as handle:
        handle.write(content)
    again, cache = check(tmp_path)
    assert again.findings == cold.findings and again.errors == []
    with open(cache.path) as handle:
        assert json.load(handle)["format"] == CACHE_FORMAT


@pytest.mark.parametrize(
    ("entry", "kept"),
    [("[" * 700 + "]" * 700, False), ('{"findings":' + "[" * 700 + "]" * 700 + "}", None)],
    ids=["foreign", "shaped-like-an-entry"],
)
def test_an_old_entry_too_deep_to_encode_again_does_not_cost_the_new_ones(tmp_path, entry, kept):
    """700 levels decode near the top of the stack; up to Python 3.11 they do not encode again
    400 frames down (from 3.12 they do). Whatever the Python, this run's entries are saved,
    and an entry that is not resilint's is not carried over (kept None: either way)."""
    write_tree(tmp_path, {"src/a.py": "import requests\nrequests.get(u)\n"})
    _, cache = check(tmp_path)
    with open(cache.path) as handle:
        text = handle.read()
    with open(cache.path, "w") as handle:
        handle.write(text.replace('"entries":{', '"entries":{"other":' + entry + ",", 1))
    settings = Settings(root=str(tmp_path))
    codes = enabled_codes(settings, all_rules())
    cache = ResultCache(settings, codes)
    result = run([str(tmp_path / "src")], settings, codes, jobs=1, cache=None)
    cache.put("fresh", result.findings)

    def save_from_deep_in_the_stack(depth):
        return cache.save() if depth == 0 else save_from_deep_in_the_stack(depth - 1)

    save_from_deep_in_the_stack(400)
    with open(cache.path) as handle:
        entries = json.load(handle)["entries"]
    assert "fresh" in entries
    if kept is not None:
        assert ("other" in entries) is kept


def test_adding_an_init_py_changes_the_module_and_so_the_key(tmp_path):
    # Without src/lib/pkg/__init__.py the module is `lib.pkg.b` (a namespace package seen from the
    # project root) and `.http` is `lib.pkg.http`; with it, the module is `pkg.b`.
    write_tree(tmp_path, {"src/lib/pkg/b.py": "from .http import get\nget(u)\n"})
    first, _ = check(tmp_path, extend_clients=("pkg.http.get",))
    assert first.findings == []
    (tmp_path / "src" / "lib" / "pkg" / "__init__.py").write_text("")
    second, _ = check(tmp_path, extend_clients=("pkg.http.get",))
    assert [(f.path, f.code) for f in second.findings] == [(str(tmp_path / "src" / "lib" / "pkg" / "b.py"), "RES101")]


def test_the_same_relative_path_from_another_directory_is_another_file(cli, tmp_path):
    """Per-file-ignores match the path relative to the configuration, not as typed."""
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.resilint]\nper-file-ignores = {"src/a.py" = ["RES101"]}\n',
        "src/a.py": "import requests\nrequests.get(u)\n",
        "sub/src/a.py": "import requests\nrequests.get(u)\n",
    })
    assert cli(["check", "src/a.py"], tmp_path).exit_code == 0
    result = cli(["check", "src/a.py"], tmp_path / "sub")  # sub/src/a.py: not ignored
    assert result.exit_code == 1 and "src/a.py:2:1: RES101" in result.stdout


@pytest.mark.slow
def test_cache_dir_in_an_existing_directory_adds_no_gitignore_there(cli, tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write_tree(tmp_path, {".gitignore": "*.log\n", "a.py": "import requests\nrequests.get(u)\n"})
    for _ in range(2):
        result = cli(["check", "--cache-dir", ".", "--format", "concise"], tmp_path)
        assert result.exit_code == 1 and "a.py:2:1: RES101" in result.stdout
    assert (tmp_path / ".gitignore").read_text() == "*.log\n"
    created = [p for p in tmp_path.iterdir() if p.is_dir() and p.name != ".git"]
    assert [p.name for p in created] == [__version__]  # what resilint created hides itself
    assert (created[0] / ".gitignore").read_text().splitlines()[-1] == "*"


@pytest.mark.slow
def test_a_fifo_in_place_of_the_cache_file_is_not_opened(tmp_path):
    write_tree(tmp_path, {"a.py": "import requests\nrequests.get(u)\n"})
    command = [sys.executable, "-m", "resilint", "check", "--format", "concise", "a.py"]
    subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=60)
    cache_files = sorted((tmp_path / CACHE_DIRECTORY / __version__).iterdir())
    assert [f.suffix for f in cache_files] == [".json", ".summaries"]
    for cache_file in cache_files:  # the findings and the summaries
        cache_file.unlink()
        os.mkfifo(cache_file)
    proc = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "a.py:2:1: RES101" in proc.stdout, proc.stderr


def test_a_file_changed_between_the_cache_lookup_and_its_check_is_not_cached_under_the_old_key(tmp_path, monkeypatch):
    """The workers read the files they check; the main process only keys the cache. A file
    edited in between is reported as checked (its new digest), and its findings are not stored
    under the key of the bytes it had before, which a later run would then trust."""
    import resilint.lint.runner as runner_module
    from resilint.lint.source import content_digest

    path = tmp_path / "src" / "a.py"
    write_tree(tmp_path, {"src/a.py": "import requests\nrequests.get(u)\n"})
    edited = b"import requests\nrequests.get(u, timeout=None)\n"
    real_check_all = runner_module._check_all

    def edit_first(tasks, *args, **kwargs):
        path.write_bytes(edited)
        return real_check_all(tasks, *args, **kwargs)

    monkeypatch.setattr(runner_module, "_check_all", edit_first)
    during, _ = check(tmp_path)
    assert [f.code for f in during.findings] == ["RES102"]
    assert during.digests[str(path)] == content_digest(edited)
    monkeypatch.setattr(runner_module, "_check_all", real_check_all)
    path.write_bytes(b"import requests\nrequests.get(u)\n")  # back to the bytes the lookup keyed
    after, _ = check(tmp_path)
    assert [f.code for f in after.findings] == ["RES101"]


def test_a_run_that_shows_edits_after_one_that_did_not_computes_them_and_keeps_them(tmp_path):
    """A text run caches fixes only declared; a JSON run after it (nothing changed) checks the
    files whose fixes it must show again, with their edits, and caches those; a third run
    answers from the cache. A project finding (caller.py's, through the wrapper) carries no
    fix: no codemod rewrites what only the project pass sees."""
    from resilint.fixing.fix_edits import with_fixes

    write_tree(tmp_path, {
        "src/pkg/__init__.py": "",
        "src/pkg/wrap.py": "import requests\n\n\ndef fetch(u, timeout=None):\n    return requests.get(u, timeout=timeout)\n",
        "src/pkg/caller.py": "from pkg.wrap import fetch\n\nfetch('u')\n",
        "src/pkg/other.py": "import requests\n\nrequests.get('u')\n",
        "src/pkg/plain.py": "x = 1\n",
    })
    text_run, _ = check(tmp_path, fix_target="runtime")
    fixable = [f for f in text_run.findings if f.fix is not None]
    assert fixable and all(f.fix.edits is None for f in fixable)  # declared: may be fixed by add-timeout
    assert all("add-timeout" in f.fix.description for f in fixable)
    json_run, _ = check(tmp_path, with_fixes, fix_target="runtime")
    # other.py's own finding was cached with a declared fix: checked again; the others answered
    assert [p for p in json_run.digests if p not in json_run.from_cache] == [p for p in json_run.digests if p.endswith("other.py")]
    assert [f.fix.edits for f in json_run.findings if f.fix is not None] and all(
        f.fix is None or f.fix.edits for f in json_run.findings
    )
    again, _ = check(tmp_path, with_fixes, fix_target="runtime")
    assert len(again.from_cache) == 5
    assert again.findings == json_run.findings
    text_again, _ = check(tmp_path, fix_target="runtime")  # a text run takes what the cache holds, edits and all
    assert text_again.findings == json_run.findings


def test_a_damaged_summary_line_costs_only_its_file(tmp_path):
    """Summaries are stored a line per file: a damaged line is that file's summary missing (the
    file is analysed again for it), not every summary lost; the others are kept as they were."""
    from resilint.lint.summary import ModuleSummary

    write_tree(tmp_path, {
        "src/pkg/__init__.py": "",
        "src/pkg/wrap.py": "import requests\n\n\ndef fetch(u, timeout=None):\n    return requests.get(u, timeout=timeout)\n",
        "src/pkg/caller.py": "from pkg.wrap import fetch\n\nfetch('u')\n",
    })
    _, cache = check(tmp_path)
    with open(cache.summaries_path, encoding="utf-8") as handle:
        header, *lines = handle.read().splitlines()
    assert header == f'{{"format":{CACHE_FORMAT}}}' and len(lines) == 3
    (wrap,) = [line for line in lines if "wrap.py" in line]
    (init,) = [line for line in lines if "__init__.py" in line]
    key = wrap.split("\t")[0]
    with open(cache.summaries_path, "w", encoding="utf-8") as handle:
        handle.write("\n".join([header, *(f"{key}\t[2, {{not json" if line == wrap else line for line in lines)]) + "\n")
    # a call added (a line that only moves the others would move the last pass's findings)
    (tmp_path / "src" / "pkg" / "caller.py").write_text("from pkg.wrap import fetch\n\n\nfetch('u')\nfetch('v', timeout=5)\n")
    second, cache = check(tmp_path)
    # wrap.py's summary was made again
    assert [(f.code, f.line) for f in second.findings] == [("RES102", 4), ("RES103", 5)]
    with open(cache.summaries_path, encoding="utf-8") as handle:
        kept = handle.read().splitlines()[1:]
    assert init in kept
    assert [line.split("\t")[0] for line in kept].count(key) == 1
    assert all(ModuleSummary.from_json(json.loads(line.split("\t", 1)[1])) is not None for line in kept)


def test_summaries_decoded_ahead_are_the_ones_read_later(tmp_path):
    write_tree(tmp_path, {"src/a.py": "import requests\n\n\ndef f(u):\n    return requests.get(u)\n"})
    _, first = check(tmp_path)
    (key,) = [line.split("\t")[0] for line in open(first.summaries_path, encoding="utf-8").read().splitlines()[1:]]
    settings = Settings(root=str(tmp_path))
    cache = ResultCache(settings, enabled_codes(settings, all_rules()))
    expected = cache.summary(key)
    assert expected is not None and "src.a.f" in expected.functions
    ahead = ResultCache(settings, enabled_codes(settings, all_rules()))
    ahead.decode_summaries([key, "no-such-key"])
    assert ahead.summary(key) == expected
    assert ahead.summary(key) == expected  # asked again: decoded again, not lost
    assert ahead.summary("no-such-key") is None


def test_the_worker_pool_runs_the_main_process_work_once_while_files_are_checked(tmp_path):
    from resilint.lint.workers import WorkerPool

    write_tree(tmp_path, {f"src/m{i}.py": "import requests\nrequests.get(u)\n" for i in range(4)})
    settings = Settings(root=str(tmp_path))
    calls = []
    with WorkerPool(settings, enabled_codes(settings, all_rules()), 2) as pool:
        tasks = [(str(tmp_path / "src" / f"m{i}.py"), None) for i in range(4)]
        outcomes = dict(pool.check(tasks, lambda finished: calls.append((len(pool.workers), finished()))))
        assert not pool._finished()  # every file checked: no worker holds one
    assert [workers for workers, _ in calls] == [2]
    assert sorted(outcomes) == [0, 1, 2, 3]
    assert all([f.code for f in outcome[0]] == ["RES101"] for outcome in outcomes.values())


def test_a_warm_run_takes_an_unchanged_files_key_from_one_stat(tmp_path):
    """A file whose size, modification time and inode are those recorded is not read again: a
    change that keeps all three (same size, time put back) goes unseen, as in make and git;
    any real edit moves the time."""
    write_tree(tmp_path, {"src/a.py": "import requests\nrequests.get(u)\n"})
    path = tmp_path / "src" / "a.py"
    an_hour_ago = time.time() - 3600
    os.utime(path, (an_hour_ago, an_hour_ago))
    first, _ = check(tmp_path)
    assert [f.code for f in first.findings] == ["RES101"]
    path.write_text("import requests\nrequests.pst(u)\n")  # same size
    os.utime(path, (an_hour_ago, an_hour_ago))
    second, _ = check(tmp_path)
    assert second.from_cache and [f.code for f in second.findings] == ["RES101"]
    os.utime(path, None)  # what an editor's save does
    third, _ = check(tmp_path)
    assert not third.from_cache and third.findings == []


def test_a_file_changed_just_before_the_cache_was_written_is_read_again(tmp_path):
    """Within ``_RACY_SECONDS`` of the write, a change could keep the same time (the clock's
    resolution): no stat is recorded for such a file, so the next run reads and hashes it."""
    write_tree(tmp_path, {"src/a.py": "import requests\nrequests.get(u)\n"})
    path = tmp_path / "src" / "a.py"
    check(tmp_path)
    stamp = os.stat(path)
    path.write_text("import requests\nrequests.pst(u)\n")
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    again, _ = check(tmp_path)
    assert not again.from_cache and again.findings == []


def test_decoding_summaries_meanwhile_stops_when_asked_and_the_rest_decode_when_needed(tmp_path):
    write_tree(tmp_path, {f"src/m{i}.py": f"import requests\ndef f{i}(u):\n    return requests.get(u)\n" for i in range(40)})
    first, _ = check(tmp_path)
    settings = Settings(root=str(tmp_path))
    cache = ResultCache(settings, enabled_codes(settings, all_rules()))
    keys = [key for key in cache._entries]
    assert len(keys) == 40
    cache.decode_summaries(keys, stop=lambda: True)
    assert 0 < len(cache._decoded) < 40  # asked every few summaries: it stopped
    assert all(cache.summary(key) is not None for key in keys)  # the rest are decoded when asked for
