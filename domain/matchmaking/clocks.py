"""The time control of ranked matches (docs/ranked.md "Time controls"): every ranked queue's
preset carries a default clock, which matchmaking's tables are created with.

A ranked match always forfeits a seat that times out or is abandoned (``on_timeout =
"forfeit"``: the game's own rule, docs/audit.md "Clocks"); never a computer player in its place.
"""

from __future__ import annotations

from contracts.match import TimeControl

# Ugolki is played on a Fischer clock (5 minutes + 3 s a move); the card games by the move (a
# minute a turn: their rules' TIMEOUT auto-acts keep the table going).  A seat to move for
# grace_s in all without any command of its own has abandoned the match.
RANKED_TIME_CONTROLS: dict[str, TimeControl] = {
    "ugolki": TimeControl(base_s=300, increment_s=3, grace_s=120, on_timeout="forfeit"),
    "kings-corner": TimeControl(move_s=60, grace_s=180, on_timeout="forfeit"),
    "king": TimeControl(move_s=60, grace_s=180, on_timeout="forfeit"),
    "thousand": TimeControl(move_s=60, grace_s=180, on_timeout="forfeit"),
    "farkle-flip": TimeControl(move_s=60, grace_s=180, on_timeout="forfeit"),
}
# Presets with a clock of their own (a variant suffix such as ``@blitz`` is a preset family).
PRESET_TIME_CONTROLS: dict[tuple[str, str], TimeControl] = {}


def ranked_time_control(game: str, preset: str) -> TimeControl | None:
    """The clock of a ranked match of ``game`` with ``preset`` (None: the game is never ranked)."""
    return PRESET_TIME_CONTROLS.get((game, preset)) or RANKED_TIME_CONTROLS.get(game)
