"""``resilint server``: the Language Server Protocol over stdio, on ``pygls``.

Diagnostics are pushed (``textDocument/publishDiagnostics``) to a client that does not pull
them, and answered to one that does (``textDocument/diagnostic``; such a client is asked to pull
again, ``workspace/diagnostic/refresh``, when an edit changes another open document's
findings). They are computed from the buffers' unsaved text, on open, on save, and on change:
at once after a pause, and while typing goes on, after ``DEBOUNCE_SECONDS`` without typing. Checks run one at a time on one thread (with a deep
stack, as the command line's workers have), so the event loop keeps reading the client:
a request the client cancels is answered as cancelled, and a check that an edit made stale
is never published.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from resilint import __version__
from resilint.fixing.edits import edits_between
from resilint.lint.config import ConfigError, Settings
from resilint.lint.finding import ANALYSIS_ERROR, UNUSED_SUPPRESSION, Edit, Finding
from resilint.lint.report.sarif import HELP_URI
from resilint.lint.runner import display_path
from resilint.lint.source import SourceError, decode, python_lines
from resilint.lint.deep_stack import RECURSION_LIMIT, STACK_SIZE
from resilint.server.engine import ClientSettings, Project, buffer_bytes, settings_for, suppressed

NAME = "resilint"
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.{NAME}"
# Long enough that a burst of keystrokes is checked once, short enough to feel immediate.
DEBOUNCE_SECONDS = 0.05
PYTHON_SUFFIXES = (".py", ".pyi")
CONFIG_FILE = "pyproject.toml"
_SEVERITIES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "note": types.DiagnosticSeverity.Information,
}
# RES001 reports a suppression comment that suppresses nothing: code that can go, which
# editors fade. No rule reports the use of something deprecated, so none is tagged Deprecated.
_TAGS = {UNUSED_SUPPRESSION: [types.DiagnosticTag.Unnecessary]}
T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass
class _Checked:
    """The findings of one version of an open document, and the bytes they come from."""

    version: int
    text: str
    data: bytes
    path: str
    project: Project
    findings: List[Finding]
    diagnostics: List[types.Diagnostic]


class ResilintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(NAME, __version__)
        self.client_settings = ClientSettings()
        self.projects: Dict[Settings, Project] = {}
        self.project_of: Dict[str, Project] = {}  # path → its project, until the configuration changes
        self.checked: Dict[str, _Checked] = {}  # uri → the last check of that document
        self.dirty: Set[str] = set()  # uris edited since their last check
        self.shown: Set[str] = set()  # configuration errors already shown
        self.pending: Optional[asyncio.Task] = None
        self.check_lock: Optional[asyncio.Lock] = None
        self.executor = _deep_stack_executor()

    # --- the documents ---------------------------------------------------------------------

    def open_python_documents(self) -> Dict[str, Tuple[str, int, str]]:
        """uri → (path as the engine reports it, version, text) of every open Python document."""
        found = {}
        for uri, document in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path is None or not path.endswith(PYTHON_SUFFIXES):
                continue
            found[uri] = (display_path(path), document.version or 0, document.source)
        return found

    def project_for(self, path: str) -> Project:
        project = self.project_of.get(path)
        if project is None:
            settings = self._settings(path)
            project = self.projects.get(settings)
            if project is None:
                project = self.projects[settings] = Project(settings)
            self.project_of[path] = project
        return project

    def _settings(self, path: str) -> Settings:
        folder = self._folder_of(path)
        try:
            return settings_for(path, folder, self.client_settings)
        except ConfigError as exc:
            self.show_once(f"resilint: {exc}; using the default settings until it is fixed")
        try:
            return settings_for(path, folder, ClientSettings())
        except ConfigError:
            return Settings(root=folder or os.path.dirname(os.path.abspath(path)))

    def _folder_of(self, path: str) -> Optional[str]:
        absolute = os.path.abspath(path)
        roots = [to_fs_path(folder.uri) for folder in self.workspace.folders.values()]
        roots.append(self.workspace.root_path)
        inside = [root for root in roots if root and (absolute + os.sep).startswith(root.rstrip(os.sep) + os.sep)]
        return max(inside, key=len) if inside else None

    def show_once(self, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
        if message not in self.shown:
            self.shown.add(message)
            self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def reload_configuration(self) -> None:
        """Forget every project (their caches saved first): the next check reads the
        configuration again."""
        for project in self.projects.values():
            project.save_cache()
        self.projects.clear()
        self.project_of.clear()
        self.checked.clear()
        self.shown.clear()

    # --- checking ---------------------------------------------------------------------------

    async def in_thread(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, function, *args)

    def schedule(self, uris: Iterable[str], delay: float = DEBOUNCE_SECONDS) -> None:
        """Check these documents (and the others of their projects): at once when no check is
        waiting or running (an edit after a pause), else once no edit came for ``delay``
        seconds (typing: the check in hand is stale, and an edit before then starts the wait
        again)."""
        self.dirty.update(uris)
        if self.pending is not None and not self.pending.done():
            self.pending.cancel()
        else:
            delay = 0
        self.pending = asyncio.ensure_future(self._after(delay))

    async def _after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.refresh()

    async def refresh(self) -> None:
        """Check the projects of the edited documents and publish what changed."""
        if self.check_lock is None:
            self.check_lock = asyncio.Lock()
        async with self.check_lock:
            dirty = set(self.dirty)
            if not dirty:
                return
            documents = self.open_python_documents()
            projects = {id(self.project_for(documents[uri][0])): self.project_for(documents[uri][0]) for uri in dirty if uri in documents}
            work = []
            for project in projects.values():
                mine = {uri: doc for uri, doc in documents.items() if self.project_for(doc[0]) is project}
                work.append((project, mine))
            results = await self.in_thread(_check_projects, work)
            self.dirty -= dirty
            changed_elsewhere = False
            for project, mine in work:
                found = results.get(id(project))
                if found is None:
                    continue
                for uri, (path, version, text) in mine.items():
                    current = self.workspace.text_documents.get(uri)
                    if current is None or (current.version or 0) != version:
                        continue  # edited again since: that edit's check publishes
                    findings = found.get(path, [])
                    diagnostics = to_diagnostics(findings, text, self.workspace.position_encoding)
                    before = self.checked.get(uri)
                    self.checked[uri] = _Checked(version, text, buffer_bytes(text), path, project, findings, diagnostics)
                    if before is not None and before.diagnostics == diagnostics and before.version == version:
                        continue
                    if uri not in dirty:
                        changed_elsewhere = True
                    if not self.pulls:
                        self.text_document_publish_diagnostics(
                            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
                        )
            if self.pulls and changed_elsewhere and self.refreshes:
                self.workspace_diagnostic_refresh(None)

    async def current(self, uri: str) -> Optional[_Checked]:
        """The check of the document's current text (made now if the last one is stale)."""
        document = self.workspace.text_documents.get(uri)
        path = to_fs_path(uri)
        if document is None or path is None or not path.endswith(PYTHON_SUFFIXES):
            return None
        checked = self.checked.get(uri)
        if checked is None or checked.version != (document.version or 0) or uri in self.dirty:
            self.dirty.add(uri)
            await self.refresh()
            checked = self.checked.get(uri)
        return checked

    @property
    def pulls(self) -> bool:
        """Whether the client asks for diagnostics (``textDocument/diagnostic``)."""
        text_document = self.client_capabilities.text_document
        return text_document is not None and text_document.diagnostic is not None

    @property
    def refreshes(self) -> bool:
        workspace = self.client_capabilities.workspace
        return bool(workspace and workspace.diagnostics and workspace.diagnostics.refresh_support)

    def close(self) -> None:
        for project in self.projects.values():
            project.save_cache()


