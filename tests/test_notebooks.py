"""Notebooks: reading nbformat 4, IPython syntax, broken cells, big outputs, every format."""
import base64
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from leaklint.engine import lint_bytes
from leaklint.ruleset import all_rules
from leaklint.runner import lint_paths
from leaklint.sources import python_cell, read_notebook, split_lines

RULES = list(all_rules())
CATALOGS = {r.code: r.catalog for r in RULES}


def leaklint(*args, cwd=None, stdin=None):
    exe = Path(sys.executable).parent / "leaklint"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]
    return subprocess.run(command + ["--no-cache", *args], cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=120)


def code(source, outputs=(), as_string=False):
    text = source if as_string else source.splitlines(keepends=True)
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": list(outputs), "source": text}


def markdown(source):
    return {"cell_type": "markdown", "metadata": {}, "source": source.splitlines(keepends=True)}


def notebook(*cells, language="python", **extra):
    data = {
        "cells": list(cells),
        "metadata": {"kernelspec": {"name": "python3", "language": language, "display_name": "Python 3"},
                     "language_info": {"name": language}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    data.update(extra)
    return data


def write(path: Path, data) -> Path:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


IMPORTS = (
    "import pandas as pd\n"
    "from sklearn.linear_model import LogisticRegression\n"
    "from sklearn.model_selection import cross_val_score, train_test_split\n"
    "from sklearn.preprocessing import StandardScaler\n"
)
LOAD = 'df = pd.read_csv("cells.csv")\nX, y = df.drop(columns=["label"]), df["label"]\n'
FIT = "scaler = StandardScaler()\nX = scaler.fit_transform(X)\n"
CV = "print(cross_val_score(LogisticRegression(), X, y, cv=5).mean())\n"


def cross_cell_notebook():
    """Fit in cell 4 (line 2, column 5), cross-validation in cell 7 (line 1, column 7)."""
    return notebook(
        markdown("# Cells\nfit in one cell, cross-validate in a later one"),
        code(IMPORTS + "%matplotlib inline\n"),
        code(LOAD),
        code(FIT),
        markdown("## Evaluation"),
        code("!nvidia-smi\n%%not a cell magic here\n"),
        code(CV),
    )


def lint_notebook(data, path="nb.ipynb"):
    return lint_bytes(path, json.dumps(data).encode(), RULES, CATALOGS)


# ---------------------------------------------------------------- reading
def test_cells_become_one_module_with_a_map_back():
    source = read_notebook(json.dumps(cross_cell_notebook()).encode())
    assert source.locate(1) == (2, 1)
    lines = source.text.split("\n")
    index = lines.index("X = scaler.fit_transform(X)")
    assert source.locate(index + 1) == (4, 2)


@pytest.mark.parametrize("as_string", [False, True])
def test_source_as_string_or_list(as_string):
    data = notebook(code(IMPORTS, as_string=as_string), code(LOAD + FIT, as_string=as_string),
                    code(CV, as_string=as_string))
    result = lint_notebook(data)
    assert [(f.location.cell, f.location.line, f.code) for f in result.findings] == [(2, 4, "LL101")]


@pytest.mark.parametrize(
    "line, expected",
    [
        ("%matplotlib inline", "pass"),
        ("!pip install scikit-learn", "pass"),
        ("%pip install -q lightgbm", "pass"),
        ("files = !ls data/", "files = None"),
        ("out = %sx ls", "out = None"),
        ("df.head?", "pass"),
        ("df.head??", "pass"),
        ("?pd.read_csv", "pass"),
        ("??StandardScaler", "pass"),
        ("np.*load*?", "pass"),
        ("%time X = scaler.fit_transform(X)", "if 1: X = scaler.fit_transform(X)"),
        ("%timeit -n 3 -r 1 model.fit(X, y)", "if 1:             model.fit(X, y)"),
        ("%time for i in range(3): f(i)", "pass"),  # a compound statement cannot follow ``if 1:``
        ("pip install bayesian-optimization", "pass"),  # automagic: the % may be left out
        ("conda install -y xgboost", "pass"),
        ("matplotlib inline", "pass"),
        ("pip = install", "pip = install"),
        ("config - 1", "config - 1"),
        ("x = a % b", "x = a % b"),
        ("flag = a != b", "flag = a != b"),
        ("print('%d' % 3)", "print('%d' % 3)"),
    ],
)
def test_line_magics_are_neutralised_in_place(line, expected):
    assert python_cell([line]) == [expected]
    if expected.startswith("if 1:"):
        assert len(python_cell([line])[0]) == len(line)  # the statement's columns do not move


def test_magic_lookalikes_inside_brackets_and_strings_are_python():
    cell = ["total = (a", "         % b)", "query = '''", "%not a magic", "!not a shell", "'''", "if x:", "    !ls"]
    assert python_cell(cell) == ["total = (a", "         % b)", "query = '''", "%not a magic", "!not a shell", "'''",
                                 "if x:", "    pass"]


@pytest.mark.parametrize("magic", ["%%time", "%%timeit -n 1", "%%capture output", "%%prun", "\n%%time"])
def test_python_cell_magics_keep_their_body(magic):
    cell = split_lines(magic + "\nX = scaler.fit_transform(X)\n")
    out = python_cell(cell)
    assert out[-1] == "X = scaler.fit_transform(X)" and len(out) == len(cell)


@pytest.mark.parametrize("magic", ["%%bash", "%%sql", "%%html", "%%javascript", "%%writefile train.py", "%%R",
                                   "%%python3", "%%script python"])
def test_other_cell_magics_skip_the_cell(magic):
    assert python_cell([magic, "X = scaler.fit_transform(X)"]) is None


def test_leak_inside_a_non_python_cell_magic_is_not_reported():
    data = notebook(code(IMPORTS + LOAD), code("%%writefile train.py\n" + FIT), code(CV))
    assert lint_notebook(data).findings == []


def test_timed_statement_is_still_analysed():
    data = notebook(code(IMPORTS + LOAD), code("%time X = StandardScaler().fit_transform(X)\n"), code(CV))
    found = [(f.location.cell, f.location.line, f.location.column, f.code) for f in lint_notebook(data).findings]
    assert found == [(2, 1, 11, "LL101")]


def test_crlf_and_cr_line_endings_count_lines_like_python():
    data = notebook(code(IMPORTS.replace("\n", "\r\n") + LOAD.replace("\n", "\r")), code("\r\n" + FIT), code(CV))
    found = [(f.location.cell, f.location.line) for f in lint_notebook(data).findings]
    assert found == [(2, 3)]


# ---------------------------------------------------------------- broken cells
def test_unparsable_cell_reported_once_and_the_rest_analysed():
    data = notebook(
        markdown("# broken"),
        code(IMPORTS + LOAD),
        code("for row in df.itertuples():\n"),  # incomplete block
        code(FIT),
        code("def oops(:\n    pass\n"),
        code(CV),
    )
    result = lint_notebook(data)
    errors = [(e.code, e.location.cell, e.location.line) for e in result.errors]
    assert errors == [("LL000", 3, 1), ("LL000", 5, 1)]
    assert "indented block" in result.errors[0].message and "line skipped" in result.errors[0].message
    assert "syntax error" in result.errors[1].message
    assert [(f.location.cell, f.location.line, f.code) for f in result.findings] == [(4, 2, "LL101")]


def test_python2_prints_in_a_cell_are_read_as_calls_and_the_cell_still_analysed():
    """An old notebook's ``print X.shape`` beside the fit: that line is read as the call it
    meant (said once for the cell), so the fit in the same cell is still seen."""
    data = notebook(
        code(IMPORTS + LOAD),
        code("X = StandardScaler().fit_transform(X)\nprint X.shape\nprint 'scaled'\n"),
        code(CV),
    )
    result = lint_notebook(data)
    assert [(e.location.cell, e.location.line) for e in result.errors] == [(2, 2)]
    assert result.errors[0].message.startswith("not Python 3 (this looks like Python 2)")
    assert result.errors[0].message.endswith("; this and 1 more print statements (to line 3) read as print() calls")
    assert [(f.location.cell, f.location.line, f.code) for f in result.findings] == [(2, 1, "LL101")]


def test_a_cell_that_cannot_be_recovered_is_skipped_whole():
    data = notebook(code(IMPORTS + LOAD), code("x = (1,\n" * 30), code(FIT), code(CV))
    result = lint_notebook(data)
    assert len(result.errors) == 1 and result.errors[0].message.endswith("; cell skipped")
    assert result.errors[0].location.cell == 2


def test_unparsable_cell_in_cli_output(tmp_path):
    data = cross_cell_notebook()
    data["cells"].insert(2, code("x = (1,\n"))
    write(tmp_path / "nb.ipynb", data)
    proc = leaklint("nb.ipynb", cwd=tmp_path)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("nb.ipynb:cell 3:1:1: LL000 syntax error")
    assert lines[1].startswith("nb.ipynb:cell 5:2:5: LL101 StandardScaler is fitted on X")
    assert lines[-2] == "Found 1 leak in 1 file. 1 file had lines or cells skipped (LL000)."
    # a fix in a notebook with a skipped cell is unsafe: that cell may read the names it changes
    assert lines[-1] == "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "not an object"),
        (b'{"nbformat": 3, "worksheets": []}', "nbformat 4"),
        (b'{"nbformat": 4, "metadata": {}}', "no list of cells"),
        (b"\xff\xfe\x00garbage", "not"),
    ],
)
def test_malformed_notebooks_are_reported_not_fatal(content, reason):
    result = lint_bytes("bad.ipynb", content, RULES, CATALOGS)
    assert not result.internal and not result.findings
    assert len(result.errors) == 1 and reason in result.errors[0].message


