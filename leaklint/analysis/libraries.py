"""What the analysis knows about library APIs, by qualified name.

Names are compared by their package root and last component, so
``sklearn.preprocessing._data.StandardScaler`` and ``sklearn.preprocessing.StandardScaler``
are the same class (scikit-learn re-exports from private modules).
"""
from __future__ import annotations

import ast


def lib_key(qualname: str) -> tuple:
    parts = qualname.split(".")
    return (parts[0], parts[-1])


def keys(*qualnames: str) -> frozenset:
    return frozenset(lib_key(q) for q in qualnames)


SPLIT_FUNCTIONS = keys("sklearn.model_selection.train_test_split")
# progress bars around an iterable: a loop over tqdm(range(n)) is a loop over range(n)
PROGRESS_BARS = keys("tqdm.tqdm", "tqdm.tqdm_notebook", "tqdm.notebook.tqdm", "tqdm.auto.tqdm")
# trange(n): a progress bar around range(n)
PROGRESS_RANGES = keys("tqdm.trange", "tqdm.tnrange")
# random_split(dataset, lengths): shuffled parts of one dataset, the first for training
DATASET_SPLITS = keys("torch.utils.data.random_split")

# cross-validation functions: position of the estimator, X and y arguments
CV_FUNCTIONS = {
    lib_key("sklearn.model_selection." + name): (0, 1, 2)
    for name in (
        "cross_val_score",
        "cross_validate",
        "cross_val_predict",
        "learning_curve",
        "validation_curve",
        "permutation_test_score",
    )
}

# native boosting libraries: cv(params, data) with the labels inside the data
CV_FUNCTIONS[lib_key("xgboost.cv")] = (None, 1, None)
CV_FUNCTIONS[lib_key("lightgbm.cv")] = (None, 1, None)

SEARCH_CLASSES = keys(
    "sklearn.model_selection.GridSearchCV",
    "sklearn.model_selection.RandomizedSearchCV",
    "sklearn.model_selection.HalvingGridSearchCV",
    "sklearn.model_selection.HalvingRandomSearchCV",
    "sklearn.feature_selection.RFECV",
)

ALWAYS_SHUFFLED_SPLITTERS = keys(
    "sklearn.model_selection.ShuffleSplit",
    "sklearn.model_selection.StratifiedShuffleSplit",
    "sklearn.model_selection.GroupShuffleSplit",
    "sklearn.model_selection.RepeatedKFold",
    "sklearn.model_selection.RepeatedStratifiedKFold",
)
OPTIONALLY_SHUFFLED_SPLITTERS = keys(
    "sklearn.model_selection.KFold",
    "sklearn.model_selection.StratifiedKFold",
    "sklearn.model_selection.GroupKFold",
    "sklearn.model_selection.StratifiedGroupKFold",
)
ORDERED_SPLITTERS = keys(
    "sklearn.model_selection.TimeSeriesSplit",
    "sklearn.model_selection.LeaveOneOut",
    "sklearn.model_selection.LeavePOut",
    "sklearn.model_selection.LeaveOneGroupOut",
    "sklearn.model_selection.LeavePGroupsOut",
    "sklearn.model_selection.PredefinedSplit",
)
SPLITTERS = ALWAYS_SHUFFLED_SPLITTERS | OPTIONALLY_SHUFFLED_SPLITTERS | ORDERED_SPLITTERS
# scikit-learn before 0.18: a splitter built on the rows' count or labels is iterated itself
OLD_SPLITTER_MODULE = "sklearn.cross_validation."

# Composite estimators: fitting one fits its steps within each CV training fold.
PIPELINES = keys(
    "sklearn.pipeline.Pipeline",
    "sklearn.pipeline.make_pipeline",
    "sklearn.pipeline.FeatureUnion",
    "sklearn.pipeline.make_union",
    "sklearn.compose.ColumnTransformer",
    "sklearn.compose.make_column_transformer",
    "sklearn.compose.TransformedTargetRegressor",
    "imblearn.pipeline.Pipeline",
    "imblearn.pipeline.make_pipeline",
)

