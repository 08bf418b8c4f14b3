"""An imputer fitted on rows with no gap left fills nothing: it learns nothing to leak."""
import pytest

from leaklint.config import Settings
from leaklint.runner import job_for, run_job

TEMPLATE = (
    "import numpy as np\nimport pandas as pd\nfrom sklearn.impute import SimpleImputer\n"
    "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import train_test_split\n"
    "df = pd.read_csv('d.csv')\n{gaps}\n"
    "X, y = df.drop(columns='t'), df['t']\n"
    "X = SimpleImputer(strategy='median').fit_transform(X)\n"
    "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)\n"
    "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))\n"
)


@pytest.mark.parametrize("gaps, leaks", [
    ("df = df.dropna()", False),
    ("df.dropna(inplace=True)", False),
    ("df = df.dropna(axis=1)", False),  # every column with a gap dropped
    ("df = df.fillna(0)", False),
    ("df = df.fillna(value=-1).reset_index(drop=True)", False),
    ("df = df.replace(np.nan, 0)", False),
    ("df = df.dropna(subset=['t'])", True),  # gaps in other columns stay
    ("df = df.dropna(how='all')", True),
    ("df = df.dropna(thresh=3)", True),
    ("df = df.fillna(method='ffill')", True),  # a leading gap stays
    ("df = df.replace('?', np.nan)", True),
    ("df = df.fillna(0)\ndf = df.merge(pd.read_csv('e.csv'), on='id', how='left')", True),  # a merge brings gaps
    ("df = df.fillna(0)\ndf['r'] = pd.read_csv('e.csv')['r']", True),  # so does a column put in
    ("df = df.fillna(0)\ndf = df.replace(-999, np.nan)", True),  # a marker turned back into gaps
    ("df = df.fillna(0)\ndf = df.replace(-999, value=np.nan)", True),
])
def test_imputer_after_gaps_are_handled(gaps, leaks):
    codes = [f.code for f in run_job(job_for("a.py", Settings()), TEMPLATE.format(gaps=gaps).encode()).findings]
    assert ("LL101" in codes) is leaks


@pytest.mark.parametrize("gaps, leaks", [
    ("df = df.dropna()", False),
    ("df = df.dropna(subset=['t'])", True),
])
def test_a_fill_by_a_statistic_after_every_gap_was_dropped_applies_nothing(gaps, leaks):
    source = TEMPLATE.format(gaps=gaps).replace(
        "X = SimpleImputer(strategy='median').fit_transform(X)\n",
        "X['age'] = X['age'].fillna(X['age'].mean())\n")
    codes = [f.code for f in run_job(job_for("a.py", Settings()), source.encode()).findings]
    assert ("LL105" in codes) is leaks
