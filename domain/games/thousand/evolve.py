"""evolve: fold one recorded 1000 event into the state (rules/thousand-and-farkle-flip.md §2.21.3),
one small function per event type (``_EVOLVE``).

Every fold reads nothing a seat may not see from the event itself, so the events redacted for one
seat (another seat's cards as ``??``) fold into that seat's information state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from contracts.games.thousand import (
    AuctionOpened,
    BidMade,
    BlindAnswered,
    CardPlayed,
    CardsGiven,
    ContractSet,
    DealDealt,
    DealScored,
    DeclarerChosen,
    HandKept,
    HandShown,
    Passed,
    RedealClaimed,
    SeatReady,
    TalonRevealed,
    TalonTaken,
    ThousandEvent,
    TrickTaken,
    WrittenOff,
)
from domain.core.cardgame import lifecycle
from domain.core.cardgame.fold import by_type
from domain.core.cardgame.redact import UNKNOWN, remove_cards
from domain.games.thousand.legal import after_pass_window, before_bid_window, plain_forced, suit
from domain.games.thousand.state import TState

_replace = msgspec.structs.replace


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _index(s: TState, seat: str | None) -> int:
    """A seat's index, -1 for None."""
    return s.seats.index(seat) if seat is not None else -1


def _open_before_bid(s: TState) -> TState:
    """After the deal (and the blind answer): the before-bid redeal window, or the auction (T1)."""
    if before_bid_window(s.rules):
        window = tuple(i for i in s.active() if not (s.blind and i == s.blind_seat))
        if window:
            return _replace(s, phase="redeal_window", window=window, window_kind="before_bid")
    return _replace(s, phase="pre_auction")


def _seat_ready(state: TState, event: SeatReady) -> TState:
    # Ready is taken only before the first deal, so its client seed is always kept (rng_v1).
    ready, seeds = lifecycle.mark_ready(
        state.ready, state.client_seeds, state.seats.index(event.seat), event.client_seed, 0
    )
    return _replace(state, ready=ready, client_seeds=seeds)


def _deal_dealt(state: TState, event: DealDealt) -> TState:
    """A new dealing: every field of the deal starts afresh (§2.21.3 step 1)."""
    n = len(state.seats)
    blind = _index(state, event.blind_seat)
    sitout = _index(state, event.sitout)
    s = _replace(
        state,
        phase="blind_offer",
        shuffle=event.shuffle,
        dealer=state.seats.index(event.dealer),
        sitout=sitout,
        golden=event.golden,
        hands=event.hands,
        talon=event.talon,
        deal_talon=event.talon,
        talon_public=False,
        forced_seat=state.seats.index(event.forced_seat),
        blind_seat=blind,
        seen=tuple(i != blind and i != sitout for i in range(n)),
        blind=False,
        window=(blind,) if blind >= 0 else (),
        window_kind="",
        high_bid=0,
        high_seat=-1,
        passed=(False,) * n,
        barred=(False,) * n,
        to_act=-1,
        voluntary=False,
        bids=(),
        declarer=-1,
        bid=0,
        contract=0,
        how="",
        blind_declarer=False,
        written_off=False,
        public=frozenset(),
        given_to=(),
        given=(),
        given_face_up=False,
        trick_no=0,
        trick=(),
        leader=-1,
        trump=None,
        announced=(),
        aces_announced=False,
        won_points=(0,) * n,
        tricks_count=(0,) * n,
        marriage_pts=(0,) * n,
        last_trick=(),
        last_winner=-1,
        played=(),
    )
    return s if blind >= 0 else _open_before_bid(s)


def _blind_answered(state: TState, event: BlindAnswered) -> TState:
    return _open_before_bid(_replace(state, blind=event.blind, window=()))


def _hand_shown(state: TState, event: HandShown) -> TState:
    i = state.seats.index(event.seat)
    return _replace(state, hands=_set(state.hands, i, event.cards), seen=_set(state.seen, i, True))


_AFTER_WINDOW = {"before_bid": "pre_auction", "talon": "talon_open", "after_pass": "contract"}


