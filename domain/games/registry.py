"""(game, rules_version) -> Decider.  Old rules versions stay importable so old matches audit."""

from __future__ import annotations

from typing import Any

from domain.core.decider import Decider
from domain.games.kings_corner import GAME as KINGS_CORNER
from domain.games.ugolki import GAME as UGOLKI

Game = Decider[Any, Any, Any, Any, Any]

_ALL: tuple[Game, ...] = (UGOLKI, KINGS_CORNER)

GAMES: dict[str, Game] = {g.meta.name: g for g in _ALL}
BY_VERSION: dict[tuple[str, str], Game] = {(g.meta.name, g.meta.rules_version): g for g in _ALL}


def get(game: str, rules_version: str | None = None) -> Game:
    if rules_version is None:
        return GAMES[game]
    return BY_VERSION[(game, rules_version)]
