"""1000 (Тысяча), rules/thousand-and-farkle-flip.md §2: every preset of §2.20 as data, the referee of §2.21.

The package follows the card-game shape of docs/architecture.md: ``state`` (state, phases,
``initial_state``), ``rules`` (presets, point tables), ``deal`` (set-up, ``verify_chance``),
``legal`` (the checks and the legal commands), ``decide`` (one step per phase and the server steps
of §2.21.3), ``phases`` (the phase table; ``decide``, ``legal_commands``, ``to_move``), ``evolve``,
``scoring`` (§2.21.4, ``outcome``), ``timeout``, ``view``, ``bots`` and ``record``.
"""

from __future__ import annotations

import dataclasses

from contracts.games.thousand import (
    CONTRACT,
    ThousandCommand,
    ThousandEvent,
    ThousandRuleset,
    ThousandView,
)
from contracts.match import TimeControl
from domain.core.decider import Bot, Decider, auto_act
from domain.core.words import redacted_lines
from domain.games.thousand import bots, words
from domain.games.thousand.deal import verify_chance
from domain.games.thousand.evolve import evolve
from domain.games.thousand.explain import end_text, rules_help
from domain.games.thousand.lobby import LOBBY
from domain.games.thousand.phases import PHASED, decide
from domain.games.thousand.record import RECORD
from domain.games.thousand.rules import DESCRIPTIONS, DESCRIPTIONS_RU, PRESETS
from domain.games.thousand.scoring import outcome
from domain.games.thousand.state import TState, initial_state
from domain.games.thousand.timeout import lowest_legal
from domain.games.thousand.view import private_cards, redact, unseen, view


def seat_names(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, n + 1))


def validate(ruleset: ThousandRuleset, seats: int) -> str | None:
    """§2.20: the ruleset is consistent and plays with ``seats`` players (3, or 4 with sitout_4p)."""
    return ruleset.validate() or ruleset.check_seats(seats)


BOTS: dict[str, Bot[TState, ThousandCommand]] = {
    "random": bots.random_bot,
    "heuristic": bots.heuristic_bot,
    "search": bots.search_bot,
}

GAME: Decider[TState, ThousandCommand, ThousandEvent, ThousandView, ThousandRuleset] = Decider(
    contract=CONTRACT,
    title="1000 (Thousand)",
    title_ru="Тысяча (1000)",
    rules_version="thousand-2",
    min_seats=3,
    max_seats=4,  # 4 only with sitout_4p (each ruleset checks its own count)
    seat_names=seat_names,
    presets=LOBBY.presets(PRESETS, DESCRIPTIONS, DESCRIPTIONS_RU),
    preset_aliases={"CLASSIC": "classic", "ONLINE": "online", "SIMPLE": "simple"},  # T16
    default_preset="classic",
    validate=validate,
    chance=True,
    hidden_info=True,
    # A deal takes at most ~45 decisions; random legal play drifts negative and may never reach
    # the target, so random playouts are capped by the tests rather than bounded by the rules.
    max_decisions=100_000,
    initial_state=initial_state,
    evolve=evolve,
    phases=PHASED,
    timeout=auto_act(decide, lowest_legal),
    outcome=outcome,
    view=view,
    view_in=view,
    redact=redact,
    hidden=private_cards,
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

# thousand-1 (frozen, fold and audit only): the same game, but an abandonment placed only the
# claimed seat last and every other seat first, however long they had gone too, as it did for
# the matches stored under it (thousand-2: every seat that has gone shares the last place).
GAME_1 = dataclasses.replace(GAME, rules_version="thousand-1", absent_share_last=False)

UNSEEN = unseen

__all__ = ["GAME", "GAME_1", "UNSEEN", "TState"]
