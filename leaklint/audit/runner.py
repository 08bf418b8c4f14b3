"""Running the audits of one leaklint run in a worker process, with a time limit each."""
from __future__ import annotations

import copy
import os
import pickle
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Optional, Sequence

from leaklint.audit import examples
from leaklint.audit.messages import THREAD_VARIABLES, read_message, write_message
from leaklint.audit.pieces import Plan, plan
from leaklint.audit.result import ERROR, OK, TIMEOUT, UNSUPPORTED, AuditResult
from leaklint.findings import Finding

# The directory holding the leaklint package: the worker starts there, so neither the
# user's working directory nor a stray numpy.py in it is ever on the worker's path.
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
STARTUP_LIMIT = 120.0


def audit_findings(
    findings: Sequence[Finding],
    *,
    repeats: int = 10,
    rows: Optional[int] = None,
    features: Optional[int] = None,
    timeout: float = 60.0,
    progress: Optional[bool] = True,
    dataset: Optional[str] = None,
) -> list[AuditResult]:
    """Audit each finding over ``repeats`` seeds; results are in the order of ``findings``.

    ``rows``/``features`` override every rule's default data size. ``timeout`` is the
    limit in seconds for each finding's audit (the worker's start is not counted).
    ``progress`` None draws the bar on stderr only when it is a terminal: redrawn
    frames are noise in a CI log or a file.
    ``dataset="wine"`` runs the rules whose data is a plain numeric table on
    scikit-learn's bundled wine data instead of synthetic noise.
    """
    from tqdm import tqdm

    if repeats < 1:
        raise ValueError("repeats must be at least 1")
    if dataset not in (None, "wine"):
        raise ValueError(f"unknown dataset {dataset!r}: the audit knows 'wine'")
    results: list[Optional[AuditResult]] = [None] * len(findings)
    plans = []
    for index, finding in enumerate(findings):
        if finding.code in examples.MODELS:
            plans.append((index, plan(finding, repeats=repeats, rows=rows, features=features, dataset=dataset)))
        else:
            reason = f"there is no runtime audit for {finding.code}"
            results[index] = AuditResult(finding.code, UNSUPPORTED, repeats, reason=reason)
    # (tqdm's disable=None: disabled unless its file is a terminal)
    disable = None if progress is None else not progress
    bar = tqdm(total=len(plans) * repeats, disable=disable, file=sys.stderr, unit="seed", desc="leaklint audit")
    done: dict = {}  # the same procedure on the same seeds gives the same figures: run it once
    with bar, Worker() as worker:
        for index, screened in plans:
            key = pickle.dumps((screened.job, screened.substituted, screened.notes)) if screened.job is not None else None
            if key is not None and key in done:
                results[index] = copy.deepcopy(done[key])
                bar.update(repeats)
                continue
            results[index] = worker.run(screened, timeout, bar.update)
            if key is not None and results[index].status == OK:
                done[key] = results[index]
    return results


class WorkerFailed(Exception):
    pass


class Worker:
    """The worker process, started on first use and again after it was killed or died."""

    def __init__(self):
        self._process: Optional[subprocess.Popen] = None
        self._messages: queue.Queue = queue.Queue()
        self._stderr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.stop()

    def run(self, screened: Plan, timeout: float, advance) -> AuditResult:
        job = screened.job
        result = AuditResult(job.code, OK, job.repeats, substituted=list(screened.substituted), notes=list(screened.notes),
                             pieces=dict(screened.pieces))
        try:
            self._ensure_started()
            started = time.monotonic()
            write_message(self._process.stdin, job)
        except (WorkerFailed, OSError) as exc:
            self.stop()
            return self._finish(result, ERROR, f"the audit worker failed: {exc}", time.monotonic(), advance)
        deadline = started + timeout
        while True:
            message = self._next(deadline)
            if message is None:
                self.stop()
                done = len(result.leaked_scores)
                reason = f"no result within {timeout:g} s ({done} of {job.repeats} seeds done); raise the timeout or lower the repeats"
                return self._finish(result, TIMEOUT, reason, started, advance)
            kind = message[0]
            if kind == "info":
                info = dict(message[1])
                result.substituted += info.pop("substituted")
                result.notes += info.pop("notes")
                for name, value in info.items():
                    setattr(result, name, value)
            elif kind == "seed":
                result.leaked_scores.append(message[1])
                result.honest_scores.append(message[2])
                advance(1)
            elif kind == "note":
                result.notes.append(message[1])
            elif kind == "done":
                result.summarise()
                return self._finish(result, OK, None, started, advance)
            elif kind in (ERROR, UNSUPPORTED):
                return self._finish(result, kind, message[1], started, advance)
            else:
                reason = f"the audit worker stopped ({self._exit_detail()})"
                self.stop()
                return self._finish(result, ERROR, reason, started, advance)

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            stream.close()
        self._stderr.close()

    def _ensure_started(self) -> None:
        if self._process is not None and self._process.poll() is None:
            return
        self.stop()
        self._stderr = tempfile.TemporaryFile()
        self._messages = queue.Queue()
        self._process = subprocess.Popen(
            [sys.executable, "-m", "leaklint.audit.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            cwd=PACKAGE_ROOT,
            env={**os.environ, **{name: "1" for name in THREAD_VARIABLES}},
        )
        threading.Thread(target=_pump, args=(self._process.stdout, self._messages), daemon=True).start()
        if self._next(time.monotonic() + STARTUP_LIMIT) != ("ready",):
            raise WorkerFailed(self._exit_detail())

    def _next(self, deadline: float):
        try:
            return self._messages.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None

    def _exit_detail(self) -> str:
        try:
            code = self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr.seek(0)
        lines = self._stderr.read().decode(errors="replace").strip().splitlines()
        detail = f"exit code {code}" if code is not None else "no answer"
        return f"{detail}: {lines[-1]}" if lines else detail

    @staticmethod
    def _finish(result: AuditResult, status: str, reason, started: float, advance) -> AuditResult:
        result.status, result.reason = status, reason
        result.seconds = round(time.monotonic() - started, 3)
        advance(result.repeats - len(result.leaked_scores))
        return result


def _pump(stream, messages: queue.Queue) -> None:
    """Move the worker's messages to a queue, so the caller can wait with a time limit."""
    try:
        while (message := read_message(stream)) is not None:
            messages.put(message)
    except Exception:  # a frame cut short by a kill ends the stream too
        pass
    messages.put(("eof",))
