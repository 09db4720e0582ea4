"""The time control of ranked matches (docs/ranked.md "Time controls"): every ranked queue's
preset carries a default clock, which matchmaking's tables are created with.  Each game declares
its own (``Decider.ranked_clock``); a preset may have a clock of its own.

A ranked match always forfeits a seat that times out or is abandoned (``on_timeout =
"forfeit"``: the game's own rule, docs/audit.md "Clocks"); never a computer player in its place.
A seat to move for ``grace_s`` in all without any command of its own has abandoned the match.
"""

from __future__ import annotations

from contracts.match import TimeControl

# Presets with a clock of their own (a variant suffix such as ``@blitz`` is a preset family).
PRESET_TIME_CONTROLS: dict[tuple[str, str], TimeControl] = {}


def ranked_time_control(game: str, preset: str) -> TimeControl | None:
    """The clock of a ranked match of ``game`` with ``preset`` (None: no clock, or no such game)."""
    from domain.games import registry

    if (game, preset) in PRESET_TIME_CONTROLS:
        return PRESET_TIME_CONTROLS[(game, preset)]
    try:
        return registry.get(game).ranked_clock
    except KeyError:
        return None
