"""Real code at scale: the installed scikit-learn, pandas and numpy lint without an internal error."""
import importlib.util
import time
from pathlib import Path

import pytest

from leaklint.runner import lint_paths

PACKAGES = ("sklearn", "pandas", "numpy")


def package_roots() -> list:
    roots = []
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            pytest.skip(f"{name} is not installed")
        roots.extend(spec.submodule_search_locations)
    return roots


@pytest.mark.slow
def test_installed_scientific_stack_lints_without_internal_error():
    roots = package_roots()
    start = time.perf_counter()
    # They live under site-packages, which the default excludes skip.
    # They live under site-packages, maybe inside a git-ignored virtualenv of a checkout.
    run = lint_paths(roots, overrides={"exclude": (), "respect_gitignore": False}, isolated=True, jobs=2)
    elapsed = time.perf_counter() - start
    assert run.internal == []
    assert run.files > 2000
    # Library code has no notebooks and no Python 2; what cannot be parsed is a test
    # fixture written to be broken (numpy and pandas ship a few).
    for error in run.errors:
        assert error.code == "LL000" and "\n" not in error.message
        assert "test" in Path(error.path).as_posix(), (error.path, error.message)
    assert elapsed < 240, elapsed
