"""``resilint server`` end to end: a real client (pytest-lsp) drives the real server process over
stdio, on real files; what it publishes is compared with what ``resilint check`` says of the
same text, run as a separate process."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Dict, List, Optional, Sequence, Tuple

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient, make_test_lsp_client

from tests.conftest import write_tree

pytestmark = pytest.mark.asyncio

CLIENT_FILE = """
    import requests
    from tenacity import retry, stop_after_attempt, wait_random_exponential


    @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=10))
    def fetch(url):
        return requests.get(url, timeout=(3.05, 10))
"""
VIEWS_FILE = """
    import requests
    from tenacity import retry, stop_after_attempt, wait_random_exponential

    from app.client import fetch


    @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=10))
    def load():
        requests.get("https://a.example")
        return fetch("https://b.example")
"""
PROJECT = {
    # a project that has adopted the runtime: the timeout fixes write ``resilint.runtime``
    "pyproject.toml": """
        [project]
        name = "app"
        dependencies = ["requests", "resilint-runtime"]

        [tool.resilint]
        extend-select = ["RES001"]
    """,
    "app/__init__.py": "",
    "app/client.py": CLIENT_FILE,
    "app/views.py": VIEWS_FILE,
}
WAIT = 20.0
Seen = Tuple[str, int, int, int, int, str]  # code, line, column, end line, end column (1-based), message


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "project", PROJECT)


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


@asynccontextmanager
async def serving(
    root: Path, options: Optional[Dict[str, Any]] = None, pull: bool = False, roots: Sequence[Path] = (),
) -> AsyncIterator[LanguageClient]:
    """A client connected to ``resilint server`` started in ``root``, initialised with the
    workspace folders ``roots`` (default: ``root``); ``pull``: a client that asks for
    diagnostics rather than being sent them."""
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "resilint", "server", cwd=str(root))
    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
            workspace_folders=True,
        ),
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(related_document_support=True) if pull else None,
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True, version_support=True),
        ),
    )
    folders = [types.WorkspaceFolder(uri=uri_of(r), name=r.name) for r in (roots or [root])]
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities, root_uri=folders[0].uri, workspace_folders=folders, initialization_options=options,
        )
    )
    try:
        yield client
    finally:
        await asyncio.wait_for(client.shutdown_session(), WAIT)
        await client.stop()


async def until(client: LanguageClient, condition: Callable[[], bool], what: str) -> None:
    """Wait until ``condition`` holds of what the server sent."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}; published: {client.diagnostics}")
        await asyncio.sleep(0.01)


def seen(diagnostics: Sequence[types.Diagnostic]) -> List[Seen]:
    """What a diagnostic says, in the CLI's terms (the texts here are ASCII: columns are equal)."""
    found = []
    for d in diagnostics:
        message = d.message
        name = (d.data or {}).get("name")
        assert message.endswith(f" ({name})"), message
        found.append((
            str(d.code), d.range.start.line + 1, d.range.start.character + 1, d.range.end.line + 1,
            d.range.end.character + 1, message[: -len(f" ({name})")],
        ))
    return sorted(found)


def cli_check(root: Path, name: str, text: str, *args: str) -> List[Seen]:
    """``resilint check`` of ``text`` as the file ``name`` of the project (standard input)."""
    proc = subprocess.run(
        [sys.executable, "-m", "resilint", "check", "--format", "json", "--no-cache", "--stdin-filename", name, *args, "-"],
        cwd=root, input=text, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return sorted(
        (f["code"], f["line"], f["column"], f["end_line"], f["end_column"], f["message"])
        for f in json.loads(proc.stdout)["findings"]
    )


class Document:
    """An open document of the client: its text and version, changed as an editor does."""

    def __init__(self, client: LanguageClient, path: Path, text: Optional[str] = None) -> None:
        self.client, self.path, self.uri = client, path, uri_of(path)
        self.text = path.read_text(encoding="utf-8") if text is None else text
        self.version = 1
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=self.uri, language_id="python", version=1, text=self.text)
            )
        )

    @property
    def published(self) -> Optional[Sequence[types.Diagnostic]]:
        return self.client.diagnostics.get(self.uri)

    def change(self, text: str) -> None:
        self.text, self.version = text, self.version + 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def apply(self, edit: types.WorkspaceEdit) -> None:
        """Apply a code action's edit as an editor does: to this version of this document."""
        [change] = edit.document_changes
        assert change.text_document.uri == self.uri and change.text_document.version == self.version
        self.change(apply_edits(self.text, change.edits))

    async def published_when(self, condition: Callable[[Sequence[types.Diagnostic]], bool], what: str) -> List[Seen]:
        await until(self.client, lambda: self.published is not None and condition(self.published), what)
        assert self.published is not None
        return seen(self.published)

    async def actions(self, line: int, only: Optional[List[str]] = None) -> List[types.CodeAction]:
        found = await self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri),
                range=types.Range(start=types.Position(line=line - 1, character=0), end=types.Position(line=line - 1, character=0)),
                context=types.CodeActionContext(diagnostics=list(self.published or []), only=only),
            )
        )
        return [a for a in found or [] if isinstance(a, types.CodeAction)]


