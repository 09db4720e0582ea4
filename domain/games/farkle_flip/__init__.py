"""Farkle Flip (rules/thousand-and-farkle-flip.md §3): the referee of §3.9, the scoring table as data.

``rules`` (presets, the placeholder table, the pattern matcher), ``state``, ``engine`` (set-up,
decide, evolve, legal commands, ``verify_chance``), ``view`` (view, redaction, notation), ``bots``, ``record`` (game records).
"""

from __future__ import annotations

from contracts.games.farkle_flip import (
    CONTRACT,
    FarkleFlipCommand,
    FarkleFlipEvent,
    FarkleFlipRuleset,
    FarkleFlipView,
)
from domain.core.decider import Decider, Preset
from domain.games.farkle_flip.bots import BOTS
from domain.games.farkle_flip.engine import (
    canonical,
    decide,
    evolve,
    hidden,
    initial_state,
    legal_commands,
    outcome,
    to_move,
    verify_chance,
)
from domain.games.farkle_flip.explain import end_text, rules_help
from domain.games.farkle_flip.record import RECORD
from domain.games.farkle_flip.rules import DESCRIPTIONS, DESCRIPTIONS_RU, PRESETS
from domain.games.farkle_flip.state import FFState
from domain.games.farkle_flip.view import describe, redact, view


def seat_names(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, n + 1))


def validate(ruleset: FarkleFlipRuleset, seats: int) -> str | None:
    """§3.9 config, FF5 (targets below 10000 need six or more players) and the deck deals every seat."""
    return ruleset.validate() or ruleset.check_seats(seats)


GAME: Decider[FFState, FarkleFlipCommand, FarkleFlipEvent, FarkleFlipView, FarkleFlipRuleset] = Decider(
    contract=CONTRACT,
    title="Farkle Flip",
    rules_version="farkle-flip-1",
    min_seats=2,
    max_seats=8,
    seat_names=seat_names,
    presets={name: Preset(ruleset, DESCRIPTIONS[name], DESCRIPTIONS_RU[name]) for name, ruleset in PRESETS.items()},
    default_preset="farkle-flip-placeholder",
    validate=validate,
    chance=True,
    hidden_info=True,  # the draw-pile order, hidden from every seat
    # Random play reaches the target or the FF3 end within a few thousand decisions.
    max_decisions=200_000,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    to_move=to_move,
    outcome=outcome,
    view=view,
    view_in=view,
    redact=redact,
    hidden=hidden,
    describe=describe,
    bots=BOTS,
    default_bot="heuristic",
    verify_chance=verify_chance,
    record=RECORD,
    rules_help=rules_help,
    end_text=end_text,
)

HIDDEN = hidden
# Legal lists name one lock per distinct choice of cards; CANONICAL maps any accepted lock to it.
CANONICAL = canonical

__all__ = ["CANONICAL", "GAME", "HIDDEN", "FFState"]
