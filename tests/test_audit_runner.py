"""The worker process: time limits, failures, the JSON object, the table, the figure."""
import importlib.util
import json
import sys
import threading

import pytest

from leaklint.analysis.specs import CallSpec
from leaklint.audit import MissingDependencyError, audit_findings, missing_dependencies, plot, render_table
from leaklint.audit import dependencies
from leaklint.findings import Finding, Location

JSON_FIELDS = {
    "metric", "chance", "repeats", "rows", "features", "leaked_mean", "leaked_sd", "honest_mean",
    "honest_sd", "gap", "gap_low", "gap_high", "flattered_share", "substituted", "status", "reason",
    "leaked_scores", "honest_scores", "verdict",
}


def finding(code, line=1, cell=None, **procedure):
    return Finding("run.ipynb" if cell else "run.py", code, "name", "error", "message", "help",
                   Location(line, 5, line, 9, cell), (), procedure)


def call(qualname, *args, **kwargs):
    return CallSpec(qualname, args, tuple(kwargs.items()))


# Minutes of training (ensembles would be capped; a network's epochs are not).
SLOW = finding("LL102", line=1, model=call(
    "sklearn.neural_network.MLPClassifier", hidden_layer_sizes=[500, 500], max_iter=100_000, tol=0.0,
    n_iter_no_change=100_000,
), cv=5)
FAILING = finding("LL102", line=2, step=call("sklearn.feature_selection.SelectKBest", k=-5), cv=5)
QUICK = finding("LL101", line=3, cell=4, cv=5)
NOT_AUDITED = finding("LL999", line=4)
# 60 rows x C(46, 6) = 9.4 million columns of float64: 4.5 GB, over the worker's cap.
HUGE = finding("LL101", line=5, step=call("sklearn.preprocessing.PolynomialFeatures", degree=6), cv=5)
FINDINGS = [SLOW, FAILING, QUICK, NOT_AUDITED, HUGE]


@pytest.fixture(scope="module")
def run():
    return audit_findings(FINDINGS, repeats=3, rows=60, features=40, timeout=3.0, progress=False)


def test_a_timeout_is_reported_and_the_next_findings_still_run(run):
    slow, failing, quick, not_audited, huge = run
    assert slow.status == "timeout" and "3 s" in slow.reason
    assert failing.status == "error" and "k" in failing.reason
    assert quick.status == "ok" and len(quick.leaked_scores) == 3
    assert not_audited.status == "unsupported" and "LL999" in not_audited.reason


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the memory cap (RLIMIT_AS) is enforced on Linux")
def test_memory_is_capped(run):
    huge = run[4]
    assert huge.status == "error" and "memory" in huge.reason


def test_json_object(run):
    quick = run[2].to_json()
    assert JSON_FIELDS <= set(quick)
    assert quick["repeats"] == 3 and (quick["rows"], quick["features"]) == (60, 40)
    assert quick["gap_low"] <= quick["gap"] <= quick["gap_high"]
    assert quick["status"] == "ok" and quick["reason"] is None
    assert len(quick["leaked_scores"]) == len(quick["honest_scores"]) == 3
    assert "cv" not in quick["substituted"] and "step" in quick["substituted"]
    for result in run:
        json.dumps(result.to_json())
        assert JSON_FIELDS <= set(result.to_json())


def test_table_names_each_finding_and_its_verdict(run):
    table = render_table(FINDINGS, run)
    assert "run.py:1:5" in table and "run.ipynb:cell 4:3:5" in table
    for word in ("timeout", "error", "unsupported", "no measurable inflation"):
        assert word in table


def test_progress_bar_goes_to_stderr(capsys):
    audit_findings([NOT_AUDITED], progress=True)
    shown = capsys.readouterr()
    assert shown.out == "" and "leaklint audit" in shown.err
    audit_findings([NOT_AUDITED], progress=False)
    assert capsys.readouterr().err == ""
    audit_findings([NOT_AUDITED], progress=None)  # only on a terminal: captured stderr is not one
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="matplotlib is not installed")
def test_plot_writes_a_figure(run, tmp_path):
    path = tmp_path / "audit.png"
    plot(FINDINGS, run, path)
    assert path.stat().st_size > 0


def test_plot_without_matplotlib_says_what_to_install(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(MissingDependencyError, match="pip install matplotlib"):
        plot(FINDINGS, run, tmp_path / "audit.png")


def test_missing_dependencies(monkeypatch):
    assert missing_dependencies() == []
    real = importlib.util.find_spec
    monkeypatch.setattr(dependencies.importlib.util, "find_spec", lambda name: None if name == "tqdm" else real(name))
    assert missing_dependencies() == ["tqdm"]
    plotting = [] if real("matplotlib") else ["matplotlib"]
    assert missing_dependencies(plot=True) == ["tqdm"] + plotting


def test_a_worker_that_dies_is_reported_and_replaced():
    from leaklint.audit.pieces import plan
    from leaklint.audit.runner import Worker

    slow, quick = (plan(f, repeats=2, rows=60, features=40) for f in (SLOW, QUICK))
    with Worker() as worker:
        worker._ensure_started()
        threading.Timer(1.0, worker._process.kill).start()
        died = worker.run(slow, 30.0, lambda n: None)
        assert died.status == "error" and "stopped" in died.reason
        assert worker.run(quick, 30.0, lambda n: None).status == "ok"
