"""Every retry codemod is a LibCST command of its own, runnable with LibCST's own tool."""

from __future__ import annotations

import subprocess
import sys

import pytest

from resilint.codemods import all_codemods, codemods_for
from tests.codemods.support import dedent

RETRY_CODEMODS = {
    "add-jitter": "safe", "loop-jitter": "safe", "urllib3-jitter": "unsafe", "add-bound": "safe",
    "idempotency-key": "unsafe", "migrate-to-runtime": "unsafe",
}


def test_discovered_with_their_applicability():
    found = all_codemods()
    assert {name: found[name].APPLICABILITY for name in RETRY_CODEMODS} == RETRY_CODEMODS
    assert [c.APPLICABILITY for c in codemods_for("RES202")][0] == "safe"


@pytest.mark.slow
def test_libcst_tool_runs_a_codemod_with_its_option(tmp_path):
    path = tmp_path / "jobs.py"
    path.write_text(dedent("""
        import backoff

        @backoff.on_exception(backoff.expo, OSError)
        def sync(): ...
        """), encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, "-m", "libcst.tool", "codemod", "-x", "--no-format",
         "resilint.codemods.add_bound.AddBound", "--attempts", "3", str(path)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert ran.returncode == 0, ran.stderr
    assert "@backoff.on_exception(backoff.expo, OSError, max_tries=3)" in path.read_text(encoding="utf-8")


def test_a_call_with_double_star_kwargs_never_gets_a_keyword_it_may_already_hold():
    from resilint.codemods.add_bound import AddBound
    from resilint.codemods.add_jitter import AddJitter
    from tests.codemods.support import rewrite

    source = """
        import backoff, tenacity
        OPTIONS = {"max_tries": 3}

        @backoff.on_exception(backoff.expo, OSError, **OPTIONS)
        def a(): ...

        @tenacity.retry(**OPTIONS)
        def b(): ...
        """
    for codemod in (AddBound, AddJitter):
        assert rewrite(codemod, source)[0] == dedent(source)
