"""rules/kings-corner.md "Decisions of 2026-12-01" (D1-D7), one test per decision."""

from __future__ import annotations

import pytest

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    CardPlayed,
    CardsDrawn,
    EndTurn,
    KingPenaltyCharged,
    PlayCard,
    RoundEnded,
    TurnEnded,
)
from domain.core import match as match_layer
from domain.games.kings_corner import GAME
from domain.games.kings_corner.rules import PRESETS
from tests.support.redaction import strings

from .conftest import dealt, kc, then_from


def _fold_for(preset: str, viewer: str | None, *events: object, n: int = 2) -> object:
    """The information state of ``viewer``: the events redacted for it, folded."""
    state = GAME.initial_state(PRESETS[preset], GAME.seat_names(n), None)
    for event in events:
        shown = GAME.redact(event, viewer)  # type: ignore[arg-type]
        if shown is not None:
            state = GAME.evolve(state, shown)
    return state


# ---------------------------------------------------------------- D1
def test_d1_penalty3_is_private_until_the_round_is_scored() -> None:
    """D1: a king held back costs 3, but no event another seat or a spectator receives shows it,
    and public totals change only when the round is scored, where the charge is revealed."""
    given = dealt(hands=("KC 2D 9C", "8D"), layout={"N": "9S"}, stock="8H 9H 4S")
    result = kc("pagat-kings-penalty").given(given).when("p1", EndTurn())
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    for event in result.result:
        if isinstance(event, TurnEnded):
            assert event.king_penalty == 0
        for viewer in ("p2", None):
            shown = GAME.redact(event, viewer)
            assert shown is None or not isinstance(shown, KingPenaltyCharged)
    assert state.totals == (0, 0)
    assert GAME.view(state, "p2").totals == {"p1": 0, "p2": 0}
    assert GAME.view(state, None).totals == {"p1": 0, "p2": 0}
    # the charge is in p1's own part of the log: p1's information state knows it
    own = [GAME.redact(e, "p1") for e in result.result]
    assert KingPenaltyCharged(seat="p1", points=3) in own
    # p2 goes out: the round is scored and p1's charge is revealed with its hand
    result = then_from(state).when("p2", PlayCard(card="8D", slot="N"))
    after = result.then_accepted()
    assert isinstance(result.result, tuple)
    assert after.phase == "scored"
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded)
    p1 = next(r for r in ended.seats if r.seat == "p1")
    assert p1.king_penalty == 3 and p1.points == 10 + 1 + 1 + 1 + 3  # KC, 2D, 9C, drawn 8H, +3
    assert after.totals[0] == p1.points


def test_d1_a_spectator_fold_of_a_penalty3_round_never_shows_a_charge() -> None:
    """D1 with E23: the spectator's events of a whole turn carry no king charge."""
    given = dealt(hands=("KC 2D", "3D"), stock="8H 9C")
    result = kc("pagat-kings-penalty").given(given).when("p1", EndTurn())
    result.then_accepted()
    assert isinstance(result.result, tuple)
    shown = [GAME.redact(e, None) for e in result.result]
    assert all(not isinstance(e, TurnEnded) or e.king_penalty == 0 for e in shown)
    assert not any(isinstance(e, KingPenaltyCharged) for e in shown)


# ---------------------------------------------------------------- D2
def test_d2_corner_ace_bonus_has_no_floor() -> None:
    """D2: the seat that completes a K..A corner and then goes out scores 0 - 5."""
    corner = "KS QH JS 10H 9S 8H 7S 6H 5S 4H 3S 2H"
    state = (
        kc("corner-ace-bonus")
        .given(dealt(hands=("AS 8C", "8D 5D"), layout={"NE": corner, "N": "9H"}, stock="9C 8C2"))
        .when("p1", PlayCard(card="AS", slot="NE"))
        .then_accepted()
    )
    result = then_from(state).when("p1", PlayCard(card="8C", slot="N"))
    after = result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded) and ended.winner == "p1"
    assert {r.seat: r.points for r in ended.seats} == {"p1": -5, "p2": 2}
    assert after.totals == (-5, 2)


def test_d2_the_bonus_goes_below_zero_for_a_small_hand_too() -> None:
    """D2: a round penalty of 1 with a completed corner is 1 - 5 = -4 (no clamp at 0)."""
    corner = "KS QH JS 10H 9S 8H 7S 6H 5S 4H 3S 2H"
    state = (
        kc("corner-ace-bonus")
        .given(dealt(hands=("AS 2D", "8D"), layout={"NE": corner, "N": "9S"}, stock="9C 8C"))
        .when("p1", PlayCard(card="AS", slot="NE"))
        .then_accepted()
    )
    state = then_from(state).when("p1", EndTurn()).then_accepted()  # draws 9C: hand 2D 9C
    result = then_from(state).when("p2", PlayCard(card="8D", slot="N"))
    result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded)
    assert {r.seat: r.points for r in ended.seats} == {"p1": 1 + 1 - 5, "p2": 0}


