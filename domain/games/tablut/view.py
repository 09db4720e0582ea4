"""view: everything in Tablut is public; the viewer only changes ``plays``."""

from __future__ import annotations

from contracts.games.tablut import PieceMoved, TablutPlay, TablutView
from domain.core.words import DEFAULT_LANG, Lang

from .board import ATTACKERS, LETTER, NAMES, THRONE
from .engine import geometry, king_routes
from .explain import status_text, warnings
from .legal import legal_moves
from .notation import text, written
from .position import write
from .state import Played, TablutState


def _play(p: Played) -> TablutPlay:
    return TablutPlay(
        move=text(p.origin, p.to, p.captured),
        origin=NAMES[p.origin],
        to=NAMES[p.to],
        captured=tuple(NAMES[q] for q in p.captured),
    )


def view(state: TablutState, viewer: str | None, lang: Lang = DEFAULT_LANG) -> TablutView:
    g = geometry(state.rules)
    over = state.result is not None
    mover = None if over else state.seats[state.side]
    plays: tuple[TablutPlay, ...] = ()
    if viewer is not None and viewer == mover:
        plays = tuple(
            TablutPlay(move=text(s, x, caps), origin=NAMES[s], to=NAMES[x], captured=tuple(NAMES[q] for q in caps))
            for s, x, caps in legal_moves(state)
        )
    last = state.history[-1] if state.history else None
    return TablutView(
        pieces={NAMES[i]: LETTER[p] for i, p in enumerate(state.board) if p},
        to_move=mover,
        side_to_move="attackers" if state.side == ATTACKERS else "defenders",
        plays=plays,
        throne=NAMES[THRONE],
        corners=tuple(sorted(NAMES[c] for c in g.corners)),
        escape_squares=tuple(sorted(NAMES[c] for c in g.escape)),
        king_routes=tuple(NAMES[q] for q in king_routes(g, state.board)) if not over else (),
        check=last is not None and last.check,
        routes=last.routes if last is not None else 0,
        last_move=_play(last) if last is not None else None,
        history=tuple(written(p) for p in state.history),
        position=write(state.board, state.side),
        repetition=state.seen.get(state.key, 1),
        defenders_moves=state.defenders_moves,
        result=state.result.reason if state.result is not None else None,
        status_text=status_text(state, lang),
        warnings=warnings(state, lang),
    )


def redact(event: PieceMoved, viewer: str | None) -> PieceMoved:
    """No hidden information: every seat and spectator sees every move."""
    return event
