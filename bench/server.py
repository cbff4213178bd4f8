"""The language server's latency and memory on a real project, driven by a real LSP client
(pytest-lsp's, over stdio) as an editor drives it.

    python bench/server.py PROJECT [--file RELATIVE/PATH.py] [--edits 40] [--no-warm]

1. Warms the result cache as a developer's earlier run would: ``resilint check`` of PROJECT
   (unless ``--no-warm``).
2. Starts ``resilint server`` in PROJECT, opens the file (default: the project's largest module
   that imports other project modules), and times start-up to its first diagnostics.
3. Makes ``--edits`` one-line edits of three kinds, each taken back by the next: a comment
   appended to a line (the file's summary stays as it was: the project pass is not run again),
   a blank line (every place below it moves: the last pass's findings move with them) and a
   request added (``__import__("requests").get(...)``: the summary changes and the project
   pass runs). Each
   is timed from ``didChange`` to the diagnostics of that version; the server's debounce counts.
4. Prints the median and 95th percentile of those, and the server's resident memory (its own
   and its peak, from /proc) — the targets are 150 ms, 400 ms, 400 MB and 2 s.

The server and the warm-up run with Python's bytecode cache on (``PYTHONDONTWRITEBYTECODE``
unset), as an installed package runs: compiling resilint's modules at every start is not a cost
users pay. Needs ``pip install -e '.[test]'`` (pytest-lsp, pygls). Nothing is written but the result cache
in PROJECT (``.resilint_cache``): run it on a copy of a project you do not own (``cp -al``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

from lsprotocol import types
from pytest_lsp import LanguageClient


# As an installed package runs: its modules compiled once, not at every start.
_ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _memory(pid: int) -> Dict[str, float]:
    """The process's resident set now and at its peak, in MB (Linux)."""
    found = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    found[key] = int(value.split()[0]) / 1024
    except OSError:
        pass
    return found


def _largest_importing_module(root: Path) -> Path:
    """The largest ``.py`` file of the project that imports from the project's own packages."""
    packages = {p.parent.name for p in root.glob("*/__init__.py")} | {p.parent.name for p in root.glob("*/*/__init__.py")}
    best, size = None, -1
    for path in root.rglob("*.py"):
        if any(part.startswith(".") or part in ("node_modules", "tests", "migrations") for part in path.relative_to(root).parts):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if len(text) > size and any(f"from {name}" in text or f"import {name}" in text for name in packages):
            best, size = path, len(text)
    if best is None:
        raise SystemExit(f"{root}: no module that imports the project's packages; name one with --file")
    return best


async def _published(uri: str, version: int, versions: Dict[str, int], timeout: float = 120.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while versions.get(uri, -1) < version:
        if loop.time() > deadline:
            raise SystemExit(f"no diagnostics for version {version} of {uri} in {timeout:.0f} s")
        await asyncio.sleep(0.001)


async def _bench(root: Path, target: Path, edits: int) -> None:
    versions: Dict[str, int] = {}
    client = LanguageClient()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        versions[params.uri] = params.version if params.version is not None else versions.get(params.uri, 0) + 1

    started = time.perf_counter()
    await client.start_io(sys.executable, "-m", "resilint", "server", cwd=str(root), env=_ENVIRONMENT)
    pid = client._server.pid  # type: ignore[union-attr]
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        )
    )
    uri = target.resolve().as_uri()
    text = target.read_text(encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text))
    )
    await _published(uri, 1, versions)
    startup = time.perf_counter() - started
    findings = len(client.diagnostics.get(uri, ()))

    lines = text.split("\n")
    # A line of code near the middle of the file, not inside a string: the one after a ``def``.
    candidates = [i + 1 for i, line in enumerate(lines[:-1]) if line.lstrip().startswith("def ") and lines[i + 1].strip()]
    line = candidates[len(candidates) // 2] if candidates else len(lines) // 2
    timings: Dict[str, List[float]] = {"comment": [], "blank line": [], "request added": []}
    indent = lines[line][: len(lines[line]) - len(lines[line].lstrip())]
    version = 1
    for kind in timings:
        for number in range(edits):
            version += 1
            edited = list(lines)
            if number % 2 == 0:  # every other edit takes the previous one back
                if kind == "comment":
                    edited[line] = edited[line] + f"  # edit {version}"  # no summary changes
                elif kind == "blank line":
                    edited.insert(line, "")  # every place below it moves
                else:
                    # a call a summary keeps (a builtin's, ``print(...)``, is not): the project pass runs
                    edited.insert(line, f'{indent}__import__("requests").get("https://example.invalid", timeout=5)')
            new_text = "\n".join(edited)
            sent = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=new_text)],
                )
            )
            await _published(uri, version, versions)
            timings[kind].append(time.perf_counter() - sent)
    memory = _memory(pid)
    await client.shutdown_session()
    await client.stop()

    print(f"project: {root} ({sum(1 for _ in root.rglob('*.py'))} .py files)")
    print(f"file:    {target.relative_to(root)} ({len(lines)} lines, {findings} findings), edited at line {line + 1}")
    print(f"start-up to first diagnostics: {startup * 1000:.0f} ms")
    for kind, measured in timings.items():
        measured.sort()
        p95 = measured[min(len(measured) - 1, int(round(0.95 * (len(measured) - 1))))]
        print(f"one-line edit ({kind}) to diagnostics, {len(measured)} edits: median "
              f"{statistics.median(measured) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {measured[-1] * 1000:.0f} ms")
    print(f"server memory: {memory.get('VmRSS', float('nan')):.0f} MB resident, peak {memory.get('VmHWM', float('nan')):.0f} MB")


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--file", help="the file to open and edit, relative to the project")
    parser.add_argument("--edits", type=int, default=20, help="edits of each kind")
    parser.add_argument("--no-warm", action="store_true", help="do not run `resilint check` first")
    args = parser.parse_args(argv)
    root = args.project.resolve()
    target = root / args.file if args.file else _largest_importing_module(root)
    if not args.no_warm:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "resilint", "check", "--exit-zero", "--quiet", "."], cwd=root, stdout=subprocess.DEVNULL, check=True, env=_ENVIRONMENT)
        print(f"warm-up `resilint check .`: {time.perf_counter() - started:.1f} s")
    asyncio.run(_bench(root, target, args.edits))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
