"""Ugolki state: two bitboards plus the counters and memories the end rules need."""

from __future__ import annotations

import msgspec

from contracts.games.ugolki import UgolkiRuleset
from contracts.match import Outcome

from .geometry import Geometry, geometry_for
from .rules import validate

WHITE = 0
BLACK = 1


class UgolkiState(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: UgolkiRuleset
    seats: tuple[str, str]
    white: int  # bitboard (see geometry)
    black: int
    moves_made: tuple[int, int] = (0, 0)  # per-player move counters, forced passes included (§0)
    turns: tuple[tuple[int, ...], ...] = ()  # every turn's path as bit indices; () = forced pass
    positions: tuple[int, ...] = ()  # repetition keys, starting with the initial position (§6.5)
    passes_in_row: int = 0  # consecutive forced passes (§6.10)
    copies: int = 0  # Black's mirror copies counted so far (§6.8)
    vrednyugi_bound: tuple[bool, bool] = (False, False)  # seat must empty its home first (§6.9)
    result: Outcome | None = None

    @property
    def geo(self) -> Geometry:
        return geometry_for(self.ruleset)

    @property
    def side(self) -> int:
        """Index of the side to move: White moves first, so White is to move when counters match."""
        return WHITE if self.moves_made[0] == self.moves_made[1] else BLACK

    def boards(self, side: int) -> tuple[int, int]:
        """(own, opponent) bitboards for ``side``."""
        return (self.white, self.black) if side == WHITE else (self.black, self.white)


def position_key(geo: Geometry, white: int, black: int, side: int) -> int:
    bits = geo.width * geo.n
    return (((white << bits) | black) << 1) | side


def initial_state(ruleset: UgolkiRuleset, seats: tuple[str, ...], seed: bytes | None = None) -> UgolkiState:
    problem = validate(ruleset, len(seats))
    if problem:
        raise ValueError(problem)
    geo = geometry_for(ruleset)
    white, black = geo.homes
    return UgolkiState(
        ruleset=ruleset,
        seats=(seats[0], seats[1]),
        white=white,
        black=black,
        positions=(position_key(geo, white, black, WHITE),),
    )


def position(
    ruleset: UgolkiRuleset,
    white: tuple[str, ...] | list[str],
    black: tuple[str, ...] | list[str],
    moves_made: tuple[int, int] = (0, 0),
    seats: tuple[str, str] = ("white", "black"),
) -> UgolkiState:
    """A constructed position (for tests, puzzles and analysis), side to move from the counters."""
    geo = geometry_for(ruleset)
    w = sum(1 << geo.index[sq] for sq in white)
    b = sum(1 << geo.index[sq] for sq in black)
    if w & b or w.bit_count() != len(white) or b.bit_count() != len(black):
        raise ValueError("squares must be distinct")
    if not 0 <= moves_made[0] - moves_made[1] <= 1:
        raise ValueError("White's counter is Black's or one more (§0)")
    side = WHITE if moves_made[0] == moves_made[1] else BLACK
    bound = (False, False)
    if ruleset.vrednyugi:  # §6.9 in force if a side has already vacated its own home
        bound = (not b & geo.homes[BLACK], not w & geo.homes[WHITE])
    return UgolkiState(
        vrednyugi_bound=bound,
        ruleset=ruleset,
        seats=seats,
        white=w,
        black=b,
        moves_made=moves_made,
        positions=(position_key(geo, w, b, side),),
    )


def to_move(state: UgolkiState) -> frozenset[str]:
    if state.result is not None:
        return frozenset()
    return frozenset({state.seats[state.side]})


def outcome(state: UgolkiState) -> Outcome | None:
    return state.result