# ---------------------------------------------------------------- folding redacted events
def test_penalty3_redacted_deal_folds_for_the_other_seat() -> None:
    """A seat's redacted events fold (pagat-kings-penalty watched kings in another seat's '??' hand)."""
    deal = dealt(hands=("KC 2D", "3D 4D"), stock="8H 9C")
    for viewer in ("p2", None):
        state = _fold_for("pagat-kings-penalty", viewer, deal)
        assert GAME.view(state, viewer) == GAME.view(kc("pagat-kings-penalty").given(deal).state, viewer)  # type: ignore[arg-type]


def test_becker_redacted_going_out_draw_folds_for_the_other_seat() -> None:
    """V16: the card drawn after going out is '??' for the other seat; its fold must not raise."""
    deal = dealt(hands=("8C", "3D"), layout={"N": "9H", "E": "QD", "S": "5S", "W": "4H"}, stock="KS 2C 7D")
    events = kc("becker-four-card").given(deal).when("p1", PlayCard(card="8C", slot="N")).result
    assert isinstance(events, tuple)
    assert events == (
        CardPlayed(seat="p1", card="8C", slot="N"),
        CardsDrawn(seat="p1", cards=("KS",), count=1, reason="going_out"),
    )
    full = kc("becker-four-card").given(deal, *events).state
    for viewer in ("p2", None):
        mine = _fold_for("becker-four-card", viewer, deal, *events)
        assert GAME.view(mine, viewer) == GAME.view(full, viewer)  # type: ignore[arg-type]
        assert GAME.legal_commands(mine, "p2") == GAME.legal_commands(full, "p2")  # type: ignore[arg-type]
    # and after the placement both folds agree again
    placed = GAME.decide(full, "p1", PlayCard(card="KS", slot="NW"))
    assert isinstance(placed, tuple)
    after = kc("becker-four-card").given(deal, *events, *placed).state
    mine = _fold_for("becker-four-card", "p2", deal, *events, *placed)
    assert GAME.view(mine, "p2") == GAME.view(after, "p2")  # type: ignore[arg-type]
    assert GAME.legal_commands(mine, "p2") == GAME.legal_commands(after, "p2")  # type: ignore[arg-type]


# ---------------------------------------------------------------- D5
def test_d5_robinson_is_not_offered_and_klepek_says_its_reading() -> None:
    """D5 (Q17): robinson stays out of the preset list; klepek ships first_turn_out_adjust = -5,
    its description naming it a reading of an unclear sentence (Q14)."""
    assert "robinson" not in GAME.presets
    assert PRESETS["klepek"].first_turn_out_adjust == -5
    assert "unclear" in GAME.presets["klepek"].description


# ---------------------------------------------------------------- D6
@pytest.mark.parametrize(
    ("preset", "lo", "hi"),
    [("cardgames-zone", 2, 4), ("family-draw-first", 2, 4), ("pagat-classic", 2, 6), ("cz-two-decks", 2, 10)],
)
def test_d6_seat_count_within_the_presets_range(preset: str, lo: int, hi: int) -> None:
    """D6: a preset takes exactly its own players range (and the deck check of §5.3 step 1)."""
    ruleset = PRESETS[preset]
    assert GAME.validate(ruleset, lo) is None and GAME.validate(ruleset, hi) is None
    for n in (lo - 1, hi + 1):
        problem = GAME.validate(ruleset, n)
        assert problem is not None and "players" in problem and f"{lo}-{hi}" in problem


def _resolve(preset: str, **overrides: object) -> object:
    return match_layer.resolve_ruleset(GAME, preset, dict(overrides))


@pytest.mark.parametrize("n", [1, 3, 5])
def test_d6_cardgames_zone_plays_1_3_or_5_rounds(n: int) -> None:
    """D6 (003:L49): cardgames-zone is fixed_rounds:N with N in {1, 3, 5}."""
    ruleset = _resolve("cardgames-zone", match_end_value=n)
    assert not isinstance(ruleset, match_layer.Rejected) and ruleset.match_end_value == n  # type: ignore[attr-defined]


@pytest.mark.parametrize("n", [2, 4, 7])
def test_d6_cardgames_zone_refuses_other_round_counts(n: int) -> None:
    """D6: any other N is a typed rejection naming the parameter and the allowed values."""
    rejected = _resolve("cardgames-zone", match_end_value=n)
    assert isinstance(rejected, match_layer.Rejected) and rejected.code == "invalid_ruleset"
    assert "match_end_value" in rejected.detail and "1, 3, 5" in rejected.detail


