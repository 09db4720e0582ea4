"""Per-game contracts: commands, events, views, rulesets and rejection codes of each game.

A game's ``CONTRACT`` is the one place its message types are listed.  The game's Decider carries it
(``domain.core.decider.Decider.contract``), and ``contracts.games.registry`` lists it for the codecs
of services that decode a game's messages without importing its rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameContract:
    name: str
    command_type: Any  # union of command structs
    event_type: Any  # union of event structs (current and old versions)
    view_type: Any
    ruleset_type: Any
    rejection_codes: tuple[str, ...]  # every code the game's decide may answer
    # Old event versions decode to their own struct; ``upcast`` maps them to the current one.
    # None when every stored event version is current.
    upcast: Callable[[Any], Any] | None = None
