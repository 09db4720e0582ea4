"""``gamehall accounts grant-operator`` and ``gamehall disputes`` against a real nats-server and
database (issue 14 "Disputes"; README command list)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from contracts import subjects
from contracts.codecs import encode
from domain import disputes as d
from services.cli.main import app
from services.common import accounts, db, natsio, serverkey
from tests.support.natsserver import nats_server

pytestmark = pytest.mark.integration


async def _seed(url: str) -> int:
    """A dispute opened by a player of a (stored elsewhere) match, as the gateway appends it."""
    nc = await natsio.connect(url, "test")
    js = nc.jetstream()
    await natsio.ensure_streams(js)
    facts = d.MatchFacts(
        match_id="cli-m1", game="ugolki", finished=True, seats=("white", "black"), players=("ann", "bob"), ranks=(1, 2)
    )
    event = d.opened(facts, {}, d.Actor(name="bob"), "misclick", 1_000)
    await js.publish(subjects.dispute_subject("cli-m1"), encode(event))
    count = int((await js.stream_info(subjects.DISPUTE_STREAM)).state.messages)
    await nc.drain()
    return count


async def _count(url: str) -> int:
    nc = await natsio.connect(url, "test")
    count = int((await nc.jetstream().stream_info(subjects.DISPUTE_STREAM)).state.messages)
    await nc.drain()
    return count


def test_operator_role_and_disputes_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with nats_server(tmp_path / "nats") as url:
        monkeypatch.setenv("GAMEHALL_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("NATS_URL", url)
        monkeypatch.delenv("GAMEHALL_DB_URL", raising=False)
        runner = CliRunner()

        def run(*args: str) -> object:
            return runner.invoke(app, list(args), prog_name="gamehall")

        stored = asyncio.run(_seed(url))
        engine = db.open_database(f"sqlite:///{tmp_path / 'gamehall.sqlite3'}")
        assert not isinstance(accounts.sign_up(engine, "olga", serverkey.ServerKey.generate()), type(None))
        engine.dispose()

        result = run("disputes", "rule", "cli-m1-1", "void", "--reason", "x", "--by", "olga")
        assert result.exit_code == 1 and "not_an_operator" in result.output  # type: ignore[attr-defined]
        assert asyncio.run(_count(url)) == stored  # nothing stored
        result = run("accounts", "grant-operator", "nobody")
        assert result.exit_code == 1 and "unknown_player" in result.output  # type: ignore[attr-defined]
        assert run("accounts", "grant-operator", "olga").exit_code == 0  # type: ignore[attr-defined]
        listed = run("accounts", "list", "--operators", "--json")
        assert [json.loads(line)["name"] for line in listed.output.splitlines()] == ["olga"]  # type: ignore[attr-defined]

        result = run("disputes", "list", "--json")
        assert [json.loads(line)["dispute_id"] for line in result.output.splitlines()] == ["cli-m1-1"]  # type: ignore[attr-defined]
        result = run("disputes", "open", "nosuch", "--reason", "x", "--by", "olga")
        assert result.exit_code == 1 and "match_not_found" in result.output  # type: ignore[attr-defined]
        result = run("disputes", "rule", "cli-m1-1", "amended", "--ranks", "2,x", "--reason", "x", "--by", "olga")
        assert result.exit_code == 2  # type: ignore[attr-defined]
        assert run("disputes", "note", "cli-m1-1", "--text", "looked at it", "--by", "olga").exit_code == 0  # type: ignore[attr-defined]
        result = run("disputes", "rule", "cli-m1-1", "amended", "--ranks", "2,1", "--reason", "wrong seat", "--by", "olga", "--json")
        assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
        ruled = json.loads(result.output)  # type: ignore[attr-defined]
        assert ruled["status"] == "ruled" and ruled["ruling"]["ranks"] == [2, 1] and ruled["notes"][0]["author"] == "olga"
        result = run("disputes", "rule", "cli-m1-1", "void", "--reason", "again", "--by", "olga")
        assert result.exit_code == 1 and "dispute_closed" in result.output  # type: ignore[attr-defined]
        shown = run("disputes", "show", "cli-m1-1")
        assert "ruled amended ranks [2, 1] by olga" in shown.output  # type: ignore[attr-defined]
        assert asyncio.run(_count(url)) == stored + 2
