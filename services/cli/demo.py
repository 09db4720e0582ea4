"""``gamehall demo``: computer players play complete matches through the public HTTP API."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from domain.games import registry
from services.common.players import PublicFold, choose_command


class PatientTransport(httpx.HTTPTransport):
    """A client that honours the gateway's rate limits: on ``429`` it waits ``Retry-After`` (the
    body's ``retry_after`` when finer) and sends the request again (docs/api.md "Limits")."""

    ATTEMPTS = 50

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        for _ in range(self.ATTEMPTS):
            response = super().handle_request(request)
            if response.status_code != 429:
                return response
            response.read()
            try:
                wait = float(response.json().get("retry_after") or response.headers.get("retry-after", 1))
            except ValueError:
                wait = 1.0
            response.close()
            time.sleep(min(max(wait, 0.01), 5.0))
        return response



def create_match(
    client: httpx.Client, game: str, preset: str | None, players: list[str]
) -> tuple[str, dict[str, str]]:
    r = client.post(
        "/api/matches", json={"game": game, "preset": preset, "players": players, "seats": len(players)}
    )
    if r.status_code != 201:
        raise RuntimeError(f"create match failed: {r.status_code} {r.text}")
    created = r.json()
    return created["match_id"], {s["seat"]: s["token"] for s in created["seats"]}


class PlayerCredentials:
    """The demo players' API tokens: signed up on first use, kept in a private file (0600) of the
    data folder so later demos play as the same accounts (their ratings go on)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.tokens: dict[str, str] = {}
        if path is not None and path.exists():
            self.tokens = json.loads(path.read_text())

    def token(self, client: httpx.Client, player: str) -> str:
        if player not in self.tokens:
            r = client.post("/api/accounts", json={"name": player})
            if r.status_code != 201:
                raise RuntimeError(f"sign-up of {player} failed: {r.status_code} {r.text}")
            self.tokens[player] = r.json()["token"]
            self._save()
        return self.tokens[player]

    def _save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(self.tokens, out)


def queue_match(
    client: httpx.Client,
    game: str,
    preset: str | None,
    players: list[str],
    credentials: PlayerCredentials,
    timeout: float = 60.0,
) -> tuple[str, dict[str, str]]:
    """Rated play: every player joins the matchmaking queue with its API token; the table formed
    gives the seats."""
    tickets: dict[str, str] = {}
    auth = {p: {"Authorization": f"Bearer {credentials.token(client, p)}"} for p in players}
    deadline = time.monotonic() + timeout
    for player in players:
        while True:
            r = client.post(
                "/api/queue",
                json={"game": game, "preset": preset, "seats": len(players), "ranked": True},
                headers=auth[player],
            )
            if r.status_code == 200:
                tickets[player] = r.json()["ticket_id"]
                break
            # Matchmaking may still be starting (503), or still closing a player's last match (in_match).
            busy = r.status_code == 503 or (r.status_code == 409 and r.json().get("code") == "in_match")
            if busy and time.monotonic() < deadline:
                time.sleep(0.2)
                continue
            raise RuntimeError(f"queue for {player} failed: {r.status_code} {r.text}")
    tokens: dict[str, str] = {}
    match_id = ""
    while len(tokens) < len(players):
        if time.monotonic() > deadline:
            raise RuntimeError(f"matchmaking formed no table for {players} in {timeout:.0f}s")
        for player, ticket in tickets.items():
            seat = client.get(f"/api/queue/{ticket}", headers=auth[player]).json()
            if seat.get("state") == "seated":
                match_id = seat["match_id"]
                tokens[seat["seat"]] = seat["token"]
        time.sleep(0.05)
    return match_id, tokens


def play_match(
    client: httpx.Client,
    game: str,
    preset: str | None,
    strengths: tuple[str, ...],
    rng: random.Random,
    ranked: bool = False,
    max_decisions: int | None = None,
    progress: Callable[[str], None] | None = None,
    players: list[str] | None = None,
    credentials: PlayerCredentials | None = None,
) -> dict[str, Any]:
    decider = registry.get(game)
    players = players or [f"bot-{s}-{i + 1}" for i, s in enumerate(strengths)]
    if ranked:
        match_id, tokens = queue_match(client, game, preset, players, credentials or PlayerCredentials(None))
    else:
        match_id, tokens = create_match(client, game, preset, players)
    seat_strength = dict(zip(decider.seat_names(len(strengths)), strengths, strict=True))
    # One fold per seat, from the events redacted for that seat (hidden cards stay hidden).
    folds = {seat: PublicFold(game) for seat in tokens}
    limit = max_decisions or decider.max_decisions
    started = time.perf_counter()
    moves = 0
    while True:
        view = client.get(f"/api/matches/{match_id}").json()
        if view["status"] == "finished" or not view["to_move"]:
            break
        seat = view["to_move"][0]
        fold = folds[seat]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        fold.apply(
            client.get(f"/api/matches/{match_id}/events", params={"since": fold.seq}, headers=auth).json()
        )
        if moves >= limit:
            client.post(
                f"/api/matches/{match_id}/commands",
                json={"command": {"type": "resign.v1"}},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            continue
        command = choose_command(game, fold, seat, seat_strength[seat], rng)
        r = client.post(
            f"/api/matches/{match_id}/commands",
            json={"command": command},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        if r.status_code != 200:
            raise RuntimeError(f"match {match_id}: command {command} refused: {r.status_code} {r.text}")
        moves += 1
        if progress and moves % 50 == 0:
            progress(f"  {match_id}: {moves} moves")
    final = client.get(f"/api/matches/{match_id}").json()
    outcome = final["outcome"] or {}
    return {
        "match_id": match_id,
        "game": game,
        "preset": final["preset"],
        "players": dict(zip(final["seats"], final["players"], strict=True)),
        "ranked": ranked,
        "outcome": outcome_text(final["seats"], outcome),
        "ranks": outcome.get("ranks"),
        "reason": outcome.get("reason"),
        "moves": moves,
        "events": max(f.events for f in folds.values()),
        "decisions": final["seq"],
        "seconds": round(time.perf_counter() - started, 3),
    }


def outcome_text(seats: list[str], outcome: dict[str, Any]) -> str:
    if not outcome:
        return "unfinished"
    if outcome.get("draw"):
        return "draw"
    ranks = outcome["ranks"]
    winners = [s for s, r in zip(seats, ranks, strict=True) if r == 1]
    return f"{'+'.join(winners)} won"


def games_on_leaderboard(client: httpx.Client, game: str) -> int:
    board = client.get(f"/api/leaderboard/{game}").json()
    return sum(int(e.get("games", 0)) for e in board.get("entries", ()))


def wait_for_scoring(
    client: httpx.Client, game: str, match_ids: list[str], games_expected: int, timeout: float = 60.0
) -> bool:
    """Rated matches count once both projections have them: scoring's match history holds every
    match and the leaderboard's standings hold ``games_expected`` games."""
    deadline = time.monotonic() + timeout
    wanted = set(match_ids)
    while time.monotonic() < deadline:
        rows = client.get("/api/history", params={"game": game, "limit": 500}).json()
        if (
            wanted <= {row.get("match_id") for row in rows}
            and games_on_leaderboard(client, game) >= games_expected
        ):
            return True
        time.sleep(0.25)
    return False
