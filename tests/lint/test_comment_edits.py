"""An edit inside a comment is answered from the file's last check (``Checker.recheck``, what
the language server does as one types): exactly what checking the edited text gives, and
anything else is checked again."""

from __future__ import annotations

import json
import textwrap

import pytest

from resilint.lint.checker import Checker
from resilint.lint.config import Settings
from resilint.lint.registry import all_rules

SOURCE = textwrap.dedent('''\
    # -*- coding: utf-8 -*-
    """A client module."""
    import time

    import requests

    NOTE = """a string that spans lines
    # not a comment: text of the string
    """


    def fetch(url):  # fetch one page
        return requests.get(url)  # no timeout here


    def fetch_twice(url):
        return requests.get(url), requests.get(url)  # noqa: RES101


    def post(url, payload):  # sends an order
        for attempt in range(3):
            try:
                return requests.post(url, json=payload, timeout=5)  # retried
            except requests.ConnectionError:
                time.sleep(2)  # a fixed wait
        label = "# a hash in a string"  # a comment after it
        return label
''')


def _edit(old: str, new: str) -> str:
    assert SOURCE.count(old) == 1, old
    return SOURCE.replace(old, new)


def _checker(tmp_path) -> Checker:
    return Checker(Settings(root=str(tmp_path)), list(all_rules()))


def _as_data(result):
    return [f.to_json() for f in result.findings], json.dumps(result.summary.to_json()) if result.summary else None


IN_COMMENTS = {
    "a comment on a finding's line": ("# no timeout here", "# no timeout here, see the ticket"),
    "a noqa added to a finding's comment": ("# no timeout here", "# no timeout here  # noqa: RES101"),
    "a bare noqa added": ("# retried", "# retried  # noqa"),
    "a noqa's code removed": ("# noqa: RES101", "# noqa: RES1"),
    "a noqa emptied of its codes": ("# noqa: RES101", "# noqa:"),
    "a comment on a line with no finding": ("# fetch one page", "# fetch one page of results"),
    "a word a rule looks for": ("# sends an order", "# sends an order with requests and urllib3"),
    "a comment after a string with a hash": ("# a comment after it", "# a comment after it, edited"),
    "a comment shortened": ("# a fixed wait", "# a"),
}


@pytest.mark.parametrize("edit", list(IN_COMMENTS.values()), ids=list(IN_COMMENTS))
def test_an_edit_inside_a_comment_gives_what_checking_the_edited_text_gives(tmp_path, edit):
    checker = _checker(tmp_path)
    path = str(tmp_path / "client.py")
    previous = checker.check_file(SOURCE.encode(), path, reusable=True)
    assert previous.findings and previous.summary is not None
    edited = _edit(*edit).encode()

    rechecked = checker.recheck(previous, edited, path)

    assert rechecked is not None
    assert _as_data(rechecked) == _as_data(checker.check_file(edited, path))
    # and the next edit is answered from this one
    again = checker.recheck(rechecked, SOURCE.encode(), path)
    assert again is not None and _as_data(again) == _as_data(previous)


def test_a_noqa_typed_in_a_comment_suppresses_and_its_finding_line_reads_the_new_text(tmp_path):
    checker = _checker(tmp_path)
    path = str(tmp_path / "client.py")
    previous = checker.check_file(SOURCE.encode(), path, reusable=True)
    line = SOURCE.splitlines().index("    return requests.get(url)  # no timeout here") + 1
    assert [f.code for f in previous.findings if f.line == line] == ["RES101"]

    commented = checker.recheck(previous, _edit("# no timeout here", "# no timeout here (TODO)").encode(), path)
    suppressed = checker.recheck(previous, _edit("# no timeout here", "# noqa: RES101").encode(), path)

    assert [f.line_text for f in commented.findings if f.line == line] == ["return requests.get(url)  # no timeout here (TODO)"]
    assert [f.code for f in suppressed.findings if f.line == line] == []


OUTSIDE_COMMENTS = {
    "code": ("requests.get(url)  # no timeout", "requests.get(url, timeout=5)  # no timeout"),
    "a comment started": ("import time\n", "import time  # for sleep\n"),
    "a comment's hash removed": ("  # fetch one page", "  fetch one page"),
    "a hash inside a string": ('"# a hash in a string"', '"# a hash in a string!"'),
    "a line of a string that spans lines": ("# not a comment: text", "# not a comment: more text"),
    "a line break in a comment": ("# a fixed wait", "# a fixed\n        # wait"),
    "the encoding declaration": ("coding: utf-8", "coding: latin-1"),
}


@pytest.mark.parametrize("edit", list(OUTSIDE_COMMENTS.values()), ids=list(OUTSIDE_COMMENTS))
def test_any_other_edit_is_checked_again(tmp_path, edit):
    checker = _checker(tmp_path)
    path = str(tmp_path / "client.py")
    previous = checker.check_file(SOURCE.encode(), path, reusable=True)

    assert checker.recheck(previous, _edit(*edit).encode(), path) is None


def test_only_a_result_kept_for_reuse_is_reused(tmp_path):
    checker = _checker(tmp_path)
    path = str(tmp_path / "client.py")
    edited = _edit("# fetch one page", "# fetch a page").encode()

    assert checker.recheck(checker.check_file(SOURCE.encode(), path), edited, path) is None
    assert checker.recheck(checker.check_file(b"x = (\n", path, reusable=True), b"x = (  # a\n", path) is None
