"""Per-game contracts: commands, events, views, rulesets and rejection codes of each game.

A game's ``CONTRACT`` is the one place its message types are listed.  The game's Decider carries it
(``domain.core.decider.Decider.contract``), and ``contracts.games.registry`` lists it for the codecs
of services that decode a game's messages without importing its rules.

Which games exist is declared once, here: ``BUILT_IN`` names the module of each game shipped
with gamehall (``contracts/games/<module>.py`` and ``domain/games/<module>/``), and a game
installed separately registers one entry point in the group ``gamehall.games``
(``<game> = <package>``), whose package holds ``<package>.contract`` (``CONTRACT``) and
``<package>.domain`` (``GAME``).  Both registries read ``game_modules()``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

# The games shipped with gamehall, in the order they are listed; one module name each.
BUILT_IN: tuple[str, ...] = (
    "ugolki",
    "kings_corner",
    "thousand",
    "farkle_flip",
    "kings_cup",
    "king",
    "draughts",
    "tablut",
)

ENTRY_POINT_GROUP = "gamehall.games"


@dataclass(frozen=True)
class GameModules:
    """Where one registered game lives: its contract module and its domain package."""

    contract: str  # module with CONTRACT
    domain: str  # package with GAME


def game_modules() -> tuple[GameModules, ...]:
    """Every registered game: the built-in ones, then each ``gamehall.games`` entry point."""
    found = [GameModules(f"contracts.games.{m}", f"domain.games.{m}") for m in BUILT_IN]
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        found.append(GameModules(f"{point.value}.contract", f"{point.value}.domain"))
    return tuple(found)


@dataclass(frozen=True)
class Sentence:
    """What a code means, said to a player in English and in Russian."""

    en: str
    ru: str

    def said(self, lang: str) -> str:
        return self.ru or self.en if lang == "ru" else self.en


@dataclass(frozen=True)
class GameContract:
    name: str
    command_type: Any  # union of command structs
    event_type: Any  # union of event structs (current and old versions)
    view_type: Any
    ruleset_type: Any
    # every code the game's decide may answer -> its sentence (GET /api/games serves them)
    rejections: Mapping[str, Sentence]
    # Old event versions decode to their own struct; ``upcast`` maps them to the current one.
    # None when every stored event version is current.
    upcast: Callable[[Any], Any] | None = None

    def __post_init__(self) -> None:
        for code, sentence in self.rejections.items():
            if not (isinstance(sentence, Sentence) and sentence.en.strip() and sentence.ru.strip()):
                raise ValueError(
                    f"{self.name}: rejection code {code!r} needs its sentence in English and Russian"
                )

    @property
    def rejection_codes(self) -> tuple[str, ...]:
        """Every code the game's decide may answer."""
        return tuple(self.rejections)

    def rejection_text(self, lang: str = "en") -> dict[str, str]:
        """Code -> its sentence in ``lang`` (``en`` or ``ru``)."""
        return {code: sentence.said(lang) for code, sentence in self.rejections.items()}
