"""Playing cards shared by every card game: ids, suits, ranks, rank orders and decks.

A card id is a short stable string used in events and views:

- ``rank + suit`` for the first copy of a card: ``"QS"``, ``"10H"``, ``"AC"``;
- ``rank + suit + copy`` when two decks are in play and the card is from the second: ``"QS2"``;
- jokers: ``"RJ"`` (red) and ``"BJ"`` (black), ``"RJ2"`` / ``"BJ2"`` from a second deck.

Ranks are ``A 2 3 4 5 6 7 8 9 10 J Q K``; suits ``C D H S`` (hearts and diamonds are red).

Canonical deck order (what rng_v1 shuffles, so it is part of the audit contract): for each copy
in turn, suits C, D, H, S; within a suit ranks A, 2, ..., 10, J, Q, K (only those in the deck);
then that copy's jokers, RJ before BJ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

SUITS: tuple[str, ...] = ("C", "D", "H", "S")
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RED_SUITS = frozenset({"D", "H"})
JOKER_RANK = "JK"
# A card a viewer may not see (another seat's hand, the stock) in events redacted for it.
UNKNOWN = "??"

# Rank orders, lowest first.  ``rank_value(order, rank)`` is the 1-based position.
ACE_LOW: tuple[str, ...] = RANKS  # Kings in the Corner: A=1 .. K=13
ACE_HIGH: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
KING_ORDER: tuple[str, ...] = ("7", "8", "9", "10", "J", "Q", "K", "A")  # King (Кинг), 32 cards
THOUSAND_ORDER: tuple[str, ...] = ("9", "J", "Q", "K", "10", "A")  # 1000 (Тысяча), 24 cards

DeckKind = Literal["24", "32", "52"]
# King 3-player cuts (rules/king.md §8.1): drop the black sevens or the black aces.
Cut32 = Literal["none", "black_sevens", "black_aces"]

_RANKS_OF: dict[str, tuple[str, ...]] = {
    "52": RANKS,
    "32": ("A", "7", "8", "9", "10", "J", "Q", "K"),
    "24": ("A", "9", "10", "J", "Q", "K"),
}
_CUTS: dict[str, frozenset[str]] = {
    "none": frozenset(),
    "black_sevens": frozenset({"7C", "7S"}),
    "black_aces": frozenset({"AC", "AS"}),
}
_ID = re.compile(r"^(?:(10|[2-9AJQK])([CDHS])|([RB])J)([2-9]?)$")


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    rank: str  # "A".."K", or "JK" for a joker
    suit: str  # "C" "D" "H" "S"; for a joker "R" or "B" (its colour)
    copy: int  # 1 for the first deck, 2 for the second

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS or self.suit == "R"

    @property
    def face(self) -> str:
        """The id without the copy suffix: two copies of a card share the same face."""
        return self.id[:-1] if self.copy > 1 else self.id


def card_id(rank: str, suit: str, copy: int = 1) -> str:
    if rank not in RANKS or suit not in SUITS or not 1 <= copy <= 9:
        raise ValueError(f"no such card: rank {rank!r}, suit {suit!r}, copy {copy}")
    return f"{rank}{suit}{copy if copy > 1 else ''}"


def joker_id(colour: Literal["R", "B"], copy: int = 1) -> str:
    return f"{colour}J{copy if copy > 1 else ''}"


@cache
def parse(cid: str) -> Card:
    """Card id -> Card.  Raises ValueError on an id that names no card (callers validate first)."""
    m = _ID.match(cid)
    if m is None:
        raise ValueError(f"not a card id: {cid!r}")
    rank, suit, joker, copy = m.groups()
    n = int(copy) if copy else 1
    if joker:
        return Card(id=cid, rank=JOKER_RANK, suit=joker, copy=n)
    return Card(id=cid, rank=rank, suit=suit, copy=n)


def is_card_id(cid: object) -> bool:
    return isinstance(cid, str) and _ID.match(cid) is not None


def rank_value(order: tuple[str, ...], rank: str) -> int:
    """1-based position of ``rank`` in ``order`` (lowest first)."""
    return order.index(rank) + 1


def deck(kind: DeckKind = "52", copies: int = 1, jokers: int = 0, cut: Cut32 = "none") -> tuple[str, ...]:
    """The canonical ordered deck: ``copies`` packs of ``kind``, ``jokers`` per pack (0..2).

    ``cut`` applies only to the 32-card pack (King's 3-player decks, rules/king.md §8.1).
    """
    if kind not in _RANKS_OF:
        raise ValueError(f"unknown deck kind {kind!r}")
    if not 1 <= copies <= 9 or not 0 <= jokers <= 2:
        raise ValueError("copies must be 1..9 and jokers 0..2")
    if cut != "none" and kind != "32":
        raise ValueError("cuts apply to the 32-card deck only")
    ranks = _RANKS_OF[kind]
    removed = _CUTS[cut]
    out: list[str] = []
    for c in range(1, copies + 1):
        for suit in SUITS:
            for rank in RANKS:
                if rank in ranks and f"{rank}{suit}" not in removed:
                    out.append(card_id(rank, suit, c))
        for colour in ("R", "B")[:jokers]:
            out.append(joker_id(colour, c))  # type: ignore[arg-type]
    return tuple(out)


def sort_key(order: tuple[str, ...] = ACE_LOW) -> dict[str, tuple[int, int, int]]:
    """Display order helper: suit, then rank in ``order``, then copy (jokers last)."""
    key: dict[str, tuple[int, int, int]] = {}
    for cid in deck("52", copies=2, jokers=2):
        card = parse(cid)
        if card.is_joker:
            key[cid] = (len(SUITS), 0 if card.suit == "R" else 1, card.copy)
        elif card.rank in order:
            key[cid] = (SUITS.index(card.suit), rank_value(order, card.rank), card.copy)
    return key


def sorted_cards(cards: tuple[str, ...] | list[str], order: tuple[str, ...] = ACE_LOW) -> tuple[str, ...]:
    key = _SORT_KEYS.get(order)
    if key is None:
        key = sort_key(order)
    return tuple(sorted(cards, key=lambda c: key[c] if c in key else (99, 0, parse(c).copy)))


_SORT_KEYS: dict[tuple[str, ...], dict[str, tuple[int, int, int]]] = {ACE_LOW: sort_key(ACE_LOW)}
