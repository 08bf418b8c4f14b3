"""A whole run: discover files, resolve each file's settings, lint in parallel, cache.

Each file is read once, in this process. It is looked up in the cache by its content
and settings, else screened (a file naming no split, cross-validation or search cannot
leak, and is only decoded); what is left is parsed and analysed: here for a small run,
else in a pool of worker processes, largest files first. Output does not depend on the order of the
files or on ``--jobs``: results are collected per path and sorted.
"""
from __future__ import annotations

import gc
import multiprocessing
import os
import stat
import sys
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from . import __version__
from .analysis.project import is_current
from .cache import Cache
from .config import Settings, find_config, load_settings, with_overrides
from .discover import iter_files
from .engine import FileResult, diagnostic, lint_bytes, prescreen
from .ruleset import rule_by_code

# Below this much source to analyse, starting worker processes costs more than it saves.
PARALLEL_MIN_BYTES = 1024 * 1024
PARALLEL_MIN_FILES = 4


@dataclass
class RunResult:
    findings: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # LL000 diagnostics
    internal: list = field(default_factory=list)  # one line per internal error
    files: int = 0


class SettingsResolver:
    """Settings per file: one --config file, none (--isolated), or the nearest pyproject."""

    def __init__(self, config: Optional[Path], isolated: bool, overrides: dict):
        self.overrides = overrides
        self.fixed = None
        if isolated:
            self.fixed = self._apply(Settings())
        elif config is not None:
            self.fixed = self._apply(load_settings(config))
        self._by_dir: dict = {}

    def _apply(self, settings: Settings) -> Settings:
        return with_overrides(settings, **self.overrides)

    def __call__(self, path: Path) -> Settings:
        if self.fixed is not None:
            return self.fixed
        directory = path if path.is_dir() else path.parent
        key = os.path.abspath(directory)
        if key not in self._by_dir:
            self._by_dir[key] = self._apply(load_settings(find_config(Path(key))))
        return self._by_dir[key]


def job_for(path: str, settings: Settings) -> tuple:
    codes = tuple(settings.selected_codes(path))
    extra = tuple((code, settings.extra_classes(code)) for code in codes if settings.extra_classes(code))
    return (path, codes, extra, tuple(settings.time_functions))


def read_file(path: str):
    """(bytes, None), or (None, a FileResult with the LL000 saying why it cannot be read).

    Only regular files are read: a FIFO or a device named ``x.py`` would block or never end.
    """
    reason = None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with open(fd, "rb", closefd=True) as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if stat.S_ISREG(mode):
                return handle.read(), None
            reason = "is a directory" if stat.S_ISDIR(mode) else "not a regular file"
    except IsADirectoryError:
        reason = "is a directory"
    except OSError as err:
        reason = err.strerror or type(err).__name__
    except (MemoryError, OverflowError):
        reason = "too large"
    result = FileResult(path)
    result.errors.append(diagnostic(path, f"cannot read: {reason}"))
    return None, result


def internal_error(path: str, err: BaseException) -> FileResult:
    result = FileResult(path)
    frames = traceback.extract_tb(err.__traceback__)
    where = f" ({Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    message = str(err).splitlines()[0][:200] if str(err) else ""
    result.internal.append(
        f"{path}: internal error {type(err).__name__}: {message}{where}; please report it"
    )
    return result


def run_job(job, raw: Optional[bytes] = None) -> FileResult:
    """Lint one file; never raises (an internal error becomes a one-line report)."""
    path, codes, extra, time_functions = job
    if raw is None:
        raw, failure = read_file(path)
        if failure is not None:
            return failure
    try:
        rules = [rule for rule in map(rule_by_code, codes) if rule is not None]
        extras = dict(extra)
        catalogs = {rule.code: rule.catalog.extended(extras.get(rule.code, ())) for rule in rules}
        return lint_bytes(path, raw, rules, catalogs, frozenset(time_functions))
    except Exception as err:  # one file's internal error must not stop the run
        return internal_error(path, err)


