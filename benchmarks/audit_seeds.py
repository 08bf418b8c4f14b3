"""Time `leaklint audit` on the three seed setups (and, with --all, every rule's example).

    python benchmarks/audit_seeds.py [--repeats 10] [--all]

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--all", action="store_true", help="also time each rule's example setup")
    args = parser.parse_args()
    timed(SEEDS, args.repeats)
    timed(WINE, args.repeats, dataset="wine")
    if args.all:
        timed([finding(code, f"{code} rule example") for code in MODELS], args.repeats)


if __name__ == "__main__":
    main()
