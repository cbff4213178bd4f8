"""Pure parts of the benchmark harness (bench/): hashing, line counting, archive handling,
process-tree bookkeeping and the report arithmetic. Fast, no network, no subprocess."""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import sys
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import _procmem  # noqa: E402
import corpus  # noqa: E402
import run  # noqa: E402


# --------------------------------------------------------------------------- corpus.py


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"", 0),
        (b"x", 1),
        (b"x\n", 1),
        (b"x\ny", 2),
        (b"x\ny\n", 2),
        (b"\n\n", 2),
        (b"a\r\nb\r\n", 2),
        (b"a\rb\r", 2),
        (b"a\r\nb\nc\rd", 4),
    ],
)
def test_count_lines(data: bytes, expected: int) -> None:
    assert corpus.count_lines(data) == expected


def test_count_lines_matches_splitlines_for_text() -> None:
    text = "def f():\n    return 1\r\n\n# end"
    assert corpus.count_lines(text.encode()) == len(text.splitlines())


def test_check_sha256_accepts_equal_digest_any_case() -> None:
    digest = hashlib.sha256(b"abc").hexdigest()
    corpus.check_sha256(digest.upper(), digest)
    assert corpus.sha256_bytes(b"abc") == digest


def test_check_sha256_rejects_other_digest() -> None:
    with pytest.raises(corpus.HashMismatch, match="expected"):
        corpus.check_sha256(hashlib.sha256(b"abc").hexdigest(), hashlib.sha256(b"abd").hexdigest())


def test_sha256_file(tmp_path: Path) -> None:
    p = tmp_path / "f.bin"
    p.write_bytes(b"x" * 3_000_000)
    assert corpus.sha256_file(p, chunk=1000) == hashlib.sha256(b"x" * 3_000_000).hexdigest()


def test_pinned_packages_are_well_formed() -> None:
    names = [p.name for p in corpus.PACKAGES]
    assert len(names) == len(set(names)) >= 12
    for p in corpus.PACKAGES:
        assert len(p.sha256) == 64 and int(p.sha256, 16) >= 0
        assert p.url.startswith("https://") and p.url.endswith("/" + p.filename)
        assert p.version in p.filename


@pytest.mark.parametrize(
    "name, expected",
    [
        ("pkg/mod.py", "pkg/mod.py"),
        ("./pkg//mod.py", "pkg/mod.py"),
        ("pkg\\win.py", "pkg/win.py"),
        ("/etc/passwd", None),
        ("../evil.py", None),
        ("pkg/../../evil.py", None),
        ("C:/x.py", None),
        ("", None),
    ],
)
def test_safe_member_path(name: str, expected) -> None:
    result = corpus.safe_member_path(name)
    assert (None if result is None else str(result)) == expected


def test_is_python_source_and_sdist_root() -> None:
    assert corpus.is_python_source("a/b.py") and corpus.is_python_source("a/b.pyi")
    assert not corpus.is_python_source("a/b.pyc") and not corpus.is_python_source("a/data.json")
    assert corpus.strip_sdist_root(PurePosixPath("pkg-1.0/src/pkg/a.py")) == PurePosixPath("src/pkg/a.py")


def test_default_cache_dir_env_override(tmp_path: Path) -> None:
    assert corpus.default_cache_dir({corpus.ENV_CACHE: str(tmp_path)}) == tmp_path
    assert corpus.default_cache_dir({corpus.ENV_CACHE: "  "}).parts[-2:] == (".cache", "resilint-bench")
    assert corpus.default_cache_dir({}).name == "resilint-bench"


