"""--jobs: worker processes give the same output as one process, and a dead worker is contained."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from leaklint import runner

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
LEAKY = """\
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("data.csv")
X = StandardScaler().fit_transform(df.drop(columns="y"))
X_train, X_test, y_train, y_test = train_test_split(X, df["y"])
"""
# The console script with the pool forced on even for a small tree.
FORCED = """
import sys
import leaklint.runner as runner
runner.PARALLEL_MIN_BYTES = 0
runner.PARALLEL_MIN_FILES = 1
from leaklint.cli import main
sys.argv[0] = "leaklint"
main()
"""


def shown(run):
    def one(f):
        related = tuple((r.location.line, r.location.cell, r.message) for r in f.related)
        return (f.path, f.location.cell, f.location.line, f.location.column, f.code, f.message, related)

    return [one(f) for f in run.findings], [one(f) for f in run.errors], run.internal


@pytest.fixture()
def always_parallel(monkeypatch):
    monkeypatch.setattr(runner, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(runner, "PARALLEL_MIN_FILES", 1)


def test_jobs_do_not_change_findings_in_process(always_parallel):
    serial = runner.lint_paths([str(FIXTURES)], isolated=True, jobs=1)
    assert serial.findings and not serial.internal
    for jobs in (2, 3):
        assert shown(runner.lint_paths([str(FIXTURES)], isolated=True, jobs=jobs)) == shown(serial)


# json carries every field of every finding, so it runs over all fixtures; the other
# formats render the same findings, and a tree with notebooks shows their order and cells
@pytest.mark.parametrize("output_format, tree", [("json", FIXTURES), ("concise", FIXTURES / "notebooks"),
                                                 ("sarif", FIXTURES / "ll305")])
def test_jobs_do_not_change_console_output(output_format, tree):
    def run(jobs):
        return subprocess.run(
            [sys.executable, "-c", FORCED, "--no-cache", "--output-format", output_format, "-j", str(jobs), str(tree)],
            # not the checkout: its leaklint/ (without the rules) would shadow the installed package
            cwd=ROOT / "tests", capture_output=True, text=True, timeout=300,
        )

    one, two = run(1), run(2)
    assert one.returncode == two.returncode == 1, one.stderr + two.stderr
    assert one.stdout == two.stdout
    assert one.stderr == two.stderr == ""


def test_small_runs_do_not_start_worker_processes(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text(LEAKY)
    (tmp_path / "b.py").write_text(LEAKY)

    def refuse(*args, **kwargs):
        raise AssertionError("a process pool was started for two small files")

    monkeypatch.setattr(runner, "ProcessPoolExecutor", refuse)
    run = runner.lint_paths([str(tmp_path)], isolated=True, jobs=4)
    assert len(run.findings) == 2


def test_files_already_screened_or_cached_do_not_start_a_pool(tmp_path, monkeypatch, always_parallel):
    for index in range(6):
        (tmp_path / f"m{index}.py").write_text(LEAKY)
    (tmp_path / "plain.py").write_text("print('nothing to see')\n")
    cache_dir = tmp_path / ".leaklint_cache"
    first = runner.lint_paths([str(tmp_path)], isolated=True, jobs=2, cache_dir=cache_dir)
    monkeypatch.setattr(runner, "ProcessPoolExecutor", None)  # any use would raise
    second = runner.lint_paths([str(tmp_path)], isolated=True, jobs=2, cache_dir=cache_dir)
    assert shown(second) == shown(first) and len(first.findings) == 6


def test_no_process_support_falls_back_to_one_process(tmp_path, monkeypatch, always_parallel):
    for index in range(5):
        (tmp_path / f"m{index}.py").write_text(LEAKY)

    def unavailable(*args, **kwargs):
        raise OSError("no semaphores here")

    monkeypatch.setattr(runner, "ProcessPoolExecutor", unavailable)
    run = runner.lint_paths([str(tmp_path)], isolated=True, jobs=2)
    assert len(run.findings) == 5 and not run.internal


@pytest.mark.skipif(runner._context() is None, reason="needs the fork start method")
def test_a_worker_that_dies_is_reported_and_the_others_are_linted(tmp_path, monkeypatch, always_parallel):
    for index in range(6):
        (tmp_path / f"m{index}.py").write_text(LEAKY)
    (tmp_path / "die.py").write_text(LEAKY)
    original = runner.lint_bytes

    def lethal(path, raw, *args):
        if path.endswith("die.py"):
            os._exit(13)  # as a segfault or the OOM killer would
        return original(path, raw, *args)

    monkeypatch.setattr(runner, "lint_bytes", lethal)  # forked workers inherit the patch
    run = runner.lint_paths([str(tmp_path)], isolated=True, jobs=2)
    assert len(run.internal) == 1
    assert "die.py" in run.internal[0] and "worker process died" in run.internal[0]
    assert "please report" in run.internal[0]
    assert sorted(Path(f.path).name for f in run.findings) == [f"m{i}.py" for i in range(6)]


def test_default_jobs_is_every_core(tmp_path, monkeypatch, always_parallel):
    seen = {}
    original = runner._parallel

    def spy(items, workers):
        seen["workers"] = workers
        return original(items, workers)

    monkeypatch.setattr(runner, "_parallel", spy)
    for index in range(8):
        (tmp_path / f"m{index}.py").write_text(LEAKY)
    runner.lint_paths([str(tmp_path)], isolated=True)
    assert seen.get("workers", 1) == min(os.cpu_count() or 1, 8)