# Library functions that learn from their input and apply it in one call.
LEARNING_FUNCTIONS = {
    lib_key("sklearn.preprocessing." + name): "call"
    for name in (
        "scale",
        "minmax_scale",
        "robust_scale",
        "maxabs_scale",
        "quantile_transform",
        "power_transform",
    )
}
LEARNING_FUNCTIONS[lib_key("sklearn.utils.resample")] = "resample"
# normalize(X, axis=0) divides each column by its norm over the rows (axis=1, its default,
# each row by its own norm: nothing learned from other rows)
LEARNING_FUNCTIONS[lib_key("sklearn.preprocessing.normalize")] = "call"
# A singular value decomposition by hand: its basis, learned from the rows, projects them (PCA).
for _name in ("numpy.linalg.svd", "scipy.linalg.svd"):
    LEARNING_FUNCTIONS[lib_key(_name)] = "call"
# Their estimator forms: scale(X) learns and applies what StandardScaler().fit_transform(X) does.
FUNCTION_FORMS = {
    "scale": "StandardScaler", "minmax_scale": "MinMaxScaler", "robust_scale": "RobustScaler",
    "maxabs_scale": "MaxAbsScaler", "quantile_transform": "QuantileTransformer", "power_transform": "PowerTransformer",
}
FUNCTION_ONLY_KEYWORDS = frozenset(("X", "axis", "copy"))
# Each column shifted and scaled by a positive factor: what another such step learned
# before it changes its column's location and scale, nothing else.
SHIFT_AND_SCALE_CLASSES = ("StandardScaler", "MinMaxScaler", "MaxAbsScaler", "RobustScaler")
SHIFT_AND_SCALE = keys(*(f"sklearn.preprocessing.{n}" for n in SHIFT_AND_SCALE_CLASSES + tuple(
    function for function, form in FUNCTION_FORMS.items() if form in SHIFT_AND_SCALE_CLASSES)))
# Statistics by hand a column is shifted or scaled by (``(x - x.mean()) / x.std()``, a min-max)
SHIFT_STATISTICS = frozenset(("mean", "std", "min", "max", "median", "var", "quantile", "percentile", "ptp",
                              "amin", "amax", "nanmean", "nanstd", "nanmin", "nanmax", "nanmedian"))
# Each column standardized by its own location and scale, learned by the fit: a shift and a
# scaling of the column learned earlier come out the same. The options that would keep them.
STANDARDIZERS = {
    lib_key("sklearn.preprocessing.StandardScaler"): ("with_mean", "with_std"),
    lib_key("sklearn.preprocessing.MinMaxScaler"): (),
    lib_key("sklearn.preprocessing.RobustScaler"): ("with_centering", "with_scaling"),
}
# Univariate scores of each feature against the label, used to pick columns by hand.
for _name in ("f_classif", "f_regression", "chi2", "mutual_info_classif", "mutual_info_regression", "r_regression"):
    LEARNING_FUNCTIONS[lib_key("sklearn.feature_selection." + _name)] = "selection"
for _name in ("ttest_ind", "mannwhitneyu", "ranksums", "f_oneway", "kruskal", "pearsonr", "spearmanr", "pointbiserialr"):
    LEARNING_FUNCTIONS[lib_key("scipy.stats." + _name)] = "selection"
LEARNING_FUNCTIONS[lib_key("numpy.corrcoef")] = "selection"  # np.corrcoef(X[:, j], y): of two variables only
# Functions that return the columns of their first argument chosen against the label.
LEARNING_FUNCTIONS[lib_key("tsfresh.select_features")] = "selection"
SELECTING_FUNCTIONS = keys("tsfresh.select_features")
# Of those, the ones relating two variables alike (not groups of rows, not a feature to a label by signature).
CORRELATIONS = frozenset(("pearsonr", "spearmanr", "corrcoef"))
# And the ones comparing groups of rows (the label within each value of one feature, or a
# feature within each class): a hypothesis test of one feature, whose printed p-value is
# no sign that columns typed in later were picked by it.
GROUP_TESTS = frozenset(("ttest_ind", "mannwhitneyu", "ranksums", "f_oneway", "kruskal"))
# Functions that compute column statistics and apply them in one call, with the
# position of their axis argument (None: they have none).
STANDARDIZING_FUNCTIONS = {lib_key("scipy.stats.zscore"): 1, lib_key("pandas.qcut"): None,
                           lib_key("scipy.stats.mstats.winsorize"): 4}

