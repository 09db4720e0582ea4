"""Card ids, rank orders and the decks every card game needs (rules/king.md §8.1 for the cuts)."""

from __future__ import annotations

import pytest

from domain.core import cards


def test_deck_sizes() -> None:
    assert len(cards.deck("52")) == 52
    assert len(cards.deck("32")) == 32
    assert len(cards.deck("24")) == 24
    assert len(cards.deck("52", copies=2)) == 104
    assert len(cards.deck("52", jokers=2)) == 54
    assert len(cards.deck("32", cut="black_sevens")) == 30
    assert len(cards.deck("32", cut="black_aces")) == 30


def test_ids_are_unique_and_stable() -> None:
    two = cards.deck("52", copies=2, jokers=2)
    assert len(set(two)) == len(two) == 108
    assert cards.deck("52")[:3] == ("AC", "2C", "3C")
    assert "10H" in cards.deck("52") and "QS2" in two and "RJ2" in two and "BJ" in two


def test_cuts_remove_the_named_cards() -> None:
    assert not {"7C", "7S"} & set(cards.deck("32", cut="black_sevens"))
    assert {"7H", "7D"} <= set(cards.deck("32", cut="black_sevens"))
    assert not {"AC", "AS"} & set(cards.deck("32", cut="black_aces"))
    with pytest.raises(ValueError):
        cards.deck("52", cut="black_aces")


def test_32_and_24_card_ranks() -> None:
    assert {cards.parse(c).rank for c in cards.deck("32")} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert {cards.parse(c).rank for c in cards.deck("24")} == {"9", "10", "J", "Q", "K", "A"}


def test_parse_round_trip_and_colours() -> None:
    for cid in cards.deck("52", copies=2, jokers=2):
        assert cards.parse(cid).id == cid
    ten = cards.parse("10H2")
    assert (ten.rank, ten.suit, ten.copy, ten.red, ten.face) == ("10", "H", 2, True, "10H")
    assert not cards.parse("QS").red
    assert cards.parse("RJ").is_joker and cards.parse("RJ").red and not cards.parse("BJ").red
    for bad in ("1H", "QX", "", "QS1", "10", "JK"):
        assert not cards.is_card_id(bad)
        with pytest.raises(ValueError):
            cards.parse(bad)


def test_rank_orders() -> None:
    assert cards.rank_value(cards.ACE_LOW, "A") == 1 and cards.rank_value(cards.ACE_LOW, "K") == 13
    assert cards.rank_value(cards.ACE_HIGH, "A") == 13
    assert cards.KING_ORDER[-1] == "A" and cards.KING_ORDER[0] == "7"
    # 1000: 9 < J < Q < K < 10 < A
    assert cards.rank_value(cards.THOUSAND_ORDER, "10") > cards.rank_value(cards.THOUSAND_ORDER, "K")


def test_sorted_cards_for_display() -> None:
    assert cards.sorted_cards(["KS", "AC", "10H", "2C"]) == ("AC", "2C", "10H", "KS")
    assert cards.sorted_cards(["AS", "7S"], cards.KING_ORDER) == ("7S", "AS")


def test_a_pack_has_two_jokers_at_most_and_one_to_nine_copies() -> None:
    assert len(cards.deck("52", jokers=2)) == 54
    for kwargs in ({"jokers": 3}, {"jokers": -1}, {"copies": 0}, {"copies": 10}):
        with pytest.raises(ValueError, match=r"^copies must be 1\.\.9 and jokers 0\.\.2$"):
            cards.deck("52", **kwargs)  # type: ignore[arg-type]


def test_a_card_that_does_not_exist_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"^no such card: rank '1', suit 'H', copy 1$"):
        cards.card_id("1", "H")
    with pytest.raises(ValueError, match="copy 10"):
        cards.card_id("Q", "S", 10)


def test_joker_ids_are_colour_and_j_with_the_copy_from_the_second_pack() -> None:
    assert cards.joker_id("R") == "RJ" and cards.joker_id("B") == "BJ"
    assert cards.joker_id("R", 2) == "RJ2"


def test_display_order_puts_jokers_last_red_first_and_second_copies_after_the_first() -> None:
    hand = ["BJ", "QS2", "RJ", "AC2", "QS", "BJ2"]
    assert cards.sorted_cards(hand, cards.ACE_HIGH) == ("AC2", "QS", "QS2", "RJ", "BJ", "BJ2")


def test_nine_packs_and_a_ninth_copy_are_the_most_there_are() -> None:
    assert len(cards.deck("52", copies=9)) == 9 * 52
    assert cards.card_id("Q", "S", 9) == "QS9" and cards.parse("QS9").copy == 9


def test_cuts_are_refused_outside_the_32_card_deck_in_words() -> None:
    with pytest.raises(ValueError, match="^cuts apply to the 32-card deck only$"):
        cards.deck("24", cut="black_sevens")
