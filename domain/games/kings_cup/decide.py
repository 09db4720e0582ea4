"""The decide steps of a Kings Cup turn (rules/king.md §15.1) on an event builder: a draw
reveals the card with its rule, an answer (a seat, a rule) completes it, and the turn passes
left; the fourth King or the last card ends the table.  ``phases.py`` says which step runs in
which phase."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.kings_cup import (
    CardDrawn,
    ChooseSeat,
    CupEnded,
    DrawCard,
    KingsCupCommand,
    KingsCupEvent,
    MakeRule,
    RuleMade,
    SeatChosen,
    TurnPassed,
)
from domain.core.cardgame.builder import Builder
from domain.games.kings_cup.evolve import ANSWERED
from domain.games.kings_cup.legal import CHOOSE, reject
from domain.games.kings_cup.state import CupState, rank_of

B = Builder[CupState, KingsCupEvent]


def decide_turn(b: B, i: int, command: KingsCupCommand) -> Rejected | None:
    """Phase ``playing``: the drawer's draw, or its answer to the card drawn."""
    s = b.state
    if i != s.current:
        return reject("not_your_turn", f"it is {s.seats[s.current]}'s turn")
    if isinstance(command, DrawCard):
        if s.awaiting is not None:
            return reject("answer_first", f"answer the card first ({s.awaiting})")
        return draw(b, i)
    if s.awaiting is None:
        return reject("nothing_to_answer", "draw a card")
    if isinstance(command, ChooseSeat):
        return choose_seat(b, i, command)
    assert isinstance(command, MakeRule)
    return make_rule(b, i, command)


def draw(b: B, i: int) -> Rejected | None:
    s = b.state
    card = s.cup[0]
    rank = rank_of(card)
    rule = s.rules.card_rules[rank]
    kings = s.kings + (rank == "K")
    seat = s.seats[i]
    b.emit(
        CardDrawn(
            seat=seat, card=card, rank=rank, title=rule.title, text=rule.text, effect=rule.effect, kings=kings
        )
    )
    if s.rules.end == "fourth_king" and kings == 4:
        b.emit(CupEnded(reason="fourth_king", seat=seat))
    elif rule.effect not in ANSWERED:
        pass_turn(b, i)
    return None


def choose_seat(b: B, i: int, command: ChooseSeat) -> Rejected | None:
    s = b.state
    if s.awaiting not in CHOOSE:
        return reject("answer_first", f"this card needs {s.awaiting}")
    if command.seat not in s.seats or command.seat == s.seats[i]:
        return reject("no_such_seat", f"choose another seat of {list(s.seats)}")
    b.emit(SeatChosen(seat=s.seats[i], target=command.seat, effect=s.awaiting))
    pass_turn(b, i)
    return None


def make_rule(b: B, i: int, command: MakeRule) -> Rejected | None:
    s = b.state
    rules = s.rules
    if s.awaiting != "new_rule":
        return reject("answer_first", f"this card needs {s.awaiting}")
    text = command.text.strip()
    if len(text) > rules.max_rule_length:
        return reject("rule_too_long", f"a rule has at most {rules.max_rule_length} characters")
    cancelled: str | None = None
    cancelled_index: int | None = None
    if command.cancel is not None:
        if rules.king_rules != "accumulate" or not 0 <= command.cancel < len(s.made):
            return reject("no_such_rule", "there is no such rule to cancel")
        cancelled = s.made[command.cancel][1]
        cancelled_index = command.cancel
    elif rules.king_rules == "replace" and s.made:
        cancelled = s.made[-1][1]
    if not text and command.cancel is None:
        return reject("empty_rule", "say the rule")
    b.emit(RuleMade(seat=s.seats[i], text=text, cancelled=cancelled, cancelled_index=cancelled_index))
    pass_turn(b, i)
    return None


def pass_turn(b: B, i: int) -> None:
    """The turn passes left; with no cards left the game is over."""
    s = b.state
    seat = s.seats[i]
    if not s.cup:
        b.emit(CupEnded(reason="deck_out", seat=seat))
    else:
        b.emit(TurnPassed(seat=seat, next_seat=s.seats[(i + 1) % len(s.seats)]))
