"""The match layer: a decider composed around any game (seating, resignation, draws, the end).

Games never see these commands; the match layer never looks inside a game's state except
through the game's Decider functions.  By concern: ``state`` (the match's state, the match
layer's command and event types), ``create`` (rulesets, seat counts, the creation), ``clocks``
(time controls, deadlines, the clocks folded from the stamps), ``handover`` (seats handed to a
computer player), ``claims`` (timeouts, abandonment, idle matches), ``decide`` (decide and
evolve), ``words`` (the end in words) and ``views``.
"""

from __future__ import annotations

from contracts.envelope import Rejected
from domain.core.match.clocks import (
    abandon_deadline,
    abandon_deadlines,
    clock_after,
    deadline,
    deadlines,
    time_control_problem,
)
from domain.core.match.create import (
    check_ruleset,
    decide_create,
    default_seats,
    default_seats_of,
    live_creation_problem,
    live_problem,
    playable_seats,
    resolve_ruleset,
    ruleset_hash,
    written_ruleset,
)
from domain.core.match.decide import decide, decide_and_evolve, evolve, redact
from domain.core.match.handover import bot_seats, hands_to_bot, seat_token_hash
from domain.core.match.state import (
    MATCH_COMMAND_TYPES,
    MATCH_EVENT_TYPES,
    ON_TIMEOUT,
    Clock,
    MatchState,
    is_match_event,
    to_move,
)
from domain.core.match.views import clock_view, view
from domain.core.match.words import (
    WORDS,
    outcome_text,
    player_in_words,
    seat_names_in_words,
    strength_in_words,
)

__all__ = [
    "MATCH_COMMAND_TYPES",
    "MATCH_EVENT_TYPES",
    "ON_TIMEOUT",
    "WORDS",
    "Clock",
    "MatchState",
    "Rejected",
    "abandon_deadline",
    "abandon_deadlines",
    "bot_seats",
    "check_ruleset",
    "live_creation_problem",
    "live_problem",
    "clock_after",
    "clock_view",
    "deadline",
    "deadlines",
    "decide",
    "decide_and_evolve",
    "decide_create",
    "default_seats",
    "default_seats_of",
    "playable_seats",
    "evolve",
    "hands_to_bot",
    "is_match_event",
    "outcome_text",
    "redact",
    "resolve_ruleset",
    "ruleset_hash",
    "written_ruleset",
    "seat_names_in_words",
    "player_in_words",
    "strength_in_words",
    "seat_token_hash",
    "time_control_problem",
    "to_move",
    "view",
]