def _wheel(files: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_iter_python_members_wheel_and_sdist(tmp_path: Path) -> None:
    whl = tmp_path / "demo-1.0-py3-none-any.whl"
    whl.write_bytes(_wheel({"demo/__init__.py": b"x = 1\n", "demo/data.json": b"{}",
                            "../evil.py": b"boom\n", "demo-1.0.dist-info/METADATA": b""}))
    assert [(str(p), d) for p, d in corpus.iter_python_members(whl)] == [("demo/__init__.py", b"x = 1\n")]

    sdist = tmp_path / "demo-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as tf:
        for name, data in {"demo-1.0/demo/a.py": b"a\nb\n", "demo-1.0/README": b"hi"}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    assert [(str(p), d) for p, d in corpus.iter_python_members(sdist)] == [("demo/a.py", b"a\nb\n")]

    with pytest.raises(ValueError):
        list(corpus.iter_python_members(tmp_path / "x.rpm"))


def _local_package(tmp_path: Path, files: dict) -> corpus.Package:
    data = _wheel(files)
    pkg = corpus.Package("demo", "1.0", "demo-1.0-py3-none-any.whl", hashlib.sha256(data).hexdigest(),
                         "https://example.invalid/demo-1.0-py3-none-any.whl")
    (tmp_path / "downloads").mkdir(parents=True, exist_ok=True)
    (tmp_path / "downloads" / pkg.filename).write_bytes(data)  # cached: no download happens
    return pkg


def test_ensure_corpus_and_scaled_copies_offline(tmp_path: Path) -> None:
    pkg = _local_package(tmp_path, {"demo/__init__.py": b"import requests\n", "demo/sub/m.py": b"a\nb\nc"})
    info = corpus.ensure_corpus(tmp_path, packages=[pkg], log=lambda m: None)
    assert (info.files, info.lines) == (2, 4)
    assert (tmp_path / "corpus" / "demo-1.0" / "demo" / "sub" / "m.py").read_bytes() == b"a\nb\nc"
    # second call is served from the marker
    again = corpus.ensure_corpus(tmp_path, packages=[pkg], log=lambda m: None)
    assert (again.files, again.lines) == (2, 4)

    assert corpus.ensure_scaled(tmp_path, 1, info) == tmp_path / "corpus"
    x2 = corpus.ensure_scaled(tmp_path, 2, info)
    copies = sorted(p.relative_to(x2).as_posix() for p in x2.rglob("*.py"))
    assert copies == ["copy1/demo-1.0/demo/__init__.py", "copy1/demo-1.0/demo/sub/m.py",
                      "copy2/demo-1.0/demo/__init__.py", "copy2/demo-1.0/demo/sub/m.py"]
    assert json.loads((x2 / corpus.COMPLETE_MARKER).read_text())["files"] == 4


def test_cached_archive_with_wrong_hash_is_not_trusted(tmp_path: Path) -> None:
    pkg = _local_package(tmp_path, {"demo/a.py": b"x\n"})
    bad = corpus.Package(pkg.name, pkg.version, pkg.filename, "0" * 64, pkg.url)
    fetched = []

    def fake_fetch(url, dest, log):
        fetched.append(url)
        dest.write_bytes(b"tampered")

    orig = corpus._fetch
    corpus._fetch = fake_fetch
    try:
        with pytest.raises(corpus.HashMismatch):
            corpus.ensure_archive(bad, tmp_path, log=lambda m: None)
    finally:
        corpus._fetch = orig
    assert fetched == [pkg.url]
    assert not (tmp_path / "downloads" / pkg.filename).exists()  # a bad download is deleted


# --------------------------------------------------------------------------- _procmem.py


def test_parse_ppid_handles_spaces_and_parens_in_comm() -> None:
    assert _procmem.parse_ppid("1234 (python3) S 77 1234 1234 0 -1") == 77
    assert _procmem.parse_ppid("99 (a (weird) name) R 5 99 99") == 5
    assert _procmem.parse_ppid("garbage") is None


def test_descendants_walks_the_tree_only() -> None:
    parents = {10: 1, 11: 10, 12: 10, 13: 11, 20: 1, 21: 20}
    assert _procmem.descendants(10, parents) == {10, 11, 12, 13}
    assert _procmem.descendants(21, parents) == {21}


def test_parse_pss_kb() -> None:
    text = "55d0-7ffe ---p 00000000 00:00 0 [rollup]\nRss: 1748 kB\nPss: 334 kB\nPss_Dirty: 112 kB\n"
    assert _procmem.parse_pss_kb(text) == 334
    assert _procmem.parse_pss_kb("") == 0


# --------------------------------------------------------------------------- run.py arithmetic


def test_scaling_arithmetic() -> None:
    assert run.per_100k(2.0, 200_000) == pytest.approx(1.0)
    assert run.growth_exponent(10.0, 100, 40.0, 400) == pytest.approx(1.0)
    assert run.growth_exponent(10.0, 100, 80.0, 400) == pytest.approx(1.5)
    assert math.isnan(run.growth_exponent(0.0, 100, 1.0, 200))
    assert run.is_linear({1: 10.0, 2: 10.5, 4: 11.0}) is True
    assert run.is_linear({1: 10.0, 2: 9.0, 4: 8.0}) is True  # sublinear counts as linear or better
    assert run.is_linear({1: 10.0, 4: 13.0}) is False
    assert run.is_linear({1: 10.0}) is None


def test_findings_counters(tmp_path: Path) -> None:
    res = tmp_path / "r.json"
    res.write_text(json.dumps({"version": 1, "errors": [{}],
                               "findings": [{"code": "RES101"}, {"code": "RES203"}, {"code": "RES101"}]}))
    assert run.count_resilint(res) == (3, {"RES101": 2, "RES203": 1}, 1)
    ruff = tmp_path / "ruff.json"
    ruff.write_text(json.dumps([{"code": "S113"}, {"code": "S113"}, {"code": "E501"}]))
    assert run.count_ruff(ruff) == 2
    pylint = tmp_path / "pylint.json"
    pylint.write_text(json.dumps([{"message-id": "W3101"}, {"message-id": "F0001"}]))
    assert run.count_pylint(pylint) == 1
    pylint.write_text("")
    assert run.count_pylint(pylint) == 0
    bandit = tmp_path / "bandit.json"
    bandit.write_text(json.dumps({"results": [{"test_id": "B113"}, {"test_id": "B113"}]}))
    assert run.count_bandit(bandit) == 2


def test_formatting_helpers() -> None:
    assert run.fmt_s(float("nan")) == "n/a" and run.fmt_s(1.234) == "1.23" and run.fmt_s(123.4) == "123"
    assert run.fmt_ratio(2.5) == "2.50×" and run.fmt_ratio(12.34) == "12.3×"
    assert run.fmt_int(1234.4) == "1,234"
    assert run.parse_csv_ints("4,1,2,1") == [1, 2, 4]
    with pytest.raises(Exception):
        run.parse_tools("ruff,flake8")


def test_one_file_edit_changes_only_the_linked_copy_and_puts_it_back(tmp_path: Path) -> None:
    original = tmp_path / "corpus" / "sessions.py"
    original.parent.mkdir()
    original.write_bytes(b"import requests\n")
    copy = tmp_path / "x2" / "sessions.py"
    copy.parent.mkdir()
    os.link(original, copy)  # as corpus.ensure_scaled makes the 2x/4x trees
    ran = []
    edit = run.OneFileEdit(copy, ["resilint", "check"], ran.append)
    for expected in (b"_resilint_bench_edit_1 = Session()\n", b"_resilint_bench_edit_2 = Session()\n"):
        edit.before()
        assert copy.read_bytes().startswith(b"import requests\n") and copy.read_bytes().endswith(expected)
        assert original.read_bytes() == b"import requests\n"
        edit.after()
        assert copy.read_bytes() == b"import requests\n"
    assert ran == [["resilint", "check"], ["resilint", "check"]]