NUMPY_STATS = frozenset(
    (
        "mean",
        "nanmean",
        "average",
        "std",
        "nanstd",
        "var",
        "nanvar",
        "median",
        "nanmedian",
        "min",
        "max",
        "amin",
        "amax",
        "nanmin",
        "nanmax",
        "percentile",
        "nanpercentile",
        "quantile",
        "nanquantile",
        "ptp",
    )
)
FRAME_STATS = frozenset(("mean", "median", "std", "var", "min", "max", "mode", "quantile", "nanmean"))
GROUP_AGGREGATES = frozenset(("mean", "median", "sum", "transform", "agg", "aggregate", "apply"))
TIME_METHODS = {
    "shift": "lag features built with .shift()",
    "rolling": "rolling-window features built with .rolling()",
    "diff": "differences built with .diff()",
    "pct_change": "returns built with .pct_change()",
    "expanding": "expanding-window features built with .expanding()",
    "ewm": "exponentially weighted features built with .ewm()",
    "resample": "a time resample with .resample()",
    "asfreq": "a time frequency set with .asfreq()",
    "tz_localize": "time-zone-aware timestamps",
}
WINDOW_METHODS = frozenset(("rolling", "expanding", "ewm", "resample"))
# features built along the rows: they suggest an order but do not show dates (a signal's
# neighbours, a sequence's steps)
FEATURE_TIME_METHODS = frozenset(("shift", "rolling", "diff", "pct_change", "expanding", "ewm"))
# Functions that build a range of dates between two bounds: bounds taken from the data
# (``start=df.date.min()``) span it, they are not applied to any row.
DATE_RANGES = frozenset({lib_key("pandas.date_range"), lib_key("pandas.period_range"), lib_key("pandas.bdate_range")})
# keywords that give a range its bounds, whatever builds it (a holiday calendar's
# ``holidays(start=..., end=...)``)
RANGE_BOUNDS = frozenset({"start", "end", "start_date", "end_date"})
TIME_FUNCTIONS = {
    lib_key("pandas.to_datetime"): "dates parsed with pd.to_datetime",
    lib_key("pandas.date_range"): "a pd.date_range index",
    lib_key("pandas.DatetimeIndex"): "a DatetimeIndex",
    lib_key("pandas.period_range"): "a pd.period_range index",
}

# Packages whose capitalised callables are estimators, splitters and other learned
# objects; elsewhere (pandas, a data package's ``DataReader``, a project's own
# ``DataClient``) a call builds data or an object whose methods return data.
ML_PACKAGES = frozenset(
    (
        "sklearn", "imblearn", "category_encoders", "xgboost", "lightgbm", "catboost", "keras",
        "tensorflow", "umap", "hdbscan", "feature_engine", "mlxtend", "sktime", "skopt", "optuna",
        "tpot", "autosklearn", "pycaret", "gensim", "prophet", "ngboost", "interpret",
    )
)
# Packages whose capitalised callables build data (pd.DataFrame, torch.Tensor).
DATA_ROOTS = frozenset(("pandas", "numpy", "scipy", "polars", "torch", "dask", "math", "statistics"))
# Random generators: their draws are new rows, unrelated to any dataset.
RANDOM_GENERATORS = keys(
    "numpy.random.default_rng", "numpy.random.RandomState", "numpy.random.Generator", "random.Random",
    "torch.Generator",
)
# Settings of where and how a computation runs: no rows of any dataset.
DEVICES = keys("torch.device", "torch.cuda.is_available", "torch.backends.mps.is_available", "torch.get_device")
# Database connections: each query's result is a table of its own, whatever the
# connection was handed before (a frame registered as a view, another query's table).
CONNECTIONS = keys(
    "duckdb.connect", "sqlite3.connect", "sqlalchemy.create_engine", "psycopg2.connect", "pymysql.connect",
)
DATA_CLASSES = keys("xgboost.DMatrix", "lightgbm.Dataset", "catboost.Pool", "optuna.integration.lightgbm.Dataset")
PARTIAL = lib_key("functools.partial")
# train(params, data set): the native boosting APIs' model fit
NATIVE_TRAIN = keys("xgboost.train", "lightgbm.train", "optuna.integration.lightgbm.train")
READER_PREFIX = "read_"
# numpy set operations whose result is a subset of an argument's values (a fold's indices):
# of any argument (an intersection), of the first (a difference)
INTERSECTIONS = keys("numpy.intersect1d")
DIFFERENCES = keys("numpy.setdiff1d")
ARRAY_CONSTRUCTORS = keys("numpy.array", "numpy.asarray")
# Evenly spaced numbers (``np.arange(1, 65)``: a wavelet's scales): a grid, no rows of data
# unless counted from some (``np.arange(len(X))``: positions of rows).
NUMBER_GRIDS = keys("numpy.arange", "numpy.linspace", "numpy.logspace", "numpy.geomspace")
# Tests of a fit's residuals (are they normal, independent, of equal variance): checks of the
# model's assumptions, not measures of its performance.
RESIDUAL_TESTS = keys("scipy.stats.shapiro", "scipy.stats.normaltest", "scipy.stats.jarque_bera", "scipy.stats.anderson",
                      "scipy.stats.probplot", "statsmodels.stats.stattools.durbin_watson",
                      "statsmodels.stats.diagnostic.het_breuschpagan", "statsmodels.stats.diagnostic.acorr_ljungbox")
