"""Every registered game: (game, rules_version) -> Decider.  Adding a game is one line in ``_ALL``.

Old rules versions stay registered (under their own ``rules_version``, in ``OLD_VERSIONS``) so
old matches fold and audit with the rules they were played under; only the current version of each
game (``GAMES``) is offered for new matches.
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
from domain.games.kings_corner.v1 import GAME as KINGS_CORNER_1
from domain.games.kings_cup import GAME as KINGS_CUP
from domain.games.thousand import GAME as THOUSAND
from domain.games.ugolki import GAME as UGOLKI

Game = Decider[Any, Any, Any, Any, Any]

_ALL: tuple[Game, ...] = (UGOLKI, KINGS_CORNER, THOUSAND, FARKLE_FLIP, KINGS_CUP, KING)

# Frozen older rules versions, for folding and auditing the matches stored under them only.
OLD_VERSIONS: tuple[Game, ...] = (KINGS_CORNER_1,)

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
