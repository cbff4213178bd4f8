"""``--add-noqa``: merged, idempotent, byte-preserving, and never inside a string."""

from __future__ import annotations

import os

import pytest

SOURCE = (
    "import requests\n"
    "requests.get(u)\n"
    "requests.get(u, timeout=None)  # noqa: E501\n"
    "requests.post(u)  # noqa\n"
)


def test_adds_merges_and_is_idempotent(cli, tmp_path):
    path = tmp_path / "app.py"
    path.write_text(SOURCE)
    os.chmod(path, 0o750)
    result = cli(["check", "app.py", "--add-noqa"], tmp_path)
    assert result.exit_code == 0
    assert path.read_text() == (
        "import requests\n"
        "requests.get(u)  # noqa: RES101\n"
        "requests.get(u, timeout=None)  # noqa: E501, RES102\n"
        "requests.post(u)  # noqa\n"
    )
    assert os.stat(path).st_mode & 0o777 == 0o750
    assert cli(["check", "app.py"], tmp_path).exit_code == 0
    before = path.read_bytes()
    assert cli(["check", "app.py", "--add-noqa"], tmp_path).exit_code == 0
    assert path.read_bytes() == before


def test_keeps_encoding_bom_and_line_endings(cli, tmp_path):
    path = tmp_path / "app.py"
    original = "\ufeffimport requests\r\nname = 'café'\r\nrequests.get(u)\r\n".encode("utf-8")
    path.write_bytes(original)
    assert cli(["check", "app.py", "--add-noqa"], tmp_path).exit_code == 0
    assert path.read_bytes() == original.replace(b"requests.get(u)\r\n", b"requests.get(u)  # noqa: RES101\r\n")

    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\nimport requests\nx = '\xe9'; requests.get(u)\n")
    assert cli(["check", "latin.py", "--add-noqa"], tmp_path).exit_code == 0
    assert latin.read_bytes().endswith(b"x = '\xe9'; requests.get(u)  # noqa: RES101\n")


def test_a_line_ending_inside_a_string_is_left_alone_and_the_others_are_done(cli, tmp_path):
    path = tmp_path / "app.py"
    text = 'import requests\nrequests.get(u, data="""\nbody""")\nrequests.get(u)\n'
    path.write_text(text)
    result = cli(["check", "app.py", "--add-noqa"], tmp_path)
    assert path.read_text() == text.replace("requests.get(u)\n", "requests.get(u)  # noqa: RES101\n")
    assert result.exit_code == 2 and "app.py:2: the line ends inside a string" in result.stderr
    assert "Added 1 noqa directive to 1 file." in result.stderr


@pytest.mark.parametrize("oddity", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_lines_are_pythons_lines_not_str_splitlines(cli, tmp_path, oddity):
    # str.splitlines() breaks at these, Python does not: the comment went one line off, or
    # into the string literal ('hello  # noqa: RES101<U+2028>world').
    path = tmp_path / "app.py"
    text = f"import requests\n# page{oddity}break\nrequests.get(u, data='hello{oddity}world')\n"
    path.write_text(text, encoding="utf-8")
    result = cli(["check", "app.py", "--add-noqa"], tmp_path)
    assert result.exit_code == 0, result.stderr
    assert path.read_text(encoding="utf-8") == text.replace("world')\n", "world')  # noqa: RES101\n")
    assert cli(["check", "app.py", "--no-cache"], tmp_path).exit_code == 0


def test_noqa_text_inside_a_string_is_not_a_comment(cli, tmp_path):
    path = tmp_path / "app.py"
    path.write_text('import requests\nrequests.get("https://x/?q=#noqa:X1")\n')
    result = cli(["check", "app.py", "--add-noqa"], tmp_path)
    assert result.exit_code == 0, result.stderr
    assert path.read_text() == 'import requests\nrequests.get("https://x/?q=#noqa:X1")  # noqa: RES101\n'


def test_cr_only_line_endings_get_comments_that_work(cli, tmp_path):
    path = tmp_path / "app.py"
    path.write_bytes(b"import requests\rrequests.get(u)\rrequests.get(u, timeout=None)  # noqa: E501\rx = 1\r")
    assert cli(["check", "app.py", "--add-noqa"], tmp_path).exit_code == 0
    assert path.read_bytes() == (
        b"import requests\rrequests.get(u)  # noqa: RES101\r"
        b"requests.get(u, timeout=None)  # noqa: E501, RES102\rx = 1\r"
    )
    assert cli(["check", "app.py", "--no-cache"], tmp_path).exit_code == 0


def test_analysis_errors_and_run_errors_are_still_reported(cli, tmp_path):
    (tmp_path / "broken.py").write_text("def f(:\n")
    (tmp_path / "app.py").write_text("import requests\nrequests.get(u)\n")
    result = cli(["check", ".", "--add-noqa", "--format", "concise"], tmp_path)
    assert result.exit_code == 1
    assert "broken.py:1:7: RES000 syntax error" in result.stdout and "RES101" not in result.stdout
    assert "Added 1 noqa directive to 1 file." in result.stderr
    assert (tmp_path / "app.py").read_text().endswith("requests.get(u)  # noqa: RES101\n")

    missing = cli(["check", "app.py", "missing.py", "--add-noqa", "--format", "concise"], tmp_path)
    assert missing.exit_code == 2 and "missing.py" in missing.stdout + missing.stderr


def test_res001_is_never_added_and_stale_codes_go_so_a_recheck_is_clean(cli, tmp_path):
    path = tmp_path / "app.py"
    path.write_text(
        "import requests\n"
        "requests.get(u, timeout=5)  # noqa: RES103, RES101\n"
        "requests.get(u, timeout=None)  # noqa: RES101\n"
        "requests.get(u)  # resilint: ignore[RES999, RES102]\n"
        "x = 1  # resilint: ignore\n"
        "y = 2  # why: legacy  # noqa: RES101, E501\n"
        "    # noqa: RES102\n"
        "z = 3  # noqa: RES101, RES001\n"
        "w = 4  # noqa: RES104\n"
    )
    select = ["--extend-select", "RES001"]
    result = cli(["check", "app.py", "--add-noqa", *select], tmp_path)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "Added 2 noqa directives to 1 file. Removed 10 unused suppressions." in result.stderr
    assert path.read_text() == (
        "import requests\n"
        "requests.get(u, timeout=5)  # noqa: RES103\n"
        "requests.get(u, timeout=None)  # noqa: RES102\n"
        "requests.get(u)  # resilint: ignore[RES101]\n"
        "x = 1\n"
        "y = 2  # why: legacy  # noqa: E501\n"
        "\n"
        "z = 3\n"
        "w = 4\n"
    )
    recheck = cli(["check", "app.py", "--no-cache", *select], tmp_path)
    assert recheck.exit_code == 0, recheck.stdout


def test_stale_codes_of_a_file_level_comment_go_and_a_stale_blanket_one_goes_whole(cli, tmp_path):
    path = tmp_path / "app.py"
    path.write_text(
        "# resilint: noqa: RES102, RES101\n"
        "import requests\n"
        "requests.get(u)\n"
    )
    other = tmp_path / "other.py"
    other.write_text("# resilint: noqa\nx = 1\n")
    result = cli(["check", "app.py", "other.py", "--add-noqa", "--extend-select", "RES001", "--no-cache"], tmp_path)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert path.read_text() == "# resilint: noqa: RES101\nimport requests\nrequests.get(u)\n"
    assert other.read_text() == "\nx = 1\n"
    again = cli(["check", "app.py", "other.py", "--extend-select", "RES001", "--no-cache"], tmp_path)
    assert again.exit_code == 0, again.stdout
