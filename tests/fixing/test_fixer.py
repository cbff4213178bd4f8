"""The fix engine on real files: what it writes, what it refuses to write, and why."""

from __future__ import annotations

import os
import re
import stat
from typing import Dict, Type

import libcst as cst
import pytest

from resilint.codemods.base import ResilintCodemod
from resilint.fixing import fixer as fixer_module
from resilint.fixing.codemod_run import run_codemod, span_of
from resilint.fixing.edits import edits_between
from resilint.fixing.fix_edits import with_fixes
from resilint.fixing.fixer import Fixer
from resilint.lint.config import Settings, enabled_codes
from resilint.lint.finding import Edit
from resilint.lint.registry import all_rules
from resilint.lint.runner import run

from tests.conftest import write_tree

IMPORT = b"from resilint.runtime import timeout\n"
NAMED = b"\nHTTP_READ_TIMEOUT = 10\nHTTP_CONNECT_TIMEOUT = 3.05\n"  # the fix's seconds, named once per file
FIXED_CALL = b"requests.get(u, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT))"


def _fix(root, unsafe=False, write=True, before_fixing=None, target="runtime"):
    # the writing mechanics are exercised with RES101's fix, which the runtime target offers
    settings = Settings(root=str(root), fix_target=target)
    codes = enabled_codes(settings, all_rules())
    result = run([str(root)], settings, codes, keep_summaries=True)
    if before_fixing is not None:
        before_fixing()
    return Fixer(settings, codes, result, unsafe=unsafe).fix(write=write)


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        ("crlf", b"import requests\r\n\r\nu = 'x'\r\nrequests.get(u)\r\n",
         b"import requests\r\n" + (IMPORT + NAMED).replace(b"\n", b"\r\n") + b"\r\nu = 'x'\r\n" + FIXED_CALL + b"\r\n"),
        ("bom", b"\xef\xbb\xbfimport requests\n\nu = '\xc3\xa9'\nrequests.get(u)\n",
         b"\xef\xbb\xbfimport requests\n" + IMPORT + NAMED + b"\nu = '\xc3\xa9'\n" + FIXED_CALL + b"\n"),
        ("latin-1-cookie", b"# -*- coding: latin-1 -*-\nimport requests\n\nu = '\xe9'\nrequests.get(u)\n",
         b"# -*- coding: latin-1 -*-\nimport requests\n" + IMPORT + NAMED + b"\nu = '\xe9'\n" + FIXED_CALL + b"\n"),
        ("tabs", b"import requests\n\nif True:\n\tu = 'x'\n\trequests.get(u)\n",
         b"import requests\n" + IMPORT + NAMED + b"\nif True:\n\tu = 'x'\n\t" + FIXED_CALL + b"\n"),
    ],
)
def test_encoding_bom_and_line_endings_are_kept(tmp_path, name, before, after):
    target = tmp_path / "client.py"
    target.write_bytes(before)
    outcome = _fix(tmp_path)
    assert target.read_bytes() == after
    assert outcome.fixed == {"RES101": 1} and not outcome.remaining
    assert _fix(tmp_path).changes == {}, "a second run changes nothing"


def test_the_file_mode_is_kept_and_no_temporary_file_is_left(tmp_path):
    target = tmp_path / "client.py"
    target.write_text("import requests\n\nrequests.get('u')\n")
    os.chmod(target, 0o750)
    _fix(tmp_path)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o750
    assert b"timeout=timeout(" in target.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["client.py"]


def test_a_file_changed_on_disk_since_it_was_checked_is_not_written(tmp_path):
    target = tmp_path / "client.py"
    target.write_text("import requests\n\nrequests.get('u')\n")
    edited = "import requests\n\nrequests.get('u')\nrequests.get('v')\n"
    outcome = _fix(tmp_path, before_fixing=lambda: target.write_text(edited))
    assert target.read_text() == edited
    assert outcome.not_written == [f"{target}: changed on disk since it was checked"]
    assert not outcome.changes


def test_diff_mode_writes_nothing(tmp_path):
    target = tmp_path / "client.py"
    target.write_text("import requests\n\nrequests.get('u')\n")
    outcome = _fix(tmp_path, write=False)
    assert target.read_text() == "import requests\n\nrequests.get('u')\n"
    assert list(outcome.changes) == [str(target)]


# --- deliberately broken codemods (test-only): their fixes are dropped, never written -------


class _Unparseable(ResilintCodemod):
    DESCRIPTION = "writes a syntax error"
    CODES = ("RES101",)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self.is_target(original_node.func):
            return updated_node.with_changes(func=cst.Name("def"))  # `def(u)`: not Python
        return updated_node


class _Ineffective(ResilintCodemod):
    DESCRIPTION = "changes the call but not its finding"
    CODES = ("RES101",)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self.is_target(original_node.func):
            return updated_node.with_changes(args=[*updated_node.args[:-1], updated_node.args[-1].with_changes(value=cst.SimpleString("'v'"))])
        return updated_node


