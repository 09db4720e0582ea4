"""What a seat sees of Farkle Flip: everything but the draw-pile order (§3.9 Visibility)."""

from __future__ import annotations

import msgspec

from contracts.games.farkle_flip import (
    AreaCard,
    CentreCombination,
    Draw,
    FarkleFlipCommand,
    FarkleFlipEvent,
    FarkleFlipView,
    GameDealt,
    Lock,
    PileOrderGiven,
    PileReshuffled,
    Place,
    PlayerArea,
    Ready,
    ScoreRound,
    Stop,
)
from domain.core.cardgame.redact import UNKNOWN
from domain.core.words import DEFAULT_LANG, Lang
from domain.games.farkle_flip.explain import scoring_note_in
from domain.games.farkle_flip.phases import to_move
from domain.games.farkle_flip.state import FFState
from domain.games.farkle_flip.words import pattern_name, status_text


def describe(cmd: FarkleFlipCommand) -> str:
    """A move in the notation of game records (rules/records.md): "draw", "place p2",
    "lock p1 0,2,3 three_of_a_kind", "stop", "ready"."""
    if isinstance(cmd, Draw):
        return "draw"
    if isinstance(cmd, Place):
        return f"place {cmd.target}"
    if isinstance(cmd, Lock):
        return f"lock {cmd.owner} {','.join(str(k) for k in cmd.cards)} {cmd.pattern}"
    if isinstance(cmd, Stop):
        return "stop"
    assert isinstance(cmd, Ready)
    return "ready"


def view(state: FFState, viewer: str | None, lang: Lang = DEFAULT_LANG) -> FarkleFlipView:
    """The table for ``viewer``; the scoring table's note in ``lang``."""
    seats = state.seats
    rules = state.rules
    playing = state.status == "playing"
    started = state.status != "waiting"
    players = tuple(
        PlayerArea(
            seat=seat,
            banked=state.banked[i] if started else 0,
            on_board=state.on_board[i] if started else False,
            farkle_held=state.farkle_held[i] if started else 0,
            area=tuple(AreaCard(value=v, lost_group=g or None) for v, g in state.areas[i]) if started else (),
        )
        for i, seat in enumerate(seats)
    )
    return FarkleFlipView(
        status=state.status,
        scoring_table=rules.scoring_table,
        scoring_official=rules.scoring_official,
        scoring_note=scoring_note_in(rules, lang),
        patterns=rules.patterns,
        target=rules.target,
        entry=rules.entry,
        farkle_value=rules.farkle_value,
        dealer=seats[state.dealer] if state.dealer >= 0 else None,
        current=seats[state.current] if playing else None,
        to_move=tuple(s for s in seats if s in to_move(state)),
        ready=tuple(s for s, r in zip(seats, state.ready, strict=True) if r),
        players=players,
        centre=tuple(
            CentreCombination(owner=seats[c.owner], cards=c.cards, pattern=c.pattern, value=c.value)
            for c in state.centre
        ),
        turn_total=sum(c.value for c in state.centre),
        pending=state.pending,
        pending_targets=seats if state.pending is not None else (),
        draws=state.draws,
        draw_pile=len(state.draw_pile),
        scored_pile=len(state.scored_pile),
        set_aside=state.set_aside,
        final_round=tuple(seats[i] for i in state.remaining),
        final_trigger=seats[state.trigger] if state.trigger >= 0 else None,
        dry_turns=state.dry_turns,
        ranks=state.ranks,
        result=state.end_reason or None,
        sheet=score_sheet(state),
        status_text=status_text(lang, state.status),
        pattern_names={
            p: pattern_name(lang, p)
            for p in (*(x.name for x in rules.patterns), *(c.pattern for c in state.centre))
        },
    )


def score_sheet(state: FFState) -> tuple[ScoreRound, ...]:
    """The turns played so far as rounds: every seat's turn once, in turn order (§3.3)."""
    seats = state.seats
    n = len(seats)
    rounds: list[ScoreRound] = []
    before = (0,) * n
    for k, (i, after) in enumerate(zip(state.turn_seats, state.turn_rows, strict=True)):
        if k % n == 0:
            rounds.append(ScoreRound(round_no=k // n + 1, points={}, totals={}))
        row = rounds[-1]
        row.points[seats[i]] = after[i] - before[i]
        row.totals.clear()
        row.totals.update({s: after[j] for j, s in enumerate(seats)})
        before = after
    return tuple(rounds)


def redact(event: FarkleFlipEvent, viewer: str | None) -> FarkleFlipEvent | None:
    """The draw-pile order is nobody's to see: it becomes ``??`` placeholders (its size stays)."""
    if isinstance(event, GameDealt):
        return msgspec.structs.replace(event, deck=(UNKNOWN,) * len(event.deck))
    if isinstance(event, PileReshuffled):
        return msgspec.structs.replace(event, order=(UNKNOWN,) * len(event.order))
    if isinstance(event, PileOrderGiven):
        return msgspec.structs.replace(event, order=(UNKNOWN,) * len(event.order))
    return event


def hidden(state: FFState, seat: str) -> frozenset[str]:
    """No card is one seat's secret: everything is public except the draw-pile order (§3.9
    Visibility), which no seat sees; redaction blanks it for everyone."""
    return frozenset()
