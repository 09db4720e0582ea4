"""Remaining time in every game's views and WebSocket stream (docs/api.md, the clock in every
view): the match layer composes ``clock`` around each game's own view, so a WebSocket client of
any game counts down from the same fields, and after a move the next ``view`` frame carries the
new clocks."""

from __future__ import annotations

import json

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from domain.games import registry

pytestmark = pytest.mark.integration


def next_view(ws) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == "view":
            return message["view"]


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_games_websocket_views_carry_the_clock(gateway: str, game: str) -> None:
    tc = {"base_s": 120, "increment_s": 2, "grace_s": 90, "on_timeout": "forfeit"}
    created = httpx.post(f"{gateway}/api/matches", json={"game": game, "time_control": tc}, timeout=30)
    assert created.status_code == 201, created.text
    body = created.json()
    seats = [s["seat"] for s in body["seats"]]
    sockets = {
        s["seat"]: ws_connect(
            gateway.replace("http://", "ws://") + f"/ws/matches/{body['match_id']}?token={s['token']}",
            max_size=None,
            open_timeout=10,
        )
        for s in body["seats"]
    }
    try:
        views = {seat: next_view(ws) for seat, ws in sockets.items()}
        for view in views.values():
            clock = view["clock"]
            assert clock["time_control"] == {**tc, "move_s": 0}
            assert clock["remaining_ms"] == [120_000] * len(seats)
            running = clock["running"]
            assert running and running == [s for s in seats if s in view["to_move"]]
            for i, s in enumerate(seats):
                due = clock["since"] + 120_000 if s in running else 0
                assert clock["deadlines"][i] == due
                assert clock["abandon_at"][i] == (clock["since"] + 90_000 if s in running else 0)
        # The seat to move plays its first legal move; every socket's next view has new clocks.
        mover = views[seats[0]]["to_move"][0]
        move = views[mover]["legal_moves"][0]["command"]
        sockets[mover].send(json.dumps({"type": "command", "command": move, "command_id": "first"}))
        after = next_view(sockets[mover])
        assert after["seq"] == 2 and after["clock"]["since"] >= views[mover]["clock"]["since"]
        i = seats.index(mover)
        spent = after["clock"]["since"] - views[mover]["clock"]["since"]
        # Fischer: the mover was charged the time it took and got its increment back.
        assert after["clock"]["remaining_ms"][i] == 120_000 - spent + 2_000
    finally:
        for ws in sockets.values():
            ws.close()
