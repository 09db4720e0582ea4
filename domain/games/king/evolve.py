"""King's evolve: each event folded into the state (rules/king.md §12.1-§12.8).

It accepts ``??`` placeholders wherever another seat's cards appear: a seat's redacted events
fold into its information state.
"""

from __future__ import annotations

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


def evolve(state: KingState, event: KingEvent) -> KingState:
    s = state
    seats = s.seats
    if isinstance(event, CardPlayed):
        i = seats.index(event.seat)
        plays = (*s.plays, (i, event.card))
        s = _replace(s, hands=_set(s.hands, i, _remove(s.hands[i], (event.card,))), plays=plays)
        if len(plays) < len(s.active):
            return _replace(s, to_act=s.left_of(i))
        return _replace(s, to_act=-1)
    if isinstance(event, TrickTaken):
        w = seats.index(event.winner)
        return _replace(
            s,
            captured=_set(s.captured, w, s.captured[w] + event.cards),
            won=_set(s.won, w, s.won[w] + 1),
            tricks=(*s.tricks, event),
            plays=(),
            leader=w,
            to_act=w,
        )
    if isinstance(event, SeatReady):
        ready, client = lifecycle.mark_ready(
            s.ready, s.client_seeds, seats.index(event.seat), event.client_seed, s.deal_no
        )
        return _replace(s, ready=ready, client_seeds=client)
    if isinstance(event, Dealt):
        return _evolve_dealt(s, event)
    if isinstance(event, OrderPassed):
        return _replace(
            s,
            auction=_entry(s, event.seat, "pass_order", "automatic" if event.automatic else ""),
            to_act=s.left_of(seats.index(event.seat)),
        )
    if isinstance(event, ContractChosen):
        i = seats.index(event.seat)
        rules = s.rules
        kw: dict[str, Any] = {"orderer": i}
        if event.game in ("OT",):
            kw.update(trump=event.trump, declarer=i, declared=True)
        s = _replace(
            s,
            contract=_contract(rules, event.game, **kw),
            auction=_entry(s, event.seat, "order", event.game + (f" {event.trump}" if event.trump else "")),
        )
        if rules.schedule == "atomic":
            return _replace(s, phase="discard", to_act=i)
        return _playing(s)
    if isinstance(event, TalonShown):
        i = seats.index(event.seat)
        # In another seat's information state the talon joins the hand as placeholders: which
        # two cards the orderer lays aside is hidden, so no card of his hand is known.
        add = (UNKNOWN,) * len(event.cards) if UNKNOWN in s.hands[i] else event.cards
        return _replace(s, hands=_set(s.hands, i, s.hands[i] + add), talon=event.cards, talon_shown=True)
    if isinstance(event, Discarded):
        i = seats.index(event.seat)
        s = _replace(
            s,
            hands=_set(s.hands, i, _remove(s.hands[i], event.cards)),
            discards=_set(s.discards, i, event.cards),
        )
        return _playing(s)
    if isinstance(event, BuyoutOffered):
        i = seats.index(event.seat)
        s = _replace(
            s, best=(i, event.tricks), auction=_entry(s, event.seat, "offer_buyout", str(event.tricks))
        )
        return _after_buyout_step(s)
    if isinstance(event, BuyoutPassed):
        i = seats.index(event.seat)
        s = _replace(s, passed=_set(s.passed, i, True), auction=_entry(s, event.seat, "pass_buyout"))
        return _after_buyout_step(s)
    if isinstance(event, BuyoutDecided):
        c = s.contract
        assert c is not None
        s = _replace(
            s, auction=_entry(s, event.seat, "accept" if event.accepted else "refuse", str(event.tricks))
        )
        if event.accepted:
            buyer = seats.index(event.buyer)
            c = _replace(c, declarer=buyer, buyout=(buyer, c.declarer, event.tricks))
        return _replace(s, contract=c, phase="declaring", to_act=c.declarer)
    if isinstance(event, Declared):
        c = s.contract
        assert c is not None
        i = seats.index(event.seat)
        c = _replace(
            c,
            declarer=i,
            trump=event.trump,
            misere=event.option == "MISERE",
            raspis=event.option == "RASPIS",
            by_last=event.last_card,
            bid=s.best[1] if c.game == "AU" and s.best is not None else c.bid,
            declared=True,
        )
        value = event.option + (f" {event.trump}" if event.trump else "")
        s = _replace(s, contract=c, auction=_entry(s, event.seat, "declare", value))
        return s if c.raspis else _playing(s)
    if isinstance(event, RestDealt):
        return _replace(
            s,
            hands=tuple(h + tuple(r) for h, r in zip(s.hands, event.cards, strict=True)),
            pending=tuple(() for _ in seats),
        )
    if isinstance(event, BidMade):
        i = seats.index(event.seat)
        s = _replace(
            s, best=(i, event.tricks), forced=False, auction=_entry(s, event.seat, "bid", str(event.tricks))
        )
        return _after_bid_step(s)
    if isinstance(event, BidPassed):
        i = seats.index(event.seat)
        s = _replace(s, passed=_set(s.passed, i, True), auction=_entry(s, event.seat, "pass_bid"))
        return _after_bid_step(s)
    if isinstance(event, DealScored):
        row = event.row
        remaining = s.remaining
        c = s.contract
        if remaining and c is not None and c.orderer >= 0:
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
            ready=(False,) * len(seats),
            to_act=-1,
        )
    if isinstance(event, MatchScored):
        return _replace(s, phase="finished", ranks=event.ranks, balance=event.balance, totals=event.totals)
    raise TypeError(f"not a King event: {type(event).__name__}")


def _evolve_dealt(s: KingState, event: Dealt) -> KingState:
    rules = s.rules
    seats = s.seats
    n = len(seats)
    dealer = seats.index(event.dealer)
    active = tuple(i for i in range(n) if not (rules.sit_out_dealer and i == dealer))
    s = _replace(
        s,
        deal_no=event.deal_no,
        dealer=dealer,
        first_dealer=dealer if event.deal_no == 1 else s.first_dealer,
        active=active,
        hands=event.hands,
        pending=event.pending,
        talon=event.talon,
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
    left = s.left_of(dealer)
    game = event.game
    if game is None:
        return _replace(s, phase="ordering", to_act=left)
    declarer = seats.index(event.declarer) if event.declarer is not None else -1
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
