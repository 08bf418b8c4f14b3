"""# noqa on the flagged line or the statement's first line, file-level noqa, in notebooks too."""
import json

import pytest

from leaklint.engine import lint_bytes
from leaklint.ruleset import all_rules
from leaklint.suppress import comment, line_codes

RULES = list(all_rules())
CATALOGS = {r.code: r.catalog for r in RULES}

HEAD = """\
import pandas as pd
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("cells.csv")
X, y = df.drop(columns=["label"]), df["label"]
"""
TAIL = "print(cross_val_score(LogisticRegression(), X, y, cv=5).mean())\n"
SCALE = "X = StandardScaler().fit_transform(X)"
SELECT = "X = SelectKBest(f_classif, k=20).fit_transform(X, y)"


def found(source: str, path="train.py"):
    result = lint_bytes(path, source.encode(), RULES, CATALOGS)
    assert not result.errors and not result.internal
    return [(f.location.cell, f.location.line, f.code) for f in result.findings]


def script(scale_comment="", select_comment=""):
    return HEAD + SCALE + scale_comment + "\n" + SELECT + select_comment + "\n" + TAIL


def test_unsuppressed_baseline():
    assert found(script()) == [(None, 9, "LL101"), (None, 10, "LL102")]


@pytest.mark.parametrize("text", ["  # noqa", "  # noqa:LL101,LL102", "  # noqa: LL102, LL101"])
def test_noqa_on_both_lines(text):
    assert found(script(text, text)) == []


@pytest.mark.parametrize(
    "comment_text, left",
    [
        ("  # noqa", ["LL102"]),
        ("  # NOQA", ["LL102"]),
        ("  #noqa", ["LL102"]),
        ("  # noqa: LL101", ["LL102"]),
        ("  # noqa:LL101", ["LL102"]),
        ("  # noqa:LL101,LL102", ["LL102"]),  # LL102 is reported on the next line
        ("  # noqa: LL101, LL102", ["LL102"]),
        ("  # noqa: LL101 LL102", ["LL102"]),
        ("  # noqa: ll101", ["LL102"]),
        ("  # noqa: LL102", ["LL101", "LL102"]),
        ("  # noqa: E501", ["LL101", "LL102"]),  # another tool's code
        ("  # type: ignore  # noqa: LL101", ["LL102"]),
        ("  # on purpose; noqa: LL101", ["LL101", "LL102"]),  # flake8: the noqa must follow a '#'
    ],
)
def test_noqa_spellings_on_the_flagged_line(comment_text, left):
    assert [code for _, _, code in found(script(scale_comment=comment_text))] == left


def test_noqa_on_the_first_line_of_a_multiline_statement():
    source = HEAD + "X = (  # noqa: LL101\n    StandardScaler()\n    .fit_transform(X)\n)\n" + TAIL
    assert found(source) == []
    source = HEAD + "X = StandardScaler().fit_transform(  # noqa\n    X\n)\n" + TAIL
    assert found(source) == []


def test_noqa_on_a_later_line_of_the_statement_is_not_enough():
    source = HEAD + "X = (\n    StandardScaler()\n    .fit_transform(X)\n)  # noqa\n" + TAIL
    assert [code for _, _, code in found(source)] == ["LL101"]


def test_noqa_inside_a_string_is_not_a_comment():
    source = HEAD + 'X = StandardScaler().fit_transform(X); note = "# noqa"\n' + TAIL
    assert [code for _, _, code in found(source)] == ["LL101"]


@pytest.mark.parametrize("line", ["# leaklint: noqa", "#leaklint:noqa", "  # LEAKLINT: NOQA  "])
def test_file_level_noqa(line):
    assert found(line + "\n" + script()) == []
    assert found(script() + line + "\n") == []


def test_file_level_noqa_must_be_on_its_own_line():
    assert len(found(script(scale_comment="  # leaklint: noqa"))) == 2


@pytest.mark.parametrize("line", ["# leaklint: noqa", "# leaklint: noqa: LL101, LL102"])
def test_file_level_noqa_inside_a_string_literal_silences_nothing(line):
    assert len(found('doc = """\n' + line + '\n"""\n' + script())) == 2
    assert found("\n\n    " + line + "\n" + script()) == []  # after blank lines, indented: still a comment


def test_file_level_noqa_with_codes():
    assert [code for _, _, code in found("# leaklint: noqa: LL101\n" + script())] == ["LL102"]
    assert found("# leaklint: noqa: LL101, LL102\n" + script()) == []


def test_line_codes_and_comment_helpers():
    assert line_codes("x = 1") is None
    assert line_codes("x = 1  # noqa") == set()
    assert line_codes("x = 1  # noqa:LL101,LL102") == {"LL101", "LL102"}
    assert line_codes("s = '# noqa'") is None
    assert comment("s = 'a # b'  # real") == "# real"
    assert comment('s = """#"""') is None


def notebook(*cells):
    return json.dumps({
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# suppressed"]}] + [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c} for c in cells
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    })


def found_nb(*cells):
    result = lint_bytes("nb.ipynb", notebook(*cells).encode(), RULES, CATALOGS)
    assert not result.errors and not result.internal
    return [(f.location.cell, f.location.line, f.code) for f in result.findings]


def test_noqa_in_notebook_cells():
    cells = [HEAD, "%matplotlib inline\n" + SCALE + "  # noqa: LL101\n", SELECT + "\n", TAIL]
    assert found_nb(*cells) == [(4, 1, "LL102")]
    cells = [HEAD, "%matplotlib inline\n" + SCALE + "\n", SELECT + "  # noqa\n", TAIL]
    assert found_nb(*cells) == [(3, 2, "LL101")]


def test_noqa_on_a_timed_line_in_a_notebook():
    assert found_nb(HEAD, "%time " + SCALE + "  # noqa: LL101\n", TAIL) == []


def test_file_level_noqa_in_any_notebook_cell():
    assert found_nb(HEAD, SCALE + "\n", SELECT + "\n", TAIL) == [(3, 1, "LL101"), (4, 1, "LL102")]
    assert found_nb(HEAD, SCALE + "\n", "# leaklint: noqa\n" + SELECT + "\n", TAIL) == []
    assert found_nb("# leaklint: noqa: LL102\n" + HEAD, SCALE + "\n", SELECT + "\n", TAIL) == [(3, 1, "LL101")]