def _check_projects(work: Sequence[Tuple[Project, Dict[str, Tuple[str, int, str]]]]) -> Dict[int, Dict[str, List[Finding]]]:
    """On the checking thread: each project's findings of its open documents. A bug in
    resilint costs that project's diagnostics (logged), never the server."""
    results = {}
    for project, documents in work:
        try:
            results[id(project)] = project.check({path: buffer_bytes(text) for path, _, text in documents.values()})
        except Exception:  # noqa: BLE001 - any bug: the server keeps serving the other files
            log.error("resilint: internal error while checking %s:\n%s", ", ".join(d[0] for d in documents.values()), traceback.format_exc())
    return results


def _deep_stack_executor() -> ThreadPoolExecutor:
    """One thread that checks, with the stack and recursion limit of ``lint.deep_stack``
    (one long-lived thread, where ``call_with_deep_stack`` starts one per call): deep but
    real code is analysed rather than refused."""
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="resilint-check")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    try:
        previous = threading.stack_size(STACK_SIZE)
    except (ValueError, RuntimeError):  # pragma: no cover - a platform that refuses the size
        return executor
    try:
        executor.submit(lambda: None).result()  # the thread starts now, with that stack
    finally:
        threading.stack_size(previous)
    return executor


# --- findings as the protocol's types ----------------------------------------------------------


