"""``leaklint audit PATHS``: the static pass, then each finding run both ways on noise."""
from __future__ import annotations

import json
import os
from pathlib import Path

import click

from ..cache import CACHE_DIR
from ..config import ConfigError
from ..report.json_format import finding_to_dict
from ..runner import lint_paths

AUDITED = ("LL101", "LL102", "LL103", "LL104", "LL105", "LL201", "LL202", "LL203", "LL301", "LL302", "LL304", "LL305")
INSTALL_HINT = "leaklint audit needs the audit extra: pip install '.[audit]' in a checkout of leaklint (the package index's leaklint is another project)"


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--repeats", type=click.IntRange(min=1), default=10, show_default=True, help="Seeds per finding.")
@click.option("--rows", type=click.IntRange(min=10), help="Rows of the synthetic data (default: the seeds' setups).")
@click.option("--features", type=click.IntRange(min=1), help="Features of the synthetic data.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=60.0, show_default=True, help="Seconds per finding.")
@click.option("--output-format", type=click.Choice(["table", "full", "json"]), default="table", show_default=True,
              help="full: the table, then each finding's fix as a diff (the correction the honest run models).")
@click.option("-o", "--output-file", type=click.Path(dir_okay=False), help="Write the report to this file.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Draw per-seed scores to this PNG.")
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on stderr (default: only when stderr is a terminal, so none in CI logs).")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False), help="Use this configuration file.")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
def audit(paths, repeats, rows, features, timeout, output_format, output_file, plot_path, progress, config_path, isolated):
    """Measure how much each leak found in PATHS inflates the score, on synthetic noise."""
    from . import audit_findings, missing_dependencies, plot, render_table

    missing = missing_dependencies()
    if missing:
        raise click.ClickException(f"{INSTALL_HINT} (missing: {', '.join(missing)})")
    if plot_path is not None and missing_dependencies(plot=True):
        raise click.ClickException("--plot needs matplotlib: pip install '.[plot]' in a checkout of leaklint")
    paths = paths or (".",)
    absent = [p for p in paths if not os.path.lexists(p)]
    if absent:
        raise click.UsageError(f"path does not exist: {absent[0]}")
    try:
        run = lint_paths(
            paths,
            config=Path(config_path) if config_path else None,
            isolated=isolated,
            cache_dir=Path(CACHE_DIR),
        )
    except ConfigError as err:
        raise click.ClickException(str(err)) from None
    findings = [f for f in run.findings if f.code in AUDITED]
    results = audit_findings(
        findings, repeats=repeats, rows=rows, features=features, timeout=timeout, progress=progress
    )
    if output_format == "json" and any(f.fix is not None for f in findings):
        from ..fix import sources_of, with_edits

        findings = with_edits(findings, sources_of(findings, {}))
    if output_format == "json":
        report = json.dumps(
            [dict(finding_to_dict(f), audit=r.to_json()) for f, r in zip(findings, results)], indent=2
        ) + "\n"
    elif not findings:
        report = "No leaks found to audit.\n"
    else:
        report = render_table(findings, results) + "\n"
        if output_format == "full":
            report += _fix_diffs(findings)
    if output_file:
        Path(output_file).write_text(report, encoding="utf-8")
    else:
        click.echo(report, nl=False)
    if plot_path and findings:
        plot(findings, results, plot_path)
    return 1 if findings else 0


def _fix_diffs(findings) -> str:
    """Each finding's fix, as the diff ``leaklint --diff`` would show for it alone."""
    from ..fix import FixError, fixed_bytes, unified_diff
    from .render import location

    out = []
    for finding in findings:
        if finding.fix is None:
            continue
        try:
            raw = Path(finding.path).read_bytes()
            diff = unified_diff(finding.path, raw, fixed_bytes(finding.path, raw, finding.fix.ops))
        except (OSError, FixError):
            continue
        out.append(f"\n{location(finding)} {finding.code} fix ({finding.fix.applicability}): {finding.fix.message}\n{diff}")
    return "".join(out)
