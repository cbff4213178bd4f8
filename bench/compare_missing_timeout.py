"""Side by side: resilint RES101/RES102 against ruff S113, pylint W3101 and bandit B113.

Usage::

    python bench/compare_missing_timeout.py CORPUS_DIR [--peers-bin DIR] [--json OUT] [--skip-pylint]

CORPUS_DIR holds unpacked Python sources (e.g. sdists/wheels of pinned PyPI packages). The peers
are run from ``--peers-bin`` (a venv's bin/ with ruff, pylint and bandit; default: the one this
Python runs in, else PATH); resilint is run as ``python -m resilint.cli`` with this interpreter.

A peer finding is *matched* when resilint reports RES101 or RES102 inside a call that starts on
the peer's line (calls are located with ``ast``, so a RES102 on the ``timeout=None`` line of a
multi-line call still matches). Unmatched peer findings are printed with their source line, to
be explained (a peer false positive) or fixed (a resilint miss). Standalone: standard library only.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from typing import Dict, List, Optional, Sequence, Set, Tuple

Location = Tuple[str, int]  # (path relative to the corpus, line)


def _tool(name: str, peers_bin: Optional[str]) -> str:
    if peers_bin:
        candidate = os.path.join(peers_bin, name)
        if os.path.exists(candidate):
            return candidate
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: pass --peers-bin DIR (a venv with ruff, pylint, bandit)")
    return found


def _run(command: Sequence[str], cwd: str) -> Tuple[str, float]:
    start = time.perf_counter()
    result = subprocess.run(list(command), cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode not in (0, 1) and not result.stdout.strip():
        # pylint uses bit-flag exit codes; the others 0/1. Only fail when nothing was produced.
        sys.stderr.write(f"{command[0]} exited {result.returncode}:\n{result.stderr[-2000:]}\n")
    return result.stdout, elapsed


def _norm(path: str) -> str:
    path = path.replace("\\", "/")
    return path[2:] if path.startswith("./") else path


def run_ruff(corpus: str, peers_bin: Optional[str]) -> Tuple[Set[Location], float, List[str]]:
    command = [_tool("ruff", peers_bin), "check", "--select", "S113", "--no-cache", "--output-format", "json",
               "--exit-zero", "--isolated", "."]
    out, elapsed = _run(command, corpus)
    found = set()
    for item in json.loads(out or "[]"):
        found.add((_norm(os.path.relpath(item["filename"], corpus)), item["location"]["row"]))
    return found, elapsed, command


def run_pylint(corpus: str, peers_bin: Optional[str]) -> Tuple[Set[Location], float, List[str]]:
    targets = sorted(
        entry for entry in os.listdir(corpus)
        if os.path.isdir(os.path.join(corpus, entry)) or entry.endswith(".py")
    )
    command = [_tool("pylint", peers_bin), "--disable=all", "--enable=W3101", "--output-format=json",
               "--recursive=y", "--jobs=0", "--score=n", *targets]
    out, elapsed = _run(command, corpus)
    found = set()
    for item in json.loads(out or "[]"):
        if item.get("symbol") == "missing-timeout" or item.get("message-id") == "W3101":
            found.add((_norm(item["path"]), item["line"]))
    return found, elapsed, command[:8] + ["<each top-level entry of CORPUS>"]


def run_bandit(corpus: str, peers_bin: Optional[str]) -> Tuple[Set[Location], float, List[str]]:
    command = [_tool("bandit", peers_bin), "-t", "B113", "-r", ".", "-f", "json", "-q"]
    out, elapsed = _run(command, corpus)
    found = set()
    data = json.loads(out or "{}")
    for item in data.get("results", []):
        found.add((_norm(item["filename"]), item["line_number"]))
    return found, elapsed, command


def run_resilint(corpus: str) -> Tuple[Dict[str, Set[Location]], float, List[str], int]:
    command = [sys.executable, "-m", "resilint.cli", "check", "--select", "RES101,RES102", "--format", "json",
               "--no-cache", "--exit-zero", "."]
    out, elapsed = _run(command, corpus)
    data = json.loads(out)
    found: Dict[str, Set[Location]] = defaultdict(set)
    for item in data["findings"]:
        found[item["code"]].add((_norm(item["path"]), item["line"]))
    return found, elapsed, ["resilint", *command[3:]], len(data.get("errors", []))


_CALLS: Dict[str, Dict[int, List[Tuple[int, int]]]] = {}


def _call_spans(corpus: str, path: str) -> Dict[int, List[Tuple[int, int]]]:
    """Start line → (start, end) line spans of the calls starting there."""
    if path not in _CALLS:
        spans: Dict[int, List[Tuple[int, int]]] = defaultdict(list)
        try:
            with open(os.path.join(corpus, path), "rb") as handle:
                tree = ast.parse(handle.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    start = node.func.lineno if hasattr(node.func, "lineno") else node.lineno
                    for line in {node.lineno, start}:
                        spans[line].append((node.lineno, getattr(node, "end_lineno", node.lineno) or node.lineno))
        except (SyntaxError, ValueError, OSError):
            pass
        _CALLS[path] = spans
    return _CALLS[path]


def matched(location: Location, resilint: Set[Location], corpus: str) -> bool:
    if location in resilint:
        return True
    path, line = location
    for start, end in _call_spans(corpus, path).get(line, ()):
        if any(p == path and start <= l <= end for p, l in resilint):
            return True
    return False


def _source_line(corpus: str, location: Location) -> str:
    try:
        with open(os.path.join(corpus, location[0]), encoding="utf-8", errors="replace") as handle:
            for number, text in enumerate(handle, start=1):
                if number == location[1]:
                    return text.strip()
    except OSError:
        pass
    return ""


def _lines_of_code(corpus: str) -> Tuple[int, int]:
    files = lines = 0
    for root, _dirs, names in os.walk(corpus):
        for name in names:
            if name.endswith(".py"):
                files += 1
                with open(os.path.join(root, name), "rb") as handle:
                    lines += handle.read().count(b"\n")
    return files, lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("--peers-bin", help="directory holding ruff, pylint and bandit executables")
    parser.add_argument("--json", help="write the full comparison as JSON to this file")
    parser.add_argument("--skip-pylint", action="store_true", help="pylint is slow on large corpora")
    args = parser.parse_args(argv)
    corpus = os.path.abspath(args.corpus)
    files, lines = _lines_of_code(corpus)

    peers: Dict[str, Tuple[Set[Location], float, List[str]]] = {}
    peers["ruff S113"] = run_ruff(corpus, args.peers_bin)
    if not args.skip_pylint:
        peers["pylint W3101"] = run_pylint(corpus, args.peers_bin)
    peers["bandit B113"] = run_bandit(corpus, args.peers_bin)
    ours, our_time, our_command, errors = run_resilint(corpus)
    resilint_all = ours.get("RES101", set()) | ours.get("RES102", set())

    print(f"corpus: {corpus} ({files} files, {lines} lines)\n")
    print(f"| tool | findings | matched by resilint RES101/RES102 | not matched | time (s) |")
    print(f"|---|---|---|---|---|")
    report = {"corpus": corpus, "files": files, "lines": lines, "tools": {}, "unmatched": {}}
    union: Set[Location] = set()
    for name, (found, elapsed, command) in peers.items():
        hits = {loc for loc in found if matched(loc, resilint_all, corpus)}
        missed = sorted(found - hits)
        union |= found
        print(f"| {name} | {len(found)} | {len(hits)} | {len(missed)} | {elapsed:.1f} |")
        report["tools"][name] = {"findings": len(found), "matched": len(hits), "command": " ".join(command)}
        report["unmatched"][name] = [{"path": p, "line": l, "source": _source_line(corpus, (p, l))} for p, l in missed]
    print(
        f"| resilint RES101 / RES102 | {len(ours.get('RES101', ()))} / {len(ours.get('RES102', ()))} | "
        f"- | - | {our_time:.1f} |"
    )
    beyond = {
        loc for loc in resilint_all
        if not any(matched(peer, {loc}, corpus) for peer in union)
    }
    print(f"\npeers' union: {len(union)} call sites; resilint-only findings: {len(beyond)}; resilint errors: {errors}")
    report["tools"]["resilint"] = {
        "RES101": len(ours.get("RES101", ())), "RES102": len(ours.get("RES102", ())), "command": " ".join(our_command),
    }
    report["resilint_only"] = [
        {"path": p, "line": l, "source": _source_line(corpus, (p, l))} for p, l in sorted(beyond)
    ]
    print("\ncommands (run in the corpus directory):")
    for name, (_found, _elapsed, command) in peers.items():
        print(f"  {name}: {' '.join(os.path.basename(c) if i == 0 else c for i, c in enumerate(command))}")
    print(f"  resilint: {' '.join(our_command)}")
    for name, items in report["unmatched"].items():
        if items:
            print(f"\n{name} findings resilint does not report:")
            for item in items:
                print(f"  {item['path']}:{item['line']}: {item['source']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
