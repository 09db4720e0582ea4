"""Farkle Flip's words for the table: a legal move's label and a line of the match log for each
event, in English and Russian (domain/core/words.py).  Seats, positions and card values stay as
the game writes them; English labels are the notation of game records (rules/records.md)."""

from __future__ import annotations

from typing import Any

from contracts.games.farkle_flip import (
    Busted,
    CardDrawn,
    CardPlaced,
    CombinationLocked,
    Draw,
    FarkleFlipCommand,
    FinalRoundStarted,
    GameDealt,
    GameEnded,
    Lock,
    PileOrderGiven,
    PileReshuffled,
    Place,
    Ready,
    SeatReady,
    Stop,
    Stopped,
    TurnEnded,
)
from domain.core.words import DEFAULT_LANG, Lang, Words

FARKLE = "F"

PATTERNS = (
    "three_of_a_kind",
    "four_of_a_kind",
    "five_of_a_kind",
    "six_of_a_kind",
    "straight",
    "three_pairs",
    "four_of_a_kind_and_a_pair",
    "two_triplets",
    "single_1",
    "single_5",
)

WORDS = Words(
    en={
        "draw": "draw",
        "place": "place {target}",
        "lock": "lock {owner} {positions} {pattern}",
        "stop": "stop",
        "ready": "ready",
        "ev.ready": "{seat} is ready",
        "ev.dealt": "set-up: {dealer} deals; {seat} draws first",
        "ev.drawn": "{seat} draws {card}",
        "a_farkle_card": "a Farkle card",
        "ev.placed": "{seat} places {card} in {target}'s area",
        "ev.locked": "{seat} locks {cards} of {owner}: {pattern} {value}",
        "ev.busted": "{seat} busts",
        "ev.busted_lost": "{seat} busts: {n} combination lost|{seat} busts: {n} combinations lost",
        "ev.banked": "{seat} banks {points} ({banked})",
        "ev.forfeit": "{seat} stops below the entry: the centre is lost",
        "ev.nothing": "{seat} stops with nothing to score",
        "ev.turn_ended": "{seat} ends the turn",
        "ev.reshuffled": "the scored pile ({n}) becomes the draw pile",
        "ev.order_given": "the draw pile's order is given ({n})",
        "ev.final_round": "{seat} reached the target: final round",
        "ev.over": "game over ({reason})",
        "end.final_round": "the final round is played",
        "end.piles_empty": "the piles are empty",
        **{f"pattern.{p}": p.replace("_", " ") for p in PATTERNS},
        "status.waiting": "waiting",
        "status.playing": "playing",
        "status.finished": "finished",
        "pattern.four_of_a_kind_and_a_pair": "four of a kind and a pair",
    },
    ru={
        "draw": "тянуть карту",
        "place": "положить в зону {target}",
        "lock": "выложить {owner} {positions} ({pattern})",
        "stop": "остановиться",
        "ready": "готов",
        "ev.ready": "{seat} готов",
        "ev.dealt": "подготовка: сдаёт {dealer}; первым тянет {seat}",
        "ev.drawn": "{seat} тянет {card}",
        "a_farkle_card": "карту Фаркла",
        "ev.placed": "{seat} кладёт {card} в зону игрока {target}",
        "ev.locked": "{seat} выкладывает {cards} из зоны {owner}: {pattern} {value}",
        "ev.busted": "{seat}: Фаркл",
        "ev.busted_lost": "{seat}: Фаркл, потеряна {n} комбинация|{seat}: Фаркл, потеряно {n} комбинации"
        "|{seat}: Фаркл, потеряно {n} комбинаций",
        "ev.banked": "{seat} кладёт в банк {points} ({banked})",
        "ev.forfeit": "{seat} останавливается ниже входа: центр сгорает",
        "ev.nothing": "{seat} останавливается без очков",
        "ev.turn_ended": "{seat} заканчивает ход",
        "ev.reshuffled": "отбой ({n}) становится колодой",
        "ev.order_given": "порядок колоды задан ({n})",
        "ev.final_round": "{seat} достигает цели: последний круг",
        "ev.over": "игра окончена ({reason})",
        "end.final_round": "сыгран последний круг",
        "end.piles_empty": "стопки кончились",
        "status.waiting": "ожидание",
        "status.playing": "игра",
        "status.finished": "игра окончена",
        "pattern.three_of_a_kind": "три одинаковых",
        "pattern.four_of_a_kind": "четыре одинаковых",
        "pattern.five_of_a_kind": "пять одинаковых",
        "pattern.six_of_a_kind": "шесть одинаковых",
        "pattern.straight": "стрит",
        "pattern.three_pairs": "три пары",
        "pattern.four_of_a_kind_and_a_pair": "четыре одинаковых и пара",
        "pattern.two_triplets": "две тройки",
        "pattern.single_1": "одиночная 1",
        "pattern.single_5": "одиночная 5",
    },
)


