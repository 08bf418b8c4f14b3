"""Synthetic data whose labels carry no signal, shaped for each kind of leaking step.

On such data an honest procedure can only score at chance, so whatever a leaked
procedure scores above it is the leak. Features are drawn before labels so that seed 0
of the selection setup is exactly the seed document's draw.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np
from scipy.signal import lfilter

MISSING_SHARE = 0.1
WORDS_PER_DOCUMENT = 30
ROWS_PER_CATEGORY = 4
LABEL_WINDOW_SHARE = 20  # LL201 classification: the trailing median spans rows / 20
ROWS_PER_ENTITY = 10  # LL203: 100 entities x 10 rows in the default 1,000 rows
ENTITY_ROW_NOISE = 0.5  # LL203: sd of a row's own noise around its entity's features (which have sd 1)
GAP_SHARE = 0.3  # LL202 (bfill, interpolate): the share of a series' readings that are missing


@dataclass
class Dataset:
    X: object
    y: np.ndarray
    rows: int
    features: int
    groups: Optional[np.ndarray] = None  # "entities": each row's entity
    gaps: Optional[np.ndarray] = None  # "walk": the readings missing from the second copy of the series


def make(kind: str, rng: np.random.Generator, rows: int, features: int, task: str,
         positive_share: float = 0.5, classes: int = 2) -> Dataset:
    """``kind`` is one of gaussian, nonnegative, missing, text, categorical, strings, time,
    walk, entities, wine."""
    if kind == "wine":
        return _wine()
    if kind == "time":
        return _time_ordered(rng, rows, features, task)
    if kind == "walk":
        return _walk(rng, rows, task)
    if kind == "entities":
        return _entities(rng, rows, features, task, positive_share)
    if kind == "text":
        X = _documents(rng, rows, features)
    elif kind in ("categorical", "strings"):
        X = rng.integers(0, max(2, rows // ROWS_PER_CATEGORY), size=(rows, features))
        if kind == "strings":
            X = _as_string_frame(X)
    elif kind == "nonnegative":
        X = rng.random((rows, features))
    else:
        X = rng.normal(size=(rows, features))
        if kind == "missing":
            X[rng.random(X.shape) < MISSING_SHARE] = np.nan
    return Dataset(X, _target(rng, rows, task, positive_share, classes), rows, features)


def _target(rng, rows, task, positive_share, classes=2):
    if task == "regression":
        return rng.normal(size=rows)
    if classes > 2:  # balanced: each class as often, in random order
        return rng.permutation(np.arange(rows) % classes)
    positives = int(round(rows * positive_share))
    return rng.permutation(np.repeat([0, 1], [rows - positives, positives]))


def _documents(rng, rows, vocabulary):
    words = rng.integers(0, vocabulary, size=(rows, WORDS_PER_DOCUMENT))
    return np.array([" ".join(f"w{w}" for w in doc) for doc in words], dtype=object)


def _as_string_frame(codes):
    # category_encoders encodes only text columns: integer codes would pass through.
    import pandas as pd

    return pd.DataFrame({f"c{j}": [f"v{v}" for v in codes[:, j]] for j in range(codes.shape[1])})


def _time_ordered(rng, rows, features, task="regression"):
    """Rows in time order: drifting features that together encode time, a smooth target.

    Each feature is a random walk, so nearby rows are close in feature space; the target
    is an AR(1) series independent of the features, with a correlation time of a fifth of
    the series (one test block of a 5-fold split). A shuffled split interpolates between
    neighbouring rows and looks excellent; a time-ordered split must forecast and does no
    better than predicting the training mean.

    For classification the label is whether the target is above its trailing median
    (see ``time_label``): balanced in every stretch of the series, so each time-ordered
    fold holds both classes, and as easy to interpolate and as hard to forecast.
    """
    X = np.cumsum(rng.normal(size=(rows, features)), axis=0) / np.sqrt(rows)
    y = lfilter([1.0], [1.0, -np.exp(-5.0 / rows)], rng.normal(size=rows))
    y = (y - y.mean()) / y.std()
    if task == "classification":
        y = time_label(y)
    return Dataset(X, y, rows, features)


def _walk(rng, rows, task):
    """A random walk of ``rows + 1`` values (``X``) and, for each of its first ``rows``, the
    next move (``y``: its size, or for classification whether it is up).

    The moves are independent, so nothing before a row tells its next move: only a
    feature that reads later values can. ``gaps`` marks the readings missing from a
    second, gappy copy of the series (the look-ahead of a backward fill or an interpolation).
    """
    x = np.concatenate([[0.0], np.cumsum(rng.normal(size=rows))])
    moves = np.diff(x)
    y = (moves > 0).astype(int) if task == "classification" else moves
    return Dataset(x, y, rows, 1, gaps=rng.random(rows + 1) < GAP_SHARE)


def _entities(rng, rows, features, task, positive_share=0.5):
    """Rows of ``rows // ROWS_PER_ENTITY`` entities, each entity's rows together.

    An entity's rows share its random features (plus row noise of sd ``ENTITY_ROW_NOISE``)
    and one random label: a model can recognise an entity it has met, but nothing
    carries over to a new one.
    """
    entities = max(2, rows // ROWS_PER_ENTITY)
    groups = np.arange(rows) * entities // rows
    centres = rng.normal(size=(entities, features))
    X = centres[groups] + ENTITY_ROW_NOISE * rng.normal(size=(rows, features))
    labels = _target(rng, entities, task, positive_share)
    return Dataset(X, labels[groups], rows, features, groups=groups)


def label_window(rows: int) -> int:
    return max(5, rows // LABEL_WINDOW_SHARE)


def time_label(y: np.ndarray) -> np.ndarray:
    """1 where ``y`` is above the median of its ``label_window`` previous values."""
    window = label_window(len(y))
    medians = np.array([np.median(y[max(0, i - window): max(1, i)]) for i in range(len(y))])
    return (y > medians).astype(int)


def _wine():
    from sklearn.datasets import load_wine

    X, y = load_wine(return_X_y=True)
    return Dataset(X, y, *X.shape)
