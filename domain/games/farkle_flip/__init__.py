"""Farkle Flip (rules/thousand-and-farkle-flip.md §3): the referee of §3.9, the scoring table as data.

The package follows the card-game shape of docs/architecture.md: ``rules`` (presets, the
placeholder table, the pattern matcher), ``state`` (state, phases, set-up), ``deal`` (the deal and
reshuffles from rng_v1, ``verify_chance``), ``legal`` (the checks of each command, the legal
commands), ``decide`` (the steps of a turn), ``phases`` (the phase table; ``decide``,
``legal_commands``, ``to_move``), ``evolve``, ``scoring`` (ranks, ``outcome``), ``view`` (view,
redaction, ``hidden``, notation), ``bots`` and ``record`` (game records).
"""

from __future__ import annotations

import dataclasses

from contracts.games.farkle_flip import (
    CONTRACT,
    FarkleFlipCommand,
    FarkleFlipEvent,
    FarkleFlipRuleset,
    FarkleFlipView,
)
from contracts.match import TimeControl
from domain.core.decider import Decider
from domain.core.words import redacted_lines
from domain.games.farkle_flip import words
from domain.games.farkle_flip.bots import BOTS
from domain.games.farkle_flip.deal import verify_chance
from domain.games.farkle_flip.evolve import evolve
from domain.games.farkle_flip.explain import end_text, rules_help
from domain.games.farkle_flip.legal import canonical
from domain.games.farkle_flip.lobby import LOBBY
from domain.games.farkle_flip.phases import PHASED
from domain.games.farkle_flip.record import RECORD
from domain.games.farkle_flip.rules import DESCRIPTIONS, DESCRIPTIONS_RU, PRESETS
from domain.games.farkle_flip.scoring import outcome
from domain.games.farkle_flip.state import FFState, initial_state
from domain.games.farkle_flip.view import hidden, redact, view


def seat_names(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, n + 1))


def validate(ruleset: FarkleFlipRuleset, seats: int) -> str | None:
    """§3.9 config, FF5 (targets below 10000 need six or more players) and the deck deals every seat."""
    return ruleset.validate() or ruleset.check_seats(seats)


GAME: Decider[FFState, FarkleFlipCommand, FarkleFlipEvent, FarkleFlipView, FarkleFlipRuleset] = Decider(
    contract=CONTRACT,
    title="Farkle Flip",
    title_ru="Farkle Flip",
    rules_version="farkle-flip-2",
    min_seats=2,
    max_seats=8,
    seat_names=seat_names,
    presets=LOBBY.presets(PRESETS, DESCRIPTIONS, DESCRIPTIONS_RU),
    default_preset="farkle-flip-placeholder",
    validate=validate,
    chance=True,
    hidden_info=True,  # the draw-pile order, hidden from every seat
    # Random play reaches the target or the FF3 end within a few thousand decisions.
    max_decisions=200_000,
    initial_state=initial_state,
    evolve=evolve,
    phases=PHASED,
    outcome=outcome,
    view=view,
    view_in=view,
    redact=redact,
    hidden=hidden,
    describe=words.describe,
    event_text=redacted_lines(redact, words.line),
    bots=BOTS,
    default_bot="heuristic",
    verify_chance=verify_chance,
    record=RECORD,
    rules_help=rules_help,
    end_text=end_text,
    # Ranked matches by the move: a minute a turn (docs/ranked.md).
    ranked_clock=TimeControl(move_s=60, grace_s=180, on_timeout="forfeit"),
)

# farkle-flip-1 (frozen, fold and audit only): the same game, but an abandonment placed only the
# claimed seat last and every other seat first (farkle-flip-2: every seat that has gone shares
# the last place).
GAME_1 = dataclasses.replace(GAME, rules_version="farkle-flip-1", absent_share_last=False)

HIDDEN = hidden
# Legal lists name one lock per distinct choice of cards; CANONICAL maps any accepted lock to it.
CANONICAL = canonical

__all__ = ["CANONICAL", "GAME", "GAME_1", "HIDDEN", "FFState"]
