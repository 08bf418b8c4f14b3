"""``--fix`` / ``--diff`` over files: apply one fix, lint again, repeat until nothing
fixable is left. One at a time, because two fixes planned on the same code can each be
right alone and wrong together (a search given a pipeline, and a score of that search
planned on the rows it used to see): each fix is planned on the code as it now is."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..runner import job_for, read_file, run_job
from . import applicable, fixed_bytes
from .tree import FixError

MAX_PASSES = 100


@dataclass
class FixOutcome:
    changed: dict = field(default_factory=dict)  # path -> (old bytes, new bytes)
    fixed: int = 0
    errors: list = field(default_factory=list)  # one line per file a fix could not be written to


def fix_file(job, raw: bytes, unsafe: bool) -> tuple:
    """(new bytes, fixes applied, error or None) for one file."""
    path = job[0]
    current, count = raw, 0
    for _ in range(MAX_PASSES):
        result = run_job(job, current)
        fixes = [f.fix for f in result.findings if applicable(f.fix, unsafe)]
        new, error = current, None
        for fix in fixes:  # the first that can be written
            try:
                new = fixed_bytes(path, current, fix.ops)
                break
            except FixError as err:
                error = f"{path}: a fix could not be written ({err})"
        else:
            return current, count, error
        if new == current:
            break
        current, count = new, count + 1
    return current, count, None


def fix_run(findings, resolver, unsafe: bool, raws: dict) -> FixOutcome:
    """Fix every file with an applicable fix among ``findings``; ``raws`` holds sources
    not on disk (stdin)."""
    outcome = FixOutcome()
    for path in sorted({f.path for f in findings if applicable(f.fix, unsafe)}):
        raw = raws.get(path)
        if raw is None:
            raw, failure = read_file(path)
            if failure is not None:
                continue
        job = job_for(path, resolver(Path(os.path.abspath(path))))
        new, count, error = fix_file(job, raw, unsafe)
        if error is not None:
            outcome.errors.append(error)
        if new != raw:
            outcome.changed[path] = (raw, new)
            outcome.fixed += count
    return outcome


def write(outcome: FixOutcome) -> list:
    """Write the fixed files; one line per file that could not be written."""
    failures = []
    for path, (_old, new) in sorted(outcome.changed.items()):
        try:
            Path(path).write_bytes(new)
        except OSError as err:
            failures.append(f"{path}: cannot write the fix: {err.strerror}")
    return failures
