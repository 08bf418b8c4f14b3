"""A project, not a file: calls followed into the project's own modules.

The leak is reported at the call in the importing file, with the helper's lines (and
their file) as related locations; the helper module itself stays silent; a file named
alone still sees the modules it imports; a cached result is dropped when a module it
followed changes.
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from leaklint.runner import lint_paths

CASES = Path(__file__).resolve().parent / "data" / "cross_module"


@pytest.fixture()
def churn(tmp_path):
    shutil.copytree(CASES, tmp_path / "cases")
    return tmp_path / "cases"


def leaklint(*args, cwd):
    exe = Path(sys.executable).parent / "leaklint"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]
    return subprocess.run(command + list(args), cwd=cwd, capture_output=True, text=True, timeout=120)


def _found(run):
    return sorted((Path(f.path).name, f.location.line, f.code) for f in run.findings)


@pytest.mark.parametrize("named", ["folder", "file"])
def test_leaky_project_reports_at_the_calls(churn, named):
    target = churn / "leaky" if named == "folder" else churn / "leaky" / "churn" / "train.py"
    run = lint_paths([str(target)], isolated=True, jobs=1)
    assert not run.errors and not run.internal
    assert _found(run) == [("train.py", 10, "LL103"), ("train.py", 11, "LL101")]
    features = (churn / "leaky" / "churn" / "features.py").read_text().splitlines()
    for finding in run.findings:
        helper = [r for r in finding.related if r.path is not None]
        assert len(helper) == 1 and helper[0].path.endswith("churn/features.py")
        fitted = features[helper[0].location.line - 1]
        assert ("groupby" in fitted) if finding.code == "LL103" else ("fit_transform" in fitted)


def test_clean_project_is_silent(churn):
    run = lint_paths([str(churn / "clean")], isolated=True, jobs=1)
    assert not run.findings and not run.errors and not run.internal


def test_json_and_sarif_carry_the_helper_path(churn):
    proc = leaklint("--isolated", "--no-cache", "--output-format", "json", "leaky", cwd=churn)
    findings = json.loads(proc.stdout)
    assert proc.returncode == 1 and {f["code"] for f in findings} == {"LL101", "LL103"}
    for finding in findings:
        assert finding["path"] == "leaky/churn/train.py"
        paths = [r.get("path") for r in finding["related"]]
        assert "leaky/churn/features.py" in paths and None in paths  # the helper, then the split here
    proc = leaklint("--isolated", "--no-cache", "--output-format", "sarif", "leaky", cwd=churn)
    results = json.loads(proc.stdout)["runs"][0]["results"]
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in results for loc in r["relatedLocations"]}
    assert any(uri.endswith("leaky/churn/features.py") for uri in uris)
    assert any(uri.endswith("leaky/churn/train.py") for uri in uris)


def test_cached_result_follows_the_helper_module(churn):
    project = churn / "leaky"
    cache = churn / ".cache"
    assert len(lint_paths([str(project)], isolated=True, jobs=1, cache_dir=cache).findings) == 2
    assert len(lint_paths([str(project)], isolated=True, jobs=1, cache_dir=cache).findings) == 2
    features = project / "churn" / "features.py"
    # the helper now scales nothing: the importing file's cached result must not be reused
    features.write_text(features.read_text().replace("scaler.fit_transform(frame[columns])", "frame[columns] * 1.0"))
    assert _found(lint_paths([str(project)], isolated=True, jobs=1, cache_dir=cache)) == [("train.py", 10, "LL103")]


def test_unreadable_and_cyclic_modules_degrade_to_unknown_calls(tmp_path):
    (tmp_path / "a.py").write_text("from b import g\n\ndef f(x):\n    return g(x)\n")
    (tmp_path / "b.py").write_text("from a import f\n\ndef g(x):\n    return f(x)\n")
    (tmp_path / "broken.py").write_text("def h(:\n")
    (tmp_path / "main.py").write_text(
        "import pandas as pd\nfrom sklearn.model_selection import train_test_split\n"
        "from sklearn.preprocessing import StandardScaler\nfrom a import f\nfrom broken import h\n"
        "from missing_module import k\n\n"
        "df = k(h(f(pd.read_csv('x.csv'))))\n"
        "X = StandardScaler().fit_transform(df)\n"
        "a, b = train_test_split(X)\n"
    )
    run = lint_paths([str(tmp_path / "main.py")], isolated=True, jobs=1)
    assert not run.internal and not run.errors
    assert _found(run) == [("main.py", 9, "LL101")]


def test_helper_module_with_bad_lines_is_still_followed(tmp_path):
    """A Python 2 line at the top of a helper module is skipped as in a script; a helper
    whose own body does not parse is dropped (its calls keep their rows), never followed
    with a body its author did not write."""
    (tmp_path / "helpers.py").write_text(
        "from sklearn.preprocessing import StandardScaler\n\nprint 'loading helpers'\n\n"
        "def scale_all(X):\n    return StandardScaler().fit_transform(X)\n"
    )
    (tmp_path / "broken.py").write_text("from sklearn.decomposition import PCA\n\ndef reduce(X):\n    return PCA(5).fit_transform(X\n")
    (tmp_path / "train.py").write_text(
        "import numpy as np\nfrom sklearn.model_selection import train_test_split\n"
        "from helpers import scale_all\nfrom broken import reduce\n\n"
        "X = scale_all(np.load('X.npy'))\nX = reduce(X)\na, b = train_test_split(X)\n"
    )
    run = lint_paths([str(tmp_path / "train.py")], isolated=True, jobs=1)
    assert not run.internal and not run.errors
    assert _found(run) == [("train.py", 6, "LL101")]
    assert any(r.path is not None and r.path.endswith("helpers.py") and r.location.line == 6 for r in run.findings[0].related)