def apply_edits(text: str, edits: Sequence[types.TextEdit]) -> str:
    lines = text.splitlines(keepends=True)

    def offset(position: types.Position) -> int:
        return sum(len(line) for line in lines[: position.line]) + position.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def codes(found: Sequence[Seen]) -> List[str]:
    return sorted(item[0] for item in found)


async def test_diagnostics_follow_open_change_save_and_close_and_match_the_command_line(project):
    views = project / "app" / "views.py"
    async with serving(project) as client:
        document = Document(client, views)
        opened = await document.published_when(lambda d: len(d) > 0, "the diagnostics of the opened file")
        assert opened == cli_check(project, "app/views.py", document.text)
        assert codes(opened) == ["RES101", "RES204"]

        # Unsaved text: the timeout added in the buffer only.
        edited = document.text.replace('requests.get("https://a.example")', 'requests.get("https://a.example", timeout=cfg.TIMEOUT)')
        document.change(edited)
        changed = await document.published_when(lambda d: "RES101" not in {x.code for x in d}, "the edit's diagnostics")
        assert changed == cli_check(project, "app/views.py", edited)
        assert codes(changed) == ["RES204"]

        views.write_text(edited, encoding="utf-8")
        client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=document.uri)))
        client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=document.uri)))
        assert await document.published_when(lambda d: len(d) == 0, "the closed file's diagnostics cleared") == []


async def test_typing_ends_with_the_diagnostics_of_the_last_text(project):
    """An edit after a pause is checked at once; edits that come while a check is waiting or
    running are checked together once typing stops, and no check of a text the editor no
    longer shows is published after the last text's."""
    views = project / "app" / "views.py"
    async with serving(project) as client:
        document = Document(client, views)
        await document.published_when(lambda d: len(d) > 0, "the diagnostics of the opened file")
        lines = document.text.splitlines(keepends=True)
        at = next(i for i, line in enumerate(lines) if "requests.get(" in line)
        for count in range(1, 9):  # one more call without a timeout per keystroke-sized edit
            added = [f'    requests.get("https://{n}.example")\n' for n in range(count)]
            document.change("".join(lines[: at + 1] + added + lines[at + 1:]))
        final = await document.published_when(
            lambda d: sum(x.code == "RES101" for x in d) == 9, "the last text's diagnostics"
        )
        assert final == cli_check(project, "app/views.py", document.text)
        await asyncio.sleep(0.5)  # a stale check would be published by now
        assert seen(document.published or []) == final


async def test_a_diagnostic_carries_the_rule_its_documentation_and_the_related_places(project):
    (project / "app" / "quiet.py").write_text("import os  # noqa: RES101\n", encoding="utf-8")
    async with serving(project) as client:
        views = Document(client, project / "app" / "views.py")
        quiet = Document(client, project / "app" / "quiet.py")
        await views.published_when(lambda d: len(d) == 2, "the views' diagnostics")
        await quiet.published_when(lambda d: len(d) == 1, "the unused suppression")
        assert views.published is not None and quiet.published is not None
        by_code = {d.code: d for d in views.published}
        nested = by_code["RES204"]
        assert nested.source == "resilint"
        assert nested.data["name"] == "nested-retry"
        assert nested.code_description.href.endswith("/docs/rules/RES204.md")
        assert nested.severity == types.DiagnosticSeverity.Warning
        related = {(r.location.uri, r.location.range.start.line) for r in nested.related_information}
        assert (uri_of(project / "app" / "client.py"), 4) in related  # the inner layer, at client.py:5
        assert by_code["RES101"].tags is None
        [unused] = quiet.published
        assert unused.code == "RES001" and list(unused.tags) == [types.DiagnosticTag.Unnecessary]


async def test_an_edit_in_a_module_updates_the_diagnostics_of_an_open_module_that_calls_into_it(project):
    async with serving(project) as client:
        views = Document(client, project / "app" / "views.py")
        library = Document(client, project / "app" / "client.py")
        await views.published_when(lambda d: "RES204" in {x.code for x in d}, "the nested retry")
        await library.published_when(lambda d: len(d) > 0, "the client module's diagnostics")
        views_version = views.version

        # The inner retry goes, in the unsaved buffer of the module that views.py calls into.
        without_retry = library.text.replace("@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=10))\n", "")
        library.change(without_retry)
        after = await views.published_when(lambda d: "RES204" not in {x.code for x in d}, "views.py without RES204")
        assert views.version == views_version  # views.py itself did not change
        assert codes(after) == ["RES101"]

        # And back: the nested retry is reported again.
        library.change(dedent(CLIENT_FILE))
        await views.published_when(lambda d: "RES204" in {x.code for x in d}, "views.py with RES204 again")


