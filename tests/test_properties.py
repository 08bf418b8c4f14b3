"""Property-based tests: the analysis never raises, and findings are deterministic.

Two generators: hypothesmith's grammar-based programs (valid Python of every shape,
rarely about ML), and programs assembled from templates of ML statements (loads,
fits, splits, cross-validation, folds loops, helpers, branches) over a few shared
names, so the dataflow paths that find leaks are exercised.
"""
import ast
import json
import random
import re
import warnings
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from leaklint import engine, runner
from leaklint.analysis import analyze
from leaklint.ruleset import all_rules

PREFIX = """\
import numpy as np
import pandas as pd
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
df = pd.read_csv("data.csv")
X, y = df.drop(columns=["target"]), df["target"]
"""
# hypothesmith compiles what it generates: its SyntaxWarnings are not ours.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")
SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck))
RULES = list(all_rules())
CATALOGS = {rule.code: rule.catalog for rule in RULES}


def parse_or_skip(source: str) -> ast.Module:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        assume(False)


def outcome(result) -> tuple:
    """Everything a user sees of one file's result, in order."""
    def show(finding):
        loc = finding.location
        related = tuple((r.location.line, r.location.column, r.location.cell, r.message) for r in finding.related)
        return (finding.path, loc.line, loc.column, loc.end_line, loc.end_column, loc.cell, finding.code,
                finding.message, related)

    return tuple(map(show, result.findings)), tuple(map(show, result.errors)), tuple(result.internal)


# --------------------------------------------------------------- hypothesmith
@settings(max_examples=150, **SETTINGS)
@given(hypothesmith.from_grammar())
def test_analysis_never_raises_on_grammar_programs(program):
    analyze(parse_or_skip(program))
    analyze(parse_or_skip(PREFIX + program))


@settings(max_examples=50, **SETTINGS)
@given(hypothesmith.from_node())
def test_lint_never_raises_and_is_deterministic_on_cst_programs(program):
    source = PREFIX + program
    parse_or_skip(source)
    raw = source.encode("utf-8", "surrogatepass")
    first = engine.lint_bytes("gen.py", raw, RULES, CATALOGS)
    second = engine.lint_bytes("gen.py", raw, RULES, CATALOGS)
    assert not first.internal
    assert outcome(first) == outcome(second)


# ------------------------------------------------------- ML statement templates
NAMES = ["df", "X", "y", "Xs", "X_train", "X_test", "y_train", "y_test", "train", "test", "model", "step", "cv"]
SIMPLE = [
    "{a} = pd.read_csv('{a}.csv', parse_dates=['date'])",
    "{a} = {b}.drop(columns=['target'])",
    "{a} = {b}['target']",
    "{a} = StandardScaler().fit_transform({b})",
    "{a} = StandardScaler().fit({b})",
    "{a} = {b}.transform({c})",
    "{a} = SelectKBest(f_classif, k=5).fit_transform({b}, {c})",
    "{a}, {b}, {c}, {d} = train_test_split({e}, {f}, test_size=0.2)",
    "{a}, {b} = train_test_split({c}, shuffle=False)",
    "print(cross_val_score(LogisticRegression(), {a}, {b}, cv=KFold(5, shuffle=True)))",
    "print(cross_val_score(make_pipeline(StandardScaler(), LogisticRegression()), {a}, {b}))",
    "{a} = GridSearchCV(LogisticRegression(), {{'C': [1, 10]}}, cv=5).fit({b}, {c})",
    "{a} = LogisticRegression().fit({b}, {c})",
    "print({a}.score({b}, {c}))",
    "{a} = {b}.predict({c})",
    "{a} = ({b} - {b}.mean()) / {b}.std()",
    "{a} = {b}.fillna({b}.median())",
    "{a} = {b}[:100]",
    "{a} = {b}[100:]",
    "{a} = {b}.iloc[:int(len({b}) * 0.8)]",
    "{a} = {b}.sort_values('date')",
    "{a}['lag'] = {b}['value'].shift(1)",
    "{a}['enc'] = {b}.groupby('cat')['target'].transform('mean')",
    "{a} = np.log1p({b})",
    "{a} = pd.concat([{b}, {c}])",
    "{a} = [{b}, {c}]",
    "{a} = ({b}, {c})",
    "{a}, *{b} = {c}",
    "{a} = {{'k': {b}}}",
    "{a} = {b} if {c} is not None else {d}",
    "{a} = [{b}[i] for i in range(3) if {c}]",
    "{a} = lambda q: {b}",
    "{a} += {b}",
    "{a}.{b} = {c}",
    "{a} = {b}.{c}",
    "del {a}",
    "{a} = helper({b})",
    "{a} = helper({b}, scale=True)",
    "{a}.fit({b}, {c})",
    "{a} = next(iter(KFold(3).split({b})))",
    "global {a}",
    "pass",
]


