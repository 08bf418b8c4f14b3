"""The library names the audit will rebuild, and nothing else.

A spec from the user's code is rebuilt only when every name in it is listed here.
A name matches by its top-level package and its last component, so the private path
``sklearn.preprocessing._data.StandardScaler`` is accepted, and the object is always
imported from the canonical path below, never from the path the user's code gave.
"""
from __future__ import annotations

from typing import Optional

from leaklint.analysis.specs import CallSpec, is_safe


def _names(module: str, names: str) -> tuple[str, ...]:
    return tuple(f"{module}.{name}" for name in names.split())


STEPS = (
    _names(
        "sklearn.preprocessing",
        "StandardScaler MinMaxScaler MaxAbsScaler RobustScaler Normalizer QuantileTransformer "
        "PowerTransformer KBinsDiscretizer PolynomialFeatures SplineTransformer Binarizer "
        "TargetEncoder OneHotEncoder OrdinalEncoder",
    )
    + _names("sklearn.impute", "SimpleImputer KNNImputer MissingIndicator")
    + _names(
        "sklearn.decomposition",
        "PCA IncrementalPCA KernelPCA TruncatedSVD FastICA NMF FactorAnalysis "
        "LatentDirichletAllocation SparsePCA MiniBatchSparsePCA",
    )
    + _names(
        "sklearn.feature_extraction.text",
        "CountVectorizer TfidfVectorizer HashingVectorizer TfidfTransformer",
    )
    + _names(
        "sklearn.feature_selection",
        "SelectKBest SelectPercentile GenericUnivariateSelect SelectFpr SelectFdr SelectFwe "
        "VarianceThreshold RFE RFECV SelectFromModel SequentialFeatureSelector",
    )
    + _names("sklearn.random_projection", "GaussianRandomProjection SparseRandomProjection")
    + _names("sklearn.kernel_approximation", "Nystroem RBFSampler")
    # (a clustering's cluster assignments become features; the audit reads its distances)
    + _names("sklearn.cluster", "KMeans MiniBatchKMeans")
    + _names(
        "category_encoders",
        "TargetEncoder LeaveOneOutEncoder CatBoostEncoder MEstimateEncoder "
        "JamesSteinEncoder WOEEncoder GLMMEncoder",
    )
    + _names(
        "imblearn.over_sampling",
        "SMOTE ADASYN RandomOverSampler BorderlineSMOTE SVMSMOTE KMeansSMOTE",
    )
    + _names(
        "imblearn.under_sampling",
        "RandomUnderSampler NearMiss TomekLinks EditedNearestNeighbours "
        "RepeatedEditedNearestNeighbours AllKNN CondensedNearestNeighbour OneSidedSelection "
        "NeighbourhoodCleaningRule InstanceHardnessThreshold ClusterCentroids",
    )
    + _names("imblearn.combine", "SMOTEENN SMOTETomek")
)

MODELS = (
    _names(
        "sklearn.linear_model",
        "LogisticRegression LogisticRegressionCV LinearRegression Ridge RidgeCV RidgeClassifier "
        "RidgeClassifierCV Lasso LassoCV ElasticNet ElasticNetCV SGDClassifier SGDRegressor "
        "Perceptron BayesianRidge HuberRegressor",
    )
    + _names("sklearn.svm", "SVC NuSVC LinearSVC SVR NuSVR LinearSVR")
    + _names(
        "sklearn.neighbors",
        "KNeighborsClassifier KNeighborsRegressor RadiusNeighborsClassifier "
        "RadiusNeighborsRegressor NearestCentroid",
    )
    + _names(
        "sklearn.tree",
        "DecisionTreeClassifier DecisionTreeRegressor ExtraTreeClassifier ExtraTreeRegressor",
    )
    + _names(
        "sklearn.ensemble",
        "RandomForestClassifier RandomForestRegressor ExtraTreesClassifier ExtraTreesRegressor "
        "GradientBoostingClassifier GradientBoostingRegressor HistGradientBoostingClassifier "
        "HistGradientBoostingRegressor AdaBoostClassifier AdaBoostRegressor BaggingClassifier "
        "BaggingRegressor",
    )
    + _names("sklearn.naive_bayes", "GaussianNB MultinomialNB BernoulliNB ComplementNB")
    + _names(
        "sklearn.discriminant_analysis",
        "LinearDiscriminantAnalysis QuadraticDiscriminantAnalysis",
    )
    + _names("sklearn.neural_network", "MLPClassifier MLPRegressor")
    + _names("sklearn.dummy", "DummyClassifier DummyRegressor")
    + _names("sklearn.pipeline", "Pipeline make_pipeline")
    + _names("imblearn.pipeline", "Pipeline make_pipeline")
    # boosting libraries' scikit-learn interfaces (run only where the package is installed)
    + _names("lightgbm", "LGBMClassifier LGBMRegressor")
    + _names("xgboost", "XGBClassifier XGBRegressor")
    + _names("catboost", "CatBoostClassifier CatBoostRegressor")
)

