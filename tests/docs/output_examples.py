"""The examples of docs/output-formats.md, from a real run of resilint over ``SAMPLE``.

Each example block of the document follows a marker ``<!-- example: NAME -->`` and holds what
``examples()[NAME]`` is; tests/docs/test_output_formats.py checks that they match, and
``python -m tests.docs.output_examples`` rewrites the document from a new run (after a message
or a fix changes).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Dict, List

from resilint.cli import main
from tests.conftest import cli_runner

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "output-formats.md"

SAMPLE = """\
import time

import requests
from myapp.settings import POLL_TIMEOUT


def fetch(url):
    return requests.get(url)


def upload(url, body):
    return requests.post(url, json=body, timeout=20)


def poll(url):
    for attempt in range(5):
        try:
            return requests.get(url, timeout=POLL_TIMEOUT)
        except requests.ConnectionError:
            time.sleep(1)
"""
# Checked from the directory holding app/, with a path that does not exist beside the file.
ARGS = ["check", "app/client.py", "missing_dir", "--no-cache"]
_MARKER = re.compile(r"<!-- example: ([\w-]+) -->\n```(\w+)\n(.*?)```", re.S)


def _run(args: List[str], root: Path) -> str:
    before = os.getcwd()
    os.chdir(root)
    try:
        env = {"NO_COLOR": None, "FORCE_COLOR": None}
        result = cli_runner().invoke(main, args, env=env, catch_exceptions=False)
    finally:
        os.chdir(before)
    return result.stdout


def examples() -> Dict[str, str]:
    """Every example, by name, from runs in a fresh directory."""
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        (root / "app").mkdir()
        (root / "app" / "client.py").write_text(SAMPLE, encoding="utf-8")
        # the project declares the runtime: the examples show its fixes (the runtime fix target)
        (root / "requirements.txt").write_text("requests\nresilint-runtime\n", encoding="utf-8")
        found = {"sample": SAMPLE}
        for name in ("text", "concise", "github", "gitlab"):
            found[name] = _run([*ARGS, "--format", name], root)
        found["statistics"] = _run([*ARGS, "--statistics"], root)
        report = json.loads(_run([*ARGS, "--format", "json"], root))
        report["findings"] = report["findings"][:1]
        found["json"] = json.dumps(report, indent=2) + "\n"
        sarif = json.loads(_run([*ARGS, "--format", "sarif"], root))
        found["sarif-result"] = json.dumps(sarif["runs"][0]["results"][0], indent=2) + "\n"
        descriptor = next(rule for rule in sarif["runs"][0]["tool"]["driver"]["rules"] if rule["id"] == "RES101")
        descriptor["help"] = {"text": "…", "markdown": "…"}  # the whole documentation, left out here
        found["sarif-rule"] = json.dumps(descriptor, indent=2) + "\n"
        found["fix"] = _run([*ARGS[:2], "--fix", "--no-cache"], root)
    return found


def with_examples(document: str, found: Dict[str, str]) -> str:
    """``document`` with each marked block holding its example."""
    return _MARKER.sub(lambda m: f"<!-- example: {m.group(1)} -->\n```{m.group(2)}\n{found[m.group(1)]}```", document)


def marked(document: str) -> List[str]:
    return [match.group(1) for match in _MARKER.finditer(document)]


if __name__ == "__main__":  # python -m tests.docs.output_examples
    text = DOCUMENT.read_text(encoding="utf-8")
    DOCUMENT.write_text(with_examples(text, examples()), encoding="utf-8")
    sys.exit(0)
