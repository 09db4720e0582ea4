"""Farkle Flip computer players' helpers on hand-built positions: what is unseen, what a lock is
worth, the heuristic's stop rule at its boundary and what a Monte Carlo rollout scores (issue 13;
rules/thousand-and-farkle-flip.md §3.5, §3.8, §3.9)."""

from __future__ import annotations

import random

import pytest

from contracts.games.farkle_flip import Draw, Lock, Pattern, Stop
from domain.games.farkle_flip.bots import (
    _lock_value,
    _rollout_turn,
    draw_or_stop,
    heuristic_bot,
    search_bot,
    unseen,
)
from domain.games.farkle_flip.phases import legal_commands
from domain.games.farkle_flip.state import Combo
from tests.unit.farkle_flip.helpers import area, rules, table

P1, P2 = "p1", "p2"


def centre(value: int, cards: str = "5 5 5") -> tuple[Combo, ...]:
    return (Combo(owner=0, cards=tuple(cards.split()), pattern="three_of_a_kind", value=value),)


def test_the_pending_card_is_not_unseen() -> None:
    """The card drawn and not yet placed is face up (§3.9 Visibility): it is not in the draw pile."""
    r = rules(deck_composition={"4": 2, "F": 1})
    s = table(draw="??", ruleset=r, pending="4", draws=1)
    assert unseen(s) == {"4": 1, "F": 1}


def test_a_lock_is_worth_its_row_of_the_scoring_table_s3_8() -> None:
    """§3.8: a lock scores its pattern's value (per face for three of a kind); a pattern the table
    does not have, or a face its row does not list, is worth nothing."""
    s = table(areas=(area("4 4 4 2 2 2 2"),), draws=1)
    assert _lock_value(s, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind")) == 400
    assert _lock_value(s, Lock(owner=P1, cards=(3, 4, 5, 6), pattern="four_of_a_kind")) == 1000
    assert _lock_value(s, Lock(owner=P1, cards=(0, 1, 2), pattern="single_5")) == 0  # not in the table
    fours_only = rules(patterns=(Pattern(name="three_of_a_kind", groups=(3,), face_values={"4": 400}),))
    t = table(areas=(area("4 4 4 2 2 2"),), ruleset=fours_only, draws=1)
    assert _lock_value(t, Lock(owner=P1, cards=(0, 1, 2), pattern="three_of_a_kind")) == 400
    assert _lock_value(t, Lock(owner=P1, cards=(3, 4, 5), pattern="three_of_a_kind")) == 0


def test_the_heuristic_names_the_seat_that_cannot_move() -> None:
    s = table(draw="2")
    with pytest.raises(ValueError, match="p2 has no legal command"):
        heuristic_bot(s, P2, random.Random(1))


def test_the_heuristic_draws_on_when_the_stake_only_equals_the_gain() -> None:
    """The stop rule is strict: stop when p * at_stake > (1 - p) * gain.  Half the unseen cards are
    Farkle cards (p = 1/2) and the 500 at stake equal the gain: no stop; a smaller gain: stop."""
    r = rules(deck_composition={"1": 4, "5": 3, "F": 1})
    s = table(
        draw="?? ??",
        ruleset=r,
        areas=((), area("1 1 1")),
        draws=1,
        on_board=(True, False),
        centre=centre(500),
    )
    assert unseen(s) == {"1": 1, "F": 1}
    legal = legal_commands(s, P1)
    assert draw_or_stop(s, legal, 500.0) == Draw()
    assert draw_or_stop(s, legal, 499.0) == Stop()


def test_a_rollout_scores_what_the_rest_of_the_turn_banks() -> None:
    """With both piles empty the heuristic can only stop (FF3): the rollout scores the bank, 600."""
    s = table(draw="", draws=0, on_board=(True, False), banked=(2000, 0), centre=centre(600))
    assert _rollout_turn(s, P1, random.Random(1), 150.0) == 600.0


def test_a_rollout_that_busts_counts_half_a_farkle_card() -> None:
    """A bust scores nothing now; the Farkle card held is worth half its value later (100 / 2)."""
    s = table(draw="F 2", draws=0)
    assert _rollout_turn(s, P1, random.Random(1), 150.0) == 50.0
    r = rules(farkle_value=300)
    assert _rollout_turn(table(draw="F 2", ruleset=r, draws=0), P1, random.Random(1), 150.0) == 150.0


def test_search_draws_on_when_no_farkle_card_is_left() -> None:
    """No Farkle card is unseen: every continuation banks at least what is at stake now and the
    four 4s still to come make another set, so drawing beats banking 400."""
    r = rules(deck_composition={"4": 7})
    s = table(draw="?? ?? ?? ??", ruleset=r, draws=1, on_board=(True, False), centre=centre(400, "4 4 4"))
    assert search_bot(s, P1, random.Random(5)) == Draw()
