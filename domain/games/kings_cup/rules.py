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
