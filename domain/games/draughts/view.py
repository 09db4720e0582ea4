"""view: everything in draughts is public; the viewer only changes ``plays``."""

from __future__ import annotations

from contracts.games.draughts import DraughtsCounters, DraughtsPlay, DraughtsView, PiecesMoved
from domain.core.words import DEFAULT_LANG, Lang

from . import fen
from .board import NAMES, squares
from .explain import status_text, warnings
from .movegen import legal_moves, text
from .state import DraughtsState, Move


def _play(m: Move) -> DraughtsPlay:
    return DraughtsPlay(
        move=text(m), path=tuple(NAMES[s] for s in m.path), captured=tuple(NAMES[s] for s in m.captured)
    )


def _pieces(state: DraughtsState) -> dict[str, str]:
    pos = state.pos
    out: dict[str, str] = {}
    for side, (man, king) in enumerate((("w", "W"), ("b", "B"))):
        out.update({NAMES[s]: man for s in squares(pos.men[side])})
        out.update({NAMES[s]: king for s in squares(pos.kings[side])})
    return dict(sorted(out.items()))


def view(state: DraughtsState, viewer: str | None, lang: Lang = DEFAULT_LANG) -> DraughtsView:
    over = state.result is not None
    moves = [] if over else legal_moves(state.rules, state.pos)
    capture = bool(moves and moves[0].captured)
    mover = None if over else state.seats[state.pos.side]
    c = state.counts
    return DraughtsView(
        pieces=_pieces(state),
        to_move=mover,
        side_to_move="white" if state.pos.side == 0 else "black",
        plays=tuple(_play(m) for m in moves) if viewer is not None and viewer == mover else (),
        capture_required=capture,
        capturing=tuple(sorted({NAMES[m.origin] for m in moves})) if capture else (),
        last_move=_play(state.history[-1]) if state.history else None,
        history=tuple(text(m) for m in state.history),
        counters=DraughtsCounters(
            repetition=c.seen.count(state.pos),
            kings_only=c.kings_only,
            stable=c.stable,
            three_kings=c.three_kings,
            main_road=c.main_road,
        ),
        fen=fen.write(state.pos),
        result=state.result.reason if state.result is not None else None,
        status_text=status_text(state, capture, lang),
        warnings=warnings(state, lang),
    )


def redact(event: PiecesMoved, viewer: str | None) -> PiecesMoved:
    """No hidden information: every seat and spectator sees every move."""
    return event
