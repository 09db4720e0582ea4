"""``gamehall rules perft GAME``: any game whose Decider gives ``perft``; another game is refused
with exit 2 naming the games that have one; what a game cannot referee is refused by the game."""

from __future__ import annotations

import dataclasses

import pytest
from typer.testing import CliRunner

from domain.games import registry
from services.cli.rules import rules_app


def _perft(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(rules_app, ["perft", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_game_without_perft_is_refused_naming_the_games_with_one() -> None:
    having = sorted(name for name, game in registry.GAMES.items() if game.perft is not None)
    assert "ugolki" in having
    for name in sorted(set(registry.GAMES) - set(having)):
        code, out, err = _perft(name, "--depth", "1")
        assert code == 2 and out == ""
        assert err.strip() == f"{name} has no perft; games with perft: {', '.join(having)}"


def test_any_game_with_perft_is_counted_from_its_default_preset(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []

    def perft(state: object, depth: int) -> int:
        seen.append(state)
        return 10**depth

    kings_corner = registry.GAMES["kings-corner"]
    monkeypatch.setitem(registry.GAMES, "kings-corner", dataclasses.replace(kings_corner, perft=perft))
    code, out, _ = _perft("kings-corner", "--depth", "2")
    assert code == 0
    assert out.splitlines() == ["depth 1: 10", "depth 2: 100"]
    assert len(seen) == 2 and seen[0] is seen[1]


def test_ugolki_refuses_what_it_cannot_referee() -> None:
    """rules/ugolki.md §10, Q22: halma-16x16 is no preset of the game, and board 16 fails its
    validate; the command line knows neither."""
    code, _, err = _perft("ugolki", "--preset", "halma-16x16", "--depth", "1")
    assert code == 2 and "unknown_preset" in err and "halma-16x16" in err
    code, _, err = _perft("ugolki", "--set", "board=16", "--depth", "1")
    assert code == 2 and "halma-16x16" in err and "Q22" in err


def test_an_unknown_game_is_exit_2() -> None:
    code, _, err = _perft("no-such-game")
    assert code == 2 and "unknown game" in err
