"""Download and unpack the benchmark corpus: pinned real packages from PyPI.

    python bench/corpus.py                       # download (once), verify, unpack, print totals
    python bench/corpus.py --cache-dir /tmp/rb   # somewhere else (or RESILINT_BENCH_CACHE=...)
    python bench/corpus.py --scale 2 --scale 4   # also build the 2x and 4x copies
    python bench/corpus.py --list                # the pinned list, no network

Every archive is pinned by exact file name and sha256; a download whose hash differs is deleted
and the script fails. Only Python sources (``.py``/``.pyi``) are unpacked. Everything lives in
the cache directory, outside the repository:

    <cache>/downloads/<archive>            the verified archives
    <cache>/corpus/<name>-<version>/...    unpacked sources (1x)
    <cache>/scaled/x<N>/copy<i>/...        N copies of corpus/ (hard links; copies if linking fails)

Standard library only (urllib, hashlib, zipfile, tarfile), so it runs before anything else is
installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple

ENV_CACHE = "RESILINT_BENCH_CACHE"
PY_SUFFIXES = (".py", ".pyi")
DOWNLOAD_TIMEOUT = (10.0, 120.0)  # connect-ish / whole-read budget in seconds (see _fetch)
DOWNLOAD_ATTEMPTS = 3
COMPLETE_MARKER = ".complete.json"


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    filename: str
    sha256: str
    url: str

    @property
    def dirname(self) -> str:
        return f"{self.name}-{self.version}"


# Packages that make HTTP calls, retry, or drive databases. Pure-Python wheels
# (py3-none-any), so the corpus is the same on every platform. Hashes were taken from one
# verified download each (and match PyPI's JSON API).
PACKAGES: Tuple[Package, ...] = (
    Package("requests", "2.34.2", "requests-2.34.2-py3-none-any.whl",
            "2a0d60c172f83ac6ab31e4554906c0f3b3588d37b5cb939b1c061f4907e278e0",
            "https://files.pythonhosted.org/packages/a0/f4/c67b0b3f1b9245e8d266f0f112c500d50e5b4e83cb6f3b71b6528104182a/requests-2.34.2-py3-none-any.whl"),
    Package("urllib3", "2.8.0", "urllib3-2.8.0-py3-none-any.whl",
            "0cf3cae568d36aa9576b28dfb35f11328f1cb974ca7647d9475ebb86c75ac6e3",
            "https://files.pythonhosted.org/packages/92/9d/c4e665119135114480843e7ab388fa94d8480650450e6f8e26b70d323a4c/urllib3-2.8.0-py3-none-any.whl"),
    Package("httpx", "0.28.1", "httpx-0.28.1-py3-none-any.whl",
            "d909fcccc110f8c7faf814ca82a9a4d816bc5a6dbfea25d6591d6985b8ba59ad",
            "https://files.pythonhosted.org/packages/2a/39/e50c7c3a983047577ee07d2a9e53faf5a69493943ec3f6a384bdc792deb2/httpx-0.28.1-py3-none-any.whl"),
    Package("botocore", "1.44.8", "botocore-1.44.8-py3-none-any.whl",
            "76342a76c338701db80dcb8afe1c9bd079283d6fffbb9d881442abb02a215043",
            "https://files.pythonhosted.org/packages/2f/17/07eed244563fb67782ea5ed3ec8646390d9baccb8a02b0d8bc42a6cdd064/botocore-1.44.8-py3-none-any.whl"),
    Package("celery", "5.7.0", "celery-5.7.0-py3-none-any.whl",
            "18310a9c919f9029e4735367484d93e6a25cdfd30afdc474622cc263d9b35f6e",
            "https://files.pythonhosted.org/packages/e9/cf/cd7fcb9d8f5a21fa420ddf19ee96969e36820182275a731abdf4260ed86a/celery-5.7.0-py3-none-any.whl"),
    Package("kombu", "5.7.0", "kombu-5.7.0-py3-none-any.whl",
            "dede73bff4c89175be382c4203d2f167cf7017c384396ec75c36a1b5678f1587",
            "https://files.pythonhosted.org/packages/84/20/f73d8e0bff9708b0f2337220be1b5d7ebd738bc3a89b63cf44d257157014/kombu-5.7.0-py3-none-any.whl"),
    Package("sentry-sdk", "2.75.0", "sentry_sdk-2.75.0-py3-none-any.whl",
            "9a10e97de2cbd42ad7e4a6e02a0d5af19de9811eb02445077d41ba14c08e170c",
            "https://files.pythonhosted.org/packages/ec/ee/fbfe67386d64a7218013c8346b88b89d72f279b4ddb434ed5e94bea3d389/sentry_sdk-2.75.0-py3-none-any.whl"),
    Package("slack-sdk", "3.48.0", "slack_sdk-3.48.0-py2.py3-none-any.whl",
            "1213726e5b8015eeded608fcb3665c4e9b48af7f7f383ecc1b90af886d6aaa03",
            "https://files.pythonhosted.org/packages/d1/3d/66cfaec5fe2a7c7c691fa169f4d1add600b5bc2ee3524d846db9530c79cf/slack_sdk-3.48.0-py2.py3-none-any.whl"),
    Package("docker", "7.2.0", "docker-7.2.0-py3-none-any.whl",
            "a3f45fdeb9165e2d25d9a1d02ddf3bc70fb572cf5ebbf9b58558c22caf29b71f",
            "https://files.pythonhosted.org/packages/75/23/529140fe1aab80fc6992f93a706deec709140a6397439139a054e1515c45/docker-7.2.0-py3-none-any.whl"),
    Package("google-api-core", "2.44.0", "google_api_core-2.44.0-py3-none-any.whl",
            "8cb9ad8af28de9bc75121686d69b697ce0937e21fad2ad80c9a7e89f22b26e1f",
            "https://files.pythonhosted.org/packages/c9/73/4068d4b123d206f42e44d476b6ed4de773d81efc4e88101ff82e318b9a7a/google_api_core-2.44.0-py3-none-any.whl"),
    Package("apache-airflow-providers-http", "6.3.0",
            "apache_airflow_providers_http-6.3.0-py3-none-any.whl",
            "b63f7c93904e64d34fa3183b7e44ddcbd449d31325bddd42e1bb9ffe5049e21e",
            "https://files.pythonhosted.org/packages/05/16/18db24808a3deddf95f1835c48458ccc4ab112a16f4e89f2246226f60c9b/apache_airflow_providers_http-6.3.0-py3-none-any.whl"),
    Package("redis", "8.1.0", "redis-8.1.0-py3-none-any.whl",
            "a4fe1aac3d3b3cc791d4b3d5931c5a956045dc951ee74d1c913ee3ac4d2ee9fb",
            "https://files.pythonhosted.org/packages/66/9d/c5731f6e3608663d4d3656fd8d3aecee8b509c3082818f5a13eae925baea/redis-8.1.0-py3-none-any.whl"),
    Package("tenacity", "9.2.1", "tenacity-9.2.1-py3-none-any.whl",
            "9e56f17539296baab7beabb08b92f6ee3d7be92d8be72d763360677c2ad6580e",
            "https://files.pythonhosted.org/packages/d6/26/1ff2b0721ac66a3ec5b1402b333110b352ab0a8724052ac279a7b82d40c4/tenacity-9.2.1-py3-none-any.whl"),
    Package("psycopg", "3.3.9", "psycopg-3.3.9-py3-none-any.whl",
            "d2d7d04a1ce6dab4f5b27316bea3b52585cafa2f2d631e5b09dd69823f5c26f6",
            "https://files.pythonhosted.org/packages/52/5d/a7957d1b5484f8e5094a15b1a400929324f978b670bd4a95179e1a012ec2/psycopg-3.3.9-py3-none-any.whl"),
    Package("sqlalchemy", "2.1.9", "sqlalchemy-2.1.9-py3-none-any.whl",
            "449fed5c2caa3b278cc57499d09db001fb3f28dc7f18affc48142aee4dcc0cdf",
            "https://files.pythonhosted.org/packages/7a/ee/9926603a1f7e88b41bc0d1e068e889fc84981553fb4e6037426d6b174da3/sqlalchemy-2.1.9-py3-none-any.whl"),
)


# Applications, not libraries: application code (views, services, tasks, models) calls HTTP
# clients and databases far more densely than the libraries above, and costs resilint more per
# line. A Django application and a Flask one, as their projects publish them on PyPI.
APPLICATIONS: Tuple[Package, ...] = (
    Package("pretix", "2026.8.0", "pretix-2026.8.0-py3-none-any.whl",
            "a78932e698778d873530d67f25a57c28d1c09b1bfb1a22ec817c00d90397db85",
            "https://files.pythonhosted.org/packages/39/4c/8ae4bb323f56153d345e231690fea1b2c9885338e634c14c5d06ddfd65ef/pretix-2026.8.0-py3-none-any.whl"),
    Package("lemur", "1.9.3", "lemur-1.9.3-py3-none-any.whl",
            "22d5d8723b4b8617dd4d648a483fc352bbc34e90e7546b2d9ad8b40d753a8f7b",
            "https://files.pythonhosted.org/packages/7f/f5/e0c6c9c43671f853b7835d5a98fb427dba2ba0690d1f977ad70423a7332a/lemur-1.9.3-py3-none-any.whl"),
)
LIBRARIES_DIR = "corpus"
APPLICATIONS_DIR = "apps"


class HashMismatch(Exception):
    pass


# --------------------------------------------------------------------------- pure helpers


def default_cache_dir(environ: Optional[Dict[str, str]] = None) -> Path:
    """``$RESILINT_BENCH_CACHE`` if set and non-empty, else ``~/.cache/resilint-bench``."""
    env = os.environ if environ is None else environ
    value = env.get(ENV_CACHE, "").strip()
    if value:
        return Path(value).expanduser()
    return Path.home() / ".cache" / "resilint-bench"


def count_lines(data: bytes) -> int:
    """Physical lines, as ``wc -l`` would count them plus an unterminated last line.

    ``\\r\\n`` and lone ``\\r`` line ends count once each, like Python's own line splitting.
    """
    if not data:
        return 0
    n = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    if not data.endswith((b"\n", b"\r")):
        n += 1
    return n


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk), b""):
            h.update(block)
    return h.hexdigest()


def check_sha256(actual: str, expected: str, what: str = "archive") -> None:
    """Raise HashMismatch unless the two hex digests are equal (case-insensitive)."""
    if actual.strip().lower() != expected.strip().lower():
        raise HashMismatch(f"sha256 mismatch for {what}: expected {expected}, got {actual}")


def is_python_source(name: str) -> bool:
    return name.endswith(PY_SUFFIXES)


def safe_member_path(name: str) -> Optional[PurePosixPath]:
    """The archive member's relative path, or None when it is unsafe to extract.

    Rejects absolute paths, drive letters, ``..`` components and empty names.
    """
    name = name.replace("\\", "/")
    if not name or name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        return None
    return PurePosixPath(*parts)


def strip_sdist_root(path: PurePosixPath) -> PurePosixPath:
    """sdists wrap everything in ``name-version/``; drop that first component."""
    return PurePosixPath(*path.parts[1:]) if len(path.parts) > 1 else path


# --------------------------------------------------------------------------- archives


def iter_python_members(archive: Path) -> Iterator[Tuple[PurePosixPath, bytes]]:
    """(relative path, bytes) for every Python source in a wheel/zip or sdist tarball."""
    name = archive.name
    if name.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if info.is_dir() or not is_python_source(info.filename):
                    continue
                rel = safe_member_path(info.filename)
                if rel is not None:
                    yield rel, zf.read(info)
    elif name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar")):
        with tarfile.open(archive) as tf:
            for member in tf:
                if not member.isfile() or not is_python_source(member.name):
                    continue
                rel = safe_member_path(member.name)
                if rel is None:
                    continue
                fh = tf.extractfile(member)
                if fh is not None:
                    yield strip_sdist_root(rel), fh.read()
    else:
        raise ValueError(f"unsupported archive type: {archive}")


def _fetch(url: str, dest: Path, log: Callable[[str], None]) -> None:
    """Download url to dest atomically, with a bounded number of jittered retries."""
    import random

    tmp = dest.with_suffix(dest.suffix + ".part")
    last: Optional[BaseException] = None
    for attempt in range(1, DOWNLOAD_ATTEMPTS + 1):
        try:
            req = urllib.request.Request(url, headers={"User-Agent": "resilint-bench/1"})
            deadline = time.monotonic() + DOWNLOAD_TIMEOUT[1]
            with urllib.request.urlopen(req, timeout=DOWNLOAD_TIMEOUT[0]) as resp, open(tmp, "wb") as out:
                while True:
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"download exceeded {DOWNLOAD_TIMEOUT[1]:.0f} s")
                    block = resp.read(1 << 20)
                    if not block:
                        break
                    out.write(block)
            os.replace(tmp, dest)
            return
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            last = exc
            tmp.unlink(missing_ok=True)
            if attempt < DOWNLOAD_ATTEMPTS:
                delay = random.uniform(0, min(8.0, 1.0 * 2 ** attempt))
                log(f"  download failed ({exc}); retry {attempt}/{DOWNLOAD_ATTEMPTS - 1} in {delay:.1f} s")
                time.sleep(delay)
    raise RuntimeError(f"could not download {url}: {last}")


def ensure_archive(pkg: Package, cache_dir: Path, log: Callable[[str], None] = print) -> Path:
    downloads = cache_dir / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    dest = downloads / pkg.filename
    if dest.exists():
        try:
            check_sha256(sha256_file(dest), pkg.sha256, pkg.filename)
            return dest
        except HashMismatch:
            log(f"  cached {pkg.filename} has the wrong hash; downloading again")
            dest.unlink()
    log(f"  downloading {pkg.filename}")
    _fetch(pkg.url, dest, log)
    try:
        check_sha256(sha256_file(dest), pkg.sha256, pkg.filename)
    except HashMismatch:
        dest.unlink(missing_ok=True)
        raise
    return dest


@dataclass
class PackageStats:
    name: str
    version: str
    files: int
    lines: int

    def as_dict(self) -> Dict[str, object]:
        return {"name": self.name, "version": self.version, "files": self.files, "lines": self.lines}


@dataclass
class CorpusInfo:
    root: Path
    packages: List[PackageStats] = field(default_factory=list)

    @property
    def files(self) -> int:
        return sum(p.files for p in self.packages)

    @property
    def lines(self) -> int:
        return sum(p.lines for p in self.packages)


def ensure_package(pkg: Package, cache_dir: Path, log: Callable[[str], None] = print,
                   directory: str = LIBRARIES_DIR) -> PackageStats:
    """Unpack pkg's Python sources under <cache>/<directory>/<name>-<version>/ (idempotent)."""
    target = cache_dir / directory / pkg.dirname
    marker = target / COMPLETE_MARKER
    if marker.exists():
        try:
            data = json.loads(marker.read_text())
            if data.get("sha256") == pkg.sha256:
                return PackageStats(pkg.name, pkg.version, int(data["files"]), int(data["lines"]))
        except (ValueError, KeyError):
            pass
    archive = ensure_archive(pkg, cache_dir, log)
    if target.exists():
        shutil.rmtree(target)
    tmp = target.with_name(target.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    files = lines = 0
    for rel, data in iter_python_members(archive):
        out = tmp.joinpath(*rel.parts)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        files += 1
        lines += count_lines(data)
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / COMPLETE_MARKER).write_text(
        json.dumps({"sha256": pkg.sha256, "files": files, "lines": lines}) + "\n"
    )
    os.replace(tmp, target)
    return PackageStats(pkg.name, pkg.version, files, lines)


