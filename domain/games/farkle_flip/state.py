"""State of a Farkle Flip match (rules/thousand-and-farkle-flip.md §3.9 ``FFState``) and its set-up.

The phases are the ``status`` values: ``waiting`` (until every seat has sent Ready), ``playing``
(one seat's turn), ``finished``; a table whose seats the ruleset cannot deal to is ``invalid``
(``seat_problem``) whatever its status (``phases.py``).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games.farkle_flip import FarkleFlipRuleset

Status = Literal["waiting", "playing", "finished"]

# A card in an area: (value, lost group id); group 0 = in no lost group.
Card = tuple[str, int]


class Combo(msgspec.Struct, frozen=True, kw_only=True):
    """A locked combination in the centre (immutable, 004:L1168, L1194)."""

    owner: int
    cards: tuple[str, ...]
    pattern: str
    value: int


class FFState(msgspec.Struct, frozen=True, kw_only=True):
    rules: FarkleFlipRuleset
    seats: tuple[str, ...]
    seed: bytes | None  # the server seed; never in a view or a redacted event
    seat_problem: str | None = None
    client_seeds: tuple[str, ...] = ()
    ready: tuple[bool, ...] = ()
    status: Status = "waiting"
    dealer: int = -1
    draw_pile: tuple[str, ...] = ()  # top first; "??" in a seat's information state
    scored_pile: tuple[str, ...] = ()  # face down, in the order cards were scored
    set_aside: tuple[str, ...] = ()  # Farkle cards dealt at set-up (FF2)
    reshuffles: int = 0
    given_order: tuple[str, ...] | None = None  # a game record's order for the next reshuffle
    banked: tuple[int, ...] = ()
    on_board: tuple[bool, ...] = ()
    farkle_held: tuple[int, ...] = ()
    areas: tuple[tuple[Card, ...], ...] = ()
    next_group: int = 1
    # the turn
    current: int = -1
    pending: str | None = None
    centre: tuple[Combo, ...] = ()
    draws: int = 0
    last_placed: tuple[int, int] | None = None  # (owner, position) of this turn's latest PLACE (FF4)
    start_dry: bool = False  # the turn started with both piles empty (FF3)
    turn_banked: bool = False
    dry_turns: int = 0
    turn_rows: tuple[tuple[int, ...], ...] = ()  # banked scores after each turn (records)
    turn_seats: tuple[int, ...] = ()  # who played each turn of turn_rows
    # the end
    trigger: int = -1
    remaining: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()
    end_reason: str = ""

    def piles_empty(self) -> bool:
        return not self.draw_pile and not self.scored_pile


def initial_state(rules: FarkleFlipRuleset, seats: tuple[str, ...], seed: bytes | None) -> FFState:
    n = len(seats)
    return FFState(
        rules=rules,
        seats=tuple(seats),
        seed=seed,
        seat_problem=rules.check_seats(n),
        client_seeds=("",) * n,
        ready=(False,) * n,
    )
