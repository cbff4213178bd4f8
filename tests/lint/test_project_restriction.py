"""The project pass over a few files (an editor's open documents, the files a pre-commit hook
is given) reports in them exactly what the pass over the whole project reports there: a rule
may skip judging what is written elsewhere, never what is shown."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Dict, Set, Tuple

import pytest

from resilint.lint.checker import Checker
from resilint.lint.config import load_settings
from resilint.lint.registry import all_rules
from resilint.lint.runner import run
from tests.rules.test_project_fixtures import _projects

Key = Tuple[str, str, int, int, str]


@pytest.mark.parametrize("project", _projects(), ids=lambda p: p.name)
def test_a_pass_over_one_file_reports_there_what_the_whole_pass_reports(project: Path, tmp_path, monkeypatch):
    root = tmp_path / project.name
    shutil.copytree(project, root)
    monkeypatch.chdir(root)
    settings = load_settings(["."])
    codes = list(all_rules())
    summaries = run(["."], settings, codes, keep_summaries=True).summaries
    checker = Checker(settings, codes)
    whole: Dict[str, Set[Key]] = {}
    for finding in checker.project_findings(summaries):
        whole.setdefault(finding.path, set()).add(_key(finding))
    for path in sorted({summary.path for summary in summaries}):
        alone = {_key(finding) for finding in checker.project_findings(summaries, {path})}
        assert alone == whole.get(path, set()), path


def _key(finding) -> Key:
    return (finding.code, finding.path, finding.line, finding.column, finding.message)
