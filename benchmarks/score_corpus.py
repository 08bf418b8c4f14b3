"""Score leaklint against the labelled corpus of real public ML scripts and notebooks.

The labels live in ``benchmarks/corpus/manifest.json``: one entry per file with the
source repository, path and commit, the local file name, and the hand-made labels
(``code``, ``cell`` (1-based, all cells counted; ``null`` for .py), ``line``, ``why``).

The third-party files themselves are NOT part of this project (their licences are
their authors'); they are kept outside the checkout, by default in
``/work/corpus/files`` as ``<id>_<basename>``. To rebuild that folder, fetch each
``repo`` at ``commit`` and copy ``path`` to ``<files>/<local>``, e.g.::

    git clone https://github.com/<repo> r && git -C r show <commit>:<path> > <files>/<local>

``--fetch-missing`` lists (repo, commit, path, local) for every missing file.

Usage::

    python benchmarks/score_corpus.py [--files DIR] [--leaklint PATH] [--fetch-missing]

It runs ``leaklint --output-format json --isolated --no-cache`` on each file and
matches findings to labels by code, cell and line: exactly, and with a tolerance of
+/-1 line. It prints TP/FP/FN, precision and recall (overall and per code) and lists
every false positive and false negative. Codes outside the labelled set (LL202, LL203,
LL30x other than LL301/LL302, LL000) are reported separately, not scored.
Stdlib only.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "corpus" / "manifest.json"
SCORED = {"LL101", "LL102", "LL103", "LL104", "LL105", "LL201", "LL301", "LL302"}


def run_leaklint(exe: str, path: Path) -> list[dict]:
    proc = subprocess.run(
        [exe, "--output-format", "json", "--isolated", "--no-cache", str(path)],
        capture_output=True, text=True,
    )
    if proc.returncode not in (0, 1):
        print(f"  ! leaklint exit {proc.returncode} on {path.name}: {proc.stderr.strip()[:200]}")
    try:
        return json.loads(proc.stdout or "[]")
    except json.JSONDecodeError:
        print(f"  ! unreadable output on {path.name}")
        return []


def match(labels: list[dict], findings: list[dict], tol: int):
    """Greedy one-to-one matching; returns (tp_pairs, fp_findings, fn_labels)."""
    free = list(findings)
    tp, fn = [], []
    for lab in labels:
        best = None
        for f in free:
            if f["code"] == lab["code"] and f.get("cell") == lab["cell"] \
                    and abs(f["line"] - lab["line"]) <= tol:
                if best is None or abs(f["line"] - lab["line"]) < abs(best["line"] - lab["line"]):
                    best = f
        if best is None:
            fn.append(lab)
        else:
            free.remove(best)
            tp.append((lab, best))
    return tp, free, fn


def loc(local: str, cell, line) -> str:
    return f"{local}:{'' if cell is None else f'cell {cell}:'}{line}"


def pr(tp: int, fp: int, fn: int) -> str:
    p = tp / (tp + fp) if tp + fp else float("nan")
    r = tp / (tp + fn) if tp + fn else float("nan")
    return f"TP={tp} FP={fp} FN={fn} precision={p:.2f} recall={r:.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", default="/work/corpus/files")
    ap.add_argument("--leaklint", default="leaklint")
    ap.add_argument("--manifest", default=str(MANIFEST))
    ap.add_argument("--fetch-missing", action="store_true",
                    help="list repo/commit/path of files missing from --files and exit")
    args = ap.parse_args()
    entries = json.loads(Path(args.manifest).read_text())
    files = Path(args.files)
    missing = [e for e in entries if not (files / e["local"]).exists()]
    if args.fetch_missing or missing:
        for e in missing:
            print(f"missing: {e['repo']} {e['commit']} {e['path']} -> {files / e['local']}")
        if args.fetch_missing or len(missing) == len(entries):
            return 0 if not missing else 1
    results = {0: Counter(), 1: Counter()}  # tolerance -> Counter keys (code, tp/fp/fn)
    lists = {0: ([], []), 1: ([], [])}
    other = []
    for e in entries:
        path = files / e["local"]
        if not path.exists():
            continue
        found = run_leaklint(args.leaklint, path)
        scored = [f for f in found if f["code"] in SCORED]
        other += [(e["local"], f) for f in found if f["code"] not in SCORED]
        labels = [dict(lab, cell=lab.get("cell")) for lab in e["leaks"]]
        for tol in (0, 1):
            tp, fp, fn = match(labels, scored, tol)
            for lab, _ in tp:
                results[tol][(lab["code"], "tp")] += 1
            for f in fp:
                results[tol][(f["code"], "fp")] += 1
                lists[tol][0].append((e["local"], f))
            for lab in fn:
                results[tol][(lab["code"], "fn")] += 1
                lists[tol][1].append((e["local"], lab))
    n_files = len(entries) - len(missing)
    print(f"corpus: {n_files} files, {sum(len(e['leaks']) for e in entries)} labelled leaks "
          f"in {sum(1 for e in entries if e['leaks'])} files")
    for tol, name in ((0, "exact line"), (1, "line +/-1")):
        c = results[tol]
        tot = [sum(v for (k, t), v in c.items() if t == x) for x in ("tp", "fp", "fn")]
        print(f"\n== {name}: {pr(*tot)}")
        for code in sorted({k for k, _ in c}):
            print(f"   {code}: {pr(c[(code, 'tp')], c[(code, 'fp')], c[(code, 'fn')])}")
    fps, fns = lists[1]
    print("\nFalse positives (tolerant matching):")
    for local, f in fps:
        print(f"  FP {loc(local, f.get('cell'), f['line'])} {f['code']} {f['message']}")
    print("\nFalse negatives (tolerant matching):")
    for local, lab in fns:
        print(f"  FN {loc(local, lab['cell'], lab['line'])} {lab['code']} {lab['why']}")
    if other:
        print("\nUnscored findings (codes outside the labelled set):")
        for local, f in other:
            print(f"  -- {loc(local, f.get('cell'), f['line'])} {f['code']} {f['message']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
