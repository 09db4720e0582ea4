"""A computer seat at a Kings Cup table: it draws, picks the next seat, and makes a plain rule."""

from __future__ import annotations

import random

from contracts.games.kings_cup import KingsCupCommand
from domain.core.decider import Bot
from domain.games.kings_cup.phases import legal_commands
from domain.games.kings_cup.state import CupState


def random_bot(state: CupState, seat: str, rng: random.Random) -> KingsCupCommand:
    return rng.choice(legal_commands(state, seat))


BOTS: dict[str, Bot[CupState, KingsCupCommand]] = {"random": random_bot}
