"""Findings the audit once failed on: each now runs, or says plainly why it cannot be measured.

Also the console script end to end on copies of the shipped fixtures.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from leaklint.analysis.specs import CallSpec, FuncRef, Opaque
from leaklint.audit import audit_findings
from leaklint.findings import Finding, Location

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def finding(code, **procedure):
    return Finding("f.py", code, "name", "error", "message", "help", Location(1, 1, 1, 2), (), procedure)


def call(qualname, *args, **kwargs):
    return CallSpec(qualname, args, tuple(kwargs.items()))


SPLIT = call("sklearn.model_selection.train_test_split", Opaque("X"), Opaque("y"), test_size=0.2, random_state=1)
STRATIFIED = call("sklearn.model_selection.StratifiedKFold", n_splits=5, shuffle=True, random_state=1)

FINDINGS = {
    "kernel_pca": finding(
        "LL101", step=call("sklearn.decomposition.KernelPCA", n_components=2, kernel="rbf", gamma=15),
        fit_method="fit_transform", cv=call("sklearn.model_selection.KFold", n_splits=5),
    ),
    "svd_300": finding(
        "LL101", step=call("sklearn.decomposition.TruncatedSVD", n_components=300, random_state=0),
        fit_method="fit_transform", model=call("sklearn.linear_model.RidgeClassifier"), cv=5,
    ),
    "fdr": finding(
        "LL102", step=call("sklearn.feature_selection.SelectFdr", FuncRef("sklearn.feature_selection.chi2"), alpha=0.01),
        fit_method="fit_transform", split=SPLIT,
    ),
    "sfs": finding(
        "LL102", step=call(
            "sklearn.feature_selection.SequentialFeatureSelector",
            call("sklearn.neighbors.KNeighborsRegressor", n_neighbors=5), n_features_to_select=4, direction="forward",
        ), fit_method="fit",
    ),
    "time_stratified": finding("LL201", cv=STRATIFIED),
    "time_auc": finding(
        "LL201", model=call("sklearn.neighbors.KNeighborsClassifier", 5), scoring="roc_auc",
        cv=call("sklearn.model_selection.StratifiedShuffleSplit", n_splits=5, test_size=0.2, random_state=0),
    ),
    "time_regressor_stratified": finding("LL201", model=call("sklearn.linear_model.Ridge"), cv=STRATIFIED),
    "tfidf_on_test": finding(
        "LL301", step=call("sklearn.feature_extraction.text.TfidfVectorizer", min_df=2, ngram_range=(1, 2), sublinear_tf=True),
        fit_method="fit_transform", split=SPLIT,
    ),
    "pca_on_test": finding(
        "LL301", step=call("sklearn.decomposition.PCA", n_components=30, random_state=7), fit_method="fit_transform",
    ),
}


@pytest.fixture(scope="module")
def results():
    return dict(zip(FINDINGS, audit_findings(list(FINDINGS.values()), repeats=2, progress=False)))


def test_a_literal_kernel_width_runs_on_scaled_noise(results):
    result = results["kernel_pca"]
    assert result.status == "ok", result.reason
    assert any("scaled by" in note and "gamma" in note for note in result.notes)


def test_components_get_the_rows_and_features_they_need(results):
    result = results["svd_300"]
    assert result.status == "ok", result.reason
    assert result.features == 600 and result.rows * 0.8 > 300


def test_a_selector_keeping_nothing_is_unsupported_with_its_reason(results):
    result = results["fdr"]
    assert result.status == "unsupported"
    assert result.reason.startswith("SelectFdr(chi2, alpha=0.01) keeps no feature on data without signal")
    assert result.reason.endswith("nothing to measure")


def test_sequential_selection_runs_narrow_and_says_so(results):
    result = results["sfs"]
    assert result.status == "ok", result.reason
    assert (result.rows, result.features, result.metric) == (100, 8, "r2")
    assert {"model", "step.cv"} <= set(result.substituted)
    assert "KNeighborsRegressor(n_neighbors=5) under" in result.leaked_procedure


def test_time_series_classification(results):
    stratified, auc = results["time_stratified"], results["time_auc"]
    assert stratified.status == "ok", stratified.reason
    assert stratified.metric == "accuracy" and abs(stratified.chance - 0.5) < 0.05
    assert "TimeSeriesSplit(5)" in stratified.honest_procedure
    assert any("above its median" in note for note in stratified.notes)
    assert auc.status == "ok", auc.reason
    assert auc.metric == "roc_auc" and auc.chance == 0.5
    regressor = results["time_regressor_stratified"]
    assert regressor.status == "unsupported" and "needs class labels" in regressor.reason


def test_refitting_a_vectoriser_on_the_test_texts_fails_as_written(results):
    result = results["tfidf_on_test"]
    assert result.status == "unsupported"
    assert "as written the procedure fails" in result.reason and "different vocabulary" in result.reason
    assert "\n" not in result.reason


def test_pca_refitted_on_the_test_rows_has_enough_features(results):
    result = results["pca_on_test"]
    assert result.status == "ok", result.reason
    assert result.features == 60


@pytest.mark.slow
def test_seeds_in_two_processes_give_the_serial_figures(monkeypatch):
    quick = finding("LL102", step=call("sklearn.feature_selection.SelectKBest", k=5), fit_method="fit_transform", cv=5)
    runs = []
    for processes in ("1", "2"):
        monkeypatch.setenv("LEAKLINT_AUDIT_PROCESSES", processes)
        [result] = audit_findings([quick], repeats=4, rows=60, features=200, progress=False)
        runs.append((result.leaked_scores, result.honest_scores))
    assert runs[0] == runs[1] and len(runs[0][0]) == 4


@pytest.mark.slow
def test_time_series_classification_is_at_chance_when_honest():
    # Per-seed sd of the honest accuracy ~0.07: the mean of 10 seeds is within ±0.07 of chance.
    [result] = audit_findings([finding("LL201", model=call("sklearn.neighbors.KNeighborsClassifier", 5), cv=STRATIFIED)],
                              repeats=10, progress=False)
    assert result.leaked_mean >= 0.7
    assert abs(result.honest_mean - result.chance) <= 0.07
    assert result.gap_low > 0.2


@pytest.mark.slow
def test_wrapper_selection_shows_its_leak_quickly():
    rfe = finding(
        "LL102", step=call(
            "sklearn.feature_selection.RFE", estimator=call("sklearn.linear_model.LogisticRegression", max_iter=2000),
            n_features_to_select=12, step=2,
        ), fit_method="fit_transform", model=call("sklearn.svm.SVC"), cv=5,
    )
    [result] = audit_findings([rfe], repeats=10, progress=False)
    assert result.status == "ok" and (result.rows, result.features) == (100, 200)
    assert result.gap_low > 0.1 and abs(result.honest_mean - 0.5) <= 0.07
    assert result.seconds < 30  # about 3 s on two cores; minutes before the step was bounded


# The audit object's fields named in issue 5, and the per-seed scores.
JSON_FIELDS = {
    "metric", "chance", "repeats", "rows", "features", "leaked_mean", "leaked_sd", "honest_mean",
    "honest_sd", "gap", "gap_low", "gap_high", "flattered_share", "substituted", "status", "reason",
    "leaked_scores", "honest_scores",
}
E2E_FIXTURES = [
    "ll101/leak_kernel_pca_numpy_kfold.py",
    "ll102/leak_rfe_multiline_gridsearch.py",
    "ll103/leak_groupby_merge_back.py",
    "ll201/leak_rolling_features_stratified_kfold.py",
    "ll301/leak_tfidf_refit_on_test_texts.py",
]


@pytest.mark.slow
def test_console_script_end_to_end(tmp_path):
    script = Path(sys.executable).with_name("leaklint")
    if not script.exists():
        pytest.skip("the leaklint console script is not installed next to this Python")
    for index, name in enumerate(E2E_FIXTURES):
        shutil.copy(FIXTURES / name, tmp_path / f"f{index}_{Path(name).name}")
    completed = subprocess.run(
        [str(script), "audit", str(tmp_path), "--repeats", "2", "--output-format", "json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert completed.returncode == 1, completed.stderr  # findings were reported
    report = json.loads(completed.stdout)
    codes = {item["code"] for item in report}
    assert {"LL101", "LL102", "LL103", "LL201", "LL301"} <= codes
    for item in report:
        audit = item["audit"]
        assert JSON_FIELDS <= set(audit), item["path"]
        assert audit["status"] in ("ok", "unsupported"), (item["path"], audit["reason"])
        if audit["status"] == "ok":
            assert audit["repeats"] == 2 and len(audit["leaked_scores"]) == 2
            assert audit["gap_low"] <= audit["gap"] <= audit["gap_high"]
        else:
            assert audit["reason"] and "\n" not in audit["reason"]


@pytest.mark.slow
def test_audit_of_every_shipped_fixture(tmp_path):
    """``leaklint audit`` over every fixture end to end, one seed each: every finding is
    measured or says in one line why it cannot be; nothing errs or times out (at 300 s a
    finding, so that a loaded machine is not taken for a hang). The fixtures go to two
    audit runs side by side (one seed uses one core; the machine has two), on 150 rows
    (half the time of the seeds' setups; the seeds' own sizes are tested against their
    figures elsewhere)."""
    script = Path(sys.executable).with_name("leaklint")
    if not script.exists():
        pytest.skip("the leaklint console script is not installed next to this Python")
    files = sorted(str(p) for p in FIXTURES.rglob("*") if p.suffix in (".py", ".ipynb"))
    runs = []
    for half in (0, 1):
        folder = tmp_path / f"run{half}"
        folder.mkdir()
        runs.append(subprocess.Popen(
            [str(script), "audit", *files[half::2], "--repeats", "1", "--rows", "150", "--timeout", "300", "--no-progress",
             "--output-format", "json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        ))
    report = []
    for run in runs:
        stdout, stderr = run.communicate(timeout=900)
        assert run.returncode == 1, stderr
        report += json.loads(stdout)
    # the audit writes nothing where it runs but the lint cache (CatBoost would leave a catboost_info folder)
    written = {p.name for half in (0, 1) for p in (tmp_path / f"run{half}").iterdir()}
    assert written <= {".leaklint_cache"}, written
    assert len(report) >= 150
    statuses = [(item["audit"]["status"], item["path"], item["audit"]["reason"]) for item in report]
    assert all(status in ("ok", "unsupported") for status, _, _ in statuses), [s for s in statuses if s[0] not in ("ok", "unsupported")]
    assert sum(status == "ok" for status, _, _ in statuses) >= 0.9 * len(report)
