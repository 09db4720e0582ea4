"""State of a King match (rules/king.md §12.1)."""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games.king import AuctionEntry, KingRuleset, SheetRow, TrickTaken

# waiting: waiting for Ready before the first deal (the kernel lifecycle's phases between rounds); scored: a deal is scored and the seats confirm
# the next one; ordering / buyout / buyout_answer / declaring / auction / naming / discard /
# playing: the phases of §12.2; finished: the match is over.
Phase = Literal[
    "waiting",
    "ordering",
    "buyout",
    "buyout_answer",
    "declaring",
    "auction",
    "naming",
    "discard",
    "playing",
    "scored",
    "finished",
]


class Contract(msgspec.Struct, frozen=True, kw_only=True):
    """§12.1 ``contract`` (seats as indexes)."""

    game: str
    sign: int
    trump: str | None = None
    misere: bool = False
    raspis: bool = False
    declarer: int = -1
    orderer: int = -1
    bid: int = 0  # AU: the declarer's bid
    buyout: tuple[int, int, int] | None = None  # buyer, seller, tricks
    by_last: str | None = None
    hearts_lead_ban: bool = False
    king_discard: bool = False
    declared: bool = False  # trumps (or the option) are fixed


class KingState(msgspec.Struct, frozen=True, kw_only=True):
    rules: KingRuleset
    seats: tuple[str, ...]
    seed: bytes | None  # the server seed; never in a view or a redacted event
    client_seeds: tuple[str, ...] = ()
    ready: tuple[bool, ...] = ()
    phase: Phase = "waiting"
    deal_no: int = 0
    first_dealer: int = -1
    dealer: int = -1
    cursor: int = 0  # fixed schedules: deals played
    remaining: tuple[tuple[str, ...], ...] = ()  # ordered / atomic: games each seat may order
    sheet: tuple[SheetRow, ...] = ()
    compensation: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()
    balance: int = 0
    # the deal
    contract: Contract | None = None
    active: tuple[int, ...] = ()  # seats that receive cards
    hands: tuple[tuple[str, ...], ...] = ()  # in dealing order; another seat's cards may be "??"
    pending: tuple[tuple[str, ...], ...] = ()
    talon: tuple[str, ...] = ()
    talon_shown: bool = False
    discards: tuple[tuple[str, ...], ...] = ()
    to_act: int = -1
    passed: tuple[bool, ...] = ()
    best: tuple[int, int] | None = None  # (seat, n): the best buy-out offer or the high bid
    forced: bool = False  # AU: the dealer must bid 1
    auction: tuple[AuctionEntry, ...] = ()
    leader: int = -1
    plays: tuple[tuple[int, str], ...] = ()  # the trick in progress
    tricks: tuple[TrickTaken, ...] = ()  # completed tricks of this deal
    won: tuple[int, ...] = ()
    captured: tuple[tuple[str, ...], ...] = ()
    # a record's deals (gamehall rules replay): used instead of rng_v1 when given
    scripted: tuple[tuple[tuple[str, ...], ...], ...] = ()
    scripted_talons: tuple[tuple[str, ...], ...] = ()
    scripted_first_dealer: int = -1

    def n(self) -> int:
        return len(self.seats)

    def left_of(self, seat: int) -> int:
        """The next active seat clockwise."""
        n = len(self.seats)
        for step in range(1, n + 1):
            j = (seat + step) % n
            if j in self.active:
                return j
        raise ValueError("no active seat")
