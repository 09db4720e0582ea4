"""Move text (rules/draughts.md §9.2, D11), squares (§3.2, §9.1) and position strings (§9.3)."""

from __future__ import annotations

import pytest

from contracts.envelope import Rejected
from domain.games.draughts import GAME, fen
from domain.games.draughts.board import NAMES

from .helpers import SEATS, at, moves, play, refused


def test_3_2_numeric_squares_follow_the_table() -> None:
    """§3.2: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1."""
    assert [NAMES[n - 1] for n in (1, 2, 4, 5, 13, 21, 29, 32)] == [
        "b8",
        "d8",
        "h8",
        "a7",
        "a5",
        "a3",
        "a1",
        "g1",
    ]


@pytest.mark.parametrize(
    "text", ["c3-d4", "22-18", "1. c3-d4", "12... c3-d4", "c3-d4!", "c3-d4?!", "C3–D4", "с3-d4"]
)
def test_9_2_every_accepted_form_of_a_quiet_move_plays_it(text: str) -> None:
    """§9.1-§9.2: move numbers and glyphs ignored, case, dashes and Cyrillic look-alikes mapped."""
    assert play(at(), text).history[-1].path == (21, 17)


@pytest.mark.parametrize("text", ["c3-22", "a1--g7", "a2-b3", "c3", "c3-d4-e5", "z9-d4"])
def test_9_2_unreadable_text_is_bad_notation(text: str) -> None:
    """§9.2: mixed squares, a light square, a broken text are bad_notation."""
    assert refused(at(), text) == "bad_notation"


def test_9_2_a_capture_written_as_a_quiet_move_matches_nothing() -> None:
    """§9.2: a capture written with - is illegal_move."""
    assert refused(at("W:We5,a1:Bd4,b6,h8"), "e5-c3") == "illegal_move"


def test_9_2_a_whole_path_names_its_move_where_it_is_also_a_longer_capture_short_form() -> None:
    """§9.2 leaves this open: e3:g1 is the whole path of the single capture of f2 and also a short
    form of e3:c1:a3:c5:g1.  The whole path names its move, so every legal move, written in the
    referee's canonical form, can be played; the short forms through a landing square still name
    the longer capture."""
    s = at("B:Wd2,b2,b4,f2:Be3")
    assert sorted(moves(s)) == ["e3:c1:a3:c5:g1", "e3:g1"]
    assert play(s, "e3:g1").history[-1].path == (NAMES.index("e3"), NAMES.index("g1"))
    assert play(s, "e3xg1").history[-1].path == (NAMES.index("e3"), NAMES.index("g1"))
    assert len(play(s, "e3:c5:g1").history[-1].path) == 5
    assert len(play(s, "e3:a3:g1").history[-1].path) == 5


def test_9_2_every_legal_move_is_played_by_its_canonical_text_in_long_random_games() -> None:
    """Each move the referee lists is accepted as written, all along 40 random games."""
    import random

    rng = random.Random(7)
    for _ in range(40):
        s = at()
        for _ply in range(150):
            if GAME.outcome(s) is not None:
                break
            seat = next(iter(GAME.to_move(s)))
            for command in GAME.legal_commands(s, seat):
                assert not isinstance(GAME.decide(s, seat, command), Rejected), (fen.write(s.pos), command)
            s = play(s, rng.choice(moves(s)))


def test_9_2_moves_out_of_turn_and_after_the_end_are_refused() -> None:
    s = at()
    assert refused(s, "c3-d4", seat=SEATS[1]) == "not_your_turn"
    done = play(at("W:Wc3:Bd4"), "c3:e5")
    assert refused(done, "e5-f6", seat=SEATS[1]) == "game_over"


def test_9_3_the_start_position_string() -> None:
    """§9.3, §4: the canonical string of the start."""
    assert fen.write(at().pos) == fen.START


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("W:Wa1,Kc3:Bh8", "W:WK22,29:B4"),
        ("W:W21-24:B1", "W:W21,22,23,24:B1"),
        ("B:B1,2:W30", "B:W30:B1,2"),
        ("B:W18:B", "B:W18:B"),
        ("W:W21:B1:H0:F1", "W:W21:B1"),
    ],
)
def test_9_3_accepted_position_strings_and_their_canonical_form(text: str, canonical: str) -> None:
    assert fen.write(fen.parse(text)) == canonical


@pytest.mark.parametrize("text", ["W:W21,21:B1", "W:Wa2:B1", "W:W21:W22", "X:W21:B1", "W:W33:B1", "nonsense"])
def test_9_3_malformed_position_strings_are_refused(text: str) -> None:
    """§9.3: a square twice, a light square, a list twice, a bad side are refused."""
    assert GAME.position is not None
    answer = GAME.position(at().rules, SEATS, text)
    assert isinstance(answer, Rejected) and answer.code == "bad_position"


def test_d12_start_fen_is_a_ruleset_parameter_and_is_validated() -> None:
    """D12: start_fen starts the game there; a bad one is refused by validate."""
    s = at("B:Wa1,Kh8:Bb2,e3,h6")
    assert s.side == 1
    assert GAME.validate(at().rules.__class__(start_fen="W:Wa2:B1"), 2) is not None
