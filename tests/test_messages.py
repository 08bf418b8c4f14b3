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
from pathlib import Path
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import RandomizedSearchCV
from churn.data import load_features_target

MODEL_PATH = Path("models/rf.joblib")


def run_search():
    X, y = load_features_target()
    search = RandomizedSearchCV(RandomForestClassifier(), {"max_depth": [3, 5, None]}, n_iter=3, cv=3)
    search.fit(X, y)
    return search


def tune(output_path):
    search = run_search()
    print(search.best_score_)


tune(output_path=MODEL_PATH)
'''


def test_rows_a_helper_loads_itself_keep_its_name_for_them():
    [(line, message)] = messages(HELPER_LOADS_ITS_OWN_ROWS, "LL304")
    assert line == 18
    assert "RandomizedSearchCV fitted on X at line 12" in message, message


FIT_AROUND_A_SPLIT = '''\
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("loans.csv")
y = df.pop("default")
{before}
X_train, X_test, y_train, y_test = train_test_split(df, y, random_state=0)
{after}
model = LogisticRegression().fit(scaler.transform(X_train), y_train)
print(model.score(scaler.transform(X_test), y_test))
'''


def test_a_fit_written_after_the_split_on_the_rows_it_divided_is_said_to_come_after_it():
    fit = "scaler = StandardScaler().fit(df)"
    (_, before), = messages(FIT_AROUND_A_SPLIT.format(before=fit, after=""), "LL101")
    (_, after), = messages(FIT_AROUND_A_SPLIT.format(before="", after=fit), "LL101")
    assert "(all rows) before the rows are split by train_test_split at line 9" in before
    assert "(all rows) after the rows were split by train_test_split at line 9" in after


TABNET = '''\
import numpy as np
from pytorch_tabnet.tab_model import TabNetClassifier
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split

X, y = np.load("X.npy"), np.load("y.npy")
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
clf = TabNetClassifier()
clf.fit(X_train, y_train, eval_set=[(X_test, y_test)], max_epochs=100, PATIENCE)
print(accuracy_score(y_test, clf.predict(X_test)))
'''


def test_tabnet_early_stopping_names_the_patience_the_code_sets():
    [(_, written)] = messages(TABNET.replace("PATIENCE", "patience=20"), "LL305")
    [(_, default)] = messages(TABNET.replace(", PATIENCE", ""), "LL305")
    assert "TabNet's patience, 20 epochs," in written and "by default" not in written
    assert "TabNet's patience, 10 epochs by default," in default
