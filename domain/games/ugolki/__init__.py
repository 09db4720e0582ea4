"""Ugolki (Russian corners), rules/ugolki.md: a pure Decider with every refereeable preset."""

from __future__ import annotations

from typing import Any

from contracts.games.ugolki import (
    UGOLKI_REJECTION_CODES,
    MovePiece,
    PieceMoved,
    TurnPassed,
    UgolkiRuleset,
    UgolkiView,
)
from domain.core.decider import Decider, GameMeta

from .bots import BOTS
from .decide import decide
from .evolve import evolve
from .game import legal_commands, outcome, to_move
from .rules import DEFAULT_PRESET, DESCRIPTIONS, PRESETS
from .state import UgolkiState, initial_state
from .view import redact, view

RULES_VERSION = "ugolki-1"

# Presets with a long-game cutoff end by Black's 80th (8x8) or 120th (10x10) move, at most one
# decision per turn.  Presets with no counters (kostrov, min2win, kosynka...) can go on forever
# under random play; playout tests cap those by decisions.
MAX_DECISIONS = 250


def _seat_names(n: int) -> tuple[str, ...]:
    if n != 2:
        raise ValueError("ugolki is a two-player game")
    return ("white", "black")


META: GameMeta[UgolkiRuleset] = GameMeta(
    name="ugolki",
    rules_version=RULES_VERSION,
    min_seats=2,
    max_seats=2,
    chance=False,
    hidden_info=False,
    ruleset_type=UgolkiRuleset,
    presets=PRESETS,
    default_preset=DEFAULT_PRESET,
    command_type=MovePiece,
    event_type=PieceMoved | TurnPassed,
    view_type=UgolkiView,
    rejection_codes=UGOLKI_REJECTION_CODES,
    seat_names=_seat_names,
    max_decisions=MAX_DECISIONS,
    description=DESCRIPTIONS,
)

GAME: Decider[UgolkiState, MovePiece, Any, UgolkiView, UgolkiRuleset] = Decider(
    meta=META,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    to_move=to_move,
    outcome=outcome,
    view=view,
    redact=redact,
    bots=BOTS,
)

__all__ = ["GAME", "META", "PRESETS", "DEFAULT_PRESET", "UgolkiState", "initial_state"]
