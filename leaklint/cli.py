"""The command line: ``leaklint [check] PATHS``, ``leaklint rule CODE``, ``leaklint clean``,
``leaklint audit``, ``leaklint server``.

Exit codes are a contract: 0 no findings (or only findings less severe than
``fail-on``), 1 findings, 2 usage, configuration or internal error. click's own codes
are mapped onto these.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import warnings
from collections import Counter
from pathlib import Path

import click

from . import __version__
from .audit.command import audit
from .cache import CACHE_DIR
from .config import SEVERITIES, ConfigError, known_selector
from .engine import PARSE_CODE, PARSE_DOC, PARSE_HELP, PARSE_NAME, PARSE_SUMMARY, SKIPPED_SUFFIXES
from .report import FORMATS, render
from .report.text import fix_summary, summary
from .ruleset import all_rules, rule_by_code
from .runner import SettingsResolver, collect, job_for, lint_paths, run_job

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class DefaultGroup(click.Group):
    """Runs ``check`` when the first argument is not a subcommand (``leaklint src/``)."""

    def parse_args(self, ctx, args):
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h", "--version")):
            args = ["check", *args]
        return super().parse_args(ctx, args)

    def main(self, *args, **kwargs):
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except click.exceptions.Exit as exit_:
            sys.exit(exit_.exit_code)
        except click.exceptions.Abort:
            click.echo("leaklint: aborted", err=True)
            sys.exit(EXIT_ERROR)
        except click.ClickException as err:
            click.echo(f"leaklint: error: {err.format_message()}", err=True)
            sys.exit(EXIT_ERROR)
        except KeyboardInterrupt:
            click.echo("leaklint: interrupted", err=True)
            sys.exit(EXIT_ERROR)
        except Exception as err:  # never a traceback for the user
            click.echo(f"leaklint: internal error: {type(err).__name__}: {err}; please report it", err=True)
            sys.exit(EXIT_ERROR)
        sys.exit(code if isinstance(code, int) else EXIT_CLEAN)


def _codes(value: str | None, option: str) -> tuple | None:
    if value is None:
        return None
    codes = tuple(c.strip().upper() for c in value.split(",") if c.strip())
    if not codes:
        raise click.BadParameter("no rule code given (an empty value would select no rule)", param_hint=option)
    for code in codes:
        if not known_selector(code):
            raise click.BadParameter(f"unknown rule code {code!r}", param_hint=option)
    return codes


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="leaklint")
def main():
    """Find data leakage in machine-learning code (scripts and notebooks)."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--output-format", type=click.Choice(sorted(FORMATS)), default="concise", show_default=True)
@click.option("-o", "--output-file", type=click.Path(dir_okay=False), help="Write the report to this file.")
@click.option("--select", help="Rule codes or prefixes to enable (e.g. LL1,LL201).")
@click.option("--extend-select", help="Codes to enable on top of the selection.")
@click.option("--ignore", help="Codes or prefixes to disable.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when leaks are found.")
@click.option("--fail-on", type=click.Choice(SEVERITIES),
              help="The least severe finding that exits 1: warning (any finding; the default) or error.")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False), help="Use this configuration file.")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option("--force-exclude", is_flag=True, help="Apply excludes to files named on the command line too.")
