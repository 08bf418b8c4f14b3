"""Sizing the synthetic data and bounding a seed's cost from the pieces' literal arguments.

These run in the test process (no worker): ``sizing.size`` only builds allow-listed specs.
"""
import numpy as np
import pytest

from leaklint.analysis.specs import CallSpec, FuncRef
from leaklint.audit import sizing
from leaklint.audit.data import make, time_label
from leaklint.audit.parallel import run_seeds
from leaklint.audit.pieces import describe, plan
from leaklint.audit.rebuild import Unsupported
from leaklint.findings import Finding, Location

FIVE_FOLD = sizing.Folds(5, 0.8, 0.2)
SPLIT = sizing.Folds(1, 0.8, 0.2)
LOGISTIC = CallSpec("sklearn.linear_model.LogisticRegression")


def call(qualname, *args, **kwargs):
    return CallSpec(qualname, args, tuple(kwargs.items()))


def sized(code, step, model=LOGISTIC, rows=None, features=None, kind="gaussian", folds=FIVE_FOLD):
    default_rows, default_features = {"LL101": (200, 20), "LL102": (100, 10_000), "LL301": (200, 20)}[code]
    return sizing.size(
        code, step, model, rows=rows or default_rows, features=features or default_features,
        explicit_rows=rows is not None, explicit_features=features is not None, kind=kind, folds=folds,
    )


def test_the_seed_setup_keeps_its_shape():
    # SelectKBest with f_classif is cheap: the seed's 100 x 10,000 stays, so seed 0 is its draw.
    select = call("sklearn.feature_selection.SelectKBest", FuncRef("sklearn.feature_selection.f_classif"), k=20)
    result = sized("LL102", select)
    assert (result.rows, result.features, result.step) == (100, 10_000, select)
    assert result.notes == [] and result.substituted == []


def test_components_size_the_rows_and_features():
    svd = call("sklearn.decomposition.TruncatedSVD", n_components=300, random_state=0)
    result = sized("LL101", svd)
    assert result.features == 600
    assert result.rows * FIVE_FOLD.train_share > 300  # every training fold holds more rows than components
    assert any("600 features" in note and "TruncatedSVD" in note for note in result.notes)
    # LL301 refits PCA on the held-out rows: a fifth of the rows must exceed 30.
    pca = sized("LL301", call("sklearn.decomposition.PCA", n_components=30), folds=SPLIT)
    assert pca.features == 60 and pca.rows * 0.2 > 30


def test_explicit_sizes_are_kept_and_limits_are_stated():
    svd = call("sklearn.decomposition.TruncatedSVD", n_components=300)
    kept = sized("LL101", svd, rows=60, features=40)
    assert (kept.rows, kept.features) == (60, 40)
    with pytest.raises(Unsupported, match="over the audit's limit"):
        sized("LL101", call("sklearn.decomposition.PCA", n_components=50_000))


def test_selected_features_leave_a_choice():
    result = sized("LL301", call("sklearn.feature_selection.SelectKBest", k=50), folds=SPLIT)
    assert result.features == 100


def test_wrapper_selectors_get_fewer_features_and_bounded_rounds():
    rfe = call(
        "sklearn.feature_selection.RFE", estimator=call("sklearn.linear_model.LogisticRegression", max_iter=2000),
        n_features_to_select=12, step=2,
    )
    result = sized("LL102", rfe)
    assert result.features == 200
    assert result.step.kwarg("step") == 0.1 and "step.step" in result.substituted
    assert any("94 elimination rounds" in note for note in result.notes)
    rfecv = sized("LL102", call("sklearn.feature_selection.RFECV", call("sklearn.tree.DecisionTreeClassifier"), step=1, cv=3))
    assert rfecv.features == 50 and rfecv.step.kwarg("step") == 0.2
    assert describe(rfecv.step) == "RFECV(DecisionTreeClassifier(), step=0.2, cv=3)"
    model = sized("LL102", call("sklearn.feature_selection.SelectFromModel", call("sklearn.linear_model.Lasso")))
    assert model.features == 100 and model.substituted == []


def test_sequential_selection_is_bounded():
    sfs = call(
        "sklearn.feature_selection.SequentialFeatureSelector",
        call("sklearn.neighbors.KNeighborsRegressor", n_neighbors=5), n_features_to_select=4,
    )
    result = sized("LL102", sfs)
    assert result.features == 8
    assert result.step.kwarg("cv") == 2 and result.substituted == ["step.cv"]


