"""The state of a Tablut game (rules/tablut.md): the board, the side to move, how often each
position has occurred (§8.4), the defenders' moves (§8.5), the moves played and the result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from contracts.games.tablut import TablutRuleset
from contracts.match import Outcome


@dataclass(frozen=True, slots=True)
class Played:
    """One move as played: its squares, what it took (canonical order, T3) and its check (§8.7)."""

    origin: int
    to: int
    captured: tuple[int, ...] = ()
    check: bool = False
    routes: int = 0
    wins: bool = False  # the move won the game (escape or the king captured): ``++``


@dataclass(frozen=True, slots=True)
class TablutState:
    rules: TablutRuleset
    seats: tuple[str, str]
    board: bytes
    side: int  # ATTACKERS or DEFENDERS to move
    seen: Mapping[tuple[bytes, int], int]  # position -> occurrences, the start included
    defenders_moves: int = 0
    history: tuple[Played, ...] = ()
    result: Outcome | None = None

    @property
    def key(self) -> tuple[bytes, int]:
        return self.board, self.side


def to_move(state: TablutState) -> frozenset[str]:
    if state.result is not None:
        return frozenset()
    return frozenset({state.seats[state.side]})


def outcome(state: TablutState) -> Outcome | None:
    return state.result
