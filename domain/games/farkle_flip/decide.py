"""The decide steps of a Farkle Flip turn (rules/thousand-and-farkle-flip.md §3.9) on an event
builder: each event is folded at once, so the follow-ups of an action (a reshuffle before a draw,
a bust, the end of the turn, the final round, the end of the game) are decided on the state they
really apply to.  ``phases.py`` says which step runs in which phase."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.farkle_flip import (
    FARKLE,
    Busted,
    CardDrawn,
    CardPlaced,
    Draw,
    FarkleFlipCommand,
    FarkleFlipEvent,
    FinalRoundStarted,
    GameEnded,
    Lock,
    Place,
    TurnEnded,
)
from domain.core.cardgame.builder import Builder
from domain.games.farkle_flip.deal import reshuffle
from domain.games.farkle_flip.legal import draw_problem, lock_problem, new_groups, reject, stop_outcome
from domain.games.farkle_flip.scoring import ranks
from domain.games.farkle_flip.state import FFState

B = Builder[FFState, FarkleFlipEvent]


def decide_turn(b: B, i: int, command: FarkleFlipCommand) -> Rejected | None:
    """Phase ``playing``: DRAW, PLACE, LOCK or STOP of the seat whose turn it is."""
    s = b.state
    if i != s.current:
        return reject("not_your_turn", f"it is {s.seats[s.current]}'s turn")
    if isinstance(command, Draw):
        return draw(b)
    if isinstance(command, Place):
        return place(b, command)
    if isinstance(command, Lock):
        return lock(b, command)
    return stop(b)


def draw(b: B) -> Rejected | None:
    """DRAW: the top card (the scored pile reshuffled first when the draw pile is empty); a
    Farkle card busts the turn (§3.9 Bust)."""
    problem = draw_problem(b.state)
    if problem is not None:
        return problem
    seat = b.state.seats[b.state.current]
    if not b.state.draw_pile:
        shuffled = reshuffle(b.state, seat)
        if isinstance(shuffled, str):
            return reject("seed_unavailable", shuffled)
        if sorted(shuffled.order) != sorted(b.state.scored_pile):
            return reject("bad_deal", "the reshuffle order is not a permutation of the scored pile")
        b.emit(shuffled)
    card = b.state.draw_pile[0]
    b.emit(CardDrawn(seat=seat, card=card))
    if card == FARKLE:
        s = b.state
        b.emit(Busted(seat=seat, lost=tuple(c.cards for c in s.centre), groups=new_groups(s)))
        end_turn(b)
    return None


def place(b: B, command: Place) -> Rejected | None:
    """PLACE: the drawn card at the end of a seat's area."""
    s = b.state
    if s.pending is None:
        return reject("no_card_pending", "draw a card first")
    if command.target not in s.seats:
        return reject("no_such_seat", f"target must be one of {list(s.seats)}")
    t = s.seats.index(command.target)
    b.emit(
        CardPlaced(seat=s.seats[s.current], target=command.target, card=s.pending, position=len(s.areas[t]))
    )
    return None


def lock(b: B, command: Lock) -> Rejected | None:
    problem, event = lock_problem(b.state, command)
    if problem is not None:
        return problem
    assert event is not None
    b.emit(event)
    return None


def stop(b: B) -> Rejected | None:
    """STOP: bank (or forfeit) the turn; reaching the target starts the final round."""
    stopped = stop_outcome(b.state)
    if isinstance(stopped, Rejected):
        return stopped
    b.emit(stopped)
    s = b.state
    if stopped.result == "banked" and s.trigger < 0 and stopped.banked >= s.rules.target:
        n = len(s.seats)
        others = tuple(s.seats[(s.current + k) % n] for k in range(1, n))
        b.emit(FinalRoundStarted(trigger=s.seats[s.current], remaining=others))
    end_turn(b)
    return None


def end_turn(b: B) -> None:
    """The turn passes left; the game ends after the final round or a full dry cycle (FF3)."""
    s = b.state
    n = len(s.seats)
    b.emit(TurnEnded(seat=s.seats[s.current], next_seat=s.seats[(s.current + 1) % n]))
    s = b.state
    if s.trigger >= 0 and not s.remaining:
        b.emit(GameEnded(reason="final_round", banked=s.banked, ranks=ranks(s.banked)))
    elif s.dry_turns >= n:
        b.emit(GameEnded(reason="piles_empty", banked=s.banked, ranks=ranks(s.banked)))
