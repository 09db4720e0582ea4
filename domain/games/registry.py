"""Every registered game: (game, rules_version) -> Decider.  Adding a game is one line in ``_ALL``.

Old rules versions stay registered (under their own ``rules_version``) so old matches audit.
Each Decider carries its contract, and the contract registry that the codecs read
(``contracts.games.registry``) must list exactly the same contracts: checked here on import.
"""

from __future__ import annotations

from typing import Any

from contracts.games.registry import CONTRACTS
from domain.core.decider import Decider
from domain.games.farkle_flip import GAME as FARKLE_FLIP
from domain.games.king import GAME as KING
from domain.games.kings_corner import GAME as KINGS_CORNER
from domain.games.kings_cup import GAME as KINGS_CUP
from domain.games.thousand import GAME as THOUSAND
from domain.games.ugolki import GAME as UGOLKI

Game = Decider[Any, Any, Any, Any, Any]

_ALL: tuple[Game, ...] = (UGOLKI, KINGS_CORNER, THOUSAND, FARKLE_FLIP, KINGS_CUP, KING)

GAMES: dict[str, Game] = {g.name: g for g in _ALL}
BY_VERSION: dict[tuple[str, str], Game] = {(g.name, g.rules_version): g for g in _ALL}

for _game in _ALL:
    if CONTRACTS.get(_game.name) is not _game.contract:
        raise RuntimeError(f"{_game.name}: its contract is not the one in contracts.games.registry")
if set(CONTRACTS) != set(GAMES):
    raise RuntimeError(f"contracts without a game: {sorted(set(CONTRACTS) - set(GAMES))}")


def get(game: str, rules_version: str | None = None) -> Game:
    if rules_version is None:
        return GAMES[game]
    return BY_VERSION[(game, rules_version)]
