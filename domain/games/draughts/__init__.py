"""Russian draughts (русские шашки), rules/draughts.md: a pure Decider with the presets
``russian``, ``russian-giveaway`` and ``brazilian``."""

from __future__ import annotations

from typing import Any

from contracts.games.draughts import CONTRACT, DraughtsMove, DraughtsRuleset, DraughtsView
from contracts.match import TimeControl
from domain.core.decider import Decider, no_hidden

from . import words
from .bots import BOTS, draw_answer
from .decide import decide, evolve
from .explain import end_text, rules_help
from .legal import legal_commands
from .lobby import LOBBY
from .pdn import PDN
from .perft import perft, perft_paths
from .play import start
from .position import position
from .record import RECORD
from .rules import DEFAULT_PRESET, DESCRIPTIONS, DESCRIPTIONS_RU, PRESETS, validate
from .state import DraughtsState, outcome, to_move
from .view import redact, view

RULES_VERSION = "draughts-1"
# No game is longer than 6,509 plies (8,679 in brazilian, Q9); random play ends far sooner.
MAX_DECISIONS = 9000


def seat_names(n: int) -> tuple[str, ...]:
    if n != 2:
        raise ValueError("draughts is a two-player game")
    return ("white", "black")


def initial_state(rules: DraughtsRuleset, seats: tuple[str, ...], _seed: bytes | None) -> DraughtsState:
    return start(rules, (seats[0], seats[1]))


GAME: Decider[DraughtsState, DraughtsMove, Any, DraughtsView, DraughtsRuleset] = Decider(
    contract=CONTRACT,
    title="Russian draughts",
    title_ru="Русские шашки",
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
    perft_paths=perft_paths,
    position=position,
    notations=(PDN,),
    # §9.4: the result reasons of a record
    record_reasons={"resignation": "resign", "draw agreed": "agreement", "abandoned": "abandon"},
    # Ranked matches on a Fischer clock: 5 minutes and 3 s a move (docs/ranked.md).
    ranked_clock=TimeControl(base_s=300, increment_s=3, grace_s=120, on_timeout="forfeit"),
)

__all__ = ["GAME", "PRESETS", "DEFAULT_PRESET", "DraughtsState", "initial_state"]
