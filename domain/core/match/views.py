"""A viewer's view of a match: the game's view, the legal moves in words, the clocks, the result."""

from __future__ import annotations

from typing import Any

from contracts.match import ClockView, LegalMove, MatchView
from domain.core.decider import Decider
from domain.core.match.clocks import abandon_deadline, deadline
from domain.core.match.handover import bot_seats
from domain.core.match.state import MatchState, to_move
from domain.core.match.words import outcome_text, player_in_words
from domain.core.words import DEFAULT_LANG, Lang


def view(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState,
    viewer: str | None,
    match_id: str,
    seq: int,
    lang: Lang = DEFAULT_LANG,
) -> MatchView:
    """``viewer``'s view of the match, its sentences (the end reason, a game's warnings) in ``lang``."""
    created = state.created
    movers = to_move(game, state)
    legal: tuple[LegalMove, ...] = ()
    if viewer is not None and viewer in movers:
        legal = tuple(
            LegalMove(label=game.describe(cmd, lang), command=cmd)
            for cmd in game.legal_commands(state.game_state, viewer)
        )
    return MatchView(
        match_id=match_id,
        game=created.game,
        preset=created.preset,
        rules_version=created.rules_version,
        seats=created.seats,
        players=created.players,
        viewer=viewer,
        seq=seq,
        ruleset=created.ruleset,
        to_move=movers,
        status="finished" if state.outcome is not None else "running",
        outcome=state.outcome,
        draw_offer=state.draw_offer,
        game_view=game.view(state.game_state, viewer)
        if game.view_in is None
        else game.view_in(state.game_state, viewer, lang),
        legal_moves=legal,
        clock=clock_view(state),
        outcome_text=outcome_text(game, state, lang),
        names=tuple(player_in_words(game, p, lang) for p in created.players),
    )


def clock_view(state: MatchState) -> ClockView | None:
    clock, tc = state.clock, state.created.time_control
    if clock is None or tc is None:
        return None
    running = clock.running if state.outcome is None else ()
    return ClockView(
        time_control=tc,
        since=clock.since,
        running=running,
        remaining_ms=clock.remaining_ms,
        deadlines=tuple(deadline(state, s) or 0 for s in state.created.seats),
        abandon_at=tuple(abandon_deadline(state, s) or 0 for s in state.created.seats) if tc.grace_s else (),
        bots=bot_seats(state),
    )