@click.option("--statistics", is_flag=True, help="Show the number of findings per rule.")
@click.option("--stdin-filename", help="Name of the file whose source is read from stdin (path '-').")
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Parallel processes (default: all cores).")
@click.option("--no-cache", is_flag=True, help="Do not read or write .leaklint_cache.")
@click.option("--fix", is_flag=True, help="Apply the safe fixes, then report what remains.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply (and mark [*]) the fixes that are not safe.")
@click.option("--fix-only", is_flag=True, help="Apply fixes; report no remaining findings (exit 0 unless an error).")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff and change nothing (exit 1 if any).")
def check(paths, output_format, output_file, select, extend_select, ignore, exit_zero, fail_on, config_path,
          isolated, force_exclude, statistics, stdin_filename, jobs, no_cache, fix, unsafe_fixes, fix_only, diff):
    """Lint PATHS (files or directories; default: the current directory)."""
    overrides = {
        "select": _codes(select, "--select"),
        "extend_select": _codes(extend_select, "--extend-select"),
        "ignore": _codes(ignore, "--ignore"),
        "fail_on": fail_on,
    }
    # Compiling user code may warn (invalid escape sequences): its problem, not a finding.
    warnings.filterwarnings("ignore", category=SyntaxWarning)
    warnings.filterwarnings("ignore", category=DeprecationWarning, message="invalid escape sequence")
    if not paths and stdin_filename:
        paths = ("-",)  # as ruff: --stdin-filename alone reads the source from stdin
    paths = paths or (".",)
    config = Path(config_path) if config_path else None
    if diff and (fix or fix_only):
        raise click.UsageError("--diff shows the fixes without applying them: drop --fix / --fix-only")
    raws: dict = {}
    try:
        resolver = SettingsResolver(config, isolated, overrides)
        if "-" in paths:
            if len(paths) > 1:
                raise click.UsageError("'-' (read stdin) cannot be combined with other paths")

            def lint():
                return _lint_stdin(stdin_filename, resolver, force_exclude, raws)
        else:
            missing = [p for p in paths if not os.path.lexists(p)]
            if missing:
                raise click.UsageError(f"path does not exist: {missing[0]}")

            def lint():
                return lint_paths(paths, overrides=overrides, config=config, isolated=isolated,
                                  force_exclude=force_exclude, jobs=jobs,
                                  cache_dir=None if no_cache else Path(CACHE_DIR))
        run = lint()
        fixed = None
        if fix or fix_only or diff:
            from .fix.files import fix_run, write

            outcome = fix_run(run.findings, resolver, unsafe_fixes, raws)
            for line in outcome.errors:
                click.echo(f"leaklint: {line}", err=True)
            if outcome.withheld:
                n = outcome.withheld
                click.echo(f"leaklint: {n:,} {'fix' if n == 1 else 'fixes'} not applied: with "
                           f"{'it' if n == 1 else 'them'} the code had a finding it did not have before (a leak "
                           "the fixes bring to light); `--output-format full` shows each fix, to apply by hand", err=True)
            if diff:
                return _show_diff(outcome, output_file)
            if "-" in paths:
                _stdout_fixed(outcome, raws)
                return _stdin_remaining(lint(), resolver, unsafe_fixes, exit_zero, fix_only, outcome.fixed)
            run.internal.extend(write(outcome))
            fixed = outcome.fixed
            if outcome.changed:
                run = lint()
            if fix_only:
                message = f"Fixed {fixed:,} {'leak' if fixed == 1 else 'leaks'}." if fixed else "No leaks fixed."
                if output_format in ("concise", "full"):
                    _write(message + "\n", output_file)
                else:  # a machine format reports no finding (none is reported), still parseable
                    _write(render(output_format, [], os.getcwd(), unsafe_fixes), output_file)
                    click.echo(message, err=True)
                return EXIT_ERROR if run.internal else EXIT_CLEAN
        leaks = [f for f in run.findings if f.code != PARSE_CODE]
        counted_errors = [e for e in run.errors if resolver(Path(os.path.abspath(e.path))).selects_parse_errors(e.path)]
        # each finding by its own file's fail-on: warnings may be shown without failing the run
        failing = [f for f in leaks + counted_errors if resolver(Path(os.path.abspath(f.path))).fails(f.severity)]
    except ConfigError as err:
        raise click.ClickException(str(err)) from None
    shown = sorted(run.findings + run.errors, key=lambda f: f.sort_key())
    if output_format in ("json", "sarif", "full") and any(f.fix is not None for f in shown):
        from .fix import sources_of, with_edits

        shown = with_edits(shown, sources_of(shown, raws))
    report = render(output_format, shown, os.getcwd(), unsafe_fixes)
    text_format = output_format in ("concise", "full")
    if text_format:
        if statistics:
            report += _statistics(run.findings)
        skipped = {e.path for e in run.errors if e.message.endswith(SKIPPED_SUFFIXES)}
        whole = {e.path for e in run.errors} - skipped
        report += summary(len(leaks), len({f.path for f in leaks}), len(whole), len(skipped), fixed)
        if counted_errors:  # LL000 selected: the run fails on them, so the summary says so
            report += " LL000 is selected: its reports fail the run."
        report += "\n"
        report += fix_summary(leaks, unsafe_fixes)
    _write(report, output_file)
    for line in run.internal:
        click.echo(f"leaklint: {line}", err=True)
    if not text_format and statistics:
        click.echo(_statistics(run.findings), err=True, nl=False)
    if run.internal:
        return EXIT_ERROR
    return EXIT_FINDINGS if failing and not exit_zero else EXIT_CLEAN


