"""``leaklint server`` driven over stdio as an editor drives it (pytest-lsp)."""
import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = Path(sys.executable).with_name("leaklint")

LEAKY = """import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("data.csv")
X = StandardScaler().fit_transform(df.drop(columns="y"))
X_train, X_test, y_train, y_test = train_test_split(X, df["y"], random_state=0)
model = LogisticRegression().fit(X_train, y_train)
print(model.score(X_test, y_test))
"""
FIXED = LEAKY.replace(
    'X = StandardScaler().fit_transform(df.drop(columns="y"))\n'
    'X_train, X_test, y_train, y_test = train_test_split(X, df["y"], random_state=0)\n',
    'X_train, X_test, y_train, y_test = train_test_split(df.drop(columns="y"), df["y"], random_state=0)\n'
    "scaler = StandardScaler().fit(X_train)\n"
    "X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)\n",
)
HALF_TYPED = LEAKY.replace("print(model.score(X_test, y_test))", "print(model.score(X_test, y_test")

pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.skipif(not SERVER.exists(), reason="the leaklint console script is not installed next to this Python"),
]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[str(SERVER), "server"]), scope="module")
async def client(lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("workspace")
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=root.as_uri())
    )
    lsp_client.root = root
    yield
    await lsp_client.shutdown_session()


async def published(client: LanguageClient, uri: str, version_check=lambda d: True, timeout: float = 30.0) -> list:
    """The diagnostics of ``uri`` once the server has published ones that pass the check."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        found = client.diagnostics.get(uri)
        if found is not None and version_check(found):
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"no diagnostics for {uri} within {timeout} s (have {client.diagnostics.get(uri)})")


def open_file(client: LanguageClient, name: str, text: str) -> str:
    uri = (client.root / name).as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text))
    )
    return uri


def replace_text(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def code_actions(client: LanguageClient, uri: str, diagnostics: list) -> list:
    """The code actions offered on the first diagnostic's range."""
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri), diagnostics[0].range, types.CodeActionContext(diagnostics=diagnostics)
        )
    )


async def test_leaky_script_gets_its_finding_and_the_fix_clears_it(client: LanguageClient):
    uri = open_file(client, "train.py", LEAKY)
    diagnostics = await published(client, uri, lambda d: bool(d))
    assert [(d.code, d.range.start.line, d.source) for d in diagnostics] == [("LL101", 6, "leaklint")]
    finding = diagnostics[0]
    assert finding.severity == types.DiagnosticSeverity.Warning  # LL101's, as the JSON's "severity" says
    assert finding.code_description.href.endswith("ll101_preprocessing_before_split.py")
    assert [(r.location.uri, r.location.range.start.line) for r in finding.related_information] == [(uri, 7)]
    replace_text(client, uri, FIXED, 2)
    assert list(await published(client, uri)) == []


async def test_hover_explains_the_rule(client: LanguageClient):
    uri = open_file(client, "hover.py", LEAKY)
    diagnostics = await published(client, uri, lambda d: bool(d))
    position = diagnostics[0].range.start
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(position.line, position.character + 2))
    )
    assert "LL101 preprocessing-before-split" in hover.contents.value
    outside = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0)))
    assert outside is None


async def test_code_action_suppresses_on_its_line_and_applying_it_clears_the_diagnostic(client: LanguageClient):
    uri = open_file(client, "action.py", LEAKY)
    diagnostics = await published(client, uri, lambda d: bool(d))
    actions = await code_actions(client, uri, diagnostics)
    assert [a.title for a in actions] == [
        "Fix LL101: Split first, then fit StandardScaler on the training side, transform both sides",
        "Suppress LL101 on this line (# noqa)",
    ]
    assert actions[0].is_preferred
    (edit,) = actions[1].edit.changes[uri]
    lines = LEAKY.splitlines(keepends=True)
    row = edit.range.start.line
    lines[row] = edit.new_text + "\n"
    assert lines[row].rstrip().endswith("# noqa: LL101")
    replace_text(client, uri, "".join(lines), 2)
    assert list(await published(client, uri)) == []


async def test_code_action_fixes_the_leak_and_applying_it_clears_the_diagnostic(client: LanguageClient):
    uri = open_file(client, "fix_action.py", LEAKY)
    diagnostics = await published(client, uri, lambda d: bool(d))
    actions = await code_actions(client, uri, diagnostics)
    lines = LEAKY.splitlines(keepends=True)
    for edit in sorted(actions[0].edit.changes[uri], key=lambda e: e.range.start.line, reverse=True):
        lines[edit.range.start.line:edit.range.end.line] = [edit.new_text]
    fixed = "".join(lines)
    assert "standard_scaler.transform(X_test)" in fixed
    replace_text(client, uri, fixed, 2)
    assert list(await published(client, uri)) == []


async def test_half_typed_buffer_gets_the_parse_error_and_nothing_else(client: LanguageClient):
    uri = open_file(client, "typing.py", HALF_TYPED)
    diagnostics = await published(client, uri, lambda d: bool(d))
    assert {d.code for d in diagnostics} == {"LL000"}
    assert diagnostics[0].severity == types.DiagnosticSeverity.Warning


async def test_notebook_cells_get_their_findings_with_the_split_in_another_cell(client: LanguageClient):
    notebook_uri = (client.root / "analysis.ipynb").as_uri()
    cells_text = [
        "# Scaling before the split",
        LEAKY.split("df = ")[0],
        'df = pd.read_csv("data.csv")\nX = StandardScaler().fit_transform(df.drop(columns="y"))',
        'X_train, X_test, y_train, y_test = train_test_split(X, df["y"], random_state=0)\n'
        "model = LogisticRegression().fit(X_train, y_train)\nprint(model.score(X_test, y_test))",
    ]
    cell_uris = [f"vscode-notebook-cell:{notebook_uri[len('file:'):]}#cell{i}" for i in range(len(cells_text))]
    kinds = [types.NotebookCellKind.Markup] + [types.NotebookCellKind.Code] * 3
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=notebook_uri,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[types.NotebookCell(kind=k, document=u) for k, u in zip(kinds, cell_uris)],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri=u, language_id="markdown" if k == types.NotebookCellKind.Markup else "python", version=1, text=t)
                for u, k, t in zip(cell_uris, kinds, cells_text)
            ],
        )
    )
    diagnostics = await published(client, cell_uris[2], lambda d: bool(d))
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("LL101", 1)]
    assert [(r.location.uri, r.location.range.start.line) for r in diagnostics[0].related_information] == [(cell_uris[3], 0)]
    assert list(await published(client, cell_uris[3])) == []


async def test_each_folder_reads_its_own_configuration(client: LanguageClient):
    folder = client.root / "team_b"
    folder.mkdir()
    (folder / "pyproject.toml").write_text('[tool.leaklint]\nignore = ["LL101"]\n', encoding="utf-8")
    quiet = open_file(client, "team_b/train.py", LEAKY)
    loud = open_file(client, "train_a.py", LEAKY)
    assert [d.code for d in await published(client, loud, lambda d: bool(d))] == ["LL101"]
    assert list(await published(client, quiet)) == []
