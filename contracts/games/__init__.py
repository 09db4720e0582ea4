"""Per-game contracts: commands, events, views and rulesets of each game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def _same(event: Any) -> Any:
    return event


@dataclass(frozen=True)
class GameContract:
    name: str
    command_type: Any  # union of command structs
    event_type: Any  # union of event structs (current and old versions)
    view_type: Any
    ruleset_type: Any
    # Old event versions decode to their own struct; ``upcast`` maps them to the current one.
    upcast: Callable[[Any], Any] = field(default=_same)
