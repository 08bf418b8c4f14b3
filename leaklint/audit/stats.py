"""Summaries of per-seed scores: means, spreads and a paired interval for the gap.

The gap's interval is Student's t over the per-seed paired gaps, with the gaps' spread
taken as at least the score's step. Scores are often discrete (accuracy on 50 test rows
moves in steps of 0.02), and with few seeds the gaps then easily coincide: three gaps
of exactly +0.020 have a standard deviation of 0, and t alone would give the interval
[+0.020, +0.020]. Identical gaps only show that their spread is below one step, so one
step is the spread assumed. A bootstrap or a rank-based interval was not used: each is
of zero width on identical gaps as well, the bootstrap is too narrow with under about
ten seeds, and a sign-test interval does not reach 95% below six. Seeds that all gave
the same pair of scores measured one thing once (the data and the split did not change
with the seed): they get no interval, as a single seed.
"""
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
# Scores closer than this are the same score (float noise of a fold mean).
_SAME = 1e-9


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
    gap_low: Optional[float]  # None with a single seed, or the same scores on every seed
    gap_high: Optional[float]
    flattered_share: float
    score_step: Optional[float]  # the smallest difference seen between two scores; None if all equal
    spread_floored: bool  # the interval used score_step as the gaps' spread (they varied less)


def summarise(leaked: list[float], honest: list[float]) -> Summary:
    """Mean of the per-seed paired gaps ± t·max(sd, step)/√n; the share of seeds the leak flattered."""
    gaps = [a - b for a, b in zip(leaked, honest)]
    n = len(gaps)
    gap = statistics.fmean(gaps)
    step = score_step(leaked + honest)
    low = high = None
    floored = False
    if n >= 2 and not same_on_every_seed(leaked, honest):
        spread = statistics.stdev(gaps)
        floored = step is not None and spread < step
        half = t975(n - 1) * max(spread, step or 0.0) / math.sqrt(n)
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
        score_step=step,
        spread_floored=floored,
    )


def score_step(scores: list[float]) -> Optional[float]:
    """The finest step the scores were seen to take: the smallest nonzero difference
    between two of them. It is never finer than the metric's real resolution (1/50 for
    accuracy on 50 rows), only coarser when few distinct scores were seen, which widens
    the interval rather than narrowing it."""
    values = sorted(scores)
    steps = [b - a for a, b in zip(values, values[1:]) if b - a > _SAME]
    return min(steps) if steps else None


def same_on_every_seed(leaked: list[float], honest: list[float]) -> bool:
    return all(
        abs(a - leaked[0]) <= _SAME and abs(b - honest[0]) <= _SAME for a, b in zip(leaked, honest)
    )


def _sd(values: list[float]) -> float:
    return statistics.stdev(values) if len(values) >= 2 else 0.0
