"""## What it does
Flags an unsupervised learned preprocessing step (a scaler, an imputer, PCA and other
decompositions, a discretizer, a power or quantile transform, a TF-IDF or count
vectorizer, a clustering or embedding whose output becomes a feature) that is fitted on
rows which are later split or cross-validated; also a decomposition by hand
(`np.linalg.svd(X)`, whose basis then projects the rows).

A scaler that only shifts and scales each column (StandardScaler, MinMaxScaler,
MaxAbsScaler, RobustScaler) is not reported when its output is standardized again by a
StandardScaler, MinMaxScaler or RobustScaler fitted on the training rows before any
model sees it: `a * x + b` standardized is `x` standardized, so nothing the held-out rows
taught the first scaler is left.

A search whose cross-validated scores nothing reads (`search.best_params_` only, or an
optuna objective's folds with only `study.best_params` read) only chooses settings, and
out-of-fold predictions no metric reads (`cross_val_predict` kept as stacking features)
score nothing: a step fitted on the rows they fold is not reported for them. Likewise
the fifth of the rows Keras holds out for `validation_split=0.2` does not count when its
scores are never shown (`verbose=0`, and no `history.history["val_loss"]` is read): a part
that only stops training (`EarlyStopping(monitor="val_loss")`) reports nothing. Nor does
it in a function nothing in the file calls, fitting its own parameters: those are the rows
a caller would give it, its training rows.

Severity: warning. The step learns no labels: fitted on all rows, it only lets the
held-out rows nudge a mean, a spread or a fill value, which rarely moves a score
(`leaklint audit` measures no gap for the rule's example on noise, accuracy 0.52
against 0.51, nor on the wine data below). Fix it all the same: a step that learns much
from few rows (a vocabulary, PCA of wide data) can matter more.

## Why is this bad?
The means, spreads, components or vocabulary the step learns are part of the fitted
procedure. When they are computed on all rows, the held-out rows helped fit the model
that is then judged on them, so the validation score no longer estimates performance
on new data. An unsupervised step does not read the labels and usually inflates the
score far less than supervised selection or target encoding (on the wine data,
scaling before 5-NN cross-validation gives the same 0.961 as scaling inside the
folds), but the estimate is no longer clean, and the effect grows with fewer rows.

## Example
```python
from sklearn.datasets import load_wine
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import StandardScaler

X, y = load_wine(return_X_y=True)
X_scaled = StandardScaler().fit_transform(X)
print(cross_val_score(KNeighborsClassifier(5), X_scaled, y, cv=5).mean())
```

## Use instead
```python
from sklearn.datasets import load_wine
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X, y = load_wine(return_X_y=True)
model = make_pipeline(StandardScaler(), KNeighborsClassifier(5))
print(cross_val_score(model, X, y, cv=5).mean())
```

## Fix safety
- A step fitted inside the cross-validation's own arguments
  (`cross_val_score(model, scaler.fit_transform(X), y)`): `make_pipeline(scaler, model)`
  is handed `X`. Safe, unless later code reads what the step learned there (unsafe).
- Cross-validated (or searched) rows: the step and the model become one
  `make_pipeline(StandardScaler(), model)` handed the raw rows, in every
  cross-validation that read the step's output; the unused intermediate goes. Safe.
  With a search it is unsafe: the grid's names gain the model's prefix (`svc__C`), so
  `best_params_` and `best_estimator_` change for later code. Also unsafe when the
  cross-validated rows are the step's output put in a frame (`pd.DataFrame(scaler.
  fit_transform(X), columns=X.columns)`, at once or through a name): the model is then
  handed the step's array. In a fold loop the output is put in the same frame again.
- Rows split by `train_test_split`: the split comes first, the step is fitted on the
  training side and transforms both. Safe, unless the step's output overwrote its input
  (`X = scaler.fit_transform(X)`) and later code reads it (unsafe: that code now sees
  raw rows).
- Where the code between cannot be reordered (the output wrapped in a DataFrame,
  displayed, read again), the step is fitted on the rows the later split trains on,
  drawn there by the same `train_test_split` call, and transforms all rows; this also
  covers a column assignment (`df[cols] = scaler.fit_transform(df[cols])`). Unsafe: it
  assumes no row is dropped, added or reordered before the split (the code in between is
  checked for the usual ways). An unseeded split gets `random_state=0`, so that both
  draws pick the same rows; `stratify=y` with `y = df["label"]` bound later is read as
  `df["label"]` where the rows are drawn (no fix if that column changes in between); a
  later split of the training side (a validation part) stays clean. Only the statements
  the split's rows come from are checked: a test table read or filtered on the way does
  not block the fix.
- A step fitted after the split on the table the parts came from and then applied to a
  training part the same way (`scaler.fit(df["price"].values.reshape(-1, 1))`, then
  `scaler.transform(X_train["price"].values.reshape(-1, 1))`) is fitted on that part,
  as the split last bound it. Unsafe: the part may lack rows or columns of the table.
- Rows split into folds by a loop over `kf.split(...)`: at the top of the loop the step
  is fitted on the fold's training rows (`X.iloc[tr]` for a table, `X[tr]` for an array,
  as the code that made `X` shows; no fix when it does not) and transforms all rows;
  `kf.split` gets the raw rows (the same folds). When only the loop read the all-rows
  fit, it moves into the loop; otherwise it stays for the code that reads it, and the
  loop reads a fitted copy (`clone(scaler)`) under new names, with what the step
  transformed in between (`test_s = scaler.transform(test)`) transformed again. Safe:
  code outside the loop runs as before.
- A step fitted in a statement of its own (`scaler.fit(X)`, or
  `scaler = StandardScaler().fit(X)`) and transformed in the next one that reads it
  (`X_s = scaler.transform(X)`) is fixed as `X_s = scaler.fit_transform(X)` would be;
  the all-rows fit stays for what later code reads of it.
- Rows split by position (`train = scaled[:n]`): the step learns from the training
  slice, `scaler.fit(data[:n]).transform(data)`, and transforms all rows. A bound computed
  after the step (`n = int(len(scaled) * 0.8)`) moves before it, the output read by its
  length becoming the input. Safe: every later line runs unchanged. No fix when the bound
  reads the output's values or its old value is read in between, or when what is sliced
  is not the output itself (windows built from it).
- Rows evaluated in several of these ways (cross-validated, looped over folds, split
  once or more by `train_test_split`): each evaluation is corrected as above, and the fit
  on all rows stays for any other code that reads it. A split of a training side stays
  clean. Unsafe when one of the corrections is; no fix when the output overwrote its
  input or another correction has none.
No fix for a step inside a helper, or inputs that change between. `--fix` stops at the
last fix after which no rule has more findings than before: a fix that brings a hidden
leak to light is kept only when a later fix removes that leak too.

## Known limitations
Only fits whose data flows, in this file, into a later split, cross-validation or
the sides of a split are reported. A fit on the training side followed by a
cross-validation of that same training side is reported only when no model is scored on
the held-out side (or on parts cut from it): then the cross-validated score is the
result; otherwise it only tuned, and the outer test set stays clean. Vocabulary-only
encoders (OneHotEncoder, OrdinalEncoder, LabelEncoder), stateless transformers
(Normalizer, PolynomialFeatures, `SimpleImputer(strategy="constant")`, `normalize` by
rows, its default) and random projections (which read only the number of columns) are
not reported; `normalize(X, axis=0)` divides each column by its norm over the rows and
is. A clustering
fitted on all rows whose assignment becomes the labels (customer segments a classifier
then learns to reproduce), and the steps that fed it, define the task: they are not
reported through those labels. A `train_test_split(X, y)` whose held-out labels
no code reads, and on whose held-out rows nothing is scored (they are only predicted, for
a submission or a printout), evaluates nothing and is not reported; in a script this
holds only when no module-level name still holds those labels at the end. Parts a
helper returns to its caller in the file count as read only where the caller reads them.
A scaler that shifts and scales each column (StandardScaler, MinMaxScaler, MaxAbsScaler,
RobustScaler) whose output only tree models learn from (a decision tree, a forest,
extra trees, gradient boosting, XGBoost, LightGBM, CatBoost) is not reported: a tree
splits each column between its values, so the rescaled columns give the same partition
of the rows and the same predictions, and the held-out rows' statistics change nothing
scored. (Least squares, whose predictions no per-column shift and scale moves either, stays
reported: the procedure is still wrong, and a penalty or a dropped intercept would see it.)
An imputer fitted on rows with no gap left (after `dropna()`, `fillna(0)` or
`replace(np.nan, 0)` of the whole frame) fills nothing and is not reported.
Scaling the labels is still reported.

## References
- Hastie, Tibshirani, Friedman, The Elements of Statistical Learning, 7.10.2.
- scikit-learn, Common pitfalls: https://scikit-learn.org/stable/common_pitfalls.html
"""

