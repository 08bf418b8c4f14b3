"""The audit runs the code's own pieces: each source of a model, each argument form, the
metric, the split, and never an expression from the file (issue 13)."""
import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from leaklint.analysis.specs import CallSpec, FuncRef, Opaque
from leaklint.audit.command import AUDITED
from leaklint.audit.execute import chosen_model
from leaklint.audit.pieces import plan
from leaklint.audit.rebuild import Unsupported
from leaklint.engine import lint_bytes
from leaklint.ruleset import all_rules
from leaklint.runner import lint_paths

RULES = list(all_rules())
CATALOGS = {r.code: r.catalog for r in RULES}
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

HEAD = """\
import lightgbm as lgb
import pandas as pd
from category_encoders import TargetEncoder
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score, mean_squared_error, r2_score, roc_auc_score
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score, train_test_split
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
"""
FIRST = len(HEAD.splitlines()) + 1  # the first line of a case's own code


def call(qualname, *args, **kwargs):
    return CallSpec(qualname, args, tuple(kwargs.items()))


def plans(body, code=None):
    """The plans of the audited findings of HEAD + ``body``, by (code, line)."""
    source = HEAD + textwrap.dedent(body)
    findings = lint_bytes("case.py", source.encode(), RULES, CATALOGS).findings
    found = {(f.code, f.location.line): plan(f, repeats=1) for f in findings if f.code in AUDITED}
    return {key: p for key, p in found.items() if code is None or key[0] == code}


def only(body, code):
    found = plans(body, code)
    assert len(found) == 1, found
    return next(iter(found.values()))


def line(n):
    """Line ``n`` of a case's body (1-based), as a line of the whole file."""
    return FIRST + n - 1


def from_code(result, piece, n):
    assert result.pieces[piece] == {"from": "code", "line": line(n)}, (piece, result.pieces, result.notes)


FOREST = call("sklearn.ensemble.RandomForestClassifier", n_estimators=200, max_depth=5)


# ---------------------------------------------------------------- sources of a model
def test_split_predict_and_metric_on_the_held_out_side():
    result = only("""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SelectKBest(f_classif, k=40).fit_transform(X, y)
        X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
        model = RandomForestClassifier(n_estimators=200, max_depth=5)
        model.fit(X_train, y_train)
        print(accuracy_score(y_test, model.predict(X_test)))
    """, "LL102")
    job = result.job
    assert job.model.qualname.endswith("RandomForestClassifier") and job.model.kwargs == FOREST.kwargs
    assert job.step.kwargs == (("k", 40),) and job.scoring == "accuracy"
    assert job.split["test_size"] == 0.25 and job.split["random_state"] == 0
    assert "model" not in result.substituted and "step" not in result.substituted
    from_code(result, "step", 3)
    from_code(result, "model", 5)
    from_code(result, "split", 4)
    from_code(result, "metric", 7)
    assert result.pieces["data"]["from"] == "example"


@pytest.mark.parametrize("metric, scoring", [
    ('f1_score(y_te, clf.predict(X_te), average="macro")', "f1_macro"),
    ("roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1])", "roc_auc"),
    ("r2_score(y_te, clf.predict(X_te))", "r2"),
    ("mean_squared_error(y_te, clf.predict(X_te))", "neg_mean_squared_error"),
    ("clf.score(X_te, y_te)", None),
])
def test_the_metric_the_code_reports(metric, scoring):
    result = only(f"""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer().fit_transform(X)
        X_tr, X_te, y_tr, y_te = train_test_split(X, y)
        clf = DecisionTreeClassifier(max_depth=3).fit(X_tr, y_tr)
        print({metric})
    """, "LL101")
    assert result.job.scoring == scoring
    from_code(result, "metric", 6)
    from_code(result, "model", 5)