class _Columns:
    """Positions of a text in the client's units (UTF-16 code units unless it chose another
    encoding); the engine's columns count characters."""

    def __init__(self, text: str, encoding: Any) -> None:
        self.lines = python_lines(text)
        self.encoding = str(getattr(encoding, "value", encoding) or types.PositionEncodingKind.Utf16.value)

    def position(self, line: int, column: int) -> types.Position:
        """The position of 1-based ``line`` and ``column``."""
        if line - 1 >= len(self.lines):
            return types.Position(line=max(line - 1, 0), character=0)
        prefix = self.lines[line - 1][: max(column - 1, 0)]
        if self.encoding == types.PositionEncodingKind.Utf8.value:
            units = len(prefix.encode("utf-8", "surrogatepass"))
        elif self.encoding == types.PositionEncodingKind.Utf32.value:
            units = len(prefix)
        else:
            units = len(prefix.encode("utf-16-le", "surrogatepass")) // 2
        return types.Position(line=line - 1, character=units)

    def range(self, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        return types.Range(start=self.position(line, column), end=self.position(end_line, end_column))


def to_diagnostics(findings: Sequence[Finding], text: str, encoding: Any) -> List[types.Diagnostic]:
    columns = _Columns(text, encoding)
    return [_diagnostic(finding, columns) for finding in findings]


def _diagnostic(finding: Finding, columns: _Columns) -> types.Diagnostic:
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=from_fs_path(os.path.abspath(place.path)) or place.path,
                range=types.Range(
                    start=types.Position(line=max(place.line - 1, 0), character=max(place.column - 1, 0)),
                    end=types.Position(line=max(place.line - 1, 0), character=max(place.column - 1, 0)),
                ),
            ),
            message=place.message,
        )
        for place in finding.related
    ]
    return types.Diagnostic(
        range=columns.range(finding.line, finding.column, finding.end_line, finding.end_column),
        severity=_SEVERITIES.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
        code_description=types.CodeDescription(href=HELP_URI.format(code=finding.code)),
        source=NAME,
        message=f"{finding.message} ({finding.name})",
        tags=_TAGS.get(finding.code),
        related_information=related or None,
        data={"name": finding.name, "fixable": finding.fix is not None},
    )


def _text_edits(edits: Iterable[Edit], columns: _Columns) -> List[types.TextEdit]:
    return [
        types.TextEdit(range=columns.range(e.line, e.column, e.end_line, e.end_column), new_text=e.content)
        for e in edits
    ]


