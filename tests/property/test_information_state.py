"""A seat's information state: the events redacted for one seat fold into a state from which that
seat's view and legal commands are exactly those of the full state (ARCHITECTURE §1.4: hidden
information is a function).  Computer players act on this state, so they never see a hidden card
and never miss a legal command."""

from __future__ import annotations

import pytest

from domain.core import match as match_layer
from domain.games import registry
from tests.support.bundles import played_match

HIDDEN_GAMES = sorted(name for name, game in registry.GAMES.items() if game.hidden_info)


@pytest.mark.parametrize("game_name", HIDDEN_GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_sees_and_may_do_the_same_from_its_redacted_events(game_name: str, seed: int) -> None:
    game = registry.get(game_name)
    _, decisions = played_match(game=game_name, seed=seed, max_moves=3000)
    full = None
    folds: dict[str, match_layer.MatchState | None] = {}
    compared = 0
    for _seat, _command, events in decisions:
        for event in events:
            full = match_layer.evolve(game, full, event, b"\x07" * 32)
            for seat in full.created.seats:
                shown = match_layer.redact(game, event, seat)
                if shown is not None:
                    folds[seat] = match_layer.evolve(game, folds.get(seat), shown, None)
        for seat in full.created.seats:
            mine = folds[seat]
            assert mine is not None
            assert match_layer.view(game, mine, seat, "m", 0) == match_layer.view(game, full, seat, "m", 0)
            if full.outcome is None:
                assert game.legal_commands(mine.game_state, seat) == game.legal_commands(
                    full.game_state, seat
                )
            compared += 1
    assert compared > 100
