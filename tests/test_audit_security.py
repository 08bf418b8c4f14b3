"""Nothing from the user's code is ever evaluated or imported by the audit.

Every hostile piece below would create a marker file if it were run; the audit must
substitute it (or fail on it as a plain value) and the marker must never appear.
"""
import pytest

from leaklint.analysis.specs import CallSpec, FuncRef, Opaque
from leaklint.audit import audit_findings
from leaklint.audit.rebuild import build
from leaklint.findings import Finding, Location


def finding(code, **procedure):
    return Finding("evil.py", code, "name", "error", "message", "help", Location(1, 1, 1, 2), (), procedure)


def call(qualname, *args, **kwargs):
    return CallSpec(qualname, args, tuple(kwargs.items()))


def select(**kwargs):
    return call("sklearn.feature_selection.SelectKBest", **kwargs)


@pytest.fixture
def marker(tmp_path):
    return tmp_path / "evaluated"


def hostile_findings(marker):
    shell = f"touch {marker}"
    python = f"__import__('os').system({shell!r})"
    common = {"fit_method": "fit_transform", "cv": 3}
    return [
        finding("LL102", step=Opaque(f"SelectKBest(k=os.system({shell!r}))"), **common),
        finding("LL102", step=select(k=call("os.system", shell)), **common),
        finding("LL102", step=select(k=call("builtins.eval", python)), **common),
        finding("LL102", step=select(score_func=FuncRef("builtins.getattr")), **common),
        finding("LL102", step=select(k=10), model=call("builtins.__import__", "os"), **common),
        finding("LL102", step=select(k=10), model=Opaque("().__class__.__bases__[0].__subclasses__()"), **common),
        # A literal string stays a string: SelectKBest rejects it, nothing runs it.
        finding("LL102", step=select(k=python), **common),
        # A made-up module path with a listed class name is imported from the real module.
        finding("LL101", step=call("sklearn.not_a_module.StandardScaler"), **common),
    ]


def test_hostile_pieces_are_never_evaluated(marker, tmp_path, monkeypatch):
    # The user's directory shadows numpy and sklearn; the worker must not import them.
    for name in ("numpy.py", "sklearn.py", "threadpoolctl.py"):
        (tmp_path / name).write_text(f"import os\nos.system('touch {marker}')\n")
    monkeypatch.chdir(tmp_path)
    findings = hostile_findings(marker)
    results = audit_findings(findings, repeats=1, rows=60, features=40, progress=False)
    assert not marker.exists()
    statuses = [r.status for r in results]
    assert statuses == ["ok"] * 6 + ["error", "ok"]
    for result in results[:4]:
        assert "step" in result.substituted
        assert "SelectKBest(f_classif, k=20)" in result.leaked_procedure  # the rule's example
    for result in results[4:6]:
        assert "model" in result.substituted and "step" not in result.substituted
    assert "k" in results[6].reason
    assert "step" not in results[7].substituted and results[7].leaked_procedure.startswith("StandardScaler()")


def test_rebuild_refuses_what_screening_would_have_dropped(marker):
    for spec in (call("os.system", f"touch {marker}"), Opaque("os.system('x')"), FuncRef("builtins.eval")):
        with pytest.raises(ValueError):
            build(spec)
    assert not marker.exists()
