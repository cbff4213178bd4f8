"""Time resilint against ruff S113, pylint W3101 and bandit B113 on the pinned corpus.

    python bench/run.py                        # full run (~20 min on 2 cores), writes results/latest.md
    python bench/run.py --quick                # 1x, one run each, no pylint: a cheap re-check
    python bench/run.py --tools resilint,ruff --scales 1,2 --repeat 5
    python bench/run.py --profile              # also cProfile resilint on a ~50k-line subset

What is measured (see bench/README.md for the method):

* resilint cold (``--no-cache``), with ``--jobs 1`` and ``--jobs <all cores>``;
* resilint filling its cache (one run), then warm (cache full), ``--jobs 1`` and all cores,
  then with one file edited (all cores; the file is put back and the cache re-warmed after);
* ruff ``check --select S113 --no-cache``, pylint ``--disable=all --enable=W3101``,
  bandit ``-t B113 -r -q``, each from a separate venv built from bench/peers-requirements.txt;

each ``--repeat`` times (median reported), with CPU seconds, peak memory of the whole process
tree (sampled from /proc every 20 ms), lines per second and findings. The corpus is repeated
1x/2x/4x (hard links) to show how cost grows with size.

If the installed resilint has no ``--no-cache`` flag, every run is cold and warm is n/a.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import functools
import json
import math
import os
import platform
import pstats
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus as corpus_mod  # noqa: E402
from _procmem import RunResult, run_measured  # noqa: E402

REPO = HERE.parent
RESULTS_MD = HERE / "results" / "latest.md"
PEERS_REQUIREMENTS = HERE / "peers-requirements.txt"
ALL_TOOLS = ("resilint", "ruff", "pylint", "bandit")
# Packages for --profile: real HTTP/retry client code, ~52k lines.
PROFILE_PACKAGES = ("requests", "urllib3", "docker", "google-api-core")

# Targets from issue 27 (which tightened issue 16's), on both corpora.
TARGET_PEAK_MB = 500.0
TARGET_PYLINT_RATIO = 5.0
TARGET_CPU_VS_BANDIT = 0.8  # cold --jobs 1: CPU at most this fraction of bandit's
TARGET_BANDIT_RATIO = 0.5  # cold, all cores: wall time at most this fraction of bandit's
TARGET_WARM_VS_RUFF = 3.0
TARGET_EDITED_VS_WARM = 2.0  # one file edited: wall time at most this multiple of the warm run's
TARGET_VERSION_SECONDS = 0.2  # `resilint --version`, wall
# A 4,001-line module with one finding per 100 lines, and with 4,000: CPU at most these
# multiples of the same module with none, in every format.
TARGET_DENSITY = {"f40": 1.5, "f4000": 3.0}
LINEAR_TOLERANCE = 1.15  # s/100k lines at the largest scale at most 15 % above 1x
LIBRARIES, APPLICATIONS, DENSITY, STARTUP = "libraries", "applications", "density", "startup"
DENSITY_FORMATS = ("text", "concise", "json", "sarif", "github", "gitlab")
DENSITY_MODULES = (("none", 0), ("f40", 100), ("f4000", 1))  # name, one finding every N lines


# --------------------------------------------------------------------------- pure helpers


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def per_100k(seconds: float, lines: int) -> float:
    return seconds / lines * 100_000 if lines else float("nan")


def growth_exponent(s1: float, l1: int, s2: float, l2: int) -> float:
    """k in time ~ lines**k between two sizes (1.0 = linear)."""
    if s1 <= 0 or s2 <= 0 or l1 <= 0 or l2 <= 0 or l1 == l2:
        return float("nan")
    return math.log(s2 / s1) / math.log(l2 / l1)


def is_linear(per100k_by_scale: Dict[int, float], tolerance: float = LINEAR_TOLERANCE) -> Optional[bool]:
    """True if the cost per line at every larger scale stays within tolerance of the smallest."""
    if len(per100k_by_scale) < 2:
        return None
    scales = sorted(per100k_by_scale)
    base = per100k_by_scale[scales[0]]
    return all(per100k_by_scale[s] <= base * tolerance for s in scales[1:])


def fmt_s(x: Optional[float]) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def fmt_int(x: Optional[float]) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{int(round(x)):,}"


def fmt_ratio(x: Optional[float]) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.2f}×" if x < 10 else f"{x:.1f}×"


def exit_is_failure(tool: str, returncode: int) -> bool:
    """Did the tool fail (as opposed to report findings)?

    pylint's exit status is a bit mask: 1 fatal, 2 error, 4 warning, 8 refactor, 16 convention
    messages issued, 32 usage error; only 1 and 32 are failures. The others exit 1 for findings."""
    if tool == "pylint":
        return bool(returncode & (1 | 32)) or returncode < 0
    return returncode not in (0, 1)


def count_resilint(report_path: Path) -> Tuple[int, Dict[str, int], int]:
    data = json.loads(report_path.read_text())
    counts: Dict[str, int] = {}
    for f in data.get("findings", []):
        counts[f["code"]] = counts.get(f["code"], 0) + 1
    return sum(counts.values()), dict(sorted(counts.items())), len(data.get("errors", []))


def count_ruff(report_path: Path, code: str = "S113") -> int:
    data = json.loads(report_path.read_text() or "[]")
    return sum(1 for f in data if f.get("code") == code)


def count_pylint(report_path: Path, code: str = "W3101") -> int:
    text = report_path.read_text().strip()
    data = json.loads(text) if text else []
    return sum(1 for f in data if f.get("message-id") == code)


def count_bandit(report_path: Path, code: str = "B113") -> int:
    data = json.loads(report_path.read_text())
    return sum(1 for f in data.get("results", []) if f.get("test_id") == code)


# --------------------------------------------------------------------------- measurement model


@dataclass
class Measurement:
    key: str  # e.g. "resilint-cold-j2"
    label: str  # human label for tables
    tool: str
    scale: int
    lines: int
    runs: List[RunResult] = field(default_factory=list)
    findings: Optional[int] = None
    per_rule: Dict[str, int] = field(default_factory=dict)
    errors: Optional[int] = None
    note: str = ""
    na: str = ""  # reason when not measured
    corpus: str = LIBRARIES  # libraries | applications | density | startup

    @property
    def median_wall(self) -> float:
        return median([r.wall for r in self.runs])

    @property
    def median_cpu(self) -> float:
        return median([r.cpu for r in self.runs])

    @property
    def peak_rss(self) -> float:
        return max((r.peak_rss_mb for r in self.runs), default=float("nan"))

    @property
    def peak_pss(self) -> float:
        return max((r.peak_pss_mb for r in self.runs), default=float("nan"))

    @property
    def lines_per_s(self) -> float:
        return self.lines / self.median_wall if self.runs else float("nan")

    @classmethod
    def from_dict(cls, d: dict) -> "Measurement":
        m = cls(key=d["key"], label=d["label"], tool=d["tool"], scale=d["scale"], lines=d["lines"],
                findings=d.get("findings"), per_rule=d.get("per_rule") or {}, errors=d.get("errors"),
                note=d.get("note", ""), na=d.get("na", ""), corpus=d.get("corpus", LIBRARIES))
        n = len(d.get("walls", []))
        single = d.get("max_single_rss_mb") or [0.0] * n
        for i in range(n):
            m.runs.append(RunResult([], d["returncodes"][i], d["walls"][i], d["cpus"][i],
                                    d["peak_rss_mb"][i], d["peak_pss_mb"][i], single[i], 0, 0))
        return m

    def as_dict(self) -> dict:
        return {
            "key": self.key, "label": self.label, "tool": self.tool, "scale": self.scale,
            "lines": self.lines, "walls": [r.wall for r in self.runs],
            "cpus": [r.cpu for r in self.runs], "peak_rss_mb": [r.peak_rss_mb for r in self.runs],
            "peak_pss_mb": [r.peak_pss_mb for r in self.runs],
            "max_single_rss_mb": [r.max_single_rss_mb for r in self.runs],
            "returncodes": [r.returncode for r in self.runs], "findings": self.findings,
            "per_rule": self.per_rule, "errors": self.errors, "note": self.note, "na": self.na,
            "corpus": self.corpus,
        }


@dataclass
class _Job:
    m: Measurement
    argv: List[str]
    repeat: int
    out_file: Optional[Path]
    counter: Optional[Callable[[Measurement, Path], None]]
    stdout_to_file: bool
    # Called before each run, and after it (also when it fails): the one-file-edited runs.
    before: Optional[Callable[[], None]] = None
    after: Optional[Callable[[], None]] = None


class OneFileEdit:
    """Edits one file of a corpus tree before a run and puts it back after, then runs resilint
    once more, unmeasured, so that the next warm run finds the cache as warm as before.

    Each edit adds a different statement at the end of the module, a call (so the file's
    summary, and with it the project pass, really changes). The file is replaced, not written in place: the
    2x/4x trees are hard links to the 1x corpus."""

    def __init__(self, path: Path, rewarm: List[str], run: Callable[[List[str]], None]) -> None:
        self.path = path
        self.original = path.read_bytes()
        self.rewarm = rewarm
        self.run = run
        self.count = 0

    def _replace(self, data: bytes) -> None:
        temporary = self.path.with_name(self.path.name + ".bench-edit")
        temporary.write_bytes(data)
        os.replace(temporary, self.path)

    def before(self) -> None:
        self.count += 1
        self._replace(self.original + f"\n_resilint_bench_edit_{self.count} = Session()\n".encode())

    def after(self) -> None:
        self._replace(self.original)
        self.run(self.rewarm)


# The file the one-file-edited runs change: an HTTP client module other modules import.
EDITED_FILE = ("requests-", "requests/sessions.py")
EDITED_APPLICATION_FILE = ("pretix-", "pretix/base/services/mail.py")


def density_module(every: int, lines: int = 4000) -> str:
    """A module of ``lines`` client calls after its import, one in ``every`` without a timeout
    (none when 0): what generated clients and long test modules look like."""
    calls = ["requests.get(u)" if every and i % every == every - 1 else "requests.get(u, timeout=T)" for i in range(lines)]
    return "\n".join(["import requests", *calls]) + "\n"


class Bench:
    def __init__(self, args: argparse.Namespace, log: Callable[[str], None]) -> None:
        self.args = args
        self.log = log
        self.cache_dir: Path = args.cache_dir
        self.work = self.cache_dir / "work"
        self.work.mkdir(parents=True, exist_ok=True)
        self.jobs_all = args.jobs or os.cpu_count() or 1
        self.resilint = [sys.executable, "-m", "resilint"]
        self.peers_bin = self.cache_dir / "peers-venv" / "bin"
        self.measurements: List[Measurement] = []
        self._plan: List[_Job] = []
        self.env = dict(os.environ)
        self.snapshot_digest = ""
        if args.snapshot:
            self.snapshot_digest = self._snapshot_resilint()
        help_text = self._capture(self.resilint + ["check", "--help"])
        self.has_no_cache = "--no-cache" in help_text
        self.has_cache_dir = "--cache-dir" in help_text
        help_text = self._capture(self.resilint + ["check", "--help"])
        self.has_no_cache = "--no-cache" in help_text
        self.has_cache_dir = "--cache-dir" in help_text

    # ----------------------------------------------------------------- environment

    def _snapshot_resilint(self) -> str:
        """Copy the installed resilint package into <cache>/snapshot and run that copy.

        Others edit src/ while the bench runs; a frozen copy keeps every run on the same code
        and keeps resilint's cache key (which includes its modules' mtimes) stable between the
        run that fills the cache and the warm runs."""
        import hashlib
        import importlib.util

        spec = importlib.util.find_spec("resilint")
        if spec is None or not spec.submodule_search_locations:
            return ""
        src = Path(list(spec.submodule_search_locations)[0])
        dest_root = self.cache_dir / "snapshot"
        shutil.rmtree(dest_root, ignore_errors=True)
        shutil.copytree(src, dest_root / "resilint",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        # As pip does on install: else every run compiles resilint's modules again (with
        # PYTHONDONTWRITEBYTECODE set, no run keeps what it compiled), which the peers never do.
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(dest_root / "resilint")], check=True,
                       env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
        digest = hashlib.sha256()
        for path in sorted((dest_root / "resilint").rglob("*.py")):
            digest.update(str(path.relative_to(dest_root)).encode() + b"\0" + path.read_bytes())
        old = self.env.get("PYTHONPATH")
        self.env["PYTHONPATH"] = str(dest_root) + (os.pathsep + old if old else "")
        self.log(f"resilint snapshot: {src} -> {dest_root} (sha256 {digest.hexdigest()[:12]})")
        return digest.hexdigest()[:12]

    def _run_unmeasured(self, argv: List[str]) -> None:
        subprocess.run(argv, cwd=self.work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=self.args.timeout, env=self.env)

    def _capture(self, argv: Sequence[str]) -> str:
        try:
            out = subprocess.run(list(argv), capture_output=True, text=True, timeout=120,
                                 env=self.env)
            return (out.stdout + out.stderr).strip()
        except (OSError, subprocess.SubprocessError) as exc:
            return f"unavailable ({exc})"

    def ensure_peers(self, tools: Sequence[str]) -> Dict[str, str]:
        """Create <cache>/peers-venv from peers-requirements.txt if a peer is missing."""
        wanted = [t for t in tools if t != "resilint"]
        if not wanted:
            return {}
        missing = [t for t in wanted if not (self.peers_bin / t).exists()]
        stamp = self.cache_dir / "peers-venv" / ".requirements"
        req = PEERS_REQUIREMENTS.read_text()
        if missing or not stamp.exists() or stamp.read_text() != req:
            venv = self.cache_dir / "peers-venv"
            self.log(f"setting up peers venv in {venv}")
            if not (venv / "bin" / "python").exists():
                subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                            "-r", str(PEERS_REQUIREMENTS)], check=True)
            stamp.write_text(req)
        versions = {}
        for t in wanted:
            versions[t] = self._capture([str(self.peers_bin / t), "--version"]).splitlines()[0]
        return versions

    def machine_facts(self, peer_versions: Dict[str, str]) -> List[Tuple[str, str]]:
        cpu = "unknown"
        try:
            for line in Path("/proc/cpuinfo").read_text().splitlines():
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        except OSError:
            pass
        mem = "unknown"
        try:
            for line in Path("/proc/meminfo").read_text().splitlines():
                if line.startswith("MemTotal"):
                    mem = f"{int(line.split()[1]) / 2**20:.1f} GiB"
        except OSError:
            pass
        try:
            import libcst  # noqa: F401
            from importlib.metadata import version as _v

            libcst_v = _v("libcst")
        except Exception:
            libcst_v = "unknown"
        resilint_v = self._capture(self.resilint + ["version"]).splitlines()[0]
        facts = [
            ("date (UTC)", _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M")),
            ("cores", f"{os.cpu_count()} ({cpu})"),
            ("memory", mem),
            ("OS", platform.platform()),
            ("Python", f"{platform.python_version()} ({sys.executable})"),
            ("load average (1/5/15 min) at start", " / ".join(f"{x:.2f}" for x in os.getloadavg())),
            ("resilint", f"{resilint_v}"
                         + (f" (snapshot of the working tree, sources sha256 {self.snapshot_digest})"
                            if self.snapshot_digest else "")
                         + f"; libcst {libcst_v}; result cache: "
                         + ("yes (`--no-cache` for cold)" if self.has_no_cache
                            else "no (`--no-cache` unsupported: every run is cold)")),
        ]
        for tool, v in peer_versions.items():
            facts.append((tool, v))
        return facts

    # ----------------------------------------------------------------- running

    def _run(self, m: Measurement, argv: List[str], out_file: Optional[Path],
             stdout_to_file: bool = False) -> RunResult:
        stdout = subprocess.DEVNULL
        fh = None
        if stdout_to_file and out_file is not None:
            fh = open(out_file, "wb")
            stdout = fh
        err_path = self.work / f"{m.corpus}-{m.key}-x{m.scale}.stderr"
        with open(err_path, "wb") as err:
            try:
                r = run_measured(argv, cwd=self.work, stdout=stdout, stderr=err,
                                 timeout=self.args.timeout, env=self.env)
            finally:
                if fh is not None:
                    fh.close()
        self.log(f"    {m.label:<34} x{m.scale}: {r.wall:7.2f} s  cpu {r.cpu:7.2f} s  "
                 f"peak {r.peak_rss_mb:6.0f} MB rss / {r.peak_pss_mb:6.0f} MB pss  rc={r.returncode}")
        return r

    def measure(self, key: str, label: str, tool: str, scale: int, lines: int, argv: List[str],
                repeat: int, out_file: Optional[Path], counter: Optional[Callable[[Measurement, Path], None]],
                stdout_to_file: bool = False, edit: Optional[OneFileEdit] = None,
                corpus: str = LIBRARIES) -> Measurement:
        """Plan a measurement; execute() runs the plan round-robin."""
        m = Measurement(key=key, label=label, tool=tool, scale=scale, lines=lines, corpus=corpus)
        m.note = " ".join(_short(a) for a in argv)
        self._plan.append(_Job(m, argv, repeat, out_file, counter, stdout_to_file,
                               edit.before if edit else None, edit.after if edit else None))
        self.measurements.append(m)
        return m

    def execute(self) -> None:
        """Run every planned job: round 1 runs each job once in plan order, round 2 again, ...

        Interleaving makes a change in machine load (other work on the box) hit every tool
        alike instead of one tool's whole series."""
        plan, self._plan = self._plan, []
        rounds = max((j.repeat for j in plan), default=0)
        for rnd in range(rounds):
            for job in plan:
                if rnd >= job.repeat:
                    continue
                m = job.m
                if job.before is not None:
                    job.before()
                try:
                    r = self._run(m, job.argv, job.out_file, job.stdout_to_file)
                finally:
                    if job.after is not None:
                        job.after()
                m.runs.append(r)
                if exit_is_failure(m.tool, r.returncode):
                    err = (self.work / f"{m.corpus}-{m.key}-x{m.scale}.stderr").read_text(errors="replace")[-800:]
                    self.log(f"    !! {m.label}: exit {r.returncode}: {err.strip()}")
                if rnd == 0 and job.counter is not None and job.out_file is not None \
                        and job.out_file.exists():
                    try:
                        job.counter(m, job.out_file)
                    except (ValueError, KeyError, OSError) as exc:
                        self.log(f"    !! could not count findings of {m.label}: {exc}")

    def run_scale(self, scale: int, target: Path, lines: int, repeat: int, tools: Sequence[str],
                  full: bool, corpus: str = LIBRARIES, edited_file: Tuple[str, str] = EDITED_FILE) -> None:
        self.log(f"== {corpus} {scale}x: {target} ({lines:,} lines), {repeat} run(s) each")
        path = str(target)
        jn = self.jobs_all
        out = self.work / corpus
        out.mkdir(parents=True, exist_ok=True)
        measure = functools.partial(self.measure, corpus=corpus)

        def res_counter(m: Measurement, p: Path) -> None:
            m.findings, m.per_rule, m.errors = count_resilint(p)

        if "resilint" in tools:
            base = self.resilint + ["check", path, "--format", "json", "--exit-zero"]
            jobs_list = [1, jn] if (full or scale == 1) and not self.args.quick else [jn]
            if jn == 1:
                jobs_list = [1]
            cold_flag = ["--no-cache"] if self.has_no_cache else []
            for j in jobs_list:
                rep = out / f"resilint-x{scale}-j{j}.json"
                measure(f"resilint-cold-j{j}", f"resilint cold --jobs {j}", "resilint", scale,
                             lines, base + cold_flag + ["--jobs", str(j), "-o", str(rep)], repeat,
                             rep, res_counter)
            if self.has_no_cache and (scale == 1 or full):
                cache = self.cache_dir / "resilint-cache" / corpus / f"x{scale}"
                shutil.rmtree(cache, ignore_errors=True)
                cache_args = ["--cache-dir", str(cache)] if self.has_cache_dir else []
                rep = out / f"resilint-x{scale}-fill.json"
                measure(f"resilint-fill-j{jn}", f"resilint filling cache --jobs {jn}", "resilint",
                             scale, lines, base + cache_args + ["--jobs", str(jn), "-o", str(rep)], 1,
                             rep, res_counter)
                for j in jobs_list:
                    rep = out / f"resilint-x{scale}-warm-j{j}.json"
                    measure(f"resilint-warm-j{j}", f"resilint warm --jobs {j}", "resilint", scale,
                                 lines, base + cache_args + ["--jobs", str(j), "-o", str(rep)], repeat,
                                 rep, res_counter)
                edited = next(iter(sorted(target.glob(f"{edited_file[0]}*/{edited_file[1]}"))), None)
                if edited is not None:
                    rep = out / f"resilint-x{scale}-edited-j{jn}.json"
                    argv = base + cache_args + ["--jobs", str(jn), "-o", str(rep)]
                    edit = OneFileEdit(edited, argv, self._run_unmeasured)
                    measure(f"resilint-edited-j{jn}", f"resilint one file edited --jobs {jn}", "resilint",
                                 scale, lines, argv, repeat, rep, res_counter, edit=edit)
            elif not self.has_no_cache:
                for j in jobs_list:
                    m = Measurement(f"resilint-warm-j{j}", f"resilint warm --jobs {j}", "resilint",
                                    scale, lines, na="n/a (no cache yet)", corpus=corpus)
                    self.measurements.append(m)

        if "ruff" in tools:
            rep = out / f"ruff-x{scale}.json"
            measure("ruff", "ruff S113", "ruff", scale, lines,
                         [str(self.peers_bin / "ruff"), "check", "--select", "S113", "--no-cache",
                          "--isolated", "--exit-zero", "--output-format", "json", "-o", str(rep), path],
                         repeat, rep, lambda m, p: setattr(m, "findings", count_ruff(p)))
        if "bandit" in tools and (full or scale == 1 or "bandit" in self.args.scale_tools):
            rep = out / f"bandit-x{scale}.json"
            measure("bandit", "bandit B113", "bandit", scale, lines,
                         [str(self.peers_bin / "bandit"), "-t", "B113", "-r", "-q", "-f", "json",
                          "-o", str(rep), path],
                         repeat, rep, lambda m, p: setattr(m, "findings", count_bandit(p)))
        if "pylint" in tools and (full or scale == 1 or "pylint" in self.args.scale_tools):
            rep = out / f"pylint-x{scale}.json"
            # --recursive=y: the corpus root is a directory of packages, not a package.
            measure("pylint", "pylint W3101", "pylint", scale, lines,
                         [str(self.peers_bin / "pylint"), "--disable=all", "--enable=W3101",
                          "--recursive=y", "--persistent=n", "--score=n", "--output-format=json",
                          path],
                         min(repeat, self.args.pylint_repeat or repeat), rep,
                         lambda m, p: setattr(m, "findings", count_pylint(p)),
                         stdout_to_file=True)
        self.execute()

    def run_density(self, repeat: int) -> None:
        """The same 4,001-line module with no finding, one per 100 lines and 4,000, checked cold
        with one worker in every format: what findings cost on top of the file's analysis."""
        directory = self.cache_dir / DENSITY
        directory.mkdir(parents=True, exist_ok=True)
        out = self.work / DENSITY
        out.mkdir(parents=True, exist_ok=True)
        self.log(f"== density: {', '.join(name for name, _ in DENSITY_MODULES)} x {', '.join(DENSITY_FORMATS)}")
        for name, every in DENSITY_MODULES:
            module = directory / f"{name}.py"
            module.write_text(density_module(every))
            for fmt in DENSITY_FORMATS:
                rep = out / f"{name}.{fmt}"
                self.measure(f"density-{name}-{fmt}", f"resilint {name} --format {fmt}", "resilint", 1, 4001,
                             self.resilint + ["check", str(module), "--format", fmt, "--no-cache", "--jobs", "1",
                                              "--exit-zero", "-o", str(rep)],
                             repeat, rep, None, corpus=DENSITY)
        self.measure("version", "resilint --version", "resilint", 1, 0, self.resilint + ["--version"], repeat,
                     None, None, corpus=STARTUP)
        self.execute()

    # ----------------------------------------------------------------- profile

    def profile(self, info: corpus_mod.CorpusInfo) -> Tuple[str, str, int]:
        dirs, lines = [], 0
        for stats in info.packages:
            if stats.name in PROFILE_PACKAGES:
                dirs.append(str(info.root / f"{stats.name}-{stats.version}"))
                lines += stats.lines
        prof = self.work / "resilint.prof"
        # In one process (bench/_in_process.py): a profile of the command itself would show
        # only the main process waiting on its worker.
        argv = [sys.executable, "-m", "cProfile", "-o", str(prof), str(Path(__file__).with_name("_in_process.py")),
                "check", *dirs, "--format", "json", "-o", os.devnull, "--exit-zero"]
        if self.has_no_cache:
            argv.append("--no-cache")
        self.log(f"== profile: {lines:,} lines, --jobs 1")
        subprocess.run(argv, cwd=self.work, stdout=subprocess.DEVNULL, check=False, env=self.env)
        cum, tot = profile_tables(prof, self.args.profile_top)
        return cum, tot, lines