@pytest.mark.parametrize("language", ["R", "julia", "scala"])
def test_non_python_kernels_are_skipped_with_a_note(language):
    data = notebook(code(IMPORTS + LOAD + FIT + CV), language=language)
    result = lint_notebook(data)
    assert result.findings == []
    assert [e.message for e in result.errors] == [f"not a Python notebook (kernel language {language.lower()!r}); skipped"]


def test_notebook_without_language_metadata_is_python():
    data = notebook(code(IMPORTS + LOAD + FIT + CV))
    data["metadata"] = {}
    assert [f.code for f in lint_notebook(data).findings] == ["LL101"]


def test_attachments_widgets_and_odd_cells_do_not_break_the_run():
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["![chart](attachment:chart.png)"],
         "attachments": {"chart.png": {"image/png": base64.b64encode(b"\x89PNG....").decode()}}},
        {"cell_type": "raw", "metadata": {"format": "text/x-python"}, "source": "X = StandardScaler().fit_transform(X)"},
        code(IMPORTS + LOAD),
        code(FIT, outputs=[{"output_type": "display_data", "metadata": {},
                            "data": {"application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2,
                                                                                   "version_minor": 0},
                                     "text/plain": ["IntProgress(value=0)"]}}]),
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": [], "execution_count": None},
        "not a cell",
        code(CV),
    ]
    data = notebook(*cells, metadata={"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {}}}})
    data["metadata"].update({"language_info": {"name": "python"}})
    result = lint_notebook(data)
    assert not result.errors and not result.internal
    assert [(f.location.cell, f.location.line) for f in result.findings] == [(4, 2)]


def test_huge_embedded_outputs_lint_fast(tmp_path):
    """A 30 MB notebook (base64 images in outputs) lints in well under two seconds."""
    image = {"output_type": "display_data", "metadata": {},
             "data": {"image/png": base64.b64encode(os.urandom(3_000_000)).decode(), "text/plain": ["<Figure>"]}}
    cells = [code(IMPORTS + LOAD)] + [code("print(X.shape)\n", outputs=[image]) for _ in range(7)]
    cells += [code(FIT), code(CV, outputs=[{"output_type": "stream", "name": "stdout",
                                            "text": [f"epoch {i}\n" for i in range(200_000)]}])]
    path = write(tmp_path / "big.ipynb", notebook(*cells))
    assert path.stat().st_size > 30_000_000
    start = time.perf_counter()
    run = lint_paths([str(path)], isolated=True, jobs=1)
    elapsed = time.perf_counter() - start
    assert [(f.location.cell, f.code) for f in run.findings] == [(9, "LL101")]
    assert elapsed < 2.0, f"{elapsed:.2f} s"


# ---------------------------------------------------------------- every output format
@pytest.fixture()
def cross_cell(tmp_path):
    write(tmp_path / "nb.ipynb", cross_cell_notebook())
    return tmp_path


def test_cross_cell_leak_concise(cross_cell):
    proc = leaklint("nb.ipynb", cwd=cross_cell)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("nb.ipynb:cell 4:2:5: LL101 [*] StandardScaler is fitted on X (all rows) before the rows"
                                  " are cross-validated by cross_val_score at cell 7, line 1")


def test_cross_cell_leak_full(cross_cell):
    out = leaklint("--output-format", "full", "nb.ipynb", cwd=cross_cell).stdout
    assert out.startswith("nb.ipynb:cell 4:2:5: LL101 [*] [preprocessing-before-split]")
    assert "  --> nb.ipynb:cell 7:1:7: X is cross-validated by cross_val_score at cell 7, line 1" in out


def test_cross_cell_leak_json(cross_cell):
    data = json.loads(leaklint("--output-format", "json", "nb.ipynb", cwd=cross_cell).stdout)
    assert [(d["path"], d["cell"], d["line"], d["column"], d["code"]) for d in data] == [("nb.ipynb", 4, 2, 5, "LL101")]
    assert [(r["cell"], r["line"], r["column"]) for r in data[0]["related"]] == [(7, 1, 7)]


def _json_line(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


def test_cross_cell_leak_github(cross_cell):
    out = leaklint("--output-format", "github", "nb.ipynb", cwd=cross_cell).stdout
    line = _json_line(cross_cell / "nb.ipynb", "X = scaler.fit_transform(X)")
    assert out.startswith(f"::warning file=nb.ipynb,line={line},col=")  # LL101's severity
    assert ",title=leaklint (LL101) in cell 4%2C line 2::StandardScaler is fitted on X" in out


def test_cross_cell_leak_sarif(cross_cell):
    log = json.loads(leaklint("--output-format", "sarif", "nb.ipynb", cwd=cross_cell).stdout)
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "LL101"
    assert result["message"]["text"].startswith("cell 4, line 2: StandardScaler is fitted on X")
    assert result["properties"] == {"notebookCell": 4, "cellLine": 2, "cellColumn": 5}
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "nb.ipynb"
    path = cross_cell / "nb.ipynb"
    region = location["region"]
    assert region["startLine"] == _json_line(path, "X = scaler.fit_transform(X)")
    physical = path.read_text().splitlines()[region["startLine"] - 1]
    assert physical[region["startColumn"] - 1:].startswith("scaler.fit_transform(X)")
    related = result["relatedLocations"][0]["physicalLocation"]["region"]
    assert related["startLine"] == _json_line(path, "print(cross_val_score(")


def test_notebook_from_stdin(cross_cell):
    text = (cross_cell / "nb.ipynb").read_text()
    proc = leaklint("--stdin-filename", "analysis.ipynb", "-", cwd=cross_cell, stdin=text)
    assert proc.returncode == 1 and proc.stdout.startswith("analysis.ipynb:cell 4:2:5: LL101")


def test_checkpoints_are_not_linted(tmp_path):
    write(tmp_path / "nb.ipynb", cross_cell_notebook())
    (tmp_path / ".ipynb_checkpoints").mkdir()
    write(tmp_path / ".ipynb_checkpoints" / "nb-checkpoint.ipynb", cross_cell_notebook())
    out = leaklint(".", cwd=tmp_path).stdout
    assert "checkpoint" not in out and out.count("LL101") == 1


def test_fixture_notebooks_are_valid_nbformat():
    nbformat = pytest.importorskip("nbformat")
    from fixture_expectations import FIXTURES

    paths = sorted((FIXTURES / "notebooks").glob("*.ipynb"))
    assert len(paths) >= 10
    for path in paths:
        nbformat.validate(nbformat.read(str(path), as_version=4))


def test_fixture_notebooks_are_realistic():
    from fixture_expectations import FIXTURES, expected

    paths = sorted((FIXTURES / "notebooks").glob("*.ipynb"))
    leaky = [p for p in paths if expected(p)]
    assert len(leaky) >= 5 and len(paths) - len(leaky) >= 5
    kinds = set()
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        kinds |= {c["cell_type"] for c in data["cells"]}
        for cell in data["cells"]:
            for output in cell.get("outputs", []):
                kinds |= set(output.get("data", {})) | {output["output_type"]}
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            kinds |= {word for word in ("%%time", "%matplotlib", "!pip", "%%bash") if word in text}
    assert {"markdown", "code", "image/png", "stream", "execute_result", "%%time", "%matplotlib", "!pip",
            "%%bash"} <= kinds
    # the leaks span cells: each finding's split, cross-validation or evaluation is in another cell
    for path in leaky:
        run = lint_paths([str(path)], isolated=True, jobs=1)
        for finding in run.findings:
            assert any(r.location.cell != finding.location.cell for r in finding.related), (path.name, finding)
