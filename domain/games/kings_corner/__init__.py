"""Kings in the Corner (rules/kings-corner.md): every preset of §4 as data, the referee of §5.

The package follows the card-game shape of docs/architecture.md: ``state`` (state, phases),
``rules`` (presets, point tables), ``deal`` (set-up, ``verify_chance``), ``legal``, ``decide``
(one step per phase), ``phases`` (the phase table; ``decide``, ``legal_commands``, ``to_move``),
``evolve``, ``scoring``, ``view`` and ``bots``.
"""

from __future__ import annotations

import dataclasses

import msgspec

from contracts.games.kings_corner import (
    CONTRACT,
    KingsCornerCommand,
    KingsCornerEvent,
    KingsCornerRuleset,
    KingsCornerView,
)
from contracts.match import TimeControl
from domain.core.decider import Decider
from domain.core.words import redacted_lines
from domain.games.kings_corner import words
from domain.games.kings_corner.bots import BOTS
from domain.games.kings_corner.deal import verify_chance
from domain.games.kings_corner.decide import resign
from domain.games.kings_corner.evolve import evolve
from domain.games.kings_corner.explain import end_text, rules_help
from domain.games.kings_corner.form import FORM
from domain.games.kings_corner.lobby import LOBBY
from domain.games.kings_corner.phases import PHASED
from domain.games.kings_corner.record import RECORD
from domain.games.kings_corner.rules import DESCRIPTIONS, DESCRIPTIONS_RU, PRESETS, preset_problem
from domain.games.kings_corner.scoring import outcome
from domain.games.kings_corner.state import KCState, initial_state
from domain.games.kings_corner.timeout import timeout
from domain.games.kings_corner.view import hidden, redact, view


def seat_names(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, n + 1))


def validate(ruleset: KingsCornerRuleset, seats: int) -> str | None:
    """D6: the parameters of §4.1, the preset tables (cardgames-zone rounds), the seat count in the
    ruleset's players range and a deck that deals ``seats`` hands, the cross and the reserve."""
    return ruleset.validate() or preset_problem(ruleset) or ruleset.check_seats(seats)


GAME: Decider[KCState, KingsCornerCommand, KingsCornerEvent, KingsCornerView, KingsCornerRuleset] = Decider(
    contract=CONTRACT,
    title="Kings in the Corner",
    title_ru="Короли в углах",
    families=tuple(LOBBY.families),
    # kings-corner-3: the Decisions of 2026-12-02 (rules/kings-corner.md D8-D10) on those of
    # 2026-12-01 (D1-D7); kings-corner-2 (``GAME_2``) still folds and audits the matches stored under it
    rules_version="kings-corner-3",
    min_seats=2,
    max_seats=10,  # 2-6 on one deck, up to 10 with two decks (cz-two-decks); each ruleset checks its own range
    seat_names=seat_names,
    presets=LOBBY.presets(PRESETS, DESCRIPTIONS, DESCRIPTIONS_RU),
    default_preset="cardgames-zone",
    validate=validate,
    chance=True,
    hidden_info=True,
    # A round takes at most ~700 decisions (Φ of §5.6 bounds the actions; every turn draws or
    # acts while stock lasts); target matches end after a few dozen rounds at most in practice.
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
    resign=resign,
    timeout=timeout,
    # An abandoned seat resigns (§5.4 RESIGN meta action, Decision D3): skipped for the rest of
    # the match; in a two-seat match that ends it.
    abandon=resign,
    record=RECORD,
    rules_help=rules_help,
    end_text=end_text,
    ruleset_form=FORM,  # D10
    # Ranked matches by the move: a minute a turn (docs/ranked.md).
    ranked_clock=TimeControl(move_s=60, grace_s=180, on_timeout="forfeit"),
)


def _initial_state_2(ruleset: KingsCornerRuleset, seats: tuple[str, ...], seed: bytes | None) -> KCState:
    return msgspec.structs.replace(initial_state(ruleset, seats, seed), decisions_1202=False)


# kings-corner-2, frozen: before D8 a pile moved onto a corner that completed K..A earned the
# corner-ace bonus as well.  Registered in domain.games.registry.OLD_VERSIONS.
GAME_2: Decider[KCState, KingsCornerCommand, KingsCornerEvent, KingsCornerView, KingsCornerRuleset] = (
    dataclasses.replace(GAME, rules_version="kings-corner-2", initial_state=_initial_state_2)
)

__all__ = ["GAME", "GAME_2", "KCState"]
