"""Messages name the evidence the analysis holds: the strongest path from the learning
call to the split comes first."""
from leaklint.engine import lint_bytes
from leaklint.ruleset import all_rules

RULES = all_rules()

SELECTED_AND_TYPED = '''\
import pandas as pd
from sklearn.feature_selection import SequentialFeatureSelector
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import cross_val_score

df = pd.read_csv("fires.csv")
X, y = df.drop(columns="area"), df["area"]
sfs = SequentialFeatureSelector(LinearRegression(), n_features_to_select=2).fit(X, y)
print(sfs.get_feature_names_out())
reference = cross_val_score(LinearRegression(), X[["wind", "temp"]], y, cv=5)
chosen = cross_val_score(LinearRegression(), X[sfs.get_feature_names_out()], y, cv=5)
'''

TYPED_ONLY = SELECTED_AND_TYPED.rsplit("chosen =", 1)[0]


def messages(source: str, code: str) -> list:
    result = lint_bytes("example.py", source.encode(), RULES, {r.code: r.catalog for r in RULES})
    assert not result.errors and not result.internal
    return [(f.location.line, f.message) for f in result.findings if f.code == code]


def test_selection_that_flows_into_a_split_is_not_called_weak_evidence():
    [(line, message)] = messages(SELECTED_AND_TYPED, "LL102")
    assert line == 8
    assert "cross_val_score at line 11" in message and "weaker evidence" not in message


def test_columns_typed_in_after_reading_scores_are_called_weak_evidence():
    [(line, message)] = messages(TYPED_ONLY, "LL102")
    assert line == 8
    assert "cross_val_score at line 10" in message and "typed in at line 10" in message
    assert "weaker evidence" in message


HELPER_LOADS_ITS_OWN_ROWS = '''\
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.preprocessing import StandardScaler

MODEL_PATH = "models/churn.joblib"


def evaluate(output_path):
    df = pd.read_csv("churn.csv")
    X, y = df.drop(columns="churned"), df["churned"]
    X_scaled = StandardScaler().fit_transform(X)
    print(cross_val_score(LogisticRegression(), X_scaled, y, cv=5).mean(), output_path)


evaluate(MODEL_PATH)
'''


def test_rows_a_helper_loads_itself_keep_its_name_for_them():
    [(line, message)] = messages(HELPER_LOADS_ITS_OWN_ROWS, "LL101")
    assert message.startswith("StandardScaler is fitted on X (all rows)"), message
    assert "MODEL_PATH" not in message
