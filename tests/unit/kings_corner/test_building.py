"""Building on piles, kings, pile moves (rules/kings-corner.md §2.7, §5.4 A2-A5, §5.8, §5.9 vectors 1-9)."""

from __future__ import annotations

import pytest

from contracts.games.kings_corner import (
    CardPlayed,
    MoveKingPile,
    MovePile,
    PileMoved,
    PlayCard,
    PlayRun,
    RunPlayed,
)

from .conftest import dealt, kc, then_from


@pytest.mark.parametrize(
    ("card", "ok"), [("8C", True), ("8S", True), ("8H", False), ("8D", False), ("7C", False)]
)
def test_vector1_on_9h_only_a_black_8(card: str, ok: bool) -> None:
    """Vector 1: on 9♥ only 8♣ or 8♠ (000:L496): one rank lower, opposite colour."""
    s = (
        kc()
        .given(dealt(hands=(f"{card} 2D", "3C"), layout={"N": "9H"}, stock="4C"))
        .when("p1", PlayCard(card=card, slot="N"))
    )
    if ok:
        s.then(CardPlayed(seat="p1", card=card, slot="N"))
    else:
        s.then_rejected("does_not_fit")


@pytest.mark.parametrize(("card", "target"), [("10H", "JS"), ("10D", "JC"), ("JH", "QC"), ("JD", "QS")])
def test_vector2_red_on_black_one_lower(card: str, target: str) -> None:
    """Vector 2: red 10 on black J; red J on black Q (000:L540, 000:L908)."""
    kc().given(dealt(hands=(f"{card} 2D", "3C"), layout={"E": target}, stock="4C")).when(
        "p1", PlayCard(card=card, slot="E")
    ).then(CardPlayed(seat="p1", card=card, slot="E"))


def test_vector3_corner_king_is_built_like_any_pile() -> None:
    """Vector 3: corner K♠ takes Q♥ or Q♦, then a black J (000:L541)."""
    state = (
        kc()
        .given(dealt(hands=("QH JC QC 2D", "3C"), layout={"N": "5D", "NE": "KS"}, stock="4C"))
        .when("p1", PlayCard(card="QH", slot="NE"))
        .then(CardPlayed(seat="p1", card="QH", slot="NE"))
    )
    then_from(state).when("p1", PlayCard(card="JC", slot="NE")).then(
        CardPlayed(seat="p1", card="JC", slot="NE")
    )
    then_from(state).when("p1", PlayCard(card="QC", slot="NE")).then_rejected("does_not_fit")


def test_vector4_whole_pile_moves_onto_fitting_exposed_card() -> None:
    """Vector 4: [4♦, 3♣] onto [7♠, 6♥, 5♣] gives [7♠, 6♥, 5♣, 4♦, 3♣] (000:L542)."""
    state = (
        kc()
        .given(dealt(hands=("2D 9C", "3H"), layout={"N": "7S 6H 5C", "E": "4D 3C"}, stock="4C"))
        .when("p1", MovePile(from_slot="E", to_slot="N"))
        .then(PileMoved(seat="p1", from_slot="E", to_slot="N"))
    )
    assert state.layout[0] == ("7S", "6H", "5C", "4D", "3C")
    assert state.layout[1] == ()


def test_vector5_pile_with_base_9h_onto_10s() -> None:
    """Vector 5: [9♥, 8♠] onto [Q♣, J♦, 10♠] is legal (000:L841)."""
    kc().given(dealt(hands=("2D 9C", "3H"), layout={"S": "QC JD 10S", "W": "9H 8S"}, stock="4C")).when(
        "p1", MovePile(from_slot="W", to_slot="S")
    ).then(PileMoved(seat="p1", from_slot="W", to_slot="S"))


def test_pile_direction_uses_the_moving_base_not_its_exposed_card() -> None:
    """§3 C6: the moving pile's base fits the target's exposed card; 000:L498 is garbled."""
    kc().given(dealt(hands=("2D 9C", "3H"), layout={"N": "5C", "E": "6H 4S"}, stock="4C")).when(
        "p1", MovePile(from_slot="E", to_slot="N")
    ).then_rejected("does_not_fit")


def test_vector7_nothing_goes_on_an_ace() -> None:
    """Vector 7: a pile ending in A♣ takes neither a card nor a pile (000:L540)."""
    given = dealt(hands=("KD 2D", "3H"), layout={"N": "3D 2S AC", "E": "5H"}, stock="4C")
    kc().given(given).when("p1", PlayCard(card="KD", slot="N")).then_rejected("pile_closed")
    kc().given(given).when("p1", MovePile(from_slot="E", to_slot="N")).then_rejected("pile_closed")


