"""Computer players: pure (state, seat, rng) -> command."""

from __future__ import annotations

import random

from contracts.games.thousand import ThousandCommand
from domain.games.thousand.engine import legal_commands
from domain.games.thousand.state import TState


def random_bot(state: TState, seat: str, rng: random.Random) -> ThousandCommand:
    return rng.choice(legal_commands(state, seat))


def heuristic_bot(state: TState, seat: str, rng: random.Random) -> ThousandCommand:
    return rng.choice(legal_commands(state, seat))
