"""Kings Cup (rules/king.md §15.1) as an opt-in table helper: the deal around the cup, each drawn
card's rule from a configurable rule set, the standing roles, the end on the fourth King.
Declared ``helper``: never rated, not offered in quick match, marked as a helper in the lobby.

The package follows the card-game shape of docs/architecture.md: ``rules`` (presets, the card
rules), ``state`` (state, phases, set-up), ``deal`` (the spread from rng_v1, ``verify_chance``),
``legal``, ``decide`` (the steps of a turn), ``phases`` (the phase table; ``decide``,
``legal_commands``, ``to_move``), ``evolve``, ``scoring`` (``outcome``), ``view`` (view,
redaction, ``hidden``, notation) and ``bots``.
"""

from __future__ import annotations

import dataclasses

from contracts.games.kings_cup import CONTRACT, KingsCupCommand, KingsCupEvent, KingsCupRuleset, KingsCupView
from contracts.match import Outcome
from domain.core.decider import Decider
from domain.core.words import redacted_lines
from domain.games.kings_cup import words
from domain.games.kings_cup.bots import BOTS
from domain.games.kings_cup.deal import verify_chance
from domain.games.kings_cup.evolve import evolve
from domain.games.kings_cup.explain import end_text, rules_help
from domain.games.kings_cup.lobby import LOBBY
from domain.games.kings_cup.phases import PHASED
from domain.games.kings_cup.rules import DESCRIPTIONS, DESCRIPTIONS_RU, PRESETS
from domain.games.kings_cup.scoring import outcome
from domain.games.kings_cup.state import CupState, initial_state
from domain.games.kings_cup.view import hidden, redact, view


def seat_names(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, n + 1))


def abandoned(state: CupState, seat: str) -> Outcome:
    """An abandoned table ends with nobody placed: a helper facilitates the game and judges no
    result (rules/king.md §15.1: "only as a facilitator, not as an adjudicator"), so whoever has
    gone, every seat shares the result, as at the table's own end."""
    return Outcome(ranks=tuple(1 for _ in state.seats), reason="abandoned", draw=True)


def validate(ruleset: KingsCupRuleset, seats: int) -> str | None:
    return ruleset.validate() or ruleset.check_seats(seats)


GAME: Decider[CupState, KingsCupCommand, KingsCupEvent, KingsCupView, KingsCupRuleset] = Decider(
    contract=CONTRACT,
    title="Kings Cup (table helper)",
    title_ru="Kings Cup (помощник для застолья)",
    rules_version="kings-cup-3",
    min_seats=2,
    max_seats=12,
    seat_names=seat_names,
    presets=LOBBY.presets(PRESETS, DESCRIPTIONS, DESCRIPTIONS_RU),
    default_preset="kings-cup-neutral",
    validate=validate,
    chance=True,
    hidden_info=True,  # the order of the cards around the cup
    max_decisions=2 * 52 + 20 + 2,  # ready per seat, then at most a draw and an answer per card
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
    default_bot="random",
    verify_chance=verify_chance,
    helper=True,
    abandon=abandoned,
    rules_help=rules_help,
    end_text=end_text,
    draw_offers=False,
)

# kings-cup-2 (frozen, fold and audit only): the same game, but an abandonment placed the claimed
# seat last and every other seat first (kings-cup-3: nobody is placed), as it did for the matches
# stored under it.
GAME_2 = dataclasses.replace(GAME, rules_version="kings-cup-2", abandon=None, absent_share_last=False)
# kings-cup-1 (frozen, fold and audit only): kings-cup-2, but the match layer still took draw
# offers and their answers, as it did for the matches stored under it.
GAME_1 = dataclasses.replace(GAME_2, rules_version="kings-cup-1", draw_offers=True)

HIDDEN = hidden

__all__ = ["GAME", "GAME_1", "GAME_2", "HIDDEN", "CupState"]
