"""``gamehall demo`` seats computer players in the order the game declares them (``Decider.bots``,
weakest first), not by their names: the strongest in the first seat and every other seat after it,
the weakest in the others."""

from __future__ import annotations

import pytest

from domain.games import registry
from services.cli.demo import seat_strengths, strengths


def test_kings_in_the_corner_seats_its_strongest_player_first() -> None:
    # "heuristic" sorts before "random": seated alphabetically, the weakest would play first.
    declared = strengths(registry.get("kings-corner"))
    assert declared == ["random", "heuristic"]
    assert seat_strengths(declared, (), 3) == ("heuristic", "random", "heuristic")


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_game_seats_its_declared_strongest_and_weakest(game: str) -> None:
    decider = registry.get(game)
    declared = strengths(decider)
    assert declared == list(decider.bots)
    seats = seat_strengths(declared, (), 2)
    assert seats == (declared[-1], declared[0])


def test_named_strengths_fill_the_remaining_seats_with_the_last_one() -> None:
    assert seat_strengths(["random", "heuristic"], ("random",), 3) == ("random", "random", "random")
    assert seat_strengths(["random", "greedy", "search"], ("search", "greedy"), 2) == ("search", "greedy")


def test_a_game_without_computer_players_seats_random_ones() -> None:
    class NoBots:
        bots: dict[str, object] = {}

    assert seat_strengths(strengths(NoBots()), (), 2) == ("random", "random")