# Values turned into text for a report or a log (``json.dumps(report)``): no row gets what they hold.
SERIALIZERS = keys("json.dumps", "json.dump", "yaml.dump", "yaml.safe_dump", "pprint.pformat")
FRAME_CONSTRUCTORS = keys("pandas.DataFrame", "pandas.Series")  # their columns= names the columns
# Arrays built from a list of arrays, one per item along a new first axis.
STACKING = ARRAY_CONSTRUCTORS | keys("numpy.stack")
# Loaders whose result, indexed by a string, is a separate stored array (an .npz archive).
ARCHIVE_LOADERS = keys("numpy.load", "scipy.io.loadmat")  # each key an array of its own rows
# Calls that save a value to a file (the position of the path, of the value, or None for
# arrays saved by keyword) and calls that load one back.
# pickle.dump(model, open(path, "wb")) is handed the file opened on the path.
SAVERS = {lib_key("joblib.dump"): (1, 0), lib_key("pickle.dump"): (1, 0), lib_key("dill.dump"): (1, 0),
          lib_key("numpy.save"): (0, 1), lib_key("numpy.savez"): (0, None),
          lib_key("numpy.savez_compressed"): (0, None)}
LOADERS = keys("joblib.load", "pickle.load", "dill.load", "numpy.load")
# Matrix algebra a model fitted by hand is made of (normal equations, a gradient step).
MATRIX_SOLVERS = frozenset(("solve", "lstsq", "inv", "pinv", "dot", "matmul"))
# Methods and functions that write a table, an array or an object to a file: the rows go on
# to other code (``X_test.to_csv("X_test.csv")``).
DATA_WRITERS = frozenset(("to_csv", "to_parquet", "to_pickle", "to_feather", "to_excel", "to_json", "to_hdf",
                          "to_sql", "save", "savez", "savez_compressed", "savetxt", "dump"))

# Methods that learn from data, and what they return.
FIT_METHODS = frozenset(("fit", "fit_transform", "fit_resample", "fit_sample", "fit_predict", "partial_fit"))
RESAMPLE_METHODS = frozenset(("fit_resample", "fit_sample"))
# fits that return the rows they learned from, transformed
OUTPUT_FIT_METHODS = FIT_METHODS - {"fit", "partial_fit"}
# list.append(x) and friends: the list now holds what x holds.
COLLECTING_METHODS = frozenset(("append", "extend", "insert"))
PREDICT_METHODS = frozenset(("predict", "predict_proba", "predict_log_proba", "decision_function",
                             "staged_predict", "staged_predict_proba", "staged_decision_function"))
