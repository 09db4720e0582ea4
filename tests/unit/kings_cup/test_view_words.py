"""How a Kings Cup table ended, in words in the language asked, so the page only draws it; the
words name none of the cards still around the cup."""

from __future__ import annotations

import re

from contracts.games.kings_cup import DrawCard, MakeRule
from domain.games.kings_cup import GAME
from domain.games.kings_cup.view import view
from tests.unit.kings_cup.helpers import act, started

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def test_the_fourth_king_is_said_in_both_languages() -> None:
    s = started("KH 5C 4D", kings=3)
    assert view(s, "p1", "en").result_text == view(s, "p1", "ru").result_text == ""
    s, _ = act(s, "p1", DrawCard())
    for seat in ("p1", "p2", None):
        assert view(s, seat).result == "fourth_king"
        assert view(s, seat, "en").result_text == "The fourth King: the cup is theirs."
        ru = view(s, seat, "ru").result_text
        assert ru == "Четвёртый король: кубок достаётся ему." and CYRILLIC.search(ru)


def test_every_card_drawn_is_said_in_both_languages() -> None:
    s = started("KH 5C", preset="kings-cup-deck-out", kings=3)
    s, _ = act(s, "p1", DrawCard())
    s, _ = act(s, "p1", MakeRule(text="Whisper"))
    mid = view(s, "p2", "ru")
    assert mid.result_text == "" and not any(c in mid.result_text for c in GAME.hidden(s, "p2"))
    s, _ = act(s, "p2", DrawCard())
    assert view(s, "p3", "en").result_text == "Every card has been drawn."
    assert view(s, "p3", "ru").result_text == "Вытянуты все карты."
    assert GAME.view_in is not None
