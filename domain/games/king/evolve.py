"""King's evolve: each event folded into the state (rules/king.md §12.1-§12.8).

It accepts ``??`` placeholders wherever another seat's cards appear: a seat's redacted events
fold into its information state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from contracts.games.king import (
    AuctionEntry,
    BidMade,
    BidPassed,
    BuyoutDecided,
    BuyoutOffered,
    BuyoutPassed,
    CardPlayed,
    ContractChosen,
    DealScored,
    Dealt,
    Declared,
    Discarded,
    KingEvent,
    KingRuleset,
    MatchScored,
    OrderPassed,
    RestDealt,
    SeatReady,
    TalonShown,
    TrickTaken,
)
from domain.core.cardgame import lifecycle
from domain.core.cardgame.fold import by_type
from domain.core.cardgame.redact import remove_cards
from domain.games.king.state import Contract, KingState

UNKNOWN = "??"
_replace = msgspec.structs.replace


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _remove(hand: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    """The hand without ``gone`` (in another seat's information state a card not known to be
    there takes one ``??`` placeholder)."""
    return remove_cards(hand, gone)


# ---------------------------------------------------------------- evolve
def _contract(rules: KingRuleset, game: str, **kw: Any) -> Contract:
    return Contract(
        game=game,
        sign=-1 if game.startswith("N") else 1,
        hearts_lead_ban=game in rules.hearts_lead_ban,
        king_discard=game in rules.king_discard,
        **kw,
    )


def _first_leader(s: KingState) -> int:
    """§12.2 step 4: who leads the first trick of the deal."""
    c = s.contract
    assert c is not None
    rules = s.rules
    left = s.left_of(s.dealer)
    if rules.schedule == "atomic":
        return c.orderer
    if c.game in ("HV", "TR", "AU"):
        return c.declarer if rules.trump_leader == "declarer" else left
    if rules.schedule == "ordered" and rules.ordered_leader == "orderer":
        return c.orderer
    return left


def _playing(s: KingState) -> KingState:
    leader = _first_leader(s)
    return _replace(s, phase="playing", leader=leader, to_act=leader, plays=())


def _next_clockwise(s: KingState, seat: int, among: set[int]) -> int:
    n = s.n()
    for step in range(1, n + 1):
        j = (seat + step) % n
        if j in among:
            return j
    raise ValueError("nobody left")


def _after_buyout_step(s: KingState) -> KingState:
    c = s.contract
    assert c is not None
    candidates = {i for i in s.active if i != c.declarer and not s.passed[i]}
    best = s.best
    if not candidates or (best is not None and candidates == {best[0]}):
        return _replace(s, phase="buyout_answer" if best is not None else "declaring", to_act=c.declarer)
    return _replace(s, to_act=_next_clockwise(s, s.to_act, candidates))


def _after_bid_step(s: KingState) -> KingState:
    n_passed = sum(1 for i in s.active if s.passed[i])
    if n_passed == len(s.active) - 1:
        if s.best is not None:
            return _replace(s, phase="naming", to_act=s.best[0], forced=False)
        # 001:L291-292: the first three passed, the dealer must bid 1 (K3)
        return _replace(s, forced=True, to_act=next(i for i in s.active if not s.passed[i]))
    unpassed = {i for i in s.active if not s.passed[i]}
    return _replace(s, to_act=_next_clockwise(s, s.to_act, unpassed))


def _entry(s: KingState, seat: str, action: str, value: str = "") -> tuple[AuctionEntry, ...]:
    return (*s.auction, AuctionEntry(seat=seat, action=action, value=value))


# ---------------------------------------------------------------- one function per event
def _card_played(s: KingState, e: CardPlayed) -> KingState:
    i = s.seats.index(e.seat)
    plays = (*s.plays, (i, e.card))
    to_act = s.left_of(i) if len(plays) < len(s.active) else -1  # -1: the trick is complete
    return _replace(s, hands=_set(s.hands, i, _remove(s.hands[i], (e.card,))), plays=plays, to_act=to_act)


def _trick_taken(s: KingState, e: TrickTaken) -> KingState:
    w = s.seats.index(e.winner)
    return _replace(
        s,
        captured=_set(s.captured, w, s.captured[w] + e.cards),
        won=_set(s.won, w, s.won[w] + 1),
        tricks=(*s.tricks, e),
        plays=(),
        leader=w,
        to_act=w,
    )


def _seat_ready(s: KingState, e: SeatReady) -> KingState:
    ready, client = lifecycle.mark_ready(
        s.ready, s.client_seeds, s.seats.index(e.seat), e.client_seed, s.deal_no
    )
    return _replace(s, ready=ready, client_seeds=client)


def _dealt(s: KingState, e: Dealt) -> KingState:
    rules = s.rules
    seats = s.seats
    n = len(seats)
    dealer = seats.index(e.dealer)
    active = tuple(i for i in range(n) if not (rules.sit_out_dealer and i == dealer))
    s = _replace(
        s,
        deal_no=e.deal_no,
        dealer=dealer,
        first_dealer=dealer if e.deal_no == 1 else s.first_dealer,
        active=active,
        hands=e.hands,
        pending=e.pending,
        talon=e.talon,
        talon_shown=False,
        discards=((),) * n,
        captured=((),) * n,
        won=(0,) * n,
        tricks=(),
        plays=(),
        passed=(False,) * n,
        best=None,
        forced=False,
        auction=(),
        ready=(False,) * n,
        contract=None,
    )
    return _first_phase(s, e)


def _first_phase(s: KingState, e: Dealt) -> KingState:
    """§12.2: ordering, or the fixed schedule's game with its first phase."""
    rules = s.rules
    left = s.left_of(s.dealer)
    game = e.game
    if game is None:
        return _replace(s, phase="ordering", to_act=left)
    declarer = s.seats.index(e.declarer) if e.declarer is not None else -1
    s = _replace(s, contract=_contract(rules, game, declarer=declarer))
    if game == "HV":
        if rules.hv_buyout:
            return _replace(s, phase="buyout", to_act=s.left_of(declarer))
        return _replace(s, phase="declaring", to_act=declarer)
    if game == "TR":
        return _replace(s, phase="declaring", to_act=declarer)
    if game == "AU":
        return _replace(s, phase="auction", to_act=left)
    return _playing(s)