def profile_tables(prof: Path, top: int) -> Tuple[str, str]:
    """(cumulative, own-time) tables of a cProfile output file.

    Cumulative: only resilint's and libcst's own frames (the click/runpy wrappers above
    runner.run all show the whole run and say nothing). Own time: everything."""
    tables = []
    shares = stage_shares(prof)
    for order, restrict in (("cumulative", r"(resilint|libcst)/"), ("tottime", None)):
        buf = _StrIO()
        st = pstats.Stats(str(prof), stream=buf).sort_stats(order)
        if restrict:
            st.print_stats(restrict, top)
        else:
            st.print_stats(top)
        tables.append(_shorten_paths(_trim_pstats(buf.getvalue())))
    return shares + "\n\n" + tables[0], tables[1]


# The steps of checking a file and the project pass, by where their code is: (label, file, function).
# Nested steps are listed under the one that calls them; shares are of the whole run.
STAGES = (
    ("start-up (imports), discovery, reading, report: the rest", None, None),
    ("ast.parse (syntax errors, positions)", "lint/checker.py", "_check_syntax"),
    ("LibCST tree built from the ast tree", "lint/cst_from_ast.py", "convert"),
    ("LibCST parse (files not converted)", "lint/checker.py", "_parse"),
    ("semantic model (one pass)", "lint/semantic.py", "__init__"),
    ("per-file rules", "lint/rule.py", "run"),
    ("summary for the project pass", "libraries/summaries.py", "summarise"),
    ("  of which positions", "lint/positions.py", "__getitem__"),
    ("suppression comments", "lint/suppressions.py", "parse_suppressions"),
    ("project pass (main process)", "lint/checker.py", "project_findings"),
)