@st.composite
def statement(draw, depth=0):
    kinds = ["simple"] * 6 + (["if", "for_folds", "for", "while", "with", "try", "def", "match"] if depth < 3 else [])
    kind = draw(st.sampled_from(kinds))
    names = {k: draw(st.sampled_from(NAMES)) for k in "abcdef"}
    if kind == "simple":
        return [draw(st.sampled_from(SIMPLE)).format(**names)]
    body = draw(st.lists(statement(depth + 1), min_size=1, max_size=4))
    inner = ["    " + line for block in body for line in block]
    if kind == "if":
        other = draw(st.lists(statement(depth + 1), min_size=0, max_size=2))
        tail = ["else:"] + ["    " + line for block in other for line in block] if other else []
        return [f"if {names['a']}:"] + inner + tail
    if kind == "for_folds":
        return [f"for {names['a']}, {names['b']} in KFold(5, shuffle=True).split({names['c']}):",
                f"    {names['d']} = {names['c']}.iloc[{names['a']}]"] + inner
    if kind == "for":
        return [f"for i, {names['a']} in enumerate(zip({names['b']}, {names['c']})):"] + inner
    if kind == "while":
        return [f"while {names['a']}:"] + inner + ["    break"]
    if kind == "with":
        return [f"with open('f') as {names['a']}:"] + inner
    if kind == "try":
        return ["try:"] + inner + ["except Exception as err:", "    pass", "finally:", f"    {names['a']} = {names['b']}"]
    if kind == "def":
        return [f"def helper({names['a']}, scale=False, *args, **kw):"] + inner + [f"    return {names['b']}"]
    return [f"match {names['a']}:", "    case [x, *rest]:"] + ["    " + line for line in inner] + ["    case _:", "        pass"]


ml_program = st.lists(statement(), min_size=1, max_size=25).map(
    lambda blocks: PREFIX + "\n".join(line for block in blocks for line in block) + "\n"
)


@settings(max_examples=200, **SETTINGS)
@given(ml_program)
def test_lint_never_raises_and_is_deterministic_on_ml_programs(program):
    parse_or_skip(program)
    raw = program.encode()
    first = engine.lint_bytes("ml.py", raw, RULES, CATALOGS)
    assert not first.internal
    assert all(f.code != engine.PARSE_CODE for f in first.findings)
    assert outcome(first) == outcome(engine.lint_bytes("ml.py", raw, RULES, CATALOGS))


@settings(max_examples=60, **SETTINGS)
@given(st.lists(st.lists(statement(), min_size=1, max_size=4), min_size=1, max_size=6))
def test_notebooks_of_ml_cells(cells):
    sources = [PREFIX] + ["\n".join(line for block in cell for line in block) for cell in cells]
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"language_info": {"name": "python"}},
                "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": s} for s in sources]}
    raw = json.dumps(notebook).encode()
    first = engine.lint_bytes("nb.ipynb", raw, RULES, CATALOGS)
    assert not first.internal
    assert outcome(first) == outcome(engine.lint_bytes("nb.ipynb", raw, RULES, CATALOGS))
    for finding in first.findings:
        assert 1 <= finding.location.cell <= len(sources)


# ------------------------------------------- order of files and --jobs do not matter
@settings(max_examples=12, **SETTINGS)
@given(st.lists(ml_program, min_size=4, max_size=8), st.randoms(use_true_random=False))
def test_order_of_files_and_jobs_do_not_change_the_output(tmp_path_factory, programs, rng):
    root = tmp_path_factory.mktemp("order")
    for index, program in enumerate(programs):
        (root / f"m{index}.py").write_text(program)
    paths = [str(p) for p in sorted(root.glob("*.py"))]
    shuffled = list(paths)
    rng.shuffle(shuffled)

    def run(order, jobs):
        result = runner.lint_paths(order, isolated=True, jobs=jobs)
        return outcome(result)

    serial = run(paths, 1)
    saved = runner.PARALLEL_MIN_BYTES, runner.PARALLEL_MIN_FILES
    runner.PARALLEL_MIN_BYTES, runner.PARALLEL_MIN_FILES = 0, 1  # force the process pool
    try:
        assert run(shuffled, 2) == serial
        assert run(list(reversed(paths)), 3) == serial
    finally:
        runner.PARALLEL_MIN_BYTES, runner.PARALLEL_MIN_FILES = saved
    assert run(shuffled, 1) == serial


