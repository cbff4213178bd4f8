"""The CI snippets of the README and docs/ use actions that are not being retired."""

from __future__ import annotations

import re

from tests.conftest import REPO

DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def test_code_scanning_uploads_use_the_v4_action():
    uses = [
        (document.name, version)
        for document in DOCUMENTS
        for version in re.findall(r"github/codeql-action/upload-sarif@(\S+)", document.read_text(encoding="utf-8"))
    ]
    assert uses, "the README shows how to upload SARIF"
    assert all(version == "v4" for _, version in uses), uses
