"""Kings Cup rule sets (rules/king.md §15.1): neutral wording by default (the [rec] of §15.1
replaces source G's crude 4 and 6 labels), standing roles as card effects."""

from __future__ import annotations

import msgspec

from contracts.games.kings_cup import CardRule, KingsCupRuleset

NEUTRAL: dict[str, CardRule] = {
    "A": CardRule(
        title="Waterfall", text="Everyone starts drinking; nobody may stop before the person before them."
    ),
    "2": CardRule(title="You", text="Choose someone to take a sip.", effect="choose_seat"),
    "3": CardRule(title="Me", text="You take a sip."),
    "4": CardRule(title="Floor", text="Last to touch the floor takes a sip."),
    "5": CardRule(title="Everyone", text="Everyone takes a sip."),
    "6": CardRule(title="Neighbours", text="Both of your neighbours take a sip."),
    "7": CardRule(title="Heaven", text="Last to point up takes a sip."),
    "8": CardRule(
        title="Mate",
        text="Choose a mate: they drink whenever you drink (mates chain, one way).",
        effect="mate",
    ),
    "9": CardRule(
        title="Rhyme", text="Say a word; going round, each rhymes with it. First to fail takes a sip."
    ),
    "10": CardRule(title="Categories", text="Name a category; going round, each names one thing in it."),
    "J": CardRule(
        title="Never have I ever",
        text="Going round, three fingers up; lower one for each thing you have done.",
    ),
    "Q": CardRule(
        title="Question master",
        text="Until the next Queen, whoever answers one of your questions takes a sip.",
        effect="question_master",
    ),
    "K": CardRule(
        title="Rule",
        text="Make a rule for the table. The first three Kings pour into the cup; the fourth King drinks it.",
        effect="new_rule",
    ),
}

_BASE = KingsCupRuleset(card_rules=NEUTRAL)

PRESETS: dict[str, KingsCupRuleset] = {
    # source G: the fourth King ends the game; a King's rule lasts until the next King
    "kings-cup-neutral": _BASE,
    # source I: the game ends when every card has been drawn
    "kings-cup-deck-out": msgspec.structs.replace(_BASE, end="deck_out"),
    # source H: rules add up, and a King may cancel one
    "kings-cup-stacking-rules": msgspec.structs.replace(_BASE, king_rules="accumulate"),
}

DESCRIPTIONS: dict[str, str] = {
    "kings-cup-neutral": "Table helper (not rated): neutral card texts; the fourth King ends the game; "
    "a King's rule lasts until the next King",
    "kings-cup-deck-out": "Table helper (not rated): the game ends when every card has been drawn",
    "kings-cup-stacking-rules": "Table helper (not rated): Kings' rules add up, and a King may cancel one",
}

DESCRIPTIONS_RU: dict[str, str] = {
    "kings-cup-neutral": "Помощник для застолья (без рейтинга): нейтральные тексты карт; четвёртый король "
    "заканчивает игру; правило короля действует до следующего короля",
    "kings-cup-deck-out": "Помощник для застолья (без рейтинга): игра заканчивается, когда вытянуты все карты",
    "kings-cup-stacking-rules": "Помощник для застолья (без рейтинга): правила королей складываются, и король "
    "может отменить одно из них",
}


# The neutral texts in Russian: a table whose rule (or notice) is the neutral English one is shown
# it in Russian on a Russian page; a text an operator wrote is shown as written.
NEUTRAL_RU: dict[str, tuple[str, str]] = {
    "A": ("Водопад", "Все начинают пить; никто не может остановиться раньше соседа перед ним."),
    "2": ("Ты", "Выберите, кто сделает глоток."),
    "3": ("Я", "Вы делаете глоток."),
    "4": ("Пол", "Последний, кто коснётся пола, делает глоток."),
    "5": ("Все", "Все делают по глотку."),
    "6": ("Соседи", "Оба ваших соседа делают по глотку."),
    "7": ("Небо", "Последний, кто покажет вверх, делает глоток."),
    "8": (
        "Напарник",
        "Выберите напарника: он пьёт всякий раз, когда пьёте вы (напарники цепляются по цепочке, в одну сторону).",
    ),
    "9": ("Рифма", "Скажите слово; по кругу каждый подбирает к нему рифму. Кто не сможет, делает глоток."),
    "10": ("Категории", "Назовите категорию; по кругу каждый называет что-нибудь из неё."),
    "J": ("Я никогда не…", "По кругу: три пальца вверх; загибайте палец за всё, что вы делали."),
    "Q": ("Мастер вопросов", "До следующей дамы тот, кто ответит на ваш вопрос, делает глоток."),
    "K": (
        "Правило",
        "Придумайте правило для стола. Первые три короля наливают в кубок; четвёртый король его выпивает.",
    ),
}
NOTICE_RU = (
    "Пейте ответственно или не пейте вовсе: вода и безалкогольные напитки подходят не хуже. "
    "Играйте, только если вы достигли возраста, с которого разрешено спиртное; любой может пропустить."
)


def card_words(rank: str, rule: CardRule, lang: str) -> tuple[str, str]:
    """A card rule's title and text in ``lang``: the neutral rule in Russian on a Russian page."""
    if lang == "ru" and rank in NEUTRAL_RU and NEUTRAL.get(rank) == rule:
        return NEUTRAL_RU[rank]
    return rule.title, rule.text


def notice_words(notice: str, lang: str) -> str:
    """The responsible-drinking notice in ``lang`` (an operator's own notice as written)."""
    return NOTICE_RU if lang == "ru" and notice == KingsCupRuleset().notice else notice


# The rule a King's legal move records when the table says it aloud, and in Russian.
SPOKEN_RULE = "the rule said at the table"
SPOKEN_RULE_RU = "правило, сказанное за столом"


def made_rule_words(text: str, lang: str) -> str:
    """A made rule's text in ``lang``: the rule said at the table in Russian on a Russian page (a
    rule a player typed is shown as typed)."""
    return SPOKEN_RULE_RU if lang == "ru" and text == SPOKEN_RULE else text


def title_words(rank: str, title: str, lang: str) -> str:
    """A drawn card's title (as an event records it) in ``lang``."""
    rule = NEUTRAL.get(rank)
    return NEUTRAL_RU[rank][0] if lang == "ru" and rule is not None and rule.title == title else title
