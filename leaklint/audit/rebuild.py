"""Turning screened specs into library objects, importing only allow-listed names.

Runs in the worker. Every name is looked up in the allow-list again and imported from
its canonical module; anything that is not a literal, a listed function or a listed
call raises, so a spec that slipped past screening still cannot run.
"""
from __future__ import annotations

import importlib
import inspect

from leaklint.analysis.specs import CallSpec, FuncRef
from leaklint.audit.allowlist import canonical

# Keyword arguments that are dropped before a spec is described or built: they would
# write to disk (memory), read files (input), start processes (n_jobs, thread_count),
# print (CatBoost's verbose and its synonyms), ask for a GPU the audit does not use
# (device, task_type, gpu_id, ...), name the user's own columns (cols), or
# stop boosting early on an evaluation set the audit's fit is not given (XGBoost raises
# without one, CatBoost's use_best_model too); none changes what a leak does to the score.
DROPPED = frozenset({
    "memory", "input", "n_jobs", "thread_count", "cols",
    "verbose", "verbose_eval", "logging_level", "silent", "metric_period",
    "early_stopping_rounds", "early_stopping_round", "use_best_model", "od_type", "od_wait",
    "device", "device_type", "task_type", "gpu_id", "gpu_platform_id", "gpu_device_id", "predictor",
})

PACKAGES = {"imblearn": "imbalanced-learn", "category_encoders": "category-encoders"}


class Unsupported(Exception):
    """A piece needs a package that is not installed, or arguments it does not accept."""


def sanitise(spec):
    if isinstance(spec, CallSpec):
        return CallSpec(
            spec.qualname,
            tuple(sanitise(a) for a in spec.args),
            tuple((k, sanitise(v)) for k, v in spec.kwargs if k not in DROPPED),
        )
    if isinstance(spec, (list, tuple)):
        return type(spec)(sanitise(v) for v in spec)
    return spec


# Settings some libraries' models always get: one thread (their own OpenMP pools beside
# scikit-learn's can deadlock the worker), no output, and no files written (CatBoost
# writes a catboost_info folder into the working directory by default).
LIBRARY_SETTINGS = {
    "lightgbm": {"n_jobs": 1},
    "xgboost": {"n_jobs": 1},
    "catboost": {"thread_count": 1, "logging_level": "Silent", "allow_writing_files": False},
}


def build(spec):
    """The object a sanitised spec describes."""
    if isinstance(spec, CallSpec):
        target = resolve(spec.qualname)
        args, kwargs = [build(a) for a in spec.args], {k: build(v) for k, v in spec.kwargs}
        kwargs.update(LIBRARY_SETTINGS.get(spec.qualname.split(".", 1)[0], {}))
        kwargs = _booleans(target, kwargs)
        try:
            return target(*args, **kwargs)
        except TypeError as exc:  # an argument of another version (SMOTE(ratio=...) in old imblearn)
            name = spec.qualname.rsplit(".", 1)[-1]
            raise Unsupported(f"{name} as written is not accepted by the installed library: {exc}") from exc
    if isinstance(spec, FuncRef):
        return resolve(spec.qualname)
    if isinstance(spec, (list, tuple)):
        return type(spec)(build(v) for v in spec)
    if spec is None or isinstance(spec, (bool, int, float, str)):
        return spec
    raise ValueError(f"refusing to rebuild {spec!r}")


def _booleans(target, kwargs: dict) -> dict:
    """``TfidfVectorizer(smooth_idf=1)``: a 0 or 1 where the parameter is a flag is that
    flag (older scikit-learn took it; today's validation refuses it)."""
    try:
        defaults = {name: p.default for name, p in inspect.signature(target).parameters.items()}
    except (TypeError, ValueError):
        return kwargs
    return {
        key: bool(value) if type(value) is int and value in (0, 1) and isinstance(defaults.get(key), bool) else value
        for key, value in kwargs.items()
    }


def resolve(qualname: str):
    name = canonical(qualname)
    if name is None:
        raise ValueError(f"{qualname} is not on the audit's allow-list")
    module, attribute = name.rsplit(".", 1)
    try:
        return getattr(importlib.import_module(module), attribute)
    except ImportError as exc:
        # category_encoders re-raises a missing optional dependency without its name.
        missing = (exc.name or getattr(exc.__cause__, "name", None) or module).split(".")[0]
        package = PACKAGES.get(missing, missing)
        raise Unsupported(f"{name} needs {package}, which is not installed (pip install {package})") from exc


def seed(obj, value: int):
    """Give every unset ``random_state`` the repeat's seed, so a run can be reproduced."""
    if hasattr(obj, "get_params"):
        unset = {
            key: value
            for key, current in obj.get_params(deep=True).items()
            if (key == "random_state" or key.endswith("__random_state")) and current is None
        }
        obj.set_params(**unset)
    elif getattr(obj, "random_state", 0) is None and getattr(obj, "shuffle", True):
        obj.random_state = value
    return obj