class _Crashing(ResilintCodemod):
    DESCRIPTION = "raises"
    CODES = ("RES101",)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        raise RuntimeError("bug in a codemod")


class _BreaksACaller(ResilintCodemod):
    """Fixes its RES103 target, and removes the line that made a wrapper fill in a timeout:
    the file itself is clean, but a caller in another module now gets RES101 (project pass)."""

    DESCRIPTION = "fixes the target and breaks a wrapper"
    CODES = ("RES103",)

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        if self.is_target(original_node.value):
            return updated_node.with_changes(value=cst.Name("CONFIGURED"))
        return updated_node

    def leave_SimpleStatementLine(self, original_node, updated_node):  # type: ignore[no-untyped-def]
        if "setdefault" in cst.Module([]).code_for_node(original_node):
            return cst.RemoveFromParent()
        return updated_node


def _only(monkeypatch, codemods: Dict[str, Type[ResilintCodemod]]) -> None:
    monkeypatch.setattr(fixer_module, "all_codemods", lambda: codemods)


@pytest.mark.parametrize(
    ("codemod", "reason"),
    [
        (_Unparseable, "the result would not parse"),
        (_Ineffective, "re-checking it still finds RES101 where it was aimed"),
        (_Crashing, "the codemod failed: RuntimeError: bug in a codemod"),
    ],
)
def test_a_fix_that_fails_is_dropped_and_reported_never_written(tmp_path, monkeypatch, codemod, reason):
    _only(monkeypatch, {"broken": codemod})
    source = "import requests\n\nrequests.get('u')\n"
    target = tmp_path / "client.py"
    target.write_text(source)
    outcome = _fix(tmp_path)
    assert target.read_text() == source
    assert len(outcome.dropped) == 1 and reason in outcome.dropped[0], outcome.dropped
    assert outcome.dropped[0].startswith(f"{target}: broken: ")
    assert [f.code for f in outcome.remaining] == ["RES101"]


class _UnparseableRes103(_Unparseable):
    CODES = ("RES103",)
    APPLICABILITY = "unsafe"

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if any(self.is_target(arg.value) for arg in original_node.args):
            return updated_node.with_changes(func=cst.Name("def"))
        return updated_node


def test_a_dropped_fix_is_not_tried_again_once_another_fix_moved_its_lines(tmp_path, monkeypatch):
    from resilint.codemods.add_timeout import AddTimeout

    _only(monkeypatch, {"broken": _UnparseableRes103, "add-timeout": AddTimeout})  # broken first
    target = tmp_path / "client.py"
    target.write_text("import requests\n\nrequests.get('u')\nrequests.get('v', timeout=7)\n")
    outcome = _fix(tmp_path, unsafe=True)
    assert outcome.fixed == {"RES101": 1}
    assert len(outcome.dropped) == 1, outcome.dropped
    assert "requests.get('v', timeout=7)" in target.read_text()


def test_a_fix_that_adds_a_finding_in_another_module_is_dropped(tmp_path, monkeypatch):
    _only(monkeypatch, {"breaks-a-caller": _BreaksACaller})
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/http.py": """
            import requests

            def fetch(url, **kw):
                kw.setdefault("timeout", 5)
                return requests.get(url, **kw)

            requests.get("https://a.example", timeout=7)
        """,
        "app/views.py": "from app.http import fetch\n\nfetch('https://b.example')\n",
    })
    before = (tmp_path / "app" / "http.py").read_text()
    outcome = _fix(tmp_path)
    assert (tmp_path / "app" / "http.py").read_text() == before
    assert len(outcome.dropped) == 1
    assert "re-checking it finds a new RES101 in" in outcome.dropped[0] and "views.py" in outcome.dropped[0]


def test_edits_are_the_smallest_change_with_exclusive_end_columns():
    assert edits_between("a = f(x)\n", "a = f(x, y=1)\n")[0] == Edit(1, 8, 1, 8, ", y=1")
    inserted = edits_between("import a\nb()\n", "import a\nimport c\nb()\n")
    assert inserted == (Edit(2, 1, 2, 1, "import c\n"),)
    assert edits_between("x = 1\r\n", "x = 22\r\n") == (Edit(1, 5, 1, 6, "22"),)


SEPARATE = (
    "import requests\n\n"
    "def f(u, v):\n"
    "    requests.get(u)\n"
    "    requests.post(v, timeout=None)\n"
    "    requests.post(\n"
    "        v,\n"
    "        json={},  # body\n"
    "    )\n"
    "    requests.put(u, timeout=(\n"
    "        2, 9))\n"
    "    u = v\n"
    "    return requests.get(u, timeout=(2, 9))\n"
)
ON_ONE_LINE = (
    "import requests\n\n"
    "def f(u, v):\n"
    "    requests.get(requests.get(u).url)\n"
    "    g(requests.get(u), requests.post(v, timeout=None))\n"
    "    return requests.get(u, timeout=(2, 9)), requests.get(v, timeout=4)\n"
)


def _alone(codemod, findings, data, source, settings, path="example.py"):
    """The oracle: each finding's edits from a run of the codemod with that one target."""
    found = {}
    for finding in findings:
        run = run_codemod(codemod, data, path, settings, [span_of(finding)])
        if run.updated is not None:
            found[id(finding)] = edits_between(source, run.updated.decode())
    return found


