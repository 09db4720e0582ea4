"""The games' catalogue: every game with its rules version, seats, presets (each with its rules
in words) and computer-player strengths, its titles in the language asked for."""

from __future__ import annotations

from typing import Any

import msgspec
from fastapi import APIRouter, Depends

from contracts.api import GameInfo
from domain.core.words import DEFAULT_LANG, Lang
from domain.games import registry
from domain.games.catalogue import family_order, game_title, preset_family
from services.gateway.api.deps import PLAIN
from services.gateway.catalogue import rules_help
from services.gateway.core import asked_language
from services.gateway.errors import errors

router = APIRouter(tags=["games"])


def game_info(name: str, game: registry.Game, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    return {
        "game": name,
        "title": game_title(name, game.title, lang),
        "rules_version": game.rules_version,
        "seats": {"min": game.min_seats, "max": game.max_seats},
        "seat_names": {str(n): list(game.seat_names(n)) for n in range(game.min_seats, game.max_seats + 1)},
        "default_preset": game.default_preset,
        "chance": game.chance,
        "hidden_info": game.hidden_info,
        "helper": game.helper,  # a table helper: never rated, not in quick match
        "bots": list(game.bots),
        "default_bot": game.default_bot,
        "families": list(family_order(name, lang)),
        "presets": [
            {
                "name": preset_name,
                "family": preset_family(name, preset_name, lang)[0],
                "title": preset_family(name, preset_name, lang)[1],
                "description": p.described(lang),
                "rules": msgspec.to_builtins(p.ruleset),
                "help": rules_help(game, p.ruleset, lang),
            }
            for preset_name, p in game.presets.items()
        ],
        "rejections": game.contract.rejection_text(lang),
    }


def games_catalogue(lang: Lang = DEFAULT_LANG) -> list[dict[str, Any]]:
    """Every registered game as ``GET /api/games`` answers it, in ``lang``."""
    return [game_info(name, game, lang) for name, game in sorted(registry.GAMES.items())]


@router.get(
    "/api/games",
    summary="Games, presets and their rules",
    response_model=list[GameInfo],
    response_class=PLAIN,
    responses=errors(422),
)
async def list_games(words: Lang = Depends(asked_language)) -> list[dict[str, Any]]:
    return games_catalogue(words)
