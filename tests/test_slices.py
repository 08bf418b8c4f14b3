"""The pre-scan that pairs ``X[:n]`` / ``X[n:]`` into a split by position."""
import ast

import pytest

from leaklint.analysis.slices import pair_slices


def paired(source: str) -> dict:
    tree = ast.parse(source)
    found = pair_slices(tree)
    return {ast.unparse(node): found[id(node)] for node in ast.walk(tree) if id(node) in found}


def test_a_head_and_a_tail_at_one_bound_pair_into_a_split():
    assert paired("n = int(len(X) * 0.8)\ntrain, test = X[:n], X[n:]\n") == {
        "X[:n]": ("n", "train"), "X[n:]": ("n", "test")}


@pytest.mark.parametrize("bound", ["len(DIFF_FEATURES)", "len(num_cols)", "len(self.feature_names)", "len(columns)"])
def test_a_record_cut_by_the_count_of_a_list_of_column_names_is_no_split(bound):
    assert paired(f"diff = features[:{bound}]\ncontext = features[{bound}:]\n") == {}
