"""The IPython extension: ``%load_ext leaklint`` lints the session's cells as they run.

After each cell, the cells run so far are linted as one in-memory notebook (each cell
at the index of its execution count, so findings and messages name cells as the
notebook's margin does) through the runner, so ``[tool.leaklint]`` of the working
directory applies as on the command line. Findings not shown before appear under the
cell that made them appear: the cell with the leaking fit, or the later cell that
split or scored its rows. Nothing is ever raised into the user's session; a failure
prints one short line.
"""
from __future__ import annotations

import gc
import json
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path

from IPython.core.magic import Magics, line_magic, magics_class
from IPython.display import display

from .config import ConfigError
from .report.session import mimebundle
from .runner import SettingsResolver, job_for, run_job
from .lines import split_lines
from .sources import python_cell

# The file name the session is linted as: per-file-ignores for notebooks in the working
# directory apply to it.
SESSION_PATH = "session.ipynb"


def load(shell) -> None:
    magics = LeaklintMagics(shell)
    shell.register_magics(magics)
    shell.events.register("post_run_cell", magics.post_run_cell)


def unload(shell) -> None:
    magics = shell.magics_manager.registry.pop(LeaklintMagics.__name__, None)
    if magics is not None:
        shell.events.unregister("post_run_cell", magics.post_run_cell)
        shell.magics_manager.magics["line"].pop("leaklint", None)


@magics_class
class LeaklintMagics(Magics):
    """One session: its cells by execution count, its current findings, those shown."""

    def __init__(self, shell):
        super().__init__(shell)
        # Cells run before the extension was loaded count too: the kernel's state has them.
        history = shell.history_manager.input_hist_raw if shell.history_manager is not None else []
        self.cells = {count: source for count, source in enumerate(history) if count}
        self.findings: list = []
        self.linted = False  # the cells run before loading are linted after the first cell
        self.shown: set = set()
        self.warned = None  # the failure line printed: not repeated while the failure lasts

    def post_run_cell(self, result) -> None:
        try:
            new = self._after(result)
            if new:
                display(mimebundle(new), raw=True)
        except (Exception, KeyboardInterrupt) as err:
            self._warn(_describe(err))

    @line_magic
    def leaklint(self, line=""):
        """``%leaklint``: the session's findings. ``%leaklint audit``: each run as written and honestly on noise."""
        try:
            command = line.strip()
            if command == "audit":
                self._audit()
            elif command:
                print("leaklint: usage: %leaklint [audit]", file=sys.stderr)
            elif self.findings:
                display(mimebundle(self.findings), raw=True)
            else:
                print(f"leaklint: no leaks found in the {len(self.cells)} cells run so far")
        except (Exception, KeyboardInterrupt) as err:
            self._warn(_describe(err))

    def _after(self, result) -> list:
        """Record the cell just run, lint the session, return the findings not shown before."""
        if not result.info.store_history or result.execution_count is None or result.error_before_exec is not None:
            return []  # silent or tooling executions, empty cells, cells that never ran
        self.cells[result.execution_count] = result.info.raw_cell
        if self.linted and _inert(result.info.raw_cell):
            return []
        settings = SettingsResolver(None, False, {})(Path.cwd())
        with _quietly():
            linted = run_job(job_for(SESSION_PATH, settings), notebook(self.cells))
        if linted.internal:
            self._warn(linted.internal[0].split(": ", 1)[-1])
            return []
        self.findings, self.linted, self.warned = linted.findings, True, None
        new = [f for f in self.findings if (f.code, f.location) not in self.shown]
        self.shown.update((f.code, f.location) for f in new)
        return new

    def _audit(self) -> None:
        from .audit import audit_findings, missing_dependencies, render_table
        from .audit.command import AUDITED, INSTALL_HINT

        missing = missing_dependencies()
        if missing:
            print(f"{INSTALL_HINT} (missing: {', '.join(missing)})", file=sys.stderr)
            return
        findings = [f for f in self.findings if f.code in AUDITED]
        if not findings:
            print("leaklint: no leaks found to audit")
            return
        print(render_table(findings, audit_findings(findings)))

    def _warn(self, line: str) -> None:
        line = (line.splitlines() or [""])[0]
        line = line if len(line) <= 200 else line[:199] + "…"
        if line != self.warned:
            self.warned = line
            print(f"leaklint: {line}", file=sys.stderr)


def notebook(cells: dict) -> bytes:
    """nbformat 4 JSON holding cell ``n`` at index ``n`` (blank where no cell was recorded)."""
    code = [
        {"cell_type": "code", "execution_count": n, "metadata": {}, "outputs": [], "source": cells.get(n, "")}
        for n in range(1, max(cells, default=0) + 1)
    ]
    data = {"cells": code, "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 4}
    return json.dumps(data).encode("utf-8")


@contextmanager
def _quietly():
    """Lint without warnings (compiling the user's code may warn: not ours to show) and
    without garbage collection: the analysis's objects are freed by reference counting,
    while the collections its allocations trigger walk the kernel's whole heap (measured
    on a 100-cell session: 2 full collections of ~60 ms and 251 young ones become 1 and 57).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        if collecting:
            gc.enable()


def _inert(source: str) -> bool:
    """A cell of magics, shell escapes or another language's cell magic changes no dataflow."""
    lines = python_cell(split_lines(source))
    return lines is None or all(line.strip() in ("", "pass") for line in lines)


def _describe(err: BaseException) -> str:
    if isinstance(err, KeyboardInterrupt):
        return "interrupted"
    if isinstance(err, ConfigError):
        return str(err)
    return f"internal error {type(err).__name__}: {err}; please report it"
