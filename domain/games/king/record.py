"""King in portable game records (rules/records.md): the record adapter.

- Deals: ``{"hands": [seat 0's cards, ...], "talon": [...]}``, each hand in dealing order (the
  declarer's "last card" of §6.3 is the last element; a dealer sitting out has ``[]``); the talon
  only in ``king-atomic``.  The first deal's dealer is the record's ``first_dealer`` (the
  replaying framework passes it in the first entry as ``"first_dealer"``, 0 when absent); later
  deals pass to the left (§11.4, K11).  Before a deal every seat is marked ready (a record lists
  no ``ready``; a ``["ready", s]`` action after its deal is accepted and changes nothing).
- Actions (names of §12.3): ``["choose_contract", s, game]`` (ORDER; with ``king-atomic``
  ``["choose_contract", s, game, suit_or_null]``), ``["pass_order", s]``, ``["offer_buyout", s,
  n]``, ``["pass_buyout", s]``, ``["accept_buyout", s]``, ``["refuse_buyout", s]``,
  ``["declare", s, option, suit_or_null]``, ``["choose_trump", s, suit_or_null]`` (DECLARE_TRUMP,
  DECLINE with null, NAME_TRUMP), ``["bid", s, n]``, ``["pass_bid", s]``, ``["discard", s, card,
  card]``, ``["play", s, card]``.
- ``scores``: every seat's running total after each deal (compensation included).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from contracts.envelope import Rejected
from contracts.games.king import (
    ALL_GAMES,
    SUITS_ORDER,
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Dealt,
    Declare,
    Discard,
    KingCommand,
    KingEvent,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
    RefuseBuyout,
    SeatReady,
)
from domain.core.cardgame.builder import Builder
from domain.core.decider import RecordAdapter
from domain.games.king.deal import check_scripted_deal, dealt_from
from domain.games.king.decide import auto_pass
from domain.games.king.evolve import evolve
from domain.games.king.state import KingState

OPTIONS = ("SUIT", "NO_TRUMP", "BY_LAST", "MISERE", "RASPIS")
_NO_OP_READY = Ready()  # a listed ready after the record's deal: skipped (``ignored``)


def _bad(detail: str) -> Rejected:
    return Rejected(code="bad_action", detail=detail)


def _suit(x: object) -> str | None | Rejected:
    if x is None or (isinstance(x, str) and x in SUITS_ORDER):
        return x
    return _bad(f"a suit is one of {' '.join(SUITS_ORDER)} or null")


def _int(x: object, what: str) -> int | Rejected:
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    return _bad(f"{what} must be a whole number")


def parse_action(state: KingState, seat: str, action: Sequence[Any]) -> KingCommand | Rejected:
    """One record action (``[name, seat index, args...]``) as a command, or ``bad_action``."""
    if not action or not isinstance(action[0], str):
        return _bad("an action starts with its name")
    name, args = action[0], list(action[2:])
    arity = {
        "choose_contract": (1, 2),
        "offer_buyout": (1, 1),
        "declare": (1, 2),
        "choose_trump": (1, 1),
        "bid": (1, 1),
        "discard": (2, 2),
        "play": (1, 1),
    }
    lo, hi = arity.get(name, (0, 0))
    if not lo <= len(args) <= hi:
        return _bad(f"{name} takes {lo if lo == hi else f'{lo}-{hi}'} argument(s) after the seat")
    if name == "choose_contract":
        if args[0] not in ALL_GAMES:
            return _bad(f"a game is one of {' '.join(ALL_GAMES)}")
        trump = _suit(args[1]) if len(args) == 2 else None
        if isinstance(trump, Rejected):
            return trump
        return ChooseContract(game=args[0], trump=trump)  # type: ignore[arg-type]
    if name in ("offer_buyout", "bid"):
        n = _int(args[0], "the number of tricks")
        if isinstance(n, Rejected):
            return n
        return OfferBuyout(tricks=n) if name == "offer_buyout" else Bid(tricks=n)
    if name == "declare":
        if args[0] not in OPTIONS:
            return _bad(f"an option is one of {' '.join(OPTIONS)}")
        suit = _suit(args[1]) if len(args) == 2 else None
        if isinstance(suit, Rejected):
            return suit
        return Declare(option=args[0], suit=suit)  # type: ignore[arg-type]
    if name == "choose_trump":
        suit = _suit(args[0])
        if isinstance(suit, Rejected):
            return suit
        return ChooseTrump(suit=suit)  # type: ignore[arg-type]
    if name in ("discard", "play"):
        if not all(isinstance(c, str) and c for c in args):
            return _bad(f"{name} takes card ids")
        return Discard(cards=tuple(args)) if name == "discard" else Play(card=args[0])
    if name == "ready":
        # before a deal the record's own deal entry readies every seat, so a listed ready that
        # follows it changes nothing; one with no deal entry left (a record cut between deals)
        # marks the seat ready as in live play
        i = state.seats.index(seat)
        between = state.phase in ("waiting", "scored") and not state.ready[i]
        return Ready() if between else _NO_OP_READY
    simple: dict[str, KingCommand] = {
        "pass_order": PassOrder(),
        "pass_buyout": PassBuyout(),
        "accept_buyout": AcceptBuyout(),
        "refuse_buyout": RefuseBuyout(),
        "pass_bid": PassBid(),
    }
    if name in simple:
        return simple[name]
    return _bad(f"unknown action {name!r}")


def format_action(state: KingState, seat: str, command: KingCommand) -> list[Any]:
    """A command as a record action (the inverse of ``parse_action``)."""
    s = state.seats.index(seat)
    if isinstance(command, ChooseContract):
        extra = [command.trump] if state.rules.schedule == "atomic" else []
        return ["choose_contract", s, command.game, *extra]
    if isinstance(command, OfferBuyout):
        return ["offer_buyout", s, command.tricks]
    if isinstance(command, Bid):
        return ["bid", s, command.tricks]
    if isinstance(command, Declare):
        return ["declare", s, command.option, command.suit]
    if isinstance(command, ChooseTrump):
        return ["choose_trump", s, command.suit]
    if isinstance(command, Discard):
        return ["discard", s, *command.cards]
    if isinstance(command, Play):
        return ["play", s, command.card]
    names = {
        PassOrder: "pass_order",
        PassBuyout: "pass_buyout",
        AcceptBuyout: "accept_buyout",
        RefuseBuyout: "refuse_buyout",
        PassBid: "pass_bid",
        Ready: "ready",
    }
    return [names[type(command)], s]


def wants_deal(state: KingState) -> bool:
    """Before the first deal, and after a scored deal while the match goes on."""
    return state.phase in ("waiting", "scored")


def deal(state: KingState, entry: Mapping[str, Any]) -> tuple[KingEvent, ...] | Rejected:
    """The events that put a record's deal entry into play: every seat ready, then the deal."""
    hands = entry.get("hands")
    talon = entry.get("talon", [])
    n = len(state.seats)
    if (
        not isinstance(hands, list)
        or len(hands) != n
        or not all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands)
    ):
        return _bad(f'a king deal is {{"hands": [{n} lists of card ids], "talon": [...]}}')
    if not isinstance(talon, list) or not all(isinstance(c, str) for c in talon):
        return _bad("the talon is a list of card ids")
    # live play deals when the last seat is ready; a record deals from its entry instead
    ready: list[KingEvent] = [SeatReady(seat=state.seats[i]) for i, r in enumerate(state.ready) if not r]
    s = state
    for e in ready:
        s = evolve(s, e)
    deal_no = state.deal_no + 1
    if deal_no == 1:
        first = entry.get("first_dealer", 0)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            return _bad(f"first_dealer must be a seat index 0..{n - 1}")
    else:
        first = state.first_dealer
    dealer = (first + deal_no - 1) % n
    event = dealt_from(s, deal_no, dealer, [tuple(h) for h in hands], tuple(talon))
    problem = check_scripted_deal(s, event)
    if problem is not None:
        return _bad(problem)
    b: Builder[KingState, KingEvent] = Builder(s, evolve)
    b.emit(event)
    auto_pass(b)
    return (*ready, *b.events)


def deal_entry(event: KingEvent) -> dict[str, Any] | None:
    """The record's deal entry of a recorded deal (hands in dealing order)."""
    if isinstance(event, Dealt):
        entry: dict[str, Any] = {
            "hands": [list(h) + list(p) for h, p in zip(event.hands, event.pending, strict=True)]
        }
        if event.deal_no == 1:  # an export moves it to the record's first_dealer
            entry["first_dealer"] = event.seats.index(event.dealer)
        if event.talon:
            entry["talon"] = list(event.talon)
        return entry
    return None


def scores(state: KingState) -> tuple[tuple[int, ...], ...]:
    """Per scored deal, every seat's running total after it (seat order)."""
    return tuple(row.totals for row in state.sheet)


RECORD: RecordAdapter[KingState, KingCommand, KingEvent] = RecordAdapter(
    parse_action=parse_action,
    format_action=format_action,
    wants_deal=wants_deal,
    deal=deal,
    deal_entry=deal_entry,
    scores=scores,
    ignored=lambda command: command is _NO_OP_READY,  # records.md: a record needs no ready
)
