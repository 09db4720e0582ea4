"""The scoring and leaderboard services as run by ``gamehall serve``, then the CLI on their tables:
``gamehall leaderboard --game G --json`` and ``gamehall ratings rebuild --check``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import typer
from sqlalchemy import select
from typer.testing import CliRunner

from contracts import subjects
from contracts.codecs import encode
from services.cli import rebuild
from services.cli.ranked import leaderboard_cmd, ratings_app
from services.common import db, natsio
from services.common import settings as settings_mod
from services.leaderboard import app as leaderboard_app
from services.scoring import app as scoring_app
from tests.integration import ranked_support
from tests.integration.ranked_support import finished

pytestmark = pytest.mark.integration
ranked_nats = ranked_support.ranked_nats
T0 = 1_790_000_000_000


def cli() -> typer.Typer:
    app = typer.Typer()
    app.command("leaderboard")(leaderboard_cmd)
    app.add_typer(ratings_app, name="ratings")
    return app


async def _play_and_project(nats_url: str) -> None:
    settings = settings_mod.load()
    nc = await natsio.connect(nats_url, "test")
    js = nc.jetstream()
    await natsio.ensure_streams(js)
    players = ["ann", "bob", "cid", "dan"]
    for i in range(20):
        a, b = players[i % 4], players[(i + 1 + i // 4) % 4]
        if a == b:
            b = players[(i + 2) % 4]
        m = finished(f"cli-{i}", (a, b), (1, 2) if i % 3 else (2, 1), T0 + i * 60_000)
        await js.publish(
            subjects.MATCH_FINISHED, encode(m), headers={subjects.MSG_ID: f"finished:{m.match_id}"}
        )
    last = await rebuild.last_seq(js, subjects.MATCH_FINISHED)
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(scoring_app.run(settings, stop, metrics_port=None)),
        asyncio.create_task(leaderboard_app.run(settings, stop, metrics_port=None)),
    ]
    engine = db.make_engine(settings.database_url)
    for _ in range(400):
        await asyncio.sleep(0.05)
        try:
            rating_seq = await rebuild.last_seq(js, subjects.RATING_APPLIED)
            if rating_seq and rebuild.live_caught_up(engine, last, rating_seq):
                break
        except Exception:  # noqa: BLE001 - tables not migrated yet
            continue
    else:
        raise AssertionError("projections did not catch up")
    stop.set()
    await asyncio.gather(*tasks)
    engine.dispose()
    await nc.drain()


def test_leaderboard_and_rebuild_check(
    ranked_nats: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMEHALL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("NATS_URL", ranked_nats)
    monkeypatch.delenv("GAMEHALL_DB_URL", raising=False)
    asyncio.run(_play_and_project(ranked_nats))

    runner = CliRunner()
    result = runner.invoke(cli(), ["leaderboard", "--game", "ugolki", "--json"])
    assert result.exit_code == 0, result.output
    board = json.loads(result.output)
    assert {e["player"] for e in board["entries"]} == {"ann", "bob", "cid", "dan"}
    assert sum(e["games"] for e in board["entries"]) == 40
    assert all(e["rating"] > 0 and e["games"] > 0 for e in board["entries"])
    text = runner.invoke(cli(), ["leaderboard", "--game", "ugolki"])
    assert text.exit_code == 0 and "ann" in text.output

    ok = runner.invoke(cli(), ["ratings", "rebuild", "--check"])
    assert ok.exit_code == 0, ok.output
    assert "OK" in ok.output

    engine = db.make_engine(settings_mod.load().database_url)
    with db.session_scope(engine) as session:
        row = session.scalars(select(db.Rating)).first()
        assert row is not None
        row.rating += 0.001
    engine.dispose()
    bad = runner.invoke(cli(), ["ratings", "rebuild", "--check", "--wait", "0"])
    assert bad.exit_code == 1 and "differs" in bad.output
    fixed = runner.invoke(cli(), ["ratings", "rebuild"])
    assert fixed.exit_code == 0, fixed.output
    assert runner.invoke(cli(), ["ratings", "rebuild", "--check", "--wait", "0"]).exit_code == 0
