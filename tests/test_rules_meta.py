"""Every rule is complete: documented in ruff's sections, its example pair behaves."""
import ast
import re

import pytest

from leaklint.engine import lint_bytes
from leaklint.ruleset import SECTIONS, all_rules

RULES = all_rules()


def lint(rule, source: str):
    result = lint_bytes("example.py", source.encode(), [rule], {rule.code: rule.catalog})
    assert not result.errors and not result.internal
    return [f.code for f in result.findings]


def test_codes_unique_and_expected():
    codes = [r.code for r in RULES]
    assert len(codes) == len(set(codes))
    assert {"LL101", "LL102", "LL103", "LL104", "LL105", "LL201", "LL301", "LL302"} <= set(codes)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_is_complete(rule):
    assert re.fullmatch(r"LL\d{3}", rule.code)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)+", rule.name)
    assert rule.summary and rule.help and rule.catalog.names
    for title in SECTIONS:
        assert rule.section(title), f"{rule.code} lacks the section {title!r}"
    for title in ("Example", "Use instead"):
        ast.parse(rule.code_block(title))


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_severity_is_declared_and_explained(rule):
    assert rule.severity in ("error", "warning")
    assert f"Severity: {rule.severity}. " in rule.section("What it does")


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_example_is_flagged_and_fix_is_not(rule):
    assert rule.code in lint(rule, rule.code_block("Example"))
    assert lint(rule, rule.code_block("Use instead")) == []