def _workspace_edit(uri: str, version: int, edits: List[types.TextEdit]) -> types.WorkspaceEdit:
    """Edits of the document at ``version``: a client whose buffer moved on since refuses them."""
    return types.WorkspaceEdit(
        document_changes=[
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version), edits=edits,
            )
        ]
    )


def _overlaps(finding: Finding, within: types.Range) -> bool:
    return finding.line - 1 <= within.end.line and finding.end_line - 1 >= within.start.line


def _wanted(kind: str, only: Optional[Sequence[str]]) -> bool:
    """Whether a code action of ``kind`` is asked for (``only``: kinds or their prefixes)."""
    return only is None or any(kind == str(o) or kind.startswith(f"{o}.") for o in only)


def _code_actions(
    checked: _Checked, uri: str, within: types.Range, only: Optional[Sequence[str]], encoding: Any,
) -> List[types.CodeAction]:
    """On the checking thread: one action per fixable finding in ``within`` (safe ones
    first; unsafe ones say so), one that suppresses each finding on its line, and "fix all"
    (``source.fixAll.resilint``: every safe fix of the document)."""
    columns = _Columns(checked.text, encoding)
    by_finding = {id(f): d for f, d in zip(checked.findings, checked.diagnostics)}
    here = [f for f in checked.findings if _overlaps(f, within)]
    actions: List[types.CodeAction] = []
    quickfix = types.CodeActionKind.QuickFix.value
    if _wanted(quickfix, only):
        fixable = [f for f in here if f.fix is not None]
        fixed = checked.project.with_fix_edits(fixable, checked.data, checked.path) if fixable else []
        diagnostic_of = {f.sort_key: by_finding[id(f)] for f in here}
        fixed.sort(key=lambda f: (f.fix.applicability != "safe", f.sort_key))  # type: ignore[union-attr]
        for finding in fixed:
            assert finding.fix is not None and finding.fix.edits
            unsafe = finding.fix.applicability != "safe"
            actions.append(
                types.CodeAction(
                    title=f"{'(unsafe) ' if unsafe else ''}{finding.fix.description} ({finding.code})",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic_of[finding.sort_key]],
                    is_preferred=not unsafe,
                    edit=_workspace_edit(uri, checked.version, _text_edits(finding.fix.edits, columns)),
                )
            )
        for finding in here:
            if finding.code == ANALYSIS_ERROR:
                continue  # a file that cannot be analysed cannot carry a working comment
            after = suppressed(checked.text, finding)
            if after is None:
                continue
            title = (
                f"Remove the unused suppression ({finding.code})" if finding.code == UNUSED_SUPPRESSION
                else f"Suppress {finding.code} on this line (# noqa)"
            )
            actions.append(
                types.CodeAction(
                    title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[by_finding[id(finding)]],
                    edit=_workspace_edit(uri, checked.version, _text_edits(edits_between(checked.text, after), columns)),
                )
            )
    if _wanted(FIX_ALL, only) and any(f.fix is not None and f.fix.applicability == "safe" for f in checked.findings):
        fixed_data = checked.project.fix_all(checked.findings, checked.data, checked.path)
        if fixed_data is not None:
            try:
                after = decode(fixed_data).text
            except SourceError:  # pragma: no cover - a fix never writes what cannot be read
                after = None
            if after is not None and after != checked.text:
                actions.append(
                    types.CodeAction(
                        title="Fix all safe resilint findings",
                        kind=FIX_ALL,
                        edit=_workspace_edit(uri, checked.version, _text_edits(edits_between(checked.text, after), columns)),
                    )
                )
    return actions


# --- the protocol ------------------------------------------------------------------------------


def _take_client_settings(ls: ResilintServer, options: object) -> None:
    """The editor's ``select``/``ignore``/``extend-select``; when they are wrong, said once, and
    the configuration's own rules apply until they are fixed."""
    try:
        ls.client_settings = ClientSettings.from_options(options)
    except ConfigError as exc:
        ls.show_once(f"resilint: {exc}; using the configuration's rules until it is fixed")
        ls.client_settings = ClientSettings()


