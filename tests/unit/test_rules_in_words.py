"""Rules in words for players: every preset's help, end reasons as sentences (never codes), and
Ugolki's warnings before a rule-based loss (rules/ugolki.md §6.2-§6.4, Decision D3)."""

from __future__ import annotations

import re

import msgspec
import pytest

from contracts.match import CreateMatch, Outcome, Resign
from domain.core import match as match_layer
from domain.games import registry
from domain.games.ugolki import GAME as UGOLKI
from domain.games.ugolki.explain import end_text, warnings
from tests.unit.ugolki.helpers import at, mv, pos, rules

NAMES = {"white": "ann (white)", "black": "bob (black)"}
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # leave_home, final_round, ...


@pytest.mark.parametrize(
    "game, preset", [(g, p) for g, game in sorted(registry.GAMES.items()) for p in game.presets]
)
def test_every_preset_has_rules_help_in_sentences(game: str, preset: str) -> None:
    decider = registry.get(game)
    assert decider.rules_help is not None
    help_ = decider.rules_help(decider.presets[preset].ruleset)
    assert help_.game == game and help_.goal and help_.win
    for line in (help_.goal, *help_.win, *help_.lose, *help_.special):
        assert line.strip() and "None" not in line, (preset, line)
        assert not CODE.search(line), f"{preset}: a code in {line!r}"


CYRILLIC = re.compile(r"[\u0400-\u04ff]+")


@pytest.mark.parametrize(
    "game, preset", [(g, p) for g, game in sorted(registry.GAMES.items()) for p in game.presets]
)
def test_english_rules_help_has_no_russian_words(game: str, preset: str) -> None:
    """A rule the rules files name in Russian is named in English in the English help (1000's
    самосвал is the dump truck, rules/thousand-and-farkle-flip.md's glossary); the game's title
    may keep its Russian name beside the English one, and a variant's own name in a preset's
    description (draughts' «поддавки», Ugolki's «Косынка») is a name."""
    decider = registry.get(game)
    assert decider.rules_help is not None
    help_ = decider.rules_help(decider.presets[preset].ruleset, "en")
    for line in (help_.goal, *help_.win, *help_.lose, *help_.special):
        assert not CYRILLIC.search(line), f"{preset}: Russian in the English {line!r}"
    if game == "thousand":  # 1000's descriptions name its rules, not variants
        description = decider.presets[preset].description
        assert not CYRILLIC.search(description), f"{preset}: Russian in the English {description!r}"


def test_help_follows_the_ruleset_parameters() -> None:
    """§6.2 and §6.4: the numbers in the help are the preset's own."""
    halma = UGOLKI.rules_help(rules())
    assert any("after Black's move 40" in x for x in halma.lose)
    assert any("move 80" in x and "tempo" in x for x in halma.lose)
    ten = UGOLKI.rules_help(rules("halma-10x10-12345"))
    assert any("after Black's move 60" in x for x in ten.lose) and "15 of your pieces" in ten.goal
    kostrov = UGOLKI.rules_help(rules("kostrov"))
    assert any("Move cap" in x and "200" in x for x in kostrov.lose)  # D3
    assert not any("Leave home" in x for x in kostrov.lose)


def test_leave_home_end_reason_in_words() -> None:
    """§6.2 STAGE(40): Black keeps a piece at home through its 40th move and loses."""
    state = pos(rules(), "h1 d4", "d2 f6", moves_made=(40, 39))
    after = at(state).when("black", mv("f6", "f7")).then_accepted()
    assert after.result is not None and after.result.reason == "leave_home"
    text = end_text(after, after.result, NAMES)
    assert text == "White still had 1 piece in its own corner after Black's move 40."


def test_move_cap_and_repetition_reasons_in_words() -> None:
    state = pos(rules("kostrov"), "h1", "a8", moves_made=(200, 200))
    capped = end_text(state, Outcome(ranks=(2, 1), reason="move_cap", scores=(30.0, 20.0)), NAMES)
    assert capped == "after Black's move 200 the move cap judged the game by tempo (White 30, Black 20): the lower tempo wins."
    assert "third time" in end_text(state, Outcome(ranks=(1, 1), reason="repetition", draw=True), NAMES)