@pytest.mark.parametrize(("source", "count"), [(SEPARATE, 5), (ON_ONE_LINE, 6)])
def test_one_run_split_between_findings_gives_each_the_edits_of_fixing_it_alone(monkeypatch, tmp_path, source, count):
    from resilint.codemods.add_timeout import AddTimeout
    from resilint.codemods.split_timeout import SplitTimeout
    from resilint.lint.checker import check_source

    settings = Settings(fix_target="runtime")
    findings = check_source(source, ["RES101", "RES102", "RES103"], settings)
    assert len(findings) == count
    data = source.encode()
    runs = []
    real = run_codemod

    def counted(codemod, *args, **kwargs):
        runs.append(codemod)
        return real(codemod, *args, **kwargs)

    monkeypatch.setattr("resilint.fixing.fix_edits.run_codemod", counted)
    # Outside this repository, where resilint is not first-party: the import joins the third-party
    # block, with no blank line whose place a diff of the whole file could choose either way.
    path = str(tmp_path / "example.py")
    split = with_fixes(findings, data, path, settings)
    assert sorted(c.__name__ for c in runs) == ["AddTimeout", "SplitTimeout"]  # one run each, whatever the count
    for codemod in (AddTimeout, SplitTimeout):
        mine = [f for f in findings if f.code in codemod.CODES]
        alone = _alone(codemod, mine, data, source, settings, path)
        values = {f.line_text[f.column - 1:f.end_column - 1] for f in mine} if codemod is SplitTimeout else set()
        for finding, fixed in zip(findings, split):
            if finding.code not in codemod.CODES:
                continue
            assert fixed.fix is not None
            if len(values) < 2:
                assert fixed.fix.edits == alone[id(finding)], finding
                continue
            # Several values, one constant each: the run names them apart (HTTP_..., F_...), where
            # a finding fixed alone takes the first name. Its own edits still stand alone: the
            # names they use are the ones they define, and the finding is gone.
            fixed_alone = _applied(source, fixed.fix.edits)
            compile(fixed_alone, path, "exec")
            used = set(re.findall(r"=([A-Z0-9_]+_TIMEOUT)\b", fixed_alone))
            assert used and all(re.search(rf"^{name} = ", fixed_alone, re.M) for name in used), fixed_alone
            left = [f for f in check_source(fixed_alone, [finding.code], settings) if f.code == finding.code]
            assert len(left) == len(mine) - 1


def _applied(text, edits):
    """``text`` with these edits made (1-based, end column exclusive), from the last to the first."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        start = starts[edit.line - 1] + edit.column - 1
        end = starts[edit.end_line - 1] + edit.end_column - 1
        text = text[:start] + edit.content + text[end:]
    return text


CALLS = "".join(f'requests.get("https://{n}.example")\n' for n in range(3))


@pytest.mark.parametrize("source", [
    "import requests\n" + CALLS,  # the statement the constant goes above is itself fixed
    "import requests\n\n\n" + CALLS,
    "import requests\n\n# the calls\n" + CALLS,
    "import requests\n\nprint(1)\n" + CALLS,
    "import requests\n\n\nclass A:\n    pass\n" + CALLS.replace("requests.get", "A.x = requests.get"),
])
def test_a_module_constant_is_attributed_from_the_codemod_run_over_the_checked_tree(monkeypatch, tmp_path, source):
    """Each finding gets the edits of fixing it alone, the constant its fix adds above the first
    statement after the imports included, told from one run over the tree ``check`` built: the
    blank and comment lines above that statement are read from the file. (A second run over
    LibCST's parse, and the line diff of the whole file behind it, were quadratic: minutes on a
    module of 4,000 calls.)"""
    from resilint.codemods.add_timeout import AddTimeout
    from resilint.fixing import attribution
    from resilint.lint.checker import Checker

    settings = Settings()
    runs = []
    real = run_codemod

    def counted(codemod, *args, **kwargs):
        runs.append(codemod)
        return real(codemod, *args, **kwargs)

    def no_diff(*args, **kwargs):
        raise AssertionError("the fix edits were split by diffing the file")

    monkeypatch.setattr("resilint.fixing.fix_edits.run_codemod", counted)
    monkeypatch.setattr(attribution, "_by_splitting", no_diff)
    path = str(tmp_path / "example.py")
    findings = Checker(settings, ["RES101"], fix_edits=with_fixes).check_file(source.encode(), path).findings
    assert len(findings) == 3 and len(runs) == 1
    alone = _alone(AddTimeout, findings, source.encode(), source, settings, path)
    for finding in findings:  # the same change (a diff of the texts may place a blank line apart)
        assert finding.fix is not None and _applied(source, finding.fix.edits) == _applied(source, alone[id(finding)])
        assert "HTTP_TIMEOUT = (3.05, 10)" in _applied(source, finding.fix.edits)
