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


def test_equality_with_text_or_a_marker_the_file_sets_is_the_competition_rows_not_a_fold():
    assert sides("train = all[all.source != 'test']\nvalid = all[all.source == 'test']\n") == {}
    assert sides("test_raw['interest_level'] = 3\n"
                 "train = all[all.interest_level != 3]\nvalid = all[all.interest_level == 3]\n") == {}


def test_equality_with_a_number_is_a_part_held_out():
    found = sides("df_val = df[df.saleYear == 2012]\ndf_train = df[df.saleYear != 2012]\n")
    assert found == {"df[df.saleYear == 2012]": ("df.saleYear != 2012 / ==", "test"),
                     "df[df.saleYear != 2012]": ("df.saleYear != 2012 / ==", "train")}


def test_unnamed_subgroups_and_filters_into_their_own_name_are_not_splits():
    assert sides("south = df[df.region == region]\nrest = df[df.region != region]\n") == {}
    assert sides("df = df[df.price < 100]\ndf_test = df[df.price >= 100]\n") == {}


def test_parts_below_and_above_two_cutoffs_with_a_gap_pair():
    source = (
        "end = pd.to_datetime('2024-03-31')\nstart = pd.to_datetime('2024-04-01')\n"
        "df_train = df[df['Date'] <= end]\ndf_test = df[df['Date'] >= start]\n"
    )
    assert sides(source) == {
        "df[df['Date'] <= end]": ("df['Date'] <= end / >= start", "train"),
        "df[df['Date'] >= start]": ("df['Date'] <= end / >= start", "test"),
    }


def test_parts_whose_cutoffs_overlap_or_are_not_known_do_not_pair():
    assert sides("train = df[df.year <= 2018]\ntest = df[df.year >= 2015]\n") == {}  # 2015-2018 in both
    assert sides("train = df[df.year <= 2018]\ntest = df[df.year > 2018]\nold = df[df.year < 2000]\n") == {
        "df[df.year <= 2018]": ("df.year <= 2018 / >", "train"),
        "df[df.year > 2018]": ("df.year <= 2018 / >", "test"),
    }
    assert sides("def f(a, b):\n    train = df[df.t <= a]\n    test = df[df.t >= b]\n") == {}


def test_a_selection_by_a_named_mask_of_the_same_cutoff_is_that_side():
    source = (
        "train_mask = df['Date'] <= pd.to_datetime('2024-03-31')\n"
        "df['x'] = df['x'].fillna(df.loc[train_mask, 'x'].mean())\n"
        "end = '2024-03-31'\nstart = '2024-04-01'\n"
        "df_train = df[df['Date'] <= end]\ndf_test = df[df['Date'] >= start]\n"
    )
    assert sides(source)["df.loc[train_mask, 'x']"] == ("df['Date'] <= end / >= start", "train")


def test_the_middle_of_three_date_ranges_pairs_with_the_part_before_it():
    found = sides("train = df[df.date < t]\nvalid = df[(df.date >= t) & (df.date < v)]\ntest = df[df.date >= v]\n")
    assert found == {"df[df.date < t]": ("df.date < t / >=", "train"),
                     "df[(df.date >= t) & (df.date < v)]": ("df.date < t / >=", "test")}


def test_a_mask_named_for_training_selects_the_training_rows_alone():
    found = sides("train_mask = df.date <= cutoff\nmeans = df.loc[train_mask, cols].mean()\n"
                  "keep = df.date <= cutoff\nother = df.loc[keep, cols]\n")
    assert found == {"df.loc[train_mask, cols]": ("train_mask / ~train_mask", "train")}
