"""The 1000 search's playout policy following to a trick (domain/games/thousand/bots.py): a
defender playing last feeds only a trick the declarer is not winning."""

from __future__ import annotations

from contracts.games.thousand import Play
from domain.games.thousand import bots
from tests.unit.thousand.support import CLASSIC


def test_a_defender_last_to_a_trick_the_declarer_holds_beats_it_cheaply() -> None:
    """p2 (declarer) led KH, p3 followed 9H: p1 takes it with the ten, not the ace."""
    trick = [(1, "KH"), (2, "9H")]
    assert bots._fast_policy(CLASSIC, ["AH", "10H", "QH"], trick, None, 1, [], 0, 1) == Play(card="10H")


def test_a_defender_last_to_a_trick_the_declarer_holds_gives_the_least() -> None:
    """p2 (declarer) led AH, p3 followed 9H: p1 cannot win it and gives the jack, not the king."""
    trick = [(1, "AH"), (2, "9H")]
    assert bots._fast_policy(CLASSIC, ["KH", "JH"], trick, None, 1, [], 0, 1) == Play(card="JH")
