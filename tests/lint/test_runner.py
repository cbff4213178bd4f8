"""The process pool gives exactly what one process gives."""

from __future__ import annotations

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
    assert {f.code for f in single.findings} == {"RES000", "RES101"}
    assert len(single.findings) == 48


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
