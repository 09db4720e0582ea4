"""What a Kings Cup table allows (rules/king.md §15.1): the drawer draws, then answers a card
that asks for a seat or a rule; these are the legal commands of the seat to move."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.kings_cup import ChooseSeat, DrawCard, KingsCupCommand, MakeRule
from domain.games.kings_cup.rules import SPOKEN_RULE
from domain.games.kings_cup.state import CupState

# SPOKEN_RULE (rules.py): the rule a King's legal move records when the table says the rule aloud
# (an API client may send the rule's own text instead).
# The effects answered by choosing a seat.
CHOOSE = ("choose_seat", "mate")


def reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


def play_moves(state: CupState, i: int) -> tuple[KingsCupCommand, ...]:
    """The drawer's legal commands: a draw, or the answers its card asks for (any other seat; the
    rule said at the table, or, when Kings' rules add up, a standing rule cancelled)."""
    if state.current != i:
        return ()
    if state.awaiting is None:
        return (DrawCard(),)
    seat = state.seats[i]
    if state.awaiting in CHOOSE:
        return tuple(ChooseSeat(seat=s) for s in state.seats if s != seat)
    out: list[KingsCupCommand] = [MakeRule(text=SPOKEN_RULE)]
    if state.rules.king_rules == "accumulate":
        out.extend(MakeRule(text="", cancel=k) for k in range(len(state.made)))
    return tuple(out)
