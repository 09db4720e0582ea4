"""The table's words in 1000's view, in the language asked: the phase, each sheet line's result
and the announcements with their values, so the page only draws them; a seat's view names no card
it may not see."""

from __future__ import annotations

import re
from typing import Any

from contracts.games.thousand import GiveCards, Pass, Play, SetContract, WriteOff
from domain.games.thousand import GAME
from domain.games.thousand.view import private_cards, view
from tests.unit.thousand.support import CLASSIC, HANDS, NO_WINDOWS, act, deal, rules

R = rules(CLASSIC, **NO_WINDOWS)
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def passing() -> Any:
    return act(act(deal(R, HANDS), "p3", Pass()), "p1", Pass())


def marriage_shown() -> Any:
    s = act(passing(), "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"}))
    s = act(s, "p2", SetContract(amount=100))
    for seat, card in (("p2", "AH"), ("p3", "9H"), ("p1", "9C")):
        s = act(s, seat, Play(card=card))
    return act(s, "p2", Play(card="KH", announce="marriage"))


def test_the_phase_is_in_words_in_both_languages() -> None:
    s = deal(R, HANDS)
    assert view(s, "p1").phase == "auction"
    assert view(s, "p1", "en").phase_text == "auction"
    assert view(s, "p1", "ru").phase_text == "торги"
    assert (view(marriage_shown(), None, "en").phase_text, view(marriage_shown(), None, "ru").phase_text) == (
        "play",
        "розыгрыш",
    )


def test_the_sheets_results_are_in_words_in_both_languages() -> None:
    s = act(passing(), "p2", WriteOff())
    (en,) = view(s, "p1", "en").sheet
    (ru,) = view(s, "p1", "ru").sheet
    assert en.result == ru.result == "written_off"
    assert (en.result_text, ru.result_text) == ("written off", "расписал")


def test_announcements_are_in_words_in_both_languages() -> None:
    s = marriage_shown()
    for seat in (*s.seats, None):
        en, ru = view(s, seat, "en"), view(s, seat, "ru")
        assert en.announcements == ru.announcements == (("p2", "H", 100),)
        assert en.announcement_texts == ("♥ marriage 100",)
        assert ru.announcement_texts == ("марьяж ♥ 100",)
        assert all(CYRILLIC.search(x) for x in ru.announcement_texts)


def test_the_words_name_no_hidden_card() -> None:
    s = marriage_shown()
    for seat in s.seats:
        secret = set(private_cards(s, seat))
        for lang in ("en", "ru"):
            v = view(s, seat, lang)
            words = [v.phase_text, *v.announcement_texts, *(line.result_text for line in v.sheet)]
            assert not any(card in w.split() for w in words for card in secret)
    assert GAME.view_in is not None
