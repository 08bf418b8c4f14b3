"""Time `leaklint audit` on the three seed setups (and, with --all, every rule's example).

    python benchmarks/audit_seeds.py [--repeats 10] [--all] [--wrappers]

--wrappers times the costly LL102 steps of the fixtures (RFE, RFECV, SelectFromModel,
SequentialFeatureSelector, mutual information), which run on narrower data.

Prints the seconds each finding's audit took in the worker (its start, about 2 s of
imports once per run, is shown separately) and the scores, so a slowdown or a drift
from the reference figures is visible at a glance.
"""
from __future__ import annotations

import argparse
import time

from leaklint.analysis.specs import CallSpec, FuncRef
from leaklint.audit import audit_findings
from leaklint.audit.examples import MODELS
from leaklint.findings import Finding, Location


def call(qualname, *args, **kwargs):
    return CallSpec(qualname, args, tuple(kwargs.items()))


def finding(code, label, **procedure):
    return Finding(label, code, "", "error", "", "", Location(1, 1, 1, 1), (), procedure)


STRATIFIED = call("sklearn.model_selection.StratifiedKFold", 5, shuffle=True, random_state=0)
LOGISTIC = call("sklearn.linear_model.LogisticRegression")
SEEDS = [
    finding(
        "LL102", "SelectKBest k=20, 100x10,000 noise (0.87 vs 0.49)",
        step=call("sklearn.feature_selection.SelectKBest", FuncRef("sklearn.feature_selection.f_classif"), k=20),
        fit_method="fit_transform", model=LOGISTIC, cv=STRATIFIED,
    ),
    finding(
        "LL103", "naive target encoding, 2,000 rows (0.774 vs 0.48)",
        form="groupby-mean", model=LOGISTIC, cv=STRATIFIED, scoring="roc_auc",
    ),
]
WRAPPERS = [
    finding(
        "LL102", "RFE(LogisticRegression, 12, step=2) + SVC, 5-fold",
        step=call("sklearn.feature_selection.RFE", estimator=call("sklearn.linear_model.LogisticRegression", max_iter=2000),
                  n_features_to_select=12, step=2),
        fit_method="fit_transform", model=call("sklearn.svm.SVC"), cv=5,
    ),
    finding(
        "LL102", "RFECV(DecisionTree, step=1, cv=3), KFold(10)",
        step=call("sklearn.feature_selection.RFECV", call("sklearn.tree.DecisionTreeClassifier", random_state=0),
                  step=1, cv=3, scoring="accuracy"),
        fit_method="fit_transform", cv=call("sklearn.model_selection.KFold", n_splits=10, shuffle=True, random_state=1),
    ),
    finding(
        "LL102", "SelectFromModel(ExtraTrees(500)) + GradientBoosting",
        step=call("sklearn.feature_selection.SelectFromModel",
                  call("sklearn.ensemble.ExtraTreesClassifier", n_estimators=500, random_state=0), threshold="median"),
        fit_method="fit", model=call("sklearn.ensemble.GradientBoostingClassifier", random_state=0), cv=5,
    ),
    finding(
        "LL102", "SequentialFeatureSelector(5-NN regressor, 4)",
        step=call("sklearn.feature_selection.SequentialFeatureSelector",
                  call("sklearn.neighbors.KNeighborsRegressor", n_neighbors=5), n_features_to_select=4, direction="forward"),
        fit_method="fit",
    ),
    finding(
        "LL102", "SelectKBest(mutual_info_classif, k=8) + forest(400)",
        step=call("sklearn.feature_selection.SelectKBest", score_func=FuncRef("sklearn.feature_selection.mutual_info_classif"), k=8),
        fit_method="fit", model=call("sklearn.ensemble.RandomForestClassifier", n_estimators=400, random_state=0), cv=5,
        scoring="accuracy",
    ),
    finding(
        "LL102", "SelectPercentile(mutual_info_classif, 30) + 15-NN, 10-fold",
        step=call("sklearn.feature_selection.SelectPercentile", FuncRef("sklearn.feature_selection.mutual_info_classif"), percentile=30),
        fit_method="fit_transform", model=call("sklearn.neighbors.KNeighborsClassifier", 15), cv=10,
    ),
]
WINE = [
    finding(
        "LL101", "StandardScaler + 5-NN on wine (0.961 vs 0.961)",
        step=call("sklearn.preprocessing.StandardScaler"), fit_method="fit_transform",
        model=call("sklearn.neighbors.KNeighborsClassifier", 5), cv=STRATIFIED,
    ),
]


def timed(findings, repeats, **options):
    started = time.monotonic()
    results = audit_findings(findings, repeats=repeats, progress=False, **options)
    wall = time.monotonic() - started
    audits = sum(r.seconds or 0.0 for r in results)
    print(f"-- {len(findings)} finding(s): {wall:.1f} s wall, of which worker start ~{wall - audits:.1f} s")
    for f, r in zip(findings, results):
        scores = f"{r.leaked_mean:.3f} vs {r.honest_mean:.3f}" if r.status == "ok" else r.status
        print(f"{r.seconds or 0.0:6.2f} s  {f.code}  {f.path:55}  {scores}")
        if r.status == "ok" and (r.rows, r.features) != (None, None):
            print(f"{'':10}  data {r.rows} x {r.features}; {r.leaked_procedure}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--all", action="store_true", help="also time each rule's example setup")
    parser.add_argument("--wrappers", action="store_true", help="also time the fixtures' costly LL102 selectors")
    args = parser.parse_args()
    timed(SEEDS, args.repeats)
    timed(WINE, args.repeats, dataset="wine")
    if args.all:
        timed([finding(code, f"{code} rule example") for code in MODELS], args.repeats)
    if args.wrappers:
        timed(WRAPPERS, args.repeats)


if __name__ == "__main__":
    main()
