"""Kings in the Corner under rules version kings-corner-1, frozen: the rules as they stood before
the Decisions of 2026-12-01 (rules/kings-corner.md D1-D7), for folding and auditing matches stored
under kings-corner-1 only.  Registered by version (``domain.games.registry.OLD_VERSIONS``), never
offered for new matches.

The package keeps only the code of that version (commit 96b6e49, before the kings-corner-2
corrections) that differs from the current package: ``robinson`` and the point tables (``rules``),
the ruleset checks (``validation``), the initial state, the decide steps, ``legal``'s DRAW /
END_TURN checks and runs (a pending card checked in every phase), the phase table, ``evolve``'s
deal, draw, turn-end and round-end steps, the round's scoring (the corner-ace bonus floored at 0),
the view and redaction (king penalties public, no resignations) and the computer players over its
own legal moves.  Everything else (the state struct, the other presets, the deal and
``verify_chance``, the placement and pile rules, ``outcome``, notation, the words) is imported from
the current package, where it is identical; the golden logs of tests/golden/kings_corner_1 fail if
a change there reaches kings-corner-1.
"""

from __future__ import annotations

from contracts.games.kings_corner import (
    CONTRACT,
    KingsCornerCommand,
    KingsCornerEvent,
    KingsCornerRuleset,
    KingsCornerView,
)
from domain.core.decider import Decider, Preset
from domain.core.words import redacted_lines
from domain.games.kings_corner import seat_names, words
from domain.games.kings_corner.deal import verify_chance
from domain.games.kings_corner.scoring import outcome
from domain.games.kings_corner.state import KCState
from domain.games.kings_corner.v1.bots import BOTS
from domain.games.kings_corner.v1.evolve import evolve
from domain.games.kings_corner.v1.phases import decide, legal_commands, to_move
from domain.games.kings_corner.v1.rules import DESCRIPTIONS, PRESETS
from domain.games.kings_corner.v1.state import initial_state
from domain.games.kings_corner.v1.validation import ruleset_problem, seats_problem
from domain.games.kings_corner.v1.view import hidden, redact, view


def validate(ruleset: KingsCornerRuleset, seats: int) -> str | None:
    """§4.1: the ruleset is consistent and its deck deals ``seats`` hands, the cross and the reserve."""
    return ruleset_problem(ruleset) or seats_problem(ruleset, seats)


GAME: Decider[KCState, KingsCornerCommand, KingsCornerEvent, KingsCornerView, KingsCornerRuleset] = Decider(
    contract=CONTRACT,
    title="Kings in the Corner",
    rules_version="kings-corner-1",
    min_seats=2,
    max_seats=10,  # 2-6 on one deck, up to 10 with two decks (cz-two-decks); each ruleset checks its own range
    seat_names=seat_names,
    presets={name: Preset(ruleset, DESCRIPTIONS[name]) for name, ruleset in PRESETS.items()},
    default_preset="cardgames-zone",
    validate=validate,
    chance=True,
    hidden_info=True,
    # A round takes at most ~700 decisions (Φ of §5.6 bounds the actions; every turn draws or
    # acts while stock lasts); target matches end after a few dozen rounds at most in practice.
    max_decisions=200_000,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    to_move=to_move,
    outcome=outcome,
    view=view,
    redact=redact,
    hidden=hidden,
    describe=words.describe,
    event_text=redacted_lines(redact, words.line),
    bots=BOTS,
    default_bot="heuristic",
    verify_chance=verify_chance,
)

__all__ = ["GAME", "KCState"]
