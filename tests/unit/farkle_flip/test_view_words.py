"""The table's words in Farkle Flip's view, in the language asked: the status and every scoring
combination's name (the scoring table's and the centre's), so the page only draws them."""

from __future__ import annotations

import re

from contracts.games.farkle_flip import Lock
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.view import view
from tests.unit.farkle_flip.helpers import act, area, table

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def _locked():
    s = table(draw="4", areas=(area("2 4 4 4 3 3 3"),), draws=1)
    p1 = s.seats[0]
    s, _ = act(s, p1, Lock(owner=p1, cards=(1, 2, 3), pattern="three_of_a_kind"))
    return s


def test_the_status_is_in_words_in_both_languages() -> None:
    s = _locked()
    for seat in (*s.seats, None):
        assert view(s, seat).status == "playing"
        assert view(s, seat, "en").status_text == "playing"
        assert view(s, seat, "ru").status_text == "игра"


def test_every_combination_has_its_name_in_both_languages() -> None:
    s = _locked()
    en, ru = view(s, s.seats[1], "en"), view(s, s.seats[1], "ru")
    assert [c.pattern for c in en.centre] == ["three_of_a_kind"]
    assert en.pattern_names["three_of_a_kind"] == "three of a kind"
    assert ru.pattern_names["three_of_a_kind"] == "три одинаковых"
    assert {p.name for p in en.patterns} <= set(en.pattern_names) == set(ru.pattern_names)
    assert all(CYRILLIC.search(name) for p, name in ru.pattern_names.items() if not p.startswith("single"))
    assert ru.pattern_names.get("single_1", "одиночная 1") == "одиночная 1"


def test_the_words_name_no_hidden_card() -> None:
    """Only the draw pile's order is hidden: the words name no pile and no card value."""
    s = _locked()
    for lang in ("en", "ru"):
        v = view(s, None, lang)
        assert not any(ch.isdigit() for ch in v.status_text)
    assert GAME.view_in is not None
