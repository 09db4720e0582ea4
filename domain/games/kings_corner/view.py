"""What one seat may see (§5.8 E23): the view of a state, the redaction of events (placeholders,
``domain.core.cardgame.redact``), ``hidden`` and the short notation of commands."""

from __future__ import annotations

import msgspec

from contracts.games.kings_corner import (
    SLOTS,
    CardsDrawn,
    DrawCard,
    EndTurn,
    KingPenaltyCharged,
    KingsCornerCommand,
    KingsCornerEvent,
    KingsCornerView,
    MoveKingPile,
    MovePile,
    PlayCard,
    PlayRun,
    Ready,
    RoundDealt,
    RoundSummary,
)
from domain.core import cards
from domain.core.cardgame.redact import blank, blank_hands, hidden_hand
from domain.core.words import DEFAULT_LANG, Lang
from domain.games.kings_corner.phases import legal_commands, to_move
from domain.games.kings_corner.state import STATUS, KCState
from domain.games.kings_corner.words import status_text


def notation(cmd: KingsCornerCommand) -> str:
    """Short text of a command, e.g. "QS>N", "9H,8S>E", "E>N", "N>>NE", "draw", "end", "ready"."""
    if isinstance(cmd, PlayCard):
        return f"{cmd.card}{'=' + cmd.as_card if cmd.as_card else ''}>{cmd.slot}"
    if isinstance(cmd, PlayRun):
        return f"{','.join(cmd.cards)}>{cmd.slot}"
    if isinstance(cmd, MovePile):
        return f"{cmd.from_slot}>{cmd.to_slot}"
    if isinstance(cmd, MoveKingPile):
        return f"{cmd.from_slot}>>{cmd.to_slot}"
    if isinstance(cmd, DrawCard):
        return "draw"
    if isinstance(cmd, EndTurn):
        return "end"
    assert isinstance(cmd, Ready)
    return "ready"


def view(state: KCState, viewer: str | None, lang: Lang = DEFAULT_LANG) -> KingsCornerView:
    """The table for ``viewer``; its status in ``lang``."""
    seats = state.seats
    me = seats.index(viewer) if viewer in seats else None
    status = STATUS[state.phase]
    playing = state.in_round
    hand: tuple[str, ...] = ()
    if me is not None and playing:
        hand = cards.sorted_cards(state.hands[me])
    revealed: dict[str, tuple[str, ...]] = {}
    if state.phase in ("scored", "over") and state.results:
        revealed = {r.seat: r.hand for r in state.results[-1].seats}
    rounds = tuple(
        RoundSummary(
            round_no=r.round_no,
            result=r.result,
            winner=r.winner,
            points={
                x.seat: (x.points if state.ruleset.settlement == "penalty" else x.balance_change)
                for x in r.seats
            },
        )
        for r in state.results
    )
    legal = tuple(notation(c) for c in legal_commands(state, viewer)) if viewer is not None else ()
    pending = state.pending if (playing and me is not None and me == state.current) else None
    return KingsCornerView(
        status=status,
        round_no=state.round_no,
        dealer=seats[state.dealer] if state.dealer >= 0 else None,
        to_move=tuple(s for s in seats if s in to_move(state)),
        current=seats[state.current] if playing else None,
        ready=tuple(s for s, r in zip(seats, state.ready, strict=True) if r),
        layout={slot: pile for slot, pile in zip(SLOTS, state.layout, strict=True)},
        jokers=dict(state.declared),
        hand=hand,
        hand_sizes={s: len(h) for s, h in zip(seats, state.hands, strict=True)} if state.hands else {},
        stock_size=len(state.stock),
        totals=dict(zip(seats, state.totals, strict=True)),
        score_sign=state.ruleset.score_sign,
        pot=state.pot,
        eliminated=tuple(
            s for s, r, q in zip(seats, state.out_round, state.resigned, strict=True) if r and not q
        ),
        resigned=tuple(s for s, q in zip(seats, state.resigned, strict=True) if q),
        turn={"drawn": state.drawn, "played": state.played, "merges": state.merges, "idle_turns": state.idle}
        if playing
        else {},
        pending_card=pending,
        revealed_hands=revealed,
        rounds=rounds,
        legal=legal,
        result=state.end_reason or None if state.phase == "over" else None,
        status_text=status_text(status, lang),
    )


def redact(event: KingsCornerEvent, viewer: str | None) -> KingsCornerEvent | None:
    """What ``viewer`` may see of an event: cards it may not see become ``UNKNOWN`` placeholders,
    so the count of every hand and of the stock survives and the redacted events fold into the
    viewer's information state (the same legal commands as the full state, for that seat)."""
    if isinstance(event, RoundDealt):
        return msgspec.structs.replace(
            event,
            order=(),
            stock=blank(event.stock),
            hands=blank_hands(event.seats, event.hands, viewer),
        )
    if isinstance(event, KingPenaltyCharged) and event.seat != viewer:
        return None  # D1: private to the seat until the round is scored
    if isinstance(event, CardsDrawn) and event.seat != viewer:
        return msgspec.structs.replace(event, cards=blank(event.cards))
    return event


def hidden(state: KCState, seat: str) -> frozenset[str]:
    """Card ids hidden from everybody but ``seat``: its hand while a round is being played (a card
    a joker on the table is declared as is a public name too, V17)."""
    return hidden_hand(state.seats, state.hands, seat, state.in_round) - {face for _, face in state.declared}
