"""Kings Cup in words (rules/king.md §15.1), in English and Russian: a table helper's help and how
the game ended.  The cards' own rules are the ruleset's texts, shown as they are."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.kings_cup import KingsCupRuleset
from contracts.match import Outcome, RulesHelp
from domain.core.words import DEFAULT_LANG, Lang, Words

from .rules import card_words
from .state import CupState

WORDS = Words(
    en={
        "title": "Kings Cup",
        "goal": "A table helper: take turns drawing a card from around the cup and do what its rule says. "
        "Nobody wins or loses, and nothing is rated.",
        "end.fourth_king": "The player who draws the fourth King ends the game.",
        "end.all_cards": "The game ends when every card has been drawn.",
        "kings.replace": "A King's rule stands until the next King replaces it.",
        "kings.stack": "Kings' rules add up (at most {n}; the oldest lapses), and a King may cancel one.",
        "card": "{rank}: {title} — {text}",
        "ended.fourth_king": "{who} drew the fourth King.",
        "ended.fourth_king_anyone": "a player drew the fourth King.",
        "ended.all_cards": "every card has been drawn.",
    },
    ru={
        "title": "Kings Cup",
        "goal": "Помощник для застолья: по очереди тяните карту из круга вокруг кубка и делайте то, что "
        "велит её правило. Здесь никто не выигрывает и не проигрывает, рейтинг не ведётся.",
        "end.fourth_king": "Игрок, вытянувший четвёртого короля, заканчивает игру.",
        "end.all_cards": "Игра заканчивается, когда вытянуты все карты.",
        "kings.replace": "Правило короля действует, пока его не заменит следующий король.",
        "kings.stack": "Правила королей складываются (не больше {n}; самое старое отменяется), и король может "
        "отменить одно из них.",
        "card": "{rank}: {title} — {text}",
        "ended.fourth_king": "игрок {who} вытянул четвёртого короля.",
        "ended.fourth_king_anyone": "вытянут четвёртый король.",
        "ended.all_cards": "вытянуты все карты.",
    },
)


def rules_help(rs: KingsCupRuleset, lang: Lang = DEFAULT_LANG) -> RulesHelp:
    say = WORDS.say
    end = say(lang, "end.fourth_king" if rs.end == "fourth_king" else "end.all_cards")
    kings = (
        say(lang, "kings.replace") if rs.king_rules == "replace" else say(lang, "kings.stack", n=rs.max_rules)
    )
    return RulesHelp(
        game="kings-cup",
        title=say(lang, "title"),
        goal=say(lang, "goal"),
        win=(end,),
        lose=(),
        special=(
            kings,
            *(
                say(lang, "card", rank=rank, title=t, text=x)
                for rank, rule in rs.card_rules.items()
                for t, x in [card_words(rank, rule, lang)]
            ),
        ),
    )


def end_text(state: CupState, out: Outcome, names: Mapping[str, str], lang: Lang = DEFAULT_LANG) -> str:
    if state.end_reason == "fourth_king":
        who = names.get(state.seats[state.ended_by]) if 0 <= state.ended_by < len(state.seats) else None
        if who is None:
            return WORDS.say(lang, "ended.fourth_king_anyone")
        return WORDS.say(lang, "ended.fourth_king", who=who)
    return WORDS.say(lang, "ended.all_cards")
