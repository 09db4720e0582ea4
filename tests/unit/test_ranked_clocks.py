"""docs/ranked.md "Time controls": every game that can be ranked declares the clock of its ranked
matches, and matchmaking's tables get it; a table helper has none."""

from __future__ import annotations

import pytest

from contracts.match import TimeControl
from domain.games import registry
from domain.matchmaking.clocks import PRESET_TIME_CONTROLS, ranked_time_control

FISCHER = TimeControl(base_s=300, increment_s=3, grace_s=120, on_timeout="forfeit")
BY_THE_MOVE = TimeControl(move_s=60, grace_s=180, on_timeout="forfeit")
DOC = {
    "ugolki": FISCHER,
    "draughts": FISCHER,
    "tablut": FISCHER,
    "kings-corner": BY_THE_MOVE,
    "king": BY_THE_MOVE,
    "thousand": BY_THE_MOVE,
    "farkle-flip": BY_THE_MOVE,
}


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_every_preset_of_a_ranked_game_has_the_clock_of_the_table_in_the_doc(name: str) -> None:
    game = registry.get(name)
    for preset in game.presets:
        got = ranked_time_control(name, preset)
        if game.helper:
            assert got is None
        else:
            assert got == DOC[name] == game.ranked_clock, (name, preset)
            assert got.on_timeout == "forfeit"


def test_a_preset_clock_comes_before_the_games_and_an_unknown_game_has_none() -> None:
    blitz = TimeControl(base_s=60, increment_s=1, grace_s=30, on_timeout="forfeit")
    PRESET_TIME_CONTROLS[("tablut", "tablut-seed")] = blitz
    try:
        assert ranked_time_control("tablut", "tablut-seed") == blitz
        assert ranked_time_control("tablut", "tablut-edge") == FISCHER
    finally:
        del PRESET_TIME_CONTROLS[("tablut", "tablut-seed")]
    assert ranked_time_control("chess", "standard") is None