SCORE_METHODS = frozenset(("score", "evaluate"))
APPLY_METHODS = frozenset(("transform", "inverse_transform", "score_samples", "apply", "kneighbors"))
# Picking the best of several scores.
CHOOSING_BUILTINS = frozenset(("max", "min", "sorted"))
CHOOSING_FUNCTIONS = frozenset(("argmax", "argmin", "nanargmax", "nanargmin", "argsort"))
CHOOSING_METHODS = frozenset(("idxmax", "idxmin", "argmax", "argmin", "sort_values", "nlargest", "nsmallest", "sort"))
ORDERING = (ast.Gt, ast.GtE, ast.Lt, ast.LtE)

# Keyword arguments of data methods that are settings, not values mixed into the rows.
SETTING_KEYWORDS = frozenset(("n", "frac", "random_state", "replace", "axis", "periods", "window", "min_periods"))

# A search's cross-validated scores: read, they report what its folds measured.
SEARCH_SCORES = frozenset(("best_score_", "cv_results_", "grid_scores_"))
# Frame methods that keep the rows in their order (a shuffle stays a shuffle).
ORDER_KEEPING = frozenset(("reset_index", "copy", "drop", "dropna", "rename", "astype", "fillna", "replace", "to_numpy"))
# Frame methods after which a frame with no missing value still has none.
GAP_KEEPING = ORDER_KEEPING | frozenset(("as_matrix", "head", "tail", "sample", "sort_values", "sort_index", "select_dtypes",
                                         "round", "abs", "clip", "set_index", "drop_duplicates", "query", "filter"))
# numpy's random draws (np.random.normal, a generator's rng.normal).
RANDOM_DRAWS = frozenset(("normal", "standard_normal", "randn", "rand", "random", "random_sample", "uniform",
                          "laplace", "lognormal", "exponential"))
# An optuna study's trial scores, read back (``best_params`` only chooses settings).
STUDY_SCORES = frozenset(("best_value", "best_trial", "best_trials", "trials", "trials_dataframe", "get_trials"))
# What a fitted selector shows a person reading it: scores that choose columns.
SCORE_ATTRIBUTES = frozenset(("scores_", "pvalues_", "ranking_", "support_", "get_support", "get_feature_names_out"))
# A supervised model's per-feature weights: columns chosen by them are chosen with the labels.
IMPORTANCE_ATTRIBUTES = frozenset(("feature_importances_", "coef_", "get_feature_importance", "feature_importance"))

# Frame attributes that are metadata, not rows.
METADATA_ATTRIBUTES = frozenset(("columns", "shape", "dtypes", "dtype", "ndim", "size", "name", "names"))
VIEW_ATTRIBUTES = frozenset(("values", "T", "array", "index", "dt", "str", "cat", "iloc", "loc", "at", "iat", "plot"))
VIEW_METHODS = frozenset(("to_numpy", "astype", "copy", "reshape", "ravel", "flatten", "squeeze", "tolist", "to_frame", "to_list"))
INPLACE_METHODS = frozenset(
    ("fillna", "drop", "dropna", "replace", "sort_values", "sort_index", "set_index", "reset_index", "rename", "clip", "interpolate", "where", "mask")
)

# Splitters that keep each group (entity) on one side: given ``groups``, no entity leaks.
GROUP_SPLITTERS = keys(
    "sklearn.model_selection.GroupKFold",
    "sklearn.model_selection.GroupShuffleSplit",
    "sklearn.model_selection.StratifiedGroupKFold",
    "sklearn.model_selection.LeaveOneGroupOut",
    "sklearn.model_selection.LeavePGroupsOut",
)