def test_a_cross_validation_function():
    result = only("""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer().fit_transform(X)
        scores = cross_val_score(LogisticRegression(C=0.5), X, y, cv=10, scoring="roc_auc")
    """, "LL101")
    assert result.job.model == call("sklearn.linear_model.LogisticRegression", C=0.5)
    assert (result.job.cv, result.job.scoring) == (10, "roc_auc")
    for piece in ("model", "split", "metric"):
        from_code(result, piece, 4)


def test_a_search_on_a_pipeline_takes_its_last_step():
    result = only("""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        search = GridSearchCV(make_pipeline(StandardScaler(), SVC(C=1.0)), {"svc__C": [1, 10]}, cv=3, scoring="accuracy")
        search.fit(X, y)
        print(search.best_score_)
    """, "LL304")
    assert result.job.model == call("sklearn.svm.SVC", C=1.0)
    assert (result.job.cv, result.job.scoring) == (3, "accuracy")
    from_code(result, "model", 3)
    from_code(result, "split", 3)


def test_a_hand_written_fold_loop():
    result = only("""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t").values, df["t"].values
        X = SimpleImputer().fit_transform(X)
        kf = KFold(n_splits=4, shuffle=True, random_state=0)
        for tr, te in kf.split(X):
            model = LogisticRegression(C=0.5)
            model.fit(X[tr], y[tr])
            print(roc_auc_score(y[te], model.predict_proba(X[te])[:, 1]))
    """, "LL101")
    assert result.job.model == call("sklearn.linear_model.LogisticRegression", C=0.5)
    assert result.job.cv == call("sklearn.model_selection.KFold", n_splits=4, shuffle=True, random_state=0)
    assert result.job.scoring == "roc_auc"
    from_code(result, "model", 6)
    from_code(result, "split", 4)
    from_code(result, "metric", 8)


def test_a_pipeline_assembled_from_variables():
    result = only("""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SelectKBest(f_classif, k=10).fit_transform(X, y)
        scaler = StandardScaler()
        clf = SVC(C=2.0)
        pipe = Pipeline([("scale", scaler), ("clf", clf)])
        print(cross_val_score(pipe, X, y, cv=5).mean())
    """, "LL102")
    assert result.job.model == call("sklearn.svm.SVC", C=2.0)
    from_code(result, "model", 5)
    from_code(result, "split", 7)


def test_a_model_fitted_on_all_rows_then_scored_on_the_held_out_side():
    result = only("""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        clf = make_pipeline(StandardScaler(), RandomForestClassifier(n_estimators=200, max_depth=5))
        clf.fit(X, y)
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, stratify=y, random_state=1)
        print(accuracy_score(y_te, clf.predict(X_te)))
    """, "LL302")
    assert result.job.model.kwargs == FOREST.kwargs
    assert result.job.split["stratify"] is True and result.job.scoring == "accuracy"
    from_code(result, "model", 3)
    from_code(result, "split", 5)
    assert result.pieces["step"]["from"] == "none"


NATIVE = """\
    df = pd.read_csv("d.csv")
    X, y = df.drop(columns="t"), df["t"]
    X = SimpleImputer().fit_transform(X)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)
    params = {"objective": "binary", "num_leaves": 15}
    booster = lgb.train(params, lgb.Dataset(X_tr, label=y_tr), num_boost_round=50)
    print(roc_auc_score(y_te, booster.predict(X_te)))
"""


def test_native_boosting_runs_as_its_estimator_class():
    result = only(NATIVE, "LL101")
    assert result.job.model.qualname == "lightgbm.LGBMClassifier"
    assert dict(result.job.model.kwargs) == {"objective": "binary", "num_leaves": 15, "n_estimators": 50}
    assert any("lightgbm.train(params, ...) with literal params runs as" in note for note in result.notes)
    from_code(result, "model", 6)
    assert result.job.scoring == "roc_auc"


