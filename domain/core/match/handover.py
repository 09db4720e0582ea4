"""Seats handed to a computer player (``on_timeout = "bot"``): who acts for a seat, and the handover."""

from __future__ import annotations

from typing import Any

from contracts.envelope import Rejected
from contracts.match import SeatHandedToBot
from domain.core.decider import Decider
from domain.core.match.state import MatchState


def seat_token_hash(state: MatchState, seat: str) -> str:
    """The hash of the token that acts for ``seat`` now (a computer player's after a handover)."""
    for handed, token in reversed(state.bots):
        if handed == seat:
            return token
    return state.created.token_hashes[state.created.seats.index(seat)]


def bot_seats(state: MatchState) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s for s, _ in state.bots))


def hands_to_bot(state: MatchState, seat: str) -> bool:
    """Whether a timeout or abandonment of ``seat`` hands it to a computer player (a casual match
    with ``on_timeout = "bot"``, a seat not handed over already) instead of the game's rule."""
    tc = state.created.time_control
    return (
        tc is not None
        and tc.on_timeout == "bot"
        and not state.created.ranked
        and seat not in bot_seats(state)
    )


def handover(
    game: Decider[Any, Any, Any, Any, Any], seat: str, token_hash: str
) -> tuple[SeatHandedToBot] | Rejected:
    if len(token_hash) != 64:
        return Rejected(code="malformed", detail="a seat handed to a computer player needs bot_token_hash")
    return (SeatHandedToBot(seat=seat, strength=game.default_bot, token_hash=token_hash),)