def _hand_kept(state: TState, event: HandKept) -> TState:
    """A seat keeps its hand; the window closes when the last seat has answered (§2.4)."""
    i = state.seats.index(event.seat)
    window = tuple(j for j in state.window if j != i)
    if window:
        return _replace(state, window=window)
    return _replace(state, window=(), phase=_AFTER_WINDOW[state.window_kind], window_kind="")


def _redeal_claimed(state: TState, event: RedealClaimed) -> TState:
    return _replace(
        state, phase="redeal", window=(), window_kind="", deal_rows=(*state.deal_rows, state.scores)
    )


def _auction_opened(state: TState, event: AuctionOpened) -> TState:
    seats = state.seats
    return _replace(
        state,
        phase="auction",
        high_bid=event.standing_bid,
        high_seat=seats.index(event.high_seat),
        to_act=seats.index(event.to_act),
        barred=tuple(s in event.barred for s in seats),
        bids=((seats.index(event.high_seat), f"{event.kind}:{event.standing_bid}"),),
    )


def _bid_made(state: TState, event: BidMade) -> TState:
    i = state.seats.index(event.seat)
    return _replace(
        state,
        high_bid=event.amount,
        high_seat=i,
        voluntary=True,
        blind=state.blind and i == state.blind_seat,
        to_act=_index(state, event.to_act),
        bids=(*state.bids, (i, str(event.amount))),
    )


def _passed(state: TState, event: Passed) -> TState:
    i = state.seats.index(event.seat)
    return _replace(
        state,
        passed=_set(state.passed, i, True),
        to_act=_index(state, event.to_act),
        phase="auction" if event.to_act is not None else "auction_done",
        bids=(*state.bids, (i, "pass")),
    )


def _declarer_chosen(state: TState, event: DeclarerChosen) -> TState:
    return _replace(
        state,
        phase="talon_step",
        declarer=state.seats.index(event.seat),
        bid=event.bid,
        contract=event.bid,
        how=event.how,
        voluntary=event.voluntary,
        blind_declarer=event.blind,
        to_act=-1,
    )


def _talon_revealed(state: TState, event: TalonRevealed) -> TState:
    """The talon shown (to everybody or to the declarer), then the low-talon window if it is open."""
    s = _replace(
        state,
        talon=event.cards,
        deal_talon=event.cards,
        talon_public=event.public,
        public=state.public | (frozenset(event.cards) if event.public else frozenset()),
    )
    if s.rules.redeal_talon_low is not None and plain_forced(s):
        return _replace(s, phase="talon_window", window=(s.declarer,), window_kind="talon")
    return _replace(s, phase="talon_open")


def _talon_taken(state: TState, event: TalonTaken) -> TState:
    d = state.declarer
    return _replace(
        state, phase="passing", hands=_set(state.hands, d, state.hands[d] + state.talon), talon=()
    )


def _cards_given(state: TState, event: CardsGiven) -> TState:
    """The declarer's two cards to the defenders (§2.6), then the after-passing window if open."""
    d = state.declarer
    hands = list(state.hands)
    if UNKNOWN in event.cards:  # a defender's fold: which shown card went where is unknown
        hands[d] = (UNKNOWN,) * (len(hands[d]) - len(event.cards))
    else:
        hands[d] = remove_cards(hands[d], event.cards)
    for to, c in zip(event.to, event.cards, strict=True):
        j = state.seats.index(to)
        hands[j] = hands[j] + (c,)
    s = _replace(
        state,
        hands=tuple(hands),
        given_to=tuple(state.seats.index(t) for t in event.to),
        given=event.cards,
        given_face_up=event.face_up,
        public=state.public | (frozenset(event.cards) if event.face_up else frozenset()),
    )
    if after_pass_window(s.rules):
        return _replace(s, phase="after_pass_window", window=s.defenders(), window_kind="after_pass")
    return _replace(s, phase="contract")


def _contract_set(state: TState, event: ContractSet) -> TState:
    return _replace(state, phase="play", contract=event.amount, leader=state.declarer)


def _written_off(state: TState, event: WrittenOff) -> TState:
    return _replace(state, phase="deal_over", written_off=True)