def test_e11_a_pile_ending_in_an_ace_still_moves() -> None:
    """E11: the closed pile itself may move onto a fitting target."""
    kc().given(dealt(hands=("KD 2D", "3H"), layout={"N": "3D 2S AC", "E": "4S"}, stock="4C")).when(
        "p1", MovePile(from_slot="N", to_slot="E")
    ).then(PileMoved(seat="p1", from_slot="N", to_slot="E"))


def test_vector8_king_to_empty_cross_rejected_in_cardgames_zone() -> None:
    """Vector 8: no king on a free cross space in cardgames-zone (003:L30, 003:L69)."""
    kc().given(dealt(hands=("KH 2D", "3H"), layout={"E": "5H"}, stock="4C")).when(
        "p1", PlayCard(card="KH", slot="N")
    ).then_rejected("no_king_on_empty_cross")


def test_vector8_king_to_empty_cross_then_to_corner_in_pagat_classic() -> None:
    """Vector 8: pagat-classic accepts any card in an empty cross slot (000:L543); A5 then moves it (000:L843)."""
    state = (
        kc("pagat-classic")
        .given(dealt(hands=("KH 2D", "3H"), layout={"E": "5H"}, stock="4C"))
        .when("p1", PlayCard(card="KH", slot="N"))
        .then(CardPlayed(seat="p1", card="KH", slot="N"))
    )
    after = (
        then_from(state)
        .when("p1", MoveKingPile(from_slot="N", to_slot="NE"))
        .then(PileMoved(seat="p1", from_slot="N", to_slot="NE", king_pile=True))
    )
    assert after.layout[4] == ("KH",) and after.layout[0] == ()


def test_king_pile_move_disabled_in_cardgames_zone() -> None:
    """§4.2: king_pile_to_corner = false in cardgames-zone (it cannot arise there)."""
    kc().given(dealt(hands=("2D 3D", "3H"), layout={"N": "KH"}, stock="4C")).when(
        "p1", MoveKingPile(from_slot="N", to_slot="NE")
    ).then_rejected("king_pile_move_disabled")


def test_king_pile_needs_king_base_and_empty_corner() -> None:
    """A5 needs a king at the base of a cross pile and an empty corner (000:L843)."""
    given = dealt(hands=("2D 3D", "3H"), layout={"N": "QH JS", "E": "KD QS", "NE": "KC"}, stock="4C")
    kc("pagat-classic").given(given).when("p1", MoveKingPile(from_slot="N", to_slot="SE")).then_rejected(
        "not_a_king_pile"
    )
    kc("pagat-classic").given(given).when("p1", MoveKingPile(from_slot="E", to_slot="NE")).then_rejected(
        "corner_occupied"
    )
    kc("pagat-classic").given(given).when("p1", MoveKingPile(from_slot="E", to_slot="W")).then_rejected(
        "not_a_corner"
    )


def test_vector9_corner_piles_never_move() -> None:
    """Vector 9 / E6: a corner pile has a king at its base and never moves."""
    kc("pagat-classic").given(
        dealt(hands=("2D 3D", "3H"), layout={"NE": "KC QH", "N": "5H"}, stock="4C")
    ).when("p1", MovePile(from_slot="NE", to_slot="N")).then_rejected("corner_pile_immovable")


def test_only_kings_start_a_corner() -> None:
    """Kings are the only cards allowed in an empty corner (000:L497, 000:L836, 003:L28)."""
    given = dealt(hands=("QD KS", "3H"), layout={"N": "5H"}, stock="4C")
    kc().given(given).when("p1", PlayCard(card="QD", slot="SW")).then_rejected("corner_needs_king")
    kc().given(given).when("p1", PlayCard(card="KS", slot="SW")).then(
        CardPlayed(seat="p1", card="KS", slot="SW")
    )


def test_e8_no_pile_move_into_an_empty_slot() -> None:
    """E8: moving a non-king pile into an empty cross slot is illegal."""
    kc("pagat-classic").given(dealt(hands=("2D 3D", "3H"), layout={"N": "9H 8S"}, stock="4C")).when(
        "p1", MovePile(from_slot="N", to_slot="E")
    ).then_rejected("empty_slot")


def test_e10_cross_pile_onto_corner_pile() -> None:
    """E10: a cross pile may move onto a corner pile (000:L541, 003:L42)."""
    kc().given(dealt(hands=("2D 3D", "3H"), layout={"N": "QH JS", "NE": "KC"}, stock="4C")).when(
        "p1", MovePile(from_slot="N", to_slot="NE")
    ).then(PileMoved(seat="p1", from_slot="N", to_slot="NE"))