def test_native_boosting_with_params_unpacked_into_a_new_dict():
    """``{**base, "seed": seed}`` (a seed loop in real competition code): the base's literal
    settings and the new keys; a setting that is not a literal keeps the library's default."""
    result = only(NATIVE.replace(
        'params = {"objective": "binary", "num_leaves": 15}',
        'base = {"objective": "binary", "num_leaves": 15}\n    seed = int(sys.argv[1])',
    ).replace("lgb.train(params,", 'lgb.train({**base, "seed": seed, "num_leaves": 31},'), "LL101")
    assert dict(result.job.model.kwargs) == {"objective": "binary", "num_leaves": 31, "n_estimators": 50}
    assert any("`seed=seed` is not a literal" in note for note in result.notes)
    from_code(result, "model", 7)


def test_native_boosting_without_literal_params_says_why():
    result = only(NATIVE.replace('params = {"objective": "binary", "num_leaves": 15}', "params = load_params()"), "LL101")
    assert result.job.model is None
    assert "lightgbm.train is not on the audit's allow-list" in result.pieces["model"]["reason"]


@pytest.mark.skipif(importlib.util.find_spec("lightgbm") is not None, reason="lightgbm is installed")
def test_a_model_whose_package_is_missing_falls_back_to_the_example():
    job = only(NATIVE, "LL101").job
    model, *_, notes, origins = chosen_model(job)
    assert model.qualname == "sklearn.neighbors.KNeighborsClassifier"  # LL101's example
    assert origins["model"]["from"] == "example" and "lightgbm" in origins["model"]["reason"]
    assert "not installed" in notes[0]


def test_a_model_watching_the_held_out_side_while_it_trains():
    """No predict: the network reports its validation loss on the test rows every epoch
    (``validation_data=(X_test, y_test)``); that model is the split's."""
    result = only("""\
        import tensorflow as tf
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer().fit_transform(X)
        X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=1)
        model = tf.keras.Sequential()
        model.add(tf.keras.layers.Dense(units=32, activation="relu"))
        model.add(tf.keras.layers.Dense(units=1, activation="sigmoid"))
        model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
        print(model.fit(X_train, y_train, validation_data=(X_test, y_test), epochs=50))
    """, "LL101")
    assert result.job.model == call("sklearn.neural_network.MLPClassifier", hidden_layer_sizes=(32,), activation="relu")
    from_code(result, "model", 6)
    from_code(result, "split", 5)


def test_a_scaling_function_runs_as_its_estimator_form():
    """``minmax_scale(X, feature_range=(0, 2))`` learns and applies what
    ``MinMaxScaler(feature_range=(0, 2)).fit_transform(X)`` does."""
    result = only("""\
        from sklearn.preprocessing import minmax_scale
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = minmax_scale(X, feature_range=(0, 2), axis=0)
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        model = LogisticRegression(C=2.0).fit(X_train, y_train)
        print(accuracy_score(y_test, model.predict(X_test)))
    """, "LL101")
    assert result.job.step == call("sklearn.preprocessing.MinMaxScaler", feature_range=(0, 2))
    assert result.job.fit_method == "fit_transform"
    assert "step: the function minmax_scale runs as `MinMaxScaler(feature_range=(0, 2))`" in result.notes
    from_code(result, "step", 4)
    from_code(result, "model", 6)


def test_a_vectorizer_with_the_code_s_own_analyzer_and_a_numpy_dtype():
    """``CountVectorizer(analyzer=clean, dtype=np.int8)``: the function is the code's and
    never runs (the default analyzer splits the synthetic texts); numpy's types are kept."""
    result = only("""\
        import numpy as np
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.naive_bayes import MultinomialNB
        def clean(text):
            return text.lower().split()
        df = pd.read_csv("d.csv")
        X = CountVectorizer(analyzer=clean, dtype=np.int8, max_features=500).fit_transform(df["text"])
        X_train, X_test, y_train, y_test = train_test_split(X, df["t"], random_state=0)
        model = MultinomialNB().fit(X_train, y_train)
        print(accuracy_score(y_test, model.predict(X_test)))
    """, "LL101")
    assert result.job.step == call(
        "sklearn.feature_extraction.text.CountVectorizer", dtype=FuncRef("numpy.int8"), max_features=500
    )
    assert any("`analyzer=clean` is a function of the code" in note for note in result.notes)
    from_code(result, "step", 7)