@pytest.mark.parametrize(
    ("parameter", "value", "allowed"),
    [
        ("hand_size", 5, "4, 7"),
        ("hand_size", 1, "4, 7"),
        ("decks", 3, "1, 2"),
        ("jokers", 1, "0, 2"),
        ("draw_count", 3, "1, 2"),
        ("first_turn_out_adjust", 5, "0, -5"),
        ("corner_ace_bonus", -1, ">= 0"),
        ("max_players", 7, "2-6"),
        ("min_players", 1, ">= 2"),
        ("ante", -1, ">= 0"),
        ("idle_fee", -2, ">= 0"),
    ],
)
def test_d6_parameter_values_outside_4_1_are_refused(parameter: str, value: object, allowed: str) -> None:
    """D6: §4.1 lists the allowed values of each parameter; the rejection names both."""
    rejected = _resolve("pagat-classic", **{parameter: value})
    assert isinstance(rejected, match_layer.Rejected) and rejected.code == "invalid_ruleset", rejected
    assert parameter in rejected.detail and allowed in rejected.detail, rejected.detail


def test_d6_pagat_fixed_hands_plays_five_rounds() -> None:
    """D6: pagat-fixed-hands plays 5 rounds."""
    assert PRESETS["pagat-fixed-hands"].match_end == "fixed_rounds"
    assert PRESETS["pagat-fixed-hands"].match_end_value == 5


def test_d6_two_decks_take_up_to_ten_players() -> None:
    """Q22 / D6: with two decks the cap is 10 (not the card count)."""
    assert isinstance(_resolve("cz-two-decks", max_players=11), match_layer.Rejected)
    assert not isinstance(_resolve("cz-two-decks", max_players=10), match_layer.Rejected)


def test_vector15_uses_cz_two_decks() -> None:
    """Vector 15 names cz-two-decks (the test of §5.9 vector 15 runs under that preset)."""
    import inspect

    from . import test_turns

    assert 'kc("cz-two-decks", n=3)' in inspect.getsource(
        test_turns.test_vector15_blocked_when_nobody_can_act
    )


def test_every_stored_string_in_a_redacted_penalty_turn_is_public() -> None:
    """E23 / D1: a spectator learns nothing of p1's hand from its turn (only counts)."""
    given = dealt(hands=("KC 2D", "3D"), stock="8H 9C")
    result = kc("pagat-kings-penalty").given(given).when("p1", EndTurn())
    result.then_accepted()
    assert isinstance(result.result, tuple)
    seen: set[str] = set()
    for e in result.result:
        shown = GAME.redact(e, None)
        if shown is not None:
            seen |= strings(shown)
    assert not seen & {"KC", "2D", "8H"}


# ---------------------------------------------------------------- D4
def test_d4_timeout_is_end_turn_with_its_draw() -> None:
    """D4 / §5.4 TIMEOUT: the server sends END_TURN with any mandatory draw."""
    from domain.games.kings_corner.decide import timeout

    state = kc("pagat-classic").given(dealt(hands=("2D 3S", "3D"), stock="8H 9C")).state
    assert timeout(state, "p1") == (
        CardsDrawn(seat="p1", cards=("8H",), count=1, reason="turn_end"),
        TurnEnded(seat="p1", next_seat="p2"),
    )
    rejected = timeout(state, "p2")
    assert isinstance(rejected, Rejected) and rejected.code == "not_your_turn"


def test_d4_timeout_plays_obliged_kings_to_the_first_empty_corners() -> None:
    """D4 under enforce: each obliged king goes to the first empty corner, NE, SE, SW, NW."""
    from domain.games.kings_corner.decide import timeout

    state = (
        kc("s3-mandatory-kings").given(dealt(hands=("KC KD 2D", "3D"), layout={"NE": "KS"}, stock="8H")).state
    )
    assert timeout(state, "p1") == (
        CardPlayed(seat="p1", card="KC", slot="SE"),
        CardPlayed(seat="p1", card="KD", slot="SW"),
        CardsDrawn(seat="p1", cards=("8H",), count=1, reason="turn_end"),
        TurnEnded(seat="p1", next_seat="p2"),
    )


def test_d4_timeout_waives_the_play_requirement_with_one_draw() -> None:
    """D4 under until_playable: nothing played or merged, stock left: draw 1 and end the turn."""
    from domain.games.kings_corner.decide import timeout

    state = kc("draw-till-play").given(dealt(hands=("8C 2D", "3D"), layout={"N": "9H"}, stock="8H 9C")).state
    assert timeout(state, "p1") == (
        CardsDrawn(seat="p1", cards=("8H",), count=1, reason="until_playable"),
        TurnEnded(seat="p1", next_seat="p2"),
    )


def test_d4_timeout_places_a_pending_card_first() -> None:
    """D4 with V16: the pending card goes to the first empty slot that takes it."""
    from domain.games.kings_corner.decide import timeout

    given = dealt(hands=("8C", "3D"), layout={"N": "9H", "E": "QD", "S": "5S", "W": "4H"}, stock="KS 2C 7D")
    state = kc("becker-four-card").given(given).when("p1", PlayCard(card="8C", slot="N")).then_accepted()
    assert timeout(state, "p1") == (
        CardPlayed(seat="p1", card="KS", slot="NE"),
        CardsDrawn(seat="p1", cards=("2C",), count=1, reason="going_out"),
        TurnEnded(seat="p1", next_seat="p2"),
    )
