"""The tempo number («темповое число», rules/ugolki.md §7, 000:L121, L136).

T(P) = sum over P's pieces of the taxicab distance to the corner square inside P's target home.
Diagonal moves are not counted, so the same measure is used in diagonal presets.
"""

from __future__ import annotations

from .geometry import Geometry
from .state import WHITE, UgolkiState


def tempo(state: UgolkiState, side: int) -> int:
    return state.geo.tempo(side, state.white if side == WHITE else state.black)


def tempo_full(geo: Geometry, side: int) -> int:
    """T of a completed home (T_full): the target squares' distances to the target corner."""
    return geo.tempo(side, geo.homes[1 - side])


def tempo_to_go(state: UgolkiState, side: int) -> int:
    """T - T_full, shown in the UI; adjudication compares raw T (same winner either way)."""
    return tempo(state, side) - tempo_full(state.geo, side)


def draw_answer(state: UgolkiState, seat: str) -> bool:
    """A computer player's answer to the other side's draw offer (``Decider.draw_answer``): it
    accepts when it is behind in the race home, more tempi to go than the other side (§7)."""
    side = state.seats.index(seat)
    return tempo_to_go(state, side) > tempo_to_go(state, 1 - side)