def _order_passed(s: KingState, e: OrderPassed) -> KingState:
    return _replace(
        s,
        auction=_entry(s, e.seat, "pass_order", "automatic" if e.automatic else ""),
        to_act=s.left_of(s.seats.index(e.seat)),
    )


def _contract_chosen(s: KingState, e: ContractChosen) -> KingState:
    i = s.seats.index(e.seat)
    rules = s.rules
    kw: dict[str, Any] = {"orderer": i}
    if e.game in ("OT",):
        kw.update(trump=e.trump, declarer=i, declared=True)
    s = _replace(
        s,
        contract=_contract(rules, e.game, **kw),
        auction=_entry(s, e.seat, "order", e.game + (f" {e.trump}" if e.trump else "")),
    )
    if rules.schedule == "atomic":
        return _replace(s, phase="discard", to_act=i)
    return _playing(s)


def _talon_shown(s: KingState, e: TalonShown) -> KingState:
    i = s.seats.index(e.seat)
    # In another seat's information state the talon joins the hand as placeholders: which
    # two cards the orderer lays aside is hidden, so no card of his hand is known.
    add = (UNKNOWN,) * len(e.cards) if UNKNOWN in s.hands[i] else e.cards
    return _replace(s, hands=_set(s.hands, i, s.hands[i] + add), talon=e.cards, talon_shown=True)


def _discarded(s: KingState, e: Discarded) -> KingState:
    i = s.seats.index(e.seat)
    s = _replace(
        s, hands=_set(s.hands, i, _remove(s.hands[i], e.cards)), discards=_set(s.discards, i, e.cards)
    )
    return _playing(s)