from leaklint.analysis.libraries import SHIFT_AND_SCALE_CLASSES
from leaklint.ruleset import UNKNOWN_CLASS, learned_before_split, only_trees_learn, split_clause, step_name

CODE = "LL101"
NAME = "preprocessing-before-split"
SUMMARY = "an unsupervised learned step is fitted on rows that are later split or cross-validated"
HELP = "fit the step on the training rows only: put it and the model in one Pipeline and cross-validate or fit the Pipeline"
DEFAULT = True
SEVERITY = "warning"
_PRE = "sklearn.preprocessing."
HAND_DECOMPOSITIONS = ("numpy.linalg.svd", "scipy.linalg.svd")
CATALOG = (
    _PRE + "StandardScaler",
    _PRE + "Imputer",  # removed in scikit-learn 0.22, still in old code
    _PRE + "MinMaxScaler",
    _PRE + "RobustScaler",
    _PRE + "MaxAbsScaler",
    _PRE + "QuantileTransformer",
    _PRE + "PowerTransformer",
    _PRE + "KBinsDiscretizer",
    _PRE + "SplineTransformer",
    _PRE + "scale",
    _PRE + "minmax_scale",
    _PRE + "robust_scale",
    _PRE + "maxabs_scale",
    _PRE + "quantile_transform",
    _PRE + "power_transform",
    _PRE + "normalize",  # with axis=0 only: each column divided by its norm over the rows
    "sklearn.impute.SimpleImputer",
    "sklearn.impute.KNNImputer",
    "sklearn.impute.IterativeImputer",
    "sklearn.decomposition.PCA",
    "sklearn.decomposition.IncrementalPCA",
    "sklearn.decomposition.TruncatedSVD",
    "sklearn.decomposition.FastICA",
    "sklearn.decomposition.NMF",
    "sklearn.decomposition.KernelPCA",
    "sklearn.decomposition.FactorAnalysis",
    "sklearn.feature_extraction.text.TfidfVectorizer",
    "sklearn.feature_extraction.text.CountVectorizer",
    "sklearn.feature_extraction.text.TfidfTransformer",
    "sklearn.feature_selection.VarianceThreshold",
    "sklearn.manifold.Isomap",
    "sklearn.manifold.TSNE",
    "sklearn.cluster.KMeans",
    "sklearn.cluster.MiniBatchKMeans",
    "sklearn.cluster.DBSCAN",
    "sklearn.cluster.AgglomerativeClustering",
    "sklearn.mixture.GaussianMixture",
    "umap.UMAP",
    *HAND_DECOMPOSITIONS,
)