def stage_shares(prof: Path) -> str:
    """Where the time goes: the cumulative time of each step of STAGES, as a share of the run."""
    stats = pstats.Stats(str(prof)).stats  # type: ignore[attr-defined]
    total = max((cum for (_, _, _, cum, _) in stats.values()), default=0.0)
    rows = []
    named = 0.0
    for label, where, function in STAGES:
        if where is None:
            continue
        found = [v[3] for (path, _, name), v in stats.items()
                 if name == function and path.replace(os.sep, "/").endswith("resilint/" + where)]
        seconds = max(found, default=0.0)  # SemanticModel.__init__ vs other __init__ there: the largest
        if not label.startswith(" "):
            named += seconds
        rows.append((label, seconds))
    rows.insert(0, (STAGES[0][0], max(total - named, 0.0)))
    width = max(len(label) for label, _ in rows)
    lines = [f"where the time goes ({total:.2f} s profiled, one process):"]
    lines.extend(f"  {label:<{width}}  {seconds:7.2f} s  {100 * seconds / total if total else 0:5.1f} %"
                 for label, seconds in rows)
    return "\n".join(lines)


class _StrIO:
    def __init__(self) -> None:
        self.parts: List[str] = []

    def write(self, s: str) -> int:
        self.parts.append(s)
        return len(s)

    def getvalue(self) -> str:
        return "".join(self.parts)


