"""The end of a Kings Cup table: a helper table has no winner (never rated)."""

from __future__ import annotations

from contracts.match import Outcome
from domain.games.kings_cup.state import CupState


def outcome(state: CupState) -> Outcome | None:
    """A helper table has no winner: everyone shares the result (never rated)."""
    if state.status != "finished":
        return None
    who = state.seats[state.ended_by]
    reason = f"the fourth King, drawn by {who}" if state.end_reason == "fourth_king" else "every card drawn"
    return Outcome(ranks=tuple(1 for _ in state.seats), reason=reason, draw=True)
