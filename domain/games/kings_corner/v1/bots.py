"""Computer players: pure (state, seat, rng) -> command."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from contracts.games.kings_corner import (
    KingsCornerCommand,
)
from domain.games.kings_corner.bots import _score
from domain.games.kings_corner.state import KCState
from domain.games.kings_corner.v1.phases import legal_commands


def random_bot(state: KCState, seat: str, rng: random.Random) -> KingsCornerCommand:
    return rng.choice(legal_commands(state, seat))


def heuristic_bot(state: KCState, seat: str, rng: random.Random) -> KingsCornerCommand:
    options = legal_commands(state, seat)
    best = max(_score(state, c) for c in options)
    return rng.choice([c for c in options if _score(state, c) == best])


BOTS: dict[str, Callable[[KCState, str, Any], KingsCornerCommand]] = {
    "random": random_bot,
    "heuristic": heuristic_bot,
}
