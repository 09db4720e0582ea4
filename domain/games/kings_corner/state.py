"""State of a Kings in the Corner match and the card facts the rules read."""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games.kings_corner import KingsCornerRuleset, RoundEnded
from domain.core import cards

N_CROSS = 4  # slots 0..3 are N E S W; 4..7 are NE SE SW NW
N_SLOTS = 8

Status = Literal["waiting", "playing", "round_over", "finished"]


class KCState(msgspec.Struct, frozen=True, kw_only=True):
    rules: KingsCornerRuleset
    seats: tuple[str, ...]
    seed: bytes | None  # the server seed; never in a view or a redacted event
    seat_problem: str | None = None  # a seat count this ruleset cannot deal
    client_seeds: tuple[str, ...] = ()
    ready: tuple[bool, ...] = ()
    status: Status = "waiting"
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
    pending: str | None = None  # V16: drawn card that must go to an empty slot
    ace_completions: tuple[int, ...] = ()  # V12: K..A corner piles completed per seat

    def active(self) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.out_round) if r == 0)


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
