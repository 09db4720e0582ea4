"""The end of a Farkle Flip game (rules/thousand-and-farkle-flip.md §3.9 End, FF3, FF7): the
ranking by banked points and the match's ``outcome``."""

from __future__ import annotations

from contracts.match import Outcome
from domain.games.farkle_flip.state import FFState

REASONS = {
    "final_round": "final round played",
    "piles_empty": "both piles empty for a full cycle of turns (FF3)",
}


def ranks(banked: tuple[int, ...]) -> tuple[int, ...]:
    """FF7: competition ranking by banked points, highest first (ties share: 1, 1, 3)."""
    return tuple(1 + sum(1 for other in banked if other > b) for b in banked)


def outcome(state: FFState) -> Outcome | None:
    if state.status != "finished":
        return None
    return Outcome(
        ranks=state.ranks,
        scores=tuple(float(b) for b in state.banked),
        reason=REASONS.get(state.end_reason, state.end_reason),
        draw=len(set(state.ranks)) == 1,
    )