# Keyword arguments of a fit that hand it rows to watch while it trains.
EVAL_KEYWORDS = ("eval_set", "validation_data", "evals", "valid_sets", "eval_X")
# Callbacks that keep the epoch that scored best on the watched rows, with the keyword
# that must be true for them to do so.
# clusterings: their assignment of rows, used as labels, defines the task rather than leaking
CLUSTERERS = keys(
    "sklearn.cluster.KMeans", "sklearn.cluster.MiniBatchKMeans", "sklearn.cluster.DBSCAN", "sklearn.cluster.HDBSCAN",
    "sklearn.cluster.AgglomerativeClustering", "sklearn.cluster.SpectralClustering", "sklearn.cluster.Birch",
    "sklearn.cluster.MeanShift", "sklearn.cluster.OPTICS", "sklearn.cluster.AffinityPropagation",
    "sklearn.mixture.GaussianMixture", "sklearn.mixture.BayesianGaussianMixture",
)
BEST_KEEPING_CALLBACKS = {
    ("keras", "EarlyStopping"): "restore_best_weights",
    ("tensorflow", "EarlyStopping"): "restore_best_weights",
    ("keras", "ModelCheckpoint"): "save_best_only",
    ("tensorflow", "ModelCheckpoint"): "save_best_only",
}
# Reloading a saved model (the best epoch a ModelCheckpoint kept).
CHECKPOINT_LOADERS = keys("keras.models.load_model", "tensorflow.keras.models.load_model", "keras.saving.load_model")
# Early stopping of the boosting libraries: the model keeps its best iteration on the
# watched rows (predict uses ``best_iteration``).
EARLY_STOPPING_CALLBACKS = keys("lightgbm.early_stopping", "xgboost.callback.EarlyStopping")

# Optuna: a study optimises an objective; its best value is the best score of many trials.
STUDY_FACTORIES = keys("optuna.create_study")
STUDY = "optuna.study.Study"
TRIAL = "optuna.trial.FrozenTrial"

# Where a result is shown or kept: a score that reaches one is reported.
REPORT_FUNCTIONS = frozenset(("print", "display", "pprint"))
REPORT_METHODS = frozenset(
    (
        "info", "debug", "warning", "write", "log", "log_metric", "log_metrics", "append", "extend",
        "add_scalar", "writerow", "set_postfix", "log_dict",
    )
)
# Sums and averages (``np.mean((y - pred) ** 2)``, ``errors.abs().mean()``): what makes
# errors by hand a score.
SUMMARIES = frozenset(("mean", "sum", "median", "average", "std", "var", "max", "min", "nanmean", "nansum",
                       "nanmedian", "norm", "describe", "count_nonzero", "all", "any", "fsum", "fmean"))
# Fields of dates (``pd.DatetimeIndex(df.valid).month``): numbers of the calendar, not dates.
CALENDAR_FIELDS = frozenset((
    "year", "month", "day", "hour", "minute", "second", "microsecond", "nanosecond", "dayofweek", "day_of_week",
    "weekday", "dayofyear", "day_of_year", "quarter", "week", "weekofyear", "days_in_month", "daysinmonth",
    "is_month_start", "is_month_end", "is_quarter_start", "is_quarter_end", "is_year_start", "is_year_end",
    "is_leap_year",
))
# ``.dt`` attributes that are still dates (``.dt.date``); the others are calendar fields.
DATE_KEEPING = frozenset(("date", "normalize", "tz", "freq", "to_period", "floor", "ceil", "round", "tz_localize", "tz_convert"))
# Group methods that give each row a value of its own group (not one row per group).
PER_ROW_GROUP_METHODS = frozenset(
    ("transform", "shift", "diff", "cumcount", "cumsum", "cummax", "cummin", "rank", "rolling", "expanding", "ffill", "bfill", "pct_change")
)
# Look-ahead operations: they read rows after each row.
BACKWARD_FILLS = frozenset(("bfill", "backfill"))
FORWARD_FILL_METHODS = frozenset(("pad", "ffill"))

# Calls that put their inputs' columns side by side when given ``axis=1``: the rows are
# the first input's.
SIDE_BY_SIDE = frozenset({("pandas", "concat")})
CONCATENATORS = keys("pandas.concat", "numpy.concatenate", "numpy.vstack", "numpy.row_stack")


def short(qualname: str) -> str:
    """The class or function a message names: ``StandardScaler``; a library's training
    function keeps its library (``lightgbm.train``), "train" alone names nothing."""
    name = qualname.rsplit(".", 1)[-1].replace("|", " or ")
    return f"{qualname.split('.')[0]}.train" if name == "train" and "." in qualname else name
