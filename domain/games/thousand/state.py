"""State of a 1000 match (rules/thousand-and-farkle-flip.md §2.21.1): ``TState``, its phases and
``initial_state``."""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games.thousand import DealScored, ThousandRuleset

# Phases a player acts in, and the server's transitional phases (never left at the end of a
# decision): ``pre_auction``, ``auction_done``, ``talon_step``, ``talon_open``, ``deal_over``,
# ``redeal``.  In ``next_deal`` the new dealer sends ``Ready`` to deal the next hand.
Phase = Literal[
    "waiting",
    "blind_offer",
    "redeal_window",
    "pre_auction",
    "auction",
    "auction_done",
    "talon_step",
    "talon_window",
    "talon_open",
    "passing",
    "after_pass_window",
    "contract",
    "play",
    "deal_over",
    "redeal",
    "next_deal",
    "finished",
]
SERVER_PHASES = frozenset({"pre_auction", "auction_done", "talon_step", "talon_open", "deal_over", "redeal"})


class TState(msgspec.Struct, frozen=True, kw_only=True):
    rules: ThousandRuleset
    seats: tuple[str, ...]
    seed: bytes | None  # the server seed; never in a view or a redacted event
    seat_problem: str | None = None
    client_seeds: tuple[str, ...] = ()
    ready: tuple[bool, ...] = ()
    phase: Phase = "waiting"
    # the game
    deal_no: int = 0  # completed deals (a golden-kon restart sets it back to 0)
    shuffle: int = 0  # shuffles so far, redeals included (the rng_v1 label)
    dealer: int = -1
    golden_left: int = 0
    golden_made: bool = False
    scores: tuple[int, ...] = ()
    barrel_on: tuple[bool, ...] = ()
    attempts: tuple[int, ...] = ()
    falls: tuple[int, ...] = ()
    disabled: tuple[bool, ...] = ()
    bolts: tuple[int, ...] = ()
    writeoffs: tuple[int, ...] = ()
    sheet: tuple[DealScored, ...] = ()
    deal_rows: tuple[tuple[int, ...], ...] = ()  # scores after every dealing, redeals included
    ranks: tuple[int, ...] = ()
    winner: int = -1
    end_reason: str = ""
    # the deal
    sitout: int = -1
    golden: bool = False
    hands: tuple[tuple[str, ...], ...] = ()
    talon: tuple[str, ...] = ()  # until the declarer takes it
    deal_talon: tuple[str, ...] = ()  # the talon of this deal as far as this state knows it
    talon_public: bool = False  # revealed to everybody
    forced_seat: int = -1
    blind_seat: int = -1  # offered the blind game
    seen: tuple[bool, ...] = ()  # the seat has seen its hand
    blind: bool = False  # the blind 120 stands
    window: tuple[int, ...] = ()  # seats still to answer the open window / offer
    window_kind: Literal["", "before_bid", "talon", "after_pass"] = ""
    high_bid: int = 0
    high_seat: int = -1
    passed: tuple[bool, ...] = ()
    barred: tuple[bool, ...] = ()
    to_act: int = -1
    voluntary: bool = False
    bids: tuple[tuple[int, str], ...] = ()
    declarer: int = -1
    bid: int = 0  # the winning bid (W)
    contract: int = 0  # the final contract (c)
    how: str = ""
    blind_declarer: bool = False
    written_off: bool = False
    public: frozenset[str] = frozenset()  # cards shown to everybody this deal (talon, face-up gifts)
    given_to: tuple[int, ...] = ()
    given: tuple[str, ...] = ()
    given_face_up: bool = False
    trick_no: int = 0  # completed tricks
    trick: tuple[tuple[int, str], ...] = ()
    leader: int = -1
    trump: str | None = None
    announced: tuple[tuple[int, str, int], ...] = ()
    aces_announced: bool = False
    won_points: tuple[int, ...] = ()
    tricks_count: tuple[int, ...] = ()
    marriage_pts: tuple[int, ...] = ()
    last_trick: tuple[tuple[int, str], ...] = ()
    played: tuple[str, ...] = ()  # every card played this deal (public; the computer players' memory)
    last_winner: int = -1

    def active(self) -> tuple[int, ...]:
        """The seats that play this deal, in seat order."""
        return tuple(i for i in range(len(self.seats)) if i != self.sitout)

    def next_active(self, i: int) -> int:
        n = len(self.seats)
        j = (i + 1) % n
        while j == self.sitout:
            j = (j + 1) % n
        return j

    def talon_all(self) -> tuple[str, ...]:
        return self.deal_talon

    def defenders(self) -> tuple[int, ...]:
        return tuple(i for i in self.active() if i != self.declarer)


def initial_state(rules: ThousandRuleset, seats: tuple[str, ...], seed: bytes | None) -> TState:
    n = len(seats)
    return TState(
        rules=rules,
        seats=tuple(seats),
        seed=seed,
        seat_problem=rules.check_seats(n),
        client_seeds=("",) * n,
        ready=(False,) * n,
        golden_left=3 if rules.golden_kon else 0,
        scores=(0,) * n,
        barrel_on=(False,) * n,
        attempts=(0,) * n,
        falls=(0,) * n,
        disabled=(False,) * n,
        bolts=(0,) * n,
        writeoffs=(0,) * n,
    )
