"""Kings in the Corner's words for the table: a legal move's label and a line of the match log
for each event as a viewer may see it, in English and Russian (domain/core/words.py).  Card ids
and pile names stay as the game writes them ("QS", "NE"); the page draws card ids with suit signs."""

from __future__ import annotations

from typing import Any

from contracts.games.kings_corner import (
    CardPlayed,
    CardsDrawn,
    DrawCard,
    EndTurn,
    KingPenaltyCharged,
    KingsCornerCommand,
    MoveKingPile,
    MovePile,
    PileMoved,
    PlayCard,
    PlayRun,
    Ready,
    RoundDealt,
    RoundEnded,
    RunPlayed,
    SeatReady,
    SeatResigned,
    TurnEnded,
)
from domain.core.words import DEFAULT_LANG, Lang, Words

WORDS = Words(
    en={
        "ready": "Ready for the deal",
        "draw": "Draw",
        "end_turn": "End turn",
        "as": "{card} as {as_card}",
        "onto": "{cards} → {slot}",
        "pile": "Pile {src} → {dst}",
        "king_pile": "King pile {src} → {dst}",
        "ev.ready": "{seat} is ready",
        "ev.played": "{seat} plays {card} on {slot}",
        "ev.moved": "{seat} moves {src} onto {dst}",
        "ev.drawn": "{seat} draws {n}",
        "ev.ended": "{seat} ends the turn",
        "ev.charged": "{seat} is charged {points}",
        "ev.resigned": "{seat} resigns",
        "ev.dealt": "round {n} dealt",
        "ev.round_over": "round {n} over ({result})",
        "ev.round_out": "round {n} over ({result}, {seat} out)",
        "result.won": "won",
        "result.blocked": "blocked: the stock is out and nobody can play",
        "status.waiting": "waiting",
        "status.playing": "playing",
        "status.round_over": "round over",
        "status.finished": "finished",
    },
    ru={
        "ready": "Готов к раздаче",
        "draw": "Взять карту",
        "end_turn": "Закончить ход",
        "as": "{card} как {as_card}",
        "onto": "{cards} → {slot}",
        "pile": "Стопка {src} → {dst}",
        "king_pile": "Стопка с королём {src} → {dst}",
        "ev.ready": "{seat} готов",
        "ev.played": "{seat} кладёт {card} на {slot}",
        "ev.moved": "{seat} переносит {src} на {dst}",
        "ev.drawn": "{seat} берёт карт: {n}",
        "ev.ended": "{seat} заканчивает ход",
        "ev.charged": "{seat}: штраф {points}",
        "ev.resigned": "{seat} сдаётся",
        "ev.dealt": "раунд {n} сдан",
        "ev.round_over": "раунд {n} окончен ({result})",
        "ev.round_out": "раунд {n} окончен ({result}, {seat} без карт)",
        "result.won": "выигран",
        "result.blocked": "колода пуста, и никто не может выложить карту",
        "status.waiting": "ожидание",
        "status.playing": "игра",
        "status.round_over": "раунд окончен",
        "status.finished": "партия окончена",
    },
)


def status_text(status: str, lang: Lang = DEFAULT_LANG) -> str:
    """The table's status in ``lang`` ("round over", «раунд окончен»)."""
    return WORDS.code(lang, "status", status)


def describe(cmd: KingsCornerCommand, lang: Lang = DEFAULT_LANG) -> str:
    """A legal move in words: "Draw", "QS → N", "RJ as QS → N", "Pile E → N"."""
    say = WORDS.say
    if isinstance(cmd, Ready):
        return say(lang, "ready")
    if isinstance(cmd, DrawCard):
        return say(lang, "draw")
    if isinstance(cmd, EndTurn):
        return say(lang, "end_turn")
    if isinstance(cmd, PlayCard):
        card = say(lang, "as", card=cmd.card, as_card=cmd.as_card) if cmd.as_card else cmd.card
        return say(lang, "onto", cards=card, slot=cmd.slot)
    if isinstance(cmd, PlayRun):
        return say(lang, "onto", cards=" ".join(cmd.cards), slot=cmd.slot)
    if isinstance(cmd, MovePile):
        return say(lang, "pile", src=cmd.from_slot, dst=cmd.to_slot)
    assert isinstance(cmd, MoveKingPile)
    return say(lang, "king_pile", src=cmd.from_slot, dst=cmd.to_slot)


def line(e: Any, lang: Lang = DEFAULT_LANG) -> str | None:
    """The log line of an event as its viewer sees it (computed from the event as redacted for
    its viewer: a penalty private to another seat has no line). ``e`` is already redacted
    for that viewer (``Decider.event_text`` is ``words.redacted_lines(redact, line)``)."""
    say = WORDS.say
    if e is None:
        return None
    if isinstance(e, SeatReady):
        return say(lang, "ev.ready", seat=e.seat)
    if isinstance(e, CardPlayed):
        return say(lang, "ev.played", seat=e.seat, card=e.card, slot=e.slot)
    if isinstance(e, RunPlayed):
        return say(lang, "ev.played", seat=e.seat, card=" ".join(e.cards), slot=e.slot)
    if isinstance(e, PileMoved):
        return say(lang, "ev.moved", seat=e.seat, src=e.from_slot, dst=e.to_slot)
    if isinstance(e, CardsDrawn):
        return say(lang, "ev.drawn", seat=e.seat, n=e.count)
    if isinstance(e, TurnEnded):
        return say(lang, "ev.ended", seat=e.seat)
    if isinstance(e, KingPenaltyCharged):
        return say(lang, "ev.charged", seat=e.seat, points=e.points)
    if isinstance(e, SeatResigned):
        return say(lang, "ev.resigned", seat=e.seat)
    if isinstance(e, RoundDealt):
        return say(lang, "ev.dealt", n=e.round_no)
    if isinstance(e, RoundEnded):
        result = say(lang, f"result.{e.result}")
        if e.winner:
            return say(lang, "ev.round_out", n=e.round_no, result=result, seat=e.winner)
        return say(lang, "ev.round_over", n=e.round_no, result=result)
    return None
