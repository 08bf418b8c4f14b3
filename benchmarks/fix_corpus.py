"""Apply ``--fix --unsafe-fixes`` to copies of real scripts and notebooks and count what
the fixes did: findings before and after, files whose result does not parse, findings
that were not there before (per file and code), and the share of findings removed.

    python benchmarks/fix_corpus.py FOLDER [--json OUT]

FOLDER is never changed: the files are copied to a temporary folder first. The corpus
itself is not kept in the repository (see benchmarks/README.md for its manifest).
"""
from __future__ import annotations

import argparse
import ast
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from leaklint.sources import SourceError, read_source


def findings(folder: Path) -> list:
    proc = subprocess.run([sys.executable, "-m", "leaklint", "--no-cache", "--output-format", "json", "--exit-zero",
                           "."], cwd=folder, capture_output=True, text=True)
    return [f for f in json.loads(proc.stdout or "[]") if f["code"] != "LL000"]


def parses(path: Path) -> bool:
    try:
        ast.parse(read_source(str(path), path.read_bytes()).text)
    except (SyntaxError, ValueError, SourceError):
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "corpus"
        shutil.copytree(args.folder, work)
        before = findings(work)
        parsed_before = {p: parses(p) for p in work.rglob("*") if p.suffix in (".py", ".ipynb")}
        fixing = subprocess.run([sys.executable, "-m", "leaklint", "--no-cache", "--fix-only", "--unsafe-fixes", "."],
                                cwd=work, capture_output=True, text=True)
        after = findings(work)
        broken = sorted(str(p.relative_to(work)) for p, ok in parsed_before.items() if ok and not parses(p))
    count_before = Counter((f["path"], f["code"]) for f in before)
    count_after = Counter((f["path"], f["code"]) for f in after)
    new = {f"{path} {code}": n - count_before[(path, code)] for (path, code), n in count_after.items()
           if n > count_before[(path, code)]}
    per_code = {code: [sum(n for (p, c), n in count_before.items() if c == code),
                       sum(n for (p, c), n in count_after.items() if c == code)]
                for code in sorted({c for _, c in count_before})}
    report = {
        "files": len(parsed_before),
        "findings_before": len(before),
        "findings_after": len(after),
        "removed_share": round(1 - len(after) / len(before), 3) if before else None,
        "broken_files": broken,
        "new_findings": new,
        "per_code_before_after": per_code,
        "fix_errors": fixing.stderr.strip().splitlines(),
    }
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
