"""LL304: the hyperparameter configurations a search tries, drawn for each model family.

A finding's parameter grid is a dict, which the audit never rebuilds; so a search of the
code's model is audited over configurations drawn from a space of that model's usual
hyperparameters (log-uniform regularisation, tree depths, neighbour counts). Families
without a space here (ensembles, networks) would make a nested search of dozens of
configurations take minutes per seed: the rule's example model is used instead.
"""
from __future__ import annotations

from typing import Callable, Optional

import numpy as np

MAX_NEIGHBOURS = 30
MAX_DEPTH = 12
MAX_LEAF = 20


def _log(rng, low: float, high: float) -> float:
    return float(10.0 ** rng.uniform(low, high))


def _choice(rng, values):
    return values[int(rng.integers(len(values)))]


def _svm(rng, limits):
    return {"C": _log(rng, -2, 3), "gamma": _log(rng, -4, 1)}


def _linear_svm(rng, limits):
    return {"C": _log(rng, -4, 2)}


def _logistic(rng, limits):
    return {"C": _log(rng, -4, 4)}


def _ridge(rng, limits):
    return {"alpha": _log(rng, -3, 5)}


def _lasso(rng, limits):
    return {"alpha": _log(rng, -4, 0)}


def _elastic_net(rng, limits):
    return {"alpha": _log(rng, -4, 0), "l1_ratio": float(rng.uniform(0.0, 1.0))}


def _neighbours(rng, limits):
    top = max(1, min(MAX_NEIGHBOURS, limits["neighbours"]))
    return {
        "n_neighbors": int(rng.integers(1, top + 1)),
        "weights": _choice(rng, ["uniform", "distance"]),
        "p": int(rng.integers(1, 3)),
    }


def _tree(criteria):
    def draw(rng, limits):
        return {
            "max_depth": int(rng.integers(1, MAX_DEPTH + 1)),
            "min_samples_leaf": int(rng.integers(1, MAX_LEAF + 1)),
            "max_features": _choice(rng, [None, "sqrt", 0.5]),
            "criterion": _choice(rng, criteria),
        }

    return draw


def _gaussian_nb(rng, limits):
    return {"var_smoothing": _log(rng, -12, 0)}


def _discrete_nb(rng, limits):
    return {"alpha": _log(rng, -3, 1)}


def _lda(rng, limits):
    return {"solver": "lsqr", "shrinkage": float(rng.uniform(0.0, 1.0))}


def _qda(rng, limits):
    return {"reg_param": float(rng.uniform(0.0, 1.0))}


SPACES: dict[str, Callable] = {
    "SVC": _svm,
    "SVR": _svm,
    "LinearSVC": _linear_svm,
    "LinearSVR": _linear_svm,
    "LogisticRegression": _logistic,
    "Ridge": _ridge,
    "RidgeClassifier": _ridge,
    "Lasso": _lasso,
    "ElasticNet": _elastic_net,
    "KNeighborsClassifier": _neighbours,
    "KNeighborsRegressor": _neighbours,
    "DecisionTreeClassifier": _tree(["gini", "entropy"]),
    "ExtraTreeClassifier": _tree(["gini", "entropy"]),
    "DecisionTreeRegressor": _tree(["squared_error", "absolute_error"]),
    "ExtraTreeRegressor": _tree(["squared_error", "absolute_error"]),
    "GaussianNB": _gaussian_nb,
    "BernoulliNB": _discrete_nb,
    "MultinomialNB": _discrete_nb,
    "ComplementNB": _discrete_nb,
    "LinearDiscriminantAnalysis": _lda,
    "QuadraticDiscriminantAnalysis": _qda,
}


def searched(estimator) -> tuple[str, object]:
    """The estimator whose hyperparameters are searched (a Pipeline's last step) and its prefix."""
    prefix = ""
    while hasattr(estimator, "steps"):
        name, estimator = estimator.steps[-1]
        prefix += f"{name}__"
    return prefix, estimator


def space_of(estimator) -> Optional[Callable]:
    _, final = searched(estimator)
    return SPACES.get(type(final).__name__)


def configurations(estimator, count: int, rng: np.random.Generator, neighbours: int) -> list[dict]:
    """``count`` configurations for ``GridSearchCV``: a list of single-point grids.

    ``neighbours`` bounds ``n_neighbors`` by the smallest training fold of the nested search.
    """
    prefix, _ = searched(estimator)
    draw = space_of(estimator)
    limits = {"neighbours": neighbours}
    return [{prefix + key: [value] for key, value in draw(rng, limits).items()} for _ in range(count)]