def make_server() -> ResilintServer:
    server = ResilintServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: ResilintServer, params: types.InitializeParams) -> None:
        _take_client_settings(ls, params.initialization_options)
        # Paths are reported relative to the first folder, as ``resilint check`` run there
        # reports them: the result cache is shared with it.
        root = None
        if params.workspace_folders:
            root = to_fs_path(params.workspace_folders[0].uri)
        elif params.root_uri:
            root = to_fs_path(params.root_uri)
        if root and os.path.isdir(root):
            os.chdir(root)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: ResilintServer, params: types.InitializedParams) -> None:
        workspace = ls.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is not None and watched.dynamic_registration:
            options = types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=f"**/{CONFIG_FILE}")]
            )
            registration = types.Registration(
                id=f"{NAME}-config", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options,
            )
            try:
                await ls.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
            except Exception:  # noqa: BLE001 - a client that refuses: pyproject saves still reload
                log.warning("resilint: the client did not register the pyproject.toml watcher")

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: ResilintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule([params.text_document.uri], delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: ResilintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule([params.text_document.uri])

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: ResilintServer, params: types.DidSaveTextDocumentParams) -> None:
        if params.text_document.uri.endswith(f"/{CONFIG_FILE}"):
            _configuration_changed(ls)
        else:
            ls.schedule([params.text_document.uri], delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: ResilintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        closed = ls.checked.pop(uri, None)
        ls.dirty.discard(uri)
        if not ls.pulls:
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if closed is not None:
            # Its unsaved text no longer stands for the module: the others read it from disk.
            others = [u for u, c in ls.checked.items() if c.project is closed.project]
            if others:
                ls.schedule(others, delay=0)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: ResilintServer, params: types.DidChangeConfigurationParams) -> None:
        _take_client_settings(ls, params.settings)
        _configuration_changed(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: ResilintServer, params: types.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.endswith(f"/{CONFIG_FILE}") for change in params.changes):
            _configuration_changed(ls)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=NAME, inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def diagnostic(ls: ResilintServer, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        checked = await ls.current(params.text_document.uri)
        return types.RelatedFullDocumentDiagnosticReport(items=checked.diagnostics if checked is not None else [])

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
    )
    async def code_action(ls: ResilintServer, params: types.CodeActionParams) -> List[types.CodeAction]:
        uri = params.text_document.uri
        checked = await ls.current(uri)
        if checked is None:
            return []
        only = [str(getattr(kind, "value", kind)) for kind in params.context.only] if params.context.only else None
        return await ls.in_thread(
            _code_actions, checked, uri, params.range, only, ls.workspace.position_encoding,
        )

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: ResilintServer, params: None) -> None:
        ls.close()

    return server


def _configuration_changed(ls: ResilintServer) -> None:
    ls.reload_configuration()
    ls.schedule(ls.open_python_documents(), delay=0)


def serve() -> None:
    """Serve one client over standard input and output until it says ``exit``."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(message)s")
    stdin, stdout = _protocol_streams()
    server = make_server()
    try:
        server.start_io(stdin, stdout)
    finally:
        server.close()


def _protocol_streams() -> Tuple[BinaryIO, BinaryIO]:
    """The protocol's own copies of standard input and output; the process's standard input
    becomes /dev/null and its standard output standard error.

    A worker process forked while the protocol's reader thread waits on ``sys.stdin`` would
    hang as it starts: ``multiprocessing`` closes the child's ``sys.stdin``, whose lock that
    thread held. And nothing printed (by a dependency, by native code) can reach the client
    in the middle of a message."""
    stdin = os.fdopen(os.dup(0), "rb")
    stdout = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - the process's, for its lifetime
    sys.stdout = sys.stderr
    return stdin, stdout
