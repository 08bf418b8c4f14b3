"""A whole run: discover files, resolve each file's settings, lint in parallel, cache."""
from __future__ import annotations

import os
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from . import __version__
from .cache import Cache
from .config import Settings, find_config, load_settings, with_overrides
from .discover import iter_files
from .engine import FileResult, diagnostic, lint_bytes
from .ruleset import rule_by_code


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


def run_job(job, raw: Optional[bytes] = None) -> FileResult:
    path, codes, extra, time_functions = job
    try:
        if raw is None:
            with open(path, "rb") as handle:
                raw = handle.read()
    except OSError as err:
        result = FileResult(path)
        result.errors.append(diagnostic(path, f"cannot read: {err.strerror or err}"))
        return result
    try:
        rules = [rule for rule in map(rule_by_code, codes) if rule is not None]
        extras = dict(extra)
        catalogs = {rule.code: rule.catalog.extended(extras.get(rule.code, ())) for rule in rules}
        result = lint_bytes(path, raw, rules, catalogs, frozenset(time_functions))
    except Exception as err:  # one file's internal error must not stop the run
        result = FileResult(path)
        where = traceback.extract_tb(err.__traceback__)[-1]
        result.internal.append(
            f"{path}: internal error {type(err).__name__}: {err} "
            f"({Path(where.filename).name}:{where.lineno}); please report it"
        )
    return result


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
    pending = []
    for job in work:
        hit = cache.get(job) if cache is not None else None
        if hit is not None:
            results[job[0]] = hit
        else:
            pending.append(job)
    for job, result in zip(pending, _execute(pending, jobs)):
        results[job[0]] = result
        if cache is not None and not result.internal:
            cache.put(job, result)
    if cache is not None:
        cache.save()
    return collect(results.values(), len(work))


def collect(results, files: int) -> RunResult:
    run = RunResult(files=files)
    for result in results:
        run.findings.extend(result.findings)
        run.errors.extend(result.errors)
        run.internal.extend(result.internal)
    run.findings.sort(key=lambda f: f.sort_key())
    run.errors.sort(key=lambda f: f.sort_key())
    return run


def _execute(jobs_list, jobs: Optional[int]):
    workers = jobs or os.cpu_count() or 1
    if workers <= 1 or len(jobs_list) < 8:
        return [run_job(job) for job in jobs_list]
    chunk = max(1, len(jobs_list) // (workers * 8))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(run_job, jobs_list, chunksize=chunk))
