"""The real pre-commit hook: ``pre-commit try-repo`` against a copy of this checkout.

pre-commit builds the hook's environment by pip-installing the hook repository (this
checkout, committed into a throwaway git repository, since try-repo needs one), then
runs ``leaklint --force-exclude`` on the staged Python files and notebooks of another
throwaway repository.
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("pre_commit") is None and not os.environ.get("CI"):
    pytest.skip("pre-commit is a test dependency (the test extra); not installed here", allow_module_level=True)
import yaml  # noqa: E402 - pre-commit's own dependency
from snippets import LEAKY

ROOT = Path(__file__).resolve().parent.parent
GIT_ENV = {
    "GIT_AUTHOR_NAME": "leaklint tests",
    "GIT_AUTHOR_EMAIL": "tests@leaklint.invalid",
    "GIT_COMMITTER_NAME": "leaklint tests",
    "GIT_COMMITTER_EMAIL": "tests@leaklint.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}
IGNORE = shutil.ignore_patterns(".git", ".ci", "__pycache__", "*.egg-info", ".leaklint_cache", ".pytest_cache",
                                ".hypothesis", "build", "dist", ".venv", "venv", "*.pyc")

FIXED = """\
import pandas as pd
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("cells.csv")
X, y = df.drop(columns=["label"]), df["label"]
model = make_pipeline(StandardScaler(), SelectKBest(f_classif, k=20), LogisticRegression())
print(cross_val_score(model, X, y, cv=5).mean())
"""
CLEAN = "import pandas as pd\n\nprint(pd.read_csv('cells.csv').describe())\n"


def git(*args, cwd):
    env = {**os.environ, **GIT_ENV, "HOME": str(cwd)}
    return subprocess.run(["git", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args], cwd=cwd,
                          env=env, check=True, capture_output=True, text=True)


def commit_all(repo: Path, message: str) -> None:
    git("add", "-A", cwd=repo)
    git("commit", "-q", "--allow-empty", "-m", message, cwd=repo)


def notebook(source: str) -> str:
    return json.dumps({
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# exploration"]},
                  {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
                   "source": source.splitlines(keepends=True)}],
        "metadata": {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }, indent=1)


def test_hook_manifest():
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "leaklint" and hook["entry"] == "leaklint --force-exclude"
    assert hook["language"] == "python" and hook["types_or"] == ["python", "jupyter"]


@pytest.mark.slow
def test_pre_commit_try_repo(tmp_path):
    hook_repo = tmp_path / "leaklint-hook"
    shutil.copytree(ROOT, hook_repo, ignore=IGNORE)
    git("init", "-q", cwd=hook_repo)
    commit_all(hook_repo, "leaklint under test")

    project = tmp_path / "project"
    project.mkdir()
    git("init", "-q", cwd=project)
    (project / "train.py").write_text(LEAKY)
    (project / "report.py").write_text(CLEAN)
    (project / "explore.ipynb").write_text(notebook(LEAKY))
    (project / "build").mkdir()
    (project / "build" / "generated.py").write_text(LEAKY)  # excluded by default, even when passed by pre-commit
    commit_all(project, "a leaky and a clean file")

    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "PRE_COMMIT_COLOR": "never"}
    env.pop("VIRTUAL_ENV", None)

    def try_repo(*files):
        args = ["--files", *files] if files else ["--all-files"]
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), "leaklint",
                               "--verbose", *args], cwd=project, env=env, capture_output=True, text=True, timeout=600)

    proc = try_repo()
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert "train.py:9:5: LL101 StandardScaler is fitted on X" in output
    assert "train.py:10:5: LL102 [*] SelectKBest is fitted on X" in output
    assert "explore.ipynb:cell 2:9:5: LL101" in output
    assert "report.py:" not in output
    assert "build/generated.py" not in output

    assert try_repo("report.py").returncode == 0

    # fixed: the scaler and the selector move into the pipeline
    (project / "train.py").write_text(FIXED)
    (project / "explore.ipynb").write_text(notebook(FIXED))
    commit_all(project, "fix the leak")
    proc = try_repo()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout

    # or suppressed, deliberately
    (project / "train.py").write_text(LEAKY.replace("fit_transform(X)\n", "fit_transform(X)  # noqa: LL101\n")
                                      .replace("fit_transform(X, y)\n", "fit_transform(X, y)  # noqa: LL102\n"))
    (project / "explore.ipynb").write_text(notebook("# leaklint: noqa\n" + LEAKY))
    commit_all(project, "accept the leak knowingly")
    proc = try_repo()
    assert proc.returncode == 0, proc.stdout + proc.stderr
