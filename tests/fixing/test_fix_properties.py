"""Property-based: ``fix`` never crashes, never writes what does not parse, and is idempotent,
over programs hypothesmith generates and over programs built from templates of the client
calls the codemods rewrite (random programs almost never call ``requests.get``)."""

from __future__ import annotations

import os
import tempfile

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resilint.lint.checker import Checker
from resilint.lint.config import Settings, enabled_codes
from resilint.lint.finding import RunResult
from resilint.fixing.codemod_run import unparseable
from resilint.fixing.fix_edits import with_fixes
from resilint.fixing.fixer import Fixer
from resilint.lint.registry import all_rules
from resilint.lint.source import content_digest

pytestmark = pytest.mark.slow
BOUNDED = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


def _checked(path: str, settings_: Settings, codes) -> RunResult:
    """What ``runner.run`` gives for one file, in this process (no worker pool per example)."""
    checker = Checker(settings_, codes, fix_edits=with_fixes)
    with open(path, "rb") as handle:
        data = handle.read()
    result = checker.check_file(data, path)
    summaries = [result.summary] if result.summary is not None else []
    findings = result.findings + checker.project_findings(summaries, {path})
    return RunResult(findings=findings, files_checked=1, digests={path: content_digest(data)}, summaries=summaries)


def _fix_twice(source: bytes) -> None:
    settings_ = Settings(root=tempfile.gettempdir())
    codes = enabled_codes(settings_.with_overrides(select=("ALL",)), all_rules())
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "example.py")
        with open(path, "wb") as handle:
            handle.write(source)
        first = Fixer(settings_, codes, _checked(path, settings_, codes), unsafe=True).fix()
        with open(path, "rb") as handle:
            written = handle.read()
        if first.changes:
            assert unparseable(written, path) is None
        else:
            assert written == source
        second = Fixer(settings_, codes, _checked(path, settings_, codes), unsafe=True).fix()
        assert second.changes == {}, "a second run changes nothing"


@BOUNDED
@given(hypothesmith.from_grammar())
def test_fix_on_generated_programs(source):
    _fix_twice(source.encode("utf-8"))


_CLIENTS = ["requests.get", "requests.post", "requests.Session().put", "s.delete", "httpx.get", "httpx.Client",
            "socket.create_connection", "redis.Redis", "aiohttp.ClientSession"]
_TIMEOUTS = ["", "timeout=None", "timeout=5", "timeout=(3, 27)", "timeout=(2, None)", "timeout=T", "**kwargs",
             "**{'json': {}}", "timeout=5 * 60", "*args"]
_OTHER_ARGS = ["", "'https://a.example'", "url", "url, json={}", "url,  # where\n", "\n    url,\n    # note\n    data=b'x',\n"]


@st.composite
def client_programs(draw):
    client = draw(st.sampled_from(_CLIENTS))
    first = draw(st.sampled_from(_OTHER_ARGS))
    timeout = draw(st.sampled_from(_TIMEOUTS))
    trailing = draw(st.sampled_from(["", ",", ",\n"]))
    args = ", ".join(a for a in (first.rstrip(), timeout) if a) + (trailing if first or timeout else "")
    parameter = draw(st.sampled_from(["url", "url, timeout", "url, *args, **kwargs", "url, timeout=None, **kwargs"]))
    indent = draw(st.sampled_from(["    ", "\t"]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    body = f"return {client}({args})".replace("\n", "\n" + indent * 2)
    lines = [
        "import requests, httpx, socket, redis, aiohttp",
        "T = 3",
        "s = requests.Session()",
        "",
        f"def call({parameter}):",
        f"{indent}{body}",
        "",
    ]
    return newline.join(lines).encode(draw(st.sampled_from(["utf-8", "utf-8-sig"])))


@BOUNDED
@given(client_programs())
def test_fix_on_client_call_templates(source):
    try:
        compile(source, "example.py", "exec")
    except SyntaxError:
        return  # a template combination that is not Python (`*args` after a keyword, ...)
    _fix_twice(source)
