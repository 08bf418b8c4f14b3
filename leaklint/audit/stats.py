"""Summaries of per-seed scores: means, spreads and a paired interval for the gap."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Optional

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)
_Z975 = 1.959964


def t975(df: int) -> float:
    """Student's t 97.5% quantile; past the table, its expansion in 1/df (error < 1e-4)."""
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


@dataclass(frozen=True)
class Summary:
    leaked_mean: float
    leaked_sd: float
    honest_mean: float
    honest_sd: float
    gap: float
    gap_low: Optional[float]  # None with a single seed: no interval
    gap_high: Optional[float]
    flattered_share: float


def summarise(leaked: list[float], honest: list[float]) -> Summary:
    """Mean of the per-seed paired gaps ± t·sd/√n; the share of seeds the leak flattered."""
    gaps = [a - b for a, b in zip(leaked, honest)]
    n = len(gaps)
    gap = statistics.fmean(gaps)
    low = high = None
    if n >= 2:
        half = t975(n - 1) * statistics.stdev(gaps) / math.sqrt(n)
        low, high = gap - half, gap + half
    return Summary(
        leaked_mean=statistics.fmean(leaked),
        leaked_sd=_sd(leaked),
        honest_mean=statistics.fmean(honest),
        honest_sd=_sd(honest),
        gap=gap,
        gap_low=low,
        gap_high=high,
        flattered_share=sum(g > 0 for g in gaps) / n,
    )


def _sd(values: list[float]) -> float:
    return statistics.stdev(values) if len(values) >= 2 else 0.0
