"""Screening a finding's pieces: what is kept, what is substituted, and why (no worker)."""
from leaklint.analysis.specs import CallSpec, FuncRef, Opaque
from leaklint.audit.allowlist import MODELS, SPLITTERS, STEPS, canonical
from leaklint.audit.pieces import describe, plan
from leaklint.findings import Finding, Location


def finding(code, **procedure):
    return Finding("t.py", code, "name", "error", "message", "help", Location(1, 1, 1, 2), (), procedure)


def call(qualname, *args, **kwargs):
    return CallSpec(qualname, args, tuple(kwargs.items()))


SELECT = call("sklearn.feature_selection.SelectKBest", FuncRef("sklearn.feature_selection.f_classif"), k=20)


def screened(code, **procedure):
    return plan(finding(code, **procedure), repeats=1)


def test_every_listed_name_stands_for_itself():
    # A name listed twice under one package would make one of them unreachable.
    for name in STEPS + MODELS + SPLITTERS:
        assert canonical(name) == name


def test_names_match_by_package_and_class():
    assert canonical("sklearn.preprocessing._data.StandardScaler") == "sklearn.preprocessing.StandardScaler"
    assert canonical("category_encoders.target_encoder.TargetEncoder") == "category_encoders.TargetEncoder"
    assert canonical("sklearnx.preprocessing.StandardScaler") is None
    assert canonical("sklearn.os.system") is None
    assert canonical("sklearn.model_selection.KFold", "step") is None


def test_a_literal_allow_listed_step_is_kept():
    result = screened("LL102", step=SELECT, fit_method="fit_transform", model=call("sklearn.linear_model.LogisticRegression"), cv=5)
    assert result.job.step == SELECT and result.job.cv == 5
    assert result.substituted == []


def test_unsafe_pieces_are_substituted_and_named():
    cases = [
        Opaque("SelectKBest(k=os.system('touch x'))"),
        call("sklearn.feature_selection.SelectKBest", k=call("os.system", "touch x")),
        call("sklearn.feature_selection.SelectKBest", FuncRef("builtins.getattr")),
        call("sklearn.feature_selection.SelectKBest", k=Opaque("().__class__.__bases__[0]")),
        call("builtins.__import__", "os"),
        call("sklearn.__class__.__bases__"),
    ]
    for step in cases:
        result = screened("LL102", step=step, fit_method="fit_transform")
        assert result.job.step is None
        assert "step" in result.substituted
        assert any(note.startswith("step: `") and "not run" in note for note in result.notes)


def test_missing_pieces_are_substituted_too():
    result = screened("LL101")
    assert {"step", "model", "cv", "fit_method"} <= set(result.substituted)
    assert any("not found in the code" in note for note in result.notes)


def test_split_options_are_read_literal_by_literal():
    split = call(
        "sklearn.model_selection.train_test_split", Opaque("X"), Opaque("y"),
        test_size=Opaque("compute()"), random_state=3, stratify=Opaque("y"),
    )
    result = screened("LL301", split=split)
    assert result.job.split == {"stratify": True, "test_size": None, "train_size": None, "shuffle": True, "random_state": 3}
    assert "split.test_size" in result.substituted and "cv" not in result.substituted


def test_scoring_and_statistic():
    metric = FuncRef("sklearn.metrics._ranking.roc_auc_score")
    assert screened("LL102", scoring=metric).job.scoring == "roc_auc"
    assert screened("LL102", scoring="balanced_accuracy").job.scoring == "balanced_accuracy"
    opaque = screened("LL102", scoring=Opaque("make_scorer(f)"))
    assert "scoring" in opaque.substituted
    assert screened("LL105", stat="pandas.DataFrame.median").job.stat == "median"
    unknown = screened("LL105", stat="pandas.DataFrame.kurt")
    assert unknown.job.stat == "mean" and "stat" in unknown.substituted


def test_groupby_mean_form_needs_no_step():
    result = screened("LL103", step=None, form="groupby-mean")
    assert result.job.form == "groupby-mean" and "step" not in result.substituted


def test_describe_reads_like_source():
    assert describe(SELECT) == "SelectKBest(f_classif, k=20)"
    assert describe(Opaque("cv_maker()")) == "cv_maker()"


def test_a_classification_metric_of_a_regression_is_replaced_by_its_default():
    from types import SimpleNamespace

    from leaklint.audit.execute import _metric
    metric, substituted, notes = _metric(SimpleNamespace(code="LL305", scoring="neg_log_loss"), "regression")
    assert (metric, substituted) == ("r2", ["scoring"])
    assert notes == ["scoring: 'neg_log_loss' does not score a regression's predictions; r2 is used"]
    assert _metric(SimpleNamespace(code="LL305", scoring="neg_mean_squared_log_error"), "regression")[:2] == (
        "neg_mean_squared_log_error", [])
    # a classification's labels are numbers too: a regression metric still runs on them
    assert _metric(SimpleNamespace(code="LL101", scoring="neg_mean_squared_error"), "classification")[:2] == (
        "neg_mean_squared_error", [])
