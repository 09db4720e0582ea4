"""The state of a draughts game (rules/draughts.md): the pieces as four bitboards over the 32
squares of ``board``, the side to move, and the counts of the draw rules of §7."""

from __future__ import annotations

from dataclasses import dataclass

from contracts.games.draughts import DraughtsRuleset
from contracts.match import Outcome

from .board import WHITE


@dataclass(frozen=True, slots=True)
class Move:
    """One move: every square the piece stands on from its origin (``path[0]``) to its end, the
    squares of the pieces it takes in order, and whether it ends as a king it was not."""

    path: tuple[int, ...]
    captured: tuple[int, ...] = ()
    promoted: bool = False

    @property
    def origin(self) -> int:
        return self.path[0]

    @property
    def final(self) -> int:
        return self.path[-1]

    def effect(self) -> tuple[int, int, frozenset[int], bool]:
        """What makes two paths one move (§5.7): origin, final square, captured set, end kind."""
        return self.path[0], self.path[-1], frozenset(self.captured), self.promoted


@dataclass(frozen=True, slots=True)
class Position:
    men: tuple[int, int]  # white's, black's
    kings: tuple[int, int]
    side: int  # WHITE or BLACK to move

    def pieces(self, side: int) -> int:
        return self.men[side] | self.kings[side]

    def occupied(self) -> int:
        return self.men[0] | self.men[1] | self.kings[0] | self.kings[1]


@dataclass(frozen=True, slots=True)
class Counts:
    """The draw rules' counts (§7.2-§7.6), as they stand after the last move."""

    seen: tuple[Position, ...]  # the positions since the last man move or capture, this one last
    kings_only: int = 0  # plies of king moves without a capture (§7.6)
    stable: int = 0  # plies since the last capture or promotion (§7.5)
    three_kings: int | None = None  # the strong side's moves while TK holds (§7.3)
    main_road: int | None = None  # ... while MR holds (§7.4)
    strong: int | None = None  # the strong side of TK / MR


@dataclass(frozen=True, slots=True)
class DraughtsState:
    rules: DraughtsRuleset
    seats: tuple[str, str]
    pos: Position
    counts: Counts
    history: tuple[Move, ...] = ()
    result: Outcome | None = None

    @property
    def side(self) -> int:
        return self.pos.side

    def seat_of(self, side: int) -> str:
        return self.seats[side]


def to_move(state: DraughtsState) -> frozenset[str]:
    if state.result is not None:
        return frozenset()
    return frozenset({state.seats[state.pos.side]})


def outcome(state: DraughtsState) -> Outcome | None:
    return state.result


def other(side: int) -> int:
    return 1 - side


__all__ = ["WHITE", "Counts", "DraughtsState", "Move", "Position", "outcome", "to_move", "other"]
