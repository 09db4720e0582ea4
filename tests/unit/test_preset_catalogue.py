"""Every preset has a family and a title for the lobby (domain/games/catalogue.py), and the catalogue
of GET /api/games carries them."""

from __future__ import annotations

from domain.games import registry
from domain.games.catalogue import FAMILIES, family_order, preset_family
from services.gateway.routes import games_catalogue


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
