"""``leaklint server``: the language server (LSP over stdio, built on pygls).

Open documents go through the same engine as the command line (the nearest
``[tool.leaklint]`` of each file applies) and come back as diagnostics: on open, on
save, and after typing pauses. A notebook is linted whole (LSP 3.17 notebook sync: its
cells in order) and each finding is published on the cell it is in, with the cells or
files where the rows were later split as related locations. A buffer the parser
rejects gets its LL000 and nothing else: half-typed code must not produce guesses.
"""
from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Optional

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import __version__
from .config import ConfigError
from .engine import PARSE_CODE
from .ruleset import rule_by_code
from .runner import SettingsResolver, job_for, run_job

DEBOUNCE_SECONDS = 0.4
SOURCE = "leaklint"
NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z0-9,\s]+))?", re.IGNORECASE)


class LeaklintServer(LanguageServer):
    """Keeps, per open document, its pending lint and the findings last published."""

    def __init__(self):
        super().__init__(
            SOURCE,
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[
                    types.NotebookDocumentFilterWithCells(
                        cells=[types.NotebookCellLanguage(language="python")], notebook="*"
                    )
                ]
            ),
        )
        self.pending: dict = {}  # document uri -> asyncio task of its debounced lint
        self.shown: dict = {}  # uri of a file or cell -> [(Diagnostic, Finding)]
        self.resolver = SettingsResolver(None, False, {})


def lint_text(server: LeaklintServer, path: str, raw: bytes) -> tuple[list, list]:
    """(findings, parse errors) of one document's bytes, under the settings of its folder."""
    settings = server.resolver(Path(path).resolve())
    result = run_job(job_for(path, settings), raw)
    if result.internal:
        server.window_log_message(types.LogMessageParams(types.MessageType.Error, result.internal[0]))
    return result.findings, result.errors


def notebook_bytes(server: LeaklintServer, notebook: types.NotebookDocument) -> tuple[bytes, list]:
    """The notebook as nbformat-4 JSON, and the uri of each cell (1-based as findings count)."""
    cells, uris = [], []
    for cell in notebook.cells:
        text = server.workspace.get_text_document(cell.document).source
        markup = cell.kind == types.NotebookCellKind.Markup
        cells.append({
            "cell_type": "markdown" if markup else "code",
            "metadata": {},
            "source": text,
            **({} if markup else {"outputs": [], "execution_count": None}),
        })
        uris.append(cell.document)
    document = {"cells": cells, "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document).encode("utf-8"), uris


def diagnostic(finding, uri_of) -> types.Diagnostic:
    rule = rule_by_code(finding.code)
    related = []
    for item in finding.related:
        target = uri_of(item.location.cell, item.path)
        if target is not None:
            related.append(types.DiagnosticRelatedInformation(types.Location(target, span(item.location)), item.message))
    return types.Diagnostic(
        range=span(finding.location),
        message=finding.message,
        severity=types.DiagnosticSeverity.Error if finding.severity == "error" else types.DiagnosticSeverity.Warning,
        code=finding.code,
        code_description=types.CodeDescription(Path(rule.module.__file__).as_uri()) if rule is not None else None,
        source=SOURCE,
        related_information=related or None,
    )


def span(location) -> types.Range:
    start = types.Position(max(location.line - 1, 0), max(location.column - 1, 0))
    end = types.Position(max(location.end_line - 1, 0), max(location.end_column - 1, 0))
    return types.Range(start, end if (end.line, end.character) >= (start.line, start.character) else start)


def publish(server: LeaklintServer, uri: str) -> None:
    """Lint the document (a file, or the notebook a cell or notebook uri belongs to) now."""
    notebook = server.workspace.get_notebook_document(notebook_uri=uri) or server.workspace.get_notebook_document(cell_uri=uri)
    try:
        if notebook is not None:
            raw, cells = notebook_bytes(server, notebook)
            path = to_fs_path(notebook.uri) or "notebook.ipynb"
            targets = cells
        else:
            document = server.workspace.get_text_document(uri)
            raw, path, cells, targets = document.source.encode("utf-8"), to_fs_path(uri) or "buffer.py", None, [uri]
        findings, errors = lint_text(server, path, raw)
    except ConfigError as err:
        server.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"leaklint: {err}"))
        return

    def uri_of(cell: Optional[int], other: Optional[str] = None) -> Optional[str]:
        if other is not None:
            return from_fs_path(other)
        if cells is None:
            return uri
        return cells[cell - 1] if cell and 0 < cell <= len(cells) else None

    # half-typed code: the parse error alone, no findings from a guess at the rest
    shown = errors if errors else [f for f in findings if f.code != PARSE_CODE]
    by_uri: dict = {target: [] for target in targets}
    for finding in shown:
        target = uri_of(finding.location.cell)
        if target is not None:
            by_uri.setdefault(target, []).append((diagnostic(finding, uri_of), finding))
    for target, items in by_uri.items():
        server.shown[target] = items
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=target, diagnostics=[d for d, _ in items])
        )


