"""Kings Cup's words for the table: a legal move's label and a line of the match log for each
event, in English and Russian (domain/core/words.py).  A card's rule title and a made rule are
the table's own words and stay as written; card ids stay as ids (the page draws suit signs)."""

from __future__ import annotations

from typing import Any

from contracts.games.kings_cup import (
    CardDrawn,
    ChooseSeat,
    CupDealt,
    CupEnded,
    DrawCard,
    KingsCupCommand,
    MakeRule,
    Ready,
    RuleMade,
    SeatChosen,
    SeatReady,
    TurnPassed,
)
from domain.core.words import DEFAULT_LANG, Lang, Words
from domain.games.kings_cup.rules import made_rule_words, title_words

WORDS = Words(
    en={
        "draw": "draw",
        "choose": "choose {seat}",
        "cancel": "cancel rule {n}",
        "rule": "rule: {text}",
        "ready": "ready",
        "ev.ready": "{seat} is ready",
        "ev.dealt": "{n} cards around the cup; {seat} draws first",
        "ev.drawn": "{seat} draws {card}: {title}",
        "ev.chosen": "{seat} chooses {target}",
        "ev.chosen_mate": "{seat} chooses {target} as mate",
        "ev.rule": "{seat} makes a rule: {text}",
        "ev.cancel": "{seat} cancels a rule",
        "ev.passed": "{next} draws next",
        "ev.fourth_king": "{seat} draws the fourth King",
        "ev.all_drawn": "every card drawn",
        "end.fourth_king": "The fourth King: the cup is theirs.",
        "end.all_drawn": "Every card has been drawn.",
    },
    ru={
        "draw": "тянуть карту",
        "choose": "выбрать {seat}",
        "cancel": "отменить правило {n}",
        "rule": "правило: {text}",
        "ready": "готов",
        "ev.ready": "{seat} готов",
        "ev.dealt": "вокруг кубка карт: {n}; первым тянет {seat}",
        "ev.drawn": "{seat} тянет {card}: {title}",
        "ev.chosen": "{seat} выбирает {target}",
        "ev.chosen_mate": "{seat} выбирает напарником {target}",
        "ev.rule": "{seat} вводит правило: {text}",
        "ev.cancel": "{seat} отменяет правило",
        "ev.passed": "теперь тянет {next}",
        "ev.fourth_king": "{seat} тянет четвёртого короля",
        "ev.all_drawn": "вытянуты все карты",
        "end.fourth_king": "Четвёртый король: кубок достаётся ему.",
        "end.all_drawn": "Вытянуты все карты.",
    },
)


def result_text(status: str, result: str, lang: Lang = DEFAULT_LANG) -> str:
    """How the game ended, as the table says it ("" before the end)."""
    if status != "finished":
        return ""
    return WORDS.say(lang, "end.fourth_king" if result == "fourth_king" else "end.all_drawn")


def describe(cmd: KingsCupCommand, lang: Lang = DEFAULT_LANG) -> str:
    """A legal move in words: "draw", "choose p2", "rule: <text>", "cancel rule 1", "ready"."""
    say = WORDS.say
    if isinstance(cmd, DrawCard):
        return say(lang, "draw")
    if isinstance(cmd, ChooseSeat):
        return say(lang, "choose", seat=cmd.seat)
    if isinstance(cmd, MakeRule):
        if cmd.cancel is not None and not cmd.text:
            return say(lang, "cancel", n=cmd.cancel)
        return say(lang, "rule", text=made_rule_words(cmd.text, lang))
    assert isinstance(cmd, Ready)
    return say(lang, "ready")


def line(e: Any, lang: Lang = DEFAULT_LANG) -> str | None:
    """The log line of an event as its viewer sees it (from the event as redacted for it: the
    order of the cards around the cup is nobody's to see). ``e`` is already redacted
    for that viewer (``Decider.event_text`` is ``words.redacted_lines(redact, line)``)."""
    say = WORDS.say
    if e is None:
        return None
    if isinstance(e, SeatReady):
        return say(lang, "ev.ready", seat=e.seat)
    if isinstance(e, CupDealt):
        return say(lang, "ev.dealt", n=e.size, seat=e.first_seat)
    if isinstance(e, CardDrawn):
        return say(lang, "ev.drawn", seat=e.seat, card=e.card, title=title_words(e.rank, e.title, lang))
    if isinstance(e, SeatChosen):
        return say(
            lang, "ev.chosen_mate" if e.effect == "mate" else "ev.chosen", seat=e.seat, target=e.target
        )
    if isinstance(e, RuleMade):
        return (
            say(lang, "ev.rule", seat=e.seat, text=made_rule_words(e.text, lang))
            if e.text
            else say(lang, "ev.cancel", seat=e.seat)
        )
    if isinstance(e, TurnPassed):
        return say(lang, "ev.passed", next=e.next_seat)
    if isinstance(e, CupEnded):
        return (
            say(lang, "ev.fourth_king", seat=e.seat)
            if e.reason == "fourth_king"
            else say(lang, "ev.all_drawn")
        )
    return None
