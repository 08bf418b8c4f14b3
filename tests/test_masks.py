"""The pre-scan that pairs two subscripts by complementary conditions into a split."""
import ast

from leaklint.analysis.masks import pair_masks


def sides(source: str) -> dict:
    tree = ast.parse(source)
    found = pair_masks(tree)
    return {ast.unparse(node): found[id(node)] for node in ast.walk(tree) if id(node) in found}


def test_date_cutoff_named_parts_pair_earlier_rows_for_training():
    assert sides("train = df[df.date <= cutoff]\nvalid = df[df.date > cutoff]\n") == {
        "df[df.date <= cutoff]": ("df.date <= cutoff / >", "train"),
        "df[df.date > cutoff]": ("df.date <= cutoff / >", "test"),
    }


def test_fold_column_with_a_variable_pairs_through_a_method_chain():
    found = sides("tr = df[df.kfold != fold].reset_index(drop=True)\nva = df[df.kfold == fold].reset_index(drop=True)\n")
    assert sorted(found.values()) == [("df.kfold != fold / ==", "test"), ("df.kfold != fold / ==", "train")]


def test_names_decide_which_part_is_held_out():
    found = sides("X_valid = X[X.year < 2015]\nX_train = X[X.year >= 2015]\n")
    assert found["X[X.year < 2015]"][1] == "test" and found["X[X.year >= 2015]"][1] == "train"


def test_equality_with_a_literal_is_a_class_or_the_competition_rows_not_a_fold():
    assert sides("train = all[all.interest_level != 3]\nvalid = all[all.interest_level == 3]\n") == {}


def test_unnamed_subgroups_and_filters_into_their_own_name_are_not_splits():
    assert sides("south = df[df.region == region]\nrest = df[df.region != region]\n") == {}
    assert sides("df = df[df.price < 100]\ndf_test = df[df.price >= 100]\n") == {}