def test_mutual_information_costs_per_feature():
    select = call("sklearn.feature_selection.SelectKBest", FuncRef("sklearn.feature_selection.mutual_info_classif"), k=8)
    five, ten = sized("LL102", select), sized("LL102", select, folds=sizing.Folds(10, 0.9, 0.1))
    assert ten.features < five.features < 100
    assert any("mutual_info_classif" in note for note in five.notes)


def test_ensembles_are_capped_and_said_so():
    forest = call("sklearn.ensemble.RandomForestClassifier", n_estimators=400, random_state=0)
    result = sized("LL101", call("sklearn.preprocessing.StandardScaler"), model=forest)
    assert result.model == call("sklearn.ensemble.RandomForestClassifier", n_estimators=sizing.MAX_TREES, random_state=0)
    assert result.substituted == ["model.n_estimators"]
    # A default size counts too, and nested estimators are capped.
    boosted = sized("LL101", call("sklearn.preprocessing.StandardScaler"),
                    model=call("sklearn.ensemble.GradientBoostingClassifier"))
    assert boosted.model.kwarg("n_estimators") == sizing.MAX_STAGES
    assert any("its default 100" in note for note in boosted.notes)
    nested = sized("LL102", call("sklearn.feature_selection.SelectFromModel",
                                 call("sklearn.ensemble.ExtraTreesClassifier", n_estimators=500)))
    assert nested.step.args[0].kwarg("n_estimators") == sizing.MAX_TREES and "step.n_estimators" in nested.substituted


def test_a_literal_kernel_width_scales_the_noise():
    kpca = call("sklearn.decomposition.KernelPCA", n_components=2, kernel="rbf", gamma=15)
    result = sized("LL101", kpca)
    assert result.scale == pytest.approx(1 / np.sqrt(2 * 15 * 20))
    assert sized("LL101", call("sklearn.decomposition.KernelPCA", n_components=2)).scale == 1.0


def test_a_literal_variance_threshold_scales_the_noise_around_it():
    """VarianceThreshold(threshold=1.5) keeps no feature of unit-variance noise (the audit
    erred on real code); scaled to its threshold, about half of them pass."""
    from sklearn.feature_selection import VarianceThreshold

    result = sized("LL101", call("sklearn.feature_selection.VarianceThreshold", threshold=1.5))
    assert result.scale == pytest.approx(np.sqrt(1.5))
    noise = np.random.default_rng(0).normal(size=(result.rows, result.features)) * result.scale
    kept = VarianceThreshold(threshold=1.5).fit(noise).get_support().sum()
    assert 0.2 * result.features <= kept <= 0.8 * result.features
    assert sized("LL101", call("sklearn.feature_selection.VarianceThreshold")).scale == 1.0


def test_positional_arguments_become_keywords_when_changed():
    knn = call("sklearn.neighbors.KNeighborsClassifier", 15, weights="distance")
    changed = sizing._with_kwargs(knn, n_neighbors=3)
    assert changed.args == () and dict(changed.kwargs) == {"weights": "distance", "n_neighbors": 3}


def test_neighbours_need_rows_in_each_fit():
    result = sized("LL101", call("sklearn.preprocessing.StandardScaler"),
                   model=call("sklearn.neighbors.KNeighborsClassifier", 300))
    assert result.rows * FIVE_FOLD.train_share > 300


def test_a_wrapper_without_a_model_is_scored_with_its_own_estimator():
    tree = call("sklearn.tree.DecisionTreeClassifier", random_state=0)
    finding = Finding("t.py", "LL102", "", "error", "", "", Location(1, 1, 1, 2), (),
                      {"step": call("sklearn.feature_selection.RFECV", tree, step=1), "fit_method": "fit_transform"})
    screened = plan(finding, repeats=1)
    assert screened.job.model == tree and "model" in screened.substituted
    assert any("the selector's own estimator, `DecisionTreeClassifier(random_state=0)`" in n for n in screened.notes)


def test_time_labels_are_balanced_in_every_stretch():
    data = make("time", np.random.default_rng(0), 500, 5, "classification")
    assert set(np.unique(data.y)) == {0, 1}
    for block in np.array_split(data.y, 6):  # the blocks of TimeSeriesSplit(5)
        assert 0.3 < block.mean() < 0.7
    regression = make("time", np.random.default_rng(0), 500, 5, "regression")
    assert np.array_equal(time_label(regression.y), data.y) and np.array_equal(regression.X, data.X)


def test_seeds_run_in_order_and_a_helper_seed_failure_surfaces():
    def run(repeat):
        if repeat == 3:
            raise ValueError("seed 3 failed")
        return repeat, repeat * 2

    results = run_seeds(5, run)
    assert [next(results) for _ in range(3)] == [(0, 0), (1, 2), (2, 4)]
    with pytest.raises(ValueError, match="seed 3"):
        next(results)