async def test_a_fix_action_applied_to_the_buffer_removes_its_finding(project):
    async with serving(project) as client:
        document = Document(client, project / "app" / "views.py")
        await document.published_when(lambda d: "RES101" in {x.code for x in d}, "RES101")
        actions = await document.actions(line=9)
        titles = [a.title for a in actions]
        fix = next(a for a in actions if a.diagnostics and a.diagnostics[0].code == "RES101" and "noqa" not in a.title)
        assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
        assert "Suppress RES101 on this line (# noqa)" in titles
        document.apply(fix.edit)
        after = await document.published_when(lambda d: "RES101" not in {x.code for x in d}, "the fixed buffer's diagnostics")
        assert after == cli_check(project, "app/views.py", document.text)
        assert "timeout=timeout(" in document.text and "from resilint.runtime import timeout" in document.text


async def test_the_suppress_action_adds_a_noqa_comment_that_suppresses_the_finding(project):
    async with serving(project) as client:
        document = Document(client, project / "app" / "views.py")
        await document.published_when(lambda d: "RES101" in {x.code for x in d}, "RES101")
        [suppress] = [a for a in await document.actions(line=9) if a.title == "Suppress RES101 on this line (# noqa)"]
        document.apply(suppress.edit)
        assert 'requests.get("https://a.example")  # noqa: RES101\n' in document.text
        after = await document.published_when(lambda d: "RES101" not in {x.code for x in d}, "the suppressed finding gone")
        assert codes(after) == ["RES204"]


async def test_fix_all_applies_every_safe_fix_as_resilint_fix_does(project, tmp_path):
    text = dedent("""
        import requests

        requests.get("https://a.example")
        requests.post("https://a.example", timeout=None)
        requests.put("https://a.example", timeout=5)
    """)
    async with serving(project) as client:
        document = Document(client, project / "app" / "calls.py", text)
        await document.published_when(lambda d: len(d) == 3, "three findings")
        [fix_all] = await document.actions(line=1, only=["source.fixAll.resilint"])
        assert fix_all.kind == "source.fixAll.resilint"
        document.apply(fix_all.edit)
        after = await document.published_when(lambda d: len(d) == 1, "only the unsafe finding left")
        assert codes(after) == ["RES103"]  # the hard-coded timeout's fix is unsafe: not applied
    # The same text fixed on disk by ``resilint fix``.
    copy = write_tree(tmp_path / "copy", {**PROJECT, "app/calls.py": text})
    subprocess.run([sys.executable, "-m", "resilint", "fix", "--no-cache", "app/calls.py"], cwd=copy, capture_output=True, check=False, timeout=120)
    assert document.text == (copy / "app" / "calls.py").read_text(encoding="utf-8")


async def test_an_unparseable_buffer_is_one_res000_and_the_server_carries_on(project):
    async with serving(project) as client:
        document = Document(client, project / "app" / "views.py", "def broken(:\n    pass\n")
        broken = await document.published_when(lambda d: len(d) > 0, "RES000")
        assert codes(broken) == ["RES000"]
        assert broken == cli_check(project, "app/views.py", document.text)
        document.change(dedent(VIEWS_FILE))
        await document.published_when(lambda d: codes(seen(d)) == ["RES101", "RES204"], "the repaired file's findings")


async def test_a_bad_configuration_is_shown_and_a_corrected_one_is_read_again(project):
    config = project / "pyproject.toml"
    config.write_text('[tool.resilint]\nselect = ["RES999"]\n', encoding="utf-8")
    async with serving(project) as client:
        document = Document(client, project / "app" / "views.py")
        # The defaults meanwhile: the server keeps serving.
        await document.published_when(lambda d: codes(seen(d)) == ["RES101", "RES204"], "the default rules' findings")
        [message] = client.messages
        assert message.type == types.MessageType.Error
        assert "unknown rule selector `RES999`" in message.message and "pyproject.toml" in message.message

        config.write_text('[tool.resilint]\nignore = ["RES101"]\n', encoding="utf-8")
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=uri_of(config), type=types.FileChangeType.Changed)])
        )
        after = await document.published_when(lambda d: codes(seen(d)) == ["RES204"], "the corrected configuration's findings")
        assert after == cli_check(project, "app/views.py", document.text)


