"""The typed client library (gamehall.client) against a real nats-server, referee, gateway and
bots service: creation replies, typed views and game views, refusals as ApiError, the match
socket with commands and error frames, a person against the computer to the end, and the
documented example client (docs/examples/ugolki_client.py)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest

from contracts.api import ErrorBody
from contracts.games.kings_corner import KingsCornerView
from contracts.games.ugolki import UGOLKI_REJECTION_CODES, MovePiece, UgolkiView
from gamehall.client import (
    Accepted,
    ApiError,
    EventsFrame,
    GamehallClient,
    ReplyFrame,
    StreamClosed,
    ViewFrame,
    game_view,
)
from services.bots import app as bots_app
from services.cli.stackrun import in_process_stack
from services.common import settings as settings_module
from services.common.players import PublicFold, choose_command
from tests.support.gateway import OPEN

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def stack(nats_url: str, data_dir: Path) -> AsyncIterator[str]:
    settings = settings_module.load().replace(
        nats_url=nats_url, data_dir=data_dir, gateway=settings_module.GatewaySettings.of(OPEN)
    )
    stop = asyncio.Event()
    bots = asyncio.create_task(bots_app.run(settings, stop, metrics_port=None))
    try:
        async with in_process_stack(settings, ("referee", "gateway")) as url:
            yield url
    finally:
        stop.set()
        await bots


async def test_create_read_refuse_and_play_over_the_socket(nats_url: str, tmp_path: Path) -> None:
    async with stack(nats_url, tmp_path) as url, GamehallClient(url) as gh:
        created = await gh.create_match("ugolki", preset="mini-3x3", players=["ann", "bob"])
        assert [s.seat for s in created.seats] == ["white", "black"] and created.bots == ()
        assert created.invites[0].url == f"/#/play/{created.match_id}?token={created.token('white')}"
        white, black = created.token("white"), created.token("black")

        view = await gh.match(created.match_id, token=white)
        assert view.viewer == "white" and view.to_move == ("white",) and view.legal_moves
        board = game_view(view)
        assert isinstance(board, UgolkiView) and len(board.white) == 9 and len(board.white_home) == 9

        with pytest.raises(ApiError) as refused:
            await gh.send(created.match_id, MovePiece(path=("a1", "a2")), token=white)
        assert refused.value.status == 409 and refused.value.code in UGOLKI_REJECTION_CODES
        with pytest.raises(ApiError) as wrong:
            await gh.send(created.match_id, view.legal_moves[0].command, token="white.not-a-token")
        assert (wrong.value.status, wrong.value.code) == (401, "bad_token")
        with pytest.raises(ApiError) as unknown:
            await gh.match("no-such-match")
        assert (unknown.value.status, unknown.value.code) == (404, "match_not_found")

        reply = await gh.send(created.match_id, view.legal_moves[0].command, token=white, command_id="m1")
        assert isinstance(reply, Accepted) and reply.seq == 2 and not reply.duplicate
        again = await gh.send(created.match_id, view.legal_moves[0].command, token=white, command_id="m1")
        assert again.duplicate and again.seq == 2
        decisions = await gh.events(created.match_id, token=white)
        assert [d.seq for d in decisions] == [1, 2] and decisions[1].seat == "white"

        # Black plays its moves over the socket: its frames and replies arrive typed.
        async with gh.stream(created.match_id, token=black) as socket:
            events = await socket.receive()
            assert isinstance(events, EventsFrame) and [d.seq for d in events.events] == [1, 2]
            first = await socket.receive()
            assert isinstance(first, ViewFrame) and first.view.to_move == ("black",)
            sent = await socket.send(first.view.legal_moves[0].command)
            replies = []
            while not replies:
                frame = await socket.receive()
                if isinstance(frame, ReplyFrame):
                    replies.append(frame)
            assert replies[0].command_id == sent and isinstance(replies[0].reply, Accepted)
            assert socket.seq >= 2
            # A frame the server cannot take: an error frame, then the documented close code.
            assert socket.ws is not None
            await socket.ws.send('{"type": "hello"}')
            with pytest.raises(StreamClosed) as closed:
                while True:
                    await socket.receive()
            assert closed.value.close_code == 4400 and closed.value.error is not None
            assert closed.value.error.code == "unknown_type"

        with pytest.raises(StreamClosed) as bad_token:
            async with gh.stream(created.match_id, token="black.not-a-token") as socket:
                await socket.receive()
        assert bad_token.value.close_code == 4401 and bad_token.value.error is not None
        assert bad_token.value.error.code == "bad_token"


async def test_a_person_against_the_computer_to_the_end(nats_url: str, tmp_path: Path) -> None:
    """Kings in the Corner: the computer's seat goes to the bots service (which plays through the
    same client library); the person's seat plays from its own redacted events."""
    async with stack(nats_url, tmp_path) as url, GamehallClient(url) as gh:
        created = await gh.create_match(
            "kings-corner", players=["ann", "cpu"], bots={"p2": "heuristic"}, bot_think_ms=0
        )
        assert [s.seat for s in created.seats] == ["p1"]
        assert [(b.seat, b.strength, b.status) for b in created.bots] == [("p2", "heuristic", "seated")]
        token = created.token("p1")
        fold, rng = PublicFold("kings-corner"), random.Random(5)
        mine = 0
        async with gh.stream(created.match_id, token=token) as socket:
            async for frame in socket:
                if isinstance(frame, EventsFrame):
                    fold.apply(msgspec.to_builtins(frame.events))
                elif isinstance(frame, ViewFrame):
                    view = frame.view
                    if view.status == "finished":
                        break
                    if "p1" in view.to_move and fold.seq >= view.seq:
                        await socket.send(choose_command("kings-corner", fold, "p1", "random", rng))
                        mine += 1
                        assert mine < 400
        assert view.outcome is not None
        table = game_view(view)
        assert isinstance(table, KingsCornerView)
        assert (await gh.match(created.match_id)).status == "finished"


