"""Showing audit results: a table for the terminal, a figure of the per-seed scores."""
from __future__ import annotations

from typing import Optional, Sequence

from leaklint.audit.dependencies import MissingDependencyError
from leaklint.audit.result import OK, AuditResult
from leaklint.findings import Finding

_COLUMNS = ("location", "code", "metric", "leaked", "honest", "gap [95% CI]", "flattered", "chance", "verdict")


def location(finding: Finding) -> str:
    loc = finding.location
    cell = f"cell {loc.cell}:" if loc.cell is not None else ""
    return f"{finding.path}:{cell}{loc.line}:{loc.column}"


def render_table(findings: Sequence[Finding], results: Sequence[AuditResult]) -> str:
    """One row per finding, then what each procedure was and what was substituted."""
    rows = [_COLUMNS] + [_row(f, r) for f, r in zip(findings, results)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    for finding, result in zip(findings, results):
        lines.append("")
        lines.append(f"{location(finding)} {finding.code}: {result.verdict}")
        if result.leaked_procedure:
            lines.append(f"  leaked: {result.leaked_procedure}")
            lines.append(f"  honest: {result.honest_procedure}")
        if result.rows is not None:
            lines.append(f"  data: {result.rows} rows x {result.features} features; seeds run: {len(result.leaked_scores)}")
        for note in result.notes:
            # "piece: ..." notes explain a substitution; "data: ..." notes how the data was sized.
            substituted = note.split(":", 1)[0] in result.substituted
            lines.append(f"  {'substituted ' if substituted else ''}{note}")
    return "\n".join(lines)


def _row(finding: Finding, result: AuditResult) -> tuple[str, ...]:
    if result.status != OK:
        return (location(finding), finding.code, result.metric or "-", "-", "-", "-", "-", "-", result.short_verdict)
    gap = f"{result.gap:+.3f}"
    if result.gap_low is not None:
        gap += f" [{result.gap_low:+.3f}, {result.gap_high:+.3f}]"
    seeds = len(result.leaked_scores)
    return (
        location(finding),
        finding.code,
        result.metric,
        f"{result.leaked_mean:.3f} ± {result.leaked_sd:.3f}",
        f"{result.honest_mean:.3f} ± {result.honest_sd:.3f}",
        gap,
        f"{round(result.flattered_share * seeds)}/{seeds}",
        _number(result.chance),
        result.short_verdict,
    )


def _number(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.3f}"


def plot(findings: Sequence[Finding], results: Sequence[AuditResult], path) -> None:
    """Save one panel per completed audit: each seed's leaked and honest score, joined."""
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise MissingDependencyError("plotting the audit needs matplotlib: pip install matplotlib") from exc
    done = [(f, r) for f, r in zip(findings, results) if r.status == OK]
    columns = min(3, max(1, len(done)))
    rows = max(1, -(-len(done) // columns))
    figure = Figure(figsize=(4 * columns, 3.2 * rows), layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for ax, (finding, result) in zip(axes, done):
        for leaked, honest in zip(result.leaked_scores, result.honest_scores):
            ax.plot([0, 1], [leaked, honest], color="grey", alpha=0.5, marker="o")
        ax.plot([0, 1], [result.leaked_mean, result.honest_mean], color="C3", linewidth=2.5, marker="D", label="mean")
        if result.chance is not None:
            ax.axhline(result.chance, linestyle="--", color="black", linewidth=1, label="chance")
        ax.legend(loc="best", fontsize="small")
        ax.set_xticks([0, 1], ["leaked", "honest"])
        ax.set_xlim(-0.3, 1.3)
        ax.set_ylabel(result.metric)
        ax.set_title(f"{finding.code} {location(finding)}", fontsize="small")
    for ax in axes[len(done):]:
        ax.axis("off")
    if not done:
        axes[0].text(0.5, 0.5, "no completed audit", ha="center", va="center")
    figure.savefig(path)
