"""How the lobby lists a game's presets: each preset's family and title, in English and Russian.

A game declares its ``Lobby`` next to its rules (``domain/games/<game>/lobby.py``) and builds its
``Decider.presets`` with ``Lobby.presets``, so every ``Preset`` carries its family and title.
Families are listed in the order they are declared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.core.decider import Preset


@dataclass(frozen=True)
class Lobby:
    families: Mapping[str, Mapping[str, str]]  # family -> preset -> title, in the order shown
    families_ru: Mapping[str, str]  # family -> the family in Russian
    titles_ru: Mapping[str, str]  # preset -> its title in Russian

    def presets(
        self, rulesets: Mapping[str, Any], descriptions: Mapping[str, str], descriptions_ru: Mapping[str, str]
    ) -> dict[str, Preset[Any]]:
        """Every preset with its description, family and title in both languages."""
        where = {p: (f, t) for f, titled in self.families.items() for p, t in titled.items()}
        out: dict[str, Preset[Any]] = {}
        for name, ruleset in rulesets.items():
            family, title = where.get(name, ("", name))
            out[name] = Preset(
                ruleset,
                descriptions[name],
                descriptions_ru.get(name, ""),
                family=family,
                family_ru=self.families_ru.get(family, family),
                title=title,
                title_ru=self.titles_ru.get(name, title),
            )
        return out