def ensure_corpus(
    cache_dir: Optional[Path] = None,
    packages: Iterable[Package] = PACKAGES,
    log: Callable[[str], None] = print,
    directory: str = LIBRARIES_DIR,
) -> CorpusInfo:
    cache_dir = Path(cache_dir) if cache_dir else default_cache_dir()
    info = CorpusInfo(root=cache_dir / directory)
    for pkg in packages:
        info.packages.append(ensure_package(pkg, cache_dir, log, directory))
    return info


def ensure_applications(cache_dir: Optional[Path] = None, log: Callable[[str], None] = print) -> CorpusInfo:
    """The application corpus (``APPLICATIONS``) under <cache>/apps/."""
    return ensure_corpus(cache_dir, APPLICATIONS, log, APPLICATIONS_DIR)


def _link_or_copy(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def ensure_scaled(cache_dir: Path, factor: int, corpus: Optional[CorpusInfo] = None) -> Path:
    """A directory holding ``factor`` copies of corpus/ (hard links); 1 means corpus/ itself."""
    cache_dir = Path(cache_dir)
    root = cache_dir / "corpus"
    if factor <= 1:
        return root
    expected_files = corpus.files if corpus else None
    target = cache_dir / "scaled" / f"x{factor}"
    marker = target / COMPLETE_MARKER
    if marker.exists():
        try:
            data = json.loads(marker.read_text())
            if expected_files is None or data.get("files") == expected_files * factor:
                return target
        except ValueError:
            pass
    if target.exists():
        shutil.rmtree(target)
    tmp = target.with_name(target.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    files = 0
    for i in range(1, factor + 1):
        dest_root = tmp / f"copy{i}"
        for dirpath, _dirnames, filenames in os.walk(root):
            rel = Path(dirpath).relative_to(root)
            for fn in filenames:
                if fn == COMPLETE_MARKER or not is_python_source(fn):
                    continue
                out_dir = dest_root / rel
                out_dir.mkdir(parents=True, exist_ok=True)
                _link_or_copy(Path(dirpath) / fn, out_dir / fn)
                files += 1
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / COMPLETE_MARKER).write_text(json.dumps({"factor": factor, "files": files}) + "\n")
    os.replace(tmp, target)
    return target


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache-dir", type=Path, default=None,
                    help=f"cache directory (default: ${ENV_CACHE} or ~/.cache/resilint-bench)")
    ap.add_argument("--scale", type=int, action="append", default=[],
                    help="also build N copies of the corpus under <cache>/scaled/xN (repeatable)")
    ap.add_argument("--list", action="store_true", help="print the pinned packages and exit")
    ap.add_argument("--json", action="store_true", help="print the totals as JSON")
    args = ap.parse_args(argv)

    if args.list:
        for p in PACKAGES + APPLICATIONS:
            print(f"{p.name}=={p.version}  {p.filename}  sha256:{p.sha256}")
        return 0
    cache_dir = args.cache_dir or default_cache_dir()
    log = (lambda msg: print(msg, file=sys.stderr)) if args.json else print
    try:
        info = ensure_corpus(cache_dir, log=log)
        apps = ensure_applications(cache_dir, log=log)
    except (HashMismatch, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    scaled = {f: str(ensure_scaled(cache_dir, f, info)) for f in args.scale}
    if args.json:
        print(json.dumps({
            "root": str(info.root), "files": info.files, "lines": info.lines,
            "packages": [p.as_dict() for p in info.packages], "scaled": scaled,
            "applications": {"root": str(apps.root), "files": apps.files, "lines": apps.lines,
                             "packages": [p.as_dict() for p in apps.packages]},
        }, indent=2))
        return 0
    width = max(len(p.name) for p in info.packages + apps.packages)
    for title, found in (("libraries", info), ("applications", apps)):
        for p in found.packages:
            print(f"{p.name:<{width}}  {p.version:<8} {p.files:>6} files {p.lines:>9,} lines")
        print(f"{'total':<{width}}  {'':<8} {found.files:>6} files {found.lines:>9,} lines  "
              f"({len(found.packages)} {title}: {found.root})")
    for f, path in scaled.items():
        print(f"{f}x: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
