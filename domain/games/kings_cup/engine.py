"""Kings Cup table helper: set-up, decide, evolve, legal commands (rules/king.md §15.1).

The server spreads the 52 cards around the cup (rng_v1), reveals each drawn card with its rule
and keeps the standing roles; it never judges the challenges.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_cup import (
    CardDrawn,
    ChooseSeat,
    CupDealt,
    CupEnded,
    DrawCard,
    KingsCupCommand,
    KingsCupEvent,
    KingsCupRuleset,
    MakeRule,
    Ready,
    RuleMade,
    SeatChosen,
    SeatReady,
    TurnPassed,
)
from contracts.match import Outcome
from domain.core import cards, rng

MAX_CLIENT_SEED = 256
# The rule a King's legal move records when the table says the rule aloud (an API client may send
# the rule's own text instead).
SPOKEN_RULE = "the rule said at the table"
Status = Literal["waiting", "playing", "finished"]

_replace = msgspec.structs.replace


class CupState(msgspec.Struct, frozen=True, kw_only=True):
    rules: KingsCupRuleset
    seats: tuple[str, ...]
    seed: bytes | None
    seat_problem: str | None = None
    client_seeds: tuple[str, ...] = ()
    ready: tuple[bool, ...] = ()
    status: Status = "waiting"
    cup: tuple[str, ...] = ()  # face down, next first ("??" in a seat's information state)
    current: int = -1
    awaiting: str | None = None  # the effect the drawer still has to answer
    kings: int = 0
    drawn: tuple[tuple[int, str], ...] = ()  # (seat, card) in order
    question_master: int = -1
    mates: tuple[tuple[int, int], ...] = ()  # (seat, mate)
    made: tuple[tuple[int, str], ...] = ()  # standing rules (seat, text)
    end_reason: str = ""
    ended_by: int = -1


def _reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def rank_of(card: str) -> str:
    return cards.parse(card).rank


def initial_state(rules: KingsCupRuleset, seats: tuple[str, ...], seed: bytes | None) -> CupState:
    n = len(seats)
    return CupState(
        rules=rules,
        seats=tuple(seats),
        seed=seed,
        seat_problem=rules.check_seats(n),
        client_seeds=("",) * n,
        ready=(False,) * n,
    )


def deal(state: CupState) -> CupDealt | str:
    """The 52 cards around the cup (label ``cup``) and the first drawer (label ``first``)."""
    if state.seed is None:
        return "the server seed is not available"
    key = rng.derive_key(state.seed, state.client_seeds)
    order = rng.shuffle(key, b"cup", cards.deck("52"))
    first = rng.Stream(key, b"first").randbelow(len(state.seats))
    return CupDealt(order=order, size=len(order), first_seat=state.seats[first])


def evolve(state: CupState, event: KingsCupEvent) -> CupState:
    seats = state.seats
    if isinstance(event, CardDrawn):
        i = seats.index(event.seat)
        effect = event.effect
        s = _replace(
            state,
            cup=state.cup[1:],
            kings=event.kings,
            drawn=(*state.drawn, (i, event.card)),
            awaiting=effect if effect in ("choose_seat", "mate", "new_rule") else None,
        )
        if effect == "question_master":
            s = _replace(s, question_master=i)
        return s
    if isinstance(event, SeatChosen):
        s = _replace(state, awaiting=None)
        if event.effect == "mate":
            pair = (seats.index(event.seat), seats.index(event.target))
            if pair not in s.mates:
                s = _replace(s, mates=(*s.mates, pair))
        return s
    if isinstance(event, RuleMade):
        made = state.made
        if event.cancelled is not None:
            if state.rules.king_rules != "accumulate":
                made = ()
            elif event.cancelled_index is not None:
                made = made[: event.cancelled_index] + made[event.cancelled_index + 1 :]
            else:
                made = tuple(m for m in made if m[1] != event.cancelled)
        if state.rules.king_rules == "replace":
            made = ()
        if event.text:
            made = (*made, (seats.index(event.seat), event.text))[-state.rules.max_rules :]
        return _replace(state, made=made, awaiting=None)
    if isinstance(event, TurnPassed):
        return _replace(state, current=seats.index(event.next_seat), awaiting=None)
    if isinstance(event, SeatReady):
        i = seats.index(event.seat)
        return _replace(
            state,
            ready=_set(state.ready, i, True),
            client_seeds=_set(state.client_seeds, i, event.client_seed),
        )
    if isinstance(event, CupDealt):
        return _replace(state, status="playing", cup=event.order, current=seats.index(event.first_seat))
    if isinstance(event, CupEnded):
        return _replace(
            state, status="finished", end_reason=event.reason, ended_by=seats.index(event.seat), awaiting=None
        )
    raise TypeError(f"not a Kings Cup event: {type(event).__name__}")


def decide(state: CupState, seat: str, command: KingsCupCommand) -> tuple[KingsCupEvent, ...] | Rejected:
    if not isinstance(command, (Ready, DrawCard, ChooseSeat, MakeRule)):
        return _reject("malformed", f"not a Kings Cup command: {type(command).__name__}")
    if seat not in state.seats:
        return _reject("not_your_turn", f"{seat!r} is not a seat of this table")
    if state.seat_problem is not None:
        return _reject("invalid_seats", state.seat_problem)
    i = state.seats.index(seat)
    if isinstance(command, Ready):
        return _ready(state, i, command)
    if state.status != "playing":
        return _reject("game_not_active", f"the table is {state.status}")
    if i != state.current:
        return _reject("not_your_turn", f"it is {state.seats[state.current]}'s turn")
    if isinstance(command, DrawCard):
        if state.awaiting is not None:
            return _reject("answer_first", f"answer the card first ({state.awaiting})")
        return _draw(state, i)
    if state.awaiting is None:
        return _reject("nothing_to_answer", "draw a card")
    if isinstance(command, ChooseSeat):
        if state.awaiting not in ("choose_seat", "mate"):
            return _reject("answer_first", f"this card needs {state.awaiting}")
        if command.seat not in state.seats or command.seat == seat:
            return _reject("no_such_seat", f"choose another seat of {list(state.seats)}")
        return (SeatChosen(seat=seat, target=command.seat, effect=state.awaiting), *_after(state, i))
    assert isinstance(command, MakeRule)
    if state.awaiting != "new_rule":
        return _reject("answer_first", f"this card needs {state.awaiting}")
    text = command.text.strip()
    if len(text) > state.rules.max_rule_length:
        return _reject("rule_too_long", f"a rule has at most {state.rules.max_rule_length} characters")
    cancelled: str | None = None
    cancelled_index: int | None = None
    if command.cancel is not None:
        if state.rules.king_rules != "accumulate" or not 0 <= command.cancel < len(state.made):
            return _reject("no_such_rule", "there is no such rule to cancel")
        cancelled = state.made[command.cancel][1]
        cancelled_index = command.cancel
    elif state.rules.king_rules == "replace" and state.made:
        cancelled = state.made[-1][1]
    if not text and command.cancel is None:
        return _reject("empty_rule", "say the rule")
    return (
        RuleMade(seat=seat, text=text, cancelled=cancelled, cancelled_index=cancelled_index),
        *_after(state, i),
    )


def _ready(state: CupState, i: int, command: Ready) -> tuple[KingsCupEvent, ...] | Rejected:
    if state.status != "waiting":
        return _reject("not_dealing", "the cards are out already")
    if state.ready[i]:
        return _reject("already_ready", "this seat is ready already")
    if len(command.client_seed) > MAX_CLIENT_SEED:
        return _reject("client_seed_too_long", f"client_seed is longer than {MAX_CLIENT_SEED} characters")
    events: list[KingsCupEvent] = [SeatReady(seat=state.seats[i], client_seed=command.client_seed)]
    after = evolve(state, events[0])
    if all(after.ready):
        dealt = deal(after)
        if isinstance(dealt, str):
            return _reject("seed_unavailable", dealt)
        events.append(dealt)
    return tuple(events)


def _draw(state: CupState, i: int) -> tuple[KingsCupEvent, ...]:
    card = state.cup[0]
    rank = rank_of(card)
    rule = state.rules.card_rules[rank]
    kings = state.kings + (rank == "K")
    seat = state.seats[i]
    drawn = CardDrawn(
        seat=seat, card=card, rank=rank, title=rule.title, text=rule.text, effect=rule.effect, kings=kings
    )
    if state.rules.end == "fourth_king" and kings == 4:
        return (drawn, CupEnded(reason="fourth_king", seat=seat))
    if rule.effect in ("choose_seat", "mate", "new_rule"):
        return (drawn,)
    return (drawn, *_after(evolve(state, drawn), i))


def _after(state: CupState, i: int) -> tuple[KingsCupEvent, ...]:
    """The turn passes left; with no cards left the game is over."""
    seat = state.seats[i]
    if not state.cup:
        return (CupEnded(reason="deck_out", seat=seat),)
    return (TurnPassed(seat=seat, next_seat=state.seats[(i + 1) % len(state.seats)]),)


def legal_commands(state: CupState, seat: str) -> tuple[KingsCupCommand, ...]:
    if seat not in state.seats or state.seat_problem is not None:
        return ()
    i = state.seats.index(seat)
    if state.status == "waiting":
        return () if state.ready[i] else (Ready(),)
    if state.status != "playing" or state.current != i:
        return ()
    if state.awaiting is None:
        return (DrawCard(),)
    if state.awaiting in ("choose_seat", "mate"):
        return tuple(ChooseSeat(seat=s) for s in state.seats if s != seat)
    out: list[KingsCupCommand] = [MakeRule(text=SPOKEN_RULE)]
    if state.rules.king_rules == "accumulate":
        out.extend(MakeRule(text="", cancel=k) for k in range(len(state.made)))
    return tuple(out)


def to_move(state: CupState) -> frozenset[str]:
    if state.seat_problem is not None:
        return frozenset()
    if state.status == "waiting":
        return frozenset(s for s, r in zip(state.seats, state.ready, strict=True) if not r)
    if state.status == "playing":
        return frozenset({state.seats[state.current]})
    return frozenset()


def outcome(state: CupState) -> Outcome | None:
    """A helper table has no winner: everyone shares the result (never rated)."""
    if state.status != "finished":
        return None
    who = state.seats[state.ended_by]
    reason = f"the fourth King, drawn by {who}" if state.end_reason == "fourth_king" else "every card drawn"
    return Outcome(ranks=tuple(1 for _ in state.seats), reason=reason, draw=True)


def hidden(state: CupState, seat: str) -> frozenset[str]:
    """The cards still around the cup are hidden from everybody (their order is the game)."""
    return frozenset(c for c in state.cup if c != cards.UNKNOWN)


def verify_chance(state: CupState, event: KingsCupEvent) -> str | None:
    if isinstance(event, CupDealt):
        expected = deal(state)
        if isinstance(expected, str):
            return f"spread: {expected}"
        if event != expected:
            return "spread: the order around the cup does not follow from rng_v1"
        return None
    if isinstance(event, CardDrawn):
        if not state.cup or state.cup[0] != event.card:
            return f"draw by {event.seat}: {event.card} is not the next card around the cup"
    return None
