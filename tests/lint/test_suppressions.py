"""Inline suppressions and the opt-in report of stale ones (RES001)."""

from __future__ import annotations

import textwrap

import pytest

from resilint.lint.checker import check_source


def codes(source, select=("RES101", "RES102")):
    return [(f.line, f.code) for f in check_source(textwrap.dedent(source).lstrip(), list(select))]


@pytest.mark.parametrize(
    "comment",
    ["# noqa", "# noqa: RES101", "# NOQA:RES101", "# noqa: E501, RES101", "# resilint: ignore[RES101]",
     "# resilint: ignore[RES102, RES101]", "# resilint: ignore", "# some words  # noqa: RES101"],
)
def test_suppression_forms(comment):
    assert codes(f"import requests\nrequests.get(u)  {comment}\n") == []


@pytest.mark.parametrize("comment", ["# noqa: RES102", "# resilint: ignore[RES102]", "# noqa: RES10"])
def test_other_codes_do_not_suppress(comment):
    assert codes(f"import requests\nrequests.get(u)  {comment}\n") == [(2, "RES101")]


def test_noqa_inside_a_string_is_not_a_suppression():
    assert codes('import requests\nrequests.get("# noqa")\n') == [(2, "RES101")]


def test_any_line_of_a_multi_line_call():
    source = """
        import requests
        requests.get(
            "https://a.example",
            timeout=None,  # noqa: RES102
        )
        requests.post(
            "https://a.example",
        )  # noqa: RES101
        requests.put("https://a.example")
    """
    assert codes(source) == [(9, "RES101")]


def test_unused_and_unknown_suppressions_are_reported_when_selected():
    source = """
        import requests
        requests.get(u, timeout=5)  # noqa: RES101
        requests.get(u)  # noqa: RES101, RES999, E501
        x = 1  # resilint: ignore
        y = 2  # noqa
    """
    findings = check_source(textwrap.dedent(source).lstrip(), ["RES101", "RES001"])
    assert [(f.line, f.code, f.message.split(":")[0]) for f in findings] == [
        (2, "RES001", "unused suppression of RES101 (missing-timeout)"),
        (3, "RES001", "unknown rule code RES999 in suppression"),
        (4, "RES001", "`# resilint"),
    ]
    assert findings[0].column == 29  # the comment's `#`


def test_unused_suppressions_are_silent_unless_selected():
    assert codes("x = 1  # noqa: RES101\n") == []


def test_noqa_text_inside_multi_line_strings_is_not_a_suppression():
    source = 'import requests\nrequests.get(f"""\n{1} # noqa: RES101\n""")\n'
    assert codes(source) == [(2, "RES101")]
    docstring = '"""Helpers.\n\nSilence with `# noqa: RES101` when a proxy sets the timeout.\n"""\n'
    assert check_source(docstring, ["RES001"]) == []


def test_cr_only_line_endings():
    # Old Mac files: the tokenizer saw one single line, and no comment after the first.
    source = "import requests\rrequests.get(u)  # noqa: RES101\rrequests.get(u)\r"
    assert codes(source) == [(3, "RES101")]


@pytest.mark.parametrize("oddity", ["\f", "\x1c", "\x85", "\u2028", "\u2029"])
def test_line_numbers_line_text_and_suppressions_agree_with_pythons_lines(oddity):
    source = f"import requests\n# page{oddity}break\nrequests.get(u)\nrequests.get(u)  # noqa: RES101\n"
    findings = check_source(source, ["RES101", "RES001"])
    assert [(f.line, f.code, f.line_text) for f in findings] == [(3, "RES101", "requests.get(u)")]


@pytest.mark.parametrize(
    "source",
    [
        'x = """\n# noqa: RES101\n"""  # noqa: RES102\nrequests.get(u)  # noqa\n',
        'x = ("a"\n     "# noqa"  # resilint: ignore[RES101]\n     "b")\n',
        'x = f"""{y}\n# noqa\n"""\ncall(a,  # noqa: RES101\n     b)  # resilint: ignore\n',
        'x = "a # noqa"  # noqa: RES103\ny = 1 \\\n  + 2  # NOQA\n',
        'if x:\n    pass  # noqa\nelse:\n        y = "\\\n# noqa"\n',
        'call(a,  # noqa: RES101\n     b)  # resilint: ignore\n',
        '"""doc\nstring"""\nrequests.get(u, "#")  # noqa  # resilint: ignore[RES1]\n',
        'def f():\n    """Doc  # noqa: RES101\n    # noqa\n    """  # noqa: RES102\n',
        'PATTERN = r"""  # noqa: N806\nab"""\ny = 1  # noqa\n',
        'x = ("""a\n""", """b # noqa\n""")  # noqa: RES103\n',
        'x = """é\né""" + "#"  # noqa: RES101\n',
        'x = f"""{y}\n"""  # noqa\nz = ("a"\n     "b")  # resilint: ignore[RES102]\n',
    ],
)
def test_comments_read_line_by_line_are_the_files_comments(source):
    """With the file's strings on several lines known (a tree built from ``ast``), only the
    lines that may hold a suppression are tokenized: the same suppressions as the whole file's."""
    import ast

    from resilint.lint.checker import _unvalidated
    from resilint.lint.cst_from_ast import convert
    from resilint.lint.source import python_lines
    from resilint.lint.suppressions import parse_suppressions

    with _unvalidated():
        strings = convert(ast.parse(source), source, python_lines(source)).multiline_strings
    line_by_line = parse_suppressions(source, strings)
    whole = parse_suppressions(source)
    assert whole and line_by_line == whole


