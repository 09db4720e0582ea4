"""What a mutation sample of domain/core found unpinned: the preset catalogue a Lobby builds, the
PGN family's defaults and tags, the log line of a game's event in the language asked, and the
clock in a match view."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core import movetext
from domain.core.lobby import Lobby
from domain.games.ugolki.pgn import STYLE


def test_a_lobby_gives_each_preset_its_family_and_title_in_both_languages() -> None:
    lobby = Lobby(
        families={"Classic": {"a": "The A"}, "Kids": {"b": "The B"}},
        families_ru={"Classic": "Классика"},
        titles_ru={"a": "А"},
    )
    out = lobby.presets({"a": 1, "b": 2, "c": 3}, {"a": "da", "b": "db", "c": "dc"}, {"a": "ра"})
    a, b, c = out["a"], out["b"], out["c"]
    assert (a.ruleset, a.description, a.description_ru, a.family, a.family_ru, a.title, a.title_ru) == (
        1, "da", "ра", "Classic", "Классика", "The A", "А",
    )  # fmt: skip
    # no Russian title or family: the English ones; no family at all: the preset's own name
    assert (b.family, b.family_ru, b.title, b.title_ru, b.description_ru) == ("Kids", "Kids", "The B", "The B", "")
    assert (c.family, c.title, c.title_ru) == ("", "c", "c")


def test_a_move_text_without_player_tags_names_the_sides() -> None:
    record = movetext.read("1. h2-h3 *\n", STYLE)
    assert record["players"] == ["white", "black"]
    named = movetext.read('[White "ann"]\n[Black "bob"]\n\n1. h2-h3 *\n', STYLE)
    assert named["players"] == ["ann", "bob"]


def test_a_bad_overrides_tag_is_named() -> None:
    with pytest.raises(ValueError, match=r"^the Overrides tag is not a JSON object$"):
        movetext.read('[Overrides "{not json"]\n\n1. h2-h3 *\n', STYLE)


def test_a_written_move_text_has_the_seven_tag_roster() -> None:
    record: dict[str, Any] = {"game": "ugolki", "preset": "halma-8x8-1234", "players": ["ann", "bob"], "actions": []}
    text = movetext.write(record, STYLE)
    for tag in ('[Event "gamehall match"]', '[White "ann"]', '[Black "bob"]', '[Result "*"]'):
        assert tag in text, (tag, text)


def test_a_games_log_line_is_in_the_language_asked() -> None:
    from domain.core import logwords
    from domain.core import match as match_layer
    from domain.games import registry
    from tests.support.bundles import played_match

    _, decisions = played_match("kings-corner", seed=1, max_moves=12)
    decider = registry.get("kings-corner")
    state = None
    lines: dict[str, list[str | None]] = {"en": [], "ru": []}
    for _seat, _command, events in decisions:
        before = state
        for e in events:
            state = match_layer.evolve(decider, state, e)
        if before is not None:
            for lang in lines:
                lines[lang] += logwords.decision_texts(decider, before, events, None, lang)
    assert lines["en"] and lines["ru"] and lines["en"] != lines["ru"]
    assert any(t and any("а" <= ch <= "я" for ch in t) for t in lines["ru"])
