"""Presets for people, as the lobby lists them (``GET /api/games``: ``family`` and ``title`` per
preset), in English and Russian, and each game's title in both: all read from the registered
Deciders (each ``Preset`` carries its family and title, each game declares them in its
``lobby.py``; the Decider its ``title`` and ``title_ru``).  Nothing here names a game.

A game's families are listed in the order its Decider declares (``families``), else in the
order they first appear in its presets.
"""

from __future__ import annotations

from typing import Any

from domain.core.decider import Decider
from domain.core.words import Lang
from domain.games import registry


def _game(game: str) -> Decider[Any, Any, Any, Any, Any] | None:
    return registry.GAMES.get(game)


def preset_family(game: str, preset: str, lang: Lang = "en") -> tuple[str, str]:
    """(family, title) of a preset in ``lang``; ("", preset) for one the game does not have."""
    decider = _game(game)
    found = decider.presets.get(preset) if decider is not None else None
    if found is None or not found.family:
        return "", preset
    if lang == "ru":
        return found.family_ru or found.family, found.title_ru or found.title or preset
    return found.family, found.title or preset


def family_order(game: str, lang: Lang = "en") -> tuple[str, ...]:
    """The game's families in the order the lobby shows them (first appearance), named in ``lang``."""
    decider = _game(game)
    if decider is None:
        return ()
    ru = {p.family: p.family_ru or p.family for p in decider.presets.values() if p.family}
    order = [f for f in decider.families if f in ru] + [f for f in ru if f not in decider.families]
    return tuple(ru[f] for f in order) if lang == "ru" else tuple(order)


def game_title(game: str, title: str, lang: Lang = "en") -> str:
    """A game's title in ``lang``: its Decider's ``title_in(lang)``, or ``title`` for an unknown game."""
    decider = _game(game)
    return decider.title_in(lang) if decider is not None else title


def _families(decider: Decider[Any, Any, Any, Any, Any]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {f: {} for f in family_order(decider.name)}
    for name, preset in decider.presets.items():
        if preset.family:
            out.setdefault(preset.family, {})[name] = preset.title or name
    return out


# Derived views, game -> ...: the families and titles as the Deciders declare them.
FAMILIES: dict[str, dict[str, dict[str, str]]] = {g: _families(d) for g, d in registry.GAMES.items()}
FAMILIES_RU: dict[str, dict[str, str]] = {
    g: {p.family: p.family_ru or p.family for p in d.presets.values() if p.family}
    for g, d in registry.GAMES.items()
}
TITLES_RU: dict[str, dict[str, str]] = {
    g: {n: p.title_ru or p.title for n, p in d.presets.items() if p.family} for g, d in registry.GAMES.items()
}
GAME_TITLES_RU: dict[str, str] = {g: d.title_in("ru") for g, d in registry.GAMES.items()}
