"""Multi-module fixture projects, with the expected findings marked inline as in the
single-file fixtures (``tests/rules/fixtures``).

Every directory ``tests/rules/projects/<name>/`` is a project: it is copied to a temporary
directory and checked whole by the real command (``resilint check --format json --no-cache``),
project pass included. A line that must yield a finding ends with ``# expect: RES204`` (several:
``# expect: RES101, RES201``); every other line of every file must yield none of the codes the
project names in its expectations or in a ``# select: RES2`` comment (codes or prefixes) in any
of its files. A finding's message may be checked too: ``# expect: RES204 "4 x 3 = up to 12"``
requires that text in it.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Counter as CounterType
from typing import Dict, List, Set, Tuple

import pytest

from resilint.lint.checker import Checker
from resilint.lint.config import Settings
from resilint.lint.registry import all_rules
from tests.rules.expectations import line_expectations

PROJECTS = Path(__file__).parent / "projects"
_SELECT = re.compile(r"#\s*select:\s*([A-Z0-9, ]+)$")


def _projects() -> List[Path]:
    return sorted(p for p in PROJECTS.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def _expectations(root: Path) -> Tuple[CounterType[Tuple[str, int, str]], Dict[Tuple[str, int, str], List[str]], Set[str]]:
    expected: CounterType[Tuple[str, int, str]] = Counter()
    texts: Dict[Tuple[str, int, str], List[str]] = {}
    selectors: Set[str] = set()
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        lines, wanted = line_expectations(text)
        for (number, code), count in lines.items():
            expected[(relative, number, code)] += count
        for (number, code), found in wanted.items():
            texts[(relative, number, code)] = found
        for line in text.splitlines():
            select = _SELECT.search(line.strip())
            if select:
                selectors.update(s.strip() for s in select.group(1).split(",") if s.strip())
    return expected, texts, selectors


def test_projects_exist():
    assert _projects(), f"no fixture projects in {PROJECTS}"


@pytest.mark.parametrize("project", _projects(), ids=lambda p: p.name)
def test_project(project: Path, cli, tmp_path):
    root = tmp_path / project.name
    shutil.copytree(project, root)
    expected, texts, selectors = _expectations(root)
    codes = {code for _, _, code in expected} | {c for c in all_rules() if any(c.startswith(s) for s in selectors)}
    assert codes, f"{project.name}: no expectations and no `# select:`"
    result = cli(["check", "--no-cache", "--format", "json", "--select", ",".join(sorted(codes)), "."], root)
    assert result.exit_code in (0, 1), result.output + result.stderr
    findings = json.loads(result.output)["findings"]
    actual = Counter((f["path"], f["line"], f["code"]) for f in findings)
    messages: Dict[Tuple[str, int, str], List[str]] = {}
    for f in findings:
        messages.setdefault((f["path"], f["line"], f["code"]), []).append(f["message"])
    missing = expected - actual
    unexpected = actual - expected
    report = "\n".join(
        [f"{project.name} (codes {', '.join(sorted(codes))}):", "missing:"]
        + [f"  {p}:{n}: {c}" for p, n, c in sorted(missing.elements())]
        + ["unexpected:"]
        + [f"  {p}:{n}: {c} {messages[(p, n, c)]}" for p, n, c in sorted(unexpected.elements())]
    )
    assert not missing and not unexpected, report
    for key, wanted in texts.items():
        for text in wanted:
            assert any(text in m for m in messages[key]), f"{key}: {text!r} not in {messages[key]}"


@pytest.mark.parametrize("project", _projects(), ids=lambda p: p.name)
def test_checking_one_file_finds_what_checking_the_project_finds_in_it(project: Path, tmp_path, monkeypatch):
    """The project pass judges only the calls of the files it reports on (``resilint check
    FILE``, an editor's open documents): what it finds in a file is what the pass over the
    whole project finds there."""
    root = tmp_path / project.name
    shutil.copytree(project, root)
    monkeypatch.chdir(root)
    files = sorted(path.relative_to(root).as_posix() for path in root.rglob("*.py"))
    checker = Checker(Settings(root=str(root)), list(all_rules()))
    summaries = [s for s in (checker.check_file(None, path).summary for path in files) if s is not None]
    whole = sorted(f.sort_key for f in checker.project_findings(summaries))
    for path in files:
        alone = sorted(f.sort_key for f in checker.project_findings(summaries, {path}))
        assert alone == [key for key in whole if key[0] == path], path
