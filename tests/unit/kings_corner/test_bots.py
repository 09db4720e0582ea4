"""The computer players of Kings in the Corner (``domain/games/kings_corner/bots.py``).

``random`` plays any legal command (rules/kings-corner.md §5.4 actions as ``legal_commands``
lists them); ``heuristic`` plays in a fixed order of preference: ready, the pending V16 card,
kings to empty corners (§5.4 A2), king piles to corners (A5), pile merges (A4), runs (A3), builds
on a pile, the highest card to an empty cross slot, then DRAW (A1) before END_TURN (A6); a joker
(V17) only when no natural card does the same.  Each position below has one best command.
"""

from __future__ import annotations

import random

import pytest

from contracts.games.kings_corner import (
    CORNER_SLOTS,
    DrawCard,
    EndTurn,
    MoveKingPile,
    MovePile,
    PlayCard,
    PlayRun,
    Ready,
)
from domain.games.kings_corner import GAME
from domain.games.kings_corner.bots import heuristic_bot, random_bot

from .conftest import dealt, kc

# A cross where no pile fits on another: 9S, 4H, JC, 6C.
CROSS = {"N": "9S", "E": "4H", "S": "JC", "W": "6C"}


def choose(preset: str, hand: str, layout: dict[str, str], stock: str = "8H 9C", seed: int = 0) -> object:
    state = kc(preset).given(dealt(hands=(hand, "3D"), layout=layout, stock=stock)).state
    command = heuristic_bot(state, "p1", random.Random(seed))
    assert command in GAME.legal_commands(state, "p1")
    return command


def test_random_player_plays_legal_commands_and_varies_them() -> None:
    state = kc("pagat-classic").given(dealt(hands=("KC 8D 2S", "3D"), layout=CROSS, stock="8H 9C")).state
    legal = GAME.legal_commands(state, "p1")
    chosen = {random_bot(state, "p1", random.Random(seed)) for seed in range(40)}
    assert chosen <= set(legal)
    assert len(chosen) > 3  # a choice over the legal commands, not a fixed one


def test_heuristic_gets_ready_first() -> None:
    state = kc("pagat-classic").state  # before the first deal: READY is the only command
    assert heuristic_bot(state, "p1", random.Random(0)) == Ready()


def test_heuristic_plays_a_king_to_an_empty_corner_before_building() -> None:
    """§5.4 A2: a king to an empty corner beats a build (8D on 9S) and a merge-free draw."""
    command = choose("pagat-classic", "KC 8D 2S", CROSS)
    assert isinstance(command, PlayCard) and command.card == "KC" and command.slot in CORNER_SLOTS


def test_heuristic_moves_a_king_pile_to_a_corner_before_merging() -> None:
    """§5.4 A5 before A4: the KS-QH pile to a corner beats moving JC onto QH."""
    layout = {"N": "KS QH", "E": "JC", "S": "4H", "W": "6C"}
    command = choose("pagat-classic", "2S", layout)
    assert isinstance(command, MoveKingPile) and command.from_slot == "N"


def test_heuristic_merges_piles_before_playing_from_hand() -> None:
    """§5.4 A4 before A3/A2: moving 8H onto 9S beats building 7C on 8H."""
    layout = {"N": "9S", "E": "8H", "S": "JC", "W": "6C"}
    command = choose("pagat-classic", "7C 2S", layout)
    assert command == MovePile(from_slot="E", to_slot="N")


def test_heuristic_merges_the_longest_pile() -> None:
    """Of two merges, the one that moves more cards (the longer pile) first."""
    layout = {"N": "9S", "E": "8H 7C", "S": "5C", "W": "4D"}  # E (2 cards) onto N, W (1) onto S
    command = choose("pagat-classic", "2S", layout)
    assert command == MovePile(from_slot="E", to_slot="N")


def test_heuristic_plays_the_longer_run() -> None:
    """§5.4 A3: a run beats a single card; the longest run first."""
    command = choose("pagat-classic", "8D 7C 6H 2S", CROSS)
    assert command == PlayRun(cards=("8D", "7C", "6H"), slot="N")