def test_a_clustering_fitted_on_all_rows_runs_as_a_step():
    result = only("""\
        from sklearn.cluster import KMeans
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        clusters = KMeans(n_clusters=8, random_state=1)
        clusters.fit(X)
        X["cluster"] = clusters.labels_
        print(cross_val_score(RandomForestClassifier(n_estimators=150), X, y, cv=10).mean())
    """, "LL101")
    assert result.job.step == call("sklearn.cluster.KMeans", n_clusters=8, random_state=1)
    assert any("distances to its centres" in note for note in result.notes)
    from_code(result, "step", 4)


MULTICLASS = """\
    df = pd.read_csv("d.csv")
    X, y = df.drop(columns="t"), df["t"]
    X = SelectKBest(f_classif, k=10).fit_transform(X, y)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)
    params = {"objective": "multiclass", "num_class": 4, "num_leaves": 15}
    booster = lgb.train(params, lgb.Dataset(X_tr, label=y_tr), num_boost_round=20)
    print(f1_score(y_te, booster.predict(X_te).argmax(axis=1), average="macro"))
"""


def test_the_class_count_the_code_gives_shapes_the_labels():
    result = only(MULTICLASS, "LL102")
    assert result.job.classes == 4 and result.job.scoring == "f1_macro"
    assert "data: 4 balanced classes, as num_class says the labels have more than two" in result.notes
    softmax = only("""\
        import tensorflow as tf
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer().fit_transform(X)
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=1)
        model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(5, activation="softmax")])
        model.fit(X_train, y_train)
        print(accuracy_score(y_test, model.predict(X_test).argmax(axis=1)))
    """, "LL101")
    assert softmax.job.classes == 5
    assert only(NATIVE, "LL101").job.classes == 2  # a binary objective: two classes


@pytest.mark.skipif(importlib.util.find_spec("lightgbm") is None, reason="lightgbm is not installed")
def test_a_multiclass_audit_scores_at_its_chance_level_when_honest():
    from leaklint.audit import audit_findings

    source = HEAD + textwrap.dedent(MULTICLASS)
    [finding] = [f for f in lint_bytes("case.py", source.encode(), RULES, CATALOGS).findings if f.code == "LL102"]
    [result] = audit_findings([finding], repeats=3, progress=False)
    assert result.status == "ok" and result.metric == "f1_macro"
    assert abs(result.honest_mean - 0.25) < 0.1 and result.gap_low > 0.1  # four classes: chance is a quarter


# ------------------------------------------------------- renamed classes and arguments
def test_old_library_names_run_as_today_s_with_a_note():
    """Code written for scikit-learn 0.2x: the same procedure under today's names."""
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import SGDClassifier

    from leaklint.audit.rebuild import build, sanitise

    result = only("""\
        from sklearn.linear_model import SGDClassifier
        from sklearn.preprocessing import Imputer
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = Imputer(missing_values="NaN", strategy="mean", axis=0).fit_transform(X)
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        model = SGDClassifier(loss="log", n_iter=5).fit(X_train, y_train)
        print(accuracy_score(y_test, model.predict(X_test)))
    """, "LL101")
    assert result.job.step == call("sklearn.impute.SimpleImputer", missing_values=FuncRef("numpy.nan"), strategy="mean")
    assert result.job.model == call("sklearn.linear_model.SGDClassifier", loss="log_loss", max_iter=5)
    assert isinstance(build(sanitise(result.job.step)), SimpleImputer)
    assert isinstance(build(sanitise(result.job.model)), SGDClassifier)
    notes = " | ".join(result.notes)
    assert "Imputer is SimpleImputer in today's scikit-learn" in notes and "`n_iter` is `max_iter`" in notes
    assert "`loss='log'` is `loss='log_loss'`" in notes and "`axis=0` no longer exists" in notes
    from_code(result, "step", 5)
    from_code(result, "model", 7)


