"""The state of one tournament: the fold of its events (``evolve``)."""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.tournaments import Standing, TournamentSettings

Phase = Literal["new", "registration", "running", "finished"]


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    seats: tuple[str, ...]
    ranks: tuple[int, ...] | None = None  # None: not played yet, or voided
    scores: tuple[int, ...] = ()
    forfeit: str = ""  # the player who forfeited
    voided: bool = False
    final_void: bool = False  # voided for good (a ruling): done, counting for nobody
    # The result's number among every result recorded (``TournamentState.results``): the order
    # games finished in, which an arena's streaks follow.  0 until recorded.
    finished_seq: int = 0


class RoundState(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    games: tuple[GameState, ...]
    byes: tuple[tuple[str, int], ...] = ()  # (player, half points)

    def complete(self) -> bool:
        return all(g.ranks is not None or g.final_void for g in self.games)


class TournamentState(msgspec.Struct, frozen=True, kw_only=True):
    phase: Phase = "new"
    tournament_id: str = ""
    settings: TournamentSettings | None = None
    entrants: tuple[str, ...] = ()  # join order
    ratings: tuple[float, ...] = ()  # beside entrants
    withdrawn: tuple[tuple[str, int], ...] = ()  # after the close: (player, rounds started then)
    server_seed: str = ""
    order: tuple[str, ...] = ()  # the seeding
    rounds: tuple[RoundState, ...] = ()
    standings: tuple[Standing, ...] = ()
    results: int = 0  # results and forfeits recorded so far (each game's ``finished_seq``)

    def withdrawn_players(self) -> frozenset[str]:
        return frozenset(p for p, _ in self.withdrawn)


def initial_state() -> TournamentState:
    return TournamentState()
