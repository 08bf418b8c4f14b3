"""Source snippets several tests lint: a script with two leaks, flagged at lines 9 and 10."""

LEAKY = """\
import pandas as pd
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("cells.csv")
X, y = df.drop(columns=["label"]), df["label"]
X = StandardScaler().fit_transform(X)
X = SelectKBest(f_classif, k=20).fit_transform(X, y)
print(cross_val_score(LogisticRegression(), X, y, cv=5).mean())
"""
