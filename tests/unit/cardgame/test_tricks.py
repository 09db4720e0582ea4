"""Trick-taking kernel, rule by rule (rules/king.md §3.5, §3.6, §12.4, §12.5; 1000 §2.8)."""

from __future__ import annotations

import pytest

from domain.core.cardgame.tricks import legal_follows, trick_winner

KING = ("A", "K", "Q", "J", "10", "9", "8", "7")
MISERE = tuple(reversed(KING))
THOUSAND = ("A", "10", "K", "Q", "J", "9")


def test_leader_may_lead_any_card() -> None:
    hand = ("7S", "AH", "10D")
    assert legal_follows(hand, None, "H", must_trump_when_void=True) == hand


def test_must_follow_the_led_suit_if_able() -> None:
    # king.md §3.5 "A player must follow the led suit if able" (001:L17)
    assert legal_follows(("7S", "AH", "10S"), "QS", "H", must_trump_when_void=True) == ("7S", "10S")


def test_void_with_trumps_must_trump_when_the_game_says_so() -> None:
    # king.md §3.5 (001:L17, L151); thousand §2.8 C13 must trump (CLASSIC/ONLINE)
    assert legal_follows(("7D", "AH", "9H"), "QS", "H", must_trump_when_void=True) == ("AH", "9H")


def test_void_with_trumps_any_card_when_not_required() -> None:
    # thousand §2.8 C13: any card (SIMPLE)
    hand = ("7D", "AH", "9H")
    assert legal_follows(hand, "QS", "H", must_trump_when_void=False) == hand


def test_void_in_led_suit_and_trumps_any_card() -> None:
    hand = ("7D", "8C")
    assert legal_follows(hand, "QS", "H", must_trump_when_void=True) == hand


def test_no_trump_deal_void_any_card() -> None:
    hand = ("7D", "AH")
    assert legal_follows(hand, "QS", None, must_trump_when_void=True) == hand


def test_highest_of_led_suit_wins_without_trumps() -> None:
    # king.md §3.6 / §12.5: a higher card of another suit does not win
    assert trick_winner(("9S", "AH", "JS", "10S"), None, KING) == 2


def test_any_trump_beats_the_led_suit() -> None:
    assert trick_winner(("AS", "7H", "KS", "8H"), "H", KING) == 3


def test_trump_led_is_the_pool() -> None:
    assert trick_winner(("7H", "AS", "8H"), "H", KING) == 2


def test_misere_reverses_strength() -> None:
    # king.md §12.5: misère 7 > 8 > ... > A (001:L73, L141)
    assert trick_winner(("AS", "7S", "9S"), None, MISERE) == 1


def test_thousand_ten_beats_king() -> None:
    # 1000 rank order 9 < J < Q < K < 10 < A (thousand §2 summary)
    assert trick_winner(("KS", "10S", "QS"), None, THOUSAND) == 1


def test_an_empty_trick_has_no_winner() -> None:
    with pytest.raises(ValueError, match="^an empty trick has no winner$"):
        trick_winner((), "H", KING)


def test_without_the_over_trump_duty_any_trump_may_be_played() -> None:
    # thousand §2.8 "Must beat": not required; king.md §3.5 [rec] (K5's over-trump duty is a preset option)
    hand = ("7D", "9H", "AH")
    trick = ("QS", "KH")
    assert legal_follows(hand, "QS", "H", must_trump_when_void=True, trick=trick, strength=KING) == (
        "9H",
        "AH",
    )
    assert legal_follows(
        hand, "QS", "H", must_trump_when_void=True, must_overtrump=True, trick=trick, strength=KING
    ) == ("AH",)
