"""Computer players: pure (state, seat, rng) -> command."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from contracts.games.kings_corner import (
    DrawCard,
    EndTurn,
    KingsCornerCommand,
    MoveKingPile,
    MovePile,
    PlayCard,
    PlayRun,
    Ready,
)
from domain.games.kings_corner.v1.phases import legal_commands
from domain.games.kings_corner.v1.state import FACTS, N_CROSS, SLOT_INDEX, KCState


def random_bot(state: KCState, seat: str, rng: random.Random) -> KingsCornerCommand:
    return rng.choice(legal_commands(state, seat))


def _score(state: KCState, cmd: KingsCornerCommand) -> tuple[int, int]:
    """Kings out early, merge piles, build on piles, high cards to empty spaces; then draw or end."""
    if isinstance(cmd, Ready):
        return (100, 0)
    if isinstance(cmd, PlayCard):
        f = FACTS[cmd.as_card or cmd.card]
        slot = SLOT_INDEX[cmd.slot]
        joker = FACTS[cmd.card].joker
        if state.pending is not None:
            return (95, f.rank)
        if f.rank == 13 and slot >= N_CROSS and not state.layout[slot]:
            return (90 - joker * 60, 0)
        if state.layout[slot]:
            return (70 - joker * 50, f.rank)
        return (40 - joker * 30, f.rank)  # an empty cross slot: the highest card
    if isinstance(cmd, MoveKingPile):
        return (85, 0)
    if isinstance(cmd, MovePile):
        return (80, len(state.layout[SLOT_INDEX[cmd.from_slot]]))
    if isinstance(cmd, PlayRun):
        return (75, len(cmd.cards))
    if isinstance(cmd, DrawCard):
        return (10, 0)
    assert isinstance(cmd, EndTurn)
    return (5, 0)


def heuristic_bot(state: KCState, seat: str, rng: random.Random) -> KingsCornerCommand:
    options = legal_commands(state, seat)
    best = max(_score(state, c) for c in options)
    return rng.choice([c for c in options if _score(state, c) == best])


BOTS: dict[str, Callable[[KCState, str, Any], KingsCornerCommand]] = {
    "random": random_bot,
    "heuristic": heuristic_bot,
}