def _card_played(state: TState, event: CardPlayed) -> TState:
    """A card to the trick; an announcement records the marriage, its points and the trump (§2.10)."""
    i = state.seats.index(event.seat)
    s = _replace(
        state,
        hands=_set(state.hands, i, remove_cards(state.hands[i], (event.card,))),
        trick=(*state.trick, (i, event.card)),
        trump=event.trump,
        played=(*state.played, event.card),
    )
    if event.announce == "none":
        return s
    kind = "aces" if event.announce == "aces" else suit(event.card)
    s = _replace(
        s,
        announced=(*s.announced, (i, kind, event.value)),
        aces_announced=s.aces_announced or event.announce == "aces",
    )
    if event.value:
        gets = i if s.rules.marriage_points_to == "announcer" else state.declarer
        s = _replace(s, marriage_pts=_set(s.marriage_pts, gets, s.marriage_pts[gets] + event.value))
    return s


def _trick_taken(state: TState, event: TrickTaken) -> TState:
    """The trick to its winner, who leads next; the eighth trick ends the play."""
    w = state.seats.index(event.winner)
    s = _replace(
        state,
        won_points=_set(state.won_points, w, state.won_points[w] + event.points),
        tricks_count=_set(state.tricks_count, w, state.tricks_count[w] + 1),
        last_trick=state.trick,
        trick=(),
        trick_no=event.trick_no,
        leader=w,
    )
    if event.trick_no == 8:
        return _replace(s, phase="deal_over", last_winner=w)
    return s


def _golden(state: TState, event: DealScored) -> tuple[int, bool]:
    """Golden deals left and whether one was made (§2.15); a golden restart starts them again."""
    golden_left, golden_made = state.golden_left, state.golden_made
    if event.golden:
        golden_left -= 1
        golden_made = golden_made or event.result == "made"
    if event.golden_restart:
        golden_left, golden_made = 3, False
    return golden_left, golden_made


def _deal_scored(state: TState, event: DealScored) -> TState:
    """The score sheet's new line: every seat's totals and counters, the deal passing left."""
    seats = state.seats
    by = {x.seat: x for x in event.seats}
    lines = [by[s] for s in seats]
    golden_left, golden_made = _golden(state, event)
    s = _replace(
        state,
        phase="finished" if event.match_over else "next_deal",
        deal_no=0 if event.golden_restart else event.deal_no,
        golden_left=golden_left,
        golden_made=golden_made,
        scores=tuple(x.score for x in lines),
        barrel_on=tuple(x.barrel for x in lines),
        attempts=tuple(x.attempts for x in lines),
        falls=tuple(x.falls for x in lines),
        disabled=tuple(x.disabled for x in lines),
        bolts=tuple(x.bolts for x in lines),
        writeoffs=tuple(x.writeoffs for x in lines),
        sheet=(*state.sheet, event),
        deal_rows=(*state.deal_rows, tuple(x.score for x in lines)),
        dealer=(state.dealer + 1) % len(seats),
        hands=tuple(() for _ in seats),
        talon=(),
        trick=(),
        window=(),
    )
    if not event.match_over:
        return s
    return _replace(s, ranks=event.ranks, winner=_index(s, event.winner), end_reason=event.reason)


_EVOLVE: dict[type[Any], Callable[[TState, Any], TState]] = {
    SeatReady: _seat_ready,
    DealDealt: _deal_dealt,
    BlindAnswered: _blind_answered,
    HandShown: _hand_shown,
    HandKept: _hand_kept,
    RedealClaimed: _redeal_claimed,
    AuctionOpened: _auction_opened,
    BidMade: _bid_made,
    Passed: _passed,
    DeclarerChosen: _declarer_chosen,
    TalonRevealed: _talon_revealed,
    TalonTaken: _talon_taken,
    CardsGiven: _cards_given,
    ContractSet: _contract_set,
    WrittenOff: _written_off,
    CardPlayed: _card_played,
    TrickTaken: _trick_taken,
    DealScored: _deal_scored,
}


evolve: Callable[[TState, ThousandEvent], TState] = by_type(_EVOLVE, "1000")
