"""The table's status in Kings in the Corner's view, in the language asked, so the page only
draws it; the words name no card, so no seat's view reveals a hidden one."""

from __future__ import annotations

import re

from domain.games.kings_corner import GAME
from domain.games.kings_corner.rules import PRESETS
from domain.games.kings_corner.view import view
from tests.unit.kings_corner.conftest import dealt

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
SEED = bytes(range(32))


def _states():
    s = GAME.initial_state(PRESETS["cardgames-zone"], GAME.seat_names(2), SEED)
    yield s
    yield GAME.evolve(
        s,
        dealt(
            hands=("9S 8H 7D", "KC QD 2H"), layout={"N": "5C", "E": "6D", "S": "AH", "W": "3S"}, stock="4C 4D"
        ),
    )


def test_the_status_is_in_words_in_both_languages() -> None:
    waiting, playing = _states()
    assert (view(waiting, "p1").status, view(playing, "p1").status) == ("waiting", "playing")
    assert (view(waiting, "p1", "en").status_text, view(waiting, "p1", "ru").status_text) == (
        "waiting",
        "ожидание",
    )
    for seat in ("p1", "p2", None):
        assert view(playing, seat, "en").status_text == "playing"
        ru = view(playing, seat, "ru").status_text
        assert ru == "игра" and CYRILLIC.search(ru)


def test_the_words_name_no_hidden_card() -> None:
    _, playing = _states()
    for seat in ("p1", "p2", None):
        secret = GAME.hidden(playing, seat) if seat else frozenset()
        for lang in ("en", "ru"):
            words = view(playing, seat, lang).status_text.split()
            assert not secret & set(words) and not {"9S", "KC", "4C"} & set(words)
    assert GAME.view_in is not None