def test_e10_mixed_builds_forbid_cross_to_corner_moves() -> None:
    """E10 / A4 [REC]: where cross_build != corner_build, piles do not move between them."""
    kc("suit-corners").given(
        dealt(hands=("2D 3D", "3H"), layout={"N": "QC JS", "NE": "KC"}, stock="4C")
    ).when("p1", MovePile(from_slot="N", to_slot="NE")).then_rejected("mixed_build")


def test_same_slot_and_empty_source() -> None:
    """A4: from_slot != to_slot, both non-empty."""
    given = dealt(hands=("2D 3D", "3H"), layout={"N": "9H"}, stock="4C")
    kc().given(given).when("p1", MovePile(from_slot="N", to_slot="N")).then_rejected("same_slot")
    kc().given(given).when("p1", MovePile(from_slot="E", to_slot="N")).then_rejected("empty_slot")


def test_in_suit_builds() -> None:
    """V13/V15: crestanello builds every pile down in suit (000:L592)."""
    given = dealt(hands=("8H 8C 2D", "3H"), layout={"N": "9H"}, stock="4C")
    kc("crestanello").given(given).when("p1", PlayCard(card="8H", slot="N")).then(
        CardPlayed(seat="p1", card="8H", slot="N")
    )
    kc("crestanello").given(given).when("p1", PlayCard(card="8C", slot="N")).then_rejected("does_not_fit")


def test_run_is_played_atomically() -> None:
    """A3 (000:L496, 000:L499): each card fits the one before; all or nothing."""
    given = dealt(hands=("8C 7H 6S 2D", "3H"), layout={"N": "9H"}, stock="4C")
    kc().given(given).when("p1", PlayRun(cards=("8C", "7H", "6S"), slot="N")).then(
        RunPlayed(seat="p1", cards=("8C", "7H", "6S"), slot="N")
    )
    kc().given(given).when("p1", PlayRun(cards=("8C", "6S"), slot="N")).then_rejected("bad_run")
    kc(run_play_action=False).given(given).when("p1", PlayRun(cards=("8C", "7H"), slot="N")).then_rejected(
        "runs_disabled"
    )


def test_card_must_be_in_hand_and_turn_order() -> None:
    given = dealt(hands=("8C 2D", "8S 3H"), layout={"N": "9H"}, stock="4C")
    kc().given(given).when("p1", PlayCard(card="8S", slot="N")).then_rejected("card_not_in_hand")
    kc().given(given).when("p2", PlayCard(card="8S", slot="N")).then_rejected("not_your_turn")


def test_joker_needs_a_declaration_and_bars_its_card_from_corners() -> None:
    """V17 (000:L596): a joker plays as a declared card; in a corner it bars that real card."""
    given = dealt(hands=("RJ KS 2D", "3H"), layout={"N": "9H"}, stock="4C")
    kc("freeman-jokers").given(given).when("p1", PlayCard(card="RJ", slot="N")).then_rejected(
        "joker_needs_declaration"
    )
    kc("freeman-jokers").given(given).when("p1", PlayCard(card="RJ", slot="N", as_card="8H")).then_rejected(
        "does_not_fit"
    )
    state = (
        kc("freeman-jokers")
        .given(given)
        .when("p1", PlayCard(card="RJ", slot="NE", as_card="KS"))
        .then(CardPlayed(seat="p1", card="RJ", slot="NE", as_card="KS"))
    )
    then_from(state).when("p1", PlayCard(card="KS", slot="SE")).then_rejected("card_barred")


def test_card_facts_rank_colour_suit_face() -> None:
    """§2.2 and §5.1 card identity: A=1 .. K=13, hearts and diamonds red, a second deck's copy has
    the same face; a joker has rank 0 and its colour."""
    from domain.games.kings_corner.state import _facts

    ace, king, ten = _facts("AS"), _facts("KH"), _facts("10D2")
    assert (ace.rank, ace.suit, ace.red, ace.face, ace.joker) == (1, "S", False, "AS", False)
    assert (king.rank, king.suit, king.red, king.face, king.joker) == (13, "H", True, "KH", False)
    assert (ten.rank, ten.suit, ten.red, ten.face, ten.joker) == (10, "D", True, "10D", False)
    joker = _facts("BJ")
    assert (joker.rank, joker.red, joker.joker) == (0, False, True) and _facts("RJ").red
