"""The corner-ace bonus is earned by playing an ace from the hand (rules/kings-corner.md §2.12
V12, §5.6 Scoring, Decisions D2 and D8).

D8: the bonus is credited when a seat plays an ace from its hand onto a corner pile and so
completes K→A; a pile moved onto a corner (MOVE_PILE, MOVE_KING_PILE) that completes K→A earns
no bonus, even when the moved pile ends with an ace. D2: the bonus is subtracted without a floor,
so the seat that went out scores ``0 − bonus``.

``corner-ace-bonus`` is ``pagat-classic`` with ``corner_ace_bonus = 5``: down in alternating
colours, immediate going out, a king-based cross pile may move to an empty corner (A5).
"""

from __future__ import annotations

from contracts.games.kings_corner import MoveKingPile, MovePile, PlayCard, RoundEnded

from .conftest import dealt, kc, then_from

# A corner pile K♠ down to 3♠ in alternating colours: eleven cards, the 2 and the ace to come.
CORNER_TO_3 = "KS QH JS 10H 9S 8H 7S 6H 5S 4H 3S"



def _points(result: object) -> dict[str, int]:
    events = result.result  # type: ignore[attr-defined]
    assert isinstance(events, tuple)
    ended = events[-1]
    assert isinstance(ended, RoundEnded)
    return {r.seat: r.points for r in ended.seats}


def test_d8_an_ace_played_from_the_hand_onto_a_corner_earns_the_bonus() -> None:
    """D8 and D2: p1 plays A♣ from its hand onto the corner K♠..2♥ and goes out: 0 − 5 = −5."""
    spec = kc("corner-ace-bonus").given(
        dealt(hands=("AC", "5D"), layout={"NE": CORNER_TO_3 + " 2H"}, stock="9C 8C")
    )
    result = spec.when("p1", PlayCard(card="AC", slot="NE"))
    result.then_accepted()
    assert _points(result) == {"p1": -5, "p2": 1}


def test_d8_a_pile_moved_onto_a_corner_that_completes_it_earns_no_bonus() -> None:
    """D8: MOVE_PILE of the cross pile [2♥, A♠] onto the corner K♠..3♠ completes K→A, no bonus.

    p1 then goes out by playing 8♣ on 9♥ (§5.6 immediate): it scores 0, not −5.
    """
    spec = kc("corner-ace-bonus").given(
        dealt(hands=("8C", "5D"), layout={"NE": CORNER_TO_3, "N": "2H AS", "E": "9H"}, stock="9C 8D")
    )
    state = spec.when("p1", MovePile(from_slot="N", to_slot="NE")).then_accepted()
    assert state.layout[4][-1] == "AS" and len(state.layout[4]) == 13  # type: ignore[attr-defined]
    result = then_from(state).when("p1", PlayCard(card="8C", slot="E"))
    result.then_accepted()
    assert _points(result) == {"p1": 0, "p2": 1}


def test_d8_a_whole_king_pile_moved_to_a_corner_earns_no_bonus() -> None:
    """D8: MOVE_KING_PILE of a complete K♠..A♠ cross pile to the empty corner NE earns no bonus."""
    spec = kc("corner-ace-bonus").given(
        dealt(hands=("8C", "5D"), layout={"N": CORNER_TO_3 + " 2D AS", "E": "9H"}, stock="9C 8D")
    )
    state = spec.when("p1", MoveKingPile(from_slot="N", to_slot="NE")).then_accepted()
    result = then_from(state).when("p1", PlayCard(card="8C", slot="E"))
    result.then_accepted()
    assert _points(result) == {"p1": 0, "p2": 1}


def test_v12_the_bonus_is_credited_to_the_round_whose_pile_was_completed() -> None:
    """§5.6 Scoring: the bonus belongs to the round in which the ace completed the pile (D2, D8).

    Round 1: p1 completes K→A with A♣ from its hand and goes out (−5). Round 2: p1 goes out with
    8♣ on 9♥ and completes nothing, so it scores 0 in that round.
    """
    first = kc("corner-ace-bonus").given(
        dealt(hands=("AC", "5D"), layout={"NE": CORNER_TO_3 + " 2H"}, stock="9C 8C")
    )
    result = first.when("p1", PlayCard(card="AC", slot="NE"))
    after_round_1 = result.then_accepted()
    assert _points(result) == {"p1": -5, "p2": 1}
    second = then_from(after_round_1).given(
        dealt(hands=("8C", "5D"), layout={"N": "9H"}, stock="9C 8D", round_no=2)
    )
    result = second.when("p1", PlayCard(card="8C", slot="N"))
    result.then_accepted()
    assert _points(result) == {"p1": 0, "p2": 1}


def test_d8_kings_corner_2_matches_still_fold_with_the_bonus_of_a_moved_pile() -> None:
    """The matches stored under kings-corner-2 keep the rule they were played under: its
    initial state sets the flag that credits a K→A completed by a moved pile."""
    from domain.games import registry

    old = registry.get("kings-corner", "kings-corner-2")
    new = registry.get("kings-corner")
    ruleset = new.presets["corner-ace-bonus"].ruleset
    assert not old.initial_state(ruleset, ("p1", "p2"), None).decisions_1202
    assert new.initial_state(ruleset, ("p1", "p2"), None).decisions_1202


def test_kings_corner_2_credits_the_bonus_for_a_pile_moved_onto_a_corner() -> None:
    """Before D8 (rules version kings-corner-2, kept so stored matches re-decide as played), a
    MOVE_PILE that completes K→A on a corner earned the bonus: the same position as the D8 test
    above, played under kings-corner-2, scores p1 0 − 5 = −5 when it goes out."""
    from domain.games import registry
    from tests.support.gwt import Spec, spec

    old = registry.get("kings-corner", "kings-corner-2")
    ruleset = old.presets["corner-ace-bonus"].ruleset
    state = (
        spec(old, ruleset, old.seat_names(2), bytes(range(32)))
        .given(dealt(hands=("8C", "5D"), layout={"NE": CORNER_TO_3, "N": "2H AS", "E": "9H"}, stock="9C 8D"))
        .when("p1", MovePile(from_slot="N", to_slot="NE"))
        .then_accepted()
    )
    assert state.ace_completions == (1, 0)  # one completion, credited to the seat that moved
    result = Spec(old, state).when("p1", PlayCard(card="8C", slot="E"))
    result.then_accepted()
    assert _points(result) == {"p1": -5, "p2": 1}