async def test_error_answers_decode_as_the_one_error_body(nats_url: str, tmp_path: Path) -> None:
    async with stack(nats_url, tmp_path) as url, GamehallClient(url) as gh:
        with pytest.raises(ApiError) as bad:
            await gh.create_match("ugolki", preset="no-such-preset")
        assert (bad.value.status, bad.value.code) == (400, "unknown_preset") and bad.value.detail
        response = await gh.http.post("/api/matches", json={"game": "ugolki", "bogus": 1})
        body = msgspec.json.decode(response.content, type=ErrorBody)
        assert response.status_code == 422 and body.code == "malformed"
        # A creation without players: the seats are guests named after them (docs/api.md).
        created = await gh.create_match("ugolki", preset="mini-3x3")
        assert (await gh.match(created.match_id)).players == ("guest-white", "guest-black")


async def test_the_documented_example_client_plays_a_match(nats_url: str, tmp_path: Path) -> None:
    async with stack(nats_url, tmp_path) as url:
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, str(ROOT / "docs" / "examples" / "ugolki_client.py"), url],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=ROOT,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "illegal move refused: 409" in done.stdout
    assert " won " in done.stdout or "draw" in done.stdout
    assert "audit bundle:" in done.stdout


async def test_the_snippet_in_docs_api_md_runs(nats_url: str, tmp_path: Path) -> None:
    """The client library's example in docs/api.md, as printed there, against the stack."""
    text = (ROOT / "docs" / "api.md").read_text()
    section = text.split("## The client library", 1)[1]
    snippet = section.split("```python\n", 1)[1].split("```", 1)[0]
    async with stack(nats_url, tmp_path) as url:
        script = tmp_path / "snippet.py"
        script.write_text(snippet.replace("http://127.0.0.1:8000", url))
        done = await asyncio.to_thread(
            subprocess.run, [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=ROOT
        )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("409 ") and lines[0].split()[1] in UGOLKI_REJECTION_CODES
    assert "Outcome(" in lines[1]
    # The stale-view rule of the text: no view older than the last accepted command is answered.
    assert lines[2] == "refused on the socket: 0"