def schedule(server: LeaklintServer, uri: str, delay: float) -> None:
    """Lint after ``delay`` seconds of quiet on this document (typing restarts the wait)."""
    key = _document_key(server, uri)
    previous = server.pending.pop(key, None)
    if previous is not None:
        previous.cancel()

    async def later():
        await asyncio.sleep(delay)
        server.pending.pop(key, None)
        publish(server, uri)

    server.pending[key] = asyncio.ensure_future(later())


def _document_key(server: LeaklintServer, uri: str) -> str:
    notebook = server.workspace.get_notebook_document(cell_uri=uri)
    return notebook.uri if notebook is not None else uri


def hover(server: LeaklintServer, params: types.HoverParams) -> Optional[types.Hover]:
    for found, finding in server.shown.get(params.text_document.uri, []):
        if _inside(params.position, found.range):
            rule = rule_by_code(finding.code)
            if rule is None:
                return None
            text = f"**{rule.code} {rule.name}**: {rule.summary}\n\n{rule.help}\n\n`leaklint rule {rule.code}` explains it."
            return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text), found.range)
    return None


def code_actions(server: LeaklintServer, params: types.CodeActionParams) -> list:
    """Quick fixes per finding on the range: its fix (in a script; safe ones preferred, unsafe
    ones marked), and suppressing it on its line (``# noqa: LL101``)."""
    uri = params.text_document.uri
    document = server.workspace.get_text_document(uri)
    lines = document.lines
    actions = []
    for found, finding in server.shown.get(uri, []):
        if finding.code == PARSE_CODE or not _overlaps(found.range, params.range):
            continue
        fix_action = _fix_action(uri, document.source, found, finding)
        if fix_action is not None:
            actions.append(fix_action)
        row = found.range.start.line
        if row >= len(lines):
            continue
        text = lines[row].rstrip("\r\n")
        edit = types.TextEdit(types.Range(types.Position(row, 0), types.Position(row, len(text))), _with_noqa(text, finding.code))
        actions.append(types.CodeAction(
            title=f"Suppress {finding.code} on this line (# noqa)",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[found],
            edit=types.WorkspaceEdit(changes={uri: [edit]}),
        ))
    return actions


def _fix_action(uri: str, source: str, found: types.Diagnostic, finding) -> Optional[types.CodeAction]:
    """The finding's fix as line edits of the open script (notebooks get the suppression only)."""
    fix = finding.fix
    if fix is None or fix.applicability == "display-only" or uri.endswith(".ipynb") or finding.location.cell:
        return None
    from .fix import FixError, fixed_bytes, text_edits

    try:
        new = fixed_bytes(finding.path, source.encode("utf-8"), fix.ops).decode("utf-8")
    except (FixError, UnicodeError):
        return None
    edits = [types.TextEdit(types.Range(types.Position(e.row - 1, 0), types.Position(e.end_row - 1, 0)), e.content)
             for e in text_edits(source, new)]
    unsafe = fix.applicability == "unsafe"
    return types.CodeAction(
        title=f"Fix {finding.code}{' (unsafe)' if unsafe else ''}: {fix.message}",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[found],
        is_preferred=not unsafe,
        edit=types.WorkspaceEdit(changes={uri: edits}),
    )


def _with_noqa(line: str, code: str) -> str:
    match = NOQA.search(line)
    if match is None:
        return f"{line}  # noqa: {code}"
    if not match.group("codes"):
        return line  # a bare noqa already silences every code
    codes = [c.strip() for c in match.group("codes").split(",") if c.strip()] + [code]
    return line[: match.start()] + "# noqa: " + ", ".join(dict.fromkeys(codes)) + line[match.end():]


def _inside(position: types.Position, area: types.Range) -> bool:
    return (area.start.line, area.start.character) <= (position.line, position.character) <= (area.end.line, area.end.character)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (b.start.line, b.start.character) <= (a.end.line, a.end.character)


# When to lint a document: at once on open and save, after a pause while typing.
LINT_EVENTS = (
    (types.TEXT_DOCUMENT_DID_OPEN, 0),
    (types.TEXT_DOCUMENT_DID_CHANGE, DEBOUNCE_SECONDS),
    (types.TEXT_DOCUMENT_DID_SAVE, 0),
    (types.NOTEBOOK_DOCUMENT_DID_OPEN, 0),
    (types.NOTEBOOK_DOCUMENT_DID_CHANGE, DEBOUNCE_SECONDS),
    (types.NOTEBOOK_DOCUMENT_DID_SAVE, 0),
)


def _linter(delay: float):
    def handler(ls, params):
        document = getattr(params, "notebook_document", None) or params.text_document
        schedule(ls, document.uri, delay)

    return handler


def build() -> LeaklintServer:
    server = LeaklintServer()
    for method, delay in LINT_EVENTS:
        server.feature(method)(_linter(delay))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: types.DidCloseTextDocumentParams):
        ls.shown.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def config_changed(ls, params: types.DidChangeWatchedFilesParams):
        ls.resolver = SettingsResolver(None, False, {})  # a pyproject.toml may have changed

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls, params: types.HoverParams):
        return hover(ls, params)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def on_code_action(ls, params: types.CodeActionParams):
        return code_actions(ls, params)

    return server


def serve() -> None:
    build().start_io()