def test_heuristic_builds_on_a_pile_before_filling_an_empty_cross_slot() -> None:
    layout = {"N": "9S", "S": "JC", "W": "6C"}  # E empty
    command = choose("pagat-classic", "8D 2S", layout)
    assert command == PlayCard(card="8D", slot="N")


def test_heuristic_builds_the_highest_card() -> None:
    """Of two builds, the higher card (10H on JC rather than 5D on 6C)."""
    command = choose("pagat-classic", "5D 10H", CROSS)
    assert command == PlayCard(card="10H", slot="S")


def test_heuristic_fills_an_empty_cross_slot_with_its_highest_card() -> None:
    layout = {"N": "9S", "S": "JC", "W": "6C"}  # E empty; 2C and QC fit nowhere
    command = choose("pagat-classic", "2C QC", layout)
    assert command == PlayCard(card="QC", slot="E")


def test_heuristic_draws_when_nothing_plays() -> None:
    """§5.4 A1 before A6: with nothing to play, DRAW (which ends the turn at end timing)."""
    assert choose("pagat-classic", "2C", CROSS) == DrawCard()


def test_heuristic_ends_the_turn_when_it_cannot_draw() -> None:
    """A6 when DRAW is not offered (empty stock)."""
    assert choose("pagat-classic", "2C", CROSS, stock="") == EndTurn()


def test_heuristic_builds_with_a_natural_card_rather_than_a_joker() -> None:
    """V17: a joker is kept while a natural card builds (8D on 9S, not the joker anywhere)."""
    assert choose("freeman-jokers", "RJ 8D", CROSS) == PlayCard(card="8D", slot="N")


def test_heuristic_plays_a_joker_as_a_king_to_a_corner_before_building_with_it() -> None:
    """V17, nothing natural to play: the joker declared as a king in a corner beats the joker
    on a pile and drawing."""
    command = choose("freeman-jokers", "RJ 2C", CROSS)
    assert isinstance(command, PlayCard) and command.card == "RJ" and command.slot in CORNER_SLOTS
    assert command.as_card is not None and command.as_card.startswith("K")


def test_heuristic_builds_with_a_joker_rather_than_drawing() -> None:
    """V17 with every corner taken: the joker on a pile, declared as the highest card it may be
    (a queen on a corner king), beats DRAW."""
    layout = {**CROSS, "NE": "KC", "SE": "KD", "SW": "KH", "NW": "KS"}
    command = choose("freeman-jokers", "RJ 2C", layout)
    assert isinstance(command, PlayCard) and command.card == "RJ" and command.slot in CORNER_SLOTS
    assert command.as_card is not None and command.as_card.startswith("Q")


def test_heuristic_fills_an_empty_cross_slot_with_a_natural_card_before_playing_a_joker() -> None:
    layout = {"N": "9S", "S": "JC", "W": "6C", "NE": "KC", "SE": "KD", "SW": "KH", "NW": "KS"}
    assert choose("freeman-jokers", "RJ 2C", layout) == PlayCard(card="2C", slot="E")


def test_heuristic_plays_a_joker_on_a_pile_rather_than_into_an_empty_cross_slot() -> None:
    layout = {"N": "9S", "S": "JC", "W": "6C", "NE": "KC", "SE": "KD", "SW": "KH", "NW": "KS"}
    state = kc("freeman-jokers").given(dealt(hands=("RJ", "3D"), layout=layout, stock="8H 9C")).state
    for seed in range(10):
        command = heuristic_bot(state, "p1", random.Random(seed))
        assert isinstance(command, PlayCard) and command.card == "RJ" and command.slot != "E"


@pytest.mark.parametrize("seed", range(5))
def test_heuristic_places_the_pending_card(seed: int) -> None:
    """V16: after going out with stock left, the drawn card that fits an empty slot is placed."""
    given = dealt(hands=("8C", "3D"), layout={"N": "9H", "E": "QD", "S": "5S", "W": "4H"}, stock="KS 2C 7D")
    state = kc("becker-four-card").given(given).when("p1", PlayCard(card="8C", slot="N")).then_accepted()
    assert state.pending == "KS"
    command = heuristic_bot(state, "p1", random.Random(seed))
    assert isinstance(command, PlayCard) and command.card == "KS"
