"""The alert rules are valid, each has promtool unit tests and a runbook (deploy/prometheus)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "deploy/prometheus/alerts.yml"
RULE_TESTS = ROOT / "deploy/prometheus/alerts_test.yml"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(
    PROMTOOL is None, reason="promtool missing (scripts/ensure-prometheus.sh installs it)"
)


def alert_names() -> list[str]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return [rule["alert"] for group in groups for rule in group["rules"] if "alert" in rule]


@needs_promtool
def test_promtool_accepts_the_rules() -> None:
    done = subprocess.run([PROMTOOL, "check", "rules", str(RULES)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@needs_promtool
def test_promtool_unit_tests_pass() -> None:
    done = subprocess.run(
        [PROMTOOL, "test", "rules", RULE_TESTS.name], cwd=RULE_TESTS.parent, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_alert_has_a_unit_test_that_expects_it_to_fire() -> None:
    tests = yaml.safe_load(RULE_TESTS.read_text())["tests"]
    firing = {
        case["alertname"] for t in tests for case in t.get("alert_rule_test", []) if case.get("exp_alerts")
    }
    missing = sorted(set(alert_names()) - firing)
    assert not missing, f"alerts without a promtool test in which they fire: {missing}"


def test_every_alert_has_a_runbook_section() -> None:
    runbooks = (ROOT / "docs/operations.md").read_text()
    headings = {h.strip() for h in re.findall(r"^#### (\S+)", runbooks, re.MULTILINE)}
    missing = [name for name in alert_names() if name not in headings]
    assert not missing, f"alerts without a runbook in docs/operations.md: {missing}"
    groups = yaml.safe_load(RULES.read_text())["groups"]
    for rule in (r for g in groups for r in g["rules"]):
        assert rule["annotations"]["runbook"] == f"docs/operations.md#{rule['alert'].lower()}"