SPLITTERS = _names(
    "sklearn.model_selection",
    "KFold StratifiedKFold RepeatedKFold RepeatedStratifiedKFold ShuffleSplit "
    "StratifiedShuffleSplit TimeSeriesSplit GroupKFold StratifiedGroupKFold GroupShuffleSplit",
)

SPLIT_FUNCTION = "sklearn.model_selection.train_test_split"

SCORE_FUNCTIONS = _names(
    "sklearn.feature_selection",
    "f_classif f_regression chi2 mutual_info_classif mutual_info_regression r_regression",
)

# Metric functions a `scoring=` may name, as the scorer that applies them.
METRIC_SCORERS = {
    "sklearn.metrics.accuracy_score": "accuracy",
    "sklearn.metrics.balanced_accuracy_score": "balanced_accuracy",
    "sklearn.metrics.roc_auc_score": "roc_auc",
    "sklearn.metrics.average_precision_score": "average_precision",
    "sklearn.metrics.f1_score": "f1",
    "sklearn.metrics.precision_score": "precision",
    "sklearn.metrics.recall_score": "recall",
    "sklearn.metrics.log_loss": "neg_log_loss",
    "sklearn.metrics.r2_score": "r2",
    "sklearn.metrics.mean_squared_error": "neg_mean_squared_error",
    "sklearn.metrics.root_mean_squared_error": "neg_root_mean_squared_error",
    "sklearn.metrics.mean_absolute_error": "neg_mean_absolute_error",
}

# Floats with no literal syntax of their own (SimpleImputer(missing_values=np.nan)), and
# numpy's number types (CountVectorizer(dtype=np.int8)).
CONSTANTS = (
    _names("numpy", "nan inf float16 float32 float64 int8 int16 int32 int64 uint8 bool_")
    + _names("math", "nan inf")
)

# Metric functions that report several figures at once; the audit measures their accuracy.
REPORTS = _names("sklearn.metrics", "classification_report confusion_matrix")

ROLES = {
    "step": STEPS,
    "model": MODELS,
    "cv": SPLITTERS,
    "split": (SPLIT_FUNCTION,),
    "step-or-model": STEPS + MODELS,
}

_ALL = STEPS + MODELS + SPLITTERS + (SPLIT_FUNCTION,) + SCORE_FUNCTIONS + tuple(METRIC_SCORERS) + REPORTS + CONSTANTS


def _key(qualname: str) -> tuple[str, str]:
    parts = qualname.split(".")
    return parts[0], parts[-1]


_CANONICAL = {_key(name): name for name in _ALL}


def canonical(qualname: str, role: Optional[str] = None) -> Optional[str]:
    """The listed name ``qualname`` stands for (within ``role`` if given), else None."""
    name = _CANONICAL.get(_key(qualname))
    if name is None or (role is not None and name not in ROLES[role]):
        return None
    return name


def allowed(qualname: str) -> bool:
    return canonical(qualname) is not None


def accepts(spec, role: str) -> bool:
    """True when ``spec`` is a literal call of a listed ``role`` name, all its arguments safe."""
    return (
        isinstance(spec, CallSpec)
        and canonical(spec.qualname, role) is not None
        and is_safe(spec, allowed)
    )