def test_settings_today_s_libraries_refuse_are_read_as_they_ran():
    """A flag written as 1, a K-fold's random_state without shuffle, XGBoost's gpu_hist:
    older libraries ran them; the audit builds what they ran instead of failing."""
    from leaklint.audit.rebuild import build, sanitise
    from leaklint.audit.versions import current

    vectorizer = build(sanitise(call("sklearn.feature_extraction.text.TfidfVectorizer", smooth_idf=1, min_df=1)))
    assert vectorizer.smooth_idf is True and vectorizer.min_df == 1  # (a count stays a count)
    notes = []
    folds = current(call("sklearn.model_selection.StratifiedKFold", n_splits=5, random_state=42), notes, "cv")
    assert folds == call("sklearn.model_selection.StratifiedKFold", n_splits=5) and "did nothing" in notes[0]
    assert current(call("sklearn.model_selection.KFold", n_splits=5, shuffle=True, random_state=1), [], "cv").kwargs[-1] == ("random_state", 1)
    booster = current(call("xgboost.XGBRegressor", tree_method="gpu_hist", device="cuda"), [], "model")
    assert sanitise(booster) == call("xgboost.XGBRegressor", tree_method="hist")


@pytest.mark.skipif(importlib.util.find_spec("sklearn") is None, reason="scikit-learn is not installed")
def test_a_regression_under_a_stratified_cv_and_a_log_error_runs():
    """Kaggle's ordinal targets: a regressor under StratifiedKFold (the target takes few
    values) scored by mean squared log error (the target is made positive)."""
    from leaklint.audit import audit_findings

    source = HEAD + textwrap.dedent("""\
        from sklearn.linear_model import Ridge
        from sklearn.model_selection import StratifiedKFold
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer().fit_transform(X)
        print(cross_val_score(Ridge(), X, y, cv=StratifiedKFold(5, random_state=0), scoring="neg_mean_squared_log_error"))
    """)
    [finding] = [f for f in lint_bytes("case.py", source.encode(), RULES, CATALOGS).findings if f.code == "LL101"]
    [result] = audit_findings([finding], repeats=2, progress=False)
    assert result.status == "ok", result.reason
    assert any("takes 5 values" in note for note in result.notes)
    assert any("made positive" in note for note in result.notes)


def test_a_procedure_that_fails_as_written_is_explained_in_one_line():
    """The code's own imputer imputes 3s, not the gaps: the model then fails on NaN, with
    a message scikit-learn writes on several lines. The report keeps one."""
    from leaklint.audit import audit_findings

    source = HEAD + textwrap.dedent("""\
        from sklearn.impute import SimpleImputer
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer(missing_values=3, strategy="most_frequent").fit_transform(X)
        print(cross_val_score(LogisticRegression(), X, y, cv=5).mean())
    """)
    [finding] = [f for f in lint_bytes("case.py", source.encode(), RULES, CATALOGS).findings if f.code == "LL101"]
    [result] = audit_findings([finding], repeats=1, progress=False)
    assert result.status == "error" and "NaN" in result.reason and "\n" not in result.reason


def test_an_l1_logistic_regression_gets_the_solver_it_ran_with():
    result = only("""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer().fit_transform(X)
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)
        model = LogisticRegression(penalty="l1", C=0.5).fit(X_tr, y_tr)
        print(roc_auc_score(y_te, model.predict_proba(X_te)[:, 1]))
    """, "LL101")
    assert result.job.model == call("sklearn.linear_model.LogisticRegression", penalty="l1", C=0.5, solver="liblinear")
    assert any("its old default" in note for note in result.notes)


