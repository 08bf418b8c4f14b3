"""Time leaklint against a single-process stdlib ``ast.parse`` of the same files.

    python benchmarks/bench_lint.py [--repeat 3] [--only sklearn|fixtures] [--libcst]

For (a) the installed scikit-learn package and (b) the shipped fixtures/ (scripts and
notebooks) it prints, best of ``--repeat`` wall-clock runs:

- ``ast.parse`` of every file in one process (the baseline, 1.00x; a notebook counts
  as its code cells),
- leaklint's console script cold (empty cache; it writes the cache) on all cores,
- leaklint cold with ``--jobs 1`` (``--no-cache``), and
- leaklint cached (a re-run on the unchanged tree),

each as a ratio to the baseline, in wall-clock time and in CPU time (the CPU ratio is
steadier on a busy machine; with several cores it adds up the workers), and checks issue 6's targets: cold at most 5x and
cached at most 0.5x the baseline over scikit-learn. leaklint runs as a subprocess, so
its figures include interpreter start-up. ``--libcst`` also times libcst's parser and
its scope / qualified-name metadata on the files leaklint actually analyses (those that
pass its screen) against leaklint's own parse + analysis of them.
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = (".py", ".pyi", ".ipynb")
COLD_TARGET, CACHED_TARGET = 5.0, 0.5


def files_under(root: Path) -> list:
    return sorted(
        p for p in root.rglob("*")
        if p.suffix in SUFFIXES and p.is_file() and "__pycache__" not in p.parts
    )


def python_of(path: Path) -> list:
    """The sources ast.parse sees for one file: the file, or a notebook's code cells."""
    raw = path.read_bytes()
    if path.suffix != ".ipynb":
        return [raw]
    try:
        cells = json.loads(raw).get("cells", [])
    except ValueError:
        return []
    out = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", "")
            out.append("".join(source) if isinstance(source, list) else str(source))
    return out


