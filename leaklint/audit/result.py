"""One finding's audit result, its verdict sentence and its JSON form."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional

from leaklint.audit.stats import summarise

OK, TIMEOUT, ERROR, UNSUPPORTED = "ok", "timeout", "error", "unsupported"

# Below this, a gap is too small to matter whatever its interval says.
NEGLIGIBLE_GAP = 0.02


@dataclass
class AuditResult:
    code: str
    status: str
    repeats: int
    reason: Optional[str] = None
    metric: Optional[str] = None
    chance: Optional[float] = None
    rows: Optional[int] = None
    features: Optional[int] = None
    leaked_mean: Optional[float] = None
    leaked_sd: Optional[float] = None
    honest_mean: Optional[float] = None
    honest_sd: Optional[float] = None
    gap: Optional[float] = None
    gap_low: Optional[float] = None
    gap_high: Optional[float] = None
    flattered_share: Optional[float] = None
    score_step: Optional[float] = None
    spread_floored: bool = False
    substituted: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    leaked_procedure: Optional[str] = None
    honest_procedure: Optional[str] = None
    leaked_scores: list[float] = field(default_factory=list)
    honest_scores: list[float] = field(default_factory=list)
    seconds: Optional[float] = None
    # Where each piece of the audited procedure came from (step, model, split, metric,
    # data): {"from": "code", "line": N} or {"from": "example", "reason": ...}.
    pieces: dict = field(default_factory=dict)

    def summarise(self) -> None:
        """Fill the statistics from the per-seed scores (status ok)."""
        for name, value in asdict(summarise(self.leaked_scores, self.honest_scores)).items():
            setattr(self, name, value)

    @property
    def measurable(self) -> bool:
        """A gap whose 95% interval excludes 0 and that is at least NEGLIGIBLE_GAP."""
        if self.status != OK or self.gap_low is None:
            return False
        return abs(self.gap) >= NEGLIGIBLE_GAP and not self.gap_low <= 0.0 <= self.gap_high

    @property
    def one_measurement(self) -> bool:
        """Several seeds that all gave the same pair of scores: the data and split ignored the seed."""
        return self.status == OK and len(self.leaked_scores) >= 2 and self.gap_low is None

    @property
    def short_verdict(self) -> str:
        """The verdict in a table cell."""
        if self.status != OK:
            return self.status
        if self.gap_low is None:
            if not self.one_measurement:
                return "one seed: no interval"
            return "no measurable inflation" if abs(self.gap) < NEGLIGIBLE_GAP else "same on every seed: no interval"
        if not self.measurable:
            return "no measurable inflation"
        return "inflated" if self.gap > 0 else "deflated"

    @property
    def verdict(self) -> str:
        if self.status != OK:
            return f"{self.status}: {self.reason}"
        gap = f"gap {self.gap:+.3f} {self.metric}"
        if self.one_measurement:
            seeds = f"the same scores on all {len(self.leaked_scores)} seeds: one measurement, no interval"
            if abs(self.gap) < NEGLIGIBLE_GAP:
                return f"no measurable inflation ({gap}, {seeds})"
            return f"{gap}, {seeds}"
        if self.gap_low is None:
            return f"{gap} from a single seed; no interval"
        interval = f"95% CI {self.gap_low:+.3f} to {self.gap_high:+.3f}"
        if self.spread_floored:
            # the gaps varied less than the score can move: say what the interval assumed
            interval += f", the gaps' spread taken as one score step ({self.score_step:.3f})"
        if not self.measurable:
            caveat = ""
            if any(note.startswith("data: ") and "features instead of" in note for note in self.notes):
                # a selector's leak grows with the features it screens: say what was narrowed
                caveat = f"; on {self.features:,} features only, rerun with --features to measure at your scale"
            return f"no measurable inflation ({gap}, {interval}{caveat})"
        seeds = f"higher on {round(self.flattered_share * len(self.leaked_scores))} of {len(self.leaked_scores)} seeds"
        if self.gap > 0:
            return f"the leaked procedure scored {self.gap:.3f} {self.metric} higher ({interval}; {seeds})"
        return f"the leaked procedure scored {-self.gap:.3f} {self.metric} lower ({interval}; {seeds})"

    def to_json(self) -> dict:
        data = asdict(self)
        data["verdict"] = self.verdict
        return data
