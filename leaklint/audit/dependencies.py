"""Which optional packages the audit needs, checked without importing them."""
from __future__ import annotations

import importlib.util

# import name -> distribution name, for the packages `leaklint audit` imports itself.
AUDIT_PACKAGES = {
    "numpy": "numpy",
    "scipy": "scipy",
    "sklearn": "scikit-learn",
    "threadpoolctl": "threadpoolctl",
    "tqdm": "tqdm",
}
PLOT_PACKAGES = {"matplotlib": "matplotlib"}


class MissingDependencyError(ImportError):
    """An optional package is needed for what was asked; the message says which."""


def missing_dependencies(plot: bool = False) -> list[str]:
    """Distribution names of the audit's packages that cannot be imported (with ``plot``, matplotlib too)."""
    wanted = {**AUDIT_PACKAGES, **(PLOT_PACKAGES if plot else {})}
    return [package for module, package in wanted.items() if importlib.util.find_spec(module) is None]
