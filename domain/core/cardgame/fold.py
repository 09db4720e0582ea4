"""A game's ``evolve`` as one small fold per event type.

Each game writes its folds (``_seat_ready``, ``_card_played`` ...) and a table from event type to
fold; ``by_type`` turns the table into the game's ``evolve``.  It is the hot path of replaying a
log, so the lookup is one dict subscript on the event's exact type (a subclass is not its parent's
event); an event of no listed type raises ``TypeError("not a <game> event: <type>")``.

    evolve: Callable[[KCState, KingsCornerEvent], KCState] = by_type(
        {SeatReady: _seat_ready, CardPlayed: _played, ...}, "Kings in the Corner"
    )
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

S = TypeVar("S")


def by_type(table: Mapping[type[Any], Callable[[S, Any], S]], game_title: str) -> Callable[[S, Any], S]:
    """The ``evolve`` that folds an event with the table's fold for its type."""
    folds = dict(table)

    def evolve(state: S, event: Any) -> S:
        try:
            fold = folds[type(event)]
        except KeyError:
            raise TypeError(f"not a {game_title} event: {type(event).__name__}") from None
        return fold(state, event)

    return evolve