def _trim_pstats(text: str) -> str:
    """pstats output from the column header on, without blank lines."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.strip().startswith("ncalls")), 0)
    return "\n".join(l.rstrip() for l in lines[start:] if l.strip())


def _shorten_paths(text: str) -> str:
    """…/site-packages/libcst/_x.py and /work/.../src/resilint/lint/y.py -> libcst/_x.py, resilint/..."""
    import re

    text = re.sub(r"(?<![\w.])/\S*?/((?:resilint|libcst|click)/\S+)", r"\1", text)
    return re.sub(r"(?<![\w.])/\S*/([^/\s]+\.py:)", r"\1", text)


def _short(arg: str) -> str:
    if arg == sys.executable:
        return "python"
    p = Path(arg)
    if p.is_absolute() and len(p.parts) > 2:
        return p.name if p.suffix else f"…/{p.name}"
    return arg


# --------------------------------------------------------------------------- report


def render(bench: Bench, info: corpus_mod.CorpusInfo, facts: List[Tuple[str, str]],
           scales: Dict[int, Tuple[Path, int, int]], profile: Optional[Tuple[str, str, int]],
           command: str, elapsed: float, apps: Optional[corpus_mod.CorpusInfo] = None) -> str:
    everything = bench.measurements
    ms = [m for m in everything if m.corpus == LIBRARIES]
    jn = bench.jobs_all
    out: List[str] = ["# resilint benchmark: latest results", ""]
    out.append(f"Produced by `{command}` in {elapsed / 60:.1f} min. Method: bench/README.md.")
    out.append("")
    out.append("## Machine")
    out.append("")
    out.append("| fact | value |")
    out.append("|---|---|")
    for k, v in facts:
        out.append(f"| {k} | {v} |")
    out.append("")
    out.append("## Corpus")
    out.append("")
    out.append(f"{len(info.packages)} pinned packages (bench/corpus.py), {info.files:,} files, "
               f"{info.lines:,} lines of Python at 1×.")
    out.append("")
    out.append("| package | version | files | lines |")
    out.append("|---|---|---:|---:|")
    for p in info.packages:
        out.append(f"| {p.name} | {p.version} | {p.files:,} | {p.lines:,} |")
    out.append(f"| **total** | | **{info.files:,}** | **{info.lines:,}** |")
    out.append("")
    if apps is not None:
        out.append(f"The application corpus: {len(apps.packages)} pinned applications (`APPLICATIONS`), "
                   f"{apps.files:,} files, {apps.lines:,} lines (1× only).")
        out.append("")
        out.append("| application | version | files | lines |")
        out.append("|---|---|---:|---:|")
        for p in apps.packages:
            out.append(f"| {p.name} | {p.version} | {p.files:,} | {p.lines:,} |")
        out.append(f"| **total** | | **{apps.files:,}** | **{apps.lines:,}** |")
        out.append("")
    sections = [(LIBRARIES, scale, scales[scale][1], scales[scale][2]) for scale in sorted(scales)]
    if apps is not None:
        sections.append((APPLICATIONS, 1, apps.files, apps.lines))
    for corpus, scale, files, lines in sections:
        rows = [m for m in everything if m.scale == scale and m.corpus == corpus]
        if not rows:
            continue
        ref = next((m for m in rows if m.key == f"resilint-cold-j{jn}" and m.runs), None)
        nrep = max((len(m.runs) for m in rows), default=0)
        title = "application corpus" if corpus == APPLICATIONS else f"{scale}× corpus"
        out.append(f"## {title} ({files:,} files, {lines:,} lines)")
        out.append("")
        out.append(f"Median of {nrep} run(s) (fill: 1 run). Ratio = median ÷ resilint cold "
                   f"`--jobs {jn}` (above 1× = slower than resilint). Peak MB = peak summed RSS of "
                   f"the process tree (PSS in brackets).")
        out.append("")
        out.append("| measurement | median s | min–max s | CPU s | ratio | lines/s | s / 100k lines "
                   "| CPU s / 100k lines | peak MB | findings |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for m in rows:
            if m.na or not m.runs:
                out.append(f"| {m.label} | {m.na or 'n/a'} | | | | | | | | |")
                continue
            walls = [r.wall for r in m.runs]
            ratio = m.median_wall / ref.median_wall if ref else float("nan")
            rc_bad = [r.returncode for r in m.runs if exit_is_failure(m.tool, r.returncode)]
            fnd = fmt_int(m.findings) if m.findings is not None else "n/a"
            if m.tool == "resilint" and m.findings is not None:
                fnd = f"{m.findings:,} (RES101 {m.per_rule.get('RES101', 0):,})"
            if rc_bad:
                fnd += f" exit {sorted(set(rc_bad))}"
            out.append(
                f"| {m.label} | {fmt_s(m.median_wall)} | {fmt_s(min(walls))}–{fmt_s(max(walls))} "
                f"| {fmt_s(m.median_cpu)} | {fmt_ratio(ratio)} | {fmt_int(m.lines_per_s)} "
                f"| {fmt_s(per_100k(m.median_wall, m.lines))} | {fmt_s(per_100k(m.median_cpu, m.lines))} "
                f"| {m.peak_rss:.0f} ({m.peak_pss:.0f}) | {fnd} |")
        out.append("")
    out.extend(density_table(everything))

    # missing-timeout comparison and per-rule counts (1x, or the smallest scale measured)
    base_scale = min(scales) if scales else 1
    base = [m for m in ms if m.scale == base_scale and m.runs and m.findings is not None]
    res = next((m for m in base if m.tool == "resilint"), None)
    out.append(f"## Findings ({base_scale}× corpus)")
    out.append("")
    out.append("Missing timeout: ruff S113, pylint W3101 and bandit B113 check a fixed list of "
               "HTTP-library calls (chiefly `requests`); resilint RES101 covers more clients "
               "(DESIGN §3) and resolves sessions, so the counts are not expected to agree. Which "
               "calls each flags: bench/compare_missing_timeout.py.")
    out.append("")
    out.append("| tool | rule | findings |")
    out.append("|---|---|---:|")
    if res:
        out.append(f"| resilint | RES101 missing-timeout | {res.per_rule.get('RES101', 0):,} |")
    for tool, rule in (("ruff", "S113"), ("pylint", "W3101"), ("bandit", "B113")):
        m = next((m for m in base if m.tool == tool), None)
        out.append(f"| {tool} | {rule} | {fmt_int(m.findings) if m else 'not run'} |")
    out.append("")
    if res:
        out.append("resilint findings per rule (all default rules):")
        out.append("")
        out.append("| rule | findings |")
        out.append("|---|---:|")
        for code, n in res.per_rule.items():
            out.append(f"| {code} | {n:,} |")
        out.append(f"| analysis errors (`errors` in JSON) | {res.errors or 0:,} |")
        out.append("")

    # scaling
    scaling_keys = sorted({m.key for m in ms if m.runs and m.tool == "resilint"}
                          | {m.key for m in ms if m.runs and m.tool != "resilint"})
    multi = [k for k in scaling_keys
             if len({m.scale for m in ms if m.key == k and m.runs}) > 1]
    linear_verdict: Optional[bool] = None
    if multi:
        ss = sorted(scales)
        out.append("## Scaling")
        out.append("")
        out.append("Seconds per 100k lines at each size; exponent k in time ∝ lines^k between the "
                   f"smallest and largest size (1.0 = linear). Linear = cost per line at every larger "
                   f"size within {round((LINEAR_TOLERANCE - 1) * 100)} % of {ss[0]}×.")
        out.append("")
        out.append("| measurement | " + " | ".join(f"{s}× s/100k" for s in ss) + " | k | linear? |")
        out.append("|---|" + "---:|" * len(ss) + "---:|---|")
        for k in multi:
            by = {m.scale: m for m in ms if m.key == k and m.runs}
            p100 = {s: per_100k(by[s].median_wall, by[s].lines) for s in by}
            lo, hi = min(by), max(by)
            kexp = growth_exponent(by[lo].median_wall, by[lo].lines, by[hi].median_wall, by[hi].lines)
            lin = is_linear(p100)
            if k == f"resilint-cold-j{jn}":
                linear_verdict = lin
            cells = " | ".join(fmt_s(p100.get(s)) if s in p100 else "–" for s in ss)
            out.append(f"| {by[lo].label} | {cells} | {kexp:.2f} | "
                       f"{'yes' if lin else 'no' if lin is not None else 'n/a'} |")
        out.append("")

    # targets
    out.append("## Targets (issue 27)")
    out.append("")
    out.append("| target | figure | met? |")
    out.append("|---|---|---|")
    out.extend(targets(bench, base_scale, linear_verdict))
    out.append("")
    if profile:
        cum, tot, plines = profile
        out.append(f"## Profile: resilint `--jobs 1`, cold, {plines:,} lines "
                   f"({', '.join(PROFILE_PACKAGES)})")
        out.append("")
        out.append("Where the time goes (cProfile's cumulative time of each step; the profile inflates "
                   "Python-heavy steps against native ones such as LibCST's parser), then the profile "
                   "sorted by cumulative time:")
        out.append("")
        out.append("```")
        out.append(cum)
        out.append("```")
        out.append("")
        out.append("Sorted by own time:")
        out.append("")
        out.append("```")
        out.append(tot)
        out.append("```")
        out.append("")
    return "\n".join(out) + "\n"


def density_table(ms: Sequence[Measurement]) -> List[str]:
    """Median CPU of the density modules per format, and each against the module with none."""
    found = {m.key: m for m in ms if m.corpus == DENSITY and m.runs}
    if not found:
        return []
    out = ["## Findings in one module (4,001 lines, `--jobs 1`, cold)", "",
           "Median CPU seconds of `resilint check MODULE --format F --no-cache --jobs 1`; in brackets, the "
           "multiple of the same module with no finding (`none`). `f40`: one call without a timeout per "
           "100 lines; `f4000`: every line.", "",
           "| format | " + " | ".join(name for name, _ in DENSITY_MODULES) + " |",
           "|---|" + "---:|" * len(DENSITY_MODULES)]
    for fmt in DENSITY_FORMATS:
        base = found.get(f"density-none-{fmt}")
        cells = []
        for name, _ in DENSITY_MODULES:
            m = found.get(f"density-{name}-{fmt}")
            if m is None:
                cells.append("–")
            elif name == "none" or base is None:
                cells.append(fmt_s(m.median_cpu))
            else:
                cells.append(f"{fmt_s(m.median_cpu)} ({fmt_ratio(m.median_cpu / base.median_cpu)})")
        out.append(f"| {fmt} | " + " | ".join(cells) + " |")
    version = next((m for m in ms if m.key == "version" and m.runs), None)
    if version is not None:
        out.extend(["", f"`resilint --version`: {fmt_s(version.median_wall)} s wall, {fmt_s(version.median_cpu)} s CPU "
                        "(median)."])
    out.append("")
    return out


def targets(bench: Bench, scale: int, linear: Optional[bool]) -> List[str]:
    jn = bench.jobs_all

    def get(key: str, corpus: str = LIBRARIES) -> Optional[Measurement]:
        return next((m for m in bench.measurements if m.key == key and m.corpus == corpus and m.runs
                     and (m.scale == scale or corpus != LIBRARIES)), None)

    def yes(ok: Optional[bool]) -> str:
        return "n/a" if ok is None else ("**met**" if ok else "**missed**")

    rows = []
    for name, limit in TARGET_DENSITY.items():
        ratios = []
        for fmt in DENSITY_FORMATS:
            m, base = get(f"density-{name}-{fmt}", DENSITY), get(f"density-none-{fmt}", DENSITY)
            if m and base:
                ratios.append((m.median_cpu / base.median_cpu, fmt))
        if ratios:
            worst = max(ratios)
            figure = ", ".join(f"{fmt} {fmt_ratio(r)}" for r, fmt in ratios)
            rows.append(f"| `{name}` module at most {limit:g}× the module with no finding (CPU), every format | "
                        f"{figure} | {yes(worst[0] <= limit)} |")
    for corpus in (LIBRARIES, APPLICATIONS):
        cold1, cold, bandit = get("resilint-cold-j1", corpus), get(f"resilint-cold-j{jn}", corpus), get("bandit", corpus)
        warm, ruff, edited = get(f"resilint-warm-j{jn}", corpus), get("ruff", corpus), get(f"resilint-edited-j{jn}", corpus)
        if cold1 and bandit:
            r = cold1.median_cpu / bandit.median_cpu
            rows.append(f"| {corpus}: cold --jobs 1 CPU at most {TARGET_CPU_VS_BANDIT:g}× bandit B113's | "
                        f"{fmt_s(cold1.median_cpu)} s vs {fmt_s(bandit.median_cpu)} s = {fmt_ratio(r)} "
                        f"({fmt_s(per_100k(cold1.median_cpu, cold1.lines))} s per 100k lines) | {yes(r <= TARGET_CPU_VS_BANDIT)} |")
        if cold and bandit:
            r = cold.median_wall / bandit.median_wall
            rows.append(f"| {corpus}: cold --jobs {jn} wall at most {TARGET_BANDIT_RATIO:g}× bandit B113's | "
                        f"{fmt_s(cold.median_wall)} s vs {fmt_s(bandit.median_wall)} s = {fmt_ratio(r)} | "
                        f"{yes(r <= TARGET_BANDIT_RATIO)} |")
        if warm and ruff:
            r = warm.median_wall / ruff.median_wall
            rows.append(f"| {corpus}: warm at most {TARGET_WARM_VS_RUFF:g}× ruff S113's | {fmt_s(warm.median_wall)} s vs "
                        f"{fmt_s(ruff.median_wall)} s = {fmt_ratio(r)} | {yes(r <= TARGET_WARM_VS_RUFF)} |")
        if edited and warm:
            r = edited.median_wall / warm.median_wall
            rows.append(f"| {corpus}: one file edited at most {TARGET_EDITED_VS_WARM:g}× the warm run | "
                        f"{fmt_s(edited.median_wall)} s vs {fmt_s(warm.median_wall)} s = {fmt_ratio(r)} | "
                        f"{yes(r <= TARGET_EDITED_VS_WARM)} |")
    version = get("version", STARTUP)
    if version:
        rows.append(f"| `resilint --version` at most {TARGET_VERSION_SECONDS:g} s | {fmt_s(version.median_wall)} s | "
                    f"{yes(version.median_wall <= TARGET_VERSION_SECONDS)} |")
    res_all = [m for m in bench.measurements if m.tool == "resilint" and m.runs]
    if res_all:
        worst = max(res_all, key=lambda m: m.peak_rss)
        rows.append(f"| resilint peak memory < {TARGET_PEAK_MB:.0f} MB (any run, any size, 4× included) | "
                    f"{worst.peak_rss:.0f} MB RSS / {worst.peak_pss:.0f} MB PSS "
                    f"({worst.label}, {worst.corpus} {worst.scale}×) | {yes(worst.peak_rss < TARGET_PEAK_MB)} |")
    rows.append(f"| resilint cost per line flat from 1× to 4× (cold, --jobs {jn}) | see Scaling | {yes(linear)} |")
    rows.append("| findings identical before and after, fix edits included | `python bench/compare_findings.py` "
                "(not run by this script) | n/a |")
    return rows


# --------------------------------------------------------------------------- main


def rerender(args: argparse.Namespace, log: Callable[[str], None]) -> int:
    """Rebuild the Markdown report from the raw runs of the last run (after a report change)."""
    import re
    import types

    raw = args.cache_dir / "results" / "latest.json"
    data = json.loads(raw.read_text())
    info = corpus_mod.ensure_corpus(args.cache_dir, log=log)
    ms = [Measurement.from_dict(d) for d in data["measurements"]]
    jobs_all = data.get("jobs_all") or max(
        int(m.key.rsplit("-j", 1)[1]) for m in ms if m.key.startswith("resilint-cold-j"))
    has_no_cache = data.get("has_no_cache", any(m.key.startswith("resilint-warm") and m.runs for m in ms))
    bench = types.SimpleNamespace(measurements=ms, jobs_all=jobs_all, has_no_cache=has_no_cache)
    if data.get("scales"):
        scales = {int(k): (Path(v[0]), v[1], v[2]) for k, v in data["scales"].items()}
    else:
        scales = {m.scale: (args.cache_dir, info.files * m.scale, m.lines) for m in ms}
    command, elapsed = data.get("command"), data.get("elapsed")
    if (command is None or elapsed is None) and args.output.exists():
        hit = re.search(r"Produced by `([^`]*)` in ([\d.]+) min", args.output.read_text())
        if hit:
            command, elapsed = hit.group(1), float(hit.group(2)) * 60
    profile = data.get("profile")
    prof = args.cache_dir / "work" / "resilint.prof"
    if profile is None and prof.exists() and args.output.exists() and "## Profile" in args.output.read_text():
        lines = sum(p.lines for p in info.packages if p.name in PROFILE_PACKAGES)
        profile = [*profile_tables(prof, args.profile_top), lines]
    facts = [tuple(f) for f in data["facts"]]
    apps = corpus_mod.ensure_applications(args.cache_dir, log=log) if data.get("applications") else None
    md = render(bench, info, facts, scales, tuple(profile) if profile else None,  # type: ignore[arg-type]
                command or "python bench/run.py", elapsed or 0.0, apps)
    md = md.replace("Method: bench/README.md.", "Method: bench/README.md. (Report re-rendered from "
                    "the raw runs with `--rerender`.)", 1)
    args.output.write_text(md)
    print(md)
    log(f"wrote {args.output} from {raw}")
    return 0


def parse_csv_ints(text: str) -> List[int]:
    return sorted({int(x) for x in text.split(",") if x.strip()})


def parse_tools(text: str) -> List[str]:
    tools = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in tools if t not in ALL_TOOLS]
    if bad:
        raise argparse.ArgumentTypeError(f"unknown tool(s): {', '.join(bad)} (choose from {', '.join(ALL_TOOLS)})")
    return tools


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache-dir", type=Path, default=None,
                    help="corpus, peers venv and scratch (default: $RESILINT_BENCH_CACHE or "
                         "~/.cache/resilint-bench)")
    ap.add_argument("--tools", type=parse_tools, default=None,
                    help=f"comma-separated subset of {','.join(ALL_TOOLS)} (default: all; --quick: no pylint)")
    ap.add_argument("--scales", type=parse_csv_ints, default=None,
                    help="corpus copies to measure (default 1,2,4; --quick: 1)")
    ap.add_argument("--repeat", type=int, default=None, help="runs per measurement at 1× (default 3; --quick: 1)")
    ap.add_argument("--pylint-repeat", type=int, default=None,
                    help="runs of pylint (the slowest by far; default: --repeat)")
    ap.add_argument("--no-snapshot", dest="snapshot", action="store_false",
                    help="run the installed resilint in place instead of a frozen copy of it")
    ap.add_argument("--scale-repeat", type=int, default=1,
                    help="runs per measurement at the larger scales (default 1)")
    ap.add_argument("--scale-tools", type=parse_tools, default=["resilint", "ruff", "bandit"],
                    help="tools also run at scales above 1× (default resilint,ruff,bandit; pylint "
                         "only at 1× unless listed). resilint --jobs 1 runs only at 1× unless --full")
    ap.add_argument("--full", action="store_true",
                    help="every measurement at every scale (slow)")
    ap.add_argument("--jobs", type=int, default=None, help="'all cores' value (default os.cpu_count())")
    ap.add_argument("--quick", action="store_true",
                    help="1×, one run each, no pylint, resilint only with all cores; writes to "
                         "<cache>/results/quick.md unless --output is given")
    ap.add_argument("--profile", action="store_true",
                    help="also cProfile resilint --jobs 1 on ~50k lines and add the tables")
    ap.add_argument("--profile-top", type=int, default=15)
    ap.add_argument("--timeout", type=float, default=1800.0, help="kill a single run after this many seconds")
    ap.add_argument("--no-applications", dest="applications", action="store_false",
                    help="leave out the application corpus (bench/corpus.py APPLICATIONS), measured at 1×")
    ap.add_argument("--no-density", dest="density", action="store_false",
                    help="leave out the 4,001-line modules with 0, 40 and 4,000 findings in every format")
    ap.add_argument("--density-only", action="store_true",
                    help="measure only those modules and `resilint --version` (no corpus run, no peers)")
    ap.add_argument("--rerender", action="store_true",
                    help="measure nothing: rebuild the report from <cache>/results/latest.json")
    ap.add_argument("--output", type=Path, default=None,
                    help=f"Markdown report (default {RESULTS_MD.relative_to(REPO)})")
    args = ap.parse_args(argv)

    args.cache_dir = (args.cache_dir or corpus_mod.default_cache_dir()).expanduser().resolve()
    if args.quick:
        args.tools = args.tools or ["resilint", "ruff", "bandit"]
        args.scales = args.scales or [1]
        args.repeat = args.repeat or 1
        args.output = args.output or (args.cache_dir / "results" / "quick.md")
    args.tools = args.tools or list(ALL_TOOLS)
    args.scales = args.scales or [1, 2, 4]
    args.repeat = args.repeat or 3
    args.output = args.output or RESULTS_MD

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    if args.rerender:
        return rerender(args, log)

    t_start = time.perf_counter()
    info = corpus_mod.ensure_corpus(args.cache_dir, log=log)
    log(f"corpus: {len(info.packages)} packages, {info.files:,} files, {info.lines:,} lines")
    apps = corpus_mod.ensure_applications(args.cache_dir, log=log) if args.applications else None
    if apps is not None:
        log(f"applications: {len(apps.packages)} packages, {apps.files:,} files, {apps.lines:,} lines")
        for dirpath, _d, files in os.walk(apps.root):
            for fn in files:
                with open(os.path.join(dirpath, fn), "rb") as fh:
                    fh.read()
    bench = Bench(args, log)
    peer_versions = bench.ensure_peers(args.tools)
    facts = bench.machine_facts(peer_versions)
    facts.append(("resilint `--jobs` for 'all cores'", str(bench.jobs_all)))

    scales: Dict[int, Tuple[Path, int, int]] = {}
    for s in args.scales:
        target = corpus_mod.ensure_scaled(args.cache_dir, s, info)
        scales[s] = (target, info.files * s, info.lines * s)
        # Read every file once so the first timed tool does not pay for a cold page cache.
        for dirpath, _d, files in os.walk(target):
            for fn in files:
                with open(os.path.join(dirpath, fn), "rb") as fh:
                    fh.read()

    command = "python bench/run.py" + ("" if argv is None and len(sys.argv) == 1 else " " + " ".join(
        (argv if argv is not None else sys.argv[1:])))
    raw = args.cache_dir / "results" / "latest.json"
    raw.parent.mkdir(parents=True, exist_ok=True)
    args.output.parent.mkdir(parents=True, exist_ok=True)

    def write(profile: Optional[Tuple[str, str, int]] = None, final: bool = False) -> str:
        elapsed = time.perf_counter() - t_start
        end_facts = facts + [("load average (1/5/15 min) at end" if final else "load average now",
                              " / ".join(f"{x:.2f}" for x in os.getloadavg()))]
        md = render(bench, info, end_facts, scales, profile, command, elapsed, apps)
        if not final:
            md = md.replace("# resilint benchmark: latest results",
                            "# resilint benchmark: latest results (PARTIAL: run in progress)", 1)
        args.output.write_text(md)
        raw.write_text(json.dumps({
            "measurements": [m.as_dict() for m in bench.measurements], "facts": end_facts,
            "corpus_lines": info.lines, "command": command, "elapsed": elapsed,
            "scales": {str(k): [str(v[0]), v[1], v[2]] for k, v in scales.items()},
            "jobs_all": bench.jobs_all, "has_no_cache": bench.has_no_cache, "applications": apps is not None,
            "profile": list(profile) if profile else None}, indent=1))
        return md

    if args.density and "resilint" in args.tools:
        bench.run_density(args.repeat)
        write()
    if args.density_only:
        scales, apps = {}, None
    for s in sorted(scales):
        target, _files, lines = scales[s]
        tools = [t for t in args.tools if s == 1 or args.full or t in args.scale_tools]
        bench.run_scale(s, target, lines, args.repeat if s == 1 else args.scale_repeat, tools, args.full)
        write()
        if s == 1 and apps is not None:
            bench.run_scale(1, apps.root, apps.lines, args.repeat, args.tools, args.full, APPLICATIONS,
                            EDITED_APPLICATION_FILE)
            write()

    profile = bench.profile(info) if args.profile else None
    md = write(profile, final=True)
    print(md)
    log(f"wrote {args.output} (raw runs: {raw})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
