"""Every fixture's findings equal its inline ``# error: [...]`` marks, exactly."""
import pytest

from fixture_expectations import FIXTURES, expected, fixture_files
from leaklint.runner import lint_paths

FILES = fixture_files()


def test_fixture_suite_is_substantial():
    leaky = [p for p in FILES if expected(p)]
    clean = [p for p in FILES if not expected(p)]
    assert len(leaky) >= 80 and len(clean) >= 80


# Opt-in rules are checked on their own fixture directory only.
OPT_IN = {"ll303": ("LL303",)}


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FIXTURES)) for p in FILES])
def test_fixture(path):
    extra = OPT_IN.get(path.relative_to(FIXTURES).parts[0])
    run = lint_paths([str(path)], isolated=True, jobs=1, overrides={"extend_select": extra} if extra else None)
    assert not run.internal
    assert not run.errors, [e.message for e in run.errors]
    found = {(f.location.cell, f.location.line, f.code) for f in run.findings}
    assert sorted(found) == sorted(expected(path))