# ------------------------------------------------------- the engine's own shortcuts
def _reference_screen(text: bytes) -> bool:
    if engine.SCREEN.search(text) is not None or re.search(rb"best_value", text):
        return True
    fitted = engine.FIT_CALL.search(text) is not None
    watched = re.search(rb"eval_set|validation_data|valid_sets|evals=|eval_X", text) is not None
    if (fitted or re.search(rb"\.train\(", text)) and watched:
        return True
    if not fitted:
        return False
    if engine.HEAD_SLICE.search(text) is not None or re.search(rb"\.score\(|_score\(|_error\(|\.evaluate\(", text):
        return True
    return re.search(rb"\.predict", text) is not None and re.search(
        rb"shift\(-|center=True|bfill|backfill|interpolate\(|merge_asof|\.transform\(\"|\.transform\('", text
    ) is not None


FRAGMENTS = [".score(", ".predict(", ".evaluate(", ".train(", "eval_set", "best_value", "shift(-", ".transform(\"", "bfill", "accuracy_score(", "mean_squared_error(", "_score", "train_test_split", "cross_val", "KFold", "Fold(", "GroupKFold ", "ShuffleSplit", "Split(", "LeaveOneOut",
             "LeavePGroupsOut", "GridSearchCV", "learning_curve", "validation_curve ", "permutation_test_score",
             ".split(X", ".split( df", ".split()", "str.split(','", ".fit(", ".fit_transform(", ".fitted", "[:n]",
             "[0:len", "[ : (", "[:10]", "[:'2020'", ".cv(", "sample(frac", "sample( frac", "validation_split", "split", "Split", "_curve", "Leave", "SearchC", " ", "\n", "x", "(", ")",
             ".", "[", ":", "0", "_", "é", "\x00"]


@settings(max_examples=300, **SETTINGS)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join))
def test_screen_prefilter_matches_the_regexes(text):
    raw = text.encode("utf-8")
    assert engine.may_leak(raw) == _reference_screen(raw)


def _literal_prefix(alternative: bytes) -> bytes:
    """The text every match of a regex alternative starts with (escapes undone)."""
    out = bytearray()
    i = 0
    while i < len(alternative):
        char = alternative[i:i + 1]
        if char == b"\\" and i + 1 < len(alternative) and not alternative[i + 1:i + 2].isalnum():
            out += alternative[i + 1:i + 2]
            i += 2
        elif char.isalnum() or char in (b"_", b" ", b"-"):
            out += char
            i += 1
        else:
            break
    return bytes(out)


def test_every_screen_alternative_contains_a_needle():
    for alternative in engine.SCREEN.pattern.split(b"|"):
        literal = _literal_prefix(alternative)
        assert any(needle in literal for needle in engine._NEEDLES), (alternative, literal)


def _reference_starts(tree) -> dict:
    starts = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not hasattr(node, "body"):
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                starts.setdefault(line, node.lineno)
    return starts


@settings(max_examples=100, **SETTINGS)
@given(st.one_of(hypothesmith.from_grammar(), ml_program))
def test_statement_starts_matches_a_full_walk(program):
    tree = parse_or_skip(program)
    assert engine._statement_starts(tree) == _reference_starts(tree)


def test_statement_starts_on_the_fixtures():
    root = Path(__file__).resolve().parents[1] / "fixtures"
    for path in sorted(root.rglob("*.py")):
        if b"# error: [LL000]" in path.read_bytes():
            continue  # a fixture of lines the parser rejects
        tree = ast.parse(path.read_bytes())
        assert engine._statement_starts(tree) == _reference_starts(tree), path


@pytest.mark.parametrize("seed", range(3))
def test_random_bytes_never_crash(seed):
    rng = random.Random(seed)
    for size in (0, 1, 7, 100, 5000):
        raw = bytes(rng.randrange(256) for _ in range(size)) + b"train_test_split"
        for name in ("r.py", "r.ipynb"):
            result = engine.lint_bytes(name, raw, RULES, CATALOGS)
            assert not result.internal and len(result.errors) <= 1