def lint_paths(
    paths,
    overrides: Optional[dict] = None,
    config: Optional[Path] = None,
    isolated: bool = False,
    force_exclude: bool = False,
    jobs: Optional[int] = None,
    cache_dir: Optional[Path] = None,
) -> RunResult:
    resolver = SettingsResolver(config, isolated, overrides or {})
    work = [job_for(path, resolver(Path(path))) for path, _ in iter_files(paths, resolver, force_exclude)]
    cache = Cache.open(cache_dir, __version__) if cache_dir is not None else None
    results: dict = {}
    pending = []  # (job, raw, cache key)
    for job in work:
        path = job[0]
        raw, failure = read_file(path)
        if failure is not None:
            results[path] = failure
            continue
        key = None
        if cache is not None:  # hashing is cheaper than the screen: look up first
            key = cache.key(job, raw)
            hit = cache.get(key)
            if hit is not None and all(is_current(module, digest) for module, digest in getattr(hit, "depends", ())):
                results[path] = hit
                continue
        try:
            screened = prescreen(path, raw)
        except Exception as err:
            results[path] = internal_error(path, err)
            continue
        if screened is not None:
            results[path] = screened
            if cache is not None:
                cache.put(key, screened)
            continue
        pending.append((job, raw, key))
    outcomes = _execute([(job, raw) for job, raw, _ in pending], jobs)
    for (job, _raw, key), result in zip(pending, outcomes):
        results[job[0]] = result
        if cache is not None and not result.internal:
            cache.put(key, result)
    if cache is not None:
        cache.save()
    return collect([results[job[0]] for job in work if job[0] in results], len(work))


def collect(results, files: int) -> RunResult:
    run = RunResult(files=files)
    for result in results:
        run.findings.extend(result.findings)
        run.errors.extend(result.errors)
        run.internal.extend(result.internal)
    run.findings.sort(key=lambda f: f.sort_key())
    run.errors.sort(key=lambda f: (f.sort_key(), f.message))
    run.internal.sort()
    return run


# ------------------------------------------------------------------ execution
def _execute(items: list, jobs: Optional[int]) -> list:
    """FileResults for (job, raw) items, in order: serially, or over worker processes."""
    workers = min(jobs or os.cpu_count() or 1, len(items))
    total = sum(len(raw) for _, raw in items)
    if workers <= 1 or len(items) < PARALLEL_MIN_FILES or total < PARALLEL_MIN_BYTES:
        return [run_job(job, raw) for job, raw in items]
    return _parallel(items, workers)


def _worker_init() -> None:
    gc.freeze()  # what the forked worker inherited is never garbage: skip it in every pass


def _context():
    """fork on Linux: workers start in milliseconds with the rules already loaded."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None  # the platform's default (spawn on macOS and Windows)


class _NoProcesses(Exception):
    """Worker processes cannot be started here (no fork/semaphores, a process limit)."""


def _parallel(items: list, workers: int) -> list:
    out: list = [None] * len(items)
    order = sorted(range(len(items)), key=lambda i: (-len(items[i][1]), i))  # largest first
    lost = order
    try:
        lost = _in_pool(items, order, workers, out)
        # A worker that died (a crash in C, the OOM killer) broke the pool: lint what it
        # had not finished one file at a time, so the file that kills a worker is named.
        while lost:
            lost = _in_pool(items, lost, 1, out, isolate=True)
    except _NoProcesses:
        for i in lost:
            if out[i] is None:
                out[i] = run_job(*items[i])
    return out


def _in_pool(items, order, workers, out, isolate=False) -> list:
    """Run ``order`` in a pool; return the indices left unfinished by a broken pool."""
    try:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_worker_init)
    except (OSError, ValueError, NotImplementedError, ImportError) as err:
        raise _NoProcesses from err
    lost = []
    with pool:
        futures = []
        for i in order:
            try:
                futures.append((i, pool.submit(run_job, *items[i])))
            except BrokenProcessPool:
                futures.append((i, None))
            except (OSError, RuntimeError) as err:  # the workers could not be started
                if not futures:
                    raise _NoProcesses from err
                futures.append((i, None))
        for i, future in futures:
            if future is None:
                lost.append(i)
                continue
            try:
                out[i] = future.result()
            except BrokenProcessPool:
                lost.append(i)
            except Exception as err:  # e.g. a result that cannot be sent back
                out[i] = internal_error(items[i][0][0], err)
    if lost and isolate:
        culprit = lost.pop(0)
        path = items[culprit][0][0]
        out[culprit] = FileResult(path)
        out[culprit].internal.append(f"{path}: internal error: the worker process died linting this file; please report it")
    return lost
