"""Tablut, rules/tablut.md: a pure Decider with the presets ``tablut-seed`` (the default),
``tablut-edge``, ``tablut-armed``, ``tablut-weak-king`` and ``tablut-linnaeus``."""

from __future__ import annotations

from typing import Any

from contracts.envelope import Rejected
from contracts.games.tablut import CONTRACT, TablutMove, TablutRuleset, TablutView
from contracts.match import TimeControl
from domain.core.decider import Decider, no_hidden

from . import words
from .bots import BOTS, draw_answer
from .decide import decide, evolve
from .explain import end_text, rules_help
from .legal import legal_commands
from .lobby import LOBBY
from .perft import perft
from .play import start
from .position import BadPosition, parse
from .record import RECORD
from .rules import DEFAULT_PRESET, DESCRIPTIONS, DESCRIPTIONS_RU, PRESETS, live_problem, validate
from .state import TablutState, outcome, to_move
from .view import redact, view

RULES_VERSION = "tablut-1"
# §8.5: 200 moves of each side at most in every preset (T5), so 400 plies.
MAX_DECISIONS = 410


def seat_names(n: int) -> tuple[str, ...]:
    if n != 2:
        raise ValueError("tablut is a two-player game")
    return ("attackers", "defenders")


def initial_state(rules: TablutRuleset, seats: tuple[str, ...], _seed: bytes | None) -> TablutState:
    return start(rules, (seats[0], seats[1]))


def position(rules: TablutRuleset, seats: tuple[str, ...], text: str) -> TablutState | Rejected:
    """A position string (§9.3) as a state to play on (``rules perft tablut --fen``)."""
    try:
        parse(text, rules)
    except BadPosition as exc:
        return Rejected(code="bad_position", detail=str(exc))
    return start(rules, (seats[0], seats[1]), text)


GAME: Decider[TablutState, TablutMove, Any, TablutView, TablutRuleset] = Decider(
    contract=CONTRACT,
    title="Tablut",
    title_ru="Таблут",
    rules_version=RULES_VERSION,
    min_seats=2,
    max_seats=2,
    seat_names=seat_names,
    presets=LOBBY.presets(PRESETS, DESCRIPTIONS, DESCRIPTIONS_RU),
    default_preset=DEFAULT_PRESET,
    validate=validate,
    live_problem=live_problem,
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
    position=position,
    # §9.4: the result reasons of a record
    record_reasons={"resignation": "resign"},
    # Ranked matches on a Fischer clock: 5 minutes and 3 s a move (docs/ranked.md).
    ranked_clock=TimeControl(base_s=300, increment_s=3, grace_s=120, on_timeout="forfeit"),
)

__all__ = ["GAME", "PRESETS", "DEFAULT_PRESET", "TablutState", "initial_state"]
