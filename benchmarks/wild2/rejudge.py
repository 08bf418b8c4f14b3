"""Precision of today's leaklint on findings judged earlier (sample_a.json, sample_b.json).

    leaklint --output-format json --isolated --no-cache --extend-select LL303 WILD2 > now.json
    python benchmarks/wild2/rejudge.py now.json benchmarks/wild2/sample_*.json

A judged finding that is still reported keeps its verdict; one that is gone counts as
dropped (a dropped TP is a lost leak, a dropped FP a false alarm fixed). Prints, per
code, the precision over the judged findings still reported.
"""
import collections
import json
import sys


def main(now_path, samples):
    now = json.load(open(now_path, encoding="utf-8"))
    reported = {(f["path"], f["cell"], f["line"], f["code"]) for f in now}
    tally = collections.defaultdict(collections.Counter)
    for sample in samples:
        for finding in json.load(open(sample, encoding="utf-8")):
            key = (finding["path"], finding["cell"], finding["line"], finding["code"])
            state = "kept" if key in reported else "dropped"
            tally[finding["code"]][f"{finding['verdict']} {state}"] += 1
    for code, counts in sorted(tally.items()):
        tp, fp = counts["TP kept"], counts["FP kept"]
        share = f"{tp / (tp + fp):.2f}" if tp + fp else "n/a"
        print(f"{code}: precision {share} over {tp + fp} kept; {dict(sorted(counts.items()))}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
