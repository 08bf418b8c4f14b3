"""GitHub workflow annotations: properties, escaping, notebooks."""
import json
import re
import subprocess
import sys
from pathlib import Path

from leaklint.findings import Finding, Location
from leaklint.report import github

LEAKY = """\
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("cells.csv")
X, y = df.drop(columns=["label"]), df["label"]
X = StandardScaler().fit_transform(X)
print(cross_val_score(LogisticRegression(), X, y, cv=5).mean())
"""
ANNOTATION = re.compile(r"^::(error|warning) ((?:[a-zA-Z]+=[^,:]*)(?:,[a-zA-Z]+=[^,:]*)*)::(.*)$")


def leaklint(*args, cwd=None):
    exe = Path(sys.executable).parent / "leaklint"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]
    return subprocess.run(command + ["--no-cache", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def finding(path="a.py", message="m", cell=None, line=3, code="LL101"):
    return Finding(path=path, code=code, name="preprocessing-before-split", severity="error", message=message,
                   help="h", location=Location(line, 5, line, 20, cell))


def parse(line: str) -> tuple:
    match = ANNOTATION.match(line)
    assert match, line
    props = dict(item.split("=", 1) for item in match.group(2).split(","))
    return match.group(1), props, match.group(3)


def test_annotation_for_a_script(tmp_path):
    (tmp_path / "train.py").write_text(LEAKY)
    out = leaklint("--output-format", "github", "train.py", cwd=tmp_path).stdout
    level, props, message = parse(out.splitlines()[0])
    assert level == "warning"  # LL101's severity: an unsupervised scaler
    assert props == {"file": "train.py", "line": "8", "col": "5", "endLine": "8", "endColumn": "38",
                     "title": "leaklint (LL101)"}
    assert message.startswith("StandardScaler is fitted on X (all rows)")


def test_message_escapes_percent_cr_lf():
    out = github.render([finding(message="100% of rows\r\nsecond line")], ".")
    assert out == ("::error file=a.py,line=3,col=5,endLine=3,endColumn=20,title=leaklint (LL101)"
                   "::100%25 of rows%0D%0Asecond line\n")


def test_properties_escape_colon_and_comma_too():
    out = github.render([finding(path="data:v1,final/a%b.py")], ".")
    _, props, _ = parse(out.strip())
    assert props["file"] == "data%3Av1%2Cfinal/a%25b.py"


def test_the_level_is_the_findings_severity():
    selection = Finding(path="a.py", code="LL102", name="selection-before-split", severity="error", message="m",
                        help="h", location=Location(3, 5, 3, 20))
    scaling = Finding(path="a.py", code="LL101", name="preprocessing-before-split", severity="warning", message="m",
                      help="h", location=Location(4, 5, 4, 20))
    assert [parse(line)[0] for line in github.render([selection, scaling], ".").splitlines()] == ["error", "warning"]


def test_ll000_is_a_warning():
    f = Finding(path="b.py", code="LL000", name="unparsable-file", severity="warning", message="syntax error: x",
                help="h", location=Location(2, 1, 2, 1))
    assert github.render([f], ".").startswith("::warning file=b.py,line=2,col=1,")


def test_notebook_title_names_the_cell_and_line_is_physical(tmp_path):
    notebook = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# a notebook"]},
            {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
             "source": LEAKY.splitlines(keepends=True)[:7]},
            {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [],
             "source": LEAKY.splitlines(keepends=True)[7:]},
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(notebook, indent=1))
    out = leaklint("--output-format", "github", "nb.ipynb", cwd=tmp_path).stdout
    _, props, message = parse(out.splitlines()[0])
    assert props["title"] == "leaklint (LL101) in cell 3%2C line 1"
    physical = path.read_text().splitlines()[int(props["line"]) - 1]
    assert physical[int(props["col"]) - 1:].startswith("StandardScaler().fit_transform(X)")
    assert message.startswith("StandardScaler is fitted on X")


def test_notebook_without_a_file_on_disk_is_a_file_annotation():
    out = github.render([finding(path="gone.ipynb", cell=4, line=2)], ".")
    assert out == "::error file=gone.ipynb,title=leaklint (LL101) in cell 4%2C line 2::m\n"


def test_paths_are_relative_to_the_repository_root(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text(LEAKY)
    out = leaklint("--output-format", "github", "train.py", cwd=tmp_path / "pkg").stdout
    assert parse(out.splitlines()[0])[1]["file"] == "pkg/train.py"


def test_readme_workflows_are_valid_yaml():
    import pytest

    yaml = pytest.importorskip("yaml")
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use in CI", 1)[1]
    blocks = [b.split("```", 1)[0] for b in section.split("```yaml\n")[1:]]
    parsed = [yaml.safe_load(b) for b in blocks]
    workflows = [w for w in parsed if isinstance(w, dict) and "jobs" in w]
    assert len(workflows) == 2
    gate, scanning = workflows

    def action_format(step):  # the output-format of a step using this repository's action (action.yml)
        if step.get("uses", "").split("@")[0].endswith("/leaklint"):
            return (step.get("with") or {}).get("output-format", "github")

    assert any(action_format(step) == "github" for step in gate["jobs"]["leaklint"]["steps"])
    steps = scanning["jobs"]["leaklint"]["steps"]
    assert any(action_format(step) == "sarif" for step in steps)
    assert any(step.get("uses", "").startswith("github/codeql-action/upload-sarif") for step in steps)
    # without the action: this project installed from its repository (never the index's unrelated leaklint)
    (manual,) = [p for p in parsed if isinstance(p, list)]
    assert any(step.get("run", "").startswith('pip install "git+https://github.com/') for step in manual)
    assert any("--output-format github" in step.get("run", "") for step in manual)
    assert scanning["jobs"]["leaklint"]["permissions"]["security-events"] == "write"