def test_leave_home_countdown_warns_the_side_still_at_home() -> None:
    """§6.2: 1 black piece at home after 26 moves each: 14 of Black's moves left before the check."""
    state = pos(rules(), "d4 e5", "a8 d2", moves_made=(26, 26))
    (warn, judged) = warnings(state)
    assert warn.seat == "black" and warn.rule == "leave_home" and warn.moves_left == 14
    assert warn.text.startswith("Black: 1 piece still at home, 14 moves left")
    assert not warn.urgent
    assert judged.rule == "long_game" and judged.moves_left == 54  # §6.4 at Black's 80th move
    late = warnings(pos(rules(), "d4 e5", "a8 d2", moves_made=(35, 35)))[0]
    assert late.moves_left == 5 and late.urgent
    # Once the stage check is past (STAGE is checked once), no countdown is left.
    assert [w.rule for w in warnings(pos(rules(), "d4 e5", "a8 d2", moves_made=(41, 41)))] == ["long_game"]


def test_move_cap_countdown_and_the_view_carries_the_warnings() -> None:
    """D3: presets without a long-game rule count down to the move cap."""
    state = pos(rules("kostrov"), "d4", "e5", moves_made=(195, 195))
    view = UGOLKI.view(state, None)
    assert [(w.rule, w.moves_left, w.urgent) for w in view.warnings] == [("move_cap", 5, True)]
    assert "After Black's move 200" in view.warnings[0].text


def test_last_move_is_in_the_view() -> None:
    state = pos(rules(), "h1 d4", "d2 f6", moves_made=(20, 19))
    after = at(state).when("black", mv("f6", "f7")).then_accepted()
    assert UGOLKI.view(after, "white").last_move == ("f6", "f7")
    assert UGOLKI.view(state, "white").last_move == ()


def _created(game: registry.Game, players: tuple[str, ...]) -> CreateMatch:
    preset = game.default_preset
    seats = game.seat_names(len(players))
    return CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(game.presets[preset].ruleset),
        seats=seats,
        players=players,
        token_hashes=tuple("0" * 64 for _ in seats),
        seed_commitment="c" * 64 if game.chance else "",
    )


def test_match_endings_in_words_name_the_players() -> None:
    state = None
    for event in match_layer.decide(UGOLKI, None, None, _created(UGOLKI, ("ann", "bob"))):
        state = match_layer.evolve(UGOLKI, state, event)
    assert match_layer.outcome_text(UGOLKI, state) is None
    for event in match_layer.decide(UGOLKI, state, "black", Resign()):
        state = match_layer.evolve(UGOLKI, state, event)
    assert match_layer.outcome_text(UGOLKI, state) == "ann (white) wins: bob (black) resigned."
    view = match_layer.view(UGOLKI, state, None, "m1", 2)
    assert view.outcome_text == "ann (white) wins: bob (black) resigned." and view.outcome.reason == "resignation"


def test_farkle_flip_score_sheet_rounds_add_up_to_the_banked_scores() -> None:
    """§3.2/§3.4: one sheet row per round of turns; a seat's points per row sum to its banked score."""
    import random

    ff = registry.get("farkle-flip")
    ruleset = ff.presets[ff.default_preset].ruleset
    seats = ff.seat_names(3)
    state = ff.initial_state(ruleset, seats, b"\x01" * 32)
    rng = random.Random(5)
    for _ in range(400):
        movers = sorted(ff.to_move(state))
        if not movers:
            break
        seat = movers[0]
        result = ff.decide(state, seat, rng.choice(ff.legal_commands(state, seat)))
        assert isinstance(result, tuple)
        for event in result:
            state = ff.evolve(state, event)
    sheet = ff.view(state, None).sheet
    assert len(sheet) >= 3
    assert all(len(row.points) == len(seats) for row in sheet[:-1])
    final = ff.view(state, None).players
    for p in final:
        assert sum(row.points.get(p.seat, 0) for row in sheet) == p.banked
    assert sheet[-1].totals == {p.seat: p.banked for p in final}
