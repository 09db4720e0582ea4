"""How a Kings Cup table ended, in words in the language asked, so the page only draws it; the
words name none of the cards still around the cup."""

from __future__ import annotations

import re

import msgspec

from contracts.games.kings_cup import DrawCard, MakeRule
from domain.games.kings_cup import GAME
from domain.games.kings_cup.view import view
from tests.unit.kings_cup.helpers import act, started

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def test_the_fourth_king_is_said_in_both_languages() -> None:
    s = started("KH 5C 4D", kings=3)
    assert view(s, "p1", "en").result_text == view(s, "p1", "ru").result_text == ""
    s, _ = act(s, "p1", DrawCard())
    for seat in ("p1", "p2", None):
        assert view(s, seat).result == "fourth_king"
        assert view(s, seat, "en").result_text == "The fourth King: the cup is theirs."
        ru = view(s, seat, "ru").result_text
        assert ru == "Четвёртый король: кубок достаётся ему." and CYRILLIC.search(ru)


def test_every_card_drawn_is_said_in_both_languages() -> None:
    s = started("KH 5C", preset="kings-cup-deck-out", kings=3)
    s, _ = act(s, "p1", DrawCard())
    s, _ = act(s, "p1", MakeRule(text="Whisper"))
    mid = view(s, "p2", "ru")
    assert mid.result_text == "" and not any(c in mid.result_text for c in GAME.hidden(s, "p2"))
    s, _ = act(s, "p2", DrawCard())
    assert view(s, "p3", "en").result_text == "Every card has been drawn."
    assert view(s, "p3", "ru").result_text == "Вытянуты все карты."
    assert GAME.view_in is not None


LATIN_WORD = re.compile(r"\b[A-Za-z]{3,}\b")


def test_a_russian_table_shows_the_neutral_card_rules_and_the_notice_in_russian() -> None:
    s = started("5C 4D 9H")
    s, _ = act(s, "p1", DrawCard())
    ru, en = view(s, "p2", "ru"), view(s, "p2", "en")
    for rank, rule in ru.card_rules.items():
        assert CYRILLIC.search(rule.title) and CYRILLIC.search(rule.text), rank
        assert not LATIN_WORD.search(rule.title + " " + rule.text), rank
        assert rule.effect == en.card_rules[rank].effect
    assert en.card_rules["5"].title == "Everyone" and ru.card_rules["5"].title == "Все"
    assert (
        ru.last is not None and ru.last.title == "Все" and en.last is not None and en.last.title == "Everyone"
    )
    assert CYRILLIC.search(ru.notice) and not LATIN_WORD.search(ru.notice)
    assert en.notice.startswith("Drink responsibly")
    line = GAME.event_text(s, next(iter(act(started("5C 4D"), "p1", DrawCard())[1])), None, "ru")  # type: ignore[misc]
    assert line is not None and "Все" in line


def test_a_card_rule_an_operator_wrote_is_shown_as_written_in_every_language() -> None:
    from contracts.games.kings_cup import CardRule
    from domain.games.kings_cup.rules import PRESETS

    own = msgspec.structs.replace(
        PRESETS["kings-cup-neutral"],
        card_rules={
            **PRESETS["kings-cup-neutral"].card_rules,
            "5": CardRule(title="Cheers", text="Clink glasses."),
        },
        notice="House rules apply.",
    )
    s = started("5C 4D", rules=own)
    s, _ = act(s, "p1", DrawCard())
    ru = view(s, "p2", "ru")
    assert (ru.card_rules["5"].title, ru.card_rules["5"].text) == ("Cheers", "Clink glasses.")
    assert ru.last is not None and ru.last.title == "Cheers"
    assert ru.notice == "House rules apply."
    assert ru.card_rules["4"].title == "Пол"


def test_the_rules_help_names_the_neutral_cards_in_russian() -> None:
    from domain.games.kings_cup.explain import rules_help
    from domain.games.kings_cup.rules import PRESETS

    special = rules_help(PRESETS["kings-cup-neutral"], "ru").special
    assert any(line.startswith("5: Все — ") for line in special)
    cards = [line for line in special if " — " in line]
    assert len(cards) == 13
    assert not any(LATIN_WORD.search(line.split(":", 1)[1]) for line in cards)


def test_the_turn_going_on_names_who_draws_next_in_both_languages() -> None:
    """Kings Cup has no pass: once a card is done with, the log says whose draw it is now."""
    before = started("5C 4D 9H")
    _, events = act(before, "p1", DrawCard())  # 5, everyone: the card completes the turn
    passed = [e for e in events if type(e).__name__ == "TurnPassed"]
    assert passed, events
    en = GAME.event_text(before, passed[0], None, "en")  # type: ignore[misc]
    ru = GAME.event_text(before, passed[0], None, "ru")  # type: ignore[misc]
    assert en == "p2 draws next" and "passes" not in en
    assert ru == "теперь тянет p2" and "пас" not in ru
