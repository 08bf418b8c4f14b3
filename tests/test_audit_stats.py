"""The gap's interval and the verdict: say what was measured, never more."""
import math

import pytest

from leaklint.audit.result import AuditResult
from leaklint.audit.stats import summarise, t975


def test_t_quantiles():
    assert t975(1) == 12.706 and t975(9) == 2.262
    assert t975(31) == pytest.approx(2.0395, abs=2e-4)
    assert t975(120) == pytest.approx(1.9799, abs=2e-4)


def test_paired_interval():
    leaked, honest = [0.9, 0.8, 0.85, 0.95], [0.5, 0.5, 0.45, 0.55]
    s = summarise(leaked, honest)
    gaps = [0.4, 0.3, 0.4, 0.4]
    sd = math.sqrt(sum((g - 0.375) ** 2 for g in gaps) / 3)
    assert s.gap == pytest.approx(0.375)
    assert s.gap_high - s.gap == pytest.approx(3.182 * sd / 2)
    assert s.flattered_share == 1.0 and s.honest_mean == pytest.approx(0.5)


def scored(leaked, honest):
    result = AuditResult("LL102", "ok", len(leaked), metric="accuracy", leaked_scores=leaked, honest_scores=honest)
    result.summarise()
    return result


def test_an_interval_containing_zero_is_no_measurable_inflation():
    result = scored([0.6, 0.4, 0.55], [0.5, 0.5, 0.5])
    assert result.gap_low < 0 < result.gap_high
    assert result.verdict.startswith("no measurable inflation")


def test_a_tiny_gap_is_no_measurable_inflation_even_if_certain():
    result = scored([0.51, 0.511, 0.512], [0.5, 0.5, 0.5])
    assert result.gap_low > 0 and result.verdict.startswith("no measurable inflation")


def test_a_clear_gap_is_stated_with_its_interval_and_seeds():
    result = scored([0.9, 0.85, 0.88], [0.5, 0.52, 0.45])
    assert result.verdict.startswith("the leaked procedure scored 0.387 accuracy higher (95% CI")
    assert "higher on 3 of 3 seeds" in result.verdict
    lower = scored([0.5, 0.52, 0.45], [0.9, 0.85, 0.88])
    assert "lower" in lower.verdict


def test_one_seed_gives_no_interval():
    result = scored([0.9], [0.5])
    assert result.gap_low is None and "no interval" in result.verdict


def test_a_failed_audit_says_why():
    result = AuditResult("LL102", "timeout", 10, reason="no result within 60 s")
    assert result.verdict == "timeout: no result within 60 s"
    assert result.to_json()["leaked_mean"] is None


def test_identical_gaps_are_not_called_inflated_on_a_zero_width_interval():
    # Issue 13: 3 seeds on a 50-row test set, each +0.020 (one row) better; the data
    # changes with the seed, so the scores differ while their gaps coincide.
    result = scored([0.56, 0.52, 0.60], [0.54, 0.50, 0.58])
    assert result.gap == pytest.approx(0.02)
    assert result.score_step == pytest.approx(0.02) and result.spread_floored
    assert result.gap_high - result.gap_low == pytest.approx(2 * 4.303 * 0.02 / math.sqrt(3))
    assert result.gap_low < 0 and result.short_verdict == "no measurable inflation"
    assert result.verdict.startswith("no measurable inflation (gap +0.020 accuracy, 95% CI -0.030 to +0.070")
    assert "one score step (0.020)" in result.verdict


def test_identical_gaps_on_many_seeds_still_count():
    # Ten seeds, each one row better: a sign the floor does not hide a consistent gap.
    result = scored([0.56, 0.52, 0.60, 0.54, 0.50, 0.58, 0.62, 0.56, 0.52, 0.60], [s - 0.04 for s in
                    [0.56, 0.52, 0.60, 0.54, 0.50, 0.58, 0.62, 0.56, 0.52, 0.60]])
    assert result.gap_low > 0 and result.short_verdict == "inflated"


def test_the_floor_leaves_gaps_that_vary_by_more_than_a_step_alone():
    s = summarise([0.9, 0.7, 0.84], [0.5, 0.52, 0.48])
    assert s.score_step == pytest.approx(0.02) and not s.spread_floored


def test_the_same_scores_on_every_seed_are_one_measurement():
    # A fixed dataset and a fixed split: every seed repeats the same run.
    same = scored([0.961] * 10, [0.961] * 10)
    assert same.gap_low is None and same.score_step is None
    assert same.verdict == "no measurable inflation (gap +0.000 accuracy, the same scores on all 10 seeds: one measurement, no interval)"
    apart = scored([0.9] * 3, [0.5] * 3)
    assert not apart.measurable and apart.short_verdict == "same on every seed: no interval"
    assert "one measurement, no interval" in apart.verdict
