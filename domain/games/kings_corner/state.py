"""State of a Kings in the Corner match, its phases and the card facts the rules read.

Phases (``KCState.phase``; ``decide`` and ``legal_commands`` are driven by the table in
``decide.py``):

- ``waiting``: before the first deal; every seat sends Ready (with an optional client seed);
- ``play``: a round is being played; the current seat acts (A2-A6 of rules/kings-corner.md §5.4);
- ``place``: V16 (``going_out = after_stock_exhausted``): the card drawn after going out fits an
  empty slot and must be played there before anything else (§5.6);
- ``scored``: the round has been scored and its hands are revealed; the next deal waits for
  every active seat's Ready;
- ``over``: the match is over.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games.kings_corner import SLOTS, KingsCornerRuleset, RoundEnded
from domain.core import cards
from domain.core.cardgame import lifecycle

N_CROSS = 4  # slots 0..3 are N E S W; 4..7 are NE SE SW NW
N_SLOTS = 8
CROSS = (0, 1, 2, 3)
CORNERS = (4, 5, 6, 7)
SLOT_INDEX = {s: i for i, s in enumerate(SLOTS)}

Phase = Literal["waiting", "play", "place", "scored", "over"]
IN_ROUND: frozenset[str] = frozenset({"play", "place"})
# The view's status names (contracts.games.kings_corner.KingsCornerView.status) per phase.
STATUS: dict[str, Literal["waiting", "playing", "round_over", "finished"]] = {
    "waiting": "waiting",
    "play": "playing",
    "place": "playing",
    "scored": "round_over",
    "over": "finished",
}


class KCState(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: KingsCornerRuleset
    seats: tuple[str, ...]
    seed: bytes | None  # the server seed; never in a view or a redacted event
    seat_problem: str | None = None  # a seat count this ruleset cannot deal
    client_seeds: tuple[str, ...] = ()
    ready: tuple[bool, ...] = ()
    phase: Phase = lifecycle.WAITING
    round_no: int = 0
    dealer: int = -1
    totals: tuple[int, ...] = ()  # penalty points, or the chips / pool ledger
    pot: int = 0
    out_round: tuple[int, ...] = ()  # round in which a seat was eliminated; 0 = still playing
    results: tuple[RoundEnded, ...] = ()
    ranks: tuple[int, ...] = ()
    end_reason: str = ""
    # the round
    hands: tuple[tuple[str, ...], ...] = ()
    stock: tuple[str, ...] = ()  # top first
    layout: tuple[tuple[str, ...], ...] = ((),) * N_SLOTS  # base first
    declared: tuple[tuple[str, str], ...] = ()  # joker -> declared face (V17)
    barred: frozenset[str] = frozenset()  # faces that may not enter a corner (V17)
    current: int = -1
    first_turn: tuple[bool, ...] = ()  # True until the seat's first turn of the round ends
    # per turn (§5.1)
    drawn: int = 0
    played: int = 0
    merges: int = 0
    actions: int = 0
    stock_empty_at_start: bool = False
    idle: int = 0  # idle_turns_since_stock_empty
    kings_seen: frozenset[str] = frozenset()  # penalty3: kings held in PLAY while a corner was empty
    pending: str | None = None  # V16: drawn card that must go to an empty slot (phase "place")
    ace_completions: tuple[int, ...] = ()  # V12: K..A corner piles completed per seat
    king_charges: tuple[int, ...] = ()  # penalty3 charges of this round per seat (D1: private)
    resigned: tuple[int, ...] = ()  # D3: 1, 2, ... in the order seats resigned; 0 = still in
    # The Decisions of 2026-12-02 apply (kings-corner-3): D8, only an ace played from the hand
    # earns the corner-ace bonus; D9, a resignation that ends the match scores the round in play.
    # False in the matches of kings-corner-1 and -2, which keep the rules they were played under.
    decisions_1202: bool = True

    def active(self) -> tuple[int, ...]:
        """Seats of the round: dealt in, scored at its end (a seat resigning mid-round included)."""
        return lifecycle.active(self.out_round)

    def out_of_turns(self) -> tuple[int, ...]:
        """Per seat: non-zero when it takes no turns (eliminated, or resigned: D3)."""
        if not self.resigned:
            return self.out_round
        return tuple(o or r for o, r in zip(self.out_round, self.resigned, strict=True))

    def turn_seats(self) -> tuple[int, ...]:
        """Seats still taking turns this round (§5.4 A6 "seats still taking turns")."""
        return lifecycle.active(self.out_of_turns())

    @property
    def in_round(self) -> bool:
        return self.phase in IN_ROUND


class CardFacts(msgspec.Struct, frozen=True):
    rank: int  # A=1 .. K=13; 0 for a joker
    suit: str
    red: bool
    face: str
    joker: bool


def _facts(cid: str) -> CardFacts:
    c = cards.parse(cid)
    rank = 0 if c.is_joker else cards.rank_value(cards.ACE_LOW, c.rank)
    return CardFacts(rank, c.suit, c.red, c.face, c.is_joker)


FACTS: dict[str, CardFacts] = {cid: _facts(cid) for cid in cards.deck("52", copies=2, jokers=2)}
FACES: tuple[str, ...] = cards.deck("52")
KING_FACES: tuple[str, ...] = tuple(c for c in FACES if FACTS[c].rank == 13)


def initial_state(ruleset: KingsCornerRuleset, seats: tuple[str, ...], seed: bytes | None) -> KCState:
    n = len(seats)
    return KCState(
        ruleset=ruleset,
        seats=tuple(seats),
        seed=seed,
        seat_problem=ruleset.check_seats(n),
        client_seeds=("",) * n,
        ready=(False,) * n,
        totals=(0,) * n,
        out_round=(0,) * n,
        first_turn=(False,) * n,
        ace_completions=(0,) * n,
        king_charges=(0,) * n,
        resigned=(0,) * n,
    )