def _only_labels(event, facts) -> bool:
    """What the step made is a model's labels (``y = encoder.fit_transform(y)`` of an object
    the file does not show: a label encoder) and never the features of any model the file
    fits (with no model in sight, the features may be elsewhere)."""
    return event.id in facts.label_learned and bool(facts.trainings) and not any(
        event.id in t.features for t in facts.trainings)


def check(ctx):
    def matches(event):
        if event.unknown:
            return event.kind == "fit" and event.method == "fit_transform" and not event.has_labels \
                and not _only_labels(event, ctx.facts)
        return event.kind in ("fit", "call") and not _learns_nothing(event) and not _unseen_by_trees(event, ctx.facts) and (
            event.qualname in ctx.catalog or any(step in ctx.catalog for step in event.steps)
        )

    def explain(event, split):
        if event.unknown:
            return (
                f"{event.qualname}.fit_transform learns from {event.data} ({event.rows_phrase}) "
                f"{split_clause(event, split, ctx)}{UNKNOWN_CLASS}"
            )
        step = step_name(event, ctx.catalog)
        if event.qualname in HAND_DECOMPOSITIONS:
            return (
                f"the {step} of {event.data} ({event.rows_phrase}), a decomposition by hand whose basis projects "
                f"the rows, is computed {split_clause(event, split, ctx)}; the held-out rows helped "
                "compute the basis (an unsupervised step usually inflates the score less than a supervised one, "
                "but the estimate is not clean)"
            )
        return (
            f"{step} is fitted on {event.data} ({event.rows_phrase}) {split_clause(event, split, ctx)}; "
            "the held-out rows helped compute what it learned (an unsupervised step usually "
            "inflates the score less than a supervised one, but the estimate is not clean)"
        )

    return learned_before_split(ctx, matches, explain, resplit=True)


def _unseen_by_trees(event, facts) -> bool:
    """A per-column shift and scale whose output only tree models learn from: they split
    each column between its values, so they learn and predict the same from it."""
    if event.qualname.rsplit(".", 1)[-1] not in SHIFT_AND_SCALE_CLASSES or event.id in facts.label_learned:
        return False
    return only_trees_learn(event.id, facts)


def _learns_nothing(event) -> bool:
    """``SimpleImputer(strategy="constant")`` fills the value the code gives: it learns
    nothing from the rows it is fitted on; nor does any imputer fitted on rows with no gap
    left (``df.dropna()`` or ``df.fillna(0)`` before): it has nothing to fill. Nor does
    ``TfidfTransformer(use_idf=False)`` (it scales each row by its own norm), and
    ``VarianceThreshold()`` keeps every column that varies at all: one it would drop, fitted
    on the training rows alone, is constant there and teaches a model nothing."""
    spec = event.procedure.get("step")
    if event.complete and event.qualname.rsplit(".", 1)[-1] in IMPUTERS:
        return True
    if not hasattr(spec, "kwarg"):
        return False
    if event.qualname.endswith(".TfidfTransformer"):
        return spec.kwarg("use_idf", True) is False
    if event.qualname.endswith(".VarianceThreshold"):
        threshold = spec.kwarg("threshold", 0.0) if not spec.args else spec.args[0]
        return isinstance(threshold, (int, float)) and not isinstance(threshold, bool) and threshold == 0
    return event.qualname.endswith(".SimpleImputer") and spec.kwarg("strategy") == "constant"


IMPUTERS = frozenset(("SimpleImputer", "Imputer", "KNNImputer", "IterativeImputer"))
