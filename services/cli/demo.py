"""``gamehall demo``: computer players play complete matches through the public HTTP API, with the
typed client library (``gamehall.client``: typed replies and views, ``429`` waited out)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from domain.games import registry
from gamehall.client import ApiError, GamehallClient
from services.common.players import PublicFold, choose_command


def strengths(decider: Any) -> list[str]:
    """The game's computer players by strength name in the order the game declares them (weakest
    first; ``random`` for a game without any)."""
    return list(decider.bots or {"random": None})


def seat_strengths(declared: list[str], chosen: tuple[str, ...], n: int) -> tuple[str, ...]:
    """The computer player of each of ``n`` seats: ``chosen`` (``--strength``), its last one
    repeated for the seats it does not name; without any, the strongest declared in the first
    seat and every other one after it, the weakest in the others."""
    if not chosen:
        chosen = tuple(declared[-1] if i % 2 == 0 else declared[0] for i in range(n))
    if len(chosen) < n:
        chosen = chosen + tuple(chosen[-1] for _ in range(n - len(chosen)))
    return chosen


async def create_match(
    client: GamehallClient, game: str, preset: str | None, players: list[str]
) -> tuple[str, dict[str, str]]:
    try:
        created = await client.create_match(game, preset=preset, players=players, seats=len(players))
    except ApiError as exc:
        raise RuntimeError(f"create match failed: {exc}") from exc
    return created.match_id, {s.seat: s.token for s in created.seats}


class PlayerCredentials:
    """The demo players' API tokens: signed up on first use, kept in a private file (0600) of the
    data folder so later demos play as the same accounts (their ratings go on)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.tokens: dict[str, str] = {}
        if path is not None and path.exists():
            self.tokens = json.loads(path.read_text())

    async def token(self, client: GamehallClient, player: str) -> str:
        if player not in self.tokens:
            try:
                response = await client.request("POST", "/api/accounts", json={"name": player})
            except ApiError as exc:
                raise RuntimeError(f"sign-up of {player} failed: {exc}") from exc
            self.tokens[player] = response.json()["token"]
            self._save()
        return self.tokens[player]

    def _save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(self.tokens, out)


async def queue_match(
    client: GamehallClient,
    game: str,
    preset: str | None,
    players: list[str],
    credentials: PlayerCredentials,
    timeout: float = 60.0,
) -> tuple[str, dict[str, str]]:
    """Rated play: every player joins the matchmaking queue with its API token; the table formed
    gives the seats."""
    tickets: dict[str, str] = {}
    auth = {p: await credentials.token(client, p) for p in players}
    deadline = time.monotonic() + timeout
    for player in players:
        while True:
            try:
                queued = await client.join_queue(
                    game, preset=preset, seats=len(players), ranked=True, credential=auth[player]
                )
            except ApiError as exc:
                # Matchmaking may still be starting (503), or still closing a player's last match (in_match).
                busy = exc.status == 503 or exc.code == "in_match"
                if busy and time.monotonic() < deadline:
                    await asyncio.sleep(0.2)
                    continue
                raise RuntimeError(f"queue for {player} failed: {exc}") from exc
            tickets[player] = queued["ticket_id"]
            break
    tokens: dict[str, str] = {}
    match_id = ""
    while len(tokens) < len(players):
        if time.monotonic() > deadline:
            raise RuntimeError(f"matchmaking formed no table for {players} in {timeout:.0f}s")
        for player, ticket in tickets.items():
            seat = await client.ticket(ticket, credential=auth[player])
            if seat.get("state") == "seated":
                match_id = seat["match_id"]
                tokens[seat["seat"]] = seat["token"]
        await asyncio.sleep(0.05)
    return match_id, tokens


async def play_match(
    client: GamehallClient,
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
        match_id, tokens = await queue_match(
            client, game, preset, players, credentials or PlayerCredentials(None)
        )
    else:
        match_id, tokens = await create_match(client, game, preset, players)
    seat_strength = dict(zip(decider.seat_names(len(strengths)), strengths, strict=True))
    # One fold per seat, from the events redacted for that seat (hidden cards stay hidden).
    folds = {seat: PublicFold(game) for seat in tokens}
    limit = max_decisions or decider.max_decisions
    started = time.perf_counter()
    moves = 0
    while True:
        view = await client.match(match_id)
        if view.status == "finished" or not view.to_move:
            break
        seat = view.to_move[0]
        fold = folds[seat]
        fold.apply(msgspec.to_builtins(await client.events(match_id, since=fold.seq, token=tokens[seat])))
        if moves >= limit:
            await client.send(match_id, {"type": "resign.v1"}, token=tokens[seat])
            continue
        command = choose_command(game, fold, seat, seat_strength[seat], rng)
        try:
            await client.send(match_id, command, token=tokens[seat])
        except ApiError as exc:
            raise RuntimeError(f"match {match_id}: command {command} refused: {exc}") from exc
        moves += 1
        if progress and moves % 50 == 0:
            progress(f"  {match_id}: {moves} moves")
    final = await client.match(match_id)
    outcome = msgspec.to_builtins(final.outcome) if final.outcome is not None else {}
    return {
        "match_id": match_id,
        "game": game,
        "preset": final.preset,
        "players": dict(zip(final.seats, final.players, strict=True)),
        "ranked": ranked,
        "outcome": outcome_text(list(final.seats), outcome),
        "ranks": outcome.get("ranks"),
        "reason": outcome.get("reason"),
        "moves": moves,
        "events": max(f.events for f in folds.values()),
        "decisions": final.seq,
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


async def games_on_leaderboard(client: GamehallClient, game: str) -> int:
    board = await client.leaderboard(game)
    return sum(int(e.get("games", 0)) for e in board.get("entries", ()))


async def wait_for_scoring(
    client: GamehallClient, game: str, match_ids: list[str], games_expected: int, timeout: float = 60.0
) -> bool:
    """Rated matches count once both projections have them: scoring's match history holds every
    match and the leaderboard's standings hold ``games_expected`` games."""
    deadline = time.monotonic() + timeout
    wanted = set(match_ids)
    while time.monotonic() < deadline:
        rows = await client.history(game=game, limit=500)
        if wanted <= {row.get("match_id") for row in rows} and await games_on_leaderboard(client, game) >= games_expected:
            return True
        await asyncio.sleep(0.25)
    return False
