"""Computer players: pure (state, seat, rng) -> command, on the seat's information state."""

from __future__ import annotations

import random

from contracts.games.king import KingCommand
from domain.games.king.engine import legal_commands
from domain.games.king.state import KingState


def random_bot(state: KingState, seat: str, rng: random.Random) -> KingCommand:
    return rng.choice(legal_commands(state, seat))


BOTS = {"random": random_bot}
