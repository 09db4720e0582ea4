"""1000 (Тысяча), rules/thousand-and-farkle-flip.md §2: every preset of §2.20 as data, the referee of §2.21."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from contracts.games.thousand import (
    THOUSAND_REJECTION_CODES,
    ThousandCommand,
    ThousandEvent,
    ThousandRuleset,
    ThousandView,
)
from domain.core.decider import Decider, GameMeta
from domain.games.thousand import bots
from domain.games.thousand.engine import (
    decide,
    evolve,
    initial_state,
    legal_commands,
    outcome,
    private_cards,
    to_move,
    unseen,
    verify_chance,
)
from domain.games.thousand.rules import DESCRIPTIONS, PRESETS
from domain.games.thousand.state import TState
from domain.games.thousand.view import describe, redact, view


def seat_names(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, n + 1))


META: GameMeta[ThousandRuleset] = GameMeta(
    name="thousand",
    rules_version="thousand-1",
    min_seats=3,
    max_seats=4,  # 4 only with sitout_4p (each ruleset checks its own count)
    chance=True,
    hidden_info=True,
    ruleset_type=ThousandRuleset,
    presets=PRESETS,
    default_preset="classic",
    command_type=ThousandCommand,
    event_type=ThousandEvent,
    view_type=ThousandView,
    rejection_codes=THOUSAND_REJECTION_CODES,
    seat_names=seat_names,
    # A deal is at most ~45 decisions; random play reaches a barrel or the target within a few
    # hundred deals.
    max_decisions=100_000,
    description=DESCRIPTIONS,
)

BOTS: dict[str, Callable[[TState, str, Any], ThousandCommand]] = {
    "random": bots.random_bot,
    "heuristic": bots.heuristic_bot,
}

GAME: Decider[TState, ThousandCommand, ThousandEvent, ThousandView, ThousandRuleset] = Decider(
    meta=META,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    to_move=to_move,
    outcome=outcome,
    view=view,
    redact=redact,
    verify_chance=verify_chance,
    bots=BOTS,
)

HIDDEN = private_cards
UNSEEN = unseen
DESCRIBE = describe

__all__ = ["DESCRIBE", "GAME", "HIDDEN", "META", "UNSEEN", "TState"]