def status_text(lang: Lang, status: str) -> str:
    """The table's status in ``lang`` ("playing", «игра»)."""
    return WORDS.code(lang, "status", status)


def pattern_name(lang: Lang, pattern: str) -> str:
    return WORDS.code(lang, "pattern", pattern)


def describe(cmd: FarkleFlipCommand, lang: Lang = DEFAULT_LANG) -> str:
    """A legal move: in English the notation of game records ("draw", "place p2",
    "lock p1 0,2,3 three_of_a_kind", "stop", "ready"), in Russian the same in words."""
    say = WORDS.say
    if isinstance(cmd, Draw):
        return say(lang, "draw")
    if isinstance(cmd, Place):
        return say(lang, "place", target=cmd.target)
    if isinstance(cmd, Lock):
        positions = ",".join(str(k) for k in cmd.cards)
        # English: the pattern's code, as records write it; Russian: its name.
        pattern = cmd.pattern if lang == "en" else pattern_name(lang, cmd.pattern)
        return say(lang, "lock", owner=cmd.owner, positions=positions, pattern=pattern)
    if isinstance(cmd, Stop):
        return say(lang, "stop")
    assert isinstance(cmd, Ready)
    return say(lang, "ready")


def line(e: Any, lang: Lang = DEFAULT_LANG) -> str | None:
    """The log line of an event as its viewer sees it (from the event as redacted for it: the
    draw pile's order is nobody's to see). ``e`` is already redacted
    for that viewer (``Decider.event_text`` is ``words.redacted_lines(redact, line)``)."""
    say = WORDS.say
    if e is None:
        return None
    if isinstance(e, SeatReady):
        return say(lang, "ev.ready", seat=e.seat)
    if isinstance(e, GameDealt):
        return say(lang, "ev.dealt", dealer=e.dealer, seat=e.first_seat)
    if isinstance(e, CardDrawn):
        card = say(lang, "a_farkle_card") if e.card == FARKLE else e.card
        return say(lang, "ev.drawn", seat=e.seat, card=card)
    if isinstance(e, CardPlaced):
        return say(lang, "ev.placed", seat=e.seat, card=e.card, target=e.target)
    if isinstance(e, CombinationLocked):
        return say(
            lang,
            "ev.locked",
            seat=e.seat,
            cards=" ".join(str(c) for c in e.cards),
            owner=e.owner,
            pattern=pattern_name(lang, e.pattern),
            value=e.value,
        )
    if isinstance(e, Busted):
        if not e.lost:
            return say(lang, "ev.busted", seat=e.seat)
        return WORDS.word(lang, "ev.busted_lost", len(e.lost)).format(seat=e.seat, n=len(e.lost))
    if isinstance(e, Stopped):
        key = {"banked": "ev.banked", "forfeit": "ev.forfeit"}.get(e.result, "ev.nothing")
        return say(lang, key, seat=e.seat, points=e.points, banked=e.banked)
    if isinstance(e, TurnEnded):
        return say(lang, "ev.turn_ended", seat=e.seat)
    if isinstance(e, PileReshuffled):
        return say(lang, "ev.reshuffled", n=e.size)
    if isinstance(e, PileOrderGiven):
        return say(lang, "ev.order_given", n=len(e.order))
    if isinstance(e, FinalRoundStarted):
        return say(lang, "ev.final_round", seat=e.trigger)
    if isinstance(e, GameEnded):
        reason = WORDS.code(lang, "end", e.reason)
        return say(lang, "ev.over", reason=reason)
    return None
