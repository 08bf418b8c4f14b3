"""The results cache: a re-run reads it, a change re-lints, --no-cache and `leaklint clean`."""
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from leaklint import __version__, cache as cache_module, runner
from leaklint.cache import CACHE_DIR, Cache

ROOT = Path(__file__).resolve().parents[1]
LEAKY = """\
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("data.csv")
X = StandardScaler().fit_transform(df.drop(columns="y"))
X_train, X_test, y_train, y_test = train_test_split(X, df["y"])
"""
CUSTOM = """\
import pandas as pd
from mylib.scaling import RobustZ
from sklearn.model_selection import train_test_split

df = pd.read_csv("data.csv")
X = RobustZ().fit_transform(df)
a, b = train_test_split(X)
"""


def leaklint(*args, cwd):
    exe = Path(sys.executable).parent / "leaklint"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]
    return subprocess.run(command + list(args), cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture()
def project(tmp_path):
    (tmp_path / "leaky.py").write_text(LEAKY)
    (tmp_path / "clean.py").write_text("print('no machine learning here')\n")
    (tmp_path / "other.py").write_text(LEAKY.replace("data.csv", "other.csv"))
    return tmp_path


@pytest.fixture()
def linted(monkeypatch):
    """Paths the engine was run on (the cache answered for the others)."""
    calls = []
    original = runner.run_job

    def counting(job, raw=None):
        calls.append(Path(job[0]).name)
        return original(job, raw)

    monkeypatch.setattr(runner, "run_job", counting)
    return calls


def lint(project, **kwargs):
    kwargs.setdefault("isolated", True)
    return runner.lint_paths([str(project)], jobs=1, cache_dir=project / CACHE_DIR, **kwargs)


def shown(run):
    return [(f.path, f.location.line, f.code, f.message) for f in run.findings + run.errors]


def test_second_run_reads_the_cache(project, linted):
    first = lint(project)
    assert sorted(linted) == ["leaky.py", "other.py"]  # clean.py is screened out, never parsed
    linted.clear()
    second = lint(project)
    assert linted == []
    assert shown(second) == shown(first) and len(first.findings) == 2
    assert second.files == first.files == 3


def test_cache_directory_is_tagged_and_ignored(project):
    lint(project)
    directory = project / CACHE_DIR
    assert (directory / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert (directory / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (directory / f"results-{__version__}.pickle").is_file()


def test_changed_file_is_linted_again(project, linted):
    lint(project)
    linted.clear()
    (project / "other.py").write_text(LEAKY + "\nprint('changed')\n")
    run = lint(project)
    assert linted == ["other.py"]
    assert len(run.findings) == 2


def test_changed_selection_invalidates(project, linted):
    lint(project)
    linted.clear()
    run = lint(project, overrides={"ignore": ("LL101",)})
    assert sorted(linted) == ["leaky.py", "other.py"]
    assert run.findings == []


def test_changed_configuration_file_invalidates(project, linted):
    (project / "custom.py").write_text(CUSTOM)
    (project / "pyproject.toml").write_text("[tool.leaklint]\n")
    before = lint(project, isolated=False)
    assert not [f for f in before.findings if f.path.endswith("custom.py")]
    linted.clear()
    (project / "pyproject.toml").write_text(
        '[tool.leaklint.rules.LL101]\nextend-classes = ["mylib.scaling.RobustZ"]\n'
    )
    after = lint(project, isolated=False)
    assert "custom.py" in linted
    assert [f.code for f in after.findings if f.path.endswith("custom.py")] == ["LL101"]


def test_other_leaklint_version_or_code_does_not_reuse_entries(project, linted, monkeypatch):
    lint(project)
    assert Cache.open(project / CACHE_DIR, __version__ + ".post1").entries == {}
    monkeypatch.setattr(cache_module, "code_fingerprint", lambda version: "edited checkout")
    linted.clear()
    lint(project)
    assert sorted(linted) == ["leaky.py", "other.py"]


def test_a_run_on_some_files_keeps_the_entries_of_the_others(project, linted):
    lint(project)
    runner.lint_paths([str(project / "leaky.py")], isolated=True, jobs=1, cache_dir=project / CACHE_DIR)
    linted.clear()
    lint(project)
    assert linted == []


def test_corrupt_or_planted_cache_is_ignored(project, linted):
    directory = project / CACHE_DIR
    lint(project)
    target = directory / f"results-{__version__}.pickle"
    target.write_bytes(b"not a pickle")
    linted.clear()
    assert len(lint(project).findings) == 2 and len(linted) == 2

    marker = project / "pwned"

    class Exploit:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    target.write_bytes(pickle.dumps(Exploit()))
    linted.clear()
    assert len(lint(project).findings) == 2 and len(linted) == 2
    assert not marker.exists()


def test_internal_errors_are_not_cached(project, linted, monkeypatch):
    from leaklint import engine

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "analyze", broken)
    assert len(lint(project).internal) == 2
    monkeypatch.undo()
    linted.clear()
    original = runner.run_job
    monkeypatch.setattr(runner, "run_job", lambda job, raw=None: (linted.append(Path(job[0]).name), original(job, raw))[1])
    run = lint(project)
    assert run.internal == [] and sorted(linted) == ["leaky.py", "other.py"]


def test_every_fixture_result_round_trips(tmp_path, linted):
    """The restricted unpickler accepts everything a finding holds (else every run is cold)."""
    fixtures = ROOT / "fixtures"
    first = runner.lint_paths([str(fixtures)], isolated=True, jobs=1, cache_dir=tmp_path)
    assert first.findings
    linted.clear()
    second = runner.lint_paths([str(fixtures)], isolated=True, jobs=1, cache_dir=tmp_path)
    assert linted == []
    assert shown(second) == shown(first)
    assert [f.procedure for f in second.findings] == [f.procedure for f in first.findings]


def test_read_only_cache_directory_still_lints(project):
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    directory = project / CACHE_DIR
    directory.mkdir()
    directory.chmod(0o500)
    try:
        assert len(lint(project).findings) == 2
    finally:
        directory.chmod(0o700)


# ------------------------------------------------------------ the command line
def test_console_script_cache_no_cache_and_clean(project):
    first = leaklint(".", cwd=project)
    assert first.returncode == 1
    assert (project / CACHE_DIR / "CACHEDIR.TAG").is_file()
    second = leaklint(".", cwd=project)
    assert (second.returncode, second.stdout) == (first.returncode, first.stdout)

    cleaned = leaklint("clean", cwd=project)
    assert cleaned.returncode == 0 and not (project / CACHE_DIR).exists()

    uncached = leaklint("--no-cache", ".", cwd=project)
    assert uncached.stdout == first.stdout
    assert not (project / CACHE_DIR).exists()
    assert leaklint("clean", cwd=project).returncode == 0  # nothing to clean is fine


def test_an_unpicklable_result_does_not_lose_the_others(project, linted, monkeypatch):
    from leaklint import engine

    original = engine._lint

    def with_lambda(path, *args):
        result = original(path, *args)
        if path.endswith("other.py"):
            result.findings[0].procedure["callback"] = lambda: None  # cannot be pickled
        return result

    monkeypatch.setattr(engine, "_lint", with_lambda)
    lint(project)
    monkeypatch.setattr(engine, "_lint", original)
    linted.clear()
    run = lint(project)
    assert linted == ["other.py"] and len(run.findings) == 2