# --- file-level: `# resilint: noqa` ------------------------------------------------------------

FILE_BODY = """
    import requests
    requests.get(u)
    requests.get(u, timeout=None)
"""


@pytest.mark.parametrize(
    "comment, expected",
    [
        ("# resilint: noqa", []),
        ("# resilint: noqa: RES101", [(4, "RES102")]),
        ("# RESILINT: NOQA:RES101,RES102", []),
        ("# resilint: noqa: RES101 -- generated client, timeouts set by the caller", [(4, "RES102")]),
        # a code list that does not read as one suppresses nothing, rather than everything
        ("# resilint: noqa: RES1O1", [(3, "RES101"), (4, "RES102")]),
        ("# resilint: noqa:", [(3, "RES101"), (4, "RES102")]),
        # not a comment of its own: part of another comment's text
        ("# see # resilint: noqa", [(3, "RES101"), (4, "RES102")]),
    ],
)
def test_a_file_level_comment_suppresses_its_codes_in_the_whole_file(comment, expected):
    assert codes(f"{comment}\n{textwrap.dedent(FILE_BODY).lstrip()}") == expected


def test_a_file_level_comment_works_anywhere_and_not_inside_a_string():
    body = textwrap.dedent(FILE_BODY).lstrip()
    assert codes(body + "# resilint: noqa: RES102\n") == [(2, "RES101")]
    assert codes(body + "x = 1  # resilint: noqa\n") == []
    assert codes(body + 'x = "# resilint: noqa"\n') == [(2, "RES101"), (3, "RES102")]


# RES204 is found by the project pass, across functions
NESTED_RETRY = """
    # resilint: noqa: RES204
    import requests
    import tenacity
    from requests.adapters import HTTPAdapter
    from urllib3.util.retry import Retry

    session = requests.Session()
    session.mount("https://", HTTPAdapter(max_retries=Retry(total=3)))

    @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
    def fetch():
        return session.get("https://a.example", timeout=3)
"""


def test_a_file_level_comment_suppresses_project_findings_too():
    source = NESTED_RETRY
    assert codes(source, ("RES204",)) == []
    assert codes(source.replace("# resilint: noqa: RES204", "# nothing suppressed"), ("RES204",)) == [(12, "RES204")]


def test_res000_is_reported_whatever_a_file_level_comment_says():
    assert codes("# resilint: noqa\ndef f(:\n", ("RES000", "RES101")) == [(2, "RES000")]


def test_stale_file_level_comments_are_reported_by_res001():
    source = """
        # resilint: noqa: RES101, RES102
        # resilint: noqa: RES000, RES999
        import requests
        requests.get(u)
    """
    findings = check_source(textwrap.dedent(source).lstrip(), ["RES101", "RES102", "RES001"])
    assert [(f.line, f.code, f.message) for f in findings] == [
        (1, "RES001", "unused suppression of RES102 (unbounded-timeout): nothing to suppress in this file"),
        (2, "RES001", "RES000 (analysis-error) cannot be suppressed: a file that cannot be analysed is always reported"),
        (2, "RES001", "unknown rule code RES999 in suppression"),
    ]
    used = check_source("# resilint: noqa\nimport requests\nrequests.get(u)\n", ["RES101", "RES001"])
    assert used == []
    unused = check_source("# resilint: noqa\nx = 1\n", ["RES101", "RES001"])
    assert [(f.line, f.message) for f in unused] == [(1, "`# resilint: noqa` suppresses nothing in this file")]


def test_a_file_level_comment_that_serves_only_a_project_rule_is_not_called_unused():
    assert check_source(textwrap.dedent(NESTED_RETRY).lstrip(), ["RES204", "RES001"]) == []
