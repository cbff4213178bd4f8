"""The process pool gives exactly what one process gives."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading

import pytest

from resilint.lint import workers
from resilint.lint.checker import Checker
from resilint.lint.config import Settings, enabled_codes
from resilint.lint.registry import all_rules
from resilint.lint.runner import run

from tests.conftest import write_tree


def test_pool_and_single_process_agree(tmp_path):
    files = {}
    for index in range(48):
        files[f"pkg{index % 4}/mod{index}.py"] = (
            "import requests\n" + "\n" * (index % 7)
            + f"def f{index}(u):\n    return requests.get(u, timeout=None if {index} % 2 else 5)\n"
            + ("requests.post(u)\n" if index % 3 else "x = (\n")
        )
    write_tree(tmp_path, files)
    settings = Settings(root=str(tmp_path))
    codes = enabled_codes(settings, all_rules())
    single = run([str(tmp_path)], settings, codes, jobs=1)
    pooled = run([str(tmp_path)], settings, codes, jobs=2)
    assert single.files_checked == pooled.files_checked == 48
    assert single.findings == pooled.findings
    # a parsed file: the POST without a timeout, and the choice with a ``None`` branch
    assert {f.code for f in single.findings} == {"RES000", "RES101", "RES102"}
    assert len(single.findings) == 32 * 2 + 16


def test_a_crash_in_a_rule_is_an_error_naming_the_file_and_the_rest_is_checked(tmp_path, monkeypatch, cli):
    from resilint.rules.timeouts.unbounded_timeout import UnboundedTimeout

    write_tree(tmp_path, {"boom.py": "import requests\nrequests.get(u, timeout=None)\n", "ok.py": "import requests\nrequests.get(u)\n"})

    def explode(self, ctx):
        if ctx.model.path.endswith("boom.py"):
            raise ValueError("rule bug")

    monkeypatch.setattr(UnboundedTimeout, "check", explode)
    result = cli(["check", "--no-cache", "--jobs", "1", "--format", "json", "."], tmp_path)
    assert result.exit_code == 2
    import json

    report = json.loads(result.stdout)
    assert report["errors"] == [{"path": "boom.py", "message": "internal error while checking this file: ValueError: rule bug"}]
    assert [(f["path"], f["code"]) for f in report["findings"]] == [("ok.py", "RES101")]


def _dies_on(name, signal_number, marker=None):
    """A Checker.check_file that kills its own process on the file ``name`` (every time, or
    only while ``marker`` does not exist yet): what a native crash of the parser does."""
    original = Checker.check_file

    def check_file(self, data, path):
        if os.path.basename(path) == name and (marker is None or not marker.exists()):
            if marker is not None:
                marker.touch()
            # To this thread, as a fault is: delivered before the call returns.
            signal.pthread_kill(threading.get_ident(), signal_number)
        return original(self, data, path)

    return check_file


def _clients(tmp_path, count):
    write_tree(tmp_path, {f"client{index}.py": "import requests\nrequests.get(u)\n" for index in range(count)})


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_worker_that_crashes_costs_one_file(tmp_path, monkeypatch, jobs):
    """The worker is forked, so it inherits the patched checker: a real process, a real signal."""
    _clients(tmp_path, 20)
    write_tree(tmp_path, {"crash.py": "import requests\nrequests.get(u)\n"})
    monkeypatch.setattr(Checker, "check_file", _dies_on("crash.py", signal.SIGSEGV))
    settings = Settings(root=str(tmp_path))
    result = run([str(tmp_path)], settings, enabled_codes(settings, all_rules()), jobs=jobs)
    assert result.errors == []
    crashed = [f for f in result.findings if f.code == "RES000"]
    assert [(os.path.basename(f.path), f.message) for f in crashed] == [
        ("crash.py", "the parser crashed on this file (its process was killed by SIGSEGV)")
    ]
    assert len([f for f in result.findings if f.code == "RES101"]) == 20


@pytest.mark.slow
def test_a_worker_killed_from_outside_loses_nothing(tmp_path, monkeypatch):
    """The file a worker held when it died is checked again alone: if it passes, it was not
    the file's fault, and its findings count."""
    _clients(tmp_path, 20)
    monkeypatch.setattr(Checker, "check_file", _dies_on("client7.py", signal.SIGKILL, tmp_path / "killed-once"))
    settings = Settings(root=str(tmp_path))
    result = run([str(tmp_path)], settings, enabled_codes(settings, all_rules()), jobs=2)
    assert (tmp_path / "killed-once").exists()
    assert (result.errors, {f.code for f in result.findings}, len(result.findings)) == ([], {"RES101"}, 20)


