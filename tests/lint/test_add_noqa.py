"""``--add-noqa``: merged, idempotent, byte-preserving, and never inside a string."""

from __future__ import annotations

import os

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
