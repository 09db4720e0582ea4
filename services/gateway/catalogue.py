"""The catalogue's words for the routes: a listed game's and preset's titles, and a ruleset in
words, in the language asked for (``GET /api/games`` shows the same)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.words import DEFAULT_LANG, Lang
from domain.games import registry
from domain.games.catalogue import game_title, preset_family


def titles(game: str, preset: str, lang: Lang) -> dict[str, str]:
    """A listed game's and preset's titles in ``lang`` (the catalogue's, GET /api/games)."""
    known = registry.GAMES.get(game)
    return {
        "game_title": game_title(game, known.title if known else game, lang),
        "title": preset_family(game, preset, lang)[1],
    }


def rules_help(game: registry.Game, ruleset: Any, lang: Lang = DEFAULT_LANG) -> dict[str, Any] | None:
    """The ruleset in words for players (``contracts.match.RulesHelp``) in ``lang``, None for a
    game without."""
    if game.rules_help is None:
        return None
    return msgspec.to_builtins(game.rules_help(ruleset, lang))  # type: ignore[no-any-return]