@pytest.mark.slow
def test_a_file_that_needs_more_memory_than_a_worker_may_have_is_one_finding(tmp_path, monkeypatch):
    """A 2 MB list literal needs a few hundred MB as syntax trees; with the bound lowered to
    100 MB an allocation fails and the worker aborts."""
    _clients(tmp_path, 3)
    (tmp_path / "data.py").write_text("import requests\nx = [" + ", ".join(map(str, range(300_000))) + "]\n")
    monkeypatch.setattr(workers, "MEMORY_LIMIT", 100 << 20)
    settings = Settings(root=str(tmp_path), max_file_size=4 << 20)
    result = run([str(tmp_path)], settings, enabled_codes(settings, all_rules()), jobs=1)
    [error] = [f for f in result.findings if f.code == "RES000"]
    assert os.path.basename(error.path) == "data.py"
    assert "memory" in error.message
    assert len(result.findings) == 4


def _resident_mb(pid):
    with open(f"/proc/{pid}/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim, /proc")
def test_a_worker_gives_back_the_memory_of_a_large_file_and_the_main_process_its_bytes(tmp_path):
    write_tree(tmp_path, {
        "small.py": "import requests\nrequests.get(u)\n",
        "large.py": "import requests\nx = [" + ", ".join(map(str, range(20_000))) + "]\n",
        "after.py": "import requests\nrequests.get(u)\n",
    })
    first, rest = [[(str(tmp_path / name), (tmp_path / name).read_bytes()) for name in names]
                   for names in (["small.py"], ["large.py", "after.py"])]
    settings = Settings(root=str(tmp_path))
    with workers.WorkerPool(settings, enabled_codes(settings, all_rules()), 1) as pool:
        found = [len(outcome[0]) for _, outcome in pool.check(first)]
        [worker] = pool.workers
        resting = _resident_mb(worker.process.pid)
        found += [len(outcome[0]) for _, outcome in sorted(pool.check(rest))]
        after = _resident_mb(worker.process.pid)
    assert found == [1, 0, 1]
    assert after < resting + 60, (resting, after)  # the large file took over 100 MB while it was checked
    assert [data for _, data in first + rest] == [None, None, None]


@pytest.mark.parametrize("enabled", [True, False])
def test_checking_a_file_leaves_the_garbage_collector_as_it_was(enabled):
    """A file is checked with automatic collection off (its objects live as long as the check),
    then collection is as the caller had it; a caller that turned it off keeps it off."""
    import gc

    checker = Checker(Settings(), ["RES101"])
    source = ("import requests\nrequests.get(u)\n" * 2000).encode()
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        seen = []
        callbacks = gc.callbacks
        callbacks.append(lambda phase, info: seen.append(info["generation"]) if phase == "start" else None)
        try:
            findings = checker.check_file(source, "many.py").findings
        finally:
            callbacks.pop()
        assert len(findings) == 2000 and gc.isenabled() is enabled
        # Not one automatic collection during the check: one of the youngest objects after it.
        assert seen == ([0] if enabled else [])
    finally:
        (gc.enable if was else gc.disable)()


def test_a_crash_in_a_project_rule_is_an_error_naming_the_rule_and_the_others_still_report(tmp_path, monkeypatch, cli):
    """The project pass runs every project rule over the same graph: one rule's bug costs its
    own findings, the others are reported, and nothing is kept in the cache from that pass."""
    from resilint.rules.retries.nested_retry import NestedRetry

    write_tree(tmp_path, {
        "jobs.py": """
            import requests
            import tenacity

            @tenacity.retry(stop=tenacity.stop_after_attempt(3))
            def submit(url, body):
                return requests.post(url, json=body, timeout=5)  # noqa: RES204

            @tenacity.retry(stop=tenacity.stop_after_attempt(3))
            def sync(url, body):
                return submit(url, body)
        """,
    })
    original = NestedRetry.check_project

    def explode(self, ctx):
        raise ValueError("project rule bug")

    monkeypatch.setattr(NestedRetry, "check_project", explode)
    args = ["check", "--select", "RES001,RES201,RES204", "--format", "json", "."]
    result = cli(args, tmp_path)
    report = json.loads(result.stdout)
    assert result.exit_code == 2
    [error] = report["errors"]
    assert error["path"] == "."  # the project, as paths are shown: from the working directory
    assert "internal error in the project rule RES204" in error["message"]
    assert "ValueError: project rule bug" in error["message"]
    # RES201 (the POST retried without a key) still reported; the RES204 noqa not called unused
    assert sorted({(f["code"], f["line"]) for f in report["findings"]}) == [("RES201", 6), ("RES201", 10)]

    monkeypatch.setattr(NestedRetry, "check_project", original)
    report = json.loads(cli(args, tmp_path).stdout)
    assert report["errors"] == []
    assert sorted({f["code"] for f in report["findings"]}) == ["RES001", "RES201", "RES204"]