def _lint_stdin(stdin_filename, resolver, force_exclude, raws: dict):
    """The source on stdin, linted as the file ``--stdin-filename`` names (its settings, its
    kind); ``raws`` keeps it for the fixes (stdin is read once)."""
    name = stdin_filename or "-"
    settings = resolver(Path(os.path.abspath(name)))
    if force_exclude and stdin_filename and settings.is_excluded(name):
        return collect([], 0)
    if name not in raws:
        raws[name] = sys.stdin.buffer.read()
    return collect([run_job(job_for(name, settings), raws[name])], 1)


def _show_diff(outcome, output_file) -> int:
    """``--diff``: the fixes as one unified diff; exit 1 when there is something to fix."""
    from .fix import unified_diff

    text = "".join(unified_diff(path, old, new) for path, (old, new) in sorted(outcome.changed.items()))
    _write(text, output_file)
    n = outcome.fixed
    click.echo(f"Would fix {n:,} {'leak' if n == 1 else 'leaks'}." if n else "No leaks would be fixed.", err=True)
    return EXIT_FINDINGS if outcome.changed else (EXIT_ERROR if outcome.errors else EXIT_CLEAN)


def _stdout_fixed(outcome, raws: dict) -> None:
    """``--fix`` on stdin: the fixed source goes to stdout, as ruff does (and is what the
    remaining findings are then read from)."""
    name = next(iter(raws))
    raws[name] = outcome.changed.get(name, (None, raws[name]))[1]
    sys.stdout.buffer.write(raws[name])
    sys.stdout.flush()


def _stdin_remaining(run, resolver, unsafe_fixes, exit_zero, fix_only, fixed) -> int:
    """After ``--fix`` on stdin, what remains goes to stderr (stdout holds the source); the
    exit code says whether a leak remains, as for files."""
    leaks = [f for f in run.findings if f.code != PARSE_CODE]
    failing = [f for f in leaks if resolver(Path(os.path.abspath(f.path))).fails(f.severity)]
    if not fix_only:
        shown = sorted(run.findings + run.errors, key=lambda f: f.sort_key())
        report = render("concise", shown, os.getcwd(), unsafe_fixes)
        report += summary(len(leaks), len({f.path for f in leaks}), 0, 0, fixed) + "\n"
        click.echo(report, err=True, nl=False)
    for line in run.internal:
        click.echo(f"leaklint: {line}", err=True)
    if run.internal:
        return EXIT_ERROR
    return EXIT_FINDINGS if failing and not exit_zero and not fix_only else EXIT_CLEAN


def _statistics(findings) -> str:
    counts = Counter((f.code, f.name) for f in findings)
    return "".join(f"{n:>5}  {code}  {name}\n" for (code, name), n in sorted(counts.items()))


def _write(report: str, output_file) -> None:
    if output_file:
        try:
            Path(output_file).parent.mkdir(parents=True, exist_ok=True)
            Path(output_file).write_text(report, encoding="utf-8")
        except OSError as err:
            raise click.ClickException(f"cannot write {output_file}: {err.strerror}") from None
    else:
        click.echo(report, nl=False)


@main.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
def rule(code, show_all):
    """Print the documentation of rule CODE (or list all rules)."""
    if show_all or not code:
        click.echo(f"{PARSE_CODE}  {PARSE_NAME:<32} {PARSE_SUMMARY}  (reported, not a leak unless selected)")
        for r in all_rules():
            marker = "" if r.default else "  (opt-in)"
            click.echo(f"{r.code}  {r.name:<32} {r.summary}{marker}")
        return EXIT_CLEAN
    if code.upper() == PARSE_CODE:
        click.echo(f"# {PARSE_NAME} ({PARSE_CODE})\n\nMessage: {PARSE_SUMMARY}\nHelp: {PARSE_HELP}\n\n{PARSE_DOC}")
        return EXIT_CLEAN
    found = rule_by_code(code)
    if found is None:
        raise click.UsageError(f"unknown rule code {code!r} (see `leaklint rule --all`)")
    click.echo(f"# {found.name} ({found.code})\n")
    click.echo(f"Message: {found.summary}\nHelp: {found.help}\n")
    click.echo(found.doc)
    return EXIT_CLEAN


@main.command()
def clean():
    """Remove the .leaklint_cache directory under the current directory."""
    target = Path(CACHE_DIR)
    if target.is_dir():
        shutil.rmtree(target, ignore_errors=True)
        click.echo(f"Removed {target}")
    return EXIT_CLEAN


@main.command()
def server():
    """Run the language server (LSP over stdio) for editors."""
    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        raise click.ClickException(
            "`leaklint server` needs the lsp extra: pip install '.[lsp]' in a checkout of leaklint"
        )
    from .server import serve

    serve()
    return EXIT_CLEAN


main.add_command(audit)
