"""Every registered game: (game, rules_version) -> Decider.

The games are the ones ``contracts.games.game_modules`` declares (the built-in list and the
``gamehall.games`` entry points): each one's domain package exports ``GAME``.

Old rules versions stay registered (under their own ``rules_version``, in ``OLD_VERSIONS``) so
old matches fold and audit with the rules they were played under; only the current version of each
game (``GAMES``) is offered for new matches.
Each Decider carries its contract, and the contract registry that the codecs read
(``contracts.games.registry``) must list exactly the same contracts: checked here on import.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from contracts.games import game_modules
from contracts.games.registry import CONTRACTS
from domain.core.decider import Decider
from domain.games.farkle_flip import GAME_1 as FARKLE_FLIP_1
from domain.games.kings_corner import GAME_2 as KINGS_CORNER_2
from domain.games.kings_corner.v1 import GAME as KINGS_CORNER_1
from domain.games.kings_cup import GAME_1 as KINGS_CUP_1
from domain.games.kings_cup import GAME_2 as KINGS_CUP_2
from domain.games.thousand import GAME_1 as THOUSAND_1

Game = Decider[Any, Any, Any, Any, Any]


def _load() -> tuple[Game, ...]:
    found: list[Game] = []
    for where in game_modules():
        game = import_module(where.domain).GAME
        if not isinstance(game, Decider):
            raise RuntimeError(f"{where.domain}.GAME is not a Decider")
        found.append(game)
    return tuple(found)


_ALL: tuple[Game, ...] = _load()

# Frozen older rules versions, for folding and auditing the matches stored under them only.
OLD_VERSIONS: tuple[Game, ...] = (
    KINGS_CORNER_1,
    KINGS_CORNER_2,
    KINGS_CUP_1,
    KINGS_CUP_2,
    THOUSAND_1,
    FARKLE_FLIP_1,
)

GAMES: dict[str, Game] = {g.name: g for g in _ALL}
BY_VERSION: dict[tuple[str, str], Game] = {(g.name, g.rules_version): g for g in (*_ALL, *OLD_VERSIONS)}

if len(BY_VERSION) != len(_ALL) + len(OLD_VERSIONS):
    raise RuntimeError("two registered games share a name and rules version")
for _game in (*_ALL, *OLD_VERSIONS):
    if CONTRACTS.get(_game.name) is not _game.contract:
        raise RuntimeError(f"{_game.name}: its contract is not the one in contracts.games.registry")
if set(CONTRACTS) != set(GAMES):
    raise RuntimeError(f"contracts without a game: {sorted(set(CONTRACTS) - set(GAMES))}")


class UnknownRulesVersion(KeyError):
    """A stored match names a rules version of its game that this build does not have."""

    code = "unknown_rules_version"

    def __init__(self, game: str, rules_version: str) -> None:
        super().__init__(f"{game}: rules version {rules_version!r} is not available")
        self.game, self.rules_version = game, rules_version
        known = sorted(v for g, v in BY_VERSION if g == game)
        self.detail = (
            f"rules version {rules_version!r} of {game} is not available to this build"
            f" (known: {', '.join(known) or 'none'})"
        )

    def __str__(self) -> str:
        return self.detail


def get(game: str, rules_version: str | None = None) -> Game:
    """The game's current rules (``rules_version`` None: for new matches), or the decider of the
    rules version a stored match was recorded under (raises ``KeyError`` for an unknown game,
    ``UnknownRulesVersion``, a ``KeyError`` too, for a version this build does not have)."""
    if rules_version is None:
        return GAMES[game]
    found = BY_VERSION.get((game, rules_version))
    if found is None:
        if game not in GAMES:
            raise KeyError(game)
        raise UnknownRulesVersion(game, rules_version)
    return found