def _buyout_offered(s: KingState, e: BuyoutOffered) -> KingState:
    i = s.seats.index(e.seat)
    s = _replace(s, best=(i, e.tricks), auction=_entry(s, e.seat, "offer_buyout", str(e.tricks)))
    return _after_buyout_step(s)


def _buyout_passed(s: KingState, e: BuyoutPassed) -> KingState:
    i = s.seats.index(e.seat)
    s = _replace(s, passed=_set(s.passed, i, True), auction=_entry(s, e.seat, "pass_buyout"))
    return _after_buyout_step(s)


def _buyout_decided(s: KingState, e: BuyoutDecided) -> KingState:
    c = s.contract
    assert c is not None
    s = _replace(s, auction=_entry(s, e.seat, "accept" if e.accepted else "refuse", str(e.tricks)))
    if e.accepted:
        buyer = s.seats.index(e.buyer)
        c = _replace(c, declarer=buyer, buyout=(buyer, c.declarer, e.tricks))
    return _replace(s, contract=c, phase="declaring", to_act=c.declarer)


def _declared(s: KingState, e: Declared) -> KingState:
    c = s.contract
    assert c is not None
    c = _replace(
        c,
        declarer=s.seats.index(e.seat),
        trump=e.trump,
        misere=e.option == "MISERE",
        raspis=e.option == "RASPIS",
        by_last=e.last_card,
        bid=s.best[1] if c.game == "AU" and s.best is not None else c.bid,
        declared=True,
    )
    value = e.option + (f" {e.trump}" if e.trump else "")
    s = _replace(s, contract=c, auction=_entry(s, e.seat, "declare", value))
    return s if c.raspis else _playing(s)


def _rest_dealt(s: KingState, e: RestDealt) -> KingState:
    return _replace(
        s,
        hands=tuple(h + tuple(r) for h, r in zip(s.hands, e.cards, strict=True)),
        pending=tuple(() for _ in s.seats),
    )


def _bid_made(s: KingState, e: BidMade) -> KingState:
    i = s.seats.index(e.seat)
    s = _replace(s, best=(i, e.tricks), forced=False, auction=_entry(s, e.seat, "bid", str(e.tricks)))
    return _after_bid_step(s)


def _bid_passed(s: KingState, e: BidPassed) -> KingState:
    i = s.seats.index(e.seat)
    s = _replace(s, passed=_set(s.passed, i, True), auction=_entry(s, e.seat, "pass_bid"))
    return _after_bid_step(s)


def _deal_scored(s: KingState, e: DealScored) -> KingState:
    row = e.row
    remaining = s.remaining
    c = s.contract
    if remaining and c is not None and c.orderer >= 0:  # the ordered game leaves the orderer's list
        lst = list(remaining[c.orderer])
        lst.remove(row.game)
        remaining = _set(remaining, c.orderer, tuple(lst))
    return _replace(
        s,
        sheet=(*s.sheet, row),
        totals=row.totals,
        cursor=s.cursor + 1,
        remaining=remaining,
        phase="scored",
        ready=(False,) * len(s.seats),
        to_act=-1,
    )


def _match_scored(s: KingState, e: MatchScored) -> KingState:
    return _replace(s, phase="finished", ranks=e.ranks, balance=e.balance, totals=e.totals)


_EVOLVE: dict[type, Callable[[KingState, Any], KingState]] = {
    SeatReady: _seat_ready,
    Dealt: _dealt,
    OrderPassed: _order_passed,
    ContractChosen: _contract_chosen,
    TalonShown: _talon_shown,
    Discarded: _discarded,
    BuyoutOffered: _buyout_offered,
    BuyoutPassed: _buyout_passed,
    BuyoutDecided: _buyout_decided,
    Declared: _declared,
    RestDealt: _rest_dealt,
    BidMade: _bid_made,
    BidPassed: _bid_passed,
    CardPlayed: _card_played,
    TrickTaken: _trick_taken,
    DealScored: _deal_scored,
    MatchScored: _match_scored,
}


evolve: Callable[[KingState, KingEvent], KingState] = by_type(_EVOLVE, "King")
