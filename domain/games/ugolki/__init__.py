"""Ugolki (Russian corners), rules/ugolki.md: a pure Decider with every refereeable preset."""

from __future__ import annotations

from typing import Any

from contracts.games.ugolki import CONTRACT, MovePiece, UgolkiRuleset, UgolkiView
from contracts.match import TimeControl
from domain.core.decider import Decider, no_hidden
from domain.games.ugolki.lobby import LOBBY

from . import words
from .bots import BOTS
from .decide import decide
from .evolve import evolve
from .explain import end_text, rules_help
from .legal import legal_commands
from .perft import perft
from .pgn import PGN
from .record import RECORD
from .rules import DEFAULT_PRESET, DESCRIPTIONS, DESCRIPTIONS_RU, PRESETS, validate
from .state import UgolkiState, initial_state, outcome, to_move
from .tempo import draw_answer
from .view import redact, view

RULES_VERSION = "ugolki-1"

# Every preset ends by Black's 200th move (D3's move_cap; long-game cutoffs come sooner), and a
# decision is one turn (forced passes ride along with the move before them).
MAX_DECISIONS = 400


def seat_names(n: int) -> tuple[str, ...]:
    if n != 2:
        raise ValueError("ugolki is a two-player game")
    return ("white", "black")


GAME: Decider[UgolkiState, MovePiece, Any, UgolkiView, UgolkiRuleset] = Decider(
    contract=CONTRACT,
    title="Ugolki (corners)",
    title_ru="Уголки",
    rules_version=RULES_VERSION,
    min_seats=2,
    max_seats=2,
    seat_names=seat_names,
    presets=LOBBY.presets(PRESETS, DESCRIPTIONS, DESCRIPTIONS_RU),
    default_preset=DEFAULT_PRESET,
    validate=validate,
    chance=False,
    hidden_info=False,
    max_decisions=MAX_DECISIONS,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    to_move=to_move,
    outcome=outcome,
    view=view,
    view_in=view,
    redact=redact,
    hidden=no_hidden,
    describe=words.describe,
    event_text=words.event_text,
    bots=BOTS,
    default_bot="greedy",
    record=RECORD,
    rules_help=rules_help,
    end_text=end_text,
    draw_answer=draw_answer,
    perft=perft,
    notations=(PGN,),
    # Ranked matches on a Fischer clock: 5 minutes and 3 s a move (docs/ranked.md).
    ranked_clock=TimeControl(base_s=300, increment_s=3, grace_s=120, on_timeout="forfeit"),
)

__all__ = ["GAME", "PRESETS", "DEFAULT_PRESET", "UgolkiState", "initial_state"]