async def test_client_settings_select_over_the_configuration(project):
    async with serving(project, options={"ignore": ["RES101"]}) as client:
        document = Document(client, project / "app" / "views.py")
        first = await document.published_when(lambda d: len(d) > 0, "findings")
        assert first == cli_check(project, "app/views.py", document.text, "--ignore", "RES101")
        assert codes(first) == ["RES204"]
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"resilint": {"select": ["RES101"]}})
        )
        await document.published_when(lambda d: codes(seen(d)) == ["RES101"], "only RES101")
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"extend-select": "RES9"}))
        await until(client, lambda: len(client.messages) == 1, "the refused setting")
        assert "editor setting `extend-select`: unknown rule selector `RES9`" in client.messages[0].message


async def test_pulled_diagnostics_match_the_command_line(project):
    async with serving(project, pull=True) as client:
        document = Document(client, project / "app" / "views.py")
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=document.uri))
        )
        assert report.kind == "full"
        assert seen(report.items) == cli_check(project, "app/views.py", document.text)
        edited = document.text.replace('"https://a.example")', '"https://a.example", timeout=cfg.TIMEOUT)')
        document.change(edited)
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=document.uri))
        )
        assert codes(seen(report.items)) == ["RES204"]
        assert client.diagnostics == {}  # a client that pulls is not also pushed to


async def test_each_workspace_folder_has_its_own_configuration(tmp_path):
    first = write_tree(tmp_path / "first", PROJECT)
    second = write_tree(tmp_path / "second", {**PROJECT, "pyproject.toml": '[tool.resilint]\nignore = ["RES204"]\n'})
    async with serving(first, roots=[first, second]) as client:
        one = Document(client, first / "app" / "views.py")
        two = Document(client, second / "app" / "views.py")
        assert codes(await one.published_when(lambda d: len(d) > 0, "the first folder")) == ["RES101", "RES204"]
        assert codes(await two.published_when(lambda d: len(d) > 0, "the second folder")) == ["RES101"]


async def test_a_client_that_pulls_is_asked_to_pull_again_when_an_edit_elsewhere_changes_a_file(project):
    async with serving(project, pull=True) as client:
        views = Document(client, project / "app" / "views.py")
        library = Document(client, project / "app" / "client.py")

        async def pulled(document: Document) -> List[Seen]:
            report = await client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=document.uri))
            )
            return seen(report.items)

        assert codes(await pulled(views)) == ["RES101", "RES204"]
        await pulled(library)
        assert client.diagnostic_refresh_count == 0
        library.change(library.text.replace("@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=10))\n", ""))
        await until(client, lambda: client.diagnostic_refresh_count > 0, "workspace/diagnostic/refresh")
        assert codes(await pulled(views)) == ["RES101"]


async def test_a_cancelled_request_is_answered_as_cancelled_and_the_next_one_is_answered(project):
    """A pull the editor cancels (the user typed on) while its check runs is answered as
    cancelled at once, not after the check; the document is checked again for the next pull.

    The check is long and made of many short steps: it reads the summaries of 120 modules the
    document imports. Parsing one file holds the interpreter lock, so the time to answer a
    cancellation is bounded by the longest parse, and a check of one huge file would make it
    as long as the check itself."""
    from pygls.exceptions import JsonRpcRequestCancelled

    parts = [f"part_{k}" for k in range(120)]
    calls = "".join(f"def call_{n}(u):\n    return requests.get(u, timeout=5)\n\n\n" for n in range(60))
    fetches = "".join(f"def fetch_{n}(u):\n    {parts[n]}.call_{n}(u)\n    return requests.get(u)\n\n\n" for n in range(50))
    write_tree(project, {f"app/{part}.py": "import requests\n\n\n" + calls for part in parts})
    importing = f"import requests\n\nfrom app import {', '.join(parts)}\n\n\n" + fetches
    big = write_tree(project, {"app/many.py": importing}) / "app" / "many.py"
    async with serving(project, pull=True) as client:
        document = Document(client, big)
        params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=document.uri))
        started = asyncio.get_running_loop().time()
        pending = asyncio.ensure_future(
            client.protocol.send_request_async(types.TEXT_DOCUMENT_DIAGNOSTIC, params, msg_id="cancelled-pull")
        )
        await until(client, lambda: "cancelled-pull" in client.protocol._request_futures, "the request to be sent")
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="cancelled-pull"))
        with pytest.raises(JsonRpcRequestCancelled):
            await asyncio.wait_for(pending, WAIT)
        cancelled_after = asyncio.get_running_loop().time() - started
        report = await client.text_document_diagnostic_async(params)
        checked_after = asyncio.get_running_loop().time() - started
        assert len(report.items) == 50 and {d.code for d in report.items} == {"RES101"}
        assert cancelled_after < checked_after / 2  # answered without waiting for the check