# ------------------------------------------------------------------ argument forms
FORMS = {
    "dict literal unpacked": ('params = {"n_estimators": 200, "max_depth": 5}', "RandomForestClassifier(**params)"),
    "dict() of literals": ("params = dict(n_estimators=200, max_depth=5)", "RandomForestClassifier(**params)"),
    "simple variables": ("trees = 200\ndepth = 5", "RandomForestClassifier(n_estimators=trees, max_depth=depth)"),
    "a variable bound to a variable": ("N = 200\ntrees = N", "RandomForestClassifier(n_estimators=trees, max_depth=5)"),
    "a dict unpacked into a dict": ('base = {"n_estimators": 200}\nparams = {**base, "max_depth": 5}', "RandomForestClassifier(**params)"),
    "a dict set key by key": ('params = {}\nparams["n_estimators"] = 200\nparams["max_depth"] = 5', "RandomForestClassifier(**params)"),
    "a dict with a key popped": ('params = {"n_estimators": 200, "max_depth": 5, "n_rounds": 9}\nrounds = params.pop("n_rounds")', "RandomForestClassifier(**params)"),
    "a dict's key set again": ('params = {"n_estimators": 200, "max_depth": 3}\nparams["max_depth"] = 5', "RandomForestClassifier(**params)"),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_constructor_arguments_bound_to_literals(form):
    binding, construct = FORMS[form]
    binding = binding.replace("\n", "\n        ")
    result = only(f"""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer().fit_transform(X)
        {binding}
        model = {construct}
        print(cross_val_score(model, X, y, cv=5).mean())
    """, "LL101")
    assert dict(result.job.model.kwargs) == {"n_estimators": 200, "max_depth": 5}, result.notes
    assert result.pieces["model"]["from"] == "code"


def test_a_module_constant_used_in_a_function():
    result = only("""\
        N_TREES = 150
        SEED = 0

        def build():
            return RandomForestClassifier(n_estimators=N_TREES, random_state=SEED)

        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer().fit_transform(X)
        print(cross_val_score(build(), X, y, cv=5).mean())
    """, "LL101")
    assert dict(result.job.model.kwargs) == {"n_estimators": 150, "random_state": 0}
    from_code(result, "model", 5)


def test_a_parameter_default_and_a_literal_argument():
    result = only("""\
        def evaluate(X, y, depth, size=0.3):
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=size)
            model = DecisionTreeClassifier(max_depth=depth).fit(X_tr, y_tr)
            return model.score(X_te, y_te)

        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer().fit_transform(X)
        print(evaluate(X, y, 4))
    """, "LL101")
    assert result.job.model == call("sklearn.tree.DecisionTreeClassifier", max_depth=4)
    assert result.job.split["test_size"] == 0.3


@pytest.mark.parametrize("binding", [
    "depth = 5\ndepth += 1",
    "depth = 5\nif len(X) > 10:\n    depth = 7",
    'params = {"max_depth": 5}\nparams.update(max_depth=7)',
    'params = {"max_depth": 5}\nparams["max_depth"] = depth_of(X)',
])
def test_a_rebound_or_changed_name_is_no_longer_its_literal(binding):
    binding = binding.replace("\n", "\n        ")
    uses = "**params" if "params" in binding else "max_depth=depth"
    result = only(f"""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = SimpleImputer().fit_transform(X)
        {binding}
        print(cross_val_score(DecisionTreeClassifier({uses}), X, y, cv=5).mean())
    """, "LL101")
    # the stale literal is never used: the model is the example, or the code's class with
    # the library's default for the setting that is no longer a literal
    model = result.job.model
    if model is None:
        assert "model" in result.substituted and "literal" in result.pieces["model"]["reason"]
    else:
        assert model == call("sklearn.tree.DecisionTreeClassifier")
        assert any("is not a literal; the library's default is used" in note for note in result.notes)


def test_column_arguments_map_onto_the_synthetic_columns():
    result = only("""\
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t"), df["t"]
        X = TargetEncoder(cols=list(X.columns), smoothing=2.0).fit_transform(X, y)
        print(cross_val_score(LogisticRegression(), X, y, cv=5).mean())
    """, "LL103")
    assert result.job.step == call("category_encoders.TargetEncoder", smoothing=2.0)
    assert "step" not in result.substituted
    assert any("cols=list(X.columns) names the code's own columns" in note for note in result.notes)
    from_code(result, "step", 3)


@pytest.mark.parametrize("built", [
    """model = tf.keras.Sequential()
        model.add(tf.keras.layers.Dense(64, activation="relu", input_shape=(8,)))
        model.add(tf.keras.layers.Dropout(0.2))
        model.add(tf.keras.layers.Dense(units=32, activation="relu"))
        model.add(tf.keras.layers.Dense(1, activation="sigmoid"))""",
    """model = tf.keras.Sequential([tf.keras.layers.Input(shape=(8,)), tf.keras.layers.Dense(64, activation="relu"),
                                     tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(1, activation="sigmoid")])""",
])
def test_a_keras_stack_of_dense_layers_runs_as_scikit_learns_perceptron(built):
    result = only(f"""\
        import tensorflow as tf
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t").values, df["t"].values
        X = SimpleImputer().fit_transform(X)
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=0)
        {built}
        model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
        model.fit(X_tr, y_tr, epochs=20)
        print(model.evaluate(X_te, y_te))
    """, "LL101")
    assert result.job.model == call("sklearn.neural_network.MLPClassifier", hidden_layer_sizes=(64, 32), activation="relu")
    assert any("a Keras Sequential of dense layers runs as" in note for note in result.notes)
    from_code(result, "model", 6)


def test_a_recurrent_keras_network_is_not_translated():
    result = only("""\
        import tensorflow as tf
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t").values, df["t"].values
        X = SimpleImputer().fit_transform(X)
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=0)
        model = tf.keras.Sequential([tf.keras.layers.LSTM(32), tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
        model.fit(X_tr, y_tr, epochs=20)
        print(model.evaluate(X_te, y_te))
    """, "LL101")
    assert result.job.model is None and "model" in result.substituted


# ------------------------------------------------------------ never evaluated
# Each form of a constructor argument, spelled so that evaluating it would create a file.
MARKED = {
    "literal position": "RandomForestClassifier(n_estimators=open({marker}, 'w') and 5)",
    "simple variable": "RandomForestClassifier(n_estimators=trees)",
    "dict unpacked": "RandomForestClassifier(**params)",
    "module constant": "build()",
    "pipeline from variables": "Pipeline([('s', StandardScaler()), ('m', forest)])",
    "search": "GridSearchCV(RandomForestClassifier(max_depth=open({marker}, 'w') and 3), {{'n_estimators': [5]}}, cv=3)",
}
MARKED_HEAD = """\
trees = open({marker}, "w") and 5
params = {{"n_estimators": open({marker}, "w") and 5}}
N_TREES = open({marker}, "w") and 5
forest = RandomForestClassifier(max_depth=open({marker}, "w") and 3)

def build():
    return RandomForestClassifier(n_estimators=N_TREES)

df = pd.read_csv("d.csv")
X, y = df.drop(columns="t"), df["t"]
X = SimpleImputer().fit_transform(X)
"""


def marked_source(form, marker):
    model = MARKED[form].format(marker=repr(str(marker)))
    return HEAD + MARKED_HEAD.format(marker=repr(str(marker))) + f"print(cross_val_score({model}, X, y, cv=3).mean())\n"


@pytest.mark.parametrize("form", sorted(MARKED))
def test_an_expression_is_never_a_piece(form, tmp_path):
    source = marked_source(form, tmp_path / "MARKER")
    findings = lint_bytes("case.py", source.encode(), RULES, CATALOGS).findings
    [finding] = [f for f in findings if f.code == "LL101"]
    result = plan(finding, repeats=1)
    model = result.job.model
    if model is None:
        assert "model" in result.substituted and result.pieces["model"]["from"] == "example"
    else:  # the code's class, without the argument that is not literal syntax
        assert not any(isinstance(v, Opaque) for v in _values(model))
        assert any("is not a literal; the library's default is used" in note for note in result.notes)


def _values(spec):
    for value in spec.args + tuple(v for _, v in spec.kwargs):
        yield value
        if isinstance(value, CallSpec):
            yield from _values(value)


def test_leaklint_audit_never_evaluates_an_argument(tmp_path):
    marker = tmp_path / "MARKER"
    for index, form in enumerate(sorted(MARKED)):
        (tmp_path / f"case{index}.py").write_text(marked_source(form, marker))
    loop = HEAD + textwrap.dedent(f"""\
        size = open({str(marker)!r}, "w") and 0.3
        df = pd.read_csv("d.csv")
        X, y = df.drop(columns="t").values, df["t"].values
        X = SimpleImputer().fit_transform(X)
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=size)
        model = LogisticRegression(C=open({str(marker)!r}, "w") and 1.0).fit(X_tr, y_tr)
        print(accuracy_score(y_te, model.predict(X_te)))
        for tr, te in KFold(n_splits=open({str(marker)!r}, "w") and 3).split(X):
            fold = LogisticRegression(C=open({str(marker)!r}, "w") and 1.0).fit(X[tr], y[tr])
            print(fold.score(X[te], y[te]))
    """)
    (tmp_path / "split_and_loop.py").write_text(loop)
    run = subprocess.run(
        [sys.executable, "-m", "leaklint", "audit", str(tmp_path), "--isolated", "--repeats", "1", "--rows", "60",
         "--features", "5", "--no-progress", "--output-format", "json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )
    assert run.returncode == 1, run.stderr
    report = json.loads(run.stdout)
    assert len(report) == len(MARKED) + 1
    for item in report:
        audit = item["audit"]
        assert audit["pieces"]["model"]["from"] == "example" or any(
            "is not a literal; the library's default is used" in note for note in audit["notes"]), audit
    assert not marker.exists()


# --------------------------------------------------------------- the realistic share
def _from_code(origins) -> bool:
    return origins["model"]["from"] == "code" and origins["step"]["from"] in ("code", "none")


def test_most_realistic_findings_run_the_codes_model_and_step(capsys):
    """Model and step from the code: as screened from the finding (the pieces read), and
    as the worker runs them here (where a missing package, lightgbm or xgboost, or a model
    the rule's procedure cannot run falls back to the example)."""
    run = lint_paths([str(FIXTURES / "realistic"), str(FIXTURES / "real_code")], isolated=True)
    audited = screened = ran = 0
    fallbacks = []
    for finding in run.findings:
        if finding.code not in AUDITED:
            continue
        result = plan(finding, repeats=1)
        try:
            *_, origins = chosen_model(result.job)
        except Unsupported:
            continue  # not audited (the worker reports why)
        audited += 1
        screened += _from_code(result.pieces)
        ran += _from_code(origins)
        if not _from_code(origins):
            fallbacks.append(f"{Path(finding.path).name}:{finding.location.line} {finding.code}")
    with capsys.disabled():
        print(
            f"\nmodel and step from the code: {screened} of {audited} audited findings screened "
            f"({screened / audited:.0%}), {ran} run here ({ran / audited:.0%})"
        )
    assert screened / audited >= 0.80
    # Keras models, models handed in as parameters and steps off the allow-list are the rest.
    assert ran / audited >= 0.80, fallbacks


def test_every_fallback_is_explained_in_one_line():
    run = lint_paths([str(FIXTURES / "realistic"), str(FIXTURES / "real_code")], isolated=True)
    for finding in run.findings:
        if finding.code in AUDITED:
            pieces = plan(finding, repeats=1).pieces
            assert set(pieces) == {"step", "model", "split", "metric", "data"}
            for origin in pieces.values():
                assert origin["from"] in ("code", "example", "none")
                assert origin["from"] == "code" or (origin["reason"] and "\n" not in origin["reason"])
                assert origin["from"] != "code" or set(origin) <= {"from", "line", "cell"}