def cpu_seconds() -> float:
    """CPU time of this process and of the finished child processes (leaklint and its workers)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def time_ast_parse(paths: list) -> tuple:
    start, cpu = time.perf_counter(), cpu_seconds()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path in paths:
            for source in python_of(path):
                try:
                    ast.parse(source)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    pass
    return time.perf_counter() - start, cpu_seconds() - cpu


def leaklint_command() -> list:
    exe = Path(sys.executable).parent / "leaklint"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]


def time_leaklint(target: Path, workdir: Path, *options) -> tuple:
    start, cpu = time.perf_counter(), cpu_seconds()
    proc = subprocess.run(
        leaklint_command() + ["--exit-zero", *options, str(target)],
        cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0 or proc.stderr:
        raise SystemExit(f"leaklint failed ({proc.returncode}):\n{proc.stderr}")
    return elapsed, cpu_seconds() - cpu


def best(function, repeat: int) -> tuple:
    """(best wall, median wall, CPU of the best run) over ``repeat`` runs."""
    runs = [function() for _ in range(repeat)]
    fastest = min(runs)
    return fastest[0], statistics.median(wall for wall, _ in runs), fastest[1]


def bench(label: str, target: Path, options: list, repeat: int, cores: int) -> dict:
    paths = files_under(target)
    size = sum(p.stat().st_size for p in paths)
    notebooks = sum(p.suffix == ".ipynb" for p in paths)
    print(f"\n({label}) {target}")
    print(f"    {len(paths)} files ({notebooks} notebooks), {size / 1e6:.1f} MB")
    rows = []
    rows.append(("ast.parse, 1 process (baseline)", *best(lambda: time_ast_parse(paths), repeat)))
    base, base_cpu = rows[0][1], rows[0][3]

    with tempfile.TemporaryDirectory(prefix="leaklint-bench-") as tmp:
        work = Path(tmp)
        cache = work / ".leaklint_cache"

        def cold():
            shutil.rmtree(cache, ignore_errors=True)
            return time_leaklint(target, work, *options)

        rows.append((f"leaklint cold, all cores ({cores})", *best(cold, repeat)))
        rows.append(("leaklint cold, --jobs 1", *best(
            lambda: time_leaklint(target, work, "--no-cache", "--jobs", "1", *options), repeat)))
        cold()  # fill the cache
        rows.append(("leaklint cached re-run", *best(lambda: time_leaklint(target, work, *options), repeat)))

    print(f"    {'':36} {'wall':>8} {'median':>8} {'ratio':>7} {'CPU':>8} {'ratio':>7}")
    for name, fastest, median, cpu in rows:
        print(f"    {name:36} {fastest:7.2f}s {median:7.2f}s {fastest / base:6.2f}x {cpu:7.2f}s {cpu / base_cpu:6.2f}x")
    return {name: fastest / base for name, fastest, _, _ in rows}


def bench_libcst(target: Path, repeat: int) -> None:
    """libcst's parser and metadata against leaklint's ast pass, on the screened files."""
    try:
        import libcst
        from libcst.metadata import MetadataWrapper, QualifiedNameProvider, ScopeProvider
    except ImportError:
        print("\nlibcst is not installed: skipped")
        return
    from leaklint.analysis import analyze
    from leaklint.engine import may_leak

    paths = [p for p in files_under(target) if p.suffix == ".py" and may_leak(p.read_bytes())]
    size = sum(p.stat().st_size for p in paths)
    print(f"\nlibcst vs leaklint's own pass on the {len(paths)} screened files ({size / 1e6:.1f} MB) of {target.name}:")

    def ours():
        start = time.perf_counter()
        for path in paths:
            analyze(ast.parse(path.read_bytes()))
        return time.perf_counter() - start

    def parse_only():
        start = time.perf_counter()
        for path in paths:
            libcst.parse_module(path.read_bytes())
        return time.perf_counter() - start

    def with_metadata():
        start = time.perf_counter()
        for path in paths:
            wrapper = MetadataWrapper(libcst.parse_module(path.read_bytes()))
            wrapper.resolve(ScopeProvider)
            wrapper.resolve(QualifiedNameProvider)
        return time.perf_counter() - start

    base = min(ours() for _ in range(repeat))
    print(f"    {'ast.parse + leaklint analysis':36} {base:7.2f}s   1.00x")
    for name, function in (("libcst parse", parse_only), ("libcst parse + scope + qualified names", with_metadata)):
        elapsed = function()  # once: these are slow
        print(f"    {name:36} {elapsed:7.2f}s {elapsed / base:6.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown (default 3)")
    parser.add_argument("--only", choices=("sklearn", "fixtures"), help="benchmark one tree only")
    parser.add_argument("--libcst", action="store_true", help="also time libcst's parser and metadata (slow)")
    args = parser.parse_args()

    from leaklint import __version__

    cores = os.cpu_count() or 1
    print(f"leaklint {__version__} on Python {sys.version.split()[0]}, {cores} cores; best of {args.repeat} runs")
    failures = []
    sklearn = importlib.util.find_spec("sklearn")
    with tempfile.TemporaryDirectory(prefix="leaklint-bench-config-") as tmp:
        # Installed packages live under site-packages, which leaklint excludes by default.
        config = Path(tmp) / "leaklint.toml"
        config.write_text("exclude = []\n")
        if args.only in (None, "sklearn"):
            if sklearn is None or not sklearn.submodule_search_locations:
                print("\n(a) scikit-learn is not installed: skipped")
            else:
                import sklearn as sk

                root = Path(sklearn.submodule_search_locations[0])
                ratios = bench(f"a: scikit-learn {sk.__version__}", root, ["--config", str(config)], args.repeat, cores)
                cold = ratios[f"leaklint cold, all cores ({cores})"]
                cached = ratios["leaklint cached re-run"]
                print(f"    target cold <= {COLD_TARGET}x: {cold:.2f}x {'met' if cold <= COLD_TARGET else 'NOT MET'}; "
                      f"cached <= {CACHED_TARGET}x: {cached:.2f}x {'met' if cached <= CACHED_TARGET else 'NOT MET'}")
                if cold > COLD_TARGET or cached > CACHED_TARGET:
                    failures.append("scikit-learn")
                if args.libcst:
                    bench_libcst(root, args.repeat)
        if args.only in (None, "fixtures"):
            bench("b: shipped fixtures", ROOT / "fixtures", ["--isolated"], args.repeat, cores)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
