"""Settings: one typed class from the environment, a section per service, documented in full."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.matchmaking.pairing import GapStep
from services.cli.main import demo_settings
from services.common import settings as settings_mod
from services.referee.app import owned_partitions

ROOT = Path(__file__).resolve().parents[2]
ENV_READ = re.compile(r"os\.environ\.get\(|os\.getenv\(|os\.environ\[")


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for section in settings_mod.SECTIONS.values():
        for field in section.model_fields.values():
            if isinstance(field.validation_alias, str):
                monkeypatch.delenv(field.validation_alias, raising=False)
    return monkeypatch


def test_operations_doc_lists_every_variable_with_its_default_and_meaning() -> None:
    doc = (ROOT / "docs" / "operations.md").read_text()
    rows = settings_mod.reference_rows()
    assert len(rows) >= 17
    missing = [row for row in rows if row not in doc]
    assert not missing, "docs/operations.md is out of date:\n" + "\n".join(missing)


def test_no_service_reads_the_environment_outside_the_settings_class() -> None:
    readers = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "services").rglob("*.py")
        if path.name != "settings.py" and ENV_READ.search(path.read_text())
    ]
    assert readers == []


def test_defaults_without_environment(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    env.chdir(tmp_path)
    s = settings_mod.load()
    assert s.data_dir == tmp_path / ".gamehall"
    assert s.nats_url is None and s.database_url == f"sqlite:///{tmp_path / '.gamehall' / 'gamehall.sqlite3'}"
    assert (s.http_host, s.http_port, s.partitions, s.log_format) == ("127.0.0.1", 8000, 4, "auto")
    assert s.bots.think_ms == 600 and s.referee.owned_partitions is None
    assert s.matchmaking.policy().steps[-1] == GapStep(30_000, float("inf"))


def test_each_section_reads_its_variables(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    env.setenv("GAMEHALL_DATA_DIR", str(tmp_path))
    env.setenv("NATS_URL", "nats://10.0.0.1:4333")
    env.setenv("GAMEHALL_REFEREE_PARTITIONS", "0, 3")
    env.setenv("GAMEHALL_MM_STEPS", "0:25,500:inf")
    env.setenv("GAMEHALL_MM_BOT_FILL_MS", "300")
    env.setenv("GAMEHALL_BOT_THINK_MS", "30")
    env.setenv("GAMEHALL_GLICKO_TAU", "0.3")
    env.setenv("GAMEHALL_METRICS_PORT", "9101")
    s = settings_mod.load()
    assert s.data_dir == tmp_path and s.nats_url == "nats://10.0.0.1:4333"
    assert s.referee.owned_partitions == (0, 3)
    policy = s.matchmaking.policy()
    assert policy.steps == (GapStep(0, 25.0), GapStep(500, float("inf"))) and policy.bot_fill_after_ms == 300
    assert s.bots.think_ms == 30 and s.scoring.glicko_tau == 0.3 and s.metrics_port == 9101


def test_an_empty_variable_counts_as_unset(env: pytest.MonkeyPatch) -> None:
    env.setenv("NATS_URL", "")
    env.setenv("GAMEHALL_REFEREE_PARTITIONS", "")
    env.setenv("GAMEHALL_MM_STEPS", "")
    s = settings_mod.load()
    assert s.nats_url is None and s.referee.owned_partitions is None
    assert s.matchmaking.steps[0] == (0, 50.0)


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("GAMEHALL_HTTP_PORT", "eighty"),
        ("GAMEHALL_LOG_FORMAT", "xml"),
        ("GAMEHALL_MM_STEPS", "0-50"),
        ("GAMEHALL_BOT_THINK_MS", "-1"),
        ("GAMEHALL_PARTITIONS", "0"),
    ],
)
def test_a_bad_value_stops_start_up_naming_the_variable(
    env: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    env.setenv(variable, value)
    with pytest.raises(SystemExit, match=variable):
        settings_mod.load()


def test_replace_validates_and_keeps_the_other_fields(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    env.setenv("GAMEHALL_BOT_THINK_MS", "45")
    s = settings_mod.load().replace(nats_url="nats://x:1", data_dir=str(tmp_path))
    assert s.nats_url == "nats://x:1" and s.data_dir == tmp_path and s.bots.think_ms == 45
    with pytest.raises(ValueError):
        s.replace(http_port=70_000)


def test_referee_partitions_outside_the_partition_count_are_refused(env: pytest.MonkeyPatch) -> None:
    env.setenv("GAMEHALL_REFEREE_PARTITIONS", "1,4")
    with pytest.raises(SystemExit, match=r"\[4\]"):
        owned_partitions(settings_mod.load())
    env.setenv("GAMEHALL_PARTITIONS", "8")
    assert owned_partitions(settings_mod.load()) == (1, 4)


def test_ranked_demo_widens_the_gap_faster_unless_the_steps_are_set(env: pytest.MonkeyPatch) -> None:
    fast = demo_settings(settings_mod.load(), ranked=True).matchmaking.policy()
    assert fast.steps[1] == GapStep(1000, 200.0)
    assert demo_settings(settings_mod.load(), ranked=False).matchmaking.steps[1] == (5000, 100.0)
    env.setenv("GAMEHALL_MM_STEPS", "0:10")
    assert demo_settings(settings_mod.load(), ranked=True).matchmaking.steps == ((0, 10.0),)
