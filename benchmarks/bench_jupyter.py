"""What ``%load_ext leaklint`` adds to each cell of a 100-cell IPython session.

    python benchmarks/bench_jupyter.py [--repeat 3] [--cells 100]

One in-process IPython shell runs the same session of real, cheap ML cells (scikit-learn
on synthetic data, a leak in cell 4 so that every later cell passes the screen and is
fully linted: the worst case) without and with the extension, alternating, best of
``--repeat``. It prints the wall time per cell both ways, the overhead per cell and the
ratio, and the extension's own time after a cell (lint + display): mean, mean over the
last ten cells (the largest session) and maximum. An exploration session that never
splits (the screen rejects it) is timed the same way.
"""
from __future__ import annotations

import argparse
import statistics
import time

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from traitlets.config import Config

DATA = [
    "import numpy as np\nimport pandas as pd\nfrom sklearn.datasets import make_classification",
    "X, y = make_classification(n_samples=500, n_features=20, random_state=0)\ndf = pd.DataFrame(X)",
]
MODEL = [
    "from sklearn.linear_model import LogisticRegression\nfrom sklearn.metrics import accuracy_score\n"
    "from sklearn.model_selection import train_test_split\nfrom sklearn.preprocessing import StandardScaler",
    "%precision 3\nX = StandardScaler().fit_transform(X)",
    "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)",
    "model = LogisticRegression().fit(X_train, y_train)\nmodel.score(X_test, y_test)",
]
ML_BODY = [
    "col{i} = df[{k}].mean()\nstd{i} = df[{k}].std()",
    "pred{i} = model.predict(X_test[:{n}])\nacc{i} = (pred{i} == y_test[:{n}]).mean()",
    "%precision 3\nsummary{i} = df.describe().loc['mean'].head()",
    "score{i} = accuracy_score(y_test, model.predict(X_test))",
    "def helper{i}(a):\n    return a * {k}\n\nvals{i} = helper{i}(np.arange(5))",
    "# step {i}\nresults{i} = {{'step': {i}, 'acc': model.score(X_test, y_test)}}",
]
EDA_BODY = [
    "col{i} = df[{k}].mean()\nstd{i} = df[{k}].std()",
    "%precision 3\nsummary{i} = df.describe().loc['mean'].head()",
    "corr{i} = df.corr().iloc[{k}, :5]",
    "def helper{i}(a):\n    return a * {k}\n\nvals{i} = helper{i}(np.arange(5))",
]


def session(kind: str, cells: int) -> list:
    head = DATA + (MODEL if kind == "ml" else [])
    body = ML_BODY if kind == "ml" else EDA_BODY
    rest = [body[i % len(body)].format(i=i, k=i % 20, n=10 + i) for i in range(cells - len(head))]
    return head + rest


def run(shell, cells: list, extension: bool) -> tuple:
    """(wall seconds per cell, the extension's seconds after each cell)."""
    shell.reset(new_session=True)
    hook = []
    if extension:
        shell.run_line_magic("load_ext", "leaklint")
        magics = shell.magics_manager.registry["LeaklintMagics"]
        timed = magics.post_run_cell

        def post_run_cell(result):
            started = time.perf_counter()
            timed(result)
            hook.append(time.perf_counter() - started)

        shell.events.unregister("post_run_cell", timed)
        shell.events.register("post_run_cell", post_run_cell)
    walls = []
    with capture_output():
        for source in cells:
            started = time.perf_counter()
            shell.run_cell(source, store_history=True)
            walls.append(time.perf_counter() - started)
    if extension:
        shell.events.unregister("post_run_cell", post_run_cell)
        shell.events.register("post_run_cell", timed)
        shell.run_line_magic("unload_ext", "leaklint")
    return walls, hook


def measure(shell, kind: str, cells: int, repeat: int) -> None:
    source = session(kind, cells)
    run(shell, source, True)  # warm-up: imports, the rules, first-call caches
    best = {False: None, True: None}
    hook = []
    for _ in range(repeat):
        for extension in (False, True):
            walls, seconds = run(shell, source, extension)
            if best[extension] is None or sum(walls) < sum(best[extension]):
                best[extension] = walls
                if extension:
                    hook = seconds
    plain, linted = (sum(best[e]) / cells * 1000 for e in (False, True))
    print(f"{kind} session, {cells} cells (best of {repeat}):")
    print(f"  per cell without the extension {plain:7.2f} ms")
    print(f"  per cell with the extension    {linted:7.2f} ms  (+{linted - plain:.2f} ms, {linted / plain:.2f}x)")
    print(
        f"  extension after a cell: mean {statistics.mean(hook) * 1000:.2f} ms, "
        f"last 10 cells {statistics.mean(hook[-10:]) * 1000:.2f} ms, max {max(hook) * 1000:.2f} ms (cell {hook.index(max(hook)) + 1})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cells", type=int, default=100)
    args = parser.parse_args()
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    shell = InteractiveShell.instance(config=config)
    for kind in ("ml", "eda"):
        measure(shell, kind, args.cells, args.repeat)


if __name__ == "__main__":
    main()
