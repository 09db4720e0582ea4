"""1000 in portable game records (rules/records.md): the record adapter.

- Deals: ``{"hands": [per seat, a sitting-out dealer's []], "talon": [3 cards]}``, one entry per
  dealing (a redeal uses the next entry).  The first deal's dealer is the record's
  ``first_dealer`` (passed in the first entry as ``"first_dealer"``, 0 when absent); later deals
  rotate as the rules say (a redeal keeps the dealer).  Before the first deal every seat is marked
  ready (a record lists no ``ready``).
- Actions (names of §2.21.2): ``["declare_blind", s]``, ``["decline_blind", s]``,
  ``["keep_hand", s]``, ``["claim_redeal", s, reason]`` (``weak_before_bid``,
  ``four_nines_before_bid``, ``talon_low``, ``weak_after_passing``, ``four_nines_after_passing``),
  ``["bid", s, n]``, ``["pass", s]``, ``["give_cards", s, [[to_seat, card], [to_seat, card]],
  face_up]``, ``["set_contract", s, n]``, ``["write_off", s]``, ``["play", s, card, announce]``
  (``none``, ``marriage``, ``aces``), ``["resign", s]``; ``["ready", s]`` is accepted and skipped.
- ``scores``: every seat's running total after each dealing, redeals included (their points are 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from contracts.envelope import Rejected
from contracts.games.thousand import (
    Bid,
    ClaimRedeal,
    DealDealt,
    DeclareBlind,
    DeclineBlind,
    GiveCards,
    KeepHand,
    Pass,
    Play,
    Ready,
    SeatReady,
    SetContract,
    ThousandCommand,
    ThousandEvent,
    WriteOff,
)
from contracts.match import Resign
from domain.core.cardgame.builder import Builder
from domain.core.decider import RecordAdapter
from domain.games.thousand.deal import deal_from, deal_order
from domain.games.thousand.decide import advance
from domain.games.thousand.evolve import evolve
from domain.games.thousand.rules import DECK
from domain.games.thousand.state import TState

_REASONS = {
    "weak_before_bid": ("weak", "redeal_window"),
    "four_nines_before_bid": ("four_nines", "redeal_window"),
    "talon_low": ("talon_low", "talon_window"),
    "weak_after_passing": ("weak", "after_pass_window"),
    "four_nines_after_passing": ("four_nines", "after_pass_window"),
}


def _bad(detail: str) -> Rejected:
    return Rejected(code="bad_action", detail=detail)


def _int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse_action(state: TState, seat: str, action: Sequence[Any]) -> Any:  # noqa: C901
    """One record action (``[name, seat index, args...]``) as a command, or ``bad_action``."""
    if not action or not isinstance(action[0], str):
        return _bad("an action starts with its name")
    name, args = action[0], list(action[2:])
    arity = {"claim_redeal": 1, "bid": 1, "give_cards": 2, "set_contract": 1, "play": 2}
    if len(args) != arity.get(name, 0) and not (name in ("give_cards", "play") and len(args) == 1):
        return _bad(f"{name} takes {arity.get(name, 0)} argument(s) after the seat")
    simple: dict[str, Any] = {
        "declare_blind": DeclareBlind(),
        "decline_blind": DeclineBlind(),
        "keep_hand": KeepHand(),
        "pass": Pass(),
        "write_off": WriteOff(),
        "resign": Resign(),
        "ready": Ready(),
    }
    if name in simple:
        return simple[name]
    if name == "claim_redeal":
        if args[0] not in _REASONS:
            return _bad(f"claim_redeal reason must be one of {', '.join(_REASONS)}")
        reason, window = _REASONS[args[0]]
        if state.phase != window:
            return Rejected(
                code="redeal_not_allowed", detail=f"{args[0]} is not claimed in phase {state.phase}"
            )
        return ClaimRedeal(reason=reason)  # type: ignore[arg-type]
    if name in ("bid", "set_contract"):
        if not _int(args[0]):
            return _bad(f"{name} takes an integer")
        return Bid(amount=args[0]) if name == "bid" else SetContract(amount=args[0])
    if name == "give_cards":
        pairs = args[0]
        face_up = args[1] if len(args) == 2 else False
        if (
            not isinstance(pairs, list)
            or not all(
                isinstance(p, list) and len(p) == 2 and _int(p[0]) and isinstance(p[1], str) for p in pairs
            )
            or not isinstance(face_up, bool)
        ):
            return _bad("give_cards takes [[to_seat, card], [to_seat, card]] and face_up true/false")
        if not all(0 <= p[0] < len(state.seats) for p in pairs):
            return _bad("give_cards names a seat that does not exist")
        return GiveCards(gifts={state.seats[p[0]]: p[1] for p in pairs}, face_up=face_up)
    if name == "play":
        announce = args[1] if len(args) == 2 else "none"
        if not isinstance(args[0], str) or announce not in ("none", "marriage", "aces"):
            return _bad("play takes a card id and an announcement (none, marriage, aces)")
        return Play(card=args[0], announce=announce)  # type: ignore[arg-type]
    return _bad(f"unknown action {name!r}")


def format_action(state: TState, seat: str, command: Any) -> list[Any]:
    """A command as a record action (the inverse of ``parse_action``)."""
    s = state.seats.index(seat)
    if isinstance(command, ClaimRedeal):
        window = {"redeal_window": "before_bid", "after_pass_window": "after_passing"}.get(state.phase)
        reason = command.reason if window is None else f"{command.reason}_{window}"
        return ["claim_redeal", s, reason]
    if isinstance(command, Bid):
        return ["bid", s, command.amount]
    if isinstance(command, SetContract):
        return ["set_contract", s, command.amount]
    if isinstance(command, GiveCards):
        pairs = [[state.seats.index(to), card] for to, card in sorted(command.gifts.items())]
        return ["give_cards", s, pairs, command.face_up]
    if isinstance(command, Play):
        return ["play", s, command.card, command.announce]
    names = {
        DeclareBlind: "declare_blind",
        DeclineBlind: "decline_blind",
        KeepHand: "keep_hand",
        Pass: "pass",
        WriteOff: "write_off",
        Resign: "resign",
        Ready: "ready",
    }
    return [names[type(command)], s]


def wants_deal(state: TState) -> bool:
    """Before the first deal, after a scored deal while the match goes on, and after a redeal."""
    return state.seat_problem is None and state.phase in ("waiting", "next_deal", "redeal")


def deal(state: TState, entry: Mapping[str, Any]) -> tuple[ThousandEvent, ...] | Rejected:
    """The events that put a record's deal entry into play: the seats ready (first deal), the deal
    and the server steps that follow it (windows, the auction or the golden-kon declarer)."""
    hands, talon = entry.get("hands"), entry.get("talon")
    n = len(state.seats)
    if (
        not isinstance(hands, list)
        or len(hands) != n
        or not all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands)
        or not isinstance(talon, list)
        or not all(isinstance(c, str) for c in talon)
    ):
        return _bad(f'a thousand deal is {{"hands": [{n} lists of card ids], "talon": [3 card ids]}}')
    b: Builder[TState, ThousandEvent] = Builder(state, evolve)
    if state.phase == "waiting":
        for j in range(n):
            if not state.ready[j]:
                b.emit(SeatReady(seat=state.seats[j]))
        first = entry.get("first_dealer", 0)
        if not _int(first) or not 0 <= first < n:
            return _bad(f"first_dealer must be a seat index 0..{n - 1}")
        dealer = first
    else:
        dealer = state.dealer
    playing = set(deal_order(b.state, dealer))
    for j, h in enumerate(hands):
        want = 7 if j in playing else 0
        if len(h) != want:
            return _bad(f"seat {j} must be dealt {want} cards, the record gives {len(h)}")
    cards = [c for h in hands for c in h] + list(talon)
    if len(talon) != 3 or sorted(cards) != sorted(DECK):
        return _bad("the hands and the talon must hold each of the 24 cards (9-A) once, 3 in the talon")
    order = tuple(cards)
    b.emit(deal_from(b.state, dealer, tuple(tuple(h) for h in hands), tuple(talon), order))
    advance(b)
    return b.result()


def deal_entry(event: ThousandEvent) -> dict[str, Any] | None:
    """The record's deal entry of a recorded deal (with its dealer, which an export keeps for the
    first deal as the record's ``first_dealer``)."""
    if isinstance(event, DealDealt):
        return {
            "hands": [list(h) for h in event.hands],
            "talon": list(event.talon),
            "first_dealer": event.seats.index(event.dealer),
        }
    return None


def scores(state: TState) -> tuple[tuple[int, ...], ...]:
    return state.deal_rows


RECORD: RecordAdapter[TState, ThousandCommand, ThousandEvent] = RecordAdapter(
    parse_action=parse_action,
    format_action=format_action,
    wants_deal=wants_deal,
    deal=deal,
    deal_entry=deal_entry,
    scores=scores,
    ignored=lambda command: isinstance(command, Ready),  # records.md: deals follow the record
)
