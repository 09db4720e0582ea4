"""view: everything is public in Ugolki; the viewer only changes ``legal``."""

from __future__ import annotations

from contracts.games.ugolki import MovePiece, UgolkiEvent, UgolkiView
from domain.core.words import DEFAULT_LANG, Lang

from .explain import warnings
from .geometry import Geometry
from .legal import continuations, mover_moves
from .notation import format_path
from .state import BLACK, WHITE, UgolkiState
from .tempo import tempo, tempo_to_go


def _sorted_squares(geo: Geometry, bits: int) -> tuple[str, ...]:
    # Sorted by (file, rank) so that a2 comes before a10.
    return tuple(geo.names[i] for i in sorted(geo.squares(bits), key=geo.file_rank))


def _result_text(state: UgolkiState) -> str | None:
    out = state.result
    if out is None:
        return None
    if out.draw:
        return f"draw ({out.reason})"
    winner = state.seats[out.ranks.index(1)]
    return f"{winner} wins ({out.reason})"


def view(state: UgolkiState, viewer: str | None, lang: Lang = DEFAULT_LANG) -> UgolkiView:
    """The position for ``viewer``, the warnings in ``lang``."""
    geo = state.geo
    white, black = state.seats
    over = state.result is not None
    mover = None if over else state.seats[state.side]
    legal: tuple[str, ...] = ()
    chains: dict[str, tuple[str, ...]] = {}
    if viewer is not None and viewer == mover:
        legal = tuple(f"{geo.names[f]}-{geo.names[t]}" for f, t in mover_moves(state))
        chains = continuations(state)
    return UgolkiView(
        board=geo.n,
        white=_sorted_squares(geo, state.white),
        black=_sorted_squares(geo, state.black),
        white_home=_sorted_squares(geo, geo.homes[WHITE]),
        black_home=_sorted_squares(geo, geo.homes[BLACK]),
        to_move=mover,
        moves_made={white: state.moves_made[0], black: state.moves_made[1]},
        tempo={white: tempo(state, WHITE), black: tempo(state, BLACK)},
        tempo_to_go={white: tempo_to_go(state, WHITE), black: tempo_to_go(state, BLACK)},
        history=tuple(format_path(geo, p) for p in state.turns),
        legal=legal,
        continuations=chains,
        result=_result_text(state),
        warnings=warnings(state, lang),
        last_move=tuple(geo.names[i] for i in state.turns[-1]) if state.turns else (),
    )


def redact(event: UgolkiEvent, viewer: str | None) -> UgolkiEvent:
    """No hidden information: every seat and spectator sees every event."""
    return event


def describe(cmd: MovePiece) -> str:
    """A command in the notation of §5 (``h3-f3-f5``)."""
    return "-".join(cmd.path)
