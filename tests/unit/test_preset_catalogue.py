"""Every preset has a family and a title for the lobby (domain/games/catalogue.py), in English and
Russian, every preset a description in both, and the catalogue of GET /api/games carries them in
the language asked."""

from __future__ import annotations

import re

from domain.games import registry
from domain.games.catalogue import (
    FAMILIES,
    FAMILIES_RU,
    GAME_TITLES_RU,
    TITLES_RU,
    family_order,
    game_title,
    preset_family,
)
from services.gateway.api.games import games_catalogue


def test_every_registered_preset_has_one_family_and_a_title() -> None:
    for name, game in registry.GAMES.items():
        listed = [p for presets in FAMILIES[name].values() for p in presets]
        assert sorted(listed) == sorted(game.presets), name  # none missing, none unknown
        assert len(listed) == len(set(listed)), f"{name}: a preset in two families"
        for preset in game.presets:
            family, title = preset_family(name, preset)
            assert family and title and title != preset or title == "cardgames.zone", (name, preset)


def test_titles_are_unique_within_a_family() -> None:
    for name, families in FAMILIES.items():
        for family, presets in families.items():
            assert len(set(presets.values())) == len(presets), (name, family)


def test_unknown_preset_falls_back_to_its_name() -> None:
    assert preset_family("ugolki", "no-such-preset") == ("", "no-such-preset")
    assert family_order("no-such-game") == ()


def test_games_catalogue_lists_family_and_title_per_preset() -> None:
    for g in games_catalogue():
        assert g["families"] == list(FAMILIES[g["game"]])
        for p in g["presets"]:
            assert p["family"] in g["families"]
            assert (p["family"], p["title"]) == preset_family(g["game"], p["name"])
    ugolki = next(g for g in games_catalogue() if g["game"] == "ugolki")
    gambiter = next(p for p in ugolki["presets"] if p["name"] == "gambiter-classic")
    assert gambiter["family"] == "Gambiter" and gambiter["title"] == "Gambiter classic"


CYRILLIC = re.compile("[\u0400-\u04ff]")
# Titles that are names (sources, sites, the rules files' own) and stay the same in Russian.
SAME_IN_RUSSIAN = {"Gambiter", "cardgames.zone", "Stofka", "Klepek", "Crestanello", "LuckForFree 3×4",
                   "Min2Win 3×4", "«Прямые»", "«Косые»", "Farkle Flip"}


def test_every_game_title_family_preset_title_and_description_is_in_both_languages() -> None:
    assert set(GAME_TITLES_RU) == set(registry.GAMES)
    for name, game in registry.GAMES.items():
        ru_title = game_title(name, game.title, "ru")
        assert ru_title and game_title(name, game.title, "en") == game.title, name
        assert set(FAMILIES_RU[name]) == set(FAMILIES[name]), name
        assert set(TITLES_RU[name]) == set(game.presets), name
        for family in FAMILIES[name]:
            ru = FAMILIES_RU[name][family]
            assert ru and (CYRILLIC.search(ru) or ru in SAME_IN_RUSSIAN), (name, family)
        for preset_name, preset in game.presets.items():
            _, en_title = preset_family(name, preset_name, "en")
            family, title = preset_family(name, preset_name, "ru")
            assert family == FAMILIES_RU[name][preset_family(name, preset_name)[0]]
            assert title and (CYRILLIC.search(title) or title in SAME_IN_RUSSIAN), (name, preset_name)
            assert preset.described("en") == preset.description
            assert CYRILLIC.search(preset.described("ru")), (name, preset_name)
            assert preset.described("ru") != preset.description, (name, preset_name)
        ru_families = family_order(name, "ru")
        assert len(set(ru_families)) == len(ru_families) == len(FAMILIES[name]), name


def test_russian_titles_are_unique_within_a_family() -> None:
    for name, families in FAMILIES.items():
        for presets in families.values():
            ru = [TITLES_RU[name][p] for p in presets]
            assert len(set(ru)) == len(ru), (name, ru)


def test_the_russian_catalogue_names_games_families_presets_and_descriptions_in_russian() -> None:
    ugolki = next(g for g in games_catalogue("ru") if g["game"] == "ugolki")
    assert ugolki["title"] == "Уголки"
    assert ugolki["families"][1] == "Доски гальмы"
    default = next(p for p in ugolki["presets"] if p["name"] == "halma-8x8-1234")
    assert (default["family"], default["title"]) == ("Доски гальмы", "Гальма 8×8")
    assert default["description"].startswith("Гальма 8×8")
    assert default["family"] in ugolki["families"]
    assert default["name"] == "halma-8x8-1234" and default["rules"]["board"] == 8
    english = next(g for g in games_catalogue("en") if g["game"] == "ugolki")
    assert english["title"] == "Ugolki (corners)"
    for g in games_catalogue("ru"):
        assert all(p["family"] in g["families"] for p in g["presets"]), g["game"]
