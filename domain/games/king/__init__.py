"""King (Кинг) (rules/king.md): every preset of §11 as data, the referee of §12.

The package follows the card-game shape of docs/architecture.md: ``state`` (state and phases),
``rules`` (presets), ``deal`` (set-up, the rng_v1 deal, ``verify_chance``), ``decide`` (one step
per command), ``phases`` (the phase table; ``decide``, ``legal_commands``, ``to_move``),
``evolve`` (one function per event), ``queries`` (outcome, ``hidden``, the TIMEOUT auto-act),
``legal`` (each phase's legal commands, §12.4 legal cards, §12.5 trick resolution),
``scoring`` (§12.6 early end, §12.7, K4 ranks), ``view`` (views, notation, redaction), ``bots``
and ``record`` (portable game records).
"""

from __future__ import annotations

from contracts.games.king import CONTRACT, KingCommand, KingEvent, KingRuleset, KingView
from contracts.match import TimeControl
from domain.core.decider import Decider, auto_act
from domain.core.words import redacted_lines
from domain.games.king import words
from domain.games.king.bots import BOTS
from domain.games.king.deal import initial_state, verify_chance
from domain.games.king.evolve import evolve
from domain.games.king.explain import end_text, rules_help
from domain.games.king.lobby import LOBBY
from domain.games.king.phases import PHASED, decide
from domain.games.king.queries import abandon, hidden, outcome, timeout_command
from domain.games.king.record import RECORD
from domain.games.king.rules import DESCRIPTIONS, DESCRIPTIONS_RU, PRESETS
from domain.games.king.state import KingState
from domain.games.king.view import redact, view


def seat_names(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, n + 1))


def validate(ruleset: KingRuleset, seats: int) -> str | None:
    """§11.1 (and K6, K12, §9.3's zero-sum flag) and the seat count the ruleset is for."""
    return ruleset.validate() or ruleset.check_seats(seats)


GAME: Decider[KingState, KingCommand, KingEvent, KingView, KingRuleset] = Decider(
    contract=CONTRACT,
    title="King (Кинг)",
    title_ru="Кинг",
    rules_version="king-1",
    min_seats=3,
    max_seats=4,
    seat_names=seat_names,
    presets=LOBBY.presets(PRESETS, DESCRIPTIONS, DESCRIPTIONS_RU),
    default_preset="king-4p-classic",
    validate=validate,
    chance=True,
    hidden_info=True,
    # The longest preset (king-4p-ordered, 56 deals) takes about 56 x (4 ready + 4 orders + 32
    # plays) decisions; atomic King with 4 players 36 x (4 + 1 + 1 + 30).
    max_decisions=4_000,
    initial_state=initial_state,
    phases=PHASED,
    timeout=auto_act(decide, timeout_command),
    abandon=abandon,
    evolve=evolve,
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

HIDDEN = hidden

__all__ = ["GAME", "HIDDEN", "KingState"]
