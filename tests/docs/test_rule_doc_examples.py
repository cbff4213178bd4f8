"""Each rule's documented examples do what the documentation says: resilint's default rules
find nothing in any "Use instead" example (the rule itself included, when it is opt-in), and
each "Example" has the rule's own finding. An example made of several modules marks each with
a ``# path/to/module.py`` comment line and is checked as that project."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from resilint.lint.config import Settings, enabled_codes
from resilint.lint.registry import all_rules
from tests.conftest import write_tree

RULES = all_rules()
DEFAULT = enabled_codes(Settings(), RULES)
_MODULE = re.compile(r"^# ([\w/]+\.py)$", re.M)


def examples(section: str) -> List[Tuple[str, int, str]]:
    found = []
    for code, rule in RULES.items():
        blocks = re.findall(r"```python\n(.*?)```", rule.sections().get(section, ""), re.S)
        found.extend((code, number, block) for number, block in enumerate(blocks, start=1))
    return found


def modules(block: str) -> Dict[str, str]:
    """The files of an example: one ``example.py``, or the ``# path.py`` sections."""
    heads = list(_MODULE.finditer(block))
    if not heads or block[:heads[0].start()].strip():
        return {"example.py": block}
    return {
        head.group(1): block[head.end():heads[index + 1].start() if index + 1 < len(heads) else len(block)]
        for index, head in enumerate(heads)
    }


def findings(cli, root: Path, block: str, codes: List[str]) -> List[Tuple[str, str, int, str]]:
    files = modules(block)
    if any(name.count("/") for name in files):  # a package: its directories are packages
        for name in list(files):
            for depth in range(1, name.count("/") + 1):
                files.setdefault("/".join(name.split("/")[:depth]) + "/__init__.py", "")
    write_tree(root, files)
    result = cli(["check", ".", "--select", ",".join(codes), "--format", "json", "--no-cache"], root)
    assert result.exit_code in (0, 1), result.stderr
    return [(f["code"], f["path"], f["line"], f["message"]) for f in json.loads(result.stdout)["findings"]]


@pytest.mark.parametrize("code, number, block", examples("Use instead"), ids=lambda value: str(value)[:12])
def test_the_default_rules_find_nothing_in_a_use_instead_example(cli, tmp_path, code, number, block):
    assert findings(cli, tmp_path, block, sorted(set(DEFAULT) | {code})) == []


@pytest.mark.parametrize("code, number, block", examples("Example"), ids=lambda value: str(value)[:12])
def test_an_example_has_its_rules_finding(cli, tmp_path, code, number, block):
    assert code in {found[0] for found in findings(cli, tmp_path, block, [code])}


def test_every_rule_has_both_kinds_of_example():
    for code, rule in RULES.items():
        assert re.search(r"```python\n", rule.sections()["Use instead"]), code
        assert re.search(r"```python\n", rule.sections()["Example"]), code
